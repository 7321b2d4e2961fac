/* See LICENSE file for copyright and license details. */
/*
 * The convolution model against TraceLens' own numbers: every CONV_fwd
 * and CONV_bwd row of the mi300-resnet-act-checkpoint reference and the
 * patch-embedding row of h100/mi300-falconsai-vit (GFLOPS = flops/1e9,
 * Data Moved (MB) = bytes/2^20), then the deviations, then bad input.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "opargs.h"
#include "perfmodel.h"
#include "unit.h"

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

/* mi300-resnet-act-checkpoint CONV_fwd.csv, every row (UID_first). */
static const struct vec fwd[] = {
	{ "aten::convolution", DF("10,64,56,56", "64,64,3,3"), TF,
	    CF("1, 1", "1, 1"), 2.31211008, 7.7265625 },	/* 1269 */
	{ "aten::convolution", DF("10,512,7,7", "512,512,3,3"), TF,
	    CF("1, 1", "1, 1"), 2.31211008, 5.45703125 },	/* 98 */
	{ "aten::convolution", DF("10,256,14,14", "256,256,3,3"), TF,
	    CF("1, 1", "1, 1"), 2.31211008, 3.0390625 },	/* 501 */
	{ "aten::convolution", DF("10,128,28,28", "128,128,3,3"), TF,
	    CF("1, 1", "1, 1"), 2.31211008, 4.109375 },	/* 901 */
	{ "aten::convolution", DF("10,64,56,56", "128,64,3,3"), TF,
	    CF("2, 2", "1, 1"), 1.15605504, 5.8828125 },	/* 869 */
	{ "aten::convolution", DF("10,128,28,28", "256,128,3,3"), TF,
	    CF("2, 2", "1, 1"), 1.15605504, 3.43359375 },	/* 469 */
	{ "aten::convolution", DF("10,256,14,14", "512,256,3,3"), TF,
	    CF("2, 2", "1, 1"), 1.15605504, 3.685546875 },	/* 66 */
	{ "aten::convolution", DF("10,3,224,224", "64,3,7,7"), TF,
	    CF("2, 2", "3, 3"), 2.36027904, 18.2015380859375 },	/* 5868 */
	{ "aten::convolution", DF("10,64,56,56", "128,64,1,1"), TF,
	    CF("2, 2", "0, 0"), 0.12845056, 5.7578125 },	/* 929 */
	{ "aten::convolution", DF("10,256,14,14", "512,256,1,1"), TF,
	    CF("2, 2", "0, 0"), 0.12845056, 1.685546875 },	/* 126 */
	{ "aten::convolution", DF("10,128,28,28", "256,128,1,1"), TF,
	    CF("2, 2", "0, 0"), 0.12845056, 2.93359375 },	/* 529 */
};

/*
 * mi300-resnet-act-checkpoint CONV_bwd.csv, every row.  bwd_of[i] is the
 * fwd[] row of the same geometry, whose backward pass must agree.
 */
static const struct vec bwd[] = {
	{ "aten::convolution_backward",
	    DB("10,64,56,56", "10,64,56,56", "64,64,3,3"), TB,
	    CB("1, 1", "1, 1", "True, True, False"),
	    4.62422016, 15.453125 },				/* 1436 */
	{ "aten::convolution_backward",
	    DB("10,512,7,7", "10,512,7,7", "512,512,3,3"), TB,
	    CB("1, 1", "1, 1", "True, True, False"),
	    4.62422016, 10.9140625 },				/* 261 */
	{ "aten::convolution_backward",
	    DB("10,256,14,14", "10,256,14,14", "256,256,3,3"), TB,
	    CB("1, 1", "1, 1", "True, True, False"),
	    4.62422016, 6.078125 },				/* 664 */
	{ "aten::convolution_backward",
	    DB("10,128,28,28", "10,128,28,28", "128,128,3,3"), TB,
	    CB("1, 1", "1, 1", "True, True, False"),
	    4.62422016, 8.21875 },				/* 1064 */
	{ "aten::convolution_backward",
	    DB("10,128,28,28", "10,64,56,56", "128,64,3,3"), TB,
	    CB("2, 2", "1, 1", "True, True, False"),
	    2.31211008, 11.765625 },				/* 1248 */
	{ "aten::convolution_backward",
	    DB("10,256,14,14", "10,128,28,28", "256,128,3,3"), TB,
	    CB("2, 2", "1, 1", "True, True, False"),
	    2.31211008, 6.8671875 },				/* 848 */
	{ "aten::convolution_backward",
	    DB("10,512,7,7", "10,256,14,14", "512,256,3,3"), TB,
	    CB("2, 2", "1, 1", "True, True, False"),
	    2.31211008, 7.37109375 },				/* 448 */
	{ "aten::convolution_backward",
	    DB("10,64,112,112", "10,3,224,224", "64,3,7,7"), TB,
	    CB("2, 2", "3, 3", "False, True, False"),
	    4.72055808, 36.403076171875 },			/* 1631 */
	{ "aten::convolution_backward",
	    DB("10,128,28,28", "10,64,56,56", "128,64,1,1"), TB,
	    CB("2, 2", "0, 0", "True, True, False"),
	    0.25690112, 11.515625 },				/* 1160 */
	{ "aten::convolution_backward",
	    DB("10,512,7,7", "10,256,14,14", "512,256,1,1"), TB,
	    CB("2, 2", "0, 0", "True, True, False"),
	    0.25690112, 3.37109375 },				/* 360 */
	{ "aten::convolution_backward",
	    DB("10,256,14,14", "10,128,28,28", "256,128,1,1"), TB,
	    CB("2, 2", "0, 0", "True, True, False"),
	    0.25690112, 5.8671875 },				/* 760 */
};
static const int bwd_of[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

/* h100-falconsai-vit and mi300-falconsai-vit CONV_fwd.csv (UID 2). */
#define FALCON_DIMS	"[[4,3,224,224],[768,3,16,16],[768],[],[],[],[],[],[]]"
#define FALCON_TYPES	"[\"c10::BFloat16\",\"c10::BFloat16\"," \
			"\"c10::BFloat16\",\"ScalarList\",\"ScalarList\"," \
			"\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]"
#define FALCON_CI	CF("16, 16", "0, 0")

static struct tl_opargs o;
static struct tl_perf p;

/* Run family on one op; tl_perf_run's result, or -2 if unparsable. */
static int
run(const char *family, int bwdpass, const char *name, const char *dims,
    const char *types, const char *ci)
{
	const char *err = NULL;

	if (tl_opargs_parse(&o, name, dims, types, NULL, ci, &err) < 0) {
		printf("parse %s: %s\n", name, err);
		return -2;
	}
	return tl_perf_run(&o, family, bwdpass, &p);
}

/* Equal within 1e-9 relative. */
static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

static void
check_vec(const struct vec *v, const char *family, int bwdpass)
{
	int rc = run(family, bwdpass, v->name, v->dims, v->types, v->ci);

	CHECK(rc == 0);
	CHECK(p.has_flops && near((double)p.flops / 1e9, v->gflops));
	CHECK(p.has_bytes && near((double)p.bytes / 1048576.0, v->mb));
	if (rc != 0 || !near((double)p.flops / 1e9, v->gflops) ||
	    !near((double)p.bytes / 1048576.0, v->mb))
		printf("  %s %s: %lld flops, %lld bytes (%s)\n", v->name,
		    v->dims, (long long)p.flops, (long long)p.bytes, p.err);
}

/* Run and expect a failure whose message contains what. */
static void
check_fail(const char *family, const char *name, const char *dims,
    const char *types, const char *ci, const char *what)
{
	int rc = run(family, 0, name, dims, types, ci);

	CHECK(rc == -1);
	CHECK(strstr(p.err, what) != NULL);
	if (rc != -1 || strstr(p.err, what) == NULL)
		printf("  %s %s: rc %d, \"%s\", wanted \"%s\"\n", name, ci,
		    rc, p.err, what);
}

static void
parity(void)
{
	size_t i;

	for (i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++)
		check_vec(&fwd[i], "conv", 0);
	for (i = 0; i < sizeof(bwd) / sizeof(bwd[0]); i++) {
		struct vec v = bwd[i];

		check_vec(&bwd[i], "conv_bwd", 0);
		/* The forward op's backward pass is the same count. */
		v.name = fwd[bwd_of[i]].name;
		v.dims = fwd[bwd_of[i]].dims;
		v.types = fwd[bwd_of[i]].types;
		v.ci = fwd[bwd_of[i]].ci;
		check_vec(&v, "conv", 1);
	}

	/* Parameters, roof kind and precision (resnet UID 869). */
	CHECK(run("conv", 0, fwd[4].name, fwd[4].dims, fwd[4].types,
	    fwd[4].ci) == 0);
	CHECK_STR(p.params.s, "{\"convNd\":\"conv2d\","
	    "\"input_shape\":[10,64,56,56],\"filter_shape\":[128,64,3,3],"
	    "\"output_shape\":[10,128,28,28],\"bias\":false,"
	    "\"stride\":[2,2],\"padding\":[1,1],\"dilation\":[1,1],"
	    "\"transposed_conv\":false,\"output_padding\":[0,0],"
	    "\"groups\":1}");
	CHECK_STR(p.maf != NULL ? p.maf : "", "matrix");
	CHECK_STR(p.precision != NULL ? p.precision : "", "bf16");
	CHECK(run("conv_bwd", 0, bwd[0].name, bwd[0].dims, bwd[0].types,
	    bwd[0].ci) == 0);
	CHECK(strstr(p.params.s, "\"bias\":false") != NULL);
	CHECK_STR(p.precision != NULL ? p.precision : "", "bf16");
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
	CHECK(run("conv", 0, "aten::convolution", FALCON_DIMS, FALCON_TYPES,
	    FALCON_CI) == 0);
	CHECK(p.flops == 924844032 + 602112);
	CHECK(p.bytes == 3588096 + 1536);
	CHECK(strstr(p.params.s, "\"output_shape\":[4,768,14,14],"
	    "\"bias\":true") != NULL);

	/*
	 * 1b. The bias gradient of aten::convolution_backward follows
	 * output_mask[2].  Falconsai geometry, mask [True, True, True]:
	 * TraceLens (bias_sizes is never a shape) 2·924844032 FLOPs and
	 * 2·1794048·2 = 7176192 bytes; tl adds 602112 FLOPs and
	 * (602112 + 768)·2 bytes.
	 */
	CHECK(run("conv_bwd", 0, "aten::convolution_backward",
	    DB("4,768,14,14", "4,3,224,224", "768,3,16,16"), TB,
	    CB("16, 16", "0, 0", "True, True, True")) == 0);
	CHECK(p.flops == 2 * 924844032LL + 602112);
	CHECK(p.bytes == 7176192 + (602112 + 768) * 2);
	/* Same op, mask [True, True, False]: no bias, as TraceLens. */
	CHECK(run("conv_bwd", 0, "aten::convolution_backward",
	    DB("4,768,14,14", "4,3,224,224", "768,3,16,16"), TB,
	    CB("16, 16", "0, 0", "True, True, False")) == 0);
	CHECK(p.flops == 2 * 924844032LL);
	CHECK(p.bytes == 7176192);
	/* The forward op's backward pass with its bias counts the same. */
	CHECK(run("conv", 1, "aten::convolution", FALCON_DIMS, FALCON_TYPES,
	    FALCON_CI) == 0);
	CHECK(p.flops == 2 * 924844032LL + 602112);
	CHECK(p.bytes == 7176192 + (602112 + 768) * 2);

	/*
	 * 2. Transposed convolution with groups: x (1,8,4,4), w (8,2,3,3),
	 * groups 4, fp32: out (1,8,6,6).  TraceLens takes out[1] = w[1] = 2:
	 * 4608 FLOPs, (128 + 144 + 72)·4 = 1376 bytes; tl 4608 FLOPs,
	 * (128 + 144 + 288)·4 = 2240 bytes.
	 */
	CHECK(run("conv", 0, "aten::convolution",
	    "[[1,8,4,4],[8,2,3,3],[],[],[],[],[],[],[]]",
	    "[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\","
	    "\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"[1, 1]\",\"[0, 0]\",\"[1, 1]\",\"True\","
	    "\"[0, 0]\",\"4\"]") == 0);
	CHECK(p.flops == 4608);
	CHECK(p.bytes == 2240);
	CHECK_STR(p.precision != NULL ? p.precision : "", "fp32");
	CHECK(strstr(p.params.s, "\"output_shape\":[1,8,6,6]") != NULL);

	/*
	 * 3. Bias-gradient bytes.  ConvBias_ (bias always on) with the
	 * falconsai geometry, backward pass: TraceLens adds the element
	 * count prod(out) + out[1] = 602880 to the byte count, 7779072
	 * bytes; tl adds 602880·2 bytes, 8381952.  FLOPs agree.
	 */
	CHECK(run("conv", 1, "ConvBias_",
	    "[[4,3,224,224],[768,3,16,16],[768],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
	    "\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"16\",\"0\"]") == 0);
	CHECK(p.flops == 2 * 924844032LL + 602112);
	CHECK(p.bytes == 8381952);
	/* Its forward pass counts the bias, as TraceLens does here. */
	CHECK(run("conv", 0, "ConvBiasReLU_",
	    "[[4,3,224,224],[768,3,16,16],[768],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
	    "\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"\",\"16\",\"0\"]") == 0);
	CHECK(p.flops == 924844032 + 602112);
	CHECK(p.bytes == 3588096 + 1536);

	/*
	 * 6. ConvBias_Backward: TraceLens looks the geometry up in a cache
	 * of forward calls by sequence number (None when absent); tl fails.
	 */
	check_fail("conv_bwd", "ConvBias_Backward", "[[4,768,14,14]]",
	    "[\"c10::BFloat16\"]", "", "forward geometry");
	check_fail("conv_bwd", "ConvBiasReLU_Backward", "", "", "",
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
	CHECK(run("conv", 0, "aten::convolution",
	    "[[2,4,10],[6,2,3],[],[],[],[],[],[],[]]",
	    "[\"c10::Half\",\"c10::Half\"]",
	    "[\"\",\"\",\"\",\" [ 1 ] \",\"[1]\",\"(2,)\",\" False \","
	    "\"[0]\",\" 2\"]") == 0);
	CHECK(p.flops == 1152);
	CHECK(p.bytes == 424);
	CHECK(strstr(p.params.s, "\"convNd\":\"conv1d\"") != NULL);
	CHECK(strstr(p.params.s, "\"dilation\":[2],") != NULL);

	/*
	 * conv3d, defaults from empty fields: x (1,2,4,4,4), w (3,2,2,2,2):
	 * out (1,3,3,3,3) = 81; 81·2·16 FLOPs, (128 + 48 + 81)·4 bytes.
	 */
	CHECK(run("conv", 0, "aten::convolution",
	    "[[1,2,4,4,4],[3,2,2,2,2],[],[],[],[],[],[],[]]",
	    "[\"float\",\"float\"]", "") == 0);
	CHECK(p.flops == 2592);
	CHECK(p.bytes == 1028);
	CHECK(strstr(p.params.s, "\"stride\":[1,1,1],\"padding\":[0,0,0]")
	    != NULL);

	/* Unknown dtype: FLOPs still counted, bytes unknown. */
	CHECK(run("conv", 0, "aten::convolution", DF("10,64,56,56",
	    "64,64,3,3"), "[\"mystery\",\"mystery\"]", CF("1, 1",
	    "1, 1")) == 0);
	CHECK(p.has_flops && p.flops == 2312110080LL);
	CHECK(!p.has_bytes);
	CHECK(p.precision == NULL);

	/* Strided output that truncates: (7 + 0 - 2 - 1)/2 + 1 = 3. */
	CHECK(run("conv", 0, "aten::convolution",
	    "[[1,1,7,7],[1,1,3,3],[],[],[],[],[],[],[]]",
	    "[\"float\",\"float\"]",
	    "[\"\",\"\",\"\",\"[2, 2]\",\"[0, 0]\",\"[1, 1]\",\"False\","
	    "\"[0, 0]\",\"1\"]") == 0);
	CHECK(strstr(p.params.s, "\"output_shape\":[1,1,3,3]") != NULL);
	CHECK(p.flops == 9 * 2 * 9);
}

static void
bad(void)
{
	/* nvidia-alexnet records no Input Dims at all. */
	check_fail("conv", "aten::convolution", "", "", "", "input");
	check_fail("conv", "aten::convolution", "[[1,2],[3,4]]", "", "",
	    "3-D, 4-D or 5-D");
	check_fail("conv", "aten::convolution", "[[1,2,3,3],[1,2,3]]", "",
	    "", "weight");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "[\"float\",\"c10::Half\"]", "", "dtypes differ");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"[1, x]\"]", "stride");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"[1, 1, 1]\"]", "stride");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"[1, 1\"]", "stride");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"[]\"]", "stride");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"[0, 0]\"]", "bad stride");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"\",\"[1, 1]x\"]", "padding");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"\",\"\",\"\",\"maybe\"]", "transposed");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"0\"]", "groups");
	check_fail("conv", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"two\"]",
	    "groups");
	check_fail("conv", "aten::convolution", DF("1,1,2,2", "1,1,5,5"),
	    "", "", "not positive");
	check_fail("conv", "aten::convolution", DF("1,-1,7,7", "1,1,3,3"),
	    "", "", "negative");
	check_fail("conv", "aten::convolution",
	    DF("1,1,7,7", "1,1,3,3"), "",
	    "[\"\",\"\",\"\",\"[99999999999999999999]\"]", "stride");
	check_fail("conv", "aten::convolution",
	    DF("4000000000,4000000000,7,7", "4000000000,4000000000,3,3"), "",
	    "", "overflow");
	check_fail("conv_bwd", "aten::convolution_backward",
	    DB("1,1,5,5", "1,1,7,7", "1,1,3,3"), "",
	    CB("1, 1", "0, 0", "True, True, Perhaps"), "output_mask");
	check_fail("conv", "aten::conv2d", DF("1,1,7,7", "1,1,3,3"), "", "",
	    "no convolution model");
	check_fail("conv_bwd", "aten::convolution", DF("1,1,7,7", "1,1,3,3"),
	    "", "", "no convolution model");
	/* A backward op has no backward pass of its own. */
	CHECK(run("conv_bwd", 1, bwd[0].name, bwd[0].dims, bwd[0].types,
	    bwd[0].ci) == -1);
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
