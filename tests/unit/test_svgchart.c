/* See LICENSE file for copyright and license details. */
/*
 * The SVG charts: one circle per plotted point at the coordinates of its
 * numbers and against its own roof, bad points skipped and counted, the
 * roofs, ridges and labels that do not overlap, the per-rank bars, the
 * busy strip with its gaps, the gap histogram, the comparison; escaping,
 * fixed colours, one format per kind of number, byte-identical output,
 * write errors.  With TL_SVG_OUT=DIR the charts are also left in DIR for
 * tests/svgcheck.sh (xmllint, headless Chromium).
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

/* Two roofs a hair apart (their labels must not overlap), one unused. */
static const struct tl_chart_roof roofs[] = {
	{ "matrix_bf16", NULL, "dense peak", "dense peak", PEAK_TFLOPS,
	    PEAK_TBS },
	{ "vector_fp32", NULL, "dense peak", "dense peak", 163.4, PEAK_TBS },
	{ "vector_bf16", NULL, "achievable, stand-in", "dense peak", 163,
	    PEAK_TBS },
	{ "matrix_fp8", NULL, "dense peak", "dense peak", 2614.9, PEAK_TBS }
};
#define NROOFS	(sizeof(roofs) / sizeof(roofs[0]))

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
	{ "aten::mm [4096x4096, 4096x4096] bf16", "gemm", 0, 650.2, 2100.5,
	    0 },
	{ "aten::convolution [32x64x56x56]", "conv", 120.5, 210.3, 900, 0 },
	{ "aten::_scaled_dot_product_flash_attention", "attention", 512,
	    380.25, 1500, 0 },
	{ "aten::add [1024x4096]", "elementwise", 0.08333333333333333, 0.41,
	    350, 2 },
	{ "aten::native_layer_norm", "layernorm", 1.2, 2.9, 120.125, 1 },
	{ "my::op", "mycat", 10, 5, 0, -1 },
	{ "aten::where<bool> & \"x\" 'y'", "elementwise", 0.25, 0.9, 60, 2 },
	{ long_label, "reduce", 3, 1, 10, 1 },
	{ "bad \xff\xfe utf8 \x01 ctl", "other", 30, 12, 1e-3, 1 },
	{ "zero x", "gemm", 0, 10, 5, 0 },
	{ "negative y", "gemm", 10, -1, 5, 0 },
	{ "nan x", "gemm", NAN, 10, 5, 0 },
	{ "inf y", "gemm", 10, INFINITY, 5, 0 },
};

static const struct tl_chart_bar tl_bars[] = {
	{ "computation", 8000 }, { "exposed comm", 1500 },
	{ "exposed memcpy", 0 }, { "idle", 500 }
};
static const struct tl_chart_bar cat_bars[] = {
	{ "gemm", 4000 }, { "attention", 2500 }, { "conv", 900 },
	{ "elementwise", 600 }, { "other", -5 }, { "reduce", NAN }
};

/*
 * Ranks: the third has the most busy time; a name to escape, shown by
 * its last component.
 */
static const struct tl_chart_rank ranks[] = {
	{ "rank 0: /runs/a<b>/trace0.json.gz", "rank 0: <t>.json.gz", 800,
	    150, 0, 50 },
	{ "rank 1", NULL, 700, 250, 10, 40 },
	{ "rank 2", NULL, 900.5, 30, 0, 69.5 },
	{ "rank 3", NULL, 650, 300, 0, 50 }
};

/* A strip of 10 bins of 100 µs: busy, half, idle ...; two gaps. */
static const double busy1[10] = { 100, 100, 50, 0, 0, 100, 100, 100, 25,
    100 };
static const double busy2[4] = { 250, 0, 250, 250 };
static const struct tl_chart_strip strips[] = {
	{ "trace <one>", NULL, 1000, busy1, 10 },
	{ "trace two", "two", 1000, busy2, 4 }
};
static const struct tl_chart_gap gaps[] = {
	{ .strip = 1, .start_us = 250, .len_us = 250, .before = "aten::mm",
	    .after = "aten::add", .has_at = 1, .listed = 1,
	    .ts_us = 1000250.5, .offset_us = 300, .has_step = 1, .step = 4,
	    .has_stream = 1, .stream = 7, .device = "0", .pid = "100",
	    .tid = "t<1>" },
	{ .strip = 0, .start_us = 250, .len_us = 200,
	    .before = "aten::copy_<x>", .after = "" },
	{ .strip = 0, .start_us = 251, .len_us = 1 }	/* right by the one
							   before */
};

/* Gap lengths: bins 2 and 5 (2-5 µs, 20-50 µs) only. */
static const double edges[3] = { 1, 10, 100 };
static const long long hcount[4] = { 0, 12, 3, 0 };
static const double htime[4] = { 0, 48.5, 1200.25, 0 };

static const struct tl_chart_pair cmp_cat[] = {
	{ "gemm", "gemm", 9001, 11646, -1 },
	{ "elementwise", "elementwise", 17361, 12080, -1 }
};
static const struct tl_chart_pair cmp_ops[] = {
	{ "aten::silu [[16,559,2816]]", "elementwise", 925, 778, 630.5 },
	{ "my::op <only target>", "other", -1, 300, -1 }
};

enum { C_ROOF, C_ROOF_EMPTY, C_ROOF_WIDE, C_BREAKDOWN, C_BREAKDOWN_EMPTY,
    C_RANKS, C_STRIP, C_GAPS, C_GAPS_EMPTY, C_COMPARE };

/* Chart kind k into f; its return value. */
static int
draw(FILE *fp, int k)
{
	static const struct tl_chart_point wide[2] = {
		{ "tiny", "gemm", 1e-30, 1e-3, 1, 0 },
		{ "huge", "conv", 1e30, 1e6, 2, 0 }
	};
	static const struct tl_chart_roof bwonly = { "hbm", NULL, "", "peak", 0,
	    PEAK_TBS };
	struct tl_chart_hist h = { edges, hcount, htime, 4 };
	static const long long none[4] = { 0, 0, 0, 0 };
	struct tl_chart_hist e = { edges, none, htime, 4 };

	switch (k) {
	case C_ROOF:
		return tl_svg_roofline(fp, "Roofline <test> & co",
		    "MI300X: dense peak roofs", roofs, NROOFS, pts,
		    NGOOD + NBAD);
	case C_ROOF_EMPTY:
		return tl_svg_roofline(fp, "Roofline", NULL, NULL, 0, NULL, 0);
	case C_ROOF_WIDE:
		return tl_svg_roofline(fp, "Roofline", "", &bwonly, 1, wide, 2);
	case C_BREAKDOWN:
		return tl_svg_breakdown(fp, "GPU time", NULL, tl_bars, 4,
		    cat_bars, 6);
	case C_BREAKDOWN_EMPTY:
		return tl_svg_breakdown(fp, "GPU time", "GPU timelines of 2 "
		    "traces, summed", NULL, 0, NULL, 0);
	case C_RANKS:
		return tl_svg_ranks(fp, "GPU time per rank", "4 traces", ranks,
		    4, 2);
	case C_STRIP:
		return tl_svg_strip(fp, "Busy", "two traces", strips, 2, gaps,
		    3);
	case C_GAPS:
		return tl_svg_gaps(fp, "Gaps", "15 gaps", &h);
	case C_GAPS_EMPTY:
		return tl_svg_gaps(fp, "Gaps", NULL, &e);
	default:
		return tl_svg_compare(fp, "Reference against target",
		    "achievable roofs", "ref <a> (h100)", "target (mi300x)",
		    cmp_cat, 2, cmp_ops, 2);
	}
}

static char *
chart(int k, int *rc)
{
	/* Static: GCC takes the returned buffer for a pointer to a local. */
	static char *text;
	static size_t size;
	FILE *fp;

	text = NULL;
	size = 0;
	fp = open_memstream(&text, &size);

	if (fp == NULL) {
		perror("open_memstream");
		exit(1);
	}
	*rc = draw(fp, k);
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

/* The roof a point sits against, at its intensity: min of the two roofs. */
static double
roof_at(const struct tl_chart_roof *r, double x)
{
	double b = r->peak_tbs * x;

	return r->peak_tflops < b ? r->peak_tflops : b;
}

/* Every "N ms" has 3 decimals and every "N%" 1: one format each. */
static void
check_numbers(const char *s)
{
	const char *p, *q;
	int bad = 0, n = 0;

	for (p = s; (p = strstr(p, " ms")) != NULL; p++) {
		for (q = p; q > s && (q[-1] == '.' || (q[-1] >= '0' &&
		    q[-1] <= '9')); q--)
			;
		if (q == p)
			continue;	/* "ms" after a word */
		n++;
		if (p - q < 5 || p[-4] != '.' || strchr(q, '.') != p - 4) {
			printf("bad time: %.*s\n", (int)(p - q + 3), q);
			bad++;
		}
	}
	for (p = s; (p = strstr(p, "%")) != NULL; p++) {
		if (p[-1] < '0' || p[-1] > '9' || p[1] == '"')
			continue;	/* not a number, or an attribute */
		if (p - s < 3 || p[-2] != '.' || p[-3] < '0' || p[-3] > '9') {
			printf("bad share: %.*s\n", 12, p - 10);
			bad++;
		}
	}
	CHECK(bad == 0);
	(void)n;
}

static void
check_roofline(const char *s)
{
	double fx, fy, fw, fh, cx, cy;
	int xlo, xhi, ylo, yhi, i, found;
	const char *g, *c, *e;
	char x[300];

	CHECK(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
	    "xmlns=\"http://www.w3.org/2000/svg\"", 77) == 0);
	CHECK(strstr(s, " width=\"1080\" height=\"") != NULL);
	CHECK(strstr(s, "font-family=\"DejaVu Sans, Liberation Sans, Helvetica, "
	    "Arial, sans-serif\"") != NULL);
	CHECK_STR(attr(strstr(s, "<svg "), "data-points"), "9");
	CHECK_STR(attr(strstr(s, "<svg "), "data-skipped"), "4");
	/* Three roofs drawn: matrix_fp8 has no point. */
	CHECK_STR(attr(strstr(s, "<svg "), "data-roofs"), "3");
	CHECK(strstr(s, "data-label=\"matrix_fp8\"") == NULL);
	CHECK(count(s, "<circle") == NGOOD);
	CHECK(count(s, "<circle class=\"point\"") == NGOOD);
	CHECK(strstr(s, ">4 points not plotted: ") != NULL);
	CHECK(strstr(s, "Arithmetic intensity (FLOPs/byte)</text>") != NULL);
	CHECK(strstr(s, "Achieved TFLOPS/s</text>") != NULL);
	CHECK(strstr(s, ">MI300X: dense peak roofs</text>") != NULL);

	/*
	 * Ranges: x the points' (0.083 to 1365: decades -2 to 4), y the
	 * points' and their compute roofs' (0.41 to 1307.4: -1 to 4).
	 */
	g = strstr(s, "<g class=\"points\"");
	CHECK(g != NULL);
	CHECK_STR(attr(g, "data-x-decades"), "-2 4");
	CHECK_STR(attr(g, "data-y-decades"), "-1 4");
	CHECK_STR(attr(g, "data-frame"), "84 68 520 420");
	sscanf(attr(g, "data-x-decades"), "%d %d", &xlo, &xhi);
	sscanf(attr(g, "data-y-decades"), "%d %d", &ylo, &yhi);
	sscanf(attr(g, "data-frame"), "%lf %lf %lf %lf", &fx, &fy, &fw, &fh);

	/*
	 * Each good point: exactly one circle, where its numbers put it,
	 * with its roof and its % of that roof.
	 */
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
			if (p->roof < 0) {
				CHECK_STR(attr(c, "data-roof"), "(none)");
				continue;
			}
			CHECK(atoi(attr(c, "data-roof")) == p->roof);
			CHECK(fabs(atof(attr(c, "data-pct-roof")) - p->tflops_s /
			    roof_at(&roofs[p->roof], p->flops_per_byte) * 100) <=
			    1e-9 * p->tflops_s);
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

	/* Each roof drawn: its figures, its flat part at its height. */
	for (i = 0; i < 3; i++) {
		char want[64];
		double y;

		snprintf(want, sizeof(want), "<g class=\"roof\" data-roof=\"%d\"",
		    i);
		e = strstr(s, want);
		CHECK(e != NULL);
		if (e == NULL)
			continue;
		CHECK_STR(attr(e, "data-label"), roofs[i].label);
		CHECK_STR(attr(e, "data-peak-tflops"), fmt(roofs[i].peak_tflops));
		CHECK_STR(attr(e, "data-peak-tbs"), "5.3");
		e = strstr(e, "<line class=\"compute-roof\"");
		y = fy + fh * (yhi - log10(roofs[i].peak_tflops)) / (yhi - ylo);
		CHECK(fabs(atof(attr(e, "y1")) - y) <= 0.005);
		CHECK(fabs(atof(attr(e, "x1")) - (fx + fw * (log10(
		    roofs[i].peak_tflops / PEAK_TBS) - xlo) / (xhi - xlo))) <=
		    0.005);
		e = strstr(e, "<path class=\"ridge\"");
		CHECK_STR(attr(e, "data-flops-per-byte"),
		    fmt(roofs[i].peak_tflops / PEAK_TBS));
	}
	/* One bandwidth line, from the left edge to the highest ridge. */
	CHECK(count(s, "<line class=\"memory-roof\"") == 1);
	e = strstr(s, "<line class=\"memory-roof\"");
	CHECK_STR(attr(e, "data-peak-tbs"), "5.3");
	CHECK(atof(attr(e, "x1")) == fx);
	CHECK(fabs(atof(attr(e, "y1")) - (fy + fh * (yhi - (log10(PEAK_TBS) +
	    xlo)) / (yhi - ylo))) <= 0.005);
	CHECK(fabs(atof(attr(e, "x2")) - (fx + fw * (log10(PEAK_TFLOPS /
	    PEAK_TBS) - xlo) / (xhi - xlo))) <= 0.005);
	/* The margin labels: 163.4 and 163 are one pixel apart, not theirs. */
	{
		double y0 = atof(attr(elem(s, strstr(s, ">vector_fp32 \xc2\xb7 "
		    "163.4</text>")), "y"));
		double y1 = atof(attr(elem(s, strstr(s, ">vector_bf16 \xc2\xb7 "
		    "163</text>")), "y"));
		double y2 = atof(attr(elem(s, strstr(s, ">matrix_bf16 \xc2\xb7 "
		    "1307</text>")), "y"));

		CHECK(fabs(y0 - y1) >= 13);
		CHECK(fabs(y0 - y2) >= 13 && fabs(y1 - y2) >= 13);
	}
	/* The legend names each roof's kind and its ops. */
	CHECK(strstr(s, ">achievable, stand-in \xc2\xb7 2 ops</text>") != NULL);
	CHECK(strstr(s, ">dense peak \xc2\xb7 3 ops</text>") != NULL);

	/* Escaping, cutting long labels, bad UTF-8 and control characters. */
	CHECK(strstr(s, "<title>Roofline &lt;test&gt; &amp; co</title>")
	    != NULL);
	CHECK(strstr(s, "<title>aten::where&lt;bool&gt; &amp; &quot;x&quot; "
	    "&apos;y&apos;&#10;elementwise: 0.25 FLOPs/byte, 0.9 TFLOPS/s, "
	    "0.060 ms&#10;67.9% of its roof, vector_bf16 163 TFLOPS/s "
	    "(achievable, stand-in), 5.3 TB/s (dense peak)</title>") != NULL);
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
	CHECK(strstr(s, ">2.101 ms</text>") != NULL);	/* size key */
	check_numbers(s);
}

static void
check_breakdown(const char *s)
{
	const char *c;

	CHECK(strstr(s, "class=\"tl-breakdown\" data-skipped=\"2\">") != NULL);
	CHECK(strstr(s, ">GPU timeline<tspan") != NULL);
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
	CHECK(strstr(s, ">8.000 ms \xc2\xb7 80.0%</text>") != NULL);
	CHECK(strstr(s, "<title>exposed comm: 1.500 ms (15.0%)</title>") !=
	    NULL);
	/* A zero part has no segment but keeps its legend line. */
	CHECK(strstr(s, "data-label=\"exposed memcpy\"") == NULL);
	CHECK(strstr(s, ">exposed memcpy<tspan fill=\"#555555\"> 0.000 ms "
	    "(0.0%)") != NULL);
	c = elem(s, strstr(s, "data-label=\"attention\""));
	CHECK_STR(attr(c, "data-pct"), "31.25");
	CHECK_STR(attr(c, "fill"), tl_chart_colour("attention"));
	CHECK(strstr(s, ">gemm<tspan fill=\"#555555\"> 4.000 ms (50.0%)") !=
	    NULL);
	CHECK(strstr(s, "2 values left out") != NULL);
	CHECK(strstr(s, "data-label=\"other\"") == NULL);
	CHECK(strstr(s, "data-label=\"reduce\"") == NULL);
	check_numbers(s);
}

static void
check_ranks(const char *s)
{
	const char *c;
	double w0 = 0, x;

	CHECK(strstr(s, "class=\"tl-ranks\" data-ranks=\"4\">") != NULL);
	CHECK(count(s, "<g class=\"rank\"") == 4);
	/* One straggler, the one given, marked. */
	CHECK(count(s, "data-straggler=\"1\"") == 1);
	CHECK(count(s, ">straggler</text>") == 1);
	c = strstr(s, "data-label=\"rank 2\"");
	CHECK(c != NULL && strstr(c, "data-straggler=\"1\"") ==
	    strstr(c, "data-straggler="));
	CHECK_STR(attr(elem(s, c), "data-total-us"), "1000");
	/* One scale: the longest total (1050 µs) spans the 520 px. */
	c = strstr(s, "data-label=\"rank 1\"");
	for (c = strstr(c, "<rect class=\"segment\""); c != NULL &&
	    c < strstr(s, "data-label=\"rank 2\""); c = strstr(c + 1,
	    "<rect class=\"segment\""))
		w0 += atof(attr(c, "width"));
	CHECK(fabs(w0 - 520) <= 0.02);
	c = elem(s, strstr(s, "data-part=\"exposed comm\" data-value-us=\"250\""));
	x = atof(attr(c, "width"));
	CHECK(fabs(x - 520 * 250 / 1000.0) <= 0.005);
	CHECK(strstr(s, ">1.000 ms</text>") != NULL);
	/* The full name in the data and the tooltip, the bar shows the short. */
	CHECK(strstr(s, "data-label=\"rank 0: /runs/a&lt;b&gt;/trace0.json.gz\"")
	    != NULL);
	CHECK(strstr(s, "<title>rank 0: /runs/a&lt;b&gt;/trace0.json.gz"
	    "</title>") != NULL);
	CHECK(strstr(s, ">rank 0: &lt;t&gt;.json.gz<title>") != NULL);
	CHECK(strstr(s, "<b>") == NULL);
	check_numbers(s);
}

static void
check_strip(const char *s)
{
	const char *c;

	CHECK(strstr(s, "class=\"tl-strip\" data-strips=\"2\" data-gaps=\"3\">")
	    != NULL);
	c = strstr(s, "<g class=\"strip\" data-strip=\"0\"");
	CHECK_STR(attr(c, "data-busy-us"), "675");
	CHECK_STR(attr(c, "data-span-us"), "1000");
	CHECK_STR(attr(c, "data-label"), "trace &lt;one&gt;");
	c = strstr(s, "<g class=\"strip\" data-strip=\"1\"");
	CHECK_STR(attr(c, "data-busy-us"), "750");
	/* The busy runs: bins 0-1 full, 2 half, 5-7 full, 8 a quarter, 9. */
	CHECK(count(s, "<rect class=\"busy\" data-level=\"8\"") == 5);
	CHECK(count(s, "<rect class=\"busy\" data-level=\"4\"") == 1);
	CHECK(count(s, "<rect class=\"busy\" data-level=\"2\"") == 1);
	c = strstr(s, "<rect class=\"busy\" data-level=\"4\"");
	CHECK_STR(attr(c, "x"), "216");
	CHECK_STR(attr(c, "width"), "88");
	/* The gaps: numbered by length, on their strips, where they are. */
	CHECK(count(s, "<rect class=\"gap\"") == 3);
	c = elem(s, strstr(s, "data-rank=\"1\""));
	CHECK_STR(attr(c, "data-strip"), "1");
	CHECK_STR(attr(c, "x"), "260");
	CHECK_STR(attr(c, "width"), "220");
	c = elem(s, strstr(s, "data-rank=\"3\""));
	CHECK_STR(attr(c, "data-strip"), "0");
	CHECK_STR(attr(c, "width"), "3");
	CHECK(strstr(s, "after aten::copy_&lt;x&gt;</text>") != NULL);
	/* Where a trace viewer shows a gap, under its line. */
	CHECK(count(s, "class=\"gap-at\"") == 1);
	CHECK(strstr(s, ">ts 1000250.500 us (+0.300 ms from the trace's first "
	    "event), step 4, GPU 0 stream 7, pid 100 tid t&lt;1&gt;</text>") !=
	    NULL);
	/* A strip's short name in the list, its full one in the data. */
	CHECK(strstr(s, "0.250 ms idle at 0.250 ms in two: after "
	    "aten::mm, before aten::add</text>") != NULL);
	CHECK_STR(attr(strstr(s, "<g class=\"strip\" data-strip=\"1\""),
	    "data-label"), "trace two");
	check_numbers(s);
}

static void
check_gaps(const char *s)
{
	CHECK(strstr(s, "class=\"tl-gaps\" data-bins=\"4\">") != NULL);
	/* The bins from the first to the last non-empty one. */
	CHECK(count(s, "<g class=\"bin\"") == 2);
	CHECK(strstr(s, "<g class=\"bin\" data-bin=\"1\" data-count=\"12\" "
	    "data-time-us=\"48.5\"/>") != NULL);
	CHECK(strstr(s, "<g class=\"bin\" data-bin=\"2\" data-count=\"3\" "
	    "data-time-us=\"1200.25\"/>") != NULL);
	CHECK(strstr(s, ">1\xe2\x80\x93" "10 \xc2\xb5s</text>") != NULL);
	CHECK(strstr(s, ">10\xe2\x80\x93" "100 \xc2\xb5s</text>") != NULL);
	CHECK(strstr(s, ">1.200 ms</text>") != NULL);
	CHECK(strstr(s, ">12</text>") != NULL);
	check_numbers(s);
}

static void
check_compare(const char *s)
{
	const char *c;

	CHECK(strstr(s, "class=\"tl-compare\" data-categories=\"2\" "
	    "data-ops=\"2\">") != NULL);
	CHECK(count(s, "<g class=\"pair\" data-section=\"category\"") == 2);
	CHECK(count(s, "<g class=\"pair\" data-section=\"op\"") == 2);
	c = strstr(s, "data-label=\"aten::silu [[16,559,2816]]\"");
	CHECK_STR(attr(elem(s, c), "data-expected-us"), "630.5");
	CHECK(count(s, "<line class=\"expected\"") == 1);
	c = elem(s, strstr(s, "data-label=\"my::op &lt;only target&gt;\""));
	CHECK_STR(attr(c, "data-ref-us"), "(none)");
	CHECK_STR(attr(c, "data-target-us"), "300");
	CHECK(strstr(s, ">reference: none</text>") != NULL);
	CHECK(strstr(s, ">+29.4%</text>") != NULL);
	CHECK(strstr(s, ">-30.4%</text>") != NULL);
	CHECK(strstr(s, ">11.646 ms</text>") != NULL);
	CHECK(strstr(s, "ref &lt;a&gt; (h100)") != NULL);
	check_numbers(s);
}

int
main(void)
{
	static const char *const name[] = {
		"roofline.svg", "roofline-empty.svg", "roofline-wide.svg",
		"breakdown.svg", "breakdown-empty.svg", "ranks.svg",
		"strip.svg", "gaps.svg", "gaps-empty.svg", "compare.svg"
	};
	const char *dir = getenv("TL_SVG_OUT");
	char *a, *b;
	int rc, i, j, k;
	FILE *full;

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

	/* Every chart: written, byte-identical twice, kept for svgcheck. */
	for (k = C_ROOF; k <= C_COMPARE; k++) {
		a = chart(k, &rc);
		CHECK(rc == 0);
		b = chart(k, &rc);
		CHECK(strcmp(a, b) == 0);
		CHECK(strstr(a, "</svg>\n") != NULL);
		save(dir, name[k], a);
		switch (k) {
		case C_ROOF:
			check_roofline(a);
			break;
		case C_ROOF_EMPTY:
			/* Nothing to plot, no roofs: a valid, empty chart. */
			CHECK(count(a, "<circle") == 0);
			CHECK(strstr(a, "data-points=\"0\" data-skipped=\"0\"")
			    != NULL);
			CHECK(strstr(a, "class=\"roof\"") == NULL);
			CHECK(strstr(a, "class=\"ridge\"") == NULL);
			CHECK(strstr(a, ">no ops to plot</text>") != NULL);
			break;
		case C_ROOF_WIDE:
			/* Sixty decades: labels thin out, still every point. */
			CHECK(count(a, "<circle") == 2);
			CHECK(strstr(a, "data-x-decades=\"-31 31\"") != NULL);
			CHECK(strstr(a, "data-peak-tbs=\"5.3\"") != NULL);
			CHECK(strstr(a, "data-peak-tflops") == NULL);
			CHECK(strstr(a, "class=\"ridge\"") == NULL);
			CHECK(count(a, "text-anchor=\"middle\">10<tspan") <= 11);
			break;
		case C_BREAKDOWN:
			check_breakdown(a);
			break;
		case C_BREAKDOWN_EMPTY:
			CHECK(count(a, ">no data</text>") == 2);
			CHECK(strstr(a, ">GPU timelines of 2 traces, summed<tspan")
			    != NULL);
			CHECK(count(a, "class=\"segment\"") == 0);
			break;
		case C_RANKS:
			check_ranks(a);
			break;
		case C_STRIP:
			check_strip(a);
			break;
		case C_GAPS:
			check_gaps(a);
			break;
		case C_GAPS_EMPTY:
			CHECK(count(a, "<g class=\"bin\"") == 0);
			CHECK(strstr(a, ">no gaps: ") != NULL);
			break;
		default:
			check_compare(a);
			break;
		}
		free(a);
		free(b);
	}

	/* Write errors. */
	if ((full = fopen("/dev/full", "w")) != NULL) {
		for (k = C_ROOF; k <= C_COMPARE; k++) {
			CHECK(draw(full, k) == -1);
			clearerr(full);
		}
		fclose(full);
	} else
		printf("no /dev/full: write errors not checked\n");
	return unit_done("test_svgchart");
}
