/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/category.h"
#include "unit.h"

extern const char tl_default_categories[];

#define HDR "value\ttitle\tfile\tcolour\tgroups\tbottleneck_ms\tdescription\n"
#define OTHER "other\tOther\tother\t#7f7f7f\t\t50\tother operation\n"

/* Load text as a table file: 1 if that fails (stderr has the message). */
static int
fails(const char *text)
{
	const char *path = unit_tmpfile(text, strlen(text));
	int rc = tl_categories_load(path);

	unlink(path);
	return rc == -1;
}

int
main(void)
{
	/* The values of the stream's design, serving ones included. */
	static const char *const want[] = {
		"gemm", "conv", "attention", "batchnorm", "layernorm",
		"groupnorm", "instancenorm", "rmsnorm", "softmax", "elementwise",
		"reduce", "comm", "memcpy", "triton", "moe", "rope", "kvcache",
		"quant", "other"
	};
	static const char *const norms[] = {
		"batchnorm", "layernorm", "groupnorm", "instancenorm", "rmsnorm"
	};
	char *text;
	size_t i;
	int c, n;

	/* The built-in table: every value, once, in this order. */
	CHECK(tl_ncategories() == (int)(sizeof(want) / sizeof(want[0])));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(tl_category_index(want[i]) == (int)i);
	CHECK(tl_category_index("norm") == -1);
	CHECK(tl_category_index("GEMM") == -1);
	/* Titles, file names, colours and thresholds of the reports. */
	c = tl_category_index("conv");
	CHECK_STR(tl_category(c)->title, "Convolution");
	CHECK_STR(tl_category(c)->file, "convolution");
	CHECK_STR(tl_category(c)->colour, "#ff7f0e");
	CHECK(tl_category_parse("convolution") == c);
	CHECK(tl_category_parse("conv") == c);
	CHECK(tl_category_parse("communication") == tl_category_index("comm"));
	CHECK(tl_category_parse("nope") == -1);
	CHECK_STR(tl_category(tl_category_index("comm"))->title,
	    "Collective communication");
	CHECK(tl_category(tl_category_index("batchnorm"))->bottleneck_ms == 10);
	CHECK(tl_category(tl_category_index("gemm"))->bottleneck_ms == 50);
	CHECK_STR(tl_category(tl_category_index("attention"))->description,
	    "scaled dot-product attention");
	/* The groups: norm is the five norms, sdpa is attention. */
	for (n = 0, c = 0; c < tl_ncategories(); c++) {
		int norm = 0;

		for (i = 0; i < sizeof(norms) / sizeof(norms[0]); i++)
			norm |= tl_category_is(c, norms[i]);
		CHECK(tl_category_in_group(c, "norm") == norm);
		CHECK(tl_category_in_group(c, "sdpa") ==
		    tl_category_is(c, "attention"));
		CHECK(!tl_category_in_group(c, "nor"));
		n += norm;
	}
	CHECK(n == 5);
	CHECK_STR(tl_category_groups(), "norm, sdpa");
	CHECK(tl_category_is(0, "gemm") && !tl_category_is(-1, "gemm") &&
	    !tl_category_is(tl_ncategories(), "gemm"));

	/* A copy with one more row: the row is a category like the others. */
	n = tl_ncategories();
	text = malloc(strlen(tl_default_categories) + 128);
	strcpy(text, tl_default_categories);
	strcat(text, "new_cat\tNew category\tnew_file\t#123456\tnorm,extra\t"
	    "25\tsomething new\n");
	CHECK(tl_categories_load(unit_tmpfile(text, strlen(text))) == 0);
	unlink(unit_tmp);
	free(text);
	c = tl_category_index("new_cat");
	CHECK(c == n && tl_ncategories() == n + 1);
	CHECK(tl_category_parse("new_file") == c);
	CHECK_STR(tl_category(c)->colour, "#123456");
	CHECK(tl_category(c)->bottleneck_ms == 25);
	CHECK(tl_category_in_group(c, "norm") && tl_category_in_group(c,
	    "extra") && !tl_category_in_group(c, "sdpa"));
	CHECK_STR(tl_category_groups(), "extra, norm, sdpa");

	/* Bad tables fail and leave the table loaded before. */
	CHECK(fails(HDR "Gemm\tGEMM\tgemm\t#000000\t\t50\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\t\t50\tx\na\tB\tb\t#000000\t\t50\t"
	    "y\n" OTHER));
	CHECK(fails(HDR "a\tA\tf\t#000000\t\t50\tx\nb\tB\tf\t#000000\t\t50\t"
	    "y\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#00000\t\t50\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#ABCDEF\t\t50\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\tx y\t50\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\tother\t50\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\t\t0\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\t\t5ms\tx\n" OTHER));
	CHECK(fails(HDR "a\t\ta\t#000000\t\t50\tx\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\t\t50\t\n" OTHER));
	CHECK(fails(HDR "a\tA\ta\t#000000\t\t50\tx\n"));
	CHECK(fails("value\ttitle\n" OTHER));
	CHECK(tl_category_index("new_cat") == n);

	/* TL_CAT_MAX categories load, one more does not. */
	text = malloc(TL_CAT_MAX * 64 + 256);
	strcpy(text, HDR OTHER);
	for (i = 1; i < TL_CAT_MAX; i++)
		sprintf(text + strlen(text), "c%zu\tC\tc%zu\t#000000\t\t1\tx\n",
		    i, i);
	CHECK(tl_categories_load(unit_tmpfile(text, strlen(text))) == 0);
	unlink(unit_tmp);
	CHECK(tl_ncategories() == TL_CAT_MAX);
	strcat(text, "last\tC\tlast\t#000000\t\t1\tx\n");
	CHECK(fails(text));
	CHECK(tl_ncategories() == TL_CAT_MAX);
	free(text);
	/* The built-in table again. */
	CHECK(tl_categories_load(NULL) == 0 && tl_ncategories() == n);
	return unit_done("test_category");
}
