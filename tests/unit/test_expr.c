/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <string.h>

#include "model/expr.h"
#include "model/opargs.h"
#include "unit.h"

static struct tl_opargs o;

static int64_t
ev(const char *s)
{
	int64_t v = -999;
	char err[128];

	if (tl_expr_eval(s, &o, &v, err, sizeof(err)) < 0)
		return -999;
	return v;
}

static const char *
err_of(const char *s)
{
	static char err[128];
	int64_t v;

	err[0] = '\0';
	tl_expr_eval(s, &o, &v, err, sizeof(err));
	return err;
}

int
main(void)
{
	const char *e;
	char err[128];

	tl_opargs_init(&o);
	CHECK(tl_opargs_parse(&o, "aten::conv_like",
	    "[[8,3,224,224],[64,3,7,7],[],[]]",
	    "[\"c10::BFloat16\",\"float\",\"\",\"Scalar\"]", NULL,
	    "[\"\",\"\",\"[2, 2]\",\"True\"]", &e) == 0);
	/* Arithmetic, precedence, conditionals. */
	CHECK(ev("1 + 2 * 3") == 7);
	CHECK(ev("(1 + 2) * 3") == 9);
	CHECK(ev("7 / 2") == 3);
	CHECK(ev("-7 % 3") == -1);
	CHECK(ev("2 < 3 && 3 <= 3 && !(1 == 2)") == 1);
	CHECK(ev("0 || 0") == 0);
	CHECK(ev("1 ? 10 : 20") == 10);
	CHECK(ev("0 ? 10 : 1 ? 30 : 40") == 30);
	CHECK(ev("min(4, 9) + max(4, 9)") == 13);
	/* Only the operand needed is evaluated, as in C. */
	CHECK(ev("has(2) ? numel(2) : 5") == 5);
	CHECK(ev("has(0) ? 1 : numel(2)") == 1);
	CHECK(ev("has(2) && numel(2) > 0") == 0);
	CHECK(ev("has(0) || 1 / 0") == 1);
	CHECK(ev("0 ? 1 / 0 : (1 ? 2 : 3 / 0)") == 2);
	CHECK(ev("0 ? nosuch(1) : 1") == -999);	/* syntax still checked */
	/* Functions of the arguments. */
	CHECK(ev("numel(0)") == 8LL * 3 * 224 * 224);
	CHECK(ev("dim(0, 1)") == 3);
	CHECK(ev("dim(1, -1)") == 7);
	CHECK(ev("ndim(1)") == 4);
	CHECK(ev("bpe(0) + bpe(1)") == 2 + 4);
	CHECK(ev("has(0) + has(2) + has(3)") == 1);
	CHECK(ev("ci(2, 1) + ci(3)") == 2 + 1);
	CHECK(ev("2 * numel(0) * bpe(0)") == 2LL * 8 * 3 * 224 * 224 * 2);
	/* Errors: never a wrong number. */
	CHECK(ev("9223372036854775807 + 1") == -999);
	CHECK(ev("3000000000 * 3000000000 * 3") == -999);
	CHECK(ev("1 / 0") == -999);
	CHECK(ev("dim(0, 4)") == -999);
	CHECK(ev("numel(2)") == -999);		/* absent */
	CHECK(ev("bpe(7)") == -999);		/* no such slot */
	CHECK(ev("ci(0)") == -999);		/* empty concrete input */
	CHECK(ev("nosuch(1)") == -999);
	CHECK(ev("1 +") == -999);
	CHECK(ev("(1") == -999);
	CHECK(ev("1 2") == -999);
	CHECK_STR(err_of("1 / 0"), "at column 6: division by zero or overflow");
	CHECK_STR(err_of("foo(0)"), "at column 7: unknown function");
	/* Syntax check without an op. */
	CHECK(tl_expr_check("2*numel(0)*bpe(0) + (has(2) ? numel(2) : 0)",
	    err, sizeof(err)) == 0);
	CHECK(tl_expr_check("2*", err, sizeof(err)) < 0);
	/* Values are not checked: the division is not done (fuzz_expr). */
	CHECK(tl_expr_check("9223372036854775807 + 2 / 3", err,
	    sizeof(err)) == 0);
	CHECK(ev("9223372036854775807 + 2 / 3") == INT64_MAX);
	CHECK(tl_expr_check("numel(0, 1, 2)", err, sizeof(err)) < 0);
	tl_opargs_free(&o);
	/*
	 * Nesting the input controls: 80 parentheses evaluate, 50 000 (or
	 * as many unary minus signs or '?:' branches) end in an error, not
	 * in a stack overflow (issue 34).
	 */
	{
		static char deep[300001];
		size_t i, k = 0;

		for (i = 0; i < 80; i++)
			deep[k++] = '(';
		deep[k++] = '7';
		for (i = 0; i < 80; i++)
			deep[k++] = ')';
		deep[k] = '\0';
		CHECK(ev(deep) == 7);
		k = 0;
		for (i = 0; i < 50000; i++)
			deep[k++] = '(';
		deep[k++] = '1';
		for (i = 0; i < 50000; i++)
			deep[k++] = ')';
		deep[k] = '\0';
		CHECK(ev(deep) == -999);
		CHECK(strstr(err_of(deep), "nested too deep") != NULL);
		CHECK(tl_expr_check(deep, err, sizeof(err)) < 0);
		for (i = 0; i < 100000; i++)
			deep[i] = i % 2 ? '!' : '-';
		strcpy(deep + 100000, "1");
		CHECK(strstr(err_of(deep), "nested too deep") != NULL);
		for (k = 0, i = 0; i < 40000; i++) {
			memcpy(deep + k, "1?", 2);
			k += 2;
		}
		strcpy(deep + k, "1");
		for (i = 0; i < 40000; i++)
			memcpy(deep + k + 1 + 2 * i, ":1", 3);
		CHECK(strstr(err_of(deep), "nested too deep") != NULL);
		for (i = 0, k = 0; i < 30000; i++) {
			memcpy(deep + k, "min(1,", 6);
			k += 6;
		}
		deep[k++] = '1';
		for (i = 0; i < 30000; i++)
			deep[k++] = ')';
		deep[k] = '\0';
		CHECK(strstr(err_of(deep), "nested too deep") != NULL);
	}
	return unit_done("test_expr");
}
