/* See LICENSE file for copyright and license details. */
#include "stream/kernlist.h"
#include "unit.h"

/* 1 if a and b hold the same events and said the same. */
static int
same(const struct tl_kernlist *a, int ra, const struct tl_kernlist *b, int rb)
{
	size_t i;

	if (ra != rb || a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		const struct tl_kitem *x = &a->v[i], *y = &b->v[i];

		if (x->ts != y->ts || x->dur != y->dur ||
		    x->launch != y->launch || x->launch_bad != y->launch_bad ||
		    x->grid != y->grid || x->block != y->block ||
		    x->namelen != y->namelen ||
		    memcmp(x->name, y->name, x->namelen + 1) != 0)
			return 0;
	}
	return 1;
}

/*
 * The list as tl-parse writes it, and every one-byte change of it: read
 * as it is (the plain reader, or the tokeniser when that gives up) and
 * after a leading blank (the tokeniser only), the two must agree.
 */
static void
mutations(void)
{
	static const char *const texts[] = {
		"[{\"uid\":1,\"name\":\"gemm_kernel\",\"pid\":\"2\","
		"\"stream\":7,\"ts\":2915995412271.24,\"dur\":3.965,"
		"\"launch_ts\":2915995412228.036,\"grid\":305,\"block\":256},"
		"{\"uid\":2,\"name\":"
		"\"void at::native::f<16, long>(char*)\",\"pid\":\"2\","
		"\"stream\":null,\"ts\":-5,\"dur\":0}]",
		"[{\"name\":\"\xc3\xa9t\xe9\",\"ts\":1e3,\"dur\":1.0005,"
		"\"ts\":2,\"dur\":true}]",
		"[{\"dur\":1,\"name\":\"a\",\"ts\":1,\"launch_ts\":12,"
		"\"x\":false}]",
	};
	static const char repl[] = "\"\\,}]{[: 0-xne.\x01\xc3";
	struct tl_kernlist a, b;
	char buf[512], blank[514];
	size_t t, i, r, n;
	int agree = 1, plain = 0;

	tl_kernlist_init(&a);
	tl_kernlist_init(&b);
	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		n = strlen(texts[t]);
		for (i = 0; i <= n; i++)
			for (r = 0; r < sizeof(repl) - 1; r++) {
				int ra, rb;

				memcpy(buf, texts[t], n + 1);
				if (i < n)
					buf[i] = repl[r];
				blank[0] = ' ';
				memcpy(blank + 1, buf, n + 1);
				ra = tl_kernlist_read(&a, buf);
				rb = tl_kernlist_read(&b, blank);
				plain += ra == 0 && a.n > 0;
				if (!same(&a, ra, &b, rb)) {
					agree = 0;
					printf("differ: %s\n", buf);
				}
				if (i == n)
					break;
			}
	}
	CHECK(agree);
	CHECK(plain > 100);
	tl_kernlist_free(&a);
	tl_kernlist_free(&b);
}

int
main(void)
{
	struct tl_kernlist k;

	tl_kernlist_init(&k);
	CHECK(tl_kernlist_read(&k, "") == 0 && k.n == 0);
	CHECK(tl_kernlist_read(&k, "[]") == 0 && k.n == 0);
	CHECK(tl_kernlist_read(&k, "[{\"name\":") == -1 && k.n == 0);
	CHECK(tl_kernlist_read(&k, "{\"name\":\"a\",\"ts\":1,\"dur\":2}") ==
	    -1 && k.n == 0);

	/* Times in ns, escapes decoded, the first of a repeated member. */
	CHECK(tl_kernlist_read(&k, "[{\"uid\":1,\"name\":\"gemm\\u00e9\\\"x\\\"\","
	    "\"ts\":10.5,\"dur\":0.0015,\"launch_ts\":9.25,\"ts\":99},"
	    "{\"name\":\"copy\",\"ts\":\"12\",\"dur\":3}]") == 0);
	CHECK(k.n == 2);
	if (k.n == 2) {
		CHECK_STR(k.v[0].name, "gemm\xc3\xa9\"x\"");
		CHECK(k.v[0].namelen == 9);
		CHECK(k.v[0].ts == 10500 && k.v[0].dur == 2);
		CHECK(k.v[0].launch == 9250 && !k.v[0].launch_bad);
		/* A time as a JSON string reads as its text. */
		CHECK_STR(k.v[1].name, "copy");
		CHECK(k.v[1].ts == 12000 && k.v[1].dur == 3000);
		CHECK(k.v[1].launch == -1 && !k.v[1].launch_bad);
	}

	/* A kernel's workgroups and their work-items; -1 when absent. */
	CHECK(tl_kernlist_read(&k, "[{\"name\":\"g\",\"ts\":1,\"dur\":1,"
	    "\"grid\":305,\"block\":256},{\"name\":\"h\",\"ts\":2,"
	    "\"dur\":1}]") == 0);
	CHECK(k.n == 2 && k.v[0].grid == 305 && k.v[0].block == 256 &&
	    k.v[1].grid == -1 && k.v[1].block == -1);

	/* A launch time that is not one: marked, and the list goes on. */
	CHECK(tl_kernlist_read(&k, "[{\"name\":\"a\",\"ts\":1,\"dur\":1,"
	    "\"launch_ts\":\"soon\"},{\"name\":\"b\",\"ts\":2,\"dur\":1}]") == 0);
	CHECK(k.n == 2 && k.v[0].launch_bad && !k.v[1].launch_bad);

	/* The events before the first bad one, and -1. */
	CHECK(tl_kernlist_read(&k, "[{\"name\":\"a\",\"ts\":1,\"dur\":1},"
	    "{\"name\":\"b\",\"ts\":2},{\"name\":\"c\",\"ts\":3,\"dur\":1}]") ==
	    -1);
	CHECK(k.n == 1 && strcmp(k.v[0].name, "a") == 0);
	CHECK(tl_kernlist_read(&k, "[{\"name\":\"a\",\"ts\":1,\"dur\":-1}]") ==
	    -1 && k.n == 0);
	CHECK(tl_kernlist_read(&k, "[{\"name\":\"a\",\"ts\":1,\"dur\":1},7]") ==
	    -1 && k.n == 1);

	/* Many long names: the names buffer moves as it grows. */
	{
		char buf[40000];
		size_t o = 0;
		int i, ok = 1;

		buf[o++] = '[';
		for (i = 0; i < 300; i++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o,
			    "%s{\"name\":\"kernel_%03d_%s\",\"ts\":%d,\"dur\":1}",
			    i ? "," : "", i, "abcdefghijklmnopqrstuvwxyz0123456789"
			    "abcdefghijklmnopqrstuvwxyz", i);
		buf[o++] = ']';
		buf[o] = '\0';
		CHECK(tl_kernlist_read(&k, buf) == 0 && k.n == 300);
		for (i = 0; i < 300 && (size_t)i < k.n; i++) {
			char want[128];

			snprintf(want, sizeof(want), "kernel_%03d_%s", i,
			    "abcdefghijklmnopqrstuvwxyz0123456789"
			    "abcdefghijklmnopqrstuvwxyz");
			if (strcmp(k.v[i].name, want) != 0 ||
			    k.v[i].ts != (int64_t)i * 1000)
				ok = 0;
		}
		CHECK(ok);
	}
	mutations();
	tl_kernlist_free(&k);
	return unit_done("test_kernlist");
}
