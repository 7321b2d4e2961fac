/* See LICENSE file for copyright and license details. */
#ifndef TL_SVGW_H
#define TL_SVGW_H

/*
 * Writing SVG: what every chart of lib/render/svgchart shares.  The text
 * is the same byte for byte from run to run and from machine to machine:
 * numbers are written without printf's locale, and each kind of number
 * always in one format, the reports' (lib/render/mdtext): times as
 * milliseconds with 3 decimals, shares with 1 decimal.  Text from a trace
 * is XML-escaped; control characters and bytes that are not UTF-8 become
 * U+FFFD.
 */
#include <stddef.h>
#include <stdio.h>

/*
 * A printf for SVG text:
 *   %s string as is             %t string escaped
 *   %T escaped, cut after 200 characters with an ellipsis
 *   %p double, 0.01 px          %r double, shortest round trip
 *   %g double, 3 significant    %G double, 4 significant digits
 *   %f double, 1 decimal (a %)  %M double µs as ms, 3 decimals
 *   %d int                      %% a percent sign
 */
void tl_svg_out(FILE *f, const char *fmt, ...);
/* Text escaped, cut after max characters (0: no limit) with an ellipsis. */
void tl_svg_text(FILE *f, const char *s, size_t max);
/* The same, keeping the last max characters: "…/rank3.json.gz". */
void tl_svg_tail(FILE *f, const char *s, size_t max);
/*
 * The XML declaration and the root <svg> start tag without its '>', so
 * that a chart can add attributes: width, height, viewBox, a font-family
 * list that ends in sans-serif, font-size 12, class cls.
 */
void tl_svg_begin(FILE *f, const char *cls, int w, int h);
/* The closing tag; 0, or -1 on a write error (f is flushed, not closed). */
int tl_svg_end(FILE *f);
/* A white background and the title in the top left corner. */
void tl_svg_heading(FILE *f, double x, const char *title);
/* A grey line under the title. */
void tl_svg_subtitle(FILE *f, double x, const char *fmt, ...);
/* A legend swatch: a 12 px square (circles are a roofline's points). */
void tl_svg_swatch(FILE *f, double x, double y, const char *colour);
/*
 * A tick step for an axis from 0 to max: 1, 2 or 5 times a power of
 * ten, giving at most about want ticks; 1 when max is not positive.
 */
double tl_svg_step(double max, int want);
/* A label to place: what it labels (an index), where that is, where it goes. */
struct tl_svg_label {
	size_t i;
	double pos, at;
};

/*
 * Labels placed apart along one axis: sorted by pos (then i), each at
 * least gap after the one before and within [lo, hi] as far as they fit
 * there (moved past their neighbours, then back from hi, then on from lo).
 */
void tl_svg_place(struct tl_svg_label *l, size_t n, double gap, double lo,
    double hi);
/* Dark text on a light colour ("#rrggbb"), white on a dark one. */
const char *tl_svg_ink(const char *colour);

/*
 * The fixed colour ("#rrggbb") of a category value or a timeline part
 * name ("computation", "exposed comm", "exposed memcpy", "idle";
 * "exposed_comm_time" reads as "exposed comm"), or NULL.
 */
const char *tl_svg_colour(const char *name);
/* The same, with the colour of unknown names instead of NULL. */
const char *tl_chart_colour(const char *name);

#endif
