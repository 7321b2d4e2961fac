/* See LICENSE file for copyright and license details. */
#ifndef TL_PERFCOLS_H
#define TL_PERFCOLS_H

/*
 * The columns of tl-perfmodel (man/tl-format.5): perf_model, flops, bytes,
 * flops_per_byte, compute_spec, params, perf_error.  tl-perfmodel writes
 * them; tl-efficiency writes them too when its input lacks them, and
 * otherwise reads them back.
 */
#include <stdint.h>

#include "common/tsv.h"
#include "model/rowmodel.h"
#include "stream/schema.h"
#include "stream/stream.h"

/* Its columns, in the order of the table TL_TAB_PERF. */
enum {
	TL_PC_MODEL, TL_PC_FLOPS, TL_PC_BYTES, TL_PC_FPB, TL_PC_SPEC,
	TL_PC_PARAMS, TL_PC_ERROR, TL_PC_N
};

struct tl_perfcols {
	struct tl_rowmodel m;
	struct tl_perf p;
	int rc;			/* of tl_rowmodel_run */
	const char *model;
	char spec[32];
	struct tl_outcols oc;
	/* the values of the current row */
	int has_flops, has_bytes;
	int64_t flops, bytes;
	const char *compute_spec;
};

/*
 * Set up for stream s: the output is its columns, less the perf columns,
 * then those.  Writes the header when w is not NULL.
 */
void tl_perfcols_init(struct tl_perfcols *pc, struct tl_stream *s,
    struct tl_writer *w);
void tl_perfcols_free(struct tl_perfcols *pc);
/* Model the current row and write it with the perf columns. */
void tl_perfcols_row(struct tl_perfcols *pc, struct tl_stream *s,
    struct tl_writer *w);
/* Model the stream's current row only (fills the values above). */
void tl_perfcols_model(struct tl_perfcols *pc);
/* Write perf column k of the row last modelled. */
void tl_perfcols_write(const struct tl_perfcols *pc, int k,
    struct tl_writer *w);

#endif
