/* See LICENSE file for copyright and license details. */
#ifndef TL_TREE_H
#define TL_TREE_H

/*
 * The host call tree and GPU linking (as TraceLens' TraceToTree in
 * TraceLens/Trace2Tree/trace_to_tree.py): per-thread
 * call stacks with the 1 µs bleed rule, runtime → GPU event through the
 * correlation id (or External id) and launch flows (ac2g and Kineto's
 * older categories, trace.h), graph launches, the correlation id alone
 * for GPU events no launch flow names, and forward → backward links by
 * sequence number.  python_function events
 * never enter this tree, so the numbers do not depend on them.
 */
#include "trace/trace.h"

/*
 * Build the tree, link GPU events and fill the flags and counts, and the
 * list of GPU events and annotations (tl_ev_sparse).
 */
void tl_tree_build(struct tl_trace *t);
/* Add the events appended since to that list (capture.c). */
void tl_tree_sparse(struct tl_trace *t);

/* Nearest cpu_op strictly above event i, or -1. */
int tl_tree_cpu_ancestor(const struct tl_trace *t, int i);
/* 1 if name starts with "autograd::engine::evaluate_function:". */
int tl_is_autograd_fn(const char *name);

/*
 * Counts of GPU events: all, linked, and the linked ones by how: graph
 * launch, launch flow, correlation id alone (linked = graph + flow +
 * corr).
 */
struct tl_link_stats {
	long gpu, linked, graph, flow, corr;
};
void tl_tree_stats(const struct tl_trace *t, struct tl_link_stats *s);

/* Count GPU event e into s (tl_tree_stats, one event). */
static inline void
tl_tree_stats_add(struct tl_link_stats *s, const struct tl_event *e)
{
	s->gpu++;
	if (!(e->flags & TL_F_TREE))
		return;
	s->linked++;
	if (e->flags & TL_F_GRAPH)
		s->graph++;
	else if (e->flags & TL_F_NOFLOW)
		s->corr++;
	else
		s->flow++;
}

#endif
