/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "common/strmap.h"
#include "common/util.h"

void
tl_strmap_init(struct tl_strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void
tl_strmap_free(struct tl_strmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->key[i]);
	free(m->key);
	free(m->len);
	free(m->hash);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* The slot of key (h, k, n): where it is, or the empty slot for it. */
static size_t
find(const struct tl_strmap *m, uint64_t h, const char *k, size_t n)
{
	size_t i = (size_t)h & (m->nslot - 1);

	for (;; i = (i + 1) & (m->nslot - 1)) {
		int64_t x = m->slot[i];

		if (m->probes != NULL)
			(*m->probes)++;
		if (x < 0 || (m->hash[x] == h && m->len[x] == n &&
		    memcmp(m->key[x], k, n) == 0))
			return i;
	}
}

int64_t
tl_strmap_get(const struct tl_strmap *m, const char *k, size_t n)
{
	if (m->nslot == 0)
		return -1;
	return m->slot[find(m, tl_hash(k, n), k, n)];
}

static void
rehash(struct tl_strmap *m)
{
	size_t i, ns = m->nslot ? m->nslot * 2 : 64;

	free(m->slot);
	m->nslot = ns;
	m->slot = tl_malloc(ns * sizeof(*m->slot));
	for (i = 0; i < ns; i++)
		m->slot[i] = -1;
	for (i = 0; i < m->n; i++)
		m->slot[find(m, m->hash[i], m->key[i], m->len[i])] = (int64_t)i;
}

int64_t
tl_strmap_add(struct tl_strmap *m, const char *k, size_t n, int *added)
{
	uint64_t h = tl_hash(k, n);
	size_t i, cap;

	*added = 0;
	if (m->nslot != 0) {
		i = find(m, h, k, n);
		if (m->slot[i] >= 0)
			return m->slot[i];
	}
	if (2 * (m->n + 1) > m->nslot)
		rehash(m);
	cap = m->cap;
	tl_grow(&m->key, &cap, m->n + 1, sizeof(*m->key));
	m->len = tl_realloc(m->len, cap * sizeof(*m->len));
	m->hash = tl_realloc(m->hash, cap * sizeof(*m->hash));
	m->cap = cap;
	m->key[m->n] = tl_malloc(n + 1);
	memcpy(m->key[m->n], k, n);
	m->key[m->n][n] = '\0';
	m->len[m->n] = n;
	m->hash[m->n] = h;
	m->slot[find(m, h, k, n)] = (int64_t)m->n;
	*added = 1;
	return (int64_t)m->n++;
}

const char *
tl_strmap_key(const struct tl_strmap *m, int64_t i)
{
	return m->key[i];
}
