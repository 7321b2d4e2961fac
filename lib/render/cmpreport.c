/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <string.h>

#include "model/roofline.h"
#include "render/advice.h"
#include "render/chartlist.h"
#include "render/cmpreport.h"
#include "render/idlerep.h"
#include "render/mdtext.h"
#include "render/patreport.h"
#include "stream/category.h"

enum { REF, TGT };

#define FAIR_RECS 8	/* recommendations in the fair report */
#define QUESTIONS 5	/* ops per kind of open question */
#define FAIR_PEAK 20	/* rows above the peak roof listed in the fair report */

static const char *const tl_label[TL_TLC_N] = {
	"Total GPU timeline", "Busy", "Computation", "Exposed communication",
	"Exposed memory copy", "Idle"
};

static double
pct(double part, double whole)
{
	return whole != 0 ? 100 * part / whole : NAN;
}

/* A signed percentage, or n/a. */
static const char *
dpct(double v)
{
	return isnan(v) ? "n/a" : tl_md_num_signed(v, 1);
}

static const char *
num(double v, int d)
{
	return isnan(v) ? "n/a" : tl_md_num(v, d);
}

static const char *
exact(double v)
{
	return isnan(v) ? "n/a" : tl_md_exact(v);
}

/* A side's count or time, or n/a without the op. */
static const char *
count_text(const struct tl_cside *s)
{
	return s->has ? tl_md_exact((double)s->count) : "n/a";
}

/* A side's % of roofline: "above peak" when beyond the limit, or n/a. */
static const char *
roof_text(const struct tl_cside *s, int d)
{
	return !isnan(s->above_peak_pct) ? "above peak" :
	    num(s->pct_roofline, d);
}

static const char *
us_text(const struct tl_cside *s)
{
	return s->has ? tl_md_us(s->time_ns) : "n/a";
}

/* The side's name and GPU: `h100-qwen.json.gz` (`h100`). */
static void
side_label(FILE *fp, const struct tl_cmpfind *c, int k)
{
	if (c->name[k][0] != '\0')
		tl_md_stem(fp, c->name[k]);
	else
		fputs(k == REF ? "the reference" : "the target", fp);
	if (c->hw[k][0] != '\0') {
		fputs(" (", fp);
		tl_md_code(fp, c->hw[k], 40);
		fputc(')', fp);
	}
}

/* " (`name`, `hw`)" after "the reference" or "the target", or nothing. */
static void
side_note(FILE *fp, const struct tl_cmpfind *c, int k)
{
	if (c->name[k][0] == '\0' && c->hw[k][0] == '\0')
		return;
	fputs(" (", fp);
	if (c->name[k][0] != '\0')
		tl_md_stem(fp, c->name[k]);
	if (c->name[k][0] != '\0' && c->hw[k][0] != '\0')
		fputs(", ", fp);
	if (c->hw[k][0] != '\0')
		tl_md_code(fp, c->hw[k], 40);
	fputc(')', fp);
}

static void
title(FILE *fp, const struct tl_cmpfind *c, const struct tl_report_opts *o,
    const char *what)
{
	char model[256];

	fputs("# ", fp);
	if (o->title != NULL)
		fprintf(fp, "%s ", o->title);
	else if (c->side[TGT] != NULL && tl_report_model(c->side[TGT], model,
	    sizeof(model))[0] != '\0') {
		tl_md_text(fp, model, 200);
		fputc(' ', fp);
	}
	fputs("Performance Comparison: ", fp);
	side_label(fp, c, REF);
	fputs(" vs ", fp);
	side_label(fp, c, TGT);
	fprintf(fp, "%s\n\n", what);
}

static void
anchor_id(char *buf, size_t n, const struct tl_cmpfind *c,
    const struct tl_crow *w)
{
	snprintf(buf, n, "cmp-op-%d", (int)(w - c->row) + 1);
}

/* The Δ % of timeline entry i (TL_TLC_*). */
static double
tl_dpct(const struct tl_cmpfind *c, int i)
{
	return pct((double)(c->tl_ns[TGT][i] - c->tl_ns[REF][i]),
	    (double)c->tl_ns[REF][i]);
}

static int
has_timeline(const struct tl_cmpfind *c)
{
	int k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < TL_TLC_N; i++)
			if (c->has_tl[k][i])
				return 1;
	return 0;
}

/* The timelines side by side; shares: each side's % of its total too. */
static void
timeline_table(FILE *fp, const struct tl_cmpfind *c, int shares)
{
	int i, k;

	if (!has_timeline(c)) {
		fputs("The stream has no timeline columns (`ref_trace_*_us`, "
		    "`target_trace_*_us`): its inputs lacked `trace_*_us`.\n\n",
		    fp);
		return;
	}
	fprintf(fp, "| Metric | Reference (ms) |%s Target (ms) |%s Δ (ms) | "
	    "Δ %% |\n|---|---|%s---|%s---|---|\n", shares ? " % of total |" :
	    "", shares ? " % of total |" : "", shares ? "---|" : "",
	    shares ? "---|" : "");
	for (i = 0; i < TL_TLC_N; i++) {
		int both = c->has_tl[REF][i] && c->has_tl[TGT][i];
		int64_t r = c->tl_ns[REF][i], t = c->tl_ns[TGT][i];

		fprintf(fp, "| %s |", tl_label[i]);
		for (k = 0; k < 2; k++) {
			fprintf(fp, " %s |", c->has_tl[k][i] ?
			    tl_md_ms(c->tl_ns[k][i]) : "n/a");
			if (shares)
				fprintf(fp, " %s |", c->has_tl[k][i] &&
				    c->has_tl[k][0] ? num(pct((double)
				    c->tl_ns[k][i], (double)c->tl_ns[k][0]),
				    1) : "n/a");
		}
		fprintf(fp, " %s | %s |\n", both ? tl_md_ms_signed(t - r) :
		    "n/a", both ? dpct(tl_dpct(c, i)) : "n/a");
	}
	fputc('\n', fp);
}

static void
time_cells(FILE *fp, int64_t r, int64_t t)
{
	fprintf(fp, " %s | %s | %s | %s |\n", tl_md_ms(r), tl_md_ms(t),
	    tl_md_ms_signed(t - r), dpct(pct((double)(t - r), (double)r)));
}

static void
category_table(FILE *fp, const struct tl_cmpfind *c)
{
	int k;

	fputs("| Category | Reference (ms) | Target (ms) | Δ (ms) | Δ % |\n"
	    "|---|---|---|---|---|\n", fp);
	for (k = 0; k < tl_ncategories(); k++)
		if (c->cat_present[k]) {
			fprintf(fp, "| %s |", tl_category(k)->value);
			time_cells(fp, c->cat_ns[REF][k], c->cat_ns[TGT][k]);
		}
	fputs("| **All ops** |", fp);
	time_cells(fp, c->op_ns[REF], c->op_ns[TGT]);
	fputc('\n', fp);
}

/* "dense peak" or "achievable" roofs. */
static const char *
kind(const char *roof)
{
	return strcmp(roof, "peak") == 0 ? "dense peak" : roof;
}

static int
is_compute(const struct tl_crow *w)
{
	return strcmp(w->bound, "compute") == 0;
}

/* The run's roof kind in words, and the other kind's. */
static const char *
run_kind(const struct tl_cmpfind *c)
{
	return c->roof_kind[0] != '\0' ? kind(c->roof_kind) : "(unnamed)";
}

static const char *
other_kind(const struct tl_cmpfind *c)
{
	return strcmp(c->roof_kind, "peak") == 0 ? "achievable" : "dense peak";
}

/* 1 when a side's figure of kind stands in for the run's kind. */
static int
standin(const struct tl_cmpfind *c, const char *k)
{
	return k[0] != '\0' && c->roof_kind[0] != '\0' &&
	    strcmp(k, c->roof_kind) != 0;
}

/* Before stand-in n of side k: the line's start, else sep. */
static void
standin_sep(FILE *fp, const struct tl_cmpfind *c, int k, int n,
    const char *sep)
{
	if (n > 0) {
		fputs(sep, fp);
		return;
	}
	fputs("  - ", fp);
	side_label(fp, c, k);
	fprintf(fp, ": no %s figure for ", run_kind(c));
}

/*
 * The stand-ins of side k: the compute specs whose figure is of the
 * other kind, then the bandwidth; 0 when there are none.
 */
static int
side_standins(FILE *fp, const struct tl_cmpfind *c, int k)
{
	int i, j, n = 0, bw = 0;

	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *w = &c->row[i];

		bw |= standin(c, w->s[k].bw_roof);
		if (!standin(c, w->s[k].roof))
			continue;
		for (j = 0; j < i && !(standin(c, c->row[j].s[k].roof) &&
		    strcmp(c->row[j].compute_spec, w->compute_spec) == 0); j++)
			;
		if (j < i)
			continue;
		standin_sep(fp, c, k, n++, ", ");
		tl_md_code(fp, w->compute_spec, 40);
	}
	if (bw) {
		standin_sep(fp, c, k, n++, " and ");
		fputs("its bandwidth", fp);
	}
	if (n > 0)
		fputc('\n', fp);
	return n;
}

/*
 * The roofs the expectations rest on: the run's kind and every
 * stand-in; under the other kind, how many verdicts would differ.
 */
static void
roof_kinds(FILE *fp, const struct tl_cmpfind *c)
{
	int n = 0;

	if (c->roof_kind[0] == '\0') {
		fputs("- Roofs: the stream does not name their kind (no "
		    "`roof_kind` column: an older `tl-compare`); the sides' "
		    "`ref_roof` and `target_roof` columns say per op.\n", fp);
		return;
	}
	if (c->hw[REF][0] == '\0' || c->hw[TGT][0] == '\0') {
		fprintf(fp, "- Roofs: the %s GPU is not known (no `%s_hw` "
		    "value: `tl-compare` warned, give `--%s-hw NAME`), so no op "
		    "has an expected ratio, an efficiency on that side or a "
		    "verdict against the hardware.\n", c->hw[REF][0] == '\0' ?
		    (c->hw[TGT][0] == '\0' ? "reference and target" :
		    "reference") : "target", c->hw[REF][0] == '\0' ? "ref" :
		    "target", c->hw[REF][0] == '\0' ? "ref" : "target");
		return;
	}
	fprintf(fp, "- Roofs: the expected ratios rest on the **%s** roofs of "
	    "both GPUs (`tl-compare --roof %s`), from the GPU table of "
	    "`tl-efficiency --hw show NAME`; where a GPU has no %s figure, "
	    "its %s figure stands in:\n", run_kind(c), c->roof_kind,
	    run_kind(c), other_kind(c));
	n += side_standins(fp, c, REF);
	n += side_standins(fp, c, TGT);
	if (n == 0)
		fputs("  - none: both GPUs have every figure of that kind\n", fp);
	fprintf(fp, "- Under %s roofs (`--roof %s`), %d matched op%s would be "
	    "judged otherwise%s\n", other_kind(c), strcmp(c->roof_kind,
	    "peak") == 0 ? "achievable" : "peak", c->nother, c->nother == 1 ?
	    "" : "s", c->nother > 0 ? " (see *Verdicts under the other roof "
	    "kind*)." : ".");
}

/* The matched ops judged otherwise under the other roof kind. */
static void
other_verdicts(FILE *fp, const struct tl_cmpfind *c)
{
	int i, n = 0;

	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *w = &c->row[i];

		if (w->match != TL_CM_BOTH || w->other_exp == TL_CE_NA ||
		    w->other_exp == w->exp)
			continue;
		if (n++ == 0)
			fprintf(fp, "| Operation | Actual ratio | Expected "
			    "ratio (%s) | Expected? | Expected ratio (%s) | "
			    "Expected? |\n|---|---|---|---|---|---|\n",
			    run_kind(c), other_kind(c));
		fputs("| ", fp);
		tl_md_op(fp, w->name, w->dims);
		fprintf(fp, " | %s | %s | %s | %s | %s |\n", num(w->actual, 3),
		    num(w->expected, 3), tl_cexp_text(w->exp),
		    num(w->other_expected, 3), tl_cexp_text(w->other_exp));
	}
	if (n == 0)
		fprintf(fp, "None: every matched op has the same verdict under "
		    "%s roofs.\n", other_kind(c));
	fputc('\n', fp);
}

/* Links to the chart of the comparison. */
static void
charts(FILE *fp, const struct tl_report_opts *o)
{
	if (o->charts == NULL)
		return;
	fprintf(fp, "### Charts\n\n- %s: [%s/%s](%s/%s)\n\n",
	    tl_cmpchart.title, o->charts, tl_cmpchart.file, o->charts,
	    tl_cmpchart.file);
}

/* Which roofs and figures give the expected ratio, and its value. */
static void
derivation(FILE *fp, const struct tl_crow *w, int full)
{
	const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];
	const char *e;

	if (isnan(w->expected)) {
		if (w->match != TL_CM_BOTH)
			fputs("none: the op runs on one side only", fp);
		else if (w->bound[0] == '\0')
			fputs("none: the op has no bound (no perf model, or "
			    "neither FLOPs nor bytes)", fp);
		else
			fputs("none: the two GPUs have no roof of one kind "
			    "for it", fp);
		return;
	}
	e = full ? tl_md_exact(w->expected) : tl_md_num(w->expected, 3);
	if (is_compute(w)) {
		fputs("compute-bound, ", fp);
		tl_md_code(fp, w->compute_spec, 40);
		fprintf(fp, ": the reference's compute roof, %s TFLOPS/s (%s), "
		    "over the target's, %s TFLOPS/s (%s) = %s",
		    tl_md_exact(r->peak_tflops), kind(r->roof),
		    tl_md_exact(t->peak_tflops), kind(t->roof), e);
	} else
		fprintf(fp, "memory-bound: the reference's bandwidth, %s TB/s "
		    "(%s), over the target's, %s TB/s (%s) = %s",
		    tl_md_exact(r->peak_tbs), kind(r->bw_roof),
		    tl_md_exact(t->peak_tbs), kind(t->bw_roof), e);
}

/* Whether v has w's expectation: the same bound, spec and ratio. */
static int
same_expectation(const struct tl_crow *v, const struct tl_crow *w)
{
	return !isnan(v->expected) && v->expected == w->expected &&
	    strcmp(v->bound, w->bound) == 0 && (!is_compute(w) ||
	    (strcmp(v->compute_spec, w->compute_spec) == 0 &&
	    strcmp(v->s[0].roof, w->s[0].roof) == 0 &&
	    strcmp(v->s[1].roof, w->s[1].roof) == 0));
}

/* The distinct expectations, with the number of matched ops of each. */
static void
expectations(FILE *fp, const struct tl_cmpfind *c)
{
	int i, j, n, done;

	fputs("| Bound | Compute spec | Roofs (reference / target) | "
	    "Reference | Target | Expected ratio | Matched ops |\n"
	    "|---|---|---|---|---|---|---|\n", fp);
	for (i = 0, done = 0; i < c->nrow; i++) {
		const struct tl_crow *w = &c->row[i];
		const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];
		int comp = is_compute(w);
		const char *unit = comp ? "TFLOPS/s" : "TB/s";

		if (isnan(w->expected))
			continue;
		for (j = 0; j < i && !same_expectation(&c->row[j], w); j++)
			;
		if (j < i)
			continue;
		for (j = i, n = 0; j < c->nrow; j++)
			n += same_expectation(&c->row[j], w);
		fputs("| ", fp);
		tl_md_text(fp, w->bound, 20);
		fputs(" | ", fp);
		if (comp)
			tl_md_code(fp, w->compute_spec, 40);
		fprintf(fp, " | %s / %s | %s %s | %s %s | %s | %d |\n",
		    kind(comp ? r->roof : r->bw_roof),
		    kind(comp ? t->roof : t->bw_roof),
		    tl_md_exact(comp ? r->peak_tflops : r->peak_tbs), unit,
		    tl_md_exact(comp ? t->peak_tflops : t->peak_tbs), unit,
		    tl_md_exact(w->expected), n);
		done++;
	}
	if (done == 0)
		fputs("| none | | | | | | 0 |\n", fp);
	fputc('\n', fp);
}

/* The per-op table of the matched rows, in stream order. */
static void
ops_table(FILE *fp, const struct tl_cmpfind *c, int max)
{
	char id[32];
	int i, n = 0, more = 0;

	fputs("| # | Operation | Bound | Reference (ms) | Target (ms) | Δ % | "
	    "Expected ratio | Actual ratio | Expected? |\n"
	    "|---|---|---|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *w = &c->row[i];

		if (w->match != TL_CM_BOTH)
			continue;
		if (n == max) {
			more++;
			continue;
		}
		n++;
		anchor_id(id, sizeof(id), c, w);
		fprintf(fp, "| %d | ", i + 1);
		tl_md_op(fp, w->name, w->dims);
		fprintf(fp, " | %s | %s | %s | %s | %s | %s | %s |\n",
		    w->bound[0] != '\0' ? w->bound : "n/a",
		    tl_md_ms(w->s[REF].time_ns), tl_md_ms(w->s[TGT].time_ns),
		    dpct(w->delta_pct), num(w->expected, 3), num(w->actual, 3),
		    tl_cexp_text(w->exp));
	}
	if (n == 0)
		fputs("| | no matched op | | | | | | | |\n", fp);
	fputc('\n', fp);
	if (more > 0)
		fprintf(fp, "%d more matched ops, with less time on the "
		    "target, are in the rough report.\n\n", more);
}

/* What a group's judgement says, in words. */
static const char *
group_verdict(const struct tl_cgap *g)
{
	if (g->covered)
		return "a pattern of the target names it";
	if (g->ref_slower)
		return "the reference takes longer: it may be inefficient "
		    "there; nothing for the target to adopt";
	if (g->save_ns > 0)
		return g->fused_side == REF ? "the target runs unfused what "
		    "the reference runs fused: a recommendation" :
		    g->fused_side == TGT ? "the target's fused kernel takes "
		    "longer than the reference's unfused ops: a recommendation" :
		    "the target takes longer: a recommendation";
	return "the same time on both sides";
}

/* The groups of ops matched as one, each side's ops summed. */
static void
groups_table(FILE *fp, const struct tl_cmpfind *c)
{
	int i;

	if (c->ngroup == 0)
		return;
	fputs("Matched as groups (the ops of one side that do the work of "
	    "the other side's ops):\n\n| Group | Reference ops | Reference "
	    "(ms) | Target ops | Target (ms) | Judgement |\n"
	    "|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < c->ngap; i++) {
		const struct tl_cgap *g = &c->gap[i];

		if (g->kind != TL_CG_GROUP)
			continue;
		fputs("| ", fp);
		tl_md_text(fp, c->row[g->row].layout_note, 200);
		fprintf(fp, " | %d | %s | %d | %s | %s |\n", g->nrows[REF],
		    tl_md_ms(g->ns[REF]), g->nrows[TGT], tl_md_ms(g->ns[TGT]),
		    group_verdict(g));
	}
	fputc('\n', fp);
}

static void
one_sided(FILE *fp, const struct tl_cmpfind *c)
{
	int i, n = 0;

	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *w = &c->row[i];
		int k = w->match == TL_CM_REF_ONLY ? REF : TGT;

		if (w->match == TL_CM_BOTH || w->form == TL_CF_GROUP)
			continue;
		if (n++ == 0)
			fputs("| Side | Operation | Dtypes | Instances | "
			    "Time (ms) | % of its op kernel time |\n"
			    "|---|---|---|---|---|---|\n", fp);
		fprintf(fp, "| %s only | ", k == REF ? "reference" : "target");
		tl_md_op(fp, w->name, w->dims);
		fputs(" | ", fp);
		tl_md_code(fp, w->types, 120);
		fprintf(fp, " | %lld | %s | %s |\n", w->s[k].count,
		    tl_md_ms(w->s[k].time_ns), num(w->s[k].pct_gpu, 2));
	}
	if (n == 0)
		fputs("None: every op matched.\n", fp);
	fputc('\n', fp);
	groups_table(fp, c);
}

static void
layouts(FILE *fp, const struct tl_cmpfind *c)
{
	int i, n = 0;

	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *w = &c->row[i];

		if (!w->layout)
			continue;
		if (n++ == 0)
			fputs("| Operation | Reference strides | Target "
			    "strides | Note | Δ % | Expected? |\n"
			    "|---|---|---|---|---|---|\n", fp);
		fputs("| ", fp);
		tl_md_op(fp, w->name, w->dims);
		fputs(" | ", fp);
		tl_md_code(fp, w->strides, 80);
		fputs(" | ", fp);
		tl_md_code(fp, w->target_strides, 80);
		fputs(" | ", fp);
		tl_md_text(fp, w->layout_note, 200);
		fprintf(fp, " | %s | %s |\n", dpct(w->delta_pct),
		    tl_cexp_text(w->exp));
	}
	if (n == 0)
		fputs("None: the matched ops have the same strides on both "
		    "sides.\n", fp);
	fputc('\n', fp);
}

/* The kernels of a side, as a list item. */
static void
kernels(FILE *fp, const struct tl_cside *s, const char *side)
{
	int k;

	fprintf(fp, "  - %s: ", side);
	if (s->nkern == 0)
		fputs("none recorded", fp);
	for (k = 0; k < s->nkern; k++) {
		if (k > 0)
			fputs("; ", fp);
		tl_md_code(fp, s->kern[k].name, 120);
		fprintf(fp, " (%lld launches, %s ms)", s->kern[k].count,
		    tl_md_ms(s->kern[k].time_ns));
	}
	if (s->nkern_all > s->nkern)
		fprintf(fp, "; %d other kernels, %s ms",
		    s->nkern_all - s->nkern, tl_md_ms(s->kern_other_ns));
	fputc('\n', fp);
}

/* Both sides' measures of a row, one table row each. */
static void
measures(FILE *fp, const struct tl_crow *w)
{
	const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];

	fprintf(fp, "| Metric | Reference | Target | Δ | Expected? |\n"
	    "|---|---|---|---|---|\n| Time (ms) | %s | %s | %s %% | %s |\n",
	    r->has ? tl_md_ms(r->time_ns) : "n/a",
	    t->has ? tl_md_ms(t->time_ns) : "n/a", dpct(w->delta_pct),
	    w->match == TL_CM_BOTH ? tl_cexp_text(w->exp) : "n/a");
	fprintf(fp, "| Instances | %s | %s | | |\n", count_text(r),
	    count_text(t));
	fprintf(fp, "| Mean per instance (µs) | %s | %s | ratio %s | "
	    "expected %s |\n", num(r->mean_us, 3), num(t->mean_us, 3),
	    num(w->actual, 3), num(w->expected, 3));
	if (!isnan(r->tflops_s) || !isnan(t->tflops_s))
		fprintf(fp, "| Achieved TFLOPS/s | %s | %s | | |\n",
		    num(r->tflops_s, 2), num(t->tflops_s, 2));
	if (!isnan(r->tbs) || !isnan(t->tbs))
		fprintf(fp, "| Achieved TB/s | %s | %s | | |\n",
		    num(r->tbs, 3), num(t->tbs, 3));
	if (!isnan(r->pct_roofline) || !isnan(t->pct_roofline) ||
	    !isnan(r->above_peak_pct) || !isnan(t->above_peak_pct))
		fprintf(fp, "| %% of roofline | %s | %s | | |\n",
		    roof_text(r, 1), roof_text(t, 1));
	fprintf(fp, "| %% of its op kernel time | %s | %s | | |\n",
	    num(r->pct_gpu, 2), num(t->pct_gpu, 2));
	if (w->other_exp != TL_CE_NA && w->other_exp != w->exp)
		fprintf(fp, "| Under the other roof kind | | | expected %s | "
		    "%s |\n", num(w->other_expected, 3),
		    tl_cexp_text(w->other_exp));
	fputc('\n', fp);
}

/* The layout difference of a row, if any, and both sides' kernels. */
static void
layout_kernels(FILE *fp, const struct tl_crow *w)
{
	if (w->layout_note[0] != '\0') {
		fputs("- **Layout**: ", fp);
		tl_md_text(fp, w->layout_note, 200);
		fputs(": the reference's strides ", fp);
		tl_md_code(fp, w->strides, 120);
		fputs(", the target's ", fp);
		tl_md_code(fp, w->target_strides, 120);
		fputs(".\n", fp);
	}
	fputs("- **Kernels**:\n", fp);
	if (w->s[REF].has)
		kernels(fp, &w->s[REF], "reference");
	if (w->s[TGT].has)
		kernels(fp, &w->s[TGT], "target");
	fputc('\n', fp);
}

/* The facts of a recommended op beyond its measures (fair report). */
static void
op_facts(FILE *fp, const struct tl_crow *w)
{
	fputs("- **Hardware expectation**: ", fp);
	derivation(fp, w, 0);
	fputs(".\n", fp);
	layout_kernels(fp, w);
}

static void
rec_title(FILE *fp, const struct tl_crow *w)
{
	tl_md_op(fp, w->name, w->dims);
	if (w->match == TL_CM_TARGET_ONLY)
		fputs(": runs on the target only", fp);
	else if (w->copy)
		fputs(w->pageable[TGT] && !w->pageable[REF] ? ": the target "
		    "copies from pageable host memory, the reference from "
		    "pinned" : ": a slower copy on the target", fp);
	else if (w->fallback == TGT)
		fputs(": a fallback kernel on the target", fp);
	else if (w->algo)
		fputs(": another convolution algorithm on the target", fp);
	else if (w->exp == TL_CE_KERNEL)
		fprintf(fp, ": likely kernel problem (%s× the predicted time)",
		    tl_md_num(w->actual / w->expected, 1));
	else
		fputs(": slower than the hardware explains", fp);
}

/* Issue, Action and Impact of an op on the target only. */
static void
rec_target_only(FILE *fp, const struct tl_crow *w)
{
	const struct tl_cside *t = &w->s[TGT];

	fprintf(fp, "**Issue**: the target runs this op %lld times for %s ms; "
	    "the reference runs no op with this signature.\n\n", t->count,
	    tl_md_ms(t->time_ns));
	fputs("**Action**: Find out why the target takes another code path "
	    "here (another implementation, dtype or fallback); where the "
	    "reference's ops for this step are available on the target, use "
	    "them.\n\n", fp);
	fprintf(fp, "**Impact**: up to %s ms, %s %% of the target's op kernel "
	    "time, if the op is not needed on the target.\n\n",
	    tl_md_ms(t->time_ns), tl_md_num(w->score, 2));
}

/* Issue, Action and Impact of a copy the target takes longer over. */
static void
rec_copy(FILE *fp, const struct tl_crow *w)
{
	const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];
	int pageable = w->pageable[TGT] && !w->pageable[REF];

	fprintf(fp, "**Issue**: the target's copies take %s ms against %s ms "
	    "on the reference (%s %%). ", tl_md_ms(t->time_ns),
	    tl_md_ms(r->time_ns), dpct(w->delta_pct));
	if (t->nkern > 0 && r->nkern > 0) {
		fputs("The target's trace records ", fp);
		tl_md_code(fp, t->kern[0].name, 120);
		fputs(", the reference's ", fp);
		tl_md_code(fp, r->kern[0].name, 120);
		fputs(". ", fp);
	}
	if (pageable)
		fputs("A copy from pageable memory goes through a staging "
		    "buffer at a fraction of the link's speed and cannot "
		    "overlap computation. ", fp);
	fputs("This is a difference of copies over the host link, not of a "
	    "kernel: the GPUs' memory roofs say nothing about it.\n\n", fp);
	fputs("**Action**: ", fp);
	if (pageable)
		fputs("Pin the host memory the target copies from "
		    "(`pin_memory=True` in the `DataLoader`, "
		    "`tensor.pin_memory()`) and copy with `non_blocking=True`, "
		    "as the reference does.", fp);
	else
		fputs("Compare the two hosts' links (PCIe or NVLink generation "
		    "and width, the NUMA node the process runs on) and whether "
		    "the copies overlap computation on each side.", fp);
	fprintf(fp, "\n\n**Impact**: up to %s ms, %s %% of the target's op "
	    "kernel time, if the target copied as fast as the reference.\n\n",
	    tl_md_ms((int64_t)(w->unexplained_us * 1e3 + 0.5)),
	    tl_md_num(w->score, 2));
}

/* Issue (the gap), Action and Impact of a matched op. */
static void
rec_matched(FILE *fp, const struct tl_cmpfind *c, const struct tl_crow *w)
{
	const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];
	int64_t u = (int64_t)(w->unexplained_us * 1e3 + 0.5);

	fprintf(fp, "**Issue**: the target takes %s ms against %s ms on the "
	    "reference (%s %%, %s× per instance), where the %s roofs of the "
	    "two GPUs predict %s %% (ratio %s): %s.\n\n",
	    tl_md_ms(t->time_ns), tl_md_ms(r->time_ns), dpct(w->delta_pct),
	    tl_md_num(w->actual, 2), is_compute(w) ? "compute" : "bandwidth",
	    dpct(100 * (w->expected - 1)), tl_md_num(w->expected, 3),
	    w->exp == TL_CE_KERNEL ? "more than twice the predicted time, "
	    "which points at the kernel rather than the hardware" :
	    "unexpected");
	if (w->form == TL_CF_PRODUCT) {
		fputs("Matched as ", fp);
		tl_md_text(fp, w->layout_note, 200);
		fputs(".\n\n", fp);
	}
	if (w->fallback == TGT) {
		fputs("The target runs the fallback kernel ", fp);
		tl_md_code(fp, t->kern[0].name, 160);
		fputs(" where the reference runs ", fp);
		tl_md_code(fp, r->kern[0].name, 160);
		fputs(": a kernel difference, not the hardware.\n\n", fp);
	} else if (w->algo) {
		fputs("The library chose another algorithm for this shape on "
		    "the same GPU: the target runs ", fp);
		tl_md_code(fp, t->kern[0].name, 160);
		fputs(" where the reference runs ", fp);
		tl_md_code(fp, r->kern[0].name, 160);
		fputs(".\n\n", fp);
	}
	fputs("**Action**: ", fp);
	if (w->fallback == TGT)
		fputs("Find out why the library falls back on the target (the "
		    "shape, alignment, dtype or library version) and make it "
		    "select a tuned kernel, as the reference does. ", fp);
	else if (w->algo)
		fputs("Make the two runs choose alike: benchmark mode "
		    "(`torch.backends.cudnn.benchmark = True`, the same flag on "
		    "every vendor's build of PyTorch, times the algorithms once "
		    "per shape), the workspace the convolution library may use "
		    "and its version decide which algorithm runs; set them "
		    "alike on both runs. ", fp);
	else if (w->exp == TL_CE_KERNEL)
		fputs("Check the kernel the target selects for this shape and "
		    "its configuration. ", fp);
	fputs(tl_advice_kernel_cat(w->cat), fp);
	if (r->nkern > 0) {
		fputs(" The reference's ", fp);
		tl_md_code(fp, r->kern[0].name, 120);
		fputs(" shows what the op can reach.", fp);
	}
	fprintf(fp, "\n\n**Impact**: up to %s ms, %s %% of the target's op "
	    "kernel time", tl_md_ms(u), tl_md_num(w->score, 2));
	if (c->has_tl[TGT][0] && c->tl_ns[TGT][0] > 0)
		fprintf(fp, " (%s %% of its GPU timeline)", tl_md_num(pct(
		    (double)u, (double)c->tl_ns[TGT][0]), 2));
	fputs(", if the op ran at the predicted ratio.\n\n", fp);
}

/* The side's pattern of a gap, or NULL. */
static const struct tl_fpat *
gap_pat(const struct tl_cmpfind *c, const struct tl_cgap *g, int k)
{
	return g->pat[k] >= 0 && c->side[k] != NULL ?
	    &c->side[k]->pat[g->pat[k]] : NULL;
}

static const char *
tlc_what(int tlc)
{
	return tlc == TL_TLC_IDLE ? "idle time" : tlc == TL_TLC_EXPOSED_COMM ?
	    "exposed communication" : "exposed memory copies";
}

static void
gap_title(FILE *fp, const struct tl_cmpfind *c, const struct tl_cgap *g)
{
	const struct tl_fpat *p = gap_pat(c, g, TGT);

	if (g->kind == TL_CG_TIMELINE) {
		fprintf(fp, "More %s on the target than on the reference",
		    tlc_what(g->tlc));
		return;
	}
	if (g->kind == TL_CG_GROUP) {
		if (g->fused_side < 0)
			fputs("Other ops on the two sides, longer on the "
			    "target", fp);
		else
			fprintf(fp, g->fused_side == REF ? "Unfused %s on the "
			    "target (the reference runs it fused)" : "Fused %s "
			    "slower on the target than the reference's unfused "
			    "ops", strcmp(tl_category(g->cat)->value,
			    "attention") == 0 ? "attention" :
			    tl_category(g->cat)->title);
		return;
	}
	tl_pat_title(fp, c->side[TGT], p);
	fputs(g->fused_ns > 0 ? " (the reference runs it fused)" :
	    g->pat[REF] < 0 ? " (on the target only)" :
	    " (more on the target)", fp);
}

/* GPU utilisation of side k, %, or NaN. */
static double
utilisation(const struct tl_cmpfind *c, int k)
{
	if (!c->has_tl[k][TL_TLC_COMPUTE] || !c->has_tl[k][TL_TLC_TOTAL])
		return NAN;
	return pct((double)c->tl_ns[k][TL_TLC_COMPUTE],
	    (double)c->tl_ns[k][TL_TLC_TOTAL]);
}

/* The target's pattern of kind k, or NULL. */
static const struct tl_fpat *
target_pat(const struct tl_cmpfind *c, enum tl_patkind k)
{
	const struct tl_findings *f = c->side[TGT];
	int i;

	for (i = 0; f != NULL && i < f->npat; i++)
		if (f->pat[i].kind == k)
			return &f->pat[i];
	return NULL;
}

/* Issue and Action of a timeline gap. */
static void
gap_timeline(FILE *fp, const struct tl_cmpfind *c, const struct tl_cgap *g)
{
	const struct tl_fpat *idle = target_pat(c, TL_PAT_IDLE);

	fprintf(fp, "**Issue**: the target spends %s ms in %s, %s %% of its "
	    "GPU timeline, against %s ms, %s %% of the reference's: %s ms "
	    "more. GPU utilisation (computation over the timeline) is %s %% on "
	    "the target and %s %% on the reference.", tl_md_ms(g->ns[TGT]),
	    tlc_what(g->tlc), tl_md_num(pct((double)g->ns[TGT],
	    (double)c->tl_ns[TGT][TL_TLC_TOTAL]), 1), tl_md_ms(g->ns[REF]),
	    tl_md_num(pct((double)g->ns[REF],
	    (double)c->tl_ns[REF][TL_TLC_TOTAL]), 1), tl_md_ms(g->save_ns),
	    tl_md_num(utilisation(c, TGT), 1), tl_md_num(utilisation(c, REF),
	    1));
	if (g->tlc == TL_TLC_IDLE && idle != NULL) {
		fprintf(fp, " On the target, of the %s ms of gaps before its "
		    "ops, the host had not reached the op for %s ms and was "
		    "inside it before the launch call for %s ms", tl_md_ms(
		    idle->save_ns), tl_md_ms(idle->part[0]),
		    tl_md_ms(idle->part[1]));
		if (idle->part[2] >= 0)
			fprintf(fp, "; %s ms came after the launch (launch "
			    "latency)", tl_md_ms(idle->part[2]));
		if (idle->part[3] > 0)
			fprintf(fp, " and %s ms later still (waits the trace "
			    "does not record, or clocks out of step)",
			    tl_md_ms(idle->part[3]));
		fputs(".", fp);
	}
	fputs("\n\n**Action**: Path A: ", fp);
	if (g->tlc == TL_TLC_IDLE)
		fputs("keep the target's GPU fed: capture the steady part in a "
		    "GPU graph (`torch.compile(mode=\"reduce-"
		    "overhead\")`), remove synchronisations (`.item()`, "
		    "`.cpu()`, printing tensors) and launch fewer, larger "
		    "kernels. Or, keeping the model as is (Path B): compare the "
		    "two hosts (CPU, runtime and driver versions, the launch "
		    "path); the reference keeps its GPU busier with the same "
		    "ops.", fp);
	else if (g->tlc == TL_TLC_EXPOSED_COMM)
		fputs("overlap the target's collectives with computation "
		    "(bucket sizes, asynchronous collectives). Or, keeping the "
		    "model as is (Path B): check the target's collective library "
		    "settings and topology against the reference's.", fp);
	else
		fputs("copy from pinned host memory with `non_blocking=True` "
		    "and prefetch the next inputs while the GPU computes. Or, "
		    "keeping the model as is (Path B): check the target's host "
		    "link and copy engines against the reference's.", fp);
}

/* Issue and Action of a pattern gap. */
static void
gap_pattern(FILE *fp, const struct tl_cmpfind *c, const struct tl_cgap *g)
{
	const struct tl_findings *t = c->side[TGT];
	const struct tl_fpat *p = gap_pat(c, g, TGT), *r = gap_pat(c, g, REF);

	fputs("**Issue**: on the target, ", fp);
	tl_pat_issue(fp, t, p);
	if (g->fused_ns > 0)
		fprintf(fp, " The reference runs no such chain: its fused "
		    "attention kernels take %s ms.", tl_md_ms(g->fused_ns));
	else if (r == NULL)
		fputs(" The reference shows no such pattern.", fp);
	else
		fprintf(fp, " The reference shows it too, %s ms of its kernels "
		    "recovering %s ms; the difference is the target's.",
		    tl_md_ms(r->time_ns), tl_md_ms(r->save_ns));
	fputs("\n\n**Action**: ", fp);
	tl_pat_action(fp, t, p);
}

/* Issue and Action of a group the target takes longer over. */
static void
gap_group(FILE *fp, const struct tl_cmpfind *c, const struct tl_cgap *g)
{
	fputs("**Issue**: ", fp);
	tl_md_text(fp, c->row[g->row].layout_note, 200);
	fprintf(fp, ". The target's ops (%d signatures) take %s ms, the "
	    "reference's (%d) %s ms.", g->nrows[TGT], tl_md_ms(g->ns[TGT]),
	    g->nrows[REF], tl_md_ms(g->ns[REF]));
	fputs("\n\n**Action**: ", fp);
	if (g->fused_side < 0)
		fputs("Compare the two code paths of this module (framework "
		    "and library versions, fusion and compile settings): the "
		    "reference does the same work in less time.", fp);
	else if (g->fused_side == REF && strcmp(tl_category(g->cat)->value,
	    "attention") != 0)
		fprintf(fp, "Run the module's %s as one fused op on the target, "
		    "as the reference does (%s), in place of its separate "
		    "ops.", tl_category(g->cat)->title,
		    strcmp(tl_category(g->cat)->value, "moe") == 0 ? "a fused "
		    "MoE kernel: one grouped GEMM over the experts, the tokens "
		    "sorted by expert" : "the framework's fused norm, "
		    "`torch.nn.functional.layer_norm` or `rms_norm`, or "
		    "`torch.compile`");
	else if (g->fused_side == REF)
		fputs("Run attention fused on the target, as the reference "
		    "does: `torch.nn.functional.scaled_dot_product_attention` "
		    "(its flash or memory-efficient backend) in place of "
		    "matmul, softmax and matmul.", fp);
	else if (strcmp(tl_category(g->cat)->value, "attention") != 0)
		fprintf(fp, "Check the fused %s kernel the target selects for "
		    "this shape and dtype; the reference's unfused ops show the "
		    "time it can reach.", tl_category(g->cat)->title);
	else
		fputs("Check which fused attention backend and kernel the "
		    "target selects for this shape (head dimension, dtype, "
		    "mask) and whether another backend takes less time there; "
		    "the reference's unfused ops show the time it can reach.",
		    fp);
}

/* One gap as a recommendation. */
static void
gap_recommendation(FILE *fp, const struct tl_cmpfind *c,
    const struct tl_cgap *g, int rank)
{
	int i, n = 0;

	fprintf(fp, "### %s Priority %d: ", tl_md_prio_mark(g->prio), rank);
	gap_title(fp, c, g);
	fputs("\n\n", fp);
	if (g->kind == TL_CG_TIMELINE)
		gap_timeline(fp, c, g);
	else if (g->kind == TL_CG_GROUP)
		gap_group(fp, c, g);
	else
		gap_pattern(fp, c, g);
	fprintf(fp, "\n\n**Impact**: %s%s ms, %s %% of the target's op kernel "
	    "time", g->kind == TL_CG_TIMELINE ? "up to " : "",
	    tl_md_ms(g->save_ns), tl_md_num(g->score, 2));
	if (c->has_tl[TGT][0] && c->tl_ns[TGT][0] > 0)
		fprintf(fp, " (%s %% of its GPU timeline)", tl_md_num(pct(
		    (double)g->save_ns, (double)c->tl_ns[TGT][0]), 2));
	if (g->kind == TL_CG_TIMELINE)
		fputs(", if the target's GPU waited no longer than the "
		    "reference's.", fp);
	else if (g->kind == TL_CG_GROUP)
		fputs(": the target's time in the group beyond the "
		    "reference's.", fp);
	else if (g->pat[REF] >= 0)
		fputs(": what the change recovers on the target minus what it "
		    "would recover on the reference.", fp);
	else
		fputs(": what the change recovers on the target.", fp);
	for (i = 0; i < c->nrow; i++)
		if (c->row[i].in_pat == (int)(g - c->gap) + 1)
			n++;
	if (n == 1)
		fputs(" Its op on the target is not recommended on its own.",
		    fp);
	else if (n > 1)
		fprintf(fp, " Its %d op signatures on the target are not "
		    "recommended on their own.", n);
	fputs("\n\n", fp);
}

/* Each side's patterns, matched (with the op streams of both sides). */
static void
patterns_table(FILE *fp, const struct tl_cmpfind *c)
{
	int i, k, n = 0;

	if (c->side[REF] == NULL || c->side[TGT] == NULL) {
		fputs("Not compared: give `tl-findings` the two op streams "
		    "(`--ref FILE --target FILE`) beside the comparison to "
		    "find the patterns of each side.\n\n", fp);
		return;
	}
	for (i = 0; i < c->ngap; i++) {
		const struct tl_cgap *g = &c->gap[i];
		const struct tl_fpat *p;

		if (g->kind != TL_CG_PATTERN)
			continue;
		if (n++ == 0)
			fputs("| Pattern | Where | Reference (ms) | Reference "
			    "recovers (ms) | Target (ms) | Target recovers (ms) "
			    "| Gap (ms) |\n|---|---|---|---|---|---|---|\n", fp);
		k = g->pat[TGT] >= 0 ? TGT : REF;
		p = gap_pat(c, g, k);
		fprintf(fp, "| %s | ", tl_patkind_name(p->kind));
		if (p->where[0] != '\0')
			tl_md_code(fp, p->where, 80);
		else
			fputs("n/a", fp);
		for (k = 0; k < 2; k++) {
			p = gap_pat(c, g, k);
			if (p == NULL)
				fputs(" | none | none", fp);
			else
				fprintf(fp, " | %s | %s", tl_md_ms(p->time_ns),
				    p->unquantified ? "n/a" :
				    tl_md_ms(p->save_ns));
		}
		fprintf(fp, " | %s |\n", g->save_ns > 0 ?
		    tl_md_ms(g->save_ns) : "none");
	}
	if (n == 0)
		fputs("Neither side shows a pattern.\n", fp);
	fputc('\n', fp);
}

/* The matched ops the target runs much faster than the ratio predicts. */
static void
fast_table(FILE *fp, const struct tl_cmpfind *c, int max)
{
	int i, n = 0;

	if (c->nfast == 0) {
		fputs("None: no matched op runs on the target in less than "
		    "half the time the hardware ratio predicts.\n\n", fp);
		return;
	}
	fprintf(fp, "%d matched op%s on the target in less than half the "
	    "time the two GPUs' roofs predict: the reference's kernels may "
	    "be inefficient there (%s ms of the reference's time beyond the "
	    "prediction), a question for the reference's own analysis.\n\n",
	    c->nfast, c->nfast == 1 ? " runs" : "s run",
	    tl_md_ms(c->fast_ns));
	fputs("| Operation | Reference (ms) | Target (ms) | Expected ratio | "
	    "Actual ratio | Reference beyond the prediction (ms) |\n"
	    "|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < c->nrow && n < max; i++) {
		const struct tl_crow *w = &c->row[i];

		if (!w->fast)
			continue;
		n++;
		fputs("| ", fp);
		tl_md_op(fp, w->name, w->dims);
		fprintf(fp, " | %s | %s | %s | %s | %s |\n",
		    tl_md_ms(w->s[REF].time_ns), tl_md_ms(w->s[TGT].time_ns),
		    tl_md_num(w->expected, 3), tl_md_num(w->actual, 3),
		    tl_md_ms((int64_t)(w->ref_excess_us * 1e3 + 0.5)));
	}
	if (c->nfast > n)
		fprintf(fp, "\n%d more in the rough report.\n", c->nfast - n);
	fputc('\n', fp);
}

/* One recommendation: the heading, Issue, Action, Impact, the link. */
static void
recommendation(FILE *fp, const struct tl_cmpfind *c, const struct tl_crow *w)
{
	char id[32];

	fprintf(fp, "### %s Priority %d: ", tl_md_prio_mark(w->prio),
	    w->rank);
	rec_title(fp, w);
	fputs("\n\n", fp);
	if (w->match == TL_CM_TARGET_ONLY)
		rec_target_only(fp, w);
	else if (w->copy)
		rec_copy(fp, w);
	else
		rec_matched(fp, c, w);
	anchor_id(id, sizeof(id), c, w);
	fprintf(fp, "→ *See [details](#%s)*\n\n", id);
}

/* The key findings of the gaps: timelines, patterns, the reference. */
static void
gap_findings(FILE *fp, const struct tl_cmpfind *c, int *n)
{
	int i, np[2] = { 0, 0 }, nt = 0;
	const struct tl_citem *top = NULL;

	for (i = 0; i < c->nitem; i++)
		if (c->item[i].gap >= 0) {
			const struct tl_cgap *g = &c->gap[c->item[i].gap];

			if (g->kind == TL_CG_TIMELINE) {
				fprintf(fp, "%d. The target spends %s ms more "
				    "than the reference in %s (GPU utilisation "
				    "%s %% against %s %%): recommendation %d.\n",
				    ++*n, tl_md_ms(g->save_ns),
				    tlc_what(g->tlc),
				    tl_md_num(utilisation(c, TGT), 1),
				    tl_md_num(utilisation(c, REF), 1), i + 1);
			} else if (g->kind == TL_CG_PATTERN) {
				nt++;
				if (top == NULL)
					top = &c->item[i];
			}
		}
	for (i = 0; i < c->ngap; i++)
		if (c->gap[i].kind == TL_CG_PATTERN) {
			np[REF] += c->gap[i].pat[REF] >= 0;
			np[TGT] += c->gap[i].pat[TGT] >= 0;
		}
	if (c->side[REF] != NULL && c->side[TGT] != NULL) {
		fprintf(fp, "%d. Patterns: %d on the target, %d on the "
		    "reference; %d of the target's recover more than the "
		    "reference's", ++*n, np[TGT], np[REF], nt);
		if (top != NULL) {
			fputs(", first ", fp);
			gap_title(fp, c, &c->gap[top->gap]);
			fprintf(fp, " (recommendation %d)",
			    (int)(top - c->item) + 1);
		}
		fputs(".\n", fp);
	}
	if (c->nfast > 0)
		fprintf(fp, "%d. %d matched op%s on the target in less than "
		    "half the time the hardware ratio predicts: possible "
		    "inefficiencies of the reference (%s ms of its time beyond "
		    "the prediction).\n", ++*n, c->nfast, c->nfast == 1 ?
		    " runs" : "s run", tl_md_ms(c->fast_ns));
}

/* Matched ops whose kernels differ: the first, a fallback first. */
static void
kernel_differences(FILE *fp, const struct tl_cmpfind *c, int *n)
{
	const struct tl_crow *w;

	if (c->kdiff_row < 0)
		return;
	w = &c->row[c->kdiff_row];
	if (!c->same_hw && w->fallback < 0)
		return;
	fprintf(fp, "%d. %d matched op%s run%s other kernels on the two "
	    "sides: ", ++*n, c->nkdiff, c->nkdiff == 1 ? "" : "s",
	    c->nkdiff == 1 ? "s" : "");
	tl_md_op(fp, w->name, w->dims);
	fputs(" runs ", fp);
	tl_md_code(fp, w->s[REF].nkern > 0 ? w->s[REF].kern[0].name : "",
	    120);
	fputs(" on the reference and ", fp);
	tl_md_code(fp, w->s[TGT].nkern > 0 ? w->s[TGT].kern[0].name : "",
	    120);
	fputs(" on the target", fp);
	if (w->fallback >= 0)
		fprintf(fp, ", a fallback kernel on the %s", w->fallback == REF ?
		    "reference" : "target");
	else if (w->algo)
		fputs(", another convolution algorithm for the same shape", fp);
	fputs(".\n", fp);
}

/* The executive summary's paragraph and key findings. */
static void
key_findings(FILE *fp, const struct tl_cmpfind *c)
{
	const struct tl_crow *top;
	double m;
	int n = 0;

	fputs("### Key Findings\n\n", fp);
	if (c->nrow == 0) {
		fputs("1. The comparison holds no op, so there are no "
		    "findings.\n\n", fp);
		return;
	}
	if (c->identical) {
		fputs("1. The two inputs are the same op for op, with the same "
		    "kernels: every Δ is 0, so there are no findings.\n\n", fp);
		return;
	}
	if (c->has_tl[REF][TL_TLC_TOTAL] && c->has_tl[TGT][TL_TLC_TOTAL])
		fprintf(fp, "%d. The target's GPU timeline is %s ms against %s "
		    "ms on the reference (%s %%); computation %s %%, idle %s "
		    "%%.\n", ++n, tl_md_ms(c->tl_ns[TGT][TL_TLC_TOTAL]),
		    tl_md_ms(c->tl_ns[REF][TL_TLC_TOTAL]),
		    dpct(tl_dpct(c, TL_TLC_TOTAL)),
		    dpct(tl_dpct(c, TL_TLC_COMPUTE)),
		    dpct(tl_dpct(c, TL_TLC_IDLE)));
	fprintf(fp, "%d. Matched ops: %d (%d of them with other strides",
	    ++n, c->nmatch[TL_CM_BOTH], c->nlayout);
	if (c->nproduct > 0)
		fprintf(fp, ", %d as another op form of the same matrix "
		    "product", c->nproduct);
	fprintf(fp, "); on the reference only: %d; on the target only: %d",
	    c->nmatch[TL_CM_REF_ONLY], c->nmatch[TL_CM_TARGET_ONLY]);
	if (c->ngroup > 0)
		fprintf(fp, "; matched as groups (fused against unfused "
		    "attention, norms, MoE): %d group%s of %d op signatures",
		    c->ngroup,
		    c->ngroup == 1 ? "" : "s", c->ngrouprow);
	fputs(".\n", fp);
	kernel_differences(fp, c, &n);
	if (c->nref_slower > 0)
		fprintf(fp, "%d. The reference takes %s ms longer than the "
		    "target in %d group%s of ops matched as one (such as "
		    "unfused against fused attention): the reference may be "
		    "inefficient there; nothing for the target to adopt.\n", ++n,
		    tl_md_ms(c->ref_slower_ns), c->nref_slower,
		    c->nref_slower == 1 ? "" : "s");
	fprintf(fp, "%d. Against the time ratio the two GPUs' %s roofs "
	    "predict (within %s %%): %d matched ops within it, %d above it "
	    "(%d of them above twice the prediction: likely kernel problems), "
	    "%d below it, %d without a prediction.", ++n, run_kind(c),
	    exact(c->tolerance_pct),
	    c->nexp[TL_CE_YES], c->nexp[TL_CE_SLOWER] + c->nexp[TL_CE_KERNEL],
	    c->nexp[TL_CE_KERNEL], c->nexp[TL_CE_FASTER], c->nexp[TL_CE_NA]);
	if (c->nother > 0 && c->roof_kind[0] != '\0')
		fprintf(fp, " Under %s roofs %d of them would be judged "
		    "otherwise.", other_kind(c), c->nother);
	fputc('\n', fp);
	if (c->nrec > 0) {
		top = &c->row[c->rec[0]];
		fprintf(fp, "%d. The target's time that the hardware does not "
		    "explain sums to %s ms over %d op%s; the largest share is ",
		    ++n, tl_md_ms((int64_t)(c->unexplained_us * 1e3 + 0.5)),
		    c->nrec, c->nrec == 1 ? "" : "s");
		tl_md_op(fp, top->name, top->dims);
		fprintf(fp, " (%s %% of the target's op kernel time).\n",
		    tl_md_num(top->score, 2));
	} else
		fprintf(fp, "%d. No findings for the target: none of its ops "
		    "takes longer than the hardware explains.\n", ++n);
	gap_findings(fp, c, &n);
	m = (double)(c->bound_ns[0] + c->bound_ns[1] + c->bound_ns[2]);
	if (m > 0)
		fprintf(fp, "%d. Of the target's time in matched ops, "
		    "memory-bound ops take %s %%, compute-bound ops %s %% and "
		    "ops of unknown bound %s %%: %s characteristics "
		    "dominate.\n", ++n,
		    tl_md_num(pct((double)c->bound_ns[1], m), 1),
		    tl_md_num(pct((double)c->bound_ns[0], m), 1),
		    tl_md_num(pct((double)c->bound_ns[2], m), 1),
		    c->memory_dominates ? "memory-bound" :
		    "compute-bound");
	fputc('\n', fp);
}

static void
summary(FILE *fp, const struct tl_cmpfind *c)
{
	fputs("## Executive Summary\n\nThe reference", fp);
	side_note(fp, c, REF);
	fputs(" shows what is achievable for the same ops; the aim is to "
	    "find where the target", fp);
	side_note(fp, c, TGT);
	fputs(" can improve, not to rank the platforms. Δ is the target "
	    "minus the reference; Δ % is of the reference.\n\n", fp);
	roof_kinds(fp, c);
	fputc('\n', fp);
	fputs("### GPU timeline\n\n", fp);
	timeline_table(fp, c, 0);
	fputs("### Kernel time by category\n\n", fp);
	category_table(fp, c);
	key_findings(fp, c);
}

static void
no_findings(FILE *fp)
{
	fputs("No findings: no op of the target takes longer than the time "
	    "ratio of the two GPUs predicts, and none runs on the target "
	    "only; there is nothing to recommend.\n\n", fp);
}

static void
method(FILE *fp, const struct tl_cmpfind *c)
{
	fputs("### Methodology\n\n"
	    "- The input is a `tl-compare` stream: one row per op signature "
	    "(name, shapes, dtypes, strides, concrete inputs) of the two "
	    "traces, matched regardless of kernel names. The GPU timelines "
	    "come from the `ref_trace_*_us` and `target_trace_*_us` columns "
	    "every row carries.\n"
	    "- Δ is the target's kernel time minus the reference's; Δ % is "
	    "that over the reference's.\n"
	    "- Expected ratio: the target-to-reference time ratio the roofs "
	    "predict for the op's bound (the reference's roof over the "
	    "target's, like with like); actual ratio: the target's mean time "
	    "per instance over the reference's.\n", fp);
	fprintf(fp, "- Expected?: *yes* when the actual ratio is within %s %% "
	    "of the expected one; *likely kernel problem* when it is above "
	    "twice the expected ratio; *no (slower)* or *no (faster)* "
	    "otherwise; *n/a* without an expected ratio.\n",
	    exact(c->tolerance_pct));
	fprintf(fp, "- Recommendations: the ops judged slower or likely "
	    "kernel problems, and those on the target only, ranked by "
	    "`unexplained_time_us / target_kernel_time_us * "
	    "target_pct_gpu_time`: the target's time the hardware does not "
	    "explain, as a share of its op kernel time. Priority by that "
	    "share: above %s %% critical, %s %% high, %s %% medium, else "
	    "low.\n\n", tl_md_exact(c->rules.critical_pct),
	    tl_md_exact(c->rules.high_pct), tl_md_exact(c->rules.medium_pct));
}

/*
 * The coverage of the comparison: the rows of either side that ran faster
 * than their FLOPs or bytes take at that GPU's peak roof (tl-compare's
 * above_peak_pct), each with its side, % of the peak roof and cause; at
 * most max (a listing limit), the count of the rest after them.
 */
static void
coverage(FILE *fp, const struct tl_cmpfind *c, int max)
{
	int i, k, n = 0;

	fputs("### Coverage\n\n", fp);
	if (c->nabove[REF] + c->nabove[TGT] == 0) {
		fprintf(fp, "**Above the peak roof:** none: no op of either "
		    "side took less time than its FLOPs or bytes take at its "
		    "GPU's peak roof (by more than %s %%).\n\n",
		    tl_md_exact(TL_PEAK_TOL_PCT));
		return;
	}
	fprintf(fp, "**Above the peak roof:** %d op%s of the reference "
	    "(%s ms) and %d of the target (%s ms) took less time than their "
	    "FLOPs or bytes take at the GPU's peak roof (by more than %s %%). "
	    "No kernel goes beyond the physical limit, so their efficiency is "
	    "no result and is left empty; their time still counts in the "
	    "timelines, the categories and the ratios.\n\n"
	    "| Operation | Side | %% of the peak roof | Time (ms) | Cause |\n"
	    "|---|---|---|---|---|\n", c->nabove[REF],
	    c->nabove[REF] == 1 ? "" : "s", tl_md_ms(c->above_ns[REF]),
	    c->nabove[TGT], tl_md_ms(c->above_ns[TGT]),
	    tl_md_exact(TL_PEAK_TOL_PCT));
	for (i = 0; i < c->nrow; i++)
		for (k = 0; k < 2; k++) {
			const struct tl_cside *s = &c->row[i].s[k];

			if (!s->has || isnan(s->above_peak_pct))
				continue;
			if (n++ == max)
				continue;
			fputs("| ", fp);
			tl_md_op(fp, c->row[i].name, c->row[i].dims);
			fprintf(fp, " | %s | %s | %s | ", k == REF ?
			    "reference" : "target",
			    tl_md_num(s->above_peak_pct, 0),
			    tl_md_ms(s->time_ns));
			tl_md_code(fp, s->perf_error, 400);
			fputs(" |\n", fp);
		}
	if (n > max)	/* not a verdict: a listing limit */
		fprintf(fp, "\n%d more in the rough report (and in the "
		    "stream's `ref_above_peak_pct`, `target_above_peak_pct`).\n",
		    n - max);
	fputc('\n', fp);
}

static void
appendix(FILE *fp, const struct tl_cmpfind *c, const struct tl_report_opts *o,
    int max)
{
	fputs("## Appendix\n\n### Hardware used for the expectations\n\n- "
	    "The reference", fp);
	side_note(fp, c, REF);
	fputs(" and the target", fp);
	side_note(fp, c, TGT);
	fputs(" are measured against roofs of one kind:\n", fp);
	roof_kinds(fp, c);
	fputc('\n', fp);
	expectations(fp, c);
	fprintf(fp, "### Verdicts under the other roof kind\n\n");
	other_verdicts(fp, c);
	coverage(fp, c, max);
	method(fp, c);
	charts(fp, o);
}

void
tl_cmpreport_fair(FILE *fp, const struct tl_cmpfind *c,
    const struct tl_report_opts *o)
{
	char id[32];
	int i, n;

	title(fp, c, o, "");
	summary(fp, c);
	fputs("---\n\n## Recommendations for the target", fp);
	side_note(fp, c, TGT);
	fputs("\n\n", fp);
	if (c->nitem == 0)
		no_findings(fp);
	else
		fputs("Ranked by the target's time that can be recovered, as a "
		    "share of its op kernel time: for an op, the time the "
		    "hardware does not explain; for a pattern or a timeline "
		    "gap, what the target loses beyond the reference.\n\n",
		    fp);
	for (i = 0; i < c->nitem && i < FAIR_RECS; i++) {
		if (c->item[i].row >= 0)
			recommendation(fp, c, &c->row[c->item[i].row]);
		else
			gap_recommendation(fp, c, &c->gap[c->item[i].gap],
			    i + 1);
		fputs("---\n\n", fp);
	}
	if (c->nitem > FAIR_RECS)	/* not a verdict: a listing limit */
		fprintf(fp, "%d more, each below %s %% of the target's op "
		    "kernel time, are in the rough report.\n\n",
		    c->nitem - FAIR_RECS,
		    tl_md_num(c->item[FAIR_RECS - 1].score, 2));

	fputs("## Detailed Comparison\n\n### Matched ops by the target's "
	    "time\n\n", fp);
	ops_table(fp, c, o->top);
	for (i = 0, n = 0; i < c->nitem && i < FAIR_RECS; i++) {
		const struct tl_crow *w;

		if (c->item[i].row < 0)
			continue;
		w = &c->row[c->item[i].row];

		anchor_id(id, sizeof(id), c, w);
		tl_md_anchor(fp, id);
		fprintf(fp, "### %d. ", ++n);
		tl_md_op(fp, w->name, w->dims);
		fputs("\n\n", fp);
		measures(fp, w);
		op_facts(fp, w);
	}
	fputs("### Patterns on each side\n\n", fp);
	patterns_table(fp, c);
	fputs("### Idle by culprit: what the host did while the GPU "
	    "waited\n\n", fp);
	tl_md_culprit_compare(fp, c->side[REF], c->side[TGT], 15);
	fputs("### Where the reference may be inefficient\n\n", fp);
	fast_table(fp, c, FAIR_RECS);
	fputs("### Ops on one side only\n\n", fp);
	one_sided(fp, c);
	fputs("### Layout differences\n\n", fp);
	layouts(fp, c);
	fputs("---\n\n", fp);
	appendix(fp, c, o, FAIR_PEAK);
}

/* The signature and perf model of a row (rough report). */
static void
raw_signature(FILE *fp, const struct tl_crow *w)
{
	fputs("- **Signature**: dtypes ", fp);
	tl_md_code(fp, w->types, 200);
	fputs(", strides ", fp);
	tl_md_code(fp, w->strides, 200);
	if (w->concrete[strspn(w->concrete, "[]\",")] != '\0') {
		fputs(", concrete inputs ", fp);
		tl_md_code(fp, w->concrete, 200);
	}
	fprintf(fp, "; category %s, direction %s\n", w->category[0] != '\0' ?
	    w->category : "n/a", w->direction[0] != '\0' ? w->direction :
	    "n/a");
	fputs("- **Perf model**: ", fp);
	if (w->perf_model[0] == '\0')
		fputs("none", fp);
	else
		tl_md_code(fp, w->perf_model, 40);
	if (w->compute_spec[0] != '\0') {
		fputs(", ", fp);
		tl_md_code(fp, w->compute_spec, 40);
	}
	if (w->has_flops)
		fprintf(fp, "; %lld FLOPs", (long long)w->flops);
	if (w->has_bytes)
		fprintf(fp, "; %lld bytes", (long long)w->bytes);
	fprintf(fp, " per instance; bound %s\n\n", w->bound[0] != '\0' ?
	    w->bound : "n/a");
}

/* Both sides' raw numbers (rough report). */
static void
raw_table(FILE *fp, const struct tl_cside *r, const struct tl_cside *t)
{
	fputs("| | Reference | Target |\n|---|---|---|\n", fp);
	fprintf(fp, "| Instances | %s | %s |\n", count_text(r),
	    count_text(t));
	fprintf(fp, "| Kernel time (µs) | %s | %s |\n", us_text(r),
	    us_text(t));
	fprintf(fp, "| Mean per instance (µs) | %s | %s |\n",
	    exact(r->mean_us), exact(t->mean_us));
	fprintf(fp, "| TFLOPS/s | %s | %s |\n| TB/s | %s | %s |\n",
	    num(r->tflops_s, 3), num(t->tflops_s, 3), num(r->tbs, 4),
	    num(t->tbs, 4));
	fprintf(fp, "| %% of roofline | %s | %s |\n| %% of its op kernel "
	    "time | %s | %s |\n", roof_text(r, 2),
	    roof_text(t, 2), num(r->pct_gpu, 3), num(t->pct_gpu, 3));
	fprintf(fp, "| Compute roof (TFLOPS/s) | %s %s | %s %s |\n",
	    exact(r->peak_tflops), kind(r->roof), exact(t->peak_tflops),
	    kind(t->roof));
	fprintf(fp, "| Bandwidth roof (TB/s) | %s %s | %s %s |\n\n",
	    exact(r->peak_tbs), kind(r->bw_roof), exact(t->peak_tbs),
	    kind(t->bw_roof));
}

/* A recommended row's score and rank, or the pattern that covers it. */
static void
rank_note(FILE *fp, const struct tl_cmpfind *c, const struct tl_crow *w)
{
	int i;

	if (w->candidate && w->rank > 0)
		fprintf(fp, "; score %s %% (rank %d)", tl_md_num(w->score, 3),
		    w->rank);
	for (i = 0; w->in_pat > 0 && i < c->nitem; i++)
		if (c->item[i].gap == w->in_pat - 1)
			fprintf(fp, "; part of the pattern of rank %d", i + 1);
}

/* Δ, the ratios, the band, the unexplained time (rough report). */
static void
raw_calc(FILE *fp, const struct tl_cmpfind *c, const struct tl_crow *w)
{
	const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];
	double p = c->tolerance_pct / 100;

	fprintf(fp, "- Δ = %s − %s = %s µs (%s %% of the reference)\n",
	    tl_md_us(t->time_ns), tl_md_us(r->time_ns), tl_md_us(w->delta_ns),
	    dpct(w->delta_pct));
	fputs("- Expected ratio: ", fp);
	derivation(fp, w, 1);
	fprintf(fp, "\n- Actual ratio = %s / %s = %s\n", num(t->mean_us, 3),
	    num(r->mean_us, 3), exact(w->actual));
	if (isnan(w->expected) || isnan(w->actual)) {
		fprintf(fp, "- Expected?: %s\n", tl_cexp_text(w->exp));
		return;
	}
	fprintf(fp, "- Band within %s %%: %s to %s; explained: %s; "
	    "Expected?: **%s**\n", exact(c->tolerance_pct),
	    num(w->expected / (1 + p), 4), num(w->expected * (1 + p), 4),
	    w->explained[0] != '\0' ? w->explained : "n/a",
	    tl_cexp_text(w->exp));
	fprintf(fp, "- Unexplained = %s − %s × %s × %lld = %s µs (0 when not "
	    "positive)", tl_md_us(t->time_ns), tl_md_exact(w->expected),
	    tl_md_exact(r->mean_us), t->count, exact(w->unexplained_us));
	rank_note(fp, c, w);
	fputc('\n', fp);
	if (c->roof_kind[0] != '\0')
		fprintf(fp, "- Under %s roofs: expected ratio %s, Expected?: "
		    "%s\n", other_kind(c), exact(w->other_expected),
		    tl_cexp_text(w->other_exp));
}

/* Every number of a row, with the calculations (rough report). */
static void
raw_op(FILE *fp, const struct tl_cmpfind *c, const struct tl_crow *w)
{
	char id[32];

	anchor_id(id, sizeof(id), c, w);
	tl_md_anchor(fp, id);
	fprintf(fp, "#### %d. ", (int)(w - c->row) + 1);
	tl_md_op(fp, w->name, w->dims);
	fputs("\n\n", fp);
	raw_signature(fp, w);
	raw_table(fp, &w->s[REF], &w->s[TGT]);
	if (w->match == TL_CM_BOTH)
		raw_calc(fp, c, w);
	else if (w->form == TL_CF_GROUP) {
		fputs("- In a group matched with the other side's ops: ", fp);
		tl_md_text(fp, w->layout_note, 200);
		fputc('\n', fp);
	} else if (w->candidate) {
		fputs("- On the target only: all its time is unexplained", fp);
		rank_note(fp, c, w);
		fputc('\n', fp);
	} else
		fputs("- On the reference only: nothing to improve on the "
		    "target\n", fp);
	layout_kernels(fp, w);
}

static void
ranking(FILE *fp, const struct tl_cmpfind *c)
{
	int i;

	if (c->nitem == 0) {
		no_findings(fp);
		return;
	}
	fputs("| Rank | Operation | Expected? | Target (ms) | Unexplained (ms) "
	    "| Target share (%) | Score (%) | Priority |\n"
	    "|---|---|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < c->nitem; i++) {
		const struct tl_crow *w;

		if (c->item[i].gap >= 0) {
			const struct tl_cgap *g = &c->gap[c->item[i].gap];

			fprintf(fp, "| %d | ", i + 1);
			gap_title(fp, c, g);
			fprintf(fp, " | %s | %s | %s | %s | %s | %s |\n",
			    g->kind == TL_CG_TIMELINE ? "timeline" :
			    g->kind == TL_CG_GROUP ? "group" : "pattern",
			    tl_md_ms(g->ns[TGT]), tl_md_ms(g->save_ns),
			    tl_md_num(pct((double)g->ns[TGT],
			    c->op_total_us * 1e3), 3), tl_md_num(g->score, 3),
			    tl_priority_name(g->prio));
			continue;
		}
		w = &c->row[c->item[i].row];

		fprintf(fp, "| %d | ", w->rank);
		tl_md_op(fp, w->name, w->dims);
		fprintf(fp, " | %s | %s | %s | %s | %s | %s |\n",
		    w->match == TL_CM_TARGET_ONLY ? "target only" :
		    tl_cexp_text(w->exp), tl_md_ms(w->s[TGT].time_ns),
		    tl_md_ms((int64_t)(w->unexplained_us * 1e3 + 0.5)),
		    num(w->s[TGT].pct_gpu, 3), tl_md_num(w->score, 3),
		    tl_priority_name(w->prio));
	}
	fputc('\n', fp);
}

static void
questions(FILE *fp, const struct tl_cmpfind *c)
{
	int i, n = 0, k;

	fputs("## Questions for Further Investigation\n\n", fp);
	for (i = 0, k = 0; i < c->nrec && k < QUESTIONS; i++) {
		const struct tl_crow *w = &c->row[c->rec[i]];

		if (w->exp != TL_CE_KERNEL)
			continue;
		fputs("- Which kernel and configuration does the target run "
		    "for ", fp);
		tl_md_op(fp, w->name, w->dims);
		fputs("? Replay it on both GPUs (`tl-replay`) and profile the "
		    "target's kernel with hardware counters.\n", fp);
		k++;
		n++;
	}
	for (i = 0, k = 0; i < c->nrow && k < QUESTIONS; i++) {
		const struct tl_crow *w = &c->row[i];

		if (!w->unexplained)
			continue;
		fputs("- ", fp);
		tl_md_op(fp, w->name, w->dims);
		fprintf(fp, " differs by %s %% and has no hardware "
		    "expectation: a perf model (`tl-perfmodel --models`) would "
		    "tell whether the hardware explains it.\n",
		    dpct(w->delta_pct));
		k++;
		n++;
	}
	if (c->nexp[TL_CE_FASTER] > 0) {
		fprintf(fp, "- %d matched op%s less time on the target than "
		    "the roofs predict: the reference's kernels may have room "
		    "there, a question for its own analysis.\n",
		    c->nexp[TL_CE_FASTER], c->nexp[TL_CE_FASTER] == 1 ?
		    " takes" : "s take");
		n++;
	}
	if (c->nmatch[TL_CM_REF_ONLY] + c->nmatch[TL_CM_TARGET_ONLY] > 0) {
		fputs("- The ops of one side only: which ops of the other side "
		    "do the same work? Read both traces' call stacks "
		    "(the call_stack column; `tl-parse --stack` for the whole "
		    "stack) around them.\n", fp);
		n++;
	}
	if (n == 0)
		fputs("- None.\n", fp);
	fputc('\n', fp);
}

void
tl_cmpreport_rough(FILE *fp, const struct tl_cmpfind *c,
    const struct tl_report_opts *o)
{
	int i, e;

	title(fp, c, o, " (rough)");
	fputs("## Analysis Process Summary\n\n### Step 1: Inputs\n\n- "
	    "The reference", fp);
	side_note(fp, c, REF);
	fputs(" and the target", fp);
	side_note(fp, c, TGT);
	fprintf(fp, "\n- %d rows: %d matched (%d with other strides), %d on "
	    "the reference only, %d on the target only\n- tolerance of the "
	    "expected ratio: %s %%\n\n", c->nrow, c->nmatch[TL_CM_BOTH],
	    c->nlayout, c->nmatch[TL_CM_REF_ONLY],
	    c->nmatch[TL_CM_TARGET_ONLY], exact(c->tolerance_pct));
	fputs("### Step 2: GPU timelines\n\n", fp);
	timeline_table(fp, c, 1);
	fputs("### Step 3: Kernel time by category\n\n", fp);
	category_table(fp, c);
	fputs("### Step 4: Hardware expectations\n\n", fp);
	expectations(fp, c);
	fputs("### Step 5: Judgement of the matched ops\n\n"
	    "| Expected? | Matched ops | Target time (ms) |\n|---|---|---|\n",
	    fp);
	for (e = TL_CE_YES; e <= TL_CE_N; e++) {
		int64_t ns = 0;
		int x = e % TL_CE_N;	/* n/a last */

		for (i = 0; i < c->nrow; i++)
			if (c->row[i].match == TL_CM_BOTH &&
			    (int)c->row[i].exp == x)
				ns += c->row[i].s[TGT].time_ns;
		fprintf(fp, "| %s | %d | %s |\n", tl_cexp_text(x), c->nexp[x],
		    tl_md_ms(ns));
	}
	fputs("\n### Step 6: Ranking of the target's gaps\n\n", fp);
	ranking(fp, c);
	fputs("### Step 7: Matched ops\n\n", fp);
	ops_table(fp, c, c->nrow);
	fputs("## Raw Data Exploration\n\n### Matched ops\n\n", fp);
	for (i = 0; i < c->nrow; i++)
		if (c->row[i].match == TL_CM_BOTH)
			raw_op(fp, c, &c->row[i]);
	fputs("### Ops on one side only\n\n", fp);
	one_sided(fp, c);
	for (i = 0; i < c->nrow; i++)
		if (c->row[i].match != TL_CM_BOTH)
			raw_op(fp, c, &c->row[i]);
	fputs("### Layout differences\n\n", fp);
	layouts(fp, c);
	fputs("### Patterns on each side\n\n", fp);
	patterns_table(fp, c);
	fputs("### Idle by culprit: what the host did while the GPU "
	    "waited\n\n", fp);
	tl_md_culprit_compare(fp, c->side[REF], c->side[TGT], 15);
	fputs("### Where the reference may be inefficient\n\n", fp);
	fast_table(fp, c, c->nrow);
	questions(fp, c);
	appendix(fp, c, o, c->nrow * 2);
}
