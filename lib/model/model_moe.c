/* See LICENSE file for copyright and license details. */
/*
 * Mixture-of-experts family: the expert GEMMs of a MoE layer, fused into
 * one op or run as an up (gate and up projections) and a down stage
 * (TraceLens' FusedMoE, UnfusedMoE_Up and UnfusedMoE_Down in
 * TraceLens/PerfModel/extensions/moe_perf_model_extensions.py).
 *
 * T tokens, H the hidden size, I the intermediate size of one expert,
 * E experts, k experts per token (top-k), g = 2 when the up stage is gated
 * (SwiGLU: gate and up projections), else 1.  Each token goes through k
 * experts, so
 *
 *	up flops    = 2·T·H·I·k·g
 *	down flops  = 2·T·I·H·k
 *	fused flops = up + down + T·H·(2k - 1)  (weighting and summing the
 *	              k expert outputs of every token)
 *
 * Bytes count the weights of the experts the tokens reach once:
 * E_act = E·(1 - ((E - k)/E)^T), the expected number of distinct experts
 * when each token picks k of E uniformly (all E once T is large), and the
 * activations once each:
 *
 *	up bytes    = T·H·in + E_act·g·H·I·w + T·k·I·out
 *	down bytes  = T·k·I·in + E_act·I·H·w + T·H·out
 *	fused bytes = T·H·in + E_act·(g + 1)·H·I·w + T·H·out
 *
 * in, w and out are the element sizes of the activations, the weights and
 * the output; FP4 weights count half a byte per element.  E_act is the one
 * real number: the weight term is computed in double and rounded to whole
 * bytes, as TraceLens' float arithmetic gives it to within a byte.
 *
 * Where the ops keep their sizes (argument slots, 0-based):
 *	vllm::rocm_aiter_fused_moe, vllm::inplace_fused_experts,
 *	vllm::outplace_fused_experts, aiter::fused_moe_,
 *	pseudo_op::moe_aiter_fused_1stage: fused; x [T, H] (0),
 *	    w1 [E, g·I, H'] (1), w2 [E, H, I'] (2), topk_weights [T, k] (3);
 *	aiter::fmoe_g1u1, aiter::fmoe_fp8_blockscale_g1u1: fused; out
 *	    [T, H] (0), x (1), w1 (2), w2 (3), k the concrete input 8;
 *	aiter::ck_moe_stage1: up; x (0), w1 (1), w2 (2), out [T, k, I] (6);
 *	aiter::ck_moe_stage2: down; h [T, k, I'] (0), w1 (1), w2 (2);
 *	aiter::moe_cktile2stages_gemm1_ck: up; x (0), w1 (1), out [T, k, I] (2);
 *	aiter::moe_cktile2stages_gemm2_ck: down; h [T, k, I] (0), w2
 *	    [E, H, I'] (1), out (2);
 *	pseudo_op::moe_triton_unfused_up, _down: TraceLens' pseudo-ops for
 *	    the two matmul_ogs kernels of vllm::moe_forward (tl-parse makes
 *	    them): x [T, H] (0), router logits [T, E] (1); k, g and the
 *	    weights' dtype are not among the arguments and come from the
 *	    row's context_args (topk, from the TopK op under
 *	    vllm::moe_forward; gated and weight_dtype, from the kernel's
 *	    name).  I is not in the trace at all: as TraceLens does, I = H.
 * H' and I' are the stored (packed) sizes: when w1's last dimension is
 * H/2 (two 4-bit values a byte), I = 2·I', as TraceLens unpacks them.
 * The up stage is gated when w1 holds 2·I rows per expert.
 *
 * Where tl differs from TraceLens (docs/DEVIATIONS.md): a dtype tl does
 * not know leaves the bytes empty (TraceLens guesses 2 bytes for the
 * activations, 1 for the weights).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

enum stage { FUSED, UP, DOWN };
enum layout {
	XW1W2,			/* x, w1, w2, topk_weights */
	FMOE,			/* out, x, w1, w2, ..., topk at ci 8 */
	CK1, CK2,		/* aiter::ck_moe_stage1, 2 */
	TILE1, TILE2,		/* aiter::moe_cktile2stages_gemm1, 2 */
	TRITON			/* vllm::moe_forward's pseudo-ops */
};

static const struct {
	const char *name;
	enum stage stage;
	enum layout layout;
} ops[] = {
	{ "vllm::rocm_aiter_fused_moe", FUSED, XW1W2 },
	{ "vllm::inplace_fused_experts", FUSED, XW1W2 },
	{ "vllm::outplace_fused_experts", FUSED, XW1W2 },
	{ "aiter::fused_moe_", FUSED, XW1W2 },
	{ "pseudo_op::moe_aiter_fused_1stage", FUSED, XW1W2 },
	{ "aiter::fmoe_g1u1", FUSED, FMOE },
	{ "aiter::fmoe_fp8_blockscale_g1u1", FUSED, FMOE },
	{ "aiter::ck_moe_stage1", UP, CK1 },
	{ "aiter::ck_moe_stage2", DOWN, CK2 },
	{ "aiter::moe_cktile2stages_gemm1_ck", UP, TILE1 },
	{ "aiter::moe_cktile2stages_gemm2_ck", DOWN, TILE2 },
	{ "pseudo_op::moe_triton_unfused_up", UP, TRITON },
	{ "pseudo_op::moe_triton_unfused_down", DOWN, TRITON },
};

struct moe {
	int64_t t, h, i, e, k;
	int gated;
	int bits_in, bits_w, bits_out;	/* bits per element; 0 unknown */
	const char *in_type, *w_type;
	char wbuf[32];
};

/* Bits per element of a dtype: 4 for FP4, 8·bytes otherwise, 0 unknown. */
static int
bits(const char *type)
{
	const char *prec = tl_dtype_precision(type);

	if (prec != NULL && strcmp(prec, "fp4") == 0)
		return 4;
	return 8 * tl_dtype_bytes(type);
}

/* The shape of slot i, which must have nd dims; NULL after p->err. */
static const struct tl_arg *
shape(const struct tl_opargs *o, int i, int nd, const char *what,
    struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, i);
	int d;

	if (a->kind != TL_ARG_SHAPE || a->nd != nd) {
		tl_perf_fail(p, "%s: %s (argument %d) is not a %d-D tensor",
		    o->name, what, i, nd);
		return NULL;
	}
	for (d = 0; d < nd; d++)
		if (a->dim[d] < 0) {
			tl_perf_fail(p, "%s: negative dimension", o->name);
			return NULL;
		}
	return a;
}

/* I from a stored size: times H / H' when the weights are packed. */
static int
unpack(const struct tl_opargs *o, struct moe *m, int64_t stored,
    int64_t hstored, struct tl_perf *p)
{
	if (hstored <= 0 || m->h % hstored != 0)
		return tl_perf_fail(p, "%s: hidden size %lld is not a multiple "
		    "of the weights' %lld", o->name, (long long)m->h,
		    (long long)hstored);
	if (tl_mul(&m->i, stored, m->h / hstored) < 0)
		return tl_perf_fail(p, "%s: overflow", o->name);
	return 0;
}

/* Fused and staged ops that pass x (or h), w1 and w2. */
static int
weights(const struct tl_opargs *o, enum layout l, struct moe *m,
    struct tl_perf *p)
{
	const struct tl_arg *x, *w1, *w2, *y;
	int ix = l == FMOE ? 1 : 0, iw = l == FMOE ? 2 : 1;
	int64_t k;

	if ((x = shape(o, ix, l == CK2 ? 3 : 2, l == CK2 ? "h" : "x",
	    p)) == NULL || (w1 = shape(o, iw, 3, "w1", p)) == NULL ||
	    (w2 = shape(o, iw + 1, 3, "w2", p)) == NULL)
		return -1;
	m->t = x->dim[0];
	m->e = w2->dim[0];
	m->h = w2->dim[1];
	if (unpack(o, m, w2->dim[2], w1->dim[2], p) < 0)
		return -1;
	m->gated = w1->dim[1] == 2 * m->i;
	m->in_type = x->type;
	m->w_type = l == CK2 ? w2->type : w1->type;
	m->bits_in = m->bits_out = bits(x->type);
	m->bits_w = bits(m->w_type);
	switch (l) {
	case XW1W2:
		if ((y = shape(o, 3, 2, "topk_weights", p)) == NULL)
			return -1;
		m->k = y->dim[1];
		break;
	case FMOE:
		if (tl_ci_int(tl_oparg(o, 8)->ci, &k) < 0)
			return tl_perf_fail(p, "%s: top-k (argument 8) was not "
			    "recorded", o->name);
		m->k = k;
		m->bits_out = bits(tl_oparg(o, 0)->type);
		break;
	case CK1:
		if ((y = shape(o, 6, 3, "out", p)) == NULL)
			return -1;
		m->k = y->dim[1];
		break;
	default:	/* CK2 */
		m->k = x->dim[1];
		break;
	}
	return 0;
}

/* The CK-tile stages: x, w1, out [T, k, I] or h [T, k, I], w2, out. */
static int
tile(const struct tl_opargs *o, enum layout l, struct moe *m,
    struct tl_perf *p)
{
	const struct tl_arg *x, *w, *y;

	if (l == TILE1) {
		if ((x = shape(o, 0, 2, "x", p)) == NULL ||
		    (w = shape(o, 1, 3, "w1", p)) == NULL ||
		    (y = shape(o, 2, 3, "out", p)) == NULL)
			return -1;
		m->t = x->dim[0];
		m->h = x->dim[1];
		m->k = y->dim[1];
		m->i = y->dim[2];
		m->gated = w->dim[1] == 2 * m->i;
	} else {
		if ((x = shape(o, 0, 3, "h", p)) == NULL ||
		    (w = shape(o, 1, 3, "w2", p)) == NULL ||
		    (y = shape(o, 2, 2, "out", p)) == NULL)
			return -1;
		m->t = x->dim[0];
		m->k = x->dim[1];
		m->i = x->dim[2];
		m->h = w->dim[1];
	}
	m->e = w->dim[0];
	m->in_type = x->type;
	m->w_type = w->type;
	m->bits_in = bits(x->type);
	m->bits_w = bits(w->type);
	m->bits_out = bits(y->type);
	return 0;
}

/* vllm::moe_forward's pseudo-ops: sizes from x and the router logits. */
static int
triton(const struct tl_opargs *o, struct moe *m, struct tl_perf *p)
{
	const struct tl_arg *x, *r;
	int64_t v;
	int rc;

	if ((x = shape(o, 0, 2, "x", p)) == NULL ||
	    (r = shape(o, 1, 2, "router logits", p)) == NULL)
		return -1;
	m->t = x->dim[0];
	m->h = m->i = x->dim[1];
	m->e = r->dim[1];
	if ((rc = tl_ctx_int(o, "topk", &m->k)) != 0)
		return tl_perf_fail(p, "%s: top-k is not among its arguments "
		    "and the row's context_args have no topk (tl-parse takes "
		    "it from the TopK op under vllm::moe_forward)", o->name);
	if (tl_ctx_int(o, "gated", &v) != 0)
		return tl_perf_fail(p, "%s: context_args have no gated flag "
		    "(tl-parse takes it from the kernel's name)", o->name);
	m->gated = v != 0;
	m->in_type = x->type;
	m->bits_in = m->bits_out = bits(x->type);
	if (tl_ctx_str(o, "weight_dtype", m->wbuf, sizeof(m->wbuf)) == 0) {
		m->w_type = m->wbuf;
		m->bits_w = bits(m->wbuf);
	}
	return 0;
}

/* Weight bits of all experts reached: E_act·n·H·I·bits, rounded. */
static int
expert_bits(const struct moe *m, int n, int64_t *r)
{
	double ea, v;

	ea = m->e * (1.0 - pow((double)(m->e - m->k) / (double)m->e,
	    (double)m->t));
	v = ea * (double)n * (double)m->h * (double)m->i * m->bits_w;
	if (!(v >= 0) || v >= 9e18)
		return -1;
	*r = (int64_t)llround(v);
	return 0;
}

static int
count(const struct moe *m, enum stage st, struct tl_perf *p)
{
	int64_t th, hi, f, tki, act, w, b = 0;
	int g = m->gated ? 2 : 1, ovf = 0;

	if (m->k < 1 || m->k > m->e)
		return tl_perf_fail(p, "top-k %lld is not between 1 and the "
		    "%lld experts", (long long)m->k, (long long)m->e);
	if (tl_mul(&th, m->t, m->h) < 0 || tl_mul(&hi, m->h, m->i) < 0 ||
	    tl_mul(&tki, m->t, m->k) < 0 || tl_mul(&tki, tki, m->i) < 0 ||
	    tl_mul(&f, tki, m->h) < 0 || tl_mul(&f, f, 2) < 0)
		return tl_perf_fail(p, "count overflows 64 bits");
	/* f = 2·T·k·I·H, one projection. */
	if (st == UP)
		ovf = tl_mul(&f, f, g) < 0;
	else if (st == FUSED) {
		int64_t up, agg;

		ovf = tl_mul(&up, f, g) < 0 || tl_add(&f, f, up) < 0 ||
		    tl_mul(&agg, th, 2 * m->k - 1) < 0 ||
		    tl_add(&f, f, agg) < 0;
	}
	if (ovf)
		return tl_perf_fail(p, "count overflows 64 bits");
	p->flops = f;
	p->has_flops = 1;
	if (m->w_type == NULL) {
		snprintf(p->err, sizeof(p->err), "bytes unknown: the experts' "
		    "weight dtype is not in the context_args (tl-parse reads "
		    "it from the kernel's name: mxfp4, fp8)");
		return 0;
	}
	if (m->bits_in == 0 || m->bits_w == 0 || m->bits_out == 0)
		return 0;
	/* Activation bits read and written, then the weights'. */
	if (st == UP)
		ovf = tl_mul(&act, th, m->bits_in) < 0 ||
		    tl_mul(&b, tki, m->bits_out) < 0 || tl_add(&act, act, b) < 0;
	else if (st == DOWN)
		ovf = tl_mul(&act, tki, m->bits_in) < 0 ||
		    tl_mul(&b, th, m->bits_out) < 0 || tl_add(&act, act, b) < 0;
	else
		ovf = tl_mul(&act, th, m->bits_in + m->bits_out) < 0;
	if (ovf || expert_bits(m, st == UP ? g : st == DOWN ? 1 : g + 1,
	    &w) < 0 || tl_add(&b, act, w) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->bytes = (b + 7) / 8;
	p->has_bytes = 1;
	return 0;
}

static void
params(const struct moe *m, struct tl_perf *p)
{
	tl_perf_param_int(p, "num_tokens", m->t);
	tl_perf_param_int(p, "hidden_dim", m->h);
	tl_perf_param_int(p, "inter_dim", m->i);
	tl_perf_param_int(p, "num_experts", m->e);
	tl_perf_param_int(p, "topk", m->k);
	tl_perf_param_bool(p, "gated", m->gated);
	tl_perf_param_str(p, "input_dtype", m->in_type);
	if (m->w_type != NULL)
		tl_perf_param_str(p, "weight_dtype", m->w_type);
}

int
tl_model_moe(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	struct moe m;
	size_t n;
	int rc;

	if (bwd)
		return tl_perf_fail(p, "%s: MoE has no backward model", o->name);
	for (n = 0; n < sizeof(ops) / sizeof(ops[0]); n++)
		if (strcmp(ops[n].name, o->name) == 0)
			break;
	if (n == sizeof(ops) / sizeof(ops[0]))
		return tl_perf_fail(p, "%s: not a MoE op this model knows",
		    o->name);
	memset(&m, 0, sizeof(m));
	switch (ops[n].layout) {
	case TILE1:
	case TILE2:
		rc = tile(o, ops[n].layout, &m, p);
		break;
	case TRITON:
		rc = triton(o, &m, p);
		break;
	default:
		rc = weights(o, ops[n].layout, &m, p);
		break;
	}
	if (rc < 0)
		return -1;
	if (m.e < 1)
		return tl_perf_fail(p, "%s: no experts", o->name);
	p->maf = "matrix";
	/*
	 * The matrix units run a product at its wider operand's precision:
	 * no GPU has a bf16 x fp4 (or fp8 x fp4 at fp4 rate) instruction, so
	 * a triton kernel's narrow weights (_matmul_ogs_..._bf16xbf16xmxfp4)
	 * are widened to the activations' type before the product.
	 * TraceLens' moe_triton_unfused names the weights' precision
	 * (docs/DEVIATIONS.md).
	 */
	p->precision = tl_dtype_precision(ops[n].layout == TRITON &&
	    m.w_type != NULL && m.bits_w > m.bits_in ? m.w_type : m.in_type);
	params(&m, p);
	return count(&m, ops[n].stage, p);
}
