/* See LICENSE file for copyright and license details. */
#ifndef TL_FAMILY_H
#define TL_FAMILY_H

/*
 * The perf-model families: FLOPs and bytes moved by one op from its
 * arguments, after TraceLens' models (TraceLens/PerfModel/perf_model.py).
 * A family is named in the op table (column "model"); each lives in
 * lib/model/model_<family>.c, which documents its formulas and where
 * they differ from TraceLens (docs/DEVIATIONS.md).  Here: the families by
 * name, and the one entry point that runs the model of an op: a model
 * file's formulas (model/model_file.h) when one names the op, else the C
 * family the op table names.
 */
#include "model/opargs.h"
#include "model/perfresult.h"

/*
 * A model family.  bwd = 1 asks for the backward pass of a forward op
 * (the row of its autograd wrapper).  Returns 0, or -1 with p->err set.
 * On entry p is reset by tl_perf_reset.
 */
typedef int (*tl_model_fn)(const struct tl_opargs *o, int bwd,
    struct tl_perf *p);

/*
 * The families, from model_gemm.c, model_eltwise.c (unary, binary),
 * model_conv.c, model_sdpa.c, model_reduce.c, model_softmax.c,
 * model_moe.c (moe) and model_paged.c (paged_attn).
 */
int tl_model_gemm(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_unary(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_binary(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_conv(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_conv_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_sdpa(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_sdpa_bwd(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_reduce(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_softmax(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_softmax_bwd(const struct tl_opargs *, int, struct tl_perf *);
/* Serving workloads: model_moe.c (expert GEMMs), model_paged.c. */
int tl_model_moe(const struct tl_opargs *, int, struct tl_perf *);
int tl_model_paged(const struct tl_opargs *, int, struct tl_perf *);
/*
 * The norm families (batchnorm, layernorm, groupnorm, instancenorm,
 * rmsnorm and their _bwd) are one model, model_norm.c, which reads each
 * op's arguments where its family's layout says.  tl_norm_family: 1 if
 * family is one of them.
 */
int tl_norm_family(const char *family);
int tl_model_norm(const char *family, const struct tl_opargs *o, int bwd,
    struct tl_perf *p);

/* 1 when tl models family (a C model or a norm family). */
int tl_perf_family_known(const char *family);
/*
 * Run the model of op o: a model file's formulas when one names the op
 * (model_file.h), else the family's C model (from the op table).
 * Returns 0 with p filled, 1 when no model applies
 * (p->err empty), -1 when the model fails (p->err says why).
 */
int tl_perf_run(const struct tl_opargs *o, const char *family, int bwd,
    struct tl_perf *p);

#endif
