/* See LICENSE file for copyright and license details. */
/*
 * Convolution family (TraceLens' CONV in TraceLens/PerfModel/perf_model.py),
 * after torch.utils.flop_counter.
 * x is the input (N, C_in, spatial...), w the weight (C_out, C_in/groups,
 * k...) or, transposed, (C_in, C_out/groups, k...), out the output.
 * prod() is the product of a shape; bpe the element size of x's dtype.
 *
 * Output shape, per spatial dimension i (s stride, p padding, d dilation,
 * k kernel size, op output padding; the division truncates):
 *	normal:     out_i = (x_i + 2p - d(k-1) - 1) / s + 1,  out[1] = w[0]
 *	transposed: out_i = (x_i - 1)s - 2p + d(k-1) + op + 1,
 *	            out[1] = w[1]·groups
 *
 * Forward:
 *	flops = P · 2·prod(w[1:]) + (prod(out) if bias)
 *	        with P = prod(out), or prod(x) when transposed
 *	bytes = (prod(x) + prod(w) + prod(out) + (out[1] if bias)) · bpe
 * Backward (the op's own geometry; output_mask does not remove dX or dW):
 *	flops = dX + dW + (prod(out) if bias), where dX is the forward
 *	        formula on (out, w, x) with the transposed flag flipped and dW
 *	        the forward formula on (x, out, w) with dims 0 and 1 swapped
 *	        ((out, x, w) when transposed); for a normal convolution
 *	        2·prod(out)·prod(w[1:]) + 2·prod(w)·N·prod(out[2:])
 *	bytes = 2·(prod(out) + prod(w) + prod(x))·bpe
 *	        + ((prod(out) + out[1])·bpe if bias)
 *
 * Ops and their arguments:
 *	aten::convolution(input, weight, bias, stride, padding, dilation,
 *	    transposed, output_padding, groups)
 *	aten::convolution_backward(grad_output, input, weight, bias_sizes,
 *	    stride, padding, dilation, transposed, output_padding, groups,
 *	    output_mask); bias = output_mask[2]
 *	ConvBias_, ConvBiasReLU_(input, weight, bias, stride, padding):
 *	    stride and padding are one integer for every dimension, dilation
 *	    1, groups 1, always a bias
 *	aten::cudnn_convolution_backward, aten::miopen_convolution_backward
 *	    (self, grad_output, weight, padding, stride, dilation, groups,
 *	    benchmark, deterministic[, allow_tf32], output_mask): the
 *	    backward ops of PyTorch up to 1.12, not transposed
 *	aten::{cudnn,miopen}_convolution_backward_input(self_size,
 *	    grad_output, weight, padding, ...): dX only
 *	aten::{cudnn,miopen}_convolution_backward_weight(weight_size,
 *	    grad_output, self, padding, ...): dW only
 * Lists in the concrete inputs ("[2, 2]") may hold one value for every
 * dimension.  Input and weight must have the same dtype, as TraceLens
 * requires.
 *
 * No argument is guessed: an empty concrete input is an argument the
 * trace does not record (traces without record_concrete_inputs, PyTorch
 * before 2.1), not its default.  The output shape then comes from what
 * the trace records: a backward op's grad_output is the forward's output.
 * For a forward, tl-parse gives the input shape of the op that consumes
 * the output (context_args conv_out, trace/context.h) when the trace
 * lacks the geometry.  Without either, the forward needs stride, padding,
 * dilation and transposed
 * (output_padding too when transposed) and fails naming what is missing.
 * groups follows from the shapes (x[1] / w[1], or out[1] / w[1] when
 * transposed); transposed from the channels when only one reading fits
 * (or both give the same FLOPs).  FLOPs need the output and the weight
 * shape; bytes need the input, weight and output sizes all known (dX
 * alone has no input size unless self_size is recorded).  TraceLens
 * takes the defaults (stride 1, padding 0, ...): docs/DEVIATIONS.md.
 *
 * Where tl differs from TraceLens (docs/DEVIATIONS.md):
 *	- the bias of aten::convolution is counted when its slot holds a
 *	  tensor (TraceLens tests for exactly three inputs, which the
 *	  profiler never records, so it never counts it); the bias gradient
 *	  of aten::convolution_backward is counted when output_mask asks
 *	  for it (TraceLens tests an input shape that is always empty);
 *	- a transposed convolution has w[1]·groups output channels, not w[1];
 *	- the bias-gradient terms of the backward bytes are bytes (× bpe), not
 *	  element counts;
 *	- ConvBias_Backward and ConvBiasReLU_Backward fail: their arguments
 *	  do not hold the forward geometry, which TraceLens takes from a
 *	  cache of earlier forward calls; tl models the backward pass from
 *	  the forward op's row instead (ConvBias_ with bwd).
 */
#include <stdio.h>
#include <string.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

struct conv {
	int rank;		/* 3, 4 or 5: N, C and the spatial dims */
	int64_t x[TL_MAXDIM], w[TL_MAXDIM], out[TL_MAXDIM];
	int64_t stride[TL_MAXDIM], pad[TL_MAXDIM], dil[TL_MAXDIM];
	int64_t opad[TL_MAXDIM];
	int64_t groups;
	int transposed, bias;
	int bpe;		/* 0 = unknown */
	const char *dtype;
	unsigned missing;	/* M_*: arguments the trace does not record */
	int have_out;		/* out from grad_output, not the geometry */
	int have_x;		/* x known (dX only: from self_size) */
	int grads;		/* backward: G_X | G_W, 0 = both */
};

/* The arguments a trace may leave out. */
enum {
	M_STRIDE = 1, M_PAD = 2, M_DIL = 4, M_TRANS = 8, M_OPAD = 16,
	M_GROUPS = 32
};
static const char *const mname[] = {
	"stride", "padding", "dilation", "transposed", "output_padding",
	"groups"
};
enum { G_X = 1, G_W = 2 };

/* Fail naming the arguments of mask the trace does not record. */
static int
fail_missing(const char *name, unsigned mask, struct tl_perf *p)
{
	char buf[128];
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 6; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
			    n > 0 ? ", " : "", mname[i]);
	return tl_perf_fail(p, "%s: the trace does not record %s (no "
	    "concrete inputs) and no output shape: not modelled", name, buf);
}

/*
 * A per-dimension list of the concrete inputs ("[2, 2]", "(1,)", "3")
 * into n values: one value is repeated, blank gives def.  Returns 0, or
 * -1 when the text is not such a list.
 */
static int
dimlist(const char *s, int n, int64_t def, int64_t *v)
{
	int64_t val[TL_MAXDIM];
	int i, k = 1;

	val[0] = def;
	if (!tl_ci_blank(s) &&
	    (k = tl_ci_ints(s, val, TL_MAXDIM)) != 1 && k != n)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = val[k == 1 ? 0 : i];
	return 0;
}

static int
prod(const int64_t *v, int n, int64_t *r)
{
	int64_t t = 1;
	int i;

	for (i = 0; i < n; i++)
		if (tl_mul(&t, t, v[i]) < 0)
			return -1;
	*r = t;
	return 0;
}

/* Swap dims 0 and 1 of a shape (TraceLens' CONV.t). */
static void
swap01(int64_t *dst, const int64_t *src, int rank)
{
	memcpy(dst, src, (size_t)rank * sizeof(*src));
	dst[0] = src[1];
	dst[1] = src[0];
}

/* TraceLens' CONV.flops_func without the bias term. */
static int
flops_func(const int64_t *x, const int64_t *w, const int64_t *out, int rank,
    int transposed, int64_t *r)
{
	int64_t per, n;

	if (prod(w + 1, rank - 1, &per) < 0 || tl_mul(&per, per, 2) < 0 ||
	    prod(transposed ? x : out, rank, &n) < 0 || tl_mul(r, n, per) < 0)
		return -1;
	return 0;
}

static int
count(const struct conv *c, int bwd, struct tl_perf *p)
{
	int64_t nx, nw, nout, f, t, tx[TL_MAXDIM], tw[TL_MAXDIM];
	int64_t tout[TL_MAXDIM], b;
	int r = c->rank;

	if (prod(c->x, r, &nx) < 0 || prod(c->w, r, &nw) < 0 ||
	    prod(c->out, r, &nout) < 0)
		return tl_perf_fail(p, "tensor size overflows 64 bits");
	if (!bwd) {
		if (flops_func(c->x, c->w, c->out, r, c->transposed, &f) < 0 ||
		    (c->bias && tl_add(&f, f, nout) < 0))
			return tl_perf_fail(p, "FLOP count overflows 64 bits");
	} else {
		swap01(tx, c->x, r);
		swap01(tw, c->w, r);
		swap01(tout, c->out, r);
		f = t = 0;
		if ((c->grads != G_W && flops_func(c->out, c->w, c->x, r,
		    !c->transposed, &f) < 0) ||
		    (c->grads != G_X && (c->transposed ?
		    flops_func(tout, tx, tw, r, 0, &t) :
		    flops_func(tx, tout, tw, r, 0, &t)) < 0) ||
		    tl_add(&f, f, t) < 0 ||
		    (c->bias && tl_add(&f, f, nout) < 0))
			return tl_perf_fail(p, "FLOP count overflows 64 bits");
	}
	p->flops = f;
	p->has_flops = 1;
	if (c->bpe == 0 || !c->have_x)
		return 0;
	/* Elements moved, then bytes. */
	if (tl_add(&b, nx, nw) < 0 || tl_add(&b, b, nout) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	if (!bwd) {
		if (c->bias && tl_add(&b, b, c->out[1]) < 0)
			return tl_perf_fail(p, "byte count overflows 64 bits");
	} else {
		if ((c->grads == 0 && tl_mul(&b, b, 2) < 0) || (c->bias &&
		    (tl_add(&b, b, nout) < 0 || tl_add(&b, b, c->out[1]) < 0)))
			return tl_perf_fail(p, "byte count overflows 64 bits");
	}
	if (tl_mul(&b, b, c->bpe) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->bytes = b;
	p->has_bytes = 1;
	return 0;
}

/* Output shape from the geometry; checks the geometry makes sense. */
static int
geometry(struct conv *c, const char *name, struct tl_perf *p)
{
	int i;

	if (c->groups < 1)
		return tl_perf_fail(p, "%s: groups %lld is not positive", name,
		    (long long)c->groups);
	for (i = 0; i < c->rank; i++)
		if (c->x[i] < 0 || c->w[i] < 0)
			return tl_perf_fail(p, "%s: negative dimension", name);
	c->out[0] = c->x[0];
	if (!c->transposed)
		c->out[1] = c->w[0];
	else if (tl_mul(&c->out[1], c->w[1], c->groups) < 0)
		return tl_perf_fail(p, "%s: output channels overflow", name);
	for (i = 0; i < c->rank - 2; i++) {
		int64_t x = c->x[i + 2], k = c->w[i + 2], s = c->stride[i];
		int64_t pd = c->pad[i], d = c->dil[i], o, t, u;

		if (s < 1 || d < 1 || pd < 0 || c->opad[i] < 0 || k < 1)
			return tl_perf_fail(p, "%s: bad stride, padding, "
			    "dilation or kernel size in dimension %d", name, i);
		if (tl_mul(&u, d, k - 1) < 0 || tl_mul(&t, pd, 2) < 0)
			return tl_perf_fail(p, "%s: overflow", name);
		if (!c->transposed) {
			if (tl_add(&t, t, x) < 0 || tl_add(&t, t, -u) < 0 ||
			    tl_add(&t, t, -1) < 0)
				return tl_perf_fail(p, "%s: overflow", name);
			o = t / s + 1;
		} else {
			if (tl_mul(&o, x - 1, s) < 0 || tl_add(&o, o, -t) < 0 ||
			    tl_add(&o, o, u) < 0 ||
			    tl_add(&o, o, c->opad[i]) < 0 ||
			    tl_add(&o, o, 1) < 0)
				return tl_perf_fail(p, "%s: overflow", name);
		}
		if (o < 1)
			return tl_perf_fail(p, "%s: output size %lld in "
			    "dimension %d is not positive", name, (long long)o,
			    i);
		c->out[i + 2] = o;
	}
	return 0;
}

/* Input and weight shapes from slots xi and xi + 1, and their dtype. */
static int
shapes(const struct tl_opargs *o, int xi, struct conv *c, struct tl_perf *p)
{
	const struct tl_arg *x = tl_oparg(o, xi), *w = tl_oparg(o, xi + 1);

	if (x->kind != TL_ARG_SHAPE || x->nd < 3 || x->nd > 5)
		return tl_perf_fail(p, "%s: input (argument %d) is not a 3-D, "
		    "4-D or 5-D tensor", o->name, xi);
	if (w->kind != TL_ARG_SHAPE || w->nd != x->nd)
		return tl_perf_fail(p, "%s: weight (argument %d) is not a %d-D "
		    "tensor", o->name, xi + 1, x->nd);
	if (strcmp(x->type, w->type) != 0)
		return tl_perf_fail(p, "%s: input and weight dtypes differ "
		    "(%s, %s)", o->name, x->type, w->type);
	c->rank = x->nd;
	memcpy(c->x, x->dim, sizeof(c->x));
	memcpy(c->w, w->dim, sizeof(c->w));
	c->dtype = x->type;
	c->bpe = tl_dtype_bytes(x->type);
	return 0;
}

/*
 * aten::convolution (xi 0) and aten::convolution_backward (xi 1): x and w
 * in slots xi and xi + 1, stride ... groups in the concrete inputs from
 * slot xi + 3 on.
 */
static int
parse_aten(const struct tl_opargs *o, int xi, struct conv *c,
    struct tl_perf *p)
{
	static const char *what[] = { "stride", "padding", "dilation",
	    "transposed", "output_padding", "groups" };
	int64_t *lists[4], defs[4] = { 1, 0, 1, 0 };
	int slot[4], i, nd, ci = xi + 3;

	if (shapes(o, xi, c, p) < 0)
		return -1;
	nd = c->rank - 2;
	lists[0] = c->stride;
	lists[1] = c->pad;
	lists[2] = c->dil;
	lists[3] = c->opad;
	slot[0] = ci;
	slot[1] = ci + 1;
	slot[2] = ci + 2;
	slot[3] = ci + 4;
	static const unsigned bit[4] = { M_STRIDE, M_PAD, M_DIL, M_OPAD };

	for (i = 0; i < 4; i++) {
		if (tl_ci_blank(tl_oparg(o, slot[i])->ci))
			c->missing |= bit[i];
		if (dimlist(tl_oparg(o, slot[i])->ci, nd, defs[i],
		    lists[i]) < 0)
			return tl_perf_fail(p, "%s: %s \"%s\" is not a list of "
			    "%d integers", o->name, what[slot[i] - ci],
			    tl_oparg(o, slot[i])->ci, nd);
	}
	if (tl_ci_blank(tl_oparg(o, ci + 3)->ci))
		c->missing |= M_TRANS;
	if (tl_ci_bool(tl_oparg(o, ci + 3)->ci, 0, &c->transposed) < 0)
		return tl_perf_fail(p, "%s: transposed \"%s\" is not a bool",
		    o->name, tl_oparg(o, ci + 3)->ci);
	if (tl_ci_blank(tl_oparg(o, ci + 5)->ci))
		c->missing |= M_GROUPS;
	if (dimlist(tl_oparg(o, ci + 5)->ci, 1, 1, &c->groups) < 0)
		return tl_perf_fail(p, "%s: groups \"%s\" is not an integer",
		    o->name, tl_oparg(o, ci + 5)->ci);
	return 0;
}

/*
 * The old backward ops' (padding, stride, dilation, groups) from slot
 * ci on: only for the parameters, as the output shape is grad_output's.
 */
static int
parse_legacy(const struct tl_opargs *o, int ci, struct conv *c,
    struct tl_perf *p)
{
	int64_t *lists[3] = { c->pad, c->stride, c->dil };
	static const unsigned bit[3] = { M_PAD, M_STRIDE, M_DIL };
	static const int64_t defs[3] = { 0, 1, 1 };
	int i, nd = c->rank - 2;

	for (i = 0; i < 3; i++) {
		if (tl_ci_blank(tl_oparg(o, ci + i)->ci))
			c->missing |= bit[i];
		if (dimlist(tl_oparg(o, ci + i)->ci, nd, defs[i],
		    lists[i]) < 0)
			return tl_perf_fail(p, "%s: %s \"%s\" is not a list of "
			    "%d integers", o->name, mname[i == 0 ? 1 : i == 1 ?
			    0 : 2], tl_oparg(o, ci + i)->ci, nd);
	}
	if (tl_ci_blank(tl_oparg(o, ci + 3)->ci))
		c->missing |= M_GROUPS;
	if (dimlist(tl_oparg(o, ci + 3)->ci, 1, 1, &c->groups) < 0)
		return tl_perf_fail(p, "%s: groups \"%s\" is not an integer",
		    o->name, tl_oparg(o, ci + 3)->ci);
	for (i = 0; i < nd; i++)
		c->opad[i] = 0;
	c->transposed = 0;
	return 0;
}

/* ConvBias_ and ConvBiasReLU_(input, weight, bias, stride, padding). */
static int
parse_convbias(const struct tl_opargs *o, struct conv *c, struct tl_perf *p)
{
	int i, nd;

	if (shapes(o, 0, c, p) < 0)
		return -1;
	nd = c->rank - 2;
	if (tl_ci_blank(tl_oparg(o, 3)->ci))
		c->missing |= M_STRIDE;
	if (tl_ci_blank(tl_oparg(o, 4)->ci))
		c->missing |= M_PAD;
	if (dimlist(tl_oparg(o, 3)->ci, nd, 1, c->stride) < 0)
		return tl_perf_fail(p, "%s: stride \"%s\" is not an integer",
		    o->name, tl_oparg(o, 3)->ci);
	if (dimlist(tl_oparg(o, 4)->ci, nd, 0, c->pad) < 0)
		return tl_perf_fail(p, "%s: padding \"%s\" is not an integer",
		    o->name, tl_oparg(o, 4)->ci);
	for (i = 0; i < nd; i++) {
		c->dil[i] = 1;
		c->opad[i] = 0;
	}
	c->groups = 1;
	c->transposed = 0;
	c->bias = 1;
	return 0;
}

static void
params(const struct conv *c, struct tl_perf *p)
{
	static const char *nd[] = { "conv1d", "conv2d", "conv3d" };
	int n = c->rank - 2;

	tl_perf_param_str(p, "convNd", nd[n - 1]);
	if (c->have_x)
		tl_perf_param_ints(p, "input_shape", c->x, c->rank);
	tl_perf_param_ints(p, "filter_shape", c->w, c->rank);
	tl_perf_param_ints(p, "output_shape", c->out, c->rank);
	tl_perf_param_bool(p, "bias", c->bias);
	/* Only what the trace records or what follows from it. */
	if (!(c->missing & M_STRIDE))
		tl_perf_param_ints(p, "stride", c->stride, n);
	if (!(c->missing & M_PAD))
		tl_perf_param_ints(p, "padding", c->pad, n);
	if (!(c->missing & M_DIL))
		tl_perf_param_ints(p, "dilation", c->dil, n);
	tl_perf_param_bool(p, "transposed_conv", c->transposed);
	if (!(c->missing & M_OPAD))
		tl_perf_param_ints(p, "output_padding", c->opad, n);
	if (!(c->missing & M_GROUPS))
		tl_perf_param_int(p, "groups", c->groups);
}

/*
 * groups from the shapes, when the trace does not record it: the input
 * channels over the weight's (the output's when transposed).
 */
static int
infer_groups(struct conv *c, const char *name, struct tl_perf *p)
{
	int64_t ch = c->transposed ? c->out[1] : c->x[1];

	if (!(c->missing & M_GROUPS) || (!c->have_x && !c->transposed))
		return 0;	/* recorded, or not needed and not known */
	if (c->w[1] < 1 || ch % c->w[1] != 0 || (c->transposed &&
	    !c->have_out))
		return fail_missing(name, M_GROUPS, p);
	c->groups = ch / c->w[1];
	c->missing &= ~(unsigned)M_GROUPS;
	return 0;
}

/*
 * The output shape is known (grad_output): transposed, when not
 * recorded, follows from the channels if one reading fits them, or if
 * both give the same FLOPs (the same element count in and out).
 */
static int
from_output(struct conv *c, const char *name, struct tl_perf *p)
{
	int64_t nx, nout;
	int fwd, tr;

	if (c->out[0] != c->x[0] && c->have_x)
		return tl_perf_fail(p, "%s: grad_output and input batch sizes "
		    "differ", name);
	if (c->missing & M_TRANS) {
		fwd = c->out[1] == c->w[0] && c->w[1] > 0 &&
		    (!c->have_x || c->x[1] % c->w[1] == 0);
		tr = c->have_x && c->x[1] == c->w[0] && c->w[1] > 0 &&
		    c->out[1] % c->w[1] == 0;
		if (fwd && tr && (prod(c->x, c->rank, &nx) < 0 ||
		    prod(c->out, c->rank, &nout) < 0 || nx != nout))
			return fail_missing(name, M_TRANS, p);
		if (!fwd && !tr)
			return tl_perf_fail(p, "%s: the channels of input, "
			    "weight and grad_output do not fit a convolution",
			    name);
		c->transposed = !fwd;
		c->missing &= ~(unsigned)M_TRANS;
	}
	return infer_groups(c, name, p);
}

static int
finish(struct conv *c, const char *name, int bwd, struct tl_perf *p)
{
	unsigned need = M_STRIDE | M_PAD | M_DIL | M_TRANS;

	if (c->have_out) {
		if (from_output(c, name, p) < 0)
			return -1;
	} else {
		if (c->transposed)
			need |= M_OPAD;
		if (c->missing & need)
			return fail_missing(name, c->missing & need, p);
		if (infer_groups(c, name, p) < 0 || geometry(c, name, p) < 0)
			return -1;
	}
	p->maf = "matrix";
	p->precision = tl_dtype_precision(c->dtype);
	params(c, p);
	return count(c, bwd, p);
}

int
tl_model_conv(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	struct conv c;

	memset(&c, 0, sizeof(c));
	c.have_x = 1;
	if (strcmp(o->name, "aten::convolution") == 0) {
		const struct tl_arg *b = tl_oparg(o, 2);

		if (parse_aten(o, 0, &c, p) < 0)
			return -1;
		c.bias = b->kind == TL_ARG_SHAPE;
		/*
		 * Without its geometry, the output shape tl-parse found as
		 * the input of the op that consumes it (context conv_out).
		 */
		if ((c.missing & (M_STRIDE | M_PAD | M_DIL)) &&
		    tl_ctx_ints(o, "conv_out", c.out, TL_MAXDIM) == c.rank)
			c.have_out = 1;
	} else if (strcmp(o->name, "ConvBias_") == 0 ||
	    strcmp(o->name, "ConvBiasReLU_") == 0) {
		if (parse_convbias(o, &c, p) < 0)
			return -1;
	} else
		return tl_perf_fail(p, "no convolution model for %s", o->name);
	return finish(&c, o->name, bwd, p);
}

/* The output shape from grad_output in slot i, when it is one. */
static void
grad_output(const struct tl_opargs *o, int i, struct conv *c)
{
	const struct tl_arg *g = tl_oparg(o, i);

	if (g->kind != TL_ARG_SHAPE || g->nd != c->rank)
		return;
	memcpy(c->out, g->dim, sizeof(c->out));
	c->have_out = 1;
}

/*
 * The backward ops of PyTorch up to 1.12 (cuDNN and MIOpen): the whole
 * backward (self, grad_output, weight, ...), or dX alone
 * (self_size, grad_output, weight, ...) or dW alone (weight_size,
 * grad_output, self, ...), where the size is a concrete int list that
 * old traces do not record.
 */
static int
legacy_bwd(const struct tl_opargs *o, struct conv *c, struct tl_perf *p)
{
	static const char *const pre[] = {
		"aten::cudnn_convolution_backward",
		"aten::miopen_convolution_backward"
	};
	const struct tl_arg *g = tl_oparg(o, 1), *t;
	const char *rest = NULL;
	int64_t size[TL_MAXDIM];
	int k, m[TL_MAXDIM], n, mi;
	size_t i;

	for (i = 0; i < 2 && rest == NULL; i++)
		if (strncmp(o->name, pre[i], strlen(pre[i])) == 0)
			rest = o->name + strlen(pre[i]);
	if (rest == NULL || (strcmp(rest, "") != 0 &&
	    strcmp(rest, "_input") != 0 && strcmp(rest, "_weight") != 0))
		return tl_perf_fail(p, "no convolution model for %s", o->name);
	if (g->kind != TL_ARG_SHAPE || g->nd < 3 || g->nd > 5)
		return tl_perf_fail(p, "%s: grad_output (argument 1) is not a "
		    "3-D, 4-D or 5-D tensor", o->name);
	c->rank = g->nd;
	memcpy(c->out, g->dim, sizeof(c->out));
	c->have_out = 1;
	t = tl_oparg(o, 2);
	if (t->kind != TL_ARG_SHAPE || t->nd != c->rank)
		return tl_perf_fail(p, "%s: %s (argument 2) is not a %d-D "
		    "tensor", o->name, rest[1] == 'w' ? "input" : "weight",
		    c->rank);
	c->dtype = g->type;
	c->bpe = tl_dtype_bytes(g->type);
	if (rest[0] == '\0') {		/* (self, grad_output, weight) */
		const struct tl_arg *x = tl_oparg(o, 0);

		if (x->kind != TL_ARG_SHAPE || x->nd != c->rank)
			return tl_perf_fail(p, "%s: input (argument 0) is not a "
			    "%d-D tensor", o->name, c->rank);
		if (strcmp(x->type, t->type) != 0)
			return tl_perf_fail(p, "%s: input and weight dtypes "
			    "differ (%s, %s)", o->name, x->type, t->type);
		memcpy(c->x, x->dim, sizeof(c->x));
		memcpy(c->w, t->dim, sizeof(c->w));
		c->have_x = 1;
		mi = strstr(o->name, "miopen") != NULL ? 9 : 10;
		if ((n = tl_ci_bools(tl_oparg(o, mi)->ci, m, TL_MAXDIM)) > 2)
			c->bias = m[2];
	} else {
		k = tl_ci_blank(tl_oparg(o, 0)->ci) ? 0 :
		    tl_ci_ints(tl_oparg(o, 0)->ci, size, TL_MAXDIM);
		if (k != 0 && k != c->rank)
			return tl_perf_fail(p, "%s: %s \"%s\" is not a list of "
			    "%d integers", o->name, rest[1] == 'i' ?
			    "self_size" : "weight_size", tl_oparg(o, 0)->ci,
			    c->rank);
		if (rest[1] == 'i') {	/* dX: x only when self_size is */
			c->grads = G_X;
			memcpy(c->w, t->dim, sizeof(c->w));
			c->have_x = k != 0;
			if (k != 0)
				memcpy(c->x, size, sizeof(c->x));
			else {
				c->x[0] = c->out[0];
				c->x[1] = 0;	/* unknown: no groups from it */
			}
		} else {		/* dW: needs weight_size */
			c->grads = G_W;
			memcpy(c->x, t->dim, sizeof(c->x));
			if (k == 0)
				return tl_perf_fail(p, "%s: the trace does not "
				    "record weight_size (no concrete inputs): "
				    "the kernel size is unknown, not modelled",
				    o->name);
			memcpy(c->w, size, sizeof(c->w));
		}
		if (strcmp(t->type, g->type) != 0)
			return tl_perf_fail(p, "%s: grad_output and %s dtypes "
			    "differ (%s, %s)", o->name, rest[1] == 'i' ?
			    "weight" : "input", g->type, t->type);
	}
	if (parse_legacy(o, 3, c, p) < 0)
		return -1;
	return finish(c, o->name, 1, p);
}

int
tl_model_conv_bwd(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	struct conv c;
	const struct tl_arg *mask;
	int m[TL_MAXDIM], n;

	if (bwd)
		return tl_perf_fail(p, "%s is a backward op: it has no "
		    "backward pass", o->name);
	memset(&c, 0, sizeof(c));
	if (strcmp(o->name, "ConvBias_Backward") == 0 ||
	    strcmp(o->name, "ConvBiasReLU_Backward") == 0)
		return tl_perf_fail(p, "%s: the arguments lack the forward "
		    "geometry; the backward pass is modelled on the forward "
		    "op's row", o->name);
	c.have_x = 1;
	if (strcmp(o->name, "aten::convolution_backward") != 0)
		return legacy_bwd(o, &c, p);
	if (parse_aten(o, 1, &c, p) < 0)
		return -1;
	grad_output(o, 0, &c);
	/*
	 * The bias gradient is computed when output_mask[2] is true; when
	 * the mask is not recorded or shorter, when bias_sizes is a shape.
	 */
	mask = tl_oparg(o, 10);
	if ((n = tl_ci_bools(mask->ci, m, TL_MAXDIM)) < 0)
		return tl_perf_fail(p, "%s: output_mask \"%s\" is not a list "
		    "of bools", o->name, mask->ci);
	c.bias = n > 2 ? m[2] : tl_oparg(o, 3)->kind == TL_ARG_SHAPE;
	return finish(&c, o->name, 1, p);
}
