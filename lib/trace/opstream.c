/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/hashmap.h"
#include "common/idxsort.h"
#include "common/pool.h"
#include "common/util.h"
#include "stream/optable.h"
#include "trace/callstack.h"
#include "trace/collective.h"
#include "trace/context.h"
#include "trace/culprit.h"
#include "trace/iter.h"
#include "trace/kernclass.h"
#include "trace/opstream.h"
#include "trace/tree.h"

/* The kinds of culprit piece (tl_ckind_names). */
#define TL_NCKIND (sizeof(tl_ckind_names) / sizeof(tl_ckind_names[0]))

static void
w_interned(struct tl_opstream *os, const struct tl_trace *t, uint32_t id)
{
	tl_w_mem(os->w, tl_str(t->str, id), tl_strsize(t->str, id));
}

static void
w_opt_int(struct tl_opstream *os, int64_t v)
{
	if (v == TL_NONE)
		tl_w_empty(os->w);
	else
		tl_w_int(os->w, v);
}

/* A count, or empty when unknown (negative). */
static void
w_opt_count(struct tl_opstream *os, int64_t v)
{
	if (v >= 0)
		tl_w_int(os->w, v);
	else
		tl_w_empty(os->w);
}

/* A positive count, or empty when unknown (0). */
static void
w_pos_int(struct tl_opstream *os, long long v)
{
	if (v > 0)
		tl_w_int(os->w, v);
	else
		tl_w_empty(os->w);
}

/* A host event's pid, tid, start and duration. */
static void
w_host(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_event *e)
{
	w_interned(os, t, tl_ev_pid(t, e));
	w_interned(os, t, tl_ev_tid(t, e));
	tl_w_us(os->w, e->ts);
	tl_w_us(os->w, e->dur);
}

/* Event i's uid, or an empty field when i < 0. */
static void
w_ev_uid(struct tl_opstream *os, const struct tl_trace *t, int i)
{
	if (i >= 0)
		tl_w_int(os->w, t->ev[i].uid);
	else
		tl_w_empty(os->w);
}

/* Event i's name, or an empty field when i < 0. */
static void
w_ev_name(struct tl_opstream *os, const struct tl_trace *t, int i)
{
	if (i >= 0)
		w_interned(os, t, t->ev[i].name);
	else
		tl_w_empty(os->w);
}

/* Event i's uid and name, or two empty fields when i < 0. */
static void
w_event(struct tl_opstream *os, const struct tl_trace *t, int i)
{
	w_ev_uid(os, t, i);
	w_ev_name(os, t, i);
}

static void
w_args(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_event *e)
{
	struct tl_args a;

	tl_ev_args(t, e, &a);
	w_interned(os, t, a.dims);
	w_interned(os, t, a.types);
	w_interned(os, t, a.strides);
	w_interned(os, t, a.concrete);
}

/* The product of a recorded "[x, y, z]" (interned id s); -1 when none. */
static int64_t
dims_product(const struct tl_trace *t, uint32_t s)
{
	const char *p = tl_str(t->str, s), *end = p + tl_strsize(t->str, s);
	int64_t v = 1, d;
	int n = 0;

	if (s == 0 || p >= end || *p++ != '[')
		return -1;
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		for (d = 0; p < end && *p >= '0' && *p <= '9'; p++)
			if (d > INT64_MAX / 10 - 9)
				return -1;
			else
				d = d * 10 + (*p - '0');
		if (tl_mul(&v, v, d) < 0)
			return -1;
		n++;
		while (p < end && *p == ' ')
			p++;
		if (p < end && *p == ',')
			p++;
		else
			break;
	}
	return p < end && *p == ']' && n > 0 ? v : -1;
}

static void
w_trace(struct tl_opstream *os, const struct tl_trace *t)
{
	tl_w_str(os->w, t->name);
	if (t->rank != NULL)
		tl_w_str(os->w, t->rank);
	else
		tl_w_empty(os->w);
}

#define NTEXT 64

#define STEP_TRACE (-1)
#define STEP_GROUP (-2)

/*
 * Runs of columns written by key (group_texts): a thread's pid and tid,
 * an args record's shapes, types, strides and concrete inputs, an
 * iteration's number and phase.
 */
enum { GRP_THREAD, GRP_ARGS, GRP_ITER, NGRP };

static const struct {
	const short *cols;
	int n;
} grp[NGRP] = {
	[GRP_THREAD] = { (const short[]){ TL_COL_PID, TL_COL_TID }, 2 },
	[GRP_ARGS] = { (const short[]){ TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES,
	    TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS }, 4 },
	[GRP_ITER] = { (const short[]){ TL_COL_ITERATION, TL_COL_PHASE }, 2 },
};

/* What every row of the op stream reads besides itself. */
struct rowctx {
	const struct tl_trace *t;
	const struct tl_rows *rows;
	const struct tl_timeline *tl;
	struct tl_steps steps;
	struct tl_iters it;
	struct tl_colls colls;
	struct tl_culprits cul;
	/* the steady-state window (iter.h), when the trace has iterations */
	int has_steady;
	struct tl_timeline stl;	/* its timeline */
	unsigned char *oneoff;	/* by row: a one-time cost (warm-up) */
	/* a row's columns, those of the trace formatted once (plan_rows) */
	struct rowstep *plan;
	int nplan;
	struct tl_writer text;
	/*
	 * By group (GRP_*) and key (grp_key; NULL: the plan has none): its
	 * columns' text as offset << 32 | length in gtext, 0 if not there.
	 */
	uint64_t *gat[NGRP];
	size_t ngat[NGRP];
	struct tl_writer gtext;
	int gwant;		/* 1 << GRP_*: the groups of the plan */
	/*
	 * By interned id of t->str (jid, njid ids) and of t->pystr (jpy,
	 * njpy): offset << 32 | length of its JSON string in jtext, 0 when
	 * not there (an array, not a map: looked up for every kernel).
	 */
	uint64_t *jid, *jpy;
	size_t njid, njpy;
	struct tl_jbuf jtext;
	/*
	 * 1 when every kernel's name and pid is in jtext and jtext has no
	 * '\\': the kernels column then needs no TSV escape (JSON text
	 * has no tab, newline or carriage return).
	 */
	int jplain;
	/* tl_ckind_names as JSON strings */
	struct tl_jbuf kinds[TL_NCKIND];
	/*
	 * By 2 * launch id (tl_event.launch) + 1 if the launch call takes
	 * work-items (grid_block): the kernels' ",\"grid\":G,\"block\":B"
	 * as offset << 32 | length in gbtext (0: none), each launch shape
	 * parsed once for thousands of kernels.
	 */
	uint64_t *gbt;
	struct tl_jbuf gbtext;
	/*
	 * By interned id of t->str: ID_PLAIN if its text goes out as it is
	 * (no escape or quote), so names, pids and shapes are not scanned
	 * again on every row; ID_EXTLAUNCH if it is the launch call that
	 * takes work-items (grid_block); nstr ids.
	 */
	unsigned char *plain;
	size_t nstr;
	/*
	 * 1 if every name of t->str and t->pystr goes out as it is: then
	 * so do the module and call_stack columns, names (or their tails)
	 * joined by '/' and ';', and no row's is scanned again.
	 */
	int names_plain;
	/*
	 * The texts of the category, row_kind and phase columns (a few
	 * static strings for all rows) by address: length, and 1 if they
	 * go out as they are; NTEXT slots, open addressing.
	 */
	struct ctext {
		const char *s;
		uint32_t n;
		int plain;
	} text_of[NTEXT];
};

#define ID_PLAIN 1
#define ID_EXTLAUNCH 2

/*
 * A step of writing a row: column col; or (STEP_TRACE) n columns whose
 * values are the trace's, the same on every row, as text[off..off+len);
 * or (STEP_GROUP) group n (GRP_*): the columns of the steps that follow,
 * whose values depend on a key that few rows differ in, formatted once a
 * key (c->gat[n]), those steps then skipped.
 */
struct rowstep {
	int col, n;
	size_t off, len;
};


/* Where interned id (py: of t->pystr) has its JSON text (c->jid, jpy). */
static uint64_t *
jslot(const struct rowctx *c, uint32_t id, int py)
{
	if (py)
		return id < c->njpy ? &c->jpy[id] : NULL;
	return id < c->njid ? &c->jid[id] : NULL;
}

/*
 * Interned string id (of t->str, or with py of t->pystr) as a JSON
 * string into c->jtext, once, and where in c->jid or c->jpy.
 */
static void
jcache(struct rowctx *c, uint32_t id, int py)
{
	uint64_t *v = jslot(c, id, py);
	size_t off = c->jtext.n;

	if (v == NULL || *v != 0)
		return;
	tl_jb_str(&c->jtext, tl_str(py ? c->t->pystr : c->t->str, id));
	if (c->jtext.n - off > UINT32_MAX || off > INT32_MAX) {
		c->jplain = 0;
		return;		/* written without the cache */
	}
	*v = (uint64_t)off << 32 | (uint64_t)(c->jtext.n - off);
}

/* Interned id of t->str as a field, unscanned when it is plain. */
static inline void
w_id(struct tl_opstream *os, const struct rowctx *c, uint32_t id)
{
	if (id == 0)		/* the empty string: absent args, mostly */
		tl_w_empty(os->w);
	else if (id < c->nstr && (c->plain[id] & ID_PLAIN))
		tl_w_raw(os->w, tl_str(c->t->str, id),
		    tl_strsize(c->t->str, id));
	else
		w_interned(os, c->t, id);
}

/* Static text s's slot in c->text_of: its own, or an empty one. */
static struct ctext *
ctext_slot(const struct rowctx *c, const char *s)
{
	unsigned h = (unsigned)(((uintptr_t)s * 0x9e3779b97f4a7c15ull) >> 58);
	int k;

	for (k = 0; k < NTEXT; k++, h = (h + 1) % NTEXT)
		if (c->text_of[h].s == s || c->text_of[h].s == NULL)
			return (struct ctext *)&c->text_of[h];
	return NULL;
}

/* Static text s (not NULL) into c->text_of while there is room. */
static void
ctext_add(struct rowctx *c, const struct tl_writer *w, const char *s)
{
	struct ctext *e = ctext_slot(c, s);
	int used = 0, k;

	if (e == NULL || e->s != NULL)
		return;
	for (k = 0; k < NTEXT; k++)
		used += c->text_of[k].s != NULL;
	if (used >= NTEXT / 2)
		return;		/* others written by tl_w_str */
	e->s = s;
	e->n = (uint32_t)strlen(s);
	e->plain = tl_w_plain(w, s, e->n);
}

/* Static text s as a field: unscanned when c->text_of has it plain. */
static void
w_text(struct tl_opstream *os, const struct rowctx *c, const char *s)
{
	const struct ctext *e = ctext_slot(c, s);

	if (e != NULL && e->s == s && e->plain)
		tl_w_raw(os->w, s, e->n);
	else
		tl_w_str(os->w, s);
}

/* The category, row kind and phase texts of the rows (c->text_of). */
static void
static_texts(struct rowctx *c, const struct tl_writer *w)
{
	size_t i;

	memset(c->text_of, 0, sizeof(c->text_of));
	for (i = 0; i < 4; i++)
		ctext_add(c, w, tl_phase_names[i]);
	for (i = 0; i < c->rows->n; i++) {
		const struct tl_row *r = &c->rows->v[i];

		if (r->category != NULL)
			ctext_add(c, w, r->category);
		ctext_add(c, w, tl_rowkind_name(r->kind));
	}
}

/*
 * Which ids of t->str go out as they are, and which is the launch call
 * that takes work-items (c->plain).
 */
static void
plain_ids(struct rowctx *c, const struct tl_writer *w)
{
	size_t i;

	c->nstr = tl_strtab_count(c->t->str);
	c->plain = tl_malloc(c->nstr + 1);
	c->names_plain = tl_w_plain(w, "/;", 2);
	for (i = 0; i < c->nstr; i++) {
		const char *s = tl_str(c->t->str, (uint32_t)i);

		c->plain[i] = (unsigned char)tl_w_plain(w, s,
		    tl_strsize(c->t->str, (uint32_t)i));
		c->names_plain &= c->plain[i];
		if (strcmp(s, "hipExtModuleLaunchKernel") == 0)
			c->plain[i] |= ID_EXTLAUNCH;
	}
	if (c->t->pystr == NULL)
		return;
	for (i = 0; i < tl_strtab_count(c->t->pystr) && c->names_plain; i++)
		c->names_plain = tl_w_plain(w, tl_str(c->t->pystr,
		    (uint32_t)i), tl_strsize(c->t->pystr, (uint32_t)i));
}

/* A culprit piece's name or context (tl_cp_name) into the cache. */
static void
jcache_cp(struct rowctx *c, int32_t id)
{
	if (id >= 0)
		jcache(c, c->t->ev[id].name, 0);
	else if (id != TL_CP_NONE)
		jcache(c, c->t->py[-id - 1].name, 1);
}

/*
 * Launch shape k's ",\"grid\":G,\"block\":B" into c->gbtext and where
 * in c->gbt.
 */
static void
gb_text(struct rowctx *c, size_t k, int64_t grid, int64_t block)
{
	size_t off = c->gbtext.n;

	tl_jb_lit(&c->gbtext, ",\"grid\":");
	tl_jb_int(&c->gbtext, grid);
	tl_jb_lit(&c->gbtext, ",\"block\":");
	tl_jb_int(&c->gbtext, block);
	c->gbt[k] = (uint64_t)off << 32 | (uint64_t)(c->gbtext.n - off);
}

/*
 * A GPU event's workgroups and work-items per workgroup: the products of
 * its recorded grid and block.  hipExtModuleLaunchKernel takes (and the
 * profiler records) the global work size, in work-items; the other launch
 * calls (CUDA's, hipLaunchKernel, hipModuleLaunchKernel) the grid in
 * workgroups (blocks).  As the kernels column's text (c->gbt), none when
 * the event records none; l is its launch call, or NULL.
 */
static const char *
grid_block(const struct rowctx *c, const struct tl_event *g,
    const struct tl_event *l, size_t *len)
{
	int ext = l != NULL && (l->kind == TL_EV_RUNTIME ||
	    l->kind == TL_EV_DRIVER) && l->name < c->nstr &&
	    (c->plain[l->name] & ID_EXTLAUNCH);
	uint64_t v = c->gbt[2 * (size_t)g->launch + (size_t)ext];

	*len = (uint32_t)v;
	return c->gbtext.s + (v >> 32);
}

/*
 * The JSON strings of the kernels' names and pids, escaped once a
 * string (c->jid): 130 names for 8 065 kernels in a diffusion trace;
 * those of the idle gaps' launch threads and culprits too (c->jpy for
 * python frames); and the grid and block of each launch shape (c->gbt).
 */
static void
json_names(struct rowctx *c)
{
	const struct tl_trace *t = c->t;
	size_t i;

	c->njid = tl_strtab_count(t->str);
	c->jid = tl_calloc(c->njid + 1, sizeof(*c->jid));
	c->njpy = t->pystr != NULL ? tl_strtab_count(t->pystr) : 0;
	c->jpy = tl_calloc(c->njpy + 1, sizeof(*c->jpy));
	memset(&c->jtext, 0, sizeof(c->jtext));
	c->jplain = 1;
	for (i = 0; i < TL_NCKIND; i++) {
		memset(&c->kinds[i], 0, sizeof(c->kinds[i]));
		tl_jb_str(&c->kinds[i], tl_ckind_names[i]);
	}
	/* A few launch shapes for thousands of kernels: each parsed once. */
	c->gbt = tl_calloc(2 * t->nlaunch + 2, sizeof(*c->gbt));
	memset(&c->gbtext, 0, sizeof(c->gbtext));
	tl_jb_raw(&c->gbtext, "", 0);	/* not NULL: length 0 is no text */
	for (i = 0; i < t->nlaunch; i++) {
		int64_t grid = dims_product(t, t->launch[i].grid);
		int64_t block = dims_product(t, t->launch[i].block);

		if (grid <= 0 || block <= 0)
			continue;
		gb_text(c, 2 * i, grid, block);
		if (grid % block == 0)
			gb_text(c, 2 * i + 1, grid / block, block);
	}
	for (i = 0; i < c->rows->ngpu; i++) {
		const struct tl_event *g = &t->ev[c->rows->gpu[i]];

		jcache(c, g->name, 0);
		jcache(c, tl_ev_pid(t, g), 0);
	}
	for (i = 0; i < c->cul.ngap; i++) {
		int l = tl_gap_launch(t, &c->cul.gap[i]);

		if (l >= 0) {
			jcache(c, tl_ev_pid(t, &t->ev[l]), 0);
			jcache(c, tl_ev_tid(t, &t->ev[l]), 0);
		}
	}
	for (i = 0; i < c->cul.npiece; i++) {
		const struct tl_cpiece *p = &c->cul.piece[i];

		/* Piece i + 8's event asked of the memory ahead: a miss. */
		if (i + 8 < c->cul.npiece && c->cul.piece[i + 8].name >= 0)
			__builtin_prefetch(&t->ev[c->cul.piece[i + 8].name].name);
		jcache_cp(c, p->name);
		jcache_cp(c, p->context);
		if (p->thread >= 0)
			jcache(c, t->threads[p->thread].tid, 0);
	}
	if (c->jtext.n > 0 && memchr(c->jtext.s, '\\', c->jtext.n) != NULL)
		c->jplain = 0;
	for (i = 0; i < TL_NCKIND; i++)
		if (memchr(c->kinds[i].s, '\\', c->kinds[i].n) != NULL)
			c->jplain = 0;
}

/* json_text of an id not cached: escaped into tmp. */
static const char *
json_escape(const struct rowctx *c, uint32_t id, int py, struct tl_jbuf *tmp,
    size_t *len)
{
	tl_jb_reset(tmp);
	tl_jb_str(tmp, tl_str(py ? c->t->pystr : c->t->str, id));
	*len = tmp->n;
	return tmp->s;
}

/*
 * The JSON text of interned id (py: of t->pystr): from c->jid or c->jpy,
 * or when not cached escaped into tmp; its length in *len.  Inline: it
 * runs for every kernel, gap and culprit piece.
 */
static inline const char *
json_text(const struct rowctx *c, uint32_t id, int py, struct tl_jbuf *tmp,
    size_t *len)
{
	const uint64_t *v = py ? (id < c->njpy ? &c->jpy[id] : NULL) :
	    (id < c->njid ? &c->jid[id] : NULL);

	if (v != NULL && *v != 0) {
		*len = (uint32_t)*v;
		return c->jtext.s + (*v >> 32);
	}
	return json_escape(c, id, py, tmp, len);
}

/* A culprit piece's name or context (tl_cp_name) as JSON text. */
static inline const char *
cp_text(const struct rowctx *c, int32_t id, struct tl_jbuf *tmp, size_t *len)
{
	if (id >= 0)
		return json_text(c, c->t->ev[id].name, 0, tmp, len);
	if (id != TL_CP_NONE)
		return json_text(c, c->t->py[-id - 1].name, 1, tmp, len);
	*len = 2;
	return "\"\"";
}

/*
 * Room for n bytes at the end of a JSON column's text: straight in the
 * writer (plain: the text needs no TSV escape), else in os->jb.
 */
static inline char *
json_room(struct tl_opstream *os, int plain, size_t n)
{
	if (plain)
		return tl_w_room(os->w, n);
	if (os->jb.cap - os->jb.n <= n)
		tl_jb_grow(&os->jb, n);
	return os->jb.s + os->jb.n;
}

/* The text put at p (json_room) ends at o. */
static void
json_put(struct tl_opstream *os, int plain, const char *p, const char *o)
{
	if (plain)
		os->w->len += (size_t)(o - p);
	else {
		os->jb.n += (size_t)(o - p);
		os->jb.s[os->jb.n] = '\0';
	}
}

/* The column's text is whole: into the row, and the scratch texts freed. */
static void
json_done(struct tl_opstream *os, int plain, struct tl_jbuf *tmp, int ntmp)
{
	int k;

	if (plain)
		tl_w_done(os->w);
	else
		tl_w_mem(os->w, os->jb.s, os->jb.n);
	for (k = 0; k < ntmp; k++)
		if (tmp[k].s != NULL)
			tl_jb_free(&tmp[k]);
}

/* A string literal's bytes at o; past them. */
#define LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) + sizeof(s) - 1)

/*
 * The kernels column: written straight into the writer when its names
 * and pids need no TSV escape (c->jplain) and rows go into memory, the
 * numbers formatted in place, each kernel's room taken once.
 */
static void
kernels_json(struct tl_opstream *os, const struct rowctx *c,
    const struct tl_row *r)
{
	const struct tl_trace *t = c->t;
	const int *gpu = tl_row_gpu(c->rows, r);
	int plain = c->jplain && !os->w->csv && os->w->fp == NULL;
	struct tl_jbuf tmp[2];
	char *p, *o;
	int k;

	memset(tmp, 0, sizeof(tmp));
	if (plain)
		tl_w_sep(os->w);
	else
		tl_jb_reset(&os->jb);
	p = o = json_room(os, plain, 2);
	*o++ = '[';
	json_put(os, plain, p, o);
	for (k = 0; k < r->ngpu; k++) {
		const struct tl_event *g = &t->ev[gpu[k]];
		const struct tl_event *l = g->parent >= 0 ? &t->ev[g->parent] :
		    NULL;
		size_t nl, pl, gl;
		const char *name = json_text(c, g->name, 0, &tmp[0], &nl);
		const char *pid = json_text(c, tl_ev_pid(t, g), 0, &tmp[1],
		    &pl);
		const char *gb = grid_block(c, g, l, &gl);

		/* 13 bytes of keys and 24 of number a field, and the rest */
		p = o = json_room(os, plain, 8 * 40 + nl + pl + gl);
		if (k > 0)
			*o++ = ',';
		o = LIT(o, "{\"uid\":");
		o += tl_fmt_i64(o, g->uid);
		o = LIT(o, ",\"name\":");
		memcpy(o, name, nl);
		o = LIT(o + nl, ",\"pid\":");
		memcpy(o, pid, pl);
		o = LIT(o + pl, ",\"stream\":");
		if (tl_ev_stream(t, g) == TL_NONE)
			o = LIT(o, "null");
		else
			o += tl_fmt_i64(o, tl_ev_stream(t, g));
		o = LIT(o, ",\"ts\":");
		o += tl_fmt_us(o, 32, g->ts);
		o = LIT(o, ",\"dur\":");
		o += tl_fmt_us(o, 32, g->dur);
		/* The launch call's start: where the host let the GPU go. */
		if (l != NULL && (l->kind == TL_EV_RUNTIME ||
		    l->kind == TL_EV_DRIVER)) {
			o = LIT(o, ",\"launch_ts\":");
			o += tl_fmt_us(o, 32, l->ts);
		}
		memcpy(o, gb, gl);
		o += gl;
		*o++ = '}';
		json_put(os, plain, p, o);
	}
	p = o = json_room(os, plain, 2);
	*o++ = ']';
	json_put(os, plain, p, o);
	json_done(os, plain, tmp, 2);
}


/*
 * One-time costs: the first instance of an op signature (name, shapes,
 * dtypes, strides) whose host time inside the op before its first launch
 * is at least ONEOFF_NS and at least ONEOFF_X times the median of its
 * later instances (autotuning, library initialisation, lazy loading,
 * compilation).
 */
#define ONEOFF_NS 1000000
#define ONEOFF_X 10

/* Host time of row r inside its op before its first launch call, or -1. */
static int64_t
pre_launch(const struct tl_trace *t, const struct tl_rows *rows,
    const struct tl_row *r)
{
	const struct tl_event *g;
	int64_t d;

	if (r->ngpu == 0)
		return -1;
	g = &t->ev[tl_row_gpu(rows, r)[0]];
	if (g->parent < 0 || (t->ev[g->parent].kind != TL_EV_RUNTIME &&
	    t->ev[g->parent].kind != TL_EV_DRIVER))
		return -1;
	d = t->ev[g->parent].ts - t->ev[r->op].ts;
	return d >= 0 ? d : -1;
}

static unsigned char *
one_offs(const struct tl_trace *t, const struct tl_rows *rows)
{
	unsigned char *v = tl_calloc(rows->n + 1, 1);
	struct tl_map first;	/* signature -> its first row + 1 */
	int64_t *pre = tl_malloc((rows->n + 1) * sizeof(*pre));
	int32_t *next = tl_malloc((rows->n + 1) * sizeof(*next));
	int32_t *last = tl_malloc((rows->n + 1) * sizeof(*last));
	int64_t *tmp = tl_malloc((rows->n + 1) * sizeof(*tmp));
	size_t i;

	tl_map_init(&first);
	for (i = 0; i < rows->n; i++) {
		const struct tl_row *r = &rows->v[i];
		const struct tl_event *e = &t->ev[r->op];
		struct tl_args a;
		int64_t *f;

		next[i] = last[i] = -1;
		pre[i] = pre_launch(t, rows, r);
		if (pre[i] < 0 || r->kind == TL_ROW_PSEUDO ||
		    r->kind == TL_ROW_GRAPH)
			continue;
		tl_ev_args(t, e, &a);
		f = tl_map_get(&first, (uint64_t)e->name << 32 | a.dims,
		    (uint64_t)a.types << 32 | a.strides);
		if (f == NULL) {
			tl_map_put(&first, (uint64_t)e->name << 32 | a.dims,
			    (uint64_t)a.types << 32 | a.strides, (int64_t)i);
			last[i] = (int32_t)i;
		} else {
			next[last[*f]] = (int32_t)i;
			last[*f] = (int32_t)i;
		}
	}
	for (i = 0; i < rows->n; i++) {
		size_t n = 0;
		int32_t k;

		/* The first instances: their chain's last is set. */
		if (pre[i] < ONEOFF_NS || last[i] < 0 || next[i] < 0)
			continue;
		for (k = next[i]; k >= 0; k = next[k])
			tmp[n++] = pre[k];
		if (pre[i] >= (int64_t)ONEOFF_X * tl_kth_i64(tmp, n, n / 2))
			v[i] = 1;
	}
	tl_map_free(&first);
	free(pre);
	free(next);
	free(last);
	free(tmp);
	return v;
}


/*
 * Column col of the steady-state window: the row's steady flag (1: in
 * the window and no one-time cost; it is iteration x of c->it), the
 * window's step count and timeline; empty without iterations.
 */
static void
steady_col(struct tl_opstream *os, const struct rowctx *c,
    const struct tl_row *r, long x, int col)
{
	if (!c->has_steady) {
		tl_w_empty(os->w);
		return;
	}
	switch (col) {
	case TL_COL_STEADY:
		tl_w_int(os->w, x >= 0 && c->it.v[x].steady &&
		    !c->oneoff[r - c->rows->v]);
		break;
	case TL_COL_STEADY_STEPS:
		tl_w_int(os->w, (int64_t)(c->it.hi - c->it.lo));
		break;
	case TL_COL_STEADY_TOTAL_US:
		tl_w_us(os->w, c->stl.total);
		break;
	case TL_COL_STEADY_BUSY_US:
		tl_w_us(os->w, c->stl.busy);
		break;
	case TL_COL_STEADY_COMPUTE_US:
		tl_w_us(os->w, c->stl.compute);
		break;
	default:
		tl_w_us(os->w, c->stl.idle);
		break;
	}
}

/* A search of c->cul.gap for the gap that GPU event next ends. */
struct gapkey {
	const struct tl_idlegap *gap;
	int next;
};

static int
gap_below(const void *arg, size_t i)
{
	const struct gapkey *k = arg;

	return k->gap[i].next < k->next;
}

/*
 * The listed gap that GPU event i ends, or NULL (tl_culprits_gap): found
 * from *finger, where the thread's last search ended, as rows' kernels
 * mostly come in order.
 */
static const struct tl_idlegap *
gap_of(const struct rowctx *c, int i, size_t *finger)
{
	struct gapkey k;
	size_t at;

	k.gap = c->cul.gap;
	k.next = i;
	at = tl_gallop(c->cul.ngap, finger, gap_below, &k);
	return at < c->cul.ngap && c->cul.gap[at].next == i ? &c->cul.gap[at] :
	    NULL;
}

/*
 * The listed idle gaps that row r's GPU events end (trace/culprit.h), as
 * tl-format(5) gives them: one array per gap, [ts, offset, dur, step,
 * device, stream, pid, tid, pieces], each piece [kind, name, context,
 * dur] with the other thread's tid fifth.  Arrays, not objects: the
 * column is most of what the culprits add to the stream, which every
 * later stage reads.
 */
static void
idle_gaps_json(struct tl_opstream *os, const struct rowctx *c,
    const struct tl_row *r, size_t *finger)
{
	const struct tl_trace *t = c->t;
	const int *gpu = tl_row_gpu(c->rows, r);
	int plain = c->jplain && !os->w->csv && os->w->fp == NULL;
	const struct tl_idlegap *g;
	struct tl_jbuf tmp[3];
	int k, n = 0, launch;
	uint32_t i, np;
	int64_t step;
	char *p, *o;

	memset(tmp, 0, sizeof(tmp));
	if (plain)
		tl_w_sep(os->w);
	else
		tl_jb_reset(&os->jb);
	for (k = 0; k < r->ngpu; k++) {
		const struct tl_event *e;
		const char *pid, *lpid = "\"\"", *ltid = "\"\"";
		size_t pl, lpl = 2, ltl = 2;

		if ((g = gap_of(c, gpu[k], finger)) == NULL)
			continue;
		e = &t->ev[gpu[k]];
		pid = json_text(c, tl_ev_pid(t, e), 0, &tmp[0], &pl);
		if ((launch = tl_gap_launch(t, g)) >= 0) {
			const struct tl_event *l = &t->ev[launch];

			lpid = json_text(c, tl_ev_pid(t, l), 0, &tmp[1], &lpl);
			ltid = json_text(c, tl_ev_tid(t, l), 0, &tmp[2], &ltl);
		}
		/* seven numbers of up to 22 bytes, punctuation, the names */
		p = o = json_room(os, plain, 7 * 24 + pl + lpl + ltl);
		o = n++ ? LIT(o, ",[") : LIT(o, "[[");
		o += tl_fmt_us(o, 32, g->start);
		*o++ = ',';
		o += tl_fmt_us(o, 32, g->start - c->cul.first_ts);
		*o++ = ',';
		o += tl_fmt_us(o, 32, tl_gap_len(t, g));
		*o++ = ',';
		if ((step = tl_gap_step(t, &c->it, g)) == TL_NONE)
			o = LIT(o, "null");
		else
			o += tl_fmt_i64(o, step);
		*o++ = ',';
		memcpy(o, pid, pl);
		o += pl;
		*o++ = ',';
		if (tl_ev_stream(t, e) == TL_NONE)
			o = LIT(o, "null");
		else
			o += tl_fmt_i64(o, tl_ev_stream(t, e));
		*o++ = ',';
		memcpy(o, lpid, lpl);
		o += lpl;
		*o++ = ',';
		memcpy(o, ltid, ltl);
		o = LIT(o + ltl, ",[");
		json_put(os, plain, p, o);
		np = tl_gap_np(&c->cul, g);
		for (i = 0; i < np; i++) {
			const struct tl_cpiece *q = &c->cul.piece[g->p0 + i];
			const struct tl_jbuf *kind = &c->kinds[q->kind];
			size_t nl, cl, tl = 0;
			const char *name = cp_text(c, q->name, &tmp[0], &nl);
			const char *ctx = cp_text(c, q->context, &tmp[1], &cl);
			const char *tid = q->thread < 0 ? NULL :
			    json_text(c, t->threads[q->thread].tid, 0, &tmp[2],
			    &tl);

			p = o = json_room(os, plain, 2 * 24 + kind->n + nl +
			    cl + tl);
			o = i ? LIT(o, ",[") : LIT(o, "[");
			memcpy(o, kind->s, kind->n);
			o += kind->n;
			*o++ = ',';
			memcpy(o, name, nl);
			o += nl;
			*o++ = ',';
			memcpy(o, ctx, cl);
			o += cl;
			*o++ = ',';
			o += tl_fmt_us(o, 32, q->ns);
			if (tid != NULL) {
				*o++ = ',';
				memcpy(o, tid, tl);
				o += tl;
			}
			*o++ = ']';
			json_put(os, plain, p, o);
		}
		p = o = json_room(os, plain, 2);
		o = LIT(o, "]]");
		json_put(os, plain, p, o);
	}
	if (n > 0) {
		p = o = json_room(os, plain, 1);
		*o++ = ']';
		json_put(os, plain, p, o);
	}
	json_done(os, plain, tmp, 3);
}

/* os->jb's text as a field: most rows' is empty, then not a call. */
static inline void
w_jb(struct tl_opstream *os)
{
	if (os->jb.n == 0)
		tl_w_empty(os->w);
	else
		tl_w_mem(os->w, os->jb.s, os->jb.n);
}

/* Names joined (module, call_stack) as a field: unscanned if plain. */
static void
w_names(struct tl_opstream *os, const struct rowctx *c, const char *s,
    size_t n)
{
	if (c->names_plain)
		tl_w_raw(os->w, s, n);
	else
		tl_w_mem(os->w, s, n);
}

/* What the columns of one row read, found once per row (w_cols). */
struct rowvals {
	const struct tl_event *e;	/* the row's op */
	struct tl_args args;		/* the args a model reads */
	int parent, fwd;		/* events, or -1 */
	long it;			/* its iteration in c->it, or -1 */
	size_t *gap_at;			/* the thread's gap_of finger */
	const struct tl_event *ae;	/* the event of args */
};

/* Row v's key in group g (GRP_*): what its columns' values depend on. */
static size_t
grp_key(const struct rowvals *v, int g)
{
	if (g == GRP_THREAD)
		return v->e->thread;
	if (g == GRP_ITER)
		return (size_t)(v->it + 1);
	return v->ae->kind == TL_EV_CPU_OP ? v->ae->args : 0;
}

/*
 * A run of n columns already formatted, text[0..len): its separator and
 * bytes in one room and one copy, not field by field.
 */
static inline void
w_run(struct tl_writer *w, const char *text, size_t len, int n)
{
	char *o;

	if (w->fp != NULL || len == 0) {	/* not a row's memory */
		if (len == 0)
			tl_w_empty(w);
		else
			tl_w_raw(w, text, len);
		w->col += n - 1;
		return;
	}
	o = tl_w_room(w, len + 1);
	if (w->col > 0) {
		*o++ = w->csv ? ',' : '\t';
		w->len++;
	}
	memcpy(o, text, len);
	w->len += len;
	w->col += n;
}

/* 1 if group g's text of v's key is there (group_texts). */
static int
grp_has(const struct rowctx *c, const struct rowvals *v, int g)
{
	size_t key = grp_key(v, g);

	return key < c->ngat[g] && c->gat[g][key] != 0;
}

/*
 * The columns of row r (tl_tables' op stream, launchers or stack) by
 * steps p[0..n) (plan_rows): in one call, not one a column.
 */
static void
w_cols(struct tl_opstream *os, const struct rowctx *c, const struct tl_row *r,
    const struct rowvals *v, struct tl_callstack *cs, const struct rowstep *p,
    int n)
{
	const struct tl_trace *t = c->t;
	const struct tl_rows *rows = c->rows;
	const struct tl_timeline *tl = c->tl;
	const struct tl_event *e = v->e;
	const struct rowstep *end = p + n;

	for (; p < end; p++) {
		int col = p->col;
		size_t key, len;
		const char *s;
		uint64_t at;

		/* the trace's columns, formatted once */
		if (col == STEP_TRACE) {
			w_run(os->w, c->text.buf + p->off, p->len, p->n);
			continue;
		}
		/* a group's, formatted once a key; else column by column */
		if (col == STEP_GROUP) {
			key = grp_key(v, p->n);
			if (key < c->ngat[p->n] &&
			    (at = c->gat[p->n][key]) != 0) {
				w_run(os->w, c->gtext.buf + (at >> 32),
				    (uint32_t)at, grp[p->n].n);
				p += grp[p->n].n;
			}
			continue;
		}
		switch (col) {
		case TL_COL_TRACE:
			tl_w_str(os->w, t->name);
			break;
		case TL_COL_RANK:
			if (t->rank != NULL)
				tl_w_str(os->w, t->rank);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_UID:
			tl_w_int(os->w, e->uid);
			break;
		case TL_COL_NAME:
			if (r->name != NULL)
				tl_w_str(os->w, r->name);
			else
				w_id(os, c, e->name);
			break;
		case TL_COL_CATEGORY:
			if (r->category != NULL)
				w_text(os, c, r->category);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_DIRECTION:
			tl_w_raw(os->w, r->bwd ? "bwd" : "fwd", 3);
			break;
		case TL_COL_ROW_KIND:
			w_text(os, c, tl_rowkind_name(r->kind));
			break;
		case TL_COL_PID:
			w_id(os, c, tl_ev_pid(t, e));
			break;
		case TL_COL_TID:
			w_id(os, c, tl_ev_tid(t, e));
			break;
		case TL_COL_TS_US:
			tl_w_us(os->w, e->ts);
			break;
		case TL_COL_CPU_DUR_US:
			tl_w_us(os->w, e->dur);
			break;
		case TL_COL_KERNEL_COUNT:
			tl_w_int(os->w, r->ngpu);
			break;
		case TL_COL_KERNEL_TIME_US:
			tl_w_us(os->w, r->busy);
			break;
		case TL_COL_SUBTREE_KERNEL_TIME_US:
			tl_w_us(os->w, tl_subtree_busy(t, r->op));
			break;
		case TL_COL_KERNELS:
			kernels_json(os, c, r);
			break;
		case TL_COL_INPUT_DIMS:
			w_id(os, c, v->args.dims);
			break;
		case TL_COL_INPUT_TYPES:
			w_id(os, c, v->args.types);
			break;
		case TL_COL_INPUT_STRIDES:
			w_id(os, c, v->args.strides);
			break;
		case TL_COL_CONCRETE_INPUTS:
			w_id(os, c, v->args.concrete);
			break;
		case TL_COL_PARENT_UID:
			w_ev_uid(os, t, v->parent);
			break;
		case TL_COL_PARENT_NAME:
			if (v->parent >= 0)
				w_id(os, c, t->ev[v->parent].name);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_FWD_UID:
			w_ev_uid(os, t, v->fwd);
			break;
		case TL_COL_FWD_NAME:
			if (v->fwd >= 0)
				w_id(os, c, t->ev[v->fwd].name);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_SEQ:
			w_opt_int(os, tl_ev_seq(t, e));
			break;
		case TL_COL_PCT_GPU_TIME:
			if (rows->total_busy > 0)
				tl_w_double(os->w, (double)r->busy /
				    (double)rows->total_busy * 100.0);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_TRACE_TOTAL_US:
			tl_w_us(os->w, tl->total);
			break;
		case TL_COL_TRACE_BUSY_US:
			tl_w_us(os->w, tl->busy);
			break;
		case TL_COL_TRACE_COMPUTE_US:
			tl_w_us(os->w, tl->compute);
			break;
		case TL_COL_TRACE_EXPOSED_COMM_US:
			tl_w_us(os->w, tl->exposed_comm);
			break;
		case TL_COL_TRACE_EXPOSED_MEMCPY_US:
			tl_w_us(os->w, tl->exposed_memcpy);
			break;
		case TL_COL_TRACE_IDLE_US:
			tl_w_us(os->w, tl->idle);
			break;
		case TL_COL_TRACE_UNLINKED_US:
			tl_w_us(os->w, tl->unlinked_busy);
			break;
		case TL_COL_TRACE_UNLINKED_COUNT:
			tl_w_int(os->w, tl->unlinked_events);
			break;
		case TL_COL_TRACE_GPU:
			tl_w_str(os->w, t->gpu.name);
			break;
		case TL_COL_TRACE_GPU_ARCH:
			tl_w_str(os->w, t->gpu.arch);
			break;
		case TL_COL_TRACE_GPU_COMPUTE_UNITS:
			w_pos_int(os, t->gpu.compute_units);
			break;
		case TL_COL_TRACE_GPU_MEMORY_BYTES:
			w_pos_int(os, t->gpu.memory_bytes);
			break;
		case TL_COL_TRACE_GPU_KERNEL_ARCH:
			tl_w_str(os->w, t->gpu.kernel_arch);
			break;
		case TL_COL_CONTEXT_ARGS:
			tl_context_args(t, &c->steps, rows, r, &os->jb);
			w_jb(os);
			break;
		case TL_COL_ITERATION:
			w_opt_int(os, v->it >= 0 ? c->it.v[v->it].number :
			    TL_NONE);
			break;
		case TL_COL_PHASE:
			if (v->it >= 0)
				w_text(os, c,
				    tl_phase_names[c->it.v[v->it].si.phase]);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_COLLECTIVE:
			tl_coll_json(&c->colls, t, rows, (size_t)(r - rows->v),
			    &os->jb);
			w_jb(os);
			break;
		case TL_COL_STEADY:
		case TL_COL_STEADY_STEPS:
		case TL_COL_STEADY_TOTAL_US:
		case TL_COL_STEADY_BUSY_US:
		case TL_COL_STEADY_COMPUTE_US:
		case TL_COL_STEADY_IDLE_US:
			steady_col(os, c, r, v->it, col);
			break;
		case TL_COL_IDLE_GAPS:
			if (os->no_culprits)
				tl_w_empty(os->w);
			else
				idle_gaps_json(os, c, r, v->gap_at);
			break;
		case TL_COL_TRACE_IDLE_NOISE_US:
			if (os->no_culprits)
				tl_w_empty(os->w);
			else
				tl_w_us(os->w, c->cul.noise_ns);
			break;
		case TL_COL_TRACE_IDLE_NOISE_COUNT:
			if (os->no_culprits)
				tl_w_empty(os->w);
			else
				tl_w_int(os->w, c->cul.noise_count);
			break;
		case TL_COL_TRACE_PYTHON_FRAMES:
			if (t->thread_py != NULL || t->npy > 0)
				tl_w_int(os->w, (int64_t)t->npy);
			else
				tl_w_empty(os->w);
			break;
		case TL_COL_MODULE:
			s = tl_module_of(cs, r->op, &len);
			w_names(os, c, s, len);
			break;
		case TL_COL_CALL_STACK:
			if (!c->names_plain || os->w->fp != NULL) {
				tl_callstack_of(cs, r->op, os->depth, &os->jb);
				w_names(os, c, os->jb.s, os->jb.n);
				break;
			}
			/* plain: straight into the row, not copied twice */
			len = tl_callstack_len(cs, r->op, os->depth);
			tl_w_sep(os->w);
			if (len > 0) {
				tl_callstack_put(cs, tl_w_room(os->w, len));
				os->w->len += len;
			}
			tl_w_done(os->w);
			break;
		default:
			tl_die("internal error: no writer for op stream "
			    "column %s", tl_col_name(col));
		}
	}
}

/* 1 if column col's value is the trace's: the same on every row. */
static int
trace_col(int col)
{
	switch (col) {
	case TL_COL_TRACE:
	case TL_COL_RANK:
	case TL_COL_TRACE_TOTAL_US:
	case TL_COL_TRACE_BUSY_US:
	case TL_COL_TRACE_COMPUTE_US:
	case TL_COL_TRACE_EXPOSED_COMM_US:
	case TL_COL_TRACE_EXPOSED_MEMCPY_US:
	case TL_COL_TRACE_IDLE_US:
	case TL_COL_TRACE_UNLINKED_US:
	case TL_COL_TRACE_UNLINKED_COUNT:
	case TL_COL_TRACE_GPU:
	case TL_COL_TRACE_GPU_ARCH:
	case TL_COL_TRACE_GPU_COMPUTE_UNITS:
	case TL_COL_TRACE_GPU_MEMORY_BYTES:
	case TL_COL_TRACE_GPU_KERNEL_ARCH:
	case TL_COL_STEADY_STEPS:
	case TL_COL_STEADY_TOTAL_US:
	case TL_COL_STEADY_BUSY_US:
	case TL_COL_STEADY_COMPUTE_US:
	case TL_COL_STEADY_IDLE_US:
	case TL_COL_TRACE_IDLE_NOISE_US:
	case TL_COL_TRACE_IDLE_NOISE_COUNT:
	case TL_COL_TRACE_PYTHON_FRAMES:
		return 1;
	}
	return 0;
}

/*
 * The steps of a row: the columns of its table in tl_tables, in their
 * order, then the module columns (TL_TAB_STACK) with stack; each run of
 * the trace's columns formatted here once, not on every row (a third of
 * a row's fields).
 */
static void
plan_rows(struct tl_opstream *os, struct rowctx *c, int stack)
{
	const struct tl_tabdef *tab = &tl_tables[os->launchers ?
	    TL_TAB_LAUNCHERS : TL_TAB_OPS];
	const struct tl_tabdef *st = &tl_tables[TL_TAB_STACK];
	int k, n = tab->ncols + (stack ? st->ncols : 0);
	struct tl_opstream tmp = *os;
	struct rowvals none;
	struct rowstep one;
	int g;

	memset(&none, 0, sizeof(none));
	memset(&one, 0, sizeof(one));
	memset(&tmp.jb, 0, sizeof(tmp.jb));
	tl_w_init_mem(&c->text, os->w->csv);
	tmp.w = &c->text;
	c->plan = tl_calloc(2 * (size_t)n, sizeof(*c->plan));
	c->nplan = 0;
	memset(c->gat, 0, sizeof(c->gat));
	memset(c->ngat, 0, sizeof(c->ngat));
	c->gwant = 0;
	for (k = 0; k < n; k++) {
		int col = k < tab->ncols ? tab->cols[k] :
		    st->cols[k - tab->ncols];
		struct rowstep *p = &c->plan[c->nplan];

		for (g = 0; g < NGRP; g++)
			if (k + grp[g].n <= tab->ncols && memcmp(tab->cols + k,
			    grp[g].cols, grp[g].n * sizeof(short)) == 0) {
				p->col = STEP_GROUP;
				p->n = g;
				p++;
				c->nplan++;
				c->gwant |= 1 << g;
			}
		one.col = col;
		if (!trace_col(col)) {
			p->col = col;
			c->nplan++;
			continue;
		}
		if (c->nplan == 0 || p[-1].col != STEP_TRACE) {
			p->col = STEP_TRACE;
			p->n = 0;
			p->off = c->text.len;
			c->text.col = 0;
			c->nplan++;
		} else
			p--;
		w_cols(&tmp, c, NULL, &none, NULL, &one, 1);
		p->n++;
		p->len = c->text.len - p->off;
	}
	tl_jb_free(&tmp.jb);
}

/* The event whose args row r writes: a backward row's forward op's. */
static const struct tl_event *
args_event(const struct tl_trace *t, const struct tl_row *r)
{
	return &t->ev[r->kind == TL_ROW_BWD && r->fwd >= 0 ? r->fwd : r->op];
}

/* Group g's columns of key (grp_key of v) into c->gtext, once. */
static void
group_text(struct rowctx *c, struct tl_opstream *tmp, int g, size_t key,
    const struct rowvals *v)
{
	struct rowstep st[4];
	size_t off = c->gtext.len;
	int k;

	if (key >= c->ngat[g] || c->gat[g][key] != 0)
		return;
	memset(st, 0, sizeof(st));
	for (k = 0; k < grp[g].n; k++)
		st[k].col = grp[g].cols[k];
	c->gtext.col = 0;
	w_cols(tmp, c, NULL, v, NULL, st, grp[g].n);
	if (off <= UINT32_MAX && c->gtext.len - off <= UINT32_MAX &&
	    c->gtext.len > off)
		c->gat[g][key] = (uint64_t)off << 32 |
		    (uint64_t)(c->gtext.len - off);
}

/*
 * The texts of the plan's groups (c->gat): every thread's pid and tid,
 * every iteration's number and phase (and none's), and the args of each
 * args record a row writes.
 */
static void
group_texts(struct rowctx *c, const struct tl_opstream *os)
{
	const struct tl_trace *t = c->t;
	struct tl_opstream tmp = *os;
	struct tl_event fake;
	struct rowvals v;
	size_t i;

	tl_w_init_mem(&c->gtext, os->w->csv);
	tmp.w = &c->gtext;
	memset(&tmp.jb, 0, sizeof(tmp.jb));
	memset(&v, 0, sizeof(v));
	memset(&fake, 0, sizeof(fake));
	if (c->gwant & 1 << GRP_THREAD) {
		c->ngat[GRP_THREAD] = t->nthreads;
		c->gat[GRP_THREAD] = tl_calloc(t->nthreads + 1,
		    sizeof(**c->gat));
		v.e = &fake;
		for (i = 0; i < t->nthreads; i++) {
			fake.thread = (uint32_t)i;
			group_text(c, &tmp, GRP_THREAD, i, &v);
		}
	}
	if (c->gwant & 1 << GRP_ITER) {
		c->ngat[GRP_ITER] = c->it.n + 1;
		c->gat[GRP_ITER] = tl_calloc(c->it.n + 2, sizeof(**c->gat));
		for (i = 0; i <= c->it.n; i++) {
			v.it = (long)i - 1;
			group_text(c, &tmp, GRP_ITER, i, &v);
		}
	}
	if (c->gwant & 1 << GRP_ARGS && t->argtab != NULL) {
		c->ngat[GRP_ARGS] = tl_strtab_count(t->argtab);
		c->gat[GRP_ARGS] = tl_calloc(c->ngat[GRP_ARGS] + 1,
		    sizeof(**c->gat));
		for (i = 0; i < c->rows->n; i++) {
			v.e = v.ae = args_event(t, &c->rows->v[i]);
			if (grp_has(c, &v, GRP_ARGS))
				continue;
			tl_ev_args(t, v.ae, &v.args);
			group_text(c, &tmp, GRP_ARGS, grp_key(&v, GRP_ARGS),
			    &v);
		}
	}
	tl_jb_free(&tmp.jb);
}

/* Row r of the op stream, by the steps of plan_rows. */
static void
w_row(struct tl_opstream *os, const struct rowctx *c, const struct tl_row *r,
    struct tl_callstack *cs, size_t *gap_at)
{
	const struct tl_trace *t = c->t;
	struct rowvals v;
	int fwd;

	v.e = &t->ev[r->op];
	/* A pseudo-op's parent is the op it was split from. */
	v.parent = r->kind == TL_ROW_PSEUDO ? r->op :
	    tl_tree_cpu_ancestor(t, r->op);
	fwd = r->fwd >= 0 ? r->fwd : tl_forward_of(t, r->op);
	v.fwd = fwd != r->op ? fwd : -1;
	/* The args a model reads: a backward row's are its forward op's. */
	v.ae = args_event(t, r);
	if (!grp_has(c, &v, GRP_ARGS))	/* else not read */
		tl_ev_args(t, v.ae, &v.args);
	v.it = tl_iters_of(&c->it, t, r->op);
	v.gap_at = gap_at;
	w_cols(os, c, r, &v, cs, c->plan, c->nplan);
	tl_w_eol(os->w);
}

/*
 * Rows on several threads: the calling thread and nth - 1 others format
 * chunks of CHUNK rows into memory, each taking the next chunk in turn,
 * and the calling thread writes the chunks out in order, so the output
 * is the one thread's.  At most one chunk per thread and AHEAD more are
 * formatted or being formatted and not yet written (memory: at -j 8,
 * 2.6 MB less at 0.5 GB than two chunks a thread, the same at -j 2).
 * The calling thread formats a chunk whenever the next one to write is
 * not ready, so it seldom waits, and the others only when they run that
 * far ahead.
 */
#define CHUNK 128
#define AHEAD 2

struct chunk {
	size_t k;		/* rows k * CHUNK on */
	char *buf;		/* a written chunk's, reused, or NULL */
	size_t len, cap;
};

struct rowpar {
	struct tl_opstream *os;
	const struct rowctx *c;
};

/* A thread's own writer state, call-stack reader and gap finger. */
struct rowstate {
	struct tl_opstream os;
	struct tl_callstack *cs;
	size_t gap_at;
};

/* Format a chunk with the state of the thread that runs it. */
static void
format_chunk(void *ctx, void *st, void *job)
{
	struct rowpar *rp = ctx;
	struct rowstate *rs = st;
	struct chunk *ch = job;
	struct tl_writer w, *keep = rs->os.w;
	size_t i;

	tl_w_init_mem(&w, keep->csv);
	w.buf = ch->buf;
	w.cap = ch->cap;
	rs->os.w = &w;
	for (i = ch->k * CHUNK; i < (ch->k + 1) * CHUNK &&
	    i < rp->c->rows->n; i++)
		w_row(&rs->os, rp->c, &rp->c->rows->v[i], rs->cs,
		    &rs->gap_at);
	rs->os.w = keep;
	ch->buf = w.buf;
	ch->len = w.len;
	ch->cap = w.cap;
}

/*
 * Write the oldest chunk held, once formatted, and hand its buffer to
 * next (NULL: free it): the chunks in flight reuse their buffers rather
 * than each fault in pages of its own.
 */
static void
write_chunk(struct tl_pool *pool, struct rowstate *mine, FILE *fp,
    struct chunk *next)
{
	struct chunk *ch = tl_pool_take(pool, mine);

	tl_w_out(fp, ch->buf, ch->len);
	if (next != NULL) {
		next->buf = ch->buf;
		next->cap = ch->cap;
	} else
		free(ch->buf);
	ch->buf = NULL;
}

/*
 * The rows on nth threads (nth > 1), formatted in chunks of CHUNK rows
 * and written in order from here, at most nth + AHEAD chunks ahead.
 */
static void
rows_par(struct tl_opstream *os, const struct rowctx *c,
    struct tl_callstack *cs, int nth)
{
	struct rowpar rp;
	size_t nch = (c->rows->n + CHUNK - 1) / CHUNK, k;
	struct chunk *ch = tl_calloc(nch + 1, sizeof(*ch));
	struct rowstate *st = tl_calloc((size_t)nth, sizeof(*st));
	void **wst = tl_calloc((size_t)nth, sizeof(*wst));
	struct tl_pool *pool;
	int i;

	rp.os = os;
	rp.c = c;
	/* st[0] is this thread's; the others copy os as it is. */
	for (i = 0; i < nth; i++) {
		st[i].os = *os;
		if (i > 0) {
			memset(&st[i].os.jb, 0, sizeof(st[i].os.jb));
			st[i].cs = cs != NULL ? tl_callstack_dup(cs) : NULL;
			wst[i - 1] = &st[i];
		} else
			st[i].cs = cs;
	}
	pool = tl_pool_new(format_chunk, &rp, nth - 1, wst,
	    (size_t)nth + AHEAD, 1);
	for (k = 0; k < nch; k++) {
		if (tl_pool_held(pool) == (size_t)nth + AHEAD)
			write_chunk(pool, &st[0], os->w->fp, &ch[k]);
		ch[k].k = k;
		tl_pool_submit(pool, &ch[k]);
	}
	while (tl_pool_held(pool) > 0)
		write_chunk(pool, &st[0], os->w->fp, NULL);
	tl_pool_free(pool);
	for (i = 1; i < nth; i++) {
		tl_callstack_free(st[i].cs);
		tl_jb_free(&st[i].os.jb);
	}
	os->jb = st[0].os.jb;	/* grown, maybe */
	free(wst);
	free(st);
	free(ch);
}

/*
 * The rows on this thread: into memory, out by OUT_BYTES or so at a
 * time past stdio (tl_w_out), not copied into its buffer row by row.
 */
#define OUT_BYTES (128 * 1024)

static void
rows_one(struct tl_opstream *os, const struct rowctx *c,
    struct tl_callstack *cs)
{
	struct tl_writer w, *keep = os->w;
	size_t i, gap_at = 0;

	if (keep->fp == NULL) {
		for (i = 0; i < c->rows->n; i++)
			w_row(os, c, &c->rows->v[i], cs, &gap_at);
		return;
	}
	tl_w_init_mem(&w, keep->csv);
	os->w = &w;
	for (i = 0; i < c->rows->n; i++) {
		w_row(os, c, &c->rows->v[i], cs, &gap_at);
		if (w.len >= OUT_BYTES) {
			tl_w_out(keep->fp, w.buf, w.len);
			w.len = 0;
		}
	}
	tl_w_out(keep->fp, w.buf, w.len);
	os->w = keep;
	free(w.buf);
}

void
tl_os_rows(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win, const struct tl_rows *rows,
    const struct tl_timeline *tl, struct tl_callstack *cs, struct tl_iters *it,
    const struct tl_timeline *stl)
{
	struct rowctx c;
	struct tl_window sw;
	size_t i;

	c.t = t;
	c.rows = rows;
	c.tl = tl;
	tl_steps_find(t, &c.steps);
	if (it != NULL)		/* the caller's, not found again */
		c.it = *it;
	else
		tl_iters_find(t, &c.it);
	tl_colls_find(t, rows, &c.colls);
	if (os->no_culprits)
		memset(&c.cul, 0, sizeof(c.cul));
	else
		tl_culprits_find(t, win, &c.it, &c.cul);
	tl_iters_steady(&c.it, TL_STEADY_STEPS);
	c.oneoff = NULL;
	if ((c.has_steady = tl_iters_window(&c.it, &sw))) {
		if (stl != NULL)
			c.stl = *stl;
		else
			tl_timeline(t, &sw, TL_ALL_DEVICES, 0, &c.stl);
		c.oneoff = one_offs(t, rows);
	}
	plan_rows(os, &c, cs != NULL);
	json_names(&c);
	plain_ids(&c, os->w);
	static_texts(&c, os->w);
	group_texts(&c, os);
	if (os->threads > 1 && rows->n > 2 * CHUNK)
		rows_par(os, &c, cs, os->threads);
	else
		rows_one(os, &c, cs);
	free(c.plan);
	free(c.text.buf);
	free(c.gtext.buf);
	for (i = 0; i < NGRP; i++)
		free(c.gat[i]);
	free(c.jid);
	free(c.jpy);
	tl_jb_free(&c.jtext);
	tl_jb_free(&c.gbtext);
	for (i = 0; i < TL_NCKIND; i++)
		tl_jb_free(&c.kinds[i]);
	free(c.gbt);
	free(c.plain);
	tl_colls_free(&c.colls);
	tl_culprits_free(&c.cul);
	free(c.oneoff);
	if (it != NULL) {	/* its v[] took the steady flags */
		it->lo = c.it.lo;
		it->hi = c.it.hi;
	} else
		tl_iters_free(&c.it);
	tl_steps_free(&c.steps);
}

void
tl_os_timeline(struct tl_opstream *os, const struct tl_trace *t,
    const char *device, const struct tl_timeline *tl)
{
	int64_t v[8];
	int k;

	tl_timeline_values(tl, v);
	for (k = 0; k < 8; k++) {
		w_trace(os, t);
		tl_w_str(os->w, device);
		tl_w_str(os->w, tl_timeline_rows[k]);
		tl_w_us(os->w, v[k]);
		if (tl->total > 0)
			tl_w_double(os->w, (double)v[k] / (double)tl->total * 100.0);
		else
			tl_w_empty(os->w);
		tl_w_eol(os->w);
	}
}

void
tl_os_kernels(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win)
{
	size_t i;

	for (i = 0; i < t->nev; i++) {
		const struct tl_event *g = &t->ev[i];
		int r = g->parent, p;
		static const char *const kinds[] = {
			"kernel", "memcpy", "memset"
		};

		if (!TL_IS_GPU(g->kind) || !tl_in_window(t, win, (int)i))
			continue;
		p = r >= 0 ? tl_tree_cpu_ancestor(t, (int)i) : -1;
		w_trace(os, t);
		tl_w_int(os->w, g->uid);
		w_interned(os, t, g->name);
		tl_w_str(os->w, kinds[g->kind - TL_EV_KERNEL]);
		tl_w_str(os->w, tl_gpuclass_name(g->flags & TL_F_COMM ? TL_GC_COMM :
		    g->flags & TL_F_MEMCPY_CLASS ? TL_GC_MEMCPY : TL_GC_COMPUTE));
		w_interned(os, t, tl_ev_pid(t, g));
		w_opt_int(os, tl_ev_stream(t, g));
		tl_w_us(os->w, g->ts);
		tl_w_us(os->w, g->dur);
		w_opt_int(os, g->link);
		tl_w_int(os->w, r >= 0);
		tl_w_int(os->w, (g->flags & TL_F_GRAPH) != 0);
		w_event(os, t, r);
		if (p >= 0) {
			const struct tl_event *o = &t->ev[p];

			tl_w_int(os->w, o->uid);
			w_interned(os, t, o->name);
			tl_w_str(os->w, tl_categorize(tl_ev_name(t, o),
			    tl_ev_name(t, g)));
			w_args(os, t, o);
		} else {
			int k;

			for (k = 0; k < 7; k++)
				tl_w_empty(os->w);
		}
		w_interned(os, t, tl_ev_grid(t, g));
		w_interned(os, t, tl_ev_block(t, g));
		tl_w_eol(os->w);
	}
}

static void
meta_row(struct tl_opstream *os, const struct tl_trace *t, const char *key,
    const char *value)
{
	w_trace(os, t);
	tl_w_str(os->w, key);
	tl_w_str(os->w, value);
	tl_w_eol(os->w);
}

/* How the linked GPU events were linked: "flows,correlation", "none". */
static void
linking(const struct tl_link_stats *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", s->flow > 0 ? "flows" : "",
	    s->flow > 0 && s->corr > 0 ? "," : "",
	    s->corr > 0 ? "correlation" : "",
	    (s->flow > 0 || s->corr > 0) && s->graph > 0 ? "," : "",
	    s->graph > 0 ? "graph" : "");
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

void
tl_os_meta(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_timeline *tl)
{
	struct tl_link_stats s;
	char buf[128];
	size_t i, n;
	unsigned k;

	for (i = 0; i < t->nmeta; i++)
		meta_row(os, t, t->meta[i].key, t->meta[i].value);
	tl_tree_stats(t, &s);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t->nevents);
	meta_row(os, t, "tl.events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.gpu);
	meta_row(os, t, "tl.gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.linked);
	meta_row(os, t, "tl.linked_gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.gpu - s.linked);
	meta_row(os, t, "tl.unlinked_gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.graph);
	meta_row(os, t, "tl.graph_gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.flow);
	meta_row(os, t, "tl.flow_linked_gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.corr);
	meta_row(os, t, "tl.correlation_linked_gpu_events", buf);
	linking(&s, buf, sizeof(buf));
	meta_row(os, t, "tl.linking", buf);
	meta_row(os, t, "tl.link_key", t->link_external ? "External id" :
	    "correlation");
	for (k = 0, n = 0, buf[0] = '\0'; k < TL_NFLOWCAT; k++)
		if (t->flow_cats & (1u << k))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
			    n > 0 ? "," : "", tl_flowcat_names[k]);
	meta_row(os, t, "tl.launch_flows", n > 0 ? buf : "none");
	tl_jb_reset(&os->jb);
	tl_jb_us(&os->jb, tl->unlinked_busy);
	meta_row(os, t, "tl.unlinked_busy_us", os->jb.s);
	tl_jb_reset(&os->jb);
	tl_jb_us(&os->jb, tl->unlinked_dur);
	meta_row(os, t, "tl.unlinked_kernel_time_us", os->jb.s);
	meta_row(os, t, "tl.gpu_arch", t->gpu.arch);
	snprintf(buf, sizeof(buf), "%lld", t->gpu.compute_units);
	meta_row(os, t, "tl.gpu_compute_units", t->gpu.compute_units > 0 ?
	    buf : "");
	snprintf(buf, sizeof(buf), "%lld", t->gpu.memory_bytes);
	meta_row(os, t, "tl.gpu_memory_bytes", t->gpu.memory_bytes > 0 ?
	    buf : "");
	meta_row(os, t, "tl.gpu_kernel_arch", t->gpu.kernel_arch);
	{
		char gpu[256], other[512];

		tl_trace_devices(t, gpu, sizeof(gpu), other, sizeof(other));
		meta_row(os, t, "tl.device_events", gpu);
		meta_row(os, t, "tl.other_device_events", other);
	}
}

void
tl_os_header(struct tl_opstream *os, int table, int stack)
{
	tl_table_names(os->w, table);
	if (stack && (table == TL_TAB_OPS || table == TL_TAB_LAUNCHERS))
		tl_table_names(os->w, TL_TAB_STACK);
	tl_w_eol(os->w);
}

size_t
tl_os_oprows(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win, const struct tl_timeline *tl, int stack,
    struct tl_iters *it, const struct tl_timeline *stl)
{
	struct tl_rows rows;
	struct tl_callstack *cs = NULL;
	size_t n;

	if (os->launchers)
		tl_launchers(t, win, &rows);
	else
		tl_rollup(t, win, &rows);
	if (stack)
		cs = tl_callstack_new(t);
	tl_os_rows(os, t, win, &rows, tl, cs, it, stl);
	n = rows.n;
	tl_callstack_free(cs);
	tl_rows_free(&rows);
	return n;
}

void
tl_os_timelines(struct tl_opstream *os, const struct tl_trace *t,
    const struct tl_window *win, const struct tl_timeline *tl,
    int per_device, int unlinked)
{
	struct tl_timeline dtl;
	uint32_t *dev;
	size_t n, i;

	if (!per_device) {
		tl_os_timeline(os, t, "all", tl);
		return;
	}
	n = tl_timeline_devices(t, &dev);
	for (i = 0; i < n; i++) {
		tl_timeline(t, win, dev[i], unlinked, &dtl);
		tl_os_timeline(os, t, tl_str(t->str, dev[i]), &dtl);
	}
	free(dev);
}

void
tl_os_iterations(struct tl_opstream *os, const struct tl_trace *t,
    struct tl_iters *it, const struct tl_window *win)
{
	struct tl_rows rows;
	size_t i;

	tl_rollup(t, win, &rows);
	tl_iters_stats(it, t, &rows);
	tl_rows_free(&rows);
	for (i = 0; i < it->n; i++) {
		const struct tl_iter *p = &it->v[i];
		const struct tl_event *e = &t->ev[p->ev];
		const struct tl_iter *q = i > 0 ? &it->v[i - 1] : NULL;

		if (!tl_in_window(t, win, p->ev))
			continue;
		w_trace(os, t);
		tl_w_int(os->w, p->number);
		w_interned(os, t, e->name);
		tl_w_str(os->w, tl_iter_source(p));
		tl_w_str(os->w, tl_phase_names[p->si.phase]);
		w_opt_count(os, p->si.ctx_reqs);
		w_opt_count(os, p->si.gen_reqs);
		w_opt_count(os, p->si.tokens);
		tl_w_str(os->w, p->si.tokens < 0 ? "" : p->shape_tokens ?
		    "shape" : "annotation");
		w_host(os, t, e);
		tl_w_int(os->w, p->nkernels);
		tl_w_us(os->w, p->kernel_ns);
		if (p->gpu_start != TL_NONE) {
			tl_w_us(os->w, p->gpu_start);
			tl_w_us(os->w, p->gpu_end - p->gpu_start);
		} else {
			tl_w_empty(os->w);
			tl_w_empty(os->w);
		}
		if (q != NULL && q->gpu_end != TL_NONE &&
		    p->gpu_start != TL_NONE)
			tl_w_us(os->w, p->gpu_start > q->gpu_end ?
			    p->gpu_start - q->gpu_end : 0);
		else
			tl_w_empty(os->w);
		tl_w_int(os->w, p->steady);
		tl_w_eol(os->w);
	}
}
