/* See LICENSE file for copyright and license details. */
/*
 * The softmax model.  TraceLens has none and the reference traces have no
 * softmax op, so the vectors are calls as the profiler records them
 * (attention scores of bert-small, Qwen's float32 softmax of bf16 scores)
 * with the counts worked out by hand from the formulas in
 * lib/model_softmax.c: 5 flops per element forward, 4 backward, bytes =
 * every tensor read or written once in its own dtype.  Vectors are
 * written with ' for " to read as the trace does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opargs.h"
#include "perfmodel.h"
#include "unit.h"

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

static struct tl_opargs o;
static struct tl_perf p;

/* A copy of s with ' for ". */
static char *
dq(const char *s)
{
	char *t = malloc(strlen(s) + 1), *q;

	if (t == NULL)
		abort();
	for (q = t; *s != '\0'; s++)
		*q++ = *s == '\'' ? '"' : *s;
	*q = '\0';
	return t;
}

/* Parse the op's arguments and run family on it; tl_perf_run's result. */
static int
run(const char *name, const char *family, int bwd, const char *dims,
    const char *types, const char *ci)
{
	char *d = dq(dims), *t = dq(types), *c = dq(ci);
	const char *err = NULL;
	int rc = -2;

	if (tl_opargs_parse(&o, name, d, t, NULL, c, &err) == 0)
		rc = tl_perf_run(&o, family, bwd, &p);
	else
		printf("parse %s: %s\n", name, err);
	free(d);
	free(t);
	free(c);
	return rc;
}

/* tl's exact counts; bytes -1 = unknown. */
static void
exact(const char *name, const char *family, int bwd, const char *dims,
    const char *types, const char *ci, int64_t flops, int64_t bytes)
{
	int rc = run(name, family, bwd, dims, types, ci);
	int ok = rc == 0 && p.has_flops && p.flops == flops &&
	    (bytes < 0 ? !p.has_bytes : p.has_bytes && p.bytes == bytes);

	CHECK(ok);
	if (!ok)
		printf("  %s %s: rc %d \"%s\": %lld flops, %lld bytes\n",
		    name, dims, rc, p.err, (long long)p.flops,
		    (long long)p.bytes);
}

/* The model fails with a message that contains part. */
static void
fails(const char *name, const char *family, int bwd, const char *dims,
    const char *types, const char *ci, const char *part)
{
	int rc = run(name, family, bwd, dims, types, ci);

	CHECK(rc == -1 && !p.has_flops && !p.has_bytes &&
	    strstr(p.err, part) != NULL);
	if (rc != -1 || strstr(p.err, part) == NULL)
		printf("  %s %s: rc %d \"%s\", wanted \"%s\"\n", name, dims,
		    rc, p.err, part);
}

static void
forward(void)
{
	/* softmax.int(self, dim, dtype=None), bf16 in and out. */
	exact("aten::softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','-1','']", 5 * NB, NB * (2 + 2));
	CHECK_STR(p.params.s, "{\"op_shape\":[1,8,141,141],\"dim\":3}");
	CHECK_STR(p.precision != NULL ? p.precision : "", "bf16");
	CHECK_STR(p.maf != NULL ? p.maf : "", "vector");
	/* _softmax(self, dim, half_to_float=False). */
	exact("aten::_softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','False']", 5 * NB, NB * 4);
	/* half_to_float: fp16 in, float out. */
	exact("aten::_softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" H "," S "," S "]", "['','3','True']", 5 * NB, NB * (2 + 4));
	CHECK_STR(p.precision != NULL ? p.precision : "", "fp16");
	/* Qwen: softmax(scores, dim=-1, dtype=torch.float32), "6". */
	exact("aten::softmax", "softmax", 0, "[" QWEN ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','6']", 5 * NQ, NQ * (2 + 4));
	/* log_softmax and _safe_softmax count the same. */
	exact("aten::log_softmax", "softmax", 0, "[[64,50257],[],[]]",
	    "[" F "," S ",'']", "['','1','']", 5 * 64 * 50257LL,
	    64 * 50257LL * 8);
	CHECK_STR(p.params.s, "{\"op_shape\":[64,50257],\"dim\":1}");
	exact("aten::_log_softmax", "softmax", 0, "[[64,50257],[],[]]",
	    "[" B "," S "," S "]", "['','-1','True']", 5 * 64 * 50257LL,
	    64 * 50257LL * 6);
	exact("aten::_safe_softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','-1','']", 5 * NB, NB * 4);
	/* _softmax.out: the out tensor's dtype. */
	exact("aten::_softmax", "softmax", 0, "[" BERT ",[],[]," BERT "]",
	    "[" B "," S "," S "," F "]", "['','-1','True','']", 5 * NB,
	    NB * 6);
	/* A 0-d input: dim 0 or -1. */
	exact("aten::softmax", "softmax", 0, "[[],[],[]]",
	    "[" F "," S ",'']", "['','-1','']", 5, 8);
	CHECK_STR(p.params.s, "{\"op_shape\":[],\"dim\":0}");
	/* Nothing concrete recorded: the dim is left out. */
	exact("aten::_softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "", 5 * NB, NB * 4);
	CHECK_STR(p.params.s, "{\"op_shape\":[1,8,141,141]}");
	/* Unknown dtypes: flops only. */
	exact("aten::_softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "['c10::Weird'," S "," S "]", "['','-1','False']", 5 * NB, -1);
	exact("aten::softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','99']", 5 * NB, -1);
	/* Backward from the forward call: read g and y, write dx. */
	exact("aten::_softmax", "softmax", 1, "[" BERT ",[],[]]",
	    "[" H "," S "," S "]", "['','-1','True']", 4 * NB,
	    NB * (4 + 4 + 2));
}

static void
backward(void)
{
	/* _softmax_backward_data(grad_output, output, dim, input_dtype). */
	exact("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT "," BERT ",[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','15']", 4 * NB, NB * (2 + 2 + 2));
	CHECK_STR(p.params.s, "{\"op_shape\":[1,8,141,141],\"dim\":3}");
	/* After half_to_float: float gradients, a Half input ("5"). */
	exact("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT "," BERT ",[],[]]", "[" F "," F "," S "," S "]",
	    "['','','3','5']", 4 * NB, NB * (4 + 4 + 2));
	exact("aten::_log_softmax_backward_data", "softmax_bwd", 0,
	    "[[64,50257],[64,50257],[],[]]", "[" F "," F "," S "," S "]",
	    "['','','1','6']", 4 * 64 * 50257LL, 64 * 50257LL * 12);
	/* Older PyTorch passed the input tensor itself. */
	exact("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT "," BERT ",[]," BERT "]", "[" F "," F "," S "," H "]",
	    "['','','-1','']", 4 * NB, NB * (4 + 4 + 2));
	/* input_dtype not recorded: grad_output's. */
	exact("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT "," BERT ",[],[]]", "[" F "," F "," S "," S "]", "",
	    4 * NB, NB * 12);
	/* The .out form writes grad_input in its own dtype. */
	exact("aten::_softmax_backward_data", "softmax_bwd", 0,
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
			for (bwd = 0; bwd < 2; bwd++) {
				int rc = run("aten::odd", fam[i], bwd,
				    odd[j].dims, odd[j].types, odd[j].ci);

				CHECK(rc == 0 ||
				    (rc == -1 && p.err[0] != '\0'));
			}
	fails("aten::softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','last','']", "dim (argument 1)");
	fails("aten::softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','4','']", "dim 4 is out of range");
	fails("aten::softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S ",'']", "['','-5','']", "out of range");
	fails("aten::_softmax", "softmax", 0, "[" BERT ",[],[]]",
	    "[" B "," S "," S "]", "['','-1','Maybe']",
	    "neither half_to_float nor a dtype");
	fails("aten::_softmax", "softmax", 0, "[[],[],[]]",
	    "[" S "," S "," S "]", "['2','-1','False']", "not a tensor");
	fails("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT "," BERT ",[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','bf16']", "input_dtype (argument 3)");
	fails("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT ",[1,8,141],[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','15']", "grad_output has 159048 elements");
	fails("aten::_softmax_backward_data", "softmax_bwd", 0,
	    "[" BERT "]", "[" B "]", "['']", "argument 1 (output)");
	fails("aten::_softmax_backward_data", "softmax_bwd", 1,
	    "[" BERT "," BERT ",[],[]]", "[" B "," B "," S "," S "]",
	    "['','','-1','15']", "no backward model");
	fails("aten::softmax", "softmax", 0,
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
