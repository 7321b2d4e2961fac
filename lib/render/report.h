/* See LICENSE file for copyright and license details. */
#ifndef TL_REPORT_H
#define TL_REPORT_H

/*
 * The Markdown reports of tl-findings, rendered from lib/analysis/findings:
 * - fair: the short standalone report for stakeholders (executive
 *   summary, ranked recommendations, detailed analysis, appendix), where
 *   no fact is stated twice;
 * - rough: the long working report, every step with its tables and
 *   calculations, tree data, fusion candidates, open questions;
 * - category: one category's findings (tl-findings -r category).
 * Every number is printed through lib/render/mdtext, so the same fact reads the
 * same in every report.  Returns nothing: write errors show in ferror.
 */
#include <stdio.h>

#include "analysis/findings.h"

struct tl_report_opts {
	const char *title;	/* report title; NULL: from the traces */
	const char *charts;	/* directory of the SVG charts, relative to
				   the report; NULL: none */
	int top;		/* rows of the top-ops tables (20) */
};

void tl_report_fair(FILE *fp, const struct tl_findings *f,
    const struct tl_report_opts *o);
void tl_report_rough(FILE *fp, const struct tl_findings *f,
    const struct tl_report_opts *o);
void tl_report_category(FILE *fp, const struct tl_findings *f, int cat,
    const struct tl_report_opts *o);
/*
 * The report of an analysis of per-rank summaries (tl_findings_summaries):
 * a title, what it was made from, then the section across ranks.
 */
void tl_report_ranks(FILE *fp, const struct tl_findings *f,
    const struct tl_report_opts *o);

#endif
