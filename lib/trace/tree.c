/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/idxsort.h"
#include "common/util.h"
#include "trace/kernclass.h"
#include "trace/tree.h"

#define BLEED_NS 1000		/* a sub-µs bleed makes a sibling */

static const struct tl_trace *sort_t;

/*
 * Children are appended to their parent's list as they are found: *last
 * is the parent's last child so far (-1: none yet), kept by the caller,
 * so that no record needs a last-child field.
 */
static void
add_child(struct tl_trace *t, int parent, int child, int *last)
{
	t->ev[child].parent = parent;
	t->ev[child].sibling = -1;
	if (*last < 0)
		t->ev[parent].child = child;
	else
		t->ev[*last].sibling = child;
	*last = child;
}

/* 1 for the events of the call stacks: cpu_ops, runtime and driver calls. */
static int
in_stacks(int kind)
{
	return kind == TL_EV_CPU_OP || kind == TL_EV_RUNTIME ||
	    kind == TL_EV_DRIVER;
}

/*
 * What the first pass over the events (scan) counts for the others, so
 * that the tree is built in four passes over the events, not eight.
 */
struct counts {
	size_t *at;		/* stack events by thread + 1 */
	size_t nstack;		/* stack events */
	size_t np;		/* GPU events with a link */
	size_t nseq;		/* host events with a Sequence number */
	size_t ncall;		/* runtime and driver calls */
};

/*
 * The host events by thread and start, and in file order where both are
 * equal: idx[0..n) holds them by thread in file order (at[k] is where
 * thread k's end); each thread's is sorted by start, stably, then each
 * event pushed on its thread's stack of open events.
 */
static void
build_stacks(struct tl_trace *t, int32_t *idx, size_t n, const size_t *at)
{
	struct open {
		int ev;		/* an event not yet ended */
		int last;	/* its last child so far, or -1 */
	} *stack = NULL;
	size_t i, sp = 0, cap = 0;
	int ncpu = 0;

	for (i = 0; i < t->nthreads; i++) {
		size_t from = i > 0 ? at[i - 1] : 0;

		tl_idxsort(idx + from, at[i] - from, t->ev, sizeof(*t->ev),
		    offsetof(struct tl_event, ts));
	}
	for (i = 0; i < n; i++) {
		struct tl_event *e = &t->ev[idx[i]];

		if (i == 0 || e->thread != t->ev[idx[i - 1]].thread) {
			sp = 0;
			ncpu = 0;
		}
		e->flags |= TL_F_TREE;
		while (sp > 0) {
			const struct tl_event *top = &t->ev[stack[sp - 1].ev];

			if (e->ts < top->ts + top->dur)
				break;
			ncpu -= top->kind == TL_EV_CPU_OP;
			sp--;
		}
		if (sp > 0) {
			const struct tl_event *top = &t->ev[stack[sp - 1].ev];
			int64_t tend = top->ts + top->dur;

			if (e->ts + e->dur > tend) {
				if (tend - e->ts < BLEED_NS && sp >= 2) {
					ncpu -= top->kind == TL_EV_CPU_OP;
					sp--;
				} else
					continue;	/* discarded */
			}
		}
		if (sp > 0)
			add_child(t, stack[sp - 1].ev, idx[i],
			    &stack[sp - 1].last);
		tl_grow(&stack, &cap, sp + 1, sizeof(*stack));
		stack[sp].ev = idx[i];
		stack[sp++].last = -1;
		if (e->kind == TL_EV_CPU_OP) {
			if (ncpu == 0)
				e->flags |= TL_F_ROOT;
			ncpu++;
		}
	}
	free(stack);
}

static int
cmp_link_uid(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* GPU event g to call r (*last: r's last child so far, or -1). */
static void
attach(struct tl_trace *t, int r, int g, int *last)
{
	struct tl_event *e = &t->ev[g];
	int a;

	if (e->flags & TL_F_TREE)
		return;		/* first launcher wins */
	e->flags |= TL_F_TREE;
	add_child(t, r, g, last);
	for (a = r; a >= 0; a = t->ev[a].parent) {
		t->ev[a].flags |= TL_F_GPU_BELOW;
		if (!(e->flags & TL_F_COMM))
			t->ev[a].flags |= TL_F_WORK;
	}
}

static int
is_graph_launch(const char *name)
{
	return strcmp(name, "cudaGraphLaunch") == 0 ||
	    strcmp(name, "hipGraphLaunch") == 0 ||
	    strcmp(name, "cuGraphLaunch") == 0;
}

/*
 * The first of the np (link, index) pairs whose link is l, or np.  The
 * pairs are sorted by link, then by index (file order).  *finger is
 * where the previous search ended: the calls come mostly in the order of
 * their links too, so the search gallops on from there when it can (as
 * frame pruning's in trace.c), and is a plain binary search otherwise.
 */
static size_t
first_pair(const int64_t *pairs, size_t np, int64_t l, size_t *finger)
{
	size_t lo = 0, hi = np, probe, step;

	if (*finger > 0 && *finger <= np && pairs[2 * (*finger - 1)] < l)
		lo = *finger;
	for (probe = lo, step = 1; probe < hi && pairs[2 * probe] < l;
	    step *= 2) {
		lo = probe + 1;
		probe = lo + step < hi ? lo + step : hi;
	}
	if (probe < hi)
		hi = probe;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (pairs[2 * mid] < l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return *finger = lo;
}

/* Event i into the list of GPU events and annotations (tl_ev_sparse). */
static inline void
sparse_add(struct tl_trace *t, size_t i)
{
	const struct tl_event *e = &t->ev[i];

	if (t->sparse_first_ts == TL_NONE || e->ts < t->sparse_first_ts)
		t->sparse_first_ts = e->ts;
	if (TL_IS_GPU(e->kind) || e->kind == TL_EV_ANNOTATION) {
		tl_grow(&t->sparse, &t->capsparse, t->nsparse + 1,
		    sizeof(*t->sparse));
		t->sparse[t->nsparse++] = (int32_t)i;
	}
}

/* The list empty (made even when it stays so: tl_ev_sparse). */
static void
sparse_init(struct tl_trace *t)
{
	free(t->sparse);
	t->sparse = NULL;
	t->nsparse = t->capsparse = t->sparse_upto = 0;
	t->sparse_first_ts = TL_NONE;
	tl_grow(&t->sparse, &t->capsparse, 1, sizeof(*t->sparse));
}

void
tl_tree_sparse(struct tl_trace *t)
{
	size_t i;

	if (t->sparse == NULL)
		sparse_init(t);
	for (i = t->sparse_upto; i < t->nev; i++)
		sparse_add(t, i);
	t->sparse_upto = t->nev;
}

/*
 * The first pass: the architecture the kernel names show
 * (tl_gpuinfo.kernel_arch), each name once in the order of their first
 * kernels (what a name sets does not change when it is seen again); the
 * GPU events' class and flow flags; and the counts the later passes
 * size their arrays by.
 */
static void
scan(struct tl_trace *t, struct counts *c)
{
	struct tl_map klass;	/* (kind, name) -> enum tl_gpuclass */
	unsigned char *seen = tl_calloc(tl_strtab_count(t->str) + 1, 1);
	int64_t *k;
	size_t i;

	c->at = tl_calloc(t->nthreads + 1, sizeof(*c->at));
	c->nstack = c->np = c->nseq = c->ncall = 0;
	tl_map_init(&klass);
	sparse_init(t);
	for (i = 0; i < t->nev; i++) {
		struct tl_event *e = &t->ev[i];
		uint32_t f;

		sparse_add(t, i);
		if (!TL_IS_GPU(e->kind)) {
			if (in_stacks(e->kind)) {
				c->at[e->thread + 1]++;
				c->nstack++;
			}
			if (e->kind == TL_EV_RUNTIME || e->kind == TL_EV_DRIVER)
				c->ncall++;
			if (TL_IS_HOST(e->kind) && tl_ev_seq(t, e) != TL_NONE)
				c->nseq++;
			continue;
		}
		if (e->kind == TL_EV_KERNEL && !seen[e->name]) {
			seen[e->name] = 1;
			tl_gpuinfo_kernel(&t->gpu, tl_ev_name(t, e));
		}
		/* Names repeat: classify each distinct (kind, name) once. */
		if ((k = tl_map_get(&klass, e->kind, e->name)) == NULL) {
			tl_map_put(&klass, e->kind, e->name,
			    tl_kernclass(e->kind, tl_ev_name(t, e)));
			k = tl_map_get(&klass, e->kind, e->name);
		}
		switch ((enum tl_gpuclass)*k) {
		case TL_GC_COMM:
			e->flags |= TL_F_COMM;
			break;
		case TL_GC_MEMCPY:
			e->flags |= TL_F_MEMCPY_CLASS;
			break;
		default:
			break;
		}
		if (e->link == TL_NONE)
			continue;
		c->np++;
		f = tl_dmap32_get(&t->flows, (uint64_t)e->link);
		if ((f & TL_FLOW_S) && (f & TL_FLOW_F) &&
		    (f & TL_FLOW_THREAD) == e->thread)
			e->flags |= TL_F_FLOW;
		else if (f == 0 && !t->link_external)
			e->flags |= TL_F_NOFLOW;
	}
	tl_map_free(&klass);
	free(seen);
	/* The flows are in the GPU events' flags now: free them first. */
	tl_dmap32_free(&t->flows);
	t->sparse_upto = t->nev;
	/* Held until the trace is freed: no more than it needs. */
	t->capsparse = t->nsparse + 1;
	t->sparse = tl_realloc(t->sparse, t->capsparse * sizeof(*t->sparse));
	for (i = 1; i <= t->nthreads; i++)
		c->at[i] += c->at[i - 1];
}

/*
 * The second pass: the stack events by thread (idx, in file order), the
 * (link, index) pairs of the GPU events with a link, and in file order
 * the runtime and driver calls (call) and the host events with a
 * Sequence number (seq), so that the last pass reads only those.  1 if
 * the pairs came sorted.
 */
static int
fill(const struct tl_trace *t, struct counts *c, int32_t *idx,
    int64_t *pairs, int32_t *call, int32_t *seq)
{
	size_t i, np = 0, ncall = 0, nseq = 0;
	int sorted = 1;

	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];

		if (!TL_IS_GPU(e->kind)) {
			if (in_stacks(e->kind))
				idx[c->at[e->thread]++] = (int32_t)i;
			if (e->kind == TL_EV_RUNTIME ||
			    e->kind == TL_EV_DRIVER)
				call[ncall++] = (int32_t)i;
			if (TL_IS_HOST(e->kind) && tl_ev_seq(t, e) != TL_NONE)
				seq[nseq++] = (int32_t)i;
			continue;
		}
		if (e->link == TL_NONE)
			continue;
		pairs[2 * np] = e->link;
		pairs[2 * np + 1] = (int64_t)i;
		/* GPU events mostly come in the order of their links. */
		if (np > 0 && e->link < pairs[2 * np - 2])
			sorted = 0;
		np++;
	}
	return sorted;
}

/* Runtime or driver call i (its link l) to the GPU events it launched. */
static void
link_call(struct tl_trace *t, size_t i, int64_t l, const int64_t *pairs,
    size_t np, size_t *finger, unsigned char *graph)
{
	const struct tl_event *r = &t->ev[i];
	size_t j, j0;
	int g, last = -1, c;

	/* Its GPU events go after the calls it made (build_stacks). */
	for (c = r->child; c >= 0; c = t->ev[c].sibling)
		last = c;
	j = first_pair(pairs, np, l, finger);
	/* Names repeat: each looked at once (1 a graph launch, 2 not). */
	if (graph[r->name] == 0)
		graph[r->name] = is_graph_launch(tl_ev_name(t, r)) ? 1 : 2;
	if (graph[r->name] == 1) {
		t->ngraphcalls++;
		for (; j < np && pairs[2 * j] == l; j++) {
			t->ev[pairs[2 * j + 1]].flags |= TL_F_GRAPH;
			attach(t, (int)i, (int)pairs[2 * j + 1], &last);
		}
		return;
	}
	/*
	 * The GPU event with this link on the thread of the end of its flow
	 * (TL_F_FLOW); the last one in file order when the link is reused.
	 */
	for (g = -1, j0 = j; j < np && pairs[2 * j] == l; j++)
		if (t->ev[pairs[2 * j + 1]].flags & TL_F_FLOW)
			g = (int)pairs[2 * j + 1];
	if (g >= 0) {
		attach(t, (int)i, g, &last);
		return;
	}
	/*
	 * Traces without launch flows (HTA's sampled traces, flows lost in a
	 * conversion) tie a launch to its GPU events by the correlation id
	 * alone, as HTA does: every GPU event of this id that no flow names.
	 * A correlation id is the runtime's, one per call; External ids are
	 * shared by all the calls of an op, so they never link on their own.
	 */
	for (j = j0; j < np && pairs[2 * j] == l; j++)
		if (t->ev[pairs[2 * j + 1]].flags & TL_F_NOFLOW)
			attach(t, (int)i, (int)pairs[2 * j + 1], &last);
}

/* The last pass: the calls call[0..n), in file order, to their GPU events. */
static void
link_gpu(struct tl_trace *t, const int64_t *pairs, size_t np,
    const int32_t *call, size_t n)
{
	unsigned char *graph = tl_calloc(tl_strtab_count(t->str), 1);
	size_t k, finger = 0;

	for (k = 0; k < n; k++) {
		struct tl_event *e = &t->ev[call[k]];

		if (e->link != TL_NONE)
			link_call(t, (size_t)call[k], e->link, pairs, np,
			    &finger, graph);
		/* The calls' links are only needed for linking. */
		e->args = 0;
		e->fwd = -1;
	}
	free(graph);
}

int
tl_is_autograd_fn(const char *name)
{
	return name[0] == 'a' &&
	    strncmp(name, "autograd::engine::evaluate_function:", 36) == 0;
}

static int
cmp_seq_uid(const void *a, const void *b)
{
	const struct tl_event *x = &sort_t->ev[*(const int *)a];
	const struct tl_event *y = &sort_t->ev[*(const int *)b];
	int64_t sx = tl_ev_seq(sort_t, x), sy = tl_ev_seq(sort_t, y);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/* idx[0..n): the host events with a Sequence number, in file order. */
static void
link_fwd_bwd(struct tl_trace *t, int32_t *idx, size_t n)
{
	size_t i, j, k;

	sort_t = t;
	if (n > 0)
		qsort(idx, n, sizeof(*idx), cmp_seq_uid);
	for (i = 0; i < n; i = j) {
		int b = -1, f = -1;

		for (j = i; j < n && t->ev[idx[j]].pseq == t->ev[idx[i]].pseq;
		    j++)
			if (b < 0 && tl_is_autograd_fn(tl_ev_name(t,
			    &t->ev[idx[j]])))
				b = idx[j];
		if (b < 0)
			continue;
		for (k = i; k < j; k++) {
			const struct tl_event *c = &t->ev[idx[k]];

			if (c->thread == t->ev[b].thread)
				continue;
			if (f < 0 || c->ts > t->ev[f].ts)
				f = idx[k];
		}
		t->ev[b].fwd = f;
	}
}

/* The length of name s without SGLang's "_<digits>", or 0 if it has none. */
static size_t
sglang_base(const char *s, size_t n)
{
	static const char pre[] = "sglang_profiler::";
	size_t k;

	if (strncmp(s, pre, sizeof(pre) - 1) != 0)
		return 0;
	for (k = n; k > sizeof(pre) - 1 && isdigit((unsigned char)s[k - 1]);
	    k--)
		;
	return k < n && k > sizeof(pre) && s[k - 1] == '_' ? k - 1 : 0;
}

/*
 * SGLang's profiler numbers the ops it records ("sglang_profiler::
 * attention_paged_attention_ragged_100"): the name without the trailing
 * _<digits> is the op's, as TraceLens normalises it
 * (normalize_sglang_profiler_op_names, TraceLens/Trace2Tree/extensions/
 * pseudo_ops_utils.py).
 */
static void
sglang_names(struct tl_trace *t)
{
	size_t nstr = tl_strtab_count(t->str), i, k, cap = 0;
	uint32_t id, *to = NULL;	/* by name id: 1 to rename, then its
					   new id + 2 */
	char *buf = NULL;

	/* Most traces have none: look at each name once, not each event. */
	for (id = 0; id < nstr; id++)
		if (sglang_base(tl_str(t->str, id), tl_strsize(t->str, id))) {
			if (to == NULL)
				to = tl_calloc(nstr, sizeof(*to));
			to[id] = 1;
		}
	if (to == NULL)
		return;
	for (i = 0; i < t->nev; i++) {
		struct tl_event *e = &t->ev[i];

		if (e->kind != TL_EV_CPU_OP || e->name >= nstr ||
		    to[e->name] == 0)
			continue;
		if (to[e->name] == 1) {
			const char *s = tl_ev_name(t, e);

			k = sglang_base(s, tl_strsize(t->str, e->name));
			/* Interning may move the table s points into. */
			tl_grow(&buf, &cap, k, 1);
			memcpy(buf, s, k);
			to[e->name] = tl_intern(t->str, buf, k) + 2;
		}
		e->name = to[e->name] - 2;
	}
	free(buf);
	free(to);
}

void
tl_tree_build(struct tl_trace *t)
{
	struct counts c;
	int32_t *idx, *call, *seq;
	int64_t *pairs;

	sglang_names(t);
	scan(t, &c);
	idx = tl_malloc((c.nstack + 1) * sizeof(*idx));
	pairs = tl_malloc((c.np + 1) * 2 * sizeof(*pairs));
	call = tl_malloc((c.ncall + 1) * sizeof(*call));
	seq = tl_malloc((c.nseq + 1) * sizeof(*seq));
	if (!fill(t, &c, idx, pairs, call, seq))
		qsort(pairs, c.np, 2 * sizeof(*pairs), cmp_link_uid);
	build_stacks(t, idx, c.nstack, c.at);
	free(idx);
	free(c.at);
	link_gpu(t, pairs, c.np, call, c.ncall);
	free(call);
	free(pairs);
	link_fwd_bwd(t, seq, c.nseq);
	free(seq);
}

int
tl_tree_cpu_ancestor(const struct tl_trace *t, int i)
{
	for (i = t->ev[i].parent; i >= 0; i = t->ev[i].parent)
		if (t->ev[i].kind == TL_EV_CPU_OP)
			return i;
	return -1;
}

void
tl_tree_stats(const struct tl_trace *t, struct tl_link_stats *s)
{
	size_t k, n;

	const int32_t *sp = tl_ev_sparse(t, &n);

	memset(s, 0, sizeof(*s));
	for (k = 0; k < n; k++) {
		size_t i = sp != NULL ? (size_t)sp[k] : k;

		if (TL_IS_GPU(t->ev[i].kind))
			tl_tree_stats_add(s, &t->ev[i]);
	}
}
