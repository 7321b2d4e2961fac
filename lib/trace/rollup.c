/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/interval.h"
#include "common/util.h"
#include "stream/optable.h"
#include "trace/kernclass.h"
#include "trace/rollup.h"
#include "trace/tree.h"

#define LEAF_DEPTH 10		/* levels of runtime calls searched under an op */
#define BWD_WALK 5		/* ancestors searched for an autograd node */

/*
 * The op table's entry of each op name (by id in t->str), looked up once
 * a name: a lookup hashes the name and, for names the table lacks, tries
 * every prefix pattern, and an op's info is asked for by its rows, its
 * parents and its backward wrappers.
 */
struct infos {
	const struct tl_trace *t;
	const struct tl_opinfo **v;	/* &not_yet: not looked up */
	size_t n;
};

static const struct tl_opinfo not_yet;

static void
infos_init(struct infos *m, const struct tl_trace *t)
{
	size_t i;

	m->t = t;
	m->n = tl_strtab_count(t->str);
	m->v = tl_malloc((m->n + 1) * sizeof(*m->v));
	for (i = 0; i < m->n; i++)
		m->v[i] = &not_yet;
}

/* The op table's entry of the name of event i, or NULL. */
static const struct tl_opinfo *
info(struct infos *m, int i)
{
	uint32_t name = m->t->ev[i].name;

	if (name >= m->n)
		return tl_optable_find(tl_ev_name(m->t, &m->t->ev[i]));
	if (m->v[name] == &not_yet)
		m->v[name] = tl_optable_find(tl_ev_name(m->t, &m->t->ev[i]));
	return m->v[name];
}

struct ctx {
	const struct tl_trace *t;
	struct tl_rows *rows;
	struct infos infos;
	uint8_t *covered;	/* bit set: GPU event already in a row */
	uint8_t *model_below;	/* bit set: a cpu_op strictly below has a
				   model and GPU work */
	int *stack;		/* collect()'s */
	size_t cap;
	int *walk;		/* visit()'s: the next child at each level */
	size_t capwalk;
};

static int
bit(const uint8_t *set, int i)
{
	return set[i >> 3] >> (i & 7) & 1;
}

static void
set_bit(uint8_t *set, int i)
{
	set[i >> 3] |= (uint8_t)(1 << (i & 7));
}

static int
work(const struct tl_event *e)
{
	return (e->flags & TL_F_WORK) != 0;
}

static int
has_model(struct infos *m, int i)
{
	const struct tl_opinfo *o = info(m, i);

	return o != NULL && o->model[0] != '\0';
}

static const struct tl_trace *sort_t;

static int
cmp_gpu_ts(const void *a, const void *b)
{
	const struct tl_event *x = &sort_t->ev[*(const int *)a];
	const struct tl_event *y = &sort_t->ev[*(const int *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static void
finish_row(const struct tl_trace *t, struct tl_rows *rows, struct tl_row *r)
{
	struct tl_ival *iv = tl_malloc((size_t)(r->ngpu + 1) * sizeof(*iv));
	int *g = rows->gpu + r->first;
	int k;

	sort_t = t;
	if (r->ngpu > 0)
		qsort(g, (size_t)r->ngpu, sizeof(*g), cmp_gpu_ts);
	for (k = 0; k < r->ngpu; k++) {
		iv[k].start = t->ev[g[k]].ts;
		iv[k].end = iv[k].start + t->ev[g[k]].dur;
	}
	r->busy = tl_busy(iv, (size_t)r->ngpu);
	free(iv);
}

int
tl_forward_of(const struct tl_trace *t, int i)
{
	for (; i >= 0; i = t->ev[i].parent)
		if (t->ev[i].fwd >= 0)
			return t->ev[i].fwd;
	return -1;
}

static int
in_backward(const struct tl_trace *t, int i)
{
	for (; i >= 0; i = t->ev[i].parent)
		if (tl_is_autograd_fn(tl_ev_name(t, &t->ev[i])))
			return 1;
	return 0;
}

static void
label(struct infos *m, const struct tl_rows *rows, struct tl_row *r)
{
	const struct tl_trace *t = m->t;
	const struct tl_opinfo *o = r->name != NULL ?
	    tl_optable_find(r->name) : info(m, r->op), *fo;
	const int *g = tl_row_gpu(rows, r);
	const char *k = r->ngpu > 0 ? tl_ev_name(t, &t->ev[g[0]]) : NULL;
	int all_copy = r->ngpu > 0, i;

	for (i = 0; i < r->ngpu; i++)
		if (!(t->ev[g[i]].flags & TL_F_MEMCPY_CLASS))
			all_copy = 0;
	if (r->kind == TL_ROW_COMM)
		r->category = "comm";
	else if (r->kind == TL_ROW_GRAPH)
		r->category = tl_kernel_info(t->ev[g[0]].kind, k)->category;
	else if (r->kind == TL_ROW_BWD && r->fwd >= 0 &&
	    (fo = info(m, r->fwd)) != NULL)
		r->category = fo->category;
	else if (o == NULL && all_copy)
		r->category = "memcpy";
	else
		r->category = tl_categorize_info(o, k);
	r->bwd = r->kind == TL_ROW_BWD ||
	    (o != NULL && strcmp(o->direction, "bwd") == 0) ||
	    in_backward(t, r->op);
}

static struct tl_row *
new_row(struct tl_rows *rows, int op, int kind)
{
	struct tl_row *r;

	tl_grow_ahead(&rows->v, &rows->cap, rows->n + 1, sizeof(*rows->v),
	    &rows->ahead);
	r = &rows->v[rows->n++];
	memset(r, 0, sizeof(*r));
	r->op = op;
	r->kind = (uint8_t)kind;
	r->fwd = -1;
	r->first = (uint32_t)rows->ngpu;
	return r;
}

/*
 * Give the rows from index `from` on, whose ngpu are counted, their room
 * in rows->gpu; their ngpu restart at 0, for add_gpu to fill.
 */
static void
place_rows(struct tl_rows *rows, size_t from)
{
	size_t i;

	for (i = from; i < rows->n; i++) {
		rows->v[i].first = (uint32_t)rows->ngpu;
		rows->ngpu += (size_t)rows->v[i].ngpu;
		rows->v[i].ngpu = 0;
	}
	tl_grow(&rows->gpu, &rows->capgpu, rows->ngpu + 1,
	    sizeof(*rows->gpu));
}

static void
add_gpu(struct tl_rows *rows, struct tl_row *r, int g)
{
	rows->gpu[r->first + (uint32_t)r->ngpu++] = g;
}

/* The row of op in the map (op -> row index), made if new. */
static struct tl_row *
keyed_row(struct tl_rows *rows, struct tl_map *m, int op, int kind)
{
	int64_t *k;

	if ((k = tl_map_get(m, 0, (uint64_t)op)) != NULL)
		return &rows->v[*k];
	tl_map_put(m, 0, (uint64_t)op, (int64_t)rows->n);
	return new_row(rows, op, kind);
}

/* Collect every non-collective GPU event below op into a new row. */
static void
collect(struct ctx *c, int op, int kind, int fwd)
{
	const struct tl_trace *t = c->t;
	struct tl_rows *rows = c->rows;
	struct tl_row *r = new_row(rows, op, kind);
	size_t sp = 0;
	int i;

	r->fwd = fwd;
	tl_grow(&c->stack, &c->cap, 1, sizeof(*c->stack));
	c->stack[sp++] = op;
	while (sp > 0) {
		i = c->stack[--sp];
		for (int ch = t->ev[i].child; ch >= 0; ch = t->ev[ch].sibling) {
			const struct tl_event *e = &t->ev[ch];

			if (TL_IS_GPU(e->kind)) {
				if (!(e->flags & TL_F_COMM) &&
				    !bit(c->covered, ch)) {
					set_bit(c->covered, ch);
					tl_grow(&rows->gpu, &rows->capgpu,
					    rows->ngpu + (size_t)r->ngpu + 1,
					    sizeof(*rows->gpu));
					add_gpu(rows, r, ch);
				}
			} else if (e->flags & TL_F_GPU_BELOW) {
				tl_grow(&c->stack, &c->cap, sp + 1,
				    sizeof(*c->stack));
				c->stack[sp++] = ch;
			}
		}
	}
	if (r->ngpu == 0) {
		rows->n--;
		return;
	}
	rows->ngpu += (size_t)r->ngpu;
	finish_row(t, rows, r);
	label(&c->infos, rows, r);
}

/* A leaf launcher: a GPU event reachable through runtime calls only. */
static int
is_leaf_launcher(const struct tl_trace *t, int op, int depth)
{
	int ch;

	if (depth > LEAF_DEPTH)
		return 0;
	for (ch = t->ev[op].child; ch >= 0; ch = t->ev[ch].sibling) {
		const struct tl_event *e = &t->ev[ch];

		if (TL_IS_GPU(e->kind) && depth > 0 && !(e->flags & TL_F_COMM))
			return 1;
		if (e->kind == TL_EV_RUNTIME && is_leaf_launcher(t, ch,
		    depth + 1))
			return 1;
	}
	return 0;
}

/*
 * The cpu_ops with work named name strictly below i, counted up to 2
 * (the caller asks only whether there is exactly one).  A walk with a
 * stack of its own: the input decides how deep the tree is.
 */
static int
count_named(const struct tl_trace *t, int i, const char *name)
{
	int *st = NULL, n = 0;
	size_t sp = 0, cap = 0;

	tl_grow(&st, &cap, 1, sizeof(*st));
	st[sp++] = t->ev[i].child;
	while (sp > 0 && n < 2) {
		int ch = st[sp - 1];
		const struct tl_event *e;

		if (ch < 0) {
			sp--;
			continue;
		}
		e = &t->ev[ch];
		st[sp - 1] = e->sibling;
		if (e->kind != TL_EV_CPU_OP)
			continue;
		if (work(e) > 0 && strcmp(tl_ev_name(t, e), name) == 0)
			n++;
		tl_grow(&st, &cap, sp + 1, sizeof(*st));
		st[sp++] = e->child;
	}
	free(st);
	return n;
}

/* The forward op of a backward wrapper, or -1. */
static int
sole_backward(struct infos *m, int op)
{
	const struct tl_trace *t = m->t;
	const struct tl_opinfo *o;
	const char *name, *p;
	int a = op, k;

	for (k = 0; k <= BWD_WALK && a >= 0; k++, a = t->ev[a].parent)
		if (t->ev[a].fwd >= 0)
			break;
	if (a < 0 || k > BWD_WALK || t->ev[a].fwd < 0)
		return -1;
	o = info(m, t->ev[a].fwd);
	if (o == NULL || o->model[0] == '\0' || !o->bwd_model)
		return -1;
	name = tl_ev_name(t, &t->ev[a]);
	if ((p = strstr(name, ": ")) == NULL)
		return -1;
	if (count_named(t, a, p + 2) != 1)
		return -1;
	return t->ev[a].fwd;
}

/* TraceLens' pseudo-ops: kernels an op launches itself, split off. */
static const struct pseudo {
	const char *op;
	const char *kernel;	/* a part of the kernel's name, any case */
	const char *first;	/* the name of the first such kernel's row */
	const char *rest;	/* and of the others' */
} pseudos[] = {
	{ "vllm::moe_forward", "matmul_ogs",
	    "pseudo_op::moe_triton_unfused_up",
	    "pseudo_op::moe_triton_unfused_down" },
	{ "vllm::moe_forward", "matmul_scatter",
	    "pseudo_op::moe_triton_unfused_finalize_matmul_scatter",
	    "pseudo_op::moe_triton_unfused_finalize_matmul_scatter" },
};

/* Append the GPU events op launches through runtime calls only. */
static void
direct(const struct tl_trace *t, int op, int depth, int **v, size_t *n,
    size_t *cap)
{
	int ch;

	if (depth > LEAF_DEPTH)
		return;
	for (ch = t->ev[op].child; ch >= 0; ch = t->ev[ch].sibling) {
		const struct tl_event *e = &t->ev[ch];

		if (TL_IS_GPU(e->kind) && depth > 0 &&
		    !(e->flags & TL_F_COMM)) {
			tl_grow(v, cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = ch;
		} else if (e->kind == TL_EV_RUNTIME)
			direct(t, ch, depth + 1, v, n, cap);
	}
}

/* Make op's pseudo-op rows; 1 if it has any. */
static int
split(struct ctx *c, int op)
{
	const struct tl_trace *t = c->t;
	const char *name = tl_ev_name(t, &t->ev[op]);
	struct tl_rows *rows = c->rows;
	int *g = NULL, made = 0;
	size_t n = 0, cap = 0, i, k, seen[sizeof(pseudos) / sizeof(pseudos[0])];

	for (k = 0; k < sizeof(pseudos) / sizeof(pseudos[0]); k++)
		if (strcmp(pseudos[k].op, name) == 0)
			break;
	if (k == sizeof(pseudos) / sizeof(pseudos[0]))
		return 0;
	direct(t, op, 0, &g, &n, &cap);
	sort_t = t;
	if (n > 0)
		qsort(g, n, sizeof(*g), cmp_gpu_ts);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++) {
		const char *kn = tl_ev_name(t, &t->ev[g[i]]);
		struct tl_row *r;

		for (k = 0; k < sizeof(pseudos) / sizeof(pseudos[0]); k++)
			if (strcmp(pseudos[k].op, name) == 0 &&
			    tl_contains_ci(kn, pseudos[k].kernel))
				break;
		if (k == sizeof(pseudos) / sizeof(pseudos[0]) ||
		    bit(c->covered, g[i]))
			continue;
		r = new_row(rows, op, TL_ROW_PSEUDO);
		r->name = seen[k]++ == 0 ? pseudos[k].first : pseudos[k].rest;
		tl_grow(&rows->gpu, &rows->capgpu, rows->ngpu + 1,
		    sizeof(*rows->gpu));
		set_bit(c->covered, g[i]);
		add_gpu(rows, r, g[i]);
		rows->ngpu++;
		finish_row(t, rows, r);
		label(&c->infos, rows, r);
		made = 1;
	}
	free(g);
	return made;
}

/*
 * Op's rows: 1 if the walk goes on into its children.  Pre-order, the
 * children in sibling order.
 */
static int
visit_one(struct ctx *c, int op)
{
	const struct tl_trace *t = c->t;
	const struct tl_event *e = &t->ev[op];
	int fwd;

	if (e->kind != TL_EV_CPU_OP || work(e) == 0)
		return 0;
	if (split(c, op))
		return 1;
	if (has_model(&c->infos, op)) {
		collect(c, op, TL_ROW_MODEL, -1);
		return 0;
	}
	if ((fwd = sole_backward(&c->infos, op)) >= 0 && !bit(c->model_below, op)) {
		collect(c, op, TL_ROW_BWD, fwd);
		return 0;
	}
	if (!bit(c->model_below, op) && is_leaf_launcher(t, op, 0)) {
		collect(c, op, TL_ROW_LEAF, -1);
		return 0;
	}
	return 1;
}

/*
 * The rows of op's tree, without recursion (a trace may nest ops a
 * million deep): c->walk holds, per level, the next child to visit.
 */
static void
visit(struct ctx *c, int op)
{
	const struct tl_trace *t = c->t;
	size_t sp = 0;

	if (!visit_one(c, op))
		return;
	tl_grow(&c->walk, &c->capwalk, 1, sizeof(*c->walk));
	c->walk[sp++] = t->ev[op].child;
	while (sp > 0) {
		int ch = c->walk[sp - 1];

		if (ch < 0) {
			sp--;
			continue;
		}
		c->walk[sp - 1] = t->ev[ch].sibling;
		if (visit_one(c, ch)) {
			tl_grow(&c->walk, &c->capwalk, sp + 1,
			    sizeof(*c->walk));
			c->walk[sp++] = t->ev[ch].child;
		}
	}
}

/*
 * A row's sort key: by its op's start, then the op's place in the trace,
 * then the row without GPU events first, else by its first GPU event's
 * place; then where the row was (the sort keeps the order of equals).
 * The keys are sorted, not the rows: no comparison looks up an event.
 */
struct rowkey {
	int64_t ts;
	uint64_t g;		/* the first GPU event's uid + 1, 0: none */
	uint32_t uid;
	int32_t at;
};

static int
cmp_rowkey(const void *a, const void *b)
{
	const struct rowkey *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static void
sort_rows(const struct tl_trace *t, struct tl_rows *rows)
{
	struct rowkey *k = tl_malloc((rows->n + 1) * sizeof(*k));
	size_t i, j, src;
	int sorted = 1;

	for (i = 0; i < rows->n; i++) {
		const struct tl_row *r = &rows->v[i];

		k[i].ts = t->ev[r->op].ts;
		k[i].uid = t->ev[r->op].uid;
		k[i].g = r->ngpu > 0 ?
		    (uint64_t)t->ev[tl_row_gpu(rows, r)[0]].uid + 1 : 0;
		k[i].at = (int32_t)i;
		if (i > 0 && cmp_rowkey(&k[i - 1], &k[i]) > 0)
			sorted = 0;
	}
	if (!sorted) {
		qsort(k, rows->n, sizeof(*k), cmp_rowkey);
		/* Row j gets row k[j].at: each cycle of moves once. */
		for (i = 0; i < rows->n; i++) {
			struct tl_row tmp;

			if (k[i].at < 0 || (size_t)k[i].at == i)
				continue;
			tmp = rows->v[i];
			for (j = i; (src = (size_t)k[j].at) != i; j = src) {
				rows->v[j] = rows->v[src];
				k[j].at = -1;
			}
			rows->v[j] = tmp;
			k[j].at = -1;
		}
	}
	free(k);
	rows->total_busy = 0;
	for (i = 0; i < rows->n; i++)
		rows->total_busy += rows->v[i].busy;
}

/* Keep the rows whose op starts in the window (all of a row's kernels). */
static void
keep_window(const struct tl_trace *t, const struct tl_window *w,
    struct tl_rows *rows)
{
	size_t i, o = 0;

	for (i = 0; i < rows->n; i++)
		if (tl_in_window(t, w, rows->v[i].op))
			rows->v[o++] = rows->v[i];
	rows->n = o;
}

/*
 * A GPU event a graph launch replays that no captured op took: the row of
 * its launch and kernel family, named "LAUNCH: FAMILY".
 */
static struct tl_row *
graph_row(const struct tl_trace *t, struct tl_rows *rows, struct tl_map *m,
    int g)
{
	const struct tl_event *e = &t->ev[g];
	const struct tl_kerninfo *ki = tl_kernel_info(e->kind,
	    tl_ev_name(t, e));
	int64_t *k;
	struct tl_row *r;
	char buf[256];
	uint32_t id;

	snprintf(buf, sizeof(buf), "%s: %s", tl_ev_name(t, &t->ev[e->parent]),
	    ki->family);
	if (rows->names == NULL)
		rows->names = tl_strtab_new();
	id = tl_intern(rows->names, buf, strlen(buf));
	if ((k = tl_map_get(m, (uint64_t)e->parent, id)) != NULL)
		return &rows->v[*k];
	tl_map_put(m, (uint64_t)e->parent, id, (int64_t)rows->n);
	r = new_row(rows, e->parent, TL_ROW_GRAPH);
	r->name = tl_str(rows->names, id);
	return r;
}

/* The op a leftover kernel belongs to: nearest cpu_op, else its launch. */
static int
owner(const struct tl_trace *t, int g)
{
	int p = tl_tree_cpu_ancestor(t, g);

	return p >= 0 ? p : t->ev[g].parent;
}

void
tl_rollup(const struct tl_trace *t, const struct tl_window *w,
    struct tl_rows *rows)
{
	struct ctx c;
	struct tl_map comm, graph;
	size_t i, k, left, nroot = 0, nleft = 0, cap = 0, nsp;
	int32_t *list = NULL;	/* the roots, then the leftovers */
	const int32_t *sp = tl_ev_sparse(t, &nsp);
	int pass;

	memset(&c, 0, sizeof(c));
	memset(rows, 0, sizeof(*rows));
	c.t = t;
	c.rows = rows;
	c.covered = tl_calloc(t->nev / 8 + 1, 1);
	c.model_below = tl_calloc(t->nev / 8 + 1, 1);
	infos_init(&c.infos, t);
	for (i = 0; i < t->nev; i++) {
		int a;

		if (t->ev[i].flags & TL_F_ROOT) {	/* visited below */
			tl_grow(&list, &cap, nroot + 1, sizeof(*list));
			list[nroot++] = (int32_t)i;
		}
		if (t->ev[i].kind != TL_EV_CPU_OP || work(&t->ev[i]) == 0 ||
		    !has_model(&c.infos, (int)i))
			continue;
		for (a = t->ev[i].parent; a >= 0 && !bit(c.model_below, a);
		    a = t->ev[a].parent)
			set_bit(c.model_below, a);
	}
	for (i = 0; i < nroot; i++)
		visit(&c, list[i]);
	/*
	 * Leftovers, one row each; collectives grouped by op.  The rows are
	 * made and counted in a first pass and filled in a second, so that
	 * each row's GPU events lie together in rows->gpu.  The first pass
	 * lists them for the second.
	 */
	tl_map_init(&comm);
	tl_map_init(&graph);
	left = rows->n;
	for (pass = 0; pass < 2; pass++) {
		size_t synth = left;	/* pass 1: the next synthetic row */

		for (k = 0; pass == 0 ? k < nsp : k < nleft; k++) {
			const struct tl_event *e;
			struct tl_row *r;

			i = pass == 1 ? (size_t)list[k] : sp != NULL ?
			    (size_t)sp[k] : k;
			e = &t->ev[i];

			if (pass == 0) {
				if (!TL_IS_GPU(e->kind) ||
				    !(e->flags & TL_F_TREE) ||
				    bit(c.covered, (int)i))
					continue;
				tl_grow(&list, &cap, nleft + 1,
				    sizeof(*list));
				list[nleft++] = (int32_t)i;
			}
			if (e->flags & TL_F_COMM)
				r = keyed_row(rows, &comm, owner(t, (int)i),
				    TL_ROW_COMM);
			else if ((e->flags & TL_F_GRAPH) &&
			    (t->ev[e->parent].kind == TL_EV_RUNTIME ||
			    t->ev[e->parent].kind == TL_EV_DRIVER))
				r = graph_row(t, rows, &graph, (int)i);
			else if (pass == 0)
				r = new_row(rows, owner(t, (int)i),
				    TL_ROW_SYNTH);
			else {
				while (rows->v[synth].kind != TL_ROW_SYNTH)
					synth++;
				r = &rows->v[synth++];
			}
			if (pass == 0)
				r->ngpu++;
			else
				add_gpu(rows, r, (int)i);
		}
		if (pass == 0)
			place_rows(rows, left);
	}
	keep_window(t, w, rows);
	for (i = 0; i < rows->n; i++)
		if (rows->v[i].kind == TL_ROW_COMM ||
		    rows->v[i].kind == TL_ROW_SYNTH ||
		    rows->v[i].kind == TL_ROW_GRAPH) {
			finish_row(t, rows, &rows->v[i]);
			label(&c.infos, rows, &rows->v[i]);
		}
	tl_map_free(&comm);
	tl_map_free(&graph);
	free(list);
	free(c.covered);
	free(c.model_below);
	free(c.stack);
	free(c.walk);
	free(c.infos.v);
	sort_rows(t, rows);
}

/* The op that launched GPU event g, skipping "execute" wrappers. */
static int
launcher_of(const struct tl_trace *t, int g)
{
	int r = t->ev[g].parent, a;

	for (a = t->ev[r].parent; a >= 0; a = t->ev[a].parent) {
		const struct tl_event *e = &t->ev[a];

		if (e->kind != TL_EV_CPU_OP)
			return r;
		if (strcmp(tl_ev_name(t, e), "execute") != 0)
			return a;
	}
	return r;
}

int64_t
tl_subtree_busy(const struct tl_trace *t, int op)
{
	struct tl_ivals iv = {0};
	int *stack = NULL;
	size_t sp = 0, cap = 0;
	int64_t busy;

	tl_grow(&stack, &cap, 1, sizeof(*stack));
	stack[sp++] = op;
	while (sp > 0) {
		int i = stack[--sp];

		for (int ch = t->ev[i].child; ch >= 0; ch = t->ev[ch].sibling) {
			if (TL_IS_GPU(t->ev[ch].kind))
				tl_ivals_add(&iv, t->ev[ch].ts,
				    t->ev[ch].ts + t->ev[ch].dur);
			else if (t->ev[ch].flags & TL_F_GPU_BELOW) {
				tl_grow(&stack, &cap, sp + 1, sizeof(*stack));
				stack[sp++] = ch;
			}
		}
	}
	tl_ivals_merge(&iv);
	busy = tl_ivals_length(&iv);
	tl_ivals_free(&iv);
	free(stack);
	return busy;
}

void
tl_launchers(const struct tl_trace *t, const struct tl_window *w,
    struct tl_rows *rows)
{
	struct tl_map seen;
	struct infos infos;
	size_t i, k, nsp;
	const int32_t *sp = tl_ev_sparse(t, &nsp);
	int pass;

	memset(rows, 0, sizeof(*rows));
	tl_map_init(&seen);
	infos_init(&infos, t);
	/* Rows made and counted, then filled (as tl_rollup's leftovers). */
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < nsp; k++) {
			const struct tl_event *e;
			struct tl_row *r;

			i = sp != NULL ? (size_t)sp[k] : k;
			e = &t->ev[i];

			if (!TL_IS_GPU(e->kind) || !(e->flags & TL_F_TREE) ||
			    (e->flags & TL_F_COMM))
				continue;
			r = keyed_row(rows, &seen, launcher_of(t, (int)i),
			    TL_ROW_LAUNCHER);
			if (pass == 0)
				r->ngpu++;
			else
				add_gpu(rows, r, (int)i);
		}
		if (pass == 0)
			place_rows(rows, 0);
	}
	keep_window(t, w, rows);
	for (i = 0; i < rows->n; i++) {
		finish_row(t, rows, &rows->v[i]);
		label(&infos, rows, &rows->v[i]);
	}
	tl_map_free(&seen);
	free(infos.v);
	sort_rows(t, rows);
}

void
tl_rows_free(struct tl_rows *rows)
{
	tl_ahead_free(&rows->v, &rows->ahead);
	free(rows->gpu);
	tl_strtab_free(rows->names);
	memset(rows, 0, sizeof(*rows));
}

const char *
tl_rowkind_name(int kind)
{
	static const char *const names[] = {
		"model", "leaf", "backward", "synthetic", "comm", "launcher",
		"pseudo", "graph"
	};

	return names[kind];
}
