/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tsv.h"
#include "unit.h"

static const char *
fmt(double d)
{
	static char buf[64];

	tl_fmt_double(buf, sizeof(buf), d);
	return buf;
}

/* The COPY-text escape of s[0..n), a byte at a time: what tl_w_mem must give. */
static size_t
escape_ref(char *dst, const unsigned char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		const char *e = s[i] == '\t' ? "\\t" : s[i] == '\n' ? "\\n" :
		    s[i] == '\r' ? "\\r" : s[i] == '\\' ? "\\\\" : NULL;

		if (e != NULL) {
			memcpy(dst + k, e, 2);
			k += 2;
		} else
			dst[k++] = (char)s[i];
	}
	return k;
}

/*
 * Fields of every length up to 200, from bytes next to the escaped ones
 * (the word-at-a-time and 16- and 64-byte scans' edge cases: 0x00-0x0f,
 * '[' '\\' ']', 0x80 and up), few or many of them, escaped by tl_w_mem
 * as byte by byte, and decoded back.
 */
static void
escape_cases(void)
{
	static const unsigned char pool[] = { 0, 1, 8, '\t', '\n', 11, 12, '\r',
	    14, 15, 31, ' ', 'a', '[', '\\', ']', 0x7f, 0x80, 0x8d, 0xdc, 0xff };
	unsigned char in[200];
	char want[401], back[401];
	unsigned seed = 1;
	int bad = 0, rt = 0, round;

	for (round = 0; round < 40000; round++) {
		size_t n = (size_t)round % 201, i, k;
		unsigned every = 2 + (unsigned)round / 201 % 150;
		char *text = NULL;
		size_t size = 0;
		FILE *fp = open_memstream(&text, &size);
		struct tl_writer w;

		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly plain, one in every of the pool */
			in[i] = (seed >> 16) % every == 0 ?
			    pool[(seed >> 20) % sizeof(pool)] :
			    (unsigned char)('a' + (seed >> 20) % 26);
		}
		tl_w_init(&w, fp, 0);
		tl_w_mem(&w, (const char *)in, n);
		fclose(fp);
		k = escape_ref(want, in, n);
		if (size != k || memcmp(text, want, k) != 0)
			bad++;
		if (tl_tsv_decode(back, text, size) != n ||
		    memcmp(back, in, n) != 0)
			rt++;
		free(text);
	}
	CHECK(bad == 0);
	CHECK(rt == 0);
}

/* 1 if tl_fmt_us(ns) is printf's microseconds, trailing zeros cut. */
static int
us_ok(long long ns)
{
	char got[40], want[48];
	unsigned long long a = ns < 0 ? 0ull - (unsigned long long)ns :
	    (unsigned long long)ns;
	size_t n, k;

	snprintf(want, sizeof(want), "%s%llu.%03u", ns < 0 ? "-" : "",
	    a / 1000, (unsigned)(a % 1000));
	k = strlen(want);
	while (want[k - 1] == '0')
		want[--k] = '\0';
	if (want[k - 1] == '.')
		want[--k] = '\0';
	n = tl_fmt_us(got, sizeof(got), ns);
	return strcmp(got, want) == 0 && n == k;
}

/*
 * tl_fmt_i64 and tl_fmt_us (digit pairs, length from the bit length)
 * against printf on numbers of every length and sign; tl_fmt_us on runs
 * of near times too (it keeps the digits above the last four).
 */
static void
number_cases(void)
{
	char got[40], want[48];
	unsigned long long x = 88172645463325252ull;
	int bad = 0, badus = 0, badrun = 0, i;

	for (i = 0; i < 200000; i++) {
		long long v, ns;
		size_t n;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = (long long)(x >> (x & 63));
		if (i & 1)
			v = -v;
		if (i == 0)
			v = INT64_MIN;
		n = tl_fmt_i64(got, v);
		snprintf(want, sizeof(want), "%lld", v);
		if (strcmp(got, want) != 0 || n != strlen(want))
			bad++;
		ns = (long long)(x >> (x % 40));
		if (i & 2)
			ns = -ns;
		badus += !us_ok(ns);
	}
	for (i = 0; i < 200000; i++) {
		long long ns;

		if (i % 1000 == 0)
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		ns = (long long)(x >> (x % 24)) + (long long)i * 977;
		badrun += !us_ok(i % 5000 < 2500 ? -ns : ns);
	}
	CHECK(bad == 0);
	CHECK(badus == 0);
	CHECK(badrun == 0);
}

static const char *
us(long long ns)
{
	static char buf[64];

	tl_fmt_us(buf, sizeof(buf), ns);
	return buf;
}

int
main(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp;
	struct tl_writer w;

	/* Shortest round trip, plain notation as Python's repr. */
	CHECK_STR(fmt(100.0), "100");
	CHECK_STR(fmt(31.343283582089555), "31.343283582089555");
	CHECK_STR(fmt(0.1), "0.1");
	CHECK_STR(fmt(27.500000000000004), "27.500000000000004");
	CHECK_STR(fmt(1.0 / 3.0), "0.3333333333333333");
	CHECK_STR(fmt(6.5536e-05), "6.5536e-05");
	CHECK_STR(fmt(0.00012), "0.00012");
	CHECK_STR(fmt(1e16), "1e+16");
	CHECK_STR(fmt(0), "0");
	CHECK_STR(fmt(0.0 / 0.0), "");

	CHECK_STR(us(1419247333291708LL), "1419247333291.708");
	CHECK_STR(us(2240), "2.24");
	CHECK_STR(us(7000), "7");
	CHECK_STR(us(-1500), "-1.5");

	/* TSV escapes as PostgreSQL COPY text; CSV quotes. */
	fp = open_memstream(&text, &size);
	tl_w_init(&w, fp, 0);
	tl_w_str(&w, "a\tb\\c\nd");
	tl_w_int(&w, 42);
	tl_w_empty(&w);
	tl_w_eol(&w);
	tl_w_init(&w, fp, 1);
	tl_w_str(&w, "x,\"y\"");
	tl_w_str(&w, "z");
	tl_w_eol(&w);
	fclose(fp);
	CHECK_STR(text, "a\\tb\\\\c\\nd\t42\t\n\"x,\"\"y\"\"\",z\n");
	free(text);
	/* The same fields into memory (rows formatted on other threads). */
	tl_w_init_mem(&w, 0);
	tl_w_str(&w, "a\tb\\c\nd");
	tl_w_int(&w, 42);
	tl_w_empty(&w);
	tl_w_eol(&w);
	tl_w_us(&w, 2240);
	tl_w_double(&w, 0.1);
	tl_w_raw(&w, "r\\t", 3);
	tl_w_eol(&w);
	CHECK(w.len == 28 && memcmp(w.buf, "a\\tb\\\\c\\nd\t42\t\n2.24\t0.1\tr\\t\n",
	    w.len) == 0);
	free(w.buf);
	tl_w_init_mem(&w, 1);
	tl_w_str(&w, "x,\"y\"");
	tl_w_str(&w, "z");
	tl_w_eol(&w);
	CHECK(w.len == 12 && memcmp(w.buf, "\"x,\"\"y\"\"\",z\n", w.len) == 0);
	free(w.buf);
	/* Rows held until their end (tl_w_rows): nothing out before. */
	text = NULL;
	fp = open_memstream(&text, &size);
	tl_w_init(&w, fp, 0);
	tl_w_rows(&w);
	tl_w_str(&w, "a\tb");
	tl_w_us(&w, -1500);
	fflush(fp);
	CHECK(size == 0);
	tl_w_eol(&w);
	fflush(fp);
	CHECK(size == 10 && memcmp(text, "a\\tb\t-1.5\n", 10) == 0);
	fclose(fp);
	free(text);
	CHECK_STR(us(0), "0");
	CHECK_STR(us(-7), "-0.007");
	CHECK_STR(us(10), "0.01");
	escape_cases();
	number_cases();
	return unit_done("test_tsv");
}
