/* See LICENSE file for copyright and license details. */
/* tl-parse: read PyTorch profiler traces and write the op stream. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "category.h"
#include "json.h"
#include "jsonw.h"
#include "kernclass.h"
#include "rollup.h"
#include "timeline.h"
#include "trace.h"
#include "tree.h"
#include "tsv.h"
#include "util.h"

static const char usage_str[] =
    "usage: tl-parse [--csv] [--trace-name NAME] [--ops FILE]\n"
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
    "  -h, --help              print this help and exit\n"
    "  -V, --version           print the version and exit\n";

enum view { V_OPS, V_LAUNCHERS, V_TIMELINE, V_KERNELS, V_META };

static struct {
	enum view view;
	int csv, stack, per_device, unlinked;
	const char *trace_name, *ops;
	long long step;
	int has_step;
	struct tl_window win;
} opt;

static struct tl_writer w;
static struct tl_jbuf jb;
static int header_done;

static const char op_cols[] =
    "trace,rank,uid,name,category,direction,row_kind,pid,tid,ts_us,"
    "cpu_dur_us,kernel_count,kernel_time_us,kernels,input_dims,input_types,"
    "input_strides,concrete_inputs,parent_uid,parent_name,fwd_uid,fwd_name,"
    "seq,pct_gpu_time,trace_total_us,trace_busy_us,trace_compute_us,"
    "trace_exposed_comm_us,trace_exposed_memcpy_us,trace_idle_us,trace_gpu";
static const char launcher_cols[] =
    "trace,rank,uid,name,category,direction,row_kind,pid,tid,ts_us,"
    "cpu_dur_us,kernel_count,kernel_time_us,subtree_kernel_time_us,kernels,"
    "input_dims,input_types,input_strides,concrete_inputs,parent_uid,"
    "parent_name,fwd_uid,fwd_name,seq,pct_gpu_time,trace_total_us,"
    "trace_busy_us,trace_compute_us,trace_exposed_comm_us,"
    "trace_exposed_memcpy_us,trace_idle_us,trace_gpu";
static const char timeline_cols[] =
    "trace,rank,device,type,time_us,pct_total";
static const char kernel_cols[] =
    "trace,rank,uid,name,kind,class,pid,stream,ts_us,dur_us,correlation,"
    "linked,graph,launcher_uid,launcher,op_uid,op_name,op_category,"
    "input_dims,input_types,input_strides,concrete_inputs,grid,block";
static const char meta_cols[] = "trace,rank,key,value";

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

static void
header(const char *cols)
{
	if (header_done)
		return;
	header_done = 1;
	if (opt.stack && (opt.view == V_OPS || opt.view == V_LAUNCHERS)) {
		char buf[1024];

		snprintf(buf, sizeof(buf), "%s,module,call_stack", cols);
		tl_w_header(&w, buf);
	} else
		tl_w_header(&w, cols);
}

static void
w_interned(const struct tl_trace *t, uint32_t id)
{
	tl_w_mem(&w, tl_str(t->str, id), tl_strsize(t->str, id));
}

static void
w_opt_int(int64_t v)
{
	if (v == TL_NONE)
		tl_w_empty(&w);
	else
		tl_w_int(&w, v);
}

static void
kernels_json(const struct tl_trace *t, const struct tl_row *r)
{
	int k;

	tl_jb_reset(&jb);
	tl_jb_lit(&jb, "[");
	for (k = 0; k < r->ngpu; k++) {
		const struct tl_event *g = &t->ev[r->gpu[k]];

		tl_jb_lit(&jb, k ? ",{\"uid\":" : "{\"uid\":");
		tl_jb_int(&jb, g->uid);
		tl_jb_lit(&jb, ",\"name\":");
		tl_jb_str(&jb, tl_ev_name(t, g));
		tl_jb_lit(&jb, ",\"pid\":");
		tl_jb_str(&jb, tl_str(t->str, g->pid));
		tl_jb_lit(&jb, ",\"stream\":");
		if (g->stream == TL_NONE)
			tl_jb_lit(&jb, "null");
		else
			tl_jb_int(&jb, g->stream);
		tl_jb_lit(&jb, ",\"ts\":");
		tl_jb_us(&jb, g->ts);
		tl_jb_lit(&jb, ",\"dur\":");
		tl_jb_us(&jb, g->dur);
		tl_jb_lit(&jb, "}");
	}
	tl_jb_lit(&jb, "]");
	tl_w_mem(&w, jb.s, jb.n);
}

static void
w_trace(const struct tl_trace *t)
{
	tl_w_str(&w, t->name);
	if (t->rank != NULL)
		tl_w_str(&w, t->rank);
	else
		tl_w_empty(&w);
}

static void
write_rows(const struct tl_trace *t, const struct tl_rows *rows,
    const struct tl_timeline *tl, struct tl_callstack *cs)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct tl_row *r = &rows->v[i];
		const struct tl_event *e = &t->ev[r->op];
		int p = tl_tree_cpu_ancestor(t, r->op);
		int fwd = r->fwd >= 0 ? r->fwd : tl_forward_of(t, r->op);
		const struct tl_event *a = r->kind == TL_ROW_BWD && r->fwd >= 0 ?
		    &t->ev[r->fwd] : e;	/* the args a model reads */

		w_trace(t);
		tl_w_int(&w, e->uid);
		w_interned(t, e->name);
		tl_w_str(&w, r->category);
		tl_w_str(&w, r->direction);
		tl_w_str(&w, tl_rowkind_name(r->kind));
		w_interned(t, e->pid);
		w_interned(t, e->tid);
		tl_w_us(&w, e->ts);
		tl_w_us(&w, e->dur);
		tl_w_int(&w, r->ngpu);
		tl_w_us(&w, r->busy);
		if (opt.view == V_LAUNCHERS)
			tl_w_us(&w, r->subtree_busy);
		kernels_json(t, r);
		w_interned(t, a->dims);
		w_interned(t, a->types);
		w_interned(t, a->strides);
		w_interned(t, a->concrete);
		if (p >= 0) {
			tl_w_int(&w, t->ev[p].uid);
			w_interned(t, t->ev[p].name);
		} else {
			tl_w_empty(&w);
			tl_w_empty(&w);
		}
		if (fwd >= 0 && fwd != r->op) {
			tl_w_int(&w, t->ev[fwd].uid);
			w_interned(t, t->ev[fwd].name);
		} else {
			tl_w_empty(&w);
			tl_w_empty(&w);
		}
		w_opt_int(e->seq);
		if (rows->total_busy > 0)
			tl_w_double(&w, (double)r->busy /
			    (double)rows->total_busy * 100.0);
		else
			tl_w_empty(&w);
		tl_w_us(&w, tl->total);
		tl_w_us(&w, tl->busy);
		tl_w_us(&w, tl->compute);
		tl_w_us(&w, tl->exposed_comm);
		tl_w_us(&w, tl->exposed_memcpy);
		tl_w_us(&w, tl->idle);
		tl_w_str(&w, t->gpu);
		if (cs != NULL) {
			tl_module_of(cs, r->op, &jb);
			tl_w_mem(&w, jb.s, jb.n);
			tl_callstack_of(cs, r->op, &jb);
			tl_w_mem(&w, jb.s, jb.n);
		}
		tl_w_eol(&w);
	}
}

static void
write_timeline(const struct tl_trace *t, const char *device,
    const struct tl_timeline *tl)
{
	int64_t v[8];
	int k;

	tl_timeline_values(tl, v);
	for (k = 0; k < 8; k++) {
		w_trace(t);
		tl_w_str(&w, device);
		tl_w_str(&w, tl_timeline_rows[k]);
		tl_w_us(&w, v[k]);
		if (tl->total > 0)
			tl_w_double(&w, (double)v[k] / (double)tl->total * 100.0);
		else
			tl_w_empty(&w);
		tl_w_eol(&w);
	}
}

static void
write_kernels(const struct tl_trace *t)
{
	size_t i;

	for (i = 0; i < t->nev; i++) {
		const struct tl_event *g = &t->ev[i];
		int r = g->parent, p;
		static const char *const kinds[] = {
			"kernel", "memcpy", "memset"
		};

		if (!TL_IS_GPU(g->kind) || !tl_in_window(t, &opt.win, (int)i))
			continue;
		p = r >= 0 ? tl_tree_cpu_ancestor(t, (int)i) : -1;
		w_trace(t);
		tl_w_int(&w, g->uid);
		w_interned(t, g->name);
		tl_w_str(&w, kinds[g->kind - TL_EV_KERNEL]);
		tl_w_str(&w, tl_gpuclass_name(g->flags & TL_F_COMM ? TL_GC_COMM :
		    g->flags & TL_F_MEMCPY_CLASS ? TL_GC_MEMCPY : TL_GC_COMPUTE));
		w_interned(t, g->pid);
		w_opt_int(g->stream);
		tl_w_us(&w, g->ts);
		tl_w_us(&w, g->dur);
		w_opt_int(t->link_external ? g->extid : g->corr);
		tl_w_int(&w, r >= 0);
		tl_w_int(&w, (g->flags & TL_F_GRAPH) != 0);
		if (r >= 0) {
			tl_w_int(&w, t->ev[r].uid);
			w_interned(t, t->ev[r].name);
		} else {
			tl_w_empty(&w);
			tl_w_empty(&w);
		}
		if (p >= 0) {
			const struct tl_event *o = &t->ev[p];

			tl_w_int(&w, o->uid);
			w_interned(t, o->name);
			tl_w_str(&w, tl_categorize(tl_ev_name(t, o),
			    tl_ev_name(t, g)));
			w_interned(t, o->dims);
			w_interned(t, o->types);
			w_interned(t, o->strides);
			w_interned(t, o->concrete);
		} else {
			int k;

			for (k = 0; k < 7; k++)
				tl_w_empty(&w);
		}
		w_interned(t, g->grid);
		w_interned(t, g->block);
		tl_w_eol(&w);
	}
}

static void
meta_row(const struct tl_trace *t, const char *key, const char *value)
{
	w_trace(t);
	tl_w_str(&w, key);
	tl_w_str(&w, value);
	tl_w_eol(&w);
}

static void
write_meta(const struct tl_trace *t)
{
	struct tl_link_stats s;
	char buf[64];
	size_t i;

	for (i = 0; i < t->nmeta; i++)
		meta_row(t, t->meta[i].key, t->meta[i].value);
	tl_tree_stats(t, &s);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t->nevents);
	meta_row(t, "tl.events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.gpu);
	meta_row(t, "tl.gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.linked);
	meta_row(t, "tl.linked_gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.gpu - s.linked);
	meta_row(t, "tl.unlinked_gpu_events", buf);
	snprintf(buf, sizeof(buf), "%ld", s.graph);
	meta_row(t, "tl.graph_gpu_events", buf);
	meta_row(t, "tl.link_key", t->link_external ? "External id" :
	    "correlation");
}

/* Find the ProfilerStep#N window; 0 or -1. */
static int
step_window(const struct tl_trace *t, struct tl_window *win)
{
	char name[64];
	size_t i;

	snprintf(name, sizeof(name), "ProfilerStep#%lld", opt.step);
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];

		if ((e->kind == TL_EV_ANNOTATION || e->kind == TL_EV_CPU_OP) &&
		    strcmp(tl_ev_name(t, e), name) == 0) {
			win->on = 1;
			win->start = e->ts;
			win->end = e->ts + e->dur;
			return 0;
		}
	}
	tl_warn("%s: no %s in the trace", t->path, name);
	return -1;
}

static int
parse_file(const char *path)
{
	struct tl_trace_opts o;
	struct tl_trace *t;
	struct tl_timeline tl;
	struct tl_window win = opt.win;
	struct tl_link_stats s;

	memset(&o, 0, sizeof(o));
	o.keep_python = opt.stack;
	o.trace_name = opt.trace_name;
	if ((t = tl_trace_read(path, &o)) == NULL)
		return 1;
	tl_tree_build(t);
	if (opt.has_step && step_window(t, &win) < 0) {
		tl_trace_free(t);
		return 1;
	}
	tl_tree_stats(t, &s);
	if (s.gpu == 0 && opt.view != V_META)
		tl_warn("%s: the trace has no GPU events (kernels, memcpy, "
		    "memset): nothing to attribute", t->path);
	tl_timeline(t, &win, TL_ALL_DEVICES, opt.unlinked, &tl);
	switch (opt.view) {
	case V_OPS:
	case V_LAUNCHERS: {
		struct tl_rows rows;
		struct tl_callstack *cs = NULL;

		header(opt.view == V_OPS ? op_cols : launcher_cols);
		if (opt.view == V_OPS)
			tl_rollup(t, &win, &rows);
		else
			tl_launchers(t, &win, &rows);
		if (opt.stack)
			cs = tl_callstack_new(t);
		write_rows(t, &rows, &tl, cs);
		tl_callstack_free(cs);
		tl_rows_free(&rows);
		break;
	}
	case V_TIMELINE:
		header(timeline_cols);
		if (s.gpu == 0)
			break;
		if (!opt.per_device) {
			write_timeline(t, "all", &tl);
		} else {
			uint32_t *dev;
			size_t n = tl_timeline_devices(t, &dev), i;

			for (i = 0; i < n; i++) {
				tl_timeline(t, &win, dev[i], opt.unlinked, &tl);
				write_timeline(t, tl_str(t->str, dev[i]), &tl);
			}
			free(dev);
		}
		break;
	case V_KERNELS:
		header(kernel_cols);
		write_kernels(t);
		break;
	case V_META:
		header(meta_cols);
		write_meta(t);
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
	while ((ch = getopt_long(argc, argv, "cdhklmn:o:s:StuVw:", longopts,
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
	tl_jb_free(&jb);
	return rval | tl_close_stdout();
}
