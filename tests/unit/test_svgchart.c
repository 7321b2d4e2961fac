/* See LICENSE file for copyright and license details. */
/*
 * The SVG charts: one circle per plotted point at the coordinates of its
 * numbers, bad points skipped and counted, the roof and the ridge,
 * escaping, fixed colours, byte-identical output, write errors.  With
 * TL_SVG_OUT=DIR the charts are also left in DIR for tests/svgcheck.sh
 * (xmllint, headless Chromium).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tsv.h"
#include "render/svgchart.h"
#include "stream/category.h"
#include "unit.h"

#define PEAK_TFLOPS	1307.4
#define PEAK_TBS	5.3

static const char long_label[] =
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxx";	/* 300 characters */

/* Plotted: the first NGOOD; then NBAD that must be skipped. */
#define NGOOD	9
#define NBAD	4
static struct tl_chart_point pts[NGOOD + NBAD] = {
	{ "aten::mm [4096x4096, 4096x4096] bf16", "gemm", 0, 650.2, 2100.5 },
	{ "aten::convolution [32x64x56x56]", "conv", 120.5, 210.3, 900 },
	{ "aten::_scaled_dot_product_flash_attention", "attention", 512,
	    380.25, 1500 },
	{ "aten::add [1024x4096]", "elementwise", 0.08333333333333333, 0.41,
	    350 },
	{ "aten::native_layer_norm", "layernorm", 1.2, 2.9, 120.125 },
	{ "my::op", "mycat", 10, 5, 0 },
	{ "aten::where<bool> & \"x\" 'y'", "elementwise", 0.25, 0.9, 60 },
	{ long_label, "reduce", 3, 1, 10 },
	{ "bad \xff\xfe utf8 \x01 ctl", "other", 30, 12, 1e-3 },
	{ "zero x", "gemm", 0, 10, 5 },
	{ "negative y", "gemm", 10, -1, 5 },
	{ "nan x", "gemm", NAN, 10, 5 },
	{ "inf y", "gemm", 10, INFINITY, 5 },
};

static char *
chart(int roofline, double peak_tflops, double peak_tbs,
    const struct tl_chart_point *p, size_t n, int *rc)
{
	static const struct tl_chart_bar tl[] = {
		{ "computation", 8000 }, { "exposed comm", 1500 },
		{ "exposed memcpy", 0 }, { "idle", 500 }
	};
	static const struct tl_chart_bar cat[] = {
		{ "gemm", 4000 }, { "attention", 2500 }, { "conv", 900 },
		{ "elementwise", 600 }, { "other", -5 }, { "reduce", NAN }
	};
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	if (fp == NULL) {
		perror("open_memstream");
		exit(1);
	}
	if (roofline)
		*rc = tl_svg_roofline(fp, "Roofline <test> & co", "MI300X",
		    peak_tflops, peak_tbs, p, n);
	else if (n > 0)
		*rc = tl_svg_breakdown(fp, "GPU time", tl, 4, cat, 6);
	else
		*rc = tl_svg_breakdown(fp, "GPU time", NULL, 0, NULL, 0);
	fclose(fp);
	return text;
}

/* The value of attribute name in the element starting at e. */
static const char *
attr(const char *e, const char *name)
{
	static char buf[4][512];
	static int k;
	char key[64];
	const char *end = strchr(e, '>'), *a, *q;
	char *b = buf[k++ % 4];

	snprintf(key, sizeof(key), " %s=\"", name);
	a = strstr(e, key);
	if (a == NULL || end == NULL || a > end)
		return "(none)";
	a += strlen(key);
	q = strchr(a, '"');
	snprintf(b, sizeof(buf[0]), "%.*s", (int)(q - a), a);
	return b;
}

/* The element (from its '<') that holds the text at p, p within s. */
static const char *
elem(const char *s, const char *p)
{
	if (p == NULL)
		return "";
	while (p > s && *p != '<')
		p--;
	return p;
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

static const char *
fmt(double d)
{
	static char buf[4][40];
	static int k;
	char *b = buf[k++ % 4];

	tl_fmt_double(b, 40, d);
	return b;
}

static void
save(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *fp;

	if (dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) == EOF ||
	    fclose(fp) != 0) {
		perror(path);
		exit(1);
	}
}

static void
check_roofline(const char *s)
{
	double fx, fy, fw, fh, cx, cy, rx, ridge = PEAK_TFLOPS / PEAK_TBS;
	int xlo, xhi, ylo, yhi, i, found;
	const char *g, *c, *e;
	char want[512], x[300];

	CHECK(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
	    "xmlns=\"http://www.w3.org/2000/svg\"", 77) == 0);
	CHECK(strstr(s, " width=\"900\" height=\"560\" viewBox=\"0 0 900 560\"")
	    != NULL);
	CHECK(strstr(s, "font-family=\"DejaVu Sans, Liberation Sans, Helvetica, "
	    "Arial, sans-serif\"") != NULL);
	CHECK_STR(attr(strstr(s, "<svg "), "data-points"), "9");
	CHECK_STR(attr(strstr(s, "<svg "), "data-skipped"), "4");
	CHECK(count(s, "<circle") == NGOOD);
	CHECK(count(s, "<circle class=\"point\"") == NGOOD);
	CHECK(strstr(s, ">4 points not plotted: ") != NULL);
	CHECK(strstr(s, "Arithmetic intensity (FLOPs/byte)</text>") != NULL);
	CHECK(strstr(s, "Achieved TFLOPS/s</text>") != NULL);

	/* Ranges: the points and a decade either side of the ridge (246.7). */
	g = strstr(s, "<g class=\"points\"");
	CHECK(g != NULL);
	CHECK_STR(attr(g, "data-x-decades"), "-2 4");
	CHECK_STR(attr(g, "data-y-decades"), "-2 4");
	CHECK_STR(attr(g, "data-frame"), "84 64 536 420");
	sscanf(attr(g, "data-x-decades"), "%d %d", &xlo, &xhi);
	sscanf(attr(g, "data-y-decades"), "%d %d", &ylo, &yhi);
	sscanf(attr(g, "data-frame"), "%lf %lf %lf %lf", &fx, &fy, &fw, &fh);

	/* Each good point: exactly one circle, where its numbers put it. */
	for (i = 0; i < NGOOD; i++) {
		const struct tl_chart_point *p = &pts[i];

		found = 0;
		for (c = s; (c = strstr(c, "<circle ")) != NULL; c++) {
			if (strcmp(attr(c, "data-flops-per-byte"),
			    fmt(p->flops_per_byte)) != 0 ||
			    strcmp(attr(c, "data-tflops-s"), fmt(p->tflops_s)) != 0)
				continue;
			found++;
			CHECK_STR(attr(c, "data-time-us"), fmt(p->time_us));
			CHECK_STR(attr(c, "data-category"), p->category);
			CHECK_STR(attr(c, "fill"), tl_chart_colour(p->category));
			cx = fx + fw * (log10(p->flops_per_byte) - xlo) / (xhi - xlo);
			cy = fy + fh * (yhi - log10(p->tflops_s)) / (yhi - ylo);
			CHECK(fabs(atof(attr(c, "cx")) - cx) <= 0.005);
			CHECK(fabs(atof(attr(c, "cy")) - cy) <= 0.005);
			CHECK(strstr(c, "<title>") < strstr(c, "</circle>"));
		}
		CHECK(found == 1);
	}
	/* The longest point has the largest marker, the zero-time one the least. */
	c = elem(s, strstr(s, "data-flops-per-byte=\"1365.3333333333333\""));
	CHECK(c == strstr(s, "<circle "));
	CHECK_STR(attr(c, "r"), "18");
	c = elem(s, strstr(s, "data-category=\"mycat\""));
	CHECK_STR(attr(c, "r"), "2.5");
	CHECK_STR(attr(c, "fill"), tl_chart_colour("no such category"));

	/* Roof and ridge. */
	snprintf(want, sizeof(want), "<g class=\"ridge\" data-flops-per-byte="
	    "\"%s\">", fmt(ridge));
	CHECK(strstr(s, want) != NULL);
	CHECK_STR(fmt(ridge), "246.6792452830189");
	e = strstr(s, "<polyline class=\"roof\"");
	CHECK(e != NULL);
	CHECK_STR(attr(e, "data-peak-tflops"), "1307.4");
	CHECK_STR(attr(e, "data-peak-tbs"), "5.3");
	/* The vertices: left edge on the bandwidth line, ridge, right edge. */
	{
		double x0, y0, x1, y1, x2, y2;

		CHECK(sscanf(attr(e, "points"), "%lf,%lf %lf,%lf %lf,%lf", &x0,
		    &y0, &x1, &y1, &x2, &y2) == 6);
		CHECK(x0 == fx && x2 == fx + fw && y1 == y2);
		rx = fx + fw * (log10(ridge) - xlo) / (xhi - xlo);
		CHECK(fabs(x1 - rx) <= 0.005);
		CHECK(fabs(y1 - (fy + fh * (yhi - log10(PEAK_TFLOPS)) /
		    (yhi - ylo))) <= 0.005);
		CHECK(fabs(y0 - (fy + fh * (yhi - (log10(PEAK_TBS) + xlo)) /
		    (yhi - ylo))) <= 0.005);
	}
	CHECK(strstr(s, "MI300X: compute roof 1307 TFLOPS/s, memory roof 5.3 "
	    "TB/s, ridge at 246.7 FLOPs/byte</text>") != NULL);

	/* Escaping, cutting long labels, bad UTF-8 and control characters. */
	CHECK(strstr(s, "<title>Roofline &lt;test&gt; &amp; co (MI300X)</title>")
	    != NULL);
	CHECK(strstr(s, "<title>aten::where&lt;bool&gt; &amp; &quot;x&quot; "
	    "&apos;y&apos;&#10;elementwise: 0.25 FLOPs/byte, 0.9 TFLOPS/s, "
	    "0.06 ms, 67.9% of roof</title>") != NULL);
	CHECK(strstr(s, "<bool>") == NULL);
	memset(x, 'x', 200);
	strcpy(x + 200, "\xe2\x80\xa6&#10;reduce");
	CHECK(strstr(s, x) != NULL);
	memset(x, 'x', 201);
	x[201] = '\0';
	CHECK(strstr(s, x) == NULL);
	CHECK(strstr(s, "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd ctl")
	    != NULL);
	CHECK(strstr(s, "\xff") == NULL);

	/* Legend: categories present, table order, unknown ones last. */
	c = strstr(s, ">gemm (1)</text>");
	e = strstr(s, ">elementwise (2)</text>");
	CHECK(c != NULL && e != NULL && c < e);
	CHECK(e != NULL && strstr(e, ">mycat (1)</text>") != NULL);
	CHECK(strstr(s, ">conv (1)</text>") != NULL);
	CHECK(strstr(s, "(none)") == NULL);
}

static void
check_breakdown(const char *s)
{
	const char *c;

	CHECK(strstr(s, "class=\"tl-breakdown\" data-skipped=\"2\">") != NULL);
	CHECK(count(s, "<rect class=\"segment\" data-bar=\"timeline\"") == 3);
	CHECK(count(s, "<rect class=\"segment\" data-bar=\"category\"") == 4);
	CHECK(strstr(s, "<g class=\"bar\" data-bar=\"timeline\" "
	    "data-total-us=\"10000\">") != NULL);
	CHECK(strstr(s, "<g class=\"bar\" data-bar=\"category\" "
	    "data-total-us=\"8000\">") != NULL);
	c = elem(s, strstr(s, "data-label=\"computation\""));
	CHECK_STR(attr(c, "data-value-us"), "8000");
	CHECK_STR(attr(c, "data-pct"), "80");
	CHECK_STR(attr(c, "x"), "40");
	CHECK_STR(attr(c, "width"), "624");
	CHECK_STR(attr(c, "fill"), tl_chart_colour("computation"));
	c = elem(s, strstr(s, "data-label=\"exposed comm\""));
	CHECK_STR(attr(c, "x"), "664");
	CHECK_STR(attr(c, "width"), "117");
	CHECK_STR(attr(c, "data-pct"), "15");
	CHECK(strstr(s, ">8 ms \xc2\xb7 80.0%</text>") != NULL);
	CHECK(strstr(s, "<title>exposed comm: 1.5 ms (15.0%)</title>") != NULL);
	/* A zero part has no segment but keeps its legend line. */
	CHECK(strstr(s, "data-label=\"exposed memcpy\"") == NULL);
	CHECK(strstr(s, ">exposed memcpy<tspan fill=\"#555555\"> 0 ms (0.0%)")
	    != NULL);
	c = elem(s, strstr(s, "data-label=\"attention\""));
	CHECK_STR(attr(c, "data-pct"), "31.25");
	CHECK_STR(attr(c, "fill"), tl_chart_colour("attention"));
	CHECK(strstr(s, ">gemm<tspan fill=\"#555555\"> 4 ms (50.0%)") != NULL);
	CHECK(strstr(s, "2 values left out") != NULL);
	CHECK(strstr(s, "data-label=\"other\"") == NULL);
	CHECK(strstr(s, "data-label=\"reduce\"") == NULL);
}

int
main(void)
{
	const char *dir = getenv("TL_SVG_OUT");
	char *a, *b;
	int rc, i, j;
	FILE *full;
	struct tl_chart_point wide[2] = {
		{ "tiny", "gemm", 1e-30, 1e-3, 1 },
		{ "huge", "conv", 1e30, 1e6, 2 }
	};

	/* 2 * 4096^3 FLOPs over 3 * 4096^2 bf16 elements. */
	pts[0].flops_per_byte = 2.0 * 4096 * 4096 * 4096 / (3.0 * 4096 * 4096 * 2);

	/* Colours: one per category, fixed, none the unknown one. */
	CHECK_STR(tl_chart_colour("gemm"), "#1f77b4");
	CHECK_STR(tl_chart_colour("exposed_comm_time"),
	    tl_chart_colour("exposed comm"));
	for (i = 0; i < tl_ncategories(); i++) {
		const char *v = tl_category(i)->value;

		CHECK_STR(tl_chart_colour(v), tl_category(i)->colour);
		CHECK(strcmp(tl_chart_colour(v),
		    tl_chart_colour("no such category")) != 0);
		for (j = 0; j < i; j++)
			CHECK(strcmp(tl_chart_colour(v),
			    tl_chart_colour(tl_category(j)->value)) != 0);
	}

	a = chart(1, PEAK_TFLOPS, PEAK_TBS, pts, NGOOD + NBAD, &rc);
	CHECK(rc == 0);
	check_roofline(a);
	b = chart(1, PEAK_TFLOPS, PEAK_TBS, pts, NGOOD + NBAD, &rc);
	CHECK(strcmp(a, b) == 0);	/* byte-identical */
	save(dir, "roofline.svg", a);
	free(a);
	free(b);

	a = chart(0, 0, 0, NULL, 1, &rc);
	CHECK(rc == 0);
	check_breakdown(a);
	b = chart(0, 0, 0, NULL, 1, &rc);
	CHECK(strcmp(a, b) == 0);
	save(dir, "breakdown.svg", a);
	free(a);
	free(b);

	/* Nothing to plot, no roofs: a valid, empty chart. */
	a = chart(1, 0, NAN, NULL, 0, &rc);
	CHECK(rc == 0);
	CHECK(count(a, "<circle") == 0);
	CHECK(strstr(a, "data-points=\"0\" data-skipped=\"0\"") != NULL);
	CHECK(strstr(a, "class=\"roof\"") == NULL);
	CHECK(strstr(a, "class=\"ridge\"") == NULL);
	CHECK(strstr(a, "compute roof unknown, memory roof unknown") != NULL);
	CHECK(strstr(a, ">no ops to plot</text>") != NULL);
	save(dir, "roofline-empty.svg", a);
	free(a);
	a = chart(0, 0, 0, NULL, 0, &rc);
	CHECK(rc == 0);
	CHECK(count(a, ">no data</text>") == 2);
	CHECK(count(a, "class=\"segment\"") == 0);
	save(dir, "breakdown-empty.svg", a);
	free(a);

	/* Sixty decades: labels thin out, one roof only, still every point. */
	a = chart(1, 0, PEAK_TBS, wide, 2, &rc);
	CHECK(rc == 0);
	CHECK(count(a, "<circle") == 2);
	CHECK(strstr(a, "data-x-decades=\"-31 31\"") != NULL);
	CHECK(strstr(a, "data-peak-tbs=\"5.3\"") != NULL);
	CHECK(strstr(a, "data-peak-tflops") == NULL);
	CHECK(strstr(a, "class=\"ridge\"") == NULL);
	CHECK(count(a, "text-anchor=\"middle\">10<tspan") <= 11);
	save(dir, "roofline-wide.svg", a);
	free(a);

	/* Write errors. */
	if ((full = fopen("/dev/full", "w")) != NULL) {
		CHECK(tl_svg_roofline(full, "t", "hw", 1, 1, pts, NGOOD) == -1);
		clearerr(full);
		CHECK(tl_svg_breakdown(full, "t", NULL, 0, NULL, 0) == -1);
		fclose(full);
	} else
		printf("no /dev/full: write errors not checked\n");
	return unit_done("test_svgchart");
}
