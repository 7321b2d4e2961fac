/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/culprits.h"
#include "common/hashmap.h"
#include "common/json.h"
#include "common/jsonw.h"

/* A known culprit whose gaps average under this is eager overhead. */
#define SMALL_GAP_NS 50000

static const char *const kcols[TL_KC_N] = {
	"key", "kind", "match", "when", "title", "action", "deeper"
};

void
tl_fidle_init(struct tl_fidle *d)
{
	memset(d, 0, sizeof(*d));
	tl_strmap_init(&d->keys);
	tl_strmap_init(&d->wnames);
	d->wlast[0] = d->wlast[1] = d->wlast[2] = -1;
	tl_json_init(&d->j);
}

/* Name s's index in d->wnames; k: which (device, pid, tid), which repeat. */
static uint32_t
wname(struct tl_fidle *d, int k, const char *s)
{
	int added;

	return (uint32_t)tl_strmap_add_last(&d->wnames, &d->wlast[k], s,
	    strlen(s), &added);
}

int
tl_fidle_known(struct tl_fidle *d, const char *path)
{
	if (tl_known_load(&d->known, tl_default_culprits, "culprits.tsv", path,
	    kcols, TL_KC_N, TL_KC_DEEPER) < 0)
		return -1;
	d->loaded = 1;
	return 0;
}

static void
add_step(int64_t **v, size_t *n, size_t *cap, int64_t s)
{
	if (s == TL_FNONE)
		return;
	/* Rows come in host order: the last step is usually the same. */
	if (*n > 0 && (*v)[*n - 1] == s)
		return;
	tl_grow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and count the distinct steps. */
static long long
distinct(int64_t *v, size_t n)
{
	size_t i, k = 0;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_i64);
	for (i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return (long long)k;
}

static struct tl_fidletr *
trace_at(struct tl_fidle *d, int tr)
{
	if ((size_t)tr >= d->ntr) {
		size_t old = d->ntr, cap = d->ntr;

		tl_grow_set(&d->tr, &cap, (size_t)tr + 1, sizeof(*d->tr), 0);
		for (; old < cap; old++) {
			d->tr[old].frames = -1;
			d->tr[old].first_step = TL_FNONE;
			d->tr[old].largest.step = TL_FNONE;
			d->tr[old].largest.stream = TL_FNONE;
		}
		d->ntr = cap;
	}
	return &d->tr[tr];
}

/*
 * Append string token t, unescaped, and a NUL to b (nothing but the NUL
 * when t is not a string); its offset in b.
 */
static size_t
jcat(struct tl_jbuf *b, const struct tl_json *j, int t)
{
	size_t n, at = b->n;
	const char *s;

	if (t >= 0 && tl_json_type(j, t) == TL_J_STRING) {
		s = tl_json_text(j, t, &n);
		tl_grow(&b->s, &b->cap, b->n + n + 1, 1);
		b->n += tl_json_unescape(b->s + b->n, s, n);
	}
	tl_jb_raw(b, "", 1);
	return at;
}

/* The first n elements of array a into v (-1 past its end). */
static void
elements(const struct tl_json *j, int a, int *v, int n)
{
	int i, k = tl_json_size(j, a), e = a + 1;

	for (i = 0; i < n; i++) {
		v[i] = i < k ? e : -1;
		if (i + 1 < k)
			e = tl_json_next(j, e);
	}
}

/* A number of µs as ns, or an integer: 0, or -1 when not one. */
static int
jus(const struct tl_json *j, int t, int64_t *ns)
{
	size_t n;
	const char *s;

	if (t < 0 || tl_json_type(j, t) != TL_J_PRIM)
		return -1;
	s = tl_json_text(j, t, &n);
	return tl_parse_us_ns(s, n, ns) < 0 ? -1 : 0;
}

static int64_t
jint(const struct tl_json *j, int t)
{
	int64_t ns;

	/* Whole numbers only: an integer is ns / 1000 of its µs reading. */
	if (jus(j, t, &ns) < 0 || ns % 1000 != 0)
		return TL_FNONE;
	return ns / 1000;
}

static void
where_free(struct tl_fwhere *w)
{
	free(w->device);
	free(w->pid);
	free(w->tid);
	w->device = w->pid = w->tid = NULL;
}

static void
where_copy(struct tl_fwhere *dst, const struct tl_fwhere *src)
{
	where_free(dst);
	*dst = *src;
	dst->device = tl_strdup(src->device);
	dst->pid = tl_strdup(src->pid);
	dst->tid = tl_strdup(src->tid);
}

/* The class of a culprit's kind, for its trace's sums (piece_add). */
enum { KC_NONE, KC_LAUNCH, KC_NOLAUNCH, KC_HOST };

static int
kind_class(const char *kind)
{
	return strcmp(kind, "none") == 0 ? KC_NONE :
	    strcmp(kind, "launch") == 0 ? KC_LAUNCH :
	    strcmp(kind, "no_launch") == 0 ? KC_NOLAUNCH : KC_HOST;
}

/* Slot of d->pcache for a piece's texts. */
static size_t
pcache_slot(int tr, const char *const txt[4], const size_t n[4], int warm)
{
	uint64_t h = tl_hash(txt[1], n[1]);

	h ^= (uint64_t)n[0] * 31 + (uint64_t)n[2] * 131 + (uint64_t)n[3] * 7 +
	    (uint64_t)tr * 1031 + (uint64_t)warm;
	if (n[2] > 0)
		h += (unsigned char)txt[2][0];
	return (size_t)((h ^ h >> 17) % TL_FPCACHE);
}

/* Culprit index of a piece's texts in slot e, or (size_t)-1 not there. */
static size_t
pcache_find(const struct tl_fidle *d, const struct tl_fpcache *e, int tr,
    const char *const txt[4], const size_t n[4], int warm)
{
	const struct tl_fculprit *c;

	if (!e->ok || e->tr != tr || e->warm != warm || e->n[0] != n[0] ||
	    e->n[1] != n[1] || e->n[2] != n[2] || e->n[3] != n[3])
		return (size_t)-1;
	c = &d->c[e->ci];
	if (memcmp(c->name, txt[1], n[1]) != 0 ||
	    memcmp(c->kind, txt[0], n[0]) != 0 ||
	    memcmp(c->context, txt[2], n[2]) != 0 ||
	    memcmp(c->tid, txt[3], n[3]) != 0)
		return (size_t)-1;
	return e->ci;
}

/*
 * Add a piece of gap w of trace tr: its kind, name, context and the other
 * thread's tid (txt, n: decoded text, "" when none) and its idle ns; its
 * culprit's index.  plain: the texts hold no NUL, so a culprit's texts
 * equal to them (pcache) are its key's.
 */
static void
piece_add(struct tl_fidle *d, int tr, const char *const txt[4],
    const size_t n[4], int64_t ns, const struct tl_fwhere *w, int warm,
    size_t *ci, int plain)
{
	struct tl_jbuf *key = &d->scratch[0];
	struct tl_fpcache *e = NULL;
	struct tl_fculprit *c;
	size_t at[4], slot;
	int64_t idx;
	int k, added, kc;

	if (plain) {
		e = &d->pcache[pcache_slot(tr, txt, n, warm)];
		if ((slot = pcache_find(d, e, tr, txt, n, warm)) !=
		    (size_t)-1) {
			idx = (int64_t)slot;
			kc = e->kc;
			goto found;
		}
	}
	/* The key: trace, kind, name, context, thread, warm-up. */
	tl_jb_reset(key);
	tl_jb_int(key, tr);
	tl_jb_raw(key, "\x1f", 1);
	for (k = 0; k < 4; k++) {
		at[k] = key->n;
		tl_grow(&key->s, &key->cap, key->n + n[k] + 2, 1);
		memcpy(key->s + key->n, txt[k], n[k]);
		key->n += n[k];
		key->s[key->n++] = '\0';
	}
	tl_jb_raw(key, warm ? "w" : "s", 1);
	idx = tl_strmap_add(&d->keys, key->s, key->n, &added);
	if (added) {
		tl_grow(&d->c, &d->cap, d->n + 1, sizeof(*d->c));
		c = &d->c[d->n++];
		memset(c, 0, sizeof(*c));
		c->tr = tr;
		c->kind = tl_strdup(key->s + at[0]);
		c->name = tl_strdup(key->s + at[1]);
		c->context = tl_strdup(key->s + at[2]);
		c->tid = tl_strdup(key->s + at[3]);
		c->known = -1;
		c->piece_ns = -1;
		c->warm = warm;
	}
	kc = kind_class(d->c[idx].kind);
	if (e != NULL) {
		e->ci = (size_t)idx;
		for (k = 0; k < 4; k++)
			e->n[k] = n[k];
		e->tr = tr;
		e->warm = warm;
		e->kc = kc;
		e->ok = 1;
	}
found:
	*ci = (size_t)idx;
	c = &d->c[idx];
	c->ns += ns;
	if (warm)
		c->warm_ns += ns;
	c->gaps++;
	c->gap_ns += w->len_ns;
	add_step(&c->steps, &c->nst, &c->capst, w->step);
	if (ns > c->piece_ns) {
		c->piece_ns = ns;
		where_copy(&c->where, w);
	}
	{
		struct tl_fidletr *t = &d->tr[tr];

		if (kc == KC_NONE)
			t->none_ns += ns;
		else if (kc == KC_LAUNCH)
			t->launch_ns += ns;
		else if (kc == KC_NOLAUNCH)
			t->nolaunch_ns += ns;
		else {
			t->host_ns += ns;
			if (warm)
				t->warm_host_ns += ns;
		}
	}
}

/*
 * Add piece p ([kind, name, context, dur] or with the other thread's tid
 * fifth) of gap w of trace tr: its culprit's index and length.
 */
static int
piece(struct tl_fidle *d, int tr, const struct tl_json *j, int p,
    const struct tl_fwhere *w, int warm, size_t *ci, int64_t *pns)
{
	struct tl_jbuf *b = &d->scratch[2];
	const char *txt[4];
	size_t at[4], n[4];
	int64_t ns;
	int v[5], k;

	if (tl_json_type(j, p) != TL_J_ARRAY || tl_json_size(j, p) < 4)
		return -1;
	elements(j, p, v, 5);
	if (jus(j, v[3], &ns) < 0 || ns < 0)
		return -1;
	tl_jb_reset(b);
	at[0] = jcat(b, j, v[0]);
	at[1] = jcat(b, j, v[1]);
	at[2] = jcat(b, j, v[2]);
	at[3] = jcat(b, j, v[4]);
	for (k = 0; k < 4; k++) {	/* the text as jcat decoded it */
		txt[k] = b->s + at[k];
		n[k] = (k < 3 ? at[k + 1] : b->n) - at[k] - 1;
	}
	piece_add(d, tr, txt, n, ns, w, warm, ci, 0);
	*pns = ns;
	return 0;
}

void
tl_fidle_steady(struct tl_fidle *d, int tr, long long steps, int64_t total,
    int64_t busy, int64_t compute, int64_t idle)
{
	struct tl_fidletr *t = trace_at(d, tr);

	t->has_steady = 1;
	t->steady_steps = steps;
	t->steady_total_ns = total;
	t->steady_busy_ns = busy;
	t->steady_compute_ns = compute;
	t->steady_idle_ns = idle;
}

/*
 * A listed gap w of trace t of row row (-1 none): its sums, and its entry
 * in d->lg when the row is kept.
 */
static void
gap_add(struct tl_fidle *d, struct tl_fidletr *t, int row,
    const struct tl_fwhere *w, int steady)
{
	t->listed++;
	t->listed_ns += w->len_ns;
	if (steady == 0) {
		t->warm++;
		t->warm_ns += w->len_ns;
	}
	add_step(&t->steps, &t->nst, &t->capst, w->step);
	if (w->step != TL_FNONE && (t->first_step == TL_FNONE ||
	    w->step < t->first_step))
		t->first_step = w->step;
	if (w->len_ns > t->largest.len_ns || t->largest.device == NULL)
		where_copy(&t->largest, w);
	if (row >= 0) {
		struct tl_flgap *l;

		tl_grow_ahead(&d->lg, &d->caplg, d->nlg + 1, sizeof(*d->lg),
		    &d->lgahead);
		l = &d->lg[d->nlg++];
		l->row = row;
		l->end_ns = w->ts_ns + w->len_ns;
		l->len_ns = w->len_ns;
		l->offset_ns = w->offset_ns;
		l->step = w->step;
		l->stream = w->stream;
		l->device = wname(d, 0, w->device);
		l->pid = wname(d, 1, w->pid);
		l->tid = wname(d, 2, w->tid);
		l->p0 = d->npc;
		l->np = 0;
		l->used = 0;
	}
}

/* A piece of the last gap of row row added: culprit ci, pns long. */
static void
piece_keep(struct tl_fidle *d, int row, size_t ci, int64_t pns)
{
	if (row < 0)
		return;
	tl_grow_ahead(&d->pc, &d->cappc, d->npc + 1, sizeof(*d->pc),
	    &d->pcahead);
	d->pc[d->npc].c = ci;
	d->pc[d->npc++].ns = pns;
	d->lg[d->nlg - 1].np++;
}

/* A gap and a piece read in place: their texts point into the column. */
struct tl_fpgap {
	struct tl_fwhere w;	/* device, pid, tid: set when added */
	const char *txt[3];	/* device, pid, tid */
	size_t n[3];
	size_t p0, np;		/* its pieces in d->pp */
};

struct tl_fppiece {
	const char *txt[4];	/* kind, name, context, tid */
	size_t n[4];
	int64_t ns;
};

/* A string without escapes at *p: its text, or NULL; *p moves past it. */
static const char *
plain_str(const char **p, size_t *n)
{
	const char *s = *p + 1, *e;

	if (**p != '"')
		return NULL;
	e = s + strcspn(s, "\"\\");
	if (*e != '"')
		return NULL;
	*n = (size_t)(e - s);
	*p = e + 1;
	return s;
}

#define NUM_BYTES 0x0400000004007fedull

/*
 * 1 for a byte of a plain number: a digit, '.', '-', '+', 'e', 'E' (one
 * bit each of a mask from '+', the lowest, to 'e', the highest).
 */
static int
num_byte(char c)
{
	unsigned d = (unsigned)(unsigned char)c - '+';

	return d < 64 && (NUM_BYTES >> d & 1) != 0;
}

/*
 * A number at *p followed by ',' or ']', read as jus reads it: 0, or -1
 * when it is not one of the plain numbers jsmn takes as a primitive.
 */
static int
plain_us(const char **p, int64_t *ns)
{
	const char *s = *p, *e = s;

	if (!(*s == '-' || (*s >= '0' && *s <= '9')))
		return -1;
	while (num_byte(*e))
		e++;
	if ((*e != ',' && *e != ']') || tl_parse_us_ns(s, (size_t)(e - s),
	    ns) < 0)
		return -1;
	*p = e;
	return 0;
}

/* Step over byte c at *p: 0, or -1 when another is there. */
static int
plain_byte(const char **p, char c)
{
	if (**p != c)
		return -1;
	(*p)++;
	return 0;
}

/* As jint: a whole number of µs read by plain_us, else TL_FNONE. */
static int64_t
plain_int(int64_t ns)
{
	return ns % 1000 != 0 ? TL_FNONE : ns / 1000;
}

/*
 * Read the idle_gaps column as tl-parse writes it, without tokenising:
 * compact, every gap [ts, offset, dur, step, device, stream, pid, tid,
 * pieces] and every piece [kind, name, context, dur] or with a tid
 * fifth, strings without escapes, plain numbers.  On such text the
 * tokens' reading (tl_fidle_row) finds the same values; any other text,
 * valid or not, is left to it: 0 when read, -1 when not.  Nothing is
 * added until the whole column is read (add_plain).
 */
static int
read_plain(struct tl_fidle *d, const char *s)
{
	const char *p = s;

	d->npg = d->npp = 0;
	if (plain_byte(&p, '[') < 0)
		return -1;
	if (*p == ']')
		return p[1] == '\0' ? 0 : -1;
	for (;;) {
		struct tl_fpgap *g;
		int64_t step, stream;

		tl_grow(&d->pg, &d->cappg, d->npg + 1, sizeof(*d->pg));
		g = &d->pg[d->npg++];
		memset(g, 0, sizeof(*g));
		if (plain_byte(&p, '[') < 0 || plain_us(&p, &g->w.ts_ns) < 0 ||
		    plain_byte(&p, ',') < 0 ||
		    plain_us(&p, &g->w.offset_ns) < 0 ||
		    plain_byte(&p, ',') < 0 || plain_us(&p, &g->w.len_ns) < 0 ||
		    g->w.len_ns < 0 || plain_byte(&p, ',') < 0 ||
		    plain_us(&p, &step) < 0 || plain_byte(&p, ',') < 0 ||
		    (g->txt[0] = plain_str(&p, &g->n[0])) == NULL ||
		    plain_byte(&p, ',') < 0 || plain_us(&p, &stream) < 0 ||
		    plain_byte(&p, ',') < 0 ||
		    (g->txt[1] = plain_str(&p, &g->n[1])) == NULL ||
		    plain_byte(&p, ',') < 0 ||
		    (g->txt[2] = plain_str(&p, &g->n[2])) == NULL ||
		    plain_byte(&p, ',') < 0 || plain_byte(&p, '[') < 0)
			return -1;
		g->w.step = plain_int(step);
		g->w.stream = plain_int(stream);
		g->p0 = d->npp;
		while (*p != ']') {
			struct tl_fppiece *c;
			int k;

			tl_grow(&d->pp, &d->cappp, d->npp + 1, sizeof(*d->pp));
			c = &d->pp[d->npp++];
			g->np++;
			if (plain_byte(&p, '[') < 0)
				return -1;
			for (k = 0; k < 3; k++)
				if ((c->txt[k] = plain_str(&p, &c->n[k])) ==
				    NULL || plain_byte(&p, ',') < 0)
					return -1;
			if (plain_us(&p, &c->ns) < 0 || c->ns < 0)
				return -1;
			c->txt[3] = "";
			c->n[3] = 0;
			if (*p == ',') {
				p++;
				if ((c->txt[3] = plain_str(&p, &c->n[3])) ==
				    NULL)
					return -1;
			}
			if (plain_byte(&p, ']') < 0)
				return -1;
			if (*p == ',' && p[1] == '[')
				p++;
			else if (*p != ']')
				return -1;
		}
		if (plain_byte(&p, ']') < 0 || plain_byte(&p, ']') < 0)
			return -1;
		if (*p == ',')
			p++;
		else if (p[0] == ']' && p[1] == '\0')
			return 0;
		else
			return -1;
	}
}

/* Add the gaps read_plain found, as the tokens' reading adds them. */
static void
add_plain(struct tl_fidle *d, struct tl_fidletr *t, int tr, int row,
    int steady)
{
	struct tl_jbuf *wb = &d->scratch[1];
	size_t i, k, ci;

	for (i = 0; i < d->npg; i++) {
		struct tl_fpgap *g = &d->pg[i];
		size_t at[3];

		tl_jb_reset(wb);
		for (k = 0; k < 3; k++) {
			at[k] = wb->n;
			tl_grow(&wb->s, &wb->cap, wb->n + g->n[k] + 1, 1);
			memcpy(wb->s + wb->n, g->txt[k], g->n[k]);
			wb->n += g->n[k];
			wb->s[wb->n++] = '\0';
		}
		g->w.device = wb->s + at[0];
		g->w.pid = wb->s + at[1];
		g->w.tid = wb->s + at[2];
		gap_add(d, t, row, &g->w, steady);
		for (k = g->p0; k < g->p0 + g->np; k++) {
			const struct tl_fppiece *c = &d->pp[k];

			piece_add(d, tr, c->txt, c->n, c->ns, &g->w,
			    steady == 0, &ci, 1);
			piece_keep(d, row, ci, c->ns);
		}
	}
}

int
tl_fidle_row(struct tl_fidle *d, int tr, int row, const char *json,
    int64_t noise_ns, long long noise, long long frames, int64_t iteration,
    int steady)
{
	struct tl_fidletr *t = trace_at(d, tr);
	struct tl_jbuf *wb = &d->scratch[1];
	const char *err;
	int g, k, n, rc = 0;

	add_step(&t->iters, &t->nit, &t->capit, iteration);
	if (json == NULL || noise_ns < 0)
		return 0;	/* no culprits: an older or --no-culprits stream */
	t->has = 1;
	t->noise_ns = noise_ns;
	t->noise = noise;
	if (frames >= 0)
		t->frames = frames;
	if (iteration != TL_FNONE && (t->first_step == TL_FNONE ||
	    iteration < t->first_step))
		t->first_step = iteration;
	if (json[0] == '\0')
		return 0;
	if (read_plain(d, json) == 0) {
		add_plain(d, t, tr, row, steady);
		return 0;
	}
	if (tl_json_parse(&d->j, json, strlen(json), &err) < 1 ||
	    tl_json_type(&d->j, 0) != TL_J_ARRAY)
		return -1;
	n = tl_json_size(&d->j, 0);
	for (k = 0, g = 1; k < n && rc == 0; k++, g = tl_json_next(&d->j, g)) {
		const struct tl_json *j = &d->j;
		struct tl_fwhere w;
		size_t dev, pid, tid;
		int v[9], p, i, np;

		/* [ts, offset, dur, step, device, stream, pid, tid, pieces] */
		if (tl_json_type(j, g) != TL_J_ARRAY || tl_json_size(j, g) < 9)
			return -1;
		elements(j, g, v, 9);
		memset(&w, 0, sizeof(w));
		if (jus(j, v[0], &w.ts_ns) < 0 ||
		    jus(j, v[1], &w.offset_ns) < 0 ||
		    jus(j, v[2], &w.len_ns) < 0 || w.len_ns < 0 ||
		    tl_json_type(j, v[8]) != TL_J_ARRAY)
			return -1;
		w.step = jint(j, v[3]);
		w.stream = jint(j, v[5]);
		tl_jb_reset(wb);
		dev = jcat(wb, j, v[4]);
		pid = jcat(wb, j, v[6]);
		tid = jcat(wb, j, v[7]);
		/* Borrowed from the scratch buffer: where_copy copies. */
		w.device = wb->s + dev;
		w.pid = wb->s + pid;
		w.tid = wb->s + tid;
		gap_add(d, t, row, &w, steady);
		np = tl_json_size(j, v[8]);
		for (i = 0, p = v[8] + 1; i < np && rc == 0; i++,
		    p = tl_json_next(j, p)) {
			size_t ci = 0;
			int64_t pns = 0;

			rc = piece(d, tr, j, p, &w, steady == 0, &ci, &pns);
			if (rc == 0)
				piece_keep(d, row, ci, pns);
		}
	}
	return rc;
}

static int
cmp_culprit(const void *a, const void *b)
{
	const struct tl_fculprit *x = a, *y = b;
	int c;

	if (x->tr != y->tr)
		return x->tr < y->tr ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if ((c = strcmp(x->context, y->context)) != 0)
		return c;
	if ((c = strcmp(x->kind, y->kind)) != 0)
		return c;
	if ((c = strcmp(x->tid, y->tid)) != 0)
		return c;
	return x->warm - y->warm;
}

int
tl_fidle_is_host(const struct tl_fculprit *x)
{
	return strcmp(x->kind, "none") != 0 && strcmp(x->kind, "launch") != 0 &&
	    strcmp(x->kind, "no_launch") != 0;
}

size_t
tl_fidle_unknown(const struct tl_fidle *d, const struct tl_fculprit **out,
    size_t max, int64_t *rest_ns, long long *rest)
{
	size_t i, j, n = 0;

	*rest_ns = 0;
	*rest = 0;
	for (i = 0; i < d->n; i++) {
		const struct tl_fculprit *x = &d->c[i];

		if (x->known >= 0 || !tl_fidle_is_host(x) || x->ns <= 0)
			continue;
		/* Keep out[] the max largest, by insertion. */
		if (n == max && (max == 0 || out[max - 1]->ns >= x->ns)) {
			*rest_ns += x->ns;
			(*rest)++;
			continue;
		}
		if (n == max) {
			*rest_ns += out[--n]->ns;
			(*rest)++;
		}
		for (j = n; j > 0 && out[j - 1]->ns < x->ns; j--)
			out[j] = out[j - 1];
		out[j] = x;
		n++;
	}
	return n;
}

/* The first known row that matches culprit x, or -1. */
static long
match(const struct tl_fidle *d, const struct tl_fculprit *x)
{
	const struct tl_fidletr *t = &d->tr[x->tr];
	size_t i;

	for (i = 0; i < d->known.n; i++) {
		const char *when = tl_known_get(&d->known, i, TL_KC_WHEN);
		const char *m = tl_known_get(&d->known, i, TL_KC_MATCH);

		if (!tl_known_match(tl_known_get(&d->known, i, TL_KC_KIND),
		    x->kind))
			continue;
		if (m[0] != '\0' && !tl_known_match(m, x->name) &&
		    !tl_known_match(m, x->context))
			continue;
		if (strcmp(when, "first") == 0 && !(t->has_steady ? x->warm :
		    x->all_first && t->nsteps >= 2))
			continue;
		if (strcmp(when, "small") == 0 && (x->gaps < 2 ||
		    x->gap_ns / x->gaps >= SMALL_GAP_NS))
			continue;
		return (long)i;
	}
	return -1;
}

void
tl_fidle_finish(struct tl_fidle *d)
{
	size_t i;

	for (i = 0; i < d->ntr; i++) {
		d->tr[i].nst = (size_t)(d->tr[i].nsteps =
		    distinct(d->tr[i].steps, d->tr[i].nst));
		d->tr[i].nit = (size_t)(d->tr[i].niters =
		    distinct(d->tr[i].iters, d->tr[i].nit));
	}
	for (i = 0; i < d->n; i++) {
		struct tl_fculprit *x = &d->c[i];
		const struct tl_fidletr *t = &d->tr[x->tr];

		x->nst = (size_t)(x->nsteps = distinct(x->steps, x->nst));
		x->all_first = t->first_step != TL_FNONE && x->nst == 1 &&
		    x->steps[0] == t->first_step;
		x->known = d->loaded ? match(d, x) : -1;
		x->id = i;
	}
	if (d->n > 1) {
		size_t *at = tl_malloc(d->n * sizeof(*at));

		qsort(d->c, d->n, sizeof(*d->c), cmp_culprit);
		for (i = 0; i < d->n; i++)
			at[d->c[i].id] = i;
		for (i = 0; i < d->npc; i++)
			d->pc[i].c = at[d->pc[i].c];
		free(at);
	}
	tl_strmap_free(&d->keys);
	memset(d->pcache, 0, sizeof(d->pcache));
	tl_strmap_init(&d->keys);
}

int64_t
tl_fidle_attribute(struct tl_fidle *d, int row, int64_t end_ns, int64_t len_ns,
    long *at)
{
	size_t lo = 0, hi = d->nlg, i, best = (size_t)-1;
	int64_t diff, bdiff = 1001, sum = 0, a;
	int k;

	/*
	 * The first listed gap of the row (d->lg is by row): the rows come
	 * in order, so a few steps on from the last call's, else searched.
	 */
	i = d->lgat;
	if (i <= d->nlg && (i == 0 || d->lg[i - 1].row < row)) {
		for (k = 0; k < 8 && i < d->nlg && d->lg[i].row < row; k++)
			i++;
		if (i == d->nlg || d->lg[i].row >= row)
			lo = hi = i;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->lg[mid].row < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	d->lgat = lo;
	for (i = lo; i < d->nlg && d->lg[i].row == row; i++) {
		if (d->lg[i].used)
			continue;
		diff = d->lg[i].end_ns - end_ns;
		if (diff < 0)
			diff = -diff;
		if (diff < bdiff) {
			bdiff = diff;
			best = i;
		}
	}
	*at = -1;
	if (best == (size_t)-1 || len_ns <= 0)
		return 0;
	*at = (long)best;
	d->lg[best].used = 1;
	for (k = 0; k < d->lg[best].np; k++) {
		const struct tl_fpiece *p = &d->pc[d->lg[best].p0 + (size_t)k];
		struct tl_fculprit *x = &d->c[p->c];

		if (x->known < 0 || p->ns <= 0)
			continue;
		/* A shorter gap: the devices overlap; each piece scales. */
		a = len_ns >= d->lg[best].len_ns ? p->ns :
		    (int64_t)((double)p->ns * (double)len_ns /
		    (double)d->lg[best].len_ns);
		if (a > len_ns - sum)
			a = len_ns - sum;
		x->found_ns += a;
		sum += a;
	}
	return sum;
}

void
tl_fidle_gap_where(const struct tl_fidle *d, long i, struct tl_fwhere *w)
{
	const struct tl_flgap *l = &d->lg[i];

	w->len_ns = l->len_ns;
	w->ts_ns = l->end_ns - l->len_ns;
	w->offset_ns = l->offset_ns;
	w->step = l->step;
	w->stream = l->stream;
	/* The names are the map's keys: w borrows them. */
	w->device = (char *)tl_strmap_key(&d->wnames, l->device);
	w->pid = (char *)tl_strmap_key(&d->wnames, l->pid);
	w->tid = (char *)tl_strmap_key(&d->wnames, l->tid);
}

int
tl_fidle_gap_at(const struct tl_fidle *d, size_t tr, int64_t start_ns,
    int64_t len_ns, long i, struct tl_fwhere *w)
{
	int known = tr < d->ntr && d->tr[tr].listed > 0;
	const struct tl_fwhere *l = known ? &d->tr[tr].largest : NULL;

	if (i >= 0)
		tl_fidle_gap_where(d, i, w);
	else {
		w->step = w->stream = TL_FNONE;
		w->device = w->pid = w->tid = "";
	}
	w->ts_ns = start_ns;
	w->len_ns = len_ns;
	/* The trace's first event: where any listed gap's offset counts
	   from. */
	w->offset_ns = known ? start_ns - (l->ts_ns - l->offset_ns) : 0;
	return known;
}

const char *
tl_fidle_kfield(const struct tl_fidle *d, const struct tl_fculprit *x, int c)
{
	return x->known < 0 ? "" : tl_known_get(&d->known, (size_t)x->known,
	    c);
}

void
tl_fidle_free(struct tl_fidle *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->c[i].kind);
		free(d->c[i].name);
		free(d->c[i].context);
		free(d->c[i].tid);
		free(d->c[i].steps);
		where_free(&d->c[i].where);
	}
	free(d->c);
	tl_ahead_free(&d->lg, &d->lgahead);
	tl_ahead_free(&d->pc, &d->pcahead);
	tl_strmap_free(&d->wnames);
	d->wlast[0] = d->wlast[1] = d->wlast[2] = -1;
	tl_json_free(&d->j);
	tl_jb_free(&d->scratch[0]);
	tl_jb_free(&d->scratch[1]);
	tl_jb_free(&d->scratch[2]);
	free(d->pg);
	free(d->pp);
	for (i = 0; i < d->ntr; i++) {
		free(d->tr[i].steps);
		free(d->tr[i].iters);
		where_free(&d->tr[i].largest);
	}
	free(d->tr);
	tl_strmap_free(&d->keys);
	tl_known_free(&d->known);
	memset(d, 0, sizeof(*d));
}

/* The larger change first: the sizes of changes x and y (ns[1] - ns[0]). */
static int
by_change(const int64_t *x, const int64_t *y)
{
	int64_t dx = x[1] - x[0], dy = y[1] - y[0];

	if (dx < 0)
		dx = -dx;
	if (dy < 0)
		dy = -dy;
	return dx != dy ? (dx > dy ? -1 : 1) : 0;
}

static int
cmp_delta(const void *a, const void *b)
{
	const struct tl_fidlecmp *x = a, *y = b;
	int c;

	if ((c = by_change(x->ns, y->ns)) != 0)
		return c;
	if ((c = strcmp(x->c->name, y->c->name)) != 0)
		return c;
	return strcmp(x->c->context, y->c->context);
}

size_t
tl_fidle_compare(const struct tl_fidle *ref, const struct tl_fidle *tgt,
    struct tl_fidlecmp **out)
{
	const struct tl_fidle *side[2] = { ref, tgt };
	struct tl_fidlecmp *v = NULL;
	struct tl_strmap keys;
	struct tl_jbuf key = { NULL, 0, 0 };
	size_t n = 0, cap = 0, i;
	int s, added;

	tl_strmap_init(&keys);
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->n; i++) {
			const struct tl_fculprit *x = &side[s]->c[i];
			int64_t k;

			tl_jb_reset(&key);
			tl_jb_raw(&key, x->kind, strlen(x->kind) + 1);
			tl_jb_raw(&key, x->name, strlen(x->name) + 1);
			tl_jb_raw(&key, x->context, strlen(x->context) + 1);
			tl_jb_raw(&key, x->tid, strlen(x->tid) + 1);
			tl_jb_raw(&key, x->warm ? "w" : "s", 1);
			k = tl_strmap_add(&keys, key.s, key.n, &added);
			if (added) {
				tl_grow(&v, &cap, n + 1, sizeof(*v));
				memset(&v[n], 0, sizeof(*v));
				v[n].c = x;
				n++;
			}
			v[k].ns[s] += x->ns;
			v[k].gaps[s] += x->gaps;
			if (v[k].at[s] == NULL)
				v[k].at[s] = x;
		}
	tl_jb_free(&key);
	tl_strmap_free(&keys);
	if (n > 0)
		qsort(v, n, sizeof(*v), cmp_delta);
	*out = v;
	return n;
}

static int
cmp_known(const void *a, const void *b)
{
	const struct tl_fidleknown *x = a, *y = b;
	int c;

	if ((x->title[0] == '\0') != (y->title[0] == '\0'))
		return x->title[0] == '\0' ? 1 : -1;
	if ((c = by_change(x->ns, y->ns)) != 0)
		return c;
	return strcmp(x->title, y->title);
}

size_t
tl_fidle_compare_known(const struct tl_fidle *ref, const struct tl_fidle *tgt,
    const struct tl_fidlecmp *v, size_t n, struct tl_fidleknown **out)
{
	struct tl_fidleknown *k = tl_calloc(n + 1, sizeof(*k));
	size_t nk = 0, i, j;
	int s;

	for (i = 0; i < n; i++) {
		const char *title = v[i].at[1] != NULL ?
		    tl_fidle_kfield(tgt, v[i].at[1], TL_KC_TITLE) :
		    tl_fidle_kfield(ref, v[i].at[0], TL_KC_TITLE);

		for (j = 0; j < nk && strcmp(k[j].title, title) != 0; j++)
			;
		if (j == nk)
			k[nk++].title = title;
		for (s = 0; s < 2; s++)
			k[j].ns[s] += v[i].ns[s];
	}
	if (nk > 1)
		qsort(k, nk, sizeof(*k), cmp_known);
	*out = k;
	return nk;
}
