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

#endif
