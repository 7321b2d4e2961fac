/* See LICENSE file for copyright and license details. */
#ifndef TL_PATREPORT_H
#define TL_PATREPORT_H

/*
 * What the reports say about a pattern of lib/analysis/findings (struct
 * tl_fpat): its title, the issue in a sentence, both paths (Path A:
 * change the model or the code; Path B: keep them, work on the kernels
 * or the libraries), the time it recovers with the formula behind it,
 * and its evidence (ops, kernels, module instances, a call stack).
 * Also shared with lib/render/report: a priority with the rule that gave
 * it, a call stack several frames deep, and the model and GPU a title
 * names.  Vendor-neutral; API names are code spans.
 */
#include <stdint.h>
#include <stdio.h>

#include "analysis/findings.h"

void tl_pat_title(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p);
void tl_pat_issue(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p);
/* "Path A. Or, keeping the model as is: Path B." */
void tl_pat_action(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p);
/* The recovered time, its share of the timeline and how it is found. */
void tl_pat_impact(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p);
/* The evidence, as a list (rough: longer tables). */
void tl_pat_detail(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p, int rough);
/* The anchor of pattern i: "pat-3". */
void tl_pat_anchor(char *buf, size_t n, int i);

/*
 * "High (seed rule: 12.3 % of compute, above 10 %)" and, when capped,
 * what lowered it.  share: the item's share the rule read; timeline:
 * bit 1, that share is of the GPU timeline rather than of compute; bit
 * 2, eff is the share of a pattern's time its fix keeps; bit 4, what it
 * recovers is not quantified (capped by its whole time).
 */
void tl_prio_text(FILE *fp, const struct tl_findings *f, enum tl_priority p,
    enum tl_priority seed, int rule, int capped, double share, double eff,
    int timeline);
/* The priority of pattern p with its rule. */
void tl_pat_prio(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p);
/*
 * A call stack (folded, outermost first) as a list of its innermost
 * frames, at most max, without the module-call wrappers; indent: the
 * list's indentation.
 */
void tl_md_stack(FILE *fp, const char *stack, int max, const char *indent);
/*
 * The largest gaps of trace t: where, how long, what the host did (not
 * in the next op yet, inside it before the launch, launch latency) and
 * the ops and module around them, as a table.
 */
void tl_md_gaps(FILE *fp, const struct tl_findings *f,
    const struct tl_ftrace *t);
/* The model (top-level module classes by time) into buf; "" unknown. */
const char *tl_report_model(const struct tl_findings *f, char *buf,
    size_t n);

#endif
