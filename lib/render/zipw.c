/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/outfile.h"
#include "common/util.h"
#include "render/zipw.h"

#define SIG_LOCAL	0x04034b50u
#define SIG_CENTRAL	0x02014b50u
#define SIG_END		0x06054b50u
#define VERSION_NEEDED	20		/* 2.0: deflate */
#define MADE_BY_UNIX	(3u << 8 | 20)	/* Unix, spec 2.0 */
#define METHOD_STORE	0
#define METHOD_DEFLATE	8
#define DOS_DATE	((0u << 9) | (1u << 5) | 1u)	/* 1980-01-01 */
#define DOS_TIME	0u
#define ZIP_MAX		0xffffffffu

struct entry {
	char *name;
	unsigned mode;
	uint16_t method;
	uint32_t crc, csize, usize, offset;
};

struct tl_zip {
	struct tl_outfile out;	/* renamed into place by tl_zip_close */
	FILE *fp;
	char *path;
	uint64_t off;		/* bytes written */
	struct entry *e;
	size_t n, cap;
};

static void
put(struct tl_zip *z, const void *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, z->fp) != n)
		tl_die("%s: write error:", z->path);
	z->off += n;
	if (z->off > ZIP_MAX)
		tl_die("%s: archive larger than 4 GiB (no ZIP64)", z->path);
}

/* Little-endian fields. */
static void
put16(struct tl_zip *z, unsigned v)
{
	unsigned char b[2] = { v & 0xff, (v >> 8) & 0xff };

	put(z, b, 2);
}

static void
put32(struct tl_zip *z, uint32_t v)
{
	unsigned char b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
	    (v >> 24) & 0xff };

	put(z, b, 4);
}

struct tl_zip *
tl_zip_create(const char *path)
{
	struct tl_zip *z = tl_calloc(1, sizeof(*z));

	z->path = tl_strdup(path);
	z->fp = tl_outfile_open(&z->out, path, 0666);
	return z;
}

/*
 * Raw-deflate data into *out (allocated); its length, or (size_t)-1 when
 * the result is not smaller than the input.
 */
static size_t
deflate_raw(const struct tl_zip *z, const void *data, size_t n,
    unsigned char **out)
{
	z_stream s;
	uLong bound;
	size_t len;

	memset(&s, 0, sizeof(s));
	if (deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		tl_die("%s: zlib: cannot start deflate", z->path);
	bound = deflateBound(&s, (uLong)n);
	*out = tl_malloc(bound);
	s.next_in = (Bytef *)(uintptr_t)data;
	s.avail_in = (uInt)n;
	s.next_out = *out;
	s.avail_out = (uInt)bound;
	if (deflate(&s, Z_FINISH) != Z_STREAM_END)
		tl_die("%s: zlib: deflate did not finish", z->path);
	len = (size_t)s.total_out;
	deflateEnd(&s);
	if (len >= n) {
		free(*out);
		*out = NULL;
		return (size_t)-1;
	}
	return len;
}

/* The fields the local and the central header share, in their order. */
static void
put_common(struct tl_zip *z, const struct entry *e, size_t nlen)
{
	put16(z, VERSION_NEEDED);
	put16(z, 0);			/* flags */
	put16(z, e->method);
	put16(z, DOS_TIME);
	put16(z, DOS_DATE);
	put32(z, e->crc);
	put32(z, e->csize);
	put32(z, e->usize);
	put16(z, (unsigned)nlen);
	put16(z, 0);			/* extra field length */
}

void
tl_zip_add(struct tl_zip *z, const char *name, unsigned mode,
    const void *data, size_t n)
{
	struct entry *e;
	unsigned char *packed = NULL;
	size_t nlen = strlen(name), clen;

	if (n > ZIP_MAX || n > (uInt)-1)
		tl_die("%s: %s: file larger than 4 GiB (no ZIP64)", z->path,
		    name);
	if (z->n == 0xffff)
		tl_die("%s: more than 65535 files (no ZIP64)", z->path);
	if (nlen == 0 || nlen > 0xffff || name[0] == '/')
		tl_die("%s: '%s': not a relative file name", z->path, name);
	tl_grow(&z->e, &z->cap, z->n + 1, sizeof(*z->e));
	e = &z->e[z->n++];
	e->name = tl_strdup(name);
	e->mode = mode;
	e->crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)n);
	e->usize = (uint32_t)n;
	e->offset = (uint32_t)z->off;
	clen = deflate_raw(z, data, n, &packed);
	if (clen == (size_t)-1) {
		e->method = METHOD_STORE;
		e->csize = (uint32_t)n;
	} else {
		e->method = METHOD_DEFLATE;
		e->csize = (uint32_t)clen;
	}
	put32(z, SIG_LOCAL);
	put_common(z, e, nlen);
	put(z, name, nlen);
	put(z, packed != NULL ? (const void *)packed : data, e->csize);
	free(packed);
}

void
tl_zip_close(struct tl_zip *z)
{
	uint64_t start = z->off, size;
	size_t i;

	for (i = 0; i < z->n; i++) {
		const struct entry *e = &z->e[i];
		size_t nlen = strlen(e->name);

		put32(z, SIG_CENTRAL);
		put16(z, MADE_BY_UNIX);
		put_common(z, e, nlen);
		put16(z, 0);		/* comment length */
		put16(z, 0);		/* disk number */
		put16(z, 0);		/* internal attributes */
		put32(z, (uint32_t)(0100000u | (e->mode & 07777)) << 16);
		put32(z, e->offset);
		put(z, e->name, nlen);
	}
	size = z->off - start;
	put32(z, SIG_END);
	put16(z, 0);			/* this disk */
	put16(z, 0);			/* disk of the central directory */
	put16(z, (unsigned)z->n);
	put16(z, (unsigned)z->n);
	put32(z, (uint32_t)size);
	put32(z, (uint32_t)start);
	put16(z, 0);			/* comment length */
	tl_outfile_commit(&z->out);
	for (i = 0; i < z->n; i++)
		free(z->e[i].name);
	free(z->e);
	free(z->path);
	free(z);
}
