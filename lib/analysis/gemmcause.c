/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analysis/gemmcause.h"
#include "analysis/kcause.h"
#include "analysis/kernsel.h"
#include "analysis/oprow.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "stream/category.h"

/*
 * A skinny GEMM: one output dimension at most SKINNY (a matrix unit's
 * tile edge is 16), the other and K at least SKINNY_OTHER.
 */
#define SKINNY 16
#define SKINNY_OTHER 1024
/*
 * A GEMM this large (outputs) can reach the expected efficiency once
 * padded; a smaller one is timed only against an aligned GEMM of the
 * trace within REF_SPAN times its FLOPs.
 */
#define LARGE_OUTPUTS (4LL << 20)
#define REF_SPAN 4.0
/* A dimension this large pads to a multiple of TILE_ALIGN elements. */
#define PAD_BIG 256
#define TILE_ALIGN 64

const char *
tl_gemmcause_name(enum tl_gemmcause c)
{
	static const char *const name[] = {
		[TL_GC_FEW_TILES] = "few_tiles", [TL_GC_LAST_WAVE] = "last_wave",
		[TL_GC_PAD] = "padding", [TL_GC_SKINNY] = "skinny",
		[TL_GC_FP32] = "fp32",
	};

	return name[c];
}

unsigned
tl_gpu_prec(const char *hw)
{
	static const struct { const char *spec; unsigned bit; } p[] = {
		{ "matrix_fp16", TL_PREC_FP16 }, { "matrix_bf16", TL_PREC_BF16 },
		{ "matrix_tf32", TL_PREC_TF32 }, { "matrix_fp8", TL_PREC_FP8 },
	};
	const struct tl_hw *h;
	unsigned bits = 0;
	size_t i;

	if (hw == NULL || hw[0] == '\0' || (h = tl_hw_find(hw)) == NULL)
		return 0;
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (tl_hw_figure(h, p[i].spec, TL_FIG_PEAK, NULL) > 0 ||
		    tl_hw_figure(h, p[i].spec, TL_FIG_ACHIEVABLE, NULL) > 0)
			bits |= p[i].bit;
	return bits;
}

/* The GPU table's figure of spec for hw (peak, else achievable); 0. */
static double
gpu_tflops(const char *hw, const char *spec)
{
	const struct tl_hw *h = hw[0] != '\0' ? tl_hw_find(hw) : NULL;

	return h == NULL ? 0 : tl_hw_tflops(h, spec, TL_ROOF_PEAK, NULL,
	    NULL);
}

static int64_t
ceil_div(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

static int64_t
round_up(int64_t v, int64_t to)
{
	return ceil_div(v, to) * to;
}

/* 1 if a kernel name shows TF32 (NVIDIA) or XF32 (AMD) arithmetic. */
static int
kern_tf32(const struct tl_fop *op)
{
	int k;

	for (k = 0; k < op->nkern; k++)
		if (tl_contains_ci(op->kern[k].name, "tf32") ||
		    tl_contains_ci(op->kern[k].name, "xf32"))
			return 1;
	return 0;
}

/* What one op's cause would be: its numbers and the time it recovers. */
struct cand {
	struct tl_gshape s;
	int64_t save, lo, hi;
	int upper;
};

/* The nearest aligned GEMM of op's compute spec in its trace, -1. */
static int
nearest_aligned(struct tl_opctx *c, const struct tl_findings *f, int o,
    double flops)
{
	const struct tl_fop *op = &f->op[o], *r;
	double best = INFINITY, d;
	int64_t m, n, k;
	int i, at = -1;

	for (i = 0; i < f->nop; i++) {
		r = &f->op[i];
		if (i == o || !tl_category_is(r->cat, "gemm") || !r->has_eff ||
		    r->eff <= 0 || r->eff > 100 || !r->has_flops ||
		    r->flops <= 0 || strcmp(r->compute_spec,
		    op->compute_spec) != 0 || strcmp(r->trace, op->trace) != 0 ||
		    !tl_op_param(c, r, "M", &m) || !tl_op_param(c, r, "N", &n) ||
		    !tl_op_param(c, r, "K", &k) || m % TILE_ALIGN != 0 ||
		    n % TILE_ALIGN != 0 || k % TILE_ALIGN != 0)
			continue;
		d = fabs(log((double)r->flops / flops));
		if (d < best && d <= log(REF_SPAN)) {
			best = d;
			at = i;
		}
	}
	return at;
}

/* The padding cause: the time the padded shape would take. */
static int
pad(struct tl_opctx *c, struct tl_findings *f, int o, int64_t m, int64_t n,
    int64_t k, int64_t b, int want, int64_t left, struct cand *x)
{
	const struct tl_fop *op = &f->op[o];
	const int64_t d[3] = { m, n, k };
	int64_t p[3], t_lo, t_hi;
	double scale, roof;
	int i, odd = 0;

	if (want <= 0 || !op->has_eff || !op->has_flops || op->flops <= 0)
		return 0;
	/*
	 * N and K are the leading dimensions of the row-major operands (A
	 * is M x K, B K x N, C M x N): they decide the alignment; M only
	 * how full the last row of tiles is.
	 */
	for (i = 0; i < 3; i++) {
		p[i] = d[i];
		if (i > 0 && d[i] > SKINNY && d[i] % want != 0) {
			p[i] = round_up(d[i], d[i] >= PAD_BIG ? TILE_ALIGN :
			    want);
			odd = 1;
		}
	}
	if (!odd)
		return 0;
	scale = (double)(2 * b * p[0] * p[1] * p[2]) / (double)op->flops;
	roof = op->roofline_us * 1e3 * scale;	/* the padded shape */
	x->s.cause = TL_GC_PAD;
	x->s.pm = p[0];
	x->s.pn = p[1];
	x->s.pk = p[2];
	x->s.ref_op = nearest_aligned(c, f, o, (double)op->flops * scale);
	if (x->s.ref_op >= 0) {
		x->s.ref_eff = f->op[x->s.ref_op].eff;
		t_lo = t_hi = (int64_t)(roof / (x->s.ref_eff / 100) + 0.5);
	} else if (m * n * b < LARGE_OUTPUTS)
		return 0;
	else {
		x->s.estimate = 1;
		t_lo = (int64_t)(roof / (f->rules.gemm_expect_lo / 100) + 0.5);
		t_hi = (int64_t)(roof / (f->rules.gemm_expect_hi / 100) + 0.5);
		x->s.ref_eff = f->rules.gemm_expect_lo;
	}
	x->save = x->lo = left - t_lo;
	x->hi = left - t_hi;
	return x->save > 0;
}

/*
 * The workgroups of op's longest kernel that records its grid, -1 none.
 * A grid that is a multiple of the compute units is left out: persistent
 * kernels launch one workgroup (or a few) per compute unit and loop over
 * the tiles, so their grid says nothing of tiles.
 */
static int64_t
grid_tiles(const struct tl_fop *op, int cus, int64_t *threads)
{
	int k, at = -1;

	for (k = 0; k < op->nkern; k++)
		if (op->kern[k].grid > 0 && (at < 0 ||
		    op->kern[k].time_ns > op->kern[at].time_ns))
			at = k;
	if (at < 0 || op->kern[at].grid % cus == 0)
		return -1;
	*threads = op->kern[at].block;
	return op->kern[at].grid;
}

/* Tiles and waves against the compute units. */
static int
tiles(const struct tl_findrules *r, const struct tl_fop *op,
    const struct tl_kname *kn, int64_t m, int64_t n, int64_t b, int cus,
    int64_t left, struct cand *x)
{
	double u, floor_ns = op->has_eff ? op->roofline_us * 1e3 : 0;
	int64_t ideal;

	if (cus <= 0 || kn->splitk || kn->streamk || m <= 0 || n <= 0)
		return 0;
	/* Column-major libraries: the tile's first size runs along N. */
	if (kn->tm > 0 && kn->tn > 0)
		x->s.tiles = b * ceil_div(n, kn->tm) * ceil_div(m, kn->tn);
	else if ((x->s.tiles = grid_tiles(op, cus, &x->s.wg_threads)) > 0)
		x->s.from_grid = 1;
	else
		return 0;
	x->s.waves = ceil_div(x->s.tiles, cus);
	x->s.last_fill = (double)(x->s.tiles - (x->s.waves - 1) * cus) / cus * 100;
	u = (double)x->s.tiles / (double)(x->s.waves * cus);
	if (x->s.last_fill >= r->wave_fill_pct)
		return 0;
	x->s.cause = x->s.tiles < cus ? TL_GC_FEW_TILES : TL_GC_LAST_WAVE;
	/* The same work spread over every compute unit, at best its roof. */
	ideal = (int64_t)((double)left * u + 0.5);
	if (ideal < floor_ns)
		ideal = (int64_t)(floor_ns + 0.5);
	x->save = x->lo = x->hi = left - ideal;
	x->upper = 1;
	return x->save > 0;
}

/* 1 for a tall-skinny or GEMV shape. */
static int
is_skinny(int64_t m, int64_t n, int64_t k)
{
	int64_t lo = m < n ? m : n, hi = m < n ? n : m;

	return lo > 0 && lo <= SKINNY && hi >= SKINNY_OTHER &&
	    k >= SKINNY_OTHER;
}

/* Tall-skinny and GEMV: what reaching 80 % of its roofline recovers. */
static int
skinny(const struct tl_fop *op, int64_t m, int64_t n, int64_t k,
    struct cand *x)
{
	int64_t lo = m < n ? m : n;

	if (!is_skinny(m, n, k) || !op->has_eff)
		return 0;
	x->s.cause = TL_GC_SKINNY;
	x->s.thin = lo;
	x->save = tl_op_save_at(op, 80);
	x->lo = tl_op_save_at(op, 50);
	x->hi = x->save;
	if (x->lo > x->hi)
		x->lo = x->hi;
	return x->save > 0;
}

/*
 * FP32 on a GPU with faster lower-precision matrix units: at least half
 * the time (half the bytes, at the same share of the roof) and at most
 * what the ratio of the matrix rates gives.
 */
static int
fp32(const struct tl_fop *op, const char *hw, int64_t left, struct cand *x)
{
	double f32, low;

	if (strcmp(op->compute_spec, "matrix_fp32") != 0 ||
	    (op->gpu_prec & (TL_PREC_FP16 | TL_PREC_BF16)) == 0 ||
	    kern_tf32(op))
		return 0;
	f32 = gpu_tflops(hw, "matrix_fp32");
	low = gpu_tflops(hw, op->gpu_prec & TL_PREC_BF16 ? "matrix_bf16" :
	    "matrix_fp16");
	if (f32 <= 0 || low <= f32)
		return 0;
	x->s.cause = TL_GC_FP32;
	x->s.tflops32 = f32;
	x->s.tflops16 = low;
	x->lo = x->save = left / 2;
	x->hi = left - (int64_t)((double)left * f32 / low + 0.5);
	if (x->hi < x->lo)
		x->hi = x->lo;
	x->s.estimate = 1;
	return x->save > 0;
}

/* The words of a cause: its row of the causes table and its numbers. */
static void
words(struct tl_findings *f, const struct tl_gshape *s,
    const struct tl_kname *kn, int want, struct tl_kcause *k)
{
	static const char *const key[] = {
		[TL_GC_FEW_TILES] = "gemm_few_tiles",
		[TL_GC_LAST_WAVE] = "gemm_last_wave",
		[TL_GC_PAD] = "gemm_padding", [TL_GC_SKINNY] = "gemm_skinny",
		[TL_GC_FP32] = "gemm_fp32",
	};
	const char *adv = tl_precision_advice(s->prec);

	memset(k, 0, sizeof(*k));
	k->row = tl_kcause_row(f, s->cause == TL_GC_PAD && s->ref_op < 0 ?
	    "gemm_padding_est" : s->cause == TL_GC_SKINNY && s->thin == 1 ?
	    "gemm_gemv" : s->from_grid && s->cause == TL_GC_FEW_TILES ?
	    "gemm_few_tiles_grid" : s->from_grid &&
	    s->cause == TL_GC_LAST_WAVE ? "gemm_last_wave_grid" :
	    key[s->cause]);
	k->estimate = s->estimate;
	if (s->b != 1)
		tl_kcn_text(k, "shape", "M x N x K = %lld x %lld x %lld (batch "
		    "%lld)", (long long)s->m, (long long)s->n, (long long)s->k,
		    (long long)s->b);
	else
		tl_kcn_text(k, "shape", "M x N x K = %lld x %lld x %lld",
		    (long long)s->m, (long long)s->n, (long long)s->k);
	switch (s->cause) {
	case TL_GC_FEW_TILES:
	case TL_GC_LAST_WAVE:
		tl_kcn_int(k, "tiles", s->tiles);
		tl_kcn_int(k, "wg_threads", s->wg_threads);
		tl_kcn_int(k, "tile_m", kn->tm);
		tl_kcn_int(k, "tile_n", kn->tn);
		tl_kcn_int(k, "cus", s->cus);
		tl_kcn_int(k, "waves", s->waves);
		tl_kcn_real(k, "last_fill", s->last_fill, 1);
		tl_kcn_real(k, "idle_pct", s->waves * s->cus > 0 ? 100 -
		    (double)s->tiles * 100 / (double)(s->waves * s->cus) : 0, 1);
		break;
	case TL_GC_PAD:
		tl_kcn_int(k, "align", want);
		tl_kcn_int(k, "padded_m", s->pm);
		tl_kcn_int(k, "padded_n", s->pn);
		tl_kcn_int(k, "padded_k", s->pk);
		tl_kcn_real(k, "ref_eff", s->ref_eff, 1);
		if (s->ref_op >= 0)
			tl_kcn_op(k, "ref_op", s->ref_op);
		tl_kcn_real(k, "expect_lo", f->rules.gemm_expect_lo, 0);
		tl_kcn_real(k, "expect_hi", f->rules.gemm_expect_hi, 0);
		break;
	case TL_GC_SKINNY:
		tl_kcn_int(k, "thin", s->thin);
		tl_kcn_text(k, "lowbit", "%s", tl_lowbit_weights(s->prec));
		break;
	case TL_GC_FP32:
		tl_kcn_text(k, "low_prec", "%s", s->prec & TL_PREC_BF16 ?
		    "BF16" : "FP16");
		tl_kcn_real(k, "tflops_low", s->tflops16, 0);
		tl_kcn_real(k, "tflops_fp32", s->tflops32, 1);
		tl_kcn_text(k, "precision_advice", "%s", adv != NULL ? adv :
		    "a lower precision");
		break;
	}
}

/* The pattern of op o's cause, made or added to. */
static void
add(struct tl_findings *f, struct tl_patgroup *g, int o, struct cand *x,
    const struct tl_kname *kn, int want)
{
	struct tl_fpat *p;
	char key[32];
	int pi;

	if (x->s.cause == TL_GC_FP32)
		snprintf(key, sizeof(key), "fp32");
	else
		snprintf(key, sizeof(key), "%d/%d", (int)x->s.cause, o);
	pi = tl_patgroup_get(g, key, "");	/* may move f->pat */
	p = &f->pat[pi];
	if (p->calls == 0) {
		x->s.prec = f->op[o].gpu_prec;
		p->gs = x->s;
		p->tile_m = kn->tm;
		p->tile_n = kn->tn;
		p->splitk = kn->splitk;
		p->align_want = want;
		words(f, &p->gs, kn, want, &p->kc);
	}
	p->save_ns += x->save;
	p->save_lo_ns += x->lo < x->hi ? x->lo : x->hi;
	p->save_hi_ns += x->lo < x->hi ? x->hi : x->lo;
	p->upper |= x->upper;
	tl_patgroup_op(g, pi, o);
}

void
tl_gemmcause_find(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_opctx c;
	struct tl_kname kn;
	struct cand x, best;
	const char *hw;
	int64_t m, n, k, b, left;
	int o, es, want, cus, gemm;

	tl_opctx_init(&c, f);
	tl_patgroup_init(&g, f, TL_PAT_GEMM_SHAPE);
	for (o = 0; o < f->nop; o++) {
		struct tl_fop *op = &f->op[o];

		hw = f->ntr > 0 ? f->tr[tl_trace_index(f, op->trace)].hw : "";
		hw = hw != NULL ? hw : "";
		op->gpu_prec = tl_gpu_prec(hw);
		gemm = tl_category_is(op->cat, "gemm");
		if ((!gemm && !tl_category_is(op->cat, "conv")) ||
		    op->time_ns <= 0 || op->claimed_ns * 2 >= op->time_ns ||
		    (op->has_eff && op->eff > 100))
			continue;
		left = op->time_ns - op->claimed_ns;
		memset(&best, 0, sizeof(best));
		best.s.ref_op = -1;
		memset(&kn, 0, sizeof(kn));
		m = n = k = 0;
		b = 1;
		if (gemm && tl_op_param(&c, op, "M", &m) &&
		    tl_op_param(&c, op, "N", &n) &&
		    tl_op_param(&c, op, "K", &k)) {
			if (!tl_op_param(&c, op, "B", &b) || b < 1)
				b = 1;
			tl_kname_best(op, &kn);
			cus = tl_hw_find(hw) != NULL ?
			    tl_hw_compute_units(tl_hw_find(hw)) : 0;
			es = tl_op_elsize(&c, o, op->name[0] != '\0' &&
			    strstr(op->name, "addmm") != NULL ? 1 : 0);
			want = es > 0 && es <= 16 ? 16 / es : 0;
			memset(&x, 0, sizeof(x));
			x.s.ref_op = -1;
			if (!is_skinny(m, n, k) && tiles(&f->rules, op,
			    &kn, m, n, b, cus, left, &x) && x.save > best.save)
				best = x;
			memset(&x, 0, sizeof(x));
			x.s.ref_op = -1;
			if (pad(&c, f, o, m, n, k, b, want, left, &x) &&
			    x.save > best.save)
				best = x;
			memset(&x, 0, sizeof(x));
			x.s.ref_op = -1;
			if (skinny(op, m, n, k, &x) && x.save > best.save)
				best = x;
			memset(&x, 0, sizeof(x));
		} else
			cus = want = 0;
		memset(&x, 0, sizeof(x));
		x.s.ref_op = -1;
		if (fp32(op, hw, left, &x) && x.save > best.save)
			best = x;
		if (best.save > 0) {
			best.s.m = m;
			best.s.n = n;
			best.s.k = k;
			best.s.b = b;
			best.s.cus = cus;
			add(f, &g, o, &best, &kn, want);
		}
	}
	tl_kcause_totals(f, TL_PAT_GEMM_SHAPE);
	tl_patgroup_free(&g);
	tl_opctx_free(&c);
}
