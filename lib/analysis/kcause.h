/* See LICENSE file for copyright and license details. */
#ifndef TL_KCAUSE_H
#define TL_KCAUSE_H

/*
 * Known causes of slow convolutions (and, through the same table,
 * attention, MoE and elementwise ops): TL_PAT_KERNEL_CAUSE, one pattern
 * per op signature, at most one cause each.  The causes' words are the
 * rows of share/tl/causes.tsv (lib/stream/known.h, as the idle culprits'
 * table); this module computes only which row applies and the numbers
 * its placeholders show: channels, kernel size, dilation, stride,
 * groups, output positions, weight bytes, efficiency, and the time the
 * fix would recover at the expected efficiency (an estimate, labelled).
 * Ops another pattern mostly explains are left alone.
 */
#include "analysis/findings.h"

void tl_kcause_find(struct tl_findings *f);

/* The causes table's columns. */
enum { TL_KCC_KEY, TL_KCC_KIND, TL_KCC_TITLE, TL_KCC_ISSUE, TL_KCC_ACTION,
    TL_KCC_IMPACT, TL_KCC_N };

/* The name of a pattern's cause: its row's key. */
const char *tl_kcause_name(const struct tl_findings *f,
    const struct tl_fpat *p);
/* Pattern p's field of column c of its row ("" without one). */
const char *tl_kcause_text(const struct tl_findings *f,
    const struct tl_fpat *p, int c);

extern const char tl_default_causes[];

#endif
