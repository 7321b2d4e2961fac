/* See LICENSE file for copyright and license details. */
/*
 * The serving-step annotations tl-parse reads for context_args
 * (lib/trace/context.c), in the formats TraceLens documents in
 * TraceLens/TraceUtils/annotation_utils.py: the detailed ones give the
 * eight sums; the native ones (no sq/sk sums) and anything else none.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace/context.h"
#include "unit.h"

/* name parses to want[8] (want NULL: does not parse). */
static void
step(const char *name, const int64_t *want)
{
	int64_t v[8];
	int ok = tl_step_parse(name, v), k, fail = unit_fail;

	CHECK(ok == (want != NULL));
	if (ok && want != NULL)
		for (k = 0; k < 8; k++)
			CHECK(v[k] == want[k]);
	if (unit_fail != fail)
		printf("  %s\n", name);
}

/*
 * name reads as a step of format fmt with these requests, tokens, batch
 * and phase (-1: not said); fmt TL_STEP_NONE: not a step.
 */
static void
info(const char *name, enum tl_stepfmt fmt, int64_t ctx, int64_t gen,
    int64_t tokens, int64_t batch, int phase)
{
	struct tl_stepinfo si;
	int ok = tl_step_info(name, &si), fail = unit_fail;

	CHECK(ok == (fmt != TL_STEP_NONE));
	if (ok) {
		CHECK(si.fmt == fmt);
		CHECK(si.ctx_reqs == ctx);
		CHECK(si.gen_reqs == gen);
		CHECK(si.tokens == tokens);
		CHECK(si.batch == batch);
		CHECK(si.phase == phase);
	}
	if (unit_fail != fail)
		printf("  %s\n", name);
}

int
main(void)
{
	/* vLLM: context (prefill) and generation (decode) requests. */
	static const int64_t vllm[8] = {
		8155, 8430, 7475785, 7671310, 37, 34489, 37, 34489
	};
	static const int64_t vllm_decode[8] = {
		0, 0, 0, 0, 64, 131072, 64, 131072
	};
	/* SGLang: absent keys are 0. */
	static const int64_t sg_extend[8] = {
		14721, 14721, 108745533, 108745533, 0, 0, 0, 0
	};
	static const int64_t sg_decode[8] = {
		0, 0, 0, 0, 128, 131072, 256, 262144
	};
	static const int64_t sg_mixed[8] = { 5, 8, 25, 40, 1, 12, 1, 12 };
	/* ATOM: tok is sq, sk the key sum; prefill is context. */
	static const int64_t atom_prefill[8] = {
		14721, 14721, 108745533, 108745533, 0, 0, 0, 0
	};
	static const int64_t atom_decode[8] = {
		0, 0, 0, 0, 128, 65536, 512, 262144
	};

	step("execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)"
	    "_generation_37(sq37sk34489sqsq37sqsk34489)", vllm);
	step("execute_64_context_0(sq0sk0sqsq0sqsk0)_generation_64"
	    "(sq64sk131072sqsq64sqsk131072)", vllm_decode);
	step("step[EXTEND bs=2 toks=14721 c_sq=14721 c_sqsq=108745533 "
	    "c_sqsk=108745533 c_sk=14721]", sg_extend);
	step("step[DECODE bs=64 g_sq=128 g_sqsq=256 g_sqsk=262144 "
	    "g_sk=131072]", sg_decode);
	step("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 "
	    "g_sq=1 g_sk=12 g_sqsq=1 g_sqsk=12]", sg_mixed);
	step("prefill[bs=2 tok=14721 ctx=[7803, 6918] sqsq=108745533 "
	    "sqsk=108745533 sk=14721]", atom_prefill);
	step("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 "
	    "sk=65536]", atom_decode);
	/* Native formats carry no sq/sk sums; other names are no steps. */
	step("execute_context_2(14721)_generation_0(0)", NULL);
	step("step[EXTEND bs=2 toks=14721]", NULL);
	step("step[DECODE bs=64]", NULL);
	step("decode[bs=117/128 tok=117 d=117]", NULL);
	step("prefill[bs=2 tok=14721 ctx=[7803, 6918]]", NULL);
	step("step[DECODEX g_sqsq=1]", NULL);
	step("execute_8192_context_9(sq8155sk8430sqsq7475785)_generation_0"
	    "(sq0sk0sqsq0sqsk0)", NULL);
	step("execute_1_context_1(sq1sk1sqsq1sqsk1)_generation_1(sq1sk1sqsq1",
	    NULL);
	step("execute_1_context_1(sq9999999999999999999sk1sqsq1sqsk1)"
	    "_generation_0(sq0sk0sqsq0sqsk0)", NULL);
	/* What every format says about the step (requests, tokens, phase). */
	info("execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)"
	    "_generation_37(sq37sk34489sqsq37sqsk34489)", TL_STEP_VLLM, 9, 37,
	    8192, -1, TL_PHASE_MIXED);
	info("execute_context_2(14721)_generation_0(0)", TL_STEP_VLLM, 2, 0,
	    14721, -1, TL_PHASE_PREFILL);
	info("execute_context_0(0)_generation_64(64)", TL_STEP_VLLM, 0, 64, 64,
	    -1, TL_PHASE_DECODE);
	info("execute_context_2(6144)_generation_3(3)", TL_STEP_VLLM, 2, 3,
	    6147, -1, TL_PHASE_MIXED);
	info("execute_context_0(0)_generation_0(0)", TL_STEP_VLLM, 0, 0, 0, -1,
	    TL_PHASE_NONE);
	info("execute_context_2(6144)_generation_3", TL_STEP_NONE, 0, 0, 0, 0,
	    0);
	info("execute_diffusion_1_1024x1024", TL_STEP_DIFFUSION, -1, -1, -1, 1,
	    TL_PHASE_NONE);
	info("execute_diffusion_1_1024", TL_STEP_NONE, 0, 0, 0, 0, 0);
	info("step[EXTEND bs=2 toks=14721]", TL_STEP_SGLANG, 2, 0, 14721, 2,
	    TL_PHASE_PREFILL);
	info("step[DECODE bs=64]", TL_STEP_SGLANG, 0, 64, 64, 64,
	    TL_PHASE_DECODE);
	info("step[MIXED bs=2]", TL_STEP_SGLANG, -1, -1, -1, 2, TL_PHASE_MIXED);
	info("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 "
	    "g_sq=1 g_sk=12 g_sqsq=1 g_sqsk=12]", TL_STEP_SGLANG, 1, 1, 6, 2,
	    TL_PHASE_MIXED);
	info("step[DECODE bs=64 g_sq=128 g_sqsq=256 g_sqsk=262144 "
	    "g_sk=131072]", TL_STEP_SGLANG, 0, 64, 128, 64, TL_PHASE_DECODE);
	info("prefill[bs=2 tok=14721 ctx=[7803, 6918]]", TL_STEP_ATOM, 2, 0,
	    14721, 2, TL_PHASE_PREFILL);
	info("decode[bs=117/128 tok=117 d=117]", TL_STEP_ATOM, 0, 117, 117, 117,
	    TL_PHASE_DECODE);
	info("decode[bs=128 tok=384 p=2 d=126 sqsq=132612 sqsk=1114112 "
	    "sk=258048 tbo=1]", TL_STEP_ATOM, 2, 126, 384, 128, TL_PHASE_MIXED);
	info("ProfilerStep#3", TL_STEP_NONE, 0, 0, 0, 0, 0);
	info("decoder_layer", TL_STEP_NONE, 0, 0, 0, 0, 0);
	step("ProfilerStep#3", NULL);
	step("capture_8192_PIECEWISE", NULL);
	step("", NULL);
	step("prefill[", NULL);
	step("step[", NULL);
	return unit_done("test_context");
}
