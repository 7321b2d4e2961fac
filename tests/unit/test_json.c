/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <stdlib.h>

#include "json.h"
#include "unit.h"

static int64_t
ns(const char *s)
{
	int64_t v = -1;

	if (tl_parse_us_ns(s, strlen(s), &v) < 0)
		return INT64_MIN;
	return v;
}

static int64_t
i64(const char *s)
{
	int64_t v = -1;

	if (tl_parse_i64(s, strlen(s), &v) < 0)
		return INT64_MIN;
	return v;
}

int
main(void)
{
	struct tl_json j;
	const char *err = NULL;
	char buf[64], *out = NULL;
	size_t cap = 0, n;
	int t;
	const char *ev = "{ \"name\": \"a \\\"q\\\" }{\", \"args\": "
	    "{\"Input Dims\": [[1, 2], []], \"x\": 1}, \"ts\": 12.5}";

	/* Kineto timestamps: integer µs + 3 decimals, exact in ns. */
	CHECK(ns("1419247333291.708") == 1419247333291708LL);
	CHECK(ns("0") == 0);
	CHECK(ns("-2.5") == -2500);
	CHECK(ns("1695835543008415") == 1695835543008415000LL);
	CHECK(ns("1.0005") == 1001);	/* rounds half up past 3 decimals */
	CHECK(ns("1e3") == 1000000);
	CHECK(ns("abc") == INT64_MIN);
	CHECK(ns("1.5x") == INT64_MIN);
	CHECK(ns("") == INT64_MIN);
	/* Regression (found writing tests/bad/stream/findings-bad-total):
	 * the exponent path took whatever strtod could read. */
	CHECK(ns("1e3x") == INT64_MIN);
	CHECK(ns("1e") == INT64_MIN);
	CHECK(ns("2.5e-3") == 3);
	/* Integers: a digit first ("." and "-" are not 0). */
	CHECK(i64("5.0") == 5);
	CHECK(i64("-7") == -7);
	CHECK(i64(".") == INT64_MIN);
	CHECK(i64("-.0") == INT64_MIN);
	CHECK(i64(".5") == INT64_MIN);

	/* \u escapes: BMP, surrogate pair, lone surrogate. */
	n = tl_json_unescape(buf, "\\u00e9", 6);
	CHECK(n == 2 && memcmp(buf, "\xc3\xa9", 2) == 0);
	n = tl_json_unescape(buf, "\\ud83d\\ude00", 12);
	CHECK(n == 4 && memcmp(buf, "\xf0\x9f\x98\x80", 4) == 0);
	n = tl_json_unescape(buf, "\\ud83dx", 7);
	CHECK(n == 4 && memcmp(buf, "\xef\xbf\xbdx", 4) == 0);
	n = tl_json_unescape(buf, "a\\\"b\\\\c\\/d\\n", 12);
	CHECK_STR(buf, "a\"b\\c/d\n");

	tl_json_init(&j);
	CHECK(tl_json_parse(&j, ev, strlen(ev), &err) > 0);
	t = TL_JSON_GET(&j, 0, "name");
	CHECK(t > 0 && tl_json_type(&j, t) == TL_J_STRING);
	t = TL_JSON_GET(&j, 0, "ts");
	CHECK(t > 0 && tl_json_type(&j, t) == TL_J_PRIM);
	t = TL_JSON_GET(&j, TL_JSON_GET(&j, 0, "args"), "Input Dims");
	CHECK(t > 0);
	tl_json_compact(&j, t, &out, &cap);
	CHECK_STR(out, "[[1,2],[]]");
	CHECK(TL_JSON_GET(&j, 0, "x") < 0);	/* nested keys are not top-level */
	CHECK(tl_json_parse(&j, "{\"a\" 1}", 7, &err) < 0);
	CHECK(tl_json_parse(&j, "{\"a\":1", 6, &err) < 0);
	CHECK(tl_json_parse(&j, "{\"a\":\0}", 6, &err) < 0 &&
	    strstr(err, "NUL") != NULL);
	tl_json_free(&j);
	free(out);
	return unit_done("test_json");
}
