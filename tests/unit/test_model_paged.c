/* See LICENSE file for copyright and license details. */
/*
 * The paged attention model: TraceLens' row of InferenceAttention_fwd.csv
 * of mi300-vllm-prefilldecode-piecewise (one vLLM step of 9 context and 37
 * generation requests), then steps worked out by hand from the formulas
 * of lib/model/model_paged.c:
 *	flops = H_Q·(d_qk + d_v)·(2·c_sqsk - c_sqsq + 2·g_sqsk)
 *	bytes = (c_sq + g_sq)·(H_Q + H_KV)·(d_qk + d_v)·bpe(q)
 *	      + (c_sk - c_sq + g_sk - g_sq)·H_KV·(d_qk + d_v)·bpe(kv)
 * Vectors are written with ' for " (model.h).
 */
#include "model.h"

#define B	"'c10::BFloat16'"
#define P8	"'c10::Float8_e4m3fnuz'"
#define E	"''"

/* The vLLM step's annotation sums, as tl-parse writes them. */
#define VLLM_STEP	"{'c_sq':8155,'c_sk':8430,'c_sqsq':7475785," \
			"'c_sqsk':7671310,'g_sq':37,'g_sk':34489," \
			"'g_sqsq':37,'g_sqsk':34489}"
/* Four decode requests of 1000 keys each. */
#define DECODE		"{'c_sq':0,'c_sk':0,'c_sqsq':0,'c_sqsk':0," \
			"'g_sq':4,'g_sk':4000,'g_sqsq':4,'g_sqsk':4000}"
#define Q4		"[4,32,128]"
#define K4		"[4,8,128]"
/* q, k and v of the decode step, bf16. */
#define QKV		"[" Q4 "," K4 "," K4 "]"
#define QKV_T		"[" B "," B "," B "]"

static void
tracelens(void)
{
	context(VLLM_STEP);
	/*
	 * q [8192, 64, 64], k and v [8192, 8, 64]: 64·128·(2·7671310 -
	 * 7475785 + 2·34489) = 65010180096 FLOPs; 8192·72·128·2 +
	 * 34727·8·128·2 = 222115840 bytes.
	 */
	agrees("paged_attn", 0, "vllm::unified_attention_with_output",
	    "[[8192,64,64],[8192,8,64],[8192,8,64],[8192,64,64],[],[],[],[0]]",
	    "[" B "," B "," B "," B "," E "," E "," E "," B "]", NULL,
	    65.010180096, 211.826171875);
	CHECK(p.flops == 65010180096LL && p.bytes == 222115840LL);
	described("{\"B\":1,\"N_Q\":8192,\"H_Q\":64,\"H_KV\":8,\"d_h_qk\":64,"
	    "\"d_h_v\":64,\"c_sq\":8155,\"c_sk\":8430,\"c_sqsq\":7475785,"
	    "\"c_sqsk\":7671310,\"g_sq\":37,\"g_sk\":34489,\"g_sqsq\":37,"
	    "\"g_sqsk\":34489}", "matrix", "bf16");
	context(NULL);
}

static void
cases(void)
{
	/*
	 * Decode: 32·256·2·4000 FLOPs; 4 new tokens' q, o, k, v at 2 bytes
	 * (4·40·256·2) and 3996 cached tokens' k, v (3996·8·256·2).
	 */
	context(DECODE);
	exact("paged_attn", 0, "vllm::unified_attention_with_output",
	    "[" Q4 "," K4 "," K4 "," Q4 "]", "[" B "," B "," B "," B "]", NULL,
	    65536000, 81920 + 16367616);
	/* The ragged paged attention reads the fp8 cache at 1 byte. */
	exact("paged_attn", 0,
	    "sglang_profiler::attention_paged_attention_ragged",
	    "[[4,32,128],[5],[4,32,128],[100,16,8,128],[100,16,8,128]]",
	    "[" B ",'int'," B "," P8 "," P8 "]", NULL, 65536000,
	    81920 + 3996 * 8 * 256);
	/*
	 * pa_decode_gluon with a window of 512: 2048 keys at most for the 4
	 * queries (g_sk, g_sqsk capped at 4·512); the context sums are
	 * ignored; the cache is fp8.
	 */
	context("{'c_sq':100,'c_sk':100,'c_sqsq':10000,'c_sqsk':10000,"
	    "'g_sq':4,'g_sk':4000,'g_sqsq':4,'g_sqsk':4000}");
	exact("paged_attn", 0, "aiter::pa_decode_gluon",
	    "[" Q4 "," Q4 ",[1000,8,16,128],[1000,8,128,16]]",
	    "[" B "," B "," P8 "," P8 "]",
	    "['','','','','','','','','','','','','','','','','','','',"
	    "'512']", 32LL * 256 * 2 * 2048, 81920 + 2044 * 8 * 256);
	CHECK(strstr(p.params.s, "\"c_sq\":0,") != NULL);
	CHECK(strstr(p.params.s, "\"sliding_window\":512") != NULL);
	/*
	 * A first prefill chunk of 100 tokens: the causal half of
	 * 2·100·100·32·256, and no cached keys.
	 */
	context("{'c_sq':100,'c_sk':100,'c_sqsq':10000,'c_sqsk':10000,"
	    "'g_sq':0,'g_sk':0,'g_sqsq':0,'g_sqsk':0}");
	exact("paged_attn", 0, "aiter::mha_varlen_fwd",
	    "[[100,32,128],[100,8,128],[100,8,128]]", "[" B "," B "," B "]",
	    NULL, 81920000, 100 * 40 * 256 * 2);
	/* MLA-like shapes: d_v from v (128), d_qk 192. */
	context("{'c_sq':10,'c_sk':10,'c_sqsq':100,'c_sqsk':100,"
	    "'g_sq':0,'g_sk':0,'g_sqsq':0,'g_sqsk':0}");
	exact("paged_attn", 0, "aiter::mha_batch_prefill",
	    "[[10,16,192],[10,16,192],[10,16,128]]", "[" B "," B "," B "]",
	    NULL, 16 * 320 * 100, 10 * 32 * 320 * 2);
	/* An unknown q dtype: FLOPs only. */
	exact("paged_attn", 0, "aiter::mha_batch_prefill",
	    "[[10,16,192],[10,16,192],[10,16,128]]",
	    "['c10::Weird'," B "," B "]", NULL, 16 * 320 * 100, -1);
	context(NULL);
}

/* A context, a call and the reason the model fails. */
static const struct {
	const char *ctx, *name, *dims, *types, *ci, *why;
} bad_calls[] = {
	{ NULL, "vllm::unified_attention_with_output", QKV, QKV_T, NULL,
	    "the row has no c_sq" },
	{ "{'c_sq':0,'c_sk':0,'c_sqsq':0,'c_sqsk':0,'g_sq':0,'g_sk':0,"
	    "'g_sqsq':0}", "vllm::unified_attention_with_output", QKV, QKV_T,
	    NULL, "the row has no g_sqsk" },
	{ "{'c_sq':0,'c_sk':0,'c_sqsq':0,'c_sqsk':0,'g_sq':0,'g_sk':0,"
	    "'g_sqsq':0,'g_sqsk':0}", "vllm::unified_attention_with_output",
	    QKV, QKV_T, NULL, "counts no query tokens" },
	{ "{'c_sq':5,'c_sk':4,'c_sqsq':25,'c_sqsk':20,'g_sq':0,'g_sk':0,"
	    "'g_sqsq':0,'g_sqsk':0}", "vllm::unified_attention_with_output",
	    QKV, QKV_T, NULL, "fewer keys than queries" },
	/* A sum that is not a number is no sum. */
	{ "{'c_sq':5,'c_sk':5,'c_sqsq':'25','c_sqsk':25,'g_sq':0,'g_sk':0,"
	    "'g_sqsq':0,'g_sqsk':0}", "vllm::unified_attention_with_output",
	    QKV, QKV_T, NULL, "the row has no c_sqsq" },
	{ DECODE, "vllm::unified_attention_with_output", "[[4,32],[4,8,128]]",
	    "[" B "," B "]", NULL, "q (argument 0) is not a 3-D tensor" },
	{ DECODE, "aiter::pa_decode_gluon", "[" Q4 "]", "[" B "]", NULL,
	    "key cache (argument 2)" },
	{ DECODE, "aten::mm", "[[4,4],[4,4]]", "[" B "," B "]", NULL,
	    "not a paged attention op" },
	{ "{'c_sq':0,'c_sk':0,'c_sqsq':0,'c_sqsk':0,'g_sq':4,'g_sk':4,"
	    "'g_sqsq':4,'g_sqsk':4611686018427387904}",
	    "vllm::unified_attention_with_output", QKV, QKV_T, NULL,
	    "overflows" },
};

static void
bad(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_calls) / sizeof(bad_calls[0]); i++) {
		context(bad_calls[i].ctx);
		fails("paged_attn", 0, bad_calls[i].name, bad_calls[i].dims,
		    bad_calls[i].types, bad_calls[i].ci, bad_calls[i].why);
	}
	context(DECODE);
	fails("paged_attn", 1, "vllm::unified_attention_with_output", QKV,
	    QKV_T, NULL, "no backward model");
	context(NULL);
}

int
main(void)
{
	tracelens();
	cases();
	bad();
	return model_done("test_model_paged");
}
