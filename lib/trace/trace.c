/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* memmem */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/json.h"
#include "common/util.h"
#include "trace/devprops.h"
#include "trace/input.h"
#include "trace/jsonscan.h"
#include "trace/trace.h"

/* The record's size is what bounds memory (trace.h); keep it there. */
_Static_assert(sizeof(struct tl_event) <= 64, "struct tl_event grew");
_Static_assert(sizeof(struct tl_args) == 16, "struct tl_args has padding");

/* An event read before the linking key was known, and its External id. */
struct pending {
	int64_t extid;
	size_t i;
};

/* A parsing thread's string ids to the trace's (0 = not yet known). */
struct idmap {
	uint32_t *v;		/* local id -> global id + 1 */
	size_t cap;
};

/* What the reading threads share: the trace, filled in array order. */
struct reader {
	struct tl_trace *t;
	const struct tl_trace_opts *o;
	int64_t gpu_ns;		/* sum of the GPU events' durations */
	int failed;
	int link_known;		/* t->link_external is decided */
	struct pending *pend;	/* until then: the events that have a link */
	size_t npend, cappend;
	struct tl_map threads;	/* (0, pid << 32 | tid) -> index in t->threads */
	uint64_t lastthr;	/* the last thread looked up: pid << 32 | tid */
	uint32_t lastix;	/* and its index, if any thread was */
	struct idmap *str, *args;	/* by parser */
	int nparsers;
};

/*
 * One reading thread's own state.  It interns the strings it reads in
 * tables of its own (so that the hashing is done on every thread), and
 * merge_event maps its ids to the trace's, interning each string in the
 * trace's table when it first meets it, in array order: the ids are
 * those one thread gives.
 */
struct parser {
	const struct tl_trace_opts *o;
	int id;			/* index in reader.str and reader.args */
	struct tl_json j;
	char *buf;		/* scratch for compact text */
	size_t cap;
	struct tl_strtab *str;	/* strings */
	struct tl_strtab *args;	/* argument tuples of local string ids */
};

/*
 * What parse_event found in one event, for merge_event: everything but
 * what needs the trace's tables (string ids, threads, flows, the linking
 * key), which merge_event fills in array order, so that the records are
 * those one thread makes.  Strings are the parser's ids, with the
 * string (kept by the parser's table until the reading ends).
 */
enum { R_X, R_FLOW_S, R_FLOW_F, R_ERROR };
enum { S_NAME, S_PID, S_TID, S_GRID, S_BLOCK, S_DIMS, S_TYPES, S_STRIDES,
	S_CONCRETE, NSTR };

struct rec {
	int64_t ts, dur, corr, extid, seq, stream, id;
	const char *s[NSTR];	/* R_ERROR: the message follows the record */
	uint32_t sid[NSTR], slen[NSTR];
	uint32_t args;		/* the parser's tuple id, 0 for none */
	uint16_t parser;
	uint8_t type, kind;
	uint8_t flowcat;	/* R_FLOW_*: its TL_FC_* bit */
};

static struct rec *
rec_at(struct tl_scan_out *out, size_t at)
{
	return (struct rec *)(void *)(out->p + at);
}

/* String k of the record: s[0..n), interned in the parser's table. */
static void
put_str(struct parser *p, struct rec *r, int k, const char *s, size_t n)
{
	uint32_t id = tl_intern(p->str, s, n);

	r->sid[k] = id;
	r->s[k] = tl_str(p->str, id);
	r->slen[k] = (uint32_t)n;
}

const char *const tl_flowcat_names[TL_NFLOWCAT] = {
	"ac2g", "async_cpu_to_gpu", "async_gpu"
};

/* The TL_FC_* bit of a launch-flow category, 0 for any other. */
static unsigned
flow_cat(const char *c, size_t n)
{
	unsigned k;

	for (k = 0; k < TL_NFLOWCAT; k++)
		if (strlen(tl_flowcat_names[k]) == n &&
		    memcmp(tl_flowcat_names[k], c, n) == 0)
			return 1u << k;
	return 0;
}

/* Map a `cat` value to a kind; -1 = not kept. */
static int
kind_of(const char *c, size_t n, int keep_python)
{
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(c, lit, n) == 0)
	if (IS("cpu_op") || IS("Operator") || IS("operator"))
		return TL_EV_CPU_OP;
	if (IS("cuda_runtime") || IS("Runtime") || IS("runtime"))
		return TL_EV_RUNTIME;
	if (IS("cuda_driver"))
		return TL_EV_DRIVER;
	if (IS("kernel") || IS("Kernel"))
		return TL_EV_KERNEL;
	if (IS("gpu_memcpy") || IS("Memcpy"))
		return TL_EV_MEMCPY;
	if (IS("gpu_memset") || IS("Memset"))
		return TL_EV_MEMSET;
	if (IS("user_annotation"))
		return TL_EV_ANNOTATION;
	if (IS("python_function") || IS("python_func"))
		return keep_python ? TL_EV_PYTHON : -1;
	return -1;
#undef IS
}

/*
 * Find the value of the top-level "cat" key without tokenising: Kineto
 * writes it near the start of every event.  1 if found.
 */
static int
prescan_cat(const char *ev, size_t len, const char **v, size_t *vlen)
{
	const char *p = ev, *end = ev + len, *q;

	while ((q = memmem(p, (size_t)(end - p), "\"cat\"", 5)) != NULL) {
		p = q + 5;
		if (q > ev && q[-1] == '\\')
			continue;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r'))
			p++;
		if (p >= end || *p != ':')
			continue;
		p++;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r'))
			p++;
		if (p >= end || *p != '"')
			return 0;
		q = memchr(p + 1, '"', (size_t)(end - p - 1));
		if (q == NULL)
			return 0;
		*v = p + 1;
		*vlen = (size_t)(q - p - 1);
		return 1;
	}
	return 0;
}

static int
bad(struct reader *r, uint64_t index, uint64_t offset, const char *what)
{
	tl_warn("%s:%llu: event %llu: %s", r->t->path,
	    (unsigned long long)offset, (unsigned long long)index, what);
	r->failed = 1;
	return -1;
}

/* A record that says what is wrong with the event (parse_event). */
static int
parse_error(struct tl_scan_out *out, size_t at, const char *what)
{
	size_t n = strlen(what);
	char *d = tl_scan_reserve(out, n + 1);
	struct rec *r;

	memcpy(d, what, n + 1);
	out->len += n + 1;
	r = rec_at(out, at);
	r->type = R_ERROR;
	return 1;
}

/*
 * String k: the unescaped string or the number text of token tk, as
 * intern_scalar interned it ("" for other tokens or none).
 */
static void
put_scalar(struct parser *p, struct rec *r, int k, int tk)
{
	size_t n;
	const char *s;
	enum tl_jtype ty;

	if (tk < 0) {
		put_str(p, r, k, "", 0);
		return;
	}
	s = tl_json_text(&p->j, tk, &n);
	ty = tl_json_type(&p->j, tk);
	if (ty == TL_J_STRING && memchr(s, '\\', n)) {
		tl_grow(&p->buf, &p->cap, n + 1, 1);
		n = tl_json_unescape(p->buf, s, n);
		s = p->buf;
	} else if (ty != TL_J_STRING && ty != TL_J_PRIM)
		n = 0;
	put_str(p, r, k, s, n);
}

/* String k: token tk as compact JSON; "" for none or null. */
static void
put_compact(struct parser *p, struct rec *r, int k, int tk)
{
	size_t n = 0;

	if (tk >= 0) {
		n = tl_json_compact(&p->j, tk, &p->buf, &p->cap);
		if (n == 4 && memcmp(p->buf, "null", 4) == 0)
			n = 0;
	}
	put_str(p, r, k, n > 0 ? p->buf : "", n);
}

/* Integer value of token tk, or TL_NONE if absent or not an integer. */
static int64_t
int_arg(struct parser *p, int tk)
{
	size_t n;
	const char *s;
	int64_t v;

	if (tk < 0)
		return TL_NONE;
	s = tl_json_text(&p->j, tk, &n);
	if (tl_parse_i64(s, n, &v) < 0)
		return TL_NONE;
	return v;
}

/* 0, or -1 with the message in msg. */
static int
time_field(struct parser *p, int tk, const char *key, int64_t *ns,
    char *msg, size_t msgsz)
{
	size_t n;
	const char *s;

	if (tk < 0) {
		snprintf(msg, msgsz, "missing \"%s\"", key);
		return -1;
	}
	s = tl_json_text(&p->j, tk, &n);
	if (tl_json_type(&p->j, tk) != TL_J_PRIM ||
	    tl_parse_us_ns(s, n, ns) < 0) {
		snprintf(msg, msgsz, "\"%s\" is not a number", key);
		return -1;
	}
	return 0;
}

/* The index in t->threads of (pid, tid) (interned ids). */
static uint32_t
thread_of(struct reader *r, uint32_t pid, uint32_t tid)
{
	struct tl_trace *t = r->t;
	uint64_t thr = (uint64_t)pid << 32 | tid;
	int64_t *k;

	/* Events come in runs on one thread: try the last one first. */
	if (thr == r->lastthr && t->nthreads > 0)
		return r->lastix;
	if ((k = tl_map_get(&r->threads, 0, thr)) == NULL) {
		tl_grow(&t->threads, &t->capthreads, t->nthreads + 1,
		    sizeof(*t->threads));
		t->threads[t->nthreads].pid = pid;
		t->threads[t->nthreads].tid = tid;
		tl_map_put(&r->threads, 0, thr, (int64_t)t->nthreads++);
		k = tl_map_get(&r->threads, 0, thr);
	}
	r->lastthr = thr;
	r->lastix = (uint32_t)*k;
	return r->lastix;
}

/* The members an X event is read for, found in one pass each. */
enum { K_TS, K_DUR, K_NAME, K_PID, K_TID, K_ARGS, NTOP };
static const char *const top_keys[NTOP] = {
	"ts", "dur", "name", "pid", "tid", "args"
};
enum { A_CORR, A_EXTID, A_SEQ, A_STREAM, A_GRID, A_BLOCK, A_DIMS, A_TYPES,
	A_STRIDES, A_CONCRETE, NARG };
static const char *const arg_keys[NARG] = {
	"correlation", "External id", "Sequence number", "stream", "grid",
	"block", "Input Dims", "Input type", "Input Strides", "Concrete Inputs"
};

static void *
parser_new(void *ctx)
{
	struct reader *r = ctx;
	struct parser *p = tl_calloc(1, sizeof(*p));

	p->o = r->o;
	p->id = r->nparsers++;
	r->str = tl_realloc(r->str, (size_t)r->nparsers * sizeof(*r->str));
	r->args = tl_realloc(r->args, (size_t)r->nparsers * sizeof(*r->args));
	memset(&r->str[p->id], 0, sizeof(r->str[p->id]));
	memset(&r->args[p->id], 0, sizeof(r->args[p->id]));
	tl_json_init(&p->j);
	p->str = tl_strtab_new();
	p->args = tl_strtab_new();
	return p;
}

static void
parser_free(void *w)
{
	struct parser *p = w;

	tl_json_free(&p->j);
	tl_strtab_free(p->str);
	tl_strtab_free(p->args);
	free(p->buf);
	free(p);
}

/*
 * Read one event on any thread: tokenise what is kept and check what can
 * be checked alone.  Writes a struct rec to out, or nothing for an event
 * that is skipped.
 */
static int
parse_event(void *w, struct tl_scan_out *out, const char *ev, size_t len,
    uint64_t offset)
{
	struct parser *p = w;
	struct rec *rc;
	const char *cat, *err, *s;
	char msg[64];
	size_t catlen, n, at;
	int kind = -1, tk, ph, f[NTOP], a[NARG];
	unsigned fc = 0;

	(void)offset;
	if (prescan_cat(ev, len, &cat, &catlen)) {
		kind = kind_of(cat, catlen, p->o->keep_python);
		/* Launch flows go on; everything else not kept stops here. */
		if (kind < 0 && (fc = flow_cat(cat, catlen)) == 0)
			return 0;
	}
	at = out->len;
	rc = tl_scan_reserve(out, sizeof(*rc));
	memset(rc, 0, sizeof(*rc));
	rc->parser = (uint16_t)p->id;
	out->len += sizeof(*rc);
	if (tl_json_parse(&p->j, ev, len, &err) < 0)
		return parse_error(out, at, err);
	if (tl_json_type(&p->j, 0) != TL_J_OBJECT)
		return parse_error(out, at, "event is not a JSON object");
	if (kind < 0 && (tk = TL_JSON_GET(&p->j, 0, "cat")) >= 0) {
		cat = tl_json_text(&p->j, tk, &catlen);
		kind = kind_of(cat, catlen, p->o->keep_python);
		if (kind < 0 && (fc = flow_cat(cat, catlen)) == 0)
			goto skip;
	}
	if ((tk = TL_JSON_GET(&p->j, 0, "ph")) < 0)
		goto skip;
	s = tl_json_text(&p->j, tk, &n);
	ph = n == 1 ? s[0] : 0;
	if (ph == 's' || ph == 'f') {
		int64_t id;

		if (fc == 0 || (tk = TL_JSON_GET(&p->j, 0, "id")) < 0)
			goto skip;
		s = tl_json_text(&p->j, tk, &n);
		if (tl_parse_i64(s, n, &id) < 0)
			goto skip;
		rc->type = ph == 's' ? R_FLOW_S : R_FLOW_F;
		rc->id = id;
		rc->flowcat = (uint8_t)fc;
		if (ph == 'f') {
			put_scalar(p, rc, S_PID, TL_JSON_GET(&p->j, 0, "pid"));
			put_scalar(p, rc, S_TID, TL_JSON_GET(&p->j, 0, "tid"));
		}
		return 1;
	}
	if (ph != 'X' || kind < 0)
		goto skip;

	rc->type = R_X;
	rc->kind = (uint8_t)kind;
	tl_json_members(&p->j, 0, top_keys, NTOP, f);
	if (time_field(p, f[K_TS], "ts", &rc->ts, msg, sizeof(msg)) < 0 ||
	    time_field(p, f[K_DUR], "dur", &rc->dur, msg, sizeof(msg)) < 0)
		return parse_error(out, at, msg);
	if (rc->dur < 0)
		return parse_error(out, at, "negative \"dur\"");
	if (rc->ts <= -TL_TIME_MAX || rc->ts >= TL_TIME_MAX)
		return parse_error(out, at, "\"ts\" out of range");
	if (rc->dur >= TL_TIME_MAX - rc->ts)
		return parse_error(out, at, "\"ts\" + \"dur\" out of range");
	put_scalar(p, rc, S_NAME, f[K_NAME]);
	put_scalar(p, rc, S_PID, f[K_PID]);
	put_scalar(p, rc, S_TID, f[K_TID]);
	tl_json_members(&p->j, f[K_ARGS], arg_keys, NARG, a);
	rc->corr = int_arg(p, a[A_CORR]);
	rc->extid = int_arg(p, a[A_EXTID]);
	if (TL_IS_GPU(kind)) {
		rc->stream = int_arg(p, a[A_STREAM]);
		put_compact(p, rc, S_GRID, a[A_GRID]);
		put_compact(p, rc, S_BLOCK, a[A_BLOCK]);
	} else
		rc->seq = int_arg(p, a[A_SEQ]);
	if (kind == TL_EV_CPU_OP) {
		struct tl_args x;

		put_compact(p, rc, S_DIMS, a[A_DIMS]);
		put_compact(p, rc, S_TYPES, a[A_TYPES]);
		put_compact(p, rc, S_STRIDES, a[A_STRIDES]);
		put_compact(p, rc, S_CONCRETE, a[A_CONCRETE]);
		x.dims = rc->sid[S_DIMS];
		x.types = rc->sid[S_TYPES];
		x.strides = rc->sid[S_STRIDES];
		x.concrete = rc->sid[S_CONCRETE];
		if (x.dims != 0 || x.types != 0 || x.strides != 0 ||
		    x.concrete != 0)
			rc->args = tl_intern(p->args, (const char *)&x,
			    sizeof(x));
	}
	return 1;
skip:
	out->len = at;
	return 0;
}

/* The trace's id of id in map m, interning s[0..n) if still unknown. */
static uint32_t
map_id(struct tl_strtab *tab, struct idmap *m, uint32_t id, const char *s,
    size_t n)
{
	uint32_t g;

	if (id < m->cap && m->v[id] != 0)
		return m->v[id] - 1;
	g = tl_intern(tab, s, n);
	if (id >= m->cap) {
		size_t old = m->cap;

		tl_grow(&m->v, &m->cap, (size_t)id + 1, sizeof(*m->v));
		memset(m->v + old, 0, (m->cap - old) * sizeof(*m->v));
	}
	m->v[id] = g + 1;
	return g;
}

/* The trace's id of string k of the record. */
static uint32_t
rec_intern(struct reader *r, const struct rec *rc, int k)
{
	return map_id(r->t->str, &r->str[rc->parser], rc->sid[k], rc->s[k],
	    rc->slen[k]);
}

static int
flow_event(struct reader *r, const struct rec *rc, uint64_t index,
    uint64_t offset)
{
	struct tl_trace *t = r->t;
	uint32_t v = tl_map32_get(&t->flows, (uint64_t)rc->id);

	t->flow_cats |= rc->flowcat;
	if (rc->type == R_FLOW_S)
		v |= TL_FLOW_S;
	else {
		/*
		 * The tid first: the order in which this was built with gcc
		 * before (it evaluates call arguments right to left), so that
		 * string ids stay as they were.
		 */
		uint32_t tid = rec_intern(r, rc, S_TID);
		uint32_t thr = thread_of(r, rec_intern(r, rc, S_PID), tid);

		if (thr > TL_FLOW_THREAD)
			return bad(r, index, offset, "too many threads");
		v = (v & TL_FLOW_S) | TL_FLOW_F | thr;
	}
	tl_map32_put(&t->flows, (uint64_t)rc->id, v);
	return 0;
}

/* 1 if s contains "launch" in any case. */
static int
has_launch(const char *s)
{
	for (; *s != '\0'; s++)
		if (tolower((unsigned char)s[0]) == 'l' &&
		    strncasecmp(s, "launch", 6) == 0)
			return 1;
	return 0;
}

/*
 * Fill in the linking key of event i, a runtime or driver call or a GPU
 * event.  The key is the correlation id unless the first runtime or
 * driver call whose name contains "launch" has none; until that call is
 * read, the External ids wait in r->pend.
 */
static void
set_link(struct reader *r, size_t i, int64_t corr, int64_t extid)
{
	struct tl_trace *t = r->t;
	struct tl_event *e = &t->ev[i];
	size_t k;

	if (!r->link_known && (e->kind == TL_EV_RUNTIME ||
	    e->kind == TL_EV_DRIVER) && has_launch(tl_ev_name(t, e))) {
		r->link_known = 1;
		t->link_external = corr == TL_NONE;
		if (t->link_external)
			for (k = 0; k < r->npend; k++)
				t->ev[r->pend[k].i].link = r->pend[k].extid;
		free(r->pend);
		r->pend = NULL;
		r->npend = r->cappend = 0;
	}
	if (r->link_known) {
		e->link = t->link_external ? extid : corr;
		return;
	}
	e->link = corr;
	tl_grow(&r->pend, &r->cappend, r->npend + 1, sizeof(*r->pend));
	r->pend[r->npend].extid = extid;
	r->pend[r->npend++].i = i;
}

/*
 * Add what parse_event found to the trace, in array order: string ids,
 * threads, flows and the linking key depend on the events before.
 */
static int
merge_event(void *ctx, const void *rp, uint64_t index, uint64_t offset)
{
	struct reader *r = ctx;
	struct tl_trace *t = r->t;
	const struct rec *rc = rp;
	struct tl_event *e;
	uint32_t pid, tid;
	int kind;

	t->nevents = index + 1;
	if (rc == NULL)
		return 0;
	if (rc->type == R_ERROR)
		return bad(r, index, offset, (const char *)(rc + 1));
	if (rc->type != R_X)
		return flow_event(r, rc, index, offset);
	kind = rc->kind;
	tl_grow(&t->ev, &t->capev, t->nev + 1, sizeof(*t->ev));
	e = &t->ev[t->nev];
	memset(e, 0, sizeof(*e));
	e->uid = (uint32_t)index;
	e->kind = (uint8_t)kind;
	e->parent = e->sibling = -1;
	e->ts = rc->ts;
	e->dur = rc->dur;
	if (TL_IS_GPU(kind)) {
		if (e->dur > INT64_MAX - r->gpu_ns)
			return bad(r, index, offset, "sum of the GPU events' "
			    "\"dur\" out of range");
		r->gpu_ns += e->dur;
	}
	e->name = rec_intern(r, rc, S_NAME);
	pid = rec_intern(r, rc, S_PID);
	tid = rec_intern(r, rc, S_TID);
	e->thread = thread_of(r, pid, tid);
	if (TL_IS_GPU(kind) || kind == TL_EV_RUNTIME || kind == TL_EV_DRIVER)
		set_link(r, t->nev, rc->corr, rc->extid);
	else
		e->fwd = -1;
	if (TL_IS_GPU(kind)) {
		e->stream = rc->stream;
		e->grid = rec_intern(r, rc, S_GRID);
		e->block = rec_intern(r, rc, S_BLOCK);
		if (e->stream == TL_NONE) {
			int64_t v;
			const char *ts = tl_str(t->str, tid);

			/* Old traces: the stream is the GPU tid. */
			if (tl_parse_i64(ts, tl_strsize(t->str, tid), &v) == 0)
				e->stream = v;
		}
	} else {
		e->seq = rc->seq;
		e->child = -1;
	}
	if (kind == TL_EV_CPU_OP) {
		uint32_t dims = rec_intern(r, rc, S_DIMS);
		uint32_t types = rec_intern(r, rc, S_TYPES);
		uint32_t strides = rec_intern(r, rc, S_STRIDES);
		uint32_t concrete = rec_intern(r, rc, S_CONCRETE);
		struct idmap *m = &r->args[rc->parser];

		/* Argument lists repeat far more than ops do: intern them. */
		if (rc->args != 0 && rc->args < m->cap && m->v[rc->args] != 0)
			e->args = m->v[rc->args] - 1;
		else if (rc->args != 0) {
			struct tl_args x;

			x.dims = dims;
			x.types = types;
			x.strides = strides;
			x.concrete = concrete;
			e->args = map_id(t->argtab, m, rc->args,
			    (const char *)&x, sizeof(x));
		}
	}
	t->nev++;
	return 0;
}

static void
on_meta(void *ctx, const char *key, size_t klen, const char *val, size_t vlen)
{
	struct reader *r = ctx;
	struct tl_trace *t = r->t;
	struct tl_meta *m;
	const char *err;

	tl_grow(&t->meta, &t->capmeta, t->nmeta + 1, sizeof(*t->meta));
	m = &t->meta[t->nmeta++];
	m->key = tl_malloc(klen + 1);
	tl_json_unescape(m->key, key, klen);
	m->value = tl_malloc(vlen + 1);
	tl_json_compact_text(val, vlen, m->value);
	if (strcmp(m->key, "distributedInfo") == 0 && vlen > 0) {
		struct tl_json j;
		int tk;

		tl_json_init(&j);
		if (tl_json_parse(&j, val, vlen, &err) > 0 &&
		    (tk = TL_JSON_GET(&j, 0, "rank")) >= 0) {
			size_t n;
			const char *s = tl_json_text(&j, tk, &n);

			free(t->rank);
			t->rank = tl_malloc(n + 1);
			tl_json_unescape(t->rank, s, n);
		}
		tl_json_free(&j);
	}
	if (strcmp(m->key, "deviceProperties") == 0 && vlen > 0)
		tl_devprops_parse(val, vlen, &t->gpu);
}

/* The online CPUs, the default thread count. */
static int
ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

struct tl_trace *
tl_trace_read(const char *path, const struct tl_trace_opts *o)
{
	struct tl_input *in;
	struct tl_trace *t;
	struct reader r;
	struct tl_scan_cb cb;
	size_t i;
	int rc;

	if ((in = tl_input_open(path)) == NULL)
		return NULL;
	t = tl_calloc(1, sizeof(*t));
	t->path = tl_strdup(tl_input_name(in));
	t->name = tl_strdup(o->trace_name != NULL ? o->trace_name :
	    strcmp(path, "-") == 0 ? "-" : path);
	t->str = tl_strtab_new();
	t->argtab = tl_strtab_new();
	t->link_external = 1;	/* when no launch call decides it */
	tl_map32_init(&t->flows);
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.o = o;
	tl_map_init(&r.threads);
	memset(&cb, 0, sizeof(cb));
	cb.ctx = &r;
	cb.meta = on_meta;
	cb.wnew = parser_new;
	cb.wfree = parser_free;
	cb.parse = parse_event;
	cb.merge = merge_event;
	cb.nthreads = o->threads > 0 ? o->threads : ncpu();
	cb.block = o->block;
	rc = tl_scan(in, &cb);
	if (tl_input_close(in) < 0)
		rc = -1;
	tl_map_free(&r.threads);
	for (i = 0; i < (size_t)r.nparsers; i++) {
		free(r.str[i].v);
		free(r.args[i].v);
	}
	free(r.str);
	free(r.args);
	for (i = 0; i < r.npend; i++)
		t->ev[r.pend[i].i].link = r.pend[i].extid;
	free(r.pend);
	if (rc < 0 || r.failed) {
		tl_trace_free(t);
		return NULL;
	}
	return t;
}

void
tl_trace_free(struct tl_trace *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nmeta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].value);
	}
	free(t->meta);
	tl_map32_free(&t->flows);
	free(t->threads);
	tl_strtab_free(t->str);
	tl_strtab_free(t->argtab);
	free(t->ev);
	free(t->rank);
	free(t->gpu.name);
	free(t->name);
	free(t->path);
	free(t);
}

const char *
tl_trace_meta(const struct tl_trace *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nmeta; i++)
		if (strcmp(t->meta[i].key, key) == 0)
			return t->meta[i].value;
	return NULL;
}

void
tl_ev_args(const struct tl_trace *t, const struct tl_event *e,
    struct tl_args *a)
{
	if (e->kind != TL_EV_CPU_OP || e->args == 0)
		memset(a, 0, sizeof(*a));
	else
		memcpy(a, tl_str(t->argtab, e->args), sizeof(*a));
}

int
tl_ev_cmp_thread(const struct tl_event *x, const struct tl_event *y)
{
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return 0;
}

int
tl_in_window(const struct tl_trace *t, const struct tl_window *w, int i)
{
	const struct tl_event *e = &t->ev[i];

	if (w == NULL || !w->on)
		return 1;
	if (TL_IS_GPU(e->kind) && e->parent >= 0)
		e = &t->ev[e->parent];
	return e->ts >= w->start && e->ts < w->end;
}

int
tl_step_window(const struct tl_trace *t, long long step, struct tl_window *w)
{
	char name[64];
	size_t i;

	snprintf(name, sizeof(name), "ProfilerStep#%lld", step);
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];

		if ((e->kind == TL_EV_ANNOTATION || e->kind == TL_EV_CPU_OP) &&
		    strcmp(tl_ev_name(t, e), name) == 0) {
			w->on = 1;
			w->start = e->ts;
			w->end = e->ts + e->dur;
			return 0;
		}
	}
	tl_warn("%s: no %s in the trace", t->path, name);
	return -1;
}
