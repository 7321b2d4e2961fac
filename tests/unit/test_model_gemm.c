/* See LICENSE file for copyright and license details. */
/*
 * GEMM and elementwise models against TraceLens' reports: GFLOPS and
 * Data Moved (MB, i.e. MiB) of real rows in ../shared/reference/tracelens.
 * Vectors are written with ' for " to read as the trace does.
 */
#include "model.h"

#define F	"'float'"
#define B	"'c10::BFloat16'"
#define S	"'Scalar'"

int
main(void)
{
	tl_opargs_init(&o);
	/* Qwen aten::mm M=8944 N=2816 K=1024 bf16 (TraceLens' GEMM). */
	CHECK(run_strided("gemm", 0, "aten::mm", "[[8944,1024],[1024,2816]]",
	    "[" B "," B "]", "[[1024,1],[1,1024]]", "['','']") == 0);
	CHECK(p.flops == 51581550592LL);
	CHECK(p.bytes == 74457088LL);
	CHECK_STR(str(p.maf), "matrix");
	CHECK_STR(str(p.precision), "bf16");
	CHECK(strstr(p.params.s, "\"M\":8944,\"N\":2816,\"K\":1024") != NULL);
	/* bert aten::addmm on MI300X: GFLOPS 0.0739968, 814080 bytes. */
	CHECK(run("gemm", 0, "aten::addmm", "[[512],[141,512],[512,512],[],[]]",
	    "[" B "," B "," B "," S "," S "]", NULL) == 0);
	CHECK(near((double)p.flops / 1e9, 0.0739968));
	CHECK(p.bytes == 814080);
	/* addmm whose bias is a full M×N matrix: counted as it is. */
	exact("gemm", 0, "aten::addmm", "[[141,512],[141,512],[512,512]]",
	    "[" F "," F "," F "]", NULL, ANY,
	    (141LL * 512 + 512 * 512 + 141 * 512) * 4 + 141LL * 512 * 4);
	/* bmm and the batch. */
	exact("gemm", 0, "aten::bmm", "[[16,559,64],[16,64,559]]",
	    "[" B "," B "]", NULL, 16LL * 2 * 559 * 559 * 64,
	    16LL * (559 * 64 + 64 * 559 + 559 * 559) * 2);
	/* fp8 _scaled_mm with a bf16 out_dtype (15) and a bias. */
	exact("gemm", 0, "aten::_scaled_mm",
	    "[[128,256],[256,512],[],[],[512],[],[],[]]",
	    "['c10::Float8_e4m3fn','c10::Float8_e4m3fn'," F "," F "," B
	    ",'','','']", "['','','','','','','15','False']",
	    2LL * 128 * 256 * 512 + 128 * 512,
	    128LL * 256 + 256 * 512 + 128 * 512 * 2 + 512 * 2);
	CHECK_STR(str(p.precision), "fp8");
	/* linear and matmul (tl only): batched input folds into M. */
	exact("gemm", 0, "aten::linear", "[[16,559,1024],[2816,1024],[]]",
	    "[" B "," B ",'']", NULL, 2LL * 16 * 559 * 2816 * 1024, ANY);
	exact("gemm", 0, "aten::matmul", "[[4,16,559,64],[4,16,64,559]]",
	    "[" F "," F "]", NULL, 4LL * 16 * 2 * 559 * 559 * 64, ANY);
	CHECK(run("gemm", 0, "aten::matmul", "[[4,8],[9,3]]", "[" F "," F "]",
	    NULL) == -1);
	/* Malformed arguments fail with a reason, never a number. */
	CHECK(run("gemm", 0, "aten::mm", "[[8944,1024]]", "[" B "]",
	    NULL) == -1);
	CHECK(p.err[0] != '\0' && !p.has_flops);
	CHECK(run("gemm", 0, "aten::mm", "[[4611686018427387904,4],[4,4]]",
	    "[" F "," F "]", NULL) == -1);
	/* Unknown dtype: flops but no bytes. */
	exact("gemm", 0, "aten::mm", "[[8,8],[8,8]]",
	    "['c10::Float9','c10::Float9']", NULL, 2 * 8 * 8 * 8, -1);

	/*
	 * Framework GEMMs.  vLLM's rocm_unquantized_gemm (x, weight [N, K],
	 * bias): mi300-vllm-prefilldecode-piecewise GEMM.csv, with and
	 * without a bias (the output then in the weight's dtype).
	 */
	agrees("gemm", 0, "vllm::rocm_unquantized_gemm",
	    "[[8192,2880],[5120,2880],[5120]]", "[" B "," B "," B "]", NULL,
	    241.63385344, 153.134765625);
	agrees("gemm", 0, "vllm::rocm_unquantized_gemm",
	    "[[46,2880],[201088,2880],[]]", "[" B "," B ",'']", NULL,
	    53.28027648, 1122.505126953125);
	/* aiter fp8 block-scale GEMM: bf16 output, scales left out. */
	exact("gemm", 0, "aiter::gemm_a8w8_blockscale_ck",
	    "[[16,7168],[2048,7168],[16,56],[16,56]]",
	    "['c10::Float8_e4m3fnuz','c10::Float8_e4m3fnuz'," F "," F "]",
	    NULL, 2LL * 16 * 2048 * 7168,
	    16LL * 7168 + 2048LL * 7168 + 16 * 2048 * 2);
	CHECK_STR(str(p.precision), "fp8");
	/*
	 * MXFP4 a4w4: A [128, 256] and B [64, 256] packed two a byte, so
	 * K = 512; the E8M0 scales (128 + 64)·512/32 bytes.
	 */
	exact("gemm", 0, "aiter::gemm_a4w4",
	    "[[128,256],[64,256],[128,16],[64,16],[128,64],[],[],[],[]]",
	    "['c10::Float4_e2m1fn_x2','c10::Float4_e2m1fn_x2',"
	    "'c10::Float8_e8m0fnu','c10::Float8_e8m0fnu'," B ",'Scalar',"
	    "'Scalar','Scalar','Scalar']", NULL, 2LL * 128 * 64 * 512,
	    128 * 256 + 64 * 256 + 128 * 64 * 2 + (128 + 64) * 16);
	CHECK_STR(str(p.precision), "fp4");
	CHECK(strstr(p.params.s, "\"K\":512") != NULL);
	/* vLLM's cutlass fp8 GEMM (out, a, b [K, N], scales, bias). */
	exact("gemm", 0, "_C::cutlass_scaled_mm",
	    "[[16,2048],[16,7168],[7168,2048],[16,1],[1,2048],[2048]]",
	    "[" B ",'c10::Float8_e4m3fn','c10::Float8_e4m3fn'," F "," F ","
	    B "]", NULL, 2LL * 16 * 2048 * 7168 + 16 * 2048,
	    16LL * 7168 + 7168LL * 2048 + 16 * 2048 * 2 + 2048 * 2);
	CHECK(run("gemm", 0, "aiter::gemm_a16w16", "[[16,7168],[2048,7000]]",
	    "[" B "," B "]", NULL) == -1);
	CHECK(strstr(p.err, "K of x (7168) and of the weight (7000)") != NULL);

	/* Unary and binary elementwise (Qwen and owlv2 rows). */
	exact("binary", 0, "aten::mul", "[[1,5185,4096],[]]",
	    "[" B ",'double']", NULL, 21237760,
	    21237760LL * 2 + 8 + 21237760LL * 2);
	exact("binary", 0, "aten::add", "[[16,559,1024],[16,1,1024],[]]",
	    "[" B "," F "," S "]", NULL, 16LL * 559 * 1024,
	    16LL * 559 * 1024 * 2 + 16LL * 1024 * 4 + 16LL * 559 * 1024 * 4);
	CHECK(run("binary", 0, "aten::add", "[[3,4],[5,4]]", "[" F "," F "]",
	    NULL) == -1);
	exact("unary", 0, "aten::copy_", "[[16,559,1024],[16,559,1024],[]]",
	    "[" F "," B "," S "]", NULL, 16LL * 559 * 1024,
	    16LL * 559 * 1024 * (4 + 2));
	exact("unary", 0, "aten::replication_pad2d", "[[1,3,8,8],[]]",
	    "[" F ",'']", "['','[1, 2, 3, 4]']", 1 * 3 * (8 + 7) * (8 + 3),
	    (1 * 3 * 8 * 8 + 1 * 3 * 15 * 11) * 4);
	exact("unary", 0, "aten::upsample_nearest2d", "[[2,3,8,8],[],[]]",
	    "[" F ",'','']", "['','[16, 16]','']", 2 * 3 * 16 * 16, ANY);
	tl_perf_free(&p);
	tl_opargs_free(&o);
	return unit_done("test_model_gemm");
}
