/* See LICENSE file for copyright and license details. */
/*
 * Attention family (TraceLens' SDPA in TraceLens/PerfModel/perf_model.py).
 * B batch, N_Q and N_KV query and
 * key/value lengths, H_Q and H_KV heads, d_qk and d_v head sizes; softmax
 * FLOPs are left out.  P is the number of (query, key) pairs scored:
 * N_Q·N_KV, or with a causal mask N_Q·N_KV/2 when N_Q = N_KV (TraceLens'
 * convention) and the exact count of pairs the mask keeps otherwise.
 *
 *	forward flops  = B·H_Q·2·P·(d_qk + d_v)
 *	backward flops = B·H_Q·2·P·((d_qk if flash_impl) + 2·d_v + 2·d_qk)
 *	                 + G, with the GQA reduction of dK and dV
 *	                 G = B·N_KV·(d_v + d_qk)·(H_Q/H_KV - 1)
 *	                 (halved with P when causal and N_Q = N_KV; the
 *	                 flash_impl term recomputes QK^T)
 *	forward bytes  = q + k + v + o
 *	backward bytes = q + k + v + dO + dQ + dK + dV
 * where q = B·N_Q·H_Q·d_qk, k = B·N_KV·H_KV·d_qk, v = B·N_KV·H_KV·d_v and
 * o = dO = B·N_Q·H_Q·d_v elements, each gradient the size of its tensor,
 * times the element size of q, k or v (o, dO and dQ take q's).
 *
 * Varlen ops pack the sequences into T tokens (q, k, v are T×H×d, B = 1,
 * num_seqs = len(cu_seqlens) - 1).  Their FLOPs are TraceLens' lower
 * bound: one sequence of max_seqlen plus num_seqs - 1 sequences sharing
 * the remaining tokens equally (integer division); bytes use T.
 *
 * A causal mask is aligned top-left by PyTorch's is_causal (query i sees
 * keys j <= i) and bottom-right by flash-attn and aiter (query i sees keys
 * j <= i + N_KV - N_Q).  The table below gives each op's argument slots.
 *
 * Where tl differs from TraceLens (docs/DEVIATIONS.md):
 *	- bytes use the element size of q, k and v; TraceLens takes 2 bytes
 *	  per element (only flash_attn::_flash_attn_backward reads the dtype);
 *	- causal with N_Q != N_KV counts the pairs the mask keeps (TraceLens
 *	  raises and drops the row); the GQA term G is then not halved;
 *	- the backward pass of a varlen forward op uses the varlen lower
 *	  bound, as flash_attn::_flash_attn_varlen_backward does (TraceLens
 *	  counts full T×T attention there);
 *	- aiter::_flash_attn_backward reads q, k, v from slots 1-3 (after
 *	  dout, as its dropout and causal slots imply); TraceLens reads
 *	  slots 0-2 and so fails on GQA or cross attention, and agrees
 *	  with tl wherever it succeeds;
 *	- H_Q must be a positive multiple of H_KV, as the kernels require
 *	  (TraceLens uses H_Q // H_KV - 1 whatever it is).
 */
#include <string.h>

#include "common/checked.h"
#include "common/tsv.h"
#include "model/concrete.h"
#include "model/dtype.h"
#include "model/family.h"

enum layout {
	BHND,			/* (B, H, N, d): PyTorch */
	BNHD,			/* (B, N, H, d): flash-attn, aiter */
	THD,			/* (T, H, d): varlen */
	EVO			/* (B, N_seq, N_res, H, d): Evoformer */
};

struct op {
	const char *name;
	int bwd;		/* an explicit backward op */
	int q;			/* slot of q; k and v follow */
	enum layout layout;
	int drop, causal;	/* concrete-input slots, -1 if none */
	int causal_def;		/* causal when the slot is empty */
	int flash;		/* flash_impl: backward recomputes QK^T */
	int topleft;		/* causal mask aligned top-left */
	int cu;			/* varlen: slot of cu_seqlens_q, _k follows */
	int maxlen;		/* varlen: slot of max_seqlen_q, _k follows */
};

static const struct op ops[] = {
	{ "aten::_scaled_dot_product_flash_attention",
	    0, 0, BHND, 3, 4, 0, 1, 1, -1, -1 },
	{ "aten::_scaled_dot_product_efficient_attention",
	    0, 0, BHND, 5, 6, 0, 0, 1, -1, -1 },
	{ "aten::_scaled_dot_product_cudnn_attention",
	    0, 0, BHND, 5, 6, 0, 0, 1, -1, -1 },
	{ "FlashAttnFunc", 0, 0, BNHD, 3, 5, 0, 1, 0, -1, -1 },
	{ "flash_attn::_flash_attn_forward",
	    0, 0, BNHD, 3, 5, 0, 1, 0, -1, -1 },
	{ "flash_attn::_flash_attn_varlen_forward",
	    0, 0, THD, 7, 9, 0, 1, 0, 3, 5 },
	{ "aiter::_flash_attn_forward", 0, 0, BNHD, 3, 5, 0, 1, 0, -1, -1 },
	{ "aiter::wrapper_fmha_v3_fwd", 0, 1, BNHD, 4, 6, 0, 1, 0, -1, -1 },
	{ "aiter::mha_fwd", 0, 0, BNHD, 3, 5, 0, 1, 0, -1, -1 },
	{ "aiter::fmha_v3_fwd", 0, 0, BNHD, 3, 5, 0, 1, 0, -1, -1 },
	{ "flash_attn_3::fwd", 0, 0, BNHD, -1, 24, 0, 1, 0, -1, -1 },
	{ "EvoformerAttention", 0, 0, EVO, -1, -1, 0, 0, 0, -1, -1 },
	{ "flash_attn::_flash_attn_backward",
	    1, 1, BNHD, 8, 10, 1, 1, 0, -1, -1 },
	{ "flash_attn::_flash_attn_varlen_backward",
	    1, 1, THD, 13, 15, 0, 1, 0, 9, 11 },
	{ "aiter::_flash_attn_backward", 1, 1, BNHD, 10, 12, 0, 1, 0, -1, -1 },
	{ "aiter::wrapper_fmha_v3_bwd", 1, 1, BNHD, 7, 9, 0, 1, 0, -1, -1 },
	{ "aiter::mha_bwd", 1, 1, BNHD, 6, 8, 0, 1, 0, -1, -1 },
};

struct sdpa {
	int64_t b, nq, hq, nkv, hkv, dqk, dv;
	int causal, flash, topleft;
	char dropout[40];
	int varlen;
	int64_t nseq_q, nseq_kv, maxq, maxkv;
	int bpe_q, bpe_k, bpe_v;	/* 0 = unknown */
	const char *dtype;
};

/* (B, H, N, d) of slot a in layout l, or -1 when it is not that shape. */
static int
bhnd(const struct tl_arg *a, enum layout l, int64_t v[4])
{
	/* Index of B, H, N and d in the shape; B is 1 for varlen. */
	static const int idx[][4] = {
		{ 0, 1, 2, 3 },		/* BHND */
		{ 0, 2, 1, 3 },		/* BNHD */
		{ -1, 1, 0, 2 }		/* THD */
	};
	int i;

	if (l == EVO || a->kind != TL_ARG_SHAPE ||
	    a->nd != (l == THD ? 3 : 4))
		return -1;
	for (i = 0; i < a->nd; i++)
		if (a->dim[i] < 0)
			return -1;
	for (i = 0; i < 4; i++)
		v[i] = idx[l][i] < 0 ? 1 : a->dim[idx[l][i]];
	return 0;
}

static const char *
layout_name(enum layout l)
{
	return l == BHND ? "(B, H, N, d)" : l == BNHD ? "(B, N, H, d)" :
	    "(T, H, d)";
}

/* Shapes of q, k and v (TraceLens' extract_sdpa_cfg and its checks). */
static int
shapes(const struct tl_opargs *o, const struct op *op, struct sdpa *s,
    struct tl_perf *p)
{
	static const char *qkv[] = { "q", "k", "v" };
	int64_t v[3][4];
	int i;

	if (op->layout == EVO) {
		const struct tl_arg *q = tl_oparg(o, op->q);

		if (q->kind != TL_ARG_SHAPE || q->nd != 5)
			return tl_perf_fail(p, "%s: q (argument %d) is not a "
			    "(B, N_seq, N_res, H, d) tensor", o->name, op->q);
		for (i = 0; i < 5; i++)
			if (q->dim[i] < 0)
				return tl_perf_fail(p, "%s: negative "
				    "dimension", o->name);
		if (tl_mul(&s->b, q->dim[0], q->dim[1]) < 0)
			return tl_perf_fail(p, "%s: overflow", o->name);
		s->nq = s->nkv = q->dim[2];
		s->hq = s->hkv = q->dim[3];
		s->dqk = s->dv = q->dim[4];
		s->dtype = q->type;
		s->bpe_q = s->bpe_k = s->bpe_v = tl_dtype_bytes(q->type);
		return 0;
	}
	for (i = 0; i < 3; i++)
		if (bhnd(tl_oparg(o, op->q + i), op->layout, v[i]) < 0)
			return tl_perf_fail(p, "%s: %s (argument %d) is not a "
			    "%s tensor", o->name, qkv[i], op->q + i,
			    layout_name(op->layout));
	if (v[0][0] != v[1][0] || v[0][0] != v[2][0])
		return tl_perf_fail(p, "%s: batch sizes of q, k, v differ",
		    o->name);
	if (v[1][1] != v[2][1])
		return tl_perf_fail(p, "%s: head counts of k and v differ",
		    o->name);
	if (v[1][2] != v[2][2])
		return tl_perf_fail(p, "%s: lengths of k and v differ",
		    o->name);
	if (v[0][3] != v[1][3])
		return tl_perf_fail(p, "%s: head sizes of q and k differ",
		    o->name);
	s->b = v[0][0];
	s->hq = v[0][1];
	s->nq = v[0][2];
	s->dqk = v[0][3];
	s->hkv = v[1][1];
	s->nkv = v[1][2];
	s->dv = v[2][3];
	s->dtype = tl_oparg(o, op->q)->type;
	s->bpe_q = tl_dtype_bytes(tl_oparg(o, op->q)->type);
	s->bpe_k = tl_dtype_bytes(tl_oparg(o, op->q + 1)->type);
	s->bpe_v = tl_dtype_bytes(tl_oparg(o, op->q + 2)->type);
	return 0;
}

/* Sequence counts and maximum lengths of a varlen op. */
static int
varlen(const struct tl_opargs *o, const struct op *op, struct sdpa *s,
    struct tl_perf *p)
{
	const struct tl_arg *cq = tl_oparg(o, op->cu);
	const struct tl_arg *ck = tl_oparg(o, op->cu + 1);

	if (cq->kind != TL_ARG_SHAPE || cq->nd != 1 ||
	    ck->kind != TL_ARG_SHAPE || ck->nd != 1 ||
	    cq->dim[0] < 2 || ck->dim[0] < 2)
		return tl_perf_fail(p, "%s: cu_seqlens (arguments %d, %d) are "
		    "not 1-D tensors of at least 2 offsets", o->name, op->cu,
		    op->cu + 1);
	s->nseq_q = cq->dim[0] - 1;
	s->nseq_kv = ck->dim[0] - 1;
	if (tl_ci_count(tl_oparg(o, op->maxlen)->ci, &s->maxq) < 0 ||
	    tl_ci_count(tl_oparg(o, op->maxlen + 1)->ci, &s->maxkv) < 0)
		return tl_perf_fail(p, "%s: max_seqlen \"%s\", \"%s\" are not "
		    "whole numbers", o->name, tl_oparg(o, op->maxlen)->ci,
		    tl_oparg(o, op->maxlen + 1)->ci);
	if (s->maxq > s->nq || s->maxkv > s->nkv)
		return tl_perf_fail(p, "%s: max_seqlen exceeds the tokens",
		    o->name);
	if (s->nseq_q > 1 && s->nseq_kv < 2)
		return tl_perf_fail(p, "%s: %lld query sequences but one key "
		    "sequence", o->name, (long long)s->nseq_q);
	s->varlen = 1;
	return 0;
}

/*
 * Twice the number of (query, key) pairs scored: 2·nq·nkv, nq·nkv when
 * causal with nq = nkv (TraceLens' halving), else twice the pairs with
 * j <= i + off, off = 0 top-left or nkv - nq bottom-right.  That is the
 * sum over a = off + 1 .. nq + off of clamp(a, 0, nkv).
 */
static int
pairs2(int64_t nq, int64_t nkv, int causal, int topleft, int64_t *r)
{
	int64_t full, off, a0, a1, lo, hi, t, u;

	if (tl_mul(&full, nq, nkv) < 0)
		return -1;
	if (!causal)
		return tl_mul(r, full, 2);
	if (nq == nkv || full == 0) {
		*r = full;
		return 0;
	}
	off = topleft ? 0 : nkv - nq;
	a0 = off + 1;
	a1 = nq + off;
	lo = a0 > 1 ? a0 : 1;
	hi = a1 < nkv ? a1 : nkv;
	t = 0;
	if (hi >= lo && (tl_add(&t, lo, hi) < 0 ||
	    tl_mul(&t, t, hi - lo + 1) < 0))
		return -1;
	if (a1 > nkv) {
		/* Queries past the last key see all of them. */
		lo = a0 > nkv + 1 ? a0 : nkv + 1;
		if (tl_mul(&u, a1 - lo + 1, nkv) < 0 || tl_mul(&u, u, 2) < 0 ||
		    tl_add(&t, t, u) < 0)
			return -1;
	}
	*r = t;
	return 0;
}

/* FLOPs of one attention of nq queries and nkv keys. */
static int
flops(const struct sdpa *s, int64_t b, int64_t nq, int64_t nkv, int bwd,
    int64_t *r)
{
	int64_t p2, f, g, w;

	if (pairs2(nq, nkv, s->causal, s->topleft, &p2) < 0 ||
	    tl_mul(&f, b, s->hq) < 0 || tl_mul(&f, f, p2) < 0)
		return -1;
	if (!bwd)
		return tl_add(&w, s->dqk, s->dv) < 0 ? -1 : tl_mul(r, f, w);
	/* (d_qk if flash) + 2·d_v + 2·d_qk */
	if (tl_add(&w, s->dqk, s->dv) < 0 || tl_mul(&w, w, 2) < 0 ||
	    (s->flash && tl_add(&w, w, s->dqk) < 0) || tl_mul(&f, f, w) < 0)
		return -1;
	/* GQA reduction of dK and dV over H_Q / H_KV heads. */
	if (tl_mul(&g, b, nkv) < 0 || tl_add(&w, s->dv, s->dqk) < 0 ||
	    tl_mul(&g, g, w) < 0 || tl_mul(&g, g, s->hq / s->hkv - 1) < 0)
		return -1;
	if (s->causal && nq == nkv)
		g /= 2;
	return tl_add(r, f, g);
}

static int
count(const struct sdpa *s, int bwd, struct tl_perf *p)
{
	int64_t f, t, b, q, k, v, o, bq, bk, bv;

	if (!s->varlen) {
		if (flops(s, s->b, s->nq, s->nkv, bwd, &f) < 0)
			return tl_perf_fail(p, "FLOP count overflows 64 bits");
	} else {
		if (flops(s, s->b, s->maxq, s->maxkv, bwd, &f) < 0)
			return tl_perf_fail(p, "FLOP count overflows 64 bits");
		if (s->nseq_q > 1 && (flops(s, s->b,
		    (s->nq - s->maxq) / (s->nseq_q - 1),
		    (s->nkv - s->maxkv) / (s->nseq_kv - 1), bwd, &t) < 0 ||
		    tl_mul(&t, t, s->nseq_q - 1) < 0 || tl_add(&f, f, t) < 0))
			return tl_perf_fail(p, "FLOP count overflows 64 bits");
	}
	p->flops = f;
	p->has_flops = 1;
	if (s->bpe_q == 0 || s->bpe_k == 0 || s->bpe_v == 0)
		return 0;
	if (tl_mul(&q, s->b, s->nq) < 0 || tl_mul(&q, q, s->hq) < 0 ||
	    tl_mul(&o, q, s->dv) < 0 || tl_mul(&q, q, s->dqk) < 0 ||
	    tl_mul(&k, s->b, s->nkv) < 0 || tl_mul(&k, k, s->hkv) < 0 ||
	    tl_mul(&v, k, s->dv) < 0 || tl_mul(&k, k, s->dqk) < 0 ||
	    tl_mul(&bq, q, s->bpe_q) < 0 || tl_mul(&bk, k, s->bpe_k) < 0 ||
	    tl_mul(&bv, v, s->bpe_v) < 0 || tl_mul(&o, o, s->bpe_q) < 0 ||
	    tl_add(&b, bq, bk) < 0 || tl_add(&b, b, bv) < 0 ||
	    (bwd && tl_mul(&b, b, 2) < 0) || tl_add(&b, b, o) < 0)
		return tl_perf_fail(p, "byte count overflows 64 bits");
	p->bytes = b;
	p->has_bytes = 1;
	return 0;
}

static void
params(const struct sdpa *s, struct tl_perf *p)
{
	tl_perf_param_int(p, "B", s->b);
	tl_perf_param_int(p, "N_Q", s->nq);
	tl_perf_param_int(p, "H_Q", s->hq);
	tl_perf_param_int(p, "N_KV", s->nkv);
	tl_perf_param_int(p, "H_KV", s->hkv);
	tl_perf_param_int(p, "d_h_qk", s->dqk);
	tl_perf_param_int(p, "d_h_v", s->dv);
	tl_perf_param_str(p, "dropout", s->dropout);
	tl_perf_param_bool(p, "causal", s->causal);
	tl_perf_param_bool(p, "flash_impl", s->flash);
	if (s->varlen) {
		tl_perf_param_int(p, "num_seqs_q", s->nseq_q);
		tl_perf_param_int(p, "num_seqs_kv", s->nseq_kv);
		tl_perf_param_int(p, "max_seqlen_q", s->maxq);
		tl_perf_param_int(p, "max_seqlen_kv", s->maxkv);
	}
}

/* The dropout probability as Python prints a float ("0.0", "0.1"). */
static void
fmt_dropout(char *buf, size_t n, double d)
{
	tl_fmt_double(buf, n, d);
	if (strpbrk(buf, ".e") == NULL && strlen(buf) + 3 <= n)
		strcat(buf, ".0");
}

static int
model(const struct tl_opargs *o, int explicit_bwd, int bwd,
    struct tl_perf *p)
{
	const struct op *op = NULL;
	struct sdpa s;
	double drop = 0;
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(ops[i].name, o->name) == 0)
			op = &ops[i];
	if (op == NULL || op->bwd != explicit_bwd)
		return tl_perf_fail(p, "no %sattention model for %s",
		    explicit_bwd ? "backward " : "", o->name);
	memset(&s, 0, sizeof(s));
	if (shapes(o, op, &s, p) < 0)
		return -1;
	if (s.hq < 1 || s.hkv < 1 || s.hq % s.hkv != 0)
		return tl_perf_fail(p, "%s: %lld query heads are not a multiple "
		    "of %lld key/value heads", o->name, (long long)s.hq,
		    (long long)s.hkv);
	if (op->cu >= 0 && varlen(o, op, &s, p) < 0)
		return -1;
	if (op->drop >= 0 && (tl_ci_double(tl_oparg(o, op->drop)->ci, 0,
	    &drop) < 0 || drop < 0 || drop > 1))
		return tl_perf_fail(p, "%s: dropout \"%s\" is not a "
		    "probability", o->name, tl_oparg(o, op->drop)->ci);
	fmt_dropout(s.dropout, sizeof(s.dropout), drop);
	s.causal = op->causal_def;
	if (op->causal >= 0 && tl_ci_bool(tl_oparg(o, op->causal)->ci,
	    op->causal_def, &s.causal) < 0)
		return tl_perf_fail(p, "%s: causal \"%s\" is not a bool",
		    o->name, tl_oparg(o, op->causal)->ci);
	s.flash = op->flash;
	s.topleft = op->topleft;
	p->maf = "matrix";
	p->precision = tl_dtype_precision(s.dtype);
	params(&s, p);
	return count(&s, bwd || explicit_bwd, p);
}

int
tl_model_sdpa(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	return model(o, 0, bwd, p);
}

int
tl_model_sdpa_bwd(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	if (bwd)
		return tl_perf_fail(p, "%s is a backward op: it has no "
		    "backward pass", o->name);
	return model(o, 1, 0, p);
}
