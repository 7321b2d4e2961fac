/* See LICENSE file for copyright and license details. */
#ifndef TL_CHARTLIST_H
#define TL_CHARTLIST_H

/*
 * The charts of tl-findings (-o DIR, --charts DIR): which an analysis
 * has, their file names and titles, in the order the reports link them
 * (lib/render/charts draws them, lib/render/outdir writes the files):
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

#endif
