/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_HEADER		/* jsmn's code is json.c's */
#include <jsmn.h>

#include "common/json.h"
#include "common/jsonw.h"
#include "unit.h"

static int64_t
ns(const char *s)
{
	int64_t v = -1;

	if (tl_parse_us_ns(s, strlen(s), &v) < 0)
		return INT64_MIN;
	return v;
}

/* ns of s read from a buffer of exactly its length. */
static int64_t
ns_exact(const char *s)
{
	size_t n = strlen(s);
	char *b = malloc(n > 0 ? n : 1);
	int64_t v = -1;
	int r;

	memcpy(b, s, n);
	r = tl_parse_us_ns(b, n, &v);
	free(b);
	return r < 0 ? INT64_MIN : v;
}

static int
valid(const char *s)
{
	return tl_json_valid(s, strlen(s));
}

static int64_t
i64(const char *s)
{
	int64_t v = -1;

	if (tl_parse_i64(s, strlen(s), &v) < 0)
		return INT64_MIN;
	return v;
}

/*
 * A µs time to ns by its definition, for a time of digits[.digits]:
 * the point taken out, the fraction padded to three digits and cut at
 * four, and rounded half up on the fourth; INT64_MIN where the reader
 * must refuse the text.
 */
static int64_t
ns_ref(const char *s)
{
	char buf[64];
	const char *dot = strchr(s, '.');
	size_t ni = dot != NULL ? (size_t)(dot - s) : strlen(s), nf = 0, k;
	long long v;

	/* Sixteen digits fit while the first fifteen are at most these. */
	if (ni == 0 || ni > 16 || (ni == 16 && strncmp(s, "922337203685476",
	    15) > 0))
		return INT64_MIN;
	memcpy(buf, s, ni);
	if (dot != NULL)
		for (nf = 0; dot[1 + nf] != '\0' && nf < 4; nf++)
			;
	for (k = 0; k < 3; k++)
		buf[ni + k] = k < nf ? dot[1 + k] : '0';
	buf[ni + 3] = '\0';
	v = strtoll(buf, NULL, 10);
	return v + (nf == 4 && dot[4] >= '5');
}

/*
 * Times of 1 to 16 digits and 0 to 4 decimals (the plain form the
 * reader takes a short way and its neighbours): the value as ns_ref has
 * it.
 */
static void
us_times(void)
{
	unsigned long long seed = 12345;
	int i, bad = 0;

	for (i = 0; i < 200000; i++) {
		char t[40];
		int ni, nf, k, n = 0;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		ni = 1 + (int)((seed >> 33) % 16);
		nf = (int)((seed >> 40) % 5);
		for (k = 0; k < ni; k++)
			t[n++] = (char)('0' + (seed >> (k % 50)) % 10);
		if (nf > 0 || (seed >> 20) % 7 == 0)
			t[n++] = '.';
		for (k = 0; k < nf; k++)
			t[n++] = (char)('0' + (seed >> (3 * k + 7)) % 10);
		t[n] = '\0';
		if (ns(t) != ns_ref(t))
			if (bad++ < 5)
				printf("FAIL us time '%s': %lld, not %lld\n", t,
				    (long long)ns(t), (long long)ns_ref(t));
		/*
		 * The same text with a byte that no number holds put in
		 * somewhere (the word-at-a-time checks), read from a buffer
		 * of its exact length (a sanitizer sees any read past it).
		 */
		t[(seed >> 45) % (unsigned)n] = "x/: "[(seed >> 50) % 4];
		if (ns_exact(t) != INT64_MIN)
			if (bad++ < 5)
				printf("FAIL us time '%s' read as %lld\n", t,
				    (long long)ns_exact(t));
	}
	CHECK(bad == 0);
}

/*
 * tl_parse_i64 by its definition: digits (after a '-'), perhaps a point
 * and zeros; -2 past INT64_MAX (either sign), -1 for any other text.
 */
static int
i64_ref(const char *s, int64_t *v)
{
	const char *p = s + (*s == '-'), *q = p;
	char *end;
	unsigned long long u;

	while (*q >= '0' && *q <= '9')
		q++;
	if (q == p)
		return -1;
	if (*q == '.')
		for (q++; *q == '0'; q++)
			;
	if (*q != '\0')
		return -1;
	while (*p == '0' && p[1] >= '0' && p[1] <= '9')
		p++;
	errno = 0;
	u = strtoull(p, &end, 10);
	if (errno == ERANGE || u > (unsigned long long)INT64_MAX)
		return -2;
	*v = *s == '-' ? -(int64_t)u : (int64_t)u;
	return 0;
}

/*
 * Integers of 1 to 22 digits (around the 18 the short way takes), signed
 * or not, some with a point and zeros or a stray byte, from a buffer of
 * their exact length: what i64_ref says.
 */
static void
integers(void)
{
	unsigned long long seed = 777;
	int i, k, n, bad = 0, r, want;
	int64_t v, w;
	char t[40], *x;

	for (i = 0; i < 200000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		n = 0;
		if (seed >> 63)
			t[n++] = '-';
		for (k = 1 + (int)((seed >> 33) % 22); k > 0; k--)
			t[n++] = (char)('0' + (seed >> (k * 2 + 5)) % 10 *
			    ((seed >> 30) % 5 != 0 || k < 3));
		if ((seed >> 12) % 8 == 0)
			t[n++] = '.';
		if ((seed >> 12) % 16 == 0)
			t[n++] = '0';
		if ((seed >> 16) % 8 == 0)
			t[(seed >> 20) % (unsigned)n] = "x.-e"[(seed >> 24) % 4];
		t[n] = '\0';
		x = malloc((size_t)n);
		memcpy(x, t, (size_t)n);
		v = w = 42;
		r = tl_parse_i64(x, (size_t)n, &v);
		want = i64_ref(t, &w);
		free(x);
		if (r != want || (r == 0 && v != w))
			if (bad++ < 5)
				printf("FAIL integer '%s': %d %lld, not %d %lld\n",
				    t, r, (long long)v, want, (long long)w);
	}
	CHECK(bad == 0);
}

/* tl_jb_str's output, a byte at a time (RFC 8259, 7), into o; its length. */
static size_t
jstr_ref(char *o, const unsigned char *p)
{
	size_t k = 0, run;

	o[k++] = '"';
	for (; *p != '\0'; p++) {
		switch (*p) {
		case '"':
		case '\\':
			o[k++] = '\\';
			o[k++] = (char)*p;
			continue;
		case '\n':
			o[k++] = '\\';
			o[k++] = 'n';
			continue;
		case '\t':
			o[k++] = '\\';
			o[k++] = 't';
			continue;
		case '\r':
			o[k++] = '\\';
			o[k++] = 'r';
			continue;
		}
		if (*p < 0x20)
			k += (size_t)sprintf(o + k, "\\u%04x", *p);
		else if (*p < 0x80)
			o[k++] = (char)*p;
		else if ((run = tl_utf8_len((const char *)p, 4)) == 0)
			k += (size_t)sprintf(o + k, "\xef\xbf\xbd");	/* U+FFFD */
		else {
			memcpy(o + k, p, run);
			k += run;
			p += run - 1;
		}
	}
	o[k++] = '"';
	return k;
}

/*
 * Strings of every length up to 40 from the bytes at the edges of the
 * word-at-a-time scan (0x1f, ' ', '"', '\\', 0x7f, 0x80, UTF-8 lead and
 * continuation bytes), mostly plain: tl_jb_str writes what a byte-at-a-
 * time escaper writes.
 */
static void
jstr_cases(void)
{
	static const unsigned char pool[] = { 1, '\t', '\n', '\r', 0x1f, ' ',
	    '!', '"', '#', '[', '\\', ']', 0x7e, 0x7f, 0x80, 0xbf, 0xc3, 0xa9,
	    0xe2, 0x82, 0xac, 0xff };
	unsigned char in[41];
	char want[256];
	struct tl_jbuf got = { 0 };
	unsigned seed = 7;
	int bad = 0, round;

	for (round = 0; round < 4000; round++) {
		size_t n = (size_t)round % 41, i;

		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			in[i] = (seed >> 16) % 4 == 0 ?
			    pool[(seed >> 20) % sizeof(pool)] :
			    (unsigned char)('a' + (seed >> 20) % 26);
		}
		in[n] = '\0';
		tl_jb_reset(&got);
		tl_jb_str(&got, (const char *)in);
		if (got.n != jstr_ref(want, in) ||
		    memcmp(got.s, want, got.n) != 0)
			bad++;
	}
	CHECK(bad == 0);
	tl_jb_free(&got);
}

static unsigned rnd_state = 2463534242u;

static unsigned
rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* A random compact JSON value (now and then with what is not). */
static void
gen(struct tl_jbuf *b, int depth)
{
	static const char *const prims[] = {
		"1", "-2.5", "1e3", "true", "false", "null", "2915995412275.205",
		"0", "tru", "1x", "+1"
	};
	static const char *const strs[] = {
		"", "a", "hipLaunchKernel", "a b", "q\\\"x", "u\\u00e9",
		"tab\\t", "\\z", "\x01"
	};
	int k, n;

	switch (depth > 5 ? 2 + rnd(2) : rnd(5)) {
	case 0:
	case 1:
		tl_jb_raw(b, rnd(2) ? "[" : "{", 1);
		n = (int)rnd(4);
		for (k = 0; k < n; k++) {
			if (k > 0)
				tl_jb_raw(b, rnd(40) ? "," : ", ", rnd(40) ? 1 : 2);
			if (b->s[b->n - 1 - (k > 0)] == '{' ||
			    (k > 0 && b->s[b->n - 1] == ',' && rnd(2))) {
				tl_jb_lit(b, "\"k\":");
			}
			gen(b, depth + 1);
		}
		tl_jb_raw(b, rnd(2) ? "]" : "}", 1);
		break;
	case 2:
		tl_jb_lit(b, prims[rnd(sizeof(prims) / sizeof(prims[0]))]);
		break;
	default:
		tl_jb_lit(b, "\"");
		tl_jb_lit(b, strs[rnd(sizeof(strs) / sizeof(strs[0]))]);
		tl_jb_lit(b, "\"");
		break;
	}
}

/*
 * tl_json_parse (its fast way for compact text, else jsmn) gives jsmn's
 * answer: the same tokens, or both an error.
 */
static void
same_tokens(void)
{
	static jsmntok_t ref[4096];
	static const char *const fixed[] = {
		"[]", "{}", "[[]]", "{\"a\":{}}", "{\"a\":[1,{\"b\":\"c\"}],\"d\":2}",
		"\"s\"", "1", "[1]x", "[1,]", "{\"a\"}", "{\"a\":1,}", "[1 ]",
		"[\"a\":1]", "{1:2}", "[{]}", "[1,2", "[\"a\\\"b\"]", "[1:2]",
		("[[2915995412275.205,15133.447,365.945,0,\"2\",0,\"416\","
		    "\"416\",[[\"cpu_op\",\"aten::add\",\"model\",27.572]]]]")
	};
	struct tl_json j;
	struct tl_jbuf b = { NULL, 0, 0 };
	const char *err;
	int i, k, bad = 0, fast = 0;

	tl_json_init(&j);
	for (i = 0; i < 60000; i++) {
		jsmn_parser p;
		int n, m, ok;

		tl_jb_reset(&b);
		if (i < (int)(sizeof(fixed) / sizeof(fixed[0])))
			tl_jb_lit(&b, fixed[i]);
		else {
			gen(&b, 0);
			if (rnd(3) == 0 && b.n > 1) {	/* a byte changed */
				static const char alt[] = ",:[]{}\" 1a\\";

				b.s[rnd((unsigned)b.n)] = alt[rnd(sizeof(alt) - 1)];
			}
		}
		jsmn_init(&p);
		m = jsmn_parse(&p, b.s, b.n, ref, 4096);
		ok = m > 0 && (size_t)ref[0].end == b.n;
		for (k = 1; ok && k < m; k++)
			if (ref[k].parent >= 0 &&
			    ref[ref[k].parent].type == JSMN_OBJECT &&
			    (ref[k].type != JSMN_STRING || ref[k].size != 1))
				ok = 0;
		n = tl_json_parse(&j, b.s, b.n, &err);
		if (ok != (n > 0) || (ok && (n != m ||
		    memcmp(j.tok, ref, (size_t)m * sizeof(*ref)) != 0))) {
			if (bad++ < 5)
				fprintf(stderr, "tokens differ on '%.*s'\n",
				    (int)b.n, b.s);
		}
		fast += ok && b.s[0] != ' ';
	}
	CHECK(bad == 0);
	CHECK(fast > 1000);
	tl_json_free(&j);
	tl_jb_free(&b);
}

int
main(void)
{
	struct tl_json j;
	struct tl_jbuf jb = { NULL, 0, 0 };
	const char *err = NULL;
	char buf[64], *out = NULL, deep[2 * TL_JSON_DEPTH + 3];
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
	/* Out of range (-2) is not malformed (-1). */
	{
		int64_t v;

#define RC(f, t) f(t, strlen(t), &v)
		CHECK(RC(tl_parse_i64, "9223372036854775807") == 0 &&
		    v == INT64_MAX);
		CHECK(RC(tl_parse_i64, "9223372036854775808") == -2);
		CHECK(RC(tl_parse_i64, "-9223372036854775808") == -2);
		CHECK(RC(tl_parse_i64, "99999999999999999999999") == -2);
		CHECK(RC(tl_parse_i64, "99999999999999999999x") == -1);
		CHECK(RC(tl_parse_i64, "1e3") == -1);
		CHECK(RC(tl_parse_us_ns, "1e309") == -2);
		CHECK(RC(tl_parse_us_ns, "-1e13") == -2);
		CHECK(RC(tl_parse_us_ns, "99999999999999999999.5") == -2);
		CHECK(RC(tl_parse_us_ns, "99999999999999999999.5.") == -1);
		CHECK(RC(tl_parse_us_ns, "1e-400") == 0 && v == 0);
		CHECK(RC(tl_parse_us_ns, "1e") == -1);
		CHECK(RC(tl_parse_us_ns, "inf") == -1);
		CHECK(RC(tl_parse_us_ns, "nan") == -1);
#undef RC
	}
	us_times();
	integers();
	same_tokens();
	CHECK(ns("12.") == 12000);
	CHECK(ns(".5") == INT64_MIN);
	CHECK(ns("1.5e3") == 1500000);
	CHECK(ns("1234567890123456") == 1234567890123456000LL);
	CHECK(i64("5.0") == 5);
	CHECK(i64("-7") == -7);
	CHECK(i64(".") == INT64_MIN);
	CHECK(i64("-.0") == INT64_MIN);
	CHECK(i64(".5") == INT64_MIN);

	/*
	 * Regression (fuzz_findings): jsmn let these through, and the -o
	 * directory copied them into its JSON files; tl_json_valid is the
	 * check now.
	 */
	CHECK(valid("[[1,2],[]]"));
	CHECK(valid(" {\"a\": [1, -0.5e+3, \"x\\u00e9\\n\", true, null]} "));
	CHECK(valid("\"\xc3\xa9\xf0\x9f\x98\x80\""));
	CHECK(valid("0"));
	CHECK(!valid(",[1]"));
	CHECK(!valid("[[8192,320flash:],[8192]]"));
	CHECK(!valid("[1,]"));
	CHECK(!valid("{\"a\" 1}"));
	CHECK(!valid("{\"a\":1,}"));
	CHECK(!valid("{1:2}"));
	CHECK(!valid("[\"\x01\"]"));
	CHECK(!valid("[\"\xba\"]"));
	CHECK(!valid("[\"\xed\xa0\x80\"]"));	/* a surrogate in UTF-8 */
	CHECK(!valid("\"\\q\""));
	CHECK(!valid("\"\\u12\""));
	CHECK(!valid("\"abc"));
	CHECK(!valid("01"));
	CHECK(!valid("1."));
	CHECK(!valid("-"));
	CHECK(!valid("["));
	CHECK(!valid("[1] x"));
	CHECK(!valid(""));
	CHECK(!valid("tru"));
	memset(deep, '[', TL_JSON_DEPTH);
	memset(deep + TL_JSON_DEPTH, ']', TL_JSON_DEPTH);
	deep[2 * TL_JSON_DEPTH] = '\0';
	CHECK(valid(deep));
	memset(deep, '[', TL_JSON_DEPTH + 1);
	memset(deep + TL_JSON_DEPTH + 1, ']', TL_JSON_DEPTH + 1);
	deep[2 * TL_JSON_DEPTH + 2] = '\0';
	CHECK(!valid(deep));
	/* JSON strings are UTF-8: other bytes become U+FFFD. */
	tl_jb_str(&jb, "a\xba" "b\xc3\xa9\"\x01\xc3");
	CHECK_STR(jb.s, "\"a\xef\xbf\xbd" "b\xc3\xa9\\\"\\u0001\xef\xbf\xbd\"");
	tl_jb_free(&jb);
	/* UTF-8 characters. */
	CHECK(tl_utf8_len("a", 1) == 1);
	CHECK(tl_utf8_len("\xc3\xa9", 2) == 2);
	CHECK(tl_utf8_len("\xc3\xa9", 1) == 0);	/* cut short */
	CHECK(tl_utf8_len("\xe2\x82\xac", 3) == 3);
	CHECK(tl_utf8_len("\xf0\x9f\x98\x80", 4) == 4);
	CHECK(tl_utf8_len("\xc0\xaf", 2) == 0);	/* overlong */
	CHECK(tl_utf8_len("\xe0\x80\xaf", 3) == 0);	/* overlong */
	CHECK(tl_utf8_len("\xf4\x90\x80\x80", 4) == 0);	/* > U+10FFFF */
	CHECK(tl_utf8_len("\x80", 1) == 0);
	CHECK(tl_utf8_len("\xe2\x82", 99) == 0);	/* NUL ends it */

	/* \u escapes: BMP, surrogate pair, lone surrogate. */
	n = tl_json_unescape(buf, "\\u00e9", 6);
	CHECK(n == 2 && memcmp(buf, "\xc3\xa9", 2) == 0);
	n = tl_json_unescape(buf, "\\ud83d\\ude00", 12);
	CHECK(n == 4 && memcmp(buf, "\xf0\x9f\x98\x80", 4) == 0);
	n = tl_json_unescape(buf, "\\ud83dx", 7);
	CHECK(n == 4 && memcmp(buf, "\xef\xbf\xbdx", 4) == 0);
	n = tl_json_unescape(buf, "a\\\"b\\\\c\\/d\\n", 12);
	CHECK_STR(buf, "a\"b\\c/d\n");
	/* Runs between escapes, a last lone backslash, decoded in place. */
	n = tl_json_unescape(buf, "hipLaunch\\tKernel\\u00e9x\\", 25);
	CHECK(n == 20 && memcmp(buf, "hipLaunch\tKernel\xc3\xa9x\\", 20) == 0);
	strcpy(buf, "plain text");
	CHECK(tl_json_unescape(buf, buf, 10) == 10);
	CHECK_STR(buf, "plain text");
	strcpy(buf, "ab\\ncd\\\\e");
	CHECK(tl_json_unescape(buf, buf, 9) == 7);
	CHECK_STR(buf, "ab\ncd\\e");

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
	/*
	 * The depth limit of the tokeniser: 64 levels pass, 65 do not, also
	 * with more than 64 brackets in all; brackets in strings do not
	 * count.
	 */
	memset(deep, '[', TL_JSON_DEPTH);
	memset(deep + TL_JSON_DEPTH, ']', TL_JSON_DEPTH);
	CHECK(tl_json_parse(&j, deep, 2 * TL_JSON_DEPTH, &err) ==
	    TL_JSON_DEPTH);
	memset(deep, '[', TL_JSON_DEPTH + 1);
	memset(deep + TL_JSON_DEPTH + 1, ']', TL_JSON_DEPTH + 1);
	CHECK(tl_json_parse(&j, deep, 2 * TL_JSON_DEPTH + 2, &err) < 0 &&
	    strcmp(err, "JSON nested more than 64 deep") == 0);
	{
		char wide[4 * TL_JSON_DEPTH + 8], str[2 * TL_JSON_DEPTH + 8];
		size_t k, n = 0;

		wide[n++] = '[';
		for (k = 0; k < TL_JSON_DEPTH; k++) {
			memcpy(wide + n, "[],", 3);
			n += 3;
		}
		wide[n - 1] = ']';
		CHECK(tl_json_parse(&j, wide, n, &err) == TL_JSON_DEPTH + 1);
		n = 0;
		str[n++] = '[';
		str[n++] = '"';
		for (k = 0; k < TL_JSON_DEPTH + 1; k++)
			str[n++] = '{';
		memcpy(str + n, "\\\"[\"]", 5);
		n += 5;
		CHECK(tl_json_parse(&j, str, n, &err) == 2);
	}
	tl_json_free(&j);
	free(out);
	jstr_cases();
	return unit_done("test_json");
}
