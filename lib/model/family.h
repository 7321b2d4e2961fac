/* See LICENSE file for copyright and license details. */
#ifndef TL_FAMILY_H
#define TL_FAMILY_H

/*
 * The perf-model families by name, and the one entry point that runs the
 * model of an op: a model file's formulas (model/model_file.h) when one
 * names the op, else the C family the op table names.
 */
#include "model/opargs.h"
#include "model/perfmodel.h"

/* The model of a family name ("gemm", "conv", ...), or NULL. */
tl_model_fn tl_model_find(const char *family);

/*
 * Run the model of op o: a model file's formulas when one names the op
 * (model_file.h), else the family's C model (from the op table).
 * Returns 0 with p filled, 1 when no model applies
 * (p->err empty), -1 when the model fails (p->err says why).
 */
int tl_perf_run(const struct tl_opargs *o, const char *family, int bwd,
    struct tl_perf *p);

#endif
