/* See LICENSE file for copyright and license details. */
#ifndef TL_OPSTREAM_H
#define TL_OPSTREAM_H

/*
 * Writing tl-parse's tables from a read trace: the op stream (or the
 * launcher view), the GPU timeline, the kernel table and the metadata,
 * one row per call of the writer's functions, with the columns of their
 * tables in lib/stream/schema.h (TL_TAB_OPS, TL_TAB_LAUNCHERS and
 * TL_TAB_STACK, TL_TAB_TIMELINE, TL_TAB_KERNELS, TL_TAB_META).
 */
#include "common/jsonw.h"
#include "common/tsv.h"
#include "stream/schema.h"
#include "trace/rollup.h"
#include "trace/timeline.h"
#include "trace/trace.h"

struct tl_callstack;
struct tl_iters;

struct tl_opstream {
	struct tl_writer *w;
	struct tl_jbuf jb;	/* scratch for JSON fields */
	int launchers;		/* rows are the launcher view */
	size_t depth;		/* call_stack: the innermost frames; 0 all */
	/*
	 * Threads that format the op stream's rows, in chunks written in
	 * order (the output is the same); <= 1: the calling thread.
	 */
	int threads;
	int no_culprits;	/* leave idle_gaps and the noise columns empty */
};

/*
 * The header of table (TL_TAB_TIMELINE ...), with the columns of
 * TL_TAB_STACK when stack and the table is the op stream or the launcher
 * view.
 */
void tl_os_header(struct tl_opstream *os, int table, int stack);
/*
 * The op stream of the window (the launcher view when os->launchers),
 * module and call_stack too when stack; tl is the trace's timeline, it
 * its iterations and stl (as tl_os_rows takes them).  Returns the number
 * of rows written.
 */
size_t tl_os_oprows(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win, const struct tl_timeline *tl, int stack,
    struct tl_iters *it, const struct tl_timeline *stl);
/*
 * The timeline rows of the window: all devices pooled (tl), or one
 * timeline per device; unlinked: count unlinked GPU events.
 */
void tl_os_timelines(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win, const struct tl_timeline *tl,
    int per_device, int unlinked);
/*
 * Rows of the op stream (module and call_stack too when cs != NULL), with
 * the idle gaps of the window's GPU events (trace/culprit.h).  it: the
 * trace's iterations (tl_iters_find), which this leaves with the steady
 * window of TL_STEADY_STEPS (tl_iters_steady); NULL: found here.  stl:
 * the timeline of that window (tl_iters_window, unlinked GPU events left
 * out), NULL: made here.
 */
void tl_os_rows(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win, const struct tl_rows *rows, const struct tl_timeline *tl,
    struct tl_callstack *cs, struct tl_iters *it,
    const struct tl_timeline *stl);
/* The eight timeline rows of device ("all" for the pooled one). */
void tl_os_timeline(struct tl_opstream *os, const struct tl_trace *t,
    const char *device, const struct tl_timeline *tl);
/* One row per GPU event in the window. */
void tl_os_kernels(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win);
/*
 * The trace's metadata, link statistics (tl->unlinked_* for the unlinked
 * GPU events) and device.
 */
void tl_os_meta(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_timeline *tl);
/*
 * One row per iteration starting in the window (lib/trace/iter.h), its
 * ops' GPU time from the window's op rows; its steady flags as the caller set them.
 */
void tl_os_iterations(struct tl_opstream *os, const struct tl_trace *t,
    struct tl_iters *it, const struct tl_window *win);

#endif
