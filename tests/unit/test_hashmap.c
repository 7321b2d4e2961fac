/* See LICENSE file for copyright and license details. */
#include <stdint.h>

#include "common/hashmap.h"
#include "unit.h"

/*
 * Key k of three runs: ids in sequence, ids alike in their low 20 bits,
 * ids down from the top.
 */
static uint64_t
key_of(uint64_t k)
{
	if (k < 65536)
		return k + 1000;
	if (k < 2 * 65536)
		return (k - 65536 + 1) << 20;
	return UINT64_MAX - (k - 2 * 65536);
}

/* The longest run of taken slots, cyclic, after ids 1000.. n of them. */
static size_t
longest_run(uint64_t n)
{
	struct tl_map32 m;
	size_t i, run = 0, best = 0;
	uint64_t k;

	tl_map32_init(&m);
	for (k = 1000; k < 1000 + n; k++)
		tl_map32_put(&m, k, 1);
	for (i = 0; i < 2 * m.cap; i++) {
		run = m.val[i & (m.cap - 1)] != 0 ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	tl_map32_free(&m);
	return best;
}

/*
 * Key k of the dense map's check: a run of ids in sequence (pages), ids
 * 9 973 apart (too sparse for pages once the first ones are made), ids
 * past TL_DMAP32_KEYS and 64-bit ones (rest), then the run again.
 */
static uint64_t
dkey_of(uint64_t k)
{
	if (k < 100000)
		return k + 60905;
	if (k < 104000)
		return 2000000 + (k - 100000) * 9973;
	if (k < 105000)
		return TL_DMAP32_KEYS - 500 + (k - 104000);
	if (k < 106000)
		return (k - 105000) << 40 | 3;
	return k - 106000 + 60905;
}

/*
 * The dense map against tl_map32 on the keys of dkey_of, read and
 * written as flow_event does: the same value for every key, 0 exactly
 * when a key is new; 1 if all agree.
 */
static int
dmap_check(void)
{
	struct tl_dmap32 d;
	struct tl_map32 m;
	uint64_t k, n = 206000;
	int ok = 1;

	tl_dmap32_init(&d);
	tl_map32_init(&m);
	CHECK(tl_dmap32_get(&d, 7) == 0);
	for (k = 0; k < n; k++) {
		uint32_t *a = tl_dmap32_at(&d, dkey_of(k));
		uint32_t *b = tl_map32_at(&m, dkey_of(k));

		if (*a != *b)
			ok = 0;
		*a = *b = (*b | (uint32_t)(k & 1 ? 1 : 2)) + 4;
	}
	for (k = 0; k < n; k++)
		if (tl_dmap32_get(&d, dkey_of(k)) != tl_map32_get(&m,
		    dkey_of(k)))
			ok = 0;
	CHECK(tl_dmap32_get(&d, 60904) == 0 && tl_dmap32_get(&d, 2000001) == 0 &&
	    tl_dmap32_get(&d, TL_DMAP32_KEYS + 501) == 0 &&
	    tl_dmap32_get(&d, (uint64_t)1 << 40) == 0);
	/* The run in pages, sparse ranges refused: memory stays bounded. */
	CHECK(d.npage > 20 && d.rest.n > 3000 && d.rest.n < 6000);
	CHECK(d.npage * TL_DMAP32_PAGE <= (d.n + 1) * TL_DMAP32_SPARSE +
	    TL_DMAP32_PAGE * 16);
	tl_dmap32_free(&d);
	tl_map32_free(&m);
	CHECK(d.cap == 0 && tl_dmap32_get(&d, 60905) == 0);
	return ok;
}

int
main(void)
{
	struct tl_map32 m;
	uint64_t k;
	int ok = 1;

	tl_map32_init(&m);
	CHECK(tl_map32_get(&m, 7) == 0);	/* empty: no slots yet */
	/* Enough keys for several doublings; ids of any sign and size. */
	for (k = 0; k < 100000; k++)
		tl_map32_put(&m, k * 0x9e3779b97f4a7c15ull, (uint32_t)k + 1);
	CHECK(m.n == 100000);
	CHECK(m.cap >= 100000 / 3 * 4);
	for (k = 0; k < 100000; k++)
		if (tl_map32_get(&m, k * 0x9e3779b97f4a7c15ull) != k + 1)
			ok = 0;
	CHECK(ok);
	CHECK(tl_map32_get(&m, 1) == 0);
	/* Overwrite: last writer wins, the count stays. */
	tl_map32_put(&m, (uint64_t)INT64_MIN, 5);
	tl_map32_put(&m, (uint64_t)INT64_MIN, 9);
	CHECK(tl_map32_get(&m, (uint64_t)INT64_MIN) == 9);
	CHECK(m.n == 100001);
	tl_map32_free(&m);
	CHECK(m.cap == 0 && tl_map32_get(&m, 0) == 0);
	/*
	 * Ids in sequence share slot groups (first32); strided ids, alike
	 * in their low bits, and sequences in both halves of the key space
	 * all come back, and a slot taken with tl_map32_at is the key's.
	 */
	for (k = 0; k < 3 * 65536; k++)
		*tl_map32_at(&m, key_of(k)) = (uint32_t)k + 1;
	CHECK(m.n == 3 * 65536);
	for (k = 0, ok = 1; k < 3 * 65536; k++)
		if (tl_map32_get(&m, key_of(k)) != k + 1)
			ok = 0;
	CHECK(ok);
	CHECK(tl_map32_get(&m, 999) == 0 && tl_map32_get(&m, 3) == 0);
	tl_map32_free(&m);
	/*
	 * A dense run of ids, as a Kineto trace's flow ids, at a table 3/8
	 * and nearly 3/4 full: no long runs of taken slots (a lookup walks
	 * such a run).  Groups placed by a mixed hash made runs of 320 and
	 * 1568 slots here.
	 */
	CHECK(longest_run(30000) < 200);
	CHECK(longest_run(24000) < 200);
	/*
	 * Keys of 32 bits keep no high halves; the first wider key brings
	 * them, all 0 for the keys before, and a key is both its halves.
	 */
	for (k = 1; k <= 50000; k++)
		tl_map32_put(&m, k, (uint32_t)k);
	CHECK(m.khi == NULL && tl_map32_get(&m, (uint64_t)1 << 32 | 7) == 0);
	tl_map32_put(&m, (uint64_t)1 << 32 | 7, 70);
	tl_map32_put(&m, (uint64_t)5 << 40 | 8, 80);
	CHECK(m.khi != NULL && tl_map32_get(&m, (uint64_t)1 << 32 | 7) == 70 &&
	    tl_map32_get(&m, (uint64_t)5 << 40 | 8) == 80 &&
	    tl_map32_get(&m, 7) == 7 && tl_map32_get(&m, 8) == 8 &&
	    tl_map32_get(&m, (uint64_t)2 << 32 | 7) == 0);
	for (k = 50001; k <= 200000; k++)	/* more doublings, wide keys */
		tl_map32_put(&m, k << 20, (uint32_t)k);
	for (k = 1, ok = 1; k <= 200000; k++)
		if (tl_map32_get(&m, k <= 50000 ? k : k << 20) != (uint32_t)k)
			ok = 0;
	CHECK(ok && m.n == 200002);
	tl_map32_free(&m);
	CHECK(dmap_check());
	return unit_done("test_hashmap");
}
