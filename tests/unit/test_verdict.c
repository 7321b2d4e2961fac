/* See LICENSE file for copyright and license details. */
/*
 * lib/analysis/verdict: the verdicts the reports only render, decided on
 * hand-made facts whose expected outcomes follow from the seeds' rules
 * (../shared/reference/analysis-rules.md) by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "analysis/findrules.h"
#include "analysis/verdict.h"
#include "stream/category.h"
#include "unit.h"

static struct tl_fop *
add_op(struct tl_findings *f, const char *cat, const char *pattern)
{
	struct tl_fop *op = &f->op[f->nop++];

	memset(op, 0, sizeof(*op));
	op->cat = tl_category_index(cat);
	op->pattern = pattern;
	op->bound = "";
	op->training = -1;
	return op;
}

/* A convolution of time_ns, claimed_ns of it layout conversions. */
static struct tl_fop *
conv_op(struct tl_findings *f, const char *pattern, int64_t time_ns,
    int64_t claimed_ns, double roofline_us)
{
	struct tl_fop *op = add_op(f, "conv", pattern);

	op->has_eff = 1;
	op->time_ns = time_ns;
	op->claimed_ns = claimed_ns;
	op->roofline_us = roofline_us;
	op->eff = roofline_us * 1e3 / (double)time_ns * 100;
	return op;
}

/* A batch norm at pct_base % of a baseline of base_tbs. */
static struct tl_fop *
bn_op(struct tl_findings *f, double base_tbs, double pct_base)
{
	struct tl_fop *op = add_op(f, "batchnorm", NULL);

	op->has_base = 1;
	op->base_tbs = base_tbs;
	op->pct_base = pct_base;
	return op;
}

int
main(void)
{
	struct tl_findings f;
	struct tl_ftrace tr[2];
	struct tl_fmod mod[2];
	struct tl_fpat pat[1];
	struct tl_fop *c1, *c2, *c3, *c4, *b1, *b2;
	int64_t wait[4] = { 10, 5, 3, 20 }, lat[4] = { 2, 3, 9, 0 };
	int64_t inop[4] = { 2, 3, 1, 0 }, host[4] = { 5, 3, -1, 0 };
	int conv = tl_category_index("conv");

	/* The pure rules. */
	CHECK(tl_verdict_expect(49.9, 50, 70) == TL_EXP_BELOW);
	CHECK(tl_verdict_expect(50, 50, 70) == TL_EXP_WITHIN);
	CHECK(tl_verdict_expect(70, 50, 70) == TL_EXP_WITHIN);
	CHECK(tl_verdict_expect(70.1, 50, 70) == TL_EXP_ABOVE);
	CHECK(tl_verdict_level(20.1, 20, 10) == TL_LEVEL_HIGH);
	CHECK(tl_verdict_level(20, 20, 10) == TL_LEVEL_MODERATE);
	CHECK(tl_verdict_level(10, 20, 10) == TL_LEVEL_LOW);
	/* host 15 < wait 20, wait > latency 3: the GPU waited */
	CHECK(tl_verdict_idle(wait) == TL_IDLE_WAIT);
	/* latency 9 > host 5 */
	CHECK(tl_verdict_idle(lat) == TL_IDLE_LATENCY);
	/* in the op 3 > not in it 2 */
	CHECK(tl_verdict_idle(inop) == TL_IDLE_IN_OP);
	/* no launch times (-1): the host */
	CHECK(tl_verdict_idle(host) == TL_IDLE_HOST);

	memset(&f, 0, sizeof(f));
	tl_findrules_default(&f.rules);
	f.utilisation_min = 95;
	f.op = calloc(8, sizeof(*f.op));
	/* 3x3, 100 us of which 20 us layout conversions, roofline 30 us:
	   30 / 80 = 37.5 % without them, below 50-70 */
	c1 = conv_op(&f, "3x3-class convolution", 100000, 20000, 30);
	/* 1x1 at 55 %: within 40-60 */
	c2 = conv_op(&f, "1x1 (pointwise) convolution", 100000, 0, 55);
	/* large kernel at 85 %: above 60-80 */
	c3 = conv_op(&f, "large-kernel convolution", 100000, 0, 85);
	/* a convolution of no kind: no expectation */
	c4 = conv_op(&f, NULL, 100000, 0, 10);
	/* batch norms against a baseline of 4 TB/s on a 5 TB/s roof (80 %):
	   10 % of it is a kernel issue, 30 % keeps up; a baseline of 3 TB/s
	   (60 %) judges nothing */
	f.peak_tbs = 5;
	b1 = bn_op(&f, 4, 10);
	b2 = bn_op(&f, 4, 30);
	add_op(&f, "batchnorm", NULL)->has_base = 0;
	/* the bottleneck rule's terms: 60 ms > 50 ms, 3 % of category, 35 % */
	c4->time_ns = 60000000;
	c4->pct_category = 3;
	c4->eff = 35;
	/* the conv category: 25 of 100 ms layout conversions: high */
	f.cat[conv].time_ns = 100000000;
	f.cat[conv].layout_ns = 25000000;
	f.cat[tl_category_index("batchnorm")].pct_compute = 30;
	f.cat[tl_category_index("batchnorm")].nops = 2;
	f.cat[tl_category_index("batchnorm")].ops = (int[]){ 4, 5 };
	/* two traces: 90 of 100 computing, 6 comm, 4 idle; the second 100 of
	   100; the host issues one event per 10 us, the GPU runs one per 5 */
	tr[0] = (struct tl_ftrace){ .total_ns = 100, .busy_ns = 96,
	    .compute_ns = 90, .comm_ns = 6, .idle_ns = 4, .has_host = 1,
	    .host_first_ns = 0, .host_last_ns = 1000000, .nkernels = 100,
	    .kernel_ns = 500000 };
	tr[1] = (struct tl_ftrace){ .total_ns = 100, .busy_ns = 100,
	    .compute_ns = 100 };
	f.tr = tr;
	f.ntr = 2;
	/* 400 of 1000 us analysed: 40 %, under 50 */
	f.op_total_us = 1000;
	f.cov.op_ns = 1000000;
	f.cov.analysed_ns = 400000;
	memset(mod, 0, sizeof(mod));
	mod[0].kernels = 4;
	mod[1].kernels = 3;
	f.mod = mod;
	f.nmod = 2;
	memset(pat, 0, sizeof(pat));
	pat[0].kind = TL_PAT_IDLE;
	memcpy(pat[0].part, wait, sizeof(wait));
	f.pat = pat;
	f.npat = 1;

	tl_verdict_run(&f);
	CHECK(c1->conv_kind == TL_CONV_3X3);
	CHECK(c1->conv_eff > 37.49 && c1->conv_eff < 37.51);
	CHECK(c1->conv_expect == TL_EXP_BELOW);
	CHECK(c2->conv_kind == TL_CONV_1X1 && c2->conv_expect == TL_EXP_WITHIN);
	CHECK(c3->conv_kind == TL_CONV_LARGE && c3->conv_expect == TL_EXP_ABOVE);
	CHECK(c4->conv_kind == TL_CONV_OTHER && c4->conv_expect == TL_EXP_NONE);
	CHECK(tl_conv_expect[TL_CONV_DEPTHWISE].lo == 30 &&
	    tl_conv_expect[TL_CONV_DEPTHWISE].hi == 50);
	CHECK(c4->rule_time == 1 && c4->rule_share == 0 && c4->rule_eff == 1);
	CHECK(b1->base_check == TL_BASE_KERNEL);
	CHECK(b1->base_peak_pct > 79.99 && b1->base_peak_pct < 80.01);
	CHECK(b2->base_check == TL_BASE_OK);
	CHECK(f.op[6].base_check == TL_BASE_NONE);
	b1->base_tbs = 3;
	tl_verdict_run(&f);
	CHECK(b1->base_check == TL_BASE_LOW);
	CHECK(f.cat[conv].layout_level == TL_LEVEL_HIGH);
	CHECK(f.cat[conv].layout_pct == 25);
	CHECK(f.cat[tl_category_index("batchnorm")].cnn_heavy == 1);
	CHECK(f.cat[tl_category_index("batchnorm")].nbase == 2);
	CHECK(f.cat[tl_category_index("batchnorm")].nbase_below == 1);
	CHECK(f.tl.total == 200 && f.tl.compute == 190 && f.tl.comm == 6);
	/* 190 of 200 = 95 %: not under 95 */
	CHECK(f.low_util == 0);
	CHECK(f.loss == TL_LOSS_COMM);
	tr[1].compute_ns = 99;
	tl_verdict_run(&f);
	CHECK(f.low_util == 1);
	CHECK(f.ranks.idle == 0);
	CHECK(f.ranks.lo == 96 && f.ranks.hi == 100 && f.ranks.sum == 196);
	CHECK(tr[0].launch_bound == 1 && tr[0].issue_us == 10 &&
	    tr[0].kern_us == 5);
	CHECK(tr[1].launch_bound == 0);
	CHECK(f.op_all_ns == 1000000);
	CHECK(f.analysed_pct == 40 && f.analysed_low == 1);
	CHECK(mod[0].candidate == 1 && mod[1].candidate == 0);
	CHECK(pat[0].idle_kind == TL_IDLE_WAIT);
	/* a user's threshold moves the verdict */
	f.rules.layout_high_pct = 30;
	tl_verdict_run(&f);
	CHECK(f.cat[conv].layout_level == TL_LEVEL_MODERATE);
	free(f.op);
	return unit_done("test_verdict");
}
