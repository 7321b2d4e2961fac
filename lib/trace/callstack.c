/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "trace/callstack.h"

struct tl_callstack {
	const struct tl_trace *t;
	int *py;		/* python frames sorted by thread, ts */
	int *up;		/* enclosing frame (index into py), or -1 */
	size_t n;
	int *chain;
	size_t cap;
};

static const struct tl_trace *sort_t;

static int
cmp_frame(const void *a, const void *b)
{
	const struct tl_event *x = &sort_t->ev[*(const int *)a];
	const struct tl_event *y = &sort_t->ev[*(const int *)b];
	int c = tl_ev_cmp_thread(x, y);

	if (c != 0)
		return c;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;	/* outer first */
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static int
same_thread(const struct tl_event *a, const struct tl_event *b)
{
	return a->thread == b->thread;
}

struct tl_callstack *
tl_callstack_new(const struct tl_trace *t)
{
	struct tl_callstack *cs = tl_calloc(1, sizeof(*cs));
	size_t i, sp = 0;
	int *stack;

	cs->t = t;
	cs->py = tl_malloc((t->nev + 1) * sizeof(*cs->py));
	for (i = 0; i < t->nev; i++)
		if (t->ev[i].kind == TL_EV_PYTHON)
			cs->py[cs->n++] = (int)i;
	sort_t = t;
	if (cs->n > 0)
		qsort(cs->py, cs->n, sizeof(*cs->py), cmp_frame);
	cs->up = tl_malloc((cs->n + 1) * sizeof(*cs->up));
	stack = tl_malloc((cs->n + 1) * sizeof(*stack));
	for (i = 0; i < cs->n; i++) {
		const struct tl_event *e = &t->ev[cs->py[i]];

		while (sp > 0) {
			const struct tl_event *top = &t->ev[cs->py[stack[sp - 1]]];

			if (same_thread(top, e) && e->ts < top->ts + top->dur)
				break;
			sp--;
		}
		cs->up[i] = sp > 0 ? stack[sp - 1] : -1;
		stack[sp++] = (int)i;
	}
	free(stack);
	return cs;
}

void
tl_callstack_free(struct tl_callstack *cs)
{
	if (cs == NULL)
		return;
	free(cs->py);
	free(cs->up);
	free(cs->chain);
	free(cs);
}

/* Innermost python frame of i's thread that contains i's start, or -1. */
static int
innermost(struct tl_callstack *cs, int i)
{
	const struct tl_trace *t = cs->t;
	const struct tl_event *e = &t->ev[i];
	size_t lo = 0, hi = cs->n;
	int f;

	while (lo < hi) {	/* first frame after (thread, ts) */
		size_t mid = (lo + hi) / 2;
		const struct tl_event *m = &t->ev[cs->py[mid]];

		if (tl_ev_cmp_thread(m, e) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (f = (int)lo - 1; f >= 0; f = cs->up[f]) {
		const struct tl_event *p = &t->ev[cs->py[f]];

		if (!same_thread(p, e))
			return -1;
		if (p->ts + p->dur > e->ts)
			return f;
	}
	return -1;
}

void
tl_callstack_of(struct tl_callstack *cs, int i, struct tl_jbuf *out)
{
	const struct tl_trace *t = cs->t;
	size_t n = 0, k;
	int f = innermost(cs, i), a = t->ev[i].parent;

	tl_jb_reset(out);
	/* Merge frames and host ancestors, innermost first, by start. */
	while (f >= 0 || a >= 0) {
		int take_py;

		if (f < 0)
			take_py = 0;
		else if (a < 0)
			take_py = 1;
		else
			take_py = t->ev[cs->py[f]].ts >= t->ev[a].ts;
		tl_grow(&cs->chain, &cs->cap, n + 1, sizeof(*cs->chain));
		if (take_py) {
			cs->chain[n++] = cs->py[f];
			f = cs->up[f];
		} else {
			cs->chain[n++] = a;
			a = t->ev[a].parent;
		}
	}
	for (k = n; k-- > 0;) {
		tl_jb_lit(out, tl_ev_name(t, &t->ev[cs->chain[k]]));
		if (k > 0)
			tl_jb_raw(out, ";", 1);
	}
}

void
tl_module_of(struct tl_callstack *cs, int i, struct tl_jbuf *out)
{
	const struct tl_trace *t = cs->t;
	size_t n = 0, k;
	int f;

	tl_jb_reset(out);
	for (f = innermost(cs, i); f >= 0; f = cs->up[f]) {
		if (strncmp(tl_ev_name(t, &t->ev[cs->py[f]]), "nn.Module: ",
		    11) != 0)
			continue;
		tl_grow(&cs->chain, &cs->cap, n + 1, sizeof(*cs->chain));
		cs->chain[n++] = cs->py[f];
	}
	for (k = n; k-- > 0;) {
		tl_jb_lit(out, tl_ev_name(t, &t->ev[cs->chain[k]]) + 11);
		if (k > 0)
			tl_jb_raw(out, "/", 1);
	}
}
