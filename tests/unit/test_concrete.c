/* See LICENSE file for copyright and license details. */
#include <stdint.h>

#include "model/concrete.h"
#include "unit.h"

static void
scalars(void)
{
	int64_t i = 7;
	double d = 7;
	int b = 7;

	CHECK(tl_ci_blank(""));
	CHECK(tl_ci_blank(" \t "));
	CHECK(!tl_ci_blank(" 0 "));

	/* tl_ci_truth: the words only. */
	CHECK(tl_ci_truth("True") == 1);
	CHECK(tl_ci_truth(" false\t") == 0);
	CHECK(tl_ci_truth("TRUE") == 1);
	CHECK(tl_ci_truth("1") == -1);
	CHECK(tl_ci_truth("") == -1);
	CHECK(tl_ci_truth("None") == -1);
	CHECK(tl_ci_truth("Truer") == -1);

	/* tl_ci_bool: the digits too; blank and None give the default. */
	CHECK(tl_ci_bool(" True ", 0, &b) == 0 && b == 1);
	CHECK(tl_ci_bool("0", 1, &b) == 0 && b == 0);
	CHECK(tl_ci_bool("1", 0, &b) == 0 && b == 1);
	CHECK(tl_ci_bool("", 1, &b) == 0 && b == 1);
	CHECK(tl_ci_bool("None", 0, &b) == 0 && b == 0);
	CHECK(tl_ci_bool("none", 0, &b) == -1);
	CHECK(tl_ci_bool("maybe", 0, &b) == -1);
	CHECK(tl_ci_bool("2", 0, &b) == -1);

	CHECK(tl_ci_int(" -1 ", &i) == 0 && i == -1);
	CHECK(tl_ci_int("15", &i) == 0 && i == 15);
	CHECK(tl_ci_int("5.0", &i) == 0 && i == 5);
	CHECK(tl_ci_int("9223372036854775807", &i) == 0 &&
	    i == INT64_MAX);
	CHECK(tl_ci_int("9223372036854775808", &i) == -1);
	CHECK(tl_ci_int("", &i) == -1);
	CHECK(tl_ci_int("5.5", &i) == -1);
	CHECK(tl_ci_int("1 2", &i) == -1);
	CHECK(tl_ci_int("x", &i) == -1);

	CHECK(tl_ci_double("0.1", 1, &d) == 0 && d == 0.1);
	CHECK(tl_ci_double(" 0. ", 1, &d) == 0 && d == 0);
	CHECK(tl_ci_double("1e-05", 1, &d) == 0 && d == 1e-05);
	CHECK(tl_ci_double("", 0.5, &d) == 0 && d == 0.5);
	CHECK(tl_ci_double("None", 0.25, &d) == 0 && d == 0.25);
	d = 3;
	CHECK(tl_ci_double("nan", 0, &d) == -1 && d == 3);
	CHECK(tl_ci_double("inf", 0, &d) == -1);
	CHECK(tl_ci_double("1e999", 0, &d) == -1);
	CHECK(tl_ci_double("zero", 0, &d) == -1);
	CHECK(tl_ci_double("0.1x", 0, &d) == -1);
	CHECK(tl_ci_double("1e-400", 0, &d) == -1);
	/* Longer than any float the profiler writes. */
	CHECK(tl_ci_double("0.0000000000000000000000000000000000000000000"
	    "0000000000000000000001", 0, &d) == -1);

	CHECK(tl_ci_count("2048", &i) == 0 && i == 2048);
	CHECK(tl_ci_count(" 400.0 ", &i) == 0 && i == 400);
	CHECK(tl_ci_count("0", &i) == 0 && i == 0);
	CHECK(tl_ci_count("400.5", &i) == -1);
	CHECK(tl_ci_count("-1", &i) == -1);
	CHECK(tl_ci_count("9007199254740992", &i) == -1);
	CHECK(tl_ci_count("", &i) == -1);
	CHECK(tl_ci_count("None", &i) == -1);
}

static void
lists(void)
{
	int64_t v[4] = { 0 };
	int b[3] = { 0 };

	CHECK(tl_ci_ints("[1, 2]", v, 4) == 2 && v[0] == 1 && v[1] == 2);
	CHECK(tl_ci_ints(" [ -1 , -2 ] ", v, 4) == 2 && v[0] == -1 &&
	    v[1] == -2);
	CHECK(tl_ci_ints("(2,)", v, 4) == 1 && v[0] == 2);
	CHECK(tl_ci_ints("(3, 4)", v, 4) == 2 && v[0] == 3 && v[1] == 4);
	CHECK(tl_ci_ints("[5,]", v, 4) == 1 && v[0] == 5);
	CHECK(tl_ci_ints(" 3 ", v, 4) == 1 && v[0] == 3);
	CHECK(tl_ci_ints("", v, 4) == 0);
	CHECK(tl_ci_ints("[]", v, 4) == 0);
	CHECK(tl_ci_ints("()", v, 4) == 0);
	CHECK(tl_ci_ints("[1, 2, 3, 4]", v, 4) == 4 && v[3] == 4);
	CHECK(tl_ci_ints("[1, 2, 3, 4, 5]", v, 4) == -1);
	CHECK(tl_ci_ints("7", v, 0) == -1);
	CHECK(tl_ci_ints("[", v, 4) == -1);
	CHECK(tl_ci_ints("[1, 1", v, 4) == -1);
	CHECK(tl_ci_ints("[1, 2)", v, 4) == -1);
	CHECK(tl_ci_ints("[1,,2]", v, 4) == -1);
	CHECK(tl_ci_ints("[,]", v, 4) == -1);
	CHECK(tl_ci_ints("(,)", v, 4) == -1);
	CHECK(tl_ci_ints("[1, x]", v, 4) == -1);
	CHECK(tl_ci_ints("[1 2]", v, 4) == -1);
	CHECK(tl_ci_ints("[1, 1]x", v, 4) == -1);
	CHECK(tl_ci_ints("[[1, 2]]", v, 4) == -1);
	CHECK(tl_ci_ints("1, 2", v, 4) == -1);
	CHECK(tl_ci_ints("3,", v, 4) == -1);
	CHECK(tl_ci_ints("[99999999999999999999]", v, 4) == -1);
	CHECK(tl_ci_ints("None", v, 4) == -1);

	CHECK(tl_ci_bools("[True, False, True]", b, 3) == 3 && b[0] == 1 &&
	    b[1] == 0 && b[2] == 1);
	CHECK(tl_ci_bools("[true,1, 0]", b, 3) == 3 && b[0] == 1 &&
	    b[1] == 1 && b[2] == 0);
	CHECK(tl_ci_bools("[False, True]", b, 3) == 2 && b[0] == 0 &&
	    b[1] == 1);
	CHECK(tl_ci_bools("", b, 3) == 0);
	CHECK(tl_ci_bools("[]", b, 3) == 0);
	CHECK(tl_ci_bools("[True, True, True, True]", b, 3) == -1);
	CHECK(tl_ci_bools("[True, True, Perhaps]", b, 3) == -1);
	CHECK(tl_ci_bools("[True, None]", b, 3) == -1);
	CHECK(tl_ci_bools("[True, 2]", b, 3) == -1);
	CHECK(tl_ci_bools("[True, False", b, 3) == -1);
	CHECK(tl_ci_bools("True", b, 3) == -1);
}

static void
scalar_types(void)
{
	CHECK(tl_scalar_type_bytes(0) == 1);	/* uint8 */
	CHECK(tl_scalar_type_bytes(4) == 8);	/* int64 */
	CHECK(tl_scalar_type_bytes(5) == 2);	/* half */
	CHECK(tl_scalar_type_bytes(6) == 4);	/* float */
	CHECK(tl_scalar_type_bytes(10) == 16);	/* complex double */
	CHECK(tl_scalar_type_bytes(11) == 1);	/* bool */
	CHECK(tl_scalar_type_bytes(15) == 2);	/* bfloat16 */
	CHECK(tl_scalar_type_bytes(16) == 0);	/* quint4x2 */
	CHECK(tl_scalar_type_bytes(24) == 1);	/* float8_e4m3fn */
	CHECK(tl_scalar_type_bytes(29) == 8);	/* uint64 */
	CHECK(tl_scalar_type_bytes(30) == 0);
	CHECK(tl_scalar_type_bytes(44) == 1);	/* float8_e8m0fnu */
	CHECK(tl_scalar_type_bytes(-1) == 0);
	CHECK(tl_scalar_type_bytes(99) == 0);
}

int
main(void)
{
	scalars();
	lists();
	scalar_types();
	return unit_done("test_concrete");
}
