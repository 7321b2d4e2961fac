/* See LICENSE file for copyright and license details. */
#ifndef TL_HASHMAP_H
#define TL_HASHMAP_H

/*
 * Open-addressing hash maps: tl_map from a pair of 64-bit keys to a 64-bit
 * value (25 bytes a slot), and tl_map32 from one 64-bit key to a nonzero
 * 32-bit value (12 bytes a slot), for indexes with millions of keys such
 * as the flow ids of a trace.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tl_map {
	uint64_t *k1, *k2;
	int64_t *val;
	uint8_t *used;
	size_t cap, n;
};

void tl_map_init(struct tl_map *m);
void tl_map_free(struct tl_map *m);
/* Insert or overwrite (last writer wins). */
void tl_map_put(struct tl_map *m, uint64_t k1, uint64_t k2, int64_t v);
/* Return a pointer to the value, or NULL. */
int64_t *tl_map_get(const struct tl_map *m, uint64_t k1, uint64_t k2);
/*
 * Keys in two halves: the high ones only once a key needs them (flow and
 * correlation ids fit in 32 bits), so that a slot is 8 bytes, not 12.
 */
struct tl_map32 {
	uint32_t *klo, *khi;	/* khi NULL: every high half is 0 */
	uint32_t *val;		/* 0 = free slot */
	size_t cap, n;
};

void tl_map32_init(struct tl_map32 *m);
void tl_map32_free(struct tl_map32 *m);
/* Insert or overwrite; v must not be 0. */
void tl_map32_put(struct tl_map32 *m, uint64_t k, uint32_t v);
/* The value, or 0 when k is absent. */
uint32_t tl_map32_get(const struct tl_map32 *m, uint64_t k);
/*
 * k's value, for reading and writing in one lookup: 0 when k was absent,
 * and then k is in the map and the caller must store a value other than 0.
 */
uint32_t *tl_map32_at(struct tl_map32 *m, uint64_t k);
/* The key of slot i (< cap) when it is in use (val[i] != 0). */
uint64_t tl_map32_key(const struct tl_map32 *m, size_t i);

/*
 * tl_map32's interface for keys that come in dense runs, as a trace's
 * flow ids do (Kineto counts correlation ids up): a key below
 * TL_DMAP32_KEYS lives in a page of TL_DMAP32_PAGE values indexed by the
 * key, so that neighbouring keys share cache lines and no lookup hashes
 * or probes.  A page is made only while the pages hold at least one key
 * in TL_DMAP32_SPARSE of their slots on average; the keys of a range
 * refused a page, and larger keys, go to a tl_map32 (rest).
 */
#define TL_DMAP32_PAGE 4096
#define TL_DMAP32_KEYS ((uint64_t)1 << 26)
#define TL_DMAP32_SPARSE 4
struct tl_dmap32 {
	uint32_t **page;	/* by key / TL_DMAP32_PAGE: NULL none yet */
	size_t npage, cap;	/* pages made; length of page[] */
	size_t n;		/* keys in the pages */
	struct tl_map32 rest;
};

void tl_dmap32_init(struct tl_dmap32 *m);
void tl_dmap32_free(struct tl_dmap32 *m);
/* As tl_map32_get and tl_map32_at. */
uint32_t tl_dmap32_get(const struct tl_dmap32 *m, uint64_t k);
uint32_t *tl_dmap32_at(struct tl_dmap32 *m, uint64_t k);
/*
 * The values of keys p * TL_DMAP32_PAGE.. (p < m->cap), 0 where absent;
 * NULL when those keys are not in a page (they are in m->rest).
 */
const uint32_t *tl_dmap32_page(const struct tl_dmap32 *m, size_t p);

/*
 * A 64-bit hash of n bytes, for keys made from strings.  Inline: it is
 * called per row and per field on the streams' hot paths, where a call
 * costs more than the loop on short keys.
 */
static inline uint64_t
tl_hash(const void *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	/* Eight bytes a step; keys are long (shapes, strides, names). */
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

#endif
