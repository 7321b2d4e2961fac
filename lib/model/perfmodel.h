/* See LICENSE file for copyright and license details. */
#ifndef TL_PERFMODEL_H
#define TL_PERFMODEL_H

/*
 * Performance models: FLOPs and bytes moved by one op from its arguments
 * (semantics §6-§7).  A model family is named in the op table (column
 * "model"); each family lives in lib/model/model_<family>.c and has the
 * signature of tl_model_fn; model/family.h finds and runs them.  Counts are exact 64-bit integers; a model
 * that cannot count (unknown dtype, missing argument, overflow) says why.
 */
#include <stdint.h>

#include "common/jsonw.h"
#include "model/dtype.h"
#include "model/opargs.h"

struct tl_perf {
	int has_flops, has_bytes;
	int64_t flops, bytes;
	const char *maf;	/* "matrix" or "vector" (roof kind), NULL */
	const char *precision;	/* "bf16", "fp32", ..., NULL = unknown */
	struct tl_jbuf params;	/* model parameters as a JSON object */
	int nparams;
	char err[160];		/* why there is no count, when returning -1 */
};

/*
 * A model family.  bwd = 1 asks for the backward pass of a forward op
 * (the row of its autograd wrapper).  Returns 0, or -1 with p->err set.
 * On entry p is reset by tl_perf_reset.
 */
typedef int (*tl_model_fn)(const struct tl_opargs *o, int bwd,
    struct tl_perf *p);

void tl_perf_reset(struct tl_perf *p);
void tl_perf_free(struct tl_perf *p);
/* Set p->err from a format and return -1. */
int tl_perf_fail(struct tl_perf *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append one parameter to p->params. */
void tl_perf_param_int(struct tl_perf *p, const char *key, int64_t v);
void tl_perf_param_str(struct tl_perf *p, const char *key, const char *v);
void tl_perf_param_bool(struct tl_perf *p, const char *key, int v);
/* A shape or any int list: [8,1024]. */
void tl_perf_param_ints(struct tl_perf *p, const char *key, const int64_t *v,
    int n);
/* Close the params object (called by tl_perf_run). */
void tl_perf_params_end(struct tl_perf *p);


/* Checked arithmetic: 0, or -1 on overflow (*r unchanged). */
int tl_mul(int64_t *r, int64_t a, int64_t b);
int tl_add(int64_t *r, int64_t a, int64_t b);
/* *acc += a * b, checked; sets *ovf on overflow and then does nothing. */
void tl_mac(int64_t *acc, int64_t a, int64_t b, int *ovf);

/*
 * The families.  Each file documents its formulas and where they differ
 * from TraceLens (docs/DEVIATIONS.md).
 */
int tl_model_gemm(const struct tl_opargs *, int, struct tl_perf *);	/* model_gemm.c */
int tl_model_unary(const struct tl_opargs *, int, struct tl_perf *);	/* model_eltwise.c */
int tl_model_binary(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_conv(const struct tl_opargs *, int, struct tl_perf *);	/* model_conv.c */
int tl_model_conv_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_sdpa(const struct tl_opargs *, int, struct tl_perf *);	/* model_sdpa.c */
int tl_model_sdpa_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_reduce(const struct tl_opargs *, int, struct tl_perf *);	/* model_reduce.c */
int tl_model_softmax(const struct tl_opargs *, int, struct tl_perf *);	/* model_softmax.c */
int tl_model_softmax_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_batchnorm(const struct tl_opargs *, int, struct tl_perf *);	/* model_norm.c */
int tl_model_batchnorm_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_layernorm(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_layernorm_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_groupnorm(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_groupnorm_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_instancenorm(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_instancenorm_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_rmsnorm(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_rmsnorm_bwd(const struct tl_opargs *, int, struct tl_perf *);

#endif
