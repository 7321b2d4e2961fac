/* See LICENSE file for copyright and license details. */
#ifndef TL_CHECKED_H
#define TL_CHECKED_H

/*
 * Checked int64 arithmetic, for FLOP and byte counts and sums of times:
 * an overflow is reported, never wrapped.
 */
#include <stdint.h>

/* *r = a * b or a + b: 0, or -1 on overflow (*r unchanged). */
int tl_mul(int64_t *r, int64_t a, int64_t b);
int tl_add(int64_t *r, int64_t a, int64_t b);
/* *acc += a * b, checked; sets *ovf on overflow and then does nothing. */
void tl_mac(int64_t *acc, int64_t a, int64_t b, int *ovf);

#endif
