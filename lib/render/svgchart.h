/* See LICENSE file for copyright and license details. */
#ifndef TL_SVGCHART_H
#define TL_SVGCHART_H

/*
 * Standalone SVG charts for tl-findings: the roofline of ops, the GPU
 * time breakdown, the GPU time per rank, the busy/idle strip over time,
 * the gap-length histogram and the comparison of two traces.  Each call
 * writes one complete SVG 1.1 document (lib/render/svgw: XML
 * declaration, xmlns, width, height, viewBox, fonts, a white background)
 * that a browser shows on its own, the same byte for byte from run to
 * run; times read as milliseconds with 3 decimals and shares with 1
 * decimal everywhere.  Labels are XML-escaped; control characters and
 * bytes that are not UTF-8 become U+FFFD, and a label longer than 200
 * characters is cut with an ellipsis.  A category (share/tl/categories.tsv)
 * has one fixed colour in every chart; so do the timeline parts
 * (computation, exposed comm, exposed memcpy, idle).  Each returns 0, or
 * -1 on a write error (f is flushed, not closed).
 *
 * What a test can rely on, beyond the root's class ("tl-roofline",
 * "tl-breakdown", "tl-ranks", "tl-strip", "tl-gaps", "tl-compare"):
 *
 * Roofline: the root carries data-points (points drawn), data-skipped
 * (left out) and data-roofs (roofs drawn); the only <circle> elements
 * are the points, each with class="point", data-category,
 * data-flops-per-byte, data-tflops-s, data-time-us (the caller's doubles,
 * shortest round-trip text), data-roof (the index of its roof in the
 * caller's array) and data-pct-roof (its TFLOPS/s over its roof at its
 * intensity, %), and a <title> with the label and the numbers.  The
 * <g class="points"> holds data-x-decades and data-y-decades (log10 of
 * the axis ends) and data-frame (x y width height of the plot, px):
 *   cx = x + width * (log10(flops_per_byte) - xlo) / (xhi - xlo)
 *   cy = y + height * (yhi - log10(tflops_s)) / (yhi - ylo)
 * Each roof drawn is <g class="roof"> with data-roof, data-label,
 * data-peak-tflops and data-peak-tbs (absent when unknown); its flat part
 * is <line class="compute-roof">, its ridge <path class="ridge"> with
 * data-flops-per-byte.  A bandwidth is <line class="memory-roof"> with
 * data-peak-tbs.
 *
 * Breakdown: each drawn segment is <rect class="segment"> with data-bar
 * ("timeline" or "category"), data-label, data-value-us and data-pct.
 *
 * Ranks: each rank is <g class="rank"> with data-label, data-total-us and
 * data-straggler ("1" on one rank), holding <rect class="segment"> with
 * data-part and data-value-us.
 *
 * Strip: each trace is <g class="strip"> with data-label, data-span-us
 * and data-busy-us (the sum of its bins); each gap marked is <rect
 * class="gap"> with data-strip, data-rank (1 the longest), data-start-us
 * and data-len-us.
 *
 * Gaps: each bin shown is <g class="bin"> with data-bin (its index),
 * data-count and data-time-us.
 *
 * Compare: each bar pair is <g class="pair"> with data-section
 * ("category" or "op"), data-label, data-ref-us and data-target-us
 * (absent for a side without it) and, for an op with an expectation,
 * data-expected-us.
 */
#include <stddef.h>
#include <stdio.h>

#include "render/svgw.h"

/* A roof: one GPU's figures for one compute spec. */
struct tl_chart_roof {
	const char *label;	/* "matrix_bf16", or "h100 matrix_bf16" */
	const char *gpu;	/* names the bandwidth; NULL or "" for one GPU */
	const char *kind;	/* the compute figure: "achievable", "peak" */
	const char *bw_kind;	/* the bandwidth figure */
	double peak_tflops;	/* the flat roof; <= 0 unknown */
	double peak_tbs;	/* the bandwidth; <= 0 unknown */
};

/* One point of the roofline chart: an op signature on one roof. */
struct tl_chart_point {
	const char *label;	/* op name + short shape, for the tooltip */
	const char *category;	/* tl category value: gemm, conv, ... */
	double flops_per_byte;	/* x, > 0 */
	double tflops_s;	/* y, > 0 */
	double time_us;		/* kernel time; sets the marker area */
	int roof;		/* its roof's index; -1 none */
};

/*
 * The roofline: log-log axes (x FLOPs/byte, y TFLOPS/s) with decade
 * ticks and gridlines, over the range the plotted points take (and the
 * compute roofs they are measured against); each roof that a point uses
 * as min(peak_tflops, peak_tbs * x), labelled in the right margin with
 * labels moved apart so they never overlap; one <circle> per point
 * (area proportional to time_us, a minimum radius; points with x or y
 * <= 0 or not finite are skipped and counted in a note), coloured by
 * category; a legend of the categories and roofs present, a key of
 * marker sizes, the five longest points numbered and listed.  subtitle
 * (may be NULL) goes under the title.
 */
int tl_svg_roofline(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_roof *r, size_t nr,
    const struct tl_chart_point *p, size_t n);

struct tl_chart_bar {
	const char *label;	/* "computation", ... or a category */
	double value_us;
};

/*
 * Two horizontal stacked bars: the GPU timeline (compute / exposed comm
 * / exposed memcpy / idle, in the order given), headed tl_head (NULL:
 * "GPU timeline"), and kernel time by category, each 100% of its own
 * total.  Each segment is labelled with its ms and % where it is wide
 * enough and always in the legend under its bar; a value < 0 or not
 * finite is left out and counted in a note.  A bar with nothing to show
 * is drawn empty with "no data".
 */
int tl_svg_breakdown(FILE *f, const char *title, const char *tl_head,
    const struct tl_chart_bar *timeline, size_t nt,
    const struct tl_chart_bar *bycat, size_t nc);

/* One rank's (trace's) GPU timeline. */
struct tl_chart_rank {
	const char *label;	/* "rank 3", or the trace's name */
	const char *shown;	/* what the bar is labelled, or NULL: label */
	double compute_us, comm_us, memcpy_us, idle_us;
};

/*
 * One stacked bar per rank (computation, exposed comm, exposed memcpy,
 * idle), all on one millisecond scale, with its total; the rank at index
 * straggler (or none when out of range) is marked.
 */
int tl_svg_ranks(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_rank *r, size_t n, size_t straggler);

/* One trace's busy time over its span, in equal bins. */
struct tl_chart_strip {
	const char *label;
	const char *shown;	/* what the strip is labelled, or NULL: label */
	double span_us;		/* the span's length */
	const double *busy_us;	/* busy µs in each bin */
	size_t nbins;
};

/* A gap to mark on a strip. */
struct tl_chart_gap {
	size_t strip;		/* the strip's index */
	double start_us;	/* from the start of its span */
	double len_us;
	const char *before, *after;	/* the ops around it, or NULL */
	/* where a trace viewer shows it (has_at 0: unknown) */
	int has_at;
	int listed;		/* tl-parse listed it (step, thread known) */
	double ts_us;		/* its start, trace time */
	double offset_us;	/* from the trace's first event */
	int has_step, has_stream;
	long long step, stream;
	const char *device, *pid, *tid;	/* "" when unknown */
};

/*
 * One strip per trace, shaded by the busy share of each bin, on a
 * millisecond axis from the start of the trace's kernels; the gaps g
 * (longest first) numbered on their strips and listed under them.
 */
int tl_svg_strip(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_strip *s, size_t ns,
    const struct tl_chart_gap *g, size_t ng);

/* Gap lengths: bin i from edges_us[i - 1] up to edges_us[i]. */
struct tl_chart_hist {
	const double *edges_us;	/* nbins - 1 edges, increasing */
	const long long *count;	/* gaps per bin */
	const double *time_us;	/* their total length */
	size_t nbins;
};

/*
 * The gap-length histogram: the number of gaps and the idle time they
 * hold per length bin, the bins from the first to the last non-empty
 * one, each bar with its value.
 */
int tl_svg_gaps(FILE *f, const char *title, const char *subtitle,
    const struct tl_chart_hist *h);

/* A reference-target pair of bars. */
struct tl_chart_pair {
	const char *label, *category;
	double ref_us, target_us;	/* < 0: the side lacks it */
	double expected_us;	/* the target time the roofs predict; < 0 none */
};

/*
 * The comparison: reference and target kernel time per category, then
 * per op (the target's largest unexplained gaps), on one scale per
 * section, each bar with its time and the target's Δ %, an op's expected
 * time marked.
 */
int tl_svg_compare(FILE *f, const char *title, const char *subtitle,
    const char *ref, const char *target, const struct tl_chart_pair *cat,
    size_t nc, const struct tl_chart_pair *ops, size_t no);

#endif
