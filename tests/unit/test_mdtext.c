/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/mdtext.h"
#include "unit.h"

/* What tl_md_op writes, as a string (freed by the next call). */
static const char *
op(const char *name, const char *dims)
{
	static char *text;
	size_t size = 0;
	FILE *fp;

	free(text);
	text = NULL;
	fp = open_memstream(&text, &size);
	tl_md_op(fp, name, dims);
	fclose(fp);
	return text;
}

int
main(void)
{
	/* Milliseconds, rounded to the microsecond, half up. */
	CHECK_STR(tl_md_ms(1234567), "1.235");
	CHECK_STR(tl_md_ms(-1234567), "-1.235");
	CHECK_STR(tl_md_ms(0), "0.000");
	/* Signed forms: a sign on what is not zero, none on zero. */
	CHECK_STR(tl_md_ms_signed(1234567), "+1.235");
	CHECK_STR(tl_md_ms_signed(-1234567), "-1.235");
	CHECK_STR(tl_md_ms_signed(-400), "0.000");	/* tl_md_ms: -0.000 */
	CHECK_STR(tl_md_ms_signed(400), "0.000");
	CHECK_STR(tl_md_ms_signed(500), "+0.001");
	CHECK_STR(tl_md_num_signed(30.898753246099933, 1), "+30.9");
	CHECK_STR(tl_md_num_signed(-32.99, 1), "-33.0");
	CHECK_STR(tl_md_num_signed(-0.04, 1), "0.0");
	CHECK_STR(tl_md_num_signed(0.04, 1), "0.0");
	CHECK_STR(tl_md_num_signed(-0.5, 1), "-0.5");
	CHECK_STR(tl_md_num_signed(10, 0), "+10");
	CHECK_STR(tl_md_num(-0.0001, 2), "0.00");
	/* Exact microseconds and shortest doubles. */
	CHECK_STR(tl_md_us(4055251), "4055.251");
	CHECK_STR(tl_md_us(-1000), "-1");
	CHECK_STR(tl_md_exact(989.4), "989.4");
	CHECK_STR(tl_md_exact(0.7567691601652133), "0.7567691601652133");
	/* Several numbers in one printf: the ring keeps them apart. */
	{
		char buf[64];

		snprintf(buf, sizeof(buf), "%s %s %s",
		    tl_md_ms_signed(-2000000), tl_md_num_signed(1.25, 2),
		    tl_md_us(7));
		CHECK_STR(buf, "-2.000 +1.25 0.007");
	}
	/* An op as code: name, and shapes when given; | escaped. */
	CHECK_STR(op("aten::mm", "[[8,4],[4,2]]"),
	    "`aten::mm` `[[8,4],[4,2]]`");
	CHECK_STR(op("aten::arange", ""), "`aten::arange`");
	CHECK_STR(op("a|b", ""), "`a\\|b`");
	/*
	 * Text: markup escaped with a backslash, an intraword _ kept,
	 * control characters spelt out; code: backticks as quotes, the rest
	 * as is.
	 */
	{
		struct tl_jbuf b = { NULL, 0, 0 };

		tl_md_text_jb(&b, "#a [l](u) <b> *e* _i_ kernel_time_us "
		    "`c` \\ & ~|\n", SIZE_MAX);
		tl_jb_raw(&b, "", 1);
		CHECK_STR(b.s, "\\#a \\[l\\](u) \\<b\\> \\*e\\* "
		    "\\_i\\_ kernel_time_us \\`c\\` \\\\ \\& \\~\\|\\n");
		tl_jb_reset(&b);
		tl_md_code_jb(&b, "a`b [l](u) <b>\t\x01", SIZE_MAX);
		tl_jb_raw(&b, "", 1);
		CHECK_STR(b.s, "`a'b [l](u) <b>\\t\\x01`");
		tl_jb_reset(&b);
		tl_md_code_jb(&b, "abc\xc3\xa9" "def", 4);	/* not in the é */
		tl_jb_raw(&b, "", 1);
		CHECK_STR(b.s, "`abc\xc3\xa9...`");
		tl_jb_free(&b);
	}
	CHECK_STR(tl_md_prio_mark(TL_PRIO_CRITICAL), "🔴");
	CHECK_STR(tl_md_prio_mark(TL_PRIO_LOW), "🟢");
	return unit_done("test_mdtext");
}
