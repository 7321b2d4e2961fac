/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fusion.h"
#include "analysis/oprow.h"
#include "common/util.h"
#include "model/family.h"
#include "model/opargs.h"
#include "model/perfresult.h"
#include "stream/category.h"
#include "trace/kernclass.h"

/* Rows a chain looks at on either side of its anchor. */
#define WINDOW 48
/* Most rows of one chain. */
#define CHAIN_MAX 64

static const struct tl_fop *
op_of(const struct tl_findings *f, int r)
{
	return &f->op[f->row[r].op];
}

static int
is_cat(const struct tl_findings *f, int r, const char *cat)
{
	return tl_category_is(op_of(f, r)->cat, cat);
}

/* Elementwise or reduction: what a fused kernel absorbs. */
static int
is_pointwise(const struct tl_findings *f, int r)
{
	return is_cat(f, r, "elementwise") || is_cat(f, r, "reduce");
}

/*
 * Where row r stands against module path m (f->str id) of a chain:
 * 1 in it, 0 in an instance below it (skipped), -1 outside.
 */
static int
scope(const struct tl_findings *f, int r, uint32_t m)
{
	uint32_t rm = f->row[r].module;

	if (rm == m)
		return 1;
	if (m != 0 && rm != 0 && tl_mod_below(tl_fstr(f, rm), tl_fstr(f, m)))
		return 0;
	return -1;
}

/*
 * A GEMM of two activations (no weights) with its batch, M, N and K
 * from the perf model's parameters; 1 found.
 */
static int
act_gemm(struct tl_opctx *c, int r, int64_t v[4])
{
	const struct tl_fop *op = op_of(c->f, r);

	if (!tl_category_is(op->cat, "gemm") ||
	    op->operands == TL_OPND_WEIGHTS)
		return 0;
	if (!tl_op_param(c, op, "B", &v[0]))
		v[0] = 1;
	return tl_op_param(c, op, "M", &v[1]) && tl_op_param(c, op, "N",
	    &v[2]) && tl_op_param(c, op, "K", &v[3]);
}

static int
is_softmax(const struct tl_fop *op)
{
	return tl_category_is(op->cat, "softmax") ||
	    strstr(op->name, "softmax") != NULL;
}

/*
 * The GEMM next to the softmax at position p, walking dir (-1, +1) in
 * module m: the first GEMM met, which must be of two activations with
 * output (want 0) or first operand (want 1) of n elements.  Its
 * position, or -1.
 */
static int
attn_gemm(struct tl_opctx *c, int p, int dir, uint32_t m, int64_t n,
    int want, int64_t v[4])
{
	struct tl_findings *f = c->f;
	int r0 = tl_row_at(f, p), q, r, k, s;

	for (k = 1; k <= WINDOW; k++) {
		q = p + dir * k;
		if ((r = tl_row_at(f, q)) < 0 || !tl_row_same_thread(f, r, r0))
			return -1;
		if ((s = scope(f, r, m)) < 0)
			return -1;
		if (s == 0 || !is_cat(f, r, "gemm"))
			continue;
		if (!act_gemm(c, r, v))
			return -1;
		if ((want == 0 ? v[0] * v[1] * v[2] : v[0] * v[1] * v[3]) == n)
			return q;
		return -1;
	}
	return -1;
}

/*
 * The attention perf model on the shapes a chain implies: its roofline
 * time in ns (0 when the GPU's roofs are unknown).
 */
static double
attn_model(struct tl_opctx *c, int gemm, const int64_t qk[4],
    const int64_t av[4], int bwd, struct tl_fpat *p)
{
	const struct tl_fop *op = &c->f->op[gemm];
	const struct tl_arg *a = tl_op_arg(c, gemm, 0);
	struct tl_opargs o;
	struct tl_perf pf;
	char dims[160], types[160];
	const char *err, *t = a->type[0] != '\0' ? a->type : "c10::BFloat16";
	double roof = 0, tc, tm;

	snprintf(dims, sizeof(dims), "[[1,%lld,%lld,%lld],[1,%lld,%lld,%lld],"
	    "[1,%lld,%lld,%lld]]", (long long)qk[0], (long long)qk[1],
	    (long long)qk[3], (long long)qk[0], (long long)qk[2],
	    (long long)qk[3], (long long)qk[0], (long long)qk[2],
	    (long long)av[2]);
	snprintf(types, sizeof(types), "[\"%s\",\"%s\",\"%s\"]", t, t, t);
	tl_opargs_init(&o);
	memset(&pf, 0, sizeof(pf));
	tl_perf_reset(&pf);
	if (tl_opargs_parse(&o, "aten::_scaled_dot_product_flash_attention",
	    dims, types, NULL, NULL, &err) == 0 &&
	    tl_model_sdpa(&o, bwd, &pf) == 0 && pf.has_flops &&
	    pf.has_bytes) {
		p->flops += pf.flops;
		p->bytes += pf.bytes;
		if (op->peak_tflops > 0 && op->peak_tbs > 0) {
			tc = (double)pf.flops / op->peak_tflops / 1e3;
			tm = (double)pf.bytes / op->peak_tbs / 1e3;
			roof = tc > tm ? tc : tm;
		}
	}
	tl_perf_free(&pf);
	tl_opargs_free(&o);
	return roof;
}

/* Copies of Q or K (n1, n2 elements) just before position p, in m. */
static int
attn_copies(struct tl_opctx *c, int p, uint32_t m, int64_t n1, int64_t n2)
{
	struct tl_findings *f = c->f;
	int r0 = tl_row_at(f, p), q = p, r;
	int64_t n;

	while ((r = tl_row_at(f, q - 1)) >= 0 && tl_row_same_thread(f, r, r0) &&
	    scope(f, r, m) == 1 && f->row[r].claim < 0 &&
	    strstr(op_of(f, r)->name, "copy") != NULL &&
	    ((n = tl_op_numel(c, f->row[r].op, 0)) == n1 || n == n2))
		q--;
	return q;
}

static void
attention(struct tl_findings *f, struct tl_opctx *c)
{
	struct tl_patgroup g;
	struct tl_fpat *pat;
	int64_t qk[4], av[4], n;
	int p, b, g1, e, q, r, pi, i, flip;
	double roof, lo, hi;
	char cls[128], *soft;

	/* By op: 1 + whether it is a softmax, 0 not yet known. */
	soft = tl_calloc((size_t)f->nop + 1, 1);
	tl_patgroup_init(&g, f, TL_PAT_ATTENTION);
	for (p = 0; p < f->nrow; p++) {
		r = tl_row_at(f, p);
		if (soft[f->row[r].op] == 0)
			soft[f->row[r].op] = (char)(1 + is_softmax(op_of(f, r)));
		if (f->row[r].claim >= 0 || soft[f->row[r].op] == 1 ||
		    (n = tl_op_numel(c, f->row[r].op, 0)) <= 0)
			continue;
		/* Forward: QK^T, softmax, AV; backward: the other way. */
		flip = f->row[r].bwd;
		if ((g1 = attn_gemm(c, p, -1, f->row[r].module, n, flip,
		    flip ? av : qk)) < 0 ||
		    (e = attn_gemm(c, p, 1, f->row[r].module, n, !flip,
		    flip ? qk : av)) < 0)
			continue;
		if (f->row[tl_row_at(f, g1)].claim >= 0 ||
		    f->row[tl_row_at(f, e)].claim >= 0)
			continue;
		tl_mod_class(tl_fstr(f, f->row[r].module), cls, sizeof(cls));
		pi = tl_patgroup_get(&g, cls, cls);
		pat = &f->pat[pi];
		b = flip ? g1 : attn_copies(c, g1, f->row[r].module,
		    qk[0] * qk[1] * qk[3], qk[0] * qk[3] * qk[2]);
		/* The copies, the GEMMs and the score-sized ops between. */
		for (q = b; q <= e; q++) {
			i = tl_row_at(f, q);
			if (scope(f, i, f->row[r].module) != 1 ||
			    f->row[i].claim >= 0)
				continue;
			if (q <= g1 || q == e ||
			    tl_op_numel(c, f->row[i].op, -1) == n)
				tl_patgroup_row(&g, pi, i, 1);
		}
		pat->calls++;
		pat->cat = tl_category_index("attention");
		roof = attn_model(c, f->row[tl_row_at(f, flip ? e : g1)].op, qk,
		    av, flip, pat);
		/* The fused kernel's time at the ends of its range. */
		lo = qk[1] < TL_ATT_SHORT_N ? TL_ATT_SHORT_LO : TL_ATT_LONG_LO;
		hi = qk[1] < TL_ATT_SHORT_N ? TL_ATT_SHORT_HI : TL_ATT_LONG_HI;
		if (pat->eff_lo == 0 || lo < pat->eff_lo)
			pat->eff_lo = lo;
		if (hi > pat->eff_hi)
			pat->eff_hi = hi;
		if (qk[1] < TL_ATT_SHORT_N)
			pat->short_seq = 1;
		pat->model_lo_ns += (int64_t)(roof / (lo / 100) + 0.5);
		pat->model_hi_ns += (int64_t)(roof / (hi / 100) + 0.5);
		if (roof <= 0)
			pat->unquantified = 1;
	}
	free(soft);
	for (i = 0; i < f->npat; i++) {
		pat = &f->pat[i];
		if (pat->kind != TL_PAT_ATTENTION || pat->unquantified)
			continue;
		pat->save_lo_ns = pat->time_ns - pat->model_lo_ns;
		pat->save_hi_ns = pat->time_ns - pat->model_hi_ns;
		if (pat->save_lo_ns < 0)
			pat->save_lo_ns = 0;
		if (pat->save_hi_ns < 0)
			pat->save_hi_ns = 0;
		pat->save_ns = (pat->save_lo_ns + pat->save_hi_ns) / 2;
	}
	tl_patgroup_free(&g);
}

/* A norm's statistics: what a decomposed norm computes first. */
static int
is_stat(const struct tl_fop *op)
{
	static const char *const stat[] = {
		"aten::mean", "aten::var", "aten::var_mean", "aten::std",
		"aten::rsqrt", "aten::rsqrt_", "aten::norm",
		"aten::linalg_vector_norm", NULL
	};

	return tl_name_in(op->name, stat);
}

static int
is_norm_class(const char *cls)
{
	return strstr(cls, "Norm") != NULL || strstr(cls, "norm") != NULL;
}

/*
 * Add one call of a decomposed norm (rows at positions pos[0..n)) to
 * pattern pi: its rows, and the one pass a fused kernel would make.
 */
static void
norm_call(struct tl_findings *f, struct tl_opctx *c, struct tl_patgroup *g,
    int pi, const int *pos, int n, double tbs)
{
	struct tl_fpat *pat = &f->pat[pi];
	int64_t big = 0, x, bytes;
	int k, r, es, small = 0;

	for (k = 0; k < n; k++) {
		r = tl_row_at(f, pos[k]);
		tl_patgroup_row(g, pi, r, 1);
		if ((x = tl_op_numel(c, f->row[r].op, -1)) > big)
			big = x;
		/* A copy's source is its second argument. */
		es = tl_op_elsize(c, f->row[r].op, strstr(op_of(f, r)->name,
		    "copy") != NULL ? 1 : 0);
		if (es > 0 && (small == 0 || es < small))
			small = es;
	}
	pat->calls++;
	if (big <= 0 || small == 0 || tbs <= 0) {
		pat->unquantified = 1;
		return;
	}
	bytes = 2 * big * small;
	pat->bytes += bytes;
	pat->model_lo_ns += (int64_t)((double)bytes / tbs / 1e3 + 0.5);
	pat->model_hi_ns = pat->model_lo_ns;
}

/* The rows of one module call starting at position p (scope 1). */
static int
module_call(struct tl_findings *f, int p, int *pos, int max, int *end)
{
	int r0 = tl_row_at(f, p), q, r, s, n = 0;
	uint32_t m = f->row[r0].module;

	for (q = p; (r = tl_row_at(f, q)) >= 0 && tl_row_same_thread(f, r, r0);
	    q++) {
		if ((s = scope(f, r, m)) < 0)
			break;
		if (s == 1 && n < max)
			pos[n++] = q;
	}
	*end = q;
	return n;
}

/*
 * Without modules: the chain around the rsqrt at position p, back to
 * its mean and the ops on the same tensor before it, on to the scaling
 * after it.  The number of rows, or 0.
 */
static int
norm_by_name(struct tl_findings *f, struct tl_opctx *c, int p, int *pos)
{
	int r0 = tl_row_at(f, p), q, r, n = 0, k, mean = -1, first;
	int64_t nx = 0;

	for (q = p - 1; q >= p - 4; q--) {
		if ((r = tl_row_at(f, q)) < 0 || !tl_row_same_thread(f, r, r0) ||
		    f->row[r].module != 0 || f->row[r].claim >= 0 ||
		    !is_pointwise(f, r))
			break;
		if (is_stat(op_of(f, r))) {
			mean = q;
			nx = tl_op_numel(c, f->row[r].op, 0);
			break;
		}
	}
	if (mean < 0 || nx <= 0)
		return 0;
	for (first = mean; first > mean - 3; first--)
		if ((r = tl_row_at(f, first - 1)) < 0 ||
		    !tl_row_same_thread(f, r, r0) || f->row[r].module != 0 ||
		    f->row[r].claim >= 0 || !is_pointwise(f, r) ||
		    tl_op_numel(c, f->row[r].op, -1) != nx)
			break;
	for (q = first; q <= p; q++)
		pos[n++] = q;
	for (k = 1; k <= 4; k++) {
		if ((r = tl_row_at(f, p + k)) < 0 ||
		    !tl_row_same_thread(f, r, r0) || f->row[r].module != 0 ||
		    f->row[r].claim >= 0 || !is_pointwise(f, r) ||
		    tl_op_numel(c, f->row[r].op, -1) != nx)
			break;
		pos[n++] = p + k;
	}
	return n >= 4 ? n : 0;
}

static void
norms(struct tl_findings *f, struct tl_opctx *c)
{
	struct tl_patgroup g;
	struct tl_fpat *pat;
	int pos[CHAIN_MAX], n, p, end, k, r, ok, stat, i, pi;
	double tbs = f->base_tbs > 0 ? f->base_tbs : f->peak_tbs;
	char cls[128], *normcls;

	/* By module id: 1 + whether its class is a norm's, 0 not yet known. */
	normcls = tl_calloc(tl_strtab_count(f->str) + 1, 1);
	tl_patgroup_init(&g, f, TL_PAT_NORM);
	for (p = 0; p < f->nrow; p = end) {
		end = p + 1;
		r = tl_row_at(f, p);
		if (f->row[r].module == 0) {
			if (strstr(op_of(f, r)->name, "rsqrt") == NULL ||
			    f->row[r].claim >= 0 ||
			    (n = norm_by_name(f, c, p, pos)) == 0)
				continue;
			pi = tl_patgroup_get(&g, "", "");
			norm_call(f, c, &g, pi, pos, n, tbs);
			continue;
		}
		if (normcls[f->row[r].module] == 0) {
			tl_mod_class(tl_fstr(f, f->row[r].module), cls,
			    sizeof(cls));
			normcls[f->row[r].module] = (char)(1 + is_norm_class(cls));
		}
		if (normcls[f->row[r].module] == 1)
			continue;
		tl_mod_class(tl_fstr(f, f->row[r].module), cls, sizeof(cls));
		n = module_call(f, p, pos, CHAIN_MAX, &end);
		for (k = 0, ok = 1, stat = 0; k < n; k++) {
			i = tl_row_at(f, pos[k]);
			if (!is_pointwise(f, i) || f->row[i].claim >= 0)
				ok = 0;
			stat |= is_stat(op_of(f, i));
		}
		if (!ok || !stat || n < 3)
			continue;
		pi = tl_patgroup_get(&g, cls, cls);
		norm_call(f, c, &g, pi, pos, n, tbs);
	}
	free(normcls);
	for (i = 0; i < f->npat; i++) {
		pat = &f->pat[i];
		if (pat->kind != TL_PAT_NORM)
			continue;
		pat->cat = tl_category_index("elementwise");
		pat->tbs = tbs;
		pat->tbs_baseline = f->base_tbs > 0;
		if (pat->unquantified)
			continue;
		pat->save_ns = pat->save_lo_ns = pat->save_hi_ns =
		    pat->time_ns > pat->model_lo_ns ? pat->time_ns -
		    pat->model_lo_ns : 0;
	}
	tl_patgroup_free(&g);
}

/* Layout kernels of convolutions and norms: channels_last. */
static void
layouts(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_fpat *pat = NULL;
	const struct tl_fop *op;
	const struct tl_fkev *k;
	const char *kn;
	int r, i, pi = -1;
	int64_t t;
	/*
	 * By op: 1 + whether its category is a conv's or a norm's; by
	 * kernel name id: 1 + whether it is a layout kernel not Triton's.
	 * 0 not yet known.
	 */
	char *opok = tl_calloc((size_t)f->nop + 1, 1);
	char *lay = tl_calloc(tl_strtab_count(f->str) + 1, 1);

	tl_patgroup_init(&g, f, TL_PAT_LAYOUT);
	for (r = 0; r < f->nrow; r++) {
		op = op_of(f, r);
		if (opok[f->row[r].op] == 0)
			opok[f->row[r].op] = (char)(1 +
			    (tl_category_is(op->cat, "conv") ||
			    tl_category_is(op->cat, "batchnorm") ||
			    tl_category_in_group(op->cat, "norm")));
		if (opok[f->row[r].op] == 1)
			continue;
		for (t = 0, i = 0; i < f->row[r].nk; i++) {
			k = &f->kev[f->row[r].k0 + i];
			if (lay[k->name] == 0) {
				kn = tl_fstr(f, k->name);
				lay[k->name] = (char)(1 +
				    (tl_kernel_is_layout(kn) &&
				    strncmp(kn, "triton", 6) != 0));
			}
			if (lay[k->name] == 1)
				continue;
			if (pi < 0) {
				pi = tl_patgroup_get(&g, "", "");
				pat = &f->pat[pi];
				pat->cat = tl_category_index("conv");
			}
			tl_fpat_ev(pat, -1, k->name, 1, k->dur);
			t += k->dur;
		}
		if (t == 0)
			continue;
		tl_fpat_ev(pat, f->row[r].op, 0, 1, t);
		tl_patgroup_instance(&g, pi, f->row[r].module);
		f->op[f->row[r].op].claimed_ns += t;
		f->cov.pattern_ns += t;
		pat->time_ns += t;
		pat->calls++;
		if (pat->example_row < 0)
			pat->example_row = r;
	}
	free(opok);
	free(lay);
	if (pat != NULL)
		pat->save_ns = pat->save_lo_ns = pat->save_hi_ns = pat->time_ns;
	tl_patgroup_free(&g);
}

/* A copy whose source and destination differ only in their strides. */
static int
layout_copy(struct tl_opctx *c, const struct tl_fop *op, int o)
{
	const struct tl_arg *d, *s;
	struct tl_arg dd;
	int k;

	if (strcmp(op->name, "aten::copy_") != 0)
		return 0;
	d = tl_op_arg(c, o, 0);
	dd = *d;		/* the next call may move d */
	s = tl_op_arg(c, o, 1);
	if (dd.kind != TL_ARG_SHAPE || s->kind != TL_ARG_SHAPE ||
	    dd.nd != s->nd || dd.nd < 2 || dd.nst != dd.nd || s->nst != s->nd ||
	    strcmp(dd.type, s->type) != 0)
		return 0;
	for (k = 0; k < dd.nd; k++)
		if (dd.dim[k] != s->dim[k])
			return 0;
	for (k = 0; k < dd.nd; k++)
		if (dd.dim[k] > 1 && dd.st[k] != s->st[k])
			return 1;
	return 0;
}

static void
layout_copies(struct tl_findings *f, struct tl_opctx *c)
{
	struct tl_patgroup g;
	struct tl_fpat *pat;
	char cls[128], key[256];
	int r, pi, i;

	tl_patgroup_init(&g, f, TL_PAT_LAYOUT_COPY);
	for (r = 0; r < f->nrow; r++) {
		if (f->row[r].claim >= 0 || f->row[r].time_ns <= 0 ||
		    !layout_copy(c, op_of(f, r), f->row[r].op))
			continue;
		tl_mod_class(tl_fstr(f, f->row[r].module), cls, sizeof(cls));
		snprintf(key, sizeof(key), "%s", cls);
		pi = tl_patgroup_get(&g, key, key);
		tl_patgroup_row(&g, pi, r, 1);
		f->pat[pi].calls++;
	}
	for (i = 0; i < f->npat; i++) {
		pat = &f->pat[i];
		if (pat->kind != TL_PAT_LAYOUT_COPY)
			continue;
		pat->cat = tl_category_index("elementwise");
		pat->save_ns = pat->save_lo_ns = pat->save_hi_ns = pat->time_ns;
		pat->upper = 1;
	}
	tl_patgroup_free(&g);
}

/*
 * Add one elementwise chain (positions pos[0..n)) to pattern pi: the
 * bytes its ops move and the bytes one fused kernel would.
 */
static void
eltwise_call(struct tl_findings *f, struct tl_patgroup *g, int pi,
    const int *pos, int n)
{
	struct tl_fpat *pat = &f->pat[pi];
	const struct tl_fop *op;
	int64_t total = 0, big = 0, t = 0;
	int k, r, m = 0;

	for (k = 0; k < n; k++) {
		r = tl_row_at(f, pos[k]);
		tl_patgroup_row(g, pi, r, 1);
		op = op_of(f, r);
		if (!op->has_bytes || op->bytes <= 0)
			continue;
		m++;
		total += op->bytes;
		t += f->row[r].time_ns;
		if (op->bytes > big)
			big = op->bytes;
	}
	pat->calls++;
	if (m < 2) {
		pat->unquantified = 1;
		return;
	}
	pat->bytes += total;
	pat->bytes_after += big;
	/* The modelled ops' time, scaled by the bytes fusion saves. */
	pat->save_ns += (int64_t)((double)t * (double)(total - big) /
	    (double)total + 0.5);
}

/* The op names of a chain, joined: its key within a module class. */
static void
chain_key(struct tl_findings *f, const int *pos, int n, char *buf,
    size_t size)
{
	size_t len = strlen(buf);
	int k;

	for (k = 0; k < n && len + 2 < size; k++) {
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    k ? ", " : "", op_of(f, tl_row_at(f, pos[k]))->name);
		if (len >= size)
			len = size - 1;
	}
}

/*
 * The run of unclaimed pointwise rows from position p in one module
 * call, on one tensor size (a chain passes one tensor along; ops on
 * tensors of other sizes are independent work that fusing would not
 * spare a byte of).  Runs of one op name only are copies of distinct
 * tensors: none.
 */
static int
pointwise_run(struct tl_findings *f, struct tl_opctx *c, int p, int *pos)
{
	int r0 = tl_row_at(f, p), q, r, n = 0, mixed = 0;
	uint32_t m = f->row[r0].module;
	int64_t size = tl_op_numel(c, f->row[r0].op, -1);

	for (q = p; n < CHAIN_MAX && (r = tl_row_at(f, q)) >= 0 &&
	    tl_row_same_thread(f, r, r0) && f->row[r].module == m &&
	    f->row[r].claim < 0 && is_pointwise(f, r) &&
	    tl_op_numel(c, f->row[r].op, -1) == size; q++) {
		pos[n++] = q;
		mixed |= f->row[r].op != f->row[r0].op &&
		    strcmp(op_of(f, r)->name, op_of(f, r0)->name) != 0;
	}
	return mixed ? n : -n;
}

static void
eltwise(struct tl_findings *f, struct tl_opctx *c)
{
	struct tl_patgroup g;
	struct tl_fpat *pat;
	int pos[CHAIN_MAX], n, p, r, pi, i;
	char cls[128], key[1024];

	tl_patgroup_init(&g, f, TL_PAT_ELTWISE);
	for (p = 0; p < f->nrow; p += n > 0 ? n : 1) {
		r = tl_row_at(f, p);
		n = 0;
		if (f->row[r].claim >= 0 || !is_pointwise(f, r))
			continue;
		if ((n = pointwise_run(f, c, p, pos)) < 3) {
			if (n < 0)
				n = -n;
			continue;
		}
		tl_mod_class(tl_fstr(f, f->row[r].module), cls, sizeof(cls));
		snprintf(key, sizeof(key), "%s: ", cls);
		chain_key(f, pos, n, key, sizeof(key));
		pi = tl_patgroup_get(&g, key, cls);
		pat = &f->pat[pi];
		if (pat->detail[0] == '\0') {
			free(pat->detail);
			pat->detail = tl_strdup(key + strlen(cls) + 2);
		}
		eltwise_call(f, &g, pi, pos, n);
	}
	for (i = 0; i < f->npat; i++) {
		pat = &f->pat[i];
		if (pat->kind != TL_PAT_ELTWISE)
			continue;
		pat->cat = tl_category_index("elementwise");
		pat->save_lo_ns = pat->save_hi_ns = pat->save_ns;
	}
	tl_patgroup_free(&g);
}

void
tl_fusion_find(struct tl_findings *f)
{
	struct tl_opctx c;

	if (f->nrow == 0)
		return;
	tl_opctx_init(&c, f);
	attention(f, &c);
	norms(f, &c);
	layouts(f);
	layout_copies(f, &c);
	eltwise(f, &c);
	tl_opctx_free(&c);
}
