/* See LICENSE file for copyright and license details. */
#ifndef TL_HASHMAP_H
#define TL_HASHMAP_H

/*
 * A map from a pair of 64-bit keys to a 64-bit value, open addressing.
 * Used for the linking indexes (flow ids, correlation ids, (pid, tid, id)).
 */
#include <stddef.h>
#include <stdint.h>

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
/* A 64-bit hash of n bytes, for keys made from strings. */
uint64_t tl_hash(const void *s, size_t n);

#endif
