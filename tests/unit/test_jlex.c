/* See LICENSE file for copyright and license details. */
/*
 * The strict lexer: where strings, numbers, literals and nested values
 * end, what is not JSON (with the byte where it stops), and nesting past
 * the limit told apart from syntax errors.  Expected ends are counted by
 * hand from the literals below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jlex.h"
#include "unit.h"

/* The end of the string at s[0] as an offset, or -1. */
static long
str_end(const char *s, int *esc)
{
	const char *q;

	*esc = 0;
	q = tl_jlex_string(s, s + strlen(s), esc);
	return q != NULL ? q - s : -1;
}

static long
prim_end(const char *s)
{
	const char *q = tl_jlex_prim(s, s + strlen(s));

	return q != NULL ? q - s : -1;
}

/* tl_jlex_value on s nested depth deep, limit max: its end, or -1. */
static long
val_end(struct tl_jlex *l, const char *s, int depth, int max)
{
	const char *q = tl_jlex_value(l, s, s + strlen(s), depth, max);

	return q != NULL ? q - s : -1;
}

/* The error's offset in s and that its message has want. */
static int
err_at(const struct tl_jlex *l, const char *s, long at, const char *want)
{
	return l->at != NULL && l->at - s == at && l->what != NULL &&
	    strstr(l->what, want) != NULL;
}

int
main(void)
{
	struct tl_jlex l;
	char *deep;
	int esc, i;
	const char *s;

	memset(&l, 0, sizeof(l));

	/* Strings: the closing quote; escapes must be JSON's. */
	CHECK(str_end("\"abc\",", &esc) == 4 && esc == 0);
	CHECK(str_end("\"a\\\"b\"x", &esc) == 5 && esc == 1);
	CHECK(str_end("\"\\\\\"", &esc) == 3 && esc == 1);
	CHECK(str_end("\"\\u00e9 and a longer tail past 16 bytes\"", &esc) ==
	    39);
	CHECK(str_end("\"bad \\x escape\"", &esc) == -1);
	CHECK(str_end("\"short \\u12\"", &esc) == -1);
	CHECK(str_end("\"tab\there\"", &esc) == -1);
	CHECK(str_end("\"a long string with a control byte \x01 in it\"",
	    &esc) == -1);
	CHECK(str_end("\"unterminated", &esc) == -1);

	/* Numbers and literals: where they end; what follows is not theirs. */
	CHECK(prim_end("0,") == 1);
	CHECK(prim_end("-12.5e+3]") == 8);
	CHECK(prim_end("1733253392848.125}") == 17);
	CHECK(prim_end("12345678901234567890123,") == 23);
	CHECK(prim_end("01") == 1);
	CHECK(prim_end("2NaN") == 1);
	CHECK(prim_end("true}") == 4);
	CHECK(prim_end("false,") == 5);
	CHECK(prim_end("null4") == 4);
	CHECK(prim_end("nul") == -1);
	CHECK(prim_end("-") == -1);
	CHECK(prim_end("1.") == -1);
	CHECK(prim_end("1.e5") == -1);
	CHECK(prim_end("1e") == -1);
	CHECK(prim_end("+1") == -1);
	CHECK(prim_end(".5") == -1);
	CHECK(prim_end("NaN") == -1);

	/* Whole values. */
	s = "{\"a\": [1, 2.5, \"x\", true, null, {}, []], \"b\": {\"c\": -0}} tail";
	CHECK(val_end(&l, s, 0, 64) == 56);
	CHECK(val_end(&l, "[ ]", 0, 64) == 3);

	/* The cases: each an error at the byte that cannot be. */
	s = "[null4]";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 5, "',' or ']'"));
	s = "{\"dur\"::5}";
	CHECK(val_end(&l, s, 0, 64) == -1 &&
	    err_at(&l, s, 7, "expected a value"));
	s = "[\"a\":1]";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 4, "',' or ']'"));
	s = "[1 2]";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 3, "',' or ']'"));
	s = "{\"x\": 2NaN}";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 7, "',' or '}'"));
	s = "{\"a\" 1}";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 5, "':'"));
	s = "{\"a\": 1,}";
	CHECK(val_end(&l, s, 0, 64) == -1 &&
	    err_at(&l, s, 8, "member name"));
	s = "[1,]";
	CHECK(val_end(&l, s, 0, 64) == -1 &&
	    err_at(&l, s, 3, "expected a value"));
	s = "[\"a\\qb\"]";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 3, "escape"));
	s = "[1, -x]";
	CHECK(val_end(&l, s, 0, 64) == -1 && err_at(&l, s, 4, "number"));
	s = "[1, 2";
	CHECK(val_end(&l, s, 0, 64) == -1 && l.deep == 0);
	CHECK(l.deep == 0);

	/* Nesting: 64 levels pass, 65 are valid JSON but too deep. */
	deep = malloc(20001);
	for (i = 0; i < 64; i++) {
		deep[i] = '[';
		deep[64 + i] = ']';
	}
	deep[128] = '\0';
	CHECK(val_end(&l, deep, 0, 64) == 128);
	CHECK(val_end(&l, deep, 1, 64) == -1 && l.deep == 1 &&
	    l.end == deep + 128 && l.at == deep + 63);
	CHECK(val_end(&l, deep, 1, -1) == 128);
	for (i = 0; i < 10000; i++) {
		deep[i] = '[';
		deep[10000 + i] = ']';
	}
	deep[20000] = '\0';
	CHECK(val_end(&l, deep, 0, 64) == -1 && l.deep == 1 &&
	    l.end == deep + 20000 && l.at == deep + 64);
	deep[19999] = '}';	/* the outermost array closed by a brace */
	CHECK(val_end(&l, deep, 0, 64) == -1 && l.deep == 0 &&
	    l.at == deep + 19999);
	free(deep);

	/* The cutter's state machine: the same end for a valid value. */
	{
		struct tl_span sp = { 0, 0, 0 };
		size_t pos = 0;
		const char *v = "{\"a\": \"}\\\"\", \"b\": [1]} ,";

		CHECK(tl_span_scan(&sp, v, strlen(v), &pos) == 0 &&
		    (long)pos == val_end(&l, v, 0, 64));
	}
	tl_jlex_free(&l);
	return unit_done("test_jlex");
}
