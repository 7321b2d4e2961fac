/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as two op streams, a reference and a
 * target, through what tl-compare does with them: lib/analysis/opsig reads each
 * (summing per signature, running the perf model when the perf columns
 * are absent), lib/analysis/compare finds both GPUs, matches the signatures
 * (strides-only pairing included) and writes the compare stream.  The
 * input splits at its first NUL byte (reference before, target after);
 * without one, both sides are the whole input.
 *
 * The readers end the program on bad input (tl_die, exit 1), as
 * tl-compare must; the harness catches that (harness.h) and frees what
 * the reads made with tl_opsigs_free.  Past the readers and the GPU
 * lookup nothing may fail.
 *
 * Options come from a hash of the input: the GPUs (given, or looked up
 * from the streams' hw and trace_gpu values), the roof kind, the
 * tolerance, the side names, CSV instead of TSV.
 *
 * Checked besides the sanitizers: every line written has the header's
 * number of fields, and there is one row per signature of either side
 * at least (a pairing joins two).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/opsig.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "stream/category.h"

#define HARNESS "fuzz_compare"
#include "harness.h"

static const char *const gpus[] = { "mi300x", "h100", "mi210", "a100" };

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_start(argc, argv);
	fz_load_tables();
	fz_catch();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_opsigs side[2];
	static struct tl_writer w;
	static char *out;
	static size_t outlen;
	struct tl_cmp_opts o;
	uint32_t h = fz_hash(data, size);
	size_t rows;
	FILE *fp;
	int csv = h & 1, k;

	fz_put_pair(data, size);
	memset(&o, 0, sizeof(o));
	o.roof = (h >> 1) & 1 ? TL_ROOF_PEAK : TL_ROOF_ACHIEVABLE;
	o.tolerance_pct = (h >> 2) & 1 ? 0 : 25;
	o.name[0] = (h >> 3) & 1 ? "ref\t\"x\",\n" : NULL;
	if ((fp = open_memstream(&out, &outlen)) == NULL)
		tl_die("open_memstream:");
	tl_w_init(&w, fp, csv);
	fz_armed = 1;
	if (setjmp(fz_env) == 0) {
		for (k = 0; k < 2; k++) {
			tl_opsigs_read(&side[k], fz_path[k]);
			o.hw[k] = tl_compare_gpu(&side[k], (h >> (4 + k)) & 1 ?
			    NULL : gpus[(h >> (6 + 2 * k)) & 3], k == 0 ?
			    "--ref-hw" : "--target-hw", 0);
		}
		fz_armed = 0;
		tl_compare_ops(&side[0], &side[1], &o, &w);
		if (fflush(fp) != 0)
			tl_die("fflush:");
		rows = (size_t)fz_check_fields(out, outlen, csv, 0);
		CHECK(rows <= side[0].n + side[1].n);
		CHECK(rows >= (side[0].n > side[1].n ? side[0].n :
		    side[1].n));
	}
	for (k = 0; k < 2; k++)
		tl_opsigs_free(&side[k]);
	if (fclose(fp) != 0)
		tl_die("fclose:");
	free(out);
	out = NULL;
	return 0;
}
