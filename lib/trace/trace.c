/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* memmem */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

struct reader {
	struct tl_trace *t;
	const struct tl_trace_opts *o;
	struct tl_json j;
	char *buf;		/* scratch for unescaped or compact text */
	size_t cap;
	int64_t gpu_ns;		/* sum of the GPU events' durations */
	int failed;
	int link_known;		/* t->link_external is decided */
	struct pending *pend;	/* until then: the events that have a link */
	size_t npend, cappend;
	struct tl_map threads;	/* (0, pid << 32 | tid) -> index in t->threads */
	uint64_t lastthr;	/* the last thread looked up: pid << 32 | tid */
	uint32_t lastix;	/* and its index, if any thread was */
};

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

/* Intern the unescaped string or the number text of token tk. */
static uint32_t
intern_scalar(struct reader *r, int tk)
{
	size_t n;
	const char *s = tl_json_text(&r->j, tk, &n);

	if (tl_json_type(&r->j, tk) == TL_J_STRING && memchr(s, '\\', n)) {
		tl_grow(&r->buf, &r->cap, n + 1, 1);
		n = tl_json_unescape(r->buf, s, n);
		s = r->buf;
	} else if (tl_json_type(&r->j, tk) != TL_J_STRING &&
	    tl_json_type(&r->j, tk) != TL_J_PRIM)
		return 0;
	return tl_intern(r->t->str, s, n);
}

static uint32_t
intern_compact(struct reader *r, int tk)
{
	size_t n;

	if (tk < 0)
		return 0;
	n = tl_json_compact(&r->j, tk, &r->buf, &r->cap);
	if (n == 4 && memcmp(r->buf, "null", 4) == 0)
		return 0;
	return tl_intern(r->t->str, r->buf, n);
}

/* Integer value of token tk, or TL_NONE if absent or not an integer. */
static int64_t
int_arg(struct reader *r, int tk)
{
	size_t n;
	const char *s;
	int64_t v;

	if (tk < 0)
		return TL_NONE;
	s = tl_json_text(&r->j, tk, &n);
	if (tl_parse_i64(s, n, &v) < 0)
		return TL_NONE;
	return v;
}

static int
time_field(struct reader *r, int tk, const char *key, int64_t *ns,
    uint64_t index, uint64_t offset)
{
	size_t n;
	const char *s;
	char msg[64];

	if (tk < 0) {
		snprintf(msg, sizeof(msg), "missing \"%s\"", key);
		return bad(r, index, offset, msg);
	}
	s = tl_json_text(&r->j, tk, &n);
	if (tl_json_type(&r->j, tk) != TL_J_PRIM ||
	    tl_parse_us_ns(s, n, ns) < 0) {
		snprintf(msg, sizeof(msg), "\"%s\" is not a number", key);
		return bad(r, index, offset, msg);
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

static int
flow_event(struct reader *r, int ph, unsigned cat, uint64_t index,
    uint64_t offset)
{
	struct tl_trace *t = r->t;
	int tk = TL_JSON_GET(&r->j, 0, "id");
	size_t n;
	const char *s;
	int64_t id;
	uint32_t v;

	if (tk < 0)
		return 0;
	s = tl_json_text(&r->j, tk, &n);
	if (tl_parse_i64(s, n, &id) < 0)
		return 0;
	t->flow_cats |= cat;
	v = tl_map32_get(&t->flows, (uint64_t)id);
	if (ph == 's')
		v |= TL_FLOW_S;
	else {
		int p = TL_JSON_GET(&r->j, 0, "pid");
		int q = TL_JSON_GET(&r->j, 0, "tid");
		uint32_t thr = thread_of(r, p < 0 ? 0 : intern_scalar(r, p),
		    q < 0 ? 0 : intern_scalar(r, q));

		if (thr > TL_FLOW_THREAD)
			return bad(r, index, offset, "too many threads");
		v = (v & TL_FLOW_S) | TL_FLOW_F | thr;
	}
	tl_map32_put(&t->flows, (uint64_t)id, v);
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

static int
on_event(void *ctx, const char *ev, size_t len, uint64_t index,
    uint64_t offset)
{
	struct reader *r = ctx;
	struct tl_trace *t = r->t;
	struct tl_event *e;
	const char *cat, *err, *s;
	size_t catlen, n;
	uint32_t pid = 0, tid = 0;
	int kind = -1, tk, ph, f[NTOP], a[NARG];
	unsigned fc = 0;

	t->nevents = index + 1;
	if (prescan_cat(ev, len, &cat, &catlen)) {
		kind = kind_of(cat, catlen, r->o->keep_python);
		/* Launch flows go on; everything else not kept stops here. */
		if (kind < 0 && (fc = flow_cat(cat, catlen)) == 0)
			return 0;
	}
	if (tl_json_parse(&r->j, ev, len, &err) < 0)
		return bad(r, index, offset, err);
	if (tl_json_type(&r->j, 0) != TL_J_OBJECT)
		return bad(r, index, offset, "event is not a JSON object");
	if (kind < 0 && (tk = TL_JSON_GET(&r->j, 0, "cat")) >= 0) {
		cat = tl_json_text(&r->j, tk, &catlen);
		kind = kind_of(cat, catlen, r->o->keep_python);
		if (kind < 0 && (fc = flow_cat(cat, catlen)) == 0)
			return 0;
	}
	if ((tk = TL_JSON_GET(&r->j, 0, "ph")) < 0)
		return 0;
	s = tl_json_text(&r->j, tk, &n);
	ph = n == 1 ? s[0] : 0;
	if (ph == 's' || ph == 'f')
		return fc != 0 ? flow_event(r, ph, fc, index, offset) : 0;
	if (ph != 'X' || kind < 0)
		return 0;

	tl_grow(&t->ev, &t->capev, t->nev + 1, sizeof(*t->ev));
	e = &t->ev[t->nev];
	memset(e, 0, sizeof(*e));
	e->uid = (uint32_t)index;
	e->kind = (uint8_t)kind;
	e->parent = e->sibling = -1;
	tl_json_members(&r->j, 0, top_keys, NTOP, f);
	if (time_field(r, f[K_TS], "ts", &e->ts, index, offset) < 0 ||
	    time_field(r, f[K_DUR], "dur", &e->dur, index, offset) < 0)
		return -1;
	if (e->dur < 0)
		return bad(r, index, offset, "negative \"dur\"");
	if (e->ts <= -TL_TIME_MAX || e->ts >= TL_TIME_MAX)
		return bad(r, index, offset, "\"ts\" out of range");
	if (e->dur >= TL_TIME_MAX - e->ts)
		return bad(r, index, offset, "\"ts\" + \"dur\" out of range");
	if (TL_IS_GPU(kind)) {
		if (e->dur > INT64_MAX - r->gpu_ns)
			return bad(r, index, offset, "sum of the GPU events' "
			    "\"dur\" out of range");
		r->gpu_ns += e->dur;
	}
	if (f[K_NAME] >= 0)
		e->name = intern_scalar(r, f[K_NAME]);
	if (f[K_PID] >= 0)
		pid = intern_scalar(r, f[K_PID]);
	if (f[K_TID] >= 0)
		tid = intern_scalar(r, f[K_TID]);
	e->thread = thread_of(r, pid, tid);
	tl_json_members(&r->j, f[K_ARGS], arg_keys, NARG, a);
	if (TL_IS_GPU(kind) || kind == TL_EV_RUNTIME || kind == TL_EV_DRIVER)
		set_link(r, t->nev, int_arg(r, a[A_CORR]),
		    int_arg(r, a[A_EXTID]));
	else
		e->fwd = -1;
	if (TL_IS_GPU(kind)) {
		e->stream = int_arg(r, a[A_STREAM]);
		e->grid = intern_compact(r, a[A_GRID]);
		e->block = intern_compact(r, a[A_BLOCK]);
		if (e->stream == TL_NONE) {
			int64_t v;
			const char *ts = tl_str(t->str, tid);

			/* Old traces: the stream is the GPU tid. */
			if (tl_parse_i64(ts, tl_strsize(t->str, tid), &v) == 0)
				e->stream = v;
		}
	} else {
		e->seq = int_arg(r, a[A_SEQ]);
		e->child = -1;
	}
	if (kind == TL_EV_CPU_OP) {
		struct tl_args x;

		x.dims = intern_compact(r, a[A_DIMS]);
		x.types = intern_compact(r, a[A_TYPES]);
		x.strides = intern_compact(r, a[A_STRIDES]);
		x.concrete = intern_compact(r, a[A_CONCRETE]);
		/* Argument lists repeat far more than ops do: intern them. */
		if (x.dims != 0 || x.types != 0 || x.strides != 0 ||
		    x.concrete != 0)
			e->args = tl_intern(t->argtab, (const char *)&x,
			    sizeof(x));
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
	tl_json_init(&r.j);
	tl_map_init(&r.threads);
	cb.ctx = &r;
	cb.event = on_event;
	cb.meta = on_meta;
	rc = tl_scan(in, &cb);
	if (tl_input_close(in) < 0)
		rc = -1;
	tl_json_free(&r.j);
	free(r.buf);
	tl_map_free(&r.threads);
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
