/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "render/charts.h"
#include "render/report.h"
#include "render/svgchart.h"
#include "stream/category.h"

enum { REF, TGT };

/* Strings made for a chart, freed after it. */
struct strs {
	char **s;
	size_t n, cap;
};

static const char *
keep(struct strs *k, const char *fmt, const char *a, const char *b)
{
	size_t len = strlen(fmt) + strlen(a) + strlen(b) + 1;
	char *s = tl_malloc(len);

	snprintf(s, len, fmt, a, b);
	tl_grow(&k->s, &k->cap, k->n + 1, sizeof(*k->s));
	return k->s[k->n++] = s;
}

static void
drop(struct strs *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->s[i]);
	free(k->s);
}

/* "dense peak" for peak: the reports' words for a kind of figure. */
static const char *
kind_words(const char *kind)
{
	return strcmp(kind, "peak") == 0 ? "dense peak" : kind;
}

/* 1 when the roofs name more than one GPU. */
static int
several_gpus(const struct tl_findings *f)
{
	int i;

	for (i = 1; i < f->nroofs; i++)
		if (strcmp(f->roofs[i].hw, f->roofs[0].hw) != 0)
			return 1;
	return 0;
}

/* 1 when a roof's compute or bandwidth figure is not the run's kind. */
static int
stands_in(const struct tl_findings *f, const struct tl_froof *r)
{
	const char *k = f->roof_kind;

	if (k[0] == '\0' || strcmp(k, "user") == 0)
		return 0;
	return (r->kind[0] != '\0' && strcmp(r->kind, "user") != 0 &&
	    strcmp(r->kind, k) != 0) || (r->bw_kind[0] != '\0' &&
	    strcmp(r->bw_kind, "user") != 0 && strcmp(r->bw_kind, k) != 0);
}

/* A kind of figure, and what it stands in for when not the run's. */
static const char *
kind_label(const struct tl_findings *f, const char *kind, struct strs *k)
{
	if (kind[0] == '\0' || f->roof_kind[0] == '\0' ||
	    strcmp(kind, f->roof_kind) == 0 || strcmp(kind, "user") == 0 ||
	    strcmp(f->roof_kind, "user") == 0)
		return kind_words(kind);
	return keep(k, "%s, stand-in%s", kind_words(kind), "");
}

static int
roofline(FILE *fp, const struct tl_findings *f)
{
	struct tl_chart_roof *r = tl_calloc((size_t)f->nroofs + 1, sizeof(*r));
	struct tl_chart_point *p = tl_calloc((size_t)f->npts + 1, sizeof(*p));
	struct strs k = { NULL, 0, 0 };
	const char *gpus = f->hw != NULL ? f->hw : "";
	int i, n = 0, any = 0, rc, multi = several_gpus(f);

	for (i = 0; i < f->nroofs; i++) {
		const struct tl_froof *fr = &f->roofs[i];

		r[i].label = multi ? keep(&k, "%s %s", fr->hw, fr->spec) :
		    fr->spec;
		r[i].gpu = multi ? fr->hw : NULL;
		r[i].kind = kind_label(f, fr->kind, &k);
		r[i].bw_kind = kind_label(f, fr->bw_kind, &k);
		r[i].peak_tflops = fr->peak_tflops;
		r[i].peak_tbs = fr->peak_tbs;
		any |= stands_in(f, fr);
	}
	for (i = 0; i < f->npts; i++) {
		const struct tl_fpoint *q = &f->pts[i];
		const struct tl_fop *op = &f->op[q->op];

		if (op->fpb <= 0 || !op->has_flops || q->time_ns <= 0)
			continue;
		p[n].label = keep(&k, "%s %s", op->name, op->dims);
		p[n].category = tl_category(op->cat)->value;
		p[n].flops_per_byte = op->fpb;
		p[n].tflops_s = (double)op->flops * (double)q->count /
		    (double)q->time_ns / 1e3;
		p[n].time_us = (double)q->time_ns / 1e3;
		p[n].roof = q->roof;
		n++;
	}
	if (multi)
		gpus = "several GPUs";
	if (f->roof_kinds > 1)
		gpus = keep(&k, "%s%s: roof kinds differ between rows; rerun "
		    "tl-efficiency with one --roof", gpus, "");
	else if (f->roof_kind[0] != '\0')
		gpus = keep(&k, "%s: %s roofs", gpus, kind_words(f->roof_kind));
	if (any)
		gpus = keep(&k, "%s; %s", gpus, "a stand-in is the other kind "
		    "of figure, where a GPU lacks one of the run's kind");
	rc = tl_svg_roofline(fp, tl_charts[TL_CHART_ROOFLINE].title, gpus, r,
	    (size_t)f->nroofs, p, (size_t)n);
	drop(&k);
	free(r);
	free(p);
	return rc;
}

static int
breakdown(FILE *fp, const struct tl_findings *f)
{
	struct tl_chart_bar tl[4], cat[TL_CAT_MAX];
	struct tl_ftimeline t;
	size_t nc = 0;
	int c;
	char head[64];

	t = f->tl;
	tl[0].label = "computation";
	tl[0].value_us = (double)t.compute / 1e3;
	tl[1].label = "exposed comm";
	tl[1].value_us = (double)t.comm / 1e3;
	tl[2].label = "exposed memcpy";
	tl[2].value_us = (double)t.memcpy / 1e3;
	tl[3].label = "idle";
	tl[3].value_us = (double)t.idle / 1e3;
	for (c = 0; c < tl_ncategories(); c++)
		if (f->cat[c].present) {
			cat[nc].label = tl_category(c)->value;
			cat[nc++].value_us = (double)f->cat[c].time_ns / 1e3;
		}
	/* Several traces' timelines are a sum, not one GPU's. */
	snprintf(head, sizeof(head), "GPU timelines of %d traces, summed "
	    "(per trace: %s)", f->ntr, tl_charts[TL_CHART_RANKS].file);
	return tl_svg_breakdown(fp, tl_charts[TL_CHART_BREAKDOWN].title,
	    f->ntr > 1 ? head : NULL, tl, 4, cat, nc);
}

/* A trace's label: "rank R: NAME", or its name. */
static const char *
trace_label(const struct tl_ftrace *t, struct strs *k)
{
	return t->rank[0] != '\0' ? keep(k, "rank %s: %s", t->rank, t->name) :
	    t->name;
}

/* The last c '/'-separated components of path, or all of it. */
static const char *
path_tail(const char *path, int c)
{
	const char *p = path + strlen(path);

	for (; p > path; p--)
		if (p[-1] == '/' && --c == 0)
			break;
	return p;
}

/*
 * The fewest last path components that tell the traces of f apart
 * (with their ranks), so that a bar's label shows what differs: "h100.json"
 * and "mi300.json", not two cut-off "/runs/..." prefixes.
 */
static int
tail_depth(const struct tl_findings *f)
{
	int c, i, j, whole, same;

	for (c = 1;; c++) {
		whole = 1;
		same = 0;
		for (i = 0; i < f->ntr && !same; i++) {
			const char *a = path_tail(f->tr[i].name, c);

			whole &= a == f->tr[i].name;
			for (j = 0; j < i && !same; j++)
				same = strcmp(f->tr[i].rank, f->tr[j].rank) ==
				    0 && strcmp(a, path_tail(f->tr[j].name,
				    c)) == 0;
		}
		if (!same || whole)
			return c;
	}
}

/* A trace's label as a chart shows it: its name's last c components. */
static const char *
trace_shown(const struct tl_ftrace *t, int c, struct strs *k)
{
	return keep(k, t->rank[0] != '\0' ? "rank %s: %s" : "%s%s", t->rank,
	    path_tail(t->name, c));
}

static int
cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) -
	    (*(const int *)a < *(const int *)b);
}

/*
 * The traces (f->tr indices, in order) a per-trace chart shows into sel:
 * every one, or those the cross-rank analysis picked (xrank.h, show);
 * how many.
 */
static int
shown(const struct tl_findings *f, int *sel, int *all)
{
	const struct tl_xrank *x = f->xr;
	int i, n = 0;

	*all = x == NULL || x->nshow == 0 || x->show_all;
	if (*all) {
		for (i = 0; i < f->ntr; i++)
			sel[n++] = i;
		return n;
	}
	for (i = 0; i < x->nshow; i++)
		if ((sel[n] = tl_findings_xtrace(f, x->show[i])) >= 0)
			n++;
	if (n > 1)
		qsort(sel, (size_t)n, sizeof(*sel), cmp_int);
	return n;
}

/* The subtitle of a chart of n of the ntr traces (all of them or not). */
static const char *
shown_words(char *buf, size_t size, int n, int ntr, int all, int straggler)
{
	if (!all)
		snprintf(buf, size, "%d of %d traces: the latest to arrive at "
		    "the collectives, the straggler, the slowest and the "
		    "reference", n, ntr);
	else
		snprintf(buf, size, straggler ? "%d traces; the straggler "
		    "arrives last at the collectives" : "%d traces; no "
		    "straggler", ntr);
	return buf;
}

/*
 * The per-rank bars r[0..n) of ntr ranks (all or not) and their subtitle;
 * s: the straggler's index, or -1.
 */
static int
rank_bars(FILE *fp, const struct tl_chart_rank *r, int n, int ntr, int all,
    int s)
{
	char sub[160];

	return tl_svg_ranks(fp, tl_charts[TL_CHART_RANKS].title,
	    shown_words(sub, sizeof(sub), n, ntr, all, s >= 0), r, (size_t)n,
	    s >= 0 ? (size_t)s : (size_t)n);
}

static int
ranks(FILE *fp, const struct tl_findings *f)
{
	struct tl_chart_rank *r = tl_calloc((size_t)f->ntr + 1, sizeof(*r));
	int *sel = tl_calloc((size_t)f->ntr + 1, sizeof(*sel));
	struct strs k = { NULL, 0, 0 };
	int i, s = tl_findings_straggler(f), rc, c = tail_depth(f), n, si, all;

	n = shown(f, sel, &all);
	si = -1;
	for (i = 0; i < n; i++) {
		const struct tl_ftrace *t = &f->tr[sel[i]];

		if (sel[i] == s)
			si = i;
		r[i].label = trace_label(t, &k);
		r[i].shown = trace_shown(t, c, &k);
		r[i].compute_us = (double)t->compute_ns / 1e3;
		r[i].comm_us = (double)t->comm_ns / 1e3;
		r[i].memcpy_us = (double)t->memcpy_ns / 1e3;
		r[i].idle_us = (double)t->idle_ns / 1e3;
	}
	rc = rank_bars(fp, r, n, f->ntr, all, si);
	drop(&k);
	free(sel);
	free(r);
	return rc;
}

int
tl_chart_xranks(FILE *fp, const struct tl_xrank *x)
{
	struct tl_chart_rank *r = tl_calloc((size_t)x->nrk + 1, sizeof(*r));
	struct strs k = { NULL, 0, 0 };
	int i, n = x->nshow > 0 ? x->nshow : x->nrk, si = -1, rc;

	for (i = 0; i < n; i++) {
		int q = x->nshow > 0 ? x->show[i] : i;
		const struct tl_xrk *t = &x->rk[q];

		if (q == x->straggler)
			si = i;
		r[i].label = t->rank_text[0] != '\0' ? keep(&k, "rank %s: %s",
		    t->rank_text, t->name) : t->name;
		r[i].compute_us = (double)t->tlc[TL_TLC_COMPUTE] / 1e3;
		r[i].comm_us = (double)t->tlc[TL_TLC_EXPOSED_COMM] / 1e3;
		r[i].memcpy_us = (double)t->tlc[TL_TLC_EXPOSED_MEMCPY] / 1e3;
		r[i].idle_us = (double)t->tlc[TL_TLC_IDLE] / 1e3;
	}
	rc = rank_bars(fp, r, n, x->nrk, x->nshow == 0 || x->show_all, si);
	drop(&k);
	free(r);
	return rc;
}

/* A gap of a trace, for sorting the largest of all traces. */
struct tgap {
	const struct tl_fgap *g;
	size_t strip;
	int tr;			/* its trace (f->tr) */
	int64_t start;		/* the strip's span start */
};

static int
by_len(const void *a, const void *b)
{
	const struct tgap *x = a, *y = b;

	if (x->g->len_ns != y->g->len_ns)
		return x->g->len_ns > y->g->len_ns ? -1 : 1;
	if (x->strip != y->strip)
		return x->strip < y->strip ? -1 : 1;
	return x->g->start_ns < y->g->start_ns ? -1 :
	    x->g->start_ns > y->g->start_ns;
}

/* Where gap a is in its trace, for the trace viewer, into c. */
static int
where(const struct tl_fidle *d, const struct tgap *a, struct tl_chart_gap *c)
{
	struct tl_fwhere w;

	if (!tl_fidle_gap_at(d, (size_t)a->tr, a->g->start_ns, a->g->len_ns,
	    a->g->listed, &w))
		return 0;
	c->ts_us = (double)w.ts_ns / 1e3;
	c->offset_us = (double)w.offset_ns / 1e3;
	c->has_step = w.step != TL_FNONE;
	c->step = c->has_step ? (long long)w.step : 0;
	c->has_stream = w.stream != TL_FNONE;
	c->stream = c->has_stream ? (long long)w.stream : 0;
	c->device = w.device;
	c->pid = w.pid;
	c->tid = w.tid;
	c->listed = a->g->listed >= 0;
	return 1;
}

static int
timeline(FILE *fp, const struct tl_findings *f)
{
	struct tl_chart_strip *s = tl_calloc((size_t)f->ntr + 1, sizeof(*s));
	struct tl_chart_gap g[TL_CHART_GAPS_TOP];
	struct tgap *all = tl_calloc((size_t)f->ntr * TL_FGAP_TOP + 1,
	    sizeof(*all));
	struct strs k = { NULL, 0, 0 };
	double *busy = tl_calloc((size_t)f->ntr * TL_FSTRIP + 1, sizeof(*busy));
	int *sel = tl_calloc((size_t)f->ntr + 1, sizeof(*sel));
	size_t ns = 0, na = 0, ng, i, b;
	int t, rc, c = tail_depth(f), every, nsel = shown(f, sel, &every);
	char sub[320], who[160];

	for (t = 0; t < nsel; t++) {
		const struct tl_ftrace *tr = &f->tr[sel[t]];

		if (tr->strip == NULL)
			continue;
		for (b = 0; b < TL_FSTRIP; b++)
			busy[ns * TL_FSTRIP + b] = (double)tr->strip[b] / 1e3;
		s[ns].label = trace_label(tr, &k);
		s[ns].shown = trace_shown(tr, c, &k);
		s[ns].span_us = (double)(tr->span_end_ns - tr->span_start_ns) /
		    1e3;
		s[ns].busy_us = &busy[ns * TL_FSTRIP];
		s[ns].nbins = TL_FSTRIP;
		for (i = 0; i < (size_t)tr->ntop; i++) {
			all[na].g = &tr->top[i];
			all[na].strip = ns;
			all[na].tr = sel[t];
			all[na++].start = tr->span_start_ns;
		}
		ns++;
	}
	if (na > 1)
		qsort(all, na, sizeof(*all), by_len);
	ng = na < TL_CHART_GAPS_TOP ? na : TL_CHART_GAPS_TOP;
	for (i = 0; i < ng; i++) {
		g[i].strip = all[i].strip;
		g[i].start_us = (double)(all[i].g->start_ns - all[i].start) / 1e3;
		g[i].len_us = (double)all[i].g->len_ns / 1e3;
		g[i].before = all[i].g->before;
		g[i].after = all[i].g->after;
		g[i].has_at = where(&f->idle, &all[i], &g[i]);
	}
	if (!every)
		snprintf(sub, sizeof(sub), "GPU busy time of the op rows' "
		    "kernels over each trace, from its first kernel; %s",
		    shown_words(who, sizeof(who), nsel, f->ntr, 0, 0));
	else
		snprintf(sub, sizeof(sub), "GPU busy time of the op rows' "
		    "kernels over each trace, from its first kernel");
	rc = tl_svg_strip(fp, tl_charts[TL_CHART_TIMELINE].title, sub, s, ns,
	    g, ng);
	free(sel);
	drop(&k);
	free(busy);
	free(all);
	free(s);
	return rc;
}

static int
gaps(FILE *fp, const struct tl_findings *f)
{
	long long count[TL_FGAP_BINS], n = 0;
	double time_us[TL_FGAP_BINS], edges[TL_FGAP_BINS - 1], idle = 0;
	struct tl_chart_hist h = { edges, count, time_us, TL_FGAP_BINS };
	char sub[160], ms[32];
	int b, t;

	for (b = 0; b < TL_FGAP_BINS; b++) {
		count[b] = 0;
		time_us[b] = 0;
		if (b < TL_FGAP_BINS - 1)
			edges[b] = (double)tl_fgap_edges[b] / 1e3;
		for (t = 0; t < f->ntr; t++) {
			count[b] += f->tr[t].gap_bin[b];
			time_us[b] += (double)f->tr[t].gap_bin_ns[b] / 1e3;
		}
		n += count[b];
		idle += time_us[b];
	}
	snprintf(ms, sizeof(ms), "%.3f", idle / 1e3);
	snprintf(sub, sizeof(sub), "%lld gaps between the kernels of the op "
	    "rows, %s ms idle in them%s", n, ms, f->ntr > 1 ? ", all traces "
	    "together" : "");
	return tl_svg_gaps(fp, tl_charts[TL_CHART_GAPS].title, sub, &h);
}

int
tl_chart_write(FILE *fp, const struct tl_findings *f, int i)
{
	switch (i) {
	case TL_CHART_ROOFLINE:
		return roofline(fp, f);
	case TL_CHART_BREAKDOWN:
		return breakdown(fp, f);
	case TL_CHART_RANKS:
		return ranks(fp, f);
	case TL_CHART_TIMELINE:
		return timeline(fp, f);
	default:
		return gaps(fp, f);
	}
}

/* "NAME (HW)" of a side of a comparison. */
static const char *
side(const struct tl_cmpfind *c, int k, struct strs *ks)
{
	const char *name = c->name[k][0] != '\0' ? c->name[k] :
	    k == REF ? "the reference" : "the target";

	return c->hw[k][0] != '\0' ? keep(ks, "%s (%s)", name, c->hw[k]) :
	    name;
}

int
tl_cmpchart_write(FILE *fp, const struct tl_cmpfind *c)
{
	struct tl_chart_pair cat[TL_CAT_MAX], ops[TL_CHART_OPS_TOP];
	struct strs k = { NULL, 0, 0 };
	size_t nc = 0, no = 0;
	int i, rc;

	for (i = 0; i < tl_ncategories(); i++) {
		if (!c->cat_present[i])
			continue;
		cat[nc].label = cat[nc].category = tl_category(i)->value;
		cat[nc].ref_us = (double)c->cat_ns[REF][i] / 1e3;
		cat[nc].target_us = (double)c->cat_ns[TGT][i] / 1e3;
		cat[nc++].expected_us = -1;
	}
	for (i = 0; i < c->nrec && no < TL_CHART_OPS_TOP; i++) {
		const struct tl_crow *w = &c->row[c->rec[i]];
		const struct tl_cside *r = &w->s[REF], *t = &w->s[TGT];

		ops[no].label = keep(&k, "%s %s", w->name, w->dims);
		ops[no].category = w->category;
		ops[no].ref_us = r->has ? (double)r->time_ns / 1e3 : -1;
		ops[no].target_us = t->has ? (double)t->time_ns / 1e3 : -1;
		ops[no].expected_us = -1;
		if (r->has && t->has && isfinite(w->expected) &&
		    isfinite(r->mean_us))
			ops[no].expected_us = w->expected * r->mean_us *
			    (double)t->count;
		no++;
	}
	rc = tl_svg_compare(fp, tl_cmpchart.title, c->roof_kind[0] != '\0' ?
	    keep(&k, "The predicted times rest on the %s roofs of the two "
	    "GPUs%s", kind_words(c->roof_kind), " (the reports name any "
	    "stand-ins)") : NULL, side(c, REF, &k), side(c, TGT, &k), cat, nc,
	    ops, no);
	drop(&k);
	return rc;
}
