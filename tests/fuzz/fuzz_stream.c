/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as an op-stream file (TSV or CSV) through
 * the stream reader and the schema's row reader (every column of
 * lib/stream/schema.h), and what tl-perfmodel and tl-efficiency do with
 * each row: the perf model (built-in C models and the built-in model
 * file), the perf columns written to a TSV or CSV writer, the roofline
 * against MI300X, and every field decoded.
 *
 * The stream reader ends the program on bad input (tl_die, exit 1), as
 * the filters must; tl_exit_hook turns that into a longjmp back here, so
 * a clean exit 1 is an accepted outcome and any other status a crash.
 * Checked besides the sanitizers: every line written has the header's
 * number of fields; the row reader's text of each column is the stream's
 * decoded field, and its numbers agree with their text under the rule for
 * numbers (finite; a quantity 0 or more).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tsv.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "model/perfcols.h"
#include "model/roofline.h"
#include "stream/category.h"
#include "stream/schema.h"
#include "stream/stream.h"

#define HARNESS "fuzz_stream"
#include "harness.h"

static const struct tl_hw *hw;

/* State that must survive a longjmp from tl_die. */
static struct tl_stream s;
static struct tl_rowreader rr;
static struct tl_perfcols pc;
static int pc_on;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tl_setprogname("fuzz_stream");
	fz_open_inputs();
	fz_load_tables();
	if ((hw = tl_hw_find("mi300x")) == NULL)
		tl_die("no mi300x in the built-in GPU table");
	fz_catch();
	return 0;
}

/* The roofline of the row just modelled, as tl-efficiency computes it. */
static void
roofline(int tcol)
{
	static const double thr[3] = { 80, 60, 40 };
	struct tl_roof_in ri;
	struct tl_roof_out ro;
	const char *t;
	char *end;

	memset(&ri, 0, sizeof(ri));
	ri.has_flops = pc.has_flops;
	ri.has_bytes = pc.has_bytes;
	ri.flops = pc.flops;
	ri.bytes = pc.bytes;
	t = tl_stream_get(&s, tcol);
	ri.time_us = strtod(t, &end);
	if (end == t || *end != '\0' || isnan(ri.time_us))
		ri.time_us = 0;
	if (pc.compute_spec[0] != '\0')
		ri.peak_tflops = tl_hw_tflops(hw, pc.compute_spec,
		    TL_ROOF_ACHIEVABLE, NULL, NULL);
	ri.peak_tbs = tl_hw_hbm(hw, TL_ROOF_ACHIEVABLE, NULL, NULL);
	tl_roofline(&ri, &ro);
	CHECK(ro.bound != NULL);
	if (ro.has_roofline && ri.time_us > 0)
		CHECK(tl_assessment(ro.pct_roofline, thr) != NULL);
}

/*
 * What the row reader makes of a number the stream's parser read as r
 * with value d: the rule for numbers (finite; a quantity 0 or more).
 */
static int
ruled(int c, int r, double d)
{
	if (r <= 0)
		return r;
	return !isfinite(d) || (tl_cols[c].quantity && d < 0) ?
	    -1 : 1;
}

/* The row reader's fields of the current row against the stream's. */
static void
check_reader(void)
{
	int c, r;
	int64_t v;
	double d;

	for (c = 0; c < TL_COL_N; c++) {
		const struct tl_field *f = tl_rr_field(&rr, c);

		if (!tl_rr_has(&rr, c)) {
			CHECK(f->s[0] == '\0' && f->has == 0);
			continue;
		}
		CHECK(strcmp(f->s, tl_stream_get(&s, rr.pos[c])) == 0);
		CHECK(f->has >= 0 || tl_rr_why(&rr, c)[0] != '\0');
		switch (tl_cols[c].type) {
		case TL_CT_INT:
			r = tl_stream_try_i64(&s, rr.pos[c], &v);
			CHECK(ruled(c, r, (double)v) == f->has);
			CHECK(f->has <= 0 || v == f->i);
			break;
		case TL_CT_US:
			r = tl_stream_try_us(&s, rr.pos[c], &v);
			CHECK(ruled(c, r, (double)v) == f->has);
			CHECK(f->has <= 0 || v == f->i);
			break;
		case TL_CT_REAL:
			r = tl_stream_try_double(&s, rr.pos[c], &d);
			CHECK(ruled(c, r, d) == f->has);
			CHECK(f->has <= 0 || d == f->d);
			break;
		default:
			CHECK(f->has == (f->s[0] != '\0'));
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *files[1];
	static short all[TL_COL_N];
	static struct tl_writer w;
	static char *out;
	static size_t outlen;
	FILE *fp;
	static int failed;
	int csv, tcol, i;

	/* The last byte picks the output format: any byte stream may end so. */
	csv = size > 0 && (data[size - 1] & 1);
	fz_put_input(0, data, size);
	files[0] = fz_path[0];
	if ((fp = open_memstream(&out, &outlen)) == NULL)
		tl_die("open_memstream:");
	tl_w_init(&w, fp, csv);
	pc_on = 0;
	failed = 1;
	fz_armed = 1;
	if (setjmp(fz_env) == 0) {
		tl_stream_open(&s, files, 1);
		for (i = 0; i < TL_COL_N; i++)
			all[i] = (short)i;
		tl_rr_init(&rr, &s, all, TL_COL_N);
		tcol = rr.pos[TL_COL_KERNEL_TIME_US];
		if (tl_rr_has(&rr, TL_COL_NAME)) {
			tl_perfcols_init(&pc, &s, &w);
			pc_on = 1;
		} else {
			for (i = 0; i < s.ncols; i++)
				tl_w_str(&w, s.cols[i]);
			tl_w_eol(&w);
		}
		while (tl_rr_next(&rr)) {
			check_reader();
			for (i = 0; i < s.nf; i++)
				(void)tl_stream_get(&s, i);
			if (pc_on) {
				tl_perfcols_row(&pc, &s, &w);
				roofline(tcol);
			} else {
				tl_stream_copy_all(&s, &w);
				tl_w_eol(&w);
			}
		}
		fz_armed = 0;
		failed = 0;
	}
	if (pc_on)
		tl_perfcols_free(&pc);
	tl_rr_free(&rr);
	tl_stream_close(&s);
	if (fclose(fp) != 0)
		tl_die("fclose:");
	if (!failed)
		fz_check_fields(out, outlen, csv, 0);
	free(out);
	out = NULL;
	return 0;
}
