/* See LICENSE file for copyright and license details. */
/*
 * GEMM and elementwise models against TraceLens' reports: GFLOPS and
 * Data Moved (MB, i.e. MiB) of real rows in ../shared/reference/tracelens.
 */
#include <math.h>
#include <string.h>

#include "opargs.h"
#include "perfmodel.h"
#include "unit.h"

static struct tl_opargs o;
static struct tl_perf p;

static int
run(const char *family, const char *name, const char *dims,
    const char *types, const char *strides, const char *ci)
{
	const char *e;

	if (tl_opargs_parse(&o, name, dims, types, strides, ci, &e) < 0)
		return -2;
	return tl_perf_run(&o, family, 0, &p);
}

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

int
main(void)
{
	tl_opargs_init(&o);
	/* Qwen aten::mm M=8944 N=2816 K=1024 bf16 (semantics §7.1). */
	CHECK(run("gemm", "aten::mm", "[[8944,1024],[1024,2816]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\"]", "[[1024,1],[1,1024]]",
	    "[\"\",\"\"]") == 0);
	CHECK(p.flops == 51581550592LL);
	CHECK(p.bytes == 74457088LL);
	CHECK_STR(p.maf != NULL ? p.maf : "", "matrix");
	CHECK_STR(p.precision != NULL ? p.precision : "", "bf16");
	CHECK(strstr(p.params.s, "\"M\":8944,\"N\":2816,\"K\":1024") != NULL);
	/* bert aten::addmm on MI300X: GFLOPS 0.0739968, 814080 bytes. */
	CHECK(run("gemm", "aten::addmm", "[[512],[141,512],[512,512],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\","
	    "\"Scalar\"]", NULL, NULL) == 0);
	CHECK(near((double)p.flops / 1e9, 0.0739968));
	CHECK(p.bytes == 814080);
	/* addmm whose bias is a full M×N matrix: counted as it is. */
	CHECK(run("gemm", "aten::addmm", "[[141,512],[141,512],[512,512]]",
	    "[\"float\",\"float\",\"float\"]", NULL, NULL) == 0);
	CHECK(p.bytes == (141LL * 512 + 512 * 512 + 141 * 512) * 4 +
	    141LL * 512 * 4);
	/* bmm and the batch. */
	CHECK(run("gemm", "aten::bmm", "[[16,559,64],[16,64,559]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\"]", NULL, NULL) == 0);
	CHECK(p.flops == 16LL * 2 * 559 * 559 * 64);
	CHECK(p.bytes == 16LL * (559 * 64 + 64 * 559 + 559 * 559) * 2);
	/* fp8 _scaled_mm with a bf16 out_dtype (15) and a bias. */
	CHECK(run("gemm", "aten::_scaled_mm",
	    "[[128,256],[256,512],[],[],[512],[],[],[]]",
	    "[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\","
	    "\"c10::BFloat16\",\"\",\"\",\"\"]", NULL,
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"15\",\"False\"]") == 0);
	CHECK(p.flops == 2LL * 128 * 256 * 512 + 128 * 512);
	CHECK(p.bytes == 128LL * 256 + 256 * 512 + 128 * 512 * 2 + 512 * 2);
	CHECK_STR(p.precision != NULL ? p.precision : "", "fp8");
	/* linear and matmul (tl only): batched input folds into M. */
	CHECK(run("gemm", "aten::linear", "[[16,559,1024],[2816,1024],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"\"]", NULL, NULL) == 0);
	CHECK(p.flops == 2LL * 16 * 559 * 2816 * 1024);
	CHECK(run("gemm", "aten::matmul", "[[4,16,559,64],[4,16,64,559]]",
	    "[\"float\",\"float\"]", NULL, NULL) == 0);
	CHECK(p.flops == 4LL * 16 * 2 * 559 * 559 * 64);
	CHECK(run("gemm", "aten::matmul", "[[4,8],[9,3]]",
	    "[\"float\",\"float\"]", NULL, NULL) == -1);
	/* Malformed arguments fail with a reason, never a number. */
	CHECK(run("gemm", "aten::mm", "[[8944,1024]]", "[\"c10::BFloat16\"]",
	    NULL, NULL) == -1);
	CHECK(p.err[0] != '\0' && !p.has_flops);
	CHECK(run("gemm", "aten::mm", "[[4611686018427387904,4],[4,4]]",
	    "[\"float\",\"float\"]", NULL, NULL) == -1);
	/* Unknown dtype: flops but no bytes. */
	CHECK(run("gemm", "aten::mm", "[[8,8],[8,8]]",
	    "[\"c10::Float9\",\"c10::Float9\"]", NULL, NULL) == 0);
	CHECK(p.has_flops && !p.has_bytes);

	/* Unary and binary elementwise (Qwen and owlv2 rows, §7.4). */
	CHECK(run("binary", "aten::mul", "[[1,5185,4096],[]]",
	    "[\"c10::BFloat16\",\"double\"]", NULL, NULL) == 0);
	CHECK(p.flops == 21237760);
	CHECK(p.bytes == 21237760LL * 2 + 8 + 21237760LL * 2);
	CHECK(run("binary", "aten::add", "[[16,559,1024],[16,1,1024],[]]",
	    "[\"c10::BFloat16\",\"float\",\"Scalar\"]", NULL, NULL) == 0);
	CHECK(p.flops == 16LL * 559 * 1024);
	CHECK(p.bytes == 16LL * 559 * 1024 * 2 + 16LL * 1024 * 4 +
	    16LL * 559 * 1024 * 4);
	CHECK(run("binary", "aten::add", "[[3,4],[5,4]]",
	    "[\"float\",\"float\"]", NULL, NULL) == -1);
	CHECK(run("unary", "aten::copy_", "[[16,559,1024],[16,559,1024],[]]",
	    "[\"float\",\"c10::BFloat16\",\"Scalar\"]", NULL, NULL) == 0);
	CHECK(p.flops == 16LL * 559 * 1024);
	CHECK(p.bytes == 16LL * 559 * 1024 * (4 + 2));
	CHECK(run("unary", "aten::replication_pad2d", "[[1,3,8,8],[]]",
	    "[\"float\",\"\"]", NULL, "[\"\",\"[1, 2, 3, 4]\"]") == 0);
	CHECK(p.flops == 1 * 3 * (8 + 7) * (8 + 3));
	CHECK(p.bytes == (1 * 3 * 8 * 8 + 1 * 3 * 15 * 11) * 4);
	CHECK(run("unary", "aten::upsample_nearest2d", "[[2,3,8,8],[],[]]",
	    "[\"float\",\"\",\"\"]", NULL, "[\"\",\"[16, 16]\",\"\"]") == 0);
	CHECK(p.flops == 2 * 3 * 16 * 16);
	tl_perf_free(&p);
	tl_opargs_free(&o);
	return unit_done("test_model_gemm");
}
