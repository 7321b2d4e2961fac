/* See LICENSE file for copyright and license details. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/idxsort.h"
#include "common/interval.h"
#include "common/util.h"
#include "trace/culprit.h"
#include "trace/timeline.h"

const char *const tl_ckind_names[7] = {
	"none", "cpu_op", "annotation", "python", "sync", "launch",
	"no_launch"
};

/*
 * The runtime and driver calls that block the host until the GPU (or a
 * copy) is done: CUDA runtime and driver API, HIP.
 */
static const char *const sync_calls[] = {
	"cudaStreamSynchronize", "cudaDeviceSynchronize",
	"cudaEventSynchronize", "cudaMemcpy", "cudaMemcpy2D",
	"cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize",
	"hipStreamSynchronize", "hipDeviceSynchronize", "hipEventSynchronize",
	"hipMemcpy", "hipMemcpyWithStream", "hipMemcpy2D"
};

/* A host interval of one thread: an event (id >= 0) or a frame (-id - 1). */
struct hent {
	int32_t id;
	int32_t parent;		/* index in the thread's entries, or -1 */
};

/* [start, end) of a thread's time owned by entry owner. */
struct seg {
	int64_t start, end;
	int32_t owner;
};

struct hthread {
	int32_t *id;		/* its events, then its frames (-i - 1) */
	size_t nid, capid;
	int built;
	struct hent *e;		/* by start, longest first */
	size_t n;
	size_t finger;		/* walk's last answer */
	int32_t *chain;		/* the last entry walk started below and */
	size_t nchain, capchain;	/* its parents, outermost first */
};

/* An owner's share of a piece of time. */
struct share {
	int32_t owner;
	int64_t ns;
};

/* A slot of the owners' hash (share_add): its owner's share is sh[at]. */
struct slot {
	uint32_t gen;
	int32_t owner;
	uint32_t at;
};

struct ctx {
	const struct tl_trace *t;
	const struct tl_iters *it;
	struct tl_culprits *c;
	struct hthread *th;	/* by tl_event.thread */
	uint8_t *sync;		/* by name id: 0 not yet, 1 no, 2 sync */
	size_t nsync;
	int32_t *iterev;	/* the iterations' events, sorted */
	size_t niterev;
	struct share *sh;	/* scratch: one per owner (share_add) */
	size_t nsh, capsh;
	struct slot *slot;	/* a hash of the shares' owners */
	unsigned slotbits;	/* 1 << slotbits slots */
	uint32_t gen;		/* the slots of this gen are current */
	struct tl_ival *sv;	/* a gap's synchronising intervals */
	size_t nsv, capsv;
	size_t cappiece;
	struct tl_ivals win;	/* the union of the listed gaps */
	size_t finger;		/* in_gaps' last answer */
	struct seg *sg;		/* scratch: the segments of a walk */
	size_t nsg, capsg;
	int32_t *stk;		/* scratch: a walk's stack */
	size_t capstk;
};

struct at {
	const struct ctx *x;
	const struct hthread *h;
	int64_t s;
};

/* 1 if listed gap i ends at or before a->s. */
static int
gap_before(const void *arg, size_t i)
{
	const struct at *a = arg;

	return a->x->win.v[i].end <= a->s;
}

/* 1 if [s, e) overlaps a listed gap (x->win, merged). */
static int
in_gaps(struct ctx *x, int64_t s, int64_t e)
{
	struct at a = { x, NULL, s };
	size_t i = tl_gallop(x->win.n, &x->finger, gap_before, &a);

	return i < x->win.n && x->win.v[i].start < e;
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

static int
is_sync(struct ctx *x, const struct tl_event *e)
{
	size_t k;

	if (e->name >= x->nsync)
		tl_grow_set(&x->sync, &x->nsync, (size_t)e->name + 1, 1, 0);
	if (x->sync[e->name] == 0) {
		x->sync[e->name] = 1;
		for (k = 0; k < sizeof(sync_calls) / sizeof(*sync_calls); k++)
			if (strcmp(tl_ev_name(x->t, e), sync_calls[k]) == 0)
				x->sync[e->name] = 2;
	}
	return x->sync[e->name] == 2;
}

static void
th_add(struct hthread *h, int32_t id)
{
	if (h->nid == h->capid)
		tl_grow(&h->id, &h->capid, h->nid + 1, sizeof(*h->id));
	h->id[h->nid++] = id;
}

/*
 * The host intervals that may own time, by thread: cpu_ops, annotations
 * other than the iterations' own, synchronising calls, and the Python
 * frames of the threads.
 */
static void
bucket(struct ctx *x)
{
	const struct tl_trace *t = x->t;
	size_t i, npythr, k = 0;
	int32_t *py2ev;

	x->th = tl_calloc(t->nthreads > 0 ? t->nthreads : 1, sizeof(*x->th));
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];

		switch (e->kind) {
		case TL_EV_CPU_OP:
		case TL_EV_ANNOTATION:
			/* x->iterev is sorted: walk it along with i. */
			while (k < x->niterev && x->iterev[k] < (int32_t)i)
				k++;
			if (k < x->niterev && x->iterev[k] == (int32_t)i)
				continue;
			break;
		case TL_EV_RUNTIME:
		case TL_EV_DRIVER:
			if (!is_sync(x, e))
				continue;
			break;
		default:
			continue;
		}
		if (in_gaps(x, e->ts, e->ts + e->dur))
			th_add(&x->th[e->thread], (int32_t)i);
	}
	if (t->thread_py == NULL || t->npy == 0)
		return;
	npythr = tl_strtab_count(t->pythr);
	py2ev = tl_calloc(npythr > 0 ? npythr : 1, sizeof(*py2ev));
	for (i = 0; i < npythr; i++)
		py2ev[i] = -1;
	for (i = t->nthreads; i-- > 0;)
		if (t->thread_py[i] < npythr)
			py2ev[t->thread_py[i]] = (int32_t)i;
	for (i = 0; i < t->npy; i++) {
		uint32_t p = t->py[i].thread;

		if (p < npythr && py2ev[p] >= 0 && in_gaps(x, t->py[i].ts,
		    t->py[i].ts + t->py[i].dur))
			th_add(&x->th[py2ev[p]], -(int32_t)i - 1);
	}
	free(py2ev);
}

/* An entry's start and end, from its event or frame (8 bytes an entry). */
static int64_t
ent_ts(const struct tl_trace *t, const struct hent *e)
{
	return e->id >= 0 ? t->ev[e->id].ts : t->py[-e->id - 1].ts;
}

static int64_t
ent_end(const struct tl_trace *t, const struct hent *e)
{
	return e->id >= 0 ? t->ev[e->id].ts + t->ev[e->id].dur :
	    t->py[-e->id - 1].ts + t->py[-e->id - 1].dur;
}

static const struct tl_trace *sort_trace;	/* cmp_hent's trace */

/*
 * By start, the longer first at equal starts (an event encloses those
 * that start with it); at equal spans events before frames, each in
 * trace order (the later is the inner): a total order.
 */
static int
cmp_hent(const void *a, const void *b)
{
	const struct hent *x = a, *y = b;
	int64_t xs = ent_ts(sort_trace, x), ys = ent_ts(sort_trace, y);
	int64_t xe = ent_end(sort_trace, x), ye = ent_end(sort_trace, y);

	if (xs != ys)
		return xs < ys ? -1 : 1;
	if (xe != ye)
		return xe > ye ? -1 : 1;
	if ((x->id < 0) != (y->id < 0))
		return x->id < 0 ? 1 : -1;
	if (x->id >= 0)
		return x->id < y->id ? -1 : x->id > y->id;
	return x->id > y->id ? -1 : x->id < y->id;
}

/*
 * ids[0..n) (its events, in trace order, then its frames) into e in
 * cmp_hent's order, parents -1.  Events and frames each come nearly in
 * start order: each is sorted by start in about linear time (tl_idxsort,
 * stable), the two merged, and only the entries that start together
 * compared whole.
 */
static void
sort_ids(const struct tl_trace *t, int32_t *ids, size_t n, struct hent *e)
{
	size_t ne = 0, i, j, k;
	int64_t ti, tj;

	while (ne < n && ids[ne] >= 0)
		ne++;
	tl_idxsort(ids, ne, t->ev, sizeof(*t->ev),
	    offsetof(struct tl_event, ts));
	for (i = ne; i < n; i++)
		ids[i] = -ids[i] - 1;
	tl_idxsort(ids + ne, n - ne, t->py, sizeof(*t->py),
	    offsetof(struct tl_pyframe, ts));
	for (i = ne; i < n; i++)
		ids[i] = -ids[i] - 1;
	/* The heads' starts held: only the one taken is loaded again. */
	ti = ne > 0 ? t->ev[ids[0]].ts : 0;
	tj = ne < n ? t->py[-ids[ne] - 1].ts : 0;
	for (i = 0, j = ne, k = 0; k < n; k++) {
		if (j == n || (i < ne && ti <= tj)) {
			e[k].id = ids[i++];
			if (i < ne)
				ti = t->ev[ids[i]].ts;
		} else {
			e[k].id = ids[j++];
			if (j < n)
				tj = t->py[-ids[j] - 1].ts;
		}
		e[k].parent = -1;
	}
	sort_trace = t;
	for (i = 0, tj = n > 0 ? ent_ts(t, &e[0]) : 0; i < n; i = j) {
		int64_t ts = tj;	/* e[i]'s, found by the last loop */

		for (j = i + 1; j < n && (tj = ent_ts(t, &e[j])) == ts; j++)
			;
		if (j - i > 1)
			qsort(e + i, j - i, sizeof(*e), cmp_hent);
	}
}

/*
 * A thread's entries by start (the longer first at equal starts, so an
 * event encloses those that start with it) and their parents: the entry
 * on top of the stack of those not yet ended when each starts.  Time is
 * owned by the innermost entry open then, the one that started last
 * (walk); it is cut into segments only inside the span asked about, so
 * that no thread's whole run is ever held as segments.
 */
static struct hthread *
build(struct ctx *x, size_t k)
{
	const struct tl_trace *t = x->t;
	struct hthread *h = &x->th[k];
	int32_t *stack;
	size_t i, sp = 0;
	int64_t end = 0;

	if (h->built)
		return h;
	h->built = 1;
	h->n = h->nid;
	if (h->n == 0)
		return h;
	h->e = tl_malloc(h->n * sizeof(*h->e));
	sort_ids(t, h->id, h->n, h->e);
	free(h->id);
	h->id = NULL;
	stack = tl_malloc(h->n * sizeof(*stack));
	/* The top's end held: loaded once an entry is pushed or uncovered. */
	for (i = 0; i < h->n; i++) {
		int64_t ts = ent_ts(t, &h->e[i]);

		while (sp > 0 && end <= ts)
			if (--sp > 0)
				end = ent_end(t, &h->e[stack[sp - 1]]);
		h->e[i].parent = sp > 0 ? stack[sp - 1] : -1;
		stack[sp++] = (int32_t)i;
		end = ent_end(t, &h->e[i]);
	}
	free(stack);
	return h;
}

static void
seg(struct ctx *x, int64_t start, int64_t end, int32_t owner)
{
	if (end <= start)
		return;
	if (x->nsg == x->capsg)
		tl_grow(&x->sg, &x->capsg, x->nsg + 1, sizeof(*x->sg));
	x->sg[x->nsg].start = start;
	x->sg[x->nsg].end = end;
	x->sg[x->nsg++].owner = owner;
}

/*
 * The segments of [a, c) on thread h into x->sg, each owned by the entry
 * that started last among those open then.  The stack of entries not yet
 * taken off when the last entry starting at or before a started is that
 * entry's chain of parents (build); from there the entries starting
 * before c go on it as they start, and come off once they have ended.
 */
/* 1 if entry i of a->h starts at or before a->s. */
static int
ent_before(const void *arg, size_t i)
{
	const struct at *a = arg;

	return ent_ts(a->x->t, &a->h->e[i]) <= a->s;
}

static void
walk(struct ctx *x, struct hthread *h, int64_t a, int64_t c)
{
	struct at at = { x, h, a };
	size_t i, sp, d = 0, k;
	/* The first entry starting after a. */
	size_t lo = tl_gallop(h->n, &h->finger, ent_before, &at);
	int64_t pos = a, ts;
	int32_t p;

	x->nsg = 0;
	/*
	 * The chain of entry lo - 1 and its parents: from the last walk's
	 * (h->chain) up to where the two meet.  A parent comes before its
	 * children, so a chain's entries rise from the outermost, and the
	 * climb from lo - 1 meets the last chain at the first entry of it
	 * not above the climb's.
	 */
	k = h->nchain;
	for (p = lo > 0 ? (int32_t)lo - 1 : -1; p >= 0; p = h->e[p].parent) {
		while (k > 0 && h->chain[k - 1] > p)
			k--;
		if (k > 0 && h->chain[k - 1] == p)
			break;
		d++;
	}
	if (p < 0)		/* climbed past the outermost: none met */
		k = 0;
	if (h->capchain < k + d)
		tl_grow(&h->chain, &h->capchain, k + d, sizeof(*h->chain));
	h->nchain = k + d;
	for (p = lo > 0 ? (int32_t)lo - 1 : -1; d > 0; p = h->e[p].parent)
		h->chain[k + --d] = p;
	sp = h->nchain;
	if (x->capstk < sp + 1)
		tl_grow(&x->stk, &x->capstk, sp + 1, sizeof(*x->stk));
	if (sp > 0)		/* h->chain is NULL until a chain is kept */
		memcpy(x->stk, h->chain, sp * sizeof(*x->stk));
	for (i = lo;; i++) {
		int last = i >= h->n || ent_ts(x->t, &h->e[i]) >= c;

		ts = last ? c : ent_ts(x->t, &h->e[i]);
		while (sp > 0 && ent_end(x->t, &h->e[x->stk[sp - 1]]) <= ts) {
			int32_t top = x->stk[--sp];
			int64_t end = ent_end(x->t, &h->e[top]);

			if (end > pos) {
				seg(x, pos, end, top);
				pos = end;
			}
		}
		if (sp > 0)
			seg(x, pos, ts, x->stk[sp - 1]);
		if (pos < ts)
			pos = ts;
		if (last)
			break;
		if (sp == x->capstk)
			tl_grow(&x->stk, &x->capstk, sp + 1, sizeof(*x->stk));
		x->stk[sp++] = (int32_t)i;
	}
}

/* No shares yet (share_add): the hash's slots of old ones are stale. */
static void
shares_reset(struct ctx *x)
{
	x->nsh = 0;
	if (++x->gen == 0) {	/* wrapped: no slot may look current */
		if (x->slot != NULL)
			memset(x->slot, 0,
			    ((size_t)1 << x->slotbits) * sizeof(*x->slot));
		x->gen = 1;
	}
}

/* Owner's slot in the hash: where it is, or the free one it would take. */
static inline struct slot *
share_slot(const struct ctx *x, int32_t owner)
{
	size_t mask = ((size_t)1 << x->slotbits) - 1;
	size_t h = ((uint32_t)owner * 0x9e3779b1u) >> (32 - x->slotbits);

	while (x->slot[h].gen == x->gen && x->slot[h].owner != owner)
		h = (h + 1) & mask;
	return &x->slot[h];
}

/* Room for one more owner in sh and in the hash (at most half full). */
static void
share_room(struct ctx *x)
{
	unsigned bits = x->slot == NULL ? 6 : x->slotbits + 1;
	size_t i;

	if (x->nsh == x->capsh)
		tl_grow(&x->sh, &x->capsh, x->nsh + 1, sizeof(*x->sh));
	if (x->slot != NULL && 2 * (x->nsh + 1) <= (size_t)1 << x->slotbits)
		return;
	free(x->slot);
	x->slot = tl_calloc((size_t)1 << bits, sizeof(*x->slot));
	x->slotbits = bits;
	x->gen = 1;
	for (i = 0; i < x->nsh; i++) {
		struct slot *q = share_slot(x, x->sh[i].owner);

		q->gen = x->gen;
		q->owner = x->sh[i].owner;
		q->at = (uint32_t)i;
	}
}

/*
 * ns more of owner's share: summed by owner as they come (a hash of the
 * owners), not sorted by owner and summed after.
 */
static inline void
share_add(struct ctx *x, int32_t owner, int64_t ns)
{
	struct slot *q;

	if (x->nsh == x->capsh || x->slot == NULL ||
	    2 * (x->nsh + 1) > (size_t)1 << x->slotbits)
		share_room(x);
	q = share_slot(x, owner);
	if (q->gen == x->gen) {
		x->sh[q->at].ns += ns;
		return;
	}
	q->gen = x->gen;
	q->owner = owner;
	q->at = (uint32_t)x->nsh;
	x->sh[x->nsh].owner = owner;
	x->sh[x->nsh++].ns = ns;
}

/* Add the owners' shares of [a, c) on thread h to the scratch shares. */
static void
shares(struct ctx *x, struct hthread *h, int64_t a, int64_t c)
{
	size_t i;

	walk(x, h, a, c);
	for (i = 0; i < x->nsg; i++)
		share_add(x, x->sg[i].owner, x->sg[i].end - x->sg[i].start);
}

static int
is_sync_ent(const struct ctx *x, const struct hthread *h, int32_t k)
{
	int32_t id = h->e[k].id;

	return id >= 0 && (x->t->ev[id].kind == TL_EV_RUNTIME ||
	    x->t->ev[id].kind == TL_EV_DRIVER);
}

/* Entry k's name, as tl_cpiece holds it. */
static int32_t
ent_name(const struct hthread *h, int32_t k)
{
	return h->e[k].id;
}

const char *
tl_cp_name(const struct tl_trace *t, int32_t id)
{
	if (id == TL_CP_NONE)
		return "";
	return id >= 0 ? tl_ev_name(t, &t->ev[id]) :
	    tl_str(t->pystr, t->py[-id - 1].name);
}

static int
ent_kind(const struct ctx *x, const struct hthread *h, int32_t k)
{
	int32_t id = h->e[k].id;

	if (id < 0)
		return TL_CK_PYTHON;
	switch (x->t->ev[id].kind) {
	case TL_EV_CPU_OP:
		return TL_CK_CPU_OP;
	case TL_EV_ANNOTATION:
		return TL_CK_ANNOTATION;
	default:
		return TL_CK_SYNC;
	}
}

/*
 * Entry k's context: its outermost enclosing annotation inside its
 * iteration ([s0, s1), the launch's, or one before it that holds k), else its outermost enclosing entry there (s1 <= s0:
 * no iteration; then its outermost enclosing cpu_op or annotation), or
 * itself.  An annotation names what the code was doing (the DataLoader's
 * enumerate(DataLoader)#..., Optimizer.zero_grad#...) where the Python
 * frames around it are the library's plumbing (dataloader.py's
 * __next__), so it wins over the frames outside it.
 */
/*
 * The step of the same process as the one at [*s0, *s1) that holds time
 * ts, before it (the end of a step whose last gap the next step's first
 * launch ends), into *s0, *s1; unchanged when none does.
 */
static void
step_of(const struct ctx *x, int64_t ts, int64_t *s0, int64_t *s1)
{
	const struct tl_iters *it = x->it;
	size_t lo = 0, hi = it->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (it->v[mid].ts < *s0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == it->n)
		return;
	for (i = lo; i-- > 0 && lo - i <= 8;)
		if (it->v[i].pid == it->v[lo].pid && it->v[i].ts <= ts &&
		    ts < it->v[i].end) {
			*s0 = it->v[i].ts;
			*s1 = it->v[i].end;
			return;
		}
}

static int32_t
context(const struct ctx *x, const struct hthread *h, int32_t k,
    int64_t s0, int64_t s1)
{
	int32_t best = k, p = k, ann = -1;

	/* Below its own step: the launch's, or one before it. */
	if (s1 > s0 && ent_ts(x->t, &h->e[k]) < s0)
		step_of(x, ent_ts(x->t, &h->e[k]), &s0, &s1);

	if (ent_kind(x, h, k) == TL_CK_ANNOTATION)
		ann = k;
	while ((p = h->e[p].parent) >= 0) {
		if (s1 > s0) {
			if (ent_ts(x->t, &h->e[p]) < s0 ||
			    ent_end(x->t, &h->e[p]) > s1)
				break;
			best = p;
		} else if (h->e[p].id >= 0)
			best = p;
		else
			continue;
		if (ent_kind(x, h, p) == TL_CK_ANNOTATION)
			ann = p;
	}
	return ent_name(h, ann >= 0 ? ann : best);
}

static void
add_piece(struct ctx *x, int32_t name, int32_t ctxname, int64_t ns,
    int kind, int thread)
{
	struct tl_culprits *c = x->c;
	struct tl_cpiece *p;

	if (ns <= 0)
		return;
	if (c->npiece == x->cappiece)
		tl_grow(&c->piece, &x->cappiece, c->npiece + 1, sizeof(*p));
	p = &c->piece[c->npiece++];
	p->name = name;
	p->context = ctxname;
	p->ns = ns;
	p->kind = (uint8_t)kind;
	p->thread = thread;
}

/* The share with the most time (the earliest owner on a tie), or -1. */
static long
best_share(const struct ctx *x, int sync, const struct hthread *h)
{
	long best = -1;
	size_t i;

	for (i = 0; i < x->nsh; i++) {
		if (h != NULL && is_sync_ent(x, h, x->sh[i].owner) != sync)
			continue;
		if (best < 0 || x->sh[i].ns > x->sh[best].ns ||
		    (x->sh[i].ns == x->sh[best].ns &&
		    x->sh[i].owner < x->sh[best].owner))
			best = (long)i;
	}
	return best;
}

/*
 * The synchronising part of a gap on thread k: what the other threads of
 * the process did meanwhile (the busiest one), the rest to the call.
 */
static void
sync_pieces(struct ctx *x, size_t k, int32_t call, int32_t callctx,
    int64_t total, int64_t s0, int64_t s1)
{
	const struct tl_trace *t = x->t;
	size_t o, i, bestth = 0;
	int64_t bestns = 0;
	int32_t bestowner = -1;

	for (o = 0; o < t->nthreads; o++) {
		struct hthread *h;
		int64_t sum = 0;
		long b;

		if (o == k || t->threads[o].pid != t->threads[k].pid ||
		    x->th[o].nid + x->th[o].n == 0)
			continue;
		h = build(x, o);
		shares_reset(x);
		for (i = 0; i < x->nsv; i++)
			shares(x, h, x->sv[i].start, x->sv[i].end);
		for (i = 0; i < x->nsh; i++)
			sum += x->sh[i].ns;
		if (sum > bestns && (b = best_share(x, 0, NULL)) >= 0) {
			bestns = sum;
			bestth = o;
			bestowner = x->sh[b].owner;
		}
	}
	if (bestowner >= 0) {
		const struct hthread *h = &x->th[bestth];

		add_piece(x, ent_name(h, bestowner),
		    context(x, h, bestowner, s0, s1), bestns,
		    ent_kind(x, h, bestowner), (int)bestth);
	}
	add_piece(x, call, callctx, total - bestns, TL_CK_SYNC, -1);
}

static int
cmp_piece(const void *a, const void *b)
{
	const struct tl_cpiece *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

int
tl_gap_launch(const struct tl_trace *t, const struct tl_idlegap *g)
{
	int launch = t->ev[g->next].parent;

	if (launch < 0 || (t->ev[launch].kind != TL_EV_RUNTIME &&
	    t->ev[launch].kind != TL_EV_DRIVER))
		return -1;
	return launch;
}

int64_t
tl_gap_len(const struct tl_trace *t, const struct tl_idlegap *g)
{
	return t->ev[g->next].ts - g->start;
}

uint32_t
tl_gap_np(const struct tl_culprits *c, const struct tl_idlegap *g)
{
	size_t i = (size_t)(g - c->gap);

	return (uint32_t)(i + 1 < c->ngap ? g[1].p0 : c->npiece) - g->p0;
}

int64_t
tl_gap_step(const struct tl_trace *t, const struct tl_iters *it,
    const struct tl_idlegap *g)
{
	int launch = tl_gap_launch(t, g);
	long k;

	if (launch < 0 || (k = tl_iters_of(it, t, launch)) < 0)
		return TL_NONE;
	return it->v[k].number;
}

/* The culprits of gap g (its pieces, from here on). */
static void
explain(struct ctx *x, struct tl_idlegap *g)
{
	const struct tl_trace *t = x->t;
	struct tl_culprits *c = x->c;
	int launch = tl_gap_launch(t, g);
	int64_t a = g->start, b = t->ev[g->next].ts;
	int64_t s0 = 0, s1 = 0, l, cut, covered = 0, sync = 0;
	struct hthread *h;
	uint32_t np;
	long it, bi;
	size_t i;

	g->p0 = (uint32_t)c->npiece;
	if (c->npiece > UINT32_MAX - 8)
		tl_die("%s: too many idle gaps", t->path);
	if (launch < 0) {
		add_piece(x, TL_CP_NONE, TL_CP_NONE, b - a, TL_CK_NOLAUNCH,
		    -1);
		return;
	}
	if ((it = tl_iters_of(x->it, t, launch)) >= 0) {
		s0 = x->it->v[it].ts;
		s1 = x->it->v[it].end;
	}
	l = t->ev[launch].ts;
	cut = l < a ? a : l > b ? b : l;
	h = build(x, t->ev[launch].thread);
	shares_reset(x);
	x->nsv = 0;
	if (cut > a)
		shares(x, h, a, cut);
	for (i = 0; i < x->nsh; i++)
		if (is_sync_ent(x, h, x->sh[i].owner))
			sync += x->sh[i].ns;
		else
			covered += x->sh[i].ns;
	if ((bi = best_share(x, 0, h)) >= 0) {
		int32_t o = x->sh[bi].owner;

		add_piece(x, ent_name(h, o), context(x, h, o, s0, s1),
		    covered, ent_kind(x, h, o), -1);
	}
	add_piece(x, TL_CP_NONE, TL_CP_NONE, (cut - a) - covered - sync,
	    TL_CK_NONE, -1);
	add_piece(x, launch, TL_CP_NONE, b - cut, TL_CK_LAUNCH, -1);
	if (sync > 0) {
		int32_t o = x->sh[best_share(x, 1, h)].owner;
		int32_t call = ent_name(h, o);
		int32_t callctx = context(x, h, o, s0, s1);
		size_t j;

		/*
		 * The synchronising intervals, for the other threads: the
		 * segments of [a, cut) (shares above) a sync call owns.
		 */
		for (j = 0; j < x->nsg; j++) {
			if (!is_sync_ent(x, h, x->sg[j].owner))
				continue;
			if (x->nsv == x->capsv)
				tl_grow(&x->sv, &x->capsv, x->nsv + 1,
				    sizeof(*x->sv));
			x->sv[x->nsv].start = x->sg[j].start;
			x->sv[x->nsv++].end = x->sg[j].end;
		}
		sync_pieces(x, t->ev[launch].thread, call, callctx, sync, s0,
		    s1);
	}
	np = (uint32_t)c->npiece - g->p0;
	if (np > 8)
		qsort(c->piece + g->p0, np, sizeof(*c->piece), cmp_piece);
	else {		/* a gap has a few: by insertion, as stable */
		struct tl_cpiece *v = c->piece + g->p0;
		uint32_t i, j;

		for (i = 1; i < np; i++) {
			struct tl_cpiece p = v[i];

			for (j = i; j > 0 && cmp_piece(&v[j - 1], &p) > 0; j--)
				v[j] = v[j - 1];
			v[j] = p;
		}
	}
}

static int
cmp_gap(const void *a, const void *b)
{
	const struct tl_idlegap *x = a, *y = b;

	return x->next < y->next ? -1 : x->next > y->next;
}

void
tl_culprits_find(const struct tl_trace *t, const struct tl_window *w,
    const struct tl_iters *it, struct tl_culprits *c)
{
	struct ctx x;
	struct tl_devices dev = { NULL, 0, 0 };
	int32_t *idx;
	size_t i, k, d, n = 0, capgap = 0, nsp;
	const int32_t *sp = tl_ev_sparse(t, &nsp);

	memset(c, 0, sizeof(*c));
	memset(&x, 0, sizeof(x));
	x.t = t;
	x.it = it;
	x.c = c;
	c->first_ts = TL_NONE;
	/* The linked GPU events: no more than the events the pass reads. */
	idx = tl_malloc((nsp > 0 ? nsp : 1) * sizeof(*idx));
	/*
	 * One pass: the first start, the devices and the linked GPU events
	 * (the list of those and its first start when it is current).
	 */
	if (sp != NULL)
		c->first_ts = t->sparse_first_ts;
	for (k = 0; k < nsp; k++) {
		const struct tl_event *e;

		i = sp != NULL ? (size_t)sp[k] : k;
		e = &t->ev[i];
		if (sp == NULL &&
		    (c->first_ts == TL_NONE || e->ts < c->first_ts))
			c->first_ts = e->ts;
		if (!TL_IS_GPU(e->kind))
			continue;
		tl_devices_add(t, e, &dev);
		if ((e->flags & TL_F_TREE) && tl_in_window(t, w, (int)i))
			idx[n++] = (int32_t)i;
	}
	for (i = 0; i < t->npy; i++)
		if (c->first_ts == TL_NONE || t->py[i].ts < c->first_ts)
			c->first_ts = t->py[i].ts;
	if (n == 0) {
		free(dev.v);
		free(idx);
		return;
	}
	tl_idxsort(idx, n, t->ev, sizeof(*t->ev),
	    offsetof(struct tl_event, ts));
	x.iterev = tl_malloc((it->n > 0 ? it->n : 1) * sizeof(*x.iterev));
	for (i = 0; i < it->n; i++)
		x.iterev[i] = it->v[i].ev;
	x.niterev = it->n;
	if (x.niterev > 1)
		qsort(x.iterev, x.niterev, sizeof(*x.iterev), cmp_i32);
	tl_devices_sort(t, &dev);
	for (d = 0; d < dev.n; d++) {
		int64_t hi = 0;
		int any = 0;

		for (i = 0; i < n; i++) {
			const struct tl_event *e = &t->ev[idx[i]];

			if (tl_ev_pid(t, e) != dev.v[d])
				continue;
			if (any && e->ts > hi) {
				if (e->ts - hi >= TL_GAP_NOISE_NS) {
					tl_ivals_add(&x.win, hi, e->ts);
					if (c->ngap == capgap)
						tl_grow(&c->gap, &capgap,
						    c->ngap + 1,
						    sizeof(*c->gap));
					c->gap[c->ngap].start = hi;
					c->gap[c->ngap++].next = idx[i];
				} else {
					c->noise_ns += e->ts - hi;
					c->noise_count++;
				}
			}
			if (!any || e->ts + e->dur > hi)
				hi = e->ts + e->dur;
			any = 1;
		}
	}
	free(dev.v);
	free(idx);
	/*
	 * Explained in the order they are looked up in, so that a gap's
	 * pieces end where the next gap's start (tl_gap_np).
	 */
	for (i = 1; i < c->ngap && c->gap[i - 1].next <= c->gap[i].next; i++)
		;
	if (i < c->ngap)	/* not in order already (one device's are) */
		qsort(c->gap, c->ngap, sizeof(*c->gap), cmp_gap);
	/* Only the host events in some gap matter (and their ancestors). */
	tl_ivals_merge(&x.win);
	bucket(&x);
	tl_ivals_free(&x.win);
	for (i = 0; i < c->ngap; i++) {
		const struct tl_event *e;
		int l;

		/*
		 * Asked of the memory ahead (no other effect): gap i + 8's
		 * GPU event, gap i + 4's launch call (its GPU event asked
		 * for four gaps ago).  Each lies anywhere in the events, a
		 * cache miss at the gap that reads it.
		 */
		if (i + 8 < c->ngap) {
			e = &t->ev[c->gap[i + 8].next];
			__builtin_prefetch(e);
			__builtin_prefetch((const char *)(e + 1) - 1);
		}
		if (i + 4 < c->ngap &&
		    (l = t->ev[c->gap[i + 4].next].parent) >= 0) {
			__builtin_prefetch(&t->ev[l]);
			__builtin_prefetch((const char *)(&t->ev[l] + 1) - 1);
		}
		explain(&x, &c->gap[i]);
	}
	/* Held until the rows are written: no more than they need. */
	if (c->ngap > 0)
		c->gap = tl_realloc(c->gap, c->ngap * sizeof(*c->gap));
	if (c->npiece > 0)
		c->piece = tl_realloc(c->piece, c->npiece * sizeof(*c->piece));
	for (i = 0; i < t->nthreads; i++) {
		free(x.th[i].id);
		free(x.th[i].e);
		free(x.th[i].chain);
	}
	free(x.th);
	free(x.sync);
	free(x.iterev);
	free(x.sh);
	free(x.slot);
	free(x.sv);
	free(x.sg);
	free(x.stk);
}

void
tl_culprits_free(struct tl_culprits *c)
{
	free(c->gap);
	free(c->piece);
	memset(c, 0, sizeof(*c));
}

const struct tl_idlegap *
tl_culprits_gap(const struct tl_culprits *c, int i)
{
	size_t lo = 0, hi = c->ngap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->gap[mid].next < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ngap && c->gap[lo].next == i ? &c->gap[lo] : NULL;
}
