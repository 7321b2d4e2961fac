/* See LICENSE file for copyright and license details. */
#ifndef TL_ADVICE_H
#define TL_ADVICE_H

/*
 * What to say about a bottleneck: a title, the issue in one sentence,
 * and both recommendation paths (Path A, algorithmic, and Path B,
 * kernel).  Vendor-neutral, and nothing a trace cannot show: the
 * kernel path always ends in a reproducer and a hardware-counter profile,
 * never in a guessed root cause.
 */
#include <stdio.h>

#include "analysis/findings.h"

/* Short title: "aten::mm [8944,1024]x[1024,2816]: memory-bound GEMM". */
void tl_advice_title(FILE *fp, const struct tl_fop *op);
/* The issue, one sentence. */
void tl_advice_issue(FILE *fp, const struct tl_fop *op);
/* Path A: algorithmic / model-level change. */
const char *tl_advice_algorithmic(const struct tl_findings *f,
    const struct tl_fop *op);
/* Path B: kernel-level change. */
const char *tl_advice_kernel(const struct tl_fop *op);
/* The same for an op of category cat (its index), whatever its facts. */
const char *tl_advice_kernel_cat(int cat);
/* Kernel time of the op at pct % of its roofline, ns; -1 unknown. */
double tl_advice_time_at(const struct tl_fop *op, double pct);

#endif
