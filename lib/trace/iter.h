/* See LICENSE file for copyright and license details. */
#ifndef TL_ITER_H
#define TL_ITER_H

/*
 * Iterations and phases of a trace.  The iterations are the events of
 * the first of these tiers that the trace has (TraceLens' tiers for
 * splitting serving traces, TraceLens/TraceUtils/split_inference):
 *
 *   1. detailed serving step annotations (vLLM, SGLang, ATOM: with the
 *      sq/sk sums, trace/context.h);
 *   2. native ones (the same frameworks without the sums, and xDiT's
 *      execute_diffusion_B_WxH);
 *   3. ProfilerStep#N.
 *
 * An iteration's phase (prefill, decode, mixed) comes from its
 * annotation; a profiler step has none.  Where the annotation gives no
 * token count, the iteration's batch is the first dimension of the first
 * input of its first paged-attention op (the tokens of the step's
 * batch), the shape-based batch size.
 *
 * An op belongs to the iteration of its process whose host span holds
 * the op's start.
 */
#include <stddef.h>
#include <stdint.h>

#include "trace/context.h"
#include "trace/rollup.h"
#include "trace/trace.h"

/* Where the iterations came from. */
enum tl_itersrc {
	TL_ITER_NONE, TL_ITER_DETAILED, TL_ITER_NATIVE, TL_ITER_PROFILER
};

struct tl_iter {
	int ev;			/* the annotation event */
	int64_t ts, end;	/* its host span, ns */
	uint32_t pid;		/* interned */
	int64_t number;		/* N of ProfilerStep#N, else its ordinal */
	struct tl_stepinfo si;	/* fmt TL_STEP_NONE for profiler steps */
	int shape_tokens;	/* si.tokens is the shape-based batch size */
	/* The ops in it (tl_iters_stats). */
	long nrows, nkernels;
	int64_t kernel_ns;	/* sum of the rows' busy time */
	int64_t gpu_start, gpu_end;	/* of their GPU events; TL_NONE none */
	int steady;		/* in the steady-state window */
};

struct tl_iters {
	struct tl_iter *v;	/* by ts */
	size_t n;
	enum tl_itersrc src;
	size_t lo, hi;		/* the steady-state window [lo, hi) */
};

/* The source's name: "", "annotation", "native annotation" ... */
extern const char *const tl_itersrc_names[4];
/* An iteration's source in the iteration table ("vllm", ...). */
const char *tl_iter_source(const struct tl_iter *i);

void tl_iters_find(const struct tl_trace *t, struct tl_iters *it);
void tl_iters_free(struct tl_iters *it);
/* The iteration of host event ev, or -1. */
long tl_iters_of(const struct tl_iters *it, const struct tl_trace *t, int ev);
/* Fill the per-iteration counts from the rows (any window). */
void tl_iters_stats(struct tl_iters *it, const struct tl_trace *t,
    const struct tl_rows *rows);

#define TL_STEADY_STEPS 32	/* the default window, as TraceLens' */

/*
 * Choose the steady-state window of at most nsteps iterations into
 * it->lo, it->hi and the iterations' steady flags.  With request counts
 * (serving annotations): TraceLens' steady_state_window.py, "mixed"
 * mode: the regions where the step's requests stay near the peak, the
 * largest one, and in it the window whose share of steps with prefill
 * requests is nearest the regions' share.  Without: the first iteration
 * is warm-up (when there are three or more), then the longest run of
 * iterations whose host duration is within 3 scaled median absolute
 * deviations (at least 10 %) of the median.
 */
void tl_iters_steady(struct tl_iters *it, size_t nsteps);
/*
 * The host span of the steady-state window it->lo..hi into *w; 0 (and w
 * untouched) when the trace has none.
 */
int tl_iters_window(const struct tl_iters *it, struct tl_window *w);

#endif
