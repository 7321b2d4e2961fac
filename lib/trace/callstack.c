/* See LICENSE file for copyright and license details. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/idxsort.h"
#include "common/util.h"
#include "trace/callstack.h"

/* A name: its text and length. */
struct seg {
	const char *s;
	size_t n;
};

struct tl_callstack {
	const struct tl_trace *t;
	int *py;		/* frames (t->py) sorted by thread, ts */
	int *up;		/* enclosing frame (index into py), or -1 */
	size_t n;
	/*
	 * The module frames of the last module path (tl_module_of), innermost
	 * first (chain[0] is mod_f; indices into py, so an enclosing frame's
	 * is less), nchain of them, and where the path's text ends after
	 * each one's name (end; chain[nchain - 1]'s, the outermost, first in
	 * the text).  Scratch for the next path's new frames: fresh.
	 */
	int *chain, *fresh;
	size_t *end;
	size_t cap, nchain;
	/* a call stack's names, innermost first (tl_callstack_len) */
	struct seg *seg;
	size_t capseg, nseg;
	/* by name in t->pystr: 1 if an "nn.Module: " frame's */
	unsigned char *ismod;
	/* by name in t->pystr: its text and length up to a NUL (strlen) */
	struct seg *name;
	/*
	 * By frame thread (tl_pyframe.thread, nth of them): where its frames
	 * start in py (at, nth + 1), and where this reader's last search
	 * of its frames ended (finger, from at[]): a thread's rows come in
	 * order, so the next frame is near.
	 */
	size_t *at, *finger, nth;
	int shared;		/* py, up, at, ismod and name are another's */
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
		cs->nth = (size_t)t->py[cs->py[n - 1]].thread + 1;
		cs->at = tl_calloc(cs->nth + 1, sizeof(*cs->at));
		for (i = 0; i < n; i++)
			cs->at[t->py[i].thread + 1]++;
		for (i = 1; i <= cs->nth; i++)
			cs->at[i] += cs->at[i - 1];
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
	/* at[th] is now where thread th + 1 starts */
	memmove(at + 1, at, nth * sizeof(*at));
	at[0] = 0;
	cs->at = at;
	cs->nth = nth;
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
	cs->finger = tl_calloc(cs->nth + 1, sizeof(*cs->finger));
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
	cs->name = tl_calloc(ns + 1, sizeof(*cs->name));
	for (i = 0; i < ns; i++) {
		const char *name = tl_str(t->pystr, (uint32_t)i);
		size_t n = strlen(name);

		cs->ismod[i] = strncmp(name, "nn.Module: ", 11) == 0;
		cs->name[i].s = name;
		cs->name[i].n = n;
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
	d->name = cs->name;
	d->n = cs->n;
	d->at = cs->at;
	d->nth = cs->nth;
	d->finger = tl_calloc(d->nth + 1, sizeof(*d->finger));
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
		free(cs->name);
		free(cs->at);
	}
	free(cs->finger);
	free(cs->chain);
	free(cs->fresh);
	free(cs->end);
	free(cs->seg);
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

/* Frames of one thread from py + 0 on: which start by ts. */
struct framekey {
	const struct tl_trace *t;
	const int *py;
	int64_t ts;
};

static int
frame_by(const void *arg, size_t k)
{
	const struct framekey *x = arg;

	return x->t->py[x->py[k]].ts <= x->ts;
}

static int
find_innermost(struct tl_callstack *cs, int i)
{
	const struct tl_trace *t = cs->t;
	const struct tl_event *e = &t->ev[i];
	struct framekey x;
	size_t lo;
	uint32_t th;
	int f;

	if (cs->n == 0)
		return -1;
	th = t->thread_py[e->thread];
	if (th >= cs->nth)
		return -1;	/* a thread without frames */
	/* the first frame of the thread after ts (or the next thread's) */
	x.t = t;
	x.py = cs->py + cs->at[th];
	x.ts = e->ts;
	lo = cs->at[th] + tl_gallop(cs->at[th + 1] - cs->at[th],
	    &cs->finger[th], frame_by, &x);
	for (f = (int)lo - 1; f >= 0; f = cs->up[f]) {
		const struct tl_pyframe *p = &t->py[cs->py[f]];

		if (p->thread != th)
			return -1;
		if (p->ts + p->dur > e->ts)
			return f;
	}
	return -1;
}

size_t
tl_callstack_len(struct tl_callstack *cs, int i, size_t depth)
{
	const struct tl_trace *t = cs->t;
	size_t n = 0, len = 0;
	int f, a;
	struct seg *g;

	cs->nseg = 0;
	if (t->thread_py == NULL)
		return 0;	/* python_function events not read */
	f = innermost(cs, i);
	a = t->ev[i].parent;
	/*
	 * Merge frames and host ancestors, innermost first, by start: their
	 * names (up to a NUL in one, as written before) and the length of
	 * them all; tl_callstack_put then copies them in one piece.
	 */
	if (depth == 0)
		depth = SIZE_MAX;
	while (a >= 0 && n < depth) {
		if (n >= cs->capseg)
			tl_grow(&cs->seg, &cs->capseg, n + 1,
			    sizeof(*cs->seg));
		g = &cs->seg[n++];
		if (f >= 0 && t->py[cs->py[f]].ts >= t->ev[a].ts) {
			*g = cs->name[t->py[cs->py[f]].name];
			f = cs->up[f];
		} else {
			g->s = tl_ev_name(t, &t->ev[a]);
			g->n = strlen(g->s);
			a = t->ev[a].parent;
		}
		len += g->n + 1;
	}
	/* no host ancestor left: the frames up from f */
	for (; f >= 0 && n < depth; n++) {
		if (n >= cs->capseg)
			tl_grow(&cs->seg, &cs->capseg, n + 1,
			    sizeof(*cs->seg));
		g = &cs->seg[n];
		*g = cs->name[t->py[cs->py[f]].name];
		len += g->n + 1;
		f = cs->up[f];
	}
	cs->nseg = n;
	return n > 0 ? len - 1 : 0;	/* no ';' after the innermost */
}

void
tl_callstack_put(const struct tl_callstack *cs, char *o)
{
	size_t k;

	for (k = cs->nseg; k-- > 0;) {
		memcpy(o, cs->seg[k].s, cs->seg[k].n);
		o += cs->seg[k].n;
		if (k > 0)
			*o++ = ';';
	}
}

void
tl_callstack_of(struct tl_callstack *cs, int i, size_t depth,
    struct tl_jbuf *out)
{
	size_t len = tl_callstack_len(cs, i, depth);

	tl_jb_reset(out);
	if (len == 0)
		return;
	if (out->cap - out->n <= len)
		tl_jb_grow(out, len);
	tl_callstack_put(cs, out->s + out->n);
	out->n += len;
	out->s[out->n] = '\0';
}

const char *
tl_module_of(struct tl_callstack *cs, int i, size_t *len)
{
	const struct tl_trace *t = cs->t;
	size_t n = 0, j = 0, k, keep;
	int f;

	*len = 0;
	for (f = innermost(cs, i); f >= 0; f = cs->up[f])
		if (cs->ismod[t->py[cs->py[f]].name])
			break;
	if (f < 0)
		return "";
	if (f == cs->mod_f) {	/* the last row's */
		*len = cs->mod.n;
		return cs->mod.s;
	}
	/*
	 * The module frames from f up to the first one the last path has
	 * too (chain[j]: the paths share it and all above it, their text
	 * the last text's up to end[j]), or to the outermost.
	 */
	cs->mod_f = f;
	for (; f >= 0; f = cs->up[f]) {
		if (!cs->ismod[t->py[cs->py[f]].name])
			continue;
		while (j < cs->nchain && cs->chain[j] > f)
			j++;	/* not around f: not around what encloses it */
		if (j < cs->nchain && cs->chain[j] == f)
			break;
		if (n >= cs->cap) {
			tl_grow(&cs->chain, &cs->cap, n + 1, sizeof(*cs->chain));
			cs->fresh = tl_realloc(cs->fresh,
			    cs->cap * sizeof(*cs->fresh));
			cs->end = tl_realloc(cs->end, cs->cap * sizeof(*cs->end));
		}
		cs->fresh[n++] = f;
	}
	keep = f >= 0 ? cs->nchain - j : 0;	/* chain[j..nchain): shared */
	if (n + keep > cs->cap) {
		tl_grow(&cs->chain, &cs->cap, n + keep, sizeof(*cs->chain));
		cs->fresh = tl_realloc(cs->fresh, cs->cap * sizeof(*cs->fresh));
		cs->end = tl_realloc(cs->end, cs->cap * sizeof(*cs->end));
	}
	if (keep > 0) {
		cs->mod.n = cs->end[j];
		memmove(cs->chain + n, cs->chain + j, keep * sizeof(*cs->chain));
		memmove(cs->end + n, cs->end + j, keep * sizeof(*cs->end));
	} else
		tl_jb_reset(&cs->mod);
	for (k = n; k-- > 0;) {
		const struct seg *name = &cs->name[t->py[cs->py[cs->fresh[k]]].name];

		if (k + 1 < n || keep > 0)
			tl_jb_raw(&cs->mod, "/", 1);
		tl_jb_raw(&cs->mod, name->s + 11, name->n - 11);
		cs->chain[k] = cs->fresh[k];
		cs->end[k] = cs->mod.n;
	}
	cs->nchain = n + keep;
	*len = cs->mod.n;
	return cs->mod.s != NULL ? cs->mod.s : "";
}
