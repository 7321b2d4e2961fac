/* See LICENSE file for copyright and license details. */
#include <stddef.h>
#include <stdint.h>

#include "common/idxsort.h"
#include "unit.h"

/* Records with the key inside, as the call tree's events have it. */
struct rec {
	int32_t pad;
	int64_t key;
};

static uint64_t seed = 88172645463325252ull;

static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/*
 * Sort n records' indices (in order 0..n-1 to start) and check the result
 * against a stable insertion sort; kind picks the keys: 0 random in a
 * small range (many equal), 1 in order, 2 reversed, 3 runs in order, 4
 * in order but for a few swaps, 5 all equal.
 */
static int
sorts_as_insertion(size_t n, int kind)
{
	struct rec *r = malloc((n + 1) * sizeof(*r));
	int32_t *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) *
	    sizeof(*b));
	size_t i, j;
	int ok = 1;

	for (i = 0; i < n; i++) {
		int64_t k;

		switch (kind) {
		case 0: k = (int64_t)(rnd() % 7) - 3; break;
		case 1: k = (int64_t)i * 3; break;
		case 2: k = -(int64_t)i; break;
		case 3: k = (int64_t)(i % 37) + (int64_t)(rnd() % 2); break;
		case 4: k = (int64_t)i; break;
		default: k = 42; break;
		}
		r[i].pad = 0;
		r[i].key = k;
		a[i] = b[i] = (int32_t)i;
	}
	if (kind == 4 && n > 1)
		for (i = 0; i < n / 16 + 1; i++) {
			size_t x = rnd() % n, y = rnd() % n;
			int64_t t = r[x].key;

			r[x].key = r[y].key;
			r[y].key = t;
		}
	tl_idxsort(a, n, r, sizeof(*r), offsetof(struct rec, key));
	for (i = 1; i < n; i++) {
		int32_t v = b[i];

		for (j = i; j > 0 && r[b[j - 1]].key > r[v].key; j--)
			b[j] = b[j - 1];
		b[j] = v;
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			ok = 0;
	free(r);
	free(a);
	free(b);
	return ok;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* tl_kth_i64 against sorting, on the key kinds of sorts_as_insertion. */
static int
kth_as_sorted(size_t n, int kind)
{
	int64_t *v = malloc(n * sizeof(*v)), *s = malloc(n * sizeof(*s));
	size_t i, k;
	int ok = 1;

	for (k = 0; k < n; k += n / 7 + 1) {
		for (i = 0; i < n; i++)
			v[i] = kind == 0 ? (int64_t)(rnd() % 7) - 3 :
			    kind == 1 ? (int64_t)i : kind == 2 ? -(int64_t)i :
			    kind == 3 ? (int64_t)(rnd() % 1000000) : 42;
		memcpy(s, v, n * sizeof(*v));
		qsort(s, n, sizeof(*s), cmp_i64);
		if (tl_kth_i64(v, n, k) != s[k])
			ok = 0;
	}
	free(v);
	free(s);
	return ok;
}

struct below_arg {
	const int64_t *v;
	int64_t x;
	size_t calls;
};

/* 1 if v[i] <= x: a prefix of a sorted v. */
static int
below_x(const void *arg, size_t i)
{
	struct below_arg *b = (struct below_arg *)arg;

	b->calls++;
	return b->v[i] <= b->x;
}

/*
 * tl_gallop against a linear search, on sorted keys (kind as kth_as_sorted
 * but sorted), for every finger and thresholds around every key; next to
 * the finger it asks a few keys, not a binary search's.
 */
static int
gallop_as_linear(size_t n, int kind)
{
	int64_t *v = malloc((n + 1) * sizeof(*v));
	struct below_arg b;
	size_t i, f, want, got, fg;
	int ok = 1;

	for (i = 0; i < n; i++)
		v[i] = kind == 0 ? (int64_t)(rnd() % 7) - 3 :
		    kind == 1 ? (int64_t)i :
		    kind == 2 ? (int64_t)(rnd() % 1000) : 42;
	qsort(v, n, sizeof(*v), cmp_i64);
	b.v = v;
	for (i = 0; i <= n; i++) {
		b.x = (i < n ? v[i] : v[n > 0 ? n - 1 : 0] + 1) - (rnd() & 1);
		for (want = 0; want < n && v[want] <= b.x; want++)
			;
		for (f = 0; f <= n + 1; f += n > 64 && f > 8 && f + 8 < n ?
		    n / 9 : 1) {
			fg = f;
			b.calls = 0;
			got = tl_gallop(n, &fg, below_x, &b);
			if (got != want || fg != want)
				ok = 0;
		}
		/* From the answer itself: one or two questions. */
		fg = want;
		b.calls = 0;
		if (tl_gallop(n, &fg, below_x, &b) != want || b.calls > 2)
			ok = 0;
	}
	free(v);
	return ok;
}

int
main(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 16, 17, 100, 1000, 4099 };
	size_t s;
	int kind, rep;

	for (kind = 0; kind <= 5; kind++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (rep = 0; rep < 3; rep++)
				CHECK(sorts_as_insertion(sizes[s], kind));
	for (kind = 0; kind <= 4; kind++)
		for (s = 1; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			CHECK(kth_as_sorted(sizes[s], kind));
	for (kind = 0; kind <= 3; kind++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			CHECK(gallop_as_linear(sizes[s], kind));
	return unit_done("test_idxsort");
}
