/* See LICENSE file for copyright and license details. */
#ifndef TL_CMPREPORT_H
#define TL_CMPREPORT_H

/*
 * The comparative reports of tl-findings, rendered from
 * lib/analysis/cmpfind ("<Model> Performance Comparison: <Reference> vs
 * <Target>"):
 * - fair: executive summary (the two GPU timelines and the kernel time
 *   per category side by side with Δ and Δ %, key findings), the
 *   recommendations for the target (Gap, Action, Impact, a link to the
 *   details), the detailed comparison (per-op table with its "Expected?"
 *   column, each recommended op, the ops of one side only, the layout
 *   differences) and an appendix (the roofs used, the method);
 * - rough: every step with its tables, every matched op with its raw
 *   numbers and the derivation of its expected ratio, the full ranking,
 *   open questions.
 * The framing is neutral: the reference shows what is achievable, the
 * aim is to improve the target, and no text ranks the two platforms.
 * Numbers go through lib/render/mdtext.  Write errors show in ferror.
 */
#include <stdio.h>

#include "analysis/cmpfind.h"
#include "render/report.h"

/* o->title is the model's name in the title; o->top rows of long tables. */
void tl_cmpreport_fair(FILE *fp, const struct tl_cmpfind *c,
    const struct tl_report_opts *o);
void tl_cmpreport_rough(FILE *fp, const struct tl_cmpfind *c,
    const struct tl_report_opts *o);

#endif
