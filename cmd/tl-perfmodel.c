/* See LICENSE file for copyright and license details. */
/* tl-perfmodel: add FLOPs, bytes and model parameters to op rows. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tsv.h"
#include "common/util.h"
#include "model/family.h"
#include "model/model_file.h"
#include "model/perfcols.h"
#include "model/rowmodel.h"
#include "stream/optable.h"
#include "stream/stream.h"

static const char usage_str[] =
    "usage: tl-perfmodel [--csv] [--ops FILE] [--models FILE]... [file ...]\n";

static const char help_str[] =
    "Add the perf model's FLOPs, bytes and parameters to each row of an op\n"
    "stream (\"-\" or none = stdin).\n"
    "\n"
    "  -c, --csv          write CSV instead of TSV\n"
    "  -O, --ops FILE     op table to use instead of the built-in one\n"
    "  -M, --models FILE  also read the formulas of FILE (repeatable;\n"
    "                     later files win; see MODEL FILES in the manual)\n"
    "  -h, --help         print this help and exit\n"
    "  -V, --version      print the version and exit\n";

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "models", required_argument, NULL, 'M' },
		{ "ops", required_argument, NULL, 'O' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *ops = NULL;
	struct tl_stream s;
	struct tl_writer w;
	struct tl_perfcols pc;
	int ch, csv = 0;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	while ((ch = getopt_long(argc, argv, "chM:O:V", longopts, NULL)) != -1)
		switch (ch) {
		case 'c':
			csv = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'M':
			tl_filemodels_want(optarg);
			break;
		case 'O':
			ops = optarg;
			break;
		case 'V':
			tl_version();
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (tl_optable_load(ops, tl_perf_family_known) < 0 ||
	    tl_filemodels_setup() < 0)
		return TL_EXIT_ERROR;
	tl_stdout_buffer();
	tl_w_init(&w, stdout, csv);
	tl_stream_open(&s, argv, argc);
	tl_perfcols_init(&pc, &s, &w);
	while (tl_stream_next(&s))
		tl_perfcols_row(&pc, &s, &w);
	tl_perfcols_free(&pc);
	tl_stream_close(&s);
	tl_filemodels_free();
	return tl_close_stdout();
}
