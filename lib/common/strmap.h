/* See LICENSE file for copyright and license details. */
#ifndef TL_STRMAP_H
#define TL_STRMAP_H

/*
 * A map from byte strings to indexes 0, 1, 2, ... in insertion order:
 * the keys of per-signature groups and caches.  Open addressing; the map
 * owns copies of its keys.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tl_strmap {
	char **key;		/* by index */
	size_t *len;
	uint64_t *hash;
	int64_t *slot;		/* slot -> index, -1 empty */
	size_t n, cap, nslot;
	size_t *probes;		/* when set, counts the slots looked at
				   (a unit test checks they grow linearly) */
};

void tl_strmap_init(struct tl_strmap *m);
void tl_strmap_free(struct tl_strmap *m);
/* The index of key k[0..n), or -1. */
int64_t tl_strmap_get(const struct tl_strmap *m, const char *k, size_t n);
/* The index of key k[0..n), added with the next index when absent. */
int64_t tl_strmap_add(struct tl_strmap *m, const char *k, size_t n, int *added);
/* The key of index i (NUL-terminated). */
const char *tl_strmap_key(const struct tl_strmap *m, int64_t i);

/*
 * tl_strmap_add, trying index *last first (-1 none) and setting it: for
 * keys that repeat row after row (a stream's trace), one compare.
 */
static inline int64_t
tl_strmap_add_last(struct tl_strmap *m, int64_t *last, const char *k,
    size_t n, int *added)
{
	if (*last >= 0 && m->len[*last] == n &&
	    memcmp(m->key[*last], k, n) == 0) {
		*added = 0;
		return *last;
	}
	return *last = tl_strmap_add(m, k, n, added);
}

#endif
