/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/idxsort.h"
#include "common/util.h"

struct keys {
	const char *base;
	size_t stride, off;
};

static int64_t
key(const struct keys *k, int32_t i)
{
	int64_t v;

	memcpy(&v, k->base + (size_t)i * k->stride + k->off, sizeof(v));
	return v;
}

/* The first of a[lo..hi) whose key is above x (le: at or above x). */
static size_t
bound(const struct keys *k, const int32_t *a, size_t lo, size_t hi,
    int64_t x, int le)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t y = key(k, a[mid]);

		if (y < x || (!le && y == x))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Merge the sorted a[0..na) and a[na..nb) into out, the first's first on
 * ties.  The first's elements at or below the second's first, and the
 * second's at or above the first's last, are copied as they are (the
 * runs of nearly sorted input overlap little).
 */
static void
merge(const struct keys *k, const int32_t *a, size_t na, size_t nb,
    int32_t *out)
{
	size_t i = bound(k, a, 0, na, key(k, a[na]), 0);
	size_t end = bound(k, a, na, nb, key(k, a[na - 1]), 1);
	size_t j = na, o = i;

	memcpy(out, a, i * sizeof(*a));
	/*
	 * Both heads' keys held: only the one taken is loaded again (out
	 * may alias the keys for the compiler, so it would load both).
	 */
	if (i < na && j < end) {
		int64_t ki = key(k, a[i]), kj = key(k, a[j]);

		for (;;) {
			if (kj < ki) {
				out[o++] = a[j++];
				if (j == end)
					break;
				kj = key(k, a[j]);
			} else {
				out[o++] = a[i++];
				if (i == na)
					break;
				ki = key(k, a[i]);
			}
		}
	}
	memcpy(out + o, a + i, (na - i) * sizeof(*a));
	o += na - i;
	memcpy(out + o, a + j, (nb - j) * sizeof(*a));
}

void
tl_idxsort(int32_t *idx, size_t n, const void *base, size_t stride,
    size_t off)
{
	struct keys k;
	int32_t *tmp, *src = idx, *dst;
	size_t *run = NULL, nrun = 0, caprun = 0, i;
	int64_t prev, x;

	k.base = base;
	k.stride = stride;
	k.off = off;
	if (n < 2)
		return;
	/* The runs in order, found once: run[r] starts run r, run[nrun] n. */
	tl_grow(&run, &caprun, 1, sizeof(*run));
	run[nrun++] = 0;
	for (i = 1, prev = key(&k, idx[0]); i < n; i++, prev = x)
		if ((x = key(&k, idx[i])) < prev) {
			tl_grow(&run, &caprun, nrun + 2, sizeof(*run));
			run[nrun++] = i;
		}
	if (nrun == 1) {
		free(run);
		return;
	}
	tl_grow(&run, &caprun, nrun + 1, sizeof(*run));
	run[nrun] = n;
	dst = tmp = tl_malloc(n * sizeof(*tmp));
	/* Adjacent runs merged in pairs until one is left. */
	while (nrun > 1) {
		size_t r, m = 0;

		for (r = 0; r < nrun; r += 2) {
			size_t a = run[r], b = r + 1 < nrun ? run[r + 1] : n,
			    e = r + 1 < nrun ? run[r + 2] : n;

			if (b < e)
				merge(&k, src + a, b - a, e - a, dst + a);
			else
				memcpy(dst + a, src + a, (e - a) * sizeof(*src));
			run[m++] = a;
		}
		run[m] = n;
		nrun = m;
		src = dst;
		dst = dst == tmp ? idx : tmp;
	}
	if (src != idx)
		memcpy(idx, src, n * sizeof(*idx));
	free(tmp);
	free(run);
}

/* Hoare's selection (the middle element as pivot). */
int64_t
tl_kth_i64(int64_t *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		int64_t p = v[lo + (hi - lo) / 2], t;
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			return v[kk];
	}
	return v[kk];
}
