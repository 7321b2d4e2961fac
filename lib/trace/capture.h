/* See LICENSE file for copyright and license details. */
#ifndef TL_CAPTURE_H
#define TL_CAPTURE_H

/*
 * Graph-capture merge.  A CUDA or HIP graph launch replays kernels that
 * the trace ties to the launch call only: the ops, shapes and modules that
 * launched them were recorded once, in the trace taken while the graph was
 * captured (vLLM and SGLang write one per captured batch size, with an
 * execution_details.json naming them).  tl_capture_merge grafts those
 * captured ops under each graph launch and gives every replayed GPU event
 * to the launch call that captured it, so that the roll-up sees the same
 * tree as in eager mode (TraceLens does the same in
 * TraceLens/Trace2Tree/trace_capture_merge_experimental.py).
 *
 * A captured graph is the launch calls (names with Launch, Memcpy or
 * Memset) between a StreamBeginCapture call and the next StreamEndCapture
 * call on its thread.  A graph launch's GPU events, in start order, match
 * a captured graph when its launch calls, in order, pair with them one by
 * one: a Memcpy call with a copy, a Memset call with a set or fill, a
 * kernel launch with a kernel of the name its "kernel" argument gives
 * (ROCm writes it; without it, position alone), launch calls left over
 * skipped (the greedy alignment TraceLens falls back on).  Events on
 * several streams pair per stream (each stream a queue in start order, the
 * calls in capture order taking heads; TraceLens' align_streams), which
 * needs the kernel names.  When the launch
 * lies in a serving step annotation (trace/context.h) and the capture
 * traces' batch sizes are known, only the graphs of the smallest batch
 * size not below the step's token count are tried first (vLLM pads a step
 * to the next captured size; TraceLens picks the capture trace so).  Of
 * the graphs that match, the one captured after the previous launch's
 * graph wins (piecewise graphs replay in capture order), else the first
 * that matches with no call left over, else the first that matches.  The captured ops
 * are placed inside the launch call's time span, their times scaled, so
 * they keep their order and nesting, their annotations and their python
 * frames (module and call stack).
 */
#include "trace/trace.h"

/* A capture trace to read and what its details file says of it. */
struct tl_capture_spec {
	char *path;
	long batch;		/* batch_size, or -1 */
	char *mode;		/* FULL, PIECEWISE, ..., or NULL */
};

struct tl_capture_list {
	struct tl_capture_spec *v;
	size_t n, cap;
};

/*
 * Add what PATH names: a directory (its execution_details.json, else every
 * .json and .json.gz file in it), a details file (a JSON array of objects
 * with file, batch_size and mode; files relative to its directory) or a
 * capture trace.  0, or -1 after a message.
 */
int tl_capture_add(struct tl_capture_list *l, const char *path);
/*
 * Add the capture traces found beside trace file PATH: STEM.capture-details.json
 * (a details file whose file, if absent, is STEM.capture.json.gz or
 * STEM.capture.json), else STEM.capture.json.gz or STEM.capture.json, and
 * the directory capture_traces beside it.  Returns how many were added.
 */
size_t tl_capture_beside(struct tl_capture_list *l, const char *path);
void tl_capture_list_free(struct tl_capture_list *l);

struct tl_capture_stats {
	long graphs;		/* captured graphs read */
	long launches;		/* graph launches with GPU events */
	long matched;		/* launches given a captured graph */
	long gpu;		/* GPU events of the graph launches */
	long attributed;	/* those given a captured launch call */
	int64_t gpu_ns, attributed_ns;	/* their durations */
};

/*
 * Graft the captured graphs of the n capture traces (read with
 * launch_kernels and tree-built; batch[k] the batch size of cap[k], -1
 * unknown, or batch NULL) into trace t (tree-built); counts in *st.  The
 * capture traces are not changed.
 */
void tl_capture_merge(struct tl_trace *t, struct tl_trace *const *cap,
    const long *batch, size_t n, struct tl_capture_stats *st);
/* Only the counts: what t's graph launches hold (st->launches, gpu). */
void tl_capture_count(const struct tl_trace *t, struct tl_capture_stats *st);

#endif
