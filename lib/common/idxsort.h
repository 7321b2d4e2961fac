/* See LICENSE file for copyright and license details. */
#ifndef TL_IDXSORT_H
#define TL_IDXSORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sort idx[0..n), indices of the records of stride bytes at base, by
 * the int64_t at byte off of each record, keeping the order of equal
 * keys (stable).  A natural merge sort: the runs already in order are
 * merged in pairs, so that input in order, or nearly so (the events of
 * one thread come almost in start order), takes linear time, and no
 * comparison goes through a function pointer as qsort's do.
 */
void tl_idxsort(int32_t *idx, size_t n, const void *base, size_t stride,
    size_t off);

/*
 * The k-th smallest of v[0..n) (k < n), in linear time on average: the
 * value v[k] would hold sorted (a median without sorting).  v is
 * reordered.
 */
int64_t tl_kth_i64(int64_t *v, size_t n, size_t k);

/*
 * The first i in [0, n) at which below(arg, i) is 0 (it is 1 on a
 * prefix), n if none.  The search starts at *finger, where the last one
 * ended (set to the answer): what is looked up mostly comes in order, so
 * it gallops from there, then searches the span found by halves; any
 * finger gives the same answer.  Inline, so that below is too.
 */
static inline size_t
tl_gallop(size_t n, size_t *finger, int (*below)(const void *, size_t),
    const void *arg)
{
	size_t f = *finger < n ? *finger : n, lo, hi, p, step = 1;

	/* Below lo below() is 1; from hi on, 0. */
	if (f < n && below(arg, f)) {
		lo = f + 1;
		for (p = lo; p < n && below(arg, p); p = f + step) {
			lo = p + 1;
			step *= 2;
		}
		hi = p < n ? p : n;
	} else {
		hi = f;
		for (p = f; p > 0 && !below(arg, p - 1); ) {
			hi = p - 1;
			p = hi >= step ? hi - step + 1 : 0;
			step *= 2;
		}
		lo = p;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (below(arg, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return *finger = lo;
}

#endif
