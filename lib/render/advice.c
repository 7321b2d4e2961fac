/* See LICENSE file for copyright and license details. */
#include <string.h>

#include "render/advice.h"
#include "render/mdtext.h"
#include "stream/category.h"

void
tl_advice_title(FILE *fp, const struct tl_fop *op)
{
	tl_md_code(fp, op->name, 80);
	if (op->dims[0] != '\0') {
		fputc(' ', fp);
		tl_md_code(fp, op->dims, 60);
	}
	fprintf(fp, ": %s", op->pattern != NULL ? op->pattern :
	    strcmp(op->bound, "memory") == 0 ? "memory-bound, below roofline" :
	    strcmp(op->bound, "compute") == 0 ? "compute-bound, below roofline" :
	    "below roofline");
}

void
tl_advice_issue(FILE *fp, const struct tl_fop *op)
{
	fprintf(fp, "%s op runs at %s %% of its roofline",
	    tl_category(op->cat)->title, tl_md_num(op->eff, 1));
	if (op->bound[0] != '\0') {
		fputs(" (", fp);
		tl_md_text(fp, op->bound, 20);
		fprintf(fp, "-bound, %s FLOPs/byte)", tl_md_num(op->fpb, 1));
	}
	if (op->has_base)
		fprintf(fp, "; its bandwidth is %s %% of what simple "
		    "elementwise ops reach in this trace", tl_md_num(op->pct_base,
		    1));
	if (tl_category_is(op->cat, "conv") && op->layout_ns > 0)
		fprintf(fp, "; %s %% of its GPU time is layout-conversion "
		    "kernels", tl_md_num((double)op->layout_ns /
		    (double)op->time_ns * 100, 1));
	fputs(".", fp);
}

/* 1 if the findings hold a pattern of kind k. */
static int
has_pattern(const struct tl_findings *f, enum tl_patkind k)
{
	int i;

	for (i = 0; i < f->npat; i++)
		if (f->pat[i].kind == k && f->pat[i].time_ns > 0)
			return 1;
	return 0;
}

/* 1 if a batch norm runs in training: its flag, else backward ops. */
static int
training(const struct tl_findings *f, const struct tl_fop *op)
{
	return op->training >= 0 ? op->training : f->cov.bwd;
}

static const char *
gemm_algorithmic(const struct tl_fop *op)
{
	if (op->pattern != NULL && strcmp(op->pattern,
	    "tiny batched GEMMs") == 0) {
		if (op->batch > 1)
			return "The GEMM is already batched (one call holds "
			    "every small matrix): the matrices themselves are "
			    "tiny, so fuse it with its neighbours (a fused "
			    "attention kernel when it is attention's QK^T or "
			    "AV, torch.compile otherwise) or make each matrix "
			    "larger.";
		return "Batch the small GEMMs into fewer, larger ones "
		    "(torch.bmm or a grouped GEMM), or let torch.compile "
		    "combine them.";
	}
	if (op->pattern != NULL && strcmp(op->pattern,
	    "quantized GEMM") == 0)
		return "Validate the quantization scheme and its "
		    "scaling; keep the scales per tensor or per row as "
		    "the fast kernels expect.";
	if (strcmp(op->bound, "memory") == 0) {
		if (op->operands == TL_OPND_ACTIVATIONS)
			return "The GEMM multiplies two activations (no "
			    "weights, so weight quantization does not apply): "
			    "fuse it with its neighbours, a fused attention "
			    "kernel when it is attention's QK^T or AV, "
			    "torch.compile otherwise.";
		if (op->operands == TL_OPND_WEIGHTS)
			return op->gpu_prec & TL_PREC_FP8 ? "Fuse the GEMM "
			    "with its neighbours (torch.compile) to cut memory "
			    "traffic, or use lower-precision weights (FP8, "
			    "W8A8) after checking accuracy." : "Fuse the GEMM "
			    "with its neighbours (torch.compile) to cut memory "
			    "traffic, or use lower-precision weights (INT8 "
			    "weight-only, W8A8) after checking accuracy.";
		return op->gpu_prec & TL_PREC_FP8 ? "Fuse the GEMM with its "
		    "neighbours (torch.compile) to cut memory traffic; where "
		    "one operand is a weight, lower-precision weights (FP8, "
		    "W8A8) after checking accuracy." : "Fuse the GEMM with its "
		    "neighbours (torch.compile) to cut memory traffic; where "
		    "one operand is a weight, lower-precision weights (INT8 "
		    "weight-only, W8A8) after checking accuracy.";
	}
	if (op->batch > 1)
		return "The GEMM is already batched; give each call more "
		    "work (larger batches or sequences) or let torch.compile "
		    "fuse around it.";
	return "Check whether larger or fewer GEMMs (batching, "
	    "merging projections such as Q/K/V) are possible; "
	    "torch.compile can batch and fuse around them.";
}

const char *
tl_advice_algorithmic(const struct tl_findings *f, const struct tl_fop *op)
{
	const struct tl_fcat *conv = tl_findings_cat(f, "conv");

	if (tl_category_is(op->cat, "gemm"))
		return gemm_algorithmic(op);
	if (tl_category_is(op->cat, "conv")) {
		if (has_pattern(f, TL_PAT_LAYOUT) &&
		    !tl_findings_cat(f, "batchnorm")->present)
			return "Beyond channels_last (the layout "
			    "recommendation), fuse the convolution with the ops "
			    "that follow it (bias, activation) with "
			    "torch.compile.";
		if (has_pattern(f, TL_PAT_LAYOUT))
			return training(f, op) ? "Beyond channels_last (the "
			    "layout recommendation), fuse the convolution with "
			    "the following normalization and activation "
			    "(torch.compile)." : "Beyond channels_last (the "
			    "layout recommendation), fold batchnorm into the "
			    "convolution and fuse the activation "
			    "(torch.compile).";
		if (conv->layout_level != TL_LEVEL_LOW)
			return "Run the model in channels_last: "
			    "model.to(memory_format=torch.channels_last) (and the "
			    "inputs), which removes the layout-conversion "
			    "kernels around each convolution.";
		return training(f, op) ? "Fuse the convolution with the "
		    "following normalization and activation (torch.compile)." :
		    "Fuse the convolution with the following normalization "
		    "and activation (torch.compile, or folding batchnorm into "
		    "the convolution for inference).";
	}
	if (tl_category_is(op->cat, "attention")) {
		if (strstr(op->name, "flash") != NULL ||
		    strstr(op->name, "efficient_attention") != NULL ||
		    strstr(op->name, "FlashAttention") != NULL ||
		    strstr(op->name, "EfficientAttention") != NULL ||
		    strstr(op->name, "cudnn_attention") != NULL)
			return "The attention is already fused; give each "
			    "call more work (larger batches, packed sequences) "
			    "and keep the head size one the fused kernels are "
			    "tuned for (64 or 128).";
		return "Use a fused attention kernel "
		    "(torch.nn.functional.scaled_dot_product_attention with the "
		    "flash or memory-efficient backend); pad or pack short "
		    "sequences so each call does more work.";
	}
	if (tl_category_is(op->cat, "batchnorm"))
		return training(f, op) ? "In training batchnorm cannot be "
		    "folded into the convolution: fuse it with its activation "
		    "(torch.compile), or try GroupNorm/LayerNorm where the model "
		    "allows; channels_last can help the normalization kernels "
		    "too." : "Fold batchnorm into the preceding convolution "
		    "(inference), fuse it with its activation (torch.compile), "
		    "or try GroupNorm/LayerNorm where the model allows; "
		    "channels_last can help the normalization kernels too.";
	if (tl_category_in_group(op->cat, "norm"))
		return "Use a fused normalization kernel (torch.compile or a "
		    "fused RMSNorm/LayerNorm implementation) instead of a chain "
		    "of small kernels; RMSNorm is cheaper than LayerNorm where "
		    "the model allows.";
	if (tl_category_is(op->cat, "softmax"))
		return "Fuse softmax into the attention computation (a fused "
		    "attention kernel) or with its neighbours (torch.compile).";
	if (tl_category_is(op->cat, "elementwise") ||
	    tl_category_is(op->cat, "reduce"))
		return "Fuse the elementwise and reduction chains "
		    "(torch.compile) and avoid dtype casts and copies that only "
		    "move data.";
	return "Fuse or remove the op where the model allows "
	    "(torch.compile).";
}

const char *
tl_advice_kernel(const struct tl_fop *op)
{
	return tl_advice_kernel_cat(op->cat);
}

const char *
tl_advice_kernel_cat(int cat)
{
	if (tl_category_is(cat, "gemm"))
		return "Give the shape to the vendor GEMM library team as a "
		    "reproducer (tl-replay) to check kernel selection and tile "
		    "sizes; profile the replay with hardware counters to see "
		    "why it stays below the roofline.";
	if (tl_category_is(cat, "conv"))
		return "If the layout is already right, give the convolution "
		    "to the DNN library team as a reproducer (tl-replay) to "
		    "check the kernel chosen for this geometry; profile it with "
		    "hardware counters.";
	if (tl_category_is(cat, "attention"))
		return "Replay the attention shape (tl-replay) and check which "
		    "attention kernel runs for this head size and sequence "
		    "length; profile it with hardware counters.";
	return "The op runs native framework kernels: give a "
	    "reproducer (tl-replay) to the kernel team and compare its "
	    "bandwidth with simple elementwise ops; profile it with "
	    "hardware counters to see where the time goes.";
}

double
tl_advice_time_at(const struct tl_fop *op, double pct)
{
	if (!op->has_eff || pct <= 0)
		return -1;
	return op->roofline_us * 1e3 / (pct / 100);
}
