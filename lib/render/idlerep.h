/* See LICENSE file for copyright and license details. */
#ifndef TL_IDLEREP_H
#define TL_IDLEREP_H

/*
 * The idle culprits in Markdown (analysis/culprits.h): the ranked table
 * of what the host was doing while the GPU waited, per trace, with where
 * to find each moment in a trace viewer, and the known culprits' actions.
 */
#include <stdio.h>

#include "analysis/findings.h"

/*
 * Trace tr's culprit table (at most max rows), what it could not see and
 * how to find a gap in a viewer.
 */
void tl_md_culprits(FILE *fp, const struct tl_findings *f, int tr, int max);
/*
 * The known culprits of every trace as findings, ranked by the idle they
 * cover: what each is, the idle, and what to do.  Returns how many.
 */
int tl_md_culprit_actions(FILE *fp, const struct tl_findings *f, int max);

/*
 * The culprits of a comparison's two sides (NULL: not given), which grew
 * and which shrank, at most max rows.
 */
void tl_md_culprit_compare(FILE *fp, const struct tl_findings *ref,
    const struct tl_findings *tgt, int max);

/*
 * The steady-state window's timeline beside the whole trace's, per trace
 * with steps to choose from, and the idle of warm-up; nothing without.
 */
void tl_md_steady(FILE *fp, const struct tl_findings *f);

#endif
