/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "common/util.h"

static uint64_t
mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return h;
}

void
tl_map_init(struct tl_map *m)
{
	m->k1 = m->k2 = NULL;
	m->val = NULL;
	m->used = NULL;
	m->cap = m->n = 0;
}

void
tl_map_free(struct tl_map *m)
{
	free(m->k1);
	free(m->k2);
	free(m->val);
	free(m->used);
	tl_map_init(m);
}

/*
 * A grown table's array of n bytes: the rehash writes all over it (the
 * table is then 3/8 full), so a large one is made resident in one go.
 */
static void *
table(void *p, size_t n)
{
	if (n >= TL_AHEAD)
		tl_populate(p, n);
	return p;
}

static void
grow(struct tl_map *m)
{
	struct tl_map old = *m;
	size_t i, n = m->cap ? m->cap * 2 : 256;

	m->k1 = table(tl_malloc(n * sizeof(*m->k1)), n * sizeof(*m->k1));
	m->k2 = table(tl_malloc(n * sizeof(*m->k2)), n * sizeof(*m->k2));
	m->val = table(tl_malloc(n * sizeof(*m->val)), n * sizeof(*m->val));
	m->used = tl_calloc(n, 1);
	m->cap = n;
	m->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.used[i])
			tl_map_put(m, old.k1[i], old.k2[i], old.val[i]);
	tl_map_free(&old);
}

void
tl_map_put(struct tl_map *m, uint64_t k1, uint64_t k2, int64_t v)
{
	size_t j;

	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	j = mix(k1, k2) & (m->cap - 1);
	while (m->used[j]) {
		if (m->k1[j] == k1 && m->k2[j] == k2) {
			m->val[j] = v;
			return;
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->used[j] = 1;
	m->k1[j] = k1;
	m->k2[j] = k2;
	m->val[j] = v;
	m->n++;
}

int64_t *
tl_map_get(const struct tl_map *m, uint64_t k1, uint64_t k2)
{
	size_t j;

	if (m->cap == 0)
		return NULL;
	j = mix(k1, k2) & (m->cap - 1);
	while (m->used[j]) {
		if (m->k1[j] == k1 && m->k2[j] == k2)
			return &m->val[j];
		j = (j + 1) & (m->cap - 1);
	}
	return NULL;
}

/*
 * Key k's first slot.  Keys that differ only in their low four bits (ids
 * handed out in sequence, as correlation and flow ids are) go to one
 * group of 16 slots, so that a run of them is a few cache lines, not one
 * line each.  The rest of the key picks the group by Fibonacci hashing
 * (Knuth, TAOCP vol. 3, 6.4: the top bits of its product with 2^64 / the
 * golden ratio), which puts the groups of consecutive runs far apart and
 * evenly spaced, so that a run's group is seldom taken: a mixed hash of
 * the rest placed runs at random, a taken group pushed a whole run into
 * the next ones, and runs piled up (40 steps a lookup for the flow ids of
 * a Kineto trace, 1 now).  Middle bits of the product turn the slot
 * within the group, so that keys alike in their low four bits (multiples
 * of 16) do not all start at the group's first slot.
 */
static size_t
first32(const struct tl_map32 *m, uint64_t k)
{
	uint64_t p = (k >> 4) * 0x9e3779b97f4a7c15ull;
	int lg = __builtin_ctzll((unsigned long long)m->cap) - 4;

	return (size_t)((p >> (64 - lg)) << 4 | ((k ^ (p >> 28)) & 15));
}

void
tl_map32_init(struct tl_map32 *m)
{
	m->klo = m->khi = NULL;
	m->val = NULL;
	m->cap = m->n = 0;
}

void
tl_map32_free(struct tl_map32 *m)
{
	free(m->klo);
	free(m->khi);
	free(m->val);
	tl_map32_init(m);
}

/* 1 if slot j (in use) holds key k. */
static int
key32_is(const struct tl_map32 *m, size_t j, uint64_t k)
{
	return m->klo[j] == (uint32_t)k && (m->khi != NULL ?
	    m->khi[j] == (uint32_t)(k >> 32) : k >> 32 == 0);
}

uint64_t
tl_map32_key(const struct tl_map32 *m, size_t i)
{
	return (uint64_t)(m->khi != NULL ? m->khi[i] : 0) << 32 | m->klo[i];
}

static void
grow32(struct tl_map32 *m)
{
	struct tl_map32 old = *m;
	size_t i, n = m->cap ? m->cap * 2 : 256;

	m->klo = table(tl_malloc(n * sizeof(*m->klo)), n * sizeof(*m->klo));
	m->khi = old.khi != NULL ? table(tl_calloc(n, sizeof(*m->khi)),
	    n * sizeof(*m->khi)) : NULL;
	m->val = table(tl_calloc(n, sizeof(*m->val)), n * sizeof(*m->val));
	m->cap = n;
	m->n = old.n;
	/* Each key once and room to spare: straight to a free slot. */
	for (i = 0; i < old.cap; i++)
		if (old.val[i] != 0) {
			uint64_t k = tl_map32_key(&old, i);
			size_t j = first32(m, k);

			while (m->val[j] != 0)
				j = (j + 1) & (n - 1);
			m->klo[j] = old.klo[i];
			if (m->khi != NULL)
				m->khi[j] = old.khi[i];
			m->val[j] = old.val[i];
		}
	tl_map32_free(&old);
}

uint32_t *
tl_map32_at(struct tl_map32 *m, uint64_t k)
{
	size_t j;

	if ((m->n + 1) * 4 > m->cap * 3)
		grow32(m);
	if (k >> 32 != 0 && m->khi == NULL)	/* high halves all 0 so far */
		m->khi = table(tl_calloc(m->cap, sizeof(*m->khi)),
		    m->cap * sizeof(*m->khi));
	j = first32(m, k);
	while (m->val[j] != 0) {
		if (key32_is(m, j, k))
			return &m->val[j];
		j = (j + 1) & (m->cap - 1);
	}
	m->klo[j] = (uint32_t)k;
	if (m->khi != NULL)
		m->khi[j] = (uint32_t)(k >> 32);
	m->n++;
	return &m->val[j];
}

void
tl_map32_put(struct tl_map32 *m, uint64_t k, uint32_t v)
{
	*tl_map32_at(m, k) = v;
}

uint32_t
tl_map32_get(const struct tl_map32 *m, uint64_t k)
{
	size_t j;

	if (m->cap == 0 || (k >> 32 != 0 && m->khi == NULL))
		return 0;
	j = first32(m, k);
	while (m->val[j] != 0) {
		if (key32_is(m, j, k))
			return m->val[j];
		j = (j + 1) & (m->cap - 1);
	}
	return 0;
}

/* page[] entry of a key range whose keys are in rest for good */
static uint32_t refused[1];

void
tl_dmap32_init(struct tl_dmap32 *m)
{
	m->page = NULL;
	m->npage = m->cap = m->n = 0;
	tl_map32_init(&m->rest);
}

void
tl_dmap32_free(struct tl_dmap32 *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->page[i] != refused)
			free(m->page[i]);
	free(m->page);
	tl_map32_free(&m->rest);
	tl_dmap32_init(m);
}

const uint32_t *
tl_dmap32_page(const struct tl_dmap32 *m, size_t p)
{
	return m->page[p] != refused ? m->page[p] : NULL;
}

uint32_t
tl_dmap32_get(const struct tl_dmap32 *m, uint64_t k)
{
	uint64_t p = k / TL_DMAP32_PAGE;

	if (p < m->cap && m->page[p] != NULL && m->page[p] != refused)
		return m->page[p][k % TL_DMAP32_PAGE];
	return tl_map32_get(&m->rest, k);
}

uint32_t *
tl_dmap32_at(struct tl_dmap32 *m, uint64_t k)
{
	uint64_t p = k / TL_DMAP32_PAGE;
	uint32_t *v;

	if (p < m->cap && m->page[p] != NULL && m->page[p] != refused) {
		v = &m->page[p][k % TL_DMAP32_PAGE];
		m->n += *v == 0;
		return v;
	}
	if (k >= TL_DMAP32_KEYS || (p < m->cap && m->page[p] == refused))
		return tl_map32_at(&m->rest, k);
	if (p >= m->cap)
		tl_grow_set(&m->page, &m->cap, (size_t)p + 1,
		    sizeof(*m->page), 0);
	/* A page more: still one key in TL_DMAP32_SPARSE slots? */
	if ((m->npage + 1) * TL_DMAP32_PAGE > (m->n + 1) * TL_DMAP32_SPARSE +
	    TL_DMAP32_PAGE * 16) {
		m->page[p] = refused;
		return tl_map32_at(&m->rest, k);
	}
	m->page[p] = tl_calloc(TL_DMAP32_PAGE, sizeof(**m->page));
	m->npage++;
	m->n++;
	return &m->page[p][k % TL_DMAP32_PAGE];
}
