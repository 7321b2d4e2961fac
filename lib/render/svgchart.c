/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "render/svgchart.h"
#include "stream/category.h"

#define out tl_svg_out

/* The roofline. */

enum {
	RF_W = 1080,			/* width */
	RF_H = 570,			/* least height */
	RF_X = 84, RF_Y = 68,		/* plot area */
	RF_PW = 520, RF_PH = 420,
	RF_MX = RF_X + RF_PW + 8,	/* roof labels, in the margin */
	RF_LX = RF_X + RF_PW + 176,	/* legend */
	RF_TOP = 5,			/* points numbered and listed */
	RF_LABEL = 13			/* least distance of two roof labels */
};
#define RF_RMAX	18.0	/* radius of the longest point */
#define RF_RMIN	2.5	/* radius of the shortest */
#define PI	3.14159265358979323846

/* Dash patterns of the roofs, in turn. */
static const char *const dashes[] = { "none", "8 4", "2 3", "10 3 2 3" };
#define NDASH (sizeof(dashes) / sizeof(dashes[0]))

struct frame {
	int xlo, xhi, ylo, yhi;	/* log10 of the axis ends */
};

static double
px(const struct frame *fr, double lx)
{
	return RF_X + RF_PW * (lx - fr->xlo) / (fr->xhi - fr->xlo);
}

static double
py(const struct frame *fr, double ly)
{
	return RF_Y + RF_PH * (fr->yhi - ly) / (fr->yhi - fr->ylo);
}

static int
positive(double v)
{
	return isfinite(v) && v > 0;
}

static int
valid(const struct tl_chart_point *p)
{
	return positive(p->flops_per_byte) && positive(p->tflops_s);
}

static double
radius(double t, double tmax)
{
	double r = RF_RMIN;

	if (positive(t) && tmax > 0)
		r = RF_RMAX * sqrt(t / tmax);
	return r < RF_RMIN ? RF_RMIN : r;
}

/* The roof of a point, or NULL. */
static const struct tl_chart_roof *
roof_of(const struct tl_chart_point *p, const struct tl_chart_roof *r,
    size_t nr)
{
	return p->roof >= 0 && (size_t)p->roof < nr ? &r[p->roof] : NULL;
}

/* The roof's TFLOPS/s at intensity x; 0 when it has no figure. */
static double
roof_at(const struct tl_chart_roof *r, double x)
{
	double c = positive(r->peak_tflops) ? r->peak_tflops : 0;
	double b = positive(r->peak_tbs) ? r->peak_tbs * x : 0;

	if (c > 0 && b > 0)
		return c < b ? c : b;
	return c > 0 ? c : b;
}

/* A plotted point; drawn longest first, so that short ones stay on top. */
struct ord {
	size_t i;	/* index in the caller's array */
	double t;	/* its time, 0 when not a number */
};

static int
by_time(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;

	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

struct cat {
	const char *name;
	int rank;	/* index in the category table; unknown ones after */
	int count;
};

static int
by_rank(const void *a, const void *b)
{
	const struct cat *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The categories of the plotted points, in legend order; their number. */
static size_t
categories(const struct tl_chart_point *p, const struct ord *ord, size_t n,
    struct cat *cat)
{
	size_t i, j, nc = 0;
	const char *name;

	for (i = 0; i < n; i++) {
		name = p[ord[i].i].category != NULL ? p[ord[i].i].category : "";
		for (j = 0; j < nc; j++)
			if (strcmp(cat[j].name, name) == 0)
				break;
		if (j == nc) {
			cat[nc].name = name;
			cat[nc].count = 0;
			cat[nc].rank = tl_category_index(name);
			if (cat[nc].rank < 0)
				cat[nc].rank = TL_CAT_MAX;
			nc++;
		}
		cat[j].count++;
	}
	qsort(cat, nc, sizeof(*cat), by_rank);
	return nc;
}

/* What the chart draws, worked out before a byte is written. */
struct plan {
	const struct tl_chart_roof *r;
	size_t nr;
	int *used;		/* points per roof */
	int *dash;		/* dash pattern per drawn roof */
	size_t *order;		/* the drawn roofs, highest first */
	double *bw;		/* the distinct bandwidths of the drawn roofs */
	size_t nbw, nroofs;	/* bandwidths, drawn roofs */
	struct frame fr;
};

/* The index of bandwidth v among the plan's, added when new. */
static size_t
bw_index(struct plan *pl, double v)
{
	size_t i;

	for (i = 0; i < pl->nbw; i++)
		if (pl->bw[i] == v)
			return i;
	pl->bw[pl->nbw] = v;
	return pl->nbw++;
}

/* A roof's compute figure for ordering: 0 when it has none. */
static double
peak_of(const struct tl_chart_roof *r)
{
	return positive(r->peak_tflops) ? r->peak_tflops : 0;
}

/* Order the drawn roofs by compute figure, higher first (few: insertion). */
static void
order_roofs(struct plan *pl)
{
	size_t i, j, v;

	for (i = 1; i < pl->nroofs; i++) {
		v = pl->order[i];
		for (j = i; j > 0 && peak_of(&pl->r[pl->order[j - 1]]) <
		    peak_of(&pl->r[v]); j--)
			pl->order[j] = pl->order[j - 1];
		pl->order[j] = v;
	}
	for (i = 0; i < pl->nroofs; i++)
		pl->dash[pl->order[i]] = (int)(i % NDASH);
}

/* Whole decades around [lo, hi], at least two. */
static void
decades(double lo, double hi, double dlo, double dhi, int *a, int *b)
{
	if (lo > hi)
		lo = dlo, hi = dhi;
	*a = (int)floor(lo - 0.05);
	*b = (int)ceil(hi + 0.05);
	while (*b - *a < 2) {
		(*a)--;
		if (*b - *a < 2)
			(*b)++;
	}
}

static void
make_plan(struct plan *pl, const struct tl_chart_roof *r, size_t nr,
    const struct tl_chart_point *p, const struct ord *ord, size_t nv)
{
	double lxmin = HUGE_VAL, lxmax = -HUGE_VAL, lymin = HUGE_VAL;
	double lymax = -HUGE_VAL;
	size_t i;

	memset(pl, 0, sizeof(*pl));
	pl->r = r;
	pl->nr = nr;
	pl->used = tl_calloc(nr + 1, sizeof(*pl->used));
	pl->dash = tl_calloc(nr + 1, sizeof(*pl->dash));
	pl->order = tl_calloc(nr + 1, sizeof(*pl->order));
	pl->bw = tl_calloc(nr + 1, sizeof(*pl->bw));
	for (i = 0; i < nv; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];

		lxmin = fmin(lxmin, log10(q->flops_per_byte));
		lxmax = fmax(lxmax, log10(q->flops_per_byte));
		lymin = fmin(lymin, log10(q->tflops_s));
		lymax = fmax(lymax, log10(q->tflops_s));
		if (roof_of(q, r, nr) != NULL)
			pl->used[q->roof]++;
	}
	/* The x range is the points'; y also holds their compute roofs. */
	for (i = 0; i < nr; i++) {
		if (pl->used[i] == 0 ||
		    (!positive(r[i].peak_tflops) && !positive(r[i].peak_tbs)))
			continue;
		pl->order[pl->nroofs++] = i;
		if (positive(r[i].peak_tflops)) {
			lymin = fmin(lymin, log10(r[i].peak_tflops));
			lymax = fmax(lymax, log10(r[i].peak_tflops));
		}
		if (positive(r[i].peak_tbs))
			bw_index(pl, r[i].peak_tbs);
	}
	order_roofs(pl);
	decades(lxmin, lxmax, 0, 3, &pl->fr.xlo, &pl->fr.xhi);
	decades(lymin, lymax, -1, 3, &pl->fr.ylo, &pl->fr.yhi);
}

static void
free_plan(struct plan *pl)
{
	free(pl->used);
	free(pl->dash);
	free(pl->order);
	free(pl->bw);
}

static int
drawn(const struct plan *pl, size_t i)
{
	return pl->used[i] > 0 && (positive(pl->r[i].peak_tflops) ||
	    positive(pl->r[i].peak_tbs));
}

/* A decade tick label: plain from 0.01 to 10000, else 10 to the k. */
static void
put_decade(FILE *f, int k)
{
	static const char *const plain[] = {
		"0.01", "0.1", "1", "10", "100", "1000", "10000"
	};

	if (k >= -2 && k <= 4)
		out(f, "%s", plain[k + 2]);
	else
		out(f, "10<tspan dy=\"-6\" font-size=\"9\">%d</tspan>", k);
}

static void
put_axes(FILE *f, const struct frame *fr)
{
	int k, m, xstep, ystep;
	double v;

	/* At most about ten labelled decades per axis. */
	xstep = (fr->xhi - fr->xlo + 9) / 10;
	ystep = (fr->yhi - fr->ylo + 9) / 10;
	/* Gridlines: every labelled decade, and 2..9 when the decades are few. */
	out(f, "<g class=\"grid\" fill=\"none\">\n");
	for (k = fr->xlo; k <= fr->xhi; k++) {
		if ((k % xstep + xstep) % xstep != 0)
			continue;
		for (m = 2; k < fr->xhi && fr->xhi - fr->xlo <= 8 && m <= 9; m++) {
			v = px(fr, k + log10(m));
			out(f, "<line x1=\"%p\" y1=\"%d\" x2=\"%p\" y2=\"%d\" "
			    "stroke=\"#f0f0f0\"/>\n", v, RF_Y, v, RF_Y + RF_PH);
		}
		v = px(fr, k);
		out(f, "<line x1=\"%p\" y1=\"%d\" x2=\"%p\" y2=\"%d\" "
		    "stroke=\"#d0d0d0\"/>\n", v, RF_Y, v, RF_Y + RF_PH);
	}
	for (k = fr->ylo; k <= fr->yhi; k++) {
		if ((k % ystep + ystep) % ystep != 0)
			continue;
		for (m = 2; k < fr->yhi && fr->yhi - fr->ylo <= 8 && m <= 9; m++) {
			v = py(fr, k + log10(m));
			out(f, "<line x1=\"%d\" y1=\"%p\" x2=\"%d\" y2=\"%p\" "
			    "stroke=\"#f0f0f0\"/>\n", RF_X, v, RF_X + RF_PW, v);
		}
		v = py(fr, k);
		out(f, "<line x1=\"%d\" y1=\"%p\" x2=\"%d\" y2=\"%p\" "
		    "stroke=\"#d0d0d0\"/>\n", RF_X, v, RF_X + RF_PW, v);
	}
	out(f, "</g>\n<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"none\" stroke=\"#333333\"/>\n",
	    RF_X, RF_Y, RF_PW, RF_PH);

	out(f, "<g class=\"ticks\" fill=\"#333333\">\n");
	for (k = fr->xlo; k <= fr->xhi; k++) {
		if ((k % xstep + xstep) % xstep != 0)
			continue;
		v = px(fr, k);
		out(f, "<line x1=\"%p\" y1=\"%d\" x2=\"%p\" y2=\"%d\" "
		    "stroke=\"#333333\"/>\n", v, RF_Y + RF_PH, v, RF_Y + RF_PH + 5);
		out(f, "<text x=\"%p\" y=\"%d\" text-anchor=\"middle\">", v,
		    RF_Y + RF_PH + 20);
		put_decade(f, k);
		out(f, "</text>\n");
	}
	for (k = fr->ylo; k <= fr->yhi; k++) {
		if ((k % ystep + ystep) % ystep != 0)
			continue;
		v = py(fr, k);
		out(f, "<line x1=\"%d\" y1=\"%p\" x2=\"%d\" y2=\"%p\" "
		    "stroke=\"#333333\"/>\n", RF_X - 5, v, RF_X, v);
		out(f, "<text x=\"%d\" y=\"%p\" text-anchor=\"end\">", RF_X - 8,
		    v + 4);
		put_decade(f, k);
		out(f, "</text>\n");
	}
	out(f, "</g>\n");
	out(f, "<text class=\"axis-title\" x=\"%d\" y=\"%d\" "
	    "text-anchor=\"middle\" font-size=\"13\">Arithmetic intensity "
	    "(FLOPs/byte)</text>\n", RF_X + RF_PW / 2, RF_Y + RF_PH + 44);
	out(f, "<text class=\"axis-title\" transform=\"translate(24 %d) "
	    "rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">Achieved "
	    "TFLOPS/s</text>\n", RF_Y + RF_PH / 2);
}

/*
 * The bandwidth lines: each runs from the left edge to the furthest
 * ridge of the roofs that share it (the right edge for a roof without a
 * compute figure), labelled along its visible part.
 */
static void
put_bandwidths(FILE *f, const struct plan *pl)
{
	const struct frame *fr = &pl->fr;
	double lb, end, mid, ang, lr;
	const char *gpu;
	size_t b, i;
	int below;

	ang = -atan(((double)RF_PH / (fr->yhi - fr->ylo)) /
	    ((double)RF_PW / (fr->xhi - fr->xlo))) * 180 / PI;
	for (b = 0; b < pl->nbw; b++) {
		lb = log10(pl->bw[b]);
		end = fr->xlo;
		gpu = NULL;
		for (i = 0; i < pl->nr; i++) {
			if (!drawn(pl, i) || pl->r[i].peak_tbs != pl->bw[b])
				continue;
			/* Several GPUs: the line names its GPU (the first). */
			if (gpu == NULL && pl->r[i].gpu != NULL &&
			    pl->r[i].gpu[0] != '\0')
				gpu = pl->r[i].gpu;
			lr = positive(pl->r[i].peak_tflops) ?
			    log10(pl->r[i].peak_tflops) - lb : fr->xhi;
			end = fmax(end, fmin(lr, fr->xhi));
		}
		out(f, "<line class=\"memory-roof\" data-peak-tbs=\"%r\" "
		    "clip-path=\"url(#tl-plot-area)\" x1=\"%p\" y1=\"%p\" "
		    "x2=\"%p\" y2=\"%p\" stroke=\"#222222\" stroke-width=\"2\"/>\n",
		    pl->bw[b], px(fr, fr->xlo), py(fr, lb + fr->xlo),
		    px(fr, end), py(fr, lb + end));
		/* The label: on the visible part, apart from other bandwidths. */
		end = fmin(end, fr->yhi - lb);
		if (end <= fr->xlo || fr->ylo - lb >= end)
			continue;
		mid = fmax(fr->xlo, fr->ylo - lb);
		mid += (end - mid) * (double)(b + 1) / (double)(pl->nbw + 1);
		/* The lowest of several goes below its line, clear of the next. */
		below = pl->nbw > 1;
		for (i = 0; i < pl->nbw; i++)
			if (pl->bw[i] < pl->bw[b])
				below = 0;
		out(f, "<text class=\"roof-label\" transform=\"translate(%p %p) "
		    "rotate(%p)\" y=\"%d\" text-anchor=\"middle\" "
		    "fill=\"#222222\" stroke=\"#ffffff\" stroke-width=\"3\" "
		    "paint-order=\"stroke\">%T%smemory roof %G TB/s</text>\n",
		    px(fr, mid), py(fr, lb + mid), ang, below ? 15 : -7,
		    gpu != NULL ? gpu : "",
		    gpu != NULL ? " " : "", pl->bw[b]);
	}
}

/*
 * Where the margin labels of the compute roofs go: at their roof's
 * height, moved apart to RF_LABEL px and kept beside the plot.
 */
static size_t
place_labels(const struct plan *pl, struct tl_svg_label *l)
{
	size_t i, n = 0;

	for (i = 0; i < pl->nr; i++)
		if (drawn(pl, i) && positive(pl->r[i].peak_tflops)) {
			l[n].i = i;
			l[n].pos = py(&pl->fr, log10(pl->r[i].peak_tflops));
			n++;
		}
	tl_svg_place(l, n, RF_LABEL, -HUGE_VAL, RF_Y + RF_PH);
	return n;
}

/* The compute roofs: the flat part from the ridge, the ridge, the label. */
static void
put_roofs(FILE *f, const struct plan *pl)
{
	const struct frame *fr = &pl->fr;
	struct tl_svg_label *l = tl_calloc(pl->nr + 1, sizeof(*l));
	double lc, lr, x0, x, y;
	size_t i, k, nl = place_labels(pl, l);

	for (i = 0; i < pl->nr; i++) {
		const struct tl_chart_roof *r = &pl->r[i];

		if (!drawn(pl, i))
			continue;
		out(f, "<g class=\"roof\" data-roof=\"%d\" data-label=\"%t\"",
		    (int)i, r->label);
		if (positive(r->peak_tflops))
			out(f, " data-peak-tflops=\"%r\"", r->peak_tflops);
		if (positive(r->peak_tbs))
			out(f, " data-peak-tbs=\"%r\"", r->peak_tbs);
		out(f, " stroke=\"#222222\" stroke-dasharray=\"%s\">\n",
		    dashes[pl->dash[i]]);
		if (positive(r->peak_tflops)) {
			lc = log10(r->peak_tflops);
			lr = positive(r->peak_tbs) ? lc - log10(r->peak_tbs) :
			    fr->xlo;
			x0 = px(fr, fmax(lr, fr->xlo));
			y = py(fr, lc);
			if (lr < fr->xhi)
				out(f, "<line class=\"compute-roof\" x1=\"%p\" "
				    "y1=\"%p\" x2=\"%d\" y2=\"%p\" "
				    "stroke-width=\"2\"/>\n", x0, y,
				    RF_X + RF_PW, y);
			if (positive(r->peak_tbs) && lr >= fr->xlo &&
			    lr <= fr->xhi)
				out(f, "<path class=\"ridge\" "
				    "data-flops-per-byte=\"%r\" d=\"M%p %pl5 "
				    "5l-5 5l-5 -5z\" fill=\"#222222\" "
				    "stroke=\"none\"/>\n", r->peak_tflops /
				    r->peak_tbs, x0, y - 5);
			for (k = 0; k < nl && l[k].i != i; k++)
				;
			x = RF_MX;
			if (fabs(l[k].at - l[k].pos) > 0.5)
				out(f, "<polyline fill=\"none\" stroke=\"#888888\" "
				    "stroke-dasharray=\"none\" points=\"%d,%p "
				    "%p,%p\"/>\n", RF_X + RF_PW, y, x - 2,
				    l[k].at);
			out(f, "<text class=\"roof-label\" x=\"%p\" y=\"%p\" "
			    "stroke=\"none\" fill=\"#222222\" font-size=\"11\">"
			    "%T \xc2\xb7 %G</text>\n", x, l[k].at + 4,
			    r->label, r->peak_tflops);
		}
		out(f, "</g>\n");
	}
	free(l);
}

/* The tooltip of a point. */
static void
put_point_title(FILE *f, const struct tl_chart_point *q,
    const struct tl_chart_roof *r)
{
	out(f, "<title>%T&#10;%t: %G FLOPs/byte, %G TFLOPS/s, %M ms",
	    q->label, q->category, q->flops_per_byte, q->tflops_s, q->time_us);
	if (r != NULL && roof_at(r, q->flops_per_byte) > 0) {
		out(f, "&#10;%f%% of its roof, %T", q->tflops_s /
		    roof_at(r, q->flops_per_byte) * 100, r->label);
		if (positive(r->peak_tflops))
			out(f, " %G TFLOPS/s (%t)", r->peak_tflops, r->kind);
		if (positive(r->peak_tbs))
			out(f, ", %G TB/s (%t)", r->peak_tbs, r->bw_kind);
	}
	out(f, "</title>");
}

static void
put_points(FILE *f, const struct plan *pl, const struct tl_chart_point *p,
    const struct ord *ord, size_t nv, double tmax)
{
	const struct frame *fr = &pl->fr;
	const struct tl_chart_roof *r;
	double cx, cy, rad, lx[RF_TOP], ly[RF_TOP];
	size_t i, k;

	out(f, "<g class=\"points\" data-x-decades=\"%d %d\" "
	    "data-y-decades=\"%d %d\" data-frame=\"%d %d %d %d\" "
	    "stroke=\"#222222\" stroke-width=\"0.6\" fill-opacity=\"0.75\">\n",
	    fr->xlo, fr->xhi, fr->ylo, fr->yhi, RF_X, RF_Y, RF_PW, RF_PH);
	for (i = 0; i < nv; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];

		r = roof_of(q, pl->r, pl->nr);
		cx = px(fr, log10(q->flops_per_byte));
		cy = py(fr, log10(q->tflops_s));
		out(f, "<circle class=\"point\" cx=\"%p\" cy=\"%p\" r=\"%p\" "
		    "fill=\"%s\" data-category=\"%t\" data-flops-per-byte=\"%r\" "
		    "data-tflops-s=\"%r\" data-time-us=\"%r\"", cx, cy,
		    radius(q->time_us, tmax), tl_chart_colour(q->category),
		    q->category, q->flops_per_byte, q->tflops_s, q->time_us);
		if (r != NULL && roof_at(r, q->flops_per_byte) > 0)
			out(f, " data-roof=\"%d\" data-pct-roof=\"%r\"", q->roof,
			    q->tflops_s / roof_at(r, q->flops_per_byte) * 100);
		out(f, ">");
		put_point_title(f, q, r);
		out(f, "</circle>\n");
	}
	out(f, "</g>\n");
	/*
	 * Numbers beside the longest points, white-edged to stay legible:
	 * above right of the point (left of it at the right edge, below it
	 * at the top), moved down from an earlier number they would cover.
	 */
	out(f, "<g class=\"ranks\" font-size=\"11\" font-weight=\"bold\" "
	    "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\n");
	for (i = 0; i < nv && i < RF_TOP; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];
		int right = 0;

		rad = radius(q->time_us, tmax) * 0.71 + 1;
		cx = px(fr, log10(q->flops_per_byte));
		cy = py(fr, log10(q->tflops_s));
		if (cx + rad + 8 > RF_X + RF_PW)
			right = 1;
		lx[i] = cx + (right ? -rad - 7 : rad);
		ly[i] = cy - rad < RF_Y + 10 ? cy + rad + 9 : cy - rad;
		for (k = 0; k < i; k++)
			if (fabs(lx[k] - lx[i]) < 9 && fabs(ly[k] - ly[i]) < 11) {
				ly[i] = ly[k] + 12;
				k = (size_t)-1;	/* check them all again */
			}
		out(f, "<text x=\"%p\" y=\"%p\">%d</text>\n", lx[i], ly[i],
		    (int)i + 1);
	}
	out(f, "</g>\n");
}

/* The legend's steps, so that its height is known before it is drawn. */
#define LG_HEAD		18.0	/* a section's heading */
#define LG_ROW		18.0	/* a category, a bandwidth */
#define LG_ROOF		30.0	/* a roof: two lines */
#define LG_GAP		14.0	/* between sections */
#define LG_ITEM		16.0	/* a longest point */

static double
legend_height(size_t nc, const struct plan *pl, size_t nv)
{
	double h = 4 + LG_HEAD + LG_ROW * (double)nc;

	if (pl->nroofs > 0)
		h += LG_GAP + LG_HEAD + LG_ROOF * (double)(pl->nroofs +
		    pl->nbw) - LG_ROOF + 18;
	if (nv > 0)
		h += LG_GAP + 10 + 2 * (2 * RF_RMAX + 4) + 16 +
		    LG_ITEM * (double)(nv < RF_TOP ? nv : RF_TOP);
	return h;
}

/* A line sample for the legend, in the dash of a roof. */
static void
put_sample(FILE *f, double y, const char *dash)
{
	out(f, "<line x1=\"%d\" y1=\"%p\" x2=\"%d\" y2=\"%p\" stroke=\"#222222\" "
	    "stroke-width=\"2\" stroke-dasharray=\"%s\"/>\n", RF_LX, y,
	    RF_LX + 28, y, dash);
}

static double
legend_roofs(FILE *f, const struct plan *pl, double y)
{
	const struct tl_chart_roof *r;
	size_t i, b, k;

	y += LG_GAP;
	out(f, "<text x=\"%d\" y=\"%p\" font-weight=\"bold\">Roofs</text>\n",
	    RF_LX, y);
	y += LG_HEAD;
	for (k = 0; k < pl->nroofs; k++) {
		i = pl->order[k];
		r = &pl->r[i];
		put_sample(f, y - 4, dashes[pl->dash[i]]);
		out(f, "<text x=\"%d\" y=\"%p\">%T", RF_LX + 34, y, r->label);
		/* No compute figure: its ops meet the memory roof only. */
		if (positive(r->peak_tflops))
			out(f, " \xc2\xb7 %G TFLOPS/s", r->peak_tflops);
		else
			out(f, " \xc2\xb7 no figure");
		out(f, "</text>\n<text x=\"%d\" y=\"%p\" font-size=\"11\" "
		    "fill=\"#555555\">", RF_LX + 34, y + 13);
		if (positive(r->peak_tflops))
			out(f, "%t \xc2\xb7 ", r->kind);
		else
			out(f, "memory roof only \xc2\xb7 ");
		out(f, "%d op%s</text>\n", pl->used[i], pl->used[i] == 1 ?
		    "" : "s");
		y += LG_ROOF;
	}
	for (b = 0; b < pl->nbw; b++) {
		for (i = 0; i < pl->nr; i++)
			if (drawn(pl, i) && pl->r[i].peak_tbs == pl->bw[b])
				break;
		put_sample(f, y - 4, "none");
		out(f, "<text x=\"%d\" y=\"%p\">", RF_LX + 34, y);
		if (pl->r[i].gpu != NULL && pl->r[i].gpu[0] != '\0')
			out(f, "%T ", pl->r[i].gpu);
		out(f, "memory \xc2\xb7 %G TB/s</text>\n<text x=\"%d\" y=\"%p\" "
		    "font-size=\"11\" fill=\"#555555\">%t</text>\n", pl->bw[b],
		    RF_LX + 34, y + 13, pl->r[i].bw_kind);
		y += LG_ROOF;
	}
	return y - LG_ROOF + 18;
}

/* The legend, the roofs, the size key and the list of the longest points. */
static void
put_legend(FILE *f, const struct tl_chart_point *p, const struct ord *ord,
    size_t nv, const struct cat *cat, size_t nc, const struct plan *pl,
    double tmax)
{
	double y = RF_Y + 4, r;
	size_t i;

	out(f, "<g class=\"legend\">\n<text x=\"%d\" y=\"%p\" "
	    "font-weight=\"bold\">Category</text>\n", RF_LX, y + 6);
	y += LG_HEAD;
	for (i = 0; i < nc; i++, y += LG_ROW) {
		tl_svg_swatch(f, RF_LX, y - 4, tl_chart_colour(cat[i].name));
		out(f, "<text x=\"%d\" y=\"%p\">%T (%d)</text>\n", RF_LX + 18,
		    y + 6, cat[i].name[0] != '\0' ? cat[i].name : "(none)",
		    cat[i].count);
	}
	if (pl->nroofs > 0)
		y = legend_roofs(f, pl, y);
	if (nv == 0) {
		out(f, "</g>\n");
		return;
	}
	y += LG_GAP;
	out(f, "<text x=\"%d\" y=\"%p\" font-weight=\"bold\">Marker area "
	    "\xe2\x88\x9d kernel time</text>\n", RF_LX, y);
	y += 10;
	/* Ellipses, not circles: the circles are the points. */
	for (i = 0; i < 2; i++) {
		double t = i == 0 ? tmax : tmax / 10;

		r = radius(t, tmax);
		out(f, "<ellipse cx=\"%p\" cy=\"%p\" rx=\"%p\" ry=\"%p\" "
		    "fill=\"#bbbbbb\" stroke=\"#333333\" stroke-width=\"0.6\"/>\n"
		    "<text x=\"%p\" y=\"%p\">%M ms</text>\n", RF_LX + RF_RMAX,
		    y + RF_RMAX, r, r, RF_LX + 2 * RF_RMAX + 8, y + RF_RMAX + 4,
		    t);
		y += 2 * RF_RMAX + 4;
	}
	y += 16;
	out(f, "<text x=\"%d\" y=\"%p\" font-weight=\"bold\">Longest</text>\n",
	    RF_LX, y);
	for (i = 0; i < nv && i < RF_TOP; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];

		y += LG_ITEM;
		out(f, "<text x=\"%d\" y=\"%p\" font-size=\"11\">"
		    "<tspan font-weight=\"bold\">%d</tspan> ", RF_LX, y,
		    (int)i + 1);
		tl_svg_text(f, q->label, 22);
		out(f, " (%M ms)<title>%T</title></text>\n", q->time_us,
		    q->label);
	}
	out(f, "</g>\n");
}

int
tl_svg_roofline(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_roof *r, size_t nr,
    const struct tl_chart_point *p, size_t n)
{
	double tmax = 0;
	struct plan pl;
	struct cat *cat;
	struct ord *ord;
	size_t nv = 0, nc, i;
	int h;

	ord = tl_calloc(n + 1, sizeof(*ord));
	for (i = 0; i < n; i++) {
		if (!valid(&p[i]))
			continue;
		ord[nv].i = i;
		ord[nv++].t = isfinite(p[i].time_us) ? p[i].time_us : 0;
		if (isfinite(p[i].time_us) && p[i].time_us > tmax)
			tmax = p[i].time_us;
	}
	qsort(ord, nv, sizeof(*ord), by_time);
	make_plan(&pl, r, nr, p, ord, nv);
	cat = tl_calloc(nv + 1, sizeof(*cat));
	nc = categories(p, ord, nv, cat);
	h = RF_H;
	if (RF_Y + legend_height(nc, &pl, nv) + 40 > h)
		h = (int)ceil(RF_Y + legend_height(nc, &pl, nv) + 40);

	tl_svg_begin(f, "tl-roofline", RF_W, h);
	out(f, " data-points=\"%d\" data-skipped=\"%d\" data-roofs=\"%d\">\n"
	    "<title>%T</title>\n<defs><clipPath id=\"tl-plot-area\"><rect "
	    "x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/></clipPath></defs>\n",
	    (int)nv, (int)(n - nv), (int)pl.nroofs, title, RF_X, RF_Y, RF_PW,
	    RF_PH);
	tl_svg_heading(f, RF_X, title);
	if (subtitle != NULL && subtitle[0] != '\0')
		tl_svg_subtitle(f, RF_X, "%T", subtitle);
	put_axes(f, &pl.fr);
	put_bandwidths(f, &pl);
	put_roofs(f, &pl);
	put_points(f, &pl, p, ord, nv, tmax);
	put_legend(f, p, ord, nv, cat, nc, &pl, tmax);
	if (nv < n)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#aa3333\">"
		    "%d point%s not plotted: arithmetic intensity or TFLOPS/s "
		    "is not a positive number</text>\n", RF_X, h - 10,
		    (int)(n - nv), n - nv == 1 ? "" : "s");
	else if (n == 0)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#555555\">"
		    "no ops to plot</text>\n", RF_X, h - 10);
	else if (pl.nroofs == 0)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#555555\">"
		    "no roof: the ops have no GPU figures</text>\n", RF_X,
		    h - 10);
	free_plan(&pl);
	free(cat);
	free(ord);
	return tl_svg_end(f);
}

/* The breakdown. */

enum {
	BD_W = 860,
	BD_X = 40, BD_BW = 780,	/* the bars */
	BD_BH = 34,
	BD_TOP = 44,		/* where the first bar's heading starts */
	BD_COLS = 3, BD_COLW = 260
};

/* Bars of names without a colour take these, in turn. */
static const char *const spare[] = {
	"#c49c94", "#9edae5", "#dbdb8d", "#f7b6d2", "#bab0ac", "#76b7b2"
};

static int
valid_bar(const struct tl_chart_bar *b)
{
	return isfinite(b->value_us) && b->value_us >= 0;
}

static const char *
bar_colour(const char *label, size_t *nspare)
{
	const char *c = tl_svg_colour(label);

	if (c == NULL)
		c = spare[(*nspare)++ % (sizeof(spare) / sizeof(spare[0]))];
	return c;
}

/* The height of a bar with its heading and legend. */
static double
bar_height(const struct tl_chart_bar *b, size_t n)
{
	size_t i, rows = 0;

	for (i = 0; i < n; i++)
		rows += valid_bar(&b[i]);
	rows = (rows + BD_COLS - 1) / BD_COLS;
	return 32 + BD_BH + 10 + 18.0 * (double)rows + 16;
}

/* One bar with its heading and legend, from y; the y under it. */
static double
put_bar(FILE *f, double y, const char *heading, const char *bar,
    const struct tl_chart_bar *b, size_t n)
{
	double total = 0, cum = 0, x, w, pct, y0 = y;
	const char *colour;
	size_t i, row = 0, nspare = 0;

	for (i = 0; i < n; i++)
		if (valid_bar(&b[i]))
			total += b[i].value_us;
	out(f, "<g class=\"bar\" data-bar=\"%s\" data-total-us=\"%r\">\n"
	    "<text x=\"%d\" y=\"%p\" font-size=\"14\" font-weight=\"bold\">"
	    "%t<tspan font-weight=\"normal\" fill=\"#555555\"> \xc2\xb7 total "
	    "%M ms</tspan></text>\n", bar, total, BD_X, y + 20, heading, total);
	y += 32;
	out(f, "<rect x=\"%d\" y=\"%p\" width=\"%d\" height=\"%d\" "
	    "fill=\"#f4f4f4\" stroke=\"#999999\"/>\n", BD_X, y, BD_BW, BD_BH);
	if (!(total > 0))
		out(f, "<text x=\"%d\" y=\"%p\" text-anchor=\"middle\" "
		    "fill=\"#555555\">no data</text>\n", BD_X + BD_BW / 2,
		    y + BD_BH / 2 + 4);
	for (i = 0; i < n && total > 0; i++) {
		if (!valid_bar(&b[i]))
			continue;
		colour = bar_colour(b[i].label, &nspare);
		x = BD_X + BD_BW * cum / total;
		cum += b[i].value_us;
		w = BD_X + BD_BW * cum / total - x;
		pct = b[i].value_us / total * 100;
		if (b[i].value_us == 0)
			continue;
		out(f, "<rect class=\"segment\" data-bar=\"%s\" data-label=\"%t\" "
		    "data-value-us=\"%r\" data-pct=\"%r\" x=\"%p\" y=\"%p\" "
		    "width=\"%p\" height=\"%d\" fill=\"%s\" stroke=\"#ffffff\" "
		    "stroke-width=\"1\"><title>%T: %M ms (%f%%)</title></rect>\n",
		    bar, b[i].label, b[i].value_us, pct, x, y, w, BD_BH, colour,
		    b[i].label, b[i].value_us, pct);
		if (w >= 110)
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
			    "font-size=\"11\" fill=\"%s\">%M ms \xc2\xb7 %f%%"
			    "</text>\n", x + w / 2, y + BD_BH / 2 + 4,
			    tl_svg_ink(colour), b[i].value_us, pct);
		else if (w >= 40)
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
			    "font-size=\"11\" fill=\"%s\">%f%%</text>\n", x + w / 2,
			    y + BD_BH / 2 + 4, tl_svg_ink(colour), pct);
	}
	/* The legend: every part, with its ms and %, in rows of three. */
	y += BD_BH + 10;
	nspare = 0;
	for (i = 0; i < n; i++) {
		if (!valid_bar(&b[i]))
			continue;
		colour = bar_colour(b[i].label, &nspare);
		x = BD_X + BD_COLW * (double)(row % BD_COLS);
		w = y + 18.0 * (double)(row / BD_COLS);
		tl_svg_swatch(f, x, w, colour);
		out(f, "<text x=\"%p\" y=\"%p\">%T<tspan fill=\"#555555\"> %M ms "
		    "(%f%%)</tspan></text>\n", x + 18, w + 10, b[i].label,
		    b[i].value_us, total > 0 ? b[i].value_us / total * 100 : 0.0);
		row++;
	}
	out(f, "</g>\n");
	return y0 + bar_height(b, n);
}

int
tl_svg_breakdown(FILE *f, const char *title, const char *tl_head,
    const struct tl_chart_bar *timeline, size_t nt,
    const struct tl_chart_bar *bycat, size_t nc)
{
	double y;
	int skipped = 0, h;
	size_t i;

	for (i = 0; i < nt; i++)
		skipped += !valid_bar(&timeline[i]);
	for (i = 0; i < nc; i++)
		skipped += !valid_bar(&bycat[i]);
	h = (int)ceil(BD_TOP + bar_height(timeline, nt) + bar_height(bycat, nc) +
	    (skipped > 0 ? 24 : 4));

	tl_svg_begin(f, "tl-breakdown", BD_W, h);
	out(f, " data-skipped=\"%d\">\n<title>%T</title>\n", skipped, title);
	tl_svg_heading(f, BD_X, title);
	y = put_bar(f, BD_TOP, tl_head != NULL ? tl_head : "GPU timeline",
	    "timeline", timeline, nt);
	put_bar(f, y, "Kernel time by category", "category", bycat, nc);
	if (skipped > 0)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#aa3333\">"
		    "%d value%s left out: not a number &#8805; 0</text>\n", BD_X,
		    h - 10, skipped, skipped == 1 ? "" : "s");
	return tl_svg_end(f);
}
