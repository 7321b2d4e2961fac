/* See LICENSE file for copyright and license details. */
/*
 * The MoE model: TraceLens' two rows of MoE_unfused_fwd.csv of
 * mi300-vllm-prefilldecode-piecewise (GPT-OSS, the pseudo-ops of
 * vllm::moe_forward), then small layers worked out by hand from the
 * formulas of lib/model/model_moe.c.  T tokens, H hidden, I intermediate,
 * E experts, k top-k; E_act = E(1 - ((E - k)/E)^T).  Vectors are written
 * with ' for " (model.h).
 */
#include "model.h"

#define B	"'c10::BFloat16'"
#define F	"'float'"
#define P8	"'c10::Float8_e4m3fnuz'"
#define P4	"'c10::Float4_e2m1fn_x2'"
#define I	"'int'"

/* GPT-OSS: x [8192, 3072], router logits [8192, 32]. */
#define GPT_DIMS	"[[8192,3072],[8192,32],[],[]]"
#define GPT_TYPES	"[" B "," B ",'','']"

/*
 * The small layer: T = 4, H = 64, I = 128, E = 8, k = 2, gated (w1 holds
 * 2I = 256 rows).  E_act = 8(1 - (6/8)^4) = 5.46875 exactly.  One
 * projection: 2TkIH = 131072 FLOPs; H·I = 8192 weights per expert.
 */
#define X	"[4,64]"
#define W1	"[8,256,64]"
#define W2	"[8,64,128]"
#define TW	"[4,2]"
#define PROJ	131072LL
#define FUSED_FLOPS	(3 * PROJ + 4 * 64 * 3)	/* up (gated) + down + Σ */

static void
cases(void)
{
	/* TraceLens' rows.  The pseudo-ops' context: TopK's k, the kernel's swiglu and mxfp4. */
	context("{'topk':4,'gated':true,'weight_dtype':'fp4'}");
	/*
	 * Up: 2·8192·3072·3072·4·2 FLOPs; 8192·3072·2 read + 32·2·3072·3072
	 * fp4 weights (half a byte) + 8192·4·3072·2 written = 553648128 B.
	 */
	agrees("moe", 0, "pseudo_op::moe_triton_unfused_up", GPT_DIMS,
	    GPT_TYPES, NULL, 1236.950581248, 528.0);
	CHECK(p.bytes == 553648128LL);
	described("{\"num_tokens\":8192,\"hidden_dim\":3072,\"inter_dim\":"
	    "3072,\"num_experts\":32,\"topk\":4,\"gated\":true,"
	    "\"input_dtype\":\"c10::BFloat16\",\"weight_dtype\":\"fp4\"}",
	    "matrix", "bf16");	/* the wider operand's (DEVIATIONS.md) */
	/* Down: not gated, whatever the context says. */
	context("{'topk':4,'gated':false,'weight_dtype':'fp4'}");
	agrees("moe", 0, "pseudo_op::moe_triton_unfused_down", GPT_DIMS,
	    GPT_TYPES, NULL, 618.475290624, 384.0);
	CHECK(p.bytes == 8192LL * 4 * 3072 * 2 + 32LL * 3072 * 3072 / 2 +
	    8192LL * 3072 * 2);
	context(NULL);

	/*
	 * Fused, bf16: 393984 FLOPs; bytes T·H·2 in, E_act·3·H·I·2 weights
	 * (5.46875·3·8192·2 = 268800), T·H·2 out.
	 */
	exact("moe", 0, "vllm::rocm_aiter_fused_moe",
	    "[" X "," W1 "," W2 "," TW ",[4,2]]", "[" B "," B "," B "," F ","
	    I "]", NULL, FUSED_FLOPS, 512 + 268800 + 512);
	described(NULL, "matrix", "bf16");
	exact("moe", 0, "vllm::outplace_fused_experts",
	    "[" X "," W1 "," W2 "," TW ",[4,2]]", "[" B "," B "," B "," F ","
	    I "]", NULL, FUSED_FLOPS, 269824);
	/*
	 * FP4 weights packed two a byte: w1 [8, 256, 32], w2 [8, 64, 64];
	 * I = 64·(64/32) = 128.  Weights at half a byte: 67200.
	 */
	exact("moe", 0, "aiter::fused_moe_",
	    "[" X ",[8,256,32],[8,64,64]," TW "]", "[" B "," P4 "," P4 "," F
	    "]", NULL, FUSED_FLOPS, 512 + 67200 + 512);
	/*
	 * aiter::fmoe_g1u1 (out, x, w1, w2, ...), fp8, k the concrete input
	 * 8: x 256 B, weights 5.46875·3·8192 = 134400, out bf16 512 B.
	 */
	exact("moe", 0, "aiter::fmoe_g1u1",
	    "[" X "," X "," W1 "," W2 ",[],[],[],[],[],[],[],[]]",
	    "[" B "," P8 "," P8 "," P8 ",'','','','','Scalar','','','']",
	    "['','','','','','','','','2','','','']", FUSED_FLOPS,
	    256 + 134400 + 512);
	described(NULL, "matrix", "fp8");
	/*
	 * CK-tile stages.  Up: x, w1, out [T, k, I]: 2·PROJ FLOPs; T·H·2 +
	 * E_act·2·H·I·2 (179200) + T·k·I·2.  Down: h [T, k, I], w2, out.
	 */
	exact("moe", 0, "aiter::moe_cktile2stages_gemm1_ck",
	    "[" X "," W1 ",[4,2,128],[8],[8],[1]]",
	    "[" B "," B "," B "," I "," I "," I "]", NULL, 2 * PROJ,
	    512 + 179200 + 2048);
	exact("moe", 0, "aiter::moe_cktile2stages_gemm2_ck",
	    "[[4,2,128]," W2 "," X ",[8],[8],[1]]",
	    "[" B "," B "," B "," I "," I "," I "]", NULL, PROJ,
	    2048 + 89600 + 512);
	/* ck_moe_stage1: x, w1, w2, ..., out [T, k, I] (6). */
	exact("moe", 0, "aiter::ck_moe_stage1",
	    "[" X "," W1 "," W2 ",[8],[8],[1],[4,2,128]]",
	    "[" B "," B "," B "," I "," I "," I "," B "]", NULL, 2 * PROJ,
	    512 + 179200 + 2048);
	/* ck_moe_stage2: h [T, k, I] (0), w1, w2 (its dtype the weights'). */
	exact("moe", 0, "aiter::ck_moe_stage2",
	    "[[4,2,128]," W1 "," W2 ",[8],[8],[1],[4,64]]",
	    "[" B "," B "," B "," I "," I "," I "," B "]", NULL, PROJ,
	    2048 + 89600 + 512);
	/*
	 * Many tokens reach every expert: T = 4096, k = 2 of 8 gives
	 * E_act = 8 to within 2^-1700, so the weights are 8·3·8192·2.
	 */
	exact("moe", 0, "vllm::inplace_fused_experts",
	    "[[4096,64]," W1 "," W2 ",[4096,2],[4096,2]]",
	    "[" B "," B "," B "," F "," I "]", NULL,
	    1024 * 3 * PROJ + 4096LL * 64 * 3,
	    4096LL * 64 * 4 + 8LL * 3 * 8192 * 2);
	/* Not gated: w1 holds I rows, the up projection counts once. */
	exact("moe", 0, "vllm::rocm_aiter_fused_moe",
	    "[" X ",[8,128,64]," W2 "," TW "]", "[" B "," B "," B "," F "]",
	    NULL, 2 * PROJ + 4 * 64 * 3, 512 + 179200 + 512);
	CHECK(strstr(p.params.s, "\"gated\":false") != NULL);
	/* An unknown weight dtype: FLOPs only. */
	exact("moe", 0, "vllm::rocm_aiter_fused_moe",
	    "[" X "," W1 "," W2 "," TW "]", "[" B ",'c10::Int3'," B "," F "]",
	    NULL, FUSED_FLOPS, -1);
	/* The triton pseudo-op without a weight dtype says so. */
	context("{'topk':2,'gated':true}");
	exact("moe", 0, "pseudo_op::moe_triton_unfused_up",
	    "[[4,64],[4,8],[],[]]", "[" B "," B ",'','']", NULL,
	    2LL * 4 * 2 * 64 * 64 * 2, -1);
	CHECK(strstr(p.err, "weight dtype") != NULL);
	context(NULL);
}

static void
bad(void)
{
	fails("moe", 0, "pseudo_op::moe_triton_unfused_up", GPT_DIMS,
	    GPT_TYPES, NULL, "no topk");
	context("{'topk':4}");
	fails("moe", 0, "pseudo_op::moe_triton_unfused_down", GPT_DIMS,
	    GPT_TYPES, NULL, "no gated flag");
	context("{'topk':40,'gated':true,'weight_dtype':'fp4'}");
	fails("moe", 0, "pseudo_op::moe_triton_unfused_up", GPT_DIMS,
	    GPT_TYPES, NULL, "not between 1 and the 32 experts");
	context(NULL);
	fails("moe", 0, "aiter::fmoe_g1u1",
	    "[" X "," X "," W1 "," W2 "]", "[" B "," P8 "," P8 "," P8 "]",
	    NULL, "top-k (argument 8) was not recorded");
	fails("moe", 0, "vllm::rocm_aiter_fused_moe", "[" X "," W1 "]",
	    "[" B "," B "]", NULL, "w2 (argument 2) is not a 3-D tensor");
	fails("moe", 0, "vllm::rocm_aiter_fused_moe",
	    "[" X ",[8,256,48]," W2 "," TW "]", "[" B "," B "," B "," F "]",
	    NULL, "not a multiple");
	fails("moe", 0, "aten::mm", "[[4,4],[4,4]]", "[" B "," B "]", NULL,
	    "not a MoE op");
	fails("moe", 1, "vllm::rocm_aiter_fused_moe",
	    "[" X "," W1 "," W2 "," TW "]", "[" B "," B "," B "," F "]", NULL,
	    "no backward model");
	fails("moe", 0, "vllm::rocm_aiter_fused_moe",
	    "[[4611686018427387904,64]," W1 "," W2 ",[4,2]]",
	    "[" B "," B "," B "," F "]", NULL, "overflows");
	context("not json");
	CHECK(run("moe", 0, "pseudo_op::moe_triton_unfused_up", GPT_DIMS,
	    GPT_TYPES, NULL) == -2);
	context("[1,2]");
	CHECK(run("moe", 0, "pseudo_op::moe_triton_unfused_up", GPT_DIMS,
	    GPT_TYPES, NULL) == -2);
	context(NULL);
}

int
main(void)
{
	cases();
	bad();
	return model_done("test_model_moe");
}
