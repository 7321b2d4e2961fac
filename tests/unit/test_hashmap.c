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
	return unit_done("test_hashmap");
}
