/* See LICENSE file for copyright and license details. */
#ifndef TL_ANALYST_H
#define TL_ANALYST_H

/*
 * The analyst: facts -> patterns -> findings.  An enriched op stream is
 * read into facts (lib/analysis/findings), the patterns are found over
 * them (lib/analysis/fusion, kernsel, schedule), and every op and
 * pattern gets the time it recovers, its priority with the rule that
 * gave it (lowered when it recovers little: tl_priority_cap), and a
 * place among the recommendations, ranked by recoverable time (struct
 * tl_frec in f->rec).  An op whose time a pattern mostly explains is
 * not a recommendation of its own: the pattern's is.
 */
#include <stdint.h>

#include "analysis/findings.h"
#include "stream/stream.h"

/* tl_findings_load or tl_findings_read, then the analysis. */
void tl_analyst_load(struct tl_findings *f, char *const *files, int nfiles);
void tl_analyst_read(struct tl_findings *f, struct tl_stream *in);
/* The analysis of loaded facts (what the two above run). */
void tl_analyst_run(struct tl_findings *f);
/* The GPU timeline of every trace, pooled, ns. */
int64_t tl_analyst_timeline(const struct tl_findings *f);
#endif
