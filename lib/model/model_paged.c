/* See LICENSE file for copyright and license details. */
/*
 * Paged attention of a serving step (TraceLens' InferenceAttention in
 * TraceLens/PerfModel/extensions/attention_perf_model_extensions.py and
 * its docs/conceptual/inference-analysis.md).  One call attends for every
 * request of the step, each with its own query length sq (the new tokens)
 * and key length sk (its cached context plus the new tokens).  Context
 * (prefill) requests are causal within their new tokens; generation
 * (decode) requests are not.  Summed over the requests, the counts need
 * only eight aggregates of the step, which the serving frameworks write
 * into the step's annotation and tl-parse copies into the row's
 * context_args: for the context requests c_sq = Σ sq, c_sk = Σ sk,
 * c_sqsq = Σ sq², c_sqsk = Σ sq·sk, and g_sq, g_sk, g_sqsq, g_sqsk for
 * the generation requests.  With H_Q and H_KV the query and key/value
 * heads and d_qk, d_v the head sizes:
 *
 *	flops = H_Q·(d_qk + d_v)·(2·c_sqsk - c_sqsq + 2·g_sqsk)
 *
 * (each request's full rectangle of sq·sk scores, QK^T and PV at 2 FLOPs
 * per multiply-add, less the masked half of its sq·sq self-attention
 * square for the context requests: for a first chunk, sk = sq, that
 * leaves the causal half; softmax left out), and
 *
 *	bytes = (c_sq + g_sq)·(H_Q + H_KV)·(d_qk + d_v)·bpe(q)
 *	      + (c_sk - c_sq + g_sk - g_sq)·H_KV·(d_qk + d_v)·bpe(kv)
 *
 * (q read, output written, the new tokens' k and v read at q's element
 * size; the cached keys and values read once at the cache's).  A decode
 * kernel with a sliding window W (aiter::pa_decode_gluon) sees at most W
 * keys per query: g_sk and g_sqsk are capped at g_sq·W, TraceLens'
 * approximation, exact when every context is on one side of W.
 *
 * Argument slots, 0-based (q [T, H_Q, d_qk]):
 *	vllm::unified_attention_with_output,
 *	vllm::unified_mla_attention_with_output, aiter::mha_varlen_fwd:
 *	    q (0), k (1): H_KV and d_v from k, kv dtype k's;
 *	aiter::fmha_v3_varlen_fwd, aiter::mha_batch_prefill: the same, d_v
 *	    from v (2);
 *	aiter::paged_attention_ragged and SGLang's
 *	    sglang_profiler::attention_paged_attention_ragged: q (2), the
 *	    key cache [pages, page size, H_KV, d] (3), the value cache (4):
 *	    d_v from it, kv dtype the key cache's;
 *	aiter::pa_decode_gluon: q (0), key cache [blocks, H_KV, ...] (2),
 *	    d_v = d_qk, kv dtype the cache's, the window the concrete input
 *	    19; decode only, so the context aggregates count as 0.
 *
 * Where tl differs from TraceLens (docs/DEVIATIONS.md): the ragged paged
 * attention reads the cache at the cache's element size (TraceLens: q's);
 * an unknown dtype leaves the bytes empty (TraceLens: 2 bytes).
 */
#include <string.h>

#include "common/checked.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

enum layout { BASE, VFROMV, RAGGED, GLUON };

static const struct {
	const char *name;
	enum layout layout;
} ops[] = {
	{ "vllm::unified_attention_with_output", BASE },
	{ "vllm::unified_mla_attention_with_output", BASE },
	{ "aiter::mha_varlen_fwd", BASE },
	{ "aiter::fmha_v3_varlen_fwd", VFROMV },
	{ "aiter::mha_batch_prefill", VFROMV },
	{ "aiter::paged_attention_ragged", RAGGED },
	{ "sglang_profiler::attention_paged_attention_ragged", RAGGED },
	{ "aiter::pa_decode_gluon", GLUON },
};

/* The step aggregates, in context_args. */
static const char *const keys[8] = {
	"c_sq", "c_sk", "c_sqsq", "c_sqsk", "g_sq", "g_sk", "g_sqsq", "g_sqsk"
};
enum { C_SQ, C_SK, C_SQSQ, C_SQSK, G_SQ, G_SK, G_SQSQ, G_SQSK };

struct paged {
	int64_t nq, hq, nkv, hkv, dqk, dv, window;
	int64_t s[8];
	int bpe_q, bpe_kv;
	const char *qtype;
};

static const struct tl_arg *
tensor(const struct tl_opargs *o, int i, int nd, const char *what,
    struct tl_perf *p)
{
	const struct tl_arg *a = tl_oparg(o, i);
	int d;

	if (a->kind != TL_ARG_SHAPE || (nd > 0 ? a->nd != nd : a->nd < -nd)) {
		if (nd > 0)
			tl_perf_fail(p, "%s: %s (argument %d) is not a %d-D "
			    "tensor", o->name, what, i, nd);
		else
			tl_perf_fail(p, "%s: %s (argument %d) is not a tensor "
			    "of at least %d dimension%s", o->name, what, i, -nd,
			    nd == -1 ? "" : "s");
		return NULL;
	}
	for (d = 0; d < a->nd; d++)
		if (a->dim[d] < 0) {
			tl_perf_fail(p, "%s: negative dimension", o->name);
			return NULL;
		}
	return a;
}

static int
shapes(const struct tl_opargs *o, enum layout l, struct paged *g,
    struct tl_perf *p)
{
	const struct tl_arg *q, *k, *v;
	int iq = l == RAGGED ? 2 : 0;

	if ((q = tensor(o, iq, 3, "q", p)) == NULL)
		return -1;
	g->nq = q->dim[0];
	g->hq = q->dim[1];
	g->dqk = q->dim[2];
	g->qtype = q->type;
	g->bpe_q = tl_dtype_bytes(q->type);
	switch (l) {
	case BASE:
	case VFROMV:
		if ((k = tensor(o, 1, 3, "k", p)) == NULL)
			return -1;
		g->nkv = k->dim[0];
		g->hkv = k->dim[1];
		g->dv = k->dim[2];
		g->bpe_kv = tl_dtype_bytes(k->type);
		if (l == VFROMV) {
			if ((v = tensor(o, 2, -1, "v", p)) == NULL)
				return -1;
			g->dv = v->dim[v->nd - 1];
		}
		break;
	case RAGGED:
		if ((k = tensor(o, 3, -2, "key cache", p)) == NULL ||
		    (v = tensor(o, 4, -1, "value cache", p)) == NULL)
			return -1;
		g->hkv = k->dim[k->nd - 2];
		g->dv = v->dim[v->nd - 1];
		g->bpe_kv = tl_dtype_bytes(k->type);
		break;
	case GLUON:
		if ((k = tensor(o, 2, -2, "key cache", p)) == NULL)
			return -1;
		g->hkv = k->dim[1];
		g->dv = g->dqk;
		g->bpe_kv = tl_dtype_bytes(k->type);
		if (tl_ci_int(tl_oparg(o, 19)->ci, &g->window) < 0)
			g->window = 0;
		break;
	}
	if (g->hq < 1 || g->hkv < 1)
		return tl_perf_fail(p, "%s: no heads", o->name);
	return 0;
}

/* The step aggregates from context_args. */
static int
stats(const struct tl_opargs *o, enum layout l, struct paged *g,
    struct tl_perf *p)
{
	int k;

	for (k = 0; k < 8; k++)
		if (tl_ctx_int(o, keys[k], &g->s[k]) != 0 || g->s[k] < 0)
			return tl_perf_fail(p, "%s: the row has no %s in "
			    "context_args: the serving step's sq/sk sums from "
			    "a detailed vLLM, SGLang or ATOM step annotation",
			    o->name, keys[k]);
	if (l == GLUON)
		g->s[C_SQ] = g->s[C_SK] = g->s[C_SQSQ] = g->s[C_SQSK] = 0;
	if (g->s[C_SQ] == 0 && g->s[G_SQ] == 0)
		return tl_perf_fail(p, "%s: the step annotation counts no query "
		    "tokens", o->name);
	if (g->s[C_SK] < g->s[C_SQ] || g->s[G_SK] < g->s[G_SQ])
		return tl_perf_fail(p, "%s: the step annotation has fewer keys "
		    "than queries", o->name);
	if (g->window > 0) {
		int64_t cap;

		if (tl_mul(&cap, g->s[G_SQ], g->window) < 0)
			return tl_perf_fail(p, "count overflows 64 bits");
		if (g->s[G_SK] > cap)
			g->s[G_SK] = cap;
		if (g->s[G_SQSK] > cap)
			g->s[G_SQSK] = cap;
	}
	return 0;
}

static int
count(const struct paged *g, struct tl_perf *p)
{
	int64_t d, r, f, h, b, t;
	const int64_t *s = g->s;

	if (tl_add(&d, g->dqk, g->dv) < 0 ||
	    tl_mul(&r, s[C_SQSK], 2) < 0 || tl_add(&r, r, -(s[C_SQSQ])) < 0 ||
	    tl_mul(&t, s[G_SQSK], 2) < 0 || tl_add(&r, r, t) < 0 ||
	    tl_mul(&f, g->hq, d) < 0 || tl_mul(&f, f, r) < 0)
		return tl_perf_fail(p, "FLOP count overflows 64 bits");
	if (f < 0)
		return tl_perf_fail(p, "c_sqsq exceeds twice c_sqsk");
	p->flops = f;
	p->has_flops = 1;
	if (g->bpe_q == 0 || g->bpe_kv == 0)
		return 0;
	if (tl_add(&h, g->hq, g->hkv) < 0 || tl_mul(&h, h, d) < 0 ||
	    tl_add(&t, s[C_SQ], s[G_SQ]) < 0 || tl_mul(&b, t, h) < 0 ||
	    tl_mul(&b, b, g->bpe_q) < 0 ||
	    tl_add(&t, s[C_SK], -(s[C_SQ])) < 0 || tl_add(&t, t, s[G_SK]) < 0 ||
	    tl_add(&t, t, -(s[G_SQ])) < 0 || tl_mul(&t, t, g->hkv) < 0 ||
	    tl_mul(&t, t, d) < 0 || tl_mul(&t, t, g->bpe_kv) < 0 ||
	    tl_add(&b, b, t) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->bytes = b;
	p->has_bytes = 1;
	return 0;
}

static void
params(const struct paged *g, struct tl_perf *p)
{
	int k;

	tl_perf_param_int(p, "B", 1);
	tl_perf_param_int(p, "N_Q", g->nq);
	tl_perf_param_int(p, "H_Q", g->hq);
	tl_perf_param_int(p, "H_KV", g->hkv);
	tl_perf_param_int(p, "d_h_qk", g->dqk);
	tl_perf_param_int(p, "d_h_v", g->dv);
	for (k = 0; k < 8; k++)
		tl_perf_param_int(p, keys[k], g->s[k]);
	if (g->window > 0)
		tl_perf_param_int(p, "sliding_window", g->window);
}

int
tl_model_paged(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	struct paged g;
	size_t n;

	if (bwd)
		return tl_perf_fail(p, "%s: paged attention has no backward "
		    "model", o->name);
	for (n = 0; n < sizeof(ops) / sizeof(ops[0]); n++)
		if (strcmp(ops[n].name, o->name) == 0)
			break;
	if (n == sizeof(ops) / sizeof(ops[0]))
		return tl_perf_fail(p, "%s: not a paged attention op this model "
		    "knows", o->name);
	memset(&g, 0, sizeof(g));
	if (shapes(o, ops[n].layout, &g, p) < 0 ||
	    stats(o, ops[n].layout, &g, p) < 0)
		return -1;
	p->maf = "matrix";
	p->precision = tl_dtype_precision(g.qtype);
	params(&g, p);
	return count(&g, p);
}
