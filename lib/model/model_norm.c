/* See LICENSE file for copyright and license details. */
/*
 * Normalization models: batch, layer, group, instance and RMS norm,
 * forward and backward (TraceLens' Normalization classes in
 * TraceLens/PerfModel/perf_model.py).
 *
 * Notation: N = elements of the normalized input (op_shape), C =
 * num_channels, b = bytes per element of the input dtype (TraceLens uses
 * it for every tensor, the fp32 saved statistics included; so does tl),
 * w = 1 when a weight tensor is passed, bias = 1 when a bias tensor is,
 * t = 1 when the op computes statistics from its input ("training"),
 * m0 m1 m2 = the backward output_mask (grad_input, grad_weight,
 * grad_bias), each 0 or 1.
 *
 * C is dims[0][1] for batch, group and instance norm, prod(normalized_shape)
 * for layer and RMS norm (normalized_shape from the concrete input; when it
 * is not recorded, the element count of the weight).
 *
 * Batch, layer, group and instance norm forward (TraceLens' formulas):
 *	flops = 3C + 3N*t + 3C + 2N
 *	bytes = 2N*b + (2 + w + bias + 2t)*C*b
 * (2: the mean and variance, read as running statistics in eval and
 * written as batch statistics in training; 2t: the running-statistics
 * update, counted in training as TraceLens does.)  Layer and group norm
 * always compute their statistics: t = 1.
 *
 * Their backward, with dot = (t && m0) || m1 || m2 and x = t || m1:
 *	flops = 3C*!t + 4N*dot + m0*(t ? 5N : 2N)
 *	bytes = N*b (grad_out) + x*N*b (input) + m0*N*b (grad_input)
 *	      + C*b (the inverse std) + w*C*b (weight)
 *	      + (w && m1)*C*b (grad_weight) + m2*C*b (grad_bias)
 * TraceLens writes flops as C*(3*!t + 4E + ...) with E = N/C a float;
 * C*4E is 4N exactly, so tl's integers equal its values.
 *
 * RMS norm (aten::_fused_rms_norm, aten::rms_norm), R = N/C rows:
 *	flops = 2N + 2R + N*(w ? 2 : 1)	(TraceLens: (N/C)*(2C+2) + ...)
 *	bytes = 2N*b + w*C*b
 * backward (_fused_rms_norm_backward):
 *	flops = w*N + N + 6N*m0 + (w && m1)*(N + (R > 1)*N)
 *	bytes = N*b (grad_out) + N*b (input) + m0*N*b (grad_input)
 *	      + w*C*b (weight) + (w && m1)*C*b (grad_weight)
 * An input whose size is not a multiple of C fails (TraceLens' R would be
 * fractional; no valid call has it).
 *
 * The framework RMS norms (vLLM, aiter, SGLang; TraceLens'
 * extensions/rmsnorm_perf_model_extensions.py), always with a weight and
 * in inference, may add a residual before normalizing (r = 1: read it,
 * write the sum back) and quantize the output (q: write it at one byte an
 * element, with per-row scales, per-group scales or one static scale):
 *	flops = 4N + 2R + r*N + (dynamic q ? 2N : static q ? N : 0)
 *	bytes = N*b (input) + C*b (weight) + 2r*N*b (residual)
 *	      + N*(q ? 1 : b) (output) + scales*4
 * where scales = R (per row), R*ceil(C/g) (groups of g, the op's
 * group_size argument), 0 otherwise; the padded variant writes its output
 * R*ceil(C/P)*P wide (P its pad-to argument).  The fused_rms table below
 * gives each op's slots.
 *
 * primus::fused_ln_modulate (x of shape (T,B,H)), TraceLens' FusedLnModulate:
 *	flops = 12N, bytes = 2N*b + 2*B*H*b + 2*T*B*4
 * and primus::fused_ln_modulate_backward: flops = 15N,
 *	bytes = 3N*b + 2*T*B*4 + 3*B*H*b.
 *
 * When the flags are what TraceLens assumes (training, weight and bias
 * passed, the gradients asked for) these are TraceLens' numbers exactly.
 * Deviations (docs/DEVIATIONS.md), all from reading the real call:
 *  - Flags.  TraceLens tests "dims[i] is not None",
 *    always true, and bool("False"), also true.  tl: w and bi are the
 *    weight and bias slots holding a tensor; t is the concrete "training"
 *    / "use_input_stats" argument ("True"/"False"; not recorded: 1), 0 for
 *    _native_batch_norm_legit_no_training; the backward output_mask is the
 *    concrete bool list (not recorded: all true).  miopen_ and
 *    cudnn_batch_norm_backward have no such arguments: their library
 *    kernels always compute the batch-statistics gradient from the saved
 *    mean and inverse std, and the scale and bias gradients (PyTorch's
 *    own batching rule for them passes train = true and output_mask
 *    {true, true, true}), so tl uses t = 1 and m = [1, w, w]; TraceLens
 *    uses t = 0, the eval formula.
 *  - The bias counts even without a weight (TraceLens nests it under the
 *    weight).  The backward writes grad_weight and grad_bias when the
 *    mask asks, in eval too (TraceLens: only in training), reads the
 *    input and computes the sums (4N) only when a gradient needs them.
 *  - Backward grad_input: TraceLens adds 5E per channel when m0 and
 *    training, and 2E in its else branch, which is attached to m0 instead
 *    of to training; tl counts dy*invstd*w (2N) when m0 and not training,
 *    and nothing when m0 is false.  Neither case occurs in the traces.
 *  - GroupNorm backward: TraceLens' num_channels is C/groups, a float (16
 *    channels in 4 groups give 4.0), though its forward uses C.  The
 *    weight and both weight gradients have C elements, so tl uses C.
 *  - RMS norm backward writes grad_input only when m0, and grad_weight
 *    only when m1; TraceLens counts both whenever w.
 * The instance norm backward ops do not exist in PyTorch (its backward
 * runs as batch norm backward); that family fails, as TraceLens does.
 */
#include <stdint.h>
#include <string.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

/* One norm call, as read from its arguments. */
struct norm {
	const struct tl_arg *in;	/* the normalized input */
	int64_t n, c;
	int bpe;			/* 0: dtype unknown */
	int w, bias, train;
	int mask[3];
};

/* An optional tensor argument is passed: a shape with a dtype. */
static int
passed(const struct tl_opargs *o, int i)
{
	const struct tl_arg *a = tl_oparg(o, i);

	return a->kind == TL_ARG_SHAPE && tl_arg_is_tensor(a);
}

static int
is_name(const struct tl_opargs *o, const char *name)
{
	return o->name != NULL && strcmp(o->name, name) == 0;
}

static int
name_has(const struct tl_opargs *o, const char *part)
{
	return o->name != NULL && strstr(o->name, part) != NULL;
}

/* Read the normalized input from slot i; channels from its dim 1 if cdim. */
static int
input(const struct tl_opargs *o, int i, int cdim, struct norm *nm,
    struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, i);

	memset(nm, 0, sizeof(*nm));
	nm->in = a;
	if (a->kind != TL_ARG_SHAPE || !tl_arg_maybe_tensor(a))
		return tl_perf_fail(p, "argument %d (the input) is not a "
		    "tensor with a shape", i);
	if ((nm->n = tl_arg_numel(a)) < 0)
		return tl_perf_fail(p, "argument %d: bad or too large shape",
		    i);
	if (cdim) {
		if (a->nd < 2)
			return tl_perf_fail(p, "argument %d: %d-d input has no "
			    "channel dimension", i, a->nd);
		nm->c = a->dim[1];
	}
	nm->bpe = tl_dtype_bytes(a->type);
	nm->train = 1;
	nm->mask[0] = nm->mask[1] = nm->mask[2] = 1;
	p->maf = "vector";
	p->precision = tl_dtype_precision(a->type);
	return 0;
}

/* The bool in slot i; a value not recorded is dflt. */
static int
flag(const struct tl_opargs *o, int i, int dflt, int *v, const char *what,
    struct tl_perf *p)
{
	const char *ci = tl_oparg(o, i)->ci;

	if (tl_ci_blank(ci)) {
		*v = dflt;
		return 0;
	}
	if ((*v = tl_ci_truth(ci)) < 0)
		return tl_perf_fail(p, "%s (argument %d) is \"%s\", not True "
		    "or False", what, i, ci);
	return 0;
}

/* The output_mask in slot i (n entries; not recorded: all true). */
static int
mask(const struct tl_opargs *o, int i, int n, struct norm *nm,
    struct tl_perf *p)
{
	const char *ci = tl_oparg(o, i)->ci;
	int k, got;

	if (tl_ci_blank(ci))
		return 0;
	got = tl_ci_bools(ci, nm->mask, 3);
	if (got < 0 || got > n)
		return tl_perf_fail(p, "output_mask (argument %d) is \"%s\", "
		    "not a list of %d bools", i, ci, n);
	for (k = got; k < 3; k++)
		nm->mask[k] = 1;
	return 0;
}

/*
 * Channels = prod(normalized_shape) from slot i, or the weight's element
 * count (slot wi) when the shape is not recorded.
 */
static int
normalized(const struct tl_opargs *o, int i, int wi, struct norm *nm,
    struct tl_perf *p)
{
	const char *ci = tl_oparg(o, i)->ci;
	int64_t v[TL_MAXDIM], c = 1;
	int k, n;

	if (tl_ci_blank(ci)) {
		if (!passed(o, wi) || (c = tl_arg_numel(tl_oparg(o, wi))) < 0)
			return tl_perf_fail(p, "normalized_shape (argument %d) "
			    "not recorded and no weight to tell it", i);
		nm->c = c;
		return 0;
	}
	n = tl_ci_ints(ci, v, TL_MAXDIM);
	if (n < 0)
		return tl_perf_fail(p, "normalized_shape (argument %d) is "
		    "\"%s\", not a list of integers", i, ci);
	for (k = 0; k < n; k++)
		if (v[k] < 0 || tl_mul(&c, c, v[k]) < 0)
			return tl_perf_fail(p, "normalized_shape (argument "
			    "%d) is \"%s\": bad size", i, ci);
	nm->c = c;
	return 0;
}

static void
params(struct tl_perf *p, const struct norm *nm)
{
	tl_perf_param_ints(p, "op_shape", nm->in->dim, nm->in->nd);
	tl_perf_param_int(p, "num_channels", nm->c);
	tl_perf_param_bool(p, "has_bias", nm->bias);
	tl_perf_param_bool(p, "is_affine", nm->w);
	tl_perf_param_bool(p, "is_training", nm->train);
}

/* Set the counts; bytes are in units of nm->bpe. */
static int
set(struct tl_perf *p, const struct norm *nm, int64_t flops, int64_t elems,
    int ovf)
{
	int64_t bytes;

	if (ovf)
		return tl_perf_fail(p, "count overflows 64 bits");
	p->has_flops = 1;
	p->flops = flops;
	if (nm->bpe > 0) {
		if (tl_mul(&bytes, elems, nm->bpe) < 0)
			return tl_perf_fail(p, "count overflows 64 bits");
		p->has_bytes = 1;
		p->bytes = bytes;
	}
	return 0;
}

/* Forward of batch, layer, group and instance norm. */
static int
forward(struct tl_perf *p, const struct norm *nm)
{
	int64_t flops = 0, elems = 0;
	int ovf = 0;

	params(p, nm);
	tl_mac(&flops, 6, nm->c, &ovf);
	tl_mac(&flops, 3 * nm->train + 2, nm->n, &ovf);
	tl_mac(&elems, 2, nm->n, &ovf);
	tl_mac(&elems, 2 + nm->w + nm->bias + 2 * nm->train, nm->c, &ovf);
	return set(p, nm, flops, elems, ovf);
}

/* Backward of batch, layer and group norm. */
static int
backward(struct tl_perf *p, const struct norm *nm)
{
	int64_t flops = 0, elems = 0;
	int t = nm->train, m0 = nm->mask[0], m1 = nm->mask[1];
	int m2 = nm->mask[2], ovf = 0;

	params(p, nm);
	tl_mac(&flops, 3 * !t, nm->c, &ovf);
	tl_mac(&flops, 4 * ((t && m0) || m1 || m2), nm->n, &ovf);
	tl_mac(&flops, m0 ? (t ? 5 : 2) : 0, nm->n, &ovf);
	tl_mac(&elems, 1 + (t || m1) + m0, nm->n, &ovf);
	tl_mac(&elems, 1 + nm->w + (nm->w && m1) + m2, nm->c, &ovf);
	return set(p, nm, flops, elems, ovf);
}

/* Rows of an RMS norm: N/C, exact. */
static int
rows(const struct norm *nm, int64_t *r, struct tl_perf *p)
{
	if (nm->c == 0) {
		if (nm->n != 0)
			return tl_perf_fail(p, "normalized_shape has no "
			    "elements but the input has");
		*r = 0;
		return 0;
	}
	if (nm->n % nm->c != 0)
		return tl_perf_fail(p, "input of %lld elements is not a whole "
		    "number of rows of normalized_shape (%lld elements)",
		    (long long)nm->n, (long long)nm->c);
	*r = nm->n / nm->c;
	return 0;
}

/* Check a (T,B,H) input of the primus fused LN + modulate ops. */
static int
tbh(const struct norm *nm, struct tl_perf *p)
{
	if (nm->in->nd != 3)
		return tl_perf_fail(p, "input is %d-d, not (T, B, H)",
		    nm->in->nd);
	return 0;
}

/*
 * primus::fused_ln_modulate (x, scale, shift, eps) and its backward
 * (grad_out, x_norm, mean, rstd, mod_grad): TraceLens' formulas.
 */
static int
ln_modulate(const struct tl_opargs *o, int back, struct tl_perf *p)
{
	struct norm nm;
	int64_t t, b, h, flops = 0, elems = 0, f32 = 0, bytes;
	int ovf = 0;

	if (input(o, 0, 0, &nm, p) < 0 || tbh(&nm, p) < 0)
		return -1;
	t = nm.in->dim[0];
	b = nm.in->dim[1];
	h = nm.c = nm.in->dim[2];
	nm.w = nm.bias = 1;
	params(p, &nm);
	tl_mac(&flops, back ? 15 : 12, nm.n, &ovf);
	tl_mac(&elems, back ? 3 : 2, nm.n, &ovf);
	if (tl_mul(&bytes, b, h) < 0)
		ovf = 1;
	tl_mac(&elems, back ? 3 : 2, bytes, &ovf);
	if (tl_mul(&bytes, t, b) < 0)
		ovf = 1;
	tl_mac(&f32, 2 * 4, bytes, &ovf);
	if (set(p, &nm, flops, elems, ovf) < 0)
		return -1;
	if (p->has_bytes && tl_add(&p->bytes, p->bytes, f32) < 0)
		return tl_perf_fail(p, "count overflows 64 bits");
	return 0;
}

/* RMS norm forward. */
static int
rms_forward(struct tl_perf *p, const struct norm *nm, int64_t r)
{
	int64_t flops = 0, elems = 0;
	int ovf = 0;

	params(p, nm);
	tl_mac(&flops, 2 + 1 + nm->w, nm->n, &ovf);
	tl_mac(&flops, 2, r, &ovf);
	tl_mac(&elems, 2, nm->n, &ovf);
	tl_mac(&elems, nm->w, nm->c, &ovf);
	return set(p, nm, flops, elems, ovf);
}

/* RMS norm backward. */
static int
rms_backward(struct tl_perf *p, const struct norm *nm, int64_t r)
{
	int64_t flops = 0, elems = 0;
	int m0 = nm->mask[0], m1 = nm->mask[1] && nm->w, ovf = 0;

	params(p, nm);
	tl_mac(&flops, nm->w + 1 + 6 * m0 + m1 * (1 + (r > 1)), nm->n, &ovf);
	tl_mac(&elems, 2 + m0, nm->n, &ovf);
	tl_mac(&elems, nm->w + m1, nm->c, &ovf);
	return set(p, nm, flops, elems, ovf);
}

/* How a framework RMS norm quantizes its output. */
enum quant { Q_NONE, Q_ROW, Q_GROUP, Q_STATIC };

/*
 * The framework RMS norms.  Slots: the input, the weight, the residual
 * (-1: none), the group size or pad-to concrete input (-1: none).
 */
static const struct fused_rms {
	const char *op;
	int in, weight, res;
	enum quant quant;
	int group, pad;
} fused_rms[] = {
	/* aiter::rms_norm(x, weight, eps, ...); rmsnorm2d_fwd_ck likewise */
	{ "aiter::rms_norm", 0, 1, -1, Q_NONE, -1, -1 },
	{ "aiter::rmsnorm2d_fwd_ck", 0, 1, -1, Q_NONE, -1, -1 },
	/* (out, input, weight, eps) */
	{ "aiter::rmsnorm", 1, 2, -1, Q_NONE, -1, -1 },
	{ "_C::rms_norm", 1, 2, -1, Q_NONE, -1, -1 },
	{ "sgl_kernel::rmsnorm", 1, 2, -1, Q_NONE, -1, -1 },
	{ "sgl_kernel::gemma_rmsnorm", 1, 2, -1, Q_NONE, -1, -1 },
	/* (out, input, residual_in, residual_out, weight, eps, ...) */
	{ "aiter::rmsnorm2d_fwd_with_add_ck", 1, 4, 2, Q_NONE, -1, -1 },
	{ "aiter::add_rmsnorm", 1, 4, 2, Q_NONE, -1, -1 },
	/* in place: (input, residual, weight, eps) */
	{ "_C::fused_add_rms_norm", 0, 2, 1, Q_NONE, -1, -1 },
	{ "sgl_kernel::fused_add_rmsnorm", 0, 2, 1, Q_NONE, -1, -1 },
	{ "sgl_kernel::gemma_fused_add_rmsnorm", 0, 2, 1, Q_NONE, -1, -1 },
	/* (out, input, yscale, weight, eps, ...): per-row fp8 */
	{ "aiter::rmsnorm2d_fwd_with_dynamicquant_ck", 1, 3, -1, Q_ROW, -1,
	    -1 },
	/* (out, input, scale, weight, eps, group_size, ...) */
	{ "aiter::rmsnorm_quant", 1, 3, -1, Q_GROUP, 5, -1 },
	/* (x, weight, eps, group_size) and (x, residual, weight, eps, g) */
	{ "vllm::rocm_aiter_rmsnorm_fp8_group_quant", 0, 1, -1, Q_GROUP, 3,
	    -1 },
	{ "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", 0, 2, 1,
	    Q_GROUP, 4, -1 },
	/* (x, weight, eps, residual, x_pad_to_multiple) */
	{ "vllm::rocm_aiter_triton_add_rmsnorm_pad", 0, 1, 3, Q_NONE, -1, 4 },
	{ "aiter::fused_add_rmsnorm_pad_", 0, 1, 3, Q_NONE, -1, 4 },
	/* vLLM's static fp8: (out, input, weight, scale, eps) and
	   (out, input, residual, weight, scale, eps) */
	{ "_C::rms_norm_static_fp8_quant", 1, 2, -1, Q_STATIC, -1, -1 },
	{ "_C::fused_add_rms_norm_static_fp8_quant", 1, 3, 2, Q_STATIC, -1,
	    -1 },
};

enum formula { FWD, BWD, RMS, RMS_BWD, LN_MOD, LN_MOD_BWD, NO_MODEL };

#define NONE		(-1)	/* no such argument */
#define FROM_MASK	(-2)	/* bias: the output_mask's grad_bias */
#define FROM_WEIGHT	(-2)	/* output_mask: [1, w, w] */
#define EVAL		(-2)	/* training: never (0) */

/*
 * Where each norm family, or one op of it, has its arguments.  The first
 * entry of the family whose op is the op's name (or a part of it, when
 * part is set; NULL: any op) applies.
 */
struct layout {
	const char *family, *op;
	int part;
	enum formula formula;
	int in, cdim;		/* the input; channels are its dim 1 */
	int shape;		/* normalized_shape: channels, or NONE */
	int weight, bias;	/* optional tensors, NONE, FROM_MASK */
	int train;		/* the training flag; NONE: always 1; EVAL: 0 */
	int alt;		/* the flag's slot instead, when it holds a bool */
	const char *train_name;	/* the flag's name, for messages */
	int mask, nmask;	/* output_mask and its entries, NONE */
};

static const struct layout layouts[] = {
	/*
	 * Batch norm forward.  batch_norm, native_batch_norm, miopen_,
	 * cudnn_, _batch_norm_impl_index and _native_batch_norm_legit take
	 * (input, weight, bias, running_mean, running_var, training,
	 * momentum, eps, ...); _native_batch_norm_legit.no_stats (input,
	 * weight, bias, training, ...); _native_batch_norm_legit_no_training
	 * has no training argument.
	 */
	{ "batchnorm", "aten::_native_batch_norm_legit_no_training", 0, FWD,
	    0, 1, NONE, 1, 2, EVAL, NONE, NULL, NONE, 0 },
	{ "batchnorm", "aten::_native_batch_norm_legit", 0, FWD,
	    0, 1, NONE, 1, 2, 5, 3, "training", NONE, 0 },
	{ "batchnorm", NULL, 0, FWD,
	    0, 1, NONE, 1, 2, 5, NONE, "training", NONE, 0 },
	/*
	 * Batch norm backward.  native_batch_norm_backward and
	 * batch_norm_backward take (grad_out, input, weight, running_mean,
	 * running_var, save_mean, save_invstd, train, eps, output_mask, ...);
	 * _batch_norm_impl_index_backward the same after a leading
	 * impl_index; miopen_ and cudnn_batch_norm_backward (input,
	 * grad_output, weight, ..., epsilon), always the training gradient.
	 */
	{ "batchnorm_bwd", "aten::miopen_batch_norm_backward", 0, BWD,
	    0, 1, NONE, 2, FROM_MASK, NONE, NONE, NULL, FROM_WEIGHT, 0 },
	{ "batchnorm_bwd", "aten::cudnn_batch_norm_backward", 0, BWD,
	    0, 1, NONE, 2, FROM_MASK, NONE, NONE, NULL, FROM_WEIGHT, 0 },
	{ "batchnorm_bwd", "aten::_batch_norm_impl_index_backward", 0, BWD,
	    2, 1, NONE, 3, FROM_MASK, 8, NONE, "train", 10, 3 },
	{ "batchnorm_bwd", NULL, 0, BWD,
	    1, 1, NONE, 2, FROM_MASK, 7, NONE, "train", 9, 3 },
	/*
	 * Layer norm: layer_norm (input, normalized_shape, weight, bias, eps,
	 * cudnn_enable) and native_layer_norm (the same without the last);
	 * native_layer_norm_backward (grad_out, input, normalized_shape,
	 * mean, rstd, weight, bias, output_mask).
	 */
	{ "layernorm", NULL, 0, FWD,
	    0, 0, 1, 2, 3, NONE, NONE, NULL, NONE, 0 },
	{ "layernorm_bwd", NULL, 0, BWD,
	    1, 0, 2, 5, FROM_MASK, NONE, NONE, NULL, 7, 3 },
	/*
	 * Group norm: group_norm (input, num_groups, weight, bias, eps,
	 * cudnn_enabled); native_group_norm (input, weight, bias, N, C, HxW,
	 * group, eps); native_group_norm_backward (grad_out, input, mean,
	 * rstd, weight, N, C, HxW, group, output_mask).  C is the channel
	 * count, the size of the weight and of its gradients.
	 */
	{ "groupnorm", "native_group_norm", 1, FWD,
	    0, 1, NONE, 1, 2, NONE, NONE, NULL, NONE, 0 },
	{ "groupnorm", NULL, 0, FWD,
	    0, 1, NONE, 2, 3, NONE, NONE, NULL, NONE, 0 },
	{ "groupnorm_bwd", NULL, 0, BWD,
	    1, 1, NONE, 4, FROM_MASK, NONE, NONE, NULL, 9, 3 },
	/*
	 * Instance norm: instance_norm (input, weight, bias, running_mean,
	 * running_var, use_input_stats, momentum, eps, cudnn_enabled).
	 */
	{ "instancenorm", NULL, 0, FWD,
	    0, 1, NONE, 1, 2, 5, NONE, "use_input_stats", NONE, 0 },
	{ "instancenorm_bwd", NULL, 0, NO_MODEL,
	    0, 0, NONE, NONE, NONE, NONE, NONE, NULL, NONE, 0 },
	/*
	 * RMS norm: _fused_rms_norm and rms_norm (input, normalized_shape,
	 * weight, eps); _fused_rms_norm_backward (grad_out, input,
	 * normalized_shape, rstd, weight, output_mask[2]); and the primus
	 * fused LN + modulate ops.
	 */
	{ "rmsnorm", "primus::fused_ln_modulate", 0, LN_MOD,
	    0, 0, NONE, NONE, NONE, NONE, NONE, NULL, NONE, 0 },
	{ "rmsnorm", "primus::fused_ln_modulate_backward", 0, LN_MOD_BWD,
	    0, 0, NONE, NONE, NONE, NONE, NONE, NULL, NONE, 0 },
	{ "rmsnorm", NULL, 0, RMS,
	    0, 0, 1, 2, NONE, EVAL, NONE, NULL, NONE, 0 },
	{ "rmsnorm_bwd", "primus::fused_ln_modulate_backward", 0, LN_MOD_BWD,
	    0, 0, NONE, NONE, NONE, NONE, NONE, NULL, NONE, 0 },
	{ "rmsnorm_bwd", NULL, 0, RMS_BWD,
	    1, 0, 2, 4, NONE, EVAL, NONE, NULL, 5, 2 },
};

int
tl_norm_family(const char *family)
{
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (strcmp(layouts[i].family, family) == 0)
			return 1;
	return 0;
}

/* The layout of op o in a family, or NULL. */
static const struct layout *
find_layout(const char *family, const struct tl_opargs *o)
{
	const struct layout *l;
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		l = &layouts[i];
		if (strcmp(l->family, family) == 0 && (l->op == NULL ||
		    (l->part ? name_has(o, l->op) : is_name(o, l->op))))
			return l;
	}
	return NULL;
}

static const char *const qname[] = {
	"none", "per_row", "per_group", "static"
};

/* A framework RMS norm (table fused_rms). */
static int
rms_fused(const struct fused_rms *f, const struct tl_opargs *o,
    struct tl_perf *p)
{
	struct norm nm;
	int64_t r, g = 0, pad = 0, flops = 0, elems = 0, bytes = 0, n;
	int ovf = 0, q = f->quant != Q_NONE;

	if (input(o, f->in, 0, &nm, p) < 0)
		return -1;
	if (!passed(o, f->weight) ||
	    (nm.c = tl_arg_numel(tl_oparg(o, f->weight))) < 0)
		return tl_perf_fail(p, "%s: the weight (argument %d) is not a "
		    "tensor", o->name, f->weight);
	if (f->res >= 0 && !passed(o, f->res))
		return tl_perf_fail(p, "%s: the residual (argument %d) is not "
		    "a tensor", o->name, f->res);
	if (rows(&nm, &r, p) < 0)
		return -1;
	if (f->group >= 0 && (tl_ci_int(tl_oparg(o, f->group)->ci, &g) < 0 ||
	    g < 0))
		return tl_perf_fail(p, "%s: group_size (argument %d) is \"%s\", "
		    "not a size", o->name, f->group, tl_oparg(o, f->group)->ci);
	if (f->pad >= 0 && (tl_ci_int(tl_oparg(o, f->pad)->ci, &pad) < 0 ||
	    pad < 0))
		return tl_perf_fail(p, "%s: the pad-to size (argument %d) is "
		    "\"%s\", not a size", o->name, f->pad,
		    tl_oparg(o, f->pad)->ci);
	nm.w = 1;
	nm.train = 0;
	params(p, &nm);
	tl_perf_param_bool(p, "residual", f->res >= 0);
	tl_perf_param_str(p, "quant", qname[f->quant]);
	tl_mac(&flops, 4 + (f->res >= 0) + (f->quant == Q_STATIC) +
	    2 * (f->quant == Q_ROW || f->quant == Q_GROUP), nm.n, &ovf);
	tl_mac(&flops, 2, r, &ovf);
	/* Elements at the input's size: input, weight, residual twice. */
	tl_mac(&elems, 1 + 2 * (f->res >= 0), nm.n, &ovf);
	tl_mac(&elems, 1, nm.c, &ovf);
	if (pad > 0) {
		/* The output, R rows of C rounded up to P. */
		n = nm.c / pad + (nm.c % pad != 0);
		tl_mac(&elems, r, n * pad, &ovf);
	} else if (!q)
		tl_mac(&elems, 1, nm.n, &ovf);
	if (f->quant == Q_ROW)
		tl_mac(&bytes, 4, r, &ovf);
	else if (f->quant == Q_GROUP) {
		if (g == 0)
			g = nm.c;
		n = g > 0 ? nm.c / g + (nm.c % g != 0) : 0;
		tl_mac(&bytes, 4 * n, r, &ovf);
	}
	if (q)
		tl_mac(&bytes, 1, nm.n, &ovf);
	if (set(p, &nm, flops, elems, ovf) < 0)
		return -1;
	if (p->has_bytes && tl_add(&p->bytes, p->bytes, bytes) < 0)
		return tl_perf_fail(p, "count overflows 64 bits");
	return 0;
}

int
tl_model_norm(const char *family, const struct tl_opargs *o, int bwd,
    struct tl_perf *p)
{
	const struct layout *l = find_layout(family, o);
	struct norm nm;
	int64_t r = 0;
	int ts;

	if (l == NULL)
		return tl_perf_fail(p, "%s: not a norm family", family);
	for (size_t i = 0; !bwd && strcmp(family, "rmsnorm") == 0 &&
	    i < sizeof(fused_rms) / sizeof(fused_rms[0]); i++)
		if (is_name(o, fused_rms[i].op))
			return rms_fused(&fused_rms[i], o, p);
	if (l->formula == NO_MODEL)
		return tl_perf_fail(p, "%s: PyTorch has no instance norm "
		    "backward op (it runs as batch norm backward); no model",
		    o->name != NULL ? o->name : "instance norm backward");
	if (bwd)
		return tl_perf_fail(p, "%s has no backward model; its backward "
		    "op has its own row", o->name != NULL ? o->name : "the op");
	if (l->formula == LN_MOD || l->formula == LN_MOD_BWD)
		return ln_modulate(o, l->formula == LN_MOD_BWD, p);
	if (input(o, l->in, l->cdim, &nm, p) < 0 ||
	    (l->shape != NONE && normalized(o, l->shape, l->weight, &nm,
	    p) < 0) ||
	    ((l->formula == RMS || l->formula == RMS_BWD) &&
	    rows(&nm, &r, p) < 0))
		return -1;
	if (l->train >= 0) {
		ts = l->train;
		if (l->alt != NONE && tl_ci_truth(tl_oparg(o, l->alt)->ci) >= 0)
			ts = l->alt;
		if (flag(o, ts, 1, &nm.train, l->train_name, p) < 0)
			return -1;
	} else if (l->train == EVAL)
		nm.train = 0;
	if (l->mask >= 0 && mask(o, l->mask, l->nmask, &nm, p) < 0)
		return -1;
	nm.w = passed(o, l->weight);
	if (l->mask == FROM_WEIGHT)
		nm.mask[1] = nm.mask[2] = nm.w;
	nm.bias = l->bias == FROM_MASK ? nm.mask[2] : l->bias != NONE &&
	    passed(o, l->bias);
	switch (l->formula) {
	case FWD:
		return forward(p, &nm);
	case BWD:
		return backward(p, &nm);
	case RMS:
		return rms_forward(p, &nm, r);
	default:
		return rms_backward(p, &nm, r);
	}
}
