/* See LICENSE file for copyright and license details. */
#ifndef TL_CHARTS_H
#define TL_CHARTS_H

/*
 * The charts of tl-findings (-o DIR, --charts DIR): which an analysis
 * has, their file names and titles, and what each draws, taken from
 * lib/analysis/findings (a standalone analysis) or lib/analysis/cmpfind
 * (a comparison) and drawn by lib/render/svgchart.  lib/render/outdir
 * writes the files; the reports link them, in this order:
 *   roofline.svg    every op signature against the roof of its GPU and
 *                   compute spec (one roof per precision present)
 *   breakdown.svg   the GPU timeline and kernel time by category
 *   ranks.svg       busy, exposed comm, idle per rank, the straggler
 *                   marked (only for several traces)
 *   timeline.svg    GPU busy and idle over time per trace, the largest
 *                   gaps numbered and listed
 *   gaps.svg        the gap-length histogram, all traces together
 *   comparison.svg  (a comparison) reference against target per
 *                   category and for the target's largest unexplained
 *                   gaps
 */
#include <stdio.h>

#include "analysis/cmpfind.h"
#include "analysis/findings.h"

enum {
	TL_CHART_ROOFLINE, TL_CHART_BREAKDOWN, TL_CHART_RANKS,
	TL_CHART_TIMELINE, TL_CHART_GAPS, TL_CHART_N
};

struct tl_chart {
	const char *file;	/* "roofline.svg" */
	const char *title;	/* what the chart shows */
};

extern const struct tl_chart tl_charts[TL_CHART_N];
extern const struct tl_chart tl_cmpchart;	/* comparison.svg */

/* 1 when the analysis f has chart i (TL_CHART_*). */
int tl_chart_wanted(const struct tl_findings *f, int i);
/* Write chart i of f; 0, or -1 on a write error. */
int tl_chart_write(FILE *fp, const struct tl_findings *f, int i);
/* Write the comparison chart of c; 0, or -1 on a write error. */
int tl_cmpchart_write(FILE *fp, const struct tl_cmpfind *c);

#define TL_CHART_GAPS_TOP 5	/* gaps numbered on the timeline */
#define TL_CHART_OPS_TOP 10	/* ops of the comparison chart */

#endif
