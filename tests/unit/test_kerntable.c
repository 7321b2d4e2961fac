/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stream/kerntable.h"
#include "trace/kernclass.h"
#include "trace/trace.h"
#include "unit.h"

/* A kernel name, what the built-in table makes of it. */
static const struct {
	const char *name, *category, *family;
	enum tl_gpuclass timeline;
	int ops;
} kernels[] = {
	/* The timeline classes TraceLens' GPU timeline gives. */
	{ "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "comm",
	    "NCCL/RCCL collective", TL_GC_COMM, 0 },
	{ "void vllm::cross_device_reduce_1stage<__hip_bfloat16, 8>()",
	    "comm", "custom all-reduce", TL_GC_COMM, 0 },
	{ "__amd_rocclr_copyBuffer.kd", "memcpy", "ROCm copy", TL_GC_MEMCPY,
	    0 },
	{ "__amd_rocclr_fillBufferAligned", "memcpy", "ROCm fill",
	    TL_GC_COMPUTE, 0 },
	/* Collectives TraceLens counts as computation. */
	{ "void c10d::symmetric_memory::multimem_all_reduce_kernel<bf16>()",
	    "comm", "symmetric-memory all-reduce", TL_GC_COMM, 0 },
	/* TraceLens' fallback for ops without a table entry. */
	{ "void at::native::vectorized_elementwise_kernel<4, silu>(int)",
	    "elementwise", "ATen elementwise", TL_GC_COMPUTE, 1 },
	{ "void at::native::reduce_kernel<512, 1, MeanOps>()", "reduce",
	    "ATen reduction", TL_GC_COMPUTE, 1 },
	{ "void at::native::vectorized_gather_kernel<16, long>()", "other",
	    "ATen kernel", TL_GC_COMPUTE, 0 },
	/* Serving kernels of the shared traces. */
	{ "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64", "gemm",
	    "hipBLASLt/Tensile GEMM", TL_GC_COMPUTE, 0 },
	{ "_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdE",
	    "rmsnorm", "RMSNorm", TL_GC_COMPUTE, 0 },
	{ "kernel_unified_attention_2d", "attention", "Triton attention",
	    TL_GC_COMPUTE, 0 },
	{ "_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu", "moe",
	    "Triton MoE grouped GEMM", TL_GC_COMPUTE, 0 },
	{ "triton_poi_fused_constant_pad_nd_moe_forward_0", "triton",
	    "Triton (torch.compile)", TL_GC_COMPUTE, 0 },
	{ "sage_quant_kernel", "quant", "SageAttention quantization",
	    TL_GC_COMPUTE, 0 },
	{ "void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16>()",
	    "kvcache", "KV-cache write", TL_GC_COMPUTE, 0 },
	{ "void vllm::rotary_embedding_kernel<c10::BFloat16, true>()", "rope",
	    "rotary embedding", TL_GC_COMPUTE, 0 },
	{ "my_own_kernel", "other", "other kernels", TL_GC_COMPUTE, 0 },
};

/* A glob match by its definition: recursion over the pattern. */
static int
glob_ref(const char *p, const char *s)
{
	if (*p == '*')
		return glob_ref(p + 1, s) || (*s != '\0' && glob_ref(p, s + 1));
	if (*p == '\0')
		return *s == '\0';
	return *s != '\0' && (*p | 0x20) == (*s | 0x20) && glob_ref(p + 1, s + 1);
}

/* The i-th word of length n over the letters of abc (i < |abc|^n). */
static void
word(char *w, size_t n, unsigned i, const char *abc)
{
	size_t k, m = strlen(abc);

	for (k = 0; k < n; k++, i /= (unsigned)m)
		w[k] = abc[i % m];
	w[n] = '\0';
}

/*
 * Every pattern of up to 5 of a, b, B and '*' against every text of up
 * to 6 of a, A and b: tl_glob_ci as the definition has it.
 */
static void
glob_all(void)
{
	char p[8], t[8];
	size_t pn, tn;
	unsigned i, j, pow4 = 1, pow3, bad = 0, n = 0;

	for (pn = 0; pn <= 5; pn++, pow4 *= 4)
		for (i = 0; i < pow4; i++) {
			word(p, pn, i, "abB*");
			for (tn = 0, pow3 = 1; tn <= 6; tn++, pow3 *= 3)
				for (j = 0; j < pow3; j++) {
					word(t, tn, j, "aAb");
					n++;
					if (tl_glob_ci(p, t) != glob_ref(p, t)) {
						if (bad++ < 5)
							printf("FAIL glob '%s' "
							    "'%s'\n", p, t);
					}
				}
		}
	CHECK(n > 1000000 && bad == 0);
}

int
main(void)
{
	const struct tl_kerninfo *k;
	const char *path, *text;
	size_t i;

	CHECK(tl_glob_ci("abc", "ABC"));
	CHECK(tl_glob_ci("*", ""));
	CHECK(tl_glob_ci("a*c", "abbbc"));
	CHECK(tl_glob_ci("a*c", "ac"));
	CHECK(!tl_glob_ci("a*c", "acb"));
	CHECK(tl_glob_ci("*nccl*", "xNCCLy"));
	CHECK(tl_glob_ci("*ab*ab*", "xabyab"));
	CHECK(!tl_glob_ci("*ab*ab*", "xaby"));
	CHECK(!tl_glob_ci("abc", "abcd"));
	CHECK(tl_glob_ci("a**b", "ab"));
	CHECK(!tl_glob_ci("ab*ba", "aba"));
	CHECK(tl_glob_ci("*aa*", "xaaa"));
	glob_all();
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		k = tl_kerntable_find(kernels[i].name);
		CHECK_STR(k->category, kernels[i].category);
		CHECK_STR(k->family, kernels[i].family);
		CHECK(k->timeline == kernels[i].timeline);
		CHECK(k->ops == kernels[i].ops);
	}
	/* gpu_memcpy and gpu_memset events whatever their name. */
	CHECK(tl_kernclass(TL_EV_MEMCPY, "ncclKernel") == TL_GC_MEMCPY);
	CHECK(tl_kernclass(TL_EV_MEMSET, "Memset (Device)") == TL_GC_COMPUTE);
	CHECK_STR(tl_kernel_info(TL_EV_MEMSET, "x")->family, "memory set");
	/* A user's table: the first matching row wins; timeline defaults. */
	text = "pattern\tcategory\tfamily\n*allreduce*\tcomm\tmine\n"
	    "*\tgemm\tall\n";
	path = unit_tmpfile(text, strlen(text));
	CHECK(tl_kerntable_load(path) == 0);
	unlink(path);
	CHECK(tl_kernclass(TL_EV_KERNEL, "my_AllReduce_2") == TL_GC_COMM);
	CHECK_STR(tl_kerntable_find("x")->family, "all");
	CHECK(tl_kerntable_find("x")->timeline == TL_GC_COMPUTE);
	CHECK(tl_kerntable_load(NULL) == 0);
	CHECK_STR(tl_kerntable_find("my_AllReduce_2")->category, "other");
	return unit_done("test_kerntable");
}
