/* See LICENSE file for copyright and license details. */
#ifndef TL_EXPR_H
#define TL_EXPR_H

/*
 * Integer formulas over an op's arguments, for user model files
 * (tl-perfmodel(1), MODEL FILES).  C-like syntax on 64-bit integers:
 *
 *	numbers, ( ), unary - !, * / %, + -, < <= > >= == !=, && ||, c ? a : b
 *
 * and functions of argument slot i (0-based):
 *
 *	numel(i)	elements of the tensor (1 for a 0-dim one)
 *	dim(i, j)	size of dimension j (negative j counts from the end)
 *	ndim(i)		number of dimensions
 *	bpe(i)		bytes per element of its dtype
 *	has(i)		1 if slot i holds a tensor
 *	ci(i)		the concrete input as an integer (True 1, False 0)
 *	ci(i, j)	element j of a concrete list input "[3, 3]"
 *	min(a, b), max(a, b)
 *
 * Division truncates; overflow, division by zero, a missing argument or
 * an unknown dtype is an error, never a wrong number.  &&, || and ?:
 * evaluate only the operand they need, as in C, so has(5) ? numel(5) : 0
 * works when slot 5 is absent.
 */
#include <stddef.h>
#include <stdint.h>

#include "model/opargs.h"

/*
 * Evaluate expr for op o.  Returns 0 with *v set, or -1 with a message in
 * err (at most errlen bytes).
 */
int tl_expr_eval(const char *expr, const struct tl_opargs *o, int64_t *v,
    char *err, size_t errlen);
/* Check the syntax only (no op): 0, or -1 with a message. */
int tl_expr_check(const char *expr, char *err, size_t errlen);

#endif
