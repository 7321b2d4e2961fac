/* See LICENSE file for copyright and license details. */
#include <stdlib.h>

#include "common/tsv.h"
#include "unit.h"

static const char *
fmt(double d)
{
	static char buf[64];

	tl_fmt_double(buf, sizeof(buf), d);
	return buf;
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
	return unit_done("test_tsv");
}
