/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyst.h"
#include "analysis/kernsel.h"
#include "analysis/oprow.h"
#include "analysis/xrank.h"
#include "common/util.h"
#include "render/advice.h"
#include "render/chartlist.h"
#include "render/idlerep.h"
#include "render/mdtext.h"
#include "render/patreport.h"
#include "render/report.h"
#include "render/servreport.h"
#include "render/xreport.h"
#include "stream/category.h"


static void roofs(FILE *, const struct tl_findings *);

static double
share(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part / (double)whole * 100 : 0;
}

/*
 * The GPU of trace i: the name the trace gives (trace_gpu), else its
 * rows' hw; NULL when neither names one (never another trace's GPU).
 */
static const char *
trace_hw(const struct tl_findings *f, int i)
{
	const char *h = f->tr[i].gpu;

	if (h != NULL && h[0] != '\0')
		return h;
	h = f->tr[i].hw;
	return h != NULL && h[0] != '\0' ? h : NULL;
}

/* Write trace i's GPU: the trace's text in a code span, else plain. */
static void
put_gpu(FILE *fp, const struct tl_findings *f, int i)
{
	if (trace_hw(f, i) == NULL)
		fputs("n/a", fp);
	else if (f->tr[i].gpu != NULL && f->tr[i].gpu[0] != '\0')
		tl_md_code(fp, trace_hw(f, i), 60);
	else
		tl_md_text(fp, trace_hw(f, i), 40);
}

/* Trace i's GPU, when it is known and no trace before i has it; or NULL. */
static const char *
new_hw(const struct tl_findings *f, int i)
{
	const char *h = trace_hw(f, i);
	int j;

	for (j = 0; h != NULL && j < i; j++)
		if (trace_hw(f, j) != NULL && strcmp(trace_hw(f, j), h) == 0)
			return NULL;
	return h;
}

/*
 * " on GPU", or " on N GPUs (A, B, ...)" when the traces ran on several:
 * every GPU present, none taken for all.
 */
static void
gpus(FILE *fp, const struct tl_findings *f)
{
	int i, n = 0, k = 0, none = 0;

	for (i = 0; i < f->ntr; i++) {
		n += new_hw(f, i) != NULL;
		none += trace_hw(f, i) == NULL;
	}
	if (n == 0)
		return;
	if (n > 1)
		fprintf(fp, " on %d GPUs (", n);
	else
		fputs(" on ", fp);
	for (i = 0; i < f->ntr; i++) {
		if (new_hw(f, i) == NULL)
			continue;
		if (k++ > 0)
			fputs(", ", fp);
		put_gpu(fp, f, i);
	}
	if (n > 1)
		fputc(')', fp);
	if (none > 0)
		fprintf(fp, " (%d trace%s with no GPU named)", none,
		    none == 1 ? "" : "s");
}

/*
 * The title: the model (the top-level module classes, else the trace's
 * name) and the GPU, never a machine path.
 */
static void
title(FILE *fp, const struct tl_findings *f, const struct tl_report_opts *o,
    const char *what)
{
	char model[256];

	fputs("# ", fp);
	if (o->title != NULL)
		fputs(o->title, fp);
	else if (tl_report_model(f, model, sizeof(model))[0] != '\0')
		tl_md_text(fp, model, 200);
	else if (f->ntr == 1) {
		fputs("Trace ", fp);
		tl_md_stem(fp, f->tr[0].name);
	} else
		fprintf(fp, "%d traces", f->ntr);
	gpus(fp, f);
	fprintf(fp, ": %s\n\n", what);
}

static void
op_label(FILE *fp, const struct tl_fop *op)
{
	tl_md_op(fp, op->name, op->dims);
}

static const char *
eff_text(const struct tl_fop *op)
{
	if (op->has_eff)
		return tl_md_num(op->eff, 1);
	return op->peak_count > 0 ? "above peak" : "n/a";
}

static void
op_anchor_id(char *buf, size_t n, const struct tl_findings *f,
    const struct tl_fop *op)
{
	snprintf(buf, n, "op-%d", (int)(op - f->op) + 1);
}

/* The priority of op with the rule that gave it. */
static void
op_prio(FILE *fp, const struct tl_findings *f, const struct tl_fop *op)
{
	tl_prio_text(fp, f, op->prio, op->seed_prio, op->prio_rule,
	    op->capped, op->pct_compute, op->has_eff ? op->eff : 0, 0);
}

/*
 * The impact projection of an op: its kernel time at each efficiency
 * above its current one (of 20, 50 and 80 % of roofline), the time
 * saved and (e2e) that saving's share of the GPU timeline.  Time a
 * pattern explains (layout kernels) is left out: its pattern says it.
 */
static void
impact(FILE *fp, const struct tl_findings *f, const struct tl_fop *op,
    int e2e)
{
	double t[3];
	int64_t total = tl_analyst_timeline(f), save;
	int k, n = tl_op_targets(op, t);

	if (n == 0) {
		if (op->has_eff)
			fprintf(fp, "Already at %s %% of its roofline: no "
			    "projection above it.\n\n", tl_md_num(op->eff, 1));
		return;
	}
	if (op->claimed_ns > 0)
		fprintf(fp, "(Without the %s ms a pattern explains.)\n\n",
		    tl_md_ms(op->claimed_ns));
	fprintf(fp, "| Target efficiency | Kernel time (ms) | Saved (ms) |%s\n"
	    "|---|---|---|%s\n", e2e ? " E2E improvement |" : "",
	    e2e ? "---|" : "");
	for (k = 0; k < n; k++) {
		save = tl_op_save_at(op, t[k]);
		fprintf(fp, "| %s %% of roofline | %s | %s |", tl_md_num(t[k], 0),
		    tl_md_ms(op->time_ns - op->claimed_ns - save),
		    tl_md_ms(save));
		if (e2e)
			fprintf(fp, " %s %% of the GPU timeline |",
			    tl_md_share(share(save, total)));
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

/* The kernels of an op signature, as a list. */
static void
kernels(FILE *fp, const struct tl_fop *op)
{
	int k;

	for (k = 0; k < op->nkern; k++) {
		fputs("  - ", fp);
		tl_md_code(fp, op->kern[k].name, 120);
		fprintf(fp, ": %lld launches, %s ms\n", op->kern[k].count,
		    tl_md_ms(op->kern[k].time_ns));
	}
	if (op->kern_other_ns > 0)
		fprintf(fp, "  - other kernels: %s ms\n",
		    tl_md_ms(op->kern_other_ns));
}

/* Facts of an op other than its time, share and efficiency. */
static void
op_facts(FILE *fp, const struct tl_fop *op)
{
	fputs("- **Shapes:** ", fp);
	tl_md_code(fp, op->dims, 200);
	fputs(", dtypes ", fp);
	tl_md_code(fp, op->types, 200);
	if (op->concrete[strspn(op->concrete, "[]\",")] != '\0') {
		fputs(", concrete inputs ", fp);
		tl_md_code(fp, op->concrete, 200);
	}
	fprintf(fp, "; %lld instances\n", op->count);
	if (op->has_flops || op->has_bytes) {
		fputs("- **Work:** ", fp);
		if (op->has_flops)
			fprintf(fp, "%lld FLOPs, ", (long long)op->flops);
		if (op->has_bytes)
			fprintf(fp, "%lld bytes per instance; ",
			    (long long)op->bytes);
		if (isnan(op->tflops_s) && isnan(op->tbs))
			fputs("achieved rate not quantified (no instance "
			    "within the peak roof)\n", fp);
		else if (isnan(op->tbs))
			fprintf(fp, "achieved %s TFLOPS/s\n",
			    tl_md_num(op->tflops_s, 2));
		else if (isnan(op->tflops_s))
			fprintf(fp, "achieved %s TB/s\n", tl_md_num(op->tbs, 3));
		else
			fprintf(fp, "achieved %s TFLOPS/s, %s TB/s\n",
			    tl_md_num(op->tflops_s, 2), tl_md_num(op->tbs, 3));
	}
	if (op->params[0] != '\0') {
		fputs("- **Model parameters:** ", fp);
		tl_md_code(fp, op->params, 300);
		fputc('\n', fp);
	}
	if (op->parent_name[0] != '\0' || op->module[0] != '\0') {
		fputs("- **Called from:** ", fp);
		if (op->module[0] != '\0') {
			fputs("module ", fp);
			tl_md_code(fp, op->module, 200);
			if (op->parent_name[0] != '\0')
				fputs(", ", fp);
		}
		if (op->parent_name[0] != '\0') {
			fputs("parent op ", fp);
			tl_md_code(fp, op->parent_name, 100);
		}
		fputc('\n', fp);
	}
	if (op->nkern > 0) {
		fputs("- **Kernels:**\n", fp);
		kernels(fp, op);
	}
}

/* A convolution kind in words, by enum tl_convkind. */
static const char *const conv_kind[TL_CONV_N] = {
	[TL_CONV_LARGE] = "a 5x5 or larger convolution",
	[TL_CONV_3X3] = "a 3x3 convolution",
	[TL_CONV_1X1] = "a 1x1 convolution",
	[TL_CONV_DEPTHWISE] = "a depthwise convolution",
};

/* An efficiency against its expected range, by enum tl_expect. */
static const char *const expect_text[] = {
	[TL_EXP_NONE] = "",
	[TL_EXP_BELOW] = ("below what is expected; replay it for the DNN "
	    "library team"),
	[TL_EXP_WITHIN] = "within the expected range",
	[TL_EXP_ABOVE] = "above the expected range",
};

/*
 * The seeds' verdict on an op (lib/analysis/verdict): a convolution
 * against the efficiency expected for its kernel size, a batch norm
 * against the elementwise baseline (and the baseline against the
 * bandwidth roof).
 */
static void
op_verdict(FILE *fp, const struct tl_findings *f, const struct tl_fop *op)
{
	const struct tl_findrules *r = &f->rules;
	const struct tl_convexpect *x = &tl_conv_expect[op->conv_kind];

	if (op->conv_expect != TL_EXP_NONE) {
		fprintf(fp, "- **Expected efficiency:** %d-%d %% of roofline "
		    "for %s; it reaches %s %%", x->lo, x->hi,
		    conv_kind[op->conv_kind], tl_md_num(op->conv_eff, 1));
		if (op->claimed_ns > 0)
			fprintf(fp, " without its layout conversions (%s %% "
			    "with them)", tl_md_num(op->eff, 1));
		fprintf(fp, ": %s.\n", expect_text[op->conv_expect]);
	}
	if (op->base_check != TL_BASE_NONE) {
		fprintf(fp, "- **Against the elementwise baseline:** %s %% of "
		    "the %s TB/s simple elementwise ops reach here, which is "
		    "%s %% of the bandwidth roof: ", tl_md_num(op->pct_base, 1),
		    tl_md_num(op->base_tbs, 3), tl_md_num(op->base_peak_pct,
		    1));
		if (op->base_check == TL_BASE_LOW)
			fprintf(fp, "the baseline itself is low (the seeds' "
			    "test wants it above %s %%), so the comparison "
			    "cannot single out the normalization kernel; simple "
			    "ops are slow in this trace too (small tensors, "
			    "launch-bound).\n", tl_md_num(r->base_ok_pct, 0));
		else if (op->base_check == TL_BASE_KERNEL)
			fprintf(fp, "under %s %% of a baseline above %s %% of "
			    "peak: a normalization kernel issue (the seeds' "
			    "rule).\n", tl_md_num(r->base_issue_pct, 0),
			    tl_md_num(r->base_ok_pct, 0));
		else
			fputs("the kernel keeps up with simple ops.\n", fp);
	}
	if (tl_category_is(op->cat, "batchnorm") && op->training >= 0)
		fprintf(fp, "- **Mode:** %s (its training flag is %s).\n",
		    op->training ? "training" : "inference",
		    op->training ? "True" : "False");
}

static void
paths(FILE *fp, const struct tl_findings *f, const struct tl_fop *op)
{
	fprintf(fp, "- **Algorithmic (Path A):** %s\n",
	    tl_advice_algorithmic(f, op));
	fprintf(fp, "- **Kernel (Path B):** %s\n", tl_advice_kernel(op));
	if (op->replay)
		fputs("- **Replay:** recommended: the op takes more than the "
		    "replay threshold of compute at low efficiency; generate a "
		    "reproducer for the kernel team with `tl-replay`.\n", fp);
}

/* Category-specific facts: layout conversions, elementwise baseline. */
static void
cat_specific(FILE *fp, const struct tl_findings *f, int c)
{
	const struct tl_findrules *r = &f->rules;
	const struct tl_fcat *k = &f->cat[c];
	const struct tl_convexpect *x = tl_conv_expect;

	if (tl_category_is(c, "conv")) {
		fprintf(fp, "- **Layout conversion:** %s ms of the %s ms of "
		    "convolution GPU time (%s %%) is layout-conversion kernels "
		    "(transposes between NCHW and NHWC) launched by the "
		    "convolutions: ", tl_md_ms(k->layout_ns),
		    tl_md_ms(k->time_ns), tl_md_num(k->layout_pct, 1));
		if (k->layout_level == TL_LEVEL_HIGH)
			fprintf(fp, "high; run the model in channels_last "
			    "(model.to(memory_format=torch.channels_last)), "
			    "which typically removes most of this overhead "
			    "(%s-%s %% of convolution time when it is this "
			    "high).\n", tl_md_num(r->layout_gain_lo, 0),
			    tl_md_num(r->layout_gain_hi, 0));
		else if (k->layout_level == TL_LEVEL_MODERATE)
			fputs("moderate; consider channels_last.\n", fp);
		else
			fputs("acceptable.\n", fp);
		fprintf(fp, "- **Expected efficiency by kind:** large kernels "
		    "(5x5 and up) %d-%d %%, 3x3 %d-%d %%, 1x1 %d-%d %% "
		    "(memory-bound), depthwise %d-%d %% of roofline.\n",
		    x[TL_CONV_LARGE].lo, x[TL_CONV_LARGE].hi, x[TL_CONV_3X3].lo,
		    x[TL_CONV_3X3].hi, x[TL_CONV_1X1].lo, x[TL_CONV_1X1].hi,
		    x[TL_CONV_DEPTHWISE].lo, x[TL_CONV_DEPTHWISE].hi);
	}
	if (tl_category_is(c, "batchnorm")) {
		if (f->base_tbs > 0) {
			fprintf(fp, "- **Elementwise baseline:** simple "
			    "elementwise ops reach %s TB/s in this trace",
			    tl_md_num(f->base_tbs, 3));
			if (f->peak_tbs > 0)
				fprintf(fp, " (%s %% of the %s TB/s peak)",
				    tl_md_num(f->base_peak_pct, 1),
				    tl_md_num(f->peak_tbs, 2));
			fputs(".", fp);
			fprintf(fp, " %d of %d memory-bound batchnorm "
			    "signatures reach less than %s %% of it",
			    k->nbase_below, k->nbase,
			    tl_md_num(r->base_issue_pct, 0));
			if (f->base_good && k->nbase_below > 0)
				fprintf(fp, ": with the baseline above %s %% of "
				    "peak, that points at the normalization "
				    "kernels, not the hardware.\n",
				    tl_md_num(r->base_ok_pct, 0));
			else if (f->base_good)
				fputs(".\n", fp);
			else if (f->peak_tbs > 0)
				fprintf(fp, "; the baseline itself is low (%s %% "
				    "of peak, not above the %s %% the seeds' "
				    "test needs), so simple ops are slow here "
				    "too and the comparison does not single out "
				    "the normalization kernels.\n",
				    tl_md_num(f->base_peak_pct, 1),
				    tl_md_num(r->base_ok_pct, 0));
			else
				fputs(".\n", fp);
		} else
			fputs("- **Elementwise baseline:** none: the trace "
			    "has no simple elementwise ops to compare with.\n",
			    fp);
		if (k->cnn_heavy)
			fprintf(fp, "- **CNN-heavy workload:** batchnorm is %s "
			    "%% of compute, typical of CNNs (%s-%s %%); "
			    "channels_last and fusing batchnorm with "
			    "convolutions and activations pay off here.\n",
			    tl_md_num(k->pct_compute, 1),
			    tl_md_num(r->cnn_lo_pct, 0),
			    tl_md_num(r->cnn_hi_pct, 0));
	}
	if (tl_category_is(c, "gemm")) {
		fprintf(fp, "- **Quantized GEMMs detected:** %d signatures",
		    k->nquant);
		if (tl_findings_cat(f, "quant")->present)
			fprintf(fp, "; quantization ops (`quant`): %d "
			    "signatures, %s %% of compute",
			    tl_findings_cat(f, "quant")->nops,
			    tl_md_num(tl_findings_cat(f, "quant")->pct_compute,
			    1));
		fputs("\n", fp);
	}
	if (tl_category_is(c, "attention") || tl_category_is(c, "softmax")) {
		if (tl_findings_cat(f, "softmax")->present &&
		    tl_findings_cat(f, "gemm")->present &&
		    !tl_findings_cat(f, "attention")->present)
			fputs("- **Unfused attention:** softmax and GEMMs run "
			    "but no fused attention op does; if they come from "
			    "attention (softmax + bmm + scale + copy), a fused "
			    "attention kernel replaces them.\n", fp);
	}
	fprintf(fp, "- **Missing perf models:** %lld signatures\n",
	    k->missing_model);
}

/* The operations table of a category. */
static void
ops_table(FILE *fp, const struct tl_findings *f, int c, int max)
{
	const struct tl_fcat *k = &f->cat[c];
	const struct tl_fop *op;
	int i;

	fputs("| Operation | Count | Time (ms) | % of Category | "
	    "% of compute | Efficiency (%) | FLOPS/Byte | Type | Priority | "
	    "Shapes | Dtypes |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
	    fp);
	for (i = 0; i < k->nops && i < max; i++) {
		op = &f->op[k->ops[i]];
		fputs("| ", fp);
		tl_md_code(fp, op->name, 80);
		fprintf(fp, " | %lld | %s | %s | %s | %s | %s | ",
		    op->count, tl_md_ms(op->time_ns),
		    tl_md_num(op->pct_category, 1),
		    tl_md_num(op->pct_compute, 2), eff_text(op),
		    op->fpb > 0 ? tl_md_num(op->fpb, 1) : "n/a");
		tl_md_text(fp, op->bound[0] != '\0' ? op->bound : "no model",
		    20);
		fprintf(fp, " | %s | ", tl_priority_name(op->prio));
		tl_md_code(fp, op->dims, 70);
		fputs(" | ", fp);
		tl_md_code(fp, op->types, 60);
		fputs(" |\n", fp);
	}
	if (k->nops > max)
		fprintf(fp, "| %d more signatures | | | | | | | | | | |\n",
		    k->nops - max);
	fputc('\n', fp);
}

/* The bottleneck rule applied, step by step (rough report). */
static void
rule_calc(FILE *fp, const struct tl_findings *f, const struct tl_fop *op)
{
	const struct tl_findrules *r = &f->rules;

	fprintf(fp, "  - rule: (%s ms > %s ms: %s, or %s %% of category > "
	    "%s %%: %s) and efficiency %s %% < %s %%: %s -> %s; priority "
	    "from %s %% of compute: %s\n",
	    tl_md_ms(op->time_ns),
	    tl_md_num(tl_category(op->cat)->bottleneck_ms, 0),
	    op->rule_time ? "yes" : "no",
	    tl_md_num(op->pct_category, 1), tl_md_num(r->bottleneck_cat_pct, 0),
	    op->rule_share ? "yes" : "no",
	    eff_text(op), tl_md_num(r->bottleneck_eff, 0),
	    op->rule_eff ? "yes" : "no",
	    op->bottleneck ? "bottleneck" : "not a bottleneck",
	    tl_md_num(op->pct_compute, 2), tl_priority_name(op->prio));
	if (op->has_eff)
		fprintf(fp, "  - efficiency = roofline time %s ms / kernel time "
		    "%s ms = %s %%\n", tl_md_ms((int64_t)(op->roofline_us * 1e3 +
		    0.5)), tl_md_ms(op->time_ns), tl_md_num(op->eff, 1));
}

/* One bottleneck in full. */
static void
bottleneck_full(FILE *fp, const struct tl_findings *f,
    const struct tl_fop *op, int n, int rough)
{
	fprintf(fp, "### %d. ", n);
	op_label(fp, op);
	fputs("\n\n", fp);
	fprintf(fp, "- **Time:** %s ms (%s %% of compute, %s %% of the "
	    "category)\n", tl_md_ms(op->time_ns), tl_md_num(op->pct_compute,
	    2), tl_md_num(op->pct_category, 1));
	fprintf(fp, "- **Efficiency:** %s %% of roofline (", eff_text(op));
	tl_md_text(fp, op->bound, 20);
	fputs("-bound)\n", fp);
	fputs("- **Issue:** ", fp);
	tl_advice_issue(fp, op);
	fputc('\n', fp);
	if (op->pattern != NULL)
		fprintf(fp, "- **Pattern:** %s\n", op->pattern);
	op_facts(fp, op);
	op_verdict(fp, f, op);
	paths(fp, f, op);
	fputs("- **Priority:** ", fp);
	op_prio(fp, f, op);
	fputc('\n', fp);
	if (rough)
		rule_calc(fp, f, op);
	fputs("\n**Impact projection** (if the op reached X % of its "
	    "roofline):\n\n", fp);
	impact(fp, f, op, 1);
}

/* A category's instances above their peak roof, left out of its average. */
static void
cat_above_peak(FILE *fp, const struct tl_findings *f, int c)
{
	const struct tl_fcat *k = &f->cat[c];
	long long n = 0;
	int64_t ns = 0;
	int i;

	for (i = 0; i < k->nops; i++) {
		n += f->op[k->ops[i]].peak_count;
		ns += f->op[k->ops[i]].peak_ns;
	}
	if (n > 0)
		fprintf(fp, "%lld instance%s (%s ms) ran faster than the "
		    "GPU's peak roof allows (`above peak`): beyond the physical "
		    "limit, so the average and the bottleneck rules leave "
		    "them out; the report's coverage section lists them.\n\n",
		    n, n == 1 ? "" : "s", tl_md_ms(ns));
}

void
tl_report_category(FILE *fp, const struct tl_findings *f, int c,
    const struct tl_report_opts *o)
{
	const struct tl_fcat *k = &f->cat[c];
	int i, n = 0;

	(void)o;
	fprintf(fp, "# %s Analysis Summary\n\n", tl_category(c)->title);
	if (!k->present) {
		fprintf(fp, "No %s operations found in trace.\n",
		    tl_category(c)->title);
		return;
	}
	if (k->error != NULL) {
		fputs("Status: ERROR\n\nError: ", fp);
		tl_md_text(fp, k->error, 300);
		fputs("\n\nThe analysis of this category failed; no "
		    "bottleneck findings are reported for it.\n", fp);
		return;
	}
	fputs("## Overview\n\n", fp);
	fprintf(fp, "%s ops account for %s %% of compute time (%s ms, %lld "
	    "instances, %d signatures). ", tl_category(c)->title,
	    tl_md_num(k->pct_compute, 2), tl_md_ms(k->time_ns), k->count,
	    k->nops);
	if (k->eff >= 0)
		fprintf(fp, "Average efficiency: %s %% of roofline "
		    "(time-weighted over the ops with a perf model).\n\n",
		    tl_md_num(k->eff, 1));
	else
		fputs("No op of this category has a perf model, so no "
		    "efficiency is known.\n\n", fp);
	cat_above_peak(fp, f, c);
	roofs(fp, f);
	fputc('\n', fp);
	fputs("## Operations Breakdown\n\n", fp);
	ops_table(fp, f, c, 30);
	for (i = 0; i < f->nrec; i++) {
		const struct tl_frec *r = &f->rec[i];

		if (r->pat < 0 || f->pat[r->pat].cat != c)
			continue;
		if (n++ == 0)
			fputs("## Patterns\n\n", fp);
		fputs("### ", fp);
		tl_pat_title(fp, f, &f->pat[r->pat]);
		fputs("\n\n", fp);
		tl_pat_detail(fp, f, &f->pat[r->pat], 0);
		fputs("- **Paths:** ", fp);
		tl_pat_action(fp, f, &f->pat[r->pat]);
		fputs("\n\n", fp);
	}
	n = 0;
	fputs("## Key Bottlenecks\n\n", fp);
	for (i = 0; i < f->nbottlenecks; i++) {
		const struct tl_fop *op = &f->op[f->bottlenecks[i]];

		if (op->cat == c)
			bottleneck_full(fp, f, op, ++n, 0);
	}
	if (n == 0)
		fprintf(fp, "None: no %s op is both above the time threshold "
		    "(%s ms or %s %% of the category) and below %s %% "
		    "efficiency.\n\n", tl_category(c)->title,
		    tl_md_num(tl_category(c)->bottleneck_ms, 0),
		    tl_md_num(f->rules.bottleneck_cat_pct, 0),
		    tl_md_num(f->rules.bottleneck_eff, 0));
	fputs("## Additional Notes\n\n", fp);
	cat_specific(fp, f, c);
}

/* The idle analysis of one trace. */
static void
idle_trace(FILE *fp, const struct tl_findings *f, const struct tl_ftrace *t,
    int rough)
{
	static const char *hist[4] = { "under 10 us", "10-100 us",
	    "100 us-1 ms", "1 ms and more" };
	int b;

	if (t->nkernels == 0) {
		fputs("The stream carries no per-instance GPU events "
		    "(grouped rows); run tl-findings on per-instance rows for "
		    "the idle analysis.\n\n", fp);
		return;
	}
	fprintf(fp, "- **Gaps:** %lld gaps between GPU work add up to %s ms; "
	    "%s ms of it (%s %%) passed before the host even started the op "
	    "that launched the next GPU work, so the GPU waited for the "
	    "host (Python, CPU-side ops, data loading, synchronisation).\n",
	    t->ngaps, tl_md_ms(t->gap_ns), tl_md_ms(t->host_late_ns),
	    tl_md_num(share(t->host_late_ns, t->gap_ns), 1));
	if (t->has_launch && t->ngaps > 0) {
		fprintf(fp, "- **Inside the ops:** %s ms passed with the host "
		    "inside the next op before its launch call (library "
		    "heuristics, allocation, lazy loading), and %s ms after "
		    "the launch calls within %s us of them (launch latency)",
		    tl_md_ms(t->in_op_ns), tl_md_ms(t->latency_ns),
		    tl_md_num(TL_LAUNCH_LATENCY_NS / 1e3, 0));
		if (t->wait_ns > 0)
			fprintf(fp, "; %s ms more passed after launch calls "
			    "before the GPU started their work: waits the "
			    "trace does not record (events, other streams, "
			    "other processes) or host and GPU clocks out of "
			    "step", tl_md_ms(t->wait_ns));
		fputs(".\n", fp);
	}
	fprintf(fp, "- **Short kernels:** %lld of %lld GPU events (%s %%) "
	    "run under 10 us and take %s ms (%s %% of their busy time); the "
	    "median event takes %s us.\n", t->nshort, t->nkernels,
	    tl_md_num(share(t->nshort, t->nkernels), 1), tl_md_ms(t->short_ns),
	    tl_md_num(share(t->short_ns, t->kernel_ns), 1),
	    tl_md_num((double)t->median_kernel_ns / 1e3, 3));
	if (t->has_host && t->nkernels > 1)
		fprintf(fp, "- **Launch rate:** the host issued one GPU event "
		    "every %s us on average, the GPU ran one every %s us: %s\n",
		    tl_md_num(t->issue_us, 2), tl_md_num(t->kern_us, 2),
		    t->launch_bound ? "launch-bound: the host cannot keep "
		    "the GPU fed." : "the host issues work faster than the GPU "
		    "runs it.");
	if (t->nsync > 0)
		fprintf(fp, "- **Synchronisation:** %lld op(s) copy from device "
		    "to host (a synchronisation point such as .item() or "
		    ".cpu()); %s ms of idle follows them.\n", t->nsync,
		    tl_md_ms(t->sync_gap_ns));
	tl_md_culprits(fp, f, (int)(t - f->tr), rough ? 20 : 8);
	if (!rough)
		return;
	fputs("\n| Gap length | Gaps | Time (ms) |\n|---|---|---|\n", fp);
	for (b = 0; b < 4; b++)
		fprintf(fp, "| %s | %lld | %s |\n", hist[b], t->gap_hist[b],
		    tl_md_ms(t->gap_hist_ns[b]));
	fputs("\nLargest gaps (look at these in a trace viewer):\n\n", fp);
	tl_md_gaps(fp, f, t);
}

static void
idle_advice(FILE *fp, const struct tl_findings *f)
{
	(void)f;
	fputs("- **What to change:** capture the step in a GPU graph "
	    "(torch.compile with mode=\"reduce-overhead\"), fuse small ops "
	    "(torch.compile), use larger batches, and remove synchronisations "
	    "(.item(), .cpu(), printing tensors) from the step.\n", fp);
}

/*
 * The GPU timeline of one trace, or of each of n > 1 ranks on average:
 * the timelines of different ranks run side by side, so their sum is no
 * GPU's timeline.
 */
static void
timeline_rows(FILE *fp, const struct tl_ftimeline *sum, int n)
{
	struct tl_ftimeline m = *sum, *t = &m;

	if (n > 1) {
		m.total /= n;
		m.busy /= n;
		m.compute /= n;
		m.comm /= n;
		m.memcpy /= n;
		m.idle /= n;
		fprintf(fp, "| GPU timeline per rank (mean of %d) | %s ms |\n",
		    n, tl_md_ms(t->total));
	} else
		fprintf(fp, "| Total GPU timeline | %s ms |\n",
		    tl_md_ms(t->total));
	fprintf(fp, "| Computation (GPU utilisation) | %s ms (%s %%) |\n",
	    tl_md_ms(t->compute), tl_md_num(share(t->compute, t->total), 1));
	fprintf(fp, "| Exposed communication | %s ms (%s %%) |\n",
	    tl_md_ms(t->comm), tl_md_num(share(t->comm, t->total), 1));
	fprintf(fp, "| Exposed memory copy | %s ms (%s %%) |\n",
	    tl_md_ms(t->memcpy), tl_md_num(share(t->memcpy, t->total), 1));
	fprintf(fp, "| Idle | %s ms (%s %%) |\n", tl_md_ms(t->idle),
	    tl_md_num(share(t->idle, t->total), 1));
}

/* What dominates the time that is not computation, by enum tl_loss. */
static const char *const loss_text[] = {
	[TL_LOSS_IDLE] = "idle time",
	[TL_LOSS_COMM] = "exposed communication",
	[TL_LOSS_MEMCPY] = "exposed memory copies",
};

/* The cross-rank view of several traces. */
static void
ranks(FILE *fp, const struct tl_findings *f)
{
	const struct tl_franks *k = &f->ranks;
	int i;

	fputs("| Trace | Rank | GPU | Busy (ms) | Idle (ms) | Exposed comm "
	    "(ms) | Total (ms) |\n|---|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < f->ntr; i++) {
		const struct tl_ftrace *t = &f->tr[i];

		fputs("| ", fp);
		tl_md_code(fp, t->name, 80);
		fputs(" | ", fp);
		tl_md_text(fp, t->rank[0] != '\0' ? t->rank : "n/a", 20);
		fputs(" | ", fp);
		put_gpu(fp, f, i);
		fprintf(fp, " | %s | %s | %s | %s |\n", tl_md_ms(t->busy_ns),
		    tl_md_ms(t->idle_ns), tl_md_ms(t->comm_ns),
		    tl_md_ms(t->total_ns));
	}
	fprintf(fp, "\nBusy time per rank: mean %s ms, max %s ms; it spreads "
	    "from %s to %s ms (%s %% of the fastest); most idle: ",
	    tl_md_ms(k->sum / f->ntr), tl_md_ms(k->hi), tl_md_ms(k->lo),
	    tl_md_ms(k->hi), tl_md_num(share(k->hi - k->lo, k->lo), 1));
	tl_md_code(fp, f->tr[k->idle].name, 80);
	fputs(". Busy time includes the wait inside collectives, so it does "
	    "not name a straggler: see Across ranks for who arrives last.\n\n",
	    fp);
}


/* Links to the charts of the analysis (lib/render/charts.h). */
static void
charts(FILE *fp, const struct tl_findings *f, const struct tl_report_opts *o)
{
	int i;

	if (o->charts == NULL)
		return;
	for (i = 0; i < TL_CHART_N; i++)
		if (tl_chart_wanted(f, i))
			fprintf(fp, "- %s: [%s/%s](%s/%s)\n", tl_charts[i].title,
			    o->charts, tl_charts[i].file, o->charts,
			    tl_charts[i].file);
}

/* "dense peak" for peak: the words for a kind of figure. */
static const char *
kind_words(const char *kind)
{
	return strcmp(kind, "peak") == 0 ? "dense peak" : kind;
}

/* 1 when roof i of f names a GPU no earlier roof names. */
static int
first_of_gpu(const struct tl_findings *f, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (strcmp(f->roofs[j].hw, f->roofs[i].hw) == 0)
			return 0;
	return 1;
}

/* 1 when a figure of kind is a stand-in for the run's kind. */
static int
standin(const struct tl_findings *f, const char *kind)
{
	return kind[0] != '\0' && strcmp(kind, "user") != 0 &&
	    f->roof_kind[0] != '\0' && strcmp(f->roof_kind, "user") != 0 &&
	    strcmp(kind, f->roof_kind) != 0;
}

/*
 * The roofs of one GPU: each compute spec's figure, then the bandwidth.
 * When all are stand-ins that is said once, else each stand-in is
 * marked.
 */
static void
gpu_roofs(FILE *fp, const struct tl_findings *f, const char *hw)
{
	const struct tl_froof *r, *bw = NULL;
	int i, j, n = 0, all = 1, mark;

	for (i = 0; i < f->nroofs; i++) {
		r = &f->roofs[i];
		if (strcmp(r->hw, hw) != 0)
			continue;
		if (r->peak_tflops > 0 && !standin(f, r->kind))
			all = 0;
		if (r->peak_tbs > 0 && bw == NULL)
			bw = r;
		if (r->peak_tbs > 0 && !standin(f, r->bw_kind))
			all = 0;
	}
	mark = !all;
	if (all)
		fprintf(fp, " has no %s figure in the GPU table: its %s "
		    "figures stand in:", kind_words(f->roof_kind), kind_words(
		    strcmp(f->roof_kind, "peak") == 0 ? "achievable" : "peak"));
	else
		fputc(':', fp);
	for (i = 0; i < f->nroofs; i++) {
		r = &f->roofs[i];
		if (strcmp(r->hw, hw) != 0 || r->spec[0] == '\0' ||
		    r->peak_tflops <= 0)
			continue;
		for (j = 0; j < i && !(strcmp(f->roofs[j].hw, hw) == 0 &&
		    strcmp(f->roofs[j].spec, r->spec) == 0); j++)
			;
		if (j < i)
			continue;
		fputs(n++ > 0 ? ", " : " ", fp);
		tl_md_code(fp, r->spec, 40);
		fprintf(fp, " %s TFLOPS/s", tl_md_exact(r->peak_tflops));
		if (mark && standin(f, r->kind))
			fprintf(fp, " (%s, stand-in)", kind_words(r->kind));
	}
	if (bw != NULL) {
		fprintf(fp, "%sbandwidth %s TB/s", n > 0 ? "; " : " ",
		    tl_md_exact(bw->peak_tbs));
		if (mark && standin(f, bw->bw_kind))
			fprintf(fp, " (%s, stand-in)", kind_words(bw->bw_kind));
	}
}

/*
 * The roofs every efficiency rests on: the run's kind, then each GPU's
 * figures, the stand-ins marked (a GPU without a figure of the run's
 * kind is measured against the other kind's: lib/model/hwspec.h).
 */
static void
roofs(FILE *fp, const struct tl_findings *f)
{
	int i;

	fputs("- Roofs: ", fp);
	if (f->roof_kinds > 1)
		fputs("the rows were measured against roofs of different kinds "
		    "(streams of several `tl-efficiency` runs?), so their "
		    "efficiencies do not compare; run `tl-efficiency` once, "
		    "with one `--roof`", fp);
	else if (strcmp(f->roof_kind, "user") == 0)
		fputs("given by the user (`--peak-tflops`, `--peak-tbs`) for "
		    "every op", fp);
	else if (f->roof_kind[0] != '\0')
		fprintf(fp, "**%s** figures for every GPU (`tl-efficiency "
		    "--roof %s`; the other kind is `--roof %s`); where a GPU "
		    "has no %s figure, its %s figure stands in",
		    kind_words(f->roof_kind),
		    f->roof_kind, strcmp(f->roof_kind, "peak") == 0 ?
		    "achievable" : "peak", kind_words(f->roof_kind), kind_words(
		    strcmp(f->roof_kind, "peak") == 0 ? "achievable" : "peak"));
	else
		fputs("the stream does not say which kind (no `roof_kind` "
		    "column: an older `tl-efficiency`); the figures below say "
		    "per GPU", fp);
	fputs("\n", fp);
	for (i = 0; i < f->nroofs; i++) {
		if (!first_of_gpu(f, i) || f->roofs[i].hw[0] == '\0')
			continue;
		fputs("  - ", fp);
		tl_md_code(fp, f->roofs[i].hw, 40);
		gpu_roofs(fp, f, f->roofs[i].hw);
		fputs("; every figure with its source: `tl-efficiency --hw "
		    "show ", fp);
		tl_md_text(fp, f->roofs[i].hw, 40);
		fputs("`\n", fp);
	}
}

static void
appendix(FILE *fp, const struct tl_findings *f, const struct tl_report_opts *o)
{
	const struct tl_findrules *r = &f->rules;
	int i, n = 0;

	fputs("## Appendix\n\n### Hardware and thresholds\n\n", fp);
	for (i = 0; i < f->ntr || i == 0; i++) {
		const struct tl_ftrace *t = i < f->ntr ? &f->tr[i] : NULL;
		const char *hw = t != NULL ? t->hw : f->hw;

		fputs("- GPU: ", fp);
		tl_md_text(fp, hw != NULL && hw[0] != '\0' ? hw :
		    "none given", 40);
		if (t != NULL && t->gpu[0] != '\0') {
			fputs(" (trace: ", fp);
			tl_md_code(fp, t->gpu, 80);
			fputc(')', fp);
		}
		if (f->ntr > 1) {
			fputs(" for ", fp);
			tl_md_code(fp, t->name, 200);
		}
		fputc('\n', fp);
	}
	roofs(fp, f);
	fprintf(fp, "- Bottleneck: (time above the category threshold or "
	    "%s %% of the category) and efficiency below %s %%; Critical: "
	    "above %s %% of compute and below %s %% efficiency; High: above "
	    "%s %% or below %s %%; Medium: above %s %% or a notable pattern\n",
	    tl_md_num(r->bottleneck_cat_pct, 0), tl_md_num(r->bottleneck_eff, 0),
	    tl_md_num(r->critical_pct, 0), tl_md_num(r->critical_eff, 0),
	    tl_md_num(r->high_pct, 0), tl_md_num(r->high_eff, 0),
	    tl_md_num(r->medium_pct, 0));
	fputs("- Efficiency is the roofline time over the kernel time, "
	    "summed over the instances of a signature.\n\n", fp);
	fputs("### Replay artifacts\n\n", fp);
	for (i = 0; i < f->nbottlenecks; i++) {
		const struct tl_fop *op = &f->op[f->bottlenecks[i]];

		if (!op->replay)
			continue;
		fputs("- ", fp);
		op_label(fp, op);
		fputc('\n', fp);
		n++;
	}
	if (n > 0)
		fputs("\nGenerate the package with `tl-replay --bottlenecks "
		    "-o replay/` on the same stream.\n\n", fp);
	else
		fprintf(fp, "None recommended: no op is above %s %% of compute "
		    "with efficiency below %s %%.\n\n",
		    tl_md_num(r->replay_pct, 0), tl_md_num(r->replay_eff, 0));
	if (o->charts != NULL) {
		fputs("### Charts\n\n", fp);
		charts(fp, f, o);
		fputc('\n', fp);
	}
}

#define FAIR_RECS 8
#define FAIR_PER_CAT 3
#define FAIR_TOP 5

/* The op anchor or pattern anchor of recommendation r. */
static void
rec_anchor(char *buf, size_t n, const struct tl_findings *f,
    const struct tl_frec *r)
{
	if (r->pat >= 0)
		tl_pat_anchor(buf, n, r->pat);
	else
		op_anchor_id(buf, n, f, &f->op[r->op]);
}

/* The title of recommendation r. */
static void
rec_title(FILE *fp, const struct tl_findings *f, const struct tl_frec *r)
{
	if (r->pat >= 0)
		tl_pat_title(fp, f, &f->pat[r->pat]);
	else
		tl_advice_title(fp, &f->op[r->op]);
}

/* The recommendations a fair report shows: with a slot, few per category. */
static int
fair_recs(const struct tl_findings *f, int *idx)
{
	int percat[TL_CAT_MAX], i, n = 0;

	memset(percat, 0, sizeof(percat));
	for (i = 0; i < f->nrec && n < FAIR_RECS; i++) {
		const struct tl_frec *r = &f->rec[i];

		if (!r->slot)
			continue;
		if (r->op >= 0 && percat[f->op[r->op].cat]++ >= FAIR_PER_CAT)
			continue;
		idx[n++] = i;
	}
	return n;
}

/* The share of the timeline a saving is, never "0.0" when positive. */
static const char *
tl_share_text(const struct tl_findings *f, int64_t ns)
{
	return tl_md_share(share(ns, tl_analyst_timeline(f)));
}

/* 1 when recommendation r's recoverable time is not known. */
static int
rec_unknown(const struct tl_findings *f, const struct tl_frec *r)
{
	return r->pat >= 0 && f->pat[r->pat].unquantified;
}

/*
 * Recommendation r's recoverable time and its share of the GPU timeline,
 * sep between them ("up to 1.234 ms (5.0 %"...): "not quantified" for
 * both when the trace does not give it, never 0.
 */
static void
rec_saving(FILE *fp, const struct tl_findings *f, const struct tl_frec *r,
    const char *ms, const char *sep, const char *pct)
{
	if (rec_unknown(f, r)) {
		fprintf(fp, "not quantified%snot quantified", sep);
		return;
	}
	fprintf(fp, "%s%s%s%s%s%s", r->upper ? "up to " : "",
	    tl_md_ms(r->save_ns), ms, sep, tl_share_text(f, r->save_ns), pct);
}


/* The ops listed by name under the rows above their peak roof. */
#define PEAK_LIST 5

/*
 * The rows faster than their peak roof allows (tl-efficiency's assessment
 * "above peak"): how many, their time, and the largest ops with the
 * likely cause.  Their time counts everywhere else; their efficiency
 * nowhere.
 */
static void
above_peak(FILE *fp, const struct tl_findings *f, int64_t all)
{
	const struct tl_fcov *c = &f->cov;
	int i, n = 0;

	if (c->peak_rows == 0)
		return;
	fprintf(fp, "**Above the peak roof:** %lld op instance%s (%s ms, "
	    "%s %% of the GPU time) ran faster than their FLOPs or bytes "
	    "take at the GPU's peak roof. No kernel beats the physical limit, "
	    "so their efficiency is no result: it takes no part in the "
	    "averages, the bottleneck rules, the projections or the charts, "
	    "while their time still counts in the timeline and the shares.",
	    c->peak_rows, c->peak_rows == 1 ? "" : "s", tl_md_ms(c->peak_ns),
	    tl_md_num(share(c->peak_ns, all), 1));
	for (i = 0; i < f->nop; i++) {
		const struct tl_fop *op = &f->op[f->bytime[i]];

		if (op->peak_count == 0)
			continue;
		if (n++ == PEAK_LIST) {
			fputs("\n- and more (`assessment` \"above peak\" in "
			    "tl-efficiency's stream lists every row)", fp);
			break;
		}
		fputs("\n- ", fp);
		tl_md_code(fp, op->name, 80);
		fputc(' ', fp);
		tl_md_code(fp, op->dims, 120);
		fprintf(fp, ", %lld instance%s, %s ms: ", op->peak_count,
		    op->peak_count == 1 ? "" : "s", tl_md_ms(op->peak_ns));
		tl_md_code(fp, op->peak_why != NULL ? op->peak_why : "", 400);
	}
	fputs("\n\n", fp);
}

/* What the analysis could judge and what it could not (every report). */
static void
coverage(FILE *fp, const struct tl_findings *f)
{
	const struct tl_fcov *c = &f->cov;
	int64_t all = f->op_all_ns;

	fprintf(fp, "**Coverage.** Of the %s ms of GPU time attributed to ops, "
	    "%s %% has a perf model and is judged against its roofline",
	    tl_md_ms(all), tl_md_num(share(c->model_ns, all), 1));
	if (c->pattern_ns > 0)
		fprintf(fp, ", %s %% is explained by the patterns",
		    tl_md_num(share(c->pattern_ns, all), 1));
	fprintf(fp, "; %s %% is in `other` (no category, no model)",
	    tl_md_num(share(c->other_ns, all), 1));
	if (c->graph_rows > 0)
		fprintf(fp, " and %s %% runs inside graph launches (kernels "
		    "replayed from a GPU graph, whose ops and shapes only the "
		    "graph-capture trace names)", tl_md_num(share(c->graph_ns,
		    all), 1));
	if (c->op_ns < all)
		fprintf(fp, "; the stream holds %s %% of it (filtered rows), "
		    "the rest is not analysed", tl_md_num(share(c->op_ns, all),
		    1));
	fputs(". Unlinked GPU events (no launch call in the trace reaches "
	    "them): ", fp);
	if (c->has_unlinked && c->unlinked_count > 0)
		fprintf(fp, "%lld events, %s ms of GPU busy time, belong to "
		    "no op and are not analysed; the timeline above counts "
		    "them only with `tl-parse --include-unlinked`.",
		    c->unlinked_count, tl_md_ms(c->unlinked_ns));
	else if (c->has_unlinked)
		fputs("none.", fp);
	else
		fputs("not known (the stream does not state them).", fp);
	fputs("\n\n", fp);
	above_peak(fp, f, all);
	if (f->analysed_low)
		fprintf(fp, "**Most of the GPU time is beyond this analysis:** "
		    "only %s %% of it has a perf model or a pattern; the "
		    "findings below speak for that part only, not for the "
		    "rest.\n\n", tl_md_num(f->analysed_pct, 1));
}

/* What a report without recommendations says instead. */
static void
no_recs(FILE *fp, const struct tl_findings *f)
{
	const struct tl_fcov *c = &f->cov;
	int64_t all = f->op_all_ns;
	double a = f->analysed_pct;

	if (f->analysed_low) {
		fprintf(fp, "No recommendation: the analysable part of the GPU "
		    "time is %s %%, too little to judge the trace. What this "
		    "analysis cannot see: ", tl_md_num(a, 1));
		if (c->graph_rows > 0)
			fprintf(fp, "%s %% of the time runs in graph replays "
			    "(the graph-capture trace would name their ops); ",
			    tl_md_num(share(c->graph_ns, all), 1));
		fprintf(fp, "%s %% is in ops of no category and no perf model "
		    "(`other`). The rough report's gaps section lists the "
		    "rest.\n\n", tl_md_num(share(c->other_ns, all), 1));
		return;
	}
	fprintf(fp, "No action is needed by the rules: no finding recovers "
	    "%s %% of the GPU timeline or more, and %s %% of the GPU time is "
	    "analysed.\n\n", tl_md_num(f->rules.slot_pct, 1), tl_md_num(a, 1));
}

/* The impact of an op recommendation: its range of savings. */
static void
op_rec_impact(FILE *fp, const struct tl_findings *f, const struct tl_frec *r)
{
	const struct tl_fop *op = &f->op[r->op];
	double t[3];
	int n = tl_op_targets(op, t);

	if (n > 1)
		fprintf(fp, "%s-%s ms (%s-%s %% of the GPU timeline) if the op "
		    "reaches %s-%s %% of its roofline", tl_md_ms(r->lo_ns),
		    tl_md_ms(r->hi_ns), tl_share_text(f, r->lo_ns),
		    tl_share_text(f, r->hi_ns), tl_md_num(t[0], 0),
		    tl_md_num(t[n - 1], 0));
	else
		fprintf(fp, "%s ms (%s %% of the GPU timeline) if the op "
		    "reaches %s %% of its roofline", tl_md_ms(r->hi_ns),
		    tl_share_text(f, r->hi_ns), tl_md_num(t[0], 0));
	if (op->claimed_ns > 0)
		fputs(", counting its time outside the patterns", fp);
	fputc('.', fp);
}

/* One recommendation in the fair report's brief form. */
static void
rec_brief(FILE *fp, const struct tl_findings *f, const struct tl_frec *r,
    int n)
{
	char id[32];

	rec_anchor(id, sizeof(id), f, r);
	fprintf(fp, "### %s Priority %d: ", tl_md_prio_mark(r->prio), n);
	rec_title(fp, f, r);
	fputs("\n\n**Issue**: ", fp);
	if (r->pat >= 0) {
		const struct tl_fpat *p = &f->pat[r->pat];

		tl_pat_issue(fp, f, p);
		fputs("\n\n**Action**: ", fp);
		tl_pat_action(fp, f, p);
		fputs("\n\n**Impact**: ", fp);
		tl_pat_impact(fp, f, p);
		fputs("\n\n**Priority**: ", fp);
		tl_pat_prio(fp, f, p);
	} else {
		const struct tl_fop *op = &f->op[r->op];

		tl_advice_issue(fp, op);
		fprintf(fp, "\n\n**Action**: Path A: %s Or, keeping the model "
		    "as is (Path B): %s", tl_advice_algorithmic(f, op),
		    tl_advice_kernel(op));
		fputs("\n\n**Impact**: ", fp);
		op_rec_impact(fp, f, r);
		fputs("\n\n**Priority**: ", fp);
		op_prio(fp, f, op);
	}
	fprintf(fp, "\n\n→ *See [details](#%s)*\n\n", id);
}

void
tl_report_fair(FILE *fp, const struct tl_findings *f,
    const struct tl_report_opts *o)
{
	struct tl_ftimeline t;
	char id[32];
	int idx[FAIR_RECS], i, c, n, nrec, big = -1, smaller = 0;

	t = f->tl;
	title(fp, f, o, "standalone analysis");
	nrec = fair_recs(f, idx);
	tl_report_xrank(fp, f);
	fputs("## Executive Summary\n\n", fp);
	tl_md_steady(fp, f);
	for (c = 0; c < tl_ncategories(); c++)
		if (f->cat[c].present && (big < 0 ||
		    f->cat[c].time_ns > f->cat[big].time_ns))
			big = c;
	fprintf(fp, "The GPU computes %s %% of the time", tl_md_num(share(
	    t.compute, t.total), 1));
	if (f->low_util)
		fprintf(fp, ", below the %s %% a well-fed GPU reaches; %s "
		    "dominates the rest", tl_md_num(f->utilisation_min, 0),
		    loss_text[f->loss]);
	fputs(".", fp);
	if (big >= 0)
		fprintf(fp, " %s ops take the most GPU time.",
		    tl_category(big)->title);
	if (nrec > 0) {
		fputs(" The largest recoverable item: ", fp);
		rec_title(fp, f, &f->rec[idx[0]]);
		if (rec_unknown(f, &f->rec[idx[0]]))
			fputs(", its recoverable time not quantified.", fp);
		else {
			fputs(", ", fp);
			rec_saving(fp, f, &f->rec[idx[0]], " ms", " (",
			    " % of the GPU timeline");
			fputs(").", fp);
		}
	}
	fprintf(fp, " The rules find %d bottleneck op%s and %d pattern%s.\n\n",
	    f->nbottlenecks, f->nbottlenecks == 1 ? "" : "s", f->npat,
	    f->npat == 1 ? "" : "s");
	fputs("| Metric | Value |\n|---|---|\n", fp);
	timeline_rows(fp, &t, f->ntr);
	fprintf(fp, "| Sum of op kernel times%s | %s ms |\n\n", f->ntr > 1 ?
	    " (all ranks)" : "", tl_md_ms((int64_t)(f->op_total_us * 1e3 +
	    0.5)));
	coverage(fp, f);
	fputs("### Top Findings by Recoverable Time\n\n", fp);
	if (nrec == 0)
		fprintf(fp, "None recovers %s %% of the GPU timeline or more."
		    "\n\n", tl_md_num(f->rules.slot_pct, 1));
	else {
		fputs("| # | Finding | Recovers (ms) | % of GPU timeline | "
		    "Priority |\n|---|---|---|---|---|\n", fp);
		for (i = 0; i < nrec && i < FAIR_TOP; i++) {
			const struct tl_frec *r = &f->rec[idx[i]];

			fprintf(fp, "| %d | ", i + 1);
			rec_title(fp, f, r);
			fputs(" | ", fp);
			rec_saving(fp, f, r, "", " | ", "");
			fprintf(fp, " | %s |\n", tl_priority_name(r->prio));
		}
		fputc('\n', fp);
	}

	tl_report_collectives(fp, f);
	fputs("---\n\n## Recommendations\n\n", fp);
	for (i = 0; i < nrec; i++)
		rec_brief(fp, f, &f->rec[idx[i]], i + 1);
	if (nrec == 0)
		no_recs(fp, f);

	fputs("---\n\n## Detailed Analysis\n\n", fp);
	n = 0;
	tl_md_anchor(fp, "gpu-utilisation");
	fprintf(fp, "### %d. GPU utilisation\n\n", ++n);
	if (f->ntr > 1)
		ranks(fp, f);
	for (i = 0; i < f->ntr; i++) {
		if (f->ntr > 1) {
			fputs("Trace ", fp);
			tl_md_code(fp, f->tr[i].name, 80);
			fputs(":\n\n", fp);
		}
		idle_trace(fp, f, &f->tr[i], 0);
	}
	fputc('\n', fp);
	if (f->npat > 0) {
		int np = 0;

		fprintf(fp, "### %d. Patterns\n\n", ++n);
		for (i = 0; i < f->nrec; i++) {
			const struct tl_frec *r = &f->rec[i];

			if (r->pat < 0)
				continue;
			if (!r->slot) {
				smaller++;
				continue;
			}
			tl_pat_anchor(id, sizeof(id), r->pat);
			tl_md_anchor(fp, id);
			fprintf(fp, "#### %d.%d ", n, ++np);
			tl_pat_title(fp, f, &f->pat[r->pat]);
			fputs("\n\n", fp);
			tl_pat_detail(fp, f, &f->pat[r->pat], 0);
		}
		if (smaller > 0)
			fprintf(fp, "%d smaller pattern%s, each under %s %% of the "
			    "GPU timeline, %s in the rough report.\n\n", smaller,
			    smaller == 1 ? "" : "s",
			    tl_md_num(f->rules.slot_pct, 1), smaller == 1 ?
			    "is" : "are");
	}
	for (c = 0; c < tl_ncategories(); c++) {
		const struct tl_fcat *k = &f->cat[c];
		int nb = 0;

		if (!k->present || tl_category_is(c, "comm") ||
		    tl_category_is(c, "memcpy"))
			continue;
		snprintf(id, sizeof(id), "cat-%s", tl_category(c)->file);
		tl_md_anchor(fp, id);
		fprintf(fp, "### %d. %s\n\n", ++n, tl_category(c)->title);
		if (k->error != NULL) {
			fputs("Status: ERROR: ", fp);
			tl_md_text(fp, k->error, 300);
			fputs(". No findings for this category.\n\n", fp);
			continue;
		}
		fprintf(fp, "%s %% of compute in %d signatures; average "
		    "efficiency %s%s.\n\n", tl_md_num(k->pct_compute, 2), k->nops,
		    k->eff >= 0 ? tl_md_num(k->eff, 1) : "unknown (no perf "
		    "model)", k->eff >= 0 ? " % of roofline" : "");
		for (i = 0; i < f->nbottlenecks; i++) {
			const struct tl_fop *op = &f->op[f->bottlenecks[i]];

			if (op->cat != c)
				continue;
			op_anchor_id(id, sizeof(id), f, op);
			tl_md_anchor(fp, id);
			fprintf(fp, "#### %d.%d ", n, ++nb);
			op_label(fp, op);
			fputs("\n\n", fp);
			if (op->pattern != NULL)
				fprintf(fp, "- **Pattern:** %s\n", op->pattern);
			op_facts(fp, op);
			op_verdict(fp, f, op);
			fputs("- **Priority:** ", fp);
			op_prio(fp, f, op);
			fputc('\n', fp);
			if (op->hostcopy)
				fputs("- **Paths:** it only copies between host "
				    "and device, which the memory roofline does "
				    "not judge: see the copy and synchronisation "
				    "findings.\n\n", fp);
			else if (op->covered)
				fputs("- **Paths:** a pattern above explains most "
				    "of its time; its recommendation is the "
				    "pattern's.\n\n", fp);
			else
				fprintf(fp, "- **Algorithmic (Path A):** see the "
				    "recommendation; **Kernel (Path B):** see the "
				    "recommendation%s.\n\n", op->replay ? "; a "
				    "replay artifact is recommended" : "");
			impact(fp, f, op, 0);
		}
		if (tl_category_is(c, "conv") ||
		    tl_category_is(c, "batchnorm")) {
			cat_specific(fp, f, c);
			fputc('\n', fp);
		}
	}
	tl_report_serving(fp, f);
	appendix(fp, f, o);
}

/* Top signatures by time with cumulative share (rough report). */
static void
top_ops(FILE *fp, const struct tl_findings *f, int max)
{
	double cum = 0;
	int i;

	fputs("| # | Operation | Category | Count | Time (ms) | % of compute | "
	    "Cumulative % |\n|---|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < f->nop && i < max; i++) {
		const struct tl_fop *op = &f->op[f->bytime[i]];

		cum += op->pct_compute;
		fprintf(fp, "| %d | ", i + 1);
		op_label(fp, op);
		fprintf(fp, " | %s | %lld | %s | %s | %s |\n",
		    tl_category(op->cat)->value, op->count,
		    tl_md_ms(op->time_ns), tl_md_num(op->pct_compute, 2),
		    tl_md_num(cum, 1));
	}
	fputc('\n', fp);
}

/* The innermost call-stack entries the report shows of an op. */
#define STACK_SHOWN 6

/* Parent chains and module paths of the top ops (rough report). */
static void
tree(FILE *fp, const struct tl_findings *f)
{
	int i;

	if (!f->has_stack)
		fputs("The stream has no module or call_stack columns (tl-parse "
		    "writes them): no module paths or Python call stacks. "
		    "Parent ops:\n\n", fp);
	for (i = 0; i < f->nbottlenecks && i < 10; i++) {
		const struct tl_fop *op = &f->op[f->bottlenecks[i]];

		fputs("- ", fp);
		op_label(fp, op);
		fputs(" (example uid ", fp);
		tl_md_code(fp, op->uid, 20);
		fputs(" in ", fp);
		tl_md_code(fp, op->trace, 80);
		fputs(")\n", fp);
		if (op->parent_name[0] != '\0') {
			fputs("  - parent op: ", fp);
			tl_md_code(fp, op->parent_name, 120);
			fputc('\n', fp);
		}
		if (op->module[0] != '\0') {
			fputs("  - module: ", fp);
			tl_md_code(fp, op->module, 200);
			fputc('\n', fp);
		}
		if (op->call_stack[0] != '\0') {
			fputs("  - call stack, innermost last:\n", fp);
			tl_md_stack(fp, op->call_stack, STACK_SHOWN, "    ");
		}
		fputs("  - subtree (GPU events):\n", fp);
		kernels(fp, op);
	}
	fputc('\n', fp);
}

/* Module classes whose instances run only small kernels: fusion. */
static void
fusion(FILE *fp, const struct tl_findings *f)
{
	int i, n = 0;

	if (!f->has_stack || f->nmod == 0) {
		fputs("Needs module paths (the module column of tl-parse's "
		    "stream) and per-instance rows.\n\n", fp);
		return;
	}
	fputs("Module instances that launch several GPU events and no GEMM, "
	    "convolution or attention: one fused kernel could replace "
	    "them.\n\n| Module instance | Ops | GPU events | Time (ms) |\n"
	    "|---|---|---|---|\n", fp);
	for (i = 0; i < f->nmod && n < 15; i++) {
		const struct tl_fmod *m = &f->mod[i];

		if (!m->candidate)
			continue;
		fputs("| ", fp);
		tl_md_code(fp, m->path, 160);
		fprintf(fp, " | %lld | %lld | %s |\n", m->ops, m->kernels,
		    tl_md_ms(m->time_ns));
		n++;
	}
	if (n == 0)
		fputs("| none | | | |\n", fp);
	fputc('\n', fp);
}

/* Every pattern with its evidence (rough report). */
static void
rough_patterns(FILE *fp, const struct tl_findings *f)
{
	char id[32];
	int i, n = 0;

	for (i = 0; i < f->nrec; i++) {
		const struct tl_frec *r = &f->rec[i];

		if (r->pat < 0)
			continue;
		tl_pat_anchor(id, sizeof(id), r->pat);
		tl_md_anchor(fp, id);
		fprintf(fp, "#### 6.%d ", ++n);
		tl_pat_title(fp, f, &f->pat[r->pat]);
		fputs("\n\n", fp);
		tl_pat_detail(fp, f, &f->pat[r->pat], 1);
	}
	for (i = 0; i < f->npat; i++) {
		const struct tl_fpat *p = &f->pat[i];

		if (p->save_ns > 0 || p->unquantified)
			continue;
		fprintf(fp, "#### 6.%d ", ++n);
		tl_pat_title(fp, f, p);
		fputs(" (recovers nothing measurable)\n\n", fp);
		tl_pat_detail(fp, f, p, 1);
	}
	if (n == 0)
		fputs("None found.\n\n", fp);
}

/* The ranked list of every recommendation (rough report). */
static void
rough_recs(FILE *fp, const struct tl_findings *f)
{
	int i;

	if (f->nrec == 0) {
		fputs("None.\n\n", fp);
		return;
	}
	fprintf(fp, "A recommendation takes a slot in the fair report when it "
	    "recovers at least %s %% of the GPU timeline.\n\n| # | Finding | "
	    "Recovers (ms) | %% of GPU timeline | Priority and rule | Slot |\n"
	    "|---|---|---|---|---|---|\n", tl_md_num(f->rules.slot_pct, 1));
	for (i = 0; i < f->nrec; i++) {
		const struct tl_frec *r = &f->rec[i];

		fprintf(fp, "| %d | ", i + 1);
		rec_title(fp, f, r);
		fputs(" | ", fp);
		rec_saving(fp, f, r, "", " | ", "");
		fputs(" | ", fp);
		if (r->pat >= 0)
			tl_pat_prio(fp, f, &f->pat[r->pat]);
		else
			op_prio(fp, f, &f->op[r->op]);
		fprintf(fp, " | %s |\n", r->slot ? "yes" : "no");
	}
	fputc('\n', fp);
}

/* Top op names by time among rows of category c (other). */
static void
top_names(FILE *fp, const struct tl_findings *f, int c, int max)
{
	int i, n = 0;

	for (i = 0; i < f->nop && n < max; i++) {
		const struct tl_fop *op = &f->op[f->bytime[i]];

		if (op->cat != c || op->time_ns <= 0)
			continue;
		fputs(n ? ", " : " (", fp);
		tl_md_code(fp, op->name, 60);
		fprintf(fp, " %s ms", tl_md_ms(op->time_ns));
		n++;
	}
	if (n > 0)
		fputc(')', fp);
}

/* What this analysis could not see on this trace (rough report). */
static void
gaps(FILE *fp, const struct tl_findings *f)
{
	const struct tl_fcov *c = &f->cov;
	int64_t nomodel = 0, noshape = 0;
	int k, n = 0, big = -1, other = tl_category_index("other");
	char arch[16];

	if (!f->has_stack) {
		fputs("- **Module paths and call stacks:** the stream has none "
		    "(`tl-parse --stack` adds them), so the patterns go by op "
		    "sequences only and cannot name module instances.\n", fp);
		n++;
	}
	if (f->grouped) {
		fputs("- **Op instances:** the rows are grouped (`tl-efficiency "
		    "--group`): no idle gaps, kernel sequences or patterns; "
		    "give per-instance rows.\n", fp);
		n++;
	} else if (!c->has_launch) {
		fputs("- **Launch times:** the GPU events carry no `launch_ts` "
		    "(a stream from an older `tl-parse`), so the idle inside an "
		    "op before its launch is not told from launch latency.\n",
		    fp);
		n++;
	}
	if (c->graph_rows > 0) {
		fprintf(fp, "- **Graph replays:** %s ms (%s %%) of GPU time runs "
		    "in %lld graph launches; their kernels' ops, shapes and "
		    "modules are in the graph-capture trace, not in this one.\n",
		    tl_md_ms(c->graph_ns), tl_md_num(share(c->graph_ns,
		    c->op_ns), 1), c->graph_rows);
		n++;
	}
	if (c->other_ns > 0) {
		fprintf(fp, "- **Ops of no category:** %s ms (%s %%) is in "
		    "`other`", tl_md_ms(c->other_ns), tl_md_num(share(
		    c->other_ns, c->op_ns), 1));
		top_names(fp, f, other, 3);
		fputs("; no perf model judges them.\n", fp);
		n++;
	}
	for (k = 0; k < f->nop; k++)
		if ((!f->op[k].has_flops || !f->op[k].has_bytes) &&
		    f->op[k].cat != other &&
		    !tl_category_is(f->op[k].cat, "comm") &&
		    !tl_category_is(f->op[k].cat, "memcpy")) {
			nomodel += f->op[k].time_ns;
			if (f->op[k].dims[0] == '\0')
				noshape += f->op[k].time_ns;
			if (f->op[k].perf_error[0] != '\0' && (big < 0 ||
			    f->op[k].time_ns > f->op[big].time_ns))
				big = k;
		}
	if (nomodel > 0) {
		fprintf(fp, "- **Ops without a perf model:** %s ms (%s %%) in "
		    "categorised ops with no FLOP or byte count; their "
		    "efficiency is unknown", tl_md_ms(nomodel),
		    tl_md_num(share(nomodel, c->op_ns), 1));
		if (noshape == nomodel)
			fputs(". None of them has input shapes: the trace was "
			    "recorded without them (profile with "
			    "`record_shapes=True`)", fp);
		if (big >= 0) {
			fputs("; for the largest, ", fp);
			tl_md_code(fp, f->op[big].name, 80);
			fputs(", the perf model says ", fp);
			tl_md_code(fp, f->op[big].perf_error, 120);
		}
		fputs(".\n", fp);
		n++;
	}
	if (!c->has_unlinked) {
		fputs("- **Unlinked GPU events:** the stream does not state "
		    "how many GPU events no launch call reaches; their time is "
		    "in none of the rows.\n", fp);
		n++;
	} else if (c->unlinked_count > 0) {
		fprintf(fp, "- **Unlinked GPU events:** %lld events, %s ms of "
		    "GPU busy time, are in no row, so no finding covers them "
		    "(`tl-parse --include-unlinked` puts them on the "
		    "timeline).\n", c->unlinked_count,
		    tl_md_ms(c->unlinked_ns));
		n++;
	}
	if (f->base_tbs <= 0) {
		fputs("- **Elementwise baseline:** none in this trace; "
		    "memory-bound ops are judged against the bandwidth roof "
		    "only.\n", fp);
		n++;
	}
	if (f->ntr > 0 && tl_gpu_arch(f->tr[0].gpu, arch,
	    sizeof(arch))[0] == '\0' && (f->tr[0].arch == NULL ||
	    f->tr[0].arch[0] == '\0')) {
		fputs("- **GPU architecture:** unknown, so kernels built for an "
		    "older GPU are not flagged.\n", fp);
		n++;
	}
	if (tl_findings_cat(f, "comm")->present && f->ntr == 1) {
		fputs("- **Other ranks:** one trace shows one rank's "
		    "collectives; a straggler and a slow link look alike "
		    "here.\n", fp);
		n++;
	}
	fputs("- **Inside the kernels:** why a kernel stays below its roofline "
	    "needs a hardware-counter profile of its replay (`tl-replay`); a "
	    "trace shows only what ran and for how long.\n\n", fp);
	(void)n;
}

void
tl_report_rough(FILE *fp, const struct tl_findings *f,
    const struct tl_report_opts *o)
{
	struct tl_ftimeline t;
	int i, c, n;

	t = f->tl;
	title(fp, f, o, "standalone analysis (rough)");
	fputs("## Analysis Process Summary\n\n### Step 1: Inputs\n\n", fp);
	for (i = 0; i < f->ntr; i++) {
		fputs("- trace ", fp);
		tl_md_code(fp, f->tr[i].name, 200);
		fprintf(fp, ": %lld rows, GPU ", f->tr[i].rows);
		if (f->tr[i].gpu[0] != '\0')
			tl_md_code(fp, f->tr[i].gpu, 80);
		else
			fputs("not named", fp);
		fprintf(fp, ", rank %s\n", f->tr[i].rank[0] != '\0' ?
		    f->tr[i].rank : "n/a");
	}
	fprintf(fp, "- rows are %s; %d op signatures\n", f->grouped ?
	    "grouped (tl-efficiency --group)" : "per instance", f->nop);
	fprintf(fp, "- op kernel time of the traces before any filtering: "
	    "%s ms (from pct_gpu_time)\n\n", tl_md_ms((int64_t)(f->op_total_us
	    * 1e3 + 0.5)));
	fputs("### Step 2: GPU timeline\n\n| Metric | Value |\n|---|---|\n",
	    fp);
	timeline_rows(fp, &t, f->ntr);
	fprintf(fp, "\nUtilisation = computation / total = %s / %s = %s %% "
	    "(flag below %s %%: %s).\n\n", tl_md_ms(t.compute / f->ntr),
	    tl_md_ms(t.total / f->ntr), tl_md_num(share(t.compute, t.total), 1),
	    tl_md_num(f->utilisation_min, 0), f->low_util ?
	    "flagged" : "fine");
	if (f->ntr > 1) {
		fputs("Per rank:\n\n", fp);
		ranks(fp, f);
	}
	tl_md_steady(fp, f);
	fputs("### Step 3: Idle time\n\n", fp);
	for (i = 0; i < f->ntr; i++) {
		if (f->ntr > 1) {
			fputs("Trace ", fp);
			tl_md_code(fp, f->tr[i].name, 80);
			fputs(":\n\n", fp);
		}
		idle_trace(fp, f, &f->tr[i], 1);
	}
	idle_advice(fp, f);
	fputs("\n### Step 4: Top operations\n\n", fp);
	top_ops(fp, f, o->top);
	fputs("### Step 5: Categories\n\n| Category | Instances | Signatures "
	    "| Time (ms) | % of compute | Average efficiency (%) | "
	    "Bottlenecks |\n|---|---|---|---|---|---|---|\n", fp);
	for (c = 0; c < tl_ncategories(); c++) {
		const struct tl_fcat *k = &f->cat[c];

		if (!k->present)
			continue;
		fprintf(fp, "| %s | %lld | %d | %s | %s | %s | %d |\n",
		    tl_category(c)->value, k->count, k->nops,
		    tl_md_ms(k->time_ns), tl_md_num(k->pct_compute, 2),
		    k->eff >= 0 ?
		    tl_md_num(k->eff, 1) : "n/a", k->nbottleneck);
	}
	fputs("\n### Step 6: Patterns\n\n", fp);
	coverage(fp, f);
	rough_patterns(fp, f);
	fputs("### Step 7: Recommendations ranked by recoverable time\n\n",
	    fp);
	rough_recs(fp, f);
	fputs("### Step 8: Bottlenecks, rules and impact\n\n", fp);
	n = 0;
	for (i = 0; i < f->nbottlenecks; i++)
		bottleneck_full(fp, f, &f->op[f->bottlenecks[i]], ++n, 1);
	if (n == 0)
		fputs("No bottleneck.\n\n", fp);
	fputs("## Raw Data Exploration\n\n", fp);
	for (c = 0; c < tl_ncategories(); c++) {
		if (!f->cat[c].present)
			continue;
		fprintf(fp, "### %s\n\n", tl_category(c)->title);
		if (f->cat[c].error != NULL) {
			fprintf(fp, "Status: ERROR: %s\n\n", f->cat[c].error);
			continue;
		}
		ops_table(fp, f, c, o->top);
		cat_specific(fp, f, c);
		fputc('\n', fp);
	}
	fputs("## Tree Analysis\n\n", fp);
	tree(fp, f);
	fputs("### Fusion opportunities\n\n", fp);
	fusion(fp, f);
	tl_md_anchor(fp, "gaps");
	fputs("## Gaps: what this analysis could not see on this trace\n\n",
	    fp);
	gaps(fp, f);
	fputs("## Questions for Further Investigation\n\n", fp);
	n = 0;
	for (c = 0; c < tl_ncategories(); c++)
		if (f->cat[c].present && f->cat[c].missing_model > 0 &&
		    !tl_category_is(c, "comm") && !tl_category_is(c, "memcpy")) {
			fprintf(fp, "- %lld %s signatures have no perf model: add "
			    "a model file (tl-perfmodel --models) to judge their "
			    "efficiency.\n", f->cat[c].missing_model,
			    tl_category(c)->title);
			n++;
		}
	for (i = 0; i < f->nbottlenecks && i < 5; i++) {
		const struct tl_fop *op = &f->op[f->bottlenecks[i]];

		fputs("- Why does ", fp);
		op_label(fp, op);
		fputs(" stay below its roofline? Profile its replay with "
		    "hardware counters.\n", fp);
		n++;
	}
	if (tl_findings_cat(f, "comm")->present && f->ntr == 1)
		fputs("- Communication: one rank shows only its own collectives; "
		    "merge all ranks' streams to tell stragglers from slow "
		    "links.\n", fp);
	else if (n == 0)
		fputs("- None.\n", fp);
	fputc('\n', fp);
	tl_report_serving(fp, f);
	appendix(fp, f, o);
}

void
tl_report_ranks(FILE *fp, const struct tl_findings *f,
    const struct tl_report_opts *o)
{
	const struct tl_xrank *x = f->xr;

	fputs("# ", fp);
	if (o->title != NULL)
		fputs(o->title, fp);
	else
		fprintf(fp, "%d rank%s", x->nrk, x->nrk == 1 ? "" : "s");
	fputs(": cross-rank analysis\n\n", fp);
	fprintf(fp, "From the per-rank summaries of %d trace%s (tl-format(5), "
	    "\"The per-rank summary\"): each rank's timeline, steps, "
	    "collective instances, top ops and idle culprits. Each rank's own "
	    "findings are in its own report.\n\n", x->nrk,
	    x->nrk == 1 ? "" : "s");
	if (x->nrk <= 1 || x->nin == 0) {
		if (f->failed != NULL)
			tl_report_xrank(fp, f);
		fputs(x->nrk <= 1 ? "One rank: nothing to compare across "
		    "ranks.\n" : "No collective instance in the summaries: "
		    "nothing to align or compare across ranks.\n", fp);
		return;
	}
	tl_report_xrank(fp, f);
}
