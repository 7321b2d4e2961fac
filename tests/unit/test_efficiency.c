/* See LICENSE file for copyright and license details. */
/*
 * lib/analysis/efficiency: the elementwise baseline and --group's
 * statistics on a hand-made stream, computed here by hand; a run that
 * dies (tl_exit_hook) freed by tl_efficiency_free, which the sanitizer
 * build checks for leaks.
 */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/efficiency.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/family.h"
#include "model/roofline.h"
#include "model/model_file.h"
#include "stream/optable.h"
#include "stream/schema.h"
#include "stream/stream.h"
#include "unit.h"

static char in[64], out[64];
static jmp_buf env;

/*
 * Three GEMM rows of one signature (10, 20 and 30 µs, 2 MFLOP and 1 MB
 * each) and one add of 2 MB in 5 µs, under user roofs (100 TFLOPS, 1 TB/s:
 * the add is memory-bound).
 */
static const char stream[] =
    "trace\tname\tinput_dims\tkernel_time_us\tkernel_count\tpct_gpu_time\t"
    "flops\tbytes\tcompute_spec\tkernels\n"
    "t\taten::mm\t[[2,2]]\t10\t1\t10\t2000000\t1000000\tmatrix_bf16\t\n"
    "t\taten::mm\t[[2,2]]\t20\t2\t20\t2000000\t1000000\tmatrix_bf16\t\n"
    "t\taten::add\t[[4]]\t5\t1\t5\t1000\t2000000\tvector_fp32\t\n"
    "t\taten::mm\t[[2,2]]\t30\t1\t30\t2000000\t1000000\tmatrix_bf16\t\n";

static void
hook(int status)
{
	longjmp(env, status);
}

/* Run tl-efficiency on in into out; the number of rows, or -1 if it died. */
static long
run(const char *text, int group, int no_baseline)
{
	struct tl_effopts o = { NULL, TL_ROOF_ACHIEVABLE, 100, 1,
	    { 80, 60, 40 }, TL_PEAK_TOL_PCT, group, no_baseline };
	static struct tl_efficiency *e;
	static FILE *fp;
	char *files[1] = { in };
	struct tl_writer w;
	static long rows;

	unit_write(in, text);
	fp = fopen(out, "w");
	tl_w_init(&w, fp, 0);
	e = tl_efficiency_new(&o);
	rows = -1;
	if (setjmp(env) == 0)
		rows = tl_efficiency_run(e, files, 1, &w);
	tl_efficiency_free(e);
	fclose(fp);
	return rows;
}

/* The output's rows, read back. */
static struct tl_stream s;
static struct tl_rowreader r;

static void
open_out(void)
{
	static const short cols[] = {
		TL_COL_NAME, TL_COL_KERNEL_TIME_US, TL_COL_KERNEL_COUNT,
		TL_COL_PCT_GPU_TIME, TL_COL_TFLOPS_S, TL_COL_TBS, TL_COL_BOUND,
		TL_COL_ELTWISE_BASELINE_TBS, TL_COL_PCT_ELTWISE_BASELINE,
		TL_COL_COUNT, TL_COL_KERNEL_TIME_MEAN_US,
		TL_COL_KERNEL_TIME_STD_US, TL_COL_KERNEL_TIME_MIN_US,
		TL_COL_KERNEL_TIME_MAX_US
	};
	char *files[1] = { out };

	tl_stream_open(&s, files, 1);
	tl_rr_init(&r, &s, cols, (int)(sizeof(cols) / sizeof(cols[0])));
}

static void
close_out(void)
{
	tl_rr_free(&r);
	tl_stream_close(&s);
}

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fabs(b);
}

int
main(void)
{
	char err[256];
	int64_t v = 0;
	int n;

	tl_setprogname("test_efficiency");
	snprintf(in, sizeof(in), "/tmp/tl-test-eff-in-%ld", (long)getpid());
	snprintf(out, sizeof(out), "/tmp/tl-test-eff-out-%ld", (long)getpid());
	if (tl_hw_load(NULL, err, sizeof(err)) < 0 ||
	    tl_optable_load(NULL, tl_perf_family_known) < 0 ||
	    tl_filemodels_setup() < 0)
		tl_die("cannot load the built-in tables: %s", err);
	tl_exit_hook = hook;

	/* Each row: the baseline is the add's 2 MB in 5 µs, 0.4 TB/s. */
	CHECK(run(stream, 0, 0) == 4);
	open_out();
	for (n = 0; tl_rr_next(&r); n++) {
		CHECK(near(tl_rr_num(&r, TL_COL_ELTWISE_BASELINE_TBS), 0.4));
		if (strcmp(tl_rr_text(&r, TL_COL_NAME), "aten::add") == 0) {
			CHECK_STR(tl_rr_text(&r, TL_COL_BOUND), "memory");
			CHECK(near(tl_rr_num(&r, TL_COL_PCT_ELTWISE_BASELINE),
			    100));
		}
	}
	CHECK(n == 4);
	close_out();

	/* Without the baseline its columns are empty. */
	CHECK(run(stream, 0, 1) == 4);
	open_out();
	CHECK(tl_rr_next(&r) == 1);
	CHECK(tl_rr_has(&r, TL_COL_ELTWISE_BASELINE_TBS) &&
	    isnan(tl_rr_num(&r, TL_COL_ELTWISE_BASELINE_TBS)));
	close_out();

	/*
	 * Grouped: the GEMMs, 60 µs in all, first; mean 20, sample standard
	 * deviation sqrt((100 + 0 + 100) / 2) = 10, TFLOPS the mean of
	 * 0.2, 0.1 and 0.0667.
	 */
	CHECK(run(stream, 1, 0) == 4);
	open_out();
	CHECK(tl_rr_next(&r) == 1);
	CHECK_STR(tl_rr_text(&r, TL_COL_NAME), "aten::mm");
	CHECK(tl_rr_ns(&r, TL_COL_KERNEL_TIME_US, &v) == 1 && v == 60000);
	CHECK(tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 3);
	CHECK(tl_rr_num(&r, TL_COL_KERNEL_COUNT) == 4);
	CHECK(tl_rr_num(&r, TL_COL_PCT_GPU_TIME) == 60);
	CHECK(near(tl_rr_num(&r, TL_COL_KERNEL_TIME_MEAN_US), 20));
	CHECK(near(tl_rr_num(&r, TL_COL_KERNEL_TIME_STD_US), 10));
	CHECK(tl_rr_ns(&r, TL_COL_KERNEL_TIME_MIN_US, &v) == 1 && v == 10000);
	CHECK(tl_rr_ns(&r, TL_COL_KERNEL_TIME_MAX_US, &v) == 1 && v == 30000);
	CHECK(near(tl_rr_num(&r, TL_COL_TFLOPS_S),
	    (2e6 / 10e-6 + 2e6 / 20e-6 + 2e6 / 30e-6) / 3 / 1e12));
	CHECK(tl_rr_next(&r) == 1);
	CHECK_STR(tl_rr_text(&r, TL_COL_NAME), "aten::add");
	CHECK(tl_rr_i64(&r, TL_COL_COUNT, &v) == 1 && v == 1);
	CHECK(tl_rr_has(&r, TL_COL_KERNEL_TIME_STD_US) &&
	    tl_rr_text(&r, TL_COL_KERNEL_TIME_STD_US)[0] == '\0');
	CHECK(tl_rr_next(&r) == 0);
	close_out();

	/* Runs that die: in the set-up, and half-way with the spool open. */
	CHECK(run("uid\tkernels\n1\t[]\n", 0, 0) == -1);
	CHECK(run("name\tkernel_time_us\nx\t1\ny\t1e\n", 0, 0) == -1);
	CHECK(run("name\tkernel_time_us\nx\t1\ny\t1e\n", 1, 0) == -1);
	remove(in);
	remove(out);
	return unit_done("test_efficiency");
}
