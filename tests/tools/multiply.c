/* See LICENSE file for copyright and license details. */
/*
 * multiply: build a large valid trace from a real one, for make bench and
 * the scaling test.  The output holds K copies of the input's events, copy
 * c shifted in time by c * period (period = the input's span rounded up to
 * whole microseconds, plus a gap), with every id that links events offset
 * by c * step (step = a power of ten above the largest such id), so that
 * each copy links exactly as the original does and no two copies share an
 * id.  Metadata events (ph "M") and the top-level members are written
 * once.  The event text is otherwise copied byte for byte.
 *
 * usage: multiply [-v] [-g GAP_US] [-l LEVEL] K IN OUT
 * IN is .json or .json.gz ("-" = stdin); OUT ending in .gz is gzip (zlib
 * level LEVEL, default 6), "-" is standard output.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/json.h"
#include "common/tsv.h"
#include "common/util.h"
#include "trace/input.h"
#include "trace/jsonscan.h"

/*
 * The members whose integer values link events (as TraceLens'
 * TraceLens/Trace2Tree/trace_to_tree.py links them): the flow id, the correlation id (two spellings), the External id
 * (the linking key of old traces, equal to the flow id there), the
 * Sequence number (forward/backward pairs), the Python ids (the Python
 * call tree of --stack) and the correlation id a CUDA event wait refers
 * to.  Negative values are sentinels and stay as they are.  "cid" (the
 * HIP API id) and "Ev Idx" / "Record function id" do not link anything.
 */
static const char *const id_keys[] = {
	"correlation", "correlation id", "External id", "Sequence number",
	"Python id", "Python parent id", "wait_on_cuda_event_record_corr_id"
};
#define NID (sizeof(id_keys) / sizeof(id_keys[0]))

enum { P_TS, P_ID };

struct patch {
	uint32_t off, len;	/* the number's text in the event */
	uint8_t kind;
	uint8_t dec;		/* P_TS: decimals of the text */
	int64_t v;		/* P_TS: ts * 10^dec; P_ID: the id */
};

struct event {
	size_t off;		/* in the arena */
	size_t len;
	size_t p0, np;		/* its patches */
	int meta;		/* ph "M": written once */
};

struct member {
	char *text;		/* "key": value, as in the input */
	size_t len;
};

static struct {
	char *arena;
	size_t narena, caparena;
	struct event *ev;
	size_t nev, capev;
	struct patch *p;
	size_t np, capp;
	struct member *m;
	size_t nm, capm;
	size_t nm_before;	/* members before traceEvents */
	int seen_events;
	int have_t;
	int64_t tmin, tmax;	/* ns, over the events that are copied */
	int maxdec;		/* most decimals of a ts */
	int64_t idmax;
	const char *name;
	struct tl_json j;
} in;

static const int64_t pow10[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000
};

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status,
	    "usage: multiply [-v] [-g GAP_US] [-l LEVEL] K IN OUT\n",
	    "Write K time-shifted copies of the trace IN to OUT (.gz: gzip).\n"
	    "  -g, --gap US     idle time between copies (default 1000)\n"
	    "  -l, --level N    gzip level of a .gz OUT (default 6)\n"
	    "  -v, --verbose    print the period and the id step on stderr\n");
}

static void
add_patch(const char *base, const char *s, size_t n, int kind, int dec,
    int64_t v)
{
	struct patch *p;

	tl_grow(&in.p, &in.capp, in.np + 1, sizeof(*in.p));
	p = &in.p[in.np++];
	p->off = (uint32_t)(s - base);
	p->len = (uint32_t)n;
	p->kind = (uint8_t)kind;
	p->dec = (uint8_t)dec;
	p->v = v;
}

/*
 * A time stamp as a scaled integer: the value times 10^dec, dec being the
 * number of decimals written.  0, or -1 if it is not a plain decimal.
 */
static int
parse_scaled(const char *s, size_t n, int64_t *v, int *dec)
{
	const char *p = s, *end = s + n;
	int neg = 0, d = -1;
	int64_t x = 0;

	if (p < end && *p == '-')
		neg = *p++ == '-';
	if (p == end)
		return -1;
	for (; p < end; p++) {
		if (*p == '.' && d < 0) {
			d = 0;
			continue;
		}
		if (*p < '0' || *p > '9')
			return -1;
		if (x > (INT64_MAX / 100 - 9) / 10)
			return -1;
		x = x * 10 + (*p - '0');
		if (d >= 0 && ++d > 9)
			return -1;
	}
	*v = neg ? -x : x;
	*dec = d < 0 ? 0 : d;
	return 0;
}

static int
bad(uint64_t index, uint64_t offset, const char *what)
{
	tl_warn("%s:%llu: event %llu: %s", in.name,
	    (unsigned long long)offset, (unsigned long long)index, what);
	return -1;
}

static int
on_event(void *ctx, const char *ev, size_t len, uint64_t index,
    uint64_t offset)
{
	enum { K_PH, K_TS, K_DUR, K_ID, K_ARGS, NTOP };
	static const char *const top[NTOP] = { "ph", "ts", "dur", "id", "args" };
	struct event *e;
	const char *err, *s;
	char *copy;
	size_t n, k;
	int f[NTOP], a[NID], ph = 0;

	(void)ctx;
	if (!in.seen_events) {
		in.seen_events = 1;
		in.nm_before = in.nm;
	}
	tl_grow(&in.arena, &in.caparena, in.narena + len, 1);
	copy = in.arena + in.narena;
	memcpy(copy, ev, len);
	tl_grow(&in.ev, &in.capev, in.nev + 1, sizeof(*in.ev));
	e = &in.ev[in.nev++];
	memset(e, 0, sizeof(*e));
	e->off = in.narena;
	e->len = len;
	e->p0 = in.np;
	in.narena += len;

	if (tl_json_parse(&in.j, copy, len, &err) < 0)
		return bad(index, offset, err);
	if (tl_json_type(&in.j, 0) != TL_J_OBJECT)
		return bad(index, offset, "event is not a JSON object");
	tl_json_members(&in.j, 0, top, NTOP, f);
	if (f[K_PH] >= 0) {
		s = tl_json_text(&in.j, f[K_PH], &n);
		ph = n == 1 ? s[0] : 0;
	}
	if (ph == 'M') {
		e->meta = 1;
		return 0;
	}
	if (f[K_TS] >= 0) {
		int64_t v, ns, dur = 0;
		int dec;

		s = tl_json_text(&in.j, f[K_TS], &n);
		if (tl_json_type(&in.j, f[K_TS]) != TL_J_PRIM ||
		    parse_scaled(s, n, &v, &dec) < 0 ||
		    tl_parse_us_ns(s, n, &ns) < 0)
			return bad(index, offset, "\"ts\" is not a plain "
			    "decimal number with at most 9 decimals");
		add_patch(copy, s, n, P_TS, dec, v);
		if (f[K_DUR] >= 0) {
			s = tl_json_text(&in.j, f[K_DUR], &n);
			if (tl_parse_us_ns(s, n, &dur) < 0 || dur < 0)
				return bad(index, offset,
				    "\"dur\" is not a number >= 0");
		}
		if (!in.have_t || in.tmin > ns)
			in.tmin = ns;
		if (!in.have_t || in.tmax < ns + dur)
			in.tmax = ns + dur;
		in.have_t = 1;
		if (dec > in.maxdec)
			in.maxdec = dec;
	}
	if (f[K_ID] >= 0) {
		int64_t v;

		s = tl_json_text(&in.j, f[K_ID], &n);
		if (tl_json_type(&in.j, f[K_ID]) == TL_J_PRIM &&
		    tl_parse_i64(s, n, &v) == 0) {
			if (v >= 0) {
				add_patch(copy, s, n, P_ID, 0, v);
				if (v > in.idmax)
					in.idmax = v;
			}
		} else if (ph == 's' || ph == 'f' || ph == 't')
			return bad(index, offset,
			    "the flow's \"id\" is not an integer");
	}
	tl_json_members(&in.j, f[K_ARGS], id_keys, (int)NID, a);
	for (k = 0; k < NID; k++) {
		int64_t v;

		if (a[k] < 0 || tl_json_type(&in.j, a[k]) != TL_J_PRIM)
			continue;
		s = tl_json_text(&in.j, a[k], &n);
		if (tl_parse_i64(s, n, &v) < 0 || v < 0)
			continue;
		add_patch(copy, s, n, P_ID, 0, v);
		if (v > in.idmax)
			in.idmax = v;
	}
	e->np = in.np - e->p0;
	return 0;
}

static void
on_meta(void *ctx, const char *key, size_t klen, const char *val, size_t vlen)
{
	struct member *m;

	(void)ctx;
	if (vlen == 0)
		tl_die("%s: top-level member \"%.*s\" larger than %u bytes",
		    in.name, (int)klen, key, TL_META_MAX);
	tl_grow(&in.m, &in.capm, in.nm + 1, sizeof(*in.m));
	m = &in.m[in.nm++];
	m->len = klen + vlen + 4;
	m->text = tl_malloc(m->len + 1);
	snprintf(m->text, m->len + 1, "\"%.*s\": %.*s", (int)klen, key,
	    (int)vlen, val);
}

static int
cmp_patch(const void *x, const void *y)
{
	const struct patch *a = x, *b = y;

	return a->off < b->off ? -1 : a->off > b->off;
}

/* The output: a FILE or a gzFile. */
static FILE *ofp;
static gzFile ogz;
static const char *oname;

static void
out(const void *s, size_t n)
{
	if (ogz != NULL) {
		if (n > 0 && gzwrite(ogz, s, (unsigned)n) != (int)n) {
			int zerr;

			tl_die("%s: %s", oname, gzerror(ogz, &zerr));
		}
	} else if (fwrite(s, 1, n, ofp) != n)
		tl_die("%s: write error:", oname);
}

#define OUTS(lit) out(lit, sizeof(lit) - 1)

/* v / 10^dec with dec decimals. */
static void
out_scaled(int64_t v, int dec)
{
	char buf[32];
	size_t n;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t ip = u / (uint64_t)pow10[dec], fp = u % (uint64_t)pow10[dec];

	if (v < 0)
		OUTS("-");
	n = tl_fmt_i64(buf, (int64_t)ip);
	out(buf, n);
	if (dec > 0) {
		int i;

		buf[0] = '.';
		for (i = dec; i > 0; i--, fp /= 10)
			buf[i] = (char)('0' + fp % 10);
		out(buf, (size_t)dec + 1);
	}
}

static void
write_event(const struct event *e, int64_t shift_us, int64_t idoff)
{
	const char *s = in.arena + e->off;
	size_t at = 0, i;
	char buf[32];

	if (shift_us == 0) {
		out(s, e->len);
		return;
	}
	for (i = e->p0; i < e->p0 + e->np; i++) {
		const struct patch *p = &in.p[i];

		out(s + at, p->off - at);
		if (p->kind == P_TS)
			out_scaled(p->v + shift_us * pow10[p->dec], p->dec);
		else
			out(buf, tl_fmt_i64(buf, p->v + idoff));
		at = p->off + p->len;
	}
	out(s + at, e->len - at);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "gap", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "level", required_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_input *src;
	struct tl_scan_cb cb;
	long long k, gap = 1000, level = 6;
	int64_t period, step, c;
	size_t i, m, first = 1;
	int ch, verbose = 0, rc;

	tl_setprogname(argv[0]);
	while ((ch = getopt_long(argc, argv, "g:hl:v", longopts, NULL)) != -1)
		switch (ch) {
		case 'g':
			if (tl_parse_long(optarg, 0, 1LL << 40, &gap) < 0)
				usage(stderr, TL_EXIT_USAGE);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'l':
			if (tl_parse_long(optarg, 0, 9, &level) < 0)
				usage(stderr, TL_EXIT_USAGE);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (argc != 3 || tl_parse_long(argv[0], 1, 1 << 20, &k) < 0)
		usage(stderr, TL_EXIT_USAGE);

	if ((src = tl_input_open(argv[1])) == NULL)
		return TL_EXIT_ERROR;
	in.name = tl_input_name(src);
	tl_json_init(&in.j);
	memset(&cb, 0, sizeof(cb));
	cb.ctx = NULL;
	cb.event = on_event;
	cb.meta = on_meta;
	rc = tl_scan(src, &cb);
	if (tl_input_close(src) < 0 || rc < 0)
		return TL_EXIT_ERROR;
	tl_json_free(&in.j);
	if (!in.seen_events)
		tl_die("%s: no events to copy", in.name);
	for (i = 0; i < in.nev; i++)
		qsort(in.p + in.ev[i].p0, in.ev[i].np, sizeof(*in.p),
		    cmp_patch);

	/* Copies never overlap: the period exceeds the span. */
	period = in.have_t ? (in.tmax - in.tmin + 999) / 1000 : 0;
	period += gap;
	if (period == 0)
		period = 1;
	for (step = 10; step <= in.idmax; step *= 10)
		if (step > INT64_MAX / 10)
			tl_die("%s: ids too large to offset", in.name);
	/*
	 * The last copy's ids, its scaled ts texts (below 10^17 before the
	 * shift) and its times in ns (tl's limit is 2^62) must stay in range.
	 */
	if ((k - 1) > (INT64_MAX - in.idmax) / step ||
	    (k - 1) > (INT64_MAX - 100000000000000000) / pow10[in.maxdec] /
	    period ||
	    (k - 1) > ((INT64_C(1) << 62) / 1000 - in.tmax / 1000 - 1) / period)
		tl_die("%s: %lld copies would overflow the ids or times",
		    in.name, k);
	if (verbose)
		fprintf(stderr, "period_us %lld\nid_step %lld\n",
		    (long long)period, (long long)step);

	oname = argv[2];
	if (strcmp(oname, "-") == 0) {
		ofp = stdout;
		oname = "<stdout>";
	} else {
		size_t n = strlen(oname);

		if (n > 3 && strcmp(oname + n - 3, ".gz") == 0) {
			char mode[8];

			snprintf(mode, sizeof(mode), "wb%lld", level);
			if ((ogz = gzopen(oname, mode)) == NULL)
				tl_die("%s:", oname);
			gzbuffer(ogz, 1 << 20);
		} else if ((ofp = fopen(oname, "wb")) == NULL)
			tl_die("%s:", oname);
	}
	if (ofp != NULL)
		setvbuf(ofp, NULL, _IOFBF, 1 << 20);

	OUTS("{");
	for (m = 0; m < in.nm_before; m++) {
		out(in.m[m].text, in.m[m].len);
		OUTS(",\n");
	}
	OUTS("\"traceEvents\": [\n");
	for (c = 0; c < k; c++)
		for (i = 0; i < in.nev; i++) {
			if (in.ev[i].meta && c > 0)
				continue;
			if (!first)
				OUTS(",\n");
			first = 0;
			write_event(&in.ev[i], c * period, c * step);
		}
	OUTS("\n]");
	for (m = in.nm_before; m < in.nm; m++) {
		OUTS(",\n");
		out(in.m[m].text, in.m[m].len);
	}
	OUTS("}\n");
	if (ogz != NULL) {
		if ((rc = gzclose(ogz)) != Z_OK)
			tl_die("%s: gzclose failed (%d)", oname, rc);
	} else if (ofp == stdout) {
		if (tl_close_stdout() != 0)
			return TL_EXIT_ERROR;
	} else if (fclose(ofp) != 0)
		tl_die("%s: write error:", oname);
	for (m = 0; m < in.nm; m++)
		free(in.m[m].text);
	free(in.m);
	free(in.p);
	free(in.ev);
	free(in.arena);
	return 0;
}
