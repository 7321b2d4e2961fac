/* See LICENSE file for copyright and license details. */
/*
 * Softmax and log-softmax along one dimension, forward and backward.
 * TraceLens has no model for these ops (its Softmax class in
 * TraceLens/PerfModel/perf_model.py only serves its attention
 * simulator), so this one is tl's own.
 *
 * N = elements of the input (of grad_output in the backward ops).
 *
 * Forward: aten::softmax, log_softmax, _safe_softmax (self, dim, dtype)
 * and aten::_softmax, _log_softmax (self, dim, half_to_float):
 *	flops = 5N: per element one compare (the row maximum), one
 *		subtraction (x - max), one exp, one addition (the row sum)
 *		and one division (softmax) or subtraction of the log-sum
 *		(log-softmax).  Per-row work (the log of the sum, a
 *		reciprocal) is not counted.
 *	bytes = N*bi + N*bo: the input read once and the output written
 *		once, each with its own dtype (rows are assumed to stay in
 *		cache between the passes).
 * bi is the input's dtype.  bo is the out tensor's when one is passed;
 * else float (4 bytes) when half_to_float is "True"; else the dtype
 * argument (a c10::ScalarType code, "6" = float, "15" = bfloat16); else
 * the input's.
 *
 * Backward: aten::_softmax_backward_data and _log_softmax_backward_data
 * (grad_output, output, dim, input_dtype):
 *	softmax:     grad_input = y * (g - sum(g * y))
 *	log-softmax: grad_input = g - exp(y) * sum(g)
 *	flops = 4N: a multiply (g*y) or an exp, the row sum, a subtraction
 *		and a multiply, per element.
 *	bytes = N*bg + N*by + N*bx: grad_output and output read, grad_input
 *		written in input_dtype (a ScalarType code; a tensor in older
 *		PyTorch; not recorded: grad_output's dtype).
 * bwd = 1 on a forward op models its backward from the forward call: the
 * same 4N flops and N*bo + N*bo + N*bi bytes.
 *
 * The dim is checked against the shape and reported normalized (-1 of a
 * 3-d input is 2); not recorded, it is left out of the params.
 * Params: op_shape, dim.  Unknown dtypes leave the bytes unknown.
 */
#include <stdint.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"
#include "model/opargs.h"

/* Read tensor argument i: its element count and bytes per element. */
static int
tensor(const struct tl_opargs *o, int i, const char *what, int64_t *n,
    int *bpe, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, i);

	if (!tl_arg_maybe_tensor(a))
		return tl_perf_fail(p, "argument %d (%s) is not a tensor", i,
		    what);
	if ((*n = tl_arg_numel(a)) < 0)
		return tl_perf_fail(p, "argument %d (%s): bad or too large "
		    "shape", i, what);
	*bpe = tl_dtype_bytes(a->type);
	return 0;
}

/* Check the dim in slot i against shape a; add the params. */
static int
dim_params(const struct tl_opargs *o, int i, const struct tl_arg *a,
    struct tl_perf *p)
{
	const char *ci = tl_oparg(o, i)->ci;
	int64_t d, nd = a->nd > 0 ? a->nd : 1;

	tl_perf_param_ints(p, "op_shape", a->dim, a->nd);
	if (tl_ci_blank(ci))
		return 0;
	if (tl_ci_int(ci, &d) < 0)
		return tl_perf_fail(p, "dim (argument %d) is \"%s\", not an "
		    "integer", i, ci);
	if (d < -nd || d >= nd)
		return tl_perf_fail(p, "dim %lld is out of range for a %d-d "
		    "input", (long long)d, a->nd);
	tl_perf_param_int(p, "dim", d < 0 ? d + nd : d);
	return 0;
}

/* The first tensor argument from slot i on (an out tensor), or NULL. */
static const struct tl_arg *
out_tensor(const struct tl_opargs *o, int i)
{
	for (; i < o->n; i++)
		if (tl_arg_is_tensor(tl_oparg(o, i)))
			return tl_oparg(o, i);
	return NULL;
}

/* Set flops = k*n and bytes = n*b (b = 0: a dtype is unknown). */
static int
counts(struct tl_perf *p, int64_t k, int64_t n, int b)
{
	if (tl_mul(&p->flops, k, n) < 0)
		return tl_perf_fail(p, "count overflows 64 bits");
	p->has_flops = 1;
	if (b == 0)
		return 0;
	if (tl_mul(&p->bytes, n, b) < 0)
		return tl_perf_fail(p, "count overflows 64 bits");
	p->has_bytes = 1;
	return 0;
}

int
tl_model_softmax(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, 0), *out;
	const char *ci = tl_oparg(o, 2)->ci;
	int64_t n, code;
	int bi, bo, h;

	if (tensor(o, 0, "the input", &n, &bi, p) < 0)
		return -1;
	p->maf = "vector";
	p->precision = tl_dtype_precision(a->type);
	if (dim_params(o, 1, a, p) < 0)
		return -1;
	bo = bi;
	if ((out = out_tensor(o, 3)) != NULL)
		bo = tl_dtype_bytes(out->type);
	else if ((h = tl_ci_truth(ci)) >= 0)
		bo = h ? 4 : bi;
	else if (tl_ci_int(ci, &code) == 0)
		bo = tl_scalar_type_bytes(code);
	else if (!tl_ci_blank(ci))
		return tl_perf_fail(p, "argument 2 is \"%s\", neither "
		    "half_to_float nor a dtype", ci);
	if (bi == 0 || bo == 0)
		return counts(p, bwd ? 4 : 5, n, 0);
	if (bwd)
		return counts(p, 4, n, 2 * bo + bi);
	return counts(p, 5, n, bi + bo);
}

int
tl_model_softmax_bwd(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	const struct tl_arg *g = tl_oparg(o, 0), *x = tl_oparg(o, 3), *out;
	int64_t n, ny, code;
	int bg, by, bx;

	if (bwd)
		return tl_perf_fail(p, "%s is a backward op; no backward "
		    "model", o->name != NULL ? o->name : "the op");
	if (tensor(o, 0, "grad_output", &n, &bg, p) < 0 ||
	    tensor(o, 1, "output", &ny, &by, p) < 0)
		return -1;
	if (ny != n)
		return tl_perf_fail(p, "grad_output has %lld elements, output "
		    "%lld", (long long)n, (long long)ny);
	p->maf = "vector";
	p->precision = tl_dtype_precision(g->type);
	if (dim_params(o, 2, g, p) < 0)
		return -1;
	if ((out = out_tensor(o, 4)) != NULL)
		bx = tl_dtype_bytes(out->type);
	else if (tl_arg_is_tensor(x))
		bx = tl_dtype_bytes(x->type);
	else if (tl_ci_blank(x->ci))
		bx = bg;
	else if (tl_ci_int(x->ci, &code) == 0)
		bx = tl_scalar_type_bytes(code);
	else
		return tl_perf_fail(p, "input_dtype (argument 3) is \"%s\", "
		    "not a ScalarType code", x->ci);
	return counts(p, 4, n, bg == 0 || by == 0 || bx == 0 ? 0 :
	    bg + by + bx);
}
