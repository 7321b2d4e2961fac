/* See LICENSE file for copyright and license details. */
#ifndef TL_COLLECTIVE_H
#define TL_COLLECTIVE_H

/*
 * The collective of each comm row of the op stream, as data (the
 * collective column, tl-format(5)): its type, message sizes in elements
 * and bytes, dtype, group size, process group (name, description, ranks)
 * and sequence number in its process group, from the record_param_comms
 * arguments under the row's op (struct tl_args.comm); where they are
 * absent, the type from the collective kernels' names when the names say
 * it, and the sequence from the row's order among its group's
 * collectives.
 */
#include <stdint.h>

#include "common/jsonw.h"
#include "trace/rollup.h"
#include "trace/trace.h"

struct tl_colls {
	uint32_t *comm;		/* by row: the arguments' id, 0 none */
	int64_t *seq;		/* by row: sequence, TL_NONE (no collective) */
	uint8_t *ordered;	/* by row: seq counted here, not the trace's */
	size_t n;
};

/* The collectives of the rows (no allocation when none is comm). */
void tl_colls_find(const struct tl_trace *t, const struct tl_rows *rows,
    struct tl_colls *c);
void tl_colls_free(struct tl_colls *c);
/*
 * Row i's collective column into jb (reset first): a compact JSON object,
 * or nothing for a row that is not a collective.
 */
void tl_coll_json(const struct tl_colls *c, const struct tl_trace *t,
    const struct tl_rows *rows, size_t i, struct tl_jbuf *jb);
/*
 * The collective type a name says ("allreduce", "_allgather_base",
 * "ncclKernel_AllReduce_RING_LL_Sum_float"): "all_reduce",
 * "all_gather", "reduce_scatter", "all_to_all", "broadcast", "reduce",
 * "gather", "scatter", "send_recv", "send", "recv", "barrier", or NULL
 * when it says none (ncclDevKernel_Generic).
 */
const char *tl_coll_type(const char *name);
/* Bytes of one element of a c10::ScalarType name ("BFloat16"), 0 unknown. */
int tl_coll_dtype_bytes(const char *dtype);

#endif
