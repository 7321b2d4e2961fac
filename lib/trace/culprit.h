/* See LICENSE file for copyright and license details. */
#ifndef TL_CULPRIT_H
#define TL_CULPRIT_H

/*
 * Idle gaps and their culprits: what the host was doing while a GPU
 * waited.  For each device, the gaps between the busy intervals of its
 * linked GPU events in the window (the events the timeline counts) are
 * found; a gap of at least TL_GAP_NOISE_NS is listed, shorter ones are
 * only summed.  A listed gap [a, b) ends where its next GPU work starts;
 * the host thread of that work's launch call (the launching thread) is
 * looked at from a to the launch call's start L:
 *
 *   - each instant belongs to the innermost host event open on the
 *     launching thread then (cpu_op, user annotation, Python frame, or a
 *     synchronising runtime call; other runtime and driver calls count
 *     for the event around them; the iterations' own annotations, such
 *     as ProfilerStep#N, count for nothing);
 *   - all the instants that belong to an event other than a
 *     synchronising call go to the one of those events with the most of
 *     them (its self time in the gap): the gap's culprit;
 *   - the instants inside a synchronising call (cudaStreamSynchronize,
 *     cudaDeviceSynchronize, cudaEventSynchronize, cudaMemcpy and their
 *     HIP forms) go to what the busiest other host thread of the process
 *     did meanwhile (found the same way), and the rest of them to the
 *     call itself: a synchronisation is credited with its wait only;
 *   - the instants no host event spans go to "no host activity
 *     recorded";
 *   - [max(a, L), b) goes to the launch itself: launch latency, or work
 *     that was launched and waited.
 *
 * So each nanosecond of a listed gap goes to exactly one piece.  A
 * piece's context is its event's outermost enclosing event inside the
 * iteration (ProfilerStep#N) that holds the launch call; without one,
 * its outermost enclosing cpu_op or annotation.
 *
 * Python frames shorter than TL_CULPRIT_FRAME_NS that hold no cpu_op are
 * not read (trace.h, TL_PY_CONTEXT): their time counts for the frame
 * around them.
 */
#include <stdint.h>

#include "trace/iter.h"
#include "trace/trace.h"

enum tl_ckind {
	TL_CK_NONE,		/* no host activity recorded */
	TL_CK_CPU_OP,
	TL_CK_ANNOTATION,
	TL_CK_PYTHON,
	TL_CK_SYNC,		/* a synchronising runtime call */
	TL_CK_LAUNCH,		/* from the launch call to the GPU work */
	TL_CK_NOLAUNCH		/* the next GPU work has no launch call */
};
extern const char *const tl_ckind_names[7];

/*
 * One piece of a gap: its culprit and the ns it covers.  Names are those
 * of an event (id >= 0), a Python frame (id -i - 1: tl_trace.py[i]) or
 * none (TL_CP_NONE: ""): tl_cp_name().  24 bytes: a trace may have
 * hundreds of thousands of gaps, all held until the rows are written.
 */
struct tl_cpiece {
	int64_t ns;
	int32_t name;		/* the culprit (TL_CP_NONE for NONE) */
	int32_t context;	/* its outermost enclosing event, or none */
	int32_t thread;		/* the host thread (tl_event.thread) it ran
				   on when not the launching one, else -1 */
	uint8_t kind;		/* enum tl_ckind */
};
#define TL_CP_NONE INT32_MIN

/*
 * A listed gap [start, the start of GPU event next): 16 bytes.  Its
 * pieces, by ns descending, are piece[p0] up to the next gap's p0
 * (tl_gap_np); its launch call and iteration: tl_gap_launch,
 * tl_gap_step.
 */
struct tl_idlegap {
	int64_t start;		/* ns */
	int32_t next;		/* the GPU event that ends it */
	uint32_t p0;
};

struct tl_culprits {
	struct tl_idlegap *gap;	/* by next */
	size_t ngap;
	struct tl_cpiece *piece;
	size_t npiece;
	int64_t noise_ns;	/* summed length of the gaps not listed */
	long noise_count;
	int64_t first_ts;	/* the first event kept: offsets count from
				   here */
};

/* The gaps of the window and their culprits; it: the trace's iterations. */
void tl_culprits_find(const struct tl_trace *t, const struct tl_window *w,
    const struct tl_iters *it, struct tl_culprits *c);
void tl_culprits_free(struct tl_culprits *c);
/* The listed gap that GPU event i ends, or NULL. */
const struct tl_idlegap *tl_culprits_gap(const struct tl_culprits *c, int i);

/* A piece's name or context (tl_cpiece.name, .context): trace text. */
const char *tl_cp_name(const struct tl_trace *t, int32_t id);

/* A gap's length, pieces and launch call (-1: none). */
int64_t tl_gap_len(const struct tl_trace *t, const struct tl_idlegap *g);
uint32_t tl_gap_np(const struct tl_culprits *c, const struct tl_idlegap *g);
int tl_gap_launch(const struct tl_trace *t, const struct tl_idlegap *g);
/* The number of the iteration that holds its launch call, or TL_NONE. */
int64_t tl_gap_step(const struct tl_trace *t, const struct tl_iters *it,
    const struct tl_idlegap *g);

#endif
