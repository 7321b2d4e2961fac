/* See LICENSE file for copyright and license details. */
#ifndef TL_CAUSETEXT_H
#define TL_CAUSETEXT_H

/*
 * What the reports say about a known cause (TL_PAT_KERNEL_CAUSE,
 * lib/analysis/kcause): the words of its row of share/tl/causes.tsv,
 * each {name} replaced by the cause's number of that name.
 */
#include <stdio.h>

#include "analysis/findings.h"

/*
 * Column c (TL_KCC_TITLE, _ISSUE, _ACTION, _IMPACT) of p's row of the
 * causes table, each {name} replaced by p's number of that name and each
 * {name|one|many} by the form that fits it (one for 1).
 */
void tl_kc_text(FILE *fp, const struct tl_findings *f,
    const struct tl_fpat *p, int c);

#endif
