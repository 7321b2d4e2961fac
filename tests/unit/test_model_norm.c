/* See LICENSE file for copyright and license details. */
/*
 * The normalization models against TraceLens' own numbers: the rows of
 * Normalization.csv and unified_perf_summary.csv of the
 * mi300-normalization-layers, mi300-resnet-act-checkpoint,
 * mi300-bert-small and mi300-falconsai-vit references (GFLOPS =
 * flops/1e9, Data Moved (MB) = bytes/2^20; UID in the comments), then the
 * rows where tl deliberately differs, then cases the traces lack, then bad
 * input.  Vectors are written with ' for " to read as the CSVs do (model.h).
 */
#include "model.h"

#define F	"'float'"
#define B	"'c10::BFloat16'"
#define S	"'Scalar'"
#define SL	"'ScalarList'"
#define E	"''"
#define X5(t)	t "," t "," t "," t "," t

/* batch_norm (input, weight, bias, running_mean, running_var, ...). */
#define BN_T(t, w, r)	"[" t "," w "," w "," r "," r "," S "," S "," S \
			"," S "]"
#define BN_CI(tr)	"['','','','','','" tr "','0.10000000000000001'," \
			"'1.0000000000000001e-05','True']"
/* native_ and miopen_batch_norm: the same without cudnn_enabled. */
#define NBN_T(t, w, r)	"[" t "," w "," w "," r "," r "," S "," S "," \
			S "]"
#define NBN_CI		"['','','','','','True','0.10000000000000001'," \
			"'1.0000000000000001e-05']"
/* native_batch_norm_backward. */
#define BNB_T(t, w)	"[" t "," t "," w "," w "," w "," F "," F "," S "," \
			S "," SL "]"
#define BNB_CI(m)	"['','','','','','','','True'," \
			"'1.0000000000000001e-05','" m "']"
#define TTT		"[True, True, True]"
#define TFF		"[True, False, False]"
/* miopen_batch_norm_backward. */
#define MBB_CI		"['','','','','','','','1.0000000000000001e-05']"
/* layer_norm (input, normalized_shape, weight, bias, eps, cudnn). */
#define LN_T(t, w)	"[" t "," SL "," w "," w "," S "," S "]"
#define LN_CI(ns, eps)	"['','" ns "','','','" eps "','True']"
#define NLN_T(t, w)	"[" t "," SL "," w "," w "," S "]"
#define NLN_CI(ns, eps)	"['','" ns "','','','" eps "']"
#define EPS5		"1.0000000000000001e-05"
#define EPS12		"9.9999999999999998e-13"
/* native_layer_norm_backward. */
#define LNB_T(w)	"[" F "," F "," SL "," F "," F "," w "," w "," SL "]"
#define LNB_CI(m)	"['','','[16, 32, 32]','','','','','" m "']"
/* group_norm (input, num_groups, weight, bias, eps, cudnn). */
#define GN_T(w)		"[" F "," S "," w "," w "," S "," S "]"
#define GN_CI		"['','4','','','1.0000000000000001e-05','True']"
/* native_group_norm_backward. */
#define GNB_T(w)	"[" F "," F "," F "," F "," w "," S "," S "," S "," \
			S "," SL "]"
#define GNB_CI(m)	"['','','','','','8','16','1024','4','" m "']"
/* instance_norm: batch_norm's layout. */
#define RMS_T(w)	"[" F "," SL "," w "," E "]"
#define RMSB_T(w)	"[" F "," F "," SL "," F "," w "," SL "]"
#define RMSB_CI(m)	"['','','[32, 32]','','','" m "']"

/* The parameters of a training-mode norm of x with C = c. */
#define PARAMS(x, c, bias, affine) \
	"{\"op_shape\":[" x "],\"num_channels\":" c ",\"has_bias\":" bias \
	",\"is_affine\":" affine ",\"is_training\":true}"

#define X	"8,16,32,32"
#define Y	"1,128,32,32"

struct vec {
	const char *name, *family, *dims, *types, *ci;
	double gflops, mb;	/* TraceLens' GFLOPS, Data Moved (MB) */
};

/*
 * batch_norm and nat (its native or miopen op, UID + 3) on input x,
 * weight and bias w, running statistics r; dtypes t, rt of the latter.
 */
#define BN_ROWS(nat, x, w, r, t, rt, gf, mb) \
	{ "aten::batch_norm", "batchnorm", \
	    "[[" x "]," w "," w "," r "," r ",[],[],[],[]]", BN_T(t, t, rt), \
	    BN_CI("True"), gf, mb }, \
	{ nat, "batchnorm", "[[" x "]," w "," w "," r "," r ",[],[],[]]", \
	    NBN_T(t, t, rt), NBN_CI, gf, mb }
/* native_batch_norm_backward, bf16, of input x with C = c, training. */
#define BNB_ROW(x, c, gf, mb) \
	{ "aten::native_batch_norm_backward", "batchnorm_bwd", \
	    "[[" x "],[" x "]," c "," c "," c "," c "," c ",[],[],[]]", \
	    BNB_T(B, B), BNB_CI(TTT), gf, mb }
/*
 * layer_norm and native_layer_norm (UID + 1) on input x, weight and
 * bias w, normalized_shape ns, eps, dtype t.
 */
#define LN_ROWS(x, w, ns, t, eps, gf, mb) \
	{ "aten::layer_norm", "layernorm", "[[" x "],[]," w "," w ",[],[]]", \
	    LN_T(t, t), LN_CI(ns, eps), gf, mb }, \
	{ "aten::native_layer_norm", "layernorm", \
	    "[[" x "],[]," w "," w ",[]]", NLN_T(t, t), NLN_CI(ns, eps), gf, \
	    mb }

static const struct vec parity[] = {
	/* mi300-normalization-layers, Normalization.csv. */
	BN_ROWS("aten::miopen_batch_norm", X, "[16]", "[16]", F, F,
	    0.000655456, 1.0003662109375),			/* 800 */
	BN_ROWS("aten::miopen_batch_norm", Y, "[128]", "[]", F, E,
	    0.000656128, 1.0029296875),				/* 898 */
	{ "aten::instance_norm", "instancenorm", /* 833 */
	    "[[" X "],[16],[16],[],[],[],[],[],[]]",
	    BN_T(F, F, E), BN_CI("True"), 0.000655456, 1.0003662109375 },
	LN_ROWS(X, "[16,32,32]", "[16, 32, 32]", F, EPS5, 0.000753664,
	    1.375),						/* 811 */
	{ "aten::group_norm", "groupnorm", /* 820 */
	    "[[" X "],[],[16],[16],[],[]]",
	    GN_T(F), GN_CI, 0.000655456, 1.0003662109375 },
	{ "aten::native_group_norm", "groupnorm", /* 821 */
	    "[[" X "],[16],[16],[],[],[],[],[]]",
	    "[" F "," F "," F "," X5(S) "]",
	    "['','','','8','16','1024','4','1.0000000000000001e-05']",
	    0.000655456, 1.0003662109375 },
	{ "aten::native_layer_norm_backward", "layernorm_bwd", /* 152 */
	    "[[" X "],[" X "],[],[8,1,1,1],[8,1,1,1],[16,32,32],[16,32,32],[]]",
	    LNB_T(F), LNB_CI(TTT), 0.001179648, 1.75 },
	{ "aten::native_layer_norm_backward", "layernorm_bwd", /* 55 */
	    "[[" X "],[" X "],[],[8,1,1,1],[8,1,1,1],[],[],[]]",
	    LNB_T(E), LNB_CI(TFF), 0.001179648, 1.5625 },
	/*
	 * UID 39: no weight, so tl's C*b (statistics) alone equals
	 * TraceLens' 4 * (C/groups) * b; the params differ (deviations).
	 */
	{ "aten::native_group_norm_backward", "groupnorm_bwd", /* 39 */
	    "[[" X "],[" X "],[8,4],[8,4],[],[],[],[],[],[]]",
	    GNB_T(E), GNB_CI(TFF), 0.001179648, 1.50006103515625 },
	{ "aten::_fused_rms_norm", "rmsnorm", /* 912 */
	    "[[" X "],[],[32,32],[]]",
	    RMS_T(F), "['','[32, 32]','','']", 0.000524544, 1.00390625 },
	{ "aten::_fused_rms_norm_backward", "rmsnorm_bwd", /* 71 */
	    "[[" X "],[" X "],[],[8,16,1,1],[32,32],[]]",
	    RMSB_T(F), RMSB_CI("[True, True]"), 0.00131072, 1.5078125 },
	/* mi300-resnet-act-checkpoint, Normalization.csv. */
	BN_ROWS("aten::native_batch_norm", "10,64,56,56", "[64]", "[64]", B, B,
	    0.010035584, 7.656982421875),			/* 1279 */
	BN_ROWS("aten::native_batch_norm", "10,128,28,28", "[128]", "[128]", B,
	    B, 0.005018368, 3.82958984375),			/* 879 */
	BN_ROWS("aten::native_batch_norm", "10,512,7,7", "[512]", "[512]", B, B,
	    0.001257472, 0.962890625),				/* 76 */
	BN_ROWS("aten::native_batch_norm", "10,256,14,14", "[256]", "[256]", B,
	    B, 0.002510336, 1.9169921875),			/* 479 */
	BN_ROWS("aten::native_batch_norm", "10,64,112,112", "[64]", "[64]", B,
	    B, 0.040141184, 30.625732421875),			/* 5875 */
	BNB_ROW("10,64,112,112", "[64]", 0.07225344, 45.93798828125), /* 1604 */
	BNB_ROW("10,64,56,56", "[64]", 0.01806336, 11.48486328125), /* 1409 */
	BNB_ROW("10,128,28,28", "[128]", 0.00903168, 5.7431640625), /* 1037 */
	BNB_ROW("10,256,14,14", "[256]", 0.00451584, 2.873046875), /* 637 */
	BNB_ROW("10,512,7,7", "[512]", 0.00225792, 1.439453125), /* 234 */
	/* mi300-bert-small and mi300-falconsai-vit, Normalization.csv. */
	LN_ROWS("1,141,512", "[512]", "[512]", B, EPS12, 0.000364032,
	    0.28125),						/* 28 */
	LN_ROWS("4,197,768", "[768]", "[768]", B, EPS12, 0.003030528,
	    2.3173828125),					/* 20 */
};

static void
check_parity(const struct vec *v)
{
	agrees(v->family, 0, v->name, v->dims, v->types, v->ci, v->gflops,
	    v->mb);
}

static void
deviations(void)
{
	/*
	 * Flags: batch norm without weight and bias (mi300-normalization-
	 * layers unified_perf_summary UID 919; native_batch_norm UID 922 and
	 * batch norm of instance_norm UID 954, group_norm 943 and layer_norm
	 * 934 the same).  N = 131072, C = 16, fp32: 2N*4 + 4C*4.
	 * TraceLens: 0.000655456 GFLOPS, 1.0003662109375 MB (1048960 B,
	 * 6C: weight and bias counted).  tl: 655456, 1048832.
	 */
	exact("batchnorm", 0, "aten::batch_norm",
	    "[[" X "],[],[],[16],[16],[],[],[],[]]", BN_T(F, E, F),
	    BN_CI("True"), 655456, 1048832);
	exact("batchnorm", 0, "aten::native_batch_norm",
	    "[[" X "],[],[],[16],[16],[],[],[]]", NBN_T(F, E, F), NBN_CI,
	    655456, 1048832);
	exact("instancenorm", 0, "aten::instance_norm",
	    "[[" X "],[],[],[],[],[],[],[],[]]", BN_T(F, E, E),
	    BN_CI("True"), 655456, 1048832);
	exact("groupnorm", 0, "aten::group_norm", "[[" X "],[],[],[],[],[]]",
	    GN_T(E), GN_CI, 655456, 1048832);
	/* TraceLens: 0.000753664 GFLOPS, 1.375 MB (C = 16384). */
	exact("layernorm", 0, "aten::layer_norm", "[[" X "],[],[],[],[],[]]",
	    LN_T(F, E), LN_CI("[16, 32, 32]", EPS5), 753664, 1310720);
	/*
	 * UID 960, native_batch_norm (1,128,32,32) with nothing but the
	 * input.  TraceLens: 0.000656128 GFLOPS, 1.0029296875 MB (1051648
	 * B).  tl: 656128, 2N*4 + 4*128*4 = 1050624.
	 */
	exact("batchnorm", 0, "aten::native_batch_norm",
	    "[[" Y "],[],[],[],[],[],[],[]]", NBN_T(F, E, E), NBN_CI,
	    656128, 1050624);
	CHECK_STR(p.params.s, PARAMS("1,128,32,32", "128", "false", "false"));

	/*
	 * Flags, backward: native_batch_norm_backward without weight, mask
	 * [True, False, False] (UID 60).  TraceLens: 0.001179648 GFLOPS,
	 * 1.500244140625 MB (3N*4 + 4C*4, weight and both gradients).
	 * tl: 1179648 flops, 3N*4 + C*4 = 1572928 bytes.
	 */
	exact("batchnorm_bwd", 0, "aten::native_batch_norm_backward",
	    "[[" X "],[" X "],[],[16],[16],[16],[16],[],[],[]]",
	    BNB_T(F, E), BNB_CI(TFF), 1179648, 1572928);
	/* UID 23, (1,128,32,32).  TraceLens: 1.501953125 MB. */
	exact("batchnorm_bwd", 0, "aten::native_batch_norm_backward",
	    "[[" Y "],[" Y "],[],[],[],[128],[128],[],[],[]]",
	    BNB_T(F, E), BNB_CI(TFF), 1179648, 1573376);

	/*
	 * Flags: miopen_batch_norm_backward runs in training (UID 167).
	 * TraceLens (training = False): 0.000524336 GFLOPS (3C + 4N),
	 * 1.00006103515625 MB (2N*4 + C*4).  tl, as native_batch_norm_
	 * backward of the same call: 9N = 1179648, 3N*4 + 4C*4 = 1573120.
	 */
	exact("batchnorm_bwd", 0, "aten::miopen_batch_norm_backward",
	    "[[" X "],[" X "],[16],[16],[16],[16],[16],[]]",
	    "[" X5(F) "," F "," F "," S "]", MBB_CI, 1179648, 1573120);
	CHECK_STR(p.params.s, PARAMS("8,16,32,32", "16", "true", "true"));
	/* UID 88.  TraceLens: 0.000524672 GFLOPS, 1.00048828125 MB. */
	exact("batchnorm_bwd", 0, "aten::miopen_batch_norm_backward",
	    "[[" Y "],[" Y "],[128],[],[],[128],[128],[]]",
	    "[" F "," F "," F "," E "," E "," F "," F "," S "]", MBB_CI,
	    1179648, 1574912);

	/*
	 * Flags, RMS norm without weight (UID 975): TraceLens 0.000524544
	 * GFLOPS, 1.00390625 MB (is_affine true).  tl: (N/C)*(2C+2) + N =
	 * 393472 flops, 2N*4 = 1048576 bytes.
	 */
	exact("rmsnorm", 0, "aten::_fused_rms_norm", "[[" X "],[],[],[]]",
	    RMS_T(E), "['','[32, 32]','','']", 393472, 1048576);
	/*
	 * UID 13, backward without weight, mask [True, False]: TraceLens
	 * 0.001048576 GFLOPS (8N), 1.5078125 MB (3N*4 + 2C*4).  tl: 7N =
	 * 917504 flops, 3N*4 = 1572864 bytes.
	 */
	exact("rmsnorm_bwd", 0, "aten::_fused_rms_norm_backward",
	    "[[" X "],[" X "],[],[8,16,1,1],[],[]]", RMSB_T(E),
	    RMSB_CI("[True, False]"), 917504, 1572864);

	/*
	 * GroupNorm backward channels (UID 123): 16 channels, 4 groups.
	 * TraceLens: num_channels 4.0, 0.001179648 GFLOPS, 1.50006103515625
	 * MB (3N*4 + 4*4.0*4).  tl: num_channels 16, 1179648 flops,
	 * 3N*4 + 4*16*4 = 1573120 bytes.
	 */
	exact("groupnorm_bwd", 0, "aten::native_group_norm_backward",
	    "[[" X "],[" X "],[8,4],[8,4],[16],[],[],[],[],[]]",
	    GNB_T(F), GNB_CI(TTT), 1179648, 1573120);
	CHECK_STR(p.params.s, PARAMS("8,16,32,32", "16", "true", "true"));
}

/* Cases the traces lack: eval mode, other layouts, other ops. */
static void
cases(void)
{
	/*
	 * Eval batch norm (resnet UID 1279 with training False): no
	 * statistics, 6C + 2N flops; reads running mean and var, weight,
	 * bias: 2N*2 + 4C*2.  TraceLens would count it as training.
	 */
	exact("batchnorm", 0, "aten::batch_norm",
	    "[[10,64,56,56],[64],[64],[64],[64],[],[],[],[]]",
	    BN_T(B, B, B), BN_CI("False"), 6 * 64 + 2 * 2007040,
	    4 * 2007040 + 4 * 64 * 2);
	described(NULL, "vector", "bf16");
	exact("batchnorm", 0, "aten::_native_batch_norm_legit_no_training",
	    "[[10,64,56,56],[64],[64],[64],[64],[],[]]",
	    "[" X5(B) "," S "," S "]", "['','','','','','0.1','1e-05']",
	    6 * 64 + 2 * 2007040, 4 * 2007040 + 4 * 64 * 2);
	/* _native_batch_norm_legit.no_stats: training is argument 3. */
	exact("batchnorm", 0, "aten::_native_batch_norm_legit",
	    "[[10,64,56,56],[64],[64],[],[],[]]",
	    "[" B "," B "," B "," S "," S "," S "]",
	    "['','','','True','0.1','1e-05']",
	    6 * 64 + 5 * 2007040, 4 * 2007040 + 6 * 64 * 2);
	/* A bias without a weight counts (TraceLens nests it). */
	exact("batchnorm", 0, "aten::batch_norm",
	    "[[" X "],[],[16],[16],[16],[],[],[],[]]",
	    "[" F "," E "," F "," F "," F "," S "," S "," S "," S "]",
	    BN_CI("True"), 655456, 1048576 + 5 * 16 * 4);

	/*
	 * Eval backward with mask [True, True, True]: 3C + 4N + 2N flops
	 * (dx = dy*invstd*w); TraceLens would add no dx term (its 2E is in
	 * the not-m0 branch).  Bytes: dy, x, dx, invstd, w, dw, db.
	 */
	exact("batchnorm_bwd", 0, "aten::native_batch_norm_backward",
	    "[[" X "],[" X "],[16],[16],[16],[16],[16],[],[],[]]",
	    BNB_T(F, F), "['','','','','','','','False','1e-05','"
	    TTT "']", 3 * 16 + 6 * 131072, 3 * 131072 * 4 + 4 * 16 * 4);
	/* Eval, grad_input only: no input read, no dot product. */
	exact("batchnorm_bwd", 0, "aten::native_batch_norm_backward",
	    "[[" X "],[" X "],[16],[16],[16],[16],[16],[],[],[]]",
	    BNB_T(F, F), "['','','','','','','','False','1e-05','"
	    TFF "']", 3 * 16 + 2 * 131072, 2 * 131072 * 4 + 2 * 16 * 4);
	/* Training, weight gradients only: no grad_input. */
	exact("layernorm_bwd", 0, "aten::native_layer_norm_backward",
	    "[[" X "],[" X "],[],[8,1,1,1],[8,1,1,1],[16,32,32],[16,32,32],"
	    "[]]", LNB_T(F), LNB_CI("[False, True, True]"), 4 * 131072,
	    2 * 131072 * 4 + 4 * 16384 * 4);
	/* batch_norm_backward (PyTorch 2.4+) and the impl_index form. */
	exact("batchnorm_bwd", 0, "aten::batch_norm_backward",
	    "[[" X "],[" X "],[16],[16],[16],[16],[16],[],[],[],[0]]",
	    "[" X5(F) "," F "," F "," S "," S "," SL ",'unsigned char']",
	    "['','','','','','','','True','1e-05','" TTT "','']",
	    9 * 131072, 3 * 131072 * 4 + 4 * 16 * 4);
	exact("batchnorm_bwd", 0, "aten::_batch_norm_impl_index_backward",
	    "[[],[" X "],[" X "],[16],[16],[16],[16],[16],[],[],[],[0]]",
	    "[" S "," X5(F) "," F "," F "," S "," S "," SL
	    ",'unsigned char']",
	    "['1','','','','','','','','True','1e-05','" TTT "','']",
	    9 * 131072, 3 * 131072 * 4 + 4 * 16 * 4);

	/* Concrete inputs not recorded: training, all gradients. */
	exact("batchnorm", 0, "aten::batch_norm",
	    "[[" X "],[16],[16],[16],[16],[],[],[],[]]", BN_T(F, F, F), "",
	    655456, 1048960);
	/* Layer norm: normalized_shape from the weight then. */
	exact("layernorm", 0, "aten::layer_norm",
	    "[[1,141,512],[],[512],[512],[],[]]", LN_T(B, B), "",
	    364032, 294912);
	CHECK_STR(p.params.s, PARAMS("1,141,512", "512", "true", "true"));
	/* Unknown dtype: flops, no bytes, no precision. */
	exact("layernorm", 0, "aten::layer_norm",
	    "[[1,141,512],[],[512],[512],[],[]]", LN_T("'c10::Weird'", B),
	    LN_CI("[512]", EPS12), 364032, -1);
	CHECK(p.precision == NULL);

	/* RMS norm of one row of 1024: 2N + 2 + 2N flops. */
	exact("rmsnorm", 0, "aten::rms_norm", "[[1024],[],[1024],[]]",
	    RMS_T(F), "['','[1024]','','1e-06']", 4 * 1024 + 2,
	    2 * 1024 * 4 + 1024 * 4);
	/* Backward of one row: no accumulation over rows. */
	exact("rmsnorm_bwd", 0, "aten::_fused_rms_norm_backward",
	    "[[1024],[1024],[],[1],[1024],[]]",
	    "[" B "," B "," SL "," F "," B "," SL "]",
	    "['','','[1024]','','','[True, True]']", 9 * 1024,
	    3 * 1024 * 2 + 2 * 1024 * 2);

	/*
	 * primus::fused_ln_modulate, x (T,B,H) = (4,2,8), bf16:
	 * 12N flops, 2N*2 + 2*B*H*2 + 2*T*B*4 bytes; the backward 15N and
	 * 3N*2 + 2*T*B*4 + 3*B*H*2.
	 */
	exact("rmsnorm", 0, "primus::fused_ln_modulate",
	    "[[4,2,8],[2,8],[2,8],[]]", "[" B "," B "," B "," S "]",
	    "['','','','1e-06']", 12 * 64, 2 * 64 * 2 + 2 * 16 * 2 + 8 * 8);
	exact("rmsnorm_bwd", 0, "primus::fused_ln_modulate_backward",
	    "[[4,2,8],[4,2,8],[8],[8],[2,8]]", "[" X5(B) "]",
	    "['','','','','']", 15 * 64, 3 * 64 * 2 + 8 * 8 + 3 * 16 * 2);
}

/*
 * The framework RMS norms: TraceLens' rows of RMSNorm_fwd.csv of
 * mi300-vllm-prefilldecode-piecewise, then the other layouts by hand:
 * flops = 4N + 2R (+ N for a residual, + 2N dynamic or N static quant),
 * bytes = N·b + C·b + 2r·N·b + output + scales.
 */
static void
framework(void)
{
	/* aiter::rmsnorm2d_fwd_with_add_ck, (8192, 2880), bf16. */
	agrees("rmsnorm", 0, "aiter::rmsnorm2d_fwd_with_add_ck",
	    "[[8192,2880],[8192,2880],[8192,2880],[8192,2880],[2880],[],[]]",
	    "[" X5(B) "," S "," S "]",
	    "['','','','','','1.0000000000000001e-05','0']", 0.117981184,
	    180.0054931640625);
	agrees("rmsnorm", 0, "aiter::rms_norm", "[[8192,2880],[2880],[],[]]",
	    "[" B "," B "," S "," S "]", "['','','1e-05','0']", 0.094388224,
	    90.0054931640625);
	described("{\"op_shape\":[8192,2880],\"num_channels\":2880,"
	    "\"has_bias\":false,\"is_affine\":true,\"is_training\":false,"
	    "\"residual\":false,\"quant\":\"none\"}", "vector", "bf16");
	/* vLLM's in-place fused add: (input [4, 8], residual, weight). */
	exact("rmsnorm", 0, "_C::fused_add_rms_norm", "[[4,8],[4,8],[8],[]]",
	    "[" B "," B "," B "," S "]", "['','','','1e-06']", 5 * 32 + 2 * 4,
	    (4 * 32 + 8) * 2);
	/* (out, input, weight, eps): the input is argument 1. */
	exact("rmsnorm", 0, "_C::rms_norm", "[[4,8],[4,8],[8],[]]",
	    "[" B "," B "," B "," S "]", "['','','','1e-06']", 4 * 32 + 2 * 4,
	    (2 * 32 + 8) * 2);
	/*
	 * Add and fp8 per-group quant, groups of 128 of C = 256: reads x,
	 * the residual and the weight, writes the residual, 1-byte output
	 * and 4 rows × 2 groups of fp32 scales.
	 */
	exact("rmsnorm", 0, "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
	    "[[4,256],[4,256],[256],[],[]]", "[" B "," B "," B "," S "," S "]",
	    "['','','','1e-06','128']", 7 * 1024 + 2 * 4,
	    (3 * 1024 + 256) * 2 + 1024 + 4 * 2 * 4);
	/* Per-row dynamic quant: one fp32 scale a row. */
	exact("rmsnorm", 0, "aiter::rmsnorm2d_fwd_with_dynamicquant_ck",
	    "[[4,256],[4,256],[4,1],[256],[],[]]",
	    "['c10::Float8_e4m3fnuz'," B "," F "," B "," S "," S "]",
	    "['','','','','1e-06','0']", 6 * 1024 + 8,
	    (1024 + 256) * 2 + 1024 + 16);
	/* group_size 0: one group a row. */
	exact("rmsnorm", 0, "aiter::rmsnorm_quant",
	    "[[4,256],[4,256],[4,1],[256],[],[],[],[]]",
	    "['c10::Float8_e4m3fnuz'," B "," F "," B "," S "," S "," S "," S
	    "]", "['','','','','1e-06','0','False','False']", 6 * 1024 + 8,
	    (1024 + 256) * 2 + 1024 + 16);
	/* Static fp8: one multiply an element, no scales written. */
	exact("rmsnorm", 0, "_C::fused_add_rms_norm_static_fp8_quant",
	    "[[4,256],[4,256],[4,256],[256],[],[]]",
	    "['c10::Float8_e4m3fn'," B "," B "," B "," F "," S "]",
	    "['','','','','','1e-06']", 6 * 1024 + 8,
	    (3 * 1024 + 256) * 2 + 1024);
	/*
	 * Add, RMS norm and zero-padding of the output to a multiple of 256:
	 * 2880 → 3072 wide.  N = 64·2880.
	 */
	exact("rmsnorm", 0, "vllm::rocm_aiter_triton_add_rmsnorm_pad",
	    "[[64,2880],[2880],[],[64,2880],[]]",
	    "[" B "," B "," S "," B "," S "]", "['','','1e-05','','256']",
	    5 * 184320 + 2 * 64, (3 * 184320 + 2880 + 64 * 3072) * 2);
	fails("rmsnorm", 0, "aiter::rmsnorm", "[[4,8],[4,8],[],[]]",
	    "[" B "," B "," E "," S "]", "", "the weight (argument 2)");
	fails("rmsnorm", 0, "_C::fused_add_rms_norm", "[[4,8],[],[8],[]]",
	    "[" B "," E "," B "," S "]", "", "the residual (argument 1)");
	fails("rmsnorm", 0, "vllm::rocm_aiter_rmsnorm_fp8_group_quant",
	    "[[4,256],[256],[],[]]", "[" B "," B "," S "," S "]",
	    "['','','1e-06','']", "group_size (argument 3)");
	fails("rmsnorm", 0, "aiter::rms_norm", "[[4,9],[8],[],[]]",
	    "[" B "," B "," S "," S "]", "", "not a whole number of rows");
}

/* Bad and odd input: a clear failure, never a crash. */
static void
bad(void)
{
	static const char *const fam[] = {
		"batchnorm", "batchnorm_bwd", "layernorm", "layernorm_bwd",
		"groupnorm", "groupnorm_bwd", "instancenorm",
		"instancenorm_bwd", "rmsnorm", "rmsnorm_bwd"
	};
	static const struct {
		const char *dims, *types, *ci;
	} odd[] = {
		{ "", "", "" },
		{ "[]", "[]", "[]" },
		{ "[[]]", "['float']", "['']" },
		{ "[[8]]", "['float']", "['[']" },
		{ "[[8,16],[8,16],[8,16]]", "['float','float','float']",
		    "['[1,','True','[True,']" },
		{ "[[[1],[2]],[8,16]]", "['TensorList','float']", "['','']" },
		{ "[[8,16],[],[16],[16],[],[],[],[],[],[],[]]",
		    "['float','','','','','','','','','','']",
		    "['[]','[]','[', ']','[True, True, True, True]','True',"
		    "'x','[1, 2]','[True]','[,]','[True False]']" },
		{ "[[9223372036854775807,4],[9223372036854775807,4]]",
		    "['float','float']", "['[9223372036854775807, 2]',"
		    "'[9223372036854775807, 2]']" },
	};
	size_t i, j;

	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		for (j = 0; j < sizeof(odd) / sizeof(odd[0]); j++)
			survives(fam[i], 0, "aten::odd", odd[j].dims,
			    odd[j].types, odd[j].ci);

	fails("batchnorm", 0, "aten::batch_norm",
	    "[[" X "],[16],[16],[16],[16],[],[],[],[]]", BN_T(F, F, F),
	    BN_CI("Maybe"), "training (argument 5) is \"Maybe\"");
	fails("batchnorm", 0, "aten::batch_norm", "[[16],[16],[16]]",
	    "[" F "," F "," F "]", "", "no channel dimension");
	fails("batchnorm", 0, "aten::batch_norm", "", "", "",
	    "argument 0 (the input) is not a tensor");
	fails("layernorm", 0, "aten::layer_norm",
	    "[[1,141,512],[],[512],[512],[],[]]", LN_T(B, B),
	    LN_CI("[512, x]", EPS12), "not a list of integers");
	fails("layernorm", 0, "aten::layer_norm", "[[1,141,512],[],[],[]]",
	    LN_T(B, E), "", "no weight to tell it");
	fails("layernorm_bwd", 0, "aten::native_layer_norm_backward",
	    "[[" X "],[" X "],[],[8,1,1,1],[8,1,1,1],[],[],[]]", LNB_T(E),
	    LNB_CI("[True, False, Fals]"), "output_mask (argument 7)");
	fails("rmsnorm_bwd", 0, "aten::_fused_rms_norm_backward",
	    "[[" X "],[" X "],[],[8,16,1,1],[32,32],[]]", RMSB_T(F),
	    RMSB_CI("[True, True, True]"), "not a list of 2 bools");
	fails("rmsnorm", 0, "aten::_fused_rms_norm", "[[8,15],[],[],[]]",
	    RMS_T(E), "['','[7]','','']", "not a whole number of rows");
	fails("rmsnorm", 0, "primus::fused_ln_modulate", "[[4,8],[8],[8],[]]",
	    "[" B "," B "," B "," S "]", "", "not (T, B, H)");
	fails("batchnorm", 0, "aten::native_batch_norm",
	    "[[4611686018427387904,1],[],[],[],[],[],[],[]]",
	    NBN_T(F, E, E), NBN_CI, "overflows");
	fails("instancenorm_bwd", 0, "aten::instance_norm_backward",
	    "[[" X "],[" X "]]", "[" F "," F "]", "", "no model");
	fails("batchnorm", 1, "aten::batch_norm",
	    "[[" X "],[16],[16],[16],[16],[],[],[],[]]", BN_T(F, F, F),
	    BN_CI("True"), "has no backward model");
	CHECK_STR(p.params.s, "{}");
}

int
main(void)
{
	size_t i;

	tl_opargs_init(&o);
	for (i = 0; i < sizeof(parity) / sizeof(parity[0]); i++)
		check_parity(&parity[i]);
	/* The bert row's parameters, TraceLens' keys. */
	check_parity(&parity[sizeof(parity) / sizeof(parity[0]) - 4]);
	CHECK_STR(p.params.s, PARAMS("1,141,512", "512", "true", "true"));
	deviations();
	cases();
	framework();
	bad();
	tl_opargs_free(&o);
	tl_perf_free(&p);
	return unit_done("test_model_norm");
}
