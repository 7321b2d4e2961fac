/* See LICENSE file for copyright and license details. */
#ifndef TL_CHARTS_H
#define TL_CHARTS_H

/*
 * Drawing the charts of lib/render/chartlist: the data each shows, taken
 * from lib/analysis/findings (a standalone analysis) or
 * lib/analysis/cmpfind (a comparison), handed to lib/render/svgchart.
 */
#include <stdio.h>

#include "analysis/cmpfind.h"
#include "analysis/findings.h"
#include "analysis/xrank.h"
#include "render/chartlist.h"

/* Write chart i (TL_CHART_*) of f; 0, or -1 on a write error. */
int tl_chart_write(FILE *fp, const struct tl_findings *f, int i);
/*
 * ranks.svg of a cross-rank analysis of summaries (tl_findings_summaries):
 * the ranks x->show picks; 0, or -1 on a write error.
 */
int tl_chart_xranks(FILE *fp, const struct tl_xrank *x);
/* Write the comparison chart of c; 0, or -1 on a write error. */
int tl_cmpchart_write(FILE *fp, const struct tl_cmpfind *c);

#define TL_CHART_GAPS_TOP 5	/* gaps numbered on the timeline */
#define TL_CHART_OPS_TOP 10	/* ops of the comparison chart */

#endif
