/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as an op stream (TSV or CSV) through
 * tl-efficiency's library (lib/analysis/efficiency), as the program runs
 * it, once per input.  So the whole efficiency path is fuzzed: the perf
 * columns read back or the perf model run, the GPU of each row (--hw
 * NAME, --hw auto from the trace_gpu* columns, or user peaks), the
 * roofline, the elementwise baseline over a temporary spool, --group's
 * statistics and --no-baseline.
 *
 * tl-efficiency ends on bad input through tl_die (exit 1), as it must;
 * the harness catches that (harness.h) and then frees the run, which
 * closes its spool, as a new process would start.  Any other exit is a
 * crash.
 *
 * Options come from a hash of the input: the GPU, the roof kind, the
 * output format, --group or --no-baseline or neither.
 *
 * Checked besides the sanitizers: every line written has the header's
 * number of fields; without --group there is one output row per input
 * row, with it at most as many, and at least one when there are rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/efficiency.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/hwauto.h"
#include "model/hwspec.h"

#define HARNESS "fuzz_efficiency"
#include "harness.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tl_setprogname(HARNESS);
	fz_open_inputs();
	fz_load_tables();
	fz_catch();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const gpus[] = { "mi300x", "h100", "auto", NULL };
	static const double thr[2][3] = { { 80, 60, 40 }, { 1, 0.5, 0 } };
	static char *files[1];
	static char *out;
	static size_t outlen;
	static struct tl_efficiency *e;
	static struct tl_hwauto hwa;
	struct tl_effopts o;
	struct tl_writer w;
	uint32_t h = fz_hash(data, size);
	const char *gpu = gpus[h & 3];
	FILE *fp;
	long rows, in_rows;
	int csv = (h >> 3) & 1;

	fz_put_input(0, data, size);
	files[0] = fz_path[0];
	memset(&o, 0, sizeof(o));
	if (gpu == NULL) {
		o.peak_tflops = 1307.4;
		o.peak_tbs = 5.3;
	} else {
		CHECK(tl_hwauto_init(&hwa, strcmp(gpu, "auto") == 0 ? NULL :
		    tl_hw_find(gpu), NULL, 0, NULL, 0) == 0);
		o.hw = &hwa;
	}
	o.roof = (h >> 2) & 1 ? TL_ROOF_PEAK : TL_ROOF_ACHIEVABLE;
	o.group = ((h >> 4) % 3) == 1;
	o.no_baseline = ((h >> 4) % 3) == 2;
	memcpy(o.thr, thr[(h >> 6) & 1], sizeof(o.thr));
	if ((fp = open_memstream(&out, &outlen)) == NULL)
		tl_die("open_memstream:");
	tl_w_init(&w, fp, csv);
	e = tl_efficiency_new(&o);
	fz_armed = 1;
	if (setjmp(fz_env) == 0) {
		in_rows = tl_efficiency_run(e, files, 1, &w);
		fz_armed = 0;
		CHECK(fflush(fp) == 0);
		rows = fz_check_fields(out, outlen, csv, 0);
		if (o.group)
			CHECK(rows <= in_rows && (in_rows == 0 || rows > 0));
		else
			CHECK(rows == in_rows);
	}
	tl_efficiency_free(e);
	e = NULL;
	tl_hwauto_free(&hwa);
	if (fclose(fp) != 0)
		tl_die("fclose:");
	free(out);
	out = NULL;
	return 0;
}
