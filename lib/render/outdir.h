/* See LICENSE file for copyright and license details. */
#ifndef TL_OUTDIR_H
#define TL_OUTDIR_H

/*
 * The directory layout of TraceLens' analysis agent (its output files in
 * TraceLens/Agent/Analysis/README.md), written from lib/analysis/findings
 * (tl-findings -o DIR):
 *   category_data/<cat>_ops.csv         one row per op signature
 *   category_data/<cat>_metrics.json    status, summary, operations,
 *                                       category_specific
 *   category_data/<cat>_tree_data.json  parent chains, modules, kernels
 *   metadata/<cat>_metadata.json        hardware, timeline, thresholds
 *   category_findings/<cat>_findings.md the category report
 *   standalone_analysis_fair.md, standalone_analysis_rough.md
 *   charts/NAME.svg                     the charts (lib/render/charts.h)
 *   category_data/ranks.json            per rank and per collective
 *                                       instance (with collectives)
 *   summary.tsv                         the per-rank summary
 * <cat> is the category's file name in share/tl/categories.tsv (gemm,
 * convolution, batchnorm, ...).  The
 * data files exist for the categories present; the findings file also
 * for gemm, convolution and batchnorm when absent ("No ... found").
 * For a comparison (tl-compare's stream, lib/analysis/cmpfind), tl_outdir_compare
 * writes instead:
 *   comparative_analysis_fair.md, comparative_analysis_rough.md
 *   comparative_ops.csv                 one row per compared op, with
 *                                       its judgement and rank
 *   charts/comparison.svg
 * Errors end the program with "prog: PATH: what".
 */
#include "analysis/cmpfind.h"
#include "analysis/findings.h"
#include "render/report.h"

void tl_outdir_write(const char *dir, const struct tl_findings *f,
    const struct tl_report_opts *o);
void tl_outdir_compare(const char *dir, const struct tl_cmpfind *c,
    const struct tl_report_opts *o);
/*
 * The analysis of per-rank summaries (tl_findings_summaries) into dir:
 * standalone_analysis_fair.md and _rough.md (tl_report_ranks),
 * category_data/ranks.json and summary.tsv (the summaries merged).
 */
void tl_outdir_ranks(const char *dir, const struct tl_findings *f,
    const struct tl_report_opts *o);
/* Write the charts of an analysis, or of a comparison, into dir. */
void tl_outdir_charts(const char *dir, const struct tl_findings *f);
void tl_outdir_cmpcharts(const char *dir, const struct tl_cmpfind *c);

#endif
