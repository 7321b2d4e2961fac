/* See LICENSE file for copyright and license details. */
#define _DEFAULT_SOURCE		/* mincore, madvise */
#include <sys/mman.h>

#include <stdint.h>

#include "common/util.h"
#include "unit.h"

/* 1 if this kernel populates pages on request (Linux 5.14 and later). */
static int
can_populate(void)
{
#ifdef MADV_POPULATE_WRITE
	long ps = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)ps, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	if (p == MAP_FAILED)
		return 0;
	ok = madvise(p, (size_t)ps, MADV_POPULATE_WRITE) == 0;
	munmap(p, (size_t)ps);
	return ok;
#else
	return 0;
#endif
}

/* 1 if every page that holds p[0..n) is resident. */
static int
resident(const void *p, size_t n)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(ps - 1);
	size_t np = ((uintptr_t)p + n - lo + (size_t)ps - 1) / (size_t)ps, i;
	unsigned char *vec = malloc(np);
	int all = 1;

	if (vec == NULL || mincore((void *)lo, np * (size_t)ps, vec) != 0)
		all = 0;
	for (i = 0; all && i < np; i++)
		all = vec[i] & 1;
	free(vec);
	return all;
}

int
main(void)
{
	struct tl_ahead a = {0}, sa = {0};
	uint32_t *v = NULL;
	char *s = NULL;
	size_t cap = 0, scap = 0, n, used, N = 3u << 20;
	int inv = 1, same = 1, moved = 0, moved_big = 0;
	const void *last = NULL;

	/*
	 * Millions of appends: several moves, many steps; and on until the
	 * last step is at least half ahead, for the residency check.
	 */
	for (n = 0; n < N || a.upto - n * sizeof(*v) < TL_AHEAD / 2; n++) {
		tl_grow_ahead(&v, &cap, n + 1, sizeof(*v), &a);
		v[n] = (uint32_t)(n * 2654435761u);
		used = (n + 1) * sizeof(*v);
		moved += v != last;
		/* Past TL_RESERVE_FROM it grows in place. */
		moved_big += v != last && n * sizeof(*v) > TL_RESERVE_FROM;
		last = v;
		/* Ahead of the writes, within the capacity, by at most a step. */
		if (a.base != v || a.upto > cap * sizeof(*v) ||
		    a.upto > used + TL_AHEAD ||
		    (cap * sizeof(*v) >= TL_AHEAD && a.upto < used))
			inv = 0;
	}
	N = n;
	CHECK(inv);
	CHECK(moved > 1);
	if (tl_ahead_reserves())
		CHECK(a.res >= TL_RESERVE && moved_big == 0 &&
		    cap == a.res / sizeof(*v));
	for (n = 0; n < N; n++)
		if (v[n] != (uint32_t)(n * 2654435761u))
			same = 0;
	CHECK(same);
	/* The step ahead of the last write is resident where it can be. */
	if (can_populate())
		CHECK(resident(v + N, a.upto - N * sizeof(*v)));
	/* Shrunk to a quarter: the pages past it go back, the rest stays. */
	tl_ahead_shrink(&v, &cap, N / 4, sizeof(*v), &a);
	if (tl_ahead_reserves())
		CHECK(a.upto < N * sizeof(*v) / 2 &&
		    !resident(v + N / 2, 4096));
	same = 1;
	for (n = 0; n < N / 4; n++)
		if (v[n] != (uint32_t)(n * 2654435761u))
			same = 0;
	CHECK(same);
	tl_ahead_free(&v, &a);
	CHECK(v == NULL && a.res == 0);

	/* A small array is left to fault in as any memory does. */
	for (n = 0; n < 1000; n++) {
		tl_grow_ahead(&s, &scap, n + 1, 1, &sa);
		s[n] = (char)n;
	}
	CHECK(scap < TL_AHEAD && sa.base == s && sa.upto <= 1000 &&
	    sa.res == 0);
	tl_ahead_free(&s, &sa);
	return unit_done("test_grow");
}
