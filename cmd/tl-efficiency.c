/* See LICENSE file for copyright and license details. */
/* tl-efficiency: roofline efficiency of op rows on a GPU. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/jsonw.h"
#include "common/strmap.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/hwauto.h"
#include "model/hwspec.h"
#include "model/model_file.h"
#include "model/perfcols.h"
#include "model/roofline.h"
#include "model/roweff.h"
#include "stream/category.h"
#include "stream/stream.h"

static const char usage_str[] =
    "usage: tl-efficiency --hw NAME|auto [--hw-file FILE] [--hw-map FILE]\n"
    "                     [--strict-hw] [--roof achievable|peak]\n"
    "                     [--peak-tflops X] [--peak-tbs X] [--thresholds E,G,A]\n"
    "                     [--group | --no-baseline] [--csv] [--ops FILE]\n"
    "                     [--models FILE]... [file ...]\n"
    "       tl-efficiency --hw list [--hw-file FILE] [--csv]\n";

static const char help_str[] =
    "Add achieved TFLOPS/s and TB/s, the roofline time, the bound and the %\n"
    "of roofline to each row of an op stream (\"-\" or none = stdin), running\n"
    "the perf model first when the stream lacks its columns.\n"
    "\n"
    "  -H, --hw NAME          the GPU (tl-efficiency --hw list); auto = from\n"
    "                         the trace_gpu* columns (name, architecture,\n"
    "                         compute units, memory)\n"
    "  -f, --hw-file FILE     GPU table to use instead of the built-in one\n"
    "  -D, --hw-map FILE      GPU per trace: lines \"GLOB GPU\", the first\n"
    "                         glob matching the trace column wins over --hw\n"
    "  -x, --strict-hw        a GPU --hw auto cannot name is an error, not a\n"
    "                         warning with empty efficiency columns\n"
    "  -r, --roof KIND        achievable (default: where the table has it,\n"
    "                         else dense peak) or peak (dense data-sheet peak)\n"
    "  -T, --peak-tflops X    compute roof in TFLOPS for every op\n"
    "  -B, --peak-tbs X       bandwidth roof in TB/s\n"
    "  -t, --thresholds E,G,A %% of roofline above which an op is excellent,\n"
    "                         good, acceptable (default 80,60,40)\n"
    "  -g, --group            one row per op signature with count and time\n"
    "                         statistics, sorted by total time\n"
    "  -b, --no-baseline      leave the elementwise baseline columns empty\n"
    "                         and write each row at once (one pass)\n"
    "  -c, --csv              write CSV instead of TSV\n"
    "  -o, --ops FILE         op table to use instead of the built-in one\n"
    "  -M, --models FILE      also read the model formulas of FILE\n"
    "  -h, --help             print this help and exit\n"
    "  -V, --version          print the version and exit\n";

enum {
	E_HW, E_ROOF, E_BW_ROOF, E_PEAK_TFLOPS, E_PEAK_TBS, E_TFLOPS_S, E_TBS,
	E_ROOFLINE_US, E_BOUND, E_PCT, E_ASSESS, E_BASE, E_PCT_BASE, E_N
};
static const char *const eff_names[E_N] = {
	"hw", "roof", "bw_roof", "peak_tflops", "peak_tbs", "tflops_s", "tbs",
	"roofline_time_us", "bound", "pct_roofline", "assessment",
	"eltwise_baseline_tbs", "pct_eltwise_baseline"
};
enum { G_COUNT, G_MEAN, G_STD, G_MIN, G_MAX, G_N };
static const char *const group_names[G_N] = {
	"count", "kernel_time_mean_us", "kernel_time_std_us",
	"kernel_time_min_us", "kernel_time_max_us"
};

static struct {
	const char *hw, *hw_file, *hw_map, *ops;
	enum tl_roof roof;
	double peak_tflops, peak_tbs;
	double thr[3];
	int group, csv, no_baseline, strict_hw;
} opt = { NULL, NULL, NULL, NULL, TL_ROOF_AUTO, 0, 0, { 80, 60, 40 }, 0, 0,
	0, 0 };

/* The ops whose bandwidth is the elementwise baseline. */
static const char *const simple_ops[] = {
	"aten::add", "aten::add_", "aten::mul", "aten::mul_", "aten::copy_",
	NULL
};
/* Ops smaller than this measure launch latency, not bandwidth. */
#define BASELINE_MIN_BYTES (1LL << 20)

/* Per trace: the elementwise baseline. */
struct trace_acc {
	char *name;
	double bytes, time_us;		/* all simple ops */
	double big_bytes, big_time_us;	/* those of at least 1 MiB */
};

/* Per row, kept for the second pass. */
struct row_note {
	int trace;
	int memory;	/* memory-bound with a TB/s */
	double tbs;
};

/* Per signature with --group. */
struct group {
	int trace;
	char **field;	/* output fields of the first row, TSV-escaped */
	long long count;
	int64_t sum, min, max;	/* kernel time, ns */
	double wmean, m2;	/* Welford's running mean and M2, µs */
	double kcount, pct;
	double tflops_sum, tbs_sum, pct_sum;
	long long tflops_n, tbs_n, pct_n;
	long long order;
};

static struct tl_stream in;
static struct tl_roweff re;
static int ctime, ctrace, cname, ckcount, cpct;
static int ckern;
static int sig[6];
static const char **owned;
static int nowned;
static struct tl_outcols oc;

static struct trace_acc *traces;
static size_t ntraces, captraces;
static char spoolbuf[1 << 20];	/* few system calls on the spool */
static struct row_note *notes;
static size_t nnotes, capnotes;

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

static void
parse_thresholds(const char *s)
{
	char *end;
	int k;

	for (k = 0; k < 3; k++) {
		opt.thr[k] = strtod(s, &end);
		if (end == s || (k < 2 && *end != ',') || (k == 2 && *end != '\0'))
			break;
		s = end + 1;
	}
	if (k < 3 || !(opt.thr[0] >= opt.thr[1] && opt.thr[1] >= opt.thr[2] &&
	    opt.thr[2] >= 0)) {
		tl_warn("--thresholds: expected E,G,A with E >= G >= A >= 0");
		usage(stderr, TL_EXIT_USAGE);
	}
}

/* The GPU of --hw NAME (found at start-up; NULL with auto) and --hw-map. */
static const struct tl_hw *hw_fixed;
static struct tl_hwauto hwa;

static int
trace_index(const char *name)
{
	size_t i;

	for (i = ntraces; i-- > 0;)
		if (strcmp(traces[i].name, name) == 0)
			return (int)i;
	tl_grow(&traces, &captraces, ntraces + 1, sizeof(*traces));
	memset(&traces[ntraces], 0, sizeof(*traces));
	traces[ntraces].name = tl_strdup(name);
	return (int)ntraces++;
}

static int
is_simple(const char *name)
{
	int i;

	for (i = 0; simple_ops[i] != NULL; i++)
		if (strcmp(simple_ops[i], name) == 0)
			return 1;
	return 0;
}

/*
 * 1 if a row's kernels are memory copies or sets (a copy_ across PCIe):
 * they measure the link, not what GPU kernels reach in HBM.
 */
static int
copies(const char *kernels)
{
	return strstr(kernels, "\"name\":\"Memcpy") != NULL ||
	    strstr(kernels, "\"name\":\"Memset") != NULL;
}

static void
w_pos(struct tl_writer *w, int has, double v)
{
	if (has)
		tl_w_double(w, v);
	else
		tl_w_empty(w);
}

static void
write_eff(struct tl_writer *w, const struct tl_eff *e, int k)
{
	switch (k) {
	case E_HW:
		tl_w_str(w, e->hw != NULL ? tl_hw_name(e->hw) : "");
		break;
	case E_ROOF:
		tl_w_str(w, e->roof_used);
		break;
	case E_BW_ROOF:
		tl_w_str(w, e->bw_used);
		break;
	case E_PEAK_TFLOPS:
		w_pos(w, e->peak_tflops > 0, e->peak_tflops);
		break;
	case E_PEAK_TBS:
		w_pos(w, e->peak_tbs > 0, e->peak_tbs);
		break;
	case E_TFLOPS_S:
		w_pos(w, e->r.has_tflops_s, e->r.tflops_s);
		break;
	case E_TBS:
		w_pos(w, e->r.has_tbs, e->r.tbs);
		break;
	case E_ROOFLINE_US:
		w_pos(w, e->r.has_roofline, e->r.roofline_us);
		break;
	case E_BOUND:
		tl_w_str(w, e->r.bound);
		break;
	case E_PCT:
		w_pos(w, e->has_pct, e->r.pct_roofline);
		break;
	case E_ASSESS:
		tl_w_str(w, e->has_pct ? tl_assessment(e->r.pct_roofline,
		    opt.thr) : "");
		break;
	default:	/* the baseline columns come in the second pass */
		break;
	}
}

/* What output column k holds: a pass-through, perf, eff or group column. */
enum okind { O_PASS, O_PERF, O_EFF, O_GROUP };

static enum okind
out_kind(int k, int *sub)
{
	int o = oc.own[k], nperf = re.have_perf ? 0 : TL_PC_N;

	if (oc.map[k] >= 0) {
		*sub = oc.map[k];
		return O_PASS;
	}
	if (o < nperf) {
		*sub = o;
		return O_PERF;
	}
	if (o < nperf + E_N) {
		*sub = o - nperf;
		return O_EFF;
	}
	*sub = o - nperf - E_N;
	return O_GROUP;
}

/*
 * Write the current row with its perf and efficiency columns; the
 * baseline and group columns are left out (they need every row).
 */
static void
write_row(struct tl_writer *w, const struct tl_eff *e)
{
	int k = 0, sub;

	if (oc.all) {		/* the input's columns in one block */
		tl_stream_copy_all(&in, w);
		k = in.ncols;
	}
	for (; k < oc.n; k++)
		switch (out_kind(k, &sub)) {
		case O_PASS:
			tl_stream_copy(&in, sub, w);
			break;
		case O_PERF:
			tl_perfcols_write(&re.pc, sub, w);
			break;
		case O_EFF:
			if (sub < E_BASE)
				write_eff(w, e, sub);
			break;
		case O_GROUP:
			break;
		}
}

/* The baseline of trace t in TB/s, 0 when the trace has no simple op. */
static double
baseline(int t)
{
	const struct trace_acc *a = &traces[t];

	if (a->big_time_us > 0)
		return a->big_bytes / 1e12 / (a->big_time_us / 1e6);
	if (a->time_us > 0)
		return a->bytes / 1e12 / (a->time_us / 1e6);
	return 0;
}

static void
write_baseline(struct tl_writer *w, int t, int memory, double tbs)
{
	double b = baseline(t);

	w_pos(w, b > 0, b);
	w_pos(w, b > 0 && memory, tbs / b * 100);
}

/* Split a TSV line of the spool in place; field count. */
static int
split(char *line, char ***f, size_t *cap)
{
	int n = 0;
	char *p = line, *t;

	for (;;) {
		tl_grow(f, cap, (size_t)n + 1, sizeof(**f));
		(*f)[n++] = p;
		if ((t = strchr(p, '\t')) == NULL)
			break;
		*t = '\0';
		p = t + 1;
	}
	return n;
}

/* Write a TSV-escaped field to the output. */
static void
put_field(struct tl_writer *w, const char *s)
{
	size_t n = strlen(s);
	char *buf;

	if (!w->csv) {
		tl_w_raw(w, s, n);
		return;
	}
	buf = tl_malloc(n + 1);
	tl_w_mem(w, buf, tl_tsv_decode(buf, s, n));
	free(buf);
}

/* Replay the spool with the baseline columns appended. */
static void
replay(FILE *spool, struct tl_writer *w)
{
	char *line = NULL, **f = NULL;
	size_t cap = 0, fcap = 0, r = 0;
	ssize_t n;

	rewind(spool);
	while ((n = getline(&line, &cap, spool)) > 0) {
		int nf, k;

		line[n - 1] = '\0';
		if (!w->csv) {		/* TSV to TSV: the line as it is */
			fwrite(line, 1, (size_t)n - 1, w->fp);
			w->col = 1;
		} else {
			nf = split(line, &f, &fcap);
			for (k = 0; k < nf; k++)
				put_field(w, f[k]);
		}
		write_baseline(w, notes[r].trace, notes[r].memory,
		    notes[r].tbs);
		tl_w_eol(w);
		r++;
	}
	if (ferror(spool))
		tl_die("temporary file: read error:");
	free(line);
	free(f);
}

static struct group *groups;
static size_t ngroups, capgroups;

static struct tl_jbuf sigbuf;
static struct tl_strmap gmap;	/* signature -> group index */

/* The current row's signature: its sig fields joined by US (0x1f). */
static void
row_sig(void)
{
	int k;

	tl_jb_reset(&sigbuf);
	for (k = 0; k < 6; k++) {
		tl_jb_lit(&sigbuf, tl_stream_get(&in, sig[k]));
		tl_jb_raw(&sigbuf, "\x1f", 1);
	}
}

static void
add_to_group(const struct tl_eff *e, int ti)
{
	int64_t gi;
	int added;
	struct group *g;
	double kc = tl_stream_double(&in, ckcount);
	double pct = tl_stream_double(&in, cpct), tu;
	int64_t t = 0;

	row_sig();
	gi = tl_strmap_add(&gmap, sigbuf.s, sigbuf.n, &added);
	if (added) {
		char *text = NULL, **f = NULL;
		size_t len = 0, fcap = 0;
		FILE *fp = open_memstream(&text, &len);
		struct tl_writer w;
		int nf, k;

		tl_w_init(&w, fp, 0);
		write_row(&w, e);
		fclose(fp);
		nf = split(text, &f, &fcap);
		tl_grow(&groups, &capgroups, ngroups + 1, sizeof(*groups));
		g = &groups[ngroups];
		memset(g, 0, sizeof(*g));
		g->field = tl_calloc((size_t)nf + 1, sizeof(*g->field));
		for (k = 0; k < nf; k++)
			g->field[k] = tl_strdup(f[k]);
		free(f);
		free(text);
		g->trace = ti;
		g->order = (long long)ngroups;
		g->min = INT64_MAX;
		g->max = INT64_MIN;
		ngroups++;
	}
	g = &groups[gi];
	tl_stream_us(&in, ctime, &t);
	tu = (double)t / 1e3;
	g->count++;
	g->sum += t;
	{
		double d = tu - g->wmean;

		g->wmean += d / (double)g->count;
		g->m2 += d * (tu - g->wmean);
	}
	g->min = t < g->min ? t : g->min;
	g->max = t > g->max ? t : g->max;
	g->kcount += isnan(kc) ? 0 : kc;
	g->pct += isnan(pct) ? 0 : pct;
	if (e->r.has_tflops_s) {
		g->tflops_sum += e->r.tflops_s;
		g->tflops_n++;
	}
	if (e->r.has_tbs) {
		g->tbs_sum += e->r.tbs;
		g->tbs_n++;
	}
	if (e->has_pct) {
		g->pct_sum += e->r.pct_roofline;
		g->pct_n++;
	}
}

static int
cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
write_groups(struct tl_writer *w, int boundpos)
{
	size_t i;
	int k, sub;

	if (ngroups > 0)
		qsort(groups, ngroups, sizeof(*groups), cmp_group);
	for (i = 0; i < ngroups; i++) {
		struct group *g = &groups[i];
		double sum = (double)g->sum / 1e3;
		double mean = sum / (double)g->count, var = 0;
		double tbs = g->tbs_n > 0 ? g->tbs_sum / (double)g->tbs_n : 0;
		double pct = g->pct_n > 0 ? g->pct_sum / (double)g->pct_n : 0;
		int f = 0;

		for (k = 0; k < oc.n; k++) {
			enum okind kind = out_kind(k, &sub);

			if (kind == O_PASS && sub == ctime)
				tl_w_us(w, g->sum);
			else if (kind == O_PASS && sub == ckcount)
				tl_w_double(w, g->kcount);
			else if (kind == O_PASS && sub == cpct)
				tl_w_double(w, g->pct);
			else if (kind == O_EFF && sub == E_TFLOPS_S)
				w_pos(w, g->tflops_n > 0, g->tflops_sum /
				    (double)g->tflops_n);
			else if (kind == O_EFF && sub == E_TBS)
				w_pos(w, g->tbs_n > 0, tbs);
			else if (kind == O_EFF && sub == E_PCT)
				w_pos(w, g->pct_n > 0, pct);
			else if (kind == O_EFF && sub == E_ASSESS)
				tl_w_str(w, g->pct_n > 0 ?
				    tl_assessment(pct, opt.thr) : "");
			else if (kind == O_EFF && sub == E_BASE) {
				write_baseline(w, g->trace, g->tbs_n > 0 &&
				    boundpos >= 0 &&
				    strcmp(g->field[boundpos], "memory") == 0,
				    tbs);
				k++;	/* wrote two columns, stored none */
				continue;
			} else if (kind == O_GROUP) {
				switch (sub) {
				case G_COUNT:
					tl_w_int(w, g->count);
					break;
				case G_MEAN:
					tl_w_double(w, mean);
					break;
				case G_STD:
					if (g->count > 1) {
						var = g->m2 / (double)(g->count - 1);
						tl_w_double(w, var > 0 ?
						    sqrt(var) : 0);
					} else
						tl_w_empty(w);
					break;
				case G_MIN:
					tl_w_us(w, g->min);
					break;
				case G_MAX:
					tl_w_us(w, g->max);
					break;
				}
				continue;
			} else {
				put_field(w, g->field[f]);
			}
			f++;
		}
		tl_w_eol(w);
	}
}

static int
run(int argc, char *argv[])
{
	struct tl_writer w, sw;
	FILE *spool = NULL;
	int k, sub, boundpos = -1, f;
	struct tl_eff e;

	tl_stdout_buffer();
	tl_w_init(&w, stdout, opt.csv);
	tl_stream_open(&in, argv, argc);
	tl_roweff_init(&re, &in, opt.roof, opt.peak_tflops, opt.peak_tbs);
	ctime = tl_stream_need(&in, "kernel_time_us");
	cname = tl_stream_need(&in, "name");
	ctrace = tl_stream_col(&in, "trace");
	ckcount = tl_stream_col(&in, "kernel_count");
	cpct = tl_stream_col(&in, "pct_gpu_time");
	ckern = tl_stream_col(&in, "kernels");
	if (opt.hw != NULL)
		tl_hwauto_columns(&hwa, &in);
	sig[0] = ctrace;
	sig[1] = cname;
	sig[2] = tl_stream_col(&in, "input_dims");
	sig[3] = tl_stream_col(&in, "input_types");
	sig[4] = tl_stream_col(&in, "input_strides");
	sig[5] = tl_stream_col(&in, "concrete_inputs");
	nowned = (re.have_perf ? 0 : TL_PC_N) + E_N + (opt.group ? G_N : 0);
	owned = tl_calloc((size_t)nowned, sizeof(*owned));
	nowned = 0;
	if (!re.have_perf)
		for (k = 0; k < TL_PC_N; k++)
			owned[nowned++] = tl_perfcol_names[k];
	for (k = 0; k < E_N; k++)
		owned[nowned++] = eff_names[k];
	if (opt.group)
		for (k = 0; k < G_N; k++)
			owned[nowned++] = group_names[k];
	tl_outcols_init(&oc, &in, owned, nowned);
	tl_outcols_header(&oc, &in, owned, &w);
	/* Position of the bound column in a stored row. */
	for (k = 0, f = 0; k < oc.n; k++) {
		enum okind kind = out_kind(k, &sub);

		if (kind == O_GROUP || (kind == O_EFF && sub >= E_BASE))
			continue;
		if (kind == O_EFF && sub == E_BOUND)
			boundpos = f;
		f++;
	}
	if (!opt.group && !opt.no_baseline) {
		if ((spool = tmpfile()) == NULL)
			tl_die("temporary file:");
		setvbuf(spool, spoolbuf, _IOFBF, sizeof(spoolbuf));
		tl_w_init(&sw, spool, 0);
	}
	while (tl_stream_next(&in)) {
		int ti;

		tl_roweff_row(&re, &in, opt.hw != NULL ? tl_hwauto_row(&hwa,
		    &in) : NULL, &e);
		ti = trace_index(tl_stream_get(&in, ctrace));
		if (is_simple(tl_stream_get(&in, cname)) && e.has_bytes &&
		    e.r.has_tbs && !copies(tl_stream_get(&in, ckern))) {
			double t = tl_stream_double(&in, ctime);

			traces[ti].bytes += (double)e.bytes;
			traces[ti].time_us += t;
			if (e.bytes >= BASELINE_MIN_BYTES) {
				traces[ti].big_bytes += (double)e.bytes;
				traces[ti].big_time_us += t;
			}
		}
		if (opt.group) {
			add_to_group(&e, ti);
			continue;
		}
		if (opt.no_baseline) {	/* one pass, nothing held back */
			write_row(&w, &e);
			tl_w_empty(&w);
			tl_w_empty(&w);
			tl_w_eol(&w);
			continue;
		}
		write_row(&sw, &e);
		tl_w_eol(&sw);
		tl_grow(&notes, &capnotes, nnotes + 1, sizeof(*notes));
		notes[nnotes].trace = ti;
		notes[nnotes].memory = e.r.has_tbs &&
		    strcmp(e.r.bound, "memory") == 0;
		notes[nnotes].tbs = e.r.tbs;
		nnotes++;
	}
	if (opt.group)
		write_groups(&w, boundpos);
	else if (!opt.no_baseline) {
		if (fflush(spool) != 0 || ferror(spool))
			tl_die("temporary file: write error:");
		replay(spool, &w);
		fclose(spool);
	}
	tl_stream_close(&in);
	tl_hwauto_free(&hwa);
	return tl_close_stdout();
}

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
		{ "ops", required_argument, NULL, 'o' },
		{ "roof", required_argument, NULL, 'r' },
		{ "peak-tflops", required_argument, NULL, 'T' },
		{ "thresholds", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		{ "strict-hw", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 }
	};
	char err[512];
	int ch;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	while ((ch = getopt_long(argc, argv, "B:bcD:f:gH:hM:o:r:T:t:Vx", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'B':
			opt.peak_tbs = number(optarg, "--peak-tbs");
			break;
		case 'b':
			opt.no_baseline = 1;
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
			opt.group = 1;
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
		case 'o':
			opt.ops = optarg;
			break;
		case 'r':
			if (tl_roof_parse(optarg, &opt.roof) < 0) {
				tl_warn("--roof: expected achievable or peak");
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'T':
			opt.peak_tflops = number(optarg, "--peak-tflops");
			break;
		case 't':
			parse_thresholds(optarg);
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
	if (opt.group && opt.no_baseline) {
		tl_warn("--group and --no-baseline exclude each other");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.hw == NULL && (opt.peak_tflops == 0 || opt.peak_tbs == 0)) {
		tl_warn("give --hw NAME (or auto), or both --peak-tflops and "
		    "--peak-tbs");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (opt.hw != NULL && strcasecmp(opt.hw, "auto") != 0 &&
	    (hw_fixed = tl_hw_find(opt.hw)) == NULL)
		tl_diex(TL_EXIT_USAGE, "--hw: unknown GPU '%s' "
		    "(tl-efficiency --hw list)", opt.hw);
	if (tl_hwauto_init(&hwa, hw_fixed, opt.hw_map, opt.strict_hw, err,
	    sizeof(err)) < 0)
		tl_diex(TL_EXIT_USAGE, "--hw-map: %s", err);
	if (tl_optable_load(opt.ops) < 0 || tl_filemodels_setup() < 0)
		return TL_EXIT_ERROR;
	return run(argc, argv);
}
