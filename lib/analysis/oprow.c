/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/oprow.h"
#include "common/util.h"
#include "model/dtype.h"

#define NARGS (int)(sizeof(((struct tl_opctx *)0)->a_op) / sizeof(int))

void
tl_opctx_init(struct tl_opctx *c, struct tl_findings *f)
{
	int k;

	memset(c, 0, sizeof(*c));
	c->f = f;
	for (k = 0; k < NARGS; k++) {
		tl_opargs_init(&c->a[k]);
		c->a_op[k] = -1;
	}
}

void
tl_opctx_free(struct tl_opctx *c)
{
	tl_json_free(&c->j);
	free(c->j_text);
	int k;

	for (k = 0; k < NARGS; k++)
		tl_opargs_free(&c->a[k]);
	free(c->numel);
	c->numel = NULL;
	c->nnumel = 0;
	free(c->elsize);
	c->elsize = NULL;
	c->nelsize = 0;
}

/* Copy s[0..n) into buf, cut to its size. */
static const char *
copy_cut(char *buf, size_t size, const char *s, size_t n)
{
	if (size == 0)
		return buf;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* The class of one path component s[0..n): without a trailing "_N". */
static size_t
class_len(const char *s, size_t n)
{
	size_t k = n;

	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (k > 0 && k < n && s[k - 1] == '_')
		return k - 1;
	return n;
}

const char *
tl_mod_class(const char *path, char *buf, size_t n)
{
	const char *s = strrchr(path, '/');

	s = s != NULL ? s + 1 : path;
	return copy_cut(buf, n, s, class_len(s, strlen(s)));
}

int
tl_mod_below(const char *path, const char *outer)
{
	size_t n = strlen(outer);

	return n > 0 && strncmp(path, outer, n) == 0 && path[n] == '/';
}

const char *
tl_mod_model(const char *path, char *buf, size_t n)
{
	/* Wrappers around a model that say nothing about it. */
	static const char *const wrap[] = {
		"DistributedDataParallel", "DataParallel",
		"FullyShardedDataParallel", "OptimizedModule",
		"CheckpointWrapper", "GraphModule", NULL
	};
	const char *s = path, *e;
	size_t len;
	int k;

	for (;;) {
		e = strchr(s, '/');
		len = class_len(s, e != NULL ? (size_t)(e - s) : strlen(s));
		for (k = 0; wrap[k] != NULL; k++)
			if (strlen(wrap[k]) == len &&
			    strncmp(s, wrap[k], len) == 0)
				break;
		if (wrap[k] == NULL)
			return copy_cut(buf, n, s, len);
		if (e == NULL || e[1] == '\0')
			return copy_cut(buf, n, "", 0);	/* only a wrapper */
		s = e + 1;
	}
}

int
tl_op_param(struct tl_opctx *c, const struct tl_fop *op, const char *key,
    int64_t *v)
{
	return tl_op_param_at(c, op, key, -1, v);
}

int
tl_op_param_at(struct tl_opctx *c, const struct tl_fop *op, const char *key,
    int idx, int64_t *v)
{
	const char *err, *txt;
	size_t len;
	int t, i;

	if (op->params[0] == '\0')
		return 0;
	/* The analyses ask an op for several keys in a row: parse it once. */
	if (c->j_text == NULL || strcmp(c->j_text, op->params) != 0) {
		free(c->j_text);
		c->j_text = tl_strdup(op->params);
		c->j_ok = tl_json_parse(&c->j, c->j_text, strlen(c->j_text),
		    &err) >= 1 && tl_json_type(&c->j, 0) == TL_J_OBJECT;
	}
	if (!c->j_ok || (t = tl_json_get(&c->j, 0, key, strlen(key))) < 0)
		return 0;
	if (idx >= 0) {
		if (tl_json_type(&c->j, t) != TL_J_ARRAY ||
		    idx >= tl_json_size(&c->j, t))
			return 0;
		for (t++, i = 0; i < idx; i++)
			t = tl_json_next(&c->j, t);
	}
	if (tl_json_type(&c->j, t) != TL_J_PRIM)
		return 0;
	txt = tl_json_text(&c->j, t, &len);
	return tl_parse_i64(txt, len, v) == 0;
}

/* The arguments of signature op, parsed once while kept; NULL on error. */
static const struct tl_opargs *
args_of(struct tl_opctx *c, int op)
{
	const struct tl_fop *o = &c->f->op[op];
	const char *err;
	int k;

	for (k = 0; k < NARGS; k++)
		if (c->a_op[k] == op)
			return &c->a[k];
	k = (int)(c->a_next++ % NARGS);
	c->a_op[k] = -1;
	if (tl_opargs_parse(&c->a[k], o->name, o->dims, o->types, o->strides,
	    o->concrete, &err) < 0)
		return NULL;
	c->a_op[k] = op;
	return &c->a[k];
}

const struct tl_arg *
tl_op_arg(struct tl_opctx *c, int op, int i)
{
	static const struct tl_opargs none;
	const struct tl_opargs *a = args_of(c, op);

	return tl_oparg(a != NULL ? a : &none, a != NULL ? i : 0);
}

static int64_t
op_numel(struct tl_opctx *c, int op, int i)
{
	const struct tl_opargs *args = args_of(c, op);
	const struct tl_arg *a;
	int64_t best = -1, n;
	int k;

	if (args == NULL)
		return -1;
	if (i >= 0) {
		a = tl_oparg(args, i);
		return a->kind == TL_ARG_SHAPE ? tl_arg_numel(a) : -1;
	}
	for (k = 0; k < args->n; k++) {
		a = tl_oparg(args, k);
		if (a->kind == TL_ARG_SHAPE && tl_arg_maybe_tensor(a) &&
		    (n = tl_arg_numel(a)) > best)
			best = n;
	}
	return best;
}

int64_t
tl_op_numel(struct tl_opctx *c, int op, int i)
{
	size_t at = 2 * (size_t)op + (size_t)(1 + i), old = c->nnumel, k;

	if (i < -1 || i > 0)	/* other slots: not kept */
		return op_numel(c, op, i);
	if (at >= c->nnumel) {
		tl_grow(&c->numel, &c->nnumel, at + 1, sizeof(*c->numel));
		for (k = old; k < c->nnumel; k++)
			c->numel[k] = INT64_MIN;
	}
	if (c->numel[at] == INT64_MIN)
		c->numel[at] = op_numel(c, op, i);
	return c->numel[at];
}

static int
op_elsize(struct tl_opctx *c, int op, int i)
{
	const struct tl_opargs *args = args_of(c, op);

	if (args == NULL)
		return 0;
	return tl_dtype_bytes(tl_oparg(args, i)->type);
}

int
tl_op_elsize(struct tl_opctx *c, int op, int i)
{
	size_t at = 2 * (size_t)op + (size_t)i;

	if (i < 0 || i > 1)	/* other slots: not kept */
		return op_elsize(c, op, i);
	if (at >= c->nelsize)
		tl_grow_set(&c->elsize, &c->nelsize, at + 1,
		    sizeof(*c->elsize), -1);
	if (c->elsize[at] < 0)
		c->elsize[at] = op_elsize(c, op, i);
	return c->elsize[at];
}

int64_t
tl_op_save_at(const struct tl_fop *op, double pct)
{
	double at, left;

	if (!op->has_eff || pct <= 0)
		return -1;
	/* Instances above their peak roof take no part. */
	at = op->roofline_us * 1e3 / (pct / 100);
	left = (double)(op->time_ns - op->claimed_ns - op->peak_ns) - at;
	return left > 0 ? (int64_t)(left + 0.5) : 0;
}

int
tl_op_targets(const struct tl_fop *op, double t[3])
{
	static const double proj[3] = { 20, 50, 80 };
	int64_t left = op->time_ns - op->claimed_ns - op->peak_ns;
	double e;
	int k, n = 0;

	if (!op->has_eff || left <= 0)
		return 0;
	e = op->roofline_us * 1e3 / (double)left * 100;
	for (k = 0; k < 3; k++)
		if (proj[k] > e)
			t[n++] = proj[k];
	return n;
}

int
tl_name_in(const char *name, const char *const *names)
{
	int k;

	for (k = 0; names[k] != NULL; k++)
		if (strcmp(name, names[k]) == 0)
			return 1;
	return 0;
}

int
tl_row_at(const struct tl_findings *f, int p)
{
	return p >= 0 && p < f->nrow ? f->order[p] : -1;
}

int
tl_row_same_thread(const struct tl_findings *f, int a, int b)
{
	return f->row[a].tr == f->row[b].tr &&
	    f->row[a].thread == f->row[b].thread;
}

void
tl_patgroup_init(struct tl_patgroup *g, struct tl_findings *f,
    enum tl_patkind kind)
{
	memset(g, 0, sizeof(*g));
	g->f = f;
	g->kind = kind;
	tl_strmap_init(&g->keys);
	tl_strmap_init(&g->inst);
	g->lastinst = -1;
}

void
tl_patgroup_free(struct tl_patgroup *g)
{
	tl_strmap_free(&g->keys);
	tl_strmap_free(&g->inst);
	g->lastinst = -1;
	free(g->pat);
}

int
tl_patgroup_get(struct tl_patgroup *g, const char *key, const char *where)
{
	struct tl_fpat *p;
	int64_t k;
	int added;

	k = tl_strmap_add(&g->keys, key, strlen(key), &added);
	if (added) {
		tl_grow(&g->pat, &g->cap, (size_t)k + 1, sizeof(*g->pat));
		p = tl_findings_pat(g->f, g->kind);
		p->where = tl_strdup(where);
		p->example = tl_strdup("");
		p->detail = tl_strdup("");
		g->pat[k] = g->f->npat - 1;
	}
	return g->pat[k];
}

void
tl_patgroup_instance(struct tl_patgroup *g, int pi, uint32_t module)
{
	struct tl_fpat *p = &g->f->pat[pi];
	char key[2 * sizeof(uint32_t)];
	uint32_t v = (uint32_t)pi;
	int added;

	if (module == 0)
		return;
	memcpy(key, &v, sizeof(v));
	memcpy(key + sizeof(v), &module, sizeof(module));
	/* A module's rows come together: its key is often the last one. */
	tl_strmap_add_last(&g->inst, &g->lastinst, key, sizeof(key), &added);
	if (added)
		p->instances++;
	if (p->example[0] == '\0') {
		free(p->example);
		p->example = tl_strdup(tl_fstr(g->f, module));
	}
}

int
tl_trace_index(const struct tl_findings *f, const char *name)
{
	int i;

	for (i = 0; i < f->ntr; i++)
		if (strcmp(f->tr[i].name, name) == 0)
			return i;
	return 0;
}

/* f->byop0 and f->byop for f's rows, when not made for them yet. */
static void
rows_by_op(struct tl_findings *f)
{
	int r, o;

	if (f->byop0 != NULL && f->nbyop == f->nrow)
		return;
	free(f->byop0);
	free(f->byop);
	f->byop0 = tl_calloc((size_t)f->nop + 2, sizeof(*f->byop0));
	f->byop = tl_malloc(((size_t)f->nrow + 1) * sizeof(*f->byop));
	for (r = 0; r < f->nrow; r++)
		f->byop0[f->row[r].op + 2]++;
	for (o = 0; o < f->nop; o++)
		f->byop0[o + 2] += f->byop0[o + 1];
	for (r = 0; r < f->nrow; r++)	/* byop0[o + 1]: where o's next goes */
		f->byop[f->byop0[f->row[r].op + 1]++] = r;
	f->nbyop = f->nrow;
}

void
tl_patgroup_op(struct tl_patgroup *g, int pi, int o)
{
	struct tl_findings *f = g->f;
	struct tl_fop *op = &f->op[o];
	struct tl_fpat *p = &f->pat[pi];
	int64_t sum = 0;
	double scale = 1;
	long long n = 1;
	int k, r;

	/*
	 * A grouped row's kernels are one instance's: count them for every
	 * instance and share the signature's time among them.
	 */
	for (k = 0; f->grouped && k < op->nkern; k++)
		sum += op->kern[k].time_ns;
	if (f->grouped && sum > 0) {
		scale = (double)op->time_ns / (double)sum;
		n = op->count;
	}
	p->cat = op->cat;
	for (k = 0; k < op->nkern; k++)
		tl_fpat_ev(p, -1, tl_intern(f->str, op->kern[k].name,
		    strlen(op->kern[k].name)), op->kern[k].count * n,
		    (int64_t)((double)op->kern[k].time_ns * scale + 0.5));
	if (f->grouped && op->module != NULL && op->module[0] != '\0')
		tl_patgroup_instance(g, pi, tl_intern(f->str, op->module,
		    strlen(op->module)));
	rows_by_op(f);
	for (k = f->byop0[o]; k < f->byop0[o + 1]; k++)
		if (f->row[r = f->byop[k]].claim < 0) {
			tl_patgroup_row(g, pi, r, 1);
			p = &f->pat[pi];
			p->calls++;
		}
	if (f->nrow == 0) {
		tl_fpat_ev(p, o, 0, op->count, op->time_ns - op->claimed_ns);
		p->time_ns += op->time_ns - op->claimed_ns;
		p->calls += op->count;
		op->claimed_ns = op->time_ns;
	}
}

void
tl_patgroup_row(struct tl_patgroup *g, int pi, int r, int claim)
{
	struct tl_findings *f = g->f;
	struct tl_frow *row = &f->row[r];
	struct tl_fpat *p = &f->pat[pi];

	if (claim) {
		row->claim = pi;
		f->op[row->op].claimed_ns += row->time_ns;
		f->cov.pattern_ns += row->time_ns;
	}
	tl_fpat_ev(p, row->op, 0, 1, row->time_ns);
	p->time_ns += row->time_ns;
	if (p->example_row < 0)
		p->example_row = r;
	tl_patgroup_instance(g, pi, row->module);
}
