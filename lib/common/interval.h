/* See LICENSE file for copyright and license details. */
#ifndef TL_INTERVAL_H
#define TL_INTERVAL_H

/*
 * Interval algebra on integer nanoseconds: union ("busy time"),
 * difference and length.  Intervals are half-open [start, end).
 */
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

struct tl_ival {
	int64_t start, end;
};

struct tl_ivals {
	struct tl_ival *v;
	size_t n, cap;
	struct tl_ahead ahead;	/* of v */
};

void tl_ivals_add(struct tl_ivals *s, int64_t start, int64_t end);
void tl_ivals_free(struct tl_ivals *s);
/* Sort and merge in place; touching intervals merge. */
void tl_ivals_merge(struct tl_ivals *s);
/* Sum of lengths (of a merged set). */
int64_t tl_ivals_length(const struct tl_ivals *s);
/* out = b minus a; both merged. */
void tl_ivals_subtract(const struct tl_ivals *b, const struct tl_ivals *a,
    struct tl_ivals *out);
/* Busy time of a small set of intervals (a scratch copy is merged). */
int64_t tl_busy(const struct tl_ival *v, size_t n);

#endif
