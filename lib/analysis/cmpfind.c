/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpfind.h"
#include "common/json.h"
#include "common/util.h"
#include "stream/category.h"
#include "stream/schema.h"
#include "stream/stream.h"

enum { REF, TGT };

static const char *const prefix[2] = { "ref_", "target_" };

/* Each side's columns, by the names they take a prefix to. */
enum {
	S_NAME, S_HW, S_ROOF, S_BW_ROOF, S_PEAK_TFLOPS, S_PEAK_TBS, S_COUNT,
	S_TIME, S_MEAN, S_TFLOPS_S, S_TBS, S_PCT_ROOF, S_PCT_GPU, S_KERNELS,
	S_N
};
static const short sidecol[S_N] = {
	TL_COL_NAME, TL_COL_HW, TL_COL_ROOF, TL_COL_BW_ROOF,
	TL_COL_PEAK_TFLOPS, TL_COL_PEAK_TBS, TL_COL_COUNT,
	TL_COL_KERNEL_TIME_US, TL_COL_KERNEL_TIME_MEAN_US, TL_COL_TFLOPS_S,
	TL_COL_TBS, TL_COL_PCT_ROOFLINE, TL_COL_PCT_GPU_TIME, TL_COL_KERNELS
};

struct reader {
	struct tl_rowreader rr;
	short s[2][S_N];		/* each side's columns */
	short tlc[2][TL_TLC_N];	/* each side's timeline */
	struct tl_json j;
	char *buf;
	size_t bufcap;
};

static int
has_col(const struct tl_stream *in, int c)
{
	return tl_stream_col(in, tl_col_name(c)) >= 0;
}

int
tl_cmpfind_kind(const struct tl_stream *in)
{
	if (has_col(in, TL_COL_MATCH) &&
	    has_col(in, TL_COL_REF_KERNEL_TIME_US) &&
	    has_col(in, TL_COL_TARGET_KERNEL_TIME_US))
		return 1;
	if (has_col(in, TL_COL_TYPE) && has_col(in, TL_COL_REF_TIME_US) &&
	    has_col(in, TL_COL_TARGET_TIME_US))
		return 2;
	return 0;
}

const char *
tl_cexp_text(enum tl_cexp e)
{
	static const char *const text[TL_CE_N] = { "n/a", "yes",
	    "no (faster)", "no (slower)", "likely kernel problem" };

	return text[e];
}

const char *
tl_cexp_value(enum tl_cexp e)
{
	static const char *const value[TL_CE_N] = { "", "yes", "faster",
	    "slower", "likely_kernel_problem" };

	return value[e];
}

static char *
dup_col(struct reader *R, int col)
{
	return tl_strdup(tl_rr_text(&R->rr, col));
}

/* A side's kernels column: the first TL_CKERN kept, the rest summed. */
static void
kernels(struct reader *R, int k, struct tl_cside *s)
{
	static const char *const keys[] = { "name", "count", "time_us" };
	const char *txt = tl_rr_text(&R->rr, R->s[k][S_KERNELS]), *err;
	struct tl_json *j = &R->j;
	int tok, i, v[3];
	int64_t count, ns;
	size_t len;

	if (txt[0] == '\0')
		return;
	if (tl_json_parse(j, txt, strlen(txt), &err) < 1 ||
	    tl_json_type(j, 0) != TL_J_ARRAY)
		goto bad;
	for (tok = 1, i = 0; i < tl_json_size(j, 0); i++,
	    tok = tl_json_next(j, tok)) {
		if (tl_json_type(j, tok) != TL_J_OBJECT)
			goto bad;
		tl_json_members(j, tok, keys, 3, v);
		if (v[0] < 0 || v[1] < 0 || v[2] < 0)
			goto bad;
		txt = tl_json_text(j, v[1], &len);
		if (tl_parse_i64(txt, len, &count) < 0)
			goto bad;
		txt = tl_json_text(j, v[2], &len);
		if (tl_parse_us_ns(txt, len, &ns) < 0)
			goto bad;
		s->nkern_all++;
		if (s->nkern == TL_CKERN) {
			s->kern_other_ns += ns;
			continue;
		}
		txt = tl_json_text(j, v[0], &len);
		tl_grow(&R->buf, &R->bufcap, len + 1, 1);
		len = tl_json_unescape(R->buf, txt, len);
		R->buf[len] = '\0';
		s->kern[s->nkern].name = tl_strdup(R->buf);
		s->kern[s->nkern].count = count;
		s->kern[s->nkern].time_ns = ns;
		s->nkern++;
	}
	return;
bad:
	tl_die("%s: %skernels: not a JSON list of {name, count, time_us}",
	    tl_stream_where(R->rr.in), prefix[k]);
}

static void
read_side(struct reader *R, int k, struct tl_cside *s)
{
	int64_t v;

	s->roof = dup_col(R, R->s[k][S_ROOF]);
	s->bw_roof = dup_col(R, R->s[k][S_BW_ROOF]);
	s->peak_tflops = tl_rr_num(&R->rr, R->s[k][S_PEAK_TFLOPS]);
	s->peak_tbs = tl_rr_num(&R->rr, R->s[k][S_PEAK_TBS]);
	s->mean_us = s->tflops_s = s->tbs = s->pct_roofline = s->pct_gpu =
	    NAN;
	if (!s->has)
		return;
	if (tl_rr_i64(&R->rr, R->s[k][S_COUNT], &v))
		s->count = v;
	tl_rr_ns(&R->rr, R->s[k][S_TIME], &s->time_ns);
	s->mean_us = tl_rr_num(&R->rr, R->s[k][S_MEAN]);
	s->tflops_s = tl_rr_num(&R->rr, R->s[k][S_TFLOPS_S]);
	s->tbs = tl_rr_num(&R->rr, R->s[k][S_TBS]);
	s->pct_roofline = tl_rr_num(&R->rr, R->s[k][S_PCT_ROOF]);
	s->pct_gpu = tl_rr_num(&R->rr, R->s[k][S_PCT_GPU]);
	kernels(R, k, s);
}

/*
 * The judgement of a matched row (see cmpfind.h) against an expected
 * ratio and its explained column: those of the run's roof kind, or of
 * the other kind.
 */
static enum tl_cexp
judge(const struct tl_crow *w, double expected, const char *explained)
{
	if (w->match != TL_CM_BOTH || isnan(expected) || isnan(w->actual))
		return TL_CE_NA;
	if (strcmp(explained, "yes") == 0)
		return TL_CE_YES;
	if (w->actual > 2 * expected)
		return TL_CE_KERNEL;
	return w->actual > expected ? TL_CE_SLOWER : TL_CE_FASTER;
}

static void
first_row(struct tl_cmpfind *c, struct reader *R)
{
	int k, i;

	for (k = 0; k < 2; k++) {
		c->name[k] = dup_col(R, R->s[k][S_NAME]);
		c->hw[k] = dup_col(R, R->s[k][S_HW]);
		for (i = 0; i < TL_TLC_N; i++)
			c->has_tl[k][i] = tl_rr_ns(&R->rr, R->tlc[k][i],
			    &c->tl_ns[k][i]);
	}
	c->tolerance_pct = tl_rr_num(&R->rr, TL_COL_TOLERANCE_PCT);
	c->roof_kind = dup_col(R, TL_COL_ROOF_KIND);
}

static void
read_row(struct tl_cmpfind *c, struct reader *R)
{
	const char *m = tl_rr_text(&R->rr, TL_COL_MATCH);
	struct tl_crow *w;
	int k;

	tl_grow(&c->row, &c->caprow, (size_t)c->nrow + 1, sizeof(*c->row));
	w = &c->row[c->nrow++];
	memset(w, 0, sizeof(*w));
	if (strcmp(m, "both") == 0)
		w->match = TL_CM_BOTH;
	else if (strcmp(m, "ref_only") == 0)
		w->match = TL_CM_REF_ONLY;
	else if (strcmp(m, "target_only") == 0)
		w->match = TL_CM_TARGET_ONLY;
	else
		tl_die("%s: match '%s' is not both, ref_only or target_only",
		    tl_stream_where(R->rr.in), m);
	w->name = dup_col(R, TL_COL_NAME);
	w->category = dup_col(R, TL_COL_CATEGORY);
	w->direction = dup_col(R, TL_COL_DIRECTION);
	w->dims = dup_col(R, TL_COL_INPUT_DIMS);
	w->types = dup_col(R, TL_COL_INPUT_TYPES);
	w->strides = dup_col(R, TL_COL_INPUT_STRIDES);
	w->target_strides = dup_col(R, TL_COL_TARGET_INPUT_STRIDES);
	w->layout_note = dup_col(R, TL_COL_LAYOUT_NOTE);
	w->concrete = dup_col(R, TL_COL_CONCRETE_INPUTS);
	w->perf_model = dup_col(R, TL_COL_PERF_MODEL);
	w->compute_spec = dup_col(R, TL_COL_COMPUTE_SPEC);
	w->bound = dup_col(R, TL_COL_BOUND);
	w->explained = dup_col(R, TL_COL_EXPLAINED);
	if ((w->cat = tl_category_parse(w->category)) < 0)
		w->cat = tl_category_index("other");
	w->has_flops = tl_rr_i64(&R->rr, TL_COL_FLOPS, &w->flops);
	w->has_bytes = tl_rr_i64(&R->rr, TL_COL_BYTES, &w->bytes);
	w->s[REF].has = w->match != TL_CM_TARGET_ONLY;
	w->s[TGT].has = w->match != TL_CM_REF_ONLY;
	for (k = 0; k < 2; k++)
		read_side(R, k, &w->s[k]);
	w->expected = tl_rr_num(&R->rr, TL_COL_EXPECTED_RATIO);
	w->actual = tl_rr_num(&R->rr, TL_COL_ACTUAL_RATIO);
	w->unexplained_us = tl_rr_num(&R->rr, TL_COL_UNEXPLAINED_TIME_US);
	w->delta_ns = w->s[TGT].time_ns - w->s[REF].time_ns;
	w->delta_pct = w->s[REF].has && w->s[REF].time_ns > 0 ?
	    100 * (double)w->delta_ns / (double)w->s[REF].time_ns : NAN;
	w->other_expected = tl_rr_num(&R->rr, TL_COL_OTHER_EXPECTED_RATIO);
	w->other_explained = dup_col(R, TL_COL_OTHER_EXPLAINED);
	w->exp = judge(w, w->expected, w->explained);
	w->other_exp = judge(w, w->other_expected, w->other_explained);
}

/*
 * Recommendations: by score, then unexplained time, larger first, then
 * in stream order (the rows are one array).
 */
static int
cmp_rec(const void *a, const void *b)
{
	const struct tl_crow *x = *(const struct tl_crow *const *)a;
	const struct tl_crow *y = *(const struct tl_crow *const *)b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->unexplained_us != y->unexplained_us)
		return x->unexplained_us > y->unexplained_us ? -1 : 1;
	return x < y ? -1 : x > y;
}

static enum tl_priority
priority(const struct tl_findrules *r, double score)
{
	if (score > r->critical_pct)
		return TL_PRIO_CRITICAL;
	if (score > r->high_pct)
		return TL_PRIO_HIGH;
	if (score > r->medium_pct)
		return TL_PRIO_MEDIUM;
	return TL_PRIO_LOW;
}

/* Totals, judgements and the ranked recommendations. */
static void
analyse(struct tl_cmpfind *c, const struct tl_findrules *r)
{
	struct tl_crow **recs;
	int i, k;

	c->identical = c->nrow > 0;
	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];

		c->nmatch[w->match]++;
		c->cat_present[w->cat] = 1;
		for (k = 0; k < 2; k++) {
			c->cat_ns[k][w->cat] += w->s[k].time_ns;
			c->op_ns[k] += w->s[k].time_ns;
		}
		if (w->match != TL_CM_BOTH || w->delta_ns != 0)
			c->identical = 0;
		if (w->match != TL_CM_BOTH)
			continue;
		if (w->layout_note[0] != '\0')
			c->nlayout++;
		c->nexp[w->exp]++;
		if (w->other_exp != TL_CE_NA && w->other_exp != w->exp)
			c->nother++;
		c->bound_ns[strcmp(w->bound, "compute") == 0 ? 0 :
		    strcmp(w->bound, "memory") == 0 ? 1 : 2] +=
		    w->s[TGT].time_ns;
	}
	c->rec = tl_calloc((size_t)c->nrow + 1, sizeof(*c->rec));
	recs = tl_calloc((size_t)c->nrow + 1, sizeof(*recs));
	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];
		const struct tl_cside *t = &w->s[TGT];
		double u = w->unexplained_us, t_us = (double)t->time_ns / 1e3;

		if (w->match == TL_CM_TARGET_ONLY && isnan(u))
			w->unexplained_us = u = t_us;
		if (!(u > 0) || t->time_ns <= 0 ||
		    !(w->match == TL_CM_TARGET_ONLY || w->exp == TL_CE_SLOWER ||
		    w->exp == TL_CE_KERNEL))
			continue;
		w->candidate = 1;
		if (!isnan(t->pct_gpu))
			w->score = u / t_us * t->pct_gpu;
		else
			w->score = u / ((double)c->op_ns[TGT] / 1e3) * 100;
		w->prio = priority(r, w->score);
		c->unexplained_us += u;
		recs[c->nrec++] = w;
	}
	if (c->nrec > 1)
		qsort(recs, (size_t)c->nrec, sizeof(*recs), cmp_rec);
	for (i = 0; i < c->nrec; i++) {
		c->rec[i] = (int)(recs[i] - c->row);
		recs[i]->rank = i + 1;
	}
	free(recs);
}

void
tl_cmpfind_read(struct tl_cmpfind *c, struct tl_stream *in,
    const struct tl_findrules *r)
{
	const struct tl_tabdef *t = &tl_tables[TL_TAB_COMPARE];
	struct reader R;
	int i, k;

	memset(c, 0, sizeof(*c));
	c->rules = *r;
	memset(&R, 0, sizeof(R));
	for (k = 0; k < 2; k++) {
		for (i = 0; i < S_N; i++)
			R.s[k][i] = (short)tl_col_side(sidecol[i], k);
		for (i = 0; i < TL_TLC_N; i++)
			R.tlc[k][i] = (short)tl_col_side(tl_tlc_cols[i], k);
	}
	/* The comparison's columns, as tl-compare writes them. */
	tl_rr_init(&R.rr, in, t->cols, t->ncols);
	tl_rr_need(&R.rr, TL_COL_NAME);
	tl_json_init(&R.j);
	c->tolerance_pct = NAN;
	while (tl_rr_next(&R.rr)) {
		if (c->nrow == 0)
			first_row(c, &R);
		read_row(c, &R);
	}
	for (k = 0; k < 2; k++)
		if (c->name[k] == NULL) {
			c->name[k] = tl_strdup("");
			c->hw[k] = tl_strdup("");
		}
	if (c->roof_kind == NULL)
		c->roof_kind = tl_strdup("");
	analyse(c, r);
	tl_rr_free(&R.rr);
	tl_json_free(&R.j);
	free(R.buf);
}

int
tl_cmpfind_worst(const struct tl_cmpfind *c)
{
	int i, worst = -1;

	for (i = 0; i < c->nrec; i++)
		if ((int)c->row[c->rec[i]].prio > worst)
			worst = (int)c->row[c->rec[i]].prio;
	return worst;
}

void
tl_cmpfind_free(struct tl_cmpfind *c)
{
	int i, k, n;

	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];

		free(w->name);
		free(w->category);
		free(w->direction);
		free(w->dims);
		free(w->types);
		free(w->strides);
		free(w->target_strides);
		free(w->layout_note);
		free(w->concrete);
		free(w->perf_model);
		free(w->compute_spec);
		free(w->bound);
		free(w->explained);
		free(w->other_explained);
		for (k = 0; k < 2; k++) {
			free(w->s[k].roof);
			free(w->s[k].bw_roof);
			for (n = 0; n < w->s[k].nkern; n++)
				free(w->s[k].kern[n].name);
		}
	}
	for (k = 0; k < 2; k++) {
		free(c->name[k]);
		free(c->hw[k]);
	}
	free(c->roof_kind);
	free(c->row);
	free(c->rec);
}
