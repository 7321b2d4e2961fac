/* See LICENSE file for copyright and license details. */
/* tl-compare: match the ops of a reference and a target trace. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/opsig.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/family.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "stream/optable.h"

static const char usage_str[] =
    "usage: tl-compare --ref FILE --target FILE [--ref-name NAME]\n"
    "                  [--target-name NAME] [--ref-hw NAME]\n"
    "                  [--target-hw NAME] [--hw-file FILE] [--strict-hw]\n"
    "                  [--roof achievable|peak] [--tolerance PCT] [--csv]\n"
    "                  [--ops FILE] [--models FILE]...\n"
    "       tl-compare --timeline --ref FILE --target FILE [--ref-name NAME]\n"
    "                  [--target-name NAME] [--csv]\n";

static const char help_str[] =
    "Match the ops of a reference and a target op stream (\"-\" = stdin,\n"
    "for one of them) by name, shapes, dtypes and concrete inputs, and\n"
    "write one row per op signature with both sides' time and efficiency,\n"
    "the difference and the ratio the two GPUs' figures predict.\n"
    "\n"
    "  -R, --ref FILE          the reference op stream\n"
    "  -T, --target FILE       the target op stream\n"
    "      --ref-name NAME     the reference's name (default: its trace\n"
    "                          column)\n"
    "      --target-name NAME  the target's name\n"
    "      --ref-hw NAME       the reference GPU (default: the stream's hw\n"
    "                          or trace_gpu)\n"
    "      --target-hw NAME    the target GPU\n"
    "  -f, --hw-file FILE      GPU table to use instead of the built-in one\n"
    "  -x, --strict-hw         a GPU the stream does not name is an error,\n"
    "                          not a warning and empty roof columns\n"
    "  -r, --roof KIND         achievable (default: where both GPUs have\n"
    "                          it, else dense peak) or peak\n"
    "  -e, --tolerance PCT     a time ratio within PCT % of the predicted\n"
    "                          one is explained (default 25)\n"
    "  -t, --timeline          compare the GPU timelines instead\n"
    "  -c, --csv               write CSV instead of TSV\n"
    "  -O, --ops FILE          op table to use instead of the built-in one\n"
    "  -M, --models FILE       also read the model formulas of FILE\n"
    "  -h, --help              print this help and exit\n"
    "  -V, --version           print the version and exit\n";

enum { OPT_REF_NAME = 256, OPT_TARGET_NAME, OPT_REF_HW, OPT_TARGET_HW };

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

static double
tolerance(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v >= 0) || isinf(v)) {
		tl_warn("--tolerance: '%s' is not a number >= 0", s);
		usage(stderr, TL_EXIT_USAGE);
	}
	return v;
}

static void
check_hw(const char *name, const char *option)
{
	if (name != NULL && tl_hw_find(name) == NULL)
		tl_diex(TL_EXIT_USAGE, "%s: unknown GPU '%s' "
		    "(tl-efficiency --hw list)", option, name);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "tolerance", required_argument, NULL, 'e' },
		{ "hw-file", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "models", required_argument, NULL, 'M' },
		{ "ops", required_argument, NULL, 'O' },
		{ "ref", required_argument, NULL, 'R' },
		{ "roof", required_argument, NULL, 'r' },
		{ "target", required_argument, NULL, 'T' },
		{ "timeline", no_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		{ "strict-hw", no_argument, NULL, 'x' },
		{ "ref-name", required_argument, NULL, OPT_REF_NAME },
		{ "target-name", required_argument, NULL, OPT_TARGET_NAME },
		{ "ref-hw", required_argument, NULL, OPT_REF_HW },
		{ "target-hw", required_argument, NULL, OPT_TARGET_HW },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_cmp_opts o = { { NULL, NULL }, { NULL, NULL },
	    TL_ROOF_ACHIEVABLE, 25 };
	const char *ref = NULL, *tgt = NULL, *hw_file = NULL, *ops = NULL;
	const char *hwname[2] = { NULL, NULL };
	struct tl_opsigs side[2];
	struct tl_writer w;
	const char *opsonly = NULL;	/* an option of the op comparison */
	char err[256];
	int ch, csv = 0, timeline = 0, strict = 0;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	while ((ch = getopt_long(argc, argv, "ce:f:hM:O:r:R:tT:Vx", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'c':
			csv = 1;
			break;
		case 'e':
			opsonly = "--tolerance";
			o.tolerance_pct = tolerance(optarg);
			break;
		case 'f':
			opsonly = "--hw-file";
			hw_file = optarg;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'M':
			opsonly = "--models";
			tl_filemodels_want(optarg);
			break;
		case 'O':
			opsonly = "--ops";
			ops = optarg;
			break;
		case 'R':
			ref = optarg;
			break;
		case 'r':
			opsonly = "--roof";
			if (tl_roof_parse(optarg, &o.roof) < 0) {
				tl_warn("--roof: expected achievable or peak");
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'T':
			tgt = optarg;
			break;
		case 't':
			timeline = 1;
			break;
		case 'V':
			tl_version();
			break;
		case 'x':
			opsonly = "--strict-hw";
			strict = 1;
			break;
		case OPT_REF_NAME:
			o.name[0] = optarg;
			break;
		case OPT_TARGET_NAME:
			o.name[1] = optarg;
			break;
		case OPT_REF_HW:
			opsonly = "--ref-hw";
			hwname[0] = optarg;
			break;
		case OPT_TARGET_HW:
			opsonly = "--target-hw";
			hwname[1] = optarg;
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	if (optind < argc) {
		tl_warn("unexpected argument '%s'; give the inputs with --ref "
		    "and --target", argv[optind]);
		usage(stderr, TL_EXIT_USAGE);
	}
	if (ref == NULL || tgt == NULL) {
		tl_warn("give both --ref FILE and --target FILE");
		usage(stderr, TL_EXIT_USAGE);
	}
	/* Else accepted and ignored. */
	if (timeline && opsonly != NULL) {
		tl_warn("%s compares ops; --timeline takes only the names and "
		    "--csv", opsonly);
		usage(stderr, TL_EXIT_USAGE);
	}
	if (strcmp(ref, "-") == 0 && strcmp(tgt, "-") == 0) {
		tl_warn("--ref and --target cannot both be standard input");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (tl_hw_load(hw_file, err, sizeof(err)) < 0)
		tl_die("%s", err);
	check_hw(hwname[0], "--ref-hw");
	check_hw(hwname[1], "--target-hw");
	tl_stdout_buffer();
	tl_w_init(&w, stdout, csv);
	if (timeline) {
		struct tl_tline t[2];

		tl_tline_read(&t[0], ref);
		tl_tline_read(&t[1], tgt);
		tl_compare_timeline(&t[0], &t[1], &o, &w);
		tl_tline_free(&t[0]);
		tl_tline_free(&t[1]);
		return tl_close_stdout();
	}
	if (tl_optable_load(ops, tl_perf_family_known) < 0 ||
	    tl_filemodels_setup() < 0)
		return TL_EXIT_ERROR;
	tl_opsigs_read(&side[0], ref);
	tl_opsigs_read(&side[1], tgt);
	o.hw[0] = tl_compare_gpu(&side[0], hwname[0], "--ref-hw", strict);
	o.hw[1] = tl_compare_gpu(&side[1], hwname[1], "--target-hw", strict);
	tl_compare_ops(&side[0], &side[1], &o, &w);
	tl_opsigs_free(&side[0]);
	tl_opsigs_free(&side[1]);
	return tl_close_stdout();
}
