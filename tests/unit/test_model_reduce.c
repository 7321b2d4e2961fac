/* See LICENSE file for copyright and license details. */
/*
 * The reduce model against TraceLens' own numbers: every row of
 * Reduce_fwd.csv and Reduce_bwd.csv of the mi300-normalization-layers,
 * mi300-resnet-act-checkpoint and mi300-qwen1.5-0.5b references (GFLOPS =
 * flops/1e9, Data Moved (MB) = bytes/2^20; UID in the comments).  Rows
 * that reduce everything agree; the others show the output-size deviation
 * with TraceLens' value in a comment.  Then other ops and bad input.
 * Vectors are written with ' for " to read as the CSVs do (model.h).
 */
#include "model.h"

#define F	"'float'"
#define B	"'c10::BFloat16'"
/* sum.dim_IntList / mean.dim (self, dim, keepdim, dtype). */
#define DIM_T(t)	"[" t ",'ScalarList','Scalar','']"
#define DIM_CI(d, k)	"['','" d "','" k "','']"
/* Ops run forward and backward, or as two ops: dims, types, concrete. */
#define MEAN7	"[[10,512,7,7],[],[],[]]", DIM_T(B), DIM_CI("[-1, -2]", "True")
#define CUMSUM	"[[4,8],[],[]]", "[" B ",'Scalar','']", "['','-1','']"
#define AMAX	"[[4,8],[],[]]", "[" F ",'ScalarList','Scalar']", \
		"['','[0]','False']"
/* std.correction(self, dim, correction, keepdim), and var. */
#define STD	"[[4,8],[],[],[]]", "[" F ",'ScalarList','Scalar','Scalar']", \
		"['','[1]','1','True']"

/* The parameters: n elements reduced to m by type. */
static void
reduces(int64_t n, int64_t m, const char *type)
{
	char want[160];

	snprintf(want, sizeof(want), "{\"num_input_elems\":%lld,"
	    "\"num_output_elems\":%lld,\"reduce_type\":\"%s\"}",
	    (long long)n, (long long)m, type);
	CHECK_STR(p.params.s, want);
}

static void
tracelens(void)
{
	/* mi300-normalization-layers UID 988: mean.out over dim []. */
	agrees("reduce", 0, "aten::mean", "[[8,16,32,32],[],[],[],[]]",
	    "[" F ",'ScalarList','Scalar',''," F "]", "['','[]','False','','']",
	    0.000131072, 0.5000038146972656);
	reduces(131072, 1, "mean");
	described(NULL, "vector", "fp32");
	/* mi300-resnet-act-checkpoint UID 6408, the same in bf16. */
	agrees("reduce", 0, "aten::mean", "[[10,1000],[],[],[],[]]",
	    "[" B ",'ScalarList','Scalar',''," B "]", "['','[]','False','','']",
	    1e-05, 0.019075393676757812);
	CHECK_STR(str(p.precision), "bf16");

	/*
	 * Output size.  mi300-normalization-layers UID 103, sum of (8,16)
	 * over dim 0: 16 outputs.  TraceLens: 1.28e-07 GFLOPS,
	 * 0.000492095947265625 MB (128*4 + 1*4 = 516 B).  tl: 128*4 + 16*4.
	 */
	exact("reduce", 0, "aten::sum", "[[8,16],[],[],[]]", DIM_T(F),
	    DIM_CI("[0]", "False"), 128, 128 * 4 + 16 * 4);
	reduces(128, 16, "sum");
	/*
	 * mi300-resnet-act-checkpoint UID 26, sum of (10,1000) over dim 0,
	 * keepdim: (1,1000).  TraceLens: 1e-05 GFLOPS, 0.019075393676757812
	 * MB (20002 B).  tl: 10000*2 + 1000*2 = 22000.
	 */
	exact("reduce", 0, "aten::sum", "[[10,1000],[],[],[]]", DIM_T(B),
	    DIM_CI("[0]", "True"), 10000, 22000);
	/*
	 * UID 6390, mean of (10,512,7,7) over [-1, -2], keepdim: 5120.
	 * TraceLens: 0.00025088 GFLOPS, 0.4785175323486328 MB (501762 B),
	 * forward and (Reduce_bwd.csv) backward.  tl: 250880*2 + 5120*2.
	 */
	exact("reduce", 0, "aten::mean", MEAN7, 250880, 512000);
	exact("reduce", 1, "aten::mean", MEAN7, 250880, 512000);
	/*
	 * mi300-qwen1.5-0.5b UID 75 (h100 the same), the RMS norm mean of
	 * (16,559,1024) over -1: 8944 outputs.  TraceLens: 0.009158656
	 * GFLOPS, 34.937503814697266 MB (36634628 B).  tl: 9158656*4 +
	 * 8944*4 = 36670400.
	 */
	exact("reduce", 0, "aten::mean", "[[16,559,1024],[],[],[]]", DIM_T(F),
	    DIM_CI("[-1]", "True"), 9158656, 36670400);
}

static void
cases(void)
{
	/* sum(self, dtype): everything. */
	exact("reduce", 0, "aten::sum", "[[4,8],[]]", "[" F ",'']", "['','']",
	    32, 32 * 4 + 4);
	/* dim=None reduces everything too; keepdim does not change O. */
	exact("reduce", 0, "aten::sum", "[[4,8],[],[],[]]",
	    "[" F ",'','Scalar','']", "['','','True','']", 32, 32 * 4 + 4);
	exact("reduce", 0, "aten::sum", "[[4,8],[],[],[]]", DIM_T(F),
	    DIM_CI("[1]", "False"), 32, 32 * 4 + 4 * 4);
	/* A dtype argument: bf16 summed into float ("6"). */
	exact("reduce", 0, "aten::sum", "[[4,8],[],[],[]]",
	    "[" B ",'ScalarList','Scalar','Scalar']", "['','[1]','False','6']",
	    32, 32 * 2 + 4 * 4);
	/* An integer sum gives int64; so does cumsum. */
	exact("reduce", 0, "aten::sum", "[[4,8],[],[],[]]",
	    "['int','ScalarList','Scalar','']", DIM_CI("[-1]", "False"), 32,
	    32 * 4 + 4 * 8);
	CHECK_STR(str(p.precision), "int32");
	exact("reduce", 0, "aten::cumsum", "[[4,8],[],[]]",
	    "['bool','Scalar','']", "['','1','']", 32, 32 * 1 + 32 * 8);
	/* cumsum keeps the size; cumprod's backward reads x and y too. */
	exact("reduce", 0, "aten::cumsum", CUMSUM, 32, 32 * 2 * 2);
	exact("reduce", 1, "aten::cumsum", CUMSUM, 32, 32 * 2 * 2);
	exact("reduce", 1, "aten::cumprod", "[[4,8],[],[]]",
	    "[" B ",'Scalar','']", "['','0','']", 32, 32 * 2 * 4);
	/* max.dim: values and int64 indices; max(self): one value. */
	exact("reduce", 0, "aten::max", "[[4,8],[],[]]",
	    "[" B ",'Scalar','Scalar']", "['','1','False']", 32,
	    32 * 2 + 4 * 2 + 4 * 8);
	reduces(32, 4, "max");
	exact("reduce", 1, "aten::min", "[[4,8],[],[]]",
	    "[" B ",'Scalar','Scalar']", "['','1','True']", 32,
	    4 * 2 + 32 * 2 + 4 * 8);
	exact("reduce", 0, "aten::max", "[[4,8]]", "[" B "]", "['']", 32,
	    32 * 2 + 2);
	exact("reduce", 1, "aten::max", "[[4,8]]", "[" B "]", "['']", 32,
	    2 * (32 * 2 + 2));
	/* amax: the backward reads grad, x and y. */
	exact("reduce", 0, "aten::amax", AMAX, 32, 32 * 4 + 8 * 4);
	exact("reduce", 1, "aten::amax", AMAX, 32, 2 * (32 * 4 + 8 * 4));
	/* norm.Scalar(self, p) and norm.ScalarOpt_dim(self, p, dim, k). */
	exact("reduce", 0, "aten::norm", "[[4,8],[]]", "[" F ",'Scalar']",
	    "['','2']", 32, 32 * 4 + 4);
	exact("reduce", 0, "aten::norm", "[[4,8],[],[],[]]",
	    "[" F ",'Scalar','ScalarList','Scalar']", "['','2','[1]','False']",
	    32, 32 * 4 + 4 * 4);
	reduces(32, 4, "norm");
	exact("reduce", 0, "aten::linalg_vector_norm", "[[4,8],[],[],[],[]]",
	    "[" B ",'Scalar','ScalarList','Scalar','']",
	    "['','2','[0, 1]','False','']", 32, 32 * 2 + 2);
	/* std.correction(self, dim, correction, keepdim); var's backward. */
	exact("reduce", 0, "aten::std", STD, 32, 32 * 4 + 4 * 4);
	reduces(32, 4, "sum");
	exact("reduce", 1, "aten::var", STD, 32, 4 * 4 + 2 * 32 * 4);
	exact("reduce", 0, "aten::var", "[[4,8],[]]", "[" F ",'Scalar']",
	    "['','True']", 32, 32 * 4 + 4);
	/* logsumexp of an integer input is float. */
	exact("reduce", 0, "aten::logsumexp", "[[4,8],[],[]]",
	    "['long int','ScalarList','Scalar']", "['','[1]','False']", 32,
	    32 * 8 + 4 * 4);
	/* A 0-d input. */
	exact("reduce", 0, "aten::sum", "[[],[],[],[]]", DIM_T(F),
	    DIM_CI("[-1]", "False"), 1, 8);
	/* The dim not recorded: flops only. */
	exact("reduce", 0, "aten::mean", "[[4,8],[],[],[]]", DIM_T(F), "", 32,
	    -1);
	CHECK_STR(p.params.s, "{\"num_input_elems\":32,"
	    "\"reduce_type\":\"mean\"}");
	/* An unknown dtype: flops only. */
	exact("reduce", 0, "aten::sum", "[[4,8],[],[],[]]",
	    DIM_T("'c10::Weird'"), DIM_CI("[0]", "False"), 32, -1);
	/* Another op mapped here: dim list in slot 1. */
	exact("reduce", 0, "aten::prod", "[[4,8],[],[],[]]",
	    "[" F ",'Scalar','Scalar','']", "['','0','False','']", 32,
	    32 * 4 + 8 * 4);
	exact("reduce", 0, "aten::all", "[[1,141]]", "['bool']", "['']", 141,
	    142);
}

static void
bad(void)
{
	static const struct {
		const char *name, *dims, *types, *ci;
	} odd[] = {
		{ "aten::sum", "", "", "" },
		{ "aten::sum", "[]", "[]", "[]" },
		{ "aten::mean", "[[]]", "['']", "['']" },
		{ "aten::max", "[[8],[8]]", "['float','float']", "['','']" },
		{ "aten::cumsum", "[[8],[]]", "['float','Scalar']",
		    "['','[']" },
		{ "aten::amax", "[[8],[]]", "['float','ScalarList']",
		    "['','[1,,2]']" },
		{ "aten::norm", "[[8],[],[],[]]", "['float','','','']",
		    "['','','[0]','x']" },
		{ "aten::std", "[[[1],[2]],[]]", "['TensorList','']",
		    "['','']" },
		{ "aten::sum", "[[8,8,8,8,8,8,8,8],[]]", "['float','']",
		    "['','[0,1,2,3,4,5,6,7,8]']" },
		{ "aten::mean", "[[4611686018427387904,4]]", "['float']",
		    "['']" },
		{ NULL, "[[4,8],[]]", "['float','ScalarList']",
		    "['','[0]']" },
	};
	size_t i;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		int bwd;

		for (bwd = 0; bwd < 2; bwd++)
			survives("reduce", bwd, odd[i].name, odd[i].dims,
			    odd[i].types, odd[i].ci);
	}
	fails("reduce", 0, "aten::max", "[[4,8],[4,8]]", "[" F "," F "]",
	    "['','']", "elementwise");
	fails("reduce", 0, "aten::sum", "[[4,8],[],[],[]]", DIM_T(F),
	    DIM_CI("[0, x]", "False"), "dim (argument 1) is \"[0, x]\"");
	fails("reduce", 0, "aten::sum", "[[4,8],[],[],[]]", DIM_T(F),
	    DIM_CI("[2]", "False"), "dim 2 is out of range");
	fails("reduce", 0, "aten::sum", "[[4,8],[],[],[]]", DIM_T(F),
	    DIM_CI("[-3]", "False"), "out of range");
	fails("reduce", 0, "aten::cumsum", "[[4,8],[],[]]",
	    "[" F ",'Scalar','']", "['','5','']", "out of range");
	fails("reduce", 0, "aten::sum", "[[4,8],[],[],[]]",
	    "[" F ",'ScalarList','Scalar','Scalar']", "['','[0]','False','f']",
	    "dtype (argument 3)");
	fails("reduce", 0, "aten::sum", "[[],[],[],[]]", "['Scalar','','','']",
	    "['2','','','']", "not a tensor");
	fails("reduce", 0, "aten::mean", "[[4611686018427387904,4]]",
	    "['float']", "['']", "too large");
	fails("reduce", 0, "aten::sum", "[[4611686018427387904,1],[],[],[]]",
	    DIM_T(F), DIM_CI("[1]", "False"), "overflows");
}

int
main(void)
{
	tl_opargs_init(&o);
	tracelens();
	cases();
	bad();
	tl_opargs_free(&o);
	tl_perf_free(&p);
	return unit_done("test_model_reduce");
}
