/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: model-file formulas (lib/model/expr.h).  The first line of
 * the input is the formula; up to four more lines, when present, are the
 * op's input_dims, input_types, input_strides and concrete_inputs, else
 * (or when they do not parse) a fixed convolution-like op is used.
 * Checked besides the sanitizers: eval and the syntax check agree on
 * what is a syntax error, and an error message is always set and fits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/expr.h"
#include "model/opargs.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, \
    "fuzz_expr: check failed: %s (line %d)\n", #c, __LINE__); \
    abort(); } } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct tl_opargs fixed, op;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *e;

	(void)argc;
	(void)argv;
	tl_setprogname("fuzz_expr");
	tl_opargs_init(&fixed);
	tl_opargs_init(&op);
	if (tl_opargs_parse(&fixed, "aten::conv_like",
	    "[[8,3,224,224],[64,3,7,7],[],[],[[2,3],[4]]]",
	    "[\"c10::BFloat16\",\"float\",\"\",\"Scalar\",\"TensorList\"]",
	    "[[150528,50176,224,1],[147,49,7,1],[],[],[]]",
	    "[\"\",\"\",\"[2, 2]\",\"True\",\"\"]", &e) < 0)
		tl_die("fixed op: %s", e);
	return 0;
}

/* Split s at newlines into at most n strings; the count. */
static int
lines(char *s, char **v, int n)
{
	int k = 0;
	char *nl;

	while (k < n) {
		v[k++] = s;
		if ((nl = strchr(s, '\n')) == NULL)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return k;
}

static void
eval(const char *expr, const struct tl_opargs *o)
{
	char err[128], small[8];
	int64_t v;
	int rc, syn;

	err[0] = '\0';
	rc = tl_expr_eval(expr, o, &v, err, sizeof(err));
	CHECK(rc == 0 || rc == -1);
	CHECK(rc == 0 || (err[0] != '\0' && memchr(err, '\0', sizeof(err))));
	syn = tl_expr_check(expr, err, sizeof(err));
	CHECK(syn == 0 || syn == -1);
	if (rc == 0)
		CHECK(syn == 0);
	memset(small, 'x', sizeof(small));
	if (tl_expr_eval(expr, o, &v, small, sizeof(small)) < 0)
		CHECK(memchr(small, '\0', sizeof(small)) != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *v[5];
	const char *e;
	int n;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	n = lines(buf, v, 5);
	eval(v[0], &fixed);
	if (n > 1 && tl_opargs_parse(&op, "aten::fuzz", v[1],
	    n > 2 ? v[2] : NULL, n > 3 ? v[3] : NULL, n > 4 ? v[4] : NULL,
	    &e) == 0)
		eval(v[0], &op);
	free(buf);
	return 0;
}
