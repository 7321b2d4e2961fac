/* See LICENSE file for copyright and license details. */
#ifndef TL_XSUMMARY_H
#define TL_XSUMMARY_H

/*
 * The per-rank summary (tl-format(5), "The per-rank summary"): what the
 * cross-rank analysis (analysis/xrank.h) needs of each rank, in rows
 * whose number does not follow the rank's events: one row for the rank
 * (its GPU, kernel span, timeline), one per step, one per collective
 * instance of the profiled window, its TL_XSUM_OPS ops with the most
 * kernel time and its TL_XSUM_CULPRITS largest idle culprits.
 *
 * A summary's rows are sorted (bytewise, as lines), so that the summary
 * of several summaries (tl_xsum_merge) is the sorted union of their rows:
 * merging is associative and commutative, byte for byte, and a per-node
 * pre-merge gives the same file as merging every rank at once.  Reading
 * sorts the rows too, so the analysis does not depend on the order the
 * files come in; and tl-findings over several ranks' op streams analyses
 * what their summaries read back as (tl_xsum_canon): the same report
 * either way.
 *
 * Every row carries the version (summary_version); a summary of another
 * version, or with another header, is an error.
 */
#include <stdio.h>

#include "analysis/xrank.h"
#include "stream/stream.h"

#define TL_XSUM_VERSION 1
#define TL_XSUM_OPS 32		/* ops a rank, by kernel time */
#define TL_XSUM_CULPRITS 10	/* idle culprits a rank */

/* 1 when the stream's header is a summary's (the summary_version column). */
int tl_xsum_is(const struct tl_stream *in);
/* The summary of x's traces (after tl_xrank_finish) to fp. */
void tl_xsum_write(FILE *fp, const struct tl_xrank *x);
/* The summaries of in (every file) into x, fresh from tl_xrank_init. */
void tl_xsum_read(struct tl_xrank *x, struct tl_stream *in);
/* The summaries of in merged into one, to fp. */
void tl_xsum_merge(FILE *fp, struct tl_stream *in);
/* x replaced by what its summary reads back as (before the finish). */
void tl_xsum_canon(struct tl_xrank *x);

#endif
