/* See LICENSE file for copyright and license details. */
#ifndef TL_PERFRESULT_H
#define TL_PERFRESULT_H

/*
 * What a perf model found for one op: its FLOPs and bytes as exact 64-bit
 * counts, the roof kind and precision of its compute spec, its parameters
 * as a JSON object, or why it could not count (unknown dtype, missing
 * argument, overflow); and the helpers a model fills it with.  The
 * models themselves are in model/family.h.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/jsonw.h"

struct tl_perf {
	int has_flops, has_bytes;
	int64_t flops, bytes;
	const char *maf;	/* "matrix" or "vector" (roof kind), NULL */
	const char *precision;	/* "bf16", "fp32", ..., NULL = unknown */
	struct tl_jbuf params;	/* model parameters as a JSON object */
	int nparams;
	char err[160];		/* why there is no count, when returning -1 */
};

void tl_perf_reset(struct tl_perf *p);
void tl_perf_free(struct tl_perf *p);
/* Make dst (reset or zeroed) a copy of src. */
void tl_perf_copy(struct tl_perf *dst, const struct tl_perf *src);
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
/* The compute spec of p ("matrix_bf16") into buf; "" when unknown. */
const char *tl_perf_spec(const struct tl_perf *p, char *buf, size_t n);

#endif
