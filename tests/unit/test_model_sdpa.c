/* See LICENSE file for copyright and license details. */
/*
 * The attention model against TraceLens.  The SDPA_fwd rows of the
 * reference traces (qwen, bert, falconsai-vit, torch-compile-triton) give
 * GFLOPS and Data Moved (MB); the other ops and the backward passes, which
 * no reference trace holds, were run through TraceLens' own perf_model.py
 * classes (flops()/bytes(), flops_bwd()/bytes_bwd()) on the shapes below.
 * Then the deviations, then bad input.  A ' in a vector stands for "
 * (model.h).
 */
#include "model.h"

#define BF		"\"c10::BFloat16\""
/* aten::_scaled_dot_product_flash_attention(q, k, v, dropout, causal,
 * return_debug_mask, scale), q = k = v. */
#define D_ATEN(q)	"[[" q "],[" q "],[" q "],[],[],[],[]]"
#define T_ATEN		"[" BF "," BF "," BF ",\"Scalar\",\"Scalar\"," \
			"\"Scalar\",\"Scalar\"]"
#define C_ATEN(c, s)	"[\"\",\"\",\"\",\"0.\",\"" c "\",\"False\",\"" s "\"]"

struct vec {
	const char *name, *dims, *types, *ci;
	double gflops, mb;
};

/* SDPA_fwd.csv rows: GFLOPS_first, Data Moved (MB)_first. */
static const struct vec ref[] = {
	/* h100-qwen1.5-0.5b and mi300-qwen1.5-0.5b, x24 */
	{ "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("16,16,559,64"), T_ATEN, C_ATEN("True", "0.125"),
	    10.239377408, 69.875 },
	/* h100-bert-small and mi300-bert-small, x4 */
	{ "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("1,8,141,64"), T_ATEN, C_ATEN("False", "0.125"),
	    0.040716288, 0.55078125 },
	/* h100-falconsai-vit and mi300-falconsai-vit, x12 */
	{ "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("4,12,197,64"), T_ATEN, C_ATEN("False", "0.125"),
	    0.476884992, 4.6171875 },
	/* torch-compile-triton, x1 */
	{ "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("8,16,4096,128"), T_ATEN,
	    C_ATEN("False", "0.088388347648318433"),
	    1099.511627776, 512.0 },
};

/*
 * TraceLens' perf_model.py on these shapes: family, bwd, exact FLOPs and
 * bytes.  bwd 1 on a forward op is TraceLens' flops_bwd()/bytes_bwd().
 */
struct exact {
	const char *family;
	int bwd;
	const char *name, *dims, *types, *ci;
	int64_t flops, bytes;
};

#define GQ	"2,512,16,128"		/* (B, N, H, d), 16 query heads */
#define GK	"2,512,4,128"		/* 4 key/value heads */
#define MQ	"4,256,8,64"
#define VQ	"1000,8,64"		/* varlen (T, H, d) */
#define VK	"1000,2,64"
#define T_VF	"[" BF "," BF "," BF ",\"int\",\"int\",\"Scalar\"," \
		"\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]"
#define D_VF	"[[" VQ "],[" VK "],[" VK "],[5],[5],[],[],[],[],[]]"
/* flash_attn::_flash_attn_forward(q, k, v, dropout, scale, causal). */
#define T_FA	"[" BF "," BF "," BF ",'Scalar','Scalar','Scalar']"
#define C_FA(s, c)	"['','','','0.0','" s "','" c "']"
#define D_GQA	"[[" GQ "],[" GK "],[" GK "],[],[],[]]"
#define D_MHA	"[[" MQ "],[" MQ "],[" MQ "],[],[],[]]"
/* flash_attn::_flash_attn_varlen_backward, max_seqlen_k, dropout, causal. */
#define D_VB	"[[" VQ "],[" VQ "],[" VK "],[" VK "],[" VQ "],[8,1000]," \
		"[" VQ "],[" VK "],[" VK "],[5],[5],[],[],[],[],[]]"
#define T_VB	"[" BF "," BF "," BF "," BF "," BF ",'float'," BF "," BF "," \
		BF ",'int','int','Scalar','Scalar','Scalar','Scalar','Scalar']"
#define C_VB(k, d, c)	"['','','','','','','','','','','','400','" k \
			"','" d "','0.125','" c "']"

static const struct exact tlref[] = {
	/* Backward pass of the qwen and bert rows above. */
	{ "sdpa", 1, "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("16,16,559,64"), T_ATEN, C_ATEN("True", "0.125"),
	    25598443520LL, 128221184 },
	{ "sdpa", 1, "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("1,8,141,64"), T_ATEN, C_ATEN("False", "0.125"),
	    101790720, 1010688 },
	/* flash-attn, GQA, causal. */
	{ "sdpa", 0, "FlashAttnFunc", D_GQA, T_FA,
	    C_FA("0.08838834764831845", "True"), 2147483648LL, 10485760 },
	{ "sdpa", 1, "FlashAttnFunc", D_GQA, T_FA,
	    C_FA("0.08838834764831845", "True"), 5369102336LL, 16777216 },
	{ "sdpa_bwd", 0, "flash_attn::_flash_attn_backward",
	    "[[" GQ "],[" GQ "],[" GK "],[" GK "],[" GQ "],[2,16,512],"
	    "[" GQ "],[" GK "],[" GK "],[],[],[],[],[],[],[],[],[]]",
	    "[" BF "," BF "," BF "," BF "," BF ",\"float\"," BF "," BF ","
	    BF ",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\","
	    "\"Scalar\",\"\",\"Scalar\",\"\"]",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"0.0\","
	    "\"0.08838834764831845\",\"True\",\"-1\",\"-1\",\"0.0\",\"\","
	    "\"False\",\"\"]",
	    5369102336LL, 16777216 },
	/* Causal defaults to true when the slot is missing. */
	{ "sdpa_bwd", 0, "flash_attn::_flash_attn_backward",
	    "[[" GQ "],[" GQ "],[" GK "],[" GK "]]", "[" BF "," BF "," BF ","
	    BF "]", "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"0.0\"]",
	    5369102336LL, 16777216 },
	/* Varlen lower bound: 4 sequences in 1000 tokens. */
	{ "sdpa", 0, "flash_attn::_flash_attn_varlen_forward", D_VF, T_VF,
	    "[\"\",\"\",\"\",\"\",\"\",\"400\",\"400\",\"0.0\",\"0.125\","
	    "\"True\"]", 286720000, 2560000 },
	{ "sdpa", 0, "flash_attn::_flash_attn_varlen_forward", D_VF, T_VF,
	    "[\"\",\"\",\"\",\"\",\"\",\"400\",\"300\",\"0.1\",\"0.125\","
	    "\"False\"]", 532070400, 2560000 },
	{ "sdpa_bwd", 0, "flash_attn::_flash_attn_varlen_backward", D_VB, T_VB,
	    C_VB("400", "0.0", "True"), 716992000, 4096000 },
	{ "sdpa_bwd", 0, "flash_attn::_flash_attn_varlen_backward", D_VB, T_VB,
	    C_VB("300", "0.1", "False"), 1330559616, 4096000 },
	/* aiter. */
	{ "sdpa", 0, "aiter::_flash_attn_forward", D_MHA, T_FA,
	    C_FA("0.125", "True"), 268435456, 4194304 },
	{ "sdpa", 0, "aiter::wrapper_fmha_v3_fwd",
	    "[[],[" MQ "],[" MQ "],[" MQ "],[],[],[]]",
	    "[\"\"," BF "," BF "," BF ",\"Scalar\",\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"\",\"0.0\",\"0.125\",\"False\"]",
	    536870912, 4194304 },
	{ "sdpa", 0, "aiter::mha_fwd", D_MHA, T_FA, C_FA("0.125", "True"),
	    268435456, 4194304 },
	{ "sdpa", 0, "aiter::fmha_v3_fwd", D_MHA, T_FA,
	    C_FA("0.125", "False"), 536870912, 4194304 },
	{ "sdpa_bwd", 0, "aiter::mha_bwd",
	    "[[" MQ "],[" MQ "],[" MQ "],[" MQ "],[" MQ "],[4,8,256],[],[],[]]",
	    "[" BF "," BF "," BF "," BF "," BF ",\"float\",\"Scalar\","
	    "\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"0.0\",\"0.125\",\"True\"]",
	    671088640, 7340032 },
	{ "sdpa_bwd", 0, "aiter::_flash_attn_backward",
	    "[[" MQ "],[" MQ "],[" MQ "],[" MQ "],[" MQ "],[4,8,256],[" MQ "],"
	    "[" MQ "],[" MQ "],[],[],[],[]]",
	    "[" BF "," BF "," BF "," BF "," BF ",\"float\"," BF "," BF ","
	    BF ",\"\",\"Scalar\",\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"0.0\","
	    "\"0.125\",\"True\"]",
	    671088640, 7340032 },
	{ "sdpa_bwd", 0, "aiter::wrapper_fmha_v3_bwd",
	    "[[" MQ "],[" MQ "],[" MQ "],[" MQ "],[" MQ "],[4,8,256],[],[],[],"
	    "[]]",
	    "[" BF "," BF "," BF "," BF "," BF ",\"float\",\"\",\"Scalar\","
	    "\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"0.0\",\"0.125\",\"True\"]",
	    671088640, 7340032 },
	{ "sdpa", 0, "flash_attn_3::fwd",
	    "[[" MQ "],[" MQ "],[" MQ "]]", "[" BF "," BF "," BF "]",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
	    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
	    "\"True\"]", 268435456, 4194304 },
	/* Evoformer: (B, N_seq, N_res, H, d), never causal. */
	{ "sdpa", 0, "EvoformerAttention",
	    "[[1,4,64,8,32],[1,4,64,8,32],[1,4,64,8,32],[1,4,1,1,64],"
	    "[1,1,8,64,64]]", "[" BF "," BF "," BF "," BF "," BF "]", "",
	    16777216, 524288 },
	{ "sdpa", 1, "EvoformerAttention",
	    "[[1,4,64,8,32],[1,4,64,8,32],[1,4,64,8,32],[1,4,1,1,64],"
	    "[1,1,8,64,64]]", "[" BF "," BF "," BF "," BF "," BF "]", "",
	    33554432, 917504 },
	/* Efficient attention (no recompute), cross attention. */
	{ "sdpa", 0, "aten::_scaled_dot_product_efficient_attention",
	    "[[2,8,128,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[],[]]",
	    "[" BF "," BF "," BF ",\"\",\"Scalar\",\"Scalar\",\"Scalar\","
	    "\"Scalar\"]",
	    "[\"\",\"\",\"\",\"\",\"True\",\"0.0\",\"False\",\"\"]",
	    536870912, 4718592 },
	{ "sdpa", 1, "aten::_scaled_dot_product_efficient_attention",
	    "[[2,8,128,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[],[]]",
	    "[" BF "," BF "," BF ",\"\",\"Scalar\",\"Scalar\",\"Scalar\","
	    "\"Scalar\"]",
	    "[\"\",\"\",\"\",\"\",\"True\",\"0.0\",\"False\",\"\"]",
	    1073741824, 9175040 },
};

/* fp32 efficient attention, q = k = v = (2,4,100,32), causal. */
#define EFF32	"[[2,4,100,32],[2,4,100,32],[2,4,100,32],[],[],[],[],[]]", \
		"['float','float','float','','Scalar','Scalar','Scalar'," \
		"'Scalar']", "['','','','','True','0.0','True','']"
/* cuDNN attention, q (2,8,128,64), k = v (2,8,1024,64), is_causal. */
#define CUDNN	"[[2,8,128,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[],[]," \
		"[]]", "[" BF "," BF "," BF ",'','Scalar','Scalar','Scalar'," \
		"'Scalar','Scalar']", \
		"['','','','','False','0.0','True','False','']"
/* flash-attn, causal, 128 queries against 1024 keys. */
#define FA_CROSS "[[2,128,8,64],[2,1024,8,64],[2,1024,8,64],[],[],[]]", \
		T_FA, C_FA("0.125", "True")
/* Decoding one token against 1000 cached keys, GQA 16/4, B 3. */
#define DECODE	"[[3,1,16,128],[3,1000,4,128],[3,1000,4,128],[],[],[]]", \
		T_FA, C_FA("0.125", "True")

static void
parity(void)
{
	size_t i;

	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++)
		agrees("sdpa", 0, ref[i].name, ref[i].dims, ref[i].types,
		    ref[i].ci, ref[i].gflops, ref[i].mb);
	for (i = 0; i < sizeof(tlref) / sizeof(tlref[0]); i++)
		exact(tlref[i].family, tlref[i].bwd, tlref[i].name,
		    tlref[i].dims, tlref[i].types, tlref[i].ci, tlref[i].flops,
		    tlref[i].bytes);

	CHECK(run("sdpa", 0, ref[0].name, ref[0].dims, ref[0].types,
	    ref[0].ci) == 0);
	described("{\"B\":16,\"N_Q\":559,\"H_Q\":16,\"N_KV\":559,"
	    "\"H_KV\":16,\"d_h_qk\":64,\"d_h_v\":64,\"dropout\":\"0.0\","
	    "\"causal\":true,\"flash_impl\":true}", "matrix", "bf16");
	CHECK(run("sdpa", 0, tlref[7].name, tlref[7].dims, tlref[7].types,
	    tlref[7].ci) == 0);
	CHECK(strstr(p.params.s, "\"dropout\":\"0.1\",\"causal\":false,"
	    "\"flash_impl\":true,\"num_seqs_q\":4,\"num_seqs_kv\":4,"
	    "\"max_seqlen_q\":400,\"max_seqlen_kv\":300}") != NULL);
	CHECK(strstr(p.params.s, "\"B\":1,\"N_Q\":1000,\"H_Q\":8,"
	    "\"N_KV\":1000,\"H_KV\":2,") != NULL);
}

static void
deviations(void)
{
	/*
	 * 4. Bytes use the dtype.  fp32 efficient attention, q = k = v =
	 * (2,4,100,32), causal: TraceLens 5120000 FLOPs and 204800 bytes
	 * (2 per element); tl 409600 bytes.
	 */
	exact("sdpa", 0, "aten::_scaled_dot_product_efficient_attention",
	    EFF32, 5120000, 409600);
	CHECK_STR(str(p.precision), "fp32");
	/* Backward: TraceLens 7·25600·2 = 358400 bytes, tl ·4. */
	exact("sdpa", 1, "aten::_scaled_dot_product_efficient_attention",
	    EFF32, ANY, 716800);

	/*
	 * 5. Causal with N_Q != N_KV.  cuDNN attention, q (2,8,128,64),
	 * k = v (2,8,1024,64), is_causal: TraceLens raises "causal=True but
	 * N_Q != N_K" and drops the row.  tl aligns PyTorch's mask top-left:
	 * 128·129/2 = 8256 pairs, 2·8·2·8256·128 = 33816576 FLOPs.
	 */
	exact("sdpa", 0, "aten::_scaled_dot_product_cudnn_attention", CUDNN,
	    33816576, 4718592);
	exact("sdpa", 1, "aten::_scaled_dot_product_cudnn_attention", CUDNN,
	    67633152, ANY);
	/*
	 * flash-attn aligns bottom-right: query i sees keys j <= i + 896,
	 * 122944 pairs, 503578624 FLOPs (TraceLens raises).
	 */
	exact("sdpa", 0, "flash_attn::_flash_attn_forward", FA_CROSS,
	    503578624, ANY);
	exact("sdpa", 1, "flash_attn::_flash_attn_forward", FA_CROSS,
	    1258946560, ANY);
	/*
	 * Decoding one token against 1000 cached keys, GQA 16/4, B 3: the
	 * query sees every key, 24576000 FLOPs; backward 63744000 with the
	 * GQA reduction whole.  Top-left would see one key.
	 */
	exact("sdpa", 0, "aiter::mha_fwd", DECODE, 24576000, ANY);
	exact("sdpa", 1, "aiter::mha_fwd", DECODE, 63744000, ANY);
	exact("sdpa", 0, "aten::_scaled_dot_product_flash_attention",
	    "[[3,16,1,128],[3,16,1000,128],[3,16,1000,128],[],[],[],[]]",
	    T_ATEN, C_ATEN("True", ""), 3 * 16 * 2 * 1 * 256, ANY);
	/* More queries than keys: top-left 34 pairs, bottom-right 10. */
	exact("sdpa", 0, "aten::_scaled_dot_product_flash_attention",
	    D_ATEN("1,1,10,1"), T_ATEN, C_ATEN("True", ""),
	    2 * 10 * 10 * 2 / 2, ANY);			/* N_Q = N_KV */
	exact("sdpa", 0, "aten::_scaled_dot_product_flash_attention",
	    "[[1,1,10,1],[1,1,4,1],[1,1,4,1],[],[],[],[]]", T_ATEN,
	    C_ATEN("True", ""), 2 * 34 * 2, ANY);
	/* No dtypes recorded: no bytes. */
	exact("sdpa", 0, "FlashAttnFunc",
	    "[[1,10,1,1],[1,4,1,1],[1,4,1,1],[],[],[]]", "",
	    "['','','','0.0','','True']", 2 * 10 * 2, -1);

	/*
	 * 7. Backward pass of a varlen forward op: the varlen lower bound,
	 * 1330559616 FLOPs, as flash_attn::_flash_attn_varlen_backward on
	 * the same shapes; TraceLens' flops_bwd() counts T×T attention,
	 * 5120384000.
	 */
	exact("sdpa", 1, "flash_attn::_flash_attn_varlen_forward", D_VF, T_VF,
	    "['','','','','','400','300','0.1','0.125','False']", 1330559616,
	    4096000);

	/*
	 * 8. aiter::_flash_attn_backward with GQA: TraceLens reads q, k, v
	 * from slots 0-2 (dout, q, k) and raises "Head sizes do not match";
	 * tl reads slots 1-3, as flash_attn::_flash_attn_backward.
	 */
	exact("sdpa_bwd", 0, "aiter::_flash_attn_backward",
	    "[[" GQ "],[" GQ "],[" GK "],[" GK "],[" GQ "],[2,16,512]]",
	    "[" BF "," BF "," BF "," BF "," BF ",'float']",
	    "['','','','','','','','','','','0.0','0.125','True']",
	    5369102336LL, 16777216);
}

#define FLASH	"aten::_scaled_dot_product_flash_attention"
#define VARLEN	"flash_attn::_flash_attn_varlen_forward"
#define Q4	D_ATEN("1,2,3,4")

static void
bad(void)
{
	static const struct {
		const char *family;
		int bwd;
		const char *name, *dims, *ci, *what;	/* types not recorded */
	} v[] = {
		{ "sdpa", 0, FLASH, "", "", "q (argument 0)" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[1,2,3]]", "",
		    "k (argument 1)" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[2,2,3,4],[2,2,3,4]]", "",
		    "batch" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[1,2,3,4],[1,1,3,4]]", "",
		    "head counts" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[1,2,3,4],[1,2,5,4]]", "",
		    "lengths" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[1,2,3,8],[1,2,3,4]]", "",
		    "head sizes" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[1,0,3,4],[1,0,3,4]]", "",
		    "not a multiple" },
		{ "sdpa", 0, FLASH, "[[1,2,3,4],[1,4,3,4],[1,4,3,4]]", "",
		    "not a multiple" },
		{ "sdpa", 0, FLASH, "[[1,6,3,4],[1,4,3,4],[1,4,3,4]]", "",
		    "not a multiple" },
		{ "sdpa", 0, FLASH, "[[1,2,-3,4],[1,2,3,4],[1,2,3,4]]", "",
		    "q (argument 0)" },
		{ "sdpa", 0, FLASH, Q4, "['','','','zero']", "dropout" },
		{ "sdpa", 0, FLASH, Q4, "['','','','2']", "dropout" },
		{ "sdpa", 0, FLASH, Q4, "['','','','nan']", "dropout" },
		{ "sdpa", 0, FLASH, Q4, "['','','','0.0','yes']", "causal" },
		{ "sdpa", 0, FLASH,
		    D_ATEN("3037000500,3037000500,3037000500,2"), "",
		    "overflow" },
		{ "sdpa", 0, VARLEN, "[[" VQ "],[" VK "],[" VK "],[],[5]]", "",
		    "cu_seqlens" },
		{ "sdpa", 0, VARLEN, D_VF, "", "max_seqlen" },
		{ "sdpa", 0, VARLEN, D_VF, "['','','','','','400.5','400']",
		    "max_seqlen" },
		{ "sdpa", 0, VARLEN, D_VF, "['','','','','','4000','400']",
		    "exceeds" },
		{ "sdpa", 0, VARLEN, "[[" VQ "],[" VK "],[" VK "],[5],[2]]",
		    "['','','','','','400','400']", "one key sequence" },
		{ "sdpa", 0, "EvoformerAttention", "[[1,4,64,8]]", "",
		    "N_seq" },
		{ "sdpa", 0, "aten::scaled_dot_product_attention", Q4, "",
		    "no attention model" },
		{ "sdpa", 0, "aiter::mha_bwd", Q4, "", "no attention model" },
		{ "sdpa_bwd", 0, FLASH, Q4, "",
		    "no backward attention model" },
		{ "sdpa_bwd", 1, "aiter::mha_bwd", Q4, "", "backward op" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		fails(v[i].family, v[i].bwd, v[i].name, v[i].dims, "", v[i].ci,
		    v[i].what);

	/* Varlen accepts a float max_seqlen, as TraceLens' float(). */
	exact("sdpa", 0, VARLEN, D_VF, T_VF,
	    "['','','','','',' 400.0','400','','0.125','True']", 286720000,
	    ANY);
	/* An unknown dtype leaves the bytes unknown, not the FLOPs. */
	exact("sdpa", 0, FLASH, D_ATEN("16,16,559,64"),
	    "['c10::Mystery','c10::Mystery','c10::Mystery']",
	    C_ATEN("True", "0.125"), 10239377408LL, -1);
	CHECK(p.precision == NULL);
}

int
main(void)
{
	parity();
	deviations();
	bad();
	tl_opargs_free(&o);
	tl_perf_free(&p);
	return unit_done("test_model_sdpa");
}
