/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/strmap.h"
#include "common/tsv.h"
#include "common/tabfile.h"
#include "common/util.h"
#include "model/concrete.h"
#include "model/opargs.h"
#include "render/mdtext.h"
#include "render/replay.h"
#include "stream/category.h"
#include "stream/schema.h"

#define MAXNAMES 8	/* distinct parents, modules, kernels kept per group */

/* Distinct strings in first-seen order, at most MAXNAMES, and a count. */
struct names {
	char *s[MAXNAMES];
	int n;
	int64_t more;		/* distinct ones beyond MAXNAMES, at most */
};

struct group {
	char *trace, *name, *category, *direction;
	char *dims, *types, *strides, *concrete;
	char *args;		/* the IR's argument objects, one per line */
	char *call_stack, *perf_model, *params;
	struct names parents, modules, kernels;
	int has_flops, has_bytes;
	int64_t flops, bytes;
	int64_t count, time_ns, min_ns, max_ns;
	int has_pct;
	double pct;
	double eff_sum;		/* pct_roofline times instances */
	int64_t eff_n;		/* instances with a pct_roofline */
	size_t order;
	int index;
	const char *refused;	/* why the runner will not call it, or NULL */
};

/*
 * A JSON list parsed once, with the token of each element: a row's
 * input_dims or input_strides, read slot by slot.
 */
struct jlist {
	struct tl_json j;
	int *el;
	size_t n, cap;
};

static void
jlist_parse(struct jlist *l, const char *text)
{
	const char *err;
	size_t k, cnt;
	int c;

	l->n = 0;
	if (text == NULL || text[0] == '\0' ||
	    tl_json_parse(&l->j, text, strlen(text), &err) < 0 ||
	    tl_json_type(&l->j, 0) != TL_J_ARRAY)
		return;
	cnt = (size_t)tl_json_size(&l->j, 0);
	tl_grow(&l->el, &l->cap, cnt, sizeof(*l->el));
	for (k = 0, c = 1; k < cnt; k++, c = tl_json_next(&l->j, c))
		l->el[k] = c;
	l->n = cnt;
}

static void
jlist_free(struct jlist *l)
{
	tl_json_free(&l->j);
	free(l->el);
}

struct tl_replay {
	struct group *g;
	size_t n, cap;
	struct tl_strmap map;
	struct tl_jbuf key;
	struct tl_opargs oa;
	struct tl_json j;
	struct jlist dims, strides;	/* of the row new_group reads */
	struct tl_strmap allowed;	/* the runner's allow-list */
};

/*
 * Argument slots whose tensor must hold positive values: running
 * variances, saved inverse standard deviations.  An eval-mode batch
 * norm takes the square root of running_var.
 */
static const struct {
	const char *op;
	int slot[2];		/* -1 = none */
} positive[] = {
	{ "aten::_batch_norm_impl_index", { 4, -1 } },
	{ "aten::_native_batch_norm_legit", { 4, -1 } },
	{ "aten::_native_batch_norm_legit_no_training", { 4, -1 } },
	{ "aten::_fused_rms_norm_backward", { 3, -1 } },
	{ "aten::batch_norm", { 4, -1 } },
	{ "aten::cudnn_batch_norm", { 4, -1 } },
	{ "aten::cudnn_batch_norm_backward", { 4, 6 } },
	{ "aten::instance_norm", { 4, -1 } },
	{ "aten::miopen_batch_norm", { 4, -1 } },
	{ "aten::miopen_batch_norm_backward", { 4, 6 } },
	{ "aten::native_batch_norm", { 4, -1 } },
	{ "aten::native_batch_norm_backward", { 4, 6 } },
	{ "aten::native_group_norm_backward", { 3, -1 } },
	{ "aten::native_layer_norm_backward", { 4, -1 } },
};

/* Ops whose first argument is only written: it starts as zeros. */
static const char *const overwritten[] = {
	"aten::copy_", "aten::fill_", "aten::normal_", "aten::uniform_",
	"aten::zero_", NULL
};

/*
 * The runner's allow-list (share/tl/replay/allowed_ops.tsv, compiled in):
 * the operators it may call.  The built-in table is checked by make
 * check; a broken one is a bug, hence tl_die.
 */
static void
allowed_read(struct tl_strmap *m)
{
	static const char *const col[] = { "op" };
	struct tl_tabfile t;
	int rc, added;

	tl_strmap_init(m);
	if (tl_tabfile_open(&t, NULL, tl_replay_allowed,
	    "built-in allowed_ops.tsv", col, 1, 1, 0) < 0)
		tl_die("%s", t.err);
	while ((rc = tl_tabfile_next(&t)) > 0) {
		const char *op = tl_tabfile_get(&t, 0);

		tl_strmap_add(m, op, strlen(op), &added);
	}
	if (rc < 0)
		tl_die("%s", t.err);
	tl_tabfile_close(&t);
}

int
tl_replay_allowed_op(const struct tl_replay *r, const char *name)
{
	return tl_strmap_get(&r->allowed, name, strlen(name)) >= 0;
}

/* Why the runner will not call op name, or NULL when it may. */
static const char *
refusal(const struct tl_replay *r, const char *name)
{
	if (tl_replay_allowed_op(r, name))
		return NULL;
	if (strstr(name, "::") == NULL)
		return "not an ATen operator, and not on the runner's "
		    "allow-list of tensor computations (allowed_ops.tsv)";
	return "not on the runner's allow-list of tensor computations "
	    "(allowed_ops.tsv): it may do more than compute tensors "
	    "(files, processes, global state)";
}

struct tl_replay *
tl_replay_new(void)
{
	struct tl_replay *r = tl_calloc(1, sizeof(*r));

	tl_strmap_init(&r->map);
	tl_opargs_init(&r->oa);
	tl_json_init(&r->j);
	tl_json_init(&r->dims.j);
	tl_json_init(&r->strides.j);
	allowed_read(&r->allowed);
	return r;
}

static void
names_free(struct names *n)
{
	int i;

	for (i = 0; i < n->n; i++)
		free(n->s[i]);
}

static void
group_free(struct group *g)
{
	free(g->trace);
	free(g->name);
	free(g->category);
	free(g->direction);
	free(g->dims);
	free(g->types);
	free(g->strides);
	free(g->concrete);
	free(g->args);
	free(g->call_stack);
	free(g->perf_model);
	free(g->params);
	names_free(&g->parents);
	names_free(&g->modules);
	names_free(&g->kernels);
}

void
tl_replay_free(struct tl_replay *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		group_free(&r->g[i]);
	free(r->g);
	tl_strmap_free(&r->map);
	tl_strmap_free(&r->allowed);
	tl_jb_free(&r->key);
	tl_opargs_free(&r->oa);
	tl_json_free(&r->j);
	jlist_free(&r->dims);
	jlist_free(&r->strides);
	free(r);
}

size_t
tl_replay_count(const struct tl_replay *r)
{
	return r->n;
}

static void
names_add(struct names *n, const char *s, size_t len)
{
	int i;

	if (len == 0)
		return;
	for (i = 0; i < n->n; i++)
		if (strlen(n->s[i]) == len && memcmp(n->s[i], s, len) == 0)
			return;
	if (n->n == MAXNAMES) {
		n->more++;	/* may count one name twice: "at most" */
		return;
	}
	n->s[n->n] = tl_malloc(len + 1);
	memcpy(n->s[n->n], s, len);
	n->s[n->n][len] = '\0';
	n->n++;
}

/* The kernel names of a row's kernels field. */
static void
kernel_names(struct tl_replay *r, struct names *n, const char *kernels)
{
	const char *err;
	int k, c, cnt;

	if (kernels[0] == '\0' ||
	    tl_json_parse(&r->j, kernels, strlen(kernels), &err) < 0 ||
	    tl_json_type(&r->j, 0) != TL_J_ARRAY)
		return;
	cnt = tl_json_size(&r->j, 0);
	for (k = 0, c = 1; k < cnt; k++, c = tl_json_next(&r->j, c)) {
		int t = tl_json_type(&r->j, c) == TL_J_OBJECT ?
		    TL_JSON_GET(&r->j, c, "name") : -1;
		size_t len;
		const char *s;
		char *dec;

		if (t < 0 || tl_json_type(&r->j, t) != TL_J_STRING)
			continue;
		s = tl_json_text(&r->j, t, &len);
		dec = tl_malloc(len + 1);
		names_add(n, dec, tl_json_unescape(dec, s, len));
		free(dec);
	}
}

static int
is_float_dtype(const char *t)
{
	return strcmp(t, "float") == 0 || strcmp(t, "double") == 0 ||
	    strstr(t, "Half") != NULL || strstr(t, "Float") != NULL ||
	    strstr(t, "Complex") != NULL;
}

static const char *
tensor_init(const char *op, int slot, const char *dtype)
{
	size_t i;

	if (slot == 0)
		for (i = 0; overwritten[i] != NULL; i++)
			if (strcmp(op, overwritten[i]) == 0)
				return "zeros";
	if (!is_float_dtype(dtype))
		return "randint";
	for (i = 0; i < sizeof(positive) / sizeof(positive[0]); i++)
		if (strcmp(op, positive[i].op) == 0 &&
		    (positive[i].slot[0] == slot || positive[i].slot[1] == slot))
			return "positive";
	return "normal";
}

static void
jb_ints(struct tl_jbuf *b, const int64_t *v, int n)
{
	int i;

	tl_jb_raw(b, "[", 1);
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_jb_raw(b, ",", 1);
		tl_jb_int(b, v[i]);
	}
	tl_jb_raw(b, "]", 1);
}

static void
jb_double(struct tl_jbuf *b, double d)
{
	char buf[40];

	tl_fmt_double(buf, sizeof(buf), d);
	tl_jb_lit(b, buf);
}

/* Trim blanks: s[*from..*to). */
static void
trim(const char *s, size_t *from, size_t *to)
{
	while (*from < *to && (s[*from] == ' ' || s[*from] == '\t'))
		(*from)++;
	while (*to > *from && (s[*to - 1] == ' ' || s[*to - 1] == '\t'))
		(*to)--;
}

/*
 * A concrete input (a Python repr) as a JSON value: null when blank or
 * None, true/false, an integer, a float (always with a '.' or an
 * exponent, so that readers keep it a float), else a string ("inf",
 * "nan", words).
 */
static void
ci_value(struct tl_jbuf *b, const char *text, size_t n)
{
	char *s = tl_malloc(n + 1), buf[40];
	int64_t iv;
	double d;
	int t;

	memcpy(s, text, n);
	s[n] = '\0';
	if (tl_ci_blank(s) || strcmp(s, "None") == 0)
		tl_jb_lit(b, "null");
	else if ((t = tl_ci_truth(s)) >= 0)
		tl_jb_lit(b, t ? "true" : "false");
	else if (strpbrk(s, ".eEnN") == NULL && tl_ci_int(s, &iv) == 0)
		tl_jb_int(b, iv);
	else if (tl_ci_double(s, 0, &d) == 0) {
		tl_fmt_double(buf, sizeof(buf), d);
		tl_jb_lit(b, buf);
		if (strpbrk(buf, ".e") == NULL)
			tl_jb_lit(b, ".0");
	} else
		tl_jb_str(b, s);
	free(s);
}

/*
 * A list repr "[1, 1]", "(2,)", "[True, False]" as a JSON list of
 * values; other text as one value.
 */
static void
ci_list(struct tl_jbuf *b, const char *s)
{
	size_t from = 0, to = strlen(s), i, start;
	int first = 1;

	trim(s, &from, &to);
	if (to - from < 2 ||	/* not a verdict: "[]" at least */
	    !((s[from] == '[' && s[to - 1] == ']') ||
	    (s[from] == '(' && s[to - 1] == ')')) ||
	    strpbrk(s + from + 1, "[(") != NULL) {
		ci_value(b, s + from, to - from);
		return;
	}
	from++;
	to--;
	tl_jb_raw(b, "[", 1);
	for (i = start = from; i <= to; i++) {
		size_t f = start, t = i;

		if (i < to && s[i] != ',')
			continue;
		start = i + 1;
		trim(s, &f, &t);
		if (f == t)	/* "()", "(2,)" */
			continue;
		if (!first)
			tl_jb_raw(b, ",", 1);
		first = 0;
		ci_value(b, s + f, t - f);
	}
	tl_jb_raw(b, "]", 1);
}

/*
 * Element i of the list as compact JSON; null if there is none or it is
 * not valid JSON (jsmn lets some through).
 */
static void
slot_json(struct tl_jbuf *b, struct jlist *l, int i)
{
	char *out = NULL;
	size_t cap = 0, len;

	if (i < 0 || (size_t)i >= l->n) {
		tl_jb_lit(b, "null");
		return;
	}
	len = tl_json_compact(&l->j, l->el[i], &out, &cap);
	if (tl_json_valid(out, len))
		tl_jb_raw(b, out, len);
	else
		tl_jb_lit(b, "null");
	free(out);
}

/* The IR's object for argument slot i, appended to b. */
static void
arg_json(struct tl_replay *r, struct tl_jbuf *b, const struct tl_replay_row *row,
    int i)
{
	const struct tl_arg *a = tl_oparg(&r->oa, i);

	tl_jb_lit(b, "{\"type\":");
	tl_jb_str(b, a->type);
	tl_jb_lit(b, ",\"kind\":");
	if (strcmp(a->type, "TensorList") == 0 ||
	    (a->kind == TL_ARG_LIST && a->type[0] != '\0' &&
	    strcmp(a->type, "ScalarList") != 0 && strcmp(a->type, "Scalar") != 0)) {
		tl_jb_lit(b, "\"tensor_list\",\"shapes\":");
		slot_json(b, &r->dims, i);
		tl_jb_lit(b, ",\"strides\":");
		slot_json(b, &r->strides, i);
	} else if (tl_arg_maybe_tensor(a)) {
		tl_jb_lit(b, "\"tensor\",\"shape\":");
		jb_ints(b, a->dim, a->nd);
		tl_jb_lit(b, ",\"strides\":");
		if (a->nst >= 0)
			jb_ints(b, a->st, a->nst);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, ",\"init\":");
		tl_jb_str(b, tensor_init(row->name, i, a->type));
	} else if (strcmp(a->type, "Scalar") == 0) {
		tl_jb_lit(b, "\"scalar\",\"value\":");
		ci_value(b, a->ci, strlen(a->ci));
	} else if (strcmp(a->type, "ScalarList") == 0) {
		tl_jb_lit(b, "\"list\",\"value\":");
		ci_list(b, a->ci);
	} else if (a->type[0] == '\0' && a->kind == TL_ARG_EMPTY &&
	    tl_ci_blank(a->ci)) {
		tl_jb_lit(b, "\"none\"");
	} else {
		tl_jb_lit(b, "\"other\",\"value\":");
		ci_value(b, a->ci, strlen(a->ci));
	}
	tl_jb_raw(b, "}", 1);
}

static char *
dup(const char *s)
{
	return tl_strdup(s != NULL ? s : "");
}

/* A new group for row; -1 with *err when its arguments do not parse. */
static int
new_group(struct tl_replay *r, const struct tl_replay_row *row,
    const char **err)
{
	struct tl_jbuf args = { NULL, 0, 0 };
	struct group *g;
	int i;

	if (tl_opargs_parse(&r->oa, row->name, row->dims, row->types,
	    row->strides, row->concrete, err) < 0)
		return -1;
	jlist_parse(&r->dims, row->dims);
	jlist_parse(&r->strides, row->strides);
	for (i = 0; i < r->oa.n; i++) {
		tl_jb_lit(&args, i > 0 ? ",\n    " : "    ");
		arg_json(r, &args, row, i);
	}
	tl_grow(&r->g, &r->cap, r->n + 1, sizeof(*r->g));
	g = &r->g[r->n];
	memset(g, 0, sizeof(*g));
	g->trace = dup(row->trace);
	g->name = dup(row->name);
	g->category = dup(row->category);
	g->direction = dup(row->direction);
	g->dims = dup(row->dims);
	g->types = dup(row->types);
	g->strides = dup(row->strides);
	g->concrete = dup(row->concrete);
	g->args = args.s != NULL ? args.s : tl_strdup("");
	g->call_stack = dup(row->call_stack);
	g->perf_model = dup(row->perf_model);
	g->params = dup(row->params);
	g->has_flops = row->has_flops;
	g->has_bytes = row->has_bytes;
	g->flops = row->flops;
	g->bytes = row->bytes;
	g->min_ns = INT64_MAX;
	g->max_ns = INT64_MIN;
	g->order = r->n;
	g->refused = refusal(r, g->name);
	r->n++;
	return 0;
}

int
tl_replay_add(struct tl_replay *r, const struct tl_replay_row *row,
    const char **err)
{
	const char *sig[TL_SIG_N];
	struct group *g;
	int64_t gi;
	int added;

	sig[TL_SIG_TRACE] = row->trace;
	sig[TL_SIG_NAME] = row->name;
	sig[TL_SIG_DIMS] = row->dims;
	sig[TL_SIG_TYPES] = row->types;
	sig[TL_SIG_STRIDES] = row->strides;
	sig[TL_SIG_CONCRETE] = row->concrete;
	tl_sig_key(&r->key, TL_SIGKEY_FULL, sig);
	gi = tl_strmap_get(&r->map, r->key.s, r->key.n);
	if (gi < 0) {
		if (new_group(r, row, err) < 0)
			return -1;
		gi = tl_strmap_add(&r->map, r->key.s, r->key.n, &added);
	}
	g = &r->g[gi];
	g->count += row->count;
	g->time_ns += row->time_ns;
	g->min_ns = row->min_ns < g->min_ns ? row->min_ns : g->min_ns;
	g->max_ns = row->max_ns > g->max_ns ? row->max_ns : g->max_ns;
	if (!isnan(row->pct_gpu_time)) {
		g->pct += row->pct_gpu_time;
		g->has_pct = 1;
	}
	if (!isnan(row->pct_roofline)) {
		g->eff_sum += row->pct_roofline * (double)row->count;
		g->eff_n += row->count;
	}
	if (row->parent_name != NULL)
		names_add(&g->parents, row->parent_name,
		    strlen(row->parent_name));
	if (row->module != NULL)
		names_add(&g->modules, row->module, strlen(row->module));
	if (row->kernels != NULL)
		kernel_names(r, &g->kernels, row->kernels);
	return 0;
}

void
tl_replay_select(struct tl_replay *r, const struct tl_findrules *rules)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		struct group *g = &r->g[i];
		double eff = g->eff_n > 0 ? g->eff_sum / (double)g->eff_n : 0;

		if (g->has_pct && tl_replay_wanted(rules, g->pct, g->eff_n > 0,
		    eff)) {
			r->g[n++] = *g;
			continue;
		}
		group_free(g);
	}
	r->n = n;
	/* The map's indexes are stale now: no more adding. */
	tl_strmap_free(&r->map);
	tl_strmap_init(&r->map);
}

static int
cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void
tl_replay_sort(struct tl_replay *r)
{
	size_t i;

	if (r->n > 0)
		qsort(r->g, r->n, sizeof(*r->g), cmp_group);
	for (i = 0; i < r->n; i++)
		r->g[i].index = (int)i + 1;
	tl_strmap_free(&r->map);
	tl_strmap_init(&r->map);
}

static void
jb_names(struct tl_jbuf *b, const struct names *n)
{
	int i;

	tl_jb_raw(b, "[", 1);
	for (i = 0; i < n->n; i++) {
		if (i > 0)
			tl_jb_raw(b, ",", 1);
		tl_jb_str(b, n->s[i]);
	}
	tl_jb_raw(b, "]", 1);
}

static double
mean_us(const struct group *g)
{
	return (double)g->time_ns / 1e3 / (double)g->count;
}

void
tl_replay_ir(const struct tl_replay *r, struct tl_jbuf *b)
{
	size_t i;

	tl_jb_reset(b);
	tl_jb_lit(b, "[");
	for (i = 0; i < r->n; i++) {
		const struct group *g = &r->g[i];

		tl_jb_lit(b, i > 0 ? ",\n{\n" : "\n{\n");
		tl_jb_lit(b, "  \"index\": ");
		tl_jb_int(b, g->index);
		tl_jb_lit(b, ",\n  \"op\": ");
		tl_jb_str(b, g->name);
		if (g->refused != NULL) {
			tl_jb_lit(b, ",\n  \"refused\": ");
			tl_jb_str(b, g->refused);
		}
		tl_jb_lit(b, ",\n  \"trace\": ");
		tl_jb_str(b, g->trace);
		tl_jb_lit(b, ",\n  \"category\": ");
		tl_jb_str(b, g->category);
		tl_jb_lit(b, ",\n  \"direction\": ");
		tl_jb_str(b, g->direction);
		tl_jb_lit(b, ",\n  \"count\": ");
		tl_jb_int(b, g->count);
		tl_jb_lit(b, ",\n  \"kernel_time_us\": {\"total\":");
		tl_jb_us(b, g->time_ns);
		tl_jb_lit(b, ",\"mean\":");
		jb_double(b, mean_us(g));
		tl_jb_lit(b, ",\"min\":");
		tl_jb_us(b, g->min_ns);
		tl_jb_lit(b, ",\"max\":");
		tl_jb_us(b, g->max_ns);
		tl_jb_lit(b, "},\n  \"pct_gpu_time\": ");
		if (g->has_pct)
			jb_double(b, g->pct);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, ",\n  \"pct_roofline\": ");
		if (g->eff_n > 0)
			jb_double(b, g->eff_sum / (double)g->eff_n);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, ",\n  \"perf\": {\"model\":");
		if (g->perf_model[0] != '\0')
			tl_jb_str(b, g->perf_model);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, ",\"flops\":");
		if (g->has_flops)
			tl_jb_int(b, g->flops);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, ",\"bytes\":");
		if (g->has_bytes)
			tl_jb_int(b, g->bytes);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, ",\"params\":");
		/* The stream's params are JSON; anything else as a string. */
		if (g->params[0] == '\0')
			tl_jb_lit(b, "null");
		else if (tl_json_valid(g->params, strlen(g->params)))
			tl_jb_lit(b, g->params);
		else
			tl_jb_str(b, g->params);
		tl_jb_lit(b, "},\n  \"kernels\": ");
		jb_names(b, &g->kernels);
		tl_jb_lit(b, ",\n  \"origin\": {\"parent_names\":");
		jb_names(b, &g->parents);
		tl_jb_lit(b, ",\"modules\":");
		jb_names(b, &g->modules);
		tl_jb_lit(b, ",\"call_stack\":");
		if (g->call_stack[0] != '\0')
			tl_jb_str(b, g->call_stack);
		else
			tl_jb_lit(b, "null");
		tl_jb_lit(b, "},\n  \"args\": [\n");
		tl_jb_lit(b, g->args);
		tl_jb_lit(b, g->args[0] != '\0' ? "\n  ]\n}" : "  ]\n}");
	}
	tl_jb_lit(b, "\n]\n");
}

/* What the ops of a category do, for the README. */
static const char *
what(const char *category)
{
	int c = tl_category_index(category);

	return c >= 0 ? tl_category(c)->description : "operation";
}

static void
jb_fmt(struct tl_jbuf *b, const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	tl_jb_lit(b, buf);
}

/* "`a`, `b` (and N more)" */
static void
md_names(struct tl_jbuf *b, const struct names *n)
{
	int i;

	for (i = 0; i < n->n; i++) {
		if (i > 0)
			tl_jb_lit(b, ", ");
		tl_md_code_jb(b, n->s[i], SIZE_MAX);
	}
	if (n->more > 0) {
		tl_jb_lit(b, " and up to ");
		tl_jb_int(b, n->more);
		tl_jb_lit(b, " more");
	}
}

static void
md_ints(struct tl_jbuf *b, const int64_t *v, int n)
{
	int i;

	tl_jb_raw(b, "[", 1);
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_jb_lit(b, ", ");
		tl_jb_int(b, v[i]);
	}
	tl_jb_raw(b, "]", 1);
}

/* The README's list of an op's arguments. */
static void
md_args(struct tl_replay *r, struct tl_jbuf *b, const struct group *g)
{
	const char *err;
	int i;

	if (tl_opargs_parse(&r->oa, g->name, g->dims, g->types, g->strides,
	    g->concrete, &err) < 0)
		return;
	for (i = 0; i < r->oa.n; i++) {
		const struct tl_arg *a = tl_oparg(&r->oa, i);

		tl_jb_lit(b, "    ");
		tl_jb_int(b, i);
		tl_jb_lit(b, ". ");
		if (strcmp(a->type, "TensorList") == 0 || a->kind == TL_ARG_LIST)
			tl_jb_lit(b, "tensor list (element shapes as recorded; "
			    "no dtype)");
		else if (tl_arg_maybe_tensor(a)) {
			tl_jb_lit(b, "tensor ");
			tl_md_code_jb(b, a->type[0] != '\0' ? a->type : "?",
			    SIZE_MAX);
			tl_jb_lit(b, " ");
			md_ints(b, a->dim, a->nd);
			if (a->nst >= 0) {
				tl_jb_lit(b, ", strides ");
				md_ints(b, a->st, a->nst);
			}
			tl_jb_lit(b, ", filled ");
			tl_jb_lit(b, tensor_init(g->name, i, a->type));
		} else if (a->type[0] == '\0' && tl_ci_blank(a->ci))
			tl_jb_lit(b, "absent (None)");
		else {
			tl_md_text_jb(b, a->type[0] != '\0' ? a->type : "value",
			    SIZE_MAX);
			tl_jb_lit(b, " ");
			tl_md_code_jb(b, a->ci, SIZE_MAX);
		}
		tl_jb_lit(b, "\n");
	}
}

static void
md_op(struct tl_replay *r, struct tl_jbuf *b, const struct group *g,
    const char *runner)
{
	tl_jb_lit(b, "### ");
	tl_jb_int(b, g->index);
	tl_jb_lit(b, ". ");
	tl_md_code_jb(b, g->name, SIZE_MAX);
	tl_jb_lit(b, ": ");
	tl_jb_lit(b, what(g->category));
	if (g->direction[0] != '\0') {
		tl_jb_lit(b, strcmp(g->direction, "bwd") == 0 ?
		    ", backward" : ", forward");
	}
	tl_jb_lit(b, "\n\n- Trace: ");
	tl_md_code_jb(b, g->trace, SIZE_MAX);
	tl_jb_lit(b, "\n");
	if (g->parents.n > 0) {
		tl_jb_lit(b, "- Called by: ");
		md_names(b, &g->parents);
		tl_jb_lit(b, "\n");
	}
	if (g->modules.n > 0) {
		tl_jb_lit(b, "- Module: ");
		md_names(b, &g->modules);
		tl_jb_lit(b, "\n");
	}
	tl_jb_lit(b, "- Instances: ");
	tl_jb_int(b, g->count);
	tl_jb_lit(b, "; kernel time in the trace ");
	jb_fmt(b, "%.3f", mean_us(g));
	tl_jb_lit(b, " us per call (min ");
	jb_fmt(b, "%.3f", (double)g->min_ns / 1e3);
	tl_jb_lit(b, ", max ");
	jb_fmt(b, "%.3f", (double)g->max_ns / 1e3);
	tl_jb_lit(b, "), ");
	jb_fmt(b, "%.3f", (double)g->time_ns / 1e3);
	tl_jb_lit(b, " us in all");
	if (g->has_pct) {
		tl_jb_lit(b, ", ");
		jb_fmt(b, "%.2f", g->pct);
		tl_jb_lit(b, " % of the GPU time of ops");
	}
	tl_jb_lit(b, "\n");
	if (g->eff_n > 0) {
		tl_jb_lit(b, "- Roofline efficiency: ");
		jb_fmt(b, "%.1f", g->eff_sum / (double)g->eff_n);
		tl_jb_lit(b, " %\n");
	}
	if (g->perf_model[0] != '\0') {
		tl_jb_lit(b, "- Perf model: ");
		tl_md_text_jb(b, g->perf_model, SIZE_MAX);
		if (g->params[0] != '\0') {
			tl_jb_lit(b, " ");
			tl_md_code_jb(b, g->params, SIZE_MAX);
		}
		if (g->has_flops) {
			tl_jb_lit(b, ", ");
			jb_fmt(b, "%.4g", (double)g->flops / 1e9);
			tl_jb_lit(b, " GFLOP");
		}
		if (g->has_bytes) {
			tl_jb_lit(b, ", ");
			jb_fmt(b, "%.4g", (double)g->bytes / 1e6);
			tl_jb_lit(b, " MB");
		}
		tl_jb_lit(b, " per call\n");
	}
	if (g->kernels.n > 0) {
		tl_jb_lit(b, "- Kernels: ");
		md_names(b, &g->kernels);
		tl_jb_lit(b, "\n");
	}
	tl_jb_lit(b, "- Arguments, as the trace recorded them:\n\n");
	md_args(r, b, g);
	if (g->refused != NULL) {
		tl_jb_lit(b, "\n- Not replayed: ");
		tl_md_text_jb(b, g->refused, SIZE_MAX);
		tl_jb_lit(b, "\n\n");
		return;
	}
	tl_jb_lit(b, "\n- Run it alone: `python3 ");
	tl_jb_lit(b, runner);
	tl_jb_lit(b, " --device cuda --op ");
	tl_jb_int(b, g->index);
	tl_jb_lit(b, "`\n\n");
}

/* One line per op: the summary table. */
static void
md_summary(const struct tl_replay *r, struct tl_jbuf *b)
{
	size_t i;

	tl_jb_lit(b, "| # | op | category | instances | us per call "
	    "| % of GPU time | % of roofline |\n"
	    "|---:|---|---|---:|---:|---:|---:|\n");
	for (i = 0; i < r->n; i++) {
		const struct group *g = &r->g[i];

		tl_jb_lit(b, "| ");
		tl_jb_int(b, g->index);
		tl_jb_lit(b, " | ");
		tl_md_code_jb(b, g->name, SIZE_MAX);
		tl_jb_lit(b, " | ");
		tl_md_text_jb(b, g->category, SIZE_MAX);
		tl_jb_lit(b, " | ");
		tl_jb_int(b, g->count);
		tl_jb_lit(b, " | ");
		jb_fmt(b, "%.3f", mean_us(g));
		tl_jb_lit(b, " | ");
		if (g->has_pct)
			jb_fmt(b, "%.2f", g->pct);
		tl_jb_lit(b, " | ");
		if (g->eff_n > 0)
			jb_fmt(b, "%.1f", g->eff_sum / (double)g->eff_n);
		tl_jb_lit(b, " |\n");
	}
}

void
tl_replay_readme_text(struct tl_replay *r, const char *ir,
    const char *runner, struct tl_jbuf *b)
{
	struct names traces = { { NULL }, 0, 0 };
	const char *p = tl_replay_readme, *at;
	size_t i;

	for (i = 0; i < r->n; i++)
		names_add(&traces, r->g[i].trace, strlen(r->g[i].trace));
	tl_jb_reset(b);
	while ((at = strchr(p, '@')) != NULL) {
		const char *end = strchr(at + 1, '@');
		size_t n;

		tl_jb_raw(b, p, (size_t)(at - p));
		if (end == NULL) {
			p = at;
			break;
		}
		n = (size_t)(end - at + 1);
		if (n == 6 && memcmp(at, "@NOPS@", n) == 0)
			tl_jb_int(b, (int64_t)r->n);
		else if (n == 8 && memcmp(at, "@TRACES@", n) == 0)
			md_names(b, &traces);
		else if (n == 4 && memcmp(at, "@IR@", n) == 0)
			tl_jb_lit(b, ir);
		else if (n == 8 && memcmp(at, "@RUNNER@", n) == 0)
			tl_jb_lit(b, runner);
		else if (n == 9 && memcmp(at, "@VERSION@", n) == 0)
			tl_jb_lit(b, TL_VERSION);
		else if (n == 9 && memcmp(at, "@SUMMARY@", n) == 0)
			md_summary(r, b);
		else if (n == 5 && memcmp(at, "@OPS@", n) == 0) {
			for (i = 0; i < r->n; i++)
				md_op(r, b, &r->g[i], runner);
		} else {	/* not a field: keep the '@' */
			tl_jb_raw(b, at, 1);
			p = at + 1;
			continue;
		}
		p = end + 1;
	}
	tl_jb_lit(b, p);
	names_free(&traces);
}
