/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <string.h>

#include "analysis/gemmcause.h"
#include "render/gemmtext.h"
#include "render/mdtext.h"

static const char *const cause_title[] = {
	[TL_GC_FEW_TILES] = "GEMM with fewer output tiles than compute units",
	[TL_GC_LAST_WAVE] = "GEMM whose last wave of tiles is mostly empty",
	[TL_GC_PAD] = "GEMM dimensions not multiples of the alignment",
	[TL_GC_SKINNY] = "Tall-skinny GEMM, memory-bound by its shape",
	[TL_GC_FP32] = ("FP32 GEMMs and convolutions on a GPU with faster "
	    "matrix units"),
};

void
tl_gemm_title(FILE *fp, const struct tl_fpat *p)
{
	fputs(p->gs.cause == TL_GC_SKINNY && p->gs.thin == 1 ?
	    "GEMV-shaped GEMM (one output row or column), memory-bound by its "
	    "shape" : cause_title[p->gs.cause], fp);
}

const char *
tl_precision_advice(unsigned prec)
{
	if ((prec & TL_PREC_BF16) && (prec & TL_PREC_TF32))
		return "BF16 (or FP16) mixed precision with `torch.autocast`, "
		    "and TF32 for what stays FP32 "
		    "(`torch.set_float32_matmul_precision(\"high\")`)";
	if (prec & TL_PREC_BF16)
		return "BF16 (or FP16) mixed precision with `torch.autocast`";
	if (prec & TL_PREC_FP16)
		return "FP16 mixed precision with `torch.autocast` and a "
		    "`GradScaler` in training (this GPU's matrix units run FP16 "
		    "and FP32 only)";
	return NULL;
}

static void
shape(FILE *fp, const struct tl_fpat *p)
{
	fprintf(fp, "M x N x K = %lld x %lld x %lld", (long long)p->gs.m,
	    (long long)p->gs.n, (long long)p->gs.k);
	if (p->gs.b != 1)
		fprintf(fp, " (batch %lld)", (long long)p->gs.b);
}

void
tl_gemm_issue(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	const char *adv;

	switch (p->gs.cause) {
	case TL_GC_FEW_TILES:
	case TL_GC_LAST_WAVE:
		fputs("the output of ", fp);
		shape(fp, p);
		fprintf(fp, " splits into %lld tiles of %lld x %lld (the tile "
		    "in the kernel's name; the column-major library runs its "
		    "first size along N), and the GPU has %d compute units "
		    "(GPU table): at one tile per compute unit at a time that "
		    "is %lld wave%s, ", (long long)p->gs.tiles,
		    (long long)p->tile_m, (long long)p->tile_n, p->gs.cus,
		    (long long)p->gs.waves, p->gs.waves == 1 ? "" : "s");
		if (p->gs.cause == TL_GC_FEW_TILES)
			fprintf(fp, "with %lld of the %d compute units busy "
			    "(%s %%) and the rest idle: %s ms.",
			    (long long)p->gs.tiles, p->gs.cus,
			    tl_md_num(p->gs.last_fill, 1), tl_md_ms(p->time_ns));
		else
			fprintf(fp, "the last one keeping %s %% of the compute "
			    "units busy, so %s %% of the compute units' time "
			    "goes idle: %s ms.", tl_md_num(p->gs.last_fill, 1),
			    tl_md_num(100 - (double)p->gs.tiles * 100 /
			    (double)(p->gs.waves * p->gs.cus), 1),
			    tl_md_ms(p->time_ns));
		break;
	case TL_GC_PAD:
		shape(fp, p);
		fprintf(fp, " has dimensions that are not multiples of %d "
		    "elements (16 bytes), which the fast kernels need; padded "
		    "to %lld x %lld x %lld it would take ", p->align_want,
		    (long long)p->gs.pm, (long long)p->gs.pn, (long long)p->gs.pk);
		if (p->gs.ref_op >= 0) {
			fprintf(fp, "its roofline time at %s %% of it, the "
			    "efficiency of the nearest aligned GEMM of this "
			    "precision in the trace, ",
			    tl_md_num(p->gs.ref_eff, 1));
			tl_md_op(fp, f->op[p->gs.ref_op].name,
			    f->op[p->gs.ref_op].dims);
		} else
			fprintf(fp, "its roofline time at %s-%s %% of it (an "
			    "estimate: the efficiency a GEMM is expected to "
			    "reach; the trace has no aligned GEMM of this "
			    "precision to compare with)",
			    tl_md_num(f->rules.gemm_expect_lo, 0),
			    tl_md_num(f->rules.gemm_expect_hi, 0));
		fprintf(fp, ": %s ms now.", tl_md_ms(p->time_ns));
		break;
	case TL_GC_SKINNY:
		shape(fp, p);
		fprintf(fp, ": one output dimension is %lld, so each weight "
		    "element read serves %lld row%s and the GEMM is "
		    "memory-bound by its shape, whatever the kernel: %s ms.",
		    (long long)p->gs.thin, (long long)p->gs.thin,
		    p->gs.thin == 1 ? "" : "s", tl_md_ms(p->time_ns));
		break;
	case TL_GC_FP32:
		fprintf(fp, "%lld FP32 GEMM or convolution call%s %s ms "
		    "on a GPU whose matrix units run ", p->calls,
		    p->calls == 1 ? " takes" : "s take", tl_md_ms(p->time_ns));
		adv = p->gs.prec & TL_PREC_BF16 ? "BF16" : "FP16";
		fprintf(fp, "%s at %s TFLOPS against %s TFLOPS in FP32 (GPU "
		    "table, dense peaks).", adv, tl_md_num(p->gs.tflops16, 0),
		    tl_md_num(p->gs.tflops32, 1));
		break;
	}
}

void
tl_gemm_action(FILE *fp, const struct tl_fpat *p)
{
	const char *adv;

	switch (p->gs.cause) {
	case TL_GC_FEW_TILES:
		fputs("Path A: give each call more work (a larger batch or "
		    "sequence) or merge GEMMs that share an input (Q, K and V) "
		    "into one. Or, keeping the model as is (Path B): a split-K "
		    "or stream-K kernel spreads K over the idle compute units "
		    "(the GEMM library's tuning, `torch.compile` with "
		    "`mode=\"max-autotune\"`, or a reproducer for the library "
		    "team with `tl-replay`).", fp);
		break;
	case TL_GC_LAST_WAVE:
		fputs("Path A: a shape whose tiles fill whole waves (batch or "
		    "sequence length). Or, keeping the model as is (Path B): "
		    "a tile size that divides the output into whole waves, or "
		    "a stream-K kernel (the GEMM library's tuning, "
		    "`torch.compile` with `mode=\"max-autotune\"`, or "
		    "`tl-replay` for the library team).", fp);
		break;
	case TL_GC_PAD:
		fprintf(fp, "Path A: pad the odd dimensions (the vocabulary, "
		    "the hidden size or the sequence length) to multiples of "
		    "%d, or of 64 for the large ones. Or, keeping the model as "
		    "is (Path B): give the shape to the GEMM library team "
		    "(`tl-replay`); an aligned kernel with an edge case would "
		    "serve it.", p->align_want);
		break;
	case TL_GC_SKINNY:
		fprintf(fp, "Path A: more rows per call (more tokens per step, "
		    "batched requests, or merged calls) so each weight read "
		    "serves more rows; lower-precision weights (%s) cut the "
		    "bytes read. Or, keeping the model as is (Path B): a "
		    "GEMV or skinny-GEMM kernel that reaches the memory "
		    "bandwidth (`tl-replay` for the library team).",
		    tl_lowbit_weights(p->gs.prec));
		break;
	case TL_GC_FP32:
		adv = tl_precision_advice(p->gs.prec);
		fprintf(fp, "Path A: %s; check the accuracy. Or, keeping the "
		    "model as is (Path B): none; FP32 runs on the slower "
		    "units.", adv != NULL ? adv : "a lower precision");
		break;
	}
}

void
tl_gemm_impact(FILE *fp, const struct tl_fpat *p)
{
	switch (p->gs.cause) {
	case TL_GC_FEW_TILES:
	case TL_GC_LAST_WAVE:
		fputs(": the time of the idle compute units, never below the "
		    "roofline time (an upper bound)", fp);
		break;
	case TL_GC_PAD:
		fputs(p->gs.estimate ? ": its time minus the padded shape's at "
		    "the expected efficiency (an estimate)" : ": its time "
		    "minus the padded shape's at the aligned GEMM's "
		    "efficiency", fp);
		break;
	case TL_GC_SKINNY:
		fputs(" if the GEMM reaches 50-80 % of its (memory) roofline",
		    fp);
		break;
	case TL_GC_FP32:
		fputs(": half its time (half the bytes) up to the ratio of "
		    "the matrix rates (an estimate)", fp);
		break;
	}
}
