/* See LICENSE file for copyright and license details. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/idxsort.h"
#include "common/util.h"
#include "trace/callstack.h"

struct tl_callstack {
	const struct tl_trace *t;
	int *py;		/* frames (t->py) sorted by thread, ts */
	int *up;		/* enclosing frame (index into py), or -1 */
	size_t n;
	int *chain;
	size_t cap;
	/* by name in t->pystr: 1 if an "nn.Module: " frame's */
	unsigned char *ismod;
	/* by name in t->pystr: its length up to a NUL (strlen) */
	uint32_t *len;
	int shared;		/* py, up and ismod are another's */
	int last_i, last_f;	/* the last innermost(): a row asks twice */
	/*
	 * The last module path, of its innermost module frame mod_f (-1:
	 * none yet): rows in a row mostly share it (5 869 of 7 762 in a
	 * diffusion trace), and building it walks every frame up.
	 */
	int mod_f;
	struct tl_jbuf mod;
};

static const struct tl_trace *sort_t;

static int
cmp_frame(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const struct tl_pyframe *x = &sort_t->py[i], *y = &sort_t->py[j];

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;	/* outer first */
	return i < j ? -1 : i > j;	/* array order */
}

/*
 * cs->py in cmp_frame's order, without a comparison a pair: a stable
 * natural merge sort by start (tl_idxsort: the frames come about in
 * start order), a stable counting sort by thread, then the few runs of
 * one thread and start put in cmp_frame's order by insertion.  The
 * order is qsort's: cmp_frame orders every pair.
 */
static void
sort_frames(struct tl_callstack *cs)
{
	const struct tl_trace *t = cs->t;
	size_t n = cs->n, i, j, nth = 0, *at;
	int32_t *idx;

	if (n > INT32_MAX) {
		qsort(cs->py, n, sizeof(*cs->py), cmp_frame);
		return;
	}
	idx = tl_malloc(n * sizeof(*idx));
	for (i = 0; i < n; i++) {
		idx[i] = (int32_t)i;
		if (t->py[i].thread >= nth)
			nth = (size_t)t->py[i].thread + 1;
	}
	tl_idxsort(idx, n, t->py, sizeof(*t->py),
	    offsetof(struct tl_pyframe, ts));
	at = tl_calloc(nth + 1, sizeof(*at));
	for (i = 0; i < n; i++)
		at[t->py[i].thread + 1]++;
	for (i = 1; i <= nth; i++)
		at[i] += at[i - 1];
	for (i = 0; i < n; i++)
		cs->py[at[t->py[idx[i]].thread]++] = idx[i];
	free(at);
	free(idx);
	for (i = 1; i < n; i++) {
		int f = cs->py[i];

		for (j = i; j > 0 && cmp_frame(&cs->py[j - 1], &f) > 0; j--)
			cs->py[j] = cs->py[j - 1];
		cs->py[j] = f;
	}
}

struct tl_callstack *
tl_callstack_new(const struct tl_trace *t)
{
	struct tl_callstack *cs = tl_calloc(1, sizeof(*cs));
	size_t i, ns;
	int top = -1;

	cs->t = t;
	cs->last_i = -1;
	cs->mod_f = -1;
	cs->n = t->thread_py != NULL ? t->npy : 0;
	cs->py = tl_malloc((cs->n + 1) * sizeof(*cs->py));
	for (i = 0; i < cs->n; i++)
		cs->py[i] = (int)i;
	sort_t = t;
	if (cs->n > 0)
		sort_frames(cs);
	/*
	 * The open frames form a chain through up[]: the innermost one is
	 * top, the one around it up[top], and so on (no stack array: frames
	 * are most of a trace's memory while this runs).
	 */
	cs->up = tl_malloc((cs->n + 1) * sizeof(*cs->up));
	for (i = 0; i < cs->n; i++) {
		const struct tl_pyframe *e = &t->py[cs->py[i]];

		while (top >= 0) {
			const struct tl_pyframe *o = &t->py[cs->py[top]];

			if (o->thread == e->thread && e->ts < o->ts + o->dur)
				break;
			top = cs->up[top];
		}
		cs->up[i] = top;
		top = (int)i;
	}
	/* Names repeat: which are modules' is found once a name. */
	ns = cs->n > 0 && t->pystr != NULL ? tl_strtab_count(t->pystr) : 0;
	cs->ismod = tl_calloc(ns + 1, 1);
	cs->len = tl_calloc(ns + 1, sizeof(*cs->len));
	for (i = 0; i < ns; i++) {
		const char *name = tl_str(t->pystr, (uint32_t)i);
		size_t n = strlen(name);

		cs->ismod[i] = strncmp(name, "nn.Module: ", 11) == 0;
		cs->len[i] = n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
	}
	return cs;
}

struct tl_callstack *
tl_callstack_dup(const struct tl_callstack *cs)
{
	struct tl_callstack *d = tl_calloc(1, sizeof(*d));

	d->t = cs->t;
	d->py = cs->py;
	d->up = cs->up;
	d->ismod = cs->ismod;
	d->len = cs->len;
	d->n = cs->n;
	d->shared = 1;
	d->last_i = -1;
	d->mod_f = -1;
	return d;
}

void
tl_callstack_free(struct tl_callstack *cs)
{
	if (cs == NULL)
		return;
	if (!cs->shared) {
		free(cs->py);
		free(cs->up);
		free(cs->ismod);
		free(cs->len);
	}
	free(cs->chain);
	tl_jb_free(&cs->mod);
	free(cs);
}

static int find_innermost(struct tl_callstack *cs, int i);

/* Innermost frame of i's thread that contains i's start, or -1. */
static int
innermost(struct tl_callstack *cs, int i)
{
	if (i != cs->last_i) {
		cs->last_f = find_innermost(cs, i);
		cs->last_i = i;
	}
	return cs->last_f;
}

static int
find_innermost(struct tl_callstack *cs, int i)
{
	const struct tl_trace *t = cs->t;
	const struct tl_event *e = &t->ev[i];
	size_t lo = 0, hi = cs->n;
	uint32_t th;
	int f;

	if (cs->n == 0)
		return -1;
	th = t->thread_py[e->thread];
	while (lo < hi) {	/* first frame after (thread, ts) */
		size_t mid = (lo + hi) / 2;
		const struct tl_pyframe *m = &t->py[cs->py[mid]];

		if (m->thread < th || (m->thread == th && m->ts <= e->ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (f = (int)lo - 1; f >= 0; f = cs->up[f]) {
		const struct tl_pyframe *p = &t->py[cs->py[f]];

		if (p->thread != th)
			return -1;
		if (p->ts + p->dur > e->ts)
			return f;
	}
	return -1;
}

void
tl_callstack_of(struct tl_callstack *cs, int i, size_t depth,
    struct tl_jbuf *out)
{
	const struct tl_trace *t = cs->t;
	size_t n = 0, k;
	int f = innermost(cs, i), a = t->ev[i].parent;

	tl_jb_reset(out);
	if (t->thread_py == NULL)
		return;		/* python_function events not read */
	/* Merge frames and host ancestors, innermost first, by start. */
	while ((f >= 0 || a >= 0) && (depth == 0 || n < depth)) {
		int take_py;

		if (f < 0)
			take_py = 0;
		else if (a < 0)
			take_py = 1;
		else
			take_py = t->py[cs->py[f]].ts >= t->ev[a].ts;
		if (n >= cs->cap)
			tl_grow(&cs->chain, &cs->cap, n + 1,
			    sizeof(*cs->chain));
		if (take_py) {
			cs->chain[n++] = -2 - f;
			f = cs->up[f];
		} else {
			cs->chain[n++] = a;
			a = t->ev[a].parent;
		}
	}
	for (k = n; k-- > 0;) {
		int c = cs->chain[k];

		/* up to a NUL in a name, as written before */
		if (c >= 0)
			tl_jb_lit(out, tl_ev_name(t, &t->ev[c]));
		else {
			uint32_t name = t->py[cs->py[-2 - c]].name;

			tl_jb_raw(out, tl_str(t->pystr, name), cs->len[name]);
		}
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
	for (f = innermost(cs, i); f >= 0; f = cs->up[f])
		if (cs->ismod[t->py[cs->py[f]].name])
			break;
	if (f < 0)
		return;
	if (f == cs->mod_f) {
		tl_jb_raw(out, cs->mod.s, cs->mod.n);
		return;
	}
	cs->mod_f = f;
	for (; f >= 0; f = cs->up[f]) {
		if (!cs->ismod[t->py[cs->py[f]].name])
			continue;
		if (n >= cs->cap)
			tl_grow(&cs->chain, &cs->cap, n + 1,
			    sizeof(*cs->chain));
		cs->chain[n++] = cs->py[f];
	}
	for (k = n; k-- > 0;) {
		uint32_t name = t->py[cs->chain[k]].name;

		tl_jb_raw(out, tl_str(t->pystr, name) + 11,
		    cs->len[name] - 11);
		if (k > 0)
			tl_jb_raw(out, "/", 1);
	}
	tl_jb_reset(&cs->mod);
	tl_jb_raw(&cs->mod, out->s, out->n);
}
