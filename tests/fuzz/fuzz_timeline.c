/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as two timelines, a reference and a
 * target, through what tl-compare --timeline does with them:
 * lib/analysis/compare reads each (a tl-parse --timeline table, or the
 * trace_*_us columns of an op stream) and writes the comparison.  The
 * input splits at its first NUL byte (reference before, target after);
 * without one, both sides are the whole input.
 *
 * The reader ends the program on bad input (tl_die, exit 1), as
 * tl-compare must; the harness catches that (harness.h) and frees what
 * the reads made with tl_tline_free.  Past the readers nothing may fail.
 *
 * Options come from a hash of the input: CSV instead of TSV, the side
 * names.
 *
 * Checked besides the sanitizers: every line written has the header's
 * number of fields; there are at most eight rows (one per timeline
 * type), and as many as the types either side has.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "common/tsv.h"
#include "common/util.h"

#define HARNESS "fuzz_timeline"
#include "harness.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_start(argc, argv);
	fz_catch();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_tline side[2];
	static struct tl_writer w;
	static char *out;
	static size_t outlen;
	struct tl_cmp_opts o;
	uint32_t h = fz_hash(data, size);
	int csv = h & 1, k, i, want;
	long rows;
	FILE *fp;

	fz_put_pair(data, size);
	memset(&o, 0, sizeof(o));
	o.name[1] = (h >> 1) & 1 ? "target\t\"x\",\n" : NULL;
	if ((fp = open_memstream(&out, &outlen)) == NULL)
		tl_die("open_memstream:");
	tl_w_init(&w, fp, csv);
	fz_armed = 1;
	if (setjmp(fz_env) == 0) {
		for (k = 0; k < 2; k++)
			tl_tline_read(&side[k], fz_path[k]);
		fz_armed = 0;
		tl_compare_timeline(&side[0], &side[1], &o, &w);
		if (fflush(fp) != 0)
			tl_die("fflush:");
		rows = fz_check_fields(out, outlen, csv, 0);
		for (i = 0, want = 0; i < TL_TLINE_N; i++)
			want += side[0].has[i] || side[1].has[i];
		CHECK(rows == want && rows <= TL_TLINE_N);
	}
	for (k = 0; k < 2; k++)
		tl_tline_free(&side[k]);
	if (fclose(fp) != 0)
		tl_die("fclose:");
	free(out);
	out = NULL;
	return 0;
}
