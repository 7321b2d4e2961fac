/* See LICENSE file for copyright and license details. */
/* tl-parse: read PyTorch profiler traces and write the op stream. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/optable.h"
#include "stream/schema.h"
#include "trace/opstream.h"
#include "trace/timeline.h"
#include "trace/trace.h"
#include "trace/tree.h"

static const char usage_str[] =
    "usage: tl-parse [--csv] [--trace-name NAME] [--ops FILE] [--threads N]\n"
    "                [--step N | --window START,END] [--stack]\n"
    "                [--launchers | --timeline [--per-device] | --kernels | --meta]\n"
    "                [--include-unlinked] [file ...]\n";

static const char help_str[] =
    "Read PyTorch profiler traces (.json or .json.gz, \"-\" or none = stdin)\n"
    "and write one TSV row per op instance with its GPU kernels.\n"
    "\n"
    "  -c, --csv               write CSV instead of TSV\n"
    "  -n, --trace-name NAME   value of the trace column (default: file name)\n"
    "  -o, --ops FILE          op table to use instead of the built-in one\n"
    "  -s, --step N            only the ProfilerStep#N window\n"
    "  -w, --window START,END  only host events starting in [START, END) µs\n"
    "  -S, --stack             add the module and call_stack columns\n"
    "  -l, --launchers         one row per launching op, direct kernels\n"
    "  -t, --timeline          print the GPU timeline instead\n"
    "  -d, --per-device        with --timeline, one timeline per GPU\n"
    "  -k, --kernels           one row per GPU event instead\n"
    "  -m, --meta              print the trace metadata instead\n"
    "  -u, --include-unlinked  count unlinked GPU events on the timeline\n"
    "  -j, --threads N         cut and tokenise the events on N threads\n"
    "                          (default: one per online CPU; same output)\n"
    "  -h, --help              print this help and exit\n"
    "  -V, --version           print the version and exit\n";

enum view { V_OPS, V_LAUNCHERS, V_TIMELINE, V_KERNELS, V_META };

static struct {
	enum view view;
	int csv, stack, per_device, unlinked;
	const char *trace_name, *ops;
	long long step, threads;
	int has_step;
	struct tl_window win;
} opt;

static struct tl_writer w;
static struct tl_opstream os = { &w, { NULL, 0, 0 }, 0 };
static int header_done;


static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

/* The views' tables (lib/stream/schema.h). */
static const int view_table[] = {
	[V_OPS] = TL_TAB_OPS, [V_LAUNCHERS] = TL_TAB_LAUNCHERS,
	[V_TIMELINE] = TL_TAB_TIMELINE, [V_KERNELS] = TL_TAB_KERNELS,
	[V_META] = TL_TAB_META
};

/*
 * Say on one line what the ops leave out: the unlinked GPU events when
 * they cover more than 1 % of the GPU busy time, or that the view is
 * empty although the trace has GPU events (nrows < 0: not a row view).
 */
static void
warn_left_out(const struct tl_trace *t, const struct tl_link_stats *s,
    const struct tl_timeline *tl, long nrows)
{
	int64_t busy = opt.unlinked ? tl->busy : tl->busy + tl->unlinked_busy;

	if (s->gpu == 0)
		return;
	if (tl->unlinked_events > 0 && busy > 0 &&
	    tl->unlinked_busy > busy / 100) {
		tl_warn("%s: %ld of %ld GPU events (%.3f ms of GPU time, "
		    "%.3f ms = %.1f %% of GPU busy time) have no launch call "
		    "in the trace (launched before the host side of the "
		    "profile?): no op counts them, and the timeline %s",
		    t->path, tl->unlinked_events, s->gpu,
		    (double)tl->unlinked_dur / 1e6,
		    (double)tl->unlinked_busy / 1e6,
		    (double)tl->unlinked_busy / (double)busy * 100.0,
		    opt.unlinked ? "includes them (--include-unlinked)" :
		    "leaves them out (--include-unlinked includes them)");
		return;
	}
	if (nrows == 0)
		tl_warn("%s: no %s although the trace has %ld GPU events "
		    "(%ld linked%s)", t->path, opt.view == V_LAUNCHERS ?
		    "launcher rows" : "op rows", s->gpu, s->linked,
		    opt.win.on || opt.has_step ? ", none in the window" : "");
}

static int
parse_file(const char *path)
{
	struct tl_trace_opts o;
	struct tl_trace *t;
	struct tl_timeline tl;
	struct tl_window win = opt.win;
	struct tl_link_stats s;
	size_t nrows;

	memset(&o, 0, sizeof(o));
	o.keep_python = opt.stack;
	o.trace_name = opt.trace_name;
	o.threads = (int)opt.threads;
	if ((t = tl_trace_read(path, &o)) == NULL)
		return 1;
	tl_tree_build(t);
	if (opt.has_step && tl_step_window(t, opt.step, &win) < 0) {
		tl_trace_free(t);
		return 1;
	}
	tl_tree_stats(t, &s);
	if (s.gpu == 0 && opt.view != V_META)
		tl_warn("%s: the trace has no GPU events (kernels, memcpy, "
		    "memset): nothing to attribute", t->path);
	tl_timeline(t, &win, TL_ALL_DEVICES, opt.unlinked, &tl);
	if (opt.view == V_TIMELINE)
		warn_left_out(t, &s, &tl, -1);
	if (!header_done++)
		tl_os_header(&os, view_table[opt.view], opt.stack);
	switch (opt.view) {
	case V_OPS:
	case V_LAUNCHERS:
		os.launchers = opt.view == V_LAUNCHERS;
		nrows = tl_os_oprows(&os, t, &win, &tl, opt.stack);
		warn_left_out(t, &s, &tl, (long)nrows);
		break;
	case V_TIMELINE:
		if (s.gpu > 0)
			tl_os_timelines(&os, t, &win, &tl, opt.per_device,
			    opt.unlinked);
		break;
	case V_KERNELS:
		tl_os_kernels(&os, t, &opt.win);
		break;
	case V_META:
		tl_os_meta(&os, t, &tl);
		break;
	}
	tl_trace_free(t);
	return 0;
}

static void
set_view(enum view v)
{
	if (opt.view != V_OPS && opt.view != v) {
		tl_warn("--launchers, --timeline, --kernels and --meta "
		    "exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	opt.view = v;
}

static void
parse_window(const char *s)
{
	const char *comma = strchr(s, ',');

	if (comma == NULL ||
	    tl_parse_us_ns(s, (size_t)(comma - s), &opt.win.start) < 0 ||
	    tl_parse_us_ns(comma + 1, strlen(comma + 1), &opt.win.end) < 0 ||
	    opt.win.end <= opt.win.start) {
		tl_warn("--window: expected START,END in µs with START < END, "
		    "got '%s'", s);
		usage(stderr, TL_EXIT_USAGE);
	}
	opt.win.on = 1;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "per-device", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "threads", required_argument, NULL, 'j' },
		{ "kernels", no_argument, NULL, 'k' },
		{ "launchers", no_argument, NULL, 'l' },
		{ "meta", no_argument, NULL, 'm' },
		{ "trace-name", required_argument, NULL, 'n' },
		{ "ops", required_argument, NULL, 'o' },
		{ "step", required_argument, NULL, 's' },
		{ "stack", no_argument, NULL, 'S' },
		{ "timeline", no_argument, NULL, 't' },
		{ "include-unlinked", no_argument, NULL, 'u' },
		{ "version", no_argument, NULL, 'V' },
		{ "window", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, rval = 0;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();	/* getopt's messages use it */
	while ((ch = getopt_long(argc, argv, "cdhj:klmn:o:s:StuVw:", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'c':
			opt.csv = 1;
			break;
		case 'd':
			opt.per_device = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'j':
			if (tl_parse_long(optarg, 1, 1024, &opt.threads) < 0) {
				tl_warn("--threads: '%s' is not a number of "
				    "threads from 1 to 1024", optarg);
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'k':
			set_view(V_KERNELS);
			break;
		case 'l':
			set_view(V_LAUNCHERS);
			break;
		case 'm':
			set_view(V_META);
			break;
		case 'n':
			opt.trace_name = optarg;
			break;
		case 'o':
			opt.ops = optarg;
			break;
		case 's':
			if (tl_parse_long(optarg, 0, 1LL << 40, &opt.step) < 0) {
				tl_warn("--step: '%s' is not a step number",
				    optarg);
				usage(stderr, TL_EXIT_USAGE);
			}
			opt.has_step = 1;
			break;
		case 'S':
			opt.stack = 1;
			break;
		case 't':
			set_view(V_TIMELINE);
			break;
		case 'u':
			opt.unlinked = 1;
			break;
		case 'V':
			tl_version();
			break;
		case 'w':
			parse_window(optarg);
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (opt.has_step && opt.win.on) {
		tl_warn("--step and --window exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.per_device && opt.view != V_TIMELINE) {
		tl_warn("--per-device needs --timeline");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (tl_optable_load(opt.ops) < 0)
		return TL_EXIT_ERROR;
	tl_stdout_buffer();
	tl_w_init(&w, stdout, opt.csv);
	if (argc == 0)
		rval |= parse_file("-");
	for (; *argv != NULL; argv++)
		rval |= parse_file(*argv);
	tl_jb_free(&os.jb);
	return rval | tl_close_stdout();
}
