/* See LICENSE file for copyright and license details. */
#ifndef TL_OPSTREAM_H
#define TL_OPSTREAM_H

/*
 * Writing tl-parse's tables from a read trace: the op stream (or the
 * launcher view), the GPU timeline, the kernel table and the metadata,
 * one row per call of the writer's functions, columns as the tl_os_*_cols
 * headers name them (man/tl-format.5).
 */
#include "common/jsonw.h"
#include "common/tsv.h"
#include "trace/rollup.h"
#include "trace/timeline.h"
#include "trace/trace.h"

struct tl_callstack;

/* Header lines: column names joined by commas, for tl_w_header. */
extern const char tl_os_op_cols[], tl_os_launcher_cols[];
extern const char tl_os_timeline_cols[], tl_os_kernel_cols[];
extern const char tl_os_meta_cols[];

struct tl_opstream {
	struct tl_writer *w;
	struct tl_jbuf jb;	/* scratch for JSON fields */
	int launchers;		/* rows are the launcher view */
};

/* Rows of the op stream (module and call_stack too when cs != NULL). */
void tl_os_rows(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_rows *rows, const struct tl_timeline *tl,
    struct tl_callstack *cs);
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

#endif
