/* See LICENSE file for copyright and license details. */
#include <math.h>
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

/*
 * Doubles one to three ulps either side of each power of ten and of five
 * times one, 1e-5 to 1e15, and shares of random kernel times, with
 * Python's repr of each (repr(float.fromhex(...))): tl_fmt_double's
 * exponent (from a table of powers of ten, by log10 next to them) and
 * its 15- and 16-digit roundings (from the 17-digit product) where they
 * are closest to going wrong.
 */
static const struct {
	double d;
	const char *repr;
} reprs[] = {
	{ 0x1.4f8b588e368f2p-17, "1.0000000000000003e-05" },
	{ 0x1.4f8b588e368f3p-17, "1.0000000000000004e-05" },
	{ 0x1.4f8b588e368f4p-17, "1.0000000000000006e-05" },
	{ 0x1.a36e2eb1c432cp-15, "4.9999999999999996e-05" },
	{ 0x1.a36e2eb1c432bp-15, "4.999999999999999e-05" },
	{ 0x1.a36e2eb1c432ap-15, "4.999999999999998e-05" },
	{ 0x1.a36e2eb1c432ep-15, "5.000000000000001e-05" },
	{ 0x1.a36e2eb1c432fp-15, "5.0000000000000016e-05" },
	{ 0x1.a36e2eb1c4330p-15, "5.000000000000002e-05" },
	{ 0x1.a36e2eb1c432cp-14, "9.999999999999999e-05" },
	{ 0x1.a36e2eb1c432bp-14, "9.999999999999998e-05" },
	{ 0x1.a36e2eb1c432ap-14, "9.999999999999996e-05" },
	{ 0x1.a36e2eb1c432ep-14, "0.00010000000000000002" },
	{ 0x1.a36e2eb1c432fp-14, "0.00010000000000000003" },
	{ 0x1.a36e2eb1c4330p-14, "0.00010000000000000005" },
	{ 0x1.0624dd2f1a9fbp-11, "0.0004999999999999999" },
	{ 0x1.0624dd2f1a9fap-11, "0.0004999999999999998" },
	{ 0x1.0624dd2f1a9f9p-11, "0.0004999999999999997" },
	{ 0x1.0624dd2f1a9fdp-11, "0.0005000000000000001" },
	{ 0x1.0624dd2f1a9fep-11, "0.0005000000000000002" },
	{ 0x1.0624dd2f1a9ffp-11, "0.0005000000000000003" },
	{ 0x1.0624dd2f1a9fbp-10, "0.0009999999999999998" },
	{ 0x1.0624dd2f1a9fap-10, "0.0009999999999999996" },
	{ 0x1.0624dd2f1a9f9p-10, "0.0009999999999999994" },
	{ 0x1.0624dd2f1a9fdp-10, "0.0010000000000000002" },
	{ 0x1.0624dd2f1a9fep-10, "0.0010000000000000005" },
	{ 0x1.0624dd2f1a9ffp-10, "0.0010000000000000007" },
	{ 0x1.47ae147ae147ap-8, "0.004999999999999999" },
	{ 0x1.47ae147ae1479p-8, "0.004999999999999998" },
	{ 0x1.47ae147ae1478p-8, "0.0049999999999999975" },
	{ 0x1.47ae147ae147cp-8, "0.005000000000000001" },
	{ 0x1.47ae147ae147dp-8, "0.005000000000000002" },
	{ 0x1.47ae147ae147ep-8, "0.005000000000000003" },
	{ 0x1.47ae147ae147ap-7, "0.009999999999999998" },
	{ 0x1.47ae147ae1479p-7, "0.009999999999999997" },
	{ 0x1.47ae147ae1478p-7, "0.009999999999999995" },
	{ 0x1.47ae147ae147cp-7, "0.010000000000000002" },
	{ 0x1.47ae147ae147dp-7, "0.010000000000000004" },
	{ 0x1.47ae147ae147ep-7, "0.010000000000000005" },
	{ 0x1.9999999999999p-5, "0.049999999999999996" },
	{ 0x1.9999999999998p-5, "0.04999999999999999" },
	{ 0x1.9999999999997p-5, "0.04999999999999998" },
	{ 0x1.999999999999bp-5, "0.05000000000000001" },
	{ 0x1.999999999999cp-5, "0.05000000000000002" },
	{ 0x1.999999999999dp-5, "0.050000000000000024" },
	{ 0x1.9999999999999p-4, "0.09999999999999999" },
	{ 0x1.9999999999998p-4, "0.09999999999999998" },
	{ 0x1.9999999999997p-4, "0.09999999999999996" },
	{ 0x1.999999999999bp-4, "0.10000000000000002" },
	{ 0x1.999999999999cp-4, "0.10000000000000003" },
	{ 0x1.999999999999dp-4, "0.10000000000000005" },
	{ 0x1.fffffffffffffp-2, "0.49999999999999994" },
	{ 0x1.ffffffffffffep-2, "0.4999999999999999" },
	{ 0x1.ffffffffffffdp-2, "0.49999999999999983" },
	{ 0x1.0000000000001p-1, "0.5000000000000001" },
	{ 0x1.0000000000002p-1, "0.5000000000000002" },
	{ 0x1.0000000000003p-1, "0.5000000000000003" },
	{ 0x1.fffffffffffffp-1, "0.9999999999999999" },
	{ 0x1.ffffffffffffep-1, "0.9999999999999998" },
	{ 0x1.ffffffffffffdp-1, "0.9999999999999997" },
	{ 0x1.0000000000001p+0, "1.0000000000000002" },
	{ 0x1.0000000000002p+0, "1.0000000000000004" },
	{ 0x1.0000000000003p+0, "1.0000000000000007" },
	{ 0x1.3ffffffffffffp+2, "4.999999999999999" },
	{ 0x1.3fffffffffffep+2, "4.999999999999998" },
	{ 0x1.3fffffffffffdp+2, "4.999999999999997" },
	{ 0x1.4000000000001p+2, "5.000000000000001" },
	{ 0x1.4000000000002p+2, "5.000000000000002" },
	{ 0x1.4000000000003p+2, "5.000000000000003" },
	{ 0x1.3ffffffffffffp+3, "9.999999999999998" },
	{ 0x1.3fffffffffffep+3, "9.999999999999996" },
	{ 0x1.3fffffffffffdp+3, "9.999999999999995" },
	{ 0x1.4000000000001p+3, "10.000000000000002" },
	{ 0x1.4000000000002p+3, "10.000000000000004" },
	{ 0x1.4000000000003p+3, "10.000000000000005" },
	{ 0x1.8ffffffffffffp+5, "49.99999999999999" },
	{ 0x1.8fffffffffffep+5, "49.999999999999986" },
	{ 0x1.8fffffffffffdp+5, "49.99999999999998" },
	{ 0x1.9000000000001p+5, "50.00000000000001" },
	{ 0x1.9000000000002p+5, "50.000000000000014" },
	{ 0x1.9000000000003p+5, "50.00000000000002" },
	{ 0x1.8ffffffffffffp+6, "99.99999999999999" },
	{ 0x1.8fffffffffffep+6, "99.99999999999997" },
	{ 0x1.8fffffffffffdp+6, "99.99999999999996" },
	{ 0x1.9000000000001p+6, "100.00000000000001" },
	{ 0x1.9000000000002p+6, "100.00000000000003" },
	{ 0x1.9000000000003p+6, "100.00000000000004" },
	{ 0x1.f3fffffffffffp+8, "499.99999999999994" },
	{ 0x1.f3ffffffffffep+8, "499.9999999999999" },
	{ 0x1.f3ffffffffffdp+8, "499.99999999999983" },
	{ 0x1.f400000000001p+8, "500.00000000000006" },
	{ 0x1.f400000000002p+8, "500.0000000000001" },
	{ 0x1.f400000000003p+8, "500.00000000000017" },
	{ 0x1.f3fffffffffffp+9, "999.9999999999999" },
	{ 0x1.f3ffffffffffep+9, "999.9999999999998" },
	{ 0x1.f3ffffffffffdp+9, "999.9999999999997" },
	{ 0x1.f400000000001p+9, "1000.0000000000001" },
	{ 0x1.f400000000002p+9, "1000.0000000000002" },
	{ 0x1.f400000000003p+9, "1000.0000000000003" },
	{ 0x1.387ffffffffffp+12, "4999.999999999999" },
	{ 0x1.387fffffffffep+12, "4999.999999999998" },
	{ 0x1.387fffffffffdp+12, "4999.999999999997" },
	{ 0x1.3880000000001p+12, "5000.000000000001" },
	{ 0x1.3880000000002p+12, "5000.000000000002" },
	{ 0x1.3880000000003p+12, "5000.000000000003" },
	{ 0x1.387ffffffffffp+13, "9999.999999999998" },
	{ 0x1.387fffffffffep+13, "9999.999999999996" },
	{ 0x1.387fffffffffdp+13, "9999.999999999995" },
	{ 0x1.3880000000001p+13, "10000.000000000002" },
	{ 0x1.3880000000002p+13, "10000.000000000004" },
	{ 0x1.3880000000003p+13, "10000.000000000005" },
	{ 0x1.869ffffffffffp+15, "49999.99999999999" },
	{ 0x1.869fffffffffep+15, "49999.999999999985" },
	{ 0x1.869fffffffffdp+15, "49999.99999999998" },
	{ 0x1.86a0000000001p+15, "50000.00000000001" },
	{ 0x1.86a0000000002p+15, "50000.000000000015" },
	{ 0x1.86a0000000003p+15, "50000.00000000002" },
	{ 0x1.869ffffffffffp+16, "99999.99999999999" },
	{ 0x1.869fffffffffep+16, "99999.99999999997" },
	{ 0x1.869fffffffffdp+16, "99999.99999999996" },
	{ 0x1.86a0000000001p+16, "100000.00000000001" },
	{ 0x1.86a0000000002p+16, "100000.00000000003" },
	{ 0x1.86a0000000003p+16, "100000.00000000004" },
	{ 0x1.e847fffffffffp+18, "499999.99999999994" },
	{ 0x1.e847ffffffffep+18, "499999.9999999999" },
	{ 0x1.e847ffffffffdp+18, "499999.9999999998" },
	{ 0x1.e848000000001p+18, "500000.00000000006" },
	{ 0x1.e848000000002p+18, "500000.0000000001" },
	{ 0x1.e848000000003p+18, "500000.0000000002" },
	{ 0x1.e847fffffffffp+19, "999999.9999999999" },
	{ 0x1.e847ffffffffep+19, "999999.9999999998" },
	{ 0x1.e847ffffffffdp+19, "999999.9999999997" },
	{ 0x1.e848000000001p+19, "1000000.0000000001" },
	{ 0x1.e848000000002p+19, "1000000.0000000002" },
	{ 0x1.e848000000003p+19, "1000000.0000000003" },
	{ 0x1.312cfffffffffp+22, "4999999.999999999" },
	{ 0x1.312cffffffffep+22, "4999999.999999998" },
	{ 0x1.312cffffffffdp+22, "4999999.999999997" },
	{ 0x1.312d000000001p+22, "5000000.000000001" },
	{ 0x1.312d000000002p+22, "5000000.000000002" },
	{ 0x1.312d000000003p+22, "5000000.000000003" },
	{ 0x1.312cfffffffffp+23, "9999999.999999998" },
	{ 0x1.312cffffffffep+23, "9999999.999999996" },
	{ 0x1.312cffffffffdp+23, "9999999.999999994" },
	{ 0x1.312d000000001p+23, "10000000.000000002" },
	{ 0x1.312d000000002p+23, "10000000.000000004" },
	{ 0x1.312d000000003p+23, "10000000.000000006" },
	{ 0x1.7d783ffffffffp+25, "49999999.99999999" },
	{ 0x1.7d783fffffffep+25, "49999999.999999985" },
	{ 0x1.7d783fffffffdp+25, "49999999.99999998" },
	{ 0x1.7d78400000001p+25, "50000000.00000001" },
	{ 0x1.7d78400000002p+25, "50000000.000000015" },
	{ 0x1.7d78400000003p+25, "50000000.00000002" },
	{ 0x1.7d783ffffffffp+26, "99999999.99999999" },
	{ 0x1.7d783fffffffep+26, "99999999.99999997" },
	{ 0x1.7d783fffffffdp+26, "99999999.99999996" },
	{ 0x1.7d78400000001p+26, "100000000.00000001" },
	{ 0x1.7d78400000002p+26, "100000000.00000003" },
	{ 0x1.7d78400000003p+26, "100000000.00000004" },
	{ 0x1.dcd64ffffffffp+28, "499999999.99999994" },
	{ 0x1.dcd64fffffffep+28, "499999999.9999999" },
	{ 0x1.dcd64fffffffdp+28, "499999999.9999998" },
	{ 0x1.dcd6500000001p+28, "500000000.00000006" },
	{ 0x1.dcd6500000002p+28, "500000000.0000001" },
	{ 0x1.dcd6500000003p+28, "500000000.0000002" },
	{ 0x1.dcd64ffffffffp+29, "999999999.9999999" },
	{ 0x1.dcd64fffffffep+29, "999999999.9999998" },
	{ 0x1.dcd64fffffffdp+29, "999999999.9999996" },
	{ 0x1.dcd6500000001p+29, "1000000000.0000001" },
	{ 0x1.dcd6500000002p+29, "1000000000.0000002" },
	{ 0x1.dcd6500000003p+29, "1000000000.0000004" },
	{ 0x1.2a05f1fffffffp+32, "4999999999.999999" },
	{ 0x1.2a05f1ffffffep+32, "4999999999.999998" },
	{ 0x1.2a05f1ffffffdp+32, "4999999999.999997" },
	{ 0x1.2a05f20000001p+32, "5000000000.000001" },
	{ 0x1.2a05f20000002p+32, "5000000000.000002" },
	{ 0x1.2a05f20000003p+32, "5000000000.000003" },
	{ 0x1.2a05f1fffffffp+33, "9999999999.999998" },
	{ 0x1.2a05f1ffffffep+33, "9999999999.999996" },
	{ 0x1.2a05f1ffffffdp+33, "9999999999.999994" },
	{ 0x1.2a05f20000001p+33, "10000000000.000002" },
	{ 0x1.2a05f20000002p+33, "10000000000.000004" },
	{ 0x1.2a05f20000003p+33, "10000000000.000006" },
	{ 0x1.74876e7ffffffp+35, "49999999999.99999" },
	{ 0x1.74876e7fffffep+35, "49999999999.999985" },
	{ 0x1.74876e7fffffdp+35, "49999999999.99998" },
	{ 0x1.74876e8000001p+35, "50000000000.00001" },
	{ 0x1.74876e8000002p+35, "50000000000.000015" },
	{ 0x1.74876e8000003p+35, "50000000000.00002" },
	{ 0x1.74876e7ffffffp+36, "99999999999.99998" },
	{ 0x1.74876e7fffffep+36, "99999999999.99997" },
	{ 0x1.74876e7fffffdp+36, "99999999999.99995" },
	{ 0x1.74876e8000001p+36, "100000000000.00002" },
	{ 0x1.74876e8000002p+36, "100000000000.00003" },
	{ 0x1.74876e8000003p+36, "100000000000.00005" },
	{ 0x1.d1a94a1ffffffp+38, "499999999999.99994" },
	{ 0x1.d1a94a1fffffep+38, "499999999999.9999" },
	{ 0x1.d1a94a1fffffdp+38, "499999999999.9998" },
	{ 0x1.d1a94a2000001p+38, "500000000000.00006" },
	{ 0x1.d1a94a2000002p+38, "500000000000.0001" },
	{ 0x1.d1a94a2000003p+38, "500000000000.0002" },
	{ 0x1.d1a94a1ffffffp+39, "999999999999.9999" },
	{ 0x1.d1a94a1fffffep+39, "999999999999.9998" },
	{ 0x1.d1a94a1fffffdp+39, "999999999999.9996" },
	{ 0x1.d1a94a2000001p+39, "1000000000000.0001" },
	{ 0x1.d1a94a2000002p+39, "1000000000000.0002" },
	{ 0x1.d1a94a2000003p+39, "1000000000000.0004" },
	{ 0x1.2309ce53fffffp+42, "4999999999999.999" },
	{ 0x1.2309ce53ffffep+42, "4999999999999.998" },
	{ 0x1.2309ce53ffffdp+42, "4999999999999.997" },
	{ 0x1.2309ce5400001p+42, "5000000000000.001" },
	{ 0x1.2309ce5400002p+42, "5000000000000.002" },
	{ 0x1.2309ce5400003p+42, "5000000000000.003" },
	{ 0x1.2309ce53fffffp+43, "9999999999999.998" },
	{ 0x1.2309ce53ffffep+43, "9999999999999.996" },
	{ 0x1.2309ce53ffffdp+43, "9999999999999.994" },
	{ 0x1.2309ce5400001p+43, "10000000000000.002" },
	{ 0x1.2309ce5400002p+43, "10000000000000.004" },
	{ 0x1.2309ce5400003p+43, "10000000000000.006" },
	{ 0x1.6bcc41e8fffffp+45, "49999999999999.99" },
	{ 0x1.6bcc41e8ffffep+45, "49999999999999.984" },
	{ 0x1.6bcc41e8ffffdp+45, "49999999999999.98" },
	{ 0x1.6bcc41e900001p+45, "50000000000000.01" },
	{ 0x1.6bcc41e900002p+45, "50000000000000.016" },
	{ 0x1.6bcc41e900003p+45, "50000000000000.02" },
	{ 0x1.6bcc41e8fffffp+46, "99999999999999.98" },
	{ 0x1.6bcc41e8ffffep+46, "99999999999999.97" },
	{ 0x1.6bcc41e8ffffdp+46, "99999999999999.95" },
	{ 0x1.6bcc41e900001p+46, "100000000000000.02" },
	{ 0x1.6bcc41e900002p+46, "100000000000000.03" },
	{ 0x1.6bcc41e900003p+46, "100000000000000.05" },
	{ 0x1.c6bf52633ffffp+48, "499999999999999.94" },
	{ 0x1.c6bf52633fffep+48, "499999999999999.9" },
	{ 0x1.c6bf52633fffdp+48, "499999999999999.8" },
	{ 0x1.c6bf526340001p+48, "500000000000000.06" },
	{ 0x1.c6bf526340002p+48, "500000000000000.1" },
	{ 0x1.c6bf526340003p+48, "500000000000000.2" },
	{ 0x1.c6bf52633ffffp+49, "999999999999999.9" },
	{ 0x1.c6bf52633fffep+49, "999999999999999.8" },
	{ 0x1.c6bf52633fffdp+49, "999999999999999.6" },
	{ 0x1.42121f24b6a74p-1, "0.6290445072475692" },
	{ 0x1.7591529398862p+0, "1.4592486963597584" },
	{ 0x1.5672ef6d50680p-1, "0.6688456364574478" },
	{ 0x1.3872957d792dcp-2, "0.3051246030648096" },
	{ 0x1.2d694e185614dp+2, "4.709552310720324" },
	{ 0x1.43b019c5ed357p+1, "2.5288116661489926" },
	{ 0x1.95368105417ebp-4, "0.09892893217701697" },
	{ 0x1.a6f52892be113p-1, "0.8260891608361213" },
	{ 0x1.509ff1d0b5283p-1, "0.6574702803869318" },
	{ 0x1.a49016614e217p-1, "0.8214117997914084" },
	{ 0x1.aeb04704ddeb8p-1, "0.8411886399689683" },
	{ 0x1.6cf6454e7bdfdp-6, "0.02227551239223934" },
	{ 0x1.77ee91df23dc0p+0, "1.4684840364242149" },
	{ 0x1.33219c7f80849p-1, "0.5998658090250127" },
	{ 0x1.698fbfc35ad20p+0, "1.4123496868076657" },
	{ 0x1.59d2a510e064dp-1, "0.6754352171994441" },
	{ 0x1.345b6bf80c2edp-1, "0.6022599926273792" },
	{ 0x1.2ec1903b7dc86p-1, "0.5913205216046584" },
	{ 0x1.a8f92db5f90a6p-4, "0.10375326019090156" },
	{ 0x1.4172dc951ef5cp-2, "0.31391472492372485" },
	{ 0x1.8f144fc5f5303p-2, "0.38972592015970536" },
	{ 0x1.b8053063a6814p+1, "3.4376583563398615" },
	{ 0x1.cd3a99cc5d91bp+1, "3.603350853717655" },
	{ 0x1.9d9db4eb530c4p-1, "0.8078438317548025" },
};

static void
repr_cases(void)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(reprs) / sizeof(reprs[0]); i++)
		if (strcmp(fmt(reprs[i].d), reprs[i].repr) != 0) {
			if (bad++ < 5)
				fprintf(stderr, "%a: %s, not %s\n", reprs[i].d,
				    fmt(reprs[i].d), reprs[i].repr);
		}
	CHECK(bad == 0);
}

/* Significant digits of a number's text (leading, trailing zeros not). */
static int
sig_digits(const char *t)
{
	char d[64];
	int n = 0, a = 0;

	for (; *t != '\0' && *t != 'e'; t++)
		if (*t >= '0' && *t <= '9' && n < 63)
			d[n++] = *t;
	while (a < n && d[a] == '0')
		a++;
	while (n > a && d[n - 1] == '0')
		n--;
	return n - a;
}

/*
 * 1 if tl_fmt_double's text of d reads back as d and has the fewest
 * digits that do (printf's %.*e, tried from one digit up): the shortest
 * round trip, found independently.
 */
static int
shortest(double d)
{
	char t[64];
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(t, sizeof(t), "%.*e", p - 1, d);
		if (strtod(t, NULL) == d)
			break;
	}
	if (strtod(fmt(d), NULL) == d && sig_digits(fmt(d)) == p)
		return 1;
	fprintf(stderr, "%a: %s, shortest %d digits\n", d, fmt(d), p);
	return 0;
}

/* d moved u doubles away from zero (u > 0) or towards it. */
static double
ulps(double d, int u)
{
	for (; u > 0; u--)
		d = nextafter(d, 1e300);
	for (; u < 0; u++)
		d = nextafter(d, 0);
	return d;
}

/*
 * Next to every power of ten and of two, and every leading digit, of
 * the common range (and past it): the shortest round trip.
 */
static void
shortest_cases(void)
{
	char t[64];
	int k, j, u, bad = 0, n = 0;

	for (k = -8; k <= 18; k++)
		for (j = 1; j <= 9; j++) {
			snprintf(t, sizeof(t), "%de%d", j, k);
			for (u = -40; u <= 40; u++, n++)
				bad += !shortest(ulps(strtod(t, NULL), u));
		}
	for (k = -30; k <= 52; k++)
		for (u = -20; u <= 20; u++, n++)
			bad += !shortest(ulps(ldexp(1.0, k), u));
	CHECK(n == 27 * 9 * 81 + 83 * 41);
	CHECK(bad == 0);
}

/*
 * tl_w_out: rows written past fp's buffer land after what fp holds and
 * before what it is given next; tl_w_plain as tl_w_mem would write.
 */
static void
out_cases(void)
{
	FILE *fp = tmpfile();
	char back[64];
	size_t n;
	struct tl_writer w;

	if (fp == NULL) {
		CHECK(fp != NULL);
		return;
	}
	fputs("head\n", fp);
	tl_w_out(fp, "row 1\nrow 2\n", 12);
	tl_w_out(fp, "", 0);
	fputs("tail\n", fp);
	fflush(fp);
	rewind(fp);
	n = fread(back, 1, sizeof(back), fp);
	CHECK(n == 22 && memcmp(back, "head\nrow 1\nrow 2\ntail\n", 22) == 0);
	CHECK(!ferror(fp));
	fclose(fp);
	tl_w_init_mem(&w, 0);
	CHECK(tl_w_plain(&w, "a,\"b\"", 5) == 1);
	CHECK(tl_w_plain(&w, "", 0) == 1);
	CHECK(tl_w_plain(&w, "0123456789abcdef0123\\", 21) == 0);
	CHECK(tl_w_plain(&w, "a\rb", 3) == 0);
	tl_w_init_mem(&w, 1);
	CHECK(tl_w_plain(&w, "a\tb\\c", 5) == 1);
	CHECK(tl_w_plain(&w, "0123456789abcdef0123,", 21) == 0);
	CHECK(tl_w_plain(&w, "\"", 1) == 0);
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

	shortest_cases();
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
	repr_cases();
	out_cases();
	return unit_done("test_tsv");
}
