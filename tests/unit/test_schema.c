/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/jsonw.h"
#include "model/perfcols.h"
#include "stream/schema.h"
#include "stream/stream.h"
#include "unit.h"

static char path[64];

static void
write_file(const char *text)
{
	snprintf(path, sizeof(path), "/tmp/tl-test-schema-%ld", (long)getpid());
	unit_write(path, text);
}

static int
ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Names are unique snake_case; the unit follows from the name. */
static void
columns(void)
{
	static const char snake[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
	int c, d, bad = 0, side = 0;

	for (c = 0; c < TL_COL_N; c++) {
		const struct tl_coldef *k = &tl_cols[c];
		const char *n = k->name;
		int pct = strncmp(n, "pct_", 4) == 0 || ends(n, "_pct") ||
		    strstr(n, "_pct_") != NULL;

		if (n == NULL || strspn(n, snake) != strlen(n) ||
		    n[0] == '_' || tl_col_find(n) != c) {
			printf("FAIL column %d: '%s'\n", c, n ? n : "(null)");
			bad++;
			continue;
		}
		for (d = c + 1; d < TL_COL_N; d++)
			bad += strcmp(n, tl_cols[d].name) == 0;
		bad += ends(n, "_us") != (strcmp(k->unit, "µs") == 0);
		bad += k->type == TL_CT_US && !ends(n, "_us");
		bad += pct != (strcmp(k->unit, "%") == 0);
		bad += ends(n, "tbs") != (strcmp(k->unit, "TB/s") == 0);
		bad += (ends(n, "tflops") || ends(n, "tflops_s")) !=
		    (strcmp(k->unit, "TFLOPS") == 0);
		/* Each reference column has its target's. */
		if (strncmp(n, "ref_", 4) == 0 && strcmp(n, "ref_checksum")) {
			char t[64];

			snprintf(t, sizeof(t), "target_%s", n + 4);
			bad += tl_col_find(t) < 0;
			side++;
		}
	}
	CHECK(bad == 0);
	CHECK(side == 24);
	CHECK(tl_col_find("no_such_column") == -1);
	CHECK(tl_col_side(TL_COL_KERNEL_TIME_US, 0) ==
	    TL_COL_REF_KERNEL_TIME_US);
	CHECK(tl_col_side(TL_COL_KERNEL_TIME_US, 1) ==
	    TL_COL_TARGET_KERNEL_TIME_US);
	CHECK(tl_col_side(TL_COL_UID, 1) == -1);
}

/* The tables: columns in range, the perf columns as perfcols numbers them. */
static void
tables(void)
{
	int t, k, bad = 0;

	for (t = 0; t < TL_TAB_N; t++) {
		const struct tl_tabdef *d = &tl_tables[t];

		bad += d->progs == NULL || d->ncols < 1;
		for (k = 0; k < d->ncols; k++)
			bad += d->cols[k] < 0 || d->cols[k] >= TL_COL_N;
	}
	CHECK(bad == 0);
	CHECK(tl_tables[TL_TAB_PERF].ncols == TL_PC_N);
	CHECK(tl_tables[TL_TAB_PERF].cols[TL_PC_SPEC] == TL_COL_COMPUTE_SPEC);
	CHECK(tl_tables[TL_TAB_LAUNCHERS].ncols ==
	    tl_tables[TL_TAB_OPS].ncols + 1);
	CHECK(tl_tables[TL_TAB_COMPARE].ncols == 17 + 2 * 16 + 9 + 2 * 6);
	for (k = 0; k < TL_TLC_N; k++)
		CHECK(strncmp(tl_col_name(tl_tlc_cols[k]), "trace_", 6) == 0);
}

/* Key k is the text want, with '|' for the separator 0x1f. */
static int
key_is(const struct tl_jbuf *k, const char *want)
{
	size_t i;

	if (k->n != strlen(want))
		return 0;
	for (i = 0; i < k->n; i++)
		if (k->s[i] != (want[i] == '|' ? '\x1f' : want[i]))
			return 0;
	return 1;
}

/* The keys of the three kinds of signature. */
static void
signature(void)
{
	const char *f[TL_SIG_N] = { "t.json", "aten::mm", "[[2,3],[3,4]]",
	    "[\"float\"]", "[[3,1],[4,1]]", NULL };
	struct tl_jbuf k = { NULL, 0, 0 };

	tl_sig_key(&k, TL_SIGKEY_FULL, f);
	CHECK(key_is(&k, "t.json|aten::mm|[[2,3],[3,4]]|[\"float\"]|"
	    "[[3,1],[4,1]]||"));
	tl_sig_key(&k, TL_SIGKEY_OP, f);
	CHECK(key_is(&k, "aten::mm|[[2,3],[3,4]]|[\"float\"]|[[3,1],[4,1]]||"));
	tl_sig_key(&k, TL_SIGKEY_LOOSE, f);
	CHECK(key_is(&k, "aten::mm|[[2,3],[3,4]]|[\"float\"]||"));
	tl_sig_more(&k, "gemm");
	CHECK(key_is(&k, "aten::mm|[[2,3],[3,4]]|[\"float\"]||gemm|"));
	tl_jb_free(&k);
}

/* The row reader on a TSV stream: text, numbers, escapes, absence. */
static void
reader(void)
{
	static const short cols[] = {
		TL_COL_NAME, TL_COL_KERNELS, TL_COL_CALL_STACK, TL_COL_COUNT,
		TL_COL_KERNEL_TIME_US, TL_COL_PCT_GPU_TIME, TL_COL_FLOPS,
		TL_COL_MODULE
	};
	static const short few[] = { TL_COL_NAME, TL_COL_COUNT };
	char *files[1] = { path };
	struct tl_stream s;
	struct tl_rowreader r, r2;
	int64_t v = 0;

	write_file("name\tcount\tkernel_time_us\tkernels\tpct_gpu_time\t"
	    "call_stack\tflops\n"
	    "aten::mm\t3\t20.625\t[{\"name\":\"a\\\\\"b\"}]\t12.5\tx\\ty\t\n"
	    "aten::add\t\t.5us\t\tnan\t\t1.5\n");
	tl_stream_open(&s, files, 1);
	tl_rr_init(&r, &s, cols, (int)(sizeof(cols) / sizeof(cols[0])));
	tl_rr_init(&r2, &s, few, 2);
	CHECK(tl_rr_has(&r, TL_COL_NAME) && tl_rr_has(&r, TL_COL_FLOPS));
	CHECK(!tl_rr_has(&r, TL_COL_MODULE) && r.pos[TL_COL_KERNELS] == 3);
	CHECK(tl_rr_next(&r) == 1);
	CHECK_STR(tl_rr_text(&r, TL_COL_NAME), "aten::mm");
	/* Two escaped fields decoded side by side. */
	CHECK_STR(tl_rr_text(&r, TL_COL_KERNELS), "[{\"name\":\"a\\\"b\"}]");
	CHECK_STR(tl_rr_text(&r, TL_COL_CALL_STACK), "x\ty");
	CHECK_STR(tl_rr_text(&r, TL_COL_MODULE), "");
	CHECK(tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 3);
	CHECK(tl_rr_field(&r, TL_COL_COUNT)->d == 3);
	CHECK(tl_rr_ns(&r, TL_COL_KERNEL_TIME_US, &v) == 1 && v == 20625);
	CHECK(tl_rr_num(&r, TL_COL_KERNEL_TIME_US) == 20.625);
	CHECK(tl_rr_num(&r, TL_COL_PCT_GPU_TIME) == 12.5);
	CHECK(tl_rr_i64(&r, TL_COL_FLOPS, &v) == 0 && v == 20625);
	CHECK(isnan(tl_rr_num(&r, TL_COL_FLOPS)));
	/* A second reader fills the same row. */
	tl_rr_fill(&r2);
	CHECK_STR(tl_rr_text(&r2, TL_COL_NAME), "aten::mm");
	CHECK(tl_rr_field(&r2, TL_COL_COUNT)->i == 3 &&
	    tl_rr_text(&r2, TL_COL_KERNELS)[0] == '\0');
	/* Bad numbers are kept as has < 0, for the readers that check. */
	CHECK(tl_rr_next(&r) == 1);
	CHECK(tl_rr_field(&r, TL_COL_COUNT)->has == 0);
	CHECK(tl_rr_field(&r, TL_COL_KERNEL_TIME_US)->has == -1);
	CHECK_STR(tl_rr_text(&r, TL_COL_KERNEL_TIME_US), ".5us");
	CHECK(tl_rr_field(&r, TL_COL_FLOPS)->has == -1);
	/* strtod reads "nan", but the rule for numbers wants them finite. */
	CHECK(tl_rr_field(&r, TL_COL_PCT_GPU_TIME)->has == -1);
	CHECK_STR(tl_rr_why(&r, TL_COL_PCT_GPU_TIME), "is not finite");
	CHECK_STR(tl_rr_why(&r, TL_COL_KERNEL_TIME_US), "is not a number");
	CHECK_STR(tl_rr_why(&r, TL_COL_FLOPS), "is not an integer");
	CHECK_STR(tl_rr_text(&r, TL_COL_CALL_STACK), "");
	CHECK(tl_rr_next(&r) == 0);
	tl_rr_free(&r);
	tl_rr_free(&r2);
	tl_stream_close(&s);
	/*
	 * A column listed twice (two modules' lists, TL_ROWEFF_COLS and
	 * TL_HWAUTO_COLS) is read once: an escaped field that is most of
	 * its row, decoded twice, would outgrow the room sized for once.
	 */
	{
		static const short twice[] = {
			TL_COL_TRACE, TL_COL_COUNT, TL_COL_TRACE
		};
		char text[400], want[300];

		memset(want, 'x', 298);
		want[298] = '\t';
		want[299] = '\0';
		snprintf(text, sizeof(text), "trace\tcount\n%.298s\\t\t1\n",
		    want);
		write_file(text);
		tl_stream_open(&s, files, 1);
		tl_rr_init(&r, &s, twice, 3);
		CHECK(r.nread == 2);
		CHECK(tl_rr_next(&r) == 1);
		CHECK_STR(tl_rr_text(&r, TL_COL_TRACE), want);
		CHECK(tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 1);
		tl_rr_free(&r);
		tl_stream_close(&s);
	}
	/* CSV: the same reader. */
	write_file("count,name\n7,\"a,b\"\n");
	tl_stream_open(&s, files, 1);
	tl_rr_init(&r, &s, few, 2);
	CHECK(tl_rr_next(&r) == 1);
	CHECK_STR(tl_rr_text(&r, TL_COL_NAME), "a,b");
	CHECK(tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 7);
	tl_rr_free(&r);
	tl_stream_close(&s);
	remove(path);
}

/*
 * A number that repeats row after row is read once: each row still has
 * its own text's value, also after a bad, an empty or a long text.
 */
static void
repeats(void)
{
	static const short cols[] = { TL_COL_COUNT, TL_COL_KERNEL_TIME_US };
	static const struct {
		int has;
		int64_t count, ns;
	} want[] = {
		{ 1, 7, 1500 }, { 1, 7, 1500 }, { -1, 0, 1500 },
		{ -1, 0, 1500 }, { 0, 0, 1500 }, { 0, 0, 1500 }, { 1, 7, 2500 },
		{ 1, 123456789012345678, 2500 }, { 1, 123456789012345678, 2500 },
		{ 1, 8, 1500 }
	};
	char *files[1] = { path };
	struct tl_stream s;
	struct tl_rowreader r;
	size_t k;

	write_file("count\tkernel_time_us\n7\t1.5\n7\t1.5\n7x\t1.5\n"
	    "7x\t1.5\n\t1.5\n\t1.5\n7\t2.5\n"
	    "0000123456789012345678\t2.50\n0000123456789012345678\t2.500\n"
	    "8\t1.5\n");
	tl_stream_open(&s, files, 1);
	tl_rr_init(&r, &s, cols, 2);
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const struct tl_field *c, *t;

		CHECK(tl_rr_next(&r) == 1);
		c = tl_rr_field(&r, TL_COL_COUNT);
		t = tl_rr_field(&r, TL_COL_KERNEL_TIME_US);
		CHECK(c->has == want[k].has);
		if (c->has > 0)
			CHECK(c->i == want[k].count &&
			    c->d == (double)want[k].count);
		if (c->has < 0)
			CHECK_STR(tl_rr_why(&r, TL_COL_COUNT),
			    "is not an integer");
		CHECK(t->has == 1 && t->i == want[k].ns);
	}
	CHECK(tl_rr_next(&r) == 0);
	tl_rr_free(&r);
	tl_stream_close(&s);
	/*
	 * A column that changes row after row stops keeping its last text
	 * (TL_RR_MEMO_OFF): each row still reads its own value, a repeat
	 * and a bad text after it included.
	 */
	{
		char text[800];
		size_t n = 0;
		int64_t v;

		n += (size_t)snprintf(text + n, sizeof(text) - n, "count\n");
		for (k = 0; k < 3 * TL_RR_MEMO_OFF; k++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
			    "%zu\n", k + 1);
		snprintf(text + n, sizeof(text) - n, "5\n5\n5x\n5\n6\n6\n");
		write_file(text);
		tl_stream_open(&s, files, 1);
		tl_rr_init(&r, &s, cols, 1);
		for (k = 0; k < 3 * TL_RR_MEMO_OFF; k++) {
			CHECK(tl_rr_next(&r) == 1);
			CHECK(tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 &&
			    v == (int64_t)k + 1);
		}
		CHECK(tl_rr_next(&r) == 1 &&
		    tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 5);
		CHECK(tl_rr_next(&r) == 1 &&
		    tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 5);
		CHECK(tl_rr_next(&r) == 1 &&
		    tl_rr_field(&r, TL_COL_COUNT)->has == -1);
		CHECK(tl_rr_next(&r) == 1 &&
		    tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 5);
		CHECK(tl_rr_next(&r) == 1 &&
		    tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 6);
		CHECK(tl_rr_next(&r) == 1 &&
		    tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 6);
		CHECK(tl_rr_next(&r) == 0);
		tl_rr_free(&r);
		tl_stream_close(&s);
	}
}

int
main(void)
{
	columns();
	tables();
	signature();
	reader();
	repeats();
	return unit_done("test_schema");
}
