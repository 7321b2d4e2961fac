/* See LICENSE file for copyright and license details. */
#ifndef TL_ROLLUP_H
#define TL_ROLLUP_H

/*
 * Rows of the op stream.  The default view rolls kernels up as TraceLens'
 * unified table does (collect_unified_perf_events in
 * TraceLens/TreePerf/tree_perf.py): an op with a perf model takes its
 * whole subtree, otherwise the leaf launcher; a backward wrapper whose
 * forward op has a backward model takes its subtree; kernels left over become one
 * synthetic row each under their nearest op, except that those a graph
 * launch replays (and no captured op took) become one row per launch and
 * kernel family (stream/kerntable.h).  Collective kernels never
 * enter those rows: they go to one comm row per launching op.  So every
 * linked GPU event is counted in exactly one row.
 *
 * With a window, the rows are those whose op starts in it.
 *
 * The launcher view (TraceLens' get_kernel_launchers, same file) is one
 * row per launching op with its direct kernels (collectives skipped), and
 * the subtree's busy time beside.
 */
#include <stdint.h>

#include "common/util.h"
#include "trace/trace.h"

enum tl_rowkind {
	TL_ROW_MODEL,		/* op with a perf model: its subtree */
	TL_ROW_LEAF,		/* leaf launcher */
	TL_ROW_BWD,		/* backward wrapper, modelled by its forward op */
	TL_ROW_SYNTH,		/* one kernel left over, under its nearest op */
	TL_ROW_COMM,		/* collective kernels of one op */
	TL_ROW_LAUNCHER,	/* launcher view */
	TL_ROW_PSEUDO,		/* kernels of an op split off (TraceLens'
				   pseudo-ops), named name */
	TL_ROW_GRAPH		/* GPU events of one graph launch and kernel
				   family that no captured op took (trace/
				   capture.h), named "LAUNCH: FAMILY" */
};

struct tl_row {			/* widest members first: no padding */
	int64_t busy;		/* union of the GPU events, ns */
	const char *name;	/* a pseudo-op's name; NULL: the op's */
	const char *category;
	int op;			/* event index of the op (or runtime call) */
	int fwd;		/* forward op of a backward row, or -1 */
	uint32_t first;		/* its GPU events: tl_row_gpu() */
	int ngpu;
	uint8_t kind;		/* enum tl_rowkind */
	uint8_t bwd;		/* direction: 1 backward, 0 forward */
};

struct tl_rows {
	struct tl_row *v;
	size_t n, cap;
	int *gpu;		/* the rows' GPU event indices, row by row */
	size_t ngpu, capgpu;
	int64_t total_busy;	/* sum of busy over the rows */
	struct tl_strtab *names;	/* the graph rows' names, or NULL */
	struct tl_ahead ahead;	/* of v */
};

/* The ngpu GPU event indices of row r, in ts order. */
static inline const int *
tl_row_gpu(const struct tl_rows *rows, const struct tl_row *r)
{
	return rows->gpu + r->first;
}

void tl_rollup(const struct tl_trace *t, const struct tl_window *w,
    struct tl_rows *rows);
void tl_launchers(const struct tl_trace *t, const struct tl_window *w,
    struct tl_rows *rows);
void tl_rows_free(struct tl_rows *rows);
const char *tl_rowkind_name(int kind);
/*
 * Busy time of all the GPU events in op's subtree, ns (the launcher
 * view's subtree column; computed when asked, not kept in every row).
 */
int64_t tl_subtree_busy(const struct tl_trace *t, int op);
/* The forward op of event i's nearest backward wrapper, or -1. */
int tl_forward_of(const struct tl_trace *t, int i);

#endif
