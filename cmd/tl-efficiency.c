/* See LICENSE file for copyright and license details. */
/* tl-efficiency: roofline efficiency of op rows on a GPU. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/efficiency.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/family.h"
#include "model/hwauto.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "model/roofline.h"
#include "stream/optable.h"

static const char usage_str[] =
    "usage: tl-efficiency --hw NAME|auto [--hw-file FILE] [--hw-map FILE]\n"
    "                     [--strict-hw] [--roof achievable|peak]\n"
    "                     [--peak-tflops X] [--peak-tbs X] [--thresholds E,G,A]\n"
    "                     [--peak-tolerance PCT]\n"
    "                     [--group | --no-baseline] [--csv] [--ops FILE]\n"
    "                     [--models FILE]... [file ...]\n"
    "       tl-efficiency --hw list [--hw-file FILE] [--csv]\n"
    "       tl-efficiency --hw show NAME|all [--hw-file FILE] [--csv]\n";

static const char help_str[] =
    "Add achieved TFLOPS/s and TB/s, the roofline time, the bound and the %\n"
    "of roofline to each row of an op stream (\"-\" or none = stdin), running\n"
    "the perf model first when the stream lacks its columns.\n"
    "\n"
    "  -H, --hw NAME          the GPU (tl-efficiency --hw list); auto = from\n"
    "                         the trace_gpu* columns (name, architecture,\n"
    "                         compute units, memory); list = the GPUs;\n"
    "                         show NAME (or all) = every roof of the GPU\n"
    "                         per precision, its kind and source\n"
    "  -f, --hw-file FILE     GPU table to use instead of the built-in one\n"
    "  -D, --hw-map FILE      GPU per trace: lines \"GLOB GPU\", the first\n"
    "                         glob matching the trace column wins over --hw\n"
    "  -x, --strict-hw        a GPU --hw auto cannot name is an error, not a\n"
    "                         warning with empty efficiency columns\n"
    "  -r, --roof KIND        the roofs of every GPU: achievable (default;\n"
    "                         measured maxima) or peak (dense data-sheet\n"
    "                         peaks); where a GPU lacks that figure, the\n"
    "                         other kind stands in (the roof column)\n"
    "      --peak-tflops X    compute roof in TFLOPS for every op\n"
    "  -B, --peak-tbs X       bandwidth roof in TB/s\n"
    "      --thresholds E,G,A % of roofline above which an op is excellent,\n"
    "                         good, acceptable (default 80,60,40)\n"
    "      --peak-tolerance PCT\n"
    "                         a row faster than its FLOPs or bytes take at\n"
    "                         the GPU's peak roof by more than PCT % is\n"
    "                         beyond the physical limit: assessment \"above\n"
    "                         peak\", the likely cause in perf_error, no\n"
    "                         efficiency (default 5)\n"
    "  -g, --group            one row per op signature with count and time\n"
    "                         statistics, sorted by total time\n"
    "  -b, --no-baseline      leave the elementwise baseline columns empty\n"
    "                         and write each row at once (one pass)\n"
    "  -c, --csv              write CSV instead of TSV\n"
    "  -O, --ops FILE         op table to use instead of the built-in one\n"
    "  -M, --models FILE      also read the model formulas of FILE\n"
    "  -h, --help             print this help and exit\n"
    "  -V, --version          print the version and exit\n";

static struct {
	const char *hw, *hw_file, *hw_map, *ops;
	int csv, strict_hw;
} opt;

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

static double
number(const char *s, const char *opt_name)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v > 0) || isinf(v)) {
		tl_warn("%s: '%s' is not a positive number", opt_name, s);
		usage(stderr, TL_EXIT_USAGE);
	}
	return v;
}

/* --peak-tolerance: a percentage, 0 or more. */
static double
tolerance(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v >= 0) || isinf(v)) {
		tl_warn("--peak-tolerance: '%s' is not a percentage of 0 or "
		    "more", s);
		usage(stderr, TL_EXIT_USAGE);
	}
	return v;
}

static void
parse_thresholds(const char *s, double thr[3])
{
	char *end;
	int k;

	for (k = 0; k < 3; k++) {
		thr[k] = strtod(s, &end);
		if (end == s || (k < 2 && *end != ',') || (k == 2 && *end != '\0'))
			break;
		s = end + 1;
	}
	if (k < 3 || !(thr[0] >= thr[1] && thr[1] >= thr[2] &&
	    thr[2] >= 0)) {
		tl_warn("--thresholds: expected E,G,A with E >= G >= A >= 0");
		usage(stderr, TL_EXIT_USAGE);
	}
}

/* The GPU of each row: --hw NAME or auto, --hw-map. */
static struct tl_hwauto hwa;

static int
run(const struct tl_effopts *o, int argc, char *argv[])
{
	struct tl_efficiency *e = tl_efficiency_new(o);
	struct tl_writer w;

	tl_stdout_buffer();
	tl_w_init(&w, stdout, opt.csv);
	tl_w_rows(&w);		/* one fwrite a row, not one a field */
	tl_efficiency_run(e, argv, argc, &w);
	tl_efficiency_free(e);
	tl_hwauto_free(&hwa);
	return tl_close_stdout();
}

/* --hw show NAME|all: the roofs of one GPU, or of all. */
static int
show(int argc, char *argv[])
{
	const struct tl_hw *hw = NULL;

	if (argc != 1) {
		tl_warn("--hw show: give one GPU name, or all");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (strcmp(argv[0], "all") != 0 && (hw = tl_hw_find(argv[0])) == NULL)
		tl_diex(TL_EXIT_USAGE, "--hw show: unknown GPU '%s' "
		    "(tl-efficiency --hw list)", argv[0]);
	tl_stdout_buffer();
	tl_hw_print_roofs(stdout, opt.csv, hw);
	return tl_close_stdout();
}

/* Options with a long name only. */
enum { OPT_THRESHOLDS = 256, OPT_PEAK_TFLOPS, OPT_PEAK_TOL };

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "peak-tbs", required_argument, NULL, 'B' },
		{ "no-baseline", no_argument, NULL, 'b' },
		{ "csv", no_argument, NULL, 'c' },
		{ "hw-map", required_argument, NULL, 'D' },
		{ "hw-file", required_argument, NULL, 'f' },
		{ "group", no_argument, NULL, 'g' },
		{ "hw", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "models", required_argument, NULL, 'M' },
		{ "ops", required_argument, NULL, 'O' },
		{ "roof", required_argument, NULL, 'r' },
		{ "peak-tflops", required_argument, NULL, OPT_PEAK_TFLOPS },
		{ "peak-tolerance", required_argument, NULL, OPT_PEAK_TOL },
		{ "thresholds", required_argument, NULL, OPT_THRESHOLDS },
		{ "version", no_argument, NULL, 'V' },
		{ "strict-hw", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_effopts eo = { NULL, TL_ROOF_ACHIEVABLE, 0, 0, { 80, 60, 40 },
	    TL_PEAK_TOL_PCT, 0, 0 };
	const struct tl_hw *hw = NULL;
	char err[512];
	int ch;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	while ((ch = getopt_long(argc, argv, "bB:cD:f:ghH:M:O:r:Vx", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'B':
			eo.peak_tbs = number(optarg, "--peak-tbs");
			break;
		case 'b':
			eo.no_baseline = 1;
			break;
		case 'c':
			opt.csv = 1;
			break;
		case 'D':
			opt.hw_map = optarg;
			break;
		case 'f':
			opt.hw_file = optarg;
			break;
		case 'g':
			eo.group = 1;
			break;
		case 'H':
			opt.hw = optarg;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'M':
			tl_filemodels_want(optarg);
			break;
		case 'O':
			opt.ops = optarg;
			break;
		case 'r':
			if (tl_roof_parse(optarg, &eo.roof) < 0) {
				tl_warn("--roof: expected achievable or peak");
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case OPT_PEAK_TFLOPS:
			eo.peak_tflops = number(optarg, "--peak-tflops");
			break;
		case OPT_PEAK_TOL:
			eo.tol_pct = tolerance(optarg);
			break;
		case OPT_THRESHOLDS:
			parse_thresholds(optarg, eo.thr);
			break;
		case 'V':
			tl_version();
			break;
		case 'x':
			opt.strict_hw = 1;
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (tl_hw_load(opt.hw_file, err, sizeof(err)) < 0)
		tl_die("%s", err);
	if (opt.hw_map != NULL && opt.hw == NULL)
		opt.hw = "auto";	/* traces no glob matches */
	if (opt.hw != NULL && strcmp(opt.hw, "list") == 0) {
		tl_stdout_buffer();
		tl_hw_print_gpus(stdout, opt.csv);
		return tl_close_stdout();
	}
	if (opt.hw != NULL && strcmp(opt.hw, "show") == 0)
		return show(argc, argv);
	if (eo.group && eo.no_baseline) {
		tl_warn("--group and --no-baseline exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.hw == NULL && (eo.peak_tflops == 0 || eo.peak_tbs == 0)) {
		tl_warn("give --hw NAME (or auto), or both --peak-tflops and "
		    "--peak-tbs");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.hw != NULL && strcasecmp(opt.hw, "auto") != 0 &&
	    (hw = tl_hw_find(opt.hw)) == NULL)
		tl_diex(TL_EXIT_USAGE, "--hw: unknown GPU '%s' "
		    "(tl-efficiency --hw list)", opt.hw);
	if (tl_hwauto_init(&hwa, hw, opt.hw_map, opt.strict_hw, err,
	    sizeof(err)) < 0)
		tl_die("--hw-map: %s", err);
	if (opt.hw != NULL)
		eo.hw = &hwa;
	if (tl_optable_load(opt.ops, tl_perf_family_known) < 0 ||
	    tl_filemodels_setup() < 0)
		return TL_EXIT_ERROR;
	return run(&eo, argc, argv);
}
