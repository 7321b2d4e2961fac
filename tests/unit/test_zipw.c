/* See LICENSE file for copyright and license details. */
/*
 * The ZIP writer: write an archive, then read it back by hand (local
 * headers, raw inflate, CRC, central directory, end record).
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "common/util.h"
#include "render/zipw.h"
#include "unit.h"

static unsigned
get16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Inflate raw data; 0 and the output in out when it is n bytes. */
static int
inflate_raw(const unsigned char *in, size_t cn, unsigned char *out, size_t n)
{
	z_stream s;
	int rc;

	memset(&s, 0, sizeof(s));
	if (inflateInit2(&s, -15) != Z_OK)
		return -1;
	s.next_in = (Bytef *)(uintptr_t)in;
	s.avail_in = (uInt)cn;
	s.next_out = out;
	s.avail_out = (uInt)n;
	rc = inflate(&s, Z_FINISH);
	inflateEnd(&s);
	return rc == Z_STREAM_END && s.total_out == n ? 0 : -1;
}

int
main(void)
{
	char path[] = "/tmp/test_zipw.XXXXXX";
	static char big[20000];
	const char *small = "hi\n";
	const char *names[2] = { "pkg/big.txt", "pkg/run.py" };
	const char *data[2];
	size_t len[2], k, off = 0, n;
	unsigned char *z;
	struct tl_zip *zw;
	int fd;

	for (k = 0; k < sizeof(big) - 1; k++)
		big[k] = "replay "[k % 7];
	data[0] = big;
	data[1] = small;
	len[0] = strlen(big);
	len[1] = strlen(small);
	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);
	zw = tl_zip_create(path);
	tl_zip_add(zw, names[0], 0644, data[0], len[0]);
	tl_zip_add(zw, names[1], 0755, data[1], len[1]);
	tl_zip_close(zw);
	z = (unsigned char *)tl_slurp(path, &n);
	unlink(path);
	CHECK(z != NULL);
	if (z == NULL)
		return unit_done("zipw");
	for (k = 0; k < 2; k++) {
		const unsigned char *h = z + off;
		unsigned method = get16(h + 8), nlen = get16(h + 26);
		uint32_t crc = get32(h + 14), cn = get32(h + 18);
		unsigned char *out = malloc(len[k] + 1);

		CHECK(get32(h) == 0x04034b50u);
		CHECK(get32(h + 22) == len[k]);
		CHECK(nlen == strlen(names[k]) &&
		    memcmp(h + 30, names[k], nlen) == 0);
		CHECK(crc == crc32(0, (const Bytef *)data[k], (uInt)len[k]));
		/* The big text deflates; three bytes do not. */
		CHECK(method == (k == 0 ? 8u : 0u));
		if (method == 8)
			CHECK(inflate_raw(h + 30 + nlen, cn, out, len[k]) == 0);
		else
			memcpy(out, h + 30 + nlen, len[k]);
		CHECK(memcmp(out, data[k], len[k]) == 0);
		CHECK(k != 0 || cn < len[0] / 10);
		free(out);
		off += 30 + nlen + cn;
	}
	/* Central directory, then the end record. */
	CHECK(get32(z + off) == 0x02014b50u);
	CHECK(get32(z + off + 38) >> 16 == 0100644);
	CHECK(get32(z + n - 22) == 0x06054b50u);
	CHECK(get16(z + n - 22 + 10) == 2);		/* entries */
	CHECK(get32(z + n - 22 + 16) == off);		/* directory offset */
	CHECK(get32(z + n - 22 + 12) == n - 22 - off);	/* its size */
	free(z);
	return unit_done("zipw");
}
