/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as a table file given on the command line,
 * through the loader of each kind: the op table (--ops), categorisation
 * rules (tl-categorize --rules), model formulas (--models), the GPU table
 * (--hw-file) and the GPU map (--hw-map).  The first byte picks the kind;
 * the rest is the file.
 *
 * A loader reports a bad file with a message and -1 (or NULL); it never
 * ends the program.  Checked besides the sanitizers: a GPU table or map the
 * loader takes has at least one row (an empty one would silently change
 * every result), and after a load that failed the built-in tables load
 * again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/family.h"
#include "model/hwauto.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "stream/optable.h"
#include "stream/rules.h"

#define HARNESS "fuzz_tables"
#include "harness.h"

enum { K_OPS, K_RULES, K_MODELS, K_GPUS, K_MAP, K_N };

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_start(argc, argv);
	fz_load_tables();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_rules *r;
	struct tl_hwauto a;
	char err[512];
	int rc = 0;

	if (size < 1)
		return 0;
	fz_put_input(0, data + 1, size - 1);
	switch (data[0] % K_N) {
	case K_OPS:
		rc = tl_optable_load(fz_path[0], tl_perf_family_known);
		break;
	case K_RULES:
		if ((r = tl_rules_load(fz_path[0])) != NULL)
			tl_rules_free(r);
		break;
	case K_MODELS:
		tl_filemodels_free();
		rc = tl_filemodels_load(fz_path[0]);
		break;
	case K_GPUS:
		if ((rc = tl_hw_load(fz_path[0], err, sizeof(err))) == 0)
			CHECK(tl_hw_count() > 0);
		break;
	default:
		if (tl_hwauto_init(&a, NULL, fz_path[0], 0, err,
		    sizeof(err)) == 0)
			CHECK(a.nrule > 0);
		tl_hwauto_free(&a);
		break;
	}
	if (rc < 0 || data[0] % K_N == K_MODELS) {
		tl_filemodels_free();
		fz_load_tables();
	}
	return 0;
}
