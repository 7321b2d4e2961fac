/* See LICENSE file for copyright and license details. */
#ifndef TL_SVGCHART_H
#define TL_SVGCHART_H

/*
 * Standalone SVG charts for tl-findings: the roofline of ops and the
 * GPU-time breakdown.  Each call writes one complete SVG 1.1 document
 * (XML declaration, xmlns, width, height, viewBox, a font-family list
 * that ends in sans-serif, a white background) that a browser shows on
 * its own.  The text is the same byte for byte from run to run and from
 * machine to machine: numbers are written without printf's locale
 * (coordinates rounded to 0.01 px, values shortest round-trip with
 * tl_fmt_double), and nothing depends on time or addresses.  Labels are
 * XML-escaped; control characters and bytes that are not UTF-8 become
 * U+FFFD, and a label longer than 200 characters is cut with an ellipsis.
 *
 * A category (gemm, conv, attention, ...: share/tl/categories.tsv) has
 * one fixed colour in every chart; so do the timeline parts
 * (computation, exposed comm, exposed memcpy, idle).
 *
 * What a test can rely on in a roofline: the root <svg> carries
 * class="tl-roofline", data-points (points drawn) and data-skipped
 * (points left out); the only <circle> elements are the points, one per
 * plotted point, each with class="point", data-category,
 * data-flops-per-byte, data-tflops-s and data-time-us (the caller's
 * doubles, shortest round-trip text) and a <title> child with the label
 * and the numbers.  The <g class="points"> holds data-x-decades and
 * data-y-decades (log10 of the axis ends) and data-frame (x y width
 * height of the plot area, px), so cx and cy can be checked:
 *   cx = x + width * (log10(flops_per_byte) - xlo) / (xhi - xlo)
 *   cy = y + height * (yhi - log10(tflops_s)) / (yhi - ylo)
 * The roof is <polyline class="roof"> with data-peak-tflops and
 * data-peak-tbs; the ridge is <g class="ridge"> with data-flops-per-byte.
 * In a breakdown, each drawn segment is <rect class="segment"> with
 * data-bar ("timeline" or "category"), data-label, data-value-us and
 * data-pct.
 */
#include <stddef.h>
#include <stdio.h>

/* One point of the roofline chart: an op or op signature. */
struct tl_chart_point {
	const char *label;	/* op name + short shape, for the <title> tooltip */
	const char *category;	/* tl category value: gemm, conv, attention, ... */
	double flops_per_byte;	/* x, > 0 */
	double tflops_s;	/* y, > 0 */
	double time_us;		/* kernel time; sets the marker area */
};

/*
 * Write a standalone SVG roofline: log-log axes (x FLOPs/byte, y
 * TFLOPS/s) with decade ticks, labels and gridlines, the roof
 * min(peak_tflops, peak_tbs * x) (x in FLOP/byte, peak_tbs in TB/s, so
 * the ridge is at peak_tflops / peak_tbs), the ridge point marked, one
 * <circle> per point (area proportional to time_us, with a minimum
 * radius so the smallest stay visible; points with x or y <= 0 or not
 * finite are skipped and counted in a note), colour by category, a
 * legend of the categories present, a key of marker sizes, the five
 * longest points numbered and listed, title and hw name.  A roof that
 * is <= 0 or not finite is not drawn (both unknown: no roof, no ridge).
 * The axis ranges cover all points and the roof, with at least one
 * decade either side of the ridge.  Returns 0, or -1 on a write error
 * (f is flushed, not closed).
 */
int tl_svg_roofline(FILE *f, const char *title, const char *hw,
    double peak_tflops, double peak_tbs,
    const struct tl_chart_point *p, size_t n);

struct tl_chart_bar {
	const char *label;	/* "computation", "exposed comm", ... or a category */
	double value_us;
};

/*
 * Write a standalone SVG with two horizontal stacked bars: the GPU
 * timeline (compute / exposed comm / exposed memcpy / idle, as given,
 * in the order given) and kernel time by category, each 100% of its own
 * total.  Each segment is labelled with its ms and % where it is wide
 * enough and always in the legend under its bar; a value < 0 or not
 * finite is left out and counted in a note.  A bar with nothing to show
 * (n = 0, or a zero total) is drawn empty with "no data".  Returns 0, or
 * -1 on a write error (f is flushed, not closed).
 */
int tl_svg_breakdown(FILE *f, const char *title,
    const struct tl_chart_bar *timeline, size_t nt,
    const struct tl_chart_bar *bycat, size_t nc);

/*
 * The fixed colour ("#rrggbb") of a category value or a timeline part
 * name ("computation", "exposed comm", "exposed memcpy", "idle"); the
 * colour of unknown names otherwise.
 */
const char *tl_chart_colour(const char *name);

#endif
