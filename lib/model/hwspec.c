/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tabfile.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "stream/schema.h"

extern const char tl_default_gpus[];	/* gpus_table.c, from share/tl/gpus.tsv */

#define BUILTIN_NAME	"built-in gpus.tsv"

/* The figures a compute spec or the bandwidth can have. */
enum {
	K_PEAK = TL_FIG_PEAK, K_SPARSE = TL_FIG_SPARSE,
	K_ACH = TL_FIG_ACHIEVABLE, NKIND = TL_FIG_N
};

static const char *const kindname[NKIND] = { "peak", "sparse", "achievable" };

enum key {
	KEY_SPEC, KEY_HBM, KEY_MEM, KEY_PKG, KEY_CUS, KEY_ALIAS, KEY_DEV,
	KEY_DESC, KEY_ARCH, KEY_LINK, KEY_LINKNAME
};

struct spec {
	const char *name;
	double v[NKIND];
	const char *src[NKIND];
	long line[NKIND];		/* row that set it, 0 = none */
};

struct alias {
	const char *name;
	long line;
};

struct pattern {
	const char *text;
	size_t len;			/* without the trailing '*' */
	int prefix;
	int dflt;
	long line;
};

struct tl_hw {
	const char *name;
	const char *desc;
	double hbm[NKIND];		/* K_PEAK and K_ACH only */
	const char *hbm_src[NKIND];
	long hbm_line[NKIND];
	double mem_gb;
	const char *mem_src;
	long mem_line;
	double link_gbs;		/* GPU-to-GPU links, one direction */
	const char *link_src, *link_name;
	long link_line, linkname_line;
	int per_pkg, cus;
	long pkg_line, cus_line, desc_line;
	struct spec *spec;
	size_t nspec, capspec;
	struct alias *alias;
	size_t nalias, capalias;
	struct pattern *pat;
	size_t npat, cappat;
	struct alias *arch;		/* ISA names: gfx942, sm_90 */
	size_t narch, caparch;
};

struct fact {
	const char *f[5];		/* gpu, key, kind, value, source */
};

struct table {
	char *text;
	struct fact *fact;
	size_t nfact, capfact;
	struct tl_hw *hw;
	size_t nhw, caphw;
};

/* The state of one parse: the table file read, for error messages. */
struct ctx {
	struct table *t;
	struct tl_tabfile in;
};

static struct table cur;
static int loaded, tried;

static void fail(struct ctx *c, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
fail(struct ctx *c, long line, const char *fmt, ...)
{
	char what[sizeof(c->in.err)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	tl_tabfile_error(&c->in, line, "%s", what);
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* A character of a GPU name as compared: case, '_' and ' ' fold to '-'. */
static int
fold(int c)
{
	c = lower(c);
	return c == '_' || c == ' ' ? '-' : c;
}

static int
name_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = fold((unsigned char)*a), y = fold((unsigned char)*b);

		if (x != y)
			return 0;
		if (x == '\0')
			return 1;
	}
}

/* ASCII case-insensitive comparison of n bytes, or of whole strings. */
static int
case_eqn(const char *a, const char *b, size_t n)
{
	for (; n > 0; n--, a++, b++) {
		if (lower((unsigned char)*a) != lower((unsigned char)*b))
			return 0;
		if (*a == '\0')
			return 1;
	}
	return 1;
}

static int
case_eq(const char *a, const char *b)
{
	size_t n = strlen(a);

	return n == strlen(b) && case_eqn(a, b, n);
}

static void
table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nhw; i++) {
		free(t->hw[i].spec);
		free(t->hw[i].alias);
		free(t->hw[i].pat);
		free(t->hw[i].arch);
	}
	free(t->hw);
	free(t->fact);
	free(t->text);
	memset(t, 0, sizeof(*t));
}

static int
valid_name(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		int c = (unsigned char)*s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		    c == '-' || c == '+'))
			return 0;
	}
	return 1;
}

static int
valid_spec(const char *s)
{
	if (strncmp(s, "matrix_", 7) != 0 && strncmp(s, "vector_", 7) != 0)
		return 0;
	s += 7;
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '_'))
			return 0;
	return 1;
}

/*
 * A positive finite decimal number, or the empty string (unknown: 0).
 * Only decimal notation: strtod would also take "nan", "inf" and hex.
 */
static int
parse_num(const char *s, double *out, const char **why)
{
	char buf[64], *end;
	size_t n;
	double v;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	*out = 0;
	if (n == 0)
		return 0;
	if (n >= sizeof(buf) || strspn(s, "0123456789.eE+-") < n) {
		*why = "not a number";
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (end == buf || *end != '\0' || !isfinite(v)) {
		*why = "not a number";
		return -1;
	}
	if (errno == ERANGE) {
		*why = "number out of range";
		return -1;
	}
	if (v < 0) {
		*why = "negative value";
		return -1;
	}
	if (v == 0) {
		*why = "zero; leave the value empty when it is unknown";
		return -1;
	}
	*out = v;
	return 0;
}

static struct tl_hw *
get_hw(struct table *t, const char *name)
{
	struct tl_hw *hw;
	size_t i;

	for (i = 0; i < t->nhw; i++)
		if (name_eq(t->hw[i].name, name))
			return &t->hw[i];
	tl_grow(&t->hw, &t->caphw, t->nhw + 1, sizeof(*t->hw));
	hw = &t->hw[t->nhw++];
	memset(hw, 0, sizeof(*hw));
	hw->name = name;
	hw->desc = "";
	hw->per_pkg = 1;
	return hw;
}

static struct spec *
get_spec(struct tl_hw *hw, const char *name)
{
	struct spec *s;
	size_t i;

	for (i = 0; i < hw->nspec; i++)
		if (strcmp(hw->spec[i].name, name) == 0)
			return &hw->spec[i];
	tl_grow(&hw->spec, &hw->capspec, hw->nspec + 1, sizeof(*hw->spec));
	s = &hw->spec[hw->nspec++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	return s;
}

static int
parse_key(const char *s, enum key *k)
{
	static const struct {
		const char *name;
		enum key key;
	} keys[] = {
		{ "hbm_tbs", KEY_HBM },
		{ "memory_gb", KEY_MEM },
		{ "devices_per_package", KEY_PKG },
		{ "compute_units", KEY_CUS },
		{ "alias", KEY_ALIAS },
		{ "device_name", KEY_DEV },
		{ "description", KEY_DESC },
		{ "arch", KEY_ARCH },
		{ "link_gbs", KEY_LINK },
		{ "link", KEY_LINKNAME }
	};
	size_t i;

	if (valid_spec(s)) {
		*k = KEY_SPEC;
		return 0;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].name, s) == 0) {
			*k = keys[i].key;
			return 0;
		}
	return -1;
}

static int
parse_kind(const char *s)
{
	int i;

	for (i = 0; i < NKIND; i++)
		if (strcmp(kindname[i], s) == 0)
			return i;
	return -1;
}

/* "first at line N" for a duplicate. */
static int
dup_row(struct ctx *c, long line, long first, const char *gpu, const char *key,
    const char *kind)
{
	fail(c, line, "duplicate row for %s %s%s%s (first at line %ld)", gpu,
	    key, *kind != '\0' ? " " : "", kind, first);
	return -1;
}

/* Append a name (an alias, an arch) and its line to a list. */
static void
add_name(struct alias **v, size_t *n, size_t *cap, const char *name,
    long line)
{
	tl_grow(v, cap, *n + 1, sizeof(**v));
	(*v)[*n].name = name;
	(*v)[(*n)++].line = line;
}

/* Check and store one row; 0 or -1. */
static int
add_row(struct ctx *c, long line, const struct fact *r)
{
	const char *gpu = r->f[0], *key = r->f[1], *kind = r->f[2];
	const char *val = r->f[3], *src = r->f[4], *why = NULL;
	struct tl_hw *hw;
	enum key k;
	double v = 0;
	long long iv = 0;
	int kd = -1;
	size_t i;

	if (!valid_name(gpu)) {
		fail(c, line, "bad gpu name '%s' (letters, digits, . _ - +)",
		    gpu);
		return -1;
	}
	if (parse_key(key, &k) != 0) {
		fail(c, line, "unknown key '%s'", key);
		return -1;
	}
	/* The kind column. */
	switch (k) {
	case KEY_SPEC:
	case KEY_HBM:
		kd = parse_kind(kind);
		if (kd < 0 || (k == KEY_HBM && kd == K_SPARSE)) {
			fail(c, line, "kind of %s must be %s, not '%s'", key,
			    k == KEY_HBM ? "peak or achievable" :
			    "peak, sparse or achievable", kind);
			return -1;
		}
		break;
	case KEY_LINK:
		if (strcmp(kind, "peak") != 0) {
			fail(c, line, "kind of %s must be peak, not '%s'", key,
			    kind);
			return -1;
		}
		break;
	case KEY_DEV:
		if (*kind != '\0' && strcmp(kind, "default") != 0) {
			fail(c, line, "kind of device_name must be empty or "
			    "default, not '%s'", kind);
			return -1;
		}
		break;
	default:
		if (*kind != '\0') {
			fail(c, line, "kind of %s must be empty, not '%s'",
			    key, kind);
			return -1;
		}
		break;
	}
	/* The value column. */
	switch (k) {
	case KEY_SPEC:
	case KEY_HBM:
	case KEY_MEM:
	case KEY_LINK:
		if (parse_num(val, &v, &why) != 0) {
			fail(c, line, "%s: %s '%s'", key, why, val);
			return -1;
		}
		break;
	case KEY_PKG:
	case KEY_CUS:
		if (*val != '\0' && tl_parse_long(val, 1, 1000000, &iv) != 0) {
			fail(c, line, "%s: not a positive whole number '%s'",
			    key, val);
			return -1;
		}
		break;
	case KEY_ALIAS:
	case KEY_ARCH:
		if (!valid_name(val)) {
			fail(c, line, "bad %s '%s' (letters, digits, "
			    ". _ - +)", key, val);
			return -1;
		}
		break;
	case KEY_DEV:
		if (*val == '\0' || strcmp(val, "*") == 0) {
			fail(c, line, "empty device_name pattern");
			return -1;
		}
		break;
	case KEY_DESC:
	case KEY_LINKNAME:
		break;
	}

	hw = get_hw(c->t, gpu);
	switch (k) {
	case KEY_SPEC: {
		struct spec *s = get_spec(hw, key);

		if (s->line[kd] != 0)
			return dup_row(c, line, s->line[kd], hw->name, key, kind);
		s->v[kd] = v;
		s->src[kd] = src;
		s->line[kd] = line;
		break;
	}
	case KEY_HBM:
		if (hw->hbm_line[kd] != 0)
			return dup_row(c, line, hw->hbm_line[kd], hw->name, key,
			    kind);
		hw->hbm[kd] = v;
		hw->hbm_src[kd] = src;
		hw->hbm_line[kd] = line;
		break;
	case KEY_MEM:
		if (hw->mem_line != 0)
			return dup_row(c, line, hw->mem_line, hw->name, key, kind);
		hw->mem_gb = v;
		hw->mem_src = src;
		hw->mem_line = line;
		break;
	case KEY_LINK:
		if (hw->link_line != 0)
			return dup_row(c, line, hw->link_line, hw->name, key,
			    kind);
		hw->link_gbs = v;
		hw->link_src = src;
		hw->link_line = line;
		break;
	case KEY_LINKNAME:
		if (hw->linkname_line != 0)
			return dup_row(c, line, hw->linkname_line, hw->name,
			    key, kind);
		hw->link_name = val;
		hw->linkname_line = line;
		break;
	case KEY_PKG:
		if (hw->pkg_line != 0)
			return dup_row(c, line, hw->pkg_line, hw->name, key, kind);
		hw->per_pkg = iv > 0 ? (int)iv : 1;
		hw->pkg_line = line;
		break;
	case KEY_CUS:
		if (hw->cus_line != 0)
			return dup_row(c, line, hw->cus_line, hw->name, key, kind);
		hw->cus = (int)iv;
		hw->cus_line = line;
		break;
	case KEY_DESC:
		if (hw->desc_line != 0)
			return dup_row(c, line, hw->desc_line, hw->name, key,
			    kind);
		hw->desc = val;
		hw->desc_line = line;
		break;
	case KEY_ALIAS:
		add_name(&hw->alias, &hw->nalias, &hw->capalias, val, line);
		break;
	case KEY_ARCH:
		add_name(&hw->arch, &hw->narch, &hw->caparch, val, line);
		break;
	case KEY_DEV: {
		struct pattern *p;
		size_t n = strlen(val);
		int prefix = val[n - 1] == '*';

		for (i = 0; i < hw->npat; i++)
			if (hw->pat[i].prefix == prefix &&
			    hw->pat[i].len == n - (size_t)prefix &&
			    case_eqn(hw->pat[i].text, val, n - (size_t)prefix))
				return dup_row(c, line, hw->pat[i].line, hw->name,
				    "device_name", val);
		tl_grow(&hw->pat, &hw->cappat, hw->npat + 1,
		    sizeof(*hw->pat));
		p = &hw->pat[hw->npat++];
		p->text = val;
		p->len = n - (size_t)prefix;
		p->prefix = prefix;
		p->dflt = *kind != '\0';
		p->line = line;
		break;
	}
	}
	return 0;
}

/* Names and aliases must name one GPU each; one default per pattern. */
static int
check_table(struct ctx *c)
{
	struct table *t = c->t;
	size_t i, j, a, b;

	for (i = 0; i < t->nhw; i++) {
		const struct tl_hw *h = &t->hw[i];

		for (a = 0; a < h->nalias; a++) {
			const char *n = h->alias[a].name;

			for (j = 0; j < t->nhw; j++) {
				const struct tl_hw *o = &t->hw[j];

				if (name_eq(o->name, n)) {
					fail(c, h->alias[a].line, "alias '%s' "
					    "of %s is the name of %s", n,
					    h->name, o->name);
					return -1;
				}
				for (b = 0; b < o->nalias && j <= i; b++)
					if ((j < i || (j == i && b < a)) &&
					    name_eq(o->alias[b].name, n)) {
						fail(c, h->alias[a].line,
						    "alias '%s' of %s repeats "
						    "line %ld (%s)", n, h->name,
						    o->alias[b].line, o->name);
						return -1;
					}
			}
		}
		for (a = 0; a < h->npat; a++) {
			const struct pattern *p = &h->pat[a];

			if (!p->dflt)
				continue;
			for (j = 0; j < i; j++)
				for (b = 0; b < t->hw[j].npat; b++) {
					const struct pattern *q =
					    &t->hw[j].pat[b];

					if (q->dflt && q->prefix == p->prefix &&
					    q->len == p->len &&
					    case_eqn(q->text, p->text, p->len)) {
						fail(c, p->line, "device_name "
						    "'%s' is already the "
						    "default of %s (line %ld)",
						    p->text, t->hw[j].name,
						    q->line);
						return -1;
					}
				}
		}
	}
	return 0;
}

/* Read the table (FILE, or the built-in one when path is NULL). */
static int
parse(struct table *t, const char *path, struct ctx *c)
{
	static const char *const want[5] = {
		"gpu", "key", "kind", "value", "source"
	};
	int i, rc;

	c->t = t;
	if (tl_tabfile_open(&c->in, path, tl_default_gpus, BUILTIN_NAME, want, 5,
	    5, TL_TABFILE_UNESCAPE) < 0)
		return -1;
	while ((rc = tl_tabfile_next(&c->in)) > 0) {
		struct fact r;

		for (i = 0; i < 5; i++)
			r.f[i] = tl_tabfile_get(&c->in, i);
		if (add_row(c, c->in.line, &r) != 0)
			return -1;
		tl_grow(&t->fact, &t->capfact, t->nfact + 1, sizeof(*t->fact));
		t->fact[t->nfact++] = r;
	}
	if (rc < 0)
		return -1;
	return check_table(c);
}

int
tl_hw_load(const char *path, char *err, size_t errlen)
{
	struct table t;
	struct ctx c;
	int rc;

	memset(&t, 0, sizeof(t));
	tried = 1;
	rc = parse(&t, path, &c);
	t.text = tl_tabfile_keep(&c.in);
	tl_tabfile_close(&c.in);
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s", rc != 0 ? c.in.err : "");
	if (rc != 0) {
		table_free(&t);
		return -1;
	}
	table_free(&cur);
	cur = t;
	loaded = 1;
	return 0;
}

static void
ensure(void)
{
	char err[256];

	if (!loaded && !tried)
		(void)tl_hw_load(NULL, err, sizeof(err));
}

const struct tl_hw *
tl_hw_find(const char *name)
{
	size_t i, a;

	ensure();
	if (name == NULL)
		return NULL;
	for (i = 0; i < cur.nhw; i++)
		if (name_eq(cur.hw[i].name, name))
			return &cur.hw[i];
	for (i = 0; i < cur.nhw; i++)
		for (a = 0; a < cur.hw[i].nalias; a++)
			if (name_eq(cur.hw[i].alias[a].name, name))
				return &cur.hw[i];
	return NULL;
}

/*
 * How well a GPU's patterns match a device name: 0 none, else longer is
 * better and an exact name beats a prefix of the same length.  *dflt
 * tells whether a best pattern is marked default.
 */
static size_t
match_score(const struct tl_hw *hw, const char *dev, int *dflt)
{
	size_t i, best = 0, n = strlen(dev);

	*dflt = 0;
	for (i = 0; i < hw->npat; i++) {
		const struct pattern *p = &hw->pat[i];
		size_t s;

		if (p->prefix) {
			if (n < p->len || !case_eqn(dev, p->text, p->len))
				continue;
			s = 2 * p->len + 1;
		} else {
			if (!case_eq(dev, p->text))
				continue;
			s = 2 * p->len + 2;
		}
		if (s > best) {
			best = s;
			*dflt = p->dflt;
		} else if (s == best)
			*dflt |= p->dflt;
	}
	return best;
}

int
tl_hw_name_known(const char *devname)
{
	size_t i;
	int dflt;

	ensure();
	for (i = 0; devname != NULL && i < cur.nhw; i++)
		if (match_score(&cur.hw[i], devname, &dflt) > 0)
			return 1;
	return 0;
}

static int
fits(const struct tl_hw *hw, int nsm, long long mem)
{
	if (nsm > 0 && hw->cus > 0 && hw->cus != nsm)
		return 0;
	if (mem > 0 && hw->mem_gb > 0) {
		double gib = (double)mem / (1024.0 * 1024.0 * 1024.0);

		if (fabs(gib - hw->mem_gb) > 0.1 * hw->mem_gb)
			return 0;
	}
	return 1;
}

const struct tl_hw *
tl_hw_match_device_mem(const char *devname, int nsm, long long mem_bytes)
{
	struct tl_gpuid id;

	memset(&id, 0, sizeof(id));
	id.name = devname;
	id.compute_units = nsm;
	id.memory_bytes = mem_bytes;
	return tl_hw_identify(&id, NULL, 0);
}

const struct tl_hw *
tl_hw_match_device(const char *devname, int nsm)
{
	return tl_hw_match_device_mem(devname, nsm, 0);
}

/*
 * 1 if the architecture a trace gives (as tl-parse writes it) is one of
 * the GPU's, or either is unknown.  AMD traces carry only HIP's major and
 * minor ("gfx94"), so a table ISA name one stepping character longer
 * ("gfx942") matches it.
 */
static int
arch_fits(const struct tl_hw *hw, const char *arch)
{
	size_t i, n;

	if (arch == NULL || *arch == '\0' || hw->narch == 0)
		return 1;
	n = strlen(arch);
	for (i = 0; i < hw->narch; i++) {
		const char *a = hw->arch[i].name;
		size_t m = strlen(a);

		if (case_eq(a, arch) || (strncmp(arch, "gfx", 3) == 0 &&
		    m == n + 1 && case_eqn(a, arch, n)))
			return 1;
	}
	return 0;
}

const struct tl_hw *
tl_hw_identify(const struct tl_gpuid *id, char *cand, size_t candlen)
{
	const struct tl_hw *pick = NULL, *def = NULL;
	size_t i, best = 0, s, len = 0;
	int dflt, n = 0, ndef = 0, named;

	ensure();
	if (cand != NULL && candlen > 0)
		cand[0] = '\0';
	named = id->name != NULL && id->name[0] != '\0';
	if (named) {
		for (i = 0; i < cur.nhw; i++)
			if ((s = match_score(&cur.hw[i], id->name, &dflt)) >
			    best)
				best = s;
		/* A name the table does not know: the figures alone decide. */
		if (best == 0)
			named = 0;
	}
	if (!named && (id->arch == NULL || id->arch[0] == '\0' ||
	    id->compute_units <= 0 || id->memory_bytes <= 0))
		return NULL;		/* too little to go by */
	for (i = 0; i < cur.nhw; i++) {
		const struct tl_hw *hw = &cur.hw[i];

		dflt = 0;
		if (named && match_score(hw, id->name, &dflt) != best)
			continue;
		/* Without a name, every figure must be in the table too. */
		if (!named && (hw->narch == 0 || hw->cus <= 0 ||
		    hw->mem_gb <= 0))
			continue;
		if (!fits(hw, (int)id->compute_units, id->memory_bytes) ||
		    !arch_fits(hw, id->arch))
			continue;
		n++;
		pick = hw;
		if (dflt) {
			ndef++;
			def = hw;
		}
		if (cand != NULL && len < candlen) {
			int w = snprintf(cand + len, candlen - len, "%s%s",
			    n > 1 ? ", " : "", hw->name);

			len += w > 0 ? (size_t)w : 0;
		}
	}
	if (n == 1)
		return pick;
	return n > 1 && ndef == 1 ? def : NULL;
}

void
tl_gpuid_describe(const struct tl_gpuid *id, char *buf, size_t len)
{
	const char *sep = " (";
	size_t n;

	if (id->name != NULL && id->name[0] != '\0')
		n = (size_t)snprintf(buf, len, "GPU '%s'", id->name);
	else
		n = (size_t)snprintf(buf, len, "GPU");
	if (id->arch != NULL && id->arch[0] != '\0' && n < len) {
		n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, id->arch);
		sep = ", ";
	}
	if (id->compute_units > 0 && n < len) {
		n += (size_t)snprintf(buf + n, len - n, "%s%lld compute units",
		    sep, id->compute_units);
		sep = ", ";
	}
	if (id->memory_bytes > 0 && n < len) {
		n += (size_t)snprintf(buf + n, len - n, "%s%.1f GiB", sep,
		    (double)id->memory_bytes / (1 << 30));
		sep = ", ";
	}
	if (sep[0] == ',' && n < len)
		snprintf(buf + n, len - n, ")");
}

/* The architecture family of an ISA name, for messages; NULL if unknown. */
static const char *
arch_family(const char *arch)
{
	/*
	 * NVIDIA: CUDA C++ Programming Guide, compute capabilities
	 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/); AMD: ROCm
	 * GPU hardware specifications
	 * (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html).
	 */
	static const struct {
		const char *arch, *family;
	} fam[] = {
		{ "sm_5", "Maxwell" }, { "sm_6", "Pascal" },
		{ "sm_70", "Volta" }, { "sm_72", "Volta" },
		{ "sm_75", "Turing" }, { "sm_80", "Ampere" },
		{ "sm_86", "Ampere" }, { "sm_87", "Ampere" },
		{ "sm_89", "Ada" }, { "sm_90", "Hopper" },
		{ "sm_10", "Blackwell" }, { "sm_12", "Blackwell" },
		{ "gfx908", "CDNA" }, { "gfx90a", "CDNA 2" },
		{ "gfx94", "CDNA 3" }, { "gfx950", "CDNA 4" },
		{ "gfx110", "RDNA 3" }, { "gfx120", "RDNA 4" }
	};
	size_t i;

	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		if (strncmp(arch, fam[i].arch, strlen(fam[i].arch)) == 0)
			return fam[i].family;
	return NULL;
}

void
tl_gpuid_unknown(const struct tl_gpuid *id, const char *cand, char *buf,
    size_t len)
{
	const char *verdict, *fam, *ka = id->kernel_arch;
	size_t n;

	tl_gpuid_describe(id, buf, len);
	n = strlen(buf);
	if (cand != NULL && cand[0] != '\0')
		verdict = "could be any of ";
	else if (id->name != NULL && id->name[0] != '\0')
		verdict = strchr(buf, '(') != NULL ? "is not in the GPU table, "
		    "nor are its figures (tl-efficiency --hw list)" :
		    "is not in the GPU table (tl-efficiency --hw list)";
	else if (strchr(buf, '(') != NULL)
		verdict = "has no name and no GPU of the table has these "
		    "figures (tl-efficiency --hw list)";
	else
		verdict = "is not named: the trace has no deviceProperties";
	n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " %s%s", verdict,
	    cand != NULL ? cand : "");
	if (ka == NULL || ka[0] == '\0' || (id->name != NULL &&
	    id->name[0] != '\0') || n >= len)
		return;
	fam = arch_family(ka);
	snprintf(buf + n, len - n, "; its kernels were built for %s%s%s%s%s",
	    ka, fam != NULL ? " (" : "", fam != NULL ? fam : "",
	    fam != NULL ? ")" : "", strncmp(ka, "sm_", 3) == 0 ?
	    " or later" : "");
}

size_t
tl_hw_count(void)
{
	ensure();
	return cur.nhw;
}

const struct tl_hw *
tl_hw_at(size_t i)
{
	ensure();
	return i < cur.nhw ? &cur.hw[i] : NULL;
}

int
tl_roof_parse(const char *s, enum tl_roof *roof)
{
	if (strcmp(s, "achievable") == 0)
		*roof = TL_ROOF_ACHIEVABLE;
	else if (strcmp(s, "peak") == 0)
		*roof = TL_ROOF_PEAK;
	else
		return -1;
	return 0;
}

const char *
tl_roof_name(enum tl_roof roof)
{
	return roof == TL_ROOF_PEAK ? "peak" : "achievable";
}

const char *
tl_figkind_name(enum tl_figkind k)
{
	return kindname[k];
}

const char *
tl_hw_name(const struct tl_hw *hw)
{
	return hw->name;
}

const char *
tl_hw_description(const struct tl_hw *hw)
{
	return hw->desc;
}

/* Set the optional outputs for a figure of kind k, or clear them. */
static double
answer(double v, int k, const char *src, const char **used,
    const char **source)
{
	if (used != NULL)
		*used = v > 0 ? kindname[k] : NULL;
	if (source != NULL)
		*source = v > 0 ? src : NULL;
	return v > 0 ? v : 0;
}

/*
 * Of the figures v[K_PEAK] and v[K_ACH], the kind a run of roof uses:
 * its own, else the other one standing in, else K_PEAK (none).
 */
static int
pick(const double v[NKIND], enum tl_roof roof)
{
	int want = roof == TL_ROOF_PEAK ? K_PEAK : K_ACH;
	int other = want == K_PEAK ? K_ACH : K_PEAK;

	if (v[want] > 0)
		return want;
	return v[other] > 0 ? other : K_PEAK;
}

double
tl_hw_hbm(const struct tl_hw *hw, enum tl_roof roof, const char **used,
    const char **source)
{
	int k = pick(hw->hbm, roof);

	return answer(hw->hbm[k], k, hw->hbm_src[k], used, source);
}

double
tl_hw_hbm_tbs(const struct tl_hw *hw, enum tl_roof roof,
    const char **source)
{
	return tl_hw_hbm(hw, roof, NULL, source);
}

static const struct spec *
find_spec(const struct tl_hw *hw, const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	/* The first letter first: tl-efficiency asks for every row. */
	for (i = 0; i < hw->nspec; i++)
		if (lower((unsigned char)hw->spec[i].name[0]) ==
		    lower((unsigned char)name[0]) &&
		    case_eq(hw->spec[i].name, name))
			return &hw->spec[i];
	return NULL;
}

double
tl_hw_tflops(const struct tl_hw *hw, const char *spec, enum tl_roof roof,
    const char **used, const char **source)
{
	const struct spec *s = find_spec(hw, spec);
	int k;

	if (s == NULL)
		return answer(0, K_PEAK, NULL, used, source);
	k = pick(s->v, roof);
	return answer(s->v[k], k, s->src[k], used, source);
}

double
tl_hw_figure(const struct tl_hw *hw, const char *key, enum tl_figkind k,
    const char **source)
{
	const struct spec *s;

	if (key != NULL && strcmp(key, "hbm_tbs") == 0)
		return answer(hw->hbm[k], (int)k, hw->hbm_src[k], NULL, source);
	if ((s = find_spec(hw, key)) == NULL)
		return answer(0, (int)k, NULL, NULL, source);
	return answer(s->v[k], (int)k, s->src[k], NULL, source);
}

double
tl_hw_memory_gb(const struct tl_hw *hw)
{
	return hw->mem_gb;
}

double
tl_hw_link_gbs(const struct tl_hw *hw, const char **name,
    const char **source)
{
	if (name != NULL)
		*name = hw->link_name != NULL ? hw->link_name : "";
	if (source != NULL)
		*source = hw->link_src != NULL ? hw->link_src : "";
	return hw->link_gbs;
}

int
tl_hw_devices_per_package(const struct tl_hw *hw)
{
	return hw->per_pkg;
}

int
tl_hw_compute_units(const struct tl_hw *hw)
{
	return hw->cus;
}

const char *
tl_hw_arch(const struct tl_hw *hw, size_t i)
{
	return i < hw->narch ? hw->arch[i].name : NULL;
}

void
tl_hw_print(FILE *fp, int csv)
{
	struct tl_writer w;
	size_t i;
	int j;

	ensure();
	tl_w_init(&w, fp, csv);
	tl_w_header(&w, "gpu,key,kind,value,source");
	for (i = 0; i < cur.nfact; i++) {
		for (j = 0; j < 5; j++)
			tl_w_str(&w, cur.fact[i].f[j]);
		tl_w_eol(&w);
	}
}

static void
w_num(struct tl_writer *w, double v)
{
	if (v > 0)
		tl_w_double(w, v);
	else
		tl_w_empty(w);
}

void
tl_hw_print_gpus(FILE *fp, int csv)
{
	struct tl_writer w;
	char *buf = NULL;
	size_t i, a, len = 0;

	ensure();
	tl_w_init(&w, fp, csv);
	tl_table_header(&w, TL_TAB_GPUS);
	for (i = 0; i < cur.nhw; i++) {
		const struct tl_hw *h = &cur.hw[i];
		FILE *mem;

		/* Aliases as a compact JSON list; names need no escapes. */
		if ((mem = open_memstream(&buf, &len)) == NULL)
			tl_die("open_memstream:");
		fputc('[', mem);
		for (a = 0; a < h->nalias; a++)
			fprintf(mem, "%s\"%s\"", a > 0 ? "," : "",
			    h->alias[a].name);
		fputc(']', mem);
		fclose(mem);
		tl_w_str(&w, h->name);
		tl_w_str(&w, buf);
		tl_w_str(&w, h->desc);
		w_num(&w, h->hbm[K_PEAK]);
		w_num(&w, h->hbm[K_ACH]);
		w_num(&w, h->mem_gb);
		tl_w_int(&w, h->per_pkg);
		if (h->cus > 0)
			tl_w_int(&w, h->cus);
		else
			tl_w_empty(&w);
		/* Each kind's own figure, never a stand-in (--hw show). */
		w_num(&w, tl_hw_figure(h, "matrix_bf16", TL_FIG_PEAK, NULL));
		w_num(&w, tl_hw_figure(h, "matrix_bf16", TL_FIG_ACHIEVABLE,
		    NULL));
		tl_w_eol(&w);
		free(buf);
		buf = NULL;
	}
}

/* "yes" when a run of roof uses figure k of v, "stand-in", or "". */
static const char *
roof_use(const double v[NKIND], int k, enum tl_roof roof)
{
	int want = roof == TL_ROOF_PEAK ? K_PEAK : K_ACH;

	if (k == K_SPARSE || !(v[k] > 0) || pick(v, roof) != k)
		return "";
	return k == want ? "yes" : "stand-in";
}

/* The rows of one key of --hw show: its figures in kind order. */
static void
print_key(struct tl_writer *w, const struct tl_hw *h, const char *key,
    const double v[NKIND], const char *const src[NKIND])
{
	int k;

	for (k = 0; k < NKIND; k++) {
		if (!(v[k] > 0))
			continue;
		tl_w_str(w, h->name);
		tl_w_str(w, key);
		tl_w_str(w, kindname[k]);
		tl_w_double(w, v[k]);
		tl_w_str(w, roof_use(v, k, TL_ROOF_ACHIEVABLE));
		tl_w_str(w, roof_use(v, k, TL_ROOF_PEAK));
		tl_w_str(w, src[k] != NULL ? src[k] : "");
		tl_w_eol(w);
	}
}

void
tl_hw_print_roofs(FILE *fp, int csv, const struct tl_hw *hw)
{
	struct tl_writer w;
	size_t i, j;

	ensure();
	tl_w_init(&w, fp, csv);
	tl_table_header(&w, TL_TAB_ROOFS);
	for (i = 0; i < cur.nhw; i++) {
		const struct tl_hw *h = &cur.hw[i];

		if (hw != NULL && h != hw)
			continue;
		for (j = 0; j < h->nspec; j++)
			print_key(&w, h, h->spec[j].name, h->spec[j].v,
			    h->spec[j].src);
		print_key(&w, h, "hbm_tbs", h->hbm, h->hbm_src);
	}
}
