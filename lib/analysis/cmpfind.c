/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpfind.h"
#include "analysis/schedule.h"
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
		if (tl_parse_i64(txt, len, &count) < 0 || count < 0)
			goto bad;
		txt = tl_json_text(j, v[2], &len);
		if (tl_parse_us_ns(txt, len, &ns) < 0 || ns < 0)
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
	tl_die("%s: %skernels: not a JSON list of {name, count, time_us} "
	    "with counts and times 0 or more",
	    tl_stream_where(R->rr.in), prefix[k]);
}

static void
read_side(struct reader *R, int k, struct tl_cside *s)
{
	int64_t v;

	static const short above[2] = {
		TL_COL_REF_ABOVE_PEAK_PCT, TL_COL_TARGET_ABOVE_PEAK_PCT
	};
	static const short why[2] = {
		TL_COL_REF_PERF_ERROR, TL_COL_TARGET_PERF_ERROR
	};

	s->roof = dup_col(R, R->s[k][S_ROOF]);
	s->bw_roof = dup_col(R, R->s[k][S_BW_ROOF]);
	s->perf_error = dup_col(R, why[k]);
	s->above_peak_pct = NAN;
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
	s->above_peak_pct = tl_rr_num(&R->rr, above[k]);
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

const char *
tl_crow_match_value(const struct tl_crow *w)
{
	static const char *const sig[3] = { "both", "ref_only",
	    "target_only" };

	if (w->form == TL_CF_PRODUCT)
		return "product";
	if (w->form == TL_CF_GROUP)
		return w->match == TL_CM_REF_ONLY ? "ref_group" :
		    "target_group";
	return sig[w->match];
}

/* Whether a kernel name says it is a fallback kernel ("_fallback"). */
static int
is_fallback(const char *k)
{
	static const char word[] = "fallback";
	size_t i, n = sizeof(word) - 1;

	for (; *k != '\0'; k++) {
		for (i = 0; i < n && k[i] != '\0'; i++)
			if ((k[i] | 0x20) != word[i])
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

static int
has_kernel(const struct tl_cside *s, const char *name)
{
	int i;

	for (i = 0; i < s->nkern; i++)
		if (strcmp(s->kern[i].name, name) == 0)
			return 1;
	return 0;
}

/*
 * What the kernel names of a row say: copies on every present side
 * (and which copy from pageable memory); on a matched row, other kernel
 * names on the two sides, and a fallback kernel on one side only.
 */
static void
kern_facts(struct tl_crow *w)
{
	int k, i, ncopy = 0, nall = 0, fb[2] = { 0, 0 };

	w->fallback = -1;
	for (k = 0; k < 2; k++) {
		const struct tl_cside *s = &w->s[k];

		for (i = 0; s->has && i < s->nkern; i++) {
			const char *n = s->kern[i].name;

			nall++;
			ncopy += tl_kern_is_copy(n) ||
			    strncmp(n, "MEMORY_COPY_", 12) == 0;
			w->pageable[k] |= tl_kern_pageable_h2d(n);
		}
		fb[k] = s->nkern > 0 && is_fallback(s->kern[0].name);
	}
	w->copy = nall > 0 && ncopy == nall;
	if (w->match != TL_CM_BOTH)
		return;
	w->kdiff = w->s[REF].nkern_all != w->s[TGT].nkern_all;
	for (i = 0; !w->kdiff && i < w->s[REF].nkern; i++)
		w->kdiff = !has_kernel(&w->s[TGT], w->s[REF].kern[i].name);
	if (w->kdiff && fb[REF] != fb[TGT])
		w->fallback = fb[REF] ? REF : TGT;
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
	if (strcmp(m, "both") == 0 || strcmp(m, "product") == 0)
		w->match = TL_CM_BOTH;
	else if (strcmp(m, "ref_only") == 0 || strcmp(m, "ref_group") == 0)
		w->match = TL_CM_REF_ONLY;
	else if (strcmp(m, "target_only") == 0 ||
	    strcmp(m, "target_group") == 0)
		w->match = TL_CM_TARGET_ONLY;
	else
		tl_die("%s: match '%s' is not both, ref_only, target_only, "
		    "product, ref_group or target_group",
		    tl_stream_where(R->rr.in), m);
	w->form = m[0] == 'p' ? TL_CF_PRODUCT : strstr(m, "_group") != NULL ?
	    TL_CF_GROUP : TL_CF_SIG;
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
	kern_facts(w);
	if (w->copy && w->match == TL_CM_BOTH) {
		/* A copy's time is the host link's, not the HBM roof's. */
		w->expected = w->other_expected = NAN;
		w->unexplained_us = w->delta_ns > 0 ?
		    (double)w->delta_ns / 1e3 : 0;
	}
	w->exp = judge(w, w->expected, w->explained);
	w->other_exp = judge(w, w->other_expected, w->other_explained);
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

/* The rows the target runs much faster than the hardware predicts. */
static void
fast_rows(struct tl_cmpfind *c)
{
	int i;

	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];
		const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];

		if (w->exp != TL_CE_FASTER || !(w->actual < w->expected / 2))
			continue;
		w->fast = 1;
		c->nfast++;
		w->ref_excess_us = (double)r->time_ns / 1e3 - t->mean_us /
		    w->expected * (double)r->count;
		if (w->ref_excess_us > 0)
			c->fast_ns += (int64_t)(w->ref_excess_us * 1e3 + 0.5);
	}
}

static struct tl_cgap *
new_gap(struct tl_cmpfind *c, enum tl_cgkind kind)
{
	struct tl_cgap *g;

	c->gap = tl_realloc(c->gap, ((size_t)c->ngap + 1) * sizeof(*c->gap));
	g = &c->gap[c->ngap++];
	memset(g, 0, sizeof(*g));
	g->kind = kind;
	g->tlc = -1;
	g->pat[0] = g->pat[1] = -1;
	return g;
}

/*
 * The timeline entries the target spends longer in than the reference,
 * by at least TL_CMP_MIN_PCT % of its timeline.
 */
static void
timeline_gaps(struct tl_cmpfind *c)
{
	static const int which[] = { TL_TLC_IDLE, TL_TLC_EXPOSED_COMM,
	    TL_TLC_EXPOSED_MEMCPY };
	struct tl_cgap *g;
	int64_t d, total = c->tl_ns[TGT][TL_TLC_TOTAL];
	size_t i;
	int k;

	if (!c->has_tl[TGT][TL_TLC_TOTAL] || total <= 0)
		return;
	for (i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		k = which[i];
		if (!c->has_tl[REF][k] || !c->has_tl[TGT][k])
			continue;
		d = c->tl_ns[TGT][k] - c->tl_ns[REF][k];
		if (d <= 0 || (double)d * 100 < TL_CMP_MIN_PCT * (double)total)
			continue;
		g = new_gap(c, TL_CG_TIMELINE);
		g->tlc = k;
		g->ns[REF] = c->tl_ns[REF][k];
		g->ns[TGT] = c->tl_ns[TGT][k];
		g->save_ns = d;
	}
}

static int
is_item_first(const struct tl_cmpfind *c, const struct tl_citem *x)
{
	return x->gap >= 0 && c->gap[x->gap].fused_ns > 0;
}

static double
item_save(const struct tl_cmpfind *c, const struct tl_citem *x)
{
	return x->row >= 0 ? c->row[x->row].unexplained_us :
	    (double)c->gap[x->gap].save_ns / 1e3;
}

static const struct tl_cmpfind *sort_c;

/*
 * Recommendations: an unfused attention the reference runs fused
 * first, then by score and recoverable time, larger first, then ops
 * before gaps, each in its order.
 */
static int
cmp_item(const void *a, const void *b)
{
	const struct tl_citem *x = a, *y = b;
	double sx, sy;

	if (is_item_first(sort_c, x) != is_item_first(sort_c, y))
		return is_item_first(sort_c, x) ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	sx = item_save(sort_c, x);
	sy = item_save(sort_c, y);
	if (sx != sy)
		return sx > sy ? -1 : 1;
	if ((x->row >= 0) != (y->row >= 0))
		return x->row >= 0 ? -1 : 1;
	return x->row >= 0 ? x->row - y->row : x->gap - y->gap;
}

/*
 * No time counted twice: the target's exposed copies beyond the
 * reference's, less what the copy rows and the pageable-copy patterns
 * that are recommendations of their own recover.
 */
static void
copies_once(struct tl_cmpfind *c)
{
	int64_t named = 0, d;
	int i;

	for (i = 0; i < c->nrow; i++)
		if (c->row[i].copy && c->row[i].candidate && !c->row[i].in_pat)
			named += (int64_t)(c->row[i].unexplained_us * 1e3 +
			    0.5);
	for (i = 0; i < c->ngap; i++)
		if (c->gap[i].kind == TL_CG_PATTERN && c->gap[i].pat[TGT] >= 0 &&
		    c->side[TGT]->pat[c->gap[i].pat[TGT]].kind ==
		    TL_PAT_PAGEABLE)
			named += c->gap[i].save_ns;
	for (i = 0; i < c->ngap; i++) {
		struct tl_cgap *g = &c->gap[i];

		if (g->kind != TL_CG_TIMELINE || g->tlc != TL_TLC_EXPOSED_MEMCPY)
			continue;
		d = g->ns[TGT] - g->ns[REF] - named;
		g->save_ns = d > 0 && (double)d * 100 >= TL_CMP_MIN_PCT *
		    (double)c->tl_ns[TGT][TL_TLC_TOTAL] ? d : 0;
	}
}

/*
 * Every recommendation, ranked: the candidate rows no pattern covers
 * and the gaps that recover time.  A row's rank is its place here.
 */
static void
rank_all(struct tl_cmpfind *c)
{
	int i;

	c->op_total_us = (double)c->op_ns[TGT] / 1e3;
	for (i = 0; i < c->nrow; i++) {
		const struct tl_cside *t = &c->row[i].s[TGT];

		if (t->has && t->time_ns > 0 && t->pct_gpu > 0) {
			c->op_total_us = (double)t->time_ns / 1e3 /
			    t->pct_gpu * 100;
			break;
		}
	}
	free(c->item);
	c->item = tl_calloc((size_t)(c->nrow + c->ngap) + 1,
	    sizeof(*c->item));
	c->nitem = c->nrec = 0;
	c->unexplained_us = 0;
	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];

		w->rank = 0;
		if (!w->candidate || w->in_pat)
			continue;
		c->unexplained_us += w->unexplained_us;
		c->item[c->nitem].row = i;
		c->item[c->nitem].gap = -1;
		c->item[c->nitem].score = w->score;
		c->item[c->nitem++].prio = w->prio;
	}
	copies_once(c);
	for (i = 0; i < c->ngap; i++) {
		struct tl_cgap *g = &c->gap[i];

		if (g->save_ns <= 0)
			continue;
		g->score = c->op_total_us > 0 ? (double)g->save_ns / 1e3 /
		    c->op_total_us * 100 : 0;
		g->prio = priority(&c->rules, g->score);
		c->item[c->nitem].row = -1;
		c->item[c->nitem].gap = i;
		c->item[c->nitem].score = g->score;
		c->item[c->nitem++].prio = g->prio;
	}
	sort_c = c;
	if (c->nitem > 1)
		qsort(c->item, (size_t)c->nitem, sizeof(*c->item), cmp_item);
	sort_c = NULL;
	for (i = 0; i < c->nitem; i++)
		if (c->item[i].row >= 0) {
			c->row[c->item[i].row].rank = i + 1;
			c->rec[c->nrec++] = c->item[i].row;
		}
}

/*
 * The groups of the stream (rows of one layout_note matched as a group,
 * lib/analysis/compare): each side's time summed, and judged.  Attention
 * unfused on the target and slower is a recommendation (the reference
 * runs it fused); fused on the target and slower, a recommendation
 * about the target's fused kernel; either way the target faster: the
 * reference may be inefficient there, never advice for the target.
 */
/*
 * The fused side of a group: the side whose rows are all of one category
 * that runs fused work (attention, a norm, MoE) while the other side has
 * no row of it; -1 when none is.
 */
static int
fused_side(const struct tl_cmpfind *c, int gi, int *cat)
{
	static const char *const fused[] = { "attention", "layernorm",
	    "rmsnorm", "groupnorm", "batchnorm", "instancenorm", "moe" };
	int one[2] = { -2, -2 }, i, k, f;

	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *x = &c->row[i];

		if (x->grp != gi)
			continue;
		k = x->match == TL_CM_REF_ONLY ? REF : TGT;
		one[k] = one[k] == -2 || one[k] == x->cat ? x->cat : -1;
	}
	for (k = 0; k < 2; k++) {
		if (one[k] < 0 || one[k] == one[1 - k])
			continue;
		for (f = 0; f < (int)(sizeof(fused) / sizeof(fused[0])); f++)
			if (tl_category_index(fused[f]) == one[k])
				break;
		if (f == (int)(sizeof(fused) / sizeof(fused[0])))
			continue;
		for (i = 0; i < c->nrow; i++)
			if (c->row[i].grp == gi && c->row[i].cat == one[k] &&
			    c->row[i].match != (k == REF ? TL_CM_REF_ONLY :
			    TL_CM_TARGET_ONLY))
				break;
		if (i == c->nrow) {
			*cat = one[k];
			return k;
		}
	}
	return -1;
}

static void
groups(struct tl_cmpfind *c)
{
	int i, j, k;

	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];
		struct tl_cgap *g;
		int gi;

		if (w->form != TL_CF_GROUP || w->grp)
			continue;
		g = new_gap(c, TL_CG_GROUP);
		gi = c->ngap;
		g->row = i;
		g->fused_side = -1;
		c->ngroup++;
		for (j = i; j < c->nrow; j++) {
			struct tl_crow *x = &c->row[j];

			if (x->form != TL_CF_GROUP || x->grp ||
			    strcmp(x->layout_note, w->layout_note) != 0)
				continue;
			x->grp = gi;
			k = x->match == TL_CM_REF_ONLY ? REF : TGT;
			g->ns[k] += x->s[k].time_ns;
			g->nrows[k]++;
		}
		g->fused_side = fused_side(c, gi, &g->cat);
		if (g->nrows[REF] == 0 || g->nrows[TGT] == 0)
			continue;
		if (g->ns[TGT] > g->ns[REF]) {
			g->save_ns = g->ns[TGT] - g->ns[REF];
			if (g->fused_side == REF &&
			    g->cat == tl_category_index("attention"))
				g->fused_ns = g->ns[REF];
		} else if (g->ns[TGT] < g->ns[REF]) {
			g->ref_slower = 1;
			c->nref_slower++;
			c->ref_slower_ns += g->ns[REF] - g->ns[TGT];
		}
	}
}

/* Totals, judgements and the candidates for recommendations. */
static void
analyse(struct tl_cmpfind *c, const struct tl_findrules *r)
{
	int i, k;

	c->identical = c->nrow > 0;
	c->kdiff_row = -1;
	c->same_hw = c->hw[REF][0] != '\0' && strcmp(c->hw[REF], c->hw[TGT]) ==
	    0;
	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];

		if (w->form == TL_CF_GROUP)
			c->ngrouprow++;
		else
			c->nmatch[w->match]++;
		c->nproduct += w->form == TL_CF_PRODUCT;
		/*
		 * The same convolution on the same GPU with other kernels:
		 * the library searched or chose its algorithm differently
		 * (benchmark mode, find mode, workspace limit, version).
		 */
		w->algo = w->kdiff && w->fallback < 0 && c->same_hw &&
		    w->cat == tl_category_index("conv") &&
		    w->s[REF].nkern > 0 && w->s[TGT].nkern > 0;
		if (w->kdiff) {
			c->nkdiff++;
			c->identical = 0;
			if (c->kdiff_row < 0 || (w->fallback >= 0 &&
			    c->row[c->kdiff_row].fallback < 0))
				c->kdiff_row = i;
		}
		c->cat_present[w->cat] = 1;
		for (k = 0; k < 2; k++) {
			c->cat_ns[k][w->cat] += w->s[k].time_ns;
			c->op_ns[k] += w->s[k].time_ns;
			if (w->s[k].has && !isnan(w->s[k].above_peak_pct)) {
				c->nabove[k]++;
				c->above_ns[k] += w->s[k].time_ns;
			}
		}
		if (w->match != TL_CM_BOTH || w->delta_ns != 0)
			c->identical = 0;
		if (w->match != TL_CM_BOTH)
			continue;
		w->layout = strstr(w->layout_note, "strides differ") != NULL;
		c->nlayout += w->layout;
		c->nexp[w->exp]++;
		if (w->other_exp != TL_CE_NA && w->other_exp != w->exp)
			c->nother++;
		c->bound_ns[strcmp(w->bound, "compute") == 0 ? 0 :
		    strcmp(w->bound, "memory") == 0 ? 1 : 2] +=
		    w->s[TGT].time_ns;
		w->unexplained = w->exp == TL_CE_NA && !w->copy &&
		    !isnan(w->delta_pct) &&
		    fabs(w->delta_pct) > r->cmp_unexplained_pct;
	}
	c->memory_dominates = c->bound_ns[1] >= c->bound_ns[0];
	c->rec = tl_calloc((size_t)c->nrow + 1, sizeof(*c->rec));
	for (i = 0; i < c->nrow; i++) {
		struct tl_crow *w = &c->row[i];
		const struct tl_cside *t = &w->s[TGT];
		double u = w->unexplained_us, t_us = (double)t->time_ns / 1e3;

		if (w->form == TL_CF_GROUP)
			continue;	/* the group's gap judges them */
		if (w->match == TL_CM_TARGET_ONLY && isnan(u))
			w->unexplained_us = u = t_us;
		if (!(u > 0) || t->time_ns <= 0 ||
		    !(w->match == TL_CM_TARGET_ONLY || w->exp == TL_CE_SLOWER ||
		    w->exp == TL_CE_KERNEL || (w->copy && w->delta_pct >
		    r->cmp_unexplained_pct)))
			continue;
		w->candidate = 1;
		if (!isnan(t->pct_gpu))
			w->score = u / t_us * t->pct_gpu;
		else
			w->score = u / ((double)c->op_ns[TGT] / 1e3) * 100;
		w->prio = priority(r, w->score);
	}
	fast_rows(c);
	groups(c);
	if (!c->identical)
		timeline_gaps(c);
	rank_all(c);
}

/* The reference's pattern that matches p: same kind and where, -1. */
static int
match_pat(const struct tl_findings *ref, const struct tl_fpat *p,
    const unsigned char *used)
{
	int i, any = -1;

	for (i = 0; i < ref->npat; i++) {
		if (used[i] || ref->pat[i].kind != p->kind)
			continue;
		if (strcmp(ref->pat[i].where, p->where) == 0)
			return i;
		if (any < 0)
			any = i;
	}
	/* Without module data "where" names ops: any of the kind then. */
	return p->instances == 0 ? any : -1;
}

/* The rows of the target's ops that pattern gap gi covers. */
static void
cover_rows(struct tl_cmpfind *c, const struct tl_findings *t,
    const struct tl_fpat *p, int gi)
{
	struct tl_cgap *g = &c->gap[gi];
	int i, k;

	for (k = 0; k < p->nev; k++) {
		const struct tl_fop *op;

		if (p->ev[k].op < 0)
			continue;
		op = &t->op[p->ev[k].op];
		for (i = 0; i < c->nrow; i++) {
			struct tl_crow *w = &c->row[i];
			int64_t u;

			if (w->match == TL_CM_REF_ONLY || w->in_pat != 0 ||
			    strcmp(w->name, op->name) != 0 ||
			    strcmp(w->dims, op->dims) != 0)
				continue;
			if (w->fallback != TGT || !w->candidate) {
				w->in_pat = gi + 1;
				continue;
			}
			/*
			 * A fallback kernel where the reference runs another:
			 * the row names it and keeps its time; the pattern
			 * keeps what it recovers beyond.
			 */
			u = (int64_t)(w->unexplained_us * 1e3 + 0.5);
			g->save_ns = g->save_ns > u ? g->save_ns - u : 0;
		}
	}
}

/*
 * A group whose target ops a pattern of the sides covers (the target's
 * unfused attention, its unfused norm): the pattern names it, and the
 * group recovers nothing of its own.
 */
static void
cover_groups(struct tl_cmpfind *c)
{
	int i, j;

	for (i = 0; i < c->ngap; i++) {
		struct tl_cgap *g = &c->gap[i];

		if (g->kind != TL_CG_GROUP || g->save_ns <= 0)
			continue;
		for (j = 0; j < c->nrow; j++)
			if (c->row[j].grp == i + 1 && c->row[j].in_pat > 0 &&
			    c->row[j].match == TL_CM_TARGET_ONLY)
				break;
		if (j < c->nrow) {
			g->save_ns = 0;
			g->covered = 1;
		}
	}
}

/* Idle and exposed communication are the timeline gaps' to name. */
static int
timeline_kind(enum tl_patkind k)
{
	return k == TL_PAT_IDLE || k == TL_PAT_COMM;
}

void
tl_cmpfind_sides(struct tl_cmpfind *c, const struct tl_findings *ref,
    const struct tl_findings *target)
{
	const struct tl_fcat *att = tl_findings_cat(ref, "attention");
	unsigned char *used;
	struct tl_cgap *g;
	int i, j;

	c->side[REF] = ref;
	c->side[TGT] = target;
	used = tl_calloc((size_t)ref->npat + 1, 1);
	for (i = 0; i < target->npat; i++) {
		const struct tl_fpat *p = &target->pat[i];

		j = match_pat(ref, p, used);
		if (j >= 0)
			used[j] = 1;
		g = new_gap(c, TL_CG_PATTERN);
		g->pat[TGT] = i;
		g->pat[REF] = j;
		g->ns[TGT] = p->time_ns;
		g->ns[REF] = j >= 0 ? ref->pat[j].time_ns : 0;
		if (timeline_kind(p->kind) || p->unquantified)
			continue;
		g->save_ns = p->save_ns - (j >= 0 ? ref->pat[j].save_ns : 0);
		/* As a timeline gap: too little to take a slot. */
		if ((double)g->save_ns * 100 < TL_CMP_MIN_PCT *
		    (double)c->tl_ns[TGT][TL_TLC_TOTAL])
			g->save_ns = 0;
		if (p->kind == TL_PAT_ATTENTION && j < 0)
			g->fused_ns = att->time_ns;
		if (g->save_ns > 0)
			cover_rows(c, target, p, c->ngap - 1);
	}
	for (j = 0; j < ref->npat; j++) {
		if (used[j])
			continue;
		g = new_gap(c, TL_CG_PATTERN);
		g->pat[REF] = j;
		g->ns[REF] = ref->pat[j].time_ns;
	}
	free(used);
	cover_groups(c);
	rank_all(c);
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

	for (i = 0; i < c->nitem; i++)
		if ((int)c->item[i].prio > worst)
			worst = (int)c->item[i].prio;
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
			free(w->s[k].perf_error);
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
	free(c->gap);
	free(c->item);
}
