/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "common/intern.h"
#include "common/util.h"

#define CHUNK (1u << 20)

struct entry {
	const char *s;
	uint32_t len;
};

struct tl_strtab {
	struct entry *ent;	/* by id */
	size_t nent, capent;
	uint32_t *slot;		/* open addressing: id + 1, 0 = free */
	uint32_t *hash;		/* by id */
	size_t nslot;
	char **chunks;
	size_t nchunks, capchunks;
	char *cur;
	size_t left;
	size_t bytes;
};

/*
 * The hash of the map's module for short strings; longer ones (op and
 * frame names, argument lists: 50 bytes on average) in two lanes of
 * eight bytes, whose multiplications overlap, instead of one chain.
 */
static uint32_t
hash(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t a = 0x9e3779b97f4a7c15ull ^ len, b = 0x2545f4914f6cdd1dull,
	    w, v;

	if (len < 16)
		return (uint32_t)tl_hash(s, len);
	for (; len >= 16; len -= 16, p += 16) {
		memcpy(&w, p, 8);
		memcpy(&v, p + 8, 8);
		a = (a ^ w) * 0xff51afd7ed558ccdull;
		a ^= a >> 32;
		b = (b ^ v) * 0xc4ceb9fe1a85ec53ull;
		b ^= b >> 29;
	}
	/* The last 16 bytes again (they overlap what went before). */
	memcpy(&w, p + len - 16, 8);
	memcpy(&v, p + len - 8, 8);
	a = (a ^ w ^ (b << 1)) * 0xff51afd7ed558ccdull;
	a ^= v;
	a *= 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(a ^ (a >> 29));
}

static char *
store(struct tl_strtab *t, const char *s, size_t len)
{
	char *p;

	if (len + 1 > t->left) {
		size_t n = len + 1 > CHUNK ? len + 1 : CHUNK;

		tl_grow(&t->chunks, &t->capchunks, t->nchunks + 1,
		    sizeof(*t->chunks));
		t->cur = t->chunks[t->nchunks++] = tl_malloc(n);
		t->left = n;
		t->bytes += n;
	}
	p = t->cur;
	memcpy(p, s, len);
	p[len] = '\0';
	t->cur += len + 1;
	t->left -= len + 1;
	return p;
}

static void
rehash(struct tl_strtab *t)
{
	size_t i, n = t->nslot ? t->nslot * 2 : 1024;

	free(t->slot);
	t->slot = tl_calloc(n, sizeof(*t->slot));
	t->nslot = n;
	for (i = 0; i < t->nent; i++) {
		size_t j = t->hash[i] & (n - 1);

		while (t->slot[j] != 0)
			j = (j + 1) & (n - 1);
		t->slot[j] = (uint32_t)i + 1;
	}
}

struct tl_strtab *
tl_strtab_new(void)
{
	struct tl_strtab *t = tl_calloc(1, sizeof(*t));
	size_t cap = 0;

	tl_grow(&t->ent, &t->capent, 1, sizeof(*t->ent));
	tl_grow(&t->hash, &cap, t->capent, sizeof(*t->hash));
	t->ent[0].s = store(t, "", 0);
	t->ent[0].len = 0;
	t->hash[0] = hash("", 0);
	t->nent = 1;
	rehash(t);
	return t;
}

void
tl_strtab_free(struct tl_strtab *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->ent);
	free(t->hash);
	free(t->slot);
	free(t);
}

uint32_t
tl_intern(struct tl_strtab *t, const char *s, size_t len)
{
	uint32_t h = hash(s, len), id;
	size_t j = h & (t->nslot - 1), oldcap;

	while ((id = t->slot[j]) != 0) {
		const struct entry *e = &t->ent[id - 1];

		if (t->hash[id - 1] == h && e->len == len &&
		    memcmp(e->s, s, len) == 0)
			return id - 1;
		j = (j + 1) & (t->nslot - 1);
	}
	if (len > UINT32_MAX)
		tl_die("string of %zu bytes is too long", len);
	oldcap = t->capent;
	tl_grow(&t->ent, &t->capent, t->nent + 1, sizeof(*t->ent));
	if (t->capent != oldcap)
		t->hash = tl_realloc(t->hash, t->capent * sizeof(*t->hash));
	id = (uint32_t)t->nent++;
	t->ent[id].s = store(t, s, len);
	t->ent[id].len = (uint32_t)len;
	t->hash[id] = h;
	t->slot[j] = id + 1;
	if (t->nent * 2 > t->nslot)
		rehash(t);
	return id;
}

const char *
tl_str(const struct tl_strtab *t, uint32_t id)
{
	return t->ent[id].s;
}

size_t
tl_strsize(const struct tl_strtab *t, uint32_t id)
{
	return t->ent[id].len;
}

size_t
tl_strtab_count(const struct tl_strtab *t)
{
	return t->nent;
}

size_t
tl_strtab_bytes(const struct tl_strtab *t)
{
	return t->bytes + t->capent * (sizeof(*t->ent) + sizeof(*t->hash)) +
	    t->nslot * sizeof(*t->slot);
}
