/* See LICENSE file for copyright and license details. */
/*
 * Elementwise family (TraceLens' UnaryElementwise and BinaryElementwise
 * in TraceLens/PerfModel/perf_model.py).  One FLOP per output element;
 * bytes are every input read once plus the output written once.
 *
 * Unary (x [, out]): n = numel(x); flops = n; bytes = n·bpe(x) + n·bpe(out),
 * where out is the second slot when it holds a tensor (copy_'s source),
 * else x's dtype.  replication_pad*d and upsample_nearest*d count their
 * output shape, computed from the padding / output size arguments.
 *
 * Binary (a, b [, out]): the output shape is the broadcast of a and b;
 * flops = numel(out); bytes = numel(a)·bpe(a) + numel(b)·bpe(b) +
 * numel(out)·bpe(out).  bpe(out) is the third slot's dtype when it is a
 * tensor, else the larger of the two (the smaller's when one is a 0-dim
 * scalar: a's).  As TraceLens, tl does not apply PyTorch's full type
 * promotion.
 */
#include <string.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

static int
unary(const struct tl_opargs *o, struct tl_perf *p)
{
	const struct tl_arg *x = tl_oparg(o, 0), *out = tl_oparg(o, 1);
	int64_t shape[TL_MAXDIM], n, b1, b2;
	int nd = x->nd, i, bpe_in, bpe_out;

	if (x->kind == TL_ARG_LIST || !tl_arg_is_tensor(x))
		return tl_perf_fail(p, "%s: first input is not a tensor",
		    o->name);
	memcpy(shape, x->dim, sizeof(shape));
	bpe_in = tl_dtype_bytes(x->type);
	bpe_out = bpe_in;
	if (strncmp(o->name, "aten::replication_pad", 21) == 0) {
		int64_t pad[2 * TL_MAXDIM];
		int np = tl_ci_ints(tl_oparg(o, 1)->ci, pad, 2 * TL_MAXDIM);

		if (np < 0 || np % 2 != 0 || np / 2 > nd)
			return tl_perf_fail(p, "%s: bad padding '%s'", o->name,
			    tl_oparg(o, 1)->ci);
		for (i = 0; i < np / 2; i++)
			shape[nd - 1 - i] += pad[2 * i] + pad[2 * i + 1];
	} else if (strncmp(o->name, "aten::upsample_nearest", 22) == 0) {
		int64_t size[TL_MAXDIM];
		int ns = tl_ci_ints(tl_oparg(o, 1)->ci, size, TL_MAXDIM);

		if (ns <= 0 || nd != ns + 2)
			return tl_perf_fail(p, "%s: no output size in '%s'",
			    o->name, tl_oparg(o, 1)->ci);
		memcpy(shape + 2, size, (size_t)ns * sizeof(*size));
	} else if (out->kind == TL_ARG_SHAPE && tl_arg_is_tensor(out))
		bpe_out = tl_dtype_bytes(out->type);
	n = 1;
	for (i = 0; i < nd; i++)
		if (shape[i] < 0 || tl_mul(&n, n, shape[i]) < 0)
			return tl_perf_fail(p, "%s: bad shape", o->name);
	p->flops = n;
	p->has_flops = 1;
	tl_perf_param_ints(p, "op_shape", shape, nd);
	tl_perf_param_str(p, "dtype_in", x->type);
	if (x->nst >= 0)
		tl_perf_param_ints(p, "stride_input", x->st, x->nst);
	if (bpe_in == 0 || bpe_out == 0)
		return 0;
	if (tl_mul(&b1, tl_arg_numel(x), bpe_in) < 0 ||
	    tl_mul(&b2, n, bpe_out) < 0 || tl_add(&p->bytes, b1, b2) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->has_bytes = 1;
	return 0;
}

static int
binary(const struct tl_opargs *o, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, 0), *b = tl_oparg(o, 1);
	const struct tl_arg *out = tl_oparg(o, 2);
	int64_t bc[TL_MAXDIM], n = 1, n1, n2, t1, t2, t3;
	int nd = a->nd > b->nd ? a->nd : b->nd, i, bpe1, bpe2, bpe_out;

	if (a->kind == TL_ARG_LIST || b->kind == TL_ARG_LIST)
		return tl_perf_fail(p, "%s: an input is a list", o->name);
	for (i = 0; i < nd; i++) {
		int ia = a->nd - nd + i, ib = b->nd - nd + i;
		int64_t da = ia >= 0 ? a->dim[ia] : 1;
		int64_t db = ib >= 0 ? b->dim[ib] : 1;

		if (da != db && da != 1 && db != 1)
			return tl_perf_fail(p, "%s: shapes do not broadcast",
			    o->name);
		bc[i] = da == 1 ? db : da;
		if (bc[i] < 0 || tl_mul(&n, n, bc[i]) < 0)
			return tl_perf_fail(p, "%s: bad shape", o->name);
	}
	p->flops = n;
	p->has_flops = 1;
	tl_perf_param_ints(p, "shape_in1", a->dim, a->nd);
	tl_perf_param_ints(p, "shape_in2", b->dim, b->nd);
	tl_perf_param_ints(p, "shape_out", bc, nd);
	tl_perf_param_str(p, "dtype_in1", a->type);
	tl_perf_param_str(p, "dtype_in2", b->type);
	bpe1 = tl_dtype_bytes(a->type);
	bpe2 = tl_dtype_bytes(b->type);
	if (out->kind == TL_ARG_SHAPE && tl_arg_is_tensor(out))
		bpe_out = tl_dtype_bytes(out->type);
	else if (a->nd > 0 && b->nd > 0)
		bpe_out = bpe1 > bpe2 ? bpe1 : bpe2;
	else
		bpe_out = bpe1;
	if (bpe1 == 0 || bpe2 == 0 || bpe_out == 0)
		return 0;
	n1 = tl_arg_numel(a);
	n2 = tl_arg_numel(b);
	if (n1 < 0 || n2 < 0 || tl_mul(&t1, n1, bpe1) < 0 ||
	    tl_mul(&t2, n2, bpe2) < 0 || tl_mul(&t3, n, bpe_out) < 0 ||
	    tl_add(&t1, t1, t2) < 0 || tl_add(&p->bytes, t1, t3) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->has_bytes = 1;
	return 0;
}

int
tl_model_unary(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	if (bwd)
		return tl_perf_fail(p, "%s: no backward model", o->name);
	p->maf = "vector";
	p->precision = tl_dtype_precision(tl_oparg(o, 0)->type);
	return unary(o, p);
}

int
tl_model_binary(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	if (bwd)
		return tl_perf_fail(p, "%s: no backward model", o->name);
	p->maf = "vector";
	p->precision = tl_dtype_precision(tl_oparg(o, 0)->type);
	return binary(o, p);
}
