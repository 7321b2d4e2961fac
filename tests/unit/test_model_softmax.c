/* See LICENSE file for copyright and license details. */
/*
 * The softmax model.  TraceLens has none and the reference traces have no
 * softmax op, so the vectors are calls as the profiler records them
 * (attention scores of bert-small, Qwen's float32 softmax of bf16 scores)
 * with the counts worked out by hand from the formulas in
 * lib/model/model_softmax.c: 5 flops per element forward, 4 backward, bytes =
 * every tensor read or written once in its own dtype.  Vectors are
 * written with ' for " to read as the trace does (model.h).
 */
#include "model.h"

#define F	"'float'"
#define B	"'c10::BFloat16'"
#define H	"'c10::Half'"
#define S	"'Scalar'"

/* bert-small attention scores (1,8,141,141): N = 159048. */
#define BERT	"[1,8,141,141]"
#define NB	159048LL
/* Qwen1.5-0.5B scores (16,16,559,559): N = 79995136. */
#define QWEN	"[16,16,559,559]"
#define NQ	79995136LL

static void
forward(void)
{
	/* softmax.int(self, dim, dtype=None), bf16 in and out. */
	exact("softmax", 0, "aten::softmax", "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','-1','']", 5 * NB, NB * (2 + 2));
	described("{\"op_shape\":[1,8,141,141],\"dim\":3}", "vector",
	    "bf16");
	/* _softmax(self, dim, half_to_float=False). */
	exact("softmax", 0, "aten::_softmax", "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','False']", 5 * NB, NB * 4);
	/* half_to_float: fp16 in, float out. */
	exact("softmax", 0, "aten::_softmax", "[" BERT ",[],[]]",
	    "[" H "," S "," S "]", "['','3','True']", 5 * NB, NB * (2 + 4));
	CHECK_STR(str(p.precision), "fp16");
	/* Qwen: softmax(scores, dim=-1, dtype=torch.float32), "6". */
	exact("softmax", 0, "aten::softmax", "[" QWEN ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','6']", 5 * NQ, NQ * (2 + 4));
	/* log_softmax and _safe_softmax count the same. */
	exact("softmax", 0, "aten::log_softmax", "[[64,50257],[],[]]",
	    "[" F "," S ",'']", "['','1','']", 5 * 64 * 50257LL,
	    64 * 50257LL * 8);
	CHECK_STR(p.params.s, "{\"op_shape\":[64,50257],\"dim\":1}");
	exact("softmax", 0, "aten::_log_softmax", "[[64,50257],[],[]]",
	    "[" B "," S "," S "]", "['','-1','True']", 5 * 64 * 50257LL,
	    64 * 50257LL * 6);
	exact("softmax", 0, "aten::_safe_softmax", "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','-1','']", 5 * NB, NB * 4);
	/* _softmax.out: the out tensor's dtype. */
	exact("softmax", 0, "aten::_softmax", "[" BERT ",[],[]," BERT "]",
	    "[" B "," S "," S "," F "]", "['','-1','True','']", 5 * NB,
	    NB * 6);
	/* A 0-d input: dim 0 or -1. */
	exact("softmax", 0, "aten::softmax", "[[],[],[]]",
	    "[" F "," S ",'']", "['','-1','']", 5, 8);
	CHECK_STR(p.params.s, "{\"op_shape\":[],\"dim\":0}");
	/* Nothing concrete recorded: the dim is left out. */
	exact("softmax", 0, "aten::_softmax", "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "", 5 * NB, NB * 4);
	CHECK_STR(p.params.s, "{\"op_shape\":[1,8,141,141]}");
	/* Unknown dtypes: flops only. */
	exact("softmax", 0, "aten::_softmax", "[" BERT ",[],[]]",
	    "['c10::Weird'," S "," S "]", "['','-1','False']", 5 * NB, -1);
	exact("softmax", 0, "aten::softmax", "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','99']", 5 * NB, -1);
	/* Backward from the forward call: read g and y, write dx. */
	exact("softmax", 1, "aten::_softmax", "[" BERT ",[],[]]",
	    "[" H "," S "," S "]", "['','-1','True']", 4 * NB,
	    NB * (4 + 4 + 2));
}

static void
backward(void)
{
	/* _softmax_backward_data(grad_output, output, dim, input_dtype). */
	exact("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','15']", 4 * NB, NB * (2 + 2 + 2));
	CHECK_STR(p.params.s, "{\"op_shape\":[1,8,141,141],\"dim\":3}");
	/* After half_to_float: float gradients, a Half input ("5"). */
	exact("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[],[]]", "[" F "," F "," S "," S "]",
	    "['','','3','5']", 4 * NB, NB * (4 + 4 + 2));
	exact("softmax_bwd", 0, "aten::_log_softmax_backward_data",
	    "[[64,50257],[64,50257],[],[]]", "[" F "," F "," S "," S "]",
	    "['','','1','6']", 4 * 64 * 50257LL, 64 * 50257LL * 12);
	/* Older PyTorch passed the input tensor itself. */
	exact("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[]," BERT "]", "[" F "," F "," S "," H "]",
	    "['','','-1','']", 4 * NB, NB * (4 + 4 + 2));
	/* input_dtype not recorded: grad_output's. */
	exact("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[],[]]", "[" F "," F "," S "," S "]", "",
	    4 * NB, NB * 12);
	/* The .out form writes grad_input in its own dtype. */
	exact("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[],[]," BERT "]",
	    "[" F "," F "," S "," S "," B "]", "['','','-1','6','']",
	    4 * NB, NB * (4 + 4 + 2));
}

static void
bad(void)
{
	static const char *const fam[] = { "softmax", "softmax_bwd" };
	static const struct {
		const char *dims, *types, *ci;
	} odd[] = {
		{ "", "", "" },
		{ "[]", "[]", "[]" },
		{ "[[]]", "['']", "['']" },
		{ "[[8],[8],[],[]]", "['float','float','Scalar','Scalar']",
		    "['','','x','y']" },
		{ "[[8],[8],[],[]]", "['float','float','Scalar','Scalar']",
		    "['','','9223372036854775807','-9223372036854775808']" },
		{ "[[[1],[2]],[8],[],[]]", "['TensorList','float','','']",
		    "['','','','']" },
		{ "[[4611686018427387904,4],[4611686018427387904,4]]",
		    "['float','float']", "['','']" },
		{ "[[4611686018427387904,1],[4611686018427387904,1],[],[]]",
		    "['float','float','Scalar','Scalar']",
		    "['','','0','6']" },
	};
	size_t i, j;
	int bwd;

	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		for (j = 0; j < sizeof(odd) / sizeof(odd[0]); j++)
			for (bwd = 0; bwd < 2; bwd++)
				survives(fam[i], bwd, "aten::odd",
				    odd[j].dims, odd[j].types, odd[j].ci);
	fails("softmax", 0, "aten::softmax", "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','last','']", "dim (argument 1)");
	fails("softmax", 0, "aten::softmax", "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','4','']", "dim 4 is out of range");
	fails("softmax", 0, "aten::softmax", "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','-5','']", "out of range");
	fails("softmax", 0, "aten::_softmax", "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','Maybe']",
	    "neither half_to_float nor a dtype");
	fails("softmax", 0, "aten::_softmax", "[[],[],[]]",
	    "[" S "," S "," S "]", "['2','-1','False']", "not a tensor");
	fails("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','bf16']", "input_dtype (argument 3)");
	fails("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT ",[1,8,141],[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','15']", "grad_output has 159048 elements");
	fails("softmax_bwd", 0, "aten::_softmax_backward_data",
	    "[" BERT "]", "[" B "]", "['']", "argument 1 (output)");
	fails("softmax_bwd", 1, "aten::_softmax_backward_data",
	    "[" BERT "," BERT ",[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','15']", "no backward model");
	fails("softmax", 0, "aten::softmax",
	    "[[4611686018427387904,1],[],[]]", "[" F "," S ",'']",
	    "['','0','']", "overflows");
}

int
main(void)
{
	tl_opargs_init(&o);
	forward();
	backward();
	bad();
	tl_opargs_free(&o);
	tl_perf_free(&p);
	return unit_done("test_model_softmax");
}
