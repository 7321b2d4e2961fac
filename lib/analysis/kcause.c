/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kcause.h"
#include "analysis/oprow.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "stream/category.h"
#include "stream/known.h"

/* At most this many input channels per group: "few". */
#define FEW_CHANNELS 4
/*
 * Weight-bound: at least this many output channels over at most this
 * many output positions per image, the weights half the bytes or more.
 */
#define WB_CHANNELS 1024
#define WB_POSITIONS 16
/*
 * The query block of the flash kernels' forward pass (FlashAttention-2's
 * kBlockM for the common head dimensions): one block of queries per
 * head and batch is one workgroup.
 */
#define ATT_BLOCK_Q 128
/* A memory-bound shape is expected at 50-80 % of its (memory) roofline. */
#define MEM_LO 50
#define MEM_HI 80

static const char *const kcols[TL_KCC_N] = {
	"key", "kind", "title", "issue", "action", "impact"
};

/* A convolution's parameters (lib/model/model_conv's params). */
struct conv {
	int rank, sp;		/* input rank, spatial dimensions */
	int64_t x[5], w[5], out[5];
	int64_t s[3], d[3], g;
	int tr;
};

int
tl_kcause_load(struct tl_findings *f, const char *path)
{
	if (f->causes_loaded)
		tl_known_free(&f->causes);
	f->causes_loaded = 0;
	/* A user's row may leave out the columns after the key. */
	if (tl_known_load(&f->causes, tl_default_causes, "causes.tsv", path,
	    kcols, TL_KCC_N, 1) < 0)
		return -1;
	f->causes_loaded = 1;
	return 0;
}

static void
load(struct tl_findings *f)
{
	if (!f->causes_loaded && tl_kcause_load(f, NULL) < 0)
		tl_die("the built-in causes table does not load");
}

long
tl_kcause_row(struct tl_findings *f, const char *key)
{
	size_t i;

	load(f);
	for (i = 0; i < f->causes.n; i++)
		if (strcmp(tl_known_get(&f->causes, i, TL_KCC_KEY), key) == 0)
			return (long)i;
	return -1;
}

const char *
tl_kcause_text(const struct tl_findings *f, const struct tl_fpat *p, int c)
{
	if (!f->causes_loaded || p->kc.row < 0 ||
	    (size_t)p->kc.row >= f->causes.n)
		return "";
	return tl_known_get(&f->causes, (size_t)p->kc.row, c);
}

const char *
tl_kcause_name(const struct tl_findings *f, const struct tl_fpat *p)
{
	return tl_kcause_text(f, p, TL_KCC_KEY);
}

static struct tl_kcnum *
num(struct tl_kcause *k, const char *name, enum tl_kcunit unit, double v)
{
	struct tl_kcnum *n;

	if (k->n >= TL_KC_MAXNUM)
		tl_die("kcause: more than %d numbers", TL_KC_MAXNUM);
	n = &k->num[k->n++];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->unit = unit;
	n->v = v;
	n->digits = 1;
	return n;
}

void
tl_kcn_int(struct tl_kcause *k, const char *name, int64_t v)
{
	num(k, name, TL_KCU_INT, (double)v);
}

void
tl_kcn_real(struct tl_kcause *k, const char *name, double v, int digits)
{
	num(k, name, TL_KCU_NUM, v)->digits = digits;
}

void
tl_kcn_ms(struct tl_kcause *k, const char *name, int64_t ns)
{
	num(k, name, TL_KCU_MS, (double)ns);
}

void
tl_kcn_op(struct tl_kcause *k, const char *name, int op)
{
	num(k, name, TL_KCU_OP, op);
}

void
tl_kcn_set(struct tl_kcause *k, const char *name, enum tl_kcunit unit,
    double v)
{
	int i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->num[i].name, name) == 0) {
			k->num[i].v = v;
			return;
		}
	num(k, name, unit, v);
}

const char *
tl_lowbit_weights(unsigned prec)
{
	return prec & TL_PREC_FP8 ? "FP8, W8A8" : "INT8 weight-only, W8A8";
}

const char *
tl_precision_advice(unsigned prec)
{
	if ((prec & TL_PREC_BF16) && (prec & TL_PREC_TF32))
		return "BF16 (or FP16) mixed precision with `torch.autocast`, "
		    "and TF32 for what stays FP32 "
		    "(`torch.set_float32_matmul_precision(\"high\")`)";
	if (prec & TL_PREC_BF16)
		return "BF16 (or FP16) mixed precision with `torch.autocast`";
	if (prec & TL_PREC_FP16)
		return "FP16 mixed precision with `torch.autocast` and a "
		    "`GradScaler` in training (this GPU's matrix units run FP16 "
		    "and FP32 only)";
	return NULL;
}

void
tl_kcn_text(struct tl_kcause *k, const char *name, const char *fmt, ...)
{
	struct tl_kcnum *n = num(k, name, TL_KCU_TEXT, 0);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
}

/* "AxBxC" of n values. */
static void
dims_text(char *buf, size_t len, const int64_t *v, int n)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%lld",
		    i > 0 ? "x" : "", (long long)v[i]);
}

/* The parameters of a convolution signature; 1 when complete. */
static int
conv_read(struct tl_opctx *c, const struct tl_fop *op, struct conv *cv)
{
	int i;

	memset(cv, 0, sizeof(*cv));
	for (i = 0; i < 5 && tl_op_param_at(c, op, "input_shape", i,
	    &cv->x[i]); i++)
		;
	cv->rank = i;
	if (cv->rank < 3)
		return 0;
	cv->sp = cv->rank - 2;
	for (i = 0; i < cv->rank; i++)
		if (!tl_op_param_at(c, op, "filter_shape", i, &cv->w[i]) ||
		    !tl_op_param_at(c, op, "output_shape", i, &cv->out[i]) ||
		    cv->w[i] <= 0 || cv->out[i] <= 0 || cv->x[i] <= 0)
			return 0;
	for (i = 0; i < cv->sp; i++) {
		if (!tl_op_param_at(c, op, "stride", i, &cv->s[i]) ||
		    cv->s[i] < 1)
			cv->s[i] = 1;
		if (!tl_op_param_at(c, op, "dilation", i, &cv->d[i]) ||
		    cv->d[i] < 1)
			cv->d[i] = 1;
	}
	if (!tl_op_param(c, op, "groups", &cv->g) || cv->g < 1)
		cv->g = 1;
	cv->tr = strstr(op->params, "\"transposed_conv\":true") != NULL;
	return 1;
}

/* The seeds' expected efficiency of a convolution of cv's kernel size. */
static const struct tl_convexpect *
expect(const struct conv *cv)
{
	int64_t taps = 1, side = 0;
	int i;

	for (i = 0; i < cv->sp; i++) {
		taps *= cv->w[2 + i];
		side = cv->w[2 + i] > side ? cv->w[2 + i] : side;
	}
	if (cv->g > 1 && cv->g == cv->x[1])
		return &tl_conv_expect[TL_CONV_DEPTHWISE];
	if (taps == 1)
		return &tl_conv_expect[TL_CONV_1X1];
	return &tl_conv_expect[side >= 5 ? TL_CONV_LARGE : TL_CONV_3X3];
}

/* What one op's cause is: its row, numbers and the time it recovers. */
struct cand {
	const char *key;
	struct tl_kcause kc;
	int64_t save, lo, hi;
	int upper;		/* save is an upper bound */
};

/* The recoverable time at lo-hi % of the roofline; 0 when none. */
static int
save_between(const struct tl_fop *op, double lo, double hi, struct cand *x)
{
	x->lo = tl_op_save_at(op, lo);
	x->hi = tl_op_save_at(op, hi);
	x->save = x->lo;
	return x->lo > 0;
}

/*
 * A 16-bit convolution whose input is contiguous NCHW (its channels a
 * whole plane apart) on a GPU with 16-bit matrix units: the layout those
 * kernels take is NHWC.  1 with *key and the numbers set; 0 when the
 * layout-conversion pattern (layout) already gives that advice.
 */
static int
nchw(struct tl_opctx *c, const struct tl_fop *op, int o,
    const struct conv *cv, struct tl_kcause *k, const char **key, int layout)
{
	const struct tl_arg *a = tl_op_arg(c, o, 0);
	const char *dt;
	char st[96];
	int i, named = 0;

	if (layout || cv->sp != 2 || a->nst != 4 || cv->x[1] < 2 ||
	    a->st[3] != 1 || a->st[2] != cv->x[3] ||
	    a->st[1] != cv->x[2] * cv->x[3])
		return 0;
	dt = strstr(op->types, "BFloat16") != NULL ? "BF16" :
	    strstr(op->types, "Half") != NULL ? "FP16" : NULL;
	if (dt == NULL || (op->gpu_prec & (strcmp(dt, "BF16") == 0 ?
	    TL_PREC_BF16 : TL_PREC_FP16)) == 0)
		return 0;
	for (i = 0; i < op->nkern; i++)
		named |= tl_contains_ci(op->kern[i].name, "nchw") &&
		    !tl_contains_ci(op->kern[i].name, "nhwc");
	*key = named ? "conv_nchw" : "conv_nchw_strides";
	snprintf(st, sizeof(st), "(%lld, %lld, %lld, %lld)", (long long)a->st[0],
	    (long long)a->st[1], (long long)a->st[2], (long long)a->st[3]);
	tl_kcn_text(k, "dtype", "%s", dt);
	tl_kcn_text(k, "in_strides", "%s", st);
	tl_kcn_int(k, "channel_stride", a->st[1]);
	return 1;
}

/* The convolution's cause, by what it is first; 0 for none. */
static int
conv_cause(struct tl_opctx *c, const struct tl_fop *op, int o, struct cand *x,
    int layout)
{
	const struct tl_convexpect *e;
	struct conv cv;
	char in[64], wt[64], out[64], kern[32];
	int64_t cin, cout, taps = 1, pos = 1, wbytes, side = 1, s = 1;
	double read = 100;
	int i, es, at = 0, dil = 1;

	if (!conv_read(c, op, &cv))
		return 0;
	es = tl_op_elsize(c, o, 0);
	es = es > 0 ? es : 2;
	cin = cv.x[1];
	cout = cv.out[1];
	for (i = 0; i < cv.sp; i++) {
		taps *= cv.w[2 + i];
		pos *= cv.out[2 + i];
		if (cv.s[i] > s) {
			s = cv.s[i];
			at = i;
		}
		if (cv.d[i] > dil)
			dil = (int)cv.d[i];
		if (cv.w[2 + i] < cv.s[i])
			read *= (double)cv.w[2 + i] / (double)cv.s[i];
	}
	side = cv.w[2 + at];
	dims_text(in, sizeof(in), cv.x, cv.rank);
	dims_text(wt, sizeof(wt), cv.w, cv.rank);
	dims_text(out, sizeof(out), cv.out, cv.rank);
	dims_text(kern, sizeof(kern), cv.w + 2, cv.sp);
	e = expect(&cv);
	memset(x, 0, sizeof(*x));
	if (cv.tr) {
		x->key = side % s != 0 ? "conv_transposed" :
		    "conv_transposed_even";
		tl_kcn_int(&x->kc, "stride", s);
		tl_kcn_int(&x->kc, "kernel_side", side);
		tl_kcn_int(&x->kc, "taps_lo", side / s);
		tl_kcn_int(&x->kc, "taps_hi", (side + s - 1) / s);
	} else if (cv.g > 1) {
		x->key = "conv_grouped";
		e = &tl_conv_expect[TL_CONV_DEPTHWISE];
		tl_kcn_int(&x->kc, "groups", cv.g);
		tl_kcn_int(&x->kc, "group_in", cin / cv.g);
		tl_kcn_int(&x->kc, "group_out", cout / cv.g);
		tl_kcn_int(&x->kc, "taps", taps);
		tl_kcn_real(&x->kc, "flops_per_byte", op->fpb, 1);
	} else if (cin <= FEW_CHANNELS) {
		x->key = "conv_few_channels";
		tl_kcn_int(&x->kc, "in_channels", cin);
		tl_kcn_int(&x->kc, "channel_bytes", cin * es);
		tl_kcn_int(&x->kc, "pad_channels", 16 / es > 0 ? 16 / es : 1);
		tl_kcn_int(&x->kc, "reduce_k", cin * taps);
	} else if (cout >= WB_CHANNELS && pos <= WB_POSITIONS &&
	    op->has_bytes && op->bytes > 0 &&
	    (wbytes = cv.w[0] * cv.w[1] * taps * es) * 2 >= op->bytes) {
		x->key = "conv_weight_bound";
		tl_kcn_int(&x->kc, "out_positions", cv.out[0] * pos);
		tl_kcn_int(&x->kc, "out_channels", cv.w[0]);
		tl_kcn_int(&x->kc, "in_channels", cv.w[1]);
		tl_kcn_real(&x->kc, "weight_mb", (double)wbytes / 1e6, 2);
		tl_kcn_real(&x->kc, "flops_per_weight_byte",
		    2.0 * (double)(cv.out[0] * pos) / es, 0);
		tl_kcn_real(&x->kc, "weight_pct", (double)wbytes * 100 /
		    (double)op->bytes, 1);
		tl_kcn_text(&x->kc, "lowbit", "%s", tl_lowbit_weights(op->gpu_prec));
		if (!save_between(op, MEM_LO, MEM_HI, x))
			return 0;
	} else if (dil > 1) {
		x->key = "conv_dilated";
		tl_kcn_int(&x->kc, "dilation", dil);
		for (i = 0, side = 0; i < cv.sp; i++)
			if ((cv.w[2 + i] - 1) * cv.d[i] + 1 > side)
				side = (cv.w[2 + i] - 1) * cv.d[i] + 1;
		tl_kcn_int(&x->kc, "span", side);
	} else if (cv.sp == 2 && cv.w[2] != cv.w[3] &&
	    (cv.w[2] == 1 || cv.w[3] == 1)) {
		x->key = "conv_asymmetric";
		tl_kcn_int(&x->kc, "taps", taps);
		tl_kcn_int(&x->kc, "reduce_k", cin * taps);
	} else if (read < 100) {
		x->key = "conv_strided";
		tl_kcn_int(&x->kc, "stride", s);
		tl_kcn_real(&x->kc, "read_pct", read, 1);
	} else if (!nchw(c, op, o, &cv, &x->kc, &x->key, layout))
		return 0;
	if (x->save <= 0 && !save_between(op, e->lo, e->hi, x))
		return 0;
	if (strcmp(x->key, "conv_weight_bound") != 0) {
		tl_kcn_real(&x->kc, "expect_lo", e->lo, 0);
		tl_kcn_real(&x->kc, "expect_hi", e->hi, 0);
	}
	tl_kcn_text(&x->kc, "shape", "The convolution (input %s, weight %s, "
	    "output %s)", in, wt, out);
	tl_kcn_text(&x->kc, "kernel", "%s", kern);
	tl_kcn_real(&x->kc, "efficiency_pct", op->eff, 1);
	x->kc.estimate = 1;
	return 1;
}

/* The attention backend an op's name and kernels show. */
static const char *
att_backend(const struct tl_fop *op)
{
	static const struct { const char *pat, *what; } b[] = {
		{ "efficient", "memory-efficient" }, { "fmha_cutlass",
		"memory-efficient" }, { "_math", "math" }, { "cudnn",
		"vendor-library" }, { "flash", "flash" }, { "fmha", "flash" },
	};
	size_t i;
	int k;

	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		if (tl_contains_ci(op->name, b[i].pat))
			return b[i].what;
		for (k = 0; k < op->nkern; k++)
			if (tl_contains_ci(op->kern[k].name, b[i].pat))
				return b[i].what;
	}
	return "flash";
}

/* The attention op of o's trace with head dimension 64 or 128, -1. */
static int
att_reference(struct tl_opctx *c, const struct tl_findings *f, int o,
    int64_t *dh)
{
	const struct tl_fop *r;
	double best = 0;
	int64_t d;
	int i, at = -1;

	for (i = 0; i < f->nop; i++) {
		r = &f->op[i];
		if (i == o || !tl_category_is(r->cat, "attention") ||
		    !r->has_eff || r->eff <= 0 || r->eff > 100 ||
		    strcmp(r->trace, f->op[o].trace) != 0 ||
		    strcmp(r->direction, f->op[o].direction) != 0 ||
		    !tl_op_param(c, r, "d_h_qk", &d) || (d != 64 && d != 128))
			continue;
		if (r->eff > best) {
			best = r->eff;
			at = i;
			*dh = d;
		}
	}
	return at;
}

/* The attention op's cause; 0 for none. */
static int
att_cause(struct tl_opctx *c, const struct tl_findings *f, int o,
    struct cand *x)
{
	const struct tl_fop *op = &f->op[o];
	const struct tl_hw *hw;
	const struct tl_arg *m;
	const char *be = att_backend(op), *dt;
	char md[80];
	int64_t b, hq, hkv, nq, nkv, d, blocks, refd = 0, mbytes;
	double lo, hi;
	int cus = 0, ref, es, i;

	if (!tl_op_param(c, op, "B", &b) || !tl_op_param(c, op, "H_Q", &hq) ||
	    !tl_op_param(c, op, "H_KV", &hkv) ||
	    !tl_op_param(c, op, "N_Q", &nq) ||
	    !tl_op_param(c, op, "N_KV", &nkv) ||
	    !tl_op_param(c, op, "d_h_qk", &d) || b < 1 || hq < 1 || nq < 1)
		return 0;
	lo = nq < TL_ATT_SHORT_N ? TL_ATT_SHORT_LO : TL_ATT_LONG_LO;
	hi = nq < TL_ATT_SHORT_N ? TL_ATT_SHORT_HI : TL_ATT_LONG_HI;
	i = f->ntr > 0 ? tl_trace_index(f, op->trace) : -1;
	if (i >= 0 && f->tr[i].hw != NULL && (hw = tl_hw_find(f->tr[i].hw)) !=
	    NULL)
		cus = tl_hw_compute_units(hw);
	dt = strstr(op->types, "BFloat16") != NULL ? "BF16" :
	    strstr(op->types, "Half") != NULL ? "FP16" : NULL;
	m = tl_op_arg(c, o, 3);
	memset(x, 0, sizeof(*x));
	blocks = b * hq * ((nq + ATT_BLOCK_Q - 1) / ATT_BLOCK_Q);
	if (m->nd >= 2 && strcmp(be, "flash") != 0) {
		x->key = "attn_mask";
		dims_text(md, sizeof(md), m->dim, m->nd);
		es = tl_op_elsize(c, o, 3);
		for (mbytes = es > 0 ? es : 1, i = 0; i < m->nd; i++)
			mbytes *= m->dim[i];
		tl_kcn_text(&x->kc, "mask_dims", "%s", md);
		tl_kcn_real(&x->kc, "mask_mb", (double)mbytes / 1e6, 2);
	} else if (dt != NULL && d <= 256 && strcmp(be, "flash") != 0) {
		x->key = "attn_backend";
		tl_kcn_text(&x->kc, "dtype", "%s", dt);
	} else if (d != 64 && d != 128 &&
	    (ref = att_reference(c, f, o, &refd)) >= 0 &&
	    tl_op_save_at(op, f->op[ref].eff) > 0) {
		x->key = "attn_head_dim";
		tl_kcn_real(&x->kc, "ref_eff", f->op[ref].eff, 1);
		tl_kcn_int(&x->kc, "ref_head_dim", refd);
		x->save = x->lo = x->hi = tl_op_save_at(op, f->op[ref].eff);
	} else if (d != 64 && d != 128)
		x->key = "attn_head_dim_est";
	else if (strcmp(op->direction, "bwd") != 0 && cus > 0 &&
	    blocks < cus && blocks * 100 < (int64_t)(f->rules.wave_fill_pct *
	    cus)) {
		double floor_ns = op->roofline_us * 1e3;
		int64_t left = op->time_ns - op->claimed_ns - op->peak_ns;
		int64_t ideal = (int64_t)((double)left * (double)blocks /
		    (double)cus + 0.5);

		x->key = "attn_short_seq";
		tl_kcn_int(&x->kc, "block_q", ATT_BLOCK_Q);
		tl_kcn_int(&x->kc, "blocks", blocks);
		tl_kcn_int(&x->kc, "cus", cus);
		tl_kcn_real(&x->kc, "busy_pct", (double)blocks * 100 / cus, 1);
		if (ideal < floor_ns)
			ideal = (int64_t)(floor_ns + 0.5);
		x->save = x->lo = x->hi = left - ideal;
		x->upper = 1;
		if (x->save <= 0)
			return 0;
	} else
		return 0;
	if (x->save <= 0 && !save_between(op, lo, hi, x))
		return 0;
	if (hkv == 1 && hq > 1)
		snprintf(md, sizeof(md), ", multi-query");
	else if (hkv > 1 && hq > hkv)
		snprintf(md, sizeof(md), ", grouped-query: %d query heads "
		    "per key/value head", (int)(hq / hkv));
	else
		md[0] = '\0';
	tl_kcn_text(&x->kc, "shape", "The attention (batch %lld, %lld query and "
	    "%lld key/value heads%s, %lld queries, %lld keys, head dimension "
	    "%lld%s)", (long long)b, (long long)hq, (long long)hkv, md,
	    (long long)nq, (long long)nkv, (long long)d,
	    strstr(op->params, "\"causal\":true") != NULL ? ", causal" : "");
	tl_kcn_text(&x->kc, "backend", "%s", be);
	tl_kcn_int(&x->kc, "batch", b);
	tl_kcn_int(&x->kc, "heads", hq);
	tl_kcn_int(&x->kc, "kv_heads", hkv);
	tl_kcn_int(&x->kc, "n_q", nq);
	tl_kcn_int(&x->kc, "n_kv", nkv);
	tl_kcn_int(&x->kc, "head_dim", d);
	tl_kcn_real(&x->kc, "expect_lo", lo, 0);
	tl_kcn_real(&x->kc, "expect_hi", hi, 0);
	tl_kcn_real(&x->kc, "efficiency_pct", op->eff, 1);
	x->kc.estimate = strcmp(x->key, "attn_head_dim") != 0;
	return 1;
}

/*
 * A fused MoE op's cause (lib/model/model_moe's fused bytes: activations
 * in and out, the reached experts' weights once); 0 for none.
 */
static int
moe_cause(struct tl_opctx *c, const struct tl_findings *f, int o,
    struct cand *x)
{
	static const char *const stage[] = { "stage", "gemm1", "gemm2",
	    "unfused" };
	const struct tl_fop *op = &f->op[o];
	int64_t t, h, in, e, k, w;
	double act, tpe;
	int g, es;
	size_t i;

	for (i = 0; i < sizeof(stage) / sizeof(stage[0]); i++)
		if (strstr(op->name, stage[i]) != NULL)
			return 0;
	if (!tl_op_param(c, op, "num_tokens", &t) ||
	    !tl_op_param(c, op, "hidden_dim", &h) ||
	    !tl_op_param(c, op, "inter_dim", &in) ||
	    !tl_op_param(c, op, "num_experts", &e) ||
	    !tl_op_param(c, op, "topk", &k) || t < 1 || e < 1 || k < 1 ||
	    k > e || !op->has_bytes || !op->has_flops || op->bytes <= 0 ||
	    (es = tl_op_elsize(c, o, 0)) <= 0)
		return 0;
	g = strstr(op->params, "\"gated\":true") != NULL ? 2 : 1;
	/* The experts the tokens reach, as the model counts them. */
	act = (double)e * (1 - pow((double)(e - k) / (double)e, (double)t));
	w = op->bytes - 2 * t * h * es;
	tpe = (double)(t * k) / (double)e;
	memset(x, 0, sizeof(*x));
	if (w * 2 >= op->bytes && strcmp(op->bound, "memory") == 0) {
		x->key = "moe_weight_bound";
		tl_kcn_text(&x->kc, "lowbit", "%s", tl_lowbit_weights(op->gpu_prec));
		if (!save_between(op, MEM_LO, MEM_HI, x))
			return 0;
	} else if (strcmp(op->bound, "compute") == 0 &&
	    op->eff < f->rules.gemm_expect_lo) {
		x->key = "moe_grouped_gemm";
		tl_kcn_real(&x->kc, "expect_lo", f->rules.gemm_expect_lo, 0);
		tl_kcn_real(&x->kc, "expect_hi", f->rules.gemm_expect_hi, 0);
		if (!save_between(op, f->rules.gemm_expect_lo,
		    f->rules.gemm_expect_hi, x))
			return 0;
	} else
		return 0;
	tl_kcn_int(&x->kc, "tokens", t);
	tl_kcn_int(&x->kc, "topk", k);
	tl_kcn_int(&x->kc, "experts", e);
	tl_kcn_int(&x->kc, "hidden", h);
	tl_kcn_int(&x->kc, "inter", in);
	tl_kcn_int(&x->kc, "up_n", g * in);
	tl_kcn_real(&x->kc, "tokens_per_expert", tpe, tpe < 10 ? 2 : 0);
	tl_kcn_real(&x->kc, "active_experts", act, 1);
	tl_kcn_real(&x->kc, "weight_mb", (double)w / 1e6, 1);
	tl_kcn_real(&x->kc, "expert_mb", act > 0 ? (double)w / act / 1e6 : 0, 2);
	tl_kcn_real(&x->kc, "weight_pct", (double)w * 100 / (double)op->bytes,
	    1);
	tl_kcn_real(&x->kc, "flops_per_weight_byte", w > 0 ?
	    (double)op->flops / (double)w : 0, 1);
	tl_kcn_real(&x->kc, "efficiency_pct", op->eff, 1);
	x->kc.estimate = 1;
	return 1;
}

/* An attention op's shape, read once for all the candidate copies. */
struct kv_attn {
	int64_t b, hq, nkv, d;
};

/*
 * Keys and values expanded for grouped-query attention: signature r
 * copies an expanded view [B, H_KV, n_rep, N, D] (stride 0 along n_rep,
 * as `expand` then `reshape` leaves it) into B x H_KV*n_rep heads, which
 * attention op o (of shape q) then reads as H_Q = H_KV*n_rep key/value
 * heads.  With the unexpanded keys and values and a kernel that takes
 * fewer of them the copies go; 1 when r is such a copy for o.
 */
static int
kv_expand_for(struct tl_opctx *c, const struct tl_findings *f, int o,
    const struct kv_attn *q, int r, int64_t *src_heads)
{
	const struct tl_fop *op = &f->op[o], *cp = &f->op[r];
	const struct tl_arg *a;

	if (r == o || cp->time_ns <= 0 || cp->claimed_ns >= cp->time_ns ||
	    strcmp(cp->trace, op->trace) != 0)
		return 0;
	a = tl_op_arg(c, r, 0);
	if (a->nd != 5 || a->nst != 5 || a->st[2] != 0 || a->dim[2] < 2 ||
	    a->dim[0] != q->b || a->dim[1] * a->dim[2] != q->hq ||
	    a->dim[3] != q->nkv || a->dim[4] != q->d)
		return 0;
	*src_heads = a->dim[1];
	return 1;
}

/*
 * Attention op o's shape into *q: 1 when it reads as many key/value heads
 * as query heads (at least 2), as it does after the copies.
 */
static int
kv_attn_of(struct tl_opctx *c, const struct tl_fop *op, struct kv_attn *q)
{
	int64_t hkv;

	return tl_op_param(c, op, "B", &q->b) &&
	    tl_op_param(c, op, "H_Q", &q->hq) &&
	    tl_op_param(c, op, "H_KV", &hkv) &&
	    tl_op_param(c, op, "N_KV", &q->nkv) &&
	    tl_op_param(c, op, "d_h_qk", &q->d) && hkv == q->hq && q->hq >= 2;
}

/* One kernel_cause pattern per attention signature fed expanded K/V. */
static void
kv_expand(struct tl_opctx *c, struct tl_findings *f, struct tl_patgroup *g)
{
	unsigned char *used = tl_calloc((size_t)f->nop + 1, 1);
	struct tl_fpat *p;
	struct tl_kcause kc;
	struct kv_attn q;
	char key[64];
	int64_t hkv = 0, hq, copies, bytes;
	long row = tl_kcause_row(f, "attn_kv_expand");
	int o, r, pi, n;

	for (o = 0; row >= 0 && o < f->nop; o++) {
		if (!tl_category_is(f->op[o].cat, "attention") ||
		    !tl_op_param(c, &f->op[o], "H_Q", &hq) ||
		    !kv_attn_of(c, &f->op[o], &q))
			continue;
		n = 0;
		copies = bytes = 0;
		for (r = 0; r < f->nop; r++) {
			if (used[r] || !kv_expand_for(c, f, o, &q, r, &hkv))
				continue;
			used[r] = 1;
			n++;
			copies += f->op[r].count;
			bytes += f->op[r].count * tl_op_numel(c, r, 0) *
			    tl_op_elsize(c, r, 0);
		}
		if (n == 0)
			continue;
		memset(&kc, 0, sizeof(kc));
		kc.row = row;
		tl_kcn_text(&kc, "attention", "%s", f->op[o].name);
		tl_kcn_int(&kc, "kv_heads", hkv);
		tl_kcn_int(&kc, "heads", hq);
		tl_kcn_int(&kc, "n_rep", hq / hkv);
		tl_kcn_int(&kc, "copies", copies);
		tl_kcn_real(&kc, "copy_mb", (double)bytes / 1e6, 1);
		snprintf(key, sizeof(key), "attn_kv_expand/%d", o);
		pi = tl_patgroup_get(g, key, "");	/* may move f->pat */
		p = &f->pat[pi];
		p->kc = kc;
		for (r = 0; r < f->nop; r++)
			if (used[r] == 1) {
				p->save_ns += f->op[r].time_ns -
				    f->op[r].claimed_ns;
				tl_patgroup_op(g, pi, r);
				used[r] = 2;
			}
		p->save_lo_ns = p->save_hi_ns = p->save_ns;
	}
	free(used);
}

void
tl_kcause_totals(struct tl_findings *f, enum tl_patkind kind)
{
	int i;

	for (i = 0; i < f->npat; i++)
		if (f->pat[i].kind == kind) {
			tl_kcn_set(&f->pat[i].kc, "kernel_time", TL_KCU_MS,
			    (double)f->pat[i].time_ns);
			tl_kcn_set(&f->pat[i].kc, "calls", TL_KCU_INT,
			    (double)f->pat[i].calls);
		}
}

void
tl_kcause_find(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_opctx c;
	struct tl_fpat *p;
	struct cand x;
	char key[64];
	long row;
	int o, pi, layout = 0;

	load(f);
	for (o = 0; o < f->npat; o++)
		layout |= f->pat[o].kind == TL_PAT_LAYOUT;
	tl_opctx_init(&c, f);
	tl_patgroup_init(&g, f, TL_PAT_KERNEL_CAUSE);
	for (o = 0; o < f->nop; o++) {
		const struct tl_fop *op = &f->op[o];

		if (op->time_ns <= 0 || op->claimed_ns * 2 >= op->time_ns ||
		    !op->has_eff || op->eff > 100)
			continue;
		if (!(tl_category_is(op->cat, "conv") &&
		    conv_cause(&c, op, o, &x, layout)) &&
		    !(tl_category_is(op->cat, "attention") &&
		    att_cause(&c, f, o, &x)) &&
		    !(tl_category_is(op->cat, "moe") &&
		    moe_cause(&c, f, o, &x)))
			continue;
		if ((row = tl_kcause_row(f, x.key)) < 0)
			continue;
		tl_kcn_ms(&x.kc, "kernel_time", op->time_ns - op->claimed_ns);
		x.kc.row = row;
		/* One layout pattern per trace set: the advice is the same. */
		if (strncmp(x.key, "conv_nchw", 9) == 0)
			snprintf(key, sizeof(key), "%s", x.key);
		else
			snprintf(key, sizeof(key), "%s/%d", x.key, o);
		pi = tl_patgroup_get(&g, key, "");	/* may move f->pat */
		p = &f->pat[pi];
		if (p->calls == 0)
			p->kc = x.kc;
		p->save_ns += x.save;
		p->save_lo_ns += x.lo < x.hi ? x.lo : x.hi;
		p->save_hi_ns += x.lo < x.hi ? x.hi : x.lo;
		p->upper |= x.upper;
		tl_patgroup_op(&g, pi, o);
	}
	kv_expand(&c, f, &g);
	tl_kcause_totals(f, TL_PAT_KERNEL_CAUSE);
	tl_patgroup_free(&g);
	tl_opctx_free(&c);
}
