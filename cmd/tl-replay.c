/* See LICENSE file for copyright and license details. */
/* tl-replay: replay IR and runnable packages from op rows. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "analysis/findrules.h"
#include "common/json.h"
#include "common/util.h"
#include "model/hwauto.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "model/roweff.h"
#include "render/replay.h"
#include "render/zipw.h"
#include "stream/category.h"
#include "stream/stream.h"

#define IR_FILE		"replay_ir.json"
#define RUNNER_FILE	"replay.py"
#define README_FILE	"README.md"

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
    "  -o, --output DIR       write the package into DIR\n"
    "  -z, --zip FILE         write the package as a ZIP archive\n"
    "  -b, --bottlenecks      keep only the ops the replay rule picks:\n"
    "                         over --min-pct % of GPU time and under\n"
    "                         --max-eff % of roofline\n"
    "  -p, --min-pct X        % of GPU time (default 10)\n"
    "  -e, --max-eff X        % of roofline (default 30)\n"
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

/* The GPU of --hw NAME and --hw-map, for inputs without pct_roofline. */
static const struct tl_hw *hw;
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

/* The columns read. */
enum {
	C_TRACE, C_NAME, C_CATEGORY, C_DIRECTION, C_DIMS, C_TYPES, C_STRIDES,
	C_CONCRETE, C_KERNELS, C_PARENT, C_MODULE, C_STACK, C_MODEL, C_PARAMS,
	C_COUNT, C_TIME, C_MIN, C_MAX, C_PCT, C_EFF, C_N
};
static const char *const colnames[C_N] = {
	"trace", "name", "category", "direction", "input_dims", "input_types",
	"input_strides", "concrete_inputs", "kernels", "parent_name",
	"module", "call_stack", "perf_model", "params", "count",
	"kernel_time_us", "kernel_time_min_us", "kernel_time_max_us",
	"pct_gpu_time", "pct_roofline"
};

static char *
field(struct tl_stream *in, int c)
{
	return tl_strdup(tl_stream_get(in, c));
}

/* Kernel time text to ns; dies on a malformed field. */
static int64_t
time_ns(struct tl_stream *in, int c, const char *name, int64_t def)
{
	const char *s = tl_stream_get(in, c);
	int64_t ns;

	if (s[0] == '\0')
		return def;
	if (tl_parse_us_ns(s, strlen(s), &ns) < 0)
		tl_die("%s: %s '%s' is not a number", tl_stream_where(in),
		    name, s);
	return ns;
}

static void
read_rows(struct tl_replay *r, int argc, char *argv[])
{
	struct tl_stream in;
	struct tl_roweff re;
	int col[C_N], k, have_model, nbad = 0;

	tl_stream_open(&in, argv, argc);
	for (k = 0; k < C_N; k++)
		col[k] = tl_stream_col(&in, colnames[k]);
	col[C_NAME] = tl_stream_need(&in, "name");
	col[C_TIME] = tl_stream_need(&in, "kernel_time_us");
	if (opt.bottlenecks && col[C_PCT] < 0)
		tl_die("--bottlenecks: the input has no pct_gpu_time column "
		    "(tl-parse writes it)");
	if (opt.bottlenecks && col[C_EFF] < 0 && opt.hw == NULL)
		tl_diex(TL_EXIT_USAGE, "--bottlenecks: the input has no "
		    "pct_roofline column; give --hw NAME to compute it (or run "
		    "tl-efficiency first)");
	if (opt.hw != NULL)
		tl_hwauto_columns(&hwa, &in);
	tl_roweff_init(&re, &in, opt.roof, 0, 0);
	have_model = re.have_perf && col[C_MODEL] >= 0 && col[C_PARAMS] >= 0;
	while (tl_stream_next(&in)) {
		struct tl_replay_row row;
		struct tl_eff e;
		char *f[C_N];
		const char *err;
		int64_t count = 1;

		for (k = 0; k < C_N; k++)
			f[k] = field(&in, col[k]);
		if (col[C_COUNT] >= 0 && tl_stream_i64(&in, col[C_COUNT],
		    &count) && count < 1)
			tl_die("%s: count %lld is not positive",
			    tl_stream_where(&in), (long long)count);
		tl_roweff_row(&re, &in, opt.hw != NULL ? tl_hwauto_row(&hwa,
		    &in) : NULL, &e);
		memset(&row, 0, sizeof(row));
		row.trace = f[C_TRACE];
		row.name = f[C_NAME];
		row.category = f[C_CATEGORY];
		row.direction = f[C_DIRECTION];
		row.dims = f[C_DIMS];
		row.types = f[C_TYPES];
		row.strides = f[C_STRIDES];
		row.concrete = f[C_CONCRETE];
		row.kernels = f[C_KERNELS];
		row.parent_name = f[C_PARENT];
		row.module = f[C_MODULE];
		row.call_stack = f[C_STACK];
		if (have_model) {
			row.perf_model = f[C_MODEL];
			row.params = f[C_PARAMS];
		} else {
			row.perf_model = re.pc.rc == 0 ? re.pc.model : "";
			row.params = re.pc.rc == 0 && re.pc.p.nparams > 0 ?
			    re.pc.p.params.s : "";
		}
		row.has_flops = e.has_flops;
		row.has_bytes = e.has_bytes;
		row.flops = e.flops;
		row.bytes = e.bytes;
		row.count = count;
		row.time_ns = time_ns(&in, col[C_TIME], colnames[C_TIME], 0);
		row.min_ns = time_ns(&in, col[C_MIN], colnames[C_MIN],
		    row.time_ns / count);
		row.max_ns = time_ns(&in, col[C_MAX], colnames[C_MAX],
		    row.time_ns / count);
		row.pct_gpu_time = tl_stream_double(&in, col[C_PCT]);
		row.pct_roofline = col[C_EFF] >= 0 ?
		    tl_stream_double(&in, col[C_EFF]) :
		    e.has_pct ? e.r.pct_roofline : NAN;
		if (tl_replay_add(r, &row, &err) < 0) {
			if (nbad++ == 0)
				tl_warn("%s: %s: %s: row left out",
				    tl_stream_where(&in), f[C_NAME], err);
		}
		for (k = 0; k < C_N; k++)
			free(f[k]);
	}
	if (nbad > 1)
		tl_warn("%d rows left out in all: their arguments do not parse",
		    nbad);
	tl_roweff_free(&re);
	tl_stream_close(&in);
}

static void
write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	size_t len = strlen(dir) + strlen(name) + 2, n = strlen(text);
	char *path = tl_malloc(len);
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)) < 0)
		tl_die("%s:", path);
	while (n > 0) {
		ssize_t w = write(fd, text, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			tl_die("%s: write error:", path);
		text += w;
		n -= (size_t)w;
	}
	if (close(fd) < 0)
		tl_die("%s: write error:", path);
	free(path);
}

/* The archive's top folder: FILE's base name less ".zip". */
static char *
zip_folder(const char *file)
{
	const char *b = strrchr(file, '/');
	char *s = tl_strdup(b != NULL ? b + 1 : file);
	size_t n = strlen(s);

	if (n > 4 && strcmp(s + n - 4, ".zip") == 0)
		s[n - 4] = '\0';
	if (s[0] == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
		free(s);
		s = tl_strdup("tl-replay");
	}
	return s;
}

static void
zip_add(struct tl_zip *z, const char *folder, const char *name,
    unsigned mode, const char *text)
{
	size_t len = strlen(folder) + strlen(name) + 2;
	char *path = tl_malloc(len);

	snprintf(path, len, "%s/%s", folder, name);
	tl_zip_add(z, path, mode, text, strlen(text));
	free(path);
}

static int
run(int argc, char *argv[])
{
	struct tl_replay *r = tl_replay_new();
	struct tl_jbuf ir = { NULL, 0, 0 }, readme = { NULL, 0, 0 };

	read_rows(r, argc, argv);
	if (opt.bottlenecks)
		tl_replay_select(r, &opt.rules);
	tl_replay_sort(r);
	tl_replay_ir(r, &ir);
	if (opt.dir == NULL && opt.zip == NULL) {
		tl_stdout_buffer();
		fwrite(ir.s, 1, ir.n, stdout);
	} else {
		tl_replay_readme_text(r, IR_FILE, RUNNER_FILE, &readme);
	}
	if (opt.dir != NULL) {
		if (mkdir(opt.dir, 0777) < 0 && errno != EEXIST)
			tl_die("%s:", opt.dir);
		write_file(opt.dir, IR_FILE, ir.s, 0666);
		write_file(opt.dir, RUNNER_FILE, tl_replay_runner, 0777);
		write_file(opt.dir, README_FILE, readme.s, 0666);
	}
	if (opt.zip != NULL) {
		struct tl_zip *z = tl_zip_create(opt.zip);
		char *folder = zip_folder(opt.zip);

		zip_add(z, folder, IR_FILE, 0644, ir.s);
		zip_add(z, folder, RUNNER_FILE, 0755, tl_replay_runner);
		zip_add(z, folder, README_FILE, 0644, readme.s);
		tl_zip_close(z);
		free(folder);
	}
	if (tl_replay_count(r) == 0)
		tl_warn("no op to replay%s", opt.bottlenecks ?
		    ": none is over the --min-pct and under the --max-eff "
		    "threshold" : "");
	tl_jb_free(&ir);
	tl_jb_free(&readme);
	tl_replay_free(r);
	return tl_close_stdout();
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "bottlenecks", no_argument, NULL, 'b' },
		{ "hw-map", required_argument, NULL, 'D' },
		{ "max-eff", required_argument, NULL, 'e' },
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
	char err[512];
	int ch;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	tl_findrules_default(&opt.rules);
	opt.roof = TL_ROOF_AUTO;
	while ((ch = getopt_long(argc, argv, "bD:e:f:H:hM:O:o:p:r:Vxz:", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'b':
			opt.bottlenecks = 1;
			break;
		case 'D':
			opt.hw_map = optarg;
			break;
		case 'e':
			opt.rules.replay_eff = percent(optarg, "--max-eff");
			break;
		case 'f':
			opt.hw_file = optarg;
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
		case 'o':
			opt.dir = optarg;
			break;
		case 'p':
			opt.rules.replay_pct = percent(optarg, "--min-pct");
			break;
		case 'r':
			if (strcmp(optarg, "achievable") == 0)
				opt.roof = TL_ROOF_AUTO;
			else if (strcmp(optarg, "peak") == 0)
				opt.roof = TL_ROOF_PEAK;
			else {
				tl_warn("--roof: expected achievable or peak");
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'V':
			tl_version();
			break;
		case 'x':
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
		tl_diex(TL_EXIT_USAGE, "--hw-map: %s", err);
	if (tl_optable_load(opt.ops) < 0 || tl_filemodels_setup() < 0)
		return TL_EXIT_ERROR;
	return run(argc, argv);
}
