/* See LICENSE file for copyright and license details. */
#ifndef TL_SERVREPORT_H
#define TL_SERVREPORT_H

/*
 * The serving section of tl-findings' reports (lib/analysis/serving.h):
 * per phase when the stream has phases, then the serving findings and
 * what the report could not attribute.  Nothing when the stream has no
 * phases, MoE or graph launches.
 */
#include <stdio.h>

#include "analysis/findings.h"

void tl_report_serving(FILE *fp, const struct tl_findings *f);

#endif
