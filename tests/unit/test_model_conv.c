/* See LICENSE file for copyright and license details. */
/*
 * The convolution model against TraceLens' own numbers: every CONV_fwd
 * and CONV_bwd row of the mi300-resnet-act-checkpoint reference and the
 * patch-embedding row of h100/mi300-falconsai-vit (GFLOPS = flops/1e9,
 * Data Moved (MB) = bytes/2^20), then the deviations, then bad input.
 * A ' in a vector stands for " (model.h).
 */
#include "model.h"

/* aten::convolution as the profiler records it, no bias. */
#define DF(x, w)	"[[" x "],[" w "],[],[],[],[],[],[],[]]"
#define TF		"[\"c10::BFloat16\",\"c10::BFloat16\",\"\"," \
			"\"ScalarList\",\"ScalarList\",\"ScalarList\"," \
			"\"Scalar\",\"ScalarList\",\"Scalar\"]"
#define CF(s, p)	"[\"\",\"\",\"\",\"[" s "]\",\"[" p "]\",\"[1, 1]\"," \
			"\"False\",\"[0, 0]\",\"1\"]"
/* aten::convolution_backward. */
#define DB(g, x, w)	"[[" g "],[" x "],[" w "],[],[],[],[],[],[],[],[]]"
#define TB		"[\"c10::BFloat16\",\"c10::BFloat16\"," \
			"\"c10::BFloat16\",\"ScalarList\",\"ScalarList\"," \
			"\"ScalarList\",\"ScalarList\",\"Scalar\"," \
			"\"ScalarList\",\"Scalar\",\"ScalarList\"]"
#define CB(s, p, m)	"[\"\",\"\",\"\",\"[0]\",\"[" s "]\",\"[" p "]\"," \
			"\"[1, 1]\",\"False\",\"[0, 0]\",\"1\",\"[" m "]\"]"

struct vec {
	const char *name, *dims, *types, *ci;
	double gflops, mb;	/* TraceLens' GFLOPS_first, Data Moved (MB) */
};

/*
 * One geometry: input x, weight w, the output's gradient g, stride s and
 * padding pd in both dimensions; output_mask m of the backward op;
 * TraceLens' GFLOPS and MB forward and backward.
 */
struct row {
	struct vec fwd, bwd;
};
#define ROW(x, w, g, s, pd, m, gf, mb, gfb, mbb) { \
	{ "aten::convolution", DF(x, w), TF, CF(s ", " s, pd ", " pd), gf, \
	    mb }, \
	{ "aten::convolution_backward", DB(g, x, w), TB, \
	    CB(s ", " s, pd ", " pd, m), gfb, mbb } }
#define TTF	"True, True, False"
#define FTF	"False, True, False"	/* the image needs no gradient */

/*
 * mi300-resnet-act-checkpoint CONV_fwd.csv and CONV_bwd.csv, every row
 * (UID_first of each).
 */
static const struct row rows[] = {
	ROW("10,64,56,56", "64,64,3,3", "10,64,56,56", "1", "1", TTF,
	    2.31211008, 7.7265625, 4.62422016, 15.453125),	/* 1269, 1436 */
	ROW("10,512,7,7", "512,512,3,3", "10,512,7,7", "1", "1", TTF,
	    2.31211008, 5.45703125, 4.62422016, 10.9140625),	/* 98, 261 */
	ROW("10,256,14,14", "256,256,3,3", "10,256,14,14", "1", "1", TTF,
	    2.31211008, 3.0390625, 4.62422016, 6.078125),	/* 501, 664 */
	ROW("10,128,28,28", "128,128,3,3", "10,128,28,28", "1", "1", TTF,
	    2.31211008, 4.109375, 4.62422016, 8.21875),	/* 901, 1064 */
	ROW("10,64,56,56", "128,64,3,3", "10,128,28,28", "2", "1", TTF,
	    1.15605504, 5.8828125, 2.31211008, 11.765625),	/* 869, 1248 */
	ROW("10,128,28,28", "256,128,3,3", "10,256,14,14", "2", "1", TTF,
	    1.15605504, 3.43359375, 2.31211008, 6.8671875),	/* 469, 848 */
	ROW("10,256,14,14", "512,256,3,3", "10,512,7,7", "2", "1", TTF,
	    1.15605504, 3.685546875, 2.31211008, 7.37109375),	/* 66, 448 */
	ROW("10,3,224,224", "64,3,7,7", "10,64,112,112", "2", "3", FTF,
	    2.36027904, 18.2015380859375, 4.72055808,
	    36.403076171875),		/* 5868, 1631 */
	ROW("10,64,56,56", "128,64,1,1", "10,128,28,28", "2", "0", TTF,
	    0.12845056, 5.7578125, 0.25690112, 11.515625),	/* 929, 1160 */
	ROW("10,256,14,14", "512,256,1,1", "10,512,7,7", "2", "0", TTF,
	    0.12845056, 1.685546875, 0.25690112, 3.37109375),	/* 126, 360 */
	ROW("10,128,28,28", "256,128,1,1", "10,256,14,14", "2", "0", TTF,
	    0.12845056, 2.93359375, 0.25690112, 5.8671875),	/* 529, 760 */
};

/* h100-falconsai-vit and mi300-falconsai-vit CONV_fwd.csv (UID 2). */
#define FALCON	"[[4,3,224,224],[768,3,16,16],[768],[],[],[],[],[],[]]", \
		"[\"c10::BFloat16\",\"c10::BFloat16\"," \
		"\"c10::BFloat16\",\"ScalarList\",\"ScalarList\"," \
		"\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]", \
		CF("16, 16", "0, 0")
/* Its aten::convolution_backward, with output_mask m. */
#define FALCON_BWD(m)	DB("4,768,14,14", "4,3,224,224", "768,3,16,16"), \
			TB, CB("16, 16", "0, 0", m)
/* The same geometry as ConvBias_ (bias always on). */
#define CONVBIAS	"[[4,3,224,224],[768,3,16,16],[768],[],[]]", \
			"['c10::BFloat16','c10::BFloat16','c10::BFloat16'," \
			"'Scalar','Scalar']", "['','','','16','0']"
/* A 7×7 input and a 3×3 filter, fp32 by default. */
#define X7	DF("1,1,7,7", "1,1,3,3")

/* Run family on op (bwdpass: its backward pass); TraceLens has want. */
static void
check_vec(const char *family, int bwdpass, const struct vec *op,
    const struct vec *want)
{
	agrees(family, bwdpass, op->name, op->dims, op->types, op->ci,
	    want->gflops, want->mb);
}

static void
parity(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		check_vec("conv", 0, &rows[i].fwd, &rows[i].fwd);
		check_vec("conv_bwd", 0, &rows[i].bwd, &rows[i].bwd);
		/* The forward op's backward pass is the same count. */
		check_vec("conv", 1, &rows[i].fwd, &rows[i].bwd);
	}

	/* Parameters, roof kind and precision (resnet UID 869). */
	CHECK(run("conv", 0, rows[4].fwd.name, rows[4].fwd.dims,
	    rows[4].fwd.types, rows[4].fwd.ci) == 0);
	described("{\"convNd\":\"conv2d\","
	    "\"input_shape\":[10,64,56,56],\"filter_shape\":[128,64,3,3],"
	    "\"output_shape\":[10,128,28,28],\"bias\":false,"
	    "\"stride\":[2,2],\"padding\":[1,1],\"dilation\":[1,1],"
	    "\"transposed_conv\":false,\"output_padding\":[0,0],"
	    "\"groups\":1}", "matrix", "bf16");
	CHECK(run("conv_bwd", 0, rows[0].bwd.name, rows[0].bwd.dims,
	    rows[0].bwd.types, rows[0].bwd.ci) == 0);
	CHECK(strstr(p.params.s, "\"bias\":false") != NULL);
	CHECK_STR(str(p.precision), "bf16");
}

static void
deviations(void)
{
	/*
	 * 1. Convolution bias.  falconsai-vit patch embedding, bias [768]:
	 * TraceLens 0.924844032 GFLOPS, 3.421875 MB (3588096 bytes), bias
	 * ignored; tl adds prod(out) = 4·768·14·14 = 602112 FLOPs and
	 * 768·2 bytes.
	 */
	exact("conv", 0, "aten::convolution", FALCON, 924844032 + 602112,
	    3588096 + 1536);
	CHECK(strstr(p.params.s, "\"output_shape\":[4,768,14,14],"
	    "\"bias\":true") != NULL);

	/*
	 * 1b. The bias gradient of aten::convolution_backward follows
	 * output_mask[2].  Falconsai geometry, mask [True, True, True]:
	 * TraceLens (bias_sizes is never a shape) 2·924844032 FLOPs and
	 * 2·1794048·2 = 7176192 bytes; tl adds 602112 FLOPs and
	 * (602112 + 768)·2 bytes.
	 */
	exact("conv_bwd", 0, "aten::convolution_backward",
	    FALCON_BWD("True, True, True"), 2 * 924844032LL + 602112,
	    7176192 + (602112 + 768) * 2);
	/* Same op, mask [True, True, False]: no bias, as TraceLens. */
	exact("conv_bwd", 0, "aten::convolution_backward",
	    FALCON_BWD("True, True, False"), 2 * 924844032LL, 7176192);
	/* The forward op's backward pass with its bias counts the same. */
	exact("conv", 1, "aten::convolution", FALCON,
	    2 * 924844032LL + 602112, 7176192 + (602112 + 768) * 2);

	/*
	 * 2. Transposed convolution with groups: x (1,8,4,4), w (8,2,3,3),
	 * groups 4, fp32: out (1,8,6,6).  TraceLens takes out[1] = w[1] = 2:
	 * 4608 FLOPs, (128 + 144 + 72)·4 = 1376 bytes; tl 4608 FLOPs,
	 * (128 + 144 + 288)·4 = 2240 bytes.
	 */
	exact("conv", 0, "aten::convolution",
	    "[[1,8,4,4],[8,2,3,3],[],[],[],[],[],[],[]]",
	    "['float','float','','ScalarList','ScalarList','ScalarList',"
	    "'Scalar','ScalarList','Scalar']",
	    "['','','','[1, 1]','[0, 0]','[1, 1]','True','[0, 0]','4']",
	    4608, 2240);
	CHECK_STR(str(p.precision), "fp32");
	CHECK(strstr(p.params.s, "\"output_shape\":[1,8,6,6]") != NULL);

	/*
	 * 3. Bias-gradient bytes.  ConvBias_ (bias always on) with the
	 * falconsai geometry, backward pass: TraceLens adds the element
	 * count prod(out) + out[1] = 602880 to the byte count, 7779072
	 * bytes; tl adds 602880·2 bytes, 8381952.  FLOPs agree.
	 */
	exact("conv", 1, "ConvBias_", CONVBIAS, 2 * 924844032LL + 602112,
	    8381952);
	/* Its forward pass counts the bias, as TraceLens does here. */
	exact("conv", 0, "ConvBiasReLU_", CONVBIAS, 924844032 + 602112,
	    3588096 + 1536);

	/*
	 * 6. ConvBias_Backward: TraceLens looks the geometry up in a cache
	 * of forward calls by sequence number (None when absent); tl fails.
	 */
	fails("conv_bwd", 0, "ConvBias_Backward", "[[4,768,14,14]]",
	    "['c10::BFloat16']", "", "forward geometry");
	fails("conv_bwd", 0, "ConvBiasReLU_Backward", "", "", "",
	    "forward geometry");
}

static void
shapes(void)
{
	/*
	 * conv1d, groups 2, dilation 2: x (2,4,10), w (6,2,3): out
	 * (10 + 2 - 4 - 1)/1 + 1 = 8; 96·2·6 FLOPs, (80 + 36 + 96)·2 bytes.
	 * One-element lists repeat, spaces are free.
	 */
	exact("conv", 0, "aten::convolution",
	    "[[2,4,10],[6,2,3],[],[],[],[],[],[],[]]",
	    "['c10::Half','c10::Half']",
	    "['','','',' [ 1 ] ','[1]','(2,)',' False ','[0]',' 2']",
	    1152, 424);
	CHECK(strstr(p.params.s, "\"convNd\":\"conv1d\"") != NULL);
	CHECK(strstr(p.params.s, "\"dilation\":[2],") != NULL);

	/*
	 * conv3d, one value per list: x (1,2,4,4,4), w (3,2,2,2,2):
	 * out (1,3,3,3,3) = 81; 81·2·16 FLOPs, (128 + 48 + 81)·4 bytes.
	 */
	exact("conv", 0, "aten::convolution",
	    "[[1,2,4,4,4],[3,2,2,2,2],[],[],[],[],[],[],[]]",
	    "['float','float']",
	    "['','','','[1]','[0]','[1]','False','[0]','1']", 2592, 1028);
	CHECK(strstr(p.params.s, "\"stride\":[1,1,1],\"padding\":[0,0,0]")
	    != NULL);
	/*
	 * No guessed argument: empty fields are arguments the trace does not
	 * record, so the same call without them has no counts ...
	 */
	fails("conv", 0, "aten::convolution",
	    "[[1,2,4,4,4],[3,2,2,2,2],[],[],[],[],[],[],[]]",
	    "['float','float']", "", "does not record stride, padding, "
	    "dilation, transposed");
	/* ... unless the output shape is known (context conv_out). */
	CHECK(tl_opargs_parse(&o, "aten::convolution",
	    "[[1,2,4,4,4],[3,2,2,2,2],[],[],[],[],[],[],[]]",
	    "[\"float\",\"float\"]", "", "", NULL) == 0);
	CHECK(tl_opargs_set_ctx(&o, "{\"conv_out\":[1,3,3,3,3]}", NULL) == 0);
	CHECK(tl_perf_run(&o, "conv", 0, &p) == 0 && p.has_flops &&
	    p.flops == 2592 && p.has_bytes && p.bytes == 1028);
	CHECK(strstr(p.params.s, "\"stride\"") == NULL);
	CHECK(tl_opargs_set_ctx(&o, "", NULL) == 0);

	/* Unknown dtype: FLOPs still counted, bytes unknown. */
	exact("conv", 0, "aten::convolution", DF("10,64,56,56", "64,64,3,3"),
	    "['mystery','mystery']", CF("1, 1", "1, 1"), 2312110080LL, -1);
	CHECK(p.precision == NULL);

	/* Strided output that truncates: (7 + 0 - 2 - 1)/2 + 1 = 3. */
	exact("conv", 0, "aten::convolution", X7, "['float','float']",
	    "['','','','[2, 2]','[0, 0]','[1, 1]','False','[0, 0]','1']",
	    9 * 2 * 9, ANY);
	CHECK(strstr(p.params.s, "\"output_shape\":[1,1,3,3]") != NULL);
}

static void
bad(void)
{
	static const struct {
		const char *family, *name, *dims, *types, *ci, *what;
	} v[] = {
		/* nvidia-alexnet records no Input Dims at all. */
		{ "conv", "aten::convolution", "", "", "", "input" },
		{ "conv", "aten::convolution", "[[1,2],[3,4]]", "", "",
		    "3-D, 4-D or 5-D" },
		{ "conv", "aten::convolution", "[[1,2,3,3],[1,2,3]]", "", "",
		    "weight" },
		{ "conv", "aten::convolution", X7, "['float','c10::Half']",
		    "", "dtypes differ" },
		{ "conv", "aten::convolution", X7, "", "['','','','[1, x]']",
		    "stride" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','[1, 1, 1]']", "stride" },
		{ "conv", "aten::convolution", X7, "", "['','','','[1, 1']",
		    "stride" },
		{ "conv", "aten::convolution", X7, "", "['','','','[]']",
		    "stride" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','[0, 0]','[0, 0]','[1, 1]','False','[0, 0]','1']",
		    "bad stride" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','','[1, 1]x']", "padding" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','','','','maybe']", "transposed" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','[1, 1]','[0, 0]','[1, 1]','False','[0, 0]','0']",
		    "groups" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','','','','','','two']", "groups" },
		{ "conv", "aten::convolution", DF("1,1,2,2", "1,1,5,5"), "",
		    CF("1, 1", "0, 0"), "not positive" },
		{ "conv", "aten::convolution", DF("1,-1,7,7", "1,1,3,3"), "",
		    CF("1, 1", "0, 0"), "negative" },
		{ "conv", "aten::convolution", X7, "",
		    "['','','','[99999999999999999999]']", "stride" },
		{ "conv", "aten::convolution", DF("4000000000,4000000000,7,7",
		    "4000000000,4000000000,3,3"), "", CF("1, 1", "0, 0"),
		    "overflow" },
		{ "conv_bwd", "aten::convolution_backward",
		    DB("1,1,5,5", "1,1,7,7", "1,1,3,3"), "",
		    CB("1, 1", "0, 0", "True, True, Perhaps"), "output_mask" },
		{ "conv", "aten::conv2d", X7, "", "", "no convolution model" },
		{ "conv_bwd", "aten::convolution", X7, "", "",
		    "no convolution model" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		fails(v[i].family, 0, v[i].name, v[i].dims, v[i].types,
		    v[i].ci, v[i].what);
	/* A backward op has no backward pass of its own. */
	CHECK(run("conv_bwd", 1, rows[0].bwd.name, rows[0].bwd.dims,
	    rows[0].bwd.types, rows[0].bwd.ci) == -1);
}

int
main(void)
{
	parity();
	deviations();
	shapes();
	bad();
	tl_opargs_free(&o);
	tl_perf_free(&p);
	return unit_done("test_model_conv");
}
