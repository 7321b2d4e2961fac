/* See LICENSE file for copyright and license details. */
#ifndef TL_IDLEREP_H
#define TL_IDLEREP_H

/*
 * The idle culprits in Markdown (analysis/culprits.h): the ranked table
 * of what the host was doing while the GPU waited, per trace, with where
 * to find each moment in a trace viewer (the known culprits' findings are
 * patterns: render/patreport).
 */
#include <stdio.h>

#include "analysis/findings.h"

/*
 * Trace tr's culprit table (at most max rows), what it could not see and
 * how to find a gap in a viewer.
 */
void tl_md_culprits(FILE *fp, const struct tl_findings *f, int tr, int max);
/*
 * For the generic idle finding: what of the listed gaps' idle no known
 * cause covers (the largest unknown host culprits, by name) and what the
 * trace cannot attribute (no host activity recorded, launch latency), a
 * sentence starting with a space; nothing when the stream has no culprits.
 */
void tl_md_idle_rest(FILE *fp, const struct tl_findings *f);
/* What culprit x is, in words, with its name as code. */
void tl_md_culprit_name(FILE *fp, const struct tl_fculprit *x);
/*
 * Where the gap w is, for a trace viewer: its trace ts (us), its offset
 * from the trace's first event, step, GPU and stream, pid and tid.
 */
void tl_md_where(FILE *fp, const struct tl_fwhere *w);

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
