/* See LICENSE file for copyright and license details. */
#ifndef TL_TIMELINE_H
#define TL_TIMELINE_H

/*
 * The GPU timeline (as TraceLens' GPUEventAnalyser in
 * TraceLens/TreePerf/gpu_event_analyser.py): computation, exposed
 * communication (comm not
 * under computation), exposed memcpy (memcpy under neither), busy (union
 * of all), idle and total (first start to last end), in nanoseconds.
 */
#include <stdint.h>

#include "trace/trace.h"
#include "trace/tree.h"

struct tl_timeline {
	int64_t compute, exposed_comm, exposed_memcpy, busy, idle, total;
	int64_t total_comm, total_memcpy;
	long nevents;
	/*
	 * The unlinked GPU events (no launch call found: launched before
	 * the host side of the profile, or never tied to it), counted
	 * whether or not they are on the timeline: how many, their summed
	 * durations, and the busy time only they cover (what including
	 * them adds to busy).
	 */
	long unlinked_events;
	int64_t unlinked_dur, unlinked_busy;
};

#define TL_ALL_DEVICES UINT32_MAX

/*
 * Compute the timeline of the linked GPU events (all GPU events when
 * unlinked is set) of one device (its pid id) or of TL_ALL_DEVICES, and
 * the unlinked events' figures either way.
 */
void tl_timeline(const struct tl_trace *t, const struct tl_window *w,
    uint32_t device, int unlinked, struct tl_timeline *out);
/*
 * In one pass over the events: tl_timeline(t, w, TL_ALL_DEVICES,
 * unlinked, out); when sw != NULL, tl_timeline(t, sw, TL_ALL_DEVICES, 0,
 * sout); and tl_tree_stats(t, s).
 */
void tl_timelines(const struct tl_trace *t, const struct tl_window *w,
    int unlinked, struct tl_timeline *out, const struct tl_window *sw,
    struct tl_timeline *sout, struct tl_link_stats *s);
/* The GPU pids of the trace, sorted; returns the count (*out malloc'd). */
size_t tl_timeline_devices(const struct tl_trace *t, uint32_t **out);
/*
 * The same list built in a caller's own pass over the events: each GPU
 * event added (v malloc'd, in the order first seen), then sorted.
 */
struct tl_devices {
	uint32_t *v;
	size_t n, cap;
};
void tl_devices_add(const struct tl_trace *t, const struct tl_event *e,
    struct tl_devices *d);
void tl_devices_sort(const struct tl_trace *t, struct tl_devices *d);
/* Row names, in output order, and the values in the same order. */
extern const char *const tl_timeline_rows[8];
void tl_timeline_values(const struct tl_timeline *tl, int64_t v[8]);

#endif
