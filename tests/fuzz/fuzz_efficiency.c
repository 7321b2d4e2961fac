/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as an op stream (TSV or CSV) through
 * tl-efficiency itself: cmd/tl-efficiency.c is compiled into this file
 * (its main renamed, its standard output a memory stream), and its run()
 * is called once per input with the options set as its main would set
 * them.  So the whole efficiency path is fuzzed: the perf columns read
 * back or the perf model run, the GPU of each row (--hw NAME, --hw auto
 * from trace_gpu, or user peaks), the roofline, the elementwise baseline
 * over a temporary spool, --group's statistics and --no-baseline.
 *
 * tl-efficiency ends on bad input through tl_die (exit 1), as it must;
 * the harness catches that (harness.h) and then frees the program's
 * static state, closes its spool and resets it, as a new process would
 * start.  Any other exit is a crash.
 *
 * Options come from a hash of the input: the GPU, the roof kind, the
 * output format, --group or --no-baseline or neither.
 *
 * Checked besides the sanitizers: every line written has the header's
 * number of fields; without --group there is one output row per input
 * row, with it at most as many, and at least one when there are rows.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/jsonw.h"
#include "common/strmap.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "model/perfcols.h"
#include "model/roofline.h"
#include "stream/category.h"
#include "stream/stream.h"

#define HARNESS "fuzz_efficiency"
#include "harness.h"

/* What the program's standard output, spool and rows become here. */
static FILE *fz_stdout;
static FILE *fz_spool;
static long fz_rows;

static int
fz_close_out(void)
{
	return fflush(fz_stdout) != 0 || ferror(fz_stdout);
}

static FILE *
fz_tmpfile(void)
{
	return fz_spool = tmpfile();
}

static int
fz_fclose(FILE *fp)
{
	if (fp == fz_spool)
		fz_spool = NULL;
	return fclose(fp);
}

static int
fz_stream_next(struct tl_stream *s)
{
	int r = tl_stream_next(s);

	fz_rows += r;
	return r;
}

/* The program, with these in place of the real ones. */
#undef stdout
#define stdout fz_stdout
#define tmpfile fz_tmpfile
#define fclose fz_fclose
#define tl_close_stdout() fz_close_out()
#define tl_stdout_buffer() ((void)0)
#define tl_stream_next fz_stream_next
#define main efficiency_main
int efficiency_main(int, char *[]);
#include "../../cmd/tl-efficiency.c"
#undef main
#undef tl_stream_next
#undef tl_stdout_buffer
#undef tl_close_stdout
#undef fclose
#undef tmpfile
#undef stdout
#define stdout stdout

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tl_setprogname(HARNESS);
	fz_open_inputs();
	fz_load_tables();
	re.have_perf = 1;	/* no perf model set up to free */
	fz_catch();
	return 0;
}

/* Free the program's state, as a new process would start. */
static void
reset(void)
{
	size_t i, k;

	tl_roweff_free(&re);
	re.have_perf = 1;
	tl_hwauto_free(&hwa);
	tl_stream_close(&in);
	free(owned);
	owned = NULL;
	nowned = 0;
	tl_outcols_free(&oc);
	memset(&oc, 0, sizeof(oc));
	for (i = 0; i < ntraces; i++)
		free(traces[i].name);
	free(traces);
	traces = NULL;
	ntraces = captraces = 0;
	free(notes);
	notes = NULL;
	nnotes = capnotes = 0;
	for (i = 0; i < ngroups; i++) {
		for (k = 0; groups[i].field[k] != NULL; k++)
			free(groups[i].field[k]);
		free(groups[i].field);
	}
	free(groups);
	groups = NULL;
	ngroups = capgroups = 0;
	tl_jb_free(&sigbuf);
	tl_strmap_free(&gmap);
	if (fz_spool != NULL)
		fclose(fz_spool);
	fz_spool = NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const gpus[] = { "mi300x", "h100", "auto", NULL };
	static const double thr[2][3] = { { 80, 60, 40 }, { 1, 0.5, 0 } };
	static char *files[1];
	static char *out;
	static size_t outlen;
	uint32_t h = fz_hash(data, size);
	long rows;

	fz_put_input(0, data, size);
	files[0] = fz_path[0];
	memset(&opt, 0, sizeof(opt));
	opt.hw = gpus[h & 3];
	if (opt.hw == NULL) {
		opt.peak_tflops = 1307.4;
		opt.peak_tbs = 5.3;
	}
	hw_fixed = opt.hw != NULL && strcmp(opt.hw, "auto") != 0 ?
	    tl_hw_find(opt.hw) : NULL;
	CHECK(tl_hwauto_init(&hwa, hw_fixed, NULL, 0, NULL, 0) == 0);
	opt.roof = (h >> 2) & 1 ? TL_ROOF_PEAK : TL_ROOF_AUTO;
	opt.csv = (h >> 3) & 1;
	opt.group = ((h >> 4) % 3) == 1;
	opt.no_baseline = ((h >> 4) % 3) == 2;
	memcpy(opt.thr, thr[(h >> 6) & 1], sizeof(opt.thr));
	if ((fz_stdout = open_memstream(&out, &outlen)) == NULL)
		tl_die("open_memstream:");
	fz_rows = 0;
	fz_armed = 1;
	if (setjmp(fz_env) == 0) {
		CHECK(run(1, files) == 0);
		fz_armed = 0;
		rows = fz_check_fields(out, outlen, opt.csv, 0);
		if (opt.group)
			CHECK(rows <= fz_rows && (fz_rows == 0 || rows > 0));
		else
			CHECK(rows == fz_rows);
	}
	reset();
	if (fclose(fz_stdout) != 0)
		tl_die("fclose:");
	fz_stdout = NULL;
	free(out);
	out = NULL;
	return 0;
}
