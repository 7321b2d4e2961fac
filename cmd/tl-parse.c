/* See LICENSE file for copyright and license details. */
/* tl-parse: read PyTorch profiler traces and write the op stream. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/kerntable.h"
#include "model/family.h"
#include "stream/optable.h"
#include "stream/schema.h"
#include "trace/capture.h"
#include "trace/input.h"
#include "trace/iter.h"
#include "trace/opstream.h"
#include "trace/timeline.h"
#include "trace/trace.h"
#include "trace/tree.h"

static const char usage_str[] =
    "usage: tl-parse [--csv] [--trace-name NAME] [--ops FILE] [--threads N]\n"
    "                [--quiet]\n"
    "                [--step N | --window START,END | --steady[=N]]\n"
    "                [--stack | --no-context] [--no-culprits]\n"
    "                [--launchers | --timeline [--per-device] | --kernels | --meta |\n"
    "                 --iterations]\n"
    "                [--include-unlinked] [--capture PATH ... | --no-capture]\n"
    "                [--kernel-table FILE] [file ...]\n";

static const char help_str[] =
    "Read PyTorch profiler traces (.json or .json.gz, \"-\" or none = stdin)\n"
    "and write one TSV row per op instance with its GPU kernels.\n"
    "\n"
    "  -c, --csv               write CSV instead of TSV\n"
    "  -n, --trace-name NAME   value of the trace column (default: file name)\n"
    "  -O, --ops FILE          op table to use instead of the built-in one\n"
    "  -s, --step N            only the ProfilerStep#N window\n"
    "  -w, --window START,END  only host events starting in [START, END) µs\n"
    "      --steady[=N]        only the steady-state window of at most N\n"
    "                          iterations (default 32)\n"
    "  -S, --stack             every Python frame: the whole call_stack\n"
    "  -N, --no-context        skip the Python frames: module and\n"
    "                          call_stack empty (faster)\n"
    "      --no-culprits       leave the idle gaps' culprits out: idle_gaps\n"
    "                          and the noise columns empty (faster)\n"
    "  -l, --launchers         one row per launching op, direct kernels\n"
    "  -t, --timeline          print the GPU timeline instead\n"
    "  -d, --per-device        with --timeline, one timeline per GPU\n"
    "  -k, --kernels           one row per GPU event instead\n"
    "  -m, --meta              print the trace metadata instead\n"
    "  -i, --iterations        one row per iteration instead\n"
    "  -u, --include-unlinked  count unlinked GPU events on the timeline\n"
    "      --capture PATH      graph-capture traces of graph launches: a trace,\n"
    "                          an execution_details.json or a directory\n"
    "                          (default: found beside each trace)\n"
    "      --no-capture        leave graph launches by kernel family\n"
    "      --kernel-table FILE kernel-name table instead of the built-in one\n"
    "  -j, --threads N         read the events and write the rows on N threads\n"
    "                          (default: one per CPU it may run on, at most 8,\n"
    "                          reading gzip on one fewer; same output)\n"
    "  -q, --quiet             no progress line on a terminal\n"
    "  -h, --help              print this help and exit\n"
    "  -V, --version           print the version and exit\n";

/* Long options without a letter. */
enum {
	OPT_NO_CAPTURE = 256, OPT_CAPTURE, OPT_KERNEL_TABLE, OPT_STEADY,
	OPT_NO_CULPRITS
};

/* The call_stack frames written without --stack, innermost first. */
#define CONTEXT_DEPTH 8

enum view {
	V_OPS, V_LAUNCHERS, V_TIMELINE, V_KERNELS, V_META, V_ITERATIONS
};

static struct {
	enum view view;
	int csv, stack, nocontext, per_device, unlinked;
	const char *trace_name, *ops, *kernel_table;
	int no_capture;
	struct tl_capture_list capture;	/* --capture */
	long long step, threads, steady_n;
	int has_step, steady;
	struct tl_window win;
} opt;

static struct tl_writer w;
static struct tl_opstream os = { &w, { NULL, 0, 0 }, 0, 0, 0, 0 };
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
	[V_META] = TL_TAB_META, [V_ITERATIONS] = TL_TAB_ITERATIONS
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
		    opt.win.on || opt.has_step || opt.steady ?
		    ", none in the window" : "");
}

/* The steady-state window of t's iterations into w: 0, or -1. */
static int
steady_window(const struct tl_trace *t, const struct tl_iters *it,
    struct tl_window *w)
{
	const struct tl_iter *a, *b;

	if (it->n == 0) {
		tl_warn("%s: --steady: no iterations in the trace (no "
		    "ProfilerStep#N and no serving step annotation)", t->path);
		return -1;
	}
	a = &it->v[it->lo];
	b = &it->v[it->hi - 1];
	w->on = 1;
	w->start = a->ts;
	w->end = b->end > a->ts ? b->end : a->ts + 1;
	tl_warn("%s: steady-state window: iterations %lld to %lld (%zu of "
	    "%zu, by %s), host time %.3f to %.3f µs", t->path,
	    (long long)a->number, (long long)b->number, it->hi - it->lo,
	    it->n, tl_itersrc_names[it->src], (double)w->start / 1e3,
	    (double)w->end / 1e3);
	return 0;
}

/*
 * Module context by default: the frames around the host events, read
 * cheaply; --stack reads them all, and strictly.
 */
static int
keep_python(void)
{
	return opt.stack ? TL_PY_ALL : opt.nocontext ? TL_PY_SKIP :
	    TL_PY_CONTEXT;
}

/*
 * Graft the graph-capture traces into t when it has graph launches: those
 * of --capture, else those beside it.  Says on one line what it matched.
 */
static void
merge_capture(struct tl_trace *t)
{
	struct tl_capture_list beside = { NULL, 0, 0 };
	const struct tl_capture_list *l = &opt.capture;
	struct tl_capture_stats st;
	struct tl_trace **cap;
	struct tl_trace_opts o;
	long *batch;
	size_t i, n = 0;

	tl_capture_count(t, &st);
	if (st.launches == 0)
		return;
	if (l->n == 0 && !opt.no_capture) {
		if (strcmp(t->path, "-") != 0)
			tl_capture_beside(&beside, t->path);
		l = &beside;
	}
	if (l->n == 0 || opt.no_capture) {
		tl_warn("%s: %ld graph launches replay %ld GPU events (%.3f ms) "
		    "that %s: they are broken down by kernel family", t->path,
		    st.launches, st.gpu, (double)st.gpu_ns / 1e6,
		    opt.no_capture ? "--no-capture leaves without their ops" :
		    "no graph-capture trace names the ops of (--capture gives "
		    "them)");
		return;
	}
	memset(&o, 0, sizeof(o));
	/* Their frames too: the module context of the ops they attribute. */
	o.keep_python = keep_python();
	o.no_culprit_frames = os.no_culprits;
	o.threads = (int)opt.threads;
	o.launch_kernels = 1;
	cap = tl_calloc(l->n, sizeof(*cap));
	batch = tl_calloc(l->n, sizeof(*batch));
	for (i = 0; i < l->n; i++) {
		if ((cap[n] = tl_trace_read(l->v[i].path, &o)) == NULL)
			continue;	/* said why */
		batch[n] = l->v[i].batch;
		tl_tree_build(cap[n++]);
	}
	tl_capture_merge(t, cap, batch, n, &st);
	tl_warn("%s: graph capture: %ld of %ld graph launches matched a "
	    "captured graph (%ld read from %zu capture traces); %ld of %ld "
	    "replayed GPU events (%.3f of %.3f ms) attributed to captured ops%s",
	    t->path, st.matched, st.launches, st.graphs, n, st.attributed,
	    st.gpu, (double)st.attributed_ns / 1e6, (double)st.gpu_ns / 1e6,
	    st.attributed < st.gpu ? ", the rest broken down by kernel "
	    "family" : "");
	for (i = 0; i < n; i++)
		tl_trace_free(cap[i]);
	free(cap);
	free(batch);
	tl_capture_list_free(&beside);
}

/*
 * One line when the trace holds device events tl does not read, or no
 * GPU events: the device kinds it holds, by event category.
 */
static void
warn_devices(const struct tl_trace *t, long ngpu)
{
	static const char reads[] = "tl reads only GPU events (kernel, "
	    "gpu_memcpy, gpu_memset)";
	char other[512];

	tl_trace_devices(t, NULL, 0, other, sizeof(other));
	if (ngpu == 0 && other[0] != '\0')
		tl_warn("%s: the trace has no GPU events; its device events "
		    "are %s, which tl does not read: nothing to attribute; %s",
		    t->path, other, reads);
	else if (ngpu == 0)
		tl_warn("%s: the trace has no GPU events and no events of "
		    "another device (host events only): nothing to attribute; "
		    "%s", t->path, reads);
	else if (other[0] != '\0')
		tl_warn("%s: the trace also has device events tl does not "
		    "read: %s; %s", t->path, other, reads);
}

static int
parse_file(const char *path)
{
	struct tl_trace_opts o;
	struct tl_trace *t;
	struct tl_timeline tl, stl;
	struct tl_window win = opt.win, sw;
	int steady = 0;
	struct tl_link_stats s;
	struct tl_iters it;
	size_t nrows;

	memset(&o, 0, sizeof(o));
	o.keep_python = keep_python();
	o.no_culprit_frames = os.no_culprits;
	o.trace_name = opt.trace_name;
	o.threads = (int)opt.threads;
	if ((t = tl_trace_read(path, &o)) == NULL)
		return 1;
	tl_tree_build(t);
	merge_capture(t);
	tl_iters_find(t, &it);
	tl_iters_steady(&it, (size_t)opt.steady_n);
	if ((opt.has_step && tl_step_window(t, opt.step, &win) < 0) ||
	    (opt.steady && steady_window(t, &it, &win) < 0)) {
		tl_iters_free(&it);
		tl_trace_free(t);
		return 1;
	}
	if (opt.view == V_OPS || opt.view == V_LAUNCHERS) {
		/* The op rows' steady window, its timeline in the same pass. */
		tl_iters_steady(&it, TL_STEADY_STEPS);
		steady = tl_iters_window(&it, &sw);
	}
	tl_timelines(t, &win, opt.unlinked, &tl, steady ? &sw : NULL, &stl,
	    &s);
	if (opt.view != V_META)
		warn_devices(t, s.gpu);
	if (opt.view == V_TIMELINE)
		warn_left_out(t, &s, &tl, -1);
	if (!header_done++)
		tl_os_header(&os, view_table[opt.view], 1);
	switch (opt.view) {
	case V_OPS:
	case V_LAUNCHERS:
		os.launchers = opt.view == V_LAUNCHERS;
		nrows = tl_os_oprows(&os, t, &win, &tl, 1, &it,
		    steady ? &stl : NULL);
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
	case V_ITERATIONS:
		tl_os_iterations(&os, t, &it, &win);
		break;
	}
	tl_iters_free(&it);
	tl_trace_free(t);
	return 0;
}

static void
set_view(enum view v)
{
	if (opt.view != V_OPS && opt.view != v) {
		tl_warn("--launchers, --timeline, --kernels, --meta and "
		    "--iterations exclude each other");
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
		{ "steady", optional_argument, NULL, OPT_STEADY },
		{ "help", no_argument, NULL, 'h' },
		{ "iterations", no_argument, NULL, 'i' },
		{ "threads", required_argument, NULL, 'j' },
		{ "kernels", no_argument, NULL, 'k' },
		{ "launchers", no_argument, NULL, 'l' },
		{ "meta", no_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "trace-name", required_argument, NULL, 'n' },
		{ "no-context", no_argument, NULL, 'N' },
		{ "ops", required_argument, NULL, 'O' },
		{ "step", required_argument, NULL, 's' },
		{ "stack", no_argument, NULL, 'S' },
		{ "timeline", no_argument, NULL, 't' },
		{ "include-unlinked", no_argument, NULL, 'u' },
		{ "version", no_argument, NULL, 'V' },
		{ "window", required_argument, NULL, 'w' },
		{ "capture", required_argument, NULL, OPT_CAPTURE },
		{ "no-capture", no_argument, NULL, OPT_NO_CAPTURE },
		{ "kernel-table", required_argument, NULL, OPT_KERNEL_TABLE },
		{ "no-culprits", no_argument, NULL, OPT_NO_CULPRITS },
		{ NULL, 0, NULL, 0 }
	};
	int ch, rval = 0;

	tl_setprogname(argv[0]);
	tl_malloc_tune();	/* peak memory: docs/PERFORMANCE.md */
	argv[0] = (char *)tl_progname();	/* getopt's messages use it */
	while ((ch = getopt_long(argc, argv, "cdhij:klmNn:O:qs:StuVw:", longopts,
	    NULL)) != -1)
		switch (ch) {
		case OPT_CAPTURE:
			if (tl_capture_add(&opt.capture, optarg) < 0)
				return TL_EXIT_ERROR;
			break;
		case OPT_NO_CAPTURE:
			opt.no_capture = 1;
			break;
		case OPT_KERNEL_TABLE:
			opt.kernel_table = optarg;
			break;
		case OPT_NO_CULPRITS:
			os.no_culprits = 1;
			break;
		case 'c':
			opt.csv = 1;
			break;
		case 'd':
			opt.per_device = 1;
			break;
		case OPT_STEADY:
			if (optarg != NULL && tl_parse_long(optarg, 1,
			    1LL << 30, &opt.steady_n) < 0) {
				tl_warn("--steady: '%s' is not a number of "
				    "iterations", optarg);
				usage(stderr, TL_EXIT_USAGE);
			}
			opt.steady = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'i':
			set_view(V_ITERATIONS);
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
		case 'N':
			opt.nocontext = 1;
			break;
		case 'q':
			tl_input_quiet(1);
			break;
		case 'n':
			opt.trace_name = optarg;
			break;
		case 'O':
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
	if (opt.has_step + opt.win.on + opt.steady > 1) {
		tl_warn("--step, --window and --steady exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.stack && opt.nocontext) {
		tl_warn("--stack and --no-context exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (os.no_culprits && opt.view != V_OPS && opt.view != V_LAUNCHERS) {
		tl_warn("--no-culprits goes with the op stream or --launchers");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.per_device && opt.view != V_TIMELINE) {
		tl_warn("--per-device needs --timeline");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.no_capture && opt.capture.n > 0) {
		tl_warn("--capture and --no-capture exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (tl_optable_load(opt.ops, tl_perf_family_known) < 0 ||
	    tl_kerntable_load(opt.kernel_table) < 0)
		return TL_EXIT_ERROR;
	tl_stdout_buffer();
	tl_w_init(&w, stdout, opt.csv);
	tl_w_rows(&w);
	os.depth = opt.stack ? 0 : CONTEXT_DEPTH;
	os.threads = opt.threads > 0 ? (int)opt.threads : tl_ncpu();
	if (argc == 0)
		rval |= parse_file("-");
	for (; *argv != NULL; argv++)
		rval |= parse_file(*argv);
	tl_jb_free(&os.jb);
	tl_capture_list_free(&opt.capture);
	return rval | tl_close_stdout();
}
