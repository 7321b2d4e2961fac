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

/* The end of the run in order that starts at from (< n). */
static size_t
run_end(const struct keys *k, const int32_t *v, size_t from, size_t n)
{
	int64_t prev = key(k, v[from]), x;

	for (from++; from < n; from++) {
		if ((x = key(k, v[from])) < prev)
			break;
		prev = x;
	}
	return from;
}

/* Merge a[0..na) and a[na..nb) into out, the first's first on ties. */
static void
merge(const struct keys *k, const int32_t *a, size_t na, size_t nb,
    int32_t *out)
{
	size_t i = 0, j = na, o = 0;

	while (i < na && j < nb)
		out[o++] = key(k, a[j]) < key(k, a[i]) ? a[j++] : a[i++];
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

	k.base = base;
	k.stride = stride;
	k.off = off;
	if (n < 2 || run_end(&k, idx, 0, n) == n)
		return;
	dst = tmp = tl_malloc(n * sizeof(*tmp));
	for (;;) {
		size_t i = 0, runs = 0;

		while (i < n) {
			size_t a = run_end(&k, src, i, n), b;

			b = a < n ? run_end(&k, src, a, n) : n;
			merge(&k, src + i, a - i, b - i, dst + i);
			i = b;
			runs++;
		}
		src = dst;
		dst = dst == tmp ? idx : tmp;
		if (runs == 1)
			break;
	}
	if (src != idx)
		memcpy(idx, src, n * sizeof(*idx));
	free(tmp);
}
