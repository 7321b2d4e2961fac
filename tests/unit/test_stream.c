/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tsv.h"
#include "stream/schema.h"
#include "stream/stream.h"
#include "unit.h"

static char path[64];

static void
write_file(const char *text)
{
	snprintf(path, sizeof(path), "/tmp/tl-test-stream-%ld", (long)getpid());
	unit_write(path, text);
}

/* Run the stream through a writer with owned columns; the output text. */
static char *
filter(const short *owned, int nowned, int csv)
{
	static char *text;
	size_t len;
	char *files[1] = { path };
	struct tl_stream s;
	struct tl_outcols oc;
	struct tl_writer w;
	FILE *fp;
	int k;

	free(text);
	text = NULL;
	fp = open_memstream(&text, &len);
	tl_w_init(&w, fp, csv);
	tl_stream_open(&s, files, 1);
	tl_outcols_init(&oc, &s, owned, nowned);
	tl_outcols_header(&oc, &s, owned, &w);
	while (tl_stream_next(&s)) {
		for (k = 0; k < oc.n; k++)
			if (oc.map[k] >= 0)
				tl_stream_copy(&s, oc.map[k], &w);
			else
				tl_w_str(&w, "X");
		tl_w_eol(&w);
	}
	tl_outcols_free(&oc);
	tl_stream_close(&s);
	fclose(fp);
	return text;
}

/*
 * Field j of line i of the split test: i and j pick its length (0 to 36)
 * and whether it holds an escaped backslash, and where (never on every
 * third line: the splitter's fast path); its text as the stream holds it
 * (raw) and as tl_stream_get gives it (decoded).
 */
static int
split_field(int i, int j, char *raw, char *dec)
{
	int n = (i * 7 + j * 13) % 37, at = -1, k, r = 0, d = 0;

	if (i % 3 != 0 && (i + j) % 5 == 0 && n > 0)
		at = (i + 3 * j) % n;
	for (k = 0; k < n; k++) {
		if (k == at) {
			raw[r++] = '\\';
			raw[r++] = '\\';
			dec[d++] = '\\';
		} else {
			raw[r++] = (char)('a' + (i + k) % 26);
			dec[d++] = raw[r - 1];
		}
	}
	raw[r] = dec[d] = '\0';
	return at >= 0;
}

/*
 * Lines of 60 fields of every length, escapes among them, so that tabs
 * and backslashes fall at every offset of a word or a vector step: each
 * field's text and escape flag are as written.
 */
static void
split_lines(void)
{
	enum { NL = 300, NF = 60 };
	char raw[80], dec[80], *text, *files[1] = { path };
	size_t cap = (size_t)NL * NF * 80 + 4096, o = 0;
	struct tl_stream s;
	int i, j, fields = 1, texts = 1, flags = 1;

	text = malloc(cap);
	for (j = 0; j < NF; j++)
		o += (size_t)snprintf(text + o, cap - o, "%sc%d", j ? "\t" : "",
		    j);
	text[o++] = '\n';
	for (i = 0; i < NL; i++) {
		for (j = 0; j < NF; j++) {
			split_field(i, j, raw, dec);
			o += (size_t)snprintf(text + o, cap - o, "%s%s",
			    j ? "\t" : "", raw);
		}
		text[o++] = '\n';
	}
	text[o] = '\0';
	write_file(text);
	free(text);
	tl_stream_open(&s, files, 1);
	for (i = 0; i < NL && tl_stream_next(&s); i++) {
		if (s.nf != NF) {
			fields = 0;
			continue;
		}
		for (j = 0; j < NF; j++) {
			int esc = split_field(i, j, raw, dec);

			if (strcmp(tl_stream_get(&s, j), dec) != 0 ||
			    s.flen[j] != strlen(raw) ||
			    memcmp(s.f[j], raw, s.flen[j] + 1) != 0)
				texts = 0;
			if (!!s.esc[j] != esc)
				flags = 0;
		}
	}
	CHECK(i == NL && tl_stream_next(&s) == 0);
	CHECK(fields);
	CHECK(texts);
	CHECK(flags);
	tl_stream_close(&s);
}

/*
 * Lines of thousands of fields, many empty, so that the field arrays grow
 * half-way through a line (64 tabs a vector step at the most): each
 * field's text as written.
 */
static void
many_fields(void)
{
	enum { NF = 3000, NL = 3 };
	size_t cap = (size_t)NF * (NL + 1) * 16 + 64, o = 0;
	char *text = malloc(cap), *files[1] = { path }, want[16];
	struct tl_stream s;
	int i, j, ok = 1;

	for (j = 0; j < NF; j++)
		o += (size_t)snprintf(text + o, cap - o, "%sc%d", j ? "\t" : "",
		    j);
	text[o++] = '\n';
	for (i = 1; i <= NL; i++)
		for (j = 0; j < NF; j++)
			o += (size_t)snprintf(text + o, cap - o, "%s%.*s%s",
			    j ? "\t" : "", (i + j) % 4, "x\\y",
			    j + 1 < NF ? "" : "\n");
	write_file(text);
	tl_stream_open(&s, files, 1);
	for (i = 1; i <= NL && tl_stream_next(&s); i++) {
		if (s.nf != NF) {
			ok = 0;
			continue;
		}
		for (j = 0; j < NF; j++) {
			snprintf(want, sizeof(want), "%.*s", (i + j) % 4,
			    "x\\y");
			if (s.flen[j] != strlen(want) ||
			    strcmp(s.f[j], want) != 0)
				ok = 0;
		}
	}
	CHECK(ok && i == NL + 1);
	tl_stream_close(&s);
	free(text);
}

/*
 * A line longer than the reader's buffer (TL_STREAM_BUF), lines across
 * its refills, a last line without a newline: every field as written.
 */
static void
long_lines(void)
{
	enum { BIG = 3 * TL_STREAM_BUF + 5, NL = 40000 };
	size_t cap = BIG + (size_t)NL * 32 + 64, o = 0;
	char *text = malloc(cap), *files[1] = { path }, want[32];
	struct tl_stream s;
	int i, ok = 1;

	o += (size_t)snprintf(text, cap, "a\tb\n");
	memset(text + o, 'q', BIG);
	o += BIG;
	o += (size_t)snprintf(text + o, cap - o, "\tx\\\\y\n");
	for (i = 0; i < NL; i++)
		o += (size_t)snprintf(text + o, cap - o, "r%d\t%s%d%s", i,
		    i % 7 == 0 ? "\\\\" : "", i * 3, i + 1 < NL ? "\n" : "");
	write_file(text);
	tl_stream_open(&s, files, 1);
	CHECK(tl_stream_next(&s) == 1);
	CHECK(s.flen[0] == BIG && s.f[0][0] == 'q' && s.f[0][BIG - 1] == 'q');
	CHECK_STR(tl_stream_get(&s, 1), "x\\y");
	for (i = 0; i < NL && tl_stream_next(&s); i++) {
		snprintf(want, sizeof(want), "r%d", i);
		if (strcmp(tl_stream_get(&s, 0), want) != 0)
			ok = 0;
		snprintf(want, sizeof(want), "%s%d", i % 7 == 0 ? "\\" : "",
		    i * 3);
		if (strcmp(tl_stream_get(&s, 1), want) != 0 ||
		    s.esc[1] != (i % 7 == 0))
			ok = 0;
	}
	CHECK(ok && i == NL);
	CHECK(tl_stream_next(&s) == 0 && s.lineno == NL + 2);
	tl_stream_close(&s);
	free(text);
}

/* tl_stream_parse_double's answer is strtod's, bit for bit. */
static int
same_double(const char *t)
{
	double a, b;
	char *end;
	int r, want;

	r = tl_stream_parse_double(t, strlen(t), &a);
	if (t[0] == '\0')
		return r == 0 && a != a;
	errno = 0;
	b = strtod(t, &end);
	want = *end != '\0' || (errno == ERANGE && b != 0) ? -1 : 1;
	return r == want && memcmp(&a, &b, sizeof(a)) == 0;
}

static void
doubles(void)
{
	static const char *const fixed[] = {
		"", "0", "-0", "1.", ".5", "-", "-.5", "1e5", "1.5E-3", "0x10",
		" 1", "1 ", "inf", "nan", "00012.50", "9007199254740991",
		"9007199254740992", "9007199254740993", "0.1", "-0.3",
		"0.0005565005311969503", "123456789012345678901234",
		"1.0000000000000000000001", "0.00000000000000000000001",
		"4.35e308", "1e-400", "1..2", "1.2.3", "12a", "--1", "+1",
		/* 16 to 19 digits: the 128-bit division, ties to even */
		"4503599627370496.5", "4503599627370497.5",
		"9007199254740993.0", "0.30000000000000004",
		"1.7976931348623157", "9999999999999999999",
		"99999999999999999999", "1844674407370955161.5",
		"0.0000000000000000000000123456789012345678",
		"1234567890123456789", "12345678901234567890",
		"0.1000000000000000055511151231257827",
		"2.2250738585072014", "123.45678901234567",
		/* 20 digits that wrap a 64-bit sum to 0 */
		"18446744073709551616", "0.18446744073709551616",
		"000000000000000000018446744073709551616.5",
		/* eight at a time: runs of 7 to 9 digits around the point */
		"1234567.1234567", "12345678.12345678", "123456789.123456789",
		"1234567812345678", "0.12345678", "12345678.", "1234567x",
		"1234567.123456x", "0000000000000000000000.5"
	};
	uint64_t bits;
	double d;
	char t[48];
	unsigned x = 12345;
	size_t k;
	int i, j, n, ok = 1;

	for (k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
		if (!same_double(fixed[k])) {
			ok = 0;
			fprintf(stderr, "parse_double differs on '%s'\n",
			    fixed[k]);
		}
	for (i = 0; i < 200000; i++) {
		x = x * 1103515245u + 12345u;
		n = 1 + (int)(x >> 16) % 24;
		j = 0;
		if (x & 1)
			t[j++] = '-';
		for (k = 0; k < (size_t)n; k++) {
			x = x * 1103515245u + 12345u;
			t[j++] = (char)('0' + (x >> 16) % 10);
			if (k + 1 < (size_t)n && (x >> 8) % 9 == 0 &&
			    memchr(t, '.', (size_t)j) == NULL)
				t[j++] = '.';
		}
		t[j] = '\0';
		if (!same_double(t)) {
			ok = 0;
			fprintf(stderr, "parse_double differs on '%s'\n", t);
		}
	}
	/* The texts the stream holds: the shortest of random doubles. */
	for (i = 0; i < 200000; i++) {
		x = x * 1103515245u + 12345u;
		bits = (uint64_t)x << 32;
		x = x * 1103515245u + 12345u;
		bits ^= x;
		/* exponents of 1e-6 to 1e16 */
		bits = (bits & 0x800fffffffffffffull) |
		    (uint64_t)(1003 + (x >> 20) % 74) << 52;
		memcpy(&d, &bits, sizeof(d));
		tl_fmt_double(t, sizeof(t), d);
		if (!same_double(t)) {
			ok = 0;
			fprintf(stderr, "parse_double differs on '%s'\n", t);
		}
		snprintf(t, sizeof(t), "%.19f", d);
		t[20] = '\0';		/* 19 or 20 digits, cut */
		if (!same_double(t)) {
			ok = 0;
			fprintf(stderr, "parse_double differs on '%s'\n", t);
		}
	}
	CHECK(ok);
}

int
main(void)
{
	static const short own[] = { TL_COL_FLOPS, TL_COL_BYTES };
	char *files[1];
	struct tl_stream s;

	files[0] = path;
	/* TSV with escapes, CRLF and a blank line. */
	write_file("name\tflops\tnote\r\naten::mm\t5\ta\\tb\\\\c\r\n\nx\t\t\n");
	tl_stream_open(&s, files, 1);
	CHECK(s.ncols == 3);
	CHECK(tl_stream_col(&s, "note") == 2);
	CHECK(tl_stream_col(&s, "nope") == -1);
	CHECK(tl_stream_next(&s) == 1);
	CHECK_STR(tl_stream_get(&s, 0), "aten::mm");
	CHECK_STR(tl_stream_get(&s, 2), "a\tb\\c");
	CHECK(tl_stream_next(&s) == 1);
	CHECK_STR(tl_stream_get(&s, 0), "x");
	CHECK_STR(tl_stream_get(&s, 1), "");
	CHECK(tl_stream_next(&s) == 0);
	tl_stream_close(&s);
	/* Owned columns move to the end, replaced; escapes pass verbatim. */
	CHECK_STR(filter(own, 2, 0),
	    "name\tnote\tflops\tbytes\naten::mm\ta\\tb\\\\c\tX\tX\nx\t\tX\tX\n");
	/* The same to CSV: decoded and quoted. */
	CHECK_STR(filter(own, 2, 1),
	    "name,note,flops,bytes\naten::mm,a\tb\\c,X,X\nx,,X,X\n");
	/* CSV in: quoted commas, quotes, a newline inside a field, blanks kept. */
	write_file("name,dims,flops\n\"aten::mm\",\"[[1, 2],[3]]\",7\n"
	    "\"say \"\"hi\"\"\",\"two\nlines\", 1 \r\n");
	tl_stream_open(&s, files, 1);
	CHECK(s.csv == 1 && s.ncols == 3);
	CHECK(tl_stream_next(&s) == 1);
	CHECK_STR(tl_stream_get(&s, 1), "[[1, 2],[3]]");
	CHECK(tl_stream_next(&s) == 1);
	CHECK_STR(tl_stream_get(&s, 0), "say \"hi\"");
	CHECK_STR(tl_stream_get(&s, 1), "two\nlines");
	CHECK_STR(tl_stream_get(&s, 2), " 1 ");
	CHECK(s.lineno == 4);
	CHECK(tl_stream_next(&s) == 0);
	tl_stream_close(&s);
	CHECK_STR(filter(own, 2, 0),
	    "name\tdims\tflops\tbytes\naten::mm\t[[1, 2],[3]]\tX\tX\n"
	    "say \"hi\"\ttwo\\nlines\tX\tX\n");
	/* Numeric fields: empty is "none", microseconds are exact ns. */
	write_file("flops\tkernel_time_us\n-12\t20.625\n\t\n");
	tl_stream_open(&s, files, 1);
	CHECK(tl_stream_next(&s) == 1);
	{
		int64_t v = 0, ns = 0;

		CHECK(tl_stream_i64(&s, 0, &v) == 1 && v == -12);
		CHECK(tl_stream_us(&s, 1, &ns) == 1 && ns == 20625);
		CHECK(tl_stream_double(&s, 1) == 20.625);
		CHECK(tl_stream_i64(&s, -1, &v) == 0 && v == -12);
		CHECK(tl_stream_next(&s) == 1);
		CHECK(tl_stream_i64(&s, 0, &v) == 0 && v == -12);
		CHECK(tl_stream_us(&s, 1, &ns) == 0 && ns == 20625);
		CHECK(tl_stream_double(&s, 1) != tl_stream_double(&s, 1));
	}
	tl_stream_close(&s);
	/* The tl_stream_try_* forms: -1 where the others would die. */
	write_file("flops\tkernel_time_us\n12a\t.5us\n");
	tl_stream_open(&s, files, 1);
	CHECK(tl_stream_next(&s) == 1);
	{
		int64_t v = 0;
		double d = 0;

		CHECK(tl_stream_try_i64(&s, 0, &v) == -1);
		CHECK(tl_stream_try_us(&s, 1, &v) == -1);
		CHECK(tl_stream_try_double(&s, 1, &d) == -1);
		CHECK(tl_stream_try_double(&s, -1, &d) == 0 && d != d);
	}
	tl_stream_close(&s);
	remove(path);
	split_lines();
	many_fields();
	long_lines();
	doubles();
	return unit_done("test_stream");
}
