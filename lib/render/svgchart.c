/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/tsv.h"
#include "common/util.h"
#include "render/svgchart.h"
#include "stream/category.h"

#define FONTS	"DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif"
#define LABEL_MAX	200	/* characters of a label in a tooltip */
#define ELLIPSIS	"\xe2\x80\xa6"
#define REPLACEMENT	"\xef\xbf\xbd"
#define UNKNOWN_COLOUR	"#c49c94"

/*
 * The colours of the parts of the GPU timeline; the categories' colours
 * are in the category table.  Change none of them: a reader learns them.
 */
static const struct {
	const char *name, *colour;
} parts[] = {
	{ "computation", "#4e79a7" },
	{ "compute", "#4e79a7" },
	{ "exposed comm", "#59a14f" },
	{ "exposed memcpy", "#e15759" },
	{ "idle", "#d3d3d3" }
};

/* Bars of names without a colour take these, in turn. */
static const char *const spare[] = {
	UNKNOWN_COLOUR, "#9edae5", "#dbdb8d", "#f7b6d2", "#bab0ac", "#76b7b2"
};

static const double p10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15
};

/*
 * The colour of a category or timeline part ("exposed_comm_time" reads
 * as "exposed comm"), or NULL.
 */
static const char *
find_colour(const char *name)
{
	char key[32];
	size_t i, n;
	int c;

	if (name == NULL)
		return NULL;
	if ((c = tl_category_index(name)) >= 0)
		return tl_category(c)->colour;
	if ((n = strlen(name)) >= sizeof(key))
		return NULL;
	memcpy(key, name, n + 1);
	if (n > 5 && strcmp(key + n - 5, "_time") == 0)
		key[n - 5] = '\0';
	for (i = 0; key[i] != '\0'; i++)
		if (key[i] == '_')
			key[i] = ' ';
	if ((c = tl_category_index(key)) >= 0)
		return tl_category(c)->colour;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strcmp(parts[i].name, key) == 0)
			return parts[i].colour;
	return NULL;
}

const char *
tl_chart_colour(const char *name)
{
	const char *c = find_colour(name);

	return c != NULL ? c : UNKNOWN_COLOUR;
}

/* v rounded to dec decimals, trailing zeros dropped; no locale involved. */
static void
fmt_fixed(char *buf, size_t n, double v, int dec)
{
	long long i, q;
	double r;
	char *e;
	int neg = v < 0;

	if (!isfinite(v)) {
		buf[0] = '\0';
		return;
	}
	if (dec < 0)
		dec = 0;
	if (dec > 15)
		dec = 15;
	r = round(fabs(v) * p10[dec]);
	if (r >= 9e15) {
		tl_fmt_double(buf, n, v);
		return;
	}
	i = (long long)r;
	if (i == 0)
		neg = 0;
	q = (long long)p10[dec];
	if (dec == 0) {
		snprintf(buf, n, "%s%lld", neg ? "-" : "", i);
		return;
	}
	snprintf(buf, n, "%s%lld.%0*lld", neg ? "-" : "", i / q, dec, i % q);
	e = buf + strlen(buf);
	while (e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		e[-1] = '\0';
}

/* v to digits significant digits, for people. */
static void
fmt_sig(char *buf, size_t n, double v, int digits)
{
	int e;

	if (!isfinite(v) || v == 0) {
		fmt_fixed(buf, n, v, 0);
		return;
	}
	e = (int)floor(log10(fabs(v)));
	if (digits - 1 - e > 15)
		tl_fmt_double(buf, n, v);
	else
		fmt_fixed(buf, n, v, digits - 1 - e);
}

/*
 * s as XML text (character data or an attribute value): the five
 * special characters escaped, tab and newlines as references, other
 * control characters, U+FFFE/U+FFFF and bytes that are not UTF-8 as
 * U+FFFD; cut after max characters (0 = no limit) with an ellipsis.
 */
static void
put_text(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
	size_t nch = 0, len;
	unsigned c;

	for (; *p != '\0'; p += len, nch++) {
		if (max > 0 && nch == max) {
			fputs(ELLIPSIS, f);
			return;
		}
		c = *p;
		len = 1;
		if (c < 0x80) {
			switch (c) {
			case '&': fputs("&amp;", f); break;
			case '<': fputs("&lt;", f); break;
			case '>': fputs("&gt;", f); break;
			case '"': fputs("&quot;", f); break;
			case '\'': fputs("&apos;", f); break;
			case '\t': fputs("&#9;", f); break;
			case '\n': fputs("&#10;", f); break;
			case '\r': fputs("&#13;", f); break;
			default:
				if (c < 0x20 || c == 0x7f)
					fputs(REPLACEMENT, f);
				else
					putc((int)c, f);
			}
			continue;
		}
		if ((len = tl_utf8_len((const char *)p, 4)) == 0 ||
		    (c == 0xef && p[1] == 0xbf && p[2] >= 0xbe)) {
			fputs(REPLACEMENT, f);
			len = 1;
			continue;
		}
		fwrite(p, 1, len, f);
	}
}

/*
 * A printf for SVG text, independent of the locale:
 *   %s string as is           %t string escaped       %T escaped, cut
 *   %p double, 0.01 px        %r double, round trip   %g double, 3 digits
 *   %G double, 4 digits       %f double, 1 decimal    %d int
 *   %% a percent sign
 */
static void
out(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char buf[64];
	const char *s;

	va_start(ap, fmt);
	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			putc(*fmt, f);
			continue;
		}
		switch (*++fmt) {
		case 's':
			s = va_arg(ap, const char *);
			fputs(s != NULL ? s : "", f);
			break;
		case 't':
			put_text(f, va_arg(ap, const char *), 0);
			break;
		case 'T':
			put_text(f, va_arg(ap, const char *), LABEL_MAX);
			break;
		case 'p':
			fmt_fixed(buf, sizeof(buf), va_arg(ap, double), 2);
			fputs(buf, f);
			break;
		case 'r':
			tl_fmt_double(buf, sizeof(buf), va_arg(ap, double));
			fputs(buf, f);
			break;
		case 'g':
		case 'G':
			fmt_sig(buf, sizeof(buf), va_arg(ap, double),
			    *fmt == 'g' ? 3 : 4);
			fputs(buf, f);
			break;
		case 'f':
			fmt_fixed(buf, sizeof(buf), va_arg(ap, double), 1);
			/* Keep the decimal: "45.0%" lines up with "45.6%". */
			fputs(buf, f);
			if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
				fputs(".0", f);
			break;
		case 'd':
			fprintf(f, "%d", va_arg(ap, int));
			break;
		case '%':
			putc('%', f);
			break;
		default:
			abort();	/* a bad format is a bug here */
		}
	}
	va_end(ap);
}

static void
begin_svg(FILE *f, const char *cls, int w, int h)
{
	out(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"%s\" font-size=\"12\" class=\"%s\"", w, h, w, h,
	    FONTS, cls);
}

static int
end_svg(FILE *f)
{
	out(f, "</svg>\n");
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* The chart title in the top left corner, and the subtitle under it. */
static void
put_heading(FILE *f, double x, const char *title)
{
	out(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
	    "<text class=\"title\" x=\"%p\" y=\"30\" font-size=\"18\" "
	    "font-weight=\"bold\" fill=\"#222222\">%T</text>\n", x, title);
}

/* A legend swatch: a square, so that a roofline's circles stay its points. */
static void
put_swatch(FILE *f, double x, double y, const char *colour)
{
	out(f, "<rect x=\"%p\" y=\"%p\" width=\"12\" height=\"12\" rx=\"2\" "
	    "fill=\"%s\" stroke=\"#333333\" stroke-width=\"0.6\"/>\n", x, y,
	    colour);
}

/* The roofline. */

enum {
	RF_W = 900,			/* width */
	RF_H = 560,			/* least height */
	RF_X = 84, RF_Y = 64,		/* plot area */
	RF_PW = 536, RF_PH = 420,
	RF_LX = RF_X + RF_PW + 28,	/* legend */
	RF_TOP = 5			/* points numbered and listed */
};
#define RF_RMAX	18.0	/* radius of the longest point */
#define RF_RMIN	2.5	/* radius of the shortest */

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
valid(const struct tl_chart_point *p)
{
	return isfinite(p->flops_per_byte) && p->flops_per_byte > 0 &&
	    isfinite(p->tflops_s) && p->tflops_s > 0;
}

static double
radius(double t, double tmax)
{
	double r = RF_RMIN;

	if (isfinite(t) && t > 0 && tmax > 0)
		r = RF_RMAX * sqrt(t / tmax);
	return r < RF_RMIN ? RF_RMIN : r;
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
 * The roof min(peak_tflops, peak_tbs * x) in log space: the bandwidth
 * line has slope 1 and passes (0, lb), the compute roof is flat at lc.
 */
static void
put_roof(FILE *f, const struct frame *fr, int has_c, double lc, int has_b,
    double lb, double peak_tflops, double peak_tbs)
{
	double lr = lc - lb, end, mid, ang;

	if (!has_c && !has_b)
		return;
	out(f, "<polyline class=\"roof\" clip-path=\"url(#tl-plot-area)\" "
	    "fill=\"none\" stroke=\"#222222\" stroke-width=\"2\"");
	if (has_c)
		out(f, " data-peak-tflops=\"%r\"", peak_tflops);
	if (has_b)
		out(f, " data-peak-tbs=\"%r\"", peak_tbs);
	out(f, " points=\"");
	if (has_c && has_b)
		out(f, "%p,%p %p,%p %p,%p", px(fr, fr->xlo), py(fr, lb + fr->xlo),
		    px(fr, lr), py(fr, lc), px(fr, fr->xhi), py(fr, lc));
	else if (has_c)
		out(f, "%p,%p %p,%p", px(fr, fr->xlo), py(fr, lc),
		    px(fr, fr->xhi), py(fr, lc));
	else
		out(f, "%p,%p %p,%p", px(fr, fr->xlo), py(fr, lb + fr->xlo),
		    px(fr, fr->xhi), py(fr, lb + fr->xhi));
	out(f, "\"/>\n");

	if (has_c)
		out(f, "<text class=\"roof-label\" x=\"%d\" y=\"%p\" "
		    "text-anchor=\"end\" fill=\"#222222\">compute roof %G "
		    "TFLOPS/s</text>\n", RF_X + RF_PW - 6, py(fr, lc) - 7,
		    peak_tflops);
	if (has_b) {
		/* Along the visible part of the bandwidth line. */
		end = has_c ? lr : fr->xhi;
		if (end > fr->yhi - lb)
			end = fr->yhi - lb;
		mid = fr->xlo + (end - fr->xlo) / 2;
		ang = -atan(((double)RF_PH / (fr->yhi - fr->ylo)) /
		    ((double)RF_PW / (fr->xhi - fr->xlo))) * 180 / 3.14159265358979323846;
		out(f, "<text class=\"roof-label\" transform=\"translate(%p %p) "
		    "rotate(%p)\" y=\"-7\" text-anchor=\"middle\" "
		    "fill=\"#222222\">memory roof %G TB/s</text>\n",
		    px(fr, mid), py(fr, lb + mid), ang, peak_tbs);
	}
	if (has_c && has_b) {
		double x = px(fr, lr), y = py(fr, lc);

		out(f, "<g class=\"ridge\" data-flops-per-byte=\"%r\">\n"
		    "<line x1=\"%p\" y1=\"%p\" x2=\"%p\" y2=\"%d\" "
		    "stroke=\"#555555\" stroke-dasharray=\"4 3\"/>\n"
		    "<path d=\"M%p %pl6 6l-6 6l-6 -6z\" fill=\"#222222\"/>\n"
		    "<text x=\"%p\" y=\"%d\" fill=\"#555555\" font-size=\"11\">"
		    "ridge %G FLOPs/byte</text>\n</g>\n",
		    peak_tflops / peak_tbs, x, y, x, RF_Y + RF_PH, x, y - 6,
		    x + 5, RF_Y + RF_PH - 8, peak_tflops / peak_tbs);
	}
}

/* The tooltip numbers of a point. */
static void
put_point_title(FILE *f, const struct tl_chart_point *q, int has_c,
    int has_b, double peak_tflops, double peak_tbs)
{
	double roof;

	out(f, "<title>%T&#10;%t: %G FLOPs/byte, %G TFLOPS/s, %G ms",
	    q->label, q->category, q->flops_per_byte, q->tflops_s,
	    q->time_us / 1000);
	if (has_c && has_b) {
		roof = peak_tbs * q->flops_per_byte;
		if (roof > peak_tflops)
			roof = peak_tflops;
		out(f, ", %g%% of roof", q->tflops_s / roof * 100);
	}
	out(f, "</title>");
}

/* The legend, the size key and the list of the longest points. */
static void
put_legend(FILE *f, const struct tl_chart_point *p, const struct ord *ord,
    size_t nv, const struct cat *cat, size_t nc, double tmax)
{
	double y = RF_Y + 4, r;
	size_t i;

	out(f, "<g class=\"legend\">\n<text x=\"%d\" y=\"%p\" "
	    "font-weight=\"bold\">Category</text>\n", RF_LX, y + 6);
	y += 18;
	for (i = 0; i < nc; i++, y += 18) {
		put_swatch(f, RF_LX, y - 4, tl_chart_colour(cat[i].name));
		out(f, "<text x=\"%d\" y=\"%p\">%T (%d)</text>\n", RF_LX + 18,
		    y + 6, cat[i].name[0] != '\0' ? cat[i].name : "(none)",
		    cat[i].count);
	}
	if (nv == 0) {
		out(f, "</g>\n");
		return;
	}
	y += 14;
	out(f, "<text x=\"%d\" y=\"%p\" font-weight=\"bold\">Marker area "
	    "\xe2\x88\x9d kernel time</text>\n", RF_LX, y);
	y += 10;
	if (tmax > 0) {
		/* Ellipses, not circles: the circles are the points. */
		for (i = 0; i < 2; i++) {
			double t = i == 0 ? tmax : tmax / 10;

			r = radius(t, tmax);
			out(f, "<ellipse cx=\"%p\" cy=\"%p\" rx=\"%p\" ry=\"%p\" "
			    "fill=\"#bbbbbb\" stroke=\"#333333\" "
			    "stroke-width=\"0.6\"/>\n<text x=\"%p\" y=\"%p\">%g "
			    "ms</text>\n", RF_LX + RF_RMAX, y + RF_RMAX, r, r,
			    RF_LX + 2 * RF_RMAX + 8, y + RF_RMAX + 4, t / 1000);
			y += 2 * RF_RMAX + 4;
		}
	}
	y += 16;
	out(f, "<text x=\"%d\" y=\"%p\" font-weight=\"bold\">Longest</text>\n",
	    RF_LX, y);
	for (i = 0; i < nv && i < RF_TOP; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];

		y += 16;
		out(f, "<text x=\"%d\" y=\"%p\" font-size=\"11\">"
		    "<tspan font-weight=\"bold\">%d</tspan> ", RF_LX, y,
		    (int)i + 1);
		put_text(f, q->label, 24);
		out(f, " (%g ms)<title>%T</title></text>\n", q->time_us / 1000,
		    q->label);
	}
	out(f, "</g>\n");
}

int
tl_svg_roofline(FILE *f, const char *title, const char *hw,
    double peak_tflops, double peak_tbs,
    const struct tl_chart_point *p, size_t n)
{
	double lxmin = HUGE_VAL, lxmax = -HUGE_VAL, lymin = HUGE_VAL;
	double lymax = -HUGE_VAL, lc = 0, lb = 0, lr, tmax = 0, lx, ly;
	double legend_end, cx, cy, r;
	struct frame fr;
	struct cat *cat;
	struct ord *ord;
	size_t nv = 0, nc, i;
	int has_c, has_b, h;

	has_c = isfinite(peak_tflops) && peak_tflops > 0;
	has_b = isfinite(peak_tbs) && peak_tbs > 0;
	if (has_c)
		lc = log10(peak_tflops);
	if (has_b)
		lb = log10(peak_tbs);
	ord = tl_calloc(n + 1, sizeof(*ord));
	for (i = 0; i < n; i++) {
		if (!valid(&p[i]))
			continue;
		ord[nv].i = i;
		ord[nv++].t = isfinite(p[i].time_us) ? p[i].time_us : 0;
		lx = log10(p[i].flops_per_byte);
		ly = log10(p[i].tflops_s);
		lxmin = fmin(lxmin, lx);
		lxmax = fmax(lxmax, lx);
		lymin = fmin(lymin, ly);
		lymax = fmax(lymax, ly);
		if (isfinite(p[i].time_us) && p[i].time_us > tmax)
			tmax = p[i].time_us;
	}
	qsort(ord, nv, sizeof(*ord), by_time);

	/* Axis ranges: whole decades around the points and the ridge. */
	if (has_c && has_b) {
		lr = lc - lb;
		lxmin = fmin(lxmin, lr - 1);
		lxmax = fmax(lxmax, lr + 1);
	}
	if (lxmin > lxmax)
		lxmin = 0, lxmax = 3;
	fr.xlo = (int)floor(lxmin - 0.05);
	fr.xhi = (int)ceil(lxmax + 0.05);
	if (has_c) {
		lymin = fmin(lymin, lc);
		lymax = fmax(lymax, lc);
	}
	if (has_b)	/* where the bandwidth roof enters the plot */
		lymin = fmin(lymin, lb + fr.xlo);
	if (has_b && !has_c)
		lymax = fmax(lymax, lb + fr.xlo);
	if (lymin > lymax)
		lymin = -1, lymax = 3;
	fr.ylo = (int)floor(lymin - 0.05);
	fr.yhi = (int)ceil(lymax + 0.05);

	cat = tl_calloc(nv + 1, sizeof(*cat));
	nc = categories(p, ord, nv, cat);
	/* Tall enough for the legend (put_legend's steps). */
	h = RF_H;
	legend_end = RF_Y + 4 + 18 + 18.0 * nc + 14 + 10 + 2 * (2 * RF_RMAX + 4) +
	    16 + 16.0 * (nv < RF_TOP ? nv : RF_TOP);
	if (legend_end + 40 > h)
		h = (int)ceil(legend_end + 40);

	begin_svg(f, "tl-roofline", RF_W, h);
	out(f, " data-points=\"%d\" data-skipped=\"%d\">\n", (int)nv,
	    (int)(n - nv));
	out(f, "<title>%T", title);
	if (hw != NULL && hw[0] != '\0')
		out(f, " (%T)", hw);
	out(f, "</title>\n<defs><clipPath id=\"tl-plot-area\"><rect x=\"%d\" "
	    "y=\"%d\" width=\"%d\" height=\"%d\"/></clipPath></defs>\n",
	    RF_X, RF_Y, RF_PW, RF_PH);
	put_heading(f, RF_X, title);
	out(f, "<text class=\"subtitle\" x=\"%d\" y=\"50\" fill=\"#555555\">",
	    RF_X);
	if (hw != NULL && hw[0] != '\0')
		out(f, "%T: ", hw);
	if (has_c)
		out(f, "compute roof %G TFLOPS/s", peak_tflops);
	else
		out(f, "compute roof unknown");
	if (has_b)
		out(f, ", memory roof %G TB/s", peak_tbs);
	else
		out(f, ", memory roof unknown");
	if (has_c && has_b)
		out(f, ", ridge at %G FLOPs/byte", peak_tflops / peak_tbs);
	out(f, "</text>\n");

	put_axes(f, &fr);
	put_roof(f, &fr, has_c, lc, has_b, lb, peak_tflops, peak_tbs);

	out(f, "<g class=\"points\" data-x-decades=\"%d %d\" "
	    "data-y-decades=\"%d %d\" data-frame=\"%d %d %d %d\" "
	    "stroke=\"#222222\" stroke-width=\"0.6\" fill-opacity=\"0.75\">\n",
	    fr.xlo, fr.xhi, fr.ylo, fr.yhi, RF_X, RF_Y, RF_PW, RF_PH);
	for (i = 0; i < nv; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];

		cx = px(&fr, log10(q->flops_per_byte));
		cy = py(&fr, log10(q->tflops_s));
		out(f, "<circle class=\"point\" cx=\"%p\" cy=\"%p\" r=\"%p\" "
		    "fill=\"%s\" data-category=\"%t\" data-flops-per-byte=\"%r\" "
		    "data-tflops-s=\"%r\" data-time-us=\"%r\">", cx, cy,
		    radius(q->time_us, tmax), tl_chart_colour(q->category),
		    q->category, q->flops_per_byte, q->tflops_s, q->time_us);
		put_point_title(f, q, has_c, has_b, peak_tflops, peak_tbs);
		out(f, "</circle>\n");
	}
	out(f, "</g>\n");
	/* Numbers beside the longest points, white-edged to stay legible. */
	out(f, "<g class=\"ranks\" font-size=\"11\" font-weight=\"bold\" "
	    "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\n");
	for (i = 0; i < nv && i < RF_TOP; i++) {
		const struct tl_chart_point *q = &p[ord[i].i];

		r = radius(q->time_us, tmax);
		cx = px(&fr, log10(q->flops_per_byte)) + r * 0.71 + 1;
		cy = py(&fr, log10(q->tflops_s)) - r * 0.71 - 1;
		out(f, "<text x=\"%p\" y=\"%p\">%d</text>\n", cx, cy, (int)i + 1);
	}
	out(f, "</g>\n");

	put_legend(f, p, ord, nv, cat, nc, tmax);
	if (nv < n)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#aa3333\">"
		    "%d point%s not plotted: arithmetic intensity or TFLOPS/s "
		    "is not a positive number</text>\n", RF_X, h - 10,
		    (int)(n - nv), n - nv == 1 ? "" : "s");
	else if (n == 0)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#555555\">"
		    "no ops to plot</text>\n", RF_X, h - 10);
	free(cat);
	free(ord);
	return end_svg(f);
}

/* The breakdown. */

enum {
	BD_W = 860,
	BD_X = 40, BD_BW = 780,	/* the bars */
	BD_BH = 34,
	BD_TOP = 44,		/* where the first bar's heading starts */
	BD_COLS = 3, BD_COLW = 260
};

static int
valid_bar(const struct tl_chart_bar *b)
{
	return isfinite(b->value_us) && b->value_us >= 0;
}

/* Dark text on light colours, white on dark ones. */
static const char *
ink(const char *colour)
{
	unsigned r, g, b;

	if (sscanf(colour, "#%2x%2x%2x", &r, &g, &b) != 3)
		return "#000000";
	return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? "#ffffff" : "#111111";
}

static const char *
bar_colour(const char *label, size_t *nspare)
{
	const char *c = find_colour(label);

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
	    "%s<tspan font-weight=\"normal\" fill=\"#555555\"> \xc2\xb7 total "
	    "%G ms</tspan></text>\n", bar, total, BD_X, y + 20, heading,
	    total / 1000);
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
		    "stroke-width=\"1\"><title>%T: %G ms (%f%%)</title></rect>\n",
		    bar, b[i].label, b[i].value_us, pct, x, y, w, BD_BH, colour,
		    b[i].label, b[i].value_us / 1000, pct);
		if (w >= 100)
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
			    "font-size=\"11\" fill=\"%s\">%G ms \xc2\xb7 %f%%"
			    "</text>\n", x + w / 2, y + BD_BH / 2 + 4, ink(colour),
			    b[i].value_us / 1000, pct);
		else if (w >= 40)
			out(f, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
			    "font-size=\"11\" fill=\"%s\">%f%%</text>\n", x + w / 2,
			    y + BD_BH / 2 + 4, ink(colour), pct);
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
		put_swatch(f, x, w, colour);
		out(f, "<text x=\"%p\" y=\"%p\">%T<tspan fill=\"#555555\"> %G ms "
		    "(%f%%)</tspan></text>\n", x + 18, w + 10, b[i].label,
		    b[i].value_us / 1000, total > 0 ? b[i].value_us / total * 100 : 0.0);
		row++;
	}
	out(f, "</g>\n");
	return y0 + bar_height(b, n);
}

int
tl_svg_breakdown(FILE *f, const char *title,
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

	begin_svg(f, "tl-breakdown", BD_W, h);
	out(f, " data-skipped=\"%d\">\n<title>%T</title>\n", skipped, title);
	put_heading(f, BD_X, title);
	y = put_bar(f, BD_TOP, "GPU timeline", "timeline", timeline, nt);
	put_bar(f, y, "Kernel time by category", "category", bycat, nc);
	if (skipped > 0)
		out(f, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#aa3333\">"
		    "%d value%s left out: not a number &#8805; 0</text>\n", BD_X,
		    h - 10, skipped, skipped == 1 ? "" : "s");
	return end_svg(f);
}
