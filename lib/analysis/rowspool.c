/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* memmem */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/rowspool.h"
#include "common/tsv.h"
#include "common/util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The file: one record a row, [u32 record bytes][u32 row bytes][note]
 * [ops], in the machine's byte order (the file is this process's only).
 * The ops rebuild the row's text in order:
 *   'L' u32 n, n bytes         text as it is (tabs included)
 *   'R' u16 k                  the text of slot k
 *   'D' u16 k, u32 n, n bytes  text as it is, kept in slot k
 *   'X' u32 id                 the caller's text id (tl_rowspool_text)
 *
 * The first WARM rows are written as they are, and counted: a column
 * whose field equals the row before's on most of them (a trace's
 * figures) is shared from then on, like the columns the caller names.
 * Neighbouring shared columns make one block.  A block of MINLEN to
 * MAXLEN bytes is looked up in the WAYS slots of the set its block,
 * length and three 8-byte windows choose: found, it is an 'R', else a 'D'
 * into the set's slot least recently used (the reader needs no choice of
 * its own: each op names its slot).  A block seldom found is written as
 * it is after TRIES tries.  In the kernels column each kernel's name is
 * shared so.
 */
#define SLOT_BITS 12
#define NSLOT (1u << SLOT_BITS)
#define WAY_BITS 2
#define WAYS (1u << WAY_BITS)
#define MINLEN 16
#define MAXLEN 2048
#define TRIES 1024
#define WARM 64
#define FLUSH (1u << 20)	/* bytes out a write(2) */
#define NAME_KEY "\"name\":\""
#define NAME_BLOCK (-1)		/* the key of kernel names */

struct slot {
	char *s;
	uint32_t n, cap;
	uint32_t tag;		/* writing: the text's hash, to compare first */
	uint32_t used;		/* writing: when last found or set */
};

/* What is done with a column's field. */
enum { PLAIN, SHARE, KERNELS };

/* A run of columns written one way: first..last, kind SHARE or KERNELS. */
struct block {
	int first, last, kind;
	unsigned tries, hits;
	unsigned at;		/* the slot of its last text */
};

struct tl_rowspool {
	FILE *fp;		/* the file, unlinked */
	int fd;
	size_t note_size;
	struct slot slot[NSLOT];
	uint32_t clock;		/* writing: lookups so far, for the slots' use */
	unsigned name_at;	/* writing: the slot of the last kernel name */
	unsigned char *kind;	/* the caller's: SHARE, KERNELS, else PLAIN */
	unsigned *same;		/* warm rows equal to the row before */
	size_t ncol;
	long rows;
	struct block *blk;	/* after the warm rows */
	int nblk;
	/* writing: buf[0..len) not yet out; the record from row */
	char *buf;
	size_t len, cap;
	size_t row;		/* offset of the current record */
	size_t lit;		/* offset of the open 'L' op's length, or 0 */
	size_t rowlen;		/* text of the current row */
	/* the previous row's fields, while warm: pt[pfo[k]..pfo[k] + pfl[k]) */
	char *pt;
	size_t *pfo, *pfl, ptcap, pfcap;
	int pnf;
	/* the caller's texts */
	struct text {
		const char *s;
		size_t n;
	} *text;
	size_t ntext, captext;
	/* reading: buf[pos..len) read, not yet taken */
	size_t pos;
	int eof;
};

/* v into p[0..n), n 2 or 4 (the file is this process's: its byte order). */
static inline void
st(char *p, uint32_t v, int n)
{
	uint16_t h = (uint16_t)v;

	if (n == 2)
		memcpy(p, &h, 2);
	else
		memcpy(p, &v, 4);
}

/* The n-byte number at p, as st wrote it. */
static inline uint32_t
ld(const char *p, int n)
{
	uint16_t h;
	uint32_t v;

	if (n == 2) {
		memcpy(&h, p, 2);
		return h;
	}
	memcpy(&v, p, 4);
	return v;
}

/* Room for n more bytes at buf + len. */
static char *
room(struct tl_rowspool *sp, size_t n)
{
	if (sp->cap - sp->len < n)
		tl_grow(&sp->buf, &sp->cap, sp->len + n, 1);
	return sp->buf + sp->len;
}

/* Start a record at buf + len: its lengths filled in at its end. */
static void
begin(struct tl_rowspool *sp)
{
	sp->row = sp->len;
	room(sp, 8 + sp->note_size);
	sp->len += 8 + sp->note_size;
	sp->rowlen = 0;
}

struct tl_rowspool *
tl_rowspool_new(size_t note_size, const char **dir)
{
	struct tl_rowspool *sp;
	FILE *fp = tl_tmpfile(dir);

	if (fp == NULL)
		return NULL;
	sp = tl_calloc(1, sizeof(*sp));
	sp->fp = fp;
	sp->fd = fileno(fp);
	sp->note_size = note_size;
	sp->cap = 2 * FLUSH;
	sp->buf = tl_malloc(sp->cap);
	begin(sp);
	return sp;
}

void
tl_rowspool_free(struct tl_rowspool *sp)
{
	size_t i;

	if (sp == NULL)
		return;
	for (i = 0; i < NSLOT; i++)
		free(sp->slot[i].s);
	free(sp->kind);
	free(sp->same);
	free(sp->blk);
	free(sp->pt);
	free(sp->pfo);
	free(sp->pfl);
	free(sp->buf);
	free(sp->text);
	fclose(sp->fp);
	free(sp);
}

/* Room for column col in the per-column arrays. */
static void
columns(struct tl_rowspool *sp, size_t col)
{
	size_t old = sp->ncol, n = old;

	if (col < old)
		return;
	tl_grow_set(&sp->same, &n, col + 1, sizeof(*sp->same), 0);
	sp->kind = tl_realloc(sp->kind, n);
	memset(sp->kind + old, PLAIN, n - old);
	sp->ncol = n;
}

void
tl_rowspool_share(struct tl_rowspool *sp, int col)
{
	if (col >= 0) {
		columns(sp, (size_t)col);
		sp->kind[col] = SHARE;
	}
}

void
tl_rowspool_kernels(struct tl_rowspool *sp, int col)
{
	if (col >= 0) {
		columns(sp, (size_t)col);
		sp->kind[col] = KERNELS;
	}
}

/*
 * Copy s[0..n) to d, each NUL a tab: where a split line (the stream's)
 * had its tabs; text has no NUL of its own.
 */
#ifdef __SSE2__
/* copy_tabs of 16 bytes. */
static inline void
copy_tabs16(char *d, const char *s)
{
	const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);

	_mm_storeu_si128((__m128i *)(void *)d, _mm_or_si128(x,
	    _mm_and_si128(_mm_cmpeq_epi8(x, _mm_setzero_si128()),
	    _mm_set1_epi8('\t'))));
}
#endif

static void
copy_tabs(char *d, const char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	if (n >= 16) {
		for (; i + 16 <= n; i += 16)
			copy_tabs16(d + i, s + i);
		if (i < n)	/* the last 16, overlapping */
			copy_tabs16(d + n - 16, s + n - 16);
		return;
	}
#endif
	for (; i < n; i++)
		d[i] = s[i] != '\0' ? s[i] : '\t';
}

/* Close the open 'L' op: its length. */
static void
close_lit(struct tl_rowspool *sp)
{
	if (sp->lit != 0)
		st(sp->buf + sp->lit, (uint32_t)(sp->len - sp->lit - 4), 4);
	sp->lit = 0;
}

/* Text s[0..n) as it is. */
static void
literal(struct tl_rowspool *sp, const char *s, size_t n)
{
	char *p;

	if (n == 0)
		return;
	if (sp->lit == 0) {
		p = room(sp, 5);
		*p = 'L';
		sp->lit = sp->len + 1;
		sp->len += 5;
	}
	copy_tabs(room(sp, n), s, n);
	sp->len += n;
	sp->rowlen += n;
}

/* Slot t now holds the n bytes at s. */
static void
slot_set(struct slot *t, const char *s, size_t n)
{
	if (t->cap < n) {
		t->cap = (uint32_t)n;
		free(t->s);
		t->s = tl_malloc(n);
	}
	memcpy(t->s, s, n);
	t->n = (uint32_t)n;
}

/*
 * The hash of text s[0..n) (n >= 16) of block key: three 8-byte windows,
 * the length and sums of all its 8-byte words (in lanes), so texts
 * that differ in one digit (a layer's number in a call stack) fall in
 * different sets instead of taking turns in one.
 */
static uint64_t
hash_of(int key, const char *s, size_t n)
{
	uint64_t a, b, c, h, sum[2];
	size_t i;

#ifdef __SSE2__
	__m128i acc = _mm_setzero_si128(), acc2 = acc;

	for (i = 0; i + 32 <= n; i += 32) {
		acc = _mm_add_epi64(acc, _mm_loadu_si128((const __m128i *)
		    (const void *)(s + i)));
		acc2 = _mm_xor_si128(acc2, _mm_loadu_si128((const __m128i *)
		    (const void *)(s + i + 16)));
	}
	if (i + 16 <= n)
		acc = _mm_add_epi64(acc, _mm_loadu_si128((const __m128i *)
		    (const void *)(s + i)));
	_mm_storeu_si128((__m128i *)(void *)sum, _mm_add_epi64(acc,
	    _mm_slli_epi64(acc2, 1)));
#else
	sum[0] = sum[1] = 0;
	for (i = 0; i + 16 <= n; i += 16) {
		memcpy(&a, s + i, 8);
		memcpy(&b, s + i + 8, 8);
		sum[0] += a;
		sum[1] ^= b;
	}
#endif
	memcpy(&a, s, 8);
	memcpy(&b, s + n - 8, 8);	/* with the bytes the sum left */
	memcpy(&c, s + (n - 8) / 2, 8);
	h = a * 0x9e3779b97f4a7c15ull ^ b * 0xc2b2ae3d27d4eb4full ^
	    c * 0x165667b19e3779f9ull ^ sum[0] * 0x27d4eb2f165667c5ull ^
	    (sum[1] ^ (uint64_t)n << 20 ^ (uint64_t)(unsigned)key) *
	    0xd6e8feb86659fd93ull;
	h ^= h >> 29;
	return h * 0x9e3779b97f4a7c15ull;
}

/*
 * Text s[0..n) (MINLEN to MAXLEN bytes) through the slots: an 'R' when
 * a slot of its set holds it, else a 'D' that puts it in the set's slot
 * least recently used; 1 when found.
 */
static int
shared(struct tl_rowspool *sp, int key, const char *s, size_t n,
    unsigned *at)
{
	uint64_t h;
	uint32_t tag;
	unsigned k = *at, set;
	struct slot *t = &sp->slot[k], *old;
	char *p;

	close_lit(sp);
	sp->rowlen += n;
	sp->clock++;
	if (t->n == n && memcmp(t->s, s, n) == 0)	/* as the last time */
		goto found;
	h = hash_of(key, s, n);
	tag = (uint32_t)h;
	set = (unsigned)(h >> (64 - SLOT_BITS + WAY_BITS)) << WAY_BITS;
	old = &sp->slot[set];
	for (k = set; k < set + WAYS; k++) {
		t = &sp->slot[k];
		if (t->tag == tag && t->n == n && memcmp(t->s, s, n) == 0)
			goto found;
		if (t->used < old->used)
			old = t;
	}
	t = old;
	k = (unsigned)(t - sp->slot);
	*at = k;
	t->tag = tag;
	t->used = sp->clock;
	slot_set(t, s, n);
	p = room(sp, 7 + n);
	p[0] = 'D';
	st(p + 1, k, 2);
	st(p + 3, (uint32_t)n, 4);
	copy_tabs(p + 7, s, n);
	sp->len += 7 + n;
	return 0;
found:
	*at = k;
	t->used = sp->clock;
	p = room(sp, 3);
	p[0] = 'R';
	st(p + 1, k, 2);
	sp->len += 3;
	return 1;
}

/*
 * The next kernel's NAME_KEY in p[0..e), or NULL: each kernel object of
 * the op stream starts {"uid":N,"name":" (man/tl-format.5), so the key
 * is looked for after the next brace, and anywhere only when the object
 * starts otherwise.  A key in the text of a JSON string has its quotes
 * escaped: whichever is found, the row is spooled byte for byte.
 */
static const char *
next_name(const char *p, const char *e)
{
	static const char uid[] = "{\"uid\":";
	const char *q = memchr(p, '{', (size_t)(e - p)), *d;

	if (q == NULL)
		return NULL;	/* no kernel object after p */
	if ((size_t)(e - q) > sizeof(uid) - 1 &&
	    memcmp(q, uid, sizeof(uid) - 1) == 0) {
		for (d = q + sizeof(uid) - 1; d < e && *d >= '0' && *d <= '9';
		    d++)
			;
		if ((size_t)(e - d) > sizeof(NAME_KEY) && *d == ',' &&
		    memcmp(d + 1, NAME_KEY, sizeof(NAME_KEY) - 1) == 0)
			return d + 1;
	}
	return memmem(q, (size_t)(e - q), NAME_KEY, sizeof(NAME_KEY) - 1);
}

/* A kernels field: each kernel's name through the slots. */
static void
kernels(struct tl_rowspool *sp, const char *s, size_t n)
{
	const char *p = s, *e = s + n, *q, *a, *b;

	while ((q = next_name(p, e)) != NULL) {
		a = q + sizeof(NAME_KEY) - 1;
		if ((b = memchr(a, '"', (size_t)(e - a))) == NULL)
			break;
		if (b - a >= MINLEN && b - a <= MAXLEN &&
		    memchr(a, '\\', (size_t)(b - a)) == NULL) {
			literal(sp, p, (size_t)(a - p));
			shared(sp, NAME_BLOCK, a, (size_t)(b - a),
			    &sp->name_at);
		} else
			literal(sp, p, (size_t)(b - p));
		p = b;
	}
	literal(sp, p, (size_t)(e - p));
}

/* Count the warm row's fields equal to the row before's; keep them. */
static void
count(struct tl_rowspool *sp, char *const *f, const size_t *n, int nf)
{
	size_t len = nf > 0 ? (size_t)(f[nf - 1] - f[0]) + n[nf - 1] : 0;
	int k;

	columns(sp, (size_t)nf);
	for (k = 0; k < nf && k < sp->pnf; k++)
		if (sp->pfl[k] == n[k] &&
		    memcmp(sp->pt + sp->pfo[k], f[k], n[k]) == 0)
			sp->same[k]++;
	if ((size_t)nf > sp->pfcap) {
		sp->pfcap = (size_t)nf;
		sp->pfo = tl_realloc(sp->pfo, sp->pfcap * sizeof(*sp->pfo));
		sp->pfl = tl_realloc(sp->pfl, sp->pfcap * sizeof(*sp->pfl));
	}
	tl_grow(&sp->pt, &sp->ptcap, len + 1, 1);
	if (len > 0)
		memcpy(sp->pt, f[0], len);
	for (k = 0; k < nf; k++) {
		sp->pfo[k] = (size_t)(f[k] - f[0]);
		sp->pfl[k] = n[k];
	}
	sp->pnf = nf;
}

/* After the warm rows: the blocks, from the counts and the caller's kinds. */
static void
plan(struct tl_rowspool *sp)
{
	int k, kind, n = (int)sp->ncol;

	sp->blk = tl_calloc((size_t)n + 1, sizeof(*sp->blk));
	for (k = 0; k < n; k++) {
		kind = sp->kind[k];
		if (kind == PLAIN && sp->same[k] >= (WARM - 1) * 7 / 8)
			kind = SHARE;
		if (kind == PLAIN)
			continue;
		if (kind == SHARE && sp->nblk > 0 &&
		    sp->blk[sp->nblk - 1].kind == SHARE &&
		    sp->blk[sp->nblk - 1].last == k - 1) {
			sp->blk[sp->nblk - 1].last = k;
			continue;
		}
		sp->blk[sp->nblk].first = sp->blk[sp->nblk].last = k;
		sp->blk[sp->nblk++].kind = kind;
	}
}

/* buf[0..len) out to the file. */
static int
flush(struct tl_rowspool *sp)
{
	size_t done = 0;
	ssize_t n;

	while (done < sp->len) {
		n = write(sp->fd, sp->buf + done, sp->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	sp->len = 0;
	return 0;
}

void
tl_rowspool_row(struct tl_rowspool *sp, char *const *f, const size_t *n,
    int nf)
{
	const char *at, *from, *to;
	struct block *b;
	int i;

	if (nf == 0)
		return;
	at = f[0];
	if (sp->rows < WARM) {
		count(sp, f, n, nf);
		if (++sp->rows == WARM)
			plan(sp);
	} else
		for (i = 0; i < sp->nblk && sp->blk[i].last < nf; i++) {
			b = &sp->blk[i];
			from = f[b->first];
			to = f[b->last] + n[b->last];
			if (b->kind == KERNELS) {
				literal(sp, at, (size_t)(from - at));
				kernels(sp, from, (size_t)(to - from));
				at = to;
			} else if (b->tries < TRIES && to - from >= MINLEN &&
			    to - from <= MAXLEN) {
				literal(sp, at, (size_t)(from - at));
				b->hits += (unsigned)shared(sp, i, from,
				    (size_t)(to - from), &b->at);
				if (++b->tries == TRIES && b->hits >= TRIES / 8)
					b->tries = b->hits = 0;	/* worth it */
				at = to;
			}
		}
	literal(sp, at, (size_t)(f[nf - 1] + n[nf - 1] - at));
}

void
tl_rowspool_tail(struct tl_rowspool *sp, const char *s, size_t n)
{
	literal(sp, s, n);
}

unsigned
tl_rowspool_text(struct tl_rowspool *sp, const char *s, size_t n)
{
	tl_grow(&sp->text, &sp->captext, sp->ntext + 1, sizeof(*sp->text));
	sp->text[sp->ntext].s = s;
	sp->text[sp->ntext].n = n;
	return (unsigned)sp->ntext++;
}

void
tl_rowspool_ref(struct tl_rowspool *sp, unsigned id)
{
	char *p;

	close_lit(sp);
	p = room(sp, 5);
	p[0] = 'X';
	st(p + 1, id, 4);
	sp->len += 5;
	sp->rowlen += sp->text[id].n;
}

int
tl_rowspool_end(struct tl_rowspool *sp, const void *note)
{
	char *r;

	close_lit(sp);
	r = sp->buf + sp->row;
	st(r, (uint32_t)(sp->len - sp->row), 4);
	st(r + 4, (uint32_t)sp->rowlen, 4);
	memcpy(r + 8, note, sp->note_size);
	if (sp->len >= FLUSH && flush(sp) < 0)
		return -1;
	begin(sp);
	return 0;
}

int
tl_rowspool_rewind(struct tl_rowspool *sp)
{
	size_t i;

	sp->len = sp->row;	/* the record begun after the last */
	if (flush(sp) < 0 || lseek(sp->fd, 0, SEEK_SET) < 0)
		return -1;
	for (i = 0; i < NSLOT; i++)
		sp->slot[i].n = 0;
	sp->pos = sp->len = 0;
	sp->eof = 0;
	return 0;
}

/* At least n bytes at buf + pos, unless the file ends first: 1 or 0. */
static int
have(struct tl_rowspool *sp, size_t n)
{
	ssize_t r;

	while (sp->len - sp->pos < n && !sp->eof) {
		if (sp->pos > 0) {
			memmove(sp->buf, sp->buf + sp->pos, sp->len - sp->pos);
			sp->len -= sp->pos;
			sp->pos = 0;
		}
		if (sp->cap - sp->len < FLUSH)
			tl_grow(&sp->buf, &sp->cap, sp->len + FLUSH, 1);
		r = read(sp->fd, sp->buf + sp->len, sp->cap - sp->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			sp->eof = 1;
		sp->len += (size_t)r;
	}
	return sp->len - sp->pos >= n;
}

/* A record that does not add up: the file was changed under us. */
static int
corrupt(void)
{
	errno = EIO;
	return -1;
}

/* The ops p[0..e) into o[0..rowlen): 0, or -1 if they do not add up. */
static int
decode(struct tl_rowspool *sp, const char *p, const char *e, char *o,
    size_t rowlen)
{
	const char *from;
	size_t n, left = rowlen;
	unsigned k;
	struct slot *t;
	int op;

	while (p < e) {
		op = *p++;
		switch (op) {
		case 'L':
			if (e - p < 4 || (n = ld(p, 4)) > (size_t)(e - p - 4))
				return -1;
			from = p + 4;
			p += 4 + n;
			break;
		case 'R':
			if (e - p < 2 || (k = ld(p, 2)) >= NSLOT)
				return -1;
			p += 2;
			from = sp->slot[k].s;
			n = sp->slot[k].n;
			break;
		case 'X':
			if (e - p < 4 || (k = ld(p, 4)) >= sp->ntext)
				return -1;
			p += 4;
			from = sp->text[k].s;
			n = sp->text[k].n;
			break;
		case 'D':
			if (e - p < 6)
				return -1;
			k = ld(p, 2);
			n = ld(p + 2, 4);
			p += 6;
			if (n > MAXLEN || k >= NSLOT || n > (size_t)(e - p))
				return -1;
			t = &sp->slot[k];
			slot_set(t, p, n);
			from = p;
			p += n;
			break;
		default:
			return -1;
		}
		if (n > left)
			return -1;
		tl_w_copy_(o, from, n);
		o += n;
		left -= n;
	}
	return left == 0 ? 0 : -1;
}

int
tl_rowspool_next(struct tl_rowspool *sp, char **buf, size_t *len,
    size_t *cap, void *note)
{
	const char *p;
	size_t n, rowlen;
	int r;

	if ((r = have(sp, 8)) <= 0)
		return r < 0 ? -1 : sp->len > sp->pos ? corrupt() : 0;
	n = ld(sp->buf + sp->pos, 4);
	if (n < 8 + sp->note_size)
		return corrupt();
	if ((r = have(sp, n)) <= 0)
		return r < 0 ? -1 : corrupt();
	p = sp->buf + sp->pos;
	sp->pos += n;
	rowlen = ld(p + 4, 4);
	memcpy(note, p + 8, sp->note_size);
	if (*cap - *len < rowlen + 1)
		tl_grow(buf, cap, *len + rowlen + 1, 1);
	if (decode(sp, p + 8 + sp->note_size, p + n, *buf + *len, rowlen) < 0)
		return corrupt();
	*len += rowlen;
	return 1;
}
