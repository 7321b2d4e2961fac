/* See LICENSE file for copyright and license details. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/json.h"
#include "common/util.h"
#include "trace/capture.h"
#include "trace/context.h"
#include "trace/kernclass.h"
#include "trace/tree.h"

/* A captured graph: its launch calls in a capture trace, in order. */
struct graph {
	const struct tl_trace *c;
	int *call;
	size_t n;
	int64_t start, end;	/* the capture window, ns */
	int thread;
	long batch;		/* its capture trace's batch size, or -1 */
	struct gframe {
		int i;		/* in c->py */
		uint32_t name;	/* its name in the trace's t->pystr */
	} *py;			/* its frames, found on first use */
	size_t npy;
	int pydone;
};

struct merge {
	struct tl_trace *t;
	struct graph *g;
	size_t ng, capg;
	int *gpu;		/* scratch: a launch's GPU events */
	size_t cap;
	int *pair;		/* scratch: the call of each GPU event */
	size_t cappair;
	int *best;
	size_t capbest;
	uint32_t *mark;		/* per capture event: generation it was taken */
	int *newix;		/* per capture event: its copy's index in t */
	size_t capmark;
	uint32_t gen;
	uint32_t nextuid;
};

static void
add_spec(struct tl_capture_list *l, const char *path, long batch,
    const char *mode)
{
	struct tl_capture_spec *s;

	tl_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	s = &l->v[l->n++];
	s->path = tl_strdup(path);
	s->batch = batch;
	s->mode = mode != NULL ? tl_strdup(mode) : NULL;
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *
join(const char *dir, size_t dlen, const char *name)
{
	size_t n = strlen(name);
	char *p = tl_malloc(dlen + n + 2);

	memcpy(p, dir, dlen);
	p[dlen] = '/';
	memcpy(p + dlen + 1, name, n + 1);
	return p;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A JSON string token's text, unescaped, as a new string. */
static char *
json_string(const struct tl_json *j, int tk)
{
	size_t n;
	const char *s = tl_json_text(j, tk, &n);
	char *v = tl_malloc(n + 1);

	v[tl_json_unescape(v, s, n)] = '\0';
	return v;
}

/*
 * The capture trace a details file STEM.capture-details.json stands beside,
 * STEM.capture.json.gz or STEM.capture.json, as a new string; else NULL.
 */
static char *
sibling_of(const char *details)
{
	static const char *const sib[] = {
		".capture.json.gz", ".capture.json"
	};
	const char *suffix = ".capture-details.json";
	size_t stem = strlen(details), k;
	char *p;

	if (!ends_with(details, suffix))
		return NULL;
	stem -= strlen(suffix);
	p = tl_malloc(stem + 32);
	memcpy(p, details, stem);
	for (k = 0; k < 2; k++) {
		strcpy(p + stem, sib[k]);
		if (is_file(p))
			return p;
	}
	free(p);
	return NULL;
}

/*
 * Read a details file (text[0..len)); files relative to its directory,
 * else, for a single entry whose file is absent, the capture trace beside
 * a STEM.capture-details.json (renamed).
 */
static int
add_details(struct tl_capture_list *l, const char *path, const char *text,
    size_t len)
{
	char *sibling = sibling_of(path);
	struct tl_json j;
	const char *err, *slash = strrchr(path, '/');
	size_t dlen = slash != NULL ? (size_t)(slash - path) : 1;
	const char *dir = slash != NULL ? path : ".";
	int tk, k, n, rc = 0;

	while (len > 0 && strchr(" \t\r\n", text[len - 1]) != NULL)
		len--;
	tl_json_init(&j);
	if (tl_json_parse(&j, text, len, &err) < 0 ||
	    tl_json_type(&j, 0) != TL_J_ARRAY) {
		tl_warn("%s: not a list of capture traces (a JSON array of "
		    "objects with file, batch_size and mode)", path);
		tl_json_free(&j);
		free(sibling);
		return -1;
	}
	n = tl_json_size(&j, 0);
	for (k = 0, tk = 1; k < n; k++, tk = tl_json_next(&j, tk)) {
		int f, b, m;
		char *file, *mode = NULL, *full;
		long batch = -1;
		int64_t v;
		size_t bn;
		const char *bs;

		if (tl_json_type(&j, tk) != TL_J_OBJECT ||
		    (f = TL_JSON_GET(&j, tk, "file")) < 0 ||
		    tl_json_type(&j, f) != TL_J_STRING) {
			tl_warn("%s: entry %d has no file", path, k + 1);
			rc = -1;
			continue;
		}
		file = json_string(&j, f);
		if ((b = TL_JSON_GET(&j, tk, "batch_size")) >= 0) {
			bs = tl_json_text(&j, b, &bn);
			if (tl_parse_i64(bs, bn, &v) == 0 && v >= 0 &&
			    v <= 1L << 30)
				batch = (long)v;
		}
		if ((m = TL_JSON_GET(&j, tk, "mode")) >= 0 &&
		    tl_json_type(&j, m) == TL_J_STRING)
			mode = json_string(&j, m);
		full = file[0] == '/' ? tl_strdup(file) :
		    join(dir, dlen, file);
		if (is_file(full))
			add_spec(l, full, batch, mode);
		else if (n == 1 && sibling != NULL)
			add_spec(l, sibling, batch, mode);
		else {
			tl_warn("%s: capture trace %s not found", path, full);
			rc = -1;
		}
		free(full);
		free(file);
		free(mode);
	}
	tl_json_free(&j);
	free(sibling);
	return rc;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
add_dir(struct tl_capture_list *l, const char *path)
{
	char *details = join(path, strlen(path), "execution_details.json");
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *d;
	DIR *dp;
	int rc;

	if (is_file(details)) {
		rc = tl_capture_add(l, details);
		free(details);
		return rc;
	}
	free(details);
	if ((dp = opendir(path)) == NULL) {
		tl_warn("%s: cannot open the directory", path);
		return -1;
	}
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.' || (!ends_with(d->d_name, ".json") &&
		    !ends_with(d->d_name, ".json.gz")))
			continue;
		tl_grow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = join(path, strlen(path), d->d_name);
	}
	closedir(dp);
	if (n > 0)
		qsort(names, n, sizeof(*names), cmp_str);	/* fixed order */
	for (i = 0; i < n; i++) {
		if (is_file(names[i]))
			add_spec(l, names[i], -1, NULL);
		free(names[i]);
	}
	free(names);
	if (n == 0)
		tl_warn("%s: no capture traces in the directory", path);
	return n > 0 ? 0 : -1;
}

/* 1 if the file starts with '[' after blanks: a details file. */
static int
is_details(const char *path, char **text, size_t *len)
{
	struct stat st;
	size_t i;

	*text = NULL;
	if (stat(path, &st) != 0 || st.st_size > (1 << 24))
		return 0;
	if ((*text = tl_slurp(path, len)) == NULL)
		return 0;
	for (i = 0; i < *len && strchr(" \t\r\n", (*text)[i]) != NULL; i++)
		;
	if (i < *len && (*text)[i] == '[')
		return 1;
	free(*text);
	*text = NULL;
	return 0;
}

int
tl_capture_add(struct tl_capture_list *l, const char *path)
{
	char *text;
	size_t len;
	int rc;

	if (is_dir(path))
		return add_dir(l, path);
	if (!is_file(path)) {
		tl_warn("%s: no such capture trace, details file or "
		    "directory", path);
		return -1;
	}
	if (is_details(path, &text, &len)) {
		rc = add_details(l, path, text, len);
		free(text);
		return rc;
	}
	add_spec(l, path, -1, NULL);
	return 0;
}

size_t
tl_capture_beside(struct tl_capture_list *l, const char *path)
{
	static const char *const sib[] = {
		".capture-details.json", ".capture.json.gz", ".capture.json"
	};
	const char *slash = strrchr(path, '/');
	size_t n0 = l->n, stem = strlen(path), k;
	char *p, *dir;

	if (ends_with(path, ".json.gz"))
		stem -= 8;
	else if (ends_with(path, ".json"))
		stem -= 5;
	else
		return 0;
	p = tl_malloc(stem + 32);
	memcpy(p, path, stem);
	for (k = 0; k < 3; k++) {
		strcpy(p + stem, sib[k]);
		if (is_file(p)) {
			(void)tl_capture_add(l, p);
			break;
		}
	}
	free(p);
	dir = slash != NULL ? join(path, (size_t)(slash - path),
	    "capture_traces") : tl_strdup("capture_traces");
	if (is_dir(dir))
		(void)add_dir(l, dir);
	free(dir);
	return l->n - n0;
}

void
tl_capture_list_free(struct tl_capture_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].mode);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The calls that record GPU work in a captured graph. */
static int
is_launch_call(const char *name)
{
	return (strstr(name, "Launch") != NULL &&
	    strstr(name, "GraphLaunch") == NULL) ||
	    strstr(name, "Memcpy") != NULL || strstr(name, "Memset") != NULL;
}

/* The trace whose event indices the comparators below sort. */
static const struct tl_trace *sort_t;

static int
cmp_thread_ts(const void *a, const void *b)
{
	const struct tl_event *x = &sort_t->ev[*(const int *)a];
	const struct tl_event *y = &sort_t->ev[*(const int *)b];
	int c = tl_ev_cmp_thread(x, y);

	if (c != 0)
		return c;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/*
 * The batch size N of a "capture_N_MODE" annotation (vLLM's, which
 * TraceLens reads too) of the na in ann[] around [start, end) on thread,
 * or -1.
 */
static long
capture_batch(const struct tl_trace *c, const int *ann, size_t na,
    int thread, int64_t start, int64_t end)
{
	size_t i;

	for (i = 0; i < na; i++) {
		const struct tl_event *e = &c->ev[ann[i]];
		const char *name = tl_ev_name(c, e);
		char *rest;
		long b;

		if ((int)e->thread != thread || e->ts > start ||
		    e->ts + e->dur < end)
			continue;
		b = strtol(name + 8, &rest, 10);
		if (rest != name + 8 && *rest == '_' && b >= 0)
			return b;
	}
	return -1;
}

/*
 * The captured graphs of capture trace c, of batch size batch (-1: that
 * of the capture annotation around each, if any).
 */
static void
find_graphs(struct merge *m, const struct tl_trace *c, long batch)
{
	int *calls = tl_malloc((c->nev + 1) * sizeof(*calls)), *ann = NULL;
	size_t n = 0, na = 0, capann = 0, i, j;

	for (i = 0; i < c->nev; i++) {
		if (c->ev[i].kind == TL_EV_RUNTIME ||
		    c->ev[i].kind == TL_EV_DRIVER)
			calls[n++] = (int)i;
		else if (c->ev[i].kind == TL_EV_ANNOTATION && strncmp(
		    tl_ev_name(c, &c->ev[i]), "capture_", 8) == 0) {
			tl_grow(&ann, &capann, na + 1, sizeof(*ann));
			ann[na++] = (int)i;
		}
	}
	sort_t = c;
	if (n > 0)
		qsort(calls, n, sizeof(*calls), cmp_thread_ts);
	for (i = 0; i < n; i++) {
		const struct tl_event *b = &c->ev[calls[i]];
		struct graph *g;

		if (strstr(tl_ev_name(c, b), "StreamBeginCapture") == NULL)
			continue;
		for (j = i + 1; j < n; j++) {
			const struct tl_event *e = &c->ev[calls[j]];

			if (e->thread != b->thread)
				break;
			if (strstr(tl_ev_name(c, e), "StreamEndCapture") !=
			    NULL || strstr(tl_ev_name(c, e),
			    "StreamBeginCapture") != NULL)
				break;
		}
		if (j == n || c->ev[calls[j]].thread != b->thread ||
		    strstr(tl_ev_name(c, &c->ev[calls[j]]),
		    "StreamEndCapture") == NULL)
			continue;	/* no end on its thread */
		tl_grow(&m->g, &m->capg, m->ng + 1, sizeof(*m->g));
		g = &m->g[m->ng++];
		memset(g, 0, sizeof(*g));
		g->c = c;
		g->batch = batch;
		g->thread = (int)b->thread;
		g->start = b->ts + b->dur;
		g->end = c->ev[calls[j]].ts;
		if (batch < 0)
			g->batch = capture_batch(c, ann, na, g->thread,
			    g->start, g->end);
		g->call = tl_malloc((j - i + 1) * sizeof(*g->call));
		for (i++; i < j; i++) {
			const struct tl_event *e = &c->ev[calls[i]];

			if (e->ts >= g->start && e->ts + e->dur <= g->end &&
			    is_launch_call(tl_ev_name(c, e)))
				g->call[g->n++] = calls[i];
		}
		i = j;
	}
	free(calls);
	free(ann);
}

/* The "kernel" argument of capture launch call i, or NULL. */
static const char *
call_kernel(const struct tl_trace *c, int i)
{
	const int64_t *k = tl_map_get(&c->launch_kernel, 0, (uint64_t)i);

	return k != NULL ? tl_str(c->str, (uint32_t)*k) : NULL;
}

/* 1 if capture launch call ci recorded GPU event gi of t. */
static int
pairs_with(const struct tl_trace *c, int ci, const struct tl_trace *t, int gi)
{
	const char *call = tl_ev_name(c, &c->ev[ci]);
	const struct tl_event *g = &t->ev[gi];
	const char *gname = tl_ev_name(t, g), *k;

	if (strstr(call, "Memcpy") != NULL)
		return g->kind == TL_EV_MEMCPY || (g->kind == TL_EV_KERNEL &&
		    tl_kernclass(g->kind, gname) == TL_GC_MEMCPY);
	if (strstr(call, "Memset") != NULL)
		return g->kind == TL_EV_MEMSET || (g->kind == TL_EV_KERNEL &&
		    strstr(gname, "fillBuffer") != NULL);
	if (g->kind != TL_EV_KERNEL)
		return 0;
	return (k = call_kernel(c, ci)) == NULL || strcmp(k, gname) == 0;
}

/* The calls of g that launch kernels all name them. */
static int
names_known(const struct graph *g)
{
	size_t k;

	for (k = 0; k < g->n; k++) {
		const char *call = tl_ev_name(g->c, &g->c->ev[g->call[k]]);

		if (strstr(call, "Memcpy") == NULL &&
		    strstr(call, "Memset") == NULL &&
		    call_kernel(g->c, g->call[k]) == NULL)
			return 0;
	}
	return 1;
}

/*
 * Pair the n GPU events gpu[] (in start order) with graph g's calls:
 * pair[k] = the call of gpu[k].  Each stream's events are a queue in start
 * order; each call in capture order takes the head of a queue it pairs
 * with, or is skipped.  When several heads pair with it, the stream whose
 * queue pairs with the longest run of the calls from it wins (TraceLens'
 * align_streams).  Events on several streams need the calls' kernel names:
 * the order across streams says nothing.  Returns the calls skipped, or
 * -1 when a GPU event is left.
 */
static long
align(const struct merge *m, const struct graph *g, const int *gpu, size_t n,
    int *pair)
{
	const struct tl_trace *t = m->t;
	size_t *head, *next, k, ci, ns = 0, left = n;
	int64_t *stream;
	long skipped = 0;

	if (n > g->n)
		return -1;
	/* Streams, and each event's next on its stream (n: none). */
	stream = tl_malloc(n * sizeof(*stream));
	head = tl_malloc(n * sizeof(*head));
	next = tl_malloc(n * sizeof(*next));
	for (k = n; k-- > 0;) {
		size_t s;

		for (s = 0; s < ns; s++)
			if (stream[s] == tl_ev_stream(t, &t->ev[gpu[k]]))
				break;
		if (s == ns) {
			stream[ns] = tl_ev_stream(t, &t->ev[gpu[k]]);
			head[ns++] = n;
		}
		next[k] = head[s];
		head[s] = k;
	}
	if (ns > 1 && !names_known(g)) {
		free(stream);
		free(head);
		free(next);
		return -1;
	}
	for (ci = 0; ci < g->n && left > 0; ci++) {
		size_t s, best = ns, bestrun = 0;

		for (s = 0; s < ns; s++) {
			size_t run = 0, q = head[s];

			if (q == n || !pairs_with(g->c, g->call[ci], t, gpu[q]))
				continue;
			if (best == ns)
				best = s;
			if (ns == 1)
				break;
			for (; q < n && ci + run < g->n && pairs_with(g->c,
			    g->call[ci + run], t, gpu[q]); q = next[q])
				run++;
			if (run > bestrun) {
				best = s;
				bestrun = run;
			}
		}
		if (best == ns) {
			skipped++;
			continue;
		}
		pair[head[best]] = g->call[ci];
		head[best] = next[head[best]];
		left--;
	}
	free(stream);
	free(head);
	free(next);
	if (left > 0)
		return -1;
	return skipped + (long)(g->n - ci);
}

/* Time ts of the capture window of g mapped into launch l's span. */
static int64_t
map_ts(const struct graph *g, const struct tl_event *l, int64_t ts)
{
	int64_t span = g->end - g->start;

	if (span <= 0)
		return l->ts;
	return l->ts + (int64_t)((__int128)(ts - g->start) * l->dur / span);
}

/* Event i of capture trace c, copied into t at the end; its new index. */
static int
copy_event(struct merge *m, const struct graph *g, int li, int i)
{
	struct tl_trace *t = m->t;
	const struct tl_trace *c = g->c;
	const struct tl_event *ce = &c->ev[i];
	struct tl_event *e;
	int64_t end;

	tl_grow_ahead(&t->ev, &t->capev, t->nev + 1, sizeof(*t->ev),
	    &t->evahead);
	e = &t->ev[t->nev];
	*e = *ce;
	e->name = tl_intern(t->str, tl_ev_name(c, ce),
	    tl_strsize(c->str, ce->name));
	e->thread = t->ev[li].thread;
	end = map_ts(g, &t->ev[li], ce->ts + ce->dur);
	e->ts = map_ts(g, &t->ev[li], ce->ts);
	e->dur = end - e->ts;
	e->uid = m->nextuid++;
	e->parent = e->sibling = -1;
	e->flags = TL_F_TREE;
	if (TL_IS_HOST(ce->kind)) {
		e->child = -1;
		e->flags &= (uint16_t)~TL_F_WORK;
		e->pseq = tl_small_put(t, TL_NONE);
		e->fwd = -1;
		e->args = 0;
	}
	if (ce->kind == TL_EV_CPU_OP && ce->args != 0) {
		struct tl_args a, x;

		tl_ev_args(c, ce, &a);
		x.dims = tl_intern(t->str, tl_str(c->str, a.dims),
		    tl_strsize(c->str, a.dims));
		x.types = tl_intern(t->str, tl_str(c->str, a.types),
		    tl_strsize(c->str, a.types));
		x.strides = tl_intern(t->str, tl_str(c->str, a.strides),
		    tl_strsize(c->str, a.strides));
		x.concrete = tl_intern(t->str, tl_str(c->str, a.concrete),
		    tl_strsize(c->str, a.concrete));
		x.comm = tl_intern(t->str, tl_str(c->str, a.comm),
		    tl_strsize(c->str, a.comm));
		e->args = tl_intern(t->argtab, (const char *)&x, sizeof(x));
	}
	return (int)t->nev++;
}

/* By start, the outer of two events that start together first, uid. */
static int
cmp_start(const void *a, const void *b)
{
	const struct tl_event *x = &sort_t->ev[*(const int *)a];
	const struct tl_event *y = &sort_t->ev[*(const int *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;	/* outer first */
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/*
 * The capture trace's python_function frames of g's thread in its window
 * (module instances, call stacks), mapped into launch li's span on li's
 * thread: the module context of the ops the capture attributes.
 */
static void
copy_frames(struct merge *m, struct graph *g, int li)
{
	struct tl_trace *t = m->t;
	const struct tl_trace *c = g->c;
	uint32_t th, to;
	size_t k;

	if (c->thread_py == NULL)
		return;		/* the capture trace was read without frames */
	if (!g->pydone) {
		size_t cappy = 0;

		th = c->thread_py[g->thread];
		for (k = 0; k < c->npy; k++) {
			const struct tl_pyframe *f = &c->py[k];

			if (f->thread == th && f->ts >= g->start &&
			    f->ts + f->dur <= g->end) {
				tl_grow(&g->py, &cappy, g->npy + 1,
				    sizeof(*g->py));
				g->py[g->npy].i = (int)k;
				g->py[g->npy++].name = tl_intern(t->pystr,
				    tl_str(c->pystr, f->name),
				    tl_strsize(c->pystr, f->name));
			}
		}
		g->pydone = 1;
	}
	if (g->npy == 0)
		return;
	to = tl_trace_pythread(t, t->ev[li].thread);
	tl_grow_ahead(&t->py, &t->cappy, t->npy + g->npy, sizeof(*t->py),
	    &t->pyahead);
	for (k = 0; k < g->npy; k++) {
		const struct tl_pyframe *f = &c->py[g->py[k].i];
		struct tl_pyframe *n = &t->py[t->npy++];
		int64_t end = map_ts(g, &t->ev[li], f->ts + f->dur);

		n->ts = map_ts(g, &t->ev[li], f->ts);
		n->dur = end - n->ts;
		n->name = g->py[k].name;	/* interned once per graph */
		n->thread = to;
	}
}

/* Make child ch the first child of p. */
static void
push_child(struct tl_trace *t, int p, int ch)
{
	t->ev[ch].parent = p;
	t->ev[ch].sibling = t->ev[p].child;
	t->ev[p].child = ch;
}

/*
 * Graft graph g under launch call li of t: copy the host events of the
 * capture window above the paired calls (and the python frames in it),
 * then move each GPU event gpu[k] under the copy of call pair[k].
 */
static void
graft(struct merge *m, struct graph *g, int li, const int *gpu,
    size_t n, const int *pair)
{
	struct tl_trace *t = m->t;
	const struct tl_trace *c = g->c;
	int *take = NULL, ch, next;
	size_t ntake = 0, cap = 0, k;

	if (++m->gen == 0) {
		memset(m->mark, 0, m->capmark * sizeof(*m->mark));
		m->gen = 1;
	}
	for (k = 0; k < n; k++)
		for (int a = pair[k]; a >= 0 && m->mark[a] != m->gen;
		    a = c->ev[a].parent) {
			const struct tl_event *e = &c->ev[a];

			if (e->ts < g->start || e->ts + e->dur > g->end)
				break;
			m->mark[a] = m->gen;
			tl_grow(&take, &cap, ntake + 1, sizeof(*take));
			take[ntake++] = a;
		}
	copy_frames(m, g, li);
	sort_t = c;
	if (ntake > 0)
		qsort(take, ntake, sizeof(*take), cmp_start);
	for (k = 0; k < ntake; k++)
		m->newix[take[k]] = copy_event(m, g, li, take[k]);
	/* The launch's own children: its GPU events not paired stay. */
	for (ch = t->ev[li].child, t->ev[li].child = -1; ch >= 0; ch = next) {
		next = t->ev[ch].sibling;
		t->ev[ch].sibling = -1;
		for (k = 0; k < n; k++)
			if (gpu[k] == ch)
				break;
		if (k == n)
			push_child(t, li, ch);
	}
	/* Parents before children; linked in reverse for start order. */
	for (k = ntake; k-- > 0;) {
		const struct tl_event *ce = &c->ev[take[k]];
		int ni = m->newix[take[k]];
		int p = ce->parent;

		if (p >= 0 && m->mark[p] == m->gen)
			push_child(t, m->newix[p], ni);
		else
			push_child(t, li, ni);
	}
	for (k = 0; k < ntake; k++) {
		struct tl_event *e = &t->ev[m->newix[take[k]]];
		int a;

		if (e->kind != TL_EV_CPU_OP)
			continue;
		for (a = e->parent; a >= 0 && a != li; a = t->ev[a].parent)
			if (t->ev[a].kind == TL_EV_CPU_OP)
				break;
		if (a < 0 || a == li)
			e->flags |= TL_F_ROOT;
	}
	for (k = n; k-- > 0;) {
		int call = m->newix[pair[k]];
		struct tl_event *ge = &t->ev[gpu[k]];

		ge->sibling = -1;
		push_child(t, call, gpu[k]);
		for (int a = call; a >= 0 && a != li; a = t->ev[a].parent) {
			t->ev[a].flags |= TL_F_GPU_BELOW;
			if (!(ge->flags & TL_F_COMM))
				t->ev[a].flags |= TL_F_WORK;
		}
	}
	free(take);
}

/* The GPU events graph launch li replays, in start order, into m->gpu. */
static size_t
launch_gpu(struct merge *m, const struct tl_trace *t, int li)
{
	size_t n = 0;
	int ch;

	for (ch = t->ev[li].child; ch >= 0; ch = t->ev[ch].sibling)
		if (TL_IS_GPU(t->ev[ch].kind) &&
		    (t->ev[ch].flags & TL_F_GRAPH)) {
			tl_grow(&m->gpu, &m->cap, n + 1, sizeof(*m->gpu));
			m->gpu[n++] = ch;
		}
	sort_t = t;
	if (n > 0)
		qsort(m->gpu, n, sizeof(*m->gpu), cmp_start);
	return n;
}

/* The graph launches of t with GPU events, in start order. */
static int *
launches(const struct tl_trace *t, size_t *n)
{
	int *v = NULL;
	size_t cap = 0, i;

	*n = 0;
	/* Most traces have none: no pass over the events then. */
	for (i = 0; t->ngraphcalls > 0 && i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];
		int ch;

		if (e->kind != TL_EV_RUNTIME && e->kind != TL_EV_DRIVER)
			continue;
		for (ch = e->child; ch >= 0; ch = t->ev[ch].sibling)
			if (t->ev[ch].flags & TL_F_GRAPH)
				break;
		if (ch < 0)
			continue;
		tl_grow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = (int)i;
	}
	sort_t = t;
	if (*n > 0)
		qsort(v, *n, sizeof(*v), cmp_start);
	return v;
}

void
tl_capture_count(const struct tl_trace *t, struct tl_capture_stats *st)
{
	struct merge m;
	int *l;
	size_t nl, i, k, n;

	memset(st, 0, sizeof(*st));
	memset(&m, 0, sizeof(m));
	l = launches(t, &nl);
	for (i = 0; i < nl; i++) {
		n = launch_gpu(&m, t, l[i]);
		st->launches++;
		st->gpu += (long)n;
		for (k = 0; k < n; k++)
			st->gpu_ns += t->ev[m.gpu[k]].dur;
	}
	free(m.gpu);
	free(l);
}

/*
 * The captured graph for the n GPU events in m->gpu, its pairing in
 * m->best; -1 for none.  Only graphs of batch size batch when it is not
 * -1.
 */
static long
choose(struct merge *m, size_t n, long prev, long batch)
{
	long best = -1, bestskip = -1, skip;
	size_t k;

	/*
	 * The graph after the previous one, else (or when that one leaves
	 * calls over) the one that leaves the fewest.
	 */
	if (prev >= 0 && (size_t)prev + 1 < m->ng &&
	    m->g[prev + 1].c == m->g[prev].c &&
	    (batch < 0 || m->g[prev + 1].batch == batch) &&
	    (skip = align(m, &m->g[prev + 1], m->gpu, n, m->best)) >= 0) {
		best = prev + 1;
		bestskip = skip;
	}
	for (k = 0; k < m->ng && (best < 0 || bestskip > 0); k++) {
		if ((batch >= 0 && m->g[k].batch != batch) ||
		    (skip = align(m, &m->g[k], m->gpu, n, m->pair)) < 0 ||
		    (best >= 0 && skip >= bestskip))
			continue;
		best = (long)k;
		bestskip = skip;
		memcpy(m->best, m->pair, n * sizeof(*m->best));
	}
	return best;
}

/*
 * The batch size of the graphs for launch li: the smallest batch size of
 * a capture trace at least the token count (c_sq + g_sq) of the serving
 * step around the launch, as TraceLens picks it; -1 when either is not
 * known.
 */
static long
batch_for(const struct merge *m, const struct tl_steps *s, int li)
{
	long st = tl_step_of(m->t, s, li), best = -1;
	int64_t tokens;
	size_t k;

	if (st < 0)
		return -1;
	tokens = s->v[st][0] + s->v[st][4];
	for (k = 0; k < m->ng; k++)
		if (m->g[k].batch >= tokens &&
		    (best < 0 || m->g[k].batch < best))
			best = m->g[k].batch;
	return best;
}

void
tl_capture_merge(struct tl_trace *t, struct tl_trace *const *cap,
    const long *batch, size_t ncap, struct tl_capture_stats *st)
{
	struct tl_steps steps;
	struct merge m;
	size_t nl, i, k, maxev = 0;
	int *l;
	long prev = -1;

	tl_capture_count(t, st);
	memset(&m, 0, sizeof(m));
	m.t = t;
	m.nextuid = (uint32_t)t->nevents;
	for (i = 0; i < ncap; i++) {
		find_graphs(&m, cap[i], batch != NULL ? batch[i] : -1);
		if (cap[i]->nev > maxev)
			maxev = cap[i]->nev;
	}
	st->graphs = (long)m.ng;
	m.mark = tl_calloc(maxev + 1, sizeof(*m.mark));
	m.newix = tl_calloc(maxev + 1, sizeof(*m.newix));
	m.capmark = maxev + 1;
	tl_steps_find(t, &steps);
	l = launches(t, &nl);
	for (i = 0; i < nl; i++) {
		size_t n = launch_gpu(&m, t, l[i]);
		long best, b;

		if (n == 0)
			continue;
		tl_grow(&m.pair, &m.cappair, n, sizeof(*m.pair));
		tl_grow(&m.best, &m.capbest, n, sizeof(*m.best));
		if ((b = batch_for(&m, &steps, l[i])) < 0 ||
		    (best = choose(&m, n, prev, b)) < 0)
			best = choose(&m, n, prev, -1);
		if (best < 0)
			continue;
		graft(&m, &m.g[best], l[i], m.gpu, n, m.best);
		prev = best;
		st->matched++;
		st->attributed += (long)n;
		for (k = 0; k < n; k++)
			st->attributed_ns += t->ev[m.gpu[k]].dur;
	}
	tl_steps_free(&steps);
	free(l);
	for (i = 0; i < m.ng; i++) {
		free(m.g[i].call);
		free(m.g[i].py);
	}
	free(m.g);
	free(m.gpu);
	free(m.pair);
	free(m.best);
	free(m.mark);
	free(m.newix);
	tl_tree_sparse(t);	/* the events copied in */
}
