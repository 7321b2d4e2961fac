/* See LICENSE file for copyright and license details. */
#include <string.h>

#include "analysis/verdict.h"
#include "analysis/serving.h"
#include "stream/category.h"

static double
share(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part / (double)whole * 100 : 0;
}

void
tl_verdict_timeline(const struct tl_findings *f, struct tl_ftimeline *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < f->ntr; i++) {
		t->total += f->tr[i].total_ns;
		t->busy += f->tr[i].busy_ns;
		t->compute += f->tr[i].compute_ns;
		t->comm += f->tr[i].comm_ns;
		t->memcpy += f->tr[i].memcpy_ns;
		t->idle += f->tr[i].idle_ns;
	}
}

enum tl_expect
tl_verdict_expect(double e, double lo, double hi)
{
	return e < lo ? TL_EXP_BELOW : e > hi ? TL_EXP_ABOVE : TL_EXP_WITHIN;
}

enum tl_level
tl_verdict_level(double pct, double high, double moderate)
{
	return pct > high ? TL_LEVEL_HIGH : pct > moderate ?
	    TL_LEVEL_MODERATE : TL_LEVEL_LOW;
}

enum tl_idlekind
tl_verdict_idle(const int64_t part[4])
{
	int64_t host = part[0] + part[1];

	if (part[2] >= 0 && part[3] > host && part[3] > part[2])
		return TL_IDLE_WAIT;
	if (part[2] > host)
		return TL_IDLE_LATENCY;
	return part[1] > part[0] ? TL_IDLE_IN_OP : TL_IDLE_HOST;
}

/* The convolution kind of an op by its pattern. */
static enum tl_convkind
conv_kind(const struct tl_fop *op)
{
	int k;

	for (k = 0; k < TL_CONV_N && op->pattern != NULL; k++)
		if (tl_conv_expect[k].pattern != NULL &&
		    strcmp(op->pattern, tl_conv_expect[k].pattern) == 0)
			return (enum tl_convkind)k;
	return TL_CONV_OTHER;
}

static void
op_verdicts(struct tl_findings *f, struct tl_fop *op)
{
	const struct tl_findrules *r = &f->rules;
	const struct tl_convexpect *x;

	op->rule_time = (double)op->time_ns / 1e6 >
	    tl_category(op->cat)->bottleneck_ms;
	op->rule_share = op->pct_category > r->bottleneck_cat_pct;
	op->rule_eff = op->has_eff && op->eff < r->bottleneck_eff;
	op->conv_kind = TL_CONV_OTHER;
	op->conv_expect = TL_EXP_NONE;
	if (tl_category_is(op->cat, "conv") && op->has_eff) {
		op->conv_kind = conv_kind(op);
		op->conv_eff = op->time_ns - op->peak_ns > op->claimed_ns ?
		    op->roofline_us * 1e3 / (double)(op->time_ns -
		    op->peak_ns - op->claimed_ns) * 100 : op->eff;
		x = &tl_conv_expect[op->conv_kind];
		if (op->conv_kind != TL_CONV_OTHER)
			op->conv_expect = tl_verdict_expect(op->conv_eff, x->lo,
			    x->hi);
	}
	op->base_check = TL_BASE_NONE;
	if (tl_category_is(op->cat, "batchnorm") && op->has_base &&
	    f->peak_tbs > 0) {
		op->base_peak_pct = op->base_tbs / f->peak_tbs * 100;
		op->base_check = op->base_peak_pct <= r->base_ok_pct ?
		    TL_BASE_LOW : op->pct_base < r->base_issue_pct ?
		    TL_BASE_KERNEL : TL_BASE_OK;
	}
}

static void
cat_verdicts(struct tl_findings *f, int c)
{
	const struct tl_findrules *r = &f->rules;
	struct tl_fcat *k = &f->cat[c];
	const struct tl_fop *op;
	int i;

	k->layout_pct = share(k->layout_ns, k->time_ns);
	k->layout_level = tl_verdict_level(k->layout_pct, r->layout_high_pct,
	    r->layout_moderate_pct);
	k->cnn_heavy = k->pct_compute >= r->cnn_lo_pct &&
	    k->pct_compute <= r->cnn_hi_pct;
	k->nbase = k->nbase_below = k->nquant = 0;
	for (i = 0; i < k->nops; i++) {
		op = &f->op[k->ops[i]];
		if (op->has_base) {
			k->nbase++;
			if (op->pct_base < r->base_issue_pct)
				k->nbase_below++;
		}
		if (op->pattern != NULL &&
		    strcmp(op->pattern, "quantized GEMM") == 0)
			k->nquant++;
	}
}

/*
 * The busy time of the ranks: the most idle, the spread.  Busy time
 * includes the wait inside collectives, so it names no straggler: that
 * is the rank that arrives last (analysis/xrank.h).
 */
static void
ranks(struct tl_findings *f)
{
	struct tl_franks *k = &f->ranks;
	int i;

	memset(k, 0, sizeof(*k));
	if (f->ntr == 0)
		return;
	k->lo = k->hi = f->tr[0].busy_ns;
	for (i = 0; i < f->ntr; i++) {
		if (f->tr[i].idle_ns > f->tr[k->idle].idle_ns)
			k->idle = i;
		k->sum += f->tr[i].busy_ns;
		if (f->tr[i].busy_ns < k->lo)
			k->lo = f->tr[i].busy_ns;
		if (f->tr[i].busy_ns > k->hi)
			k->hi = f->tr[i].busy_ns;
	}
}

void
tl_verdict_run(struct tl_findings *f)
{
	const struct tl_findrules *r = &f->rules;
	struct tl_ftimeline *t = &f->tl;
	int64_t all;
	int i;

	for (i = 0; i < f->nop; i++)
		op_verdicts(f, &f->op[i]);
	for (i = 0; i < tl_ncategories(); i++)
		cat_verdicts(f, i);
	tl_verdict_timeline(f, t);
	f->low_util = share(t->compute, t->total) < f->utilisation_min;
	f->loss = t->idle >= t->comm && t->idle >= t->memcpy ? TL_LOSS_IDLE :
	    t->comm >= t->memcpy ? TL_LOSS_COMM : TL_LOSS_MEMCPY;
	ranks(f);
	for (i = 0; i < f->ntr; i++) {
		struct tl_ftrace *tr = &f->tr[i];

		tr->launch_bound = 0;
		if (!tr->has_host || tr->nkernels <= 1)
			continue;
		tr->issue_us = (double)(tr->host_last_ns - tr->host_first_ns) /
		    1e3 / (double)tr->nkernels;
		tr->kern_us = (double)tr->kernel_ns / 1e3 /
		    (double)tr->nkernels;
		tr->launch_bound = tr->issue_us > tr->kern_us;
	}
	f->base_peak_pct = f->peak_tbs > 0 && f->base_tbs > 0 ?
	    f->base_tbs / f->peak_tbs * 100 : 0;
	f->base_good = f->peak_tbs > 0 && f->base_tbs / f->peak_tbs * 100 >
	    r->base_ok_pct;
	/* pct_gpu_time is rounded: a whole stream comes within 0.1 %. */
	all = (int64_t)(f->op_total_us * 1e3 + 0.5);
	f->op_all_ns = (double)all > (double)f->cov.op_ns * 1.001 ? all :
	    f->cov.op_ns;
	f->analysed_pct = share(f->cov.analysed_ns, f->op_all_ns);
	f->analysed_low = f->analysed_pct < r->analysed_min_pct;
	for (i = 0; i < f->nmod; i++)
		f->mod[i].candidate = !f->mod[i].heavy &&
		    f->mod[i].kernels >= r->fusion_min_kernels;
	for (i = 0; i < f->npat; i++)
		f->pat[i].idle_kind = tl_verdict_idle(f->pat[i].part);
	if (f->serv != NULL)
		f->serv->gap_worth = share(f->serv->gap_ns, f->serv->span_ns) >=
		    r->serve_gap_pct;
}
