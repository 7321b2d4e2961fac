/* See LICENSE file for copyright and license details. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/efficiency.h"
#include "analysis/rowspool.h"
#include "common/jsonw.h"
#include "common/strmap.h"
#include "common/util.h"
#include "model/perfcols.h"
#include "model/roofline.h"
#include "model/roweff.h"
#include "stream/schema.h"
#include "stream/stream.h"

/* The efficiency columns (TL_TAB_EFF) and the group's (TL_TAB_GROUP). */
enum {
	E_HW, E_ROOF_KIND, E_ROOF, E_BW_ROOF, E_PEAK_TFLOPS, E_PEAK_TBS, E_TFLOPS_S, E_TBS,
	E_ROOFLINE_US, E_BOUND, E_PCT, E_ASSESS, E_BASE, E_PCT_BASE, E_N
};
enum {
	G_COUNT, G_MEAN, G_STD, G_MIN, G_MAX, G_ABOVE_N, G_ABOVE_TIME, G_N
};

/* The ops whose bandwidth is the elementwise baseline (all aten::). */
static const char *const simple_ops[] = {
	"aten::add", "aten::add_", "aten::mul", "aten::mul_", "aten::copy_",
	NULL
};
/* Ops smaller than this measure launch latency, not bandwidth. */
#define BASELINE_MIN_BYTES (1LL << 20)
#define OUT_BUF (1 << 20)	/* the replay's output: few writes */
#define NELEM(a) (sizeof(a) / sizeof(a[0]))

/* Per trace: the elementwise baseline. */
struct trace_acc {
	char *name;
	double bytes, time_us;		/* all simple ops */
	double big_bytes, big_time_us;	/* those of at least 1 MiB */
};

/* Per row, kept with it in the spool for the second pass. */
struct row_note {
	int trace;
	int memory;	/* memory-bound with a TB/s */
	double tbs;
};

/*
 * A run of output columns first..last that writes ncol fields, each the
 * same on every row with one model result and GPU (the model's columns
 * but perf_error, the roofs, the roofline time and the bound).
 */
struct run {
	int first, last, ncol;
};
#define MAXRUNS 8
/* A run this long or longer is spooled as its number, not its text. */
#define REF_MIN 32

/*
 * The runs' text for one model result and GPU: run r at
 * text[off[r]..off[r+1]).  Kept until the end (the spool names them),
 * the model result's other GPUs' at next.
 */
struct memo {
	const struct tl_hw *hw;
	int csv;
	char *text;
	size_t off[MAXRUNS + 1];
	size_t next;		/* 1 + the next of this result's, or 0 */
	unsigned id;		/* the spool's number of run 0 (the next runs') */
};

/* A run's text left out of the spooled row at at, spooled as its number. */
struct ref {
	size_t at;
	unsigned id;		/* the spool's (tl_rowspool_text) */
};

/* Per signature when grouping. */
struct group {
	int trace;
	char **field;	/* output fields of the first row, TSV-escaped */
	long long count;
	int64_t sum, min, max;	/* kernel time, ns */
	double wmean, m2;	/* Welford's running mean and M2, µs */
	double kcount, pct;
	double tflops_sum, tbs_sum, pct_sum;
	long long tflops_n, tbs_n, pct_n;
	long long beyond_n;	/* rows above their peak roof */
	int64_t beyond_ns;	/* their kernel time */
	char *why;		/* the first such row's perf_error, or NULL */
	long long order;
};

struct tl_efficiency {
	struct tl_effopts o;
	struct tl_stream in;
	struct tl_rowreader rr;
	struct tl_roweff re;	/* zeroed until set up: freeing it is safe */
	short *owned;		/* the columns the stage writes */
	int nowned;
	struct tl_outcols oc;
	struct trace_acc *traces;
	size_t ntraces, captraces;
	struct group *groups;
	size_t ngroups, capgroups;
	struct tl_jbuf sig;	/* the current row's signature */
	struct tl_strmap gmap;	/* signature -> group index */
	struct tl_rowspool *spool;
	const char *spooldir;	/* its directory */
	struct tl_writer rw;	/* a row's columns, for the spool */
	char **rf;		/* its fields: rf[k][0..rn[k]) */
	size_t *rn, rcap;
	/*
	 * Runs of written columns whose text is the same on every row of
	 * one model result and GPU (run_at[k]: the run that starts at
	 * column k, else -1), and that text kept per model result.
	 */
	struct run runs[MAXRUNS];
	int nruns, *run_at;
	size_t *head, nhead;	/* per model result: 1 + its first memo */
	struct memo *memo;
	size_t nmemo, capmemo;
	struct ref *refs;	/* the spooled row's runs, when spooling */
	size_t nrefs, caprefs;
	int spooling;
	signed char *simple;	/* per model result: is_simple, -1 unknown */
	size_t nsimple;
};

struct tl_efficiency *
tl_efficiency_new(const struct tl_effopts *o)
{
	struct tl_efficiency *e = tl_calloc(1, sizeof(*e));

	e->o = *o;
	tl_strmap_init(&e->gmap);
	return e;
}

void
tl_efficiency_free(struct tl_efficiency *e)
{
	size_t i, k;

	if (e == NULL)
		return;
	tl_roweff_free(&e->re);
	tl_rr_free(&e->rr);
	tl_stream_close(&e->in);
	free(e->owned);
	tl_outcols_free(&e->oc);
	for (i = 0; i < e->ntraces; i++)
		free(e->traces[i].name);
	free(e->traces);
	for (i = 0; i < e->ngroups; i++) {
		for (k = 0; e->groups[i].field[k] != NULL; k++)
			free(e->groups[i].field[k]);
		free(e->groups[i].field);
		free(e->groups[i].why);
	}
	free(e->groups);
	tl_jb_free(&e->sig);
	tl_strmap_free(&e->gmap);
	tl_rowspool_free(e->spool);
	free(e->rw.buf);
	free(e->rf);
	free(e->rn);
	for (i = 0; i < e->nmemo; i++)
		free(e->memo[i].text);
	free(e->memo);
	free(e->head);
	free(e->refs);
	free(e->run_at);
	free(e->simple);
	free(e);
}

static int
trace_index(struct tl_efficiency *e, const char *name)
{
	size_t i;

	for (i = e->ntraces; i-- > 0;)
		if (strcmp(e->traces[i].name, name) == 0)
			return (int)i;
	tl_grow(&e->traces, &e->captraces, e->ntraces + 1, sizeof(*e->traces));
	memset(&e->traces[e->ntraces], 0, sizeof(*e->traces));
	e->traces[e->ntraces].name = tl_strdup(name);
	return (int)e->ntraces++;
}

/* 1 if name is one of simple_ops (all aten::, told apart after it). */
static int
is_simple(const char *name)
{
	int i;

	if (strncmp(name, "aten::", 6) != 0 || (name[6] != 'a' &&
	    name[6] != 'm' && name[6] != 'c'))
		return 0;
	for (i = 0; simple_ops[i] != NULL; i++)
		if (simple_ops[i][6] == name[6] && strcmp(simple_ops[i] + 6,
		    name + 6) == 0)
			return 1;
	return 0;
}

/*
 * is_simple of the current row's op: once per model result when the
 * model runs here (its inputs hold the name), else asked.
 */
static int
simple_row(struct tl_efficiency *e)
{
	size_t i = (size_t)e->re.pc.m.last;

	if (e->re.have_perf)
		return is_simple(tl_rr_text(&e->rr, TL_COL_NAME));
	if (i >= e->nsimple)
		tl_grow_set(&e->simple, &e->nsimple, i + 1, 1, -1);
	if (e->simple[i] < 0)
		e->simple[i] = (signed char)is_simple(tl_rr_text(&e->rr,
		    TL_COL_NAME));
	return e->simple[i];
}

/*
 * 1 if a row's kernels are memory copies or sets (a copy_ across PCIe):
 * they measure the link, not what GPU kernels reach in HBM.
 */
static int
copies(const char *kernels)
{
	const char *p = kernels;

	while ((p = strstr(p, "\"name\":\"Mem")) != NULL) {	/* one pass */
		p += sizeof("\"name\":\"Mem") - 1;
		if (strncmp(p, "cpy", 3) == 0 || strncmp(p, "set", 3) == 0)
			return 1;
	}
	return 0;
}

/* Add the current row to its trace's baseline. */
static void
add_baseline(struct tl_efficiency *e, int ti, const struct tl_eff *f)
{
	struct trace_acc *a = &e->traces[ti];
	double t;

	if (!simple_row(e) || !f->has_bytes ||
	    !f->r.has_tbs || f->beyond != NULL || copies(tl_rr_text(&e->rr, TL_COL_KERNELS)))
		return;
	t = tl_rr_num(&e->rr, TL_COL_KERNEL_TIME_US);
	a->bytes += (double)f->bytes;
	a->time_us += t;
	if (f->bytes >= BASELINE_MIN_BYTES) {
		a->big_bytes += (double)f->bytes;
		a->big_time_us += t;
	}
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
write_eff(struct tl_efficiency *e, struct tl_writer *w, const struct tl_eff *f,
    int k)
{
	switch (k) {
	case E_HW:
		tl_w_str(w, f->hw != NULL ? tl_hw_name(f->hw) : "");
		break;
	case E_ROOF_KIND:	/* the run's; "user" when both roofs are */
		tl_w_str(w, e->o.peak_tflops > 0 && e->o.peak_tbs > 0 ?
		    "user" : tl_roof_name(e->o.roof));
		break;
	case E_ROOF:
		tl_w_str(w, f->roof_used);
		break;
	case E_BW_ROOF:
		tl_w_str(w, f->bw_used);
		break;
	case E_PEAK_TFLOPS:
		w_pos(w, f->peak_tflops > 0, f->peak_tflops);
		break;
	case E_PEAK_TBS:
		w_pos(w, f->peak_tbs > 0, f->peak_tbs);
		break;
	case E_TFLOPS_S:
		w_pos(w, f->r.has_tflops_s, f->r.tflops_s);
		break;
	case E_TBS:
		w_pos(w, f->r.has_tbs, f->r.tbs);
		break;
	case E_ROOFLINE_US:
		w_pos(w, f->r.has_roofline, f->r.roofline_us);
		break;
	case E_BOUND:
		tl_w_str(w, f->r.bound);
		break;
	case E_PCT:
		w_pos(w, f->has_pct, f->r.pct_roofline);
		break;
	case E_ASSESS:
		tl_w_str(w, tl_roweff_assessment(f, e->o.thr));
		break;
	default:	/* the baseline columns come in the second pass */
		break;
	}
}

/*
 * The perf_error of a row: why it is above its peak roof, else the
 * model's own text (without an earlier run's verdict).
 */
static void
write_perf_error(struct tl_efficiency *e, struct tl_writer *w,
    const struct tl_eff *f)
{
	const char *s = tl_rr_text(&e->rr, TL_COL_PERF_ERROR);

	if (f->beyond != NULL)
		tl_w_str(w, f->why);
	else
		tl_w_mem(w, s, tl_perf_error_own(s));
}

/* What output column k holds: a pass-through, perf, eff or group column. */
enum okind { O_PASS, O_PERF, O_EFF, O_GROUP };

static enum okind
out_kind(const struct tl_efficiency *e, int k, int *sub)
{
	int o = e->oc.own[k], nperf = e->re.have_perf ? 0 : TL_PC_N;

	if (e->oc.map[k] >= 0) {
		*sub = e->oc.map[k];
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
 * Write output column k of the current row; the baseline and group
 * columns are left out (they need every row).
 */
static void
write_col(struct tl_efficiency *e, struct tl_writer *w, const struct tl_eff *f,
    int k)
{
	int sub;

	switch (out_kind(e, k, &sub)) {
	case O_PASS:
		if (sub == e->rr.pos[TL_COL_PERF_ERROR])
			write_perf_error(e, w, f);
		else
			tl_stream_copy(&e->in, sub, w);
		break;
	case O_PERF:
		if (f->beyond != NULL && sub == TL_PC_ERROR)
			tl_w_str(w, f->why);
		else
			tl_perfcols_write(&e->re.pc, sub, w);
		break;
	case O_EFF:
		if (sub < E_BASE)
			write_eff(e, w, f, sub);
		break;
	case O_GROUP:
		break;
	}
}

/*
 * 1 if output column k reads the same on every row with one model
 * result (the in-process model's) and GPU, unless the row is above its
 * peak roof (perf_error then says why): not the times' figures.
 */
static int
is_static(const struct tl_efficiency *e, int k)
{
	int sub;

	switch (out_kind(e, k, &sub)) {
	case O_PERF:
		return 1;
	case O_EFF:
		return sub != E_TFLOPS_S && sub != E_TBS && sub != E_PCT &&
		    sub != E_ASSESS && sub < E_BASE;
	default:
		return 0;
	}
}

/*
 * The runs of static columns, when the stream lacks the model's
 * columns (its rows then carry the index of their model result).
 */
static void
plan_runs(struct tl_efficiency *e)
{
	int k, j;

	e->run_at = tl_calloc((size_t)e->oc.n + 1, sizeof(*e->run_at));
	for (k = 0; k < e->oc.n; k++)
		e->run_at[k] = -1;
	if (e->re.have_perf)
		return;
	for (k = 1; k < e->oc.n; k = j) {	/* after a field: a separator */
		for (j = k; j < e->oc.n && is_static(e, j); j++)
			;
		if (j == k) {
			j++;
			continue;
		}
		if (e->nruns == MAXRUNS)
			break;
		e->run_at[k] = e->nruns;
		e->runs[e->nruns].first = k;
		e->runs[e->nruns].last = j - 1;
		e->runs[e->nruns++].ncol = j - k;
	}
}

/*
 * The runs' text of the current row's model result and GPU, formatted
 * on its first row, for writer w's format; NULL without runs or for a
 * row above its peak roof.
 */
static const struct memo *
memo_of(struct tl_efficiency *e, const struct tl_writer *w,
    const struct tl_eff *f)
{
	struct tl_writer mw;
	struct memo *m;
	size_t i = (size_t)e->re.pc.m.last, j;
	int r, k;

	if (e->nruns == 0 || f->beyond != NULL)
		return NULL;
	if (i >= e->nhead)
		tl_grow_set(&e->head, &e->nhead, i + 1, sizeof(*e->head), 0);
	for (j = e->head[i]; j != 0; j = m->next) {
		m = &e->memo[j - 1];
		if (m->hw == f->hw && m->csv == w->csv)
			return m;
	}
	tl_grow(&e->memo, &e->capmemo, e->nmemo + 1, sizeof(*e->memo));
	m = &e->memo[e->nmemo++];
	tl_w_init_mem(&mw, w->csv);
	for (r = 0; r < e->nruns; r++) {
		m->off[r] = mw.len;
		mw.col = 1;	/* a separator first */
		for (k = e->runs[r].first; k <= e->runs[r].last; k++)
			write_col(e, &mw, f, k);
	}
	m->off[r] = mw.len;
	m->text = mw.buf;
	m->hw = f->hw;
	m->csv = w->csv;
	m->next = e->head[i];
	e->head[i] = e->nmemo;
	for (r = 0; e->spool != NULL && r < e->nruns; r++) {
		j = tl_rowspool_text(e->spool, m->text + m->off[r],
		    m->off[r + 1] - m->off[r]);
		if (r == 0)
			m->id = (unsigned)j;
	}
	return m;
}

/*
 * Write the current row with its perf and efficiency columns from
 * column k on; the baseline and group columns are left out.  When
 * spooling, the runs are not written but noted (refs).
 */
static void
write_cols(struct tl_efficiency *e, struct tl_writer *w, const struct tl_eff *f,
    int k)
{
	const struct memo *m = memo_of(e, w, f);
	const struct run *r;
	int ri;

	for (; k < e->oc.n; k++) {
		if (m != NULL && (ri = e->run_at[k]) >= 0 && w->col > 0) {
			r = &e->runs[ri];
			if (e->spooling && m->off[ri + 1] - m->off[ri] >=
			    REF_MIN) {
				tl_grow(&e->refs, &e->caprefs, e->nrefs + 1,
				    sizeof(*e->refs));
				e->refs[e->nrefs].at = w->len;
				e->refs[e->nrefs++].id = m->id +
				    (unsigned)ri;
			} else
				tl_w_put_(w, m->text + m->off[ri],
				    m->off[ri + 1] - m->off[ri]);
			w->col += r->ncol;
			tl_w_done(w);
			k = r->last;
			continue;
		}
		write_col(e, w, f, k);
	}
}

static void
write_row(struct tl_efficiency *e, struct tl_writer *w, const struct tl_eff *f)
{
	int k = 0;

	if (e->oc.all) {		/* the input's columns in one block */
		tl_stream_copy_all(&e->in, w);
		k = e->in.ncols;
	}
	write_cols(e, w, f, k);
}

/* The baseline of trace t in TB/s, 0 when the trace has no simple op. */
static double
baseline(const struct tl_efficiency *e, int t)
{
	const struct trace_acc *a = &e->traces[t];

	if (a->big_time_us > 0)
		return a->big_bytes / 1e12 / (a->big_time_us / 1e6);
	if (a->time_us > 0)
		return a->bytes / 1e12 / (a->time_us / 1e6);
	return 0;
}

static void
write_baseline(const struct tl_efficiency *e, struct tl_writer *w, int t,
    int memory, double tbs)
{
	double b = baseline(e, t);

	w_pos(w, b > 0, b);
	w_pos(w, b > 0 && memory, tbs / b * 100);
}

/*
 * The spool failed: what, the directory and the system's reason, and the
 * ways around it.
 */
static void
spool_error(const struct tl_efficiency *e, const char *what)
{
	tl_die("temporary file in %s: %s: %s (it holds the rows until the "
	    "baseline is known: set TMPDIR to a writable directory with room, "
	    "or give --no-baseline)", e->spooldir, what, strerror(errno));
}

/*
 * Spool the current row with its perf and efficiency columns: the
 * input's fields where they lie when they are TSV and come first, the
 * rest as written; else the whole row as written (TSV), cut at its tabs.
 */
static void
spool_row(struct tl_efficiency *e, const struct tl_eff *f,
    const struct row_note *note)
{
	struct tl_stream *in = &e->in;
	struct tl_writer *w = &e->rw;
	char *p, *end, *t;
	size_t i, at;
	int nf = 0;

	w->len = 0;
	if (e->oc.all && !in->csv && in->nf > 0) {
		tl_rowspool_row(e->spool, in->f, in->flen, in->nf);
		w->col = 1;	/* after the input's fields: a tab first */
		e->spooling = 1;
		e->nrefs = 0;
		write_cols(e, w, f, in->ncols);
		e->spooling = 0;
		for (i = 0, at = 0; i < e->nrefs; i++) {
			tl_rowspool_tail(e->spool, w->buf + at,
			    e->refs[i].at - at);
			tl_rowspool_ref(e->spool, e->refs[i].id);
			at = e->refs[i].at;
		}
		tl_rowspool_tail(e->spool, w->buf + at, w->len - at);
	} else {
		w->col = 0;
		write_row(e, w, f);
		for (p = w->buf, end = p + w->len;; p = t + 1) {
			if ((t = memchr(p, '\t', (size_t)(end - p))) == NULL)
				t = end;
			if ((size_t)nf >= e->rcap) {
				e->rcap = e->rcap == 0 ? 64 : 2 * e->rcap;
				e->rf = tl_realloc(e->rf, e->rcap *
				    sizeof(*e->rf));
				e->rn = tl_realloc(e->rn, e->rcap *
				    sizeof(*e->rn));
			}
			e->rf[nf] = p;
			e->rn[nf++] = (size_t)(t - p);
			if (t == end)
				break;
		}
		tl_rowspool_row(e->spool, e->rf, e->rn, nf);
	}
	if (tl_rowspool_end(e->spool, note) < 0)
		spool_error(e, "write error");
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

/*
 * n bytes out to fp (flushed) by write(2), without a copy into its
 * buffer; on an error, the rest through fp, which keeps the error for its
 * close to report.
 */
static void
put_block(FILE *fp, const char *s, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(fileno(fp), s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			fwrite(s, 1, n, fp);
			return;
		}
		s += k;
		n -= (size_t)k;
	}
}

/*
 * Replay the spool with the baseline columns appended.  TSV: the rows
 * decoded into one block, written a megabyte at a time; CSV: each row's
 * fields converted.
 */
static void
replay(struct tl_efficiency *e, struct tl_writer *w)
{
	struct tl_writer blk, *o = w;	/* where TSV rows are decoded */
	struct row_note nt;
	char *line = NULL, **f = NULL;
	size_t n, cap = 0, fcap = 0;
	int r, nf, k;

	if (tl_rowspool_rewind(e->spool) < 0)
		spool_error(e, "write error");
	tl_w_init_mem(&blk, 0);
	if (!w->csv && w->fp != NULL) {
		o = &blk;
		fflush(w->fp);	/* the header */
	}
	for (;;) {
		if (w->csv) {
			n = 0;
			if ((r = tl_rowspool_next(e->spool, &line, &n, &cap,
			    &nt)) <= 0)
				break;
			line[n] = '\0';
			nf = split(line, &f, &fcap);
			for (k = 0; k < nf; k++)
				put_field(w, f[k]);
			write_baseline(e, w, nt.trace, nt.memory, nt.tbs);
			tl_w_eol(w);
			continue;
		}
		if ((r = tl_rowspool_next(e->spool, &o->buf, &o->len, &o->cap,
		    &nt)) <= 0)
			break;
		o->col = 1;	/* the row's fields: a tab before the next */
		write_baseline(e, o, nt.trace, nt.memory, nt.tbs);
		tl_w_eol(o);
		if (o == &blk && blk.len >= OUT_BUF) {
			put_block(w->fp, blk.buf, blk.len);
			blk.len = 0;
		}
	}
	if (r < 0)
		spool_error(e, "read error");
	if (o == &blk && blk.len > 0)
		put_block(w->fp, blk.buf, blk.len);
	free(line);
	free(f);
	free(blk.buf);
}

/*
 * The spool's shared columns: long texts that recur on rows apart (call
 * stacks, modules, shapes and types, the model's parameters and errors),
 * and the kernels column (each kernel's name).
 */
static void
share_columns(struct tl_efficiency *e)
{
	static const short cols[] = {
		TL_COL_CALL_STACK, TL_COL_MODULE, TL_COL_INPUT_DIMS,
		TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES, TL_COL_PARAMS,
		TL_COL_PERF_ERROR
	};
	size_t i;
	int k;

	for (k = 0; k < e->oc.n; k++) {
		const char *name = e->oc.map[k] >= 0 ?
		    e->in.cols[e->oc.map[k]] :
		    tl_col_name(e->owned[e->oc.own[k]]);

		for (i = 0; i < NELEM(cols); i++)
			if (strcmp(name, tl_col_name(cols[i])) == 0)
				tl_rowspool_share(e->spool, k);
		if (strcmp(name, tl_col_name(TL_COL_KERNELS)) == 0)
			tl_rowspool_kernels(e->spool, k);
	}
}

/* A new group: the current row as written, its fields kept. */
static void
new_group(struct tl_efficiency *e, const struct tl_eff *f, int ti)
{
	char *text = NULL, **fields = NULL;
	size_t len = 0, fcap = 0;
	FILE *fp = open_memstream(&text, &len);
	struct tl_writer w;
	struct group *g;
	int nf, k;

	if (fp == NULL)
		tl_die("open_memstream:");
	tl_w_init(&w, fp, 0);
	write_row(e, &w, f);
	fclose(fp);
	nf = split(text, &fields, &fcap);
	tl_grow(&e->groups, &e->capgroups, e->ngroups + 1, sizeof(*e->groups));
	g = &e->groups[e->ngroups];
	memset(g, 0, sizeof(*g));
	g->field = tl_calloc((size_t)nf + 1, sizeof(*g->field));
	for (k = 0; k < nf; k++)
		g->field[k] = tl_strdup(fields[k]);
	free(fields);
	free(text);
	g->trace = ti;
	g->order = (long long)e->ngroups;
	g->min = INT64_MAX;
	g->max = INT64_MIN;
	e->ngroups++;
}

static void
add_to_group(struct tl_efficiency *e, const struct tl_eff *f, int ti)
{
	struct group *g;
	double kc = tl_rr_num(&e->rr, TL_COL_KERNEL_COUNT);
	double pct = tl_rr_num(&e->rr, TL_COL_PCT_GPU_TIME), tu, d;
	int64_t gi, t = 0;
	int added;

	tl_rr_sigkey(&e->rr, TL_SIGKEY_FULL, &e->sig);
	gi = tl_strmap_add(&e->gmap, e->sig.s, e->sig.n, &added);
	if (added)
		new_group(e, f, ti);
	g = &e->groups[gi];
	tl_rr_ns(&e->rr, TL_COL_KERNEL_TIME_US, &t);
	tu = (double)t / 1e3;
	g->count++;
	g->sum += t;
	d = tu - g->wmean;
	g->wmean += d / (double)g->count;
	g->m2 += d * (tu - g->wmean);
	g->min = t < g->min ? t : g->min;
	g->max = t > g->max ? t : g->max;
	g->kcount += isnan(kc) ? 0 : kc;
	g->pct += isnan(pct) ? 0 : pct;
	if (f->beyond != NULL) {	/* no part in the means */
		g->beyond_n++;
		g->beyond_ns += t;
		if (g->why == NULL)
			g->why = tl_strdup(f->why);
		return;
	}
	if (f->r.has_tflops_s) {
		g->tflops_sum += f->r.tflops_s;
		g->tflops_n++;
	}
	if (f->r.has_tbs) {
		g->tbs_sum += f->r.tbs;
		g->tbs_n++;
	}
	if (f->has_pct) {
		g->pct_sum += f->r.pct_roofline;
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

/* A group's column of TL_TAB_GROUP. */
static void
write_stat(struct tl_writer *w, const struct group *g, int sub)
{
	double var;

	switch (sub) {
	case G_COUNT:
		tl_w_int(w, g->count);
		break;
	case G_MEAN:
		tl_w_double(w, (double)g->sum / 1e3 / (double)g->count);
		break;
	case G_STD:
		if (g->count > 1) {
			var = g->m2 / (double)(g->count - 1);
			tl_w_double(w, var > 0 ? sqrt(var) : 0);
		} else
			tl_w_empty(w);
		break;
	case G_MIN:
		tl_w_us(w, g->min);
		break;
	case G_MAX:
		tl_w_us(w, g->max);
		break;
	case G_ABOVE_N:
		tl_w_int(w, g->beyond_n);
		break;
	case G_ABOVE_TIME:
		tl_w_us(w, g->beyond_ns);
		break;
	}
}

/* 1 if output column (kind, sub) is perf_error. */
static int
is_perf_error(const struct tl_efficiency *e, enum okind kind, int sub)
{
	return (kind == O_PASS && sub == e->rr.pos[TL_COL_PERF_ERROR]) ||
	    (kind == O_PERF && sub == TL_PC_ERROR);
}

static void
write_groups(struct tl_efficiency *e, struct tl_writer *w, int boundpos)
{
	size_t i;
	int k, sub;

	if (e->ngroups > 0)
		qsort(e->groups, e->ngroups, sizeof(*e->groups), cmp_group);
	for (i = 0; i < e->ngroups; i++) {
		struct group *g = &e->groups[i];
		double tbs = g->tbs_n > 0 ? g->tbs_sum / (double)g->tbs_n : 0;
		double pct = g->pct_n > 0 ? g->pct_sum / (double)g->pct_n : 0;
		int fi = 0;

		for (k = 0; k < e->oc.n; k++) {
			enum okind kind = out_kind(e, k, &sub);

			if (kind == O_PASS &&
			    sub == e->rr.pos[TL_COL_KERNEL_TIME_US])
				tl_w_us(w, g->sum);
			else if (kind == O_PASS &&
			    sub == e->rr.pos[TL_COL_KERNEL_COUNT])
				tl_w_double(w, g->kcount);
			else if (kind == O_PASS &&
			    sub == e->rr.pos[TL_COL_PCT_GPU_TIME])
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
				    tl_assessment(pct, e->o.thr) :
				    g->beyond_n > 0 ? TL_ASSESS_ABOVE_PEAK : "");
			else if (kind == O_EFF && sub == E_BASE) {
				write_baseline(e, w, g->trace, g->tbs_n > 0 &&
				    boundpos >= 0 &&
				    strcmp(g->field[boundpos], "memory") == 0,
				    tbs);
				k++;	/* wrote two columns, stored none */
				continue;
			} else if (kind == O_GROUP) {
				write_stat(w, g, sub);
				continue;
			} else if (g->why != NULL &&
			    is_perf_error(e, kind, sub)) {
				/* why its rows above peak are left out */
				tl_w_str(w, g->why);
			} else if (g->pct_n > 0 && is_perf_error(e, kind, sub)) {
				/* the first row's verdict is not the group's */
				char *t = tl_strdup(g->field[fi]);

				t[tl_perf_error_own(t)] = '\0';
				put_field(w, t);
				free(t);
			} else {
				put_field(w, g->field[fi]);
			}
			fi++;
		}
		tl_w_eol(w);
	}
}

/* The columns it writes: perf (when the input lacks them), eff, group. */
static void
own_columns(struct tl_efficiency *e)
{
	static const int tabs[3] = { TL_TAB_PERF, TL_TAB_EFF, TL_TAB_GROUP };
	int t, k;

	assert(tl_tables[TL_TAB_PERF].ncols == TL_PC_N &&
	    tl_tables[TL_TAB_EFF].ncols == E_N &&
	    tl_tables[TL_TAB_GROUP].ncols == G_N);
	e->owned = tl_calloc((size_t)(TL_PC_N + E_N + G_N), sizeof(*e->owned));
	for (t = e->re.have_perf ? 1 : 0; t < (e->o.group ? 3 : 2); t++)
		for (k = 0; k < tl_tables[tabs[t]].ncols; k++)
			e->owned[e->nowned++] = tl_tables[tabs[t]].cols[k];
}

/* Position of the bound column in a row stored for a group. */
static int
bound_pos(const struct tl_efficiency *e)
{
	int k, sub, f = 0;

	for (k = 0; k < e->oc.n; k++) {
		enum okind kind = out_kind(e, k, &sub);

		if (kind == O_GROUP || (kind == O_EFF && sub >= E_BASE))
			continue;
		if (kind == O_EFF && sub == E_BOUND)
			return f;
		f++;
	}
	return -1;
}

/* Set up for the open input: the reader, the model, the columns. */
static void
setup(struct tl_efficiency *e, struct tl_writer *w)
{
	static const short cols[] = {
		TL_ROWEFF_COLS, TL_HWAUTO_COLS, TL_COL_NAME, TL_COL_KERNELS
	};
	static const short group_cols[] = {
		TL_COL_KERNEL_COUNT, TL_COL_PCT_GPU_TIME, TL_COL_INPUT_DIMS,
		TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS
	};
	short want[NELEM(cols) + NELEM(group_cols)];
	int n = 0;
	size_t k;

	for (k = 0; k < NELEM(cols); k++)
		want[n++] = cols[k];
	for (k = 0; e->o.group && k < NELEM(group_cols); k++)
		want[n++] = group_cols[k];
	tl_rr_init(&e->rr, &e->in, want, n);
	tl_roweff_init(&e->re, &e->rr, e->o.roof, e->o.peak_tflops,
	    e->o.peak_tbs, e->o.tol_pct);
	tl_rr_need(&e->rr, TL_COL_KERNEL_TIME_US);
	tl_rr_need(&e->rr, TL_COL_NAME);
	if (e->o.hw != NULL)
		tl_hwauto_columns(e->o.hw, &e->rr);
	own_columns(e);
	tl_outcols_init(&e->oc, &e->in, e->owned, e->nowned);
	tl_outcols_header(&e->oc, &e->in, e->owned, w);
	plan_runs(e);
}

long
tl_efficiency_run(struct tl_efficiency *e, char *const *files, int nfiles,
    struct tl_writer *w)
{
	struct row_note nt;
	struct tl_eff f;
	long rows = 0;
	int spool = !e->o.group && !e->o.no_baseline;

	tl_stream_open(&e->in, files, nfiles);
	if (spool) {		/* before any output */
		if ((e->spool = tl_rowspool_new(sizeof(nt), &e->spooldir)) ==
		    NULL)
			spool_error(e, "cannot be made");
		tl_w_init_mem(&e->rw, 0);
	}
	setup(e, w);
	if (spool)
		share_columns(e);
	while (tl_rr_next(&e->rr)) {
		int ti;

		rows++;
		tl_roweff_row(&e->re, &e->rr, e->o.hw != NULL ?
		    tl_hwauto_row(e->o.hw, &e->rr) : NULL, &f);
		ti = trace_index(e, tl_rr_text(&e->rr, TL_COL_TRACE));
		add_baseline(e, ti, &f);
		if (e->o.group) {
			add_to_group(e, &f, ti);
			continue;
		}
		if (!spool) {	/* one pass, nothing held back */
			write_row(e, w, &f);
			tl_w_empty(w);
			tl_w_empty(w);
			tl_w_eol(w);
			continue;
		}
		memset(&nt, 0, sizeof(nt));	/* no stray bytes spooled */
		nt.trace = ti;
		nt.memory = f.r.has_tbs && strcmp(f.r.bound, "memory") == 0;
		nt.tbs = f.r.tbs;
		spool_row(e, &f, &nt);
	}
	if (e->o.group)
		write_groups(e, w, bound_pos(e));
	else if (spool)
		replay(e, w);
	return rows;
}
