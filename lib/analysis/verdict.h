/* See LICENSE file for copyright and license details. */
#ifndef TL_VERDICT_H
#define TL_VERDICT_H

/*
 * The verdicts the reports state, decided here so that lib/render only
 * renders them: an op's efficiency against the range expected for its
 * kind (convolutions), a batch norm against the elementwise baseline,
 * the layout-conversion share of convolution time, a CNN-heavy
 * workload, how much of the GPU time the analysis covers, the summed
 * timeline with its utilisation flag and dominant loss, the ranks'
 * spread, launch-bound traces, fusion candidates among module instances,
 * what most of an idle pattern is, and the terms of the bottleneck rule.
 * Every threshold is in struct tl_findrules (lib/analysis/findrules).
 * tl_analyst_run calls it last.
 */
#include "analysis/findings.h"

void tl_verdict_run(struct tl_findings *f);

/* The GPU timeline of the traces, summed. */
void tl_verdict_timeline(const struct tl_findings *f, struct tl_ftimeline *t);

/* An efficiency e against the range [lo, hi]. */
enum tl_expect tl_verdict_expect(double e, double lo, double hi);

/* A share against the high and moderate thresholds (strictly above). */
enum tl_level tl_verdict_level(double pct, double high, double moderate);

/* What most of an idle pattern's time is (struct tl_fpat.part). */
enum tl_idlekind tl_verdict_idle(const int64_t part[4]);

#endif
