/* See LICENSE file for copyright and license details. */
#ifndef TL_OPARGS_H
#define TL_OPARGS_H

/*
 * The arguments of one op, read from the stream's compact JSON fields
 * input_dims, input_types, input_strides and concrete_inputs (the
 * profiler's "Input Dims", "Input type", "Input Strides", "Concrete
 * Inputs").  Slot i of each list describes the op's i-th argument.
 *
 * A slot's dims are a tensor shape ([8,1024]), empty ([]: a 0-dim tensor,
 * a scalar or an absent optional; the type tells which: "" = absent), or
 * a list of shapes (a TensorList).  Strings point into the opargs' own
 * storage and live until the next tl_opargs_parse or tl_opargs_free.
 */
#include <stddef.h>
#include <stdint.h>

#define TL_MAXDIM 8

enum tl_argkind {
	TL_ARG_EMPTY,		/* [] */
	TL_ARG_SHAPE,		/* [d0,d1,...] */
	TL_ARG_LIST		/* [[...],...] or anything else nested */
};

struct tl_arg {
	enum tl_argkind kind;
	int nd;			/* dims of a shape (0 for empty) */
	int64_t dim[TL_MAXDIM];
	int nst;		/* strides of a shape; -1 when not recorded */
	int64_t st[TL_MAXDIM];
	const char *type;	/* "c10::BFloat16", "Scalar", "" */
	const char *ci;		/* concrete input, unescaped: "[1, 1]", "True", "" */
};

struct tl_opargs {
	const char *name;	/* op name (not owned) */
	int n;			/* number of argument slots */
	struct tl_arg *a;
	char *ctx;		/* context_args: a JSON object, or NULL */
	size_t ctxcap;
	/* storage */
	int cap;
	char *buf;
	size_t bufcap, buflen;
};

void tl_opargs_init(struct tl_opargs *o);
void tl_opargs_free(struct tl_opargs *o);
/*
 * Parse the four JSON texts (NULL or "" = not recorded).  Returns 0, or
 * -1 with *err set when a field is not the JSON shape the profiler writes.
 * Slots beyond a shorter list get empty dims, type "" and ci "".
 */
int tl_opargs_parse(struct tl_opargs *o, const char *name, const char *dims,
    const char *types, const char *strides, const char *concrete,
    const char **err);

/*
 * The row's context_args (NULL or "": none): what tl-parse found about
 * the op outside its arguments, a JSON object such as {"topk":4} or
 * {"c_sq":8155,...}.  Returns 0, or -1 with *err set when it is not a
 * JSON object (o then has none).
 */
int tl_opargs_set_ctx(struct tl_opargs *o, const char *json, const char **err);
/*
 * Member key of the context args as an integer (true is 1, false 0) or
 * as a string copied into buf[n]: 0 found, 1 absent, -1 of another type
 * (or a string longer than n - 1).
 */
int tl_ctx_int(const struct tl_opargs *o, const char *key, int64_t *v);
int tl_ctx_str(const struct tl_opargs *o, const char *key, char *buf,
    size_t n);
/*
 * Member key of the context args as a list of integers ([4,32,16,16])
 * into v[max]: their number, or -1 when absent or not such a list.
 */
int tl_ctx_ints(const struct tl_opargs *o, const char *key, int64_t *v,
    int max);

/* Slot i, or a static empty slot when i is out of range. */
const struct tl_arg *tl_oparg(const struct tl_opargs *o, int i);
/* 1 if slot i is a tensor with a recorded dtype (shape or 0-dim). */
int tl_arg_is_tensor(const struct tl_arg *a);
/* 1 if slot i is a tensor, or a shape whose dtype was not recorded. */
int tl_arg_maybe_tensor(const struct tl_arg *a);
/* Product of the dims (1 for an empty shape); -1 on overflow. */
int64_t tl_arg_numel(const struct tl_arg *a);

#endif
