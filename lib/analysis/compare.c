/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "common/json.h"
#include "common/jsonw.h"
#include "common/strmap.h"
#include "common/util.h"
#include "model/opargs.h"
#include "model/roofline.h"
#include "model/roweff.h"
#include "stream/schema.h"
#include "stream/stream.h"

enum { REF, TGT };

/* One output row: a signature of either side or of both. */
struct crow {
	const struct tl_opsig *s[2];
	char *note;		/* layout_note, or NULL */
	const char *match;	/* a group's match value, or NULL */
};

/* A side's efficiency on a row. */
struct eff {
	const char *roof, *bw_roof;	/* the kinds of the two roofs */
	double peak_tflops, peak_tbs;
	double lim_tflops, lim_tbs;	/* the peak roofs: physical limit */
	struct tl_roof_out r;
	int has_pct;
	/*
	 * Beyond the physical limit (tl_beyond_peak on the peak roofs):
	 * the resource, or NULL; then has_pct is 0 and why the row's
	 * perf_error for this side (lib/model/roweff's text).
	 */
	const char *beyond;
	double beyond_pct;	/* % of the peak roof */
	char why[512];
};

const struct tl_hw *
tl_compare_gpu(const struct tl_opsigs *s, const char *opt,
    const char *option, int strict)
{
	const struct tl_hw *hw;
	struct tl_gpuid id;
	char cand[256], desc[512];

	if (opt != NULL) {
		if ((hw = tl_hw_find(opt)) == NULL)
			tl_diex(TL_EXIT_USAGE, "%s: unknown GPU '%s' "
			    "(tl-efficiency --hw list)", option, opt);
		return hw;
	}
	if (s->hw[0] != '\0') {
		if ((hw = tl_hw_find(s->hw)) != NULL)
			return hw;
		snprintf(desc, sizeof(desc), "hw '%s' is not in the GPU table "
		    "(tl-efficiency --hw list)", s->hw);
	} else {
		memset(&id, 0, sizeof(id));
		id.name = s->gpu;
		id.arch = s->gpu_arch;
		id.compute_units = s->gpu_cus;
		id.memory_bytes = s->gpu_mem;
		id.kernel_arch = s->gpu_kernel_arch;
		if ((hw = tl_hw_identify(&id, cand, sizeof(cand))) != NULL) {
			if (id.name[0] != '\0' && !tl_hw_name_known(id.name))
				tl_warn("%s: GPU '%s' is not in the GPU table; "
				    "taken as %s, the one GPU of the table with "
				    "its architecture, compute units and memory",
				    s->path, id.name, tl_hw_name(hw));
			return hw;
		}
		tl_gpuid_unknown(&id, cand, desc, sizeof(desc));
	}
	if (strict)
		tl_die("%s: %s; give %s NAME", s->path, desc, option);
	tl_warn("%s: %s; its roofs, efficiency and expected ratios stay "
	    "empty: give %s NAME", s->path, desc, option);
	return NULL;
}

static const char *
side_name(const struct tl_cmp_opts *o, int k, const char *trace,
    const char *path)
{
	if (o->name[k] != NULL)
		return o->name[k];
	return trace[0] != '\0' ? trace : path;
}

/*
 * The roofs of both GPUs for a compute spec, of the run's kind roof
 * (or the other kind standing in where a GPU lacks it: lib/model/hwspec).
 */
static void
pair_roofs(const struct tl_cmp_opts *o, enum tl_roof roof, const char *spec,
    struct eff e[2])
{
	const char *used;
	int k;

	for (k = 0; k < 2; k++) {
		used = NULL;
		e[k].peak_tflops = spec[0] != '\0' && o->hw[k] != NULL ?
		    tl_hw_tflops(o->hw[k], spec, roof, &used, NULL) : 0;
		e[k].roof = used != NULL ? used : "";
		used = NULL;
		e[k].peak_tbs = o->hw[k] != NULL ? tl_hw_hbm(o->hw[k], roof,
		    &used, NULL) : 0;
		e[k].bw_roof = used != NULL ? used : "";
		/* No GPU (an unknown one): no roofs, no limit. */
		e[k].lim_tflops = o->hw[k] != NULL && spec[0] != '\0' ?
		    tl_hw_figure(o->hw[k], spec, TL_FIG_PEAK, NULL) : 0;
		e[k].lim_tbs = o->hw[k] != NULL ? tl_hw_figure(o->hw[k],
		    "hbm_tbs", TL_FIG_PEAK, NULL) : 0;
	}
}

/* The roofline of a signature's totals against e's roofs. */
static void
side_eff(const struct tl_opsig *s, struct eff *e)
{
	struct tl_roof_in ri;
	double pct;

	memset(&e->r, 0, sizeof(e->r));
	e->r.bound = "";
	e->has_pct = 0;
	e->beyond = NULL;
	e->why[0] = '\0';
	if (s == NULL)
		return;
	ri.has_flops = s->has_flops && !s->sum_ovf;
	ri.has_bytes = s->has_bytes && !s->sum_ovf;
	ri.flops = s->flops_sum;
	ri.bytes = s->bytes_sum;
	ri.time_us = (double)s->time_ns / 1e3;
	ri.peak_tflops = e->peak_tflops;
	ri.peak_tbs = e->peak_tbs;
	tl_roofline(&ri, &e->r);
	e->has_pct = e->r.has_roofline && ri.time_us > 0;
	/*
	 * Faster than the physical limit allows: no efficiency, and the
	 * side says why (the time of one instance, as in tl-efficiency).
	 */
	ri.peak_tflops = e->lim_tflops;
	ri.peak_tbs = e->lim_tbs;
	if ((e->beyond = tl_beyond_peak(&ri, TL_PEAK_TOL_PCT, &pct)) == NULL)
		return;
	e->has_pct = 0;
	e->beyond_pct = pct;
	tl_peak_why(e->why, sizeof(e->why), "", 0, e->beyond, pct,
	    e->beyond[0] == 'c' ? e->lim_tflops : e->lim_tbs,
	    ri.time_us / (double)(s->count > 0 ? s->count : 1));
}

/* The bound of a row: the roofline's, else memory for bytes without FLOPs. */
static const char *
row_bound(const struct tl_opsig *s, const struct eff *e)
{
	if (e->r.bound[0] != '\0')
		return e->r.bound;
	if (s->has_bytes && s->bytes > 0 && (!s->has_flops || s->flops == 0))
		return "memory";
	return "";
}

/*
 * The layout note of two stride lists: which top-level inputs differ
 * ("strides differ in input 1", "... in inputs 0, 2"; "strides differ"
 * when the lists do not line up).
 */
static char *
layout_note(const char *a, const char *b)
{
	struct tl_json ja, jb;
	struct tl_jbuf idx = { NULL, 0, 0 };
	const char *err, *ta, *tb;
	char *note, num[24];
	size_t na, nb;
	int ea, eb, ia, ib, i, ndiff = 0;

	tl_json_init(&ja);
	tl_json_init(&jb);
	if (tl_json_parse(&ja, a, strlen(a), &err) > 0 &&
	    tl_json_parse(&jb, b, strlen(b), &err) > 0 &&
	    tl_json_type(&ja, 0) == TL_J_ARRAY &&
	    tl_json_type(&jb, 0) == TL_J_ARRAY &&
	    tl_json_size(&ja, 0) == tl_json_size(&jb, 0)) {
		ea = tl_json_next(&ja, 0);
		eb = tl_json_next(&jb, 0);
		for (i = 0, ia = 1, ib = 1; ia < ea && ib < eb; i++) {
			ta = tl_json_text(&ja, ia, &na);
			tb = tl_json_text(&jb, ib, &nb);
			if (na != nb || memcmp(ta, tb, na) != 0) {
				snprintf(num, sizeof(num), "%s%d",
				    ndiff++ > 0 ? ", " : "", i);
				tl_jb_lit(&idx, num);
			}
			ia = tl_json_next(&ja, ia);
			ib = tl_json_next(&jb, ib);
		}
	}
	tl_jb_raw(&idx, "", 1);
	note = tl_malloc(idx.n + 32);
	snprintf(note, idx.n + 32, "strides differ%s%s",
	    ndiff == 0 ? "" : ndiff == 1 ? " in input " : " in inputs ",
	    idx.s);
	tl_json_free(&ja);
	tl_json_free(&jb);
	tl_jb_free(&idx);
	return note;
}

/* Rows of one side, for pairing: by count, larger first, then strides. */
static int
cmp_left(const void *a, const void *b)
{
	const struct tl_opsig *x = *(const struct tl_opsig *const *)a;
	const struct tl_opsig *y = *(const struct tl_opsig *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->f[TL_SIG_STRIDES], y->f[TL_SIG_STRIDES]);
}

struct rows {
	struct crow *r;
	size_t n, cap;
};

static void
add(struct rows *rs, const struct tl_opsig *ref, const struct tl_opsig *tgt,
    char *note)
{
	tl_grow(&rs->r, &rs->cap, rs->n + 1, sizeof(*rs->r));
	rs->r[rs->n].s[REF] = ref;
	rs->r[rs->n].s[TGT] = tgt;
	rs->r[rs->n].note = note;
	rs->r[rs->n].match = NULL;
	rs->n++;
}
/*
 * Group matching (issue 31): signatures left over after the passes on
 * the signature are matched as one op in another form where the
 * arguments show it:
 *   - the same signature but for concrete inputs recorded on one side
 *     only: match both, the note says on which side;
 *   - attention fused on one side (an attention op on Q, K, V of
 *     [B,H,S,D], [B,H,T,D]) and unfused on the other (bmm or baddbmm
 *     [N,S,D] x [N,D,T], softmax over [N,S,T], bmm [N,S,T] x [N,T,D],
 *     N = B H, the same dtype): every member row keeps its side's
 *     numbers with match ref_group or target_group and the group's note;
 *   - one matrix product in another op form (mm, addmm, linear, matmul,
 *     bmm, baddbmm with the same batch, M, N, K and dtype): one row with
 *     match product, the note naming both forms.
 */
enum { F_NONE, F_FUSED, F_QK, F_SOFTMAX, F_AV };

/* An op's product or attention key, from its arguments. */
struct form {
	int role;		/* F_*: attention */
	int gemm;		/* a matrix product: b, m, n, k */
	int64_t b, m, n, k;	/* attention: N (B H), S, T, D in b m n k */
	const char *type;
};

static int
is_name(const char *name, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(name, *list) == 0)
			return 1;
	return 0;
}

static int
shape(const struct tl_opargs *a, int i, int nd)
{
	return i < a->n && a->a[i].kind == TL_ARG_SHAPE && a->a[i].nd == nd;
}

static void
form_of(const struct tl_opsig *s, struct tl_opargs *a, struct form *f)
{
	static const char *const mm[] = { "aten::mm", "aten::addmm", NULL };
	static const char *const bmm[] = { "aten::bmm", "aten::baddbmm",
	    NULL };
	static const char *const soft[] = { "aten::_softmax",
	    "aten::softmax", "aten::_safe_softmax", NULL };
	const char *n = s->f[TL_SIG_NAME], *err;
	const struct tl_arg *x, *y;
	int i0, j;

	memset(f, 0, sizeof(*f));
	if (tl_opargs_parse(a, n, s->f[TL_SIG_DIMS], s->f[TL_SIG_TYPES], "",
	    "", &err) < 0)
		return;
	i0 = strcmp(n, "aten::addmm") == 0 || strcmp(n, "aten::baddbmm") ==
	    0;
	if (strcmp(s->category, "attention") == 0 && shape(a, 0, 4) &&
	    shape(a, 1, 4) && a->a[0].dim[3] == a->a[1].dim[3] &&
	    a->a[0].dim[0] == a->a[1].dim[0]) {
		f->role = F_FUSED;
		f->b = a->a[0].dim[0] * a->a[0].dim[1];
		f->m = a->a[0].dim[2];
		f->n = a->a[1].dim[2];
		f->k = a->a[0].dim[3];
		f->type = a->a[0].type;
		return;
	}
	if (is_name(n, soft) && (shape(a, 0, 3) || shape(a, 0, 4))) {
		x = &a->a[0];
		f->role = F_SOFTMAX;
		f->b = x->dim[0] * (x->nd == 4 ? x->dim[1] : 1);
		f->m = x->dim[x->nd - 2];
		f->n = x->dim[x->nd - 1];
		f->type = x->type;
		return;
	}
	if (is_name(n, mm) && shape(a, i0, 2) && shape(a, i0 + 1, 2)) {
		x = &a->a[i0];
		y = &a->a[i0 + 1];
		f->b = 1;
	} else if (is_name(n, bmm) && shape(a, i0, 3) && shape(a, i0 + 1, 3)) {
		x = &a->a[i0];
		y = &a->a[i0 + 1];
		if (x->dim[0] != y->dim[0])
			return;
		f->b = x->dim[0];
	} else if ((strcmp(n, "aten::linear") == 0 && a->n > 1 &&
	    a->a[0].kind == TL_ARG_SHAPE && a->a[0].nd >= 1 &&
	    shape(a, 1, 2) && a->a[0].dim[a->a[0].nd - 1] == a->a[1].dim[1])) {
		x = &a->a[0];
		f->b = 1;
		f->m = 1;
		for (j = 0; j + 1 < x->nd; j++)
			f->m *= x->dim[j];
		f->n = a->a[1].dim[0];
		f->k = a->a[1].dim[1];
		f->type = x->type;
		f->gemm = 1;
		return;
	} else if (strcmp(n, "aten::matmul") == 0 && a->n > 1 &&
	    a->a[0].kind == TL_ARG_SHAPE && a->a[0].nd >= 2 &&
	    shape(a, 1, 2)) {
		x = &a->a[0];
		y = &a->a[1];
		f->b = 1;
		f->m = 1;
		for (j = 0; j + 1 < x->nd; j++)
			f->m *= x->dim[j];
		f->k = x->dim[x->nd - 1];
		f->n = y->dim[1];
		f->type = x->type;
		f->gemm = f->k == y->dim[0];
		return;
	} else
		return;
	if (x->dim[x->nd - 1] != y->dim[y->nd - 2])
		return;
	f->m = x->dim[x->nd - 2];
	f->k = x->dim[x->nd - 1];
	f->n = y->dim[y->nd - 1];
	f->type = x->type;
	f->gemm = 1;
	/* A batched product of attention's shapes: QK^T or AV. */
	if (x->nd == 3 && is_name(n, bmm))
		f->role = F_QK;	/* told apart from AV by the fused key */
}

/* Whether f, a batched product, is attention's QK^T or AV for key q. */
static int
attn_role(const struct form *f, const struct form *q)
{
	if (strcmp(f->type, q->type) != 0 || f->b != q->b)
		return F_NONE;
	if (f->role == F_SOFTMAX)
		return f->m == q->m && f->n == q->n ? F_SOFTMAX : F_NONE;
	if (!f->gemm || f->role != F_QK)
		return F_NONE;
	/* QK^T: [N,S,D] x [N,D,T]; AV: [N,S,T] x [N,T,D]. */
	if (f->m == q->m && f->k == q->k && f->n == q->n)
		return F_QK;
	if (f->m == q->m && f->k == q->n && f->n == q->k)
		return F_AV;
	return F_NONE;
}

static const char *const side_word[2] = { "reference", "target" };

/* No concrete input recorded: "" or a list of empty strings. */
static int
no_concrete(const char *c)
{
	for (; *c != '\0'; c++)
		if (strchr("[]\", ", *c) == NULL)
			return 0;
	return 1;
}

struct lefts {
	const struct tl_opsig **s[2];
	size_t n[2], cap[2];
};

static char *
fmt_note(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = tl_malloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

static void
add_group(struct rows *rs, const struct tl_opsig *s, int k, const char *note)
{
	add(rs, k == REF ? s : NULL, k == TGT ? s : NULL, tl_strdup(note));
	rs->r[rs->n - 1].match = k == REF ? "ref_group" : "target_group";
}

/* Attention fused on side k and unfused on the other, from fused i. */
static void
attention_group(struct rows *rs, struct lefts *l, struct form *fm[2],
    unsigned char *used[2], int k, size_t i)
{
	const struct form *q = &fm[k][i];
	char *note;
	size_t j;
	int o = 1 - k;

	for (j = 0; j < l->n[o]; j++)
		if (!used[o][j] && attn_role(&fm[o][j], q) == F_QK)
			break;
	if (j == l->n[o])
		return;
	note = fmt_note("attention of N=%lld S=%lld T=%lld D=%lld (%s): "
	    "fused on the %s, bmm, softmax and bmm on the %s", (long long)q->b,
	    (long long)q->m, (long long)q->n, (long long)q->k, q->type,
	    side_word[k], side_word[o]);
	for (j = 0; j < l->n[k]; j++)
		if (!used[k][j] && fm[k][j].role == F_FUSED &&
		    fm[k][j].b == q->b && fm[k][j].m == q->m &&
		    fm[k][j].n == q->n && fm[k][j].k == q->k &&
		    strcmp(fm[k][j].type, q->type) == 0) {
			used[k][j] = 1;
			add_group(rs, l->s[k][j], k, note);
		}
	for (j = 0; j < l->n[o]; j++)
		if (!used[o][j] && attn_role(&fm[o][j], q) != F_NONE) {
			used[o][j] = 1;
			add_group(rs, l->s[o][j], o, note);
		}
	free(note);
}

/*
 * The class of a module path's component: "Qwen2RMSNorm_3" is of class
 * Qwen2RMSNorm (tl-parse numbers the instances of each class).
 */
static size_t
class_len(const char *c, size_t n)
{
	size_t d = n;

	while (d > 0 && c[d - 1] >= '0' && c[d - 1] <= '9')
		d--;
	return d < n && d > 1 && c[d - 1] == '_' ? d - 1 : n;
}

/* Whether module path m ("A_0/B_1") has a module of class c[n]. */
static int
has_class(const char *m, const char *c, size_t n)
{
	const char *e;

	for (; *m != '\0'; m = *e != '\0' ? e + 1 : e) {
		e = strchr(m, '/');
		if (e == NULL)
			e = m + strlen(m);
		if (class_len(m, (size_t)(e - m)) == n && memcmp(m, c, n) == 0)
			return 1;
	}
	return 0;
}

/* The class of m's innermost module (its length in *n), or NULL. */
static const char *
inner_class(const char *m, size_t *n)
{
	const char *c = strrchr(m, '/');

	c = c != NULL ? c + 1 : m;
	*n = class_len(c, strlen(c));
	return *n > 0 ? c : NULL;
}

/*
 * A norm or MoE op on side k (the fused one, by its category) and the
 * other side's ops of other categories inside a module of the same
 * class: the module's work done in other ops.  The group is every
 * leftover op inside that class on side k and those on the other.
 */
static void
module_group(struct rows *rs, struct lefts *l, unsigned char *used[2],
    int k, size_t i)
{
	static const char *const fused[] = { "layernorm", "rmsnorm",
	    "groupnorm", "batchnorm", "instancenorm", "moe", NULL };
	const struct tl_opsig *a = l->s[k][i], *x;
	const char *cls;
	char *note;
	size_t j, n;
	int o = 1 - k, any = 0;

	if (!is_name(a->category, fused) ||
	    (cls = inner_class(a->module, &n)) == NULL)
		return;
	for (j = 0; j < l->n[o] && !any; j++) {
		x = l->s[o][j];
		any = !used[o][j] && has_class(x->module, cls, n) &&
		    strcmp(x->category, a->category) != 0;
	}
	if (!any)
		return;
	note = fmt_note("%s of module %.*s: fused on the %s, other ops on the "
	    "%s", a->category, (int)n, cls, side_word[k], side_word[o]);
	for (j = 0; j < l->n[k]; j++)
		if (!used[k][j] && has_class(l->s[k][j]->module, cls, n)) {
			used[k][j] = 1;
			add_group(rs, l->s[k][j], k, note);
		}
	for (j = 0; j < l->n[o]; j++) {
		x = l->s[o][j];
		if (!used[o][j] && has_class(x->module, cls, n) &&
		    strcmp(x->category, a->category) != 0) {
			used[o][j] = 1;
			add_group(rs, x, o, note);
		}
	}
	free(note);
}

/* Match the leftovers as groups; add what remains as one side's only. */
static void
group_match(struct rows *rs, struct lefts *l)
{
	struct tl_opargs a;
	struct form *fm[2];
	unsigned char *used[2];
	size_t i, j;
	int k;

	tl_opargs_init(&a);
	for (k = 0; k < 2; k++) {
		used[k] = tl_calloc(l->n[k] + 1, 1);
		fm[k] = tl_calloc(l->n[k] + 1, sizeof(*fm[k]));
		for (i = 0; i < l->n[k]; i++) {
			form_of(l->s[k][i], &a, &fm[k][i]);
			/* The type outlives the next parse. */
			fm[k][i].type = tl_strdup(fm[k][i].type != NULL ?
			    fm[k][i].type : "");
		}
	}
	for (i = 0; i < l->n[REF]; i++)
		for (j = 0; j < l->n[TGT] && !used[REF][i]; j++) {
			const struct tl_opsig *x = l->s[REF][i], *y =
			    l->s[TGT][j];
			int nx = no_concrete(x->f[TL_SIG_CONCRETE]),
			    ny = no_concrete(y->f[TL_SIG_CONCRETE]);

			if (used[TGT][j] || nx == ny ||
			    strcmp(x->f[TL_SIG_NAME], y->f[TL_SIG_NAME]) != 0 ||
			    strcmp(x->f[TL_SIG_DIMS], y->f[TL_SIG_DIMS]) != 0 ||
			    strcmp(x->f[TL_SIG_TYPES], y->f[TL_SIG_TYPES]) != 0)
				continue;
			used[REF][i] = used[TGT][j] = 1;
			add(rs, x, y, fmt_note("concrete inputs recorded on "
			    "the %s only%s", side_word[nx ? TGT : REF],
			    strcmp(x->f[TL_SIG_STRIDES], y->f[TL_SIG_STRIDES]) !=
			    0 ? "; strides differ" : ""));
		}
	for (k = 0; k < 2; k++)
		for (i = 0; i < l->n[k]; i++)
			if (!used[k][i] && fm[k][i].role == F_FUSED)
				attention_group(rs, l, fm, used, k, i);
	for (k = 0; k < 2; k++)
		for (i = 0; i < l->n[k]; i++)
			if (!used[k][i])
				module_group(rs, l, used, k, i);
	for (i = 0; i < l->n[REF]; i++)
		for (j = 0; j < l->n[TGT] && !used[REF][i]; j++) {
			const struct form *x = &fm[REF][i], *y = &fm[TGT][j];

			if (used[TGT][j] || !x->gemm || !y->gemm ||
			    x->b != y->b || x->m != y->m || x->n != y->n ||
			    x->k != y->k || strcmp(x->type, y->type) != 0)
				continue;
			used[REF][i] = used[TGT][j] = 1;
			add(rs, l->s[REF][i], l->s[TGT][j], fmt_note("the same "
			    "product (batch %lld, M=%lld, N=%lld, K=%lld): %s "
			    "on the reference, %s on the target",
			    (long long)x->b, (long long)x->m, (long long)x->n,
			    (long long)x->k, l->s[REF][i]->f[TL_SIG_NAME],
			    l->s[TGT][j]->f[TL_SIG_NAME]));
			rs->r[rs->n - 1].match = "product";
		}
	for (k = 0; k < 2; k++) {
		for (i = 0; i < l->n[k]; i++) {
			if (!used[k][i])
				add(rs, k == REF ? l->s[k][i] : NULL,
				    k == TGT ? l->s[k][i] : NULL, NULL);
			free((char *)fm[k][i].type);
		}
		free(used[k]);
		free(fm[k]);
		free(l->s[k]);
	}
	tl_opargs_free(&a);
}

/*
 * Match the signatures: first on the whole signature, then the rest on
 * the signature without strides, pairing the leftovers of each loose key
 * in the order of cmp_left; what remains is one side's only.
 */
static void
match(const struct tl_opsigs *ref, const struct tl_opsigs *tgt,
    struct rows *rs)
{
	const struct tl_opsigs *side[2] = { ref, tgt };
	unsigned char *used[2];
	struct tl_strmap loose;
	struct tl_jbuf key = { NULL, 0, 0 };
	/* Per loose key and side: the leftover signatures. */
	struct left {
		const struct tl_opsig **s[2];
		size_t n[2], cap[2];
	} *lk = NULL;
	struct lefts rest;
	size_t nlk = 0, caplk = 0, i, j;
	int64_t t;
	int k, added;

	memset(&rest, 0, sizeof(rest));

	for (k = 0; k < 2; k++)
		used[k] = tl_calloc(side[k]->n + 1, 1);
	for (i = 0; i < ref->n; i++) {
		const char *kk = tl_strmap_key(&ref->map, (int64_t)i);

		t = tl_strmap_get(&tgt->map, kk, strlen(kk));
		if (t >= 0) {
			add(rs, &ref->s[i], &tgt->s[t], NULL);
			used[REF][i] = used[TGT][t] = 1;
		}
	}
	tl_strmap_init(&loose);
	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->n; i++) {
			struct left *l;

			if (used[k][i])
				continue;
			tl_sig_key(&key, TL_SIGKEY_LOOSE,
			    (const char *const *)side[k]->s[i].f);
			t = tl_strmap_add(&loose, key.s, key.n, &added);
			if (added) {
				tl_grow(&lk, &caplk, nlk + 1, sizeof(*lk));
				memset(&lk[nlk++], 0, sizeof(*lk));
			}
			l = &lk[t];
			tl_grow(&l->s[k], &l->cap[k], l->n[k] + 1,
			    sizeof(*l->s[k]));
			l->s[k][l->n[k]++] = &side[k]->s[i];
		}
	for (i = 0; i < nlk; i++) {
		struct left *l = &lk[i];

		for (k = 0; k < 2; k++)
			if (l->n[k] > 1)
				qsort(l->s[k], l->n[k], sizeof(*l->s[k]),
				    cmp_left);
		for (j = 0; j < l->n[REF] || j < l->n[TGT]; j++) {
			if (j < l->n[REF] && j < l->n[TGT])
				add(rs, l->s[REF][j], l->s[TGT][j],
				    layout_note(l->s[REF][j]->f[TL_SIG_STRIDES],
				    l->s[TGT][j]->f[TL_SIG_STRIDES]));
			else
				for (k = 0; k < 2; k++)
					if (j < l->n[k]) {
						tl_grow(&rest.s[k],
						    &rest.cap[k], rest.n[k] + 1,
						    sizeof(*rest.s[k]));
						rest.s[k][rest.n[k]++] =
						    l->s[k][j];
					}
		}
		free(l->s[REF]);
		free(l->s[TGT]);
	}
	free(lk);
	group_match(rs, &rest);
	free(used[REF]);
	free(used[TGT]);
	tl_strmap_free(&loose);
	tl_jb_free(&key);
}

static int64_t
time_of(const struct tl_opsig *s)
{
	return s != NULL ? s->time_ns : -1;
}

/* Either side's signature, the target's first. */
static const struct tl_opsig *
any(const struct crow *r)
{
	return r->s[TGT] != NULL ? r->s[TGT] : r->s[REF];
}

/* By target time, then reference time, larger first, then signature. */
static int
cmp_row(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;
	int k, c;

	for (k = TGT; k >= REF; k--)
		if (time_of(x->s[k]) != time_of(y->s[k]))
			return time_of(x->s[k]) > time_of(y->s[k]) ? -1 : 1;
	for (k = TL_SIG_NAME; k < TL_SIG_N; k++)
		if ((c = strcmp(any(x)->f[k], any(y)->f[k])) != 0)
			return c;
	for (k = 0; k < 2; k++) {
		const char *sx = x->s[k] != NULL ? x->s[k]->f[TL_SIG_STRIDES] :
		    "", *sy = y->s[k] != NULL ? y->s[k]->f[TL_SIG_STRIDES] : "";

		if ((c = strcmp(sx, sy)) != 0)
			return c;
	}
	return 0;
}

static void
w_num(struct tl_writer *w, int has, double v)
{
	if (has)
		tl_w_double(w, v);
	else
		tl_w_empty(w);
}

static const struct tl_opsig *kern_sort_of;

static int
cmp_kern(const void *a, const void *b)
{
	const struct tl_kstat *x = &kern_sort_of->k[*(const size_t *)a];
	const struct tl_kstat *y = &kern_sort_of->k[*(const size_t *)b];

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
w_kernels(struct tl_writer *w, const struct tl_opsig *s, struct tl_jbuf *b)
{
	size_t i, *ord;

	if (s == NULL || s->nk == 0) {
		tl_w_empty(w);
		return;
	}
	/* By time, larger first, then name (a signature may list many). */
	ord = tl_calloc(s->nk, sizeof(*ord));
	for (i = 0; i < s->nk; i++)
		ord[i] = i;
	kern_sort_of = s;
	if (s->nk > 1)
		qsort(ord, s->nk, sizeof(*ord), cmp_kern);
	tl_jb_reset(b);
	tl_jb_raw(b, "[", 1);
	for (i = 0; i < s->nk; i++) {
		const struct tl_kstat *k = &s->k[ord[i]];

		tl_jb_lit(b, i > 0 ? ",{\"name\":" : "{\"name\":");
		tl_jb_str(b, k->name);
		tl_jb_lit(b, ",\"count\":");
		tl_jb_int(b, k->count);
		tl_jb_lit(b, ",\"time_us\":");
		tl_jb_us(b, k->ns);
		tl_jb_raw(b, "}", 1);
	}
	tl_jb_raw(b, "]", 1);
	tl_w_mem(w, b->s, b->n);
	free(ord);
}

static void
w_side(struct tl_writer *w, const struct tl_opsig *s, const char *name,
    const struct tl_hw *hw, const struct eff *e, struct tl_jbuf *b)
{
	tl_w_str(w, name);
	tl_w_str(w, hw != NULL ? tl_hw_name(hw) : "");
	tl_w_str(w, e->roof);
	tl_w_str(w, e->bw_roof);
	w_num(w, e->peak_tflops > 0, e->peak_tflops);
	w_num(w, e->peak_tbs > 0, e->peak_tbs);
	if (s == NULL) {
		int k;

		for (k = 0; k < 10; k++)	/* count .. perf_error */
			tl_w_empty(w);
		return;
	}
	tl_w_int(w, s->count);
	tl_w_us(w, s->time_ns);
	tl_w_double(w, (double)s->time_ns / 1e3 / (double)s->count);
	w_num(w, e->r.has_tflops_s, e->r.tflops_s);
	w_num(w, e->r.has_tbs, e->r.tbs);
	w_num(w, e->has_pct, e->r.pct_roofline);
	w_num(w, e->beyond != NULL, e->beyond_pct);
	w_num(w, s->has_pct, s->pct);
	w_kernels(w, s, b);
	tl_w_str(w, e->why);
}

static void
w_tlc(struct tl_writer *w, const struct tl_opsigs *o)
{
	int k;

	for (k = 0; k < TL_TLC_N; k++)
		if (o->has_tlc[k])
			tl_w_us(w, o->tlc_ns[k]);
		else
			tl_w_empty(w);
}

static double
mean_us(const struct tl_opsig *s)
{
	return (double)s->time_ns / 1e3 / (double)s->count;
}

/*
 * The time ratio, target over reference, that the roofs e predict for a
 * row of this bound: the reference's roof over the target's.  1, or 0
 * when a roof is missing.
 */
static int
expect(const char *bound, const struct eff e[2], double *ratio)
{
	if (strcmp(bound, "compute") == 0 && e[REF].peak_tflops > 0 &&
	    e[TGT].peak_tflops > 0) {
		*ratio = e[REF].peak_tflops / e[TGT].peak_tflops;
		return 1;
	}
	if (strcmp(bound, "memory") == 0 && e[REF].peak_tbs > 0 &&
	    e[TGT].peak_tbs > 0) {
		*ratio = e[REF].peak_tbs / e[TGT].peak_tbs;
		return 1;
	}
	return 0;
}

/* The explained column: within the tolerance of the expected ratio. */
static void
w_explained(struct tl_writer *w, const struct crow *r, int has_e,
    double expect, int has_a, double actual, double tol)
{
	double lim = 1 + tol / 100;

	if (r->s[TGT] == NULL)
		tl_w_empty(w);
	else if (r->s[REF] == NULL)
		tl_w_str(w, "no");
	else if (has_e && has_a)
		tl_w_str(w, actual <= expect * lim && actual >= expect / lim ?
		    "yes" : "no");
	else
		tl_w_empty(w);
}

/*
 * The comparison columns of a row; other holds both sides' roofs of the
 * other roof kind, other_bound the row's bound against them.
 */
static void
w_delta(struct tl_writer *w, const struct crow *r, const char *bound,
    const struct eff e[2], const char *other_bound,
    const struct eff other[2], double tol)
{
	const struct tl_opsig *rs = r->s[REF], *ts = r->s[TGT];
	int64_t d = time_of(ts) < 0 ? 0 : ts->time_ns;
	double expected = 0, actual = 0, oexpected = 0;
	int has_e = 0, has_a = 0, has_o = 0;

	if (rs != NULL)
		d -= rs->time_ns;
	tl_w_us(w, d);
	w_num(w, rs != NULL && rs->time_ns > 0, 100 * (double)d /
	    (double)(rs != NULL && rs->time_ns > 0 ? rs->time_ns : 1));
	if (rs != NULL && ts != NULL) {
		has_e = expect(bound, e, &expected);
		has_o = expect(other_bound, other, &oexpected);
		if (rs->time_ns > 0) {
			actual = mean_us(ts) / mean_us(rs);
			has_a = 1;
		}
	}
	w_num(w, has_e, expected);
	w_num(w, has_a, actual);
	w_explained(w, r, has_e, expected, has_a, actual, tol);
	tl_w_double(w, tol);
	if (ts == NULL)
		tl_w_int(w, 0);
	else if (rs == NULL)
		tl_w_us(w, ts->time_ns);
	else if (has_e && has_a) {
		double u = (double)ts->time_ns / 1e3 -
		    expected * mean_us(rs) * (double)ts->count;

		tl_w_double(w, actual > expected && u > 0 ? u : 0);
	} else
		tl_w_empty(w);
	w_num(w, has_o, oexpected);
	w_explained(w, r, has_o, oexpected, has_a, actual, tol);
}

void
tl_compare_ops(const struct tl_opsigs *ref, const struct tl_opsigs *tgt,
    const struct tl_cmp_opts *o, struct tl_writer *w)
{
	const struct tl_opsigs *side[2] = { ref, tgt };
	const char *name[2];
	enum tl_roof other = o->roof == TL_ROOF_PEAK ? TL_ROOF_ACHIEVABLE :
	    TL_ROOF_PEAK;
	struct rows rs = { NULL, 0, 0 };
	struct tl_jbuf b = { NULL, 0, 0 };
	size_t i;
	int k;

	for (k = 0; k < 2; k++)
		name[k] = side_name(o, k, side[k]->trace, side[k]->path);
	match(ref, tgt, &rs);
	if (rs.n > 0)
		qsort(rs.r, rs.n, sizeof(*rs.r), cmp_row);
	tl_table_header(w, TL_TAB_COMPARE);
	for (i = 0; i < rs.n; i++) {
		const struct crow *r = &rs.r[i];
		const struct tl_opsig *s = any(r);
		const char *bound, *obound;
		struct eff e[2], oe[2];
		int side = r->s[TGT] != NULL ? TGT : REF;

		pair_roofs(o, o->roof, s->compute_spec, e);
		pair_roofs(o, other, s->compute_spec, oe);
		for (k = 0; k < 2; k++) {
			side_eff(r->s[k], &e[k]);
			side_eff(r->s[k], &oe[k]);
		}
		bound = row_bound(s, &e[side]);
		obound = row_bound(s, &oe[side]);
		tl_w_str(w, r->match != NULL ? r->match : r->s[REF] == NULL ?
		    "target_only" : r->s[TGT] == NULL ? "ref_only" : "both");
		tl_w_str(w, s->f[TL_SIG_NAME]);
		tl_w_str(w, s->category);
		tl_w_str(w, s->direction);
		tl_w_str(w, s->f[TL_SIG_DIMS]);
		tl_w_str(w, s->f[TL_SIG_TYPES]);
		tl_w_str(w, (r->s[REF] != NULL ? r->s[REF] : s)->
		    f[TL_SIG_STRIDES]);
		tl_w_str(w, r->s[TGT] != NULL ? r->s[TGT]->f[TL_SIG_STRIDES] :
		    "");
		tl_w_str(w, r->note != NULL ? r->note : "");
		tl_w_str(w, s->f[TL_SIG_CONCRETE]);
		tl_w_str(w, s->perf_model);
		tl_w_str(w, s->compute_spec);
		if (s->has_flops)
			tl_w_int(w, s->flops);
		else
			tl_w_empty(w);
		if (s->has_bytes)
			tl_w_int(w, s->bytes);
		else
			tl_w_empty(w);
		w_num(w, s->has_flops && s->has_bytes && s->bytes > 0,
		    (double)s->flops / (double)(s->bytes > 0 ? s->bytes : 1));
		tl_w_str(w, bound);
		tl_w_str(w, tl_roof_name(o->roof));
		for (k = 0; k < 2; k++)
			w_side(w, r->s[k], name[k], o->hw[k], &e[k], &b);
		w_delta(w, r, bound, e, obound, oe, o->tolerance_pct);
		w_tlc(w, ref);
		w_tlc(w, tgt);
		tl_w_eol(w);
	}
	for (i = 0; i < rs.n; i++)
		free(rs.r[i].note);
	free(rs.r);
	tl_jb_free(&b);
}

/* The timeline types, in the order of the rows. */
static const char *const tl_types[TL_TLINE_N] = {
	"computation", "exposed_comm", "exposed_memcpy", "busy", "idle",
	"total", "total_comm", "total_memcpy"
};
/* The type of each trace_*_us constant (lib/analysis/opsig.h order). */
static const int tlc_type[TL_TLC_N] = { 5, 3, 0, 1, 2, 4 };

/* A timeline's input while it is read. */
struct tl_tline_reading {
	struct tl_stream in;
	struct tl_rowreader rr;
};

static int
type_index(const char *t)
{
	int i;

	for (i = 0; i < TL_TLINE_N; i++)
		if (strcmp(tl_types[i], t) == 0)
			return i;
	return -1;
}

void
tl_tline_read(struct tl_tline *tl, const char *path)
{
	static const short cols[] = {
		TL_COL_TRACE, TL_COL_TYPE, TL_COL_TIME_US,
		TL_COL_TRACE_TOTAL_US, TL_COL_TRACE_BUSY_US, TL_COL_TRACE_COMPUTE_US,
		TL_COL_TRACE_EXPOSED_COMM_US, TL_COL_TRACE_EXPOSED_MEMCPY_US,
		TL_COL_TRACE_IDLE_US
	};
	struct tl_stream *in;
	struct tl_rowreader *rr;
	char *files[1];
	int rows, k, n = 0, any = 0;

	memset(tl, 0, sizeof(*tl));
	/* Zeroed: what a tl_die leaves is freed by tl_tline_free. */
	tl->reading = tl_calloc(1, sizeof(*tl->reading));
	in = &tl->reading->in;
	rr = &tl->reading->rr;
	tl->path = tl_strdup(path);
	files[0] = tl->path;
	tl_stream_open(in, files, 1);
	tl_rr_init(rr, in, cols, (int)(sizeof(cols) / sizeof(cols[0])));
	rows = tl_rr_has(rr, TL_COL_TYPE) && tl_rr_has(rr, TL_COL_TIME_US);
	for (k = 0; k < TL_TLC_N; k++)
		any |= tl_rr_has(rr, tl_tlc_cols[k]);
	if (!rows && !any)
		tl_die("%s: no timeline: neither type and time_us columns "
		    "(tl-parse --timeline) nor trace_*_us columns (the op "
		    "stream)", path);
	while (tl_rr_next(rr)) {
		const char *t = tl_rr_text(rr, TL_COL_TRACE);

		if (n++ == 0)
			tl->trace = tl_strdup(t);
		else if (strcmp(t, tl->trace) != 0)
			tl_die("%s: a second trace '%s' (the first is '%s'); "
			    "compare one trace with one trace",
			    tl_stream_where(in), t, tl->trace);
		if (rows) {
			int i = type_index(tl_rr_text(rr, TL_COL_TYPE));

			if (i < 0)
				continue;
			if (tl->has[i])
				tl_die("%s: a second '%s' row: give the "
				    "timeline of one device",
				    tl_stream_where(in), tl_types[i]);
			tl->has[i] = tl_rr_ns(rr, TL_COL_TIME_US, &tl->ns[i]);
		} else if (n == 1)
			for (k = 0; k < TL_TLC_N; k++)
				tl->has[tlc_type[k]] = tl_rr_ns(rr,
				    tl_tlc_cols[k], &tl->ns[tlc_type[k]]);
	}
	if (tl->trace == NULL)
		tl->trace = tl_strdup("");
	tl_rr_free(rr);
	tl_stream_close(in);
	free(tl->reading);
	tl->reading = NULL;
}

void
tl_tline_free(struct tl_tline *tl)
{
	if (tl->reading != NULL) {
		tl_rr_free(&tl->reading->rr);
		tl_stream_close(&tl->reading->in);
		free(tl->reading);
	}
	free(tl->path);
	free(tl->trace);
	memset(tl, 0, sizeof(*tl));
}

static void
w_pct_total(struct tl_writer *w, const struct tl_tline *t, int i)
{
	int ti = 5;	/* total */

	w_num(w, t->has[i] && t->has[ti] && t->ns[ti] > 0,
	    100 * (double)t->ns[i] / (double)(t->ns[ti] > 0 ? t->ns[ti] : 1));
}

void
tl_compare_timeline(const struct tl_tline *ref, const struct tl_tline *tgt,
    const struct tl_cmp_opts *o, struct tl_writer *w)
{
	const struct tl_tline *t[2] = { ref, tgt };
	const char *name[2];
	int i, k;

	for (k = 0; k < 2; k++)
		name[k] = side_name(o, k, t[k]->trace, t[k]->path);
	tl_table_header(w, TL_TAB_CMP_TIMELINE);
	for (i = 0; i < TL_TLINE_N; i++) {
		int both = t[REF]->has[i] && t[TGT]->has[i];

		if (!t[REF]->has[i] && !t[TGT]->has[i])
			continue;
		tl_w_str(w, name[REF]);
		tl_w_str(w, name[TGT]);
		tl_w_str(w, tl_types[i]);
		for (k = 0; k < 2; k++)
			if (t[k]->has[i])
				tl_w_us(w, t[k]->ns[i]);
			else
				tl_w_empty(w);
		if (both)
			tl_w_us(w, t[TGT]->ns[i] - t[REF]->ns[i]);
		else
			tl_w_empty(w);
		w_num(w, both && t[REF]->ns[i] != 0, 100 *
		    (double)(t[TGT]->ns[i] - t[REF]->ns[i]) /
		    (double)(t[REF]->ns[i] != 0 ? t[REF]->ns[i] : 1));
		for (k = 0; k < 2; k++)
			w_pct_total(w, t[k], i);
		tl_w_eol(w);
	}
}
