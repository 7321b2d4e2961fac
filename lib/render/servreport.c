/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <string.h>

#include "analysis/serving.h"
#include "render/mdtext.h"
#include "render/servreport.h"

#define NAME_MAX_MD 80		/* kernel names cut beyond this */

static double
pct(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part / (double)whole * 100.0 : 0;
}

/* The three categories of a phase with the most time: "GEMM 40 %, ..." */
static void
top_cats(FILE *fp, const struct tl_sphase *ph)
{
	int done[TL_CAT_MAX] = { 0 }, k, c, best;

	for (k = 0; k < 3; k++) {
		best = -1;
		for (c = 0; c < tl_ncategories(); c++)
			if (!done[c] && ph->cat_ns[c] > 0 && (best < 0 ||
			    ph->cat_ns[c] > ph->cat_ns[best]))
				best = c;
		if (best < 0)
			break;
		done[best] = 1;
		fprintf(fp, "%s%s %s %%", k ? ", " : "", tl_category(best)->title,
		    tl_md_num(pct(ph->cat_ns[best], ph->time_ns), 1));
	}
}

static void
phases(FILE *fp, const struct tl_serving *s)
{
	int p;

	fputs("### Phases\n\n", fp);
	fputs("| Phase | Iterations | Kernel time (ms) | % of compute | "
	    "Top categories |\n|---|---:|---:|---:|---|\n", fp);
	for (p = 1; p <= TL_SPHASES; p++) {
		const struct tl_sphase *ph = &s->ph[p % TL_SPHASES];

		if (ph->rows == 0)
			continue;
		fprintf(fp, "| %s | %lld | %s | %s | ", p % TL_SPHASES ?
		    tl_sphase_names[p % TL_SPHASES] : "outside iterations",
		    ph->iterations, tl_md_ms(ph->time_ns),
		    tl_md_num(pct(ph->time_ns, s->total_ns), 1));
		top_cats(fp, ph);
		fputs(" |\n", fp);
	}
	fputc('\n', fp);
}

static void
between(FILE *fp, const struct tl_serving *s)
{
	if (s->ngaps == 0)
		return;
	fprintf(fp, "- **Host overhead between iterations:** the GPU waited "
	    "%s ms in %lld gaps between iterations (%s %% of the iterations' "
	    "GPU span; longest %s ms): the host's scheduling, sampling and "
	    "input preparation between steps. %s\n", tl_md_ms(s->gap_ns),
	    s->ngaps, tl_md_num(pct(s->gap_ns, s->span_ns), 1),
	    tl_md_ms(s->gap_max_ns), s->gap_worth ?
	    "Overlap it with the GPU (asynchronous scheduling, graph "
	    "replay of the step) or batch more per step." :
	    "Small: not worth acting on.");
}

static void
small_gemms(FILE *fp, const struct tl_serving *s)
{
	int p = s->has_phase ? 2 : 0, i;
	const struct tl_sphase *ph = &s->ph[p];

	if (ph->gemm_small_mem_ns == 0)
		return;
	fprintf(fp, "- **%s GEMMs memory-bound at small batch:** %s ms "
	    "(%s %% of compute) in GEMMs of at most %d tokens (M) that the "
	    "roofline puts on the memory side; weights are %s %% of the bytes "
	    "they move. Batch more requests per step so each weight read "
	    "serves more tokens, or quantize the weights (weight-only int8, "
	    "FP8 or int4 halve or quarter those bytes).\n",
	    p == 2 ? "Decode" : "Small-batch", tl_md_ms(ph->gemm_small_mem_ns),
	    tl_md_num(pct(ph->gemm_small_mem_ns, s->total_ns), 1), TL_SMALL_M,
	    tl_md_num(ph->weight_share_ns / (double)ph->gemm_small_mem_ns *
	    100.0, 1));
	for (i = 0; i < ph->ngemm && i < TL_STOP; i++) {
		const struct tl_sitem *g = &ph->gemm[i];

		fputs("  - ", fp);
		tl_md_op(fp, g->name, g->dims);
		fprintf(fp, ": M %lld, N %lld, K %lld, %lld call%s, %s ms, %s %% "
		    "of its roofline\n", (long long)g->m, (long long)g->n,
		    (long long)g->k, g->count, g->count == 1 ? "" : "s",
		    tl_md_ms(g->time_ns),
		    tl_md_num(g->roof_us * 1e3 / (double)g->time_ns * 100.0,
		    1));
	}
}

static void
attention(FILE *fp, const struct tl_serving *s)
{
	int p, i, any = 0;

	for (p = 0; p < TL_SPHASES; p++)
		any |= s->ph[p].nattn > 0;
	if (!any)
		return;
	fputs("- **Attention kernels by phase:**\n", fp);
	for (p = 1; p <= TL_SPHASES; p++) {
		const struct tl_sphase *ph = &s->ph[p % TL_SPHASES];

		if (ph->nattn == 0)
			continue;
		fprintf(fp, "  - %s: ", p % TL_SPHASES ?
		    tl_sphase_names[p % TL_SPHASES] : s->has_phase ?
		    "outside iterations" : "all");
		for (i = 0; i < ph->nattn && i < TL_STOP; i++) {
			fputs(i ? "; " : "", fp);
			tl_md_code(fp, ph->attn[i].name, NAME_MAX_MD);
			fprintf(fp, " %s %%", tl_md_num(pct(ph->attn[i].time_ns,
			    ph->attn_ns), 1));
		}
		fprintf(fp, " of its %s ms of attention kernels\n",
		    tl_md_ms(ph->attn_ns));
	}
	if (s->ph[1].nattn > 0 && s->ph[2].nattn > 0 &&
	    s->ph[1].attn[0].name[0] != '\0' &&
	    strcmp(s->ph[1].attn[0].name, s->ph[2].attn[0].name) == 0)
		fputs("  - Prefill and decode run the same attention kernel "
		    "most: a decode-specific (paged, split-KV) kernel usually "
		    "serves one query token per request better.\n", fp);
}

static void
moe(FILE *fp, const struct tl_serving *s)
{
	if (s->moe_ns == 0)
		return;
	fprintf(fp, "- **MoE:** %s %% of compute (%s ms)", tl_md_num(pct(
	    s->moe_ns, s->total_ns), 1), tl_md_ms(s->moe_ns));
	if (s->moe_modelled_ns > 0)
		fprintf(fp, "; its modelled grouped GEMMs (%s %% of it) run at "
		    "%s %% of their roofline", tl_md_num(pct(s->moe_modelled_ns,
		    s->moe_ns), 1), tl_md_num(s->moe_roof_us * 1e3 /
		    (double)s->moe_modelled_ns * 100.0, 1));
	else
		fputs("; none of it has a perf model: the ops that launch its "
		    "grouped GEMMs do not take the experts' weights as "
		    "arguments (`vllm::moe_forward` takes the hidden states "
		    "and the router logits; the intermediate size and top-k "
		    "are in the model's config), so their work cannot be "
		    "counted. Ops that take the weights (`vllm::"
		    "rocm_aiter_fused_moe`, `vllm::outplace_fused_experts`, "
		    "aiter's MoE stages) and the triton `matmul_ogs` kernels "
		    "under `vllm::moe_forward` are modelled", fp);
	fputs(".\n", fp);
}

static void
coverage(FILE *fp, const struct tl_serving *s)
{
	fprintf(fp, "- **Not attributed to ops:** %s %% of compute (%s ms) "
	    "ran outside any op (synthetic rows)", tl_md_num(pct(
	    s->synthetic_ns, s->total_ns), 1), tl_md_ms(s->synthetic_ns));
	if (s->graph_ns > 0)
		fprintf(fp, ", %s %% in graph launches: their kernels were "
		    "captured into graphs and the trace records no op, shape "
		    "or module for them. Without the graph-capture trace they "
		    "are analysed by kernel name only; nothing here claims "
		    "their efficiency", tl_md_num(pct(s->graph_ns,
		    s->total_ns), 1));
	fputs(".\n", fp);
}

void
tl_report_serving(FILE *fp, const struct tl_findings *f)
{
	const struct tl_serving *s = f->serv;

	if (s == NULL || !tl_serving_any(s))
		return;
	fputs("## Serving\n\n", fp);
	if (s->has_phase)
		phases(fp, s);
	between(fp, s);
	small_gemms(fp, s);
	attention(fp, s);
	moe(fp, s);
	coverage(fp, s);
	fputc('\n', fp);
}
