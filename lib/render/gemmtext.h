/* See LICENSE file for copyright and license details. */
#ifndef TL_GEMMTEXT_H
#define TL_GEMMTEXT_H

/*
 * What the reports say about a GEMM shape cause (TL_PAT_GEMM_SHAPE,
 * lib/analysis/gemmcause): its title, the issue with its arithmetic
 * (tiles, waves, compute units, padded shape, the aligned GEMM it is
 * timed against), both paths, the impact formula, and the precision
 * advice that fits the GPU's table row (tl_precision_advice).
 */
#include <stdio.h>

#include "analysis/findings.h"

void tl_gemm_title(FILE *fp, const struct tl_fpat *p);
void tl_gemm_issue(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p);
void tl_gemm_action(FILE *fp, const struct tl_fpat *p);
void tl_gemm_impact(FILE *fp, const struct tl_fpat *p);
/*
 * Mixed precision a GPU with the TL_PREC_* bits prec runs faster: FP16
 * autocast where it has FP16 only, BF16 (or FP16) autocast and TF32 for
 * what stays FP32 where its row has them; NULL when it has none.
 */
const char *tl_precision_advice(unsigned prec);

#endif
