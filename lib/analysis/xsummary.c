/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/xsummary.h"
#include "common/json.h"
#include "common/strmap.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/schema.h"

/* The summary's fields, in the order of its table (stream/schema.c). */
enum {
	F_VER, F_TRACE, F_RANK, F_RECORD, F_KEY, F_TYPE, F_GPU, F_HW, F_ITER,
	F_SEQ, F_SEQSRC, F_START, F_SPAN, F_TIME, F_BYTES, F_GROUP, F_TLC,
	F_N = F_TLC + TL_TLC_N
};

/* Rows as lines (no newline), in one buffer. */
struct lines {
	struct tl_writer w;
	char **v;
	size_t n;
};

/* The written rows cut into lines (w's newlines become NULs). */
static void
cut(struct lines *L)
{
	size_t i, cap = 0, s = 0;

	L->n = 0;
	L->v = NULL;
	for (i = 0; i < L->w.len; i++)
		if (L->w.buf[i] == '\n') {
			tl_grow(&L->v, &cap, L->n + 1, sizeof(*L->v));
			L->w.buf[i] = '\0';
			L->v[L->n++] = L->w.buf + s;
			s = i + 1;
		}
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
sort_lines(struct lines *L)
{
	cut(L);
	if (L->n > 1)
		qsort(L->v, L->n, sizeof(*L->v), cmp_line);
}

static void
lines_free(struct lines *L)
{
	free(L->w.buf);
	free(L->v);
}

static void
put_lines(FILE *fp, const struct lines *L)
{
	struct tl_writer w;
	size_t i;

	tl_w_init(&w, fp, 0);
	tl_table_header(&w, TL_TAB_SUMMARY);
	for (i = 0; i < L->n; i++) {
		fputs(L->v[i], fp);
		fputc('\n', fp);
	}
}

/* The first fields of a row of rank r; the rest up to F_KEY follow. */
static void
head(struct tl_writer *w, const struct tl_xrk *r, const char *record)
{
	tl_w_int(w, TL_XSUM_VERSION);
	tl_w_str(w, r->name);
	tl_w_str(w, r->rank_text);
	tl_w_str(w, record);
}

static void
empties(struct tl_writer *w, int n)
{
	while (n-- > 0)
		tl_w_empty(w);
}

/* v, or an empty field when it is none. */
static void
opt_int(struct tl_writer *w, int64_t v, int64_t none)
{
	if (v == none)
		tl_w_empty(w);
	else
		tl_w_int(w, v);
}

/* The top ops: by trace, kernel time (largest first), name. */
static const struct tl_xrank *op_x;

static int
cmp_op(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int ti, tj;
	int64_t ni, nj;
	const char *si = tl_xrank_get_op(op_x, i, &ti, &ni);
	const char *sj = tl_xrank_get_op(op_x, j, &tj, &nj);

	if (ti != tj)
		return ti < tj ? -1 : 1;
	if (ni != nj)
		return ni > nj ? -1 : 1;
	return strcmp(si, sj);
}

/* x's rows into L, sorted. */
static void
rows_of(const struct tl_xrank *x, struct lines *L)
{
	struct tl_writer *w = &L->w;
	size_t i, n, *ord;
	int tr, k, prev;

	tl_w_init_mem(w, 0);
	for (tr = 0; tr < x->nrk; tr++) {
		const struct tl_xrk *r = &x->rk[tr];

		head(w, r, "rank");
		empties(w, 2);
		tl_w_str(w, r->gpu);
		tl_w_str(w, r->hw);
		empties(w, 3);
		tl_w_us(w, r->first_ns);
		tl_w_us(w, r->last_ns - r->first_ns);
		empties(w, 2);
		opt_int(w, r->world, 0);
		for (k = 0; k < TL_TLC_N; k++)
			tl_w_us(w, r->tlc[k]);
		tl_w_eol(w);
	}
	n = tl_xrank_nsteps(x);
	for (i = 0; i < n; i++) {
		int64_t it, lo, hi;

		tl_xrank_get_step(x, i, &tr, &it, &lo, &hi);
		head(w, &x->rk[tr], "step");
		empties(w, 4);
		tl_w_int(w, it);
		empties(w, 2);
		tl_w_us(w, lo);
		tl_w_us(w, hi - lo);
		empties(w, 3 + TL_TLC_N);
		tl_w_eol(w);
	}
	for (i = 0; i < x->nin; i++) {
		struct tl_xin v;

		tl_xrank_get_inst(x, i, &tr, &v);
		head(w, &x->rk[tr], "collective");
		tl_w_str(w, v.pg);
		tl_w_str(w, v.type);
		empties(w, 2);
		opt_int(w, v.iter, -1);
		tl_w_int(w, v.seq);
		tl_w_str(w, v.ordered ? "order" : "args");
		tl_w_us(w, v.start);
		tl_w_us(w, v.end - v.start);
		tl_w_us(w, v.exposed);
		opt_int(w, v.bytes, -1);
		opt_int(w, v.group, 0);
		empties(w, TL_TLC_N);
		tl_w_eol(w);
	}
	n = tl_xrank_nops(x);
	ord = tl_calloc(n + 1, sizeof(*ord));
	for (i = 0; i < n; i++)
		ord[i] = i;
	op_x = x;
	if (n > 1)
		qsort(ord, n, sizeof(*ord), cmp_op);
	for (i = 0, k = 0, prev = -1; i < n; i++) {
		int64_t ns;
		const char *name = tl_xrank_get_op(x, ord[i], &tr, &ns);

		k = tr == prev ? k + 1 : 0;
		prev = tr;
		if (k >= TL_XSUM_OPS || ns <= 0)
			continue;
		head(w, &x->rk[tr], "op");
		tl_w_str(w, name);
		empties(w, 8);
		tl_w_us(w, ns);
		empties(w, 2 + TL_TLC_N);
		tl_w_eol(w);
	}
	free(ord);
	for (i = 0; i < x->ncul; i++) {
		const struct tl_xcul *c = &x->cul[i];

		head(w, &x->rk[c->tr], "culprit");
		tl_w_str(w, c->name);
		tl_w_str(w, c->kind);
		empties(w, 7);
		tl_w_us(w, c->ns);
		empties(w, 2 + TL_TLC_N);
		tl_w_eol(w);
	}
	sort_lines(L);
}

static int64_t
num(const char *s, int us, int64_t none)
{
	int64_t v;

	if (s[0] == '\0')
		return none;
	if ((us ? tl_parse_us_ns(s, strlen(s), &v) :
	    tl_parse_i64(s, strlen(s), &v)) < 0)
		return none;	/* checked when read */
	return v;
}

/* One line (cut into its fields in place) into x; trs: traces seen. */
static void
parse(struct tl_xrank *x, struct tl_strmap *trs, char *line)
{
	char *f[F_N], *p = line, key[1024];
	const char *rec;
	int k, tr, added;

	for (k = 0; k < F_N; k++) {
		char *t = strchr(p, '\t');
		size_t n = t != NULL ? (size_t)(t - p) : strlen(p);

		f[k] = p;
		p = t != NULL ? t + 1 : p + n;
		tl_tsv_decode(f[k], f[k], n);
	}
	snprintf(key, sizeof(key), "%s\037%s", f[F_TRACE], f[F_RANK]);
	tr = (int)tl_strmap_add(trs, key, strlen(key), &added);
	rec = f[F_RECORD];
	if (strcmp(rec, "rank") == 0) {
		int64_t tlc[TL_TLC_N], s = num(f[F_START], 1, 0);

		for (k = 0; k < TL_TLC_N; k++)
			tlc[k] = num(f[F_TLC + k], 1, 0);
		tl_xrank_trace(x, tr, f[F_TRACE], f[F_RANK], f[F_GPU],
		    f[F_HW], tlc);
		tl_xrank_span(x, tr, s, s + num(f[F_SPAN], 1, 0));
	} else if (strcmp(rec, "step") == 0) {
		int64_t s = num(f[F_START], 1, 0);

		tl_xrank_step(x, tr, num(f[F_ITER], 0, -1), s,
		    s + num(f[F_SPAN], 1, 0));
	} else if (strcmp(rec, "collective") == 0) {
		struct tl_xin v;

		v.pg = f[F_KEY];
		v.type = f[F_TYPE];
		v.iter = num(f[F_ITER], 0, -1);
		v.seq = num(f[F_SEQ], 0, 0);
		v.ordered = strcmp(f[F_SEQSRC], "order") == 0;
		v.start = num(f[F_START], 1, 0);
		v.end = v.start + num(f[F_SPAN], 1, 0);
		v.exposed = num(f[F_TIME], 1, 0);
		v.bytes = num(f[F_BYTES], 0, -1);
		v.group = num(f[F_GROUP], 0, 0);
		tl_xrank_inst(x, tr, &v);
	} else if (strcmp(rec, "op") == 0)
		tl_xrank_op(x, tr, f[F_KEY], num(f[F_TIME], 1, 0));
	else if (strcmp(rec, "culprit") == 0)
		tl_xrank_culprit(x, tr, f[F_TYPE], f[F_KEY],
		    num(f[F_TIME], 1, 0));
}

static void
parse_all(struct tl_xrank *x, struct lines *L)
{
	struct tl_strmap trs;
	size_t i;

	tl_strmap_init(&trs);
	for (i = 0; i < L->n; i++)
		parse(x, &trs, L->v[i]);
	tl_strmap_free(&trs);
}

int
tl_xsum_is(const struct tl_stream *in)
{
	return tl_stream_col(in, tl_col_name(TL_COL_SUMMARY_VERSION)) >= 0;
}

/* The rows of the summaries of in, checked, into L (sorted). */
static void
rows_in(struct tl_stream *in, struct lines *L)
{
	const struct tl_tabdef *t = &tl_tables[TL_TAB_SUMMARY];
	static const char *const recs[] = { "rank", "step", "collective",
	    "op", "culprit" };
	int k, ok = in->ncols == t->ncols;

	for (k = 0; ok && k < t->ncols; k++)
		ok = strcmp(in->cols[k], tl_col_name(t->cols[k])) == 0;
	if (!ok)
		tl_die("%s: not a summary of version %d: its columns are not "
		    "those of tl-format(5), \"The per-rank summary\"",
		    in->path, TL_XSUM_VERSION);
	tl_w_init_mem(&L->w, 0);
	while (tl_stream_next(in)) {
		int64_t v;
		size_t r;

		tl_stream_i64(in, F_VER, &v);
		if (v != TL_XSUM_VERSION)
			tl_die("%s: a summary of version %lld; this tl reads "
			    "version %d (summarise the op stream again)",
			    tl_stream_where(in), (long long)v,
			    TL_XSUM_VERSION);
		for (r = 0; r < sizeof(recs) / sizeof(recs[0]); r++)
			if (strcmp(tl_stream_get(in, F_RECORD), recs[r]) == 0)
				break;
		if (r == sizeof(recs) / sizeof(recs[0]))
			tl_stream_not_a(in, F_RECORD, "a summary record "
			    "(rank, step, collective, op or culprit)");
		for (k = F_ITER; k < F_N; k++) {
			int us = k == F_START || k == F_SPAN || k == F_TIME ||
			    k >= F_TLC;

			if (k == F_SEQSRC)
				continue;
			if ((us ? tl_stream_try_us(in, k, &v) :
			    tl_stream_try_i64(in, k, &v)) < 0)
				tl_stream_not_a(in, k, us ? "a number" :
				    "an integer");
		}
		for (k = 0; k < F_N; k++)
			tl_stream_copy(in, k, &L->w);
		tl_w_eol(&L->w);
	}
	sort_lines(L);
}

void
tl_xsum_write(FILE *fp, const struct tl_xrank *x)
{
	struct lines L;

	rows_of(x, &L);
	put_lines(fp, &L);
	lines_free(&L);
}

void
tl_xsum_read(struct tl_xrank *x, struct tl_stream *in)
{
	struct lines L;

	rows_in(in, &L);
	parse_all(x, &L);
	lines_free(&L);
}

void
tl_xsum_merge(FILE *fp, struct tl_stream *in)
{
	struct lines L;

	rows_in(in, &L);
	put_lines(fp, &L);
	lines_free(&L);
}

void
tl_xsum_canon(struct tl_xrank *x)
{
	struct tl_xrank y;
	struct lines L;

	tl_xrank_exposed(x);
	rows_of(x, &L);
	tl_xrank_init(&y);
	parse_all(&y, &L);
	lines_free(&L);
	tl_xrank_free(x);
	*x = y;
}
