/* See LICENSE file for copyright and license details. */
/*
 * Reductions: aten::sum, mean, max, min, amax, amin, norm, linalg_norm,
 * linalg_vector_norm, std, var, logsumexp, cumsum, cumprod (TraceLens'
 * Reduce in TraceLens/PerfModel/perf_model.py).  bwd = 1 models the
 * backward pass of the forward op.
 *
 * I = elements of the input, O = elements of the output, bi and bo their
 * bytes per element:
 *	flops = I				(forward and backward)
 *	bytes = I*bi + O*bo [+ O*8]		(forward)
 *	bytes = O*bo + I*bi [+ O*8] [+ I*bi] [+ O*bo]	(backward)
 * The forward reads the input and writes the output; max and min with a
 * dim also write int64 indices (the [+ O*8]).  The backward reads
 * grad_output and writes grad_input; max/min with a dim read the indices;
 * the ops whose gradient needs the input (cumprod, amax, amin, max and min
 * of everything, norm, linalg_norm, linalg_vector_norm, std, var,
 * logsumexp) read it, and those that need the result too (all of these but
 * var) read that.  With neither, as for sum and mean, these are
 * TraceLens' formulas; flops stay its one operation per input element.
 *
 * O comes from the call: the dim argument ("[-1]", "[-1, -2]", "1";
 * absent, "" or "[]" = every dimension) and the input shape: the product
 * of the dimensions not reduced (keepdim changes the shape, not the
 * count).  Everything reduced gives 1; cumsum and cumprod keep I.  A dim
 * whose value was not recorded (a type but no concrete input) leaves O and
 * the bytes unknown.  bo is the dtype argument when given (a ScalarType
 * code: "6" = float), else the out tensor's, else the input's, but sum,
 * cumsum and cumprod of an integer or bool input give int64, and
 * logsumexp of one float.  aten::max/min of two tensors is elementwise
 * and fails here.
 *
 * Params, TraceLens' keys: num_input_elems, num_output_elems (absent when
 * unknown), reduce_type ("mean", "max", "min", "norm" when the name
 * contains it, in that order, else "sum").
 *
 * Deviation (docs/DEVIATIONS.md): TraceLens looks for
 * dim and keepdim among Python ints, lists and bools, but the profiler
 * records strings, so its O is always 1 (I for cumsum and cumprod), and
 * its bo is always bi.  tl counts the real output, the indices of max
 * and min, and the inputs the backward reads.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"
#include "model/opargs.h"

/* How an op's arguments are laid out and what its backward reads. */
struct layout {
	int dim, dtype;		/* slots, -1 = none */
	int all;		/* reduces every dimension */
	int scan;		/* cumsum, cumprod: O = I */
	int indices;		/* also returns int64 indices */
	int need_in, need_out;	/* the backward reads the input, result */
	int int64;		/* integer input gives int64 */
	int tofloat;		/* integer input gives float */
};

/* An integer or bool dtype (the profiler's names). */
static int
integral(const char *t)
{
	static const char *const names[] = {
		"bool", "unsigned char", "signed char", "short", "short int",
		"int", "long int", "long", "long long int"
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(t, names[i]) == 0)
			return 1;
	return 0;
}

static const char *
reduce_type(const char *name)
{
	if (strstr(name, "mean") != NULL)
		return "mean";
	if (strstr(name, "max") != NULL)
		return "max";
	if (strstr(name, "min") != NULL)
		return "min";
	if (strstr(name, "norm") != NULL)
		return "norm";
	return "sum";
}

/* The argument layout of op o; -1 if the op is no reduction. */
static int
layout(const struct tl_opargs *o, struct layout *l, struct tl_perf *p)
{
	const char *s = o->name != NULL ? o->name : "";
	int n = o->n;

	if (strncmp(s, "aten::", 6) == 0)
		s += 6;
	memset(l, 0, sizeof(*l));
	l->dim = 1;
	l->dtype = -1;
	if (strcmp(s, "sum") == 0 || strcmp(s, "mean") == 0) {
		/* sum(self, dtype) or sum.dim_IntList(self, dim, keepdim). */
		l->int64 = s[0] == 's';
		if (n <= 2) {
			l->all = 1;
			l->dtype = 1;
		} else
			l->dtype = 3;
	} else if (strcmp(s, "amax") == 0 || strcmp(s, "amin") == 0) {
		l->need_in = l->need_out = 1;
	} else if (strcmp(s, "max") == 0 || strcmp(s, "min") == 0) {
		/* max(self), or max.dim(self, dim, keepdim) with indices. */
		if (tl_arg_is_tensor(tl_oparg(o, 1)))
			return tl_perf_fail(p, "aten::%s of two tensors is "
			    "elementwise, not a reduction", s);
		if (n <= 1)
			l->all = l->need_in = l->need_out = 1;
		else
			l->indices = 1;
	} else if (strcmp(s, "norm") == 0) {
		/* norm(self, p, dtype), norm.ScalarOpt_dim(self, p, dim, k). */
		l->need_in = l->need_out = 1;
		if (n <= 3) {
			l->all = 1;
			l->dtype = 2;
		} else {
			l->dim = 2;
			l->dtype = 4;
		}
	} else if (strcmp(s, "linalg_norm") == 0 ||
	    strcmp(s, "linalg_vector_norm") == 0) {
		/* Both take (self, ord, dim, keepdim, dtype). */
		l->need_in = l->need_out = 1;
		l->dim = 2;
		l->dtype = 4;
	} else if (strcmp(s, "std") == 0 || strcmp(s, "var") == 0) {
		/* std(self, unbiased) or std.correction(self, dim, c, k). */
		l->need_in = 1;
		l->need_out = s[0] == 's';
		l->all = n <= 2;
	} else if (strcmp(s, "logsumexp") == 0) {
		l->need_in = l->need_out = l->tofloat = 1;
	} else if (strcmp(s, "cumsum") == 0 || strcmp(s, "cumprod") == 0) {
		/* Both take (self, dim, dtype). */
		l->scan = l->int64 = 1;
		l->need_in = l->need_out = s[3] == 'p';
		l->dtype = 2;
	} else {
		/* Another op: a dim list or int, if any, in slot 1. */
		const char *ci = tl_oparg(o, 1)->ci;

		if (tl_ci_blank(ci) || tl_ci_truth(ci) >= 0)
			l->all = 1;
	}
	return 0;
}

/*
 * O of a reduction of input a over the dims in slot i (*known = 0 when
 * the dims were not recorded).
 */
static int
outsize(const struct tl_opargs *o, const struct tl_arg *a, int i,
    int64_t *out, int *known, struct tl_perf *p)
{
	const struct tl_arg *d = tl_oparg(o, i);
	int64_t v[TL_MAXDIM];
	int red[TL_MAXDIM] = { 0 };
	int k, n, nd = a->nd;

	*out = 1;
	*known = 1;
	if (tl_ci_blank(d->ci)) {
		/* An absent dim reduces all; one not recorded is unknown. */
		*known = d->type[0] == '\0';
		return 0;
	}
	n = tl_ci_ints(d->ci, v, TL_MAXDIM);
	if (n < 0)
		return tl_perf_fail(p, "dim (argument %d) is \"%s\", not an "
		    "integer or a list of integers", i, d->ci);
	if (n == 0)
		return 0;
	for (k = 0; k < n; k++) {
		int64_t x = v[k] < 0 ? v[k] + (nd > 0 ? nd : 1) : v[k];

		if (x < 0 || x >= (nd > 0 ? nd : 1))
			return tl_perf_fail(p, "dim %lld is out of range for "
			    "a %d-d input", (long long)v[k], nd);
		if (nd > 0)
			red[x] = 1;
	}
	for (k = 0; k < nd; k++)
		if (!red[k] && tl_mul(out, *out, a->dim[k]) < 0)
			return tl_perf_fail(p, "count overflows 64 bits");
	return 0;
}

/* bo: the dtype argument, the out tensor, or the input's. */
static int
outbytes(const struct tl_opargs *o, const struct layout *l, const char *tin,
    int *bo, struct tl_perf *p)
{
	const char *ci = tl_oparg(o, l->dtype)->ci;
	int64_t code;
	int i;

	if (l->dtype >= 0 && !tl_ci_blank(ci)) {
		if (tl_ci_int(ci, &code) < 0)
			return tl_perf_fail(p, "dtype (argument %d) is \"%s\", "
			    "not a ScalarType code", l->dtype, ci);
		*bo = tl_scalar_type_bytes(code);
		return 0;
	}
	for (i = 1; i < o->n; i++)
		if (tl_arg_is_tensor(tl_oparg(o, i))) {
			*bo = tl_dtype_bytes(tl_oparg(o, i)->type);
			return 0;
		}
	if (integral(tin) && (l->int64 || l->tofloat))
		*bo = l->int64 ? 8 : 4;
	else
		*bo = tl_dtype_bytes(tin);
	return 0;
}

int
tl_model_reduce(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, 0);
	struct layout l;
	int64_t in, out = 1, bytes = 0;
	int known = 1, bi, bo = 0, ovf = 0;

	if (!tl_arg_maybe_tensor(a))
		return tl_perf_fail(p, "argument 0 (the input) is not a "
		    "tensor");
	if ((in = tl_arg_numel(a)) < 0)
		return tl_perf_fail(p, "argument 0: bad or too large shape");
	if (layout(o, &l, p) < 0)
		return -1;
	p->maf = "vector";
	p->precision = tl_dtype_precision(a->type);
	if (l.scan) {
		/* The dim must still make sense. */
		if (outsize(o, a, l.dim, &out, &known, p) < 0)
			return -1;
		out = in;
		known = 1;
	} else if (!l.all && outsize(o, a, l.dim, &out, &known, p) < 0)
		return -1;
	bi = tl_dtype_bytes(a->type);
	if (outbytes(o, &l, a->type, &bo, p) < 0)
		return -1;

	tl_perf_param_int(p, "num_input_elems", in);
	if (known)
		tl_perf_param_int(p, "num_output_elems", out);
	tl_perf_param_str(p, "reduce_type", reduce_type(o->name != NULL ?
	    o->name : ""));
	p->has_flops = 1;
	p->flops = in;
	if (!known || bi == 0 || bo == 0)
		return 0;
	tl_mac(&bytes, in, bi * (1 + (bwd && l.need_in)), &ovf);
	tl_mac(&bytes, out, bo * (1 + (bwd && l.need_out)), &ovf);
	if (l.indices)
		tl_mac(&bytes, out, 8, &ovf);
	if (ovf)
		return tl_perf_fail(p, "count overflows 64 bits");
	p->has_bytes = 1;
	p->bytes = bytes;
	return 0;
}
