/* See LICENSE file for copyright and license details. */
#ifndef TL_XREPORT_H
#define TL_XREPORT_H

/*
 * The reports' section on several ranks (analysis/xrank.h): whether the
 * traces are one complete job and what the report can still tell when
 * not, the clock offsets used, the instances matched, the job's step
 * time, the straggler (or none) with where its time goes and what it
 * costs a step, the transfer time after the last arrival, the
 * collectives by type with their bandwidths, the distribution of waits
 * and the most outlying ranks.  Nothing for one trace.
 */
#include <stdio.h>

#include "analysis/findings.h"

void tl_report_xrank(FILE *fp, const struct tl_findings *f);

/*
 * One trace's collectives by type with their bandwidths, after the
 * executive summary's findings (the several-rank report has them in its
 * section above).  Nothing for several traces or none.
 */
void tl_report_collectives(FILE *fp, const struct tl_findings *f);

#endif
