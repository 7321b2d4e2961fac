/* See LICENSE file for copyright and license details. */
/* The comparison chart (lib/render/svgchart.h): reference against target. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/svgchart.h"

#define out tl_svg_out

enum {
	CP_W = 960,
	CP_LX = 40,		/* labels */
	CP_X = 300, CP_BW = 440,	/* bars */
	CP_DX = 920,		/* the Δ % column, right-aligned */
	CP_BH = 12,		/* one bar */
	CP_PAIR = 36,		/* a pair of bars with its space */
	CP_HEAD = 40		/* a section's heading */
};

static int
has(double v)
{
	return isfinite(v) && v >= 0;
}

/* The largest time of a section, for its scale. */
static double
section_max(const struct tl_chart_pair *p, size_t n)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (has(p[i].ref_us) && p[i].ref_us > m)
			m = p[i].ref_us;
		if (has(p[i].target_us) && p[i].target_us > m)
			m = p[i].target_us;
		if (has(p[i].expected_us) && p[i].expected_us > m)
			m = p[i].expected_us;
	}
	return m;
}

/* One bar of a pair, with its time after it. */
static void
put_side(FILE *f, double v, double max, double y, const char *colour,
    int ref)
{
	double w = max > 0 && has(v) ? CP_BW * v / max : 0;

	if (!has(v)) {
		out(f, "<text x=\"%d\" y=\"%p\" font-size=\"10\" "
		    "fill=\"#555555\">%s: none</text>\n", CP_X + 4, y + CP_BH - 2,
		    ref ? "reference" : "target");
		return;
	}
	out(f, "<rect class=\"%s\" x=\"%d\" y=\"%p\" width=\"%p\" "
	    "height=\"%d\" fill=\"%s\"%s/>\n<text x=\"%p\" y=\"%p\" "
	    "font-size=\"10\" fill=\"#333333\">%M ms</text>\n",
	    ref ? "ref" : "target", CP_X, y, w, CP_BH, colour,
	    ref ? " fill-opacity=\"0.35\" stroke-width=\"1\" stroke=\"#777777\"" :
	    "", CP_X + w + 5, y + CP_BH - 2, v);
}

/* A section: its heading, then a pair of bars per row, from y. */
static double
put_section(FILE *f, const char *section, const char *heading,
    const struct tl_chart_pair *p, size_t n, double y)
{
	double max = section_max(p, n), ex;
	const char *colour;
	size_t i;

	out(f, "<text x=\"%d\" y=\"%p\" font-size=\"14\" font-weight=\"bold\">"
	    "%s</text>\n<text x=\"%d\" y=\"%p\" text-anchor=\"end\" "
	    "font-size=\"11\" fill=\"#555555\">\xce\x94 %%</text>\n", CP_LX,
	    y + 20, heading, CP_DX, y + 20);
	y += CP_HEAD;
	if (n == 0)
		out(f, "<text x=\"%d\" y=\"%p\" fill=\"#555555\">none</text>\n",
		    CP_LX, y + CP_BH);
	for (i = 0; i < n; i++, y += CP_PAIR) {
		colour = tl_chart_colour(p[i].category);
		out(f, "<g class=\"pair\" data-section=\"%s\" data-label=\"%t\"",
		    section, p[i].label);
		if (has(p[i].ref_us))
			out(f, " data-ref-us=\"%r\"", p[i].ref_us);
		if (has(p[i].target_us))
			out(f, " data-target-us=\"%r\"", p[i].target_us);
		if (has(p[i].expected_us))
			out(f, " data-expected-us=\"%r\"", p[i].expected_us);
		out(f, ">\n<text x=\"%d\" y=\"%p\" font-size=\"11\">", CP_LX,
		    y + CP_BH + 4);
		tl_svg_text(f, p[i].label, 40);
		out(f, "<title>%T</title></text>\n", p[i].label);
		put_side(f, p[i].ref_us, max, y, colour, 1);
		put_side(f, p[i].target_us, max, y + CP_BH + 2, colour, 0);
		if (has(p[i].expected_us) && max > 0) {
			ex = CP_X + CP_BW * p[i].expected_us / max;
			out(f, "<line class=\"expected\" x1=\"%p\" y1=\"%p\" "
			    "x2=\"%p\" y2=\"%p\" stroke=\"#111111\" "
			    "stroke-width=\"2\"><title>expected from the roofs: "
			    "%M ms</title></line>\n", ex, y + CP_BH, ex,
			    y + 2 * CP_BH + 5, p[i].expected_us);
		}
		if (has(p[i].ref_us) && has(p[i].target_us) && p[i].ref_us > 0)
			out(f, "<text x=\"%d\" y=\"%p\" text-anchor=\"end\" "
			    "font-size=\"11\">%s%f%%</text>\n", CP_DX,
			    y + CP_BH + 4, p[i].target_us >= p[i].ref_us ? "+" :
			    "", (p[i].target_us - p[i].ref_us) / p[i].ref_us *
			    100);
		out(f, "</g>\n");
	}
	return y + 10;
}

/* The key: which bar is which side, and the expected mark. */
static void
put_key(FILE *f, const char *ref, const char *target)
{
	out(f, "<g class=\"key\" font-size=\"11\">\n<rect x=\"%d\" y=\"64\" "
	    "width=\"22\" height=\"10\" fill=\"#777777\" fill-opacity=\"0.35\" "
	    "stroke=\"#777777\"/>\n<text x=\"%d\" y=\"73\">reference: ",
	    CP_LX, CP_LX + 28);
	tl_svg_text(f, ref, 60);
	out(f, "</text>\n<rect x=\"%d\" y=\"82\" width=\"22\" height=\"10\" "
	    "fill=\"#777777\"/>\n<text x=\"%d\" y=\"91\">target: ", CP_LX,
	    CP_LX + 28);
	tl_svg_text(f, target, 60);
	out(f, "</text>\n<line x1=\"%d\" y1=\"62\" x2=\"%d\" y2=\"76\" "
	    "stroke=\"#111111\" stroke-width=\"2\"/>\n<text x=\"%d\" y=\"73\">"
	    "the target's time the two GPUs' roofs predict</text>\n"
	    "<text x=\"%d\" y=\"91\" fill=\"#555555\">bars in the category's "
	    "colour; \xce\x94 %% is the target against the reference</text>\n"
	    "</g>\n", CP_X + 180, CP_X + 180, CP_X + 188, CP_X + 180);
}

int
tl_svg_compare(FILE *f, const char *title, const char *subtitle,
    const char *ref, const char *target, const struct tl_chart_pair *cat,
    size_t nc, const struct tl_chart_pair *ops, size_t no)
{
	double y = 104;
	int h;

	h = (int)ceil(y + 2 * (CP_HEAD + 10) + CP_PAIR * (double)((nc > 0 ?
	    nc : 1) + (no > 0 ? no : 1)) + 24);
	tl_svg_begin(f, "tl-compare", CP_W, h);
	out(f, " data-categories=\"%d\" data-ops=\"%d\">\n<title>%T</title>\n",
	    (int)nc, (int)no, title);
	tl_svg_heading(f, CP_LX, title);
	if (subtitle != NULL && subtitle[0] != '\0')
		tl_svg_subtitle(f, CP_LX, "%T", subtitle);
	put_key(f, ref, target);
	y = put_section(f, "category", "Kernel time by category", cat, nc, y);
	put_section(f, "op", "The target's largest gaps that the hardware "
	    "does not explain", ops, no, y);
	return tl_svg_end(f);
}
