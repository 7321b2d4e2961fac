/* See LICENSE file for copyright and license details. */
#ifndef TL_CONTEXT_H
#define TL_CONTEXT_H

/*
 * What the trace says about an op outside its own arguments, which some
 * perf models need (the stream's context_args column, a JSON object):
 *
 *  - the serving step the op runs in: the per-request query and key
 *    length sums of the step's annotation (c_sq, c_sk, c_sqsq, c_sqsk
 *    for the context requests, g_* for the generation ones), for the ops
 *    of the paged_attn family.  The annotation is the innermost
 *    user_annotation on the op's thread around it in one of the detailed
 *    formats TraceLens reads (TraceLens/TraceUtils/annotation_utils.py):
 *    vLLM's execute_N_context_R(sqAskBsqsqCsqskD)_generation_R(...),
 *    SGLang's step[MODE ... c_sq=A ... g_sqsk=H] and ATOM's
 *    prefill[... tok=A ... sqsq=C sqsk=D sk=B] / decode[...];
 *  - for TraceLens' MoE pseudo-ops (trace/rollup.h): topk, from the TopK
 *    op under the MoE op, and gated and weight_dtype, from the kernel's
 *    name.
 */
#include <stdint.h>

#include "common/jsonw.h"
#include "trace/rollup.h"
#include "trace/trace.h"

/* The serving frameworks whose step annotations tl reads. */
enum tl_stepfmt {
	TL_STEP_NONE, TL_STEP_VLLM, TL_STEP_SGLANG, TL_STEP_ATOM,
	TL_STEP_DIFFUSION
};

/* What a step annotation says; -1 where it does not say. */
struct tl_stepinfo {
	enum tl_stepfmt fmt;
	int detailed;		/* v holds the eight sums */
	int64_t v[8];		/* c_sq ... g_sqsk (0 unless detailed) */
	int64_t ctx_reqs;	/* context (prefill) requests */
	int64_t gen_reqs;	/* generation (decode) requests */
	int64_t tokens;		/* tokens in the step's batch */
	int64_t batch;		/* its bs= (requests; images for xDiT) */
	int phase;		/* TL_PHASE_*: what its mode word says, or 0 */
};

/* A step's phase. */
enum { TL_PHASE_NONE, TL_PHASE_PREFILL, TL_PHASE_DECODE, TL_PHASE_MIXED };
extern const char *const tl_phase_names[4];	/* "" "prefill" ... */

/*
 * Read a step annotation in the formats TraceLens reads, detailed and
 * native (TraceLens/TraceUtils/annotation_utils.py): vLLM's
 * execute_T_context_R(sq..)_generation_R(sq..) and
 * execute_context_R(N)_generation_R(N), SGLang's step[MODE bs=B ...],
 * ATOM's prefill[bs=B tok=T ...] and decode[bs=B tok=T p=P d=D ...] and
 * xDiT's execute_diffusion_B_WxH.  1 when name is one, else 0.
 */
int tl_step_info(const char *name, struct tl_stepinfo *s);
/*
 * The eight aggregates of a detailed step annotation, in the order c_sq,
 * c_sk, c_sqsq, c_sqsk, g_sq, g_sk, g_sqsq, g_sqsk: 1 when name is one,
 * else 0.
 */
int tl_step_parse(const char *name, int64_t v[8]);

/* The step annotations of a trace, for tl_context_args. */
struct tl_steps {
	int *ev;		/* annotation events by thread, then ts */
	int64_t (*v)[8];	/* their aggregates */
	size_t n;
};

void tl_steps_find(const struct tl_trace *t, struct tl_steps *s);
void tl_steps_free(struct tl_steps *s);
/*
 * The innermost step annotation around event i on its thread (its index
 * in s), or -1.
 */
long tl_step_of(const struct tl_trace *t, const struct tl_steps *s, int i);

/* Row r's context args into b (reset first); empty when it has none. */
void tl_context_args(const struct tl_trace *t, const struct tl_steps *s,
    const struct tl_rows *rows, const struct tl_row *r, struct tl_jbuf *b);

#endif
