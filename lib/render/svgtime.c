/* See LICENSE file for copyright and license details. */
/*
 * The charts of GPU time (lib/render/svgchart.h): per rank, over time,
 * and the lengths of the gaps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "render/svgchart.h"

#define out tl_svg_out

static int
nonneg(double v)
{
	return isfinite(v) && v >= 0;
}

/* A light axis from 0 to max µs under a bar of w px at x, y: ms ticks. */
static void
ms_axis(FILE *f, double x, double y, double w, double max)
{
	double step = tl_svg_step(max / 1000, 6) * 1000, t, tx;

	out(f, "<g class=\"axis\" font-size=\"10\" fill=\"#555555\">\n"
	    "<line x1=\"%p\" y1=\"%p\" x2=\"%p\" y2=\"%p\" stroke=\"#999999\"/>\n",
	    x, y, x + w, y);
	for (t = 0; max > 0 && t <= max * (1 + 1e-9); t += step) {
		tx = x + w * t / max;
		out(f, "<line x1=\"%p\" y1=\"%p\" x2=\"%p\" y2=\"%p\" "
		    "stroke=\"#999999\"/>\n<text x=\"%p\" y=\"%p\" "
		    "text-anchor=\"middle\">%G</text>\n", tx, y, tx, y + 4, tx,
		    y + 14, t / 1000);
	}
	out(f, "<text x=\"%p\" y=\"%p\">ms</text>\n</g>\n", x + w + 6,
	    y + 14);
}

/* GPU time per rank. */

enum {
	RK_W = 900,
	RK_LX = 40,		/* labels */
	RK_X = 230, RK_BW = 520,	/* bars */
	RK_TOP = 96,		/* the first bar */
	RK_ROW = 26, RK_BH = 16
};

static const char *const rank_part[4] = {
	"computation", "exposed comm", "exposed memcpy", "idle"
};

static double
rank_value(const struct tl_chart_rank *r, int k)
{
	double v = k == 0 ? r->compute_us : k == 1 ? r->comm_us :
	    k == 2 ? r->memcpy_us : r->idle_us;

	return nonneg(v) ? v : 0;
}

static double
rank_total(const struct tl_chart_rank *r)
{
	int k;
	double t = 0;

	for (k = 0; k < 4; k++)
		t += rank_value(r, k);
	return t;
}

int
tl_svg_ranks(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_rank *r, size_t n, size_t straggler)
{
	double max = 0, sum[4] = { 0, 0, 0, 0 }, x, w, y, t;
	size_t i;
	int k, h;

	for (i = 0; i < n; i++) {
		if (rank_total(&r[i]) > max)
			max = rank_total(&r[i]);
		for (k = 0; k < 4; k++)
			sum[k] += rank_value(&r[i], k);
	}
	h = RK_TOP + RK_ROW * (int)n + 48;
	tl_svg_begin(f, "tl-ranks", RK_W, h);
	out(f, " data-ranks=\"%d\">\n<title>%T</title>\n", (int)n, title);
	tl_svg_heading(f, RK_LX, title);
	if (subtitle != NULL && subtitle[0] != '\0')
		tl_svg_subtitle(f, RK_LX, "%T", subtitle);
	/* The legend, above the bars: each part summed over the ranks. */
	for (k = 0; k < 4; k++) {
		x = RK_LX + 210.0 * k;
		tl_svg_swatch(f, x, 64, tl_chart_colour(rank_part[k]));
		out(f, "<text x=\"%p\" y=\"74\">%s<tspan fill=\"#555555\"> %M "
		    "ms</tspan></text>\n", x + 18, rank_part[k], sum[k]);
	}
	for (i = 0; i < n; i++) {
		y = RK_TOP + RK_ROW * (double)i;
		t = rank_total(&r[i]);
		/*
		 * The label's tail, right-aligned before the bar: 25
		 * characters, bold ones too, fit in the margin.
		 */
		out(f, "<g class=\"rank\" data-label=\"%t\" data-total-us=\"%r\" "
		    "data-straggler=\"%d\">\n<text x=\"%d\" y=\"%p\" "
		    "text-anchor=\"end\" font-weight=\"%s\">", r[i].label, t,
		    i == straggler, RK_X - 8, y + RK_BH - 4,
		    i == straggler ? "bold" : "normal");
		tl_svg_tail(f, r[i].shown != NULL ? r[i].shown : r[i].label,
		    25);
		out(f, "<title>%T</title></text>\n", r[i].label);
		for (x = RK_X, k = 0; k < 4 && max > 0; k++) {
			w = RK_BW * rank_value(&r[i], k) / max;
			if (w <= 0)
				continue;
			out(f, "<rect class=\"segment\" data-part=\"%s\" "
			    "data-value-us=\"%r\" x=\"%p\" y=\"%p\" width=\"%p\" "
			    "height=\"%d\" fill=\"%s\"><title>%T: %s %M ms "
			    "(%f%%)</title></rect>\n", rank_part[k],
			    rank_value(&r[i], k), x, y, w, RK_BH,
			    tl_chart_colour(rank_part[k]), r[i].label,
			    rank_part[k], rank_value(&r[i], k),
			    t > 0 ? rank_value(&r[i], k) / t * 100 : 0.0);
			x += w;
		}
		out(f, "<text x=\"%p\" y=\"%p\" fill=\"#333333\">%M ms</text>\n",
		    RK_X + (max > 0 ? RK_BW * t / max : 0) + 6, y + RK_BH - 4, t);
		if (i == straggler)
			out(f, "<rect class=\"straggler\" x=\"%d\" y=\"%p\" "
			    "width=\"%p\" height=\"%d\" fill=\"none\" "
			    "stroke=\"#d62728\" stroke-width=\"2\"/>\n<text "
			    "x=\"%p\" y=\"%p\" fill=\"#d62728\" "
			    "font-weight=\"bold\">straggler</text>\n", RK_X - 2,
			    y - 2,
			    (max > 0 ? RK_BW * t / max : 0) + 4, RK_BH + 4,
			    RK_X + (max > 0 ? RK_BW * t / max : 0) + 80,
			    y + RK_BH - 4);
		out(f, "</g>\n");
	}
	ms_axis(f, RK_X, RK_TOP + RK_ROW * (double)n, RK_BW, max);
	out(f, "<text x=\"%d\" y=\"%p\" text-anchor=\"middle\" "
	    "font-size=\"11\" fill=\"#555555\">GPU timeline (ms)</text>\n",
	    RK_X + RK_BW / 2, RK_TOP + RK_ROW * (double)n + 32);
	if (n == 0)
		out(f, "<text x=\"%d\" y=\"%d\" fill=\"#555555\">no traces"
		    "</text>\n", RK_X, RK_TOP + 12);
	return tl_svg_end(f);
}

/* The busy strip. */

enum {
	ST_W = 960,
	ST_X = 40, ST_SW = 880,	/* the strips */
	ST_TOP = 100,		/* the first strip's label */
	ST_OFF = 24,		/* from a label to its strip */
	ST_SH = 26,		/* a strip's height */
	ST_BLOCK = 86,		/* label, numbers, strip, axis, space */
	ST_NUM = 12,		/* least distance of two gap numbers */
	ST_LEVELS = 8,		/* shades of busy */
	ST_LINE = 16		/* a line of the gap list */
};

/* The shade of a busy share in 0..1: idle grey to computation blue. */
static void
shade(char *buf, size_t n, int level)
{
	static const int idle[3] = { 0xe6, 0xe6, 0xe6 };
	static const int busy[3] = { 0x4e, 0x79, 0xa7 };
	double a = (double)level / ST_LEVELS;
	int c[3], k;

	for (k = 0; k < 3; k++)
		c[k] = (int)lround(idle[k] + (busy[k] - idle[k]) * a);
	snprintf(buf, n, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static int
level_of(double busy, double bin_us)
{
	double a = bin_us > 0 && nonneg(busy) ? busy / bin_us : 0;

	if (a > 1)
		a = 1;
	return (int)lround(a * ST_LEVELS);
}

/* One strip at y (its label's line): runs of bins of one shade. */
static void
put_strip(FILE *f, const struct tl_chart_strip *s, size_t idx, double y)
{
	double bin_us = s->nbins > 0 ? s->span_us / (double)s->nbins : 0;
	double busy = 0, sy = y + ST_OFF, x0, x1;
	char colour[8];
	size_t i, j;
	int lv;

	for (i = 0; i < s->nbins; i++)
		busy += nonneg(s->busy_us[i]) ? s->busy_us[i] : 0;
	out(f, "<g class=\"strip\" data-strip=\"%d\" data-label=\"%t\" "
	    "data-span-us=\"%r\" data-busy-us=\"%r\">\n<text x=\"%d\" y=\"%p\" "
	    "font-size=\"11\"><tspan font-weight=\"bold\">", (int)idx,
	    s->label, s->span_us, busy, ST_X, y);
	tl_svg_tail(f, s->shown != NULL ? s->shown : s->label, 90);
	out(f, "</tspan><tspan fill=\"#555555\"> \xc2\xb7 busy %M ms of %M ms "
	    "(%f%%)</tspan></text>\n", busy, s->span_us, s->span_us > 0 ?
	    busy / s->span_us * 100 : 0.0);
	out(f, "<rect x=\"%d\" y=\"%p\" width=\"%d\" height=\"%d\" "
	    "fill=\"#e6e6e6\"/>\n", ST_X, sy, ST_SW, ST_SH);
	for (i = 0; i < s->nbins; i = j) {
		lv = level_of(s->busy_us[i], bin_us);
		for (j = i + 1; j < s->nbins &&
		    level_of(s->busy_us[j], bin_us) == lv; j++)
			;
		if (lv == 0)
			continue;
		shade(colour, sizeof(colour), lv);
		x0 = ST_X + ST_SW * (double)i / (double)s->nbins;
		x1 = ST_X + ST_SW * (double)j / (double)s->nbins;
		out(f, "<rect class=\"busy\" data-level=\"%d\" x=\"%p\" y=\"%p\" "
		    "width=\"%p\" height=\"%d\" fill=\"%s\"/>\n", lv, x0, sy,
		    x1 - x0, ST_SH, colour);
	}
	out(f, "<rect x=\"%d\" y=\"%p\" width=\"%d\" height=\"%d\" "
	    "fill=\"none\" stroke=\"#999999\"/>\n", ST_X, sy, ST_SW, ST_SH);
	ms_axis(f, ST_X, sy + ST_SH, ST_SW, s->span_us);
	out(f, "</g>\n");
}

/* Where gap g goes on its strip: its x range, at least 3 px wide. */
static void
gap_x(const struct tl_chart_strip *s, const struct tl_chart_gap *g,
    double *x0, double *x1)
{
	double span = s->span_us > 0 ? s->span_us : 1;

	*x0 = ST_X + ST_SW * g->start_us / span;
	*x1 = ST_X + ST_SW * (g->start_us + g->len_us) / span;
	if (*x1 - *x0 < 3) {
		*x0 = (*x0 + *x1) / 2 - 1.5;
		*x1 = *x0 + 3;
	}
}

/*
 * Where the numbers of the gaps on strip k go: over their gaps, moved
 * apart to ST_NUM px and kept over the strip.
 */
static size_t
place_numbers(const struct tl_chart_strip *s, size_t k,
    const struct tl_chart_gap *g, size_t ng, struct tl_svg_label *n)
{
	double x0, x1;
	size_t i, m = 0;

	for (i = 0; i < ng; i++) {
		if (g[i].strip != k)
			continue;
		gap_x(s, &g[i], &x0, &x1);
		n[m].i = i;
		n[m].pos = (x0 + x1) / 2;
		m++;
	}
	tl_svg_place(n, m, ST_NUM, ST_X + 4, ST_X + ST_SW - 4);
	return m;
}

/* The numbered marks of the gaps. */
static void
put_gap_marks(FILE *f, const struct tl_chart_strip *s, size_t ns,
    const struct tl_chart_gap *g, size_t ng)
{
	struct tl_svg_label *n = tl_calloc(ng + 1, sizeof(*n));
	double x0, x1, y;
	size_t i, k, m;

	out(f, "<g class=\"gaps\" fill=\"none\" stroke=\"#d62728\">\n");
	for (k = 0; k < ns; k++) {
		m = place_numbers(&s[k], k, g, ng, n);
		y = ST_TOP + ST_BLOCK * (double)k + ST_OFF;
		for (i = 0; i < m; i++) {
			const struct tl_chart_gap *q = &g[n[i].i];

			gap_x(&s[k], q, &x0, &x1);
			out(f, "<rect class=\"gap\" data-strip=\"%d\" "
			    "data-rank=\"%d\" data-start-us=\"%r\" "
			    "data-len-us=\"%r\" x=\"%p\" y=\"%p\" width=\"%p\" "
			    "height=\"%d\" stroke-width=\"1.5\"><title>gap %d: "
			    "%M ms</title></rect>\n", (int)k, (int)n[i].i + 1,
			    q->start_us, q->len_us, x0, y - 3, x1 - x0,
			    ST_SH + 6, (int)n[i].i + 1, q->len_us);
			if (fabs(n[i].at - n[i].pos) > 2)
				out(f, "<line x1=\"%p\" y1=\"%p\" x2=\"%p\" "
				    "y2=\"%p\" stroke-width=\"0.8\"/>\n",
				    n[i].at, y - 9, n[i].pos, y - 3);
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
			    "font-size=\"11\" font-weight=\"bold\" "
			    "fill=\"#d62728\" stroke=\"none\">%d</text>\n",
			    n[i].at, y - 10, (int)n[i].i + 1);
		}
	}
	out(f, "</g>\n");
	free(n);
}

/* Where gap g is, for the trace viewer: a line of the gap list. */
static void
put_gap_at(FILE *f, const struct tl_chart_gap *g, double y)
{
	char ts[64];

	snprintf(ts, sizeof(ts), "%.3f", g->ts_us);
	out(f, "<text class=\"gap-at\" x=\"%d\" y=\"%p\" "
	    "fill=\"#555555\">ts %s us (+%M ms from the first event)",
	    ST_X + 16, y, ts, g->offset_us);
	if (g->has_step)
		fprintf(f, ", step %lld", g->step);
	if (g->device != NULL && g->device[0] != '\0') {
		out(f, ", GPU ");
		tl_svg_text(f, g->device, 24);
	}
	if (g->has_stream)
		fprintf(f, " stream %lld", g->stream);
	if (g->pid != NULL && g->pid[0] != '\0') {
		out(f, ", pid ");
		tl_svg_text(f, g->pid, 24);
		out(f, " tid ");
		tl_svg_text(f, g->tid, 24);
	}
	if (!g->listed)
		out(f, "; under 10 \xc2\xb5s: not listed (no step, thread)");
	out(f, "</text>\n");
}

/* The lines the gap list takes. */
static size_t
gap_lines(const struct tl_chart_gap *g, size_t ng)
{
	size_t i, n = ng > 0 ? ng : 1, at = 0;

	for (i = 0; i < ng; i++)
		at += g[i].has_at != 0;
	return n + at + 2 * (at > 0);	/* the note on finding a gap: two lines */
}

/* The list of the gaps under the strips. */
static void
put_gap_list(FILE *f, const struct tl_chart_strip *s, size_t ns,
    const struct tl_chart_gap *g, size_t ng, double y)
{
	size_t i, at = 0;

	out(f, "<g class=\"gap-list\" font-size=\"11\">\n<text x=\"%d\" "
	    "y=\"%p\" font-size=\"12\" font-weight=\"bold\">Largest gaps"
	    "</text>\n", ST_X, y);
	for (i = 0; i < ng; i++) {
		y += ST_LINE;
		out(f, "<text x=\"%d\" y=\"%p\"><tspan font-weight=\"bold\" "
		    "fill=\"#d62728\">%d</tspan> %M ms idle at %M ms", ST_X, y,
		    (int)i + 1, g[i].len_us, g[i].start_us);
		if (ns > 1 && g[i].strip < ns) {
			out(f, " in ");
			tl_svg_tail(f, s[g[i].strip].shown != NULL ?
			    s[g[i].strip].shown : s[g[i].strip].label, 40);
		}
		if (g[i].before != NULL && g[i].before[0] != '\0') {
			out(f, ": after ");
			tl_svg_text(f, g[i].before, 50);
		}
		if (g[i].after != NULL && g[i].after[0] != '\0') {
			out(f, ", before ");
			tl_svg_text(f, g[i].after, 50);
		}
		out(f, "</text>\n");
		if (g[i].has_at) {
			y += ST_LINE;
			put_gap_at(f, &g[i], y);
			at++;
		}
	}
	if (ng == 0)
		out(f, "<text x=\"%d\" y=\"%p\" fill=\"#555555\">none: the GPU "
		    "never waited between kernels</text>\n", ST_X, y + ST_LINE);
	if (at > 0)
		out(f, "<text x=\"%d\" y=\"%p\" fill=\"#555555\">In Perfetto "
		    "or chrome://tracing (time from the trace's first event): "
		    "go to the offset on the GPU's stream row;</text>\n"
		    "<text x=\"%d\" y=\"%p\" fill=\"#555555\">the launching "
		    "thread's row (pid, tid) shows what the host did.</text>\n",
		    ST_X, y + ST_LINE, ST_X, y + 2 * ST_LINE);
	out(f, "</g>\n");
}

/* The key of the shades and of the gap marks. */
static void
put_shades(FILE *f)
{
	char colour[8];
	int lv, x = ST_X + 160;

	out(f, "<g class=\"key\" font-size=\"11\" fill=\"#555555\">\n"
	    "<text x=\"%d\" y=\"74\">busy share of a slice:</text>\n"
	    "<text x=\"%d\" y=\"74\" text-anchor=\"end\">%f%%</text>\n",
	    ST_X, x - 4, 0.0);
	for (lv = 0; lv <= ST_LEVELS; lv++) {
		shade(colour, sizeof(colour), lv);
		out(f, "<rect x=\"%d\" y=\"64\" width=\"18\" height=\"12\" "
		    "fill=\"%s\" stroke=\"#999999\" stroke-width=\"0.5\"/>\n",
		    x + 18 * lv, colour);
	}
	x += 18 * (ST_LEVELS + 1);
	out(f, "<text x=\"%d\" y=\"74\">%f%%</text>\n<rect x=\"%d\" "
	    "y=\"63\" width=\"14\" height=\"14\" fill=\"none\" "
	    "stroke=\"#d62728\" stroke-width=\"1.5\"/>\n<text x=\"%d\" "
	    "y=\"74\">a gap of the list below, numbered by length</text>\n"
	    "</g>\n", x + 4, 100.0, x + 60, x + 80);
}

int
tl_svg_strip(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_strip *s, size_t ns,
    const struct tl_chart_gap *g, size_t ng)
{
	double list = ST_TOP + ST_BLOCK * (double)ns + 6;
	size_t i;
	int h;

	h = (int)ceil(list + ST_LINE * (double)gap_lines(g, ng) + 24);
	tl_svg_begin(f, "tl-strip", ST_W, h);
	out(f, " data-strips=\"%d\" data-gaps=\"%d\">\n<title>%T</title>\n",
	    (int)ns, (int)ng, title);
	tl_svg_heading(f, ST_X, title);
	if (subtitle != NULL && subtitle[0] != '\0')
		tl_svg_subtitle(f, ST_X, "%T", subtitle);
	put_shades(f);
	for (i = 0; i < ns; i++)
		put_strip(f, &s[i], i, ST_TOP + ST_BLOCK * (double)i);
	put_gap_marks(f, s, ns, g, ng);
	put_gap_list(f, s, ns, g, ng, list);
	return tl_svg_end(f);
}

/* The gap-length histogram. */

enum {
	GH_W = 900,
	GH_X = 90, GH_PW = 760,	/* the panels */
	GH_TOP = 84, GH_PH = 150,	/* the first panel */
	GH_SPACE = 46		/* between the panels */
};

/* A length in µs, in unit u (1 µs, 1000 ms, 1e6 s). */
static void
put_len(FILE *f, double us, double u)
{
	out(f, "%G", us / u);
}

/* The label of bin i: "<1 µs", "1-2 µs", "0.5-1 ms", ">=1 s". */
static void
bin_label(FILE *f, const struct tl_chart_hist *h, size_t i)
{
	double hi = i + 1 < h->nbins ? h->edges_us[i] : h->edges_us[i - 1];
	double u = hi >= 1e6 ? 1e6 : hi >= 1000 ? 1000 : 1;
	const char *unit = u == 1e6 ? "s" : u == 1000 ? "ms" : "\xc2\xb5s";

	if (i == 0) {
		out(f, "&lt;");
		put_len(f, hi, u);
	} else if (i + 1 == h->nbins) {
		out(f, "\xe2\x89\xa5");
		put_len(f, hi, u);
	} else {
		put_len(f, h->edges_us[i - 1], u);
		out(f, "\xe2\x80\x93");
		put_len(f, hi, u);
	}
	out(f, " %s", unit);
}

/* One panel of bars: values v of bins lo..hi, from y. */
static void
put_panel(FILE *f, const struct tl_chart_hist *h, size_t lo, size_t hi,
    double y, int times)
{
	double max = 0, step, t, slot, bw, v, x, bh;
	size_t i;

	for (i = lo; i <= hi; i++) {
		v = times ? h->time_us[i] / 1000 : (double)h->count[i];
		if (nonneg(v) && v > max)
			max = v;
	}
	step = tl_svg_step(max, 4);
	if (max > 0)
		max = ceil(max / step * (1 - 1e-9)) * step;
	out(f, "<text x=\"%d\" y=\"%p\" font-weight=\"bold\">%s</text>\n"
	    "<g class=\"grid\" font-size=\"10\" fill=\"#555555\">\n", GH_X,
	    y - 8, times ? "Idle time in the gaps (ms)" : "Number of gaps");
	for (t = 0; max > 0 && t <= max * (1 + 1e-9); t += step) {
		double ty = y + GH_PH - GH_PH * t / max;

		out(f, "<line x1=\"%d\" y1=\"%p\" x2=\"%d\" y2=\"%p\" "
		    "stroke=\"%s\"/>\n<text x=\"%d\" y=\"%p\" "
		    "text-anchor=\"end\">%G</text>\n", GH_X, ty, GH_X + GH_PW, ty,
		    t == 0 ? "#999999" : "#eeeeee", GH_X - 6, ty + 3, t);
	}
	if (!(max > 0))
		out(f, "<line x1=\"%d\" y1=\"%p\" x2=\"%d\" y2=\"%p\" "
		    "stroke=\"#999999\"/>\n", GH_X, y + GH_PH, GH_X + GH_PW,
		    y + GH_PH);
	out(f, "</g>\n");
	slot = (double)GH_PW / (double)(hi - lo + 1);
	bw = slot - 8 < 48 ? slot - 8 : 48;
	for (i = lo; i <= hi && max > 0; i++) {
		v = times ? h->time_us[i] / 1000 : (double)h->count[i];
		if (!nonneg(v) || v == 0)
			continue;
		x = GH_X + slot * (double)(i - lo) + (slot - bw) / 2;
		bh = GH_PH * v / max;
		out(f, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%p\" "
		    "fill=\"%s\"/>\n", x, y + GH_PH - bh, bw, bh,
		    times ? "#bab0ac" : "#4e79a7");
		/* The value above the bar, turned when the slots are narrow. */
		if (slot >= 60)
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
			    "font-size=\"10\">", x + bw / 2, y + GH_PH - bh - 4);
		else
			out(f, "<text transform=\"translate(%p %p) rotate(-90)\" "
			    "font-size=\"10\">", x + bw / 2 + 3,
			    y + GH_PH - bh - 4);
		if (times)
			out(f, "%M ms</text>\n", h->time_us[i]);
		else
			out(f, "%d</text>\n", (int)h->count[i]);
	}
}

int
tl_svg_gaps(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_hist *h)
{
	double slot, x, y2 = GH_TOP + GH_PH + GH_SPACE + 24, ly;
	size_t lo = 0, hi = 0, i;
	int any = 0, turn, ht;

	for (i = 0; i < h->nbins; i++)
		if (h->count[i] > 0) {
			if (!any)
				lo = i;
			hi = i;
			any = 1;
		}
	if (!any)	/* empty panels over every bin, and a note */
		hi = h->nbins - 1;
	slot = (double)GH_PW / (double)(hi - lo + 1);
	turn = slot < 64;
	ht = (int)ceil(y2 + GH_PH + (turn ? 70 : 40));
	tl_svg_begin(f, "tl-gaps", GH_W, ht);
	out(f, " data-bins=\"%d\">\n<title>%T</title>\n", (int)h->nbins, title);
	tl_svg_heading(f, GH_X, title);
	if (subtitle != NULL && subtitle[0] != '\0')
		tl_svg_subtitle(f, GH_X, "%T", subtitle);
	if (!any)
		out(f, "<text x=\"%d\" y=\"%d\" fill=\"#555555\">no gaps: the "
		    "GPU never waited between kernels</text>\n", GH_X + 200,
		    GH_TOP + 12);
	for (i = lo; i <= hi && any; i++)
		out(f, "<g class=\"bin\" data-bin=\"%d\" data-count=\"%d\" "
		    "data-time-us=\"%r\"/>\n", (int)i, (int)h->count[i],
		    h->time_us[i]);
	put_panel(f, h, lo, hi, GH_TOP + 24, 0);
	put_panel(f, h, lo, hi, y2, 1);
	/* The bins' labels under the second panel. */
	ly = y2 + GH_PH + 14;
	out(f, "<g class=\"bins\" font-size=\"10\" fill=\"#333333\">\n");
	for (i = lo; i <= hi; i++) {
		x = GH_X + slot * ((double)(i - lo) + 0.5);
		if (turn)
			out(f, "<text transform=\"translate(%p %p) "
			    "rotate(-40)\" text-anchor=\"end\">", x + 4, ly);
		else
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">",
			    x, ly);
		bin_label(f, h, i);
		out(f, "</text>\n");
	}
	out(f, "</g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
	    "font-size=\"11\" fill=\"#555555\">gap length</text>\n",
	    GH_X + GH_PW / 2, ht - 8);
	return tl_svg_end(f);
}
