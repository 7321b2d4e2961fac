/* See LICENSE file for copyright and license details. */
/*
 * GEMM family (TraceLens' GEMM in TraceLens/PerfModel/perf_model.py).
 * For C = A·B with A M×K, B K×N:
 *
 *	flops = batch · (2·M·N·K + (M·N if the op adds a bias))
 *	bytes = batch · (M·K·bpeA + K·N·bpeB + M·N·bpeOut) + bias bytes
 *
 * Ops and their arguments:
 *	aten::mm(A, B), aten::bmm(A, B)		batch from A[0] for bmm
 *	aten::addmm(C, A, B), aten::baddbmm(C, A, B)
 *	aten::_scaled_mm(A, B, scale_a, scale_b, bias, scale_result,
 *	    out_dtype, use_fast_accum) and its aliases
 *	tex_ts::te_gemm_ts, vllm::gemm_with_dynamic_quant
 *	aten::linear(x, W, b), aten::matmul(a, b)  (tl only; TraceLens
 *	    leaves them to their children)
 *	the framework GEMMs of the table fw below: vLLM's and aiter's
 *	    bf16, fp8 (a8w8) and MXFP4 (a4w4, afp4wfp4) GEMMs of an
 *	    activation x [M, K] and a weight [N, K] (TraceLens'
 *	    extensions/perf_model_extensions.py and perf_model.py); the
 *	    table gives their slots and output dtype.  MXFP4 operands are
 *	    stored two values a byte, so K is twice x's stored size and
 *	    each operand's bytes are its stored elements; the E8M0 scales,
 *	    one byte per 32 values of K for every row of x and of the
 *	    weight, are counted where TraceLens counts them (a4w4).  The
 *	    a8w8 and MXFP4 ops write bf16, which the trace does not record.
 *
 * Where tl differs from TraceLens (docs/DEVIATIONS.md):
 *	- the bias of addmm/baddbmm is counted as the tensor C really is
 *	  (numel(C)·bpe(C)), not as 1×N per batch;
 *	- _scaled_mm has a bias when its bias slot holds a tensor (TraceLens
 *	  tests for exactly three inputs, which the profiler never records),
 *	  and its output size follows out_dtype when the call gives one;
 *	- _C::cutlass_scaled_mm, vLLM's fp8 GEMM on NVIDIA GPUs, has a model
 *	  (TraceLens has none).
 * When C is 1×N, as for every nn.Linear, both agree.
 */
#include <string.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

struct gemm {
	int64_t batch, m, n, k;
	int64_t kstored;	/* K of the operands as stored (0: k) */
	int bias;		/* adds a bias: M·N more flops per batch */
	int64_t bias_bytes;	/* bytes of the bias tensor as read */
	int bpe_a, bpe_b, bpe_out;
};

static int
count(const struct gemm *g, struct tl_perf *p)
{
	int64_t f, mn, t, k, b = 0;

	if (g->batch < 0 || g->m < 0 || g->n < 0 || g->k < 0)
		return tl_perf_fail(p, "negative GEMM dimension");
	if (tl_mul(&mn, g->m, g->n) < 0 || tl_mul(&f, mn, g->k) < 0 ||
	    tl_mul(&f, f, 2) < 0 || (g->bias && tl_add(&f, f, mn) < 0) ||
	    tl_mul(&f, f, g->batch) < 0)
		return tl_perf_fail(p, "FLOP count overflows 64 bits");
	p->flops = f;
	p->has_flops = 1;
	if (g->bpe_a == 0 || g->bpe_b == 0 || g->bpe_out == 0)
		return 0;
	k = g->kstored > 0 ? g->kstored : g->k;
	if (tl_mul(&t, g->m, k) < 0 || tl_mul(&t, t, g->bpe_a) < 0 ||
	    tl_add(&b, b, t) < 0 ||
	    tl_mul(&t, k, g->n) < 0 || tl_mul(&t, t, g->bpe_b) < 0 ||
	    tl_add(&b, b, t) < 0 ||
	    tl_mul(&t, mn, g->bpe_out) < 0 || tl_add(&b, b, t) < 0 ||
	    tl_mul(&b, b, g->batch) < 0 || tl_add(&b, b, g->bias_bytes) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->bytes = b;
	p->has_bytes = 1;
	return 0;
}

static void
params(const struct tl_opargs *o, const struct gemm *g, int ia, int ib,
    struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, ia), *b = tl_oparg(o, ib);

	tl_perf_param_int(p, "B", g->batch);
	tl_perf_param_int(p, "M", g->m);
	tl_perf_param_int(p, "N", g->n);
	tl_perf_param_int(p, "K", g->k);
	tl_perf_param_bool(p, "bias", g->bias);
	if (a->nst > 0)
		tl_perf_param_ints(p, "stride_A", a->st, a->nst);
	if (b->nst > 0)
		tl_perf_param_ints(p, "stride_B", b->st, b->nst);
	tl_perf_param_str(p, "dtype_A", a->type);
	tl_perf_param_str(p, "dtype_B", b->type);
}

static int
need(const struct tl_opargs *o, int i, int nd, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, i);

	if (a->kind != TL_ARG_SHAPE || a->nd != nd)
		return tl_perf_fail(p, "input %d of %s: expected a %d-D tensor",
		    i, o->name, nd);
	return 0;
}

/* Bytes of the bias tensor in slot i (0 when absent). */
static int
bias_bytes(const struct tl_opargs *o, int i, int64_t *out)
{
	const struct tl_arg *c = tl_oparg(o, i);
	int64_t n = tl_arg_numel(c);

	*out = 0;
	if (!tl_arg_is_tensor(c))
		return 0;
	if (n < 0 || tl_mul(out, n, tl_dtype_bytes(c->type)) < 0)
		return -1;
	return 1;
}

/*
 * Output element size of _scaled_mm: its out_dtype (a c10::ScalarType
 * code) when given, else derived from A's.
 */
static int
scaled_out_bpe(const char *ci, int bpe_a)
{
	int64_t code;
	int b;

	if (ci != NULL && tl_ci_int(ci, &code) == 0 &&
	    (b = tl_scalar_type_bytes(code)) > 0)
		return b;
	return bpe_a == 1 ? 2 : bpe_a == 2 || bpe_a == 4 ? bpe_a : 0;
}

static int
mm(const struct tl_opargs *o, struct gemm *g, int ia, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, ia), *b = tl_oparg(o, ia + 1);

	if (need(o, ia, 2, p) < 0 || need(o, ia + 1, 2, p) < 0)
		return -1;
	g->m = a->dim[0];
	g->k = a->dim[1];
	g->n = b->dim[1];
	return 0;
}

static int
bmm(const struct tl_opargs *o, struct gemm *g, int ia, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, ia), *b = tl_oparg(o, ia + 1);

	if (need(o, ia, 3, p) < 0 || need(o, ia + 1, 3, p) < 0)
		return -1;
	g->batch = a->dim[0];
	g->m = a->dim[1];
	g->k = a->dim[2];
	g->n = b->dim[2];
	return 0;
}

/* aten::linear(input [..., K], weight [N, K], bias [N]?). */
static int
linear(const struct tl_opargs *o, struct gemm *g, struct tl_perf *p)
{
	const struct tl_arg *x = tl_oparg(o, 0), *w = tl_oparg(o, 1);
	int i;

	if (x->kind != TL_ARG_SHAPE || need(o, 1, 2, p) < 0)
		return tl_perf_fail(p, "aten::linear: expected input and a "
		    "2-D weight");
	g->m = 1;
	for (i = 0; i + 1 < x->nd; i++)
		if (tl_mul(&g->m, g->m, x->dim[i]) < 0)
			return tl_perf_fail(p, "overflow");
	g->k = x->dim[x->nd - 1];
	g->n = w->dim[0];
	return 0;
}

/* aten::matmul(a, b) with torch.matmul's broadcasting rules. */
static int
matmul(const struct tl_opargs *o, struct gemm *g, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, 0), *b = tl_oparg(o, 1);
	int i, na, nb, nbat;

	if (a->kind != TL_ARG_SHAPE || b->kind != TL_ARG_SHAPE)
		return tl_perf_fail(p, "aten::matmul: expected two tensors");
	na = a->nd;
	nb = b->nd;
	g->m = na >= 2 ? a->dim[na - 2] : 1;
	g->k = a->dim[na - 1];
	g->n = nb >= 2 ? b->dim[nb - 1] : 1;
	if ((nb >= 2 ? b->dim[nb - 2] : b->dim[0]) != g->k)
		return tl_perf_fail(p, "aten::matmul: inner dimensions differ");
	nbat = (na > nb ? na : nb) - 2;
	g->batch = 1;
	for (i = 0; i < nbat; i++) {
		int ia = na - 3 - i, ib = nb - 3 - i;
		int64_t da = ia >= 0 ? a->dim[ia] : 1;
		int64_t db = ib >= 0 ? b->dim[ib] : 1;

		if (da != db && da != 1 && db != 1)
			return tl_perf_fail(p, "aten::matmul: batch dimensions "
			    "do not broadcast");
		if (tl_mul(&g->batch, g->batch, da > db ? da : db) < 0)
			return tl_perf_fail(p, "overflow");
	}
	if (na > 2 && nb <= 2) {	/* folded into one big GEMM */
		if (tl_mul(&g->m, g->m, g->batch) < 0)
			return tl_perf_fail(p, "overflow");
		g->batch = 1;
	}
	return 0;
}

/* Where a framework GEMM's output dtype comes from. */
enum fwout {
	OUT_A,			/* x's */
	OUT_BF16,		/* bf16, not recorded */
	OUT_BIAS_OR_B,		/* the bias's with a bias, else the weight's */
	OUT_SLOT		/* slot out's when it has a known dtype, else x's */
};

/* The framework GEMMs' names, by the layout they share. */
static const char *const unquantized[] = {
	"vllm::rocm_unquantized_gemm", NULL
};
static const char *const a16w16[] = { "aiter::gemm_a16w16", NULL };
static const char *const a16w16_atomic[] = {
	"aiter::gemm_a16w16_atomic_",
	"sglang_profiler::gemm_kernels_flydsl_hgemm", NULL
};
static const char *const a16w16_asm[] = { "aiter::_gemm_a16w16_asm", NULL };
static const char *const a8w8[] = {
	"aiter::gemm_a8w8_ck", "aiter::gemm_a8w8_bpreshuffle",
	"aiter::gemm_a8w8_bpreshuffle_ck", "aiter::gemm_a8w8_blockscale_ck",
	"aiter::gemm_a8w8_blockscale_cktile",
	"aiter::gemm_a8w8_blockscale_bpreshuffle_ck",
	"aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",
	"aiter::_gemm_a8w8_blockscale_bpreshuffle_asm",
	"aiter::flatmm_a8w8_blockscale_asm",
	"aiter::gfx950_a8w8_blockscale_asm",
	"vllm::rocm_aiter_triton_gemm_a8w8_blockscale",
	"vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
	"sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
	"sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale", NULL
};
static const char *const afp4wfp4[] = { "aiter::gemm_afp4wfp4_", NULL };
static const char *const a4w4[] = {
	"aiter::gemm_a4w4", "aiter::_gemm_a4w4_asm", NULL
};
static const char *const cutlass[] = { "_C::cutlass_scaled_mm", NULL };

/* Framework GEMMs: out = x [M, K] · w^T (w [N, K]; [K, N] when kn). */
static const struct fw {
	const char *const *names;
	int a, b, bias;		/* slots; bias -1: none */
	enum fwout out;
	int out_slot;
	int kn;			/* w is [K, N] */
	int packed;		/* MXFP4: two values a byte along K */
	int scales;		/* slot of x's E8M0 scales, w's follow; -1 */
} fw[] = {
	{ unquantized, 0, 1, 2, OUT_BIAS_OR_B, 0, 0, 0, -1 },
	{ a16w16, 0, 1, 2, OUT_A, 0, 0, 0, -1 },
	{ a16w16_atomic, 0, 1, -1, OUT_SLOT, 3, 0, 0, -1 },
	{ a16w16_asm, 0, 1, -1, OUT_SLOT, 2, 0, 0, -1 },
	{ a8w8, 0, 1, -1, OUT_BF16, 0, 0, 0, -1 },
	{ afp4wfp4, 0, 1, -1, OUT_BF16, 0, 0, 1, -1 },
	{ a4w4, 0, 1, -1, OUT_BF16, 0, 0, 1, 2 },
	{ cutlass, 1, 2, 5, OUT_SLOT, 0, 1, 0, -1 },
};

/* Bytes of the E8M0 scales: (M + N)·ceil(K/32)·bpe (1 if unknown). */
static int
mx_scales(const struct tl_opargs *o, const struct fw *f,
    const struct gemm *g, int64_t *out)
{
	int64_t rows, per = (g->k + 31) / 32;
	int b = tl_dtype_bytes(tl_oparg(o, f->scales)->type);

	if (tl_add(&rows, g->m, g->n) < 0 || tl_mul(out, rows, per) < 0 ||
	    tl_mul(out, *out, b > 0 ? b : 1) < 0)
		return -1;
	return 0;
}

static int
framework(const struct tl_opargs *o, const struct fw *f, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, f->a), *b = tl_oparg(o, f->b);
	struct gemm g = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	int r, bo;

	if (need(o, f->a, 2, p) < 0 || need(o, f->b, 2, p) < 0)
		return -1;
	g.m = a->dim[0];
	g.k = a->dim[1];
	g.n = f->kn ? b->dim[1] : b->dim[0];
	if ((f->kn ? b->dim[0] : b->dim[1]) != g.k)
		return tl_perf_fail(p, "%s: K of x (%lld) and of the weight "
		    "(%lld) differ", o->name, (long long)g.k,
		    (long long)(f->kn ? b->dim[0] : b->dim[1]));
	g.bpe_a = tl_dtype_bytes(a->type);
	g.bpe_b = tl_dtype_bytes(b->type);
	if (f->bias >= 0) {
		if ((r = bias_bytes(o, f->bias, &g.bias_bytes)) < 0)
			return tl_perf_fail(p, "bias size overflows 64 bits");
		g.bias = r;
	}
	switch (f->out) {
	case OUT_A:
		g.bpe_out = g.bpe_a;
		break;
	case OUT_BF16:
		g.bpe_out = 2;
		break;
	case OUT_BIAS_OR_B:
		g.bpe_out = g.bias ? tl_dtype_bytes(tl_oparg(o,
		    f->bias)->type) : g.bpe_b;
		break;
	case OUT_SLOT:
		bo = tl_dtype_bytes(tl_oparg(o, f->out_slot)->type);
		g.bpe_out = bo > 0 ? bo : g.bpe_a;
		break;
	}
	p->maf = "matrix";
	p->precision = tl_dtype_precision(a->type);
	if (f->packed) {
		/* The operands' bytes are as stored; the FLOPs take K's. */
		g.kstored = g.k;
		if (tl_mul(&g.k, g.k, 2) < 0)
			return tl_perf_fail(p, "overflow");
		p->precision = "fp4";
	}
	params(o, &g, f->a, f->b, p);
	if (count(&g, p) < 0)
		return -1;
	if (p->has_bytes && f->scales >= 0) {
		int64_t sb = 0;

		if (mx_scales(o, f, &g, &sb) < 0 ||
		    tl_add(&p->bytes, p->bytes, sb) < 0)
			return tl_perf_fail(p, "byte count overflows 64 bits");
	}
	return 0;
}

int
tl_model_gemm(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	const char *n = o->name;
	struct gemm g = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	int ia = 0, ib = 1, rc = 0, bias = -1;

	size_t i, k;

	if (bwd)
		return tl_perf_fail(p, "%s: no backward model", n);
	for (i = 0; i < sizeof(fw) / sizeof(fw[0]); i++)
		for (k = 0; fw[i].names[k] != NULL; k++)
			if (strcmp(n, fw[i].names[k]) == 0)
				return framework(o, &fw[i], p);
	if (strcmp(n, "aten::mm") == 0) {
		rc = mm(o, &g, 0, p);
	} else if (strcmp(n, "aten::addmm") == 0) {
		ia = 1, ib = 2, bias = 0;
		rc = mm(o, &g, 1, p);
	} else if (strcmp(n, "aten::bmm") == 0) {
		rc = bmm(o, &g, 0, p);
	} else if (strcmp(n, "aten::baddbmm") == 0) {
		ia = 1, ib = 2, bias = 0;
		rc = bmm(o, &g, 1, p);
	} else if (strcmp(n, "aten::_scaled_mm") == 0 ||
	    strcmp(n, "trtllm::cublas_scaled_mm") == 0 ||
	    strcmp(n, "bitsandbytes::int8_linear_matmul") == 0) {
		rc = mm(o, &g, 0, p);
		if (strcmp(n, "aten::_scaled_mm") == 0)
			bias = 4;
	} else if (strcmp(n, "aten::linear") == 0) {
		rc = linear(o, &g, p);
		bias = 2;
	} else if (strcmp(n, "aten::matmul") == 0) {
		rc = matmul(o, &g, p);
	} else if (strcmp(n, "tex_ts::te_gemm_ts") == 0) {
		const struct tl_arg *a = tl_oparg(o, 0), *b = tl_oparg(o, 5);
		int ta = strcmp(tl_oparg(o, 4)->ci, "1") == 0;
		int tb = strcmp(tl_oparg(o, 9)->ci, "1") == 0;

		if (need(o, 0, 2, p) < 0 || need(o, 5, 2, p) < 0)
			return -1;
		g.m = ta ? a->dim[0] : a->dim[1];
		g.k = ta ? a->dim[1] : a->dim[0];
		g.n = tb ? b->dim[1] : b->dim[0];
		ib = 5;
		if (tl_oparg(o, 14)->ci[0] != '\0')
			bias = 18;
	} else if (strcmp(n, "vllm::gemm_with_dynamic_quant") == 0) {
		const struct tl_arg *a = tl_oparg(o, 0), *b = tl_oparg(o, 1);

		if (need(o, 0, 2, p) < 0 || need(o, 1, 2, p) < 0)
			return -1;
		g.m = a->dim[0];
		g.k = a->dim[1];
		g.n = b->dim[0];
	} else
		return tl_perf_fail(p, "%s: not a GEMM this model knows", n);
	if (rc < 0)
		return -1;
	g.bpe_a = tl_dtype_bytes(tl_oparg(o, ia)->type);
	g.bpe_b = tl_dtype_bytes(tl_oparg(o, ib)->type);
	g.bpe_out = g.bpe_a;
	if (strcmp(n, "vllm::gemm_with_dynamic_quant") == 0 ||
	    strcmp(n, "aten::mm") == 0 || strcmp(n, "aten::bmm") == 0)
		g.bpe_b = g.bpe_a;	/* TraceLens: one dtype for all */
	if (strcmp(n, "aten::_scaled_mm") == 0 ||
	    strcmp(n, "trtllm::cublas_scaled_mm") == 0 ||
	    strcmp(n, "bitsandbytes::int8_linear_matmul") == 0)
		g.bpe_out = scaled_out_bpe(strcmp(n, "aten::_scaled_mm") == 0 ?
		    tl_oparg(o, 6)->ci : NULL, g.bpe_a);
	if (bias >= 0) {
		int r = bias_bytes(o, bias, &g.bias_bytes);

		if (r < 0)
			return tl_perf_fail(p, "bias size overflows 64 bits");
		g.bias = r;
	}
	p->maf = "matrix";
	p->precision = tl_dtype_precision(tl_oparg(o, ia)->type);
	params(o, &g, ia, ib, p);
	return count(&g, p);
}
