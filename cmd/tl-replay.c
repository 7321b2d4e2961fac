/* See LICENSE file for copyright and license details. */
/* tl-replay: replay IR and runnable packages from op rows. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/findrules.h"
#include "common/util.h"
#include "model/family.h"
#include "model/hwauto.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "render/replay.h"
#include "render/replaypkg.h"
#include "stream/optable.h"

static const char usage_str[] =
    "usage: tl-replay [-o DIR] [-z FILE] [--bottlenecks [--min-pct X]\n"
    "                 [--max-eff X] [--hw NAME|auto [--hw-file FILE]\n"
    "                 [--hw-map FILE] [--strict-hw]\n"
    "                 [--roof achievable|peak]]] [--ops FILE]\n"
    "                 [--models FILE]... [file ...]\n";

static const char help_str[] =
    "Group op rows (\"-\" or none = stdin) by signature and write the\n"
    "replay IR (a JSON list, one entry per op) on stdout, or a package\n"
    "with the IR, a runner script and a README.\n"
    "\n"
    "  -o, --output DIR       write the package into DIR (replacing the\n"
    "                         previous one there as a whole)\n"
    "  -z, --zip FILE         write the package as a ZIP archive (renamed\n"
    "                         over FILE when complete)\n"
    "      --bottlenecks      keep only the ops the replay rule picks:\n"
    "                         over --min-pct % of GPU time and under\n"
    "                         --max-eff % of roofline\n"
    "  -p, --min-pct X        % of GPU time (default 10)\n"
    "      --max-eff X        % of roofline (default 30)\n"
    "  -H, --hw NAME          GPU for the efficiency when the input has\n"
    "                         no pct_roofline (tl-efficiency --hw list);\n"
    "                         auto = from the trace_gpu* columns\n"
    "  -f, --hw-file FILE     GPU table instead of the built-in one\n"
    "  -D, --hw-map FILE      GPU per trace (lines \"GLOB GPU\"), before --hw\n"
    "  -x, --strict-hw        a GPU --hw auto cannot name is an error\n"
    "  -r, --roof KIND        achievable (default) or peak\n"
    "  -O, --ops FILE         op table to use instead of the built-in one\n"
    "  -M, --models FILE      also read the model formulas of FILE\n"
    "  -h, --help             print this help and exit\n"
    "  -V, --version          print the version and exit\n";

/* The GPU of each row without pct_roofline: --hw NAME or auto, --hw-map. */
static struct tl_hwauto hwa;

static struct {
	const char *dir, *zip, *hw, *hw_file, *hw_map, *ops;
	int bottlenecks, strict_hw;
	enum tl_roof roof;
	struct tl_findrules rules;
} opt;

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

static double
percent(const char *s, const char *name)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v >= 0 && v <= 100)) {
		tl_warn("%s: '%s' is not a percentage", name, s);
		usage(stderr, TL_EXIT_USAGE);
	}
	return v;
}

static int
run(int argc, char *argv[])
{
	struct tl_replay *r = tl_replay_new();

	tl_replay_read(r, argv, argc, opt.hw != NULL ? &hwa : NULL, opt.roof,
	    opt.bottlenecks);
	if (opt.bottlenecks)
		tl_replay_select(r, &opt.rules);
	tl_replay_sort(r);
	if (opt.dir == NULL && opt.zip == NULL) {
		tl_stdout_buffer();
		tl_replay_print(r, stdout);
	}
	if (opt.dir != NULL)
		tl_replay_write_dir(r, opt.dir);
	if (opt.zip != NULL)
		tl_replay_write_zip(r, opt.zip);
	if (tl_replay_count(r) == 0)
		tl_warn("no op to replay%s", opt.bottlenecks ?
		    ": none is over the --min-pct and under the --max-eff "
		    "threshold" : "");
	tl_replay_free(r);
	tl_hwauto_free(&hwa);
	return tl_close_stdout();
}

/* Options with a long name only. */
enum { OPT_BOTTLENECKS = 256, OPT_MAX_EFF };

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "bottlenecks", no_argument, NULL, OPT_BOTTLENECKS },
		{ "hw-map", required_argument, NULL, 'D' },
		{ "max-eff", required_argument, NULL, OPT_MAX_EFF },
		{ "hw-file", required_argument, NULL, 'f' },
		{ "hw", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "models", required_argument, NULL, 'M' },
		{ "ops", required_argument, NULL, 'O' },
		{ "output", required_argument, NULL, 'o' },
		{ "min-pct", required_argument, NULL, 'p' },
		{ "roof", required_argument, NULL, 'r' },
		{ "version", no_argument, NULL, 'V' },
		{ "strict-hw", no_argument, NULL, 'x' },
		{ "zip", required_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 }
	};
	const struct tl_hw *hw = NULL;
	const char *bonly = NULL;	/* an option of --bottlenecks given */
	char err[512];
	int ch;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	tl_findrules_default(&opt.rules);
	opt.roof = TL_ROOF_ACHIEVABLE;
	while ((ch = getopt_long(argc, argv, "D:f:hH:M:o:O:p:r:Vxz:", longopts,
	    NULL)) != -1)
		switch (ch) {
		case OPT_BOTTLENECKS:
			opt.bottlenecks = 1;
			break;
		case 'D':
			bonly = "--hw-map";
			opt.hw_map = optarg;
			break;
		case OPT_MAX_EFF:
			bonly = "--max-eff";
			opt.rules.replay_eff = percent(optarg, "--max-eff");
			break;
		case 'f':
			bonly = "--hw-file";
			opt.hw_file = optarg;
			break;
		case 'H':
			bonly = "--hw";
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
		case 'o':
			opt.dir = optarg;
			break;
		case 'p':
			bonly = "--min-pct";
			opt.rules.replay_pct = percent(optarg, "--min-pct");
			break;
		case 'r':
			bonly = "--roof";
			if (tl_roof_parse(optarg, &opt.roof) < 0) {
				tl_warn("--roof: expected achievable or peak");
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'V':
			tl_version();
			break;
		case 'x':
			bonly = "--strict-hw";
			opt.strict_hw = 1;
			break;
		case 'z':
			opt.zip = optarg;
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	/* Else accepted and ignored. */
	if (bonly != NULL && !opt.bottlenecks)
		tl_diex(TL_EXIT_USAGE, "%s goes with --bottlenecks", bonly);
	if (tl_hw_load(opt.hw_file, err, sizeof(err)) < 0)
		tl_die("%s", err);
	if (opt.hw_map != NULL && opt.hw == NULL)
		opt.hw = "auto";	/* traces no glob matches */
	if (opt.hw != NULL && strcasecmp(opt.hw, "auto") != 0 &&
	    (hw = tl_hw_find(opt.hw)) == NULL)
		tl_diex(TL_EXIT_USAGE, "--hw: unknown GPU '%s' (tl-efficiency "
		    "--hw list)", opt.hw);
	if (tl_hwauto_init(&hwa, hw, opt.hw_map, opt.strict_hw, err,
	    sizeof(err)) < 0)
		tl_die("--hw-map: %s", err);
	if (tl_optable_load(opt.ops, tl_perf_family_known) < 0 ||
	    tl_filemodels_setup() < 0)
		return TL_EXIT_ERROR;
	return run(argc, argv);
}
