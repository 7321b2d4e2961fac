/* See LICENSE file for copyright and license details. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/jsonw.h"
#include "common/tsv.h"
#include "common/util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

void
tl_jb_reset(struct tl_jbuf *b)
{
	b->n = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

void
tl_jb_free(struct tl_jbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

void
tl_jb_grow(struct tl_jbuf *b, size_t n)
{
	tl_grow(&b->s, &b->cap, b->n + n + 1, 1);
}

/* 1 if byte c does not go into a JSON string as it is (tl_jb_str). */
static int
json_stop(unsigned char c)
{
	return c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
}

/*
 * The run of s[0..n) that goes into a JSON string as it is: sixteen
 * bytes at a time with SSE2 (a signed compare below 0x20 takes the
 * bytes from 0x80 too).
 */
static size_t
json_run(const char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
	    sp = _mm_set1_epi8(0x20);

	for (; n - i >= 16; i += 16) {
		__m128i x = _mm_loadu_si128((const void *)(s + i));
		int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(x, sp),
		    _mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, bs))));

		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
	if (i < n && n >= 16) {	/* the last 16 bytes, less those seen */
		__m128i x = _mm_loadu_si128((const void *)(s + n - 16));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmplt_epi8(x, sp), _mm_or_si128(_mm_cmpeq_epi8(x, q),
		    _mm_cmpeq_epi8(x, bs))));

		m >>= i - (n - 16);
		return m != 0 ? i + (size_t)__builtin_ctz(m) : n;
	}
#endif
	for (; i < n; i++)
		if (json_stop((unsigned char)s[i]))
			return i;
	return n;
}

void
tl_jb_str(struct tl_jbuf *b, const char *s)
{
	tl_jb_strn(b, s, strlen(s));
}

void
tl_jb_strn(struct tl_jbuf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	size_t run;

	/* Stops at a NUL inside, as the C string it was. */
	if ((run = json_run(s, len)) == len && (b->cap - b->n > len + 2)) {
		char *o = b->s + b->n;

		o[0] = '"';
		memcpy(o + 1, s, len);
		o[len + 1] = '"';
		o[len + 2] = '\0';
		b->n += len + 2;
		return;
	}
	tl_jb_raw(b, "\"", 1);
	while (p < end && *p != '\0') {
		char esc[8];

		run = json_run((const char *)p, (size_t)(end - p));
		tl_jb_raw(b, (const char *)p, run);
		p += run;
		if (p == end || *p == '\0')
			break;
		if (*p >= 0x80) {	/* JSON text is UTF-8 */
			if ((run = tl_utf8_len((const char *)p, 4)) == 0) {
				tl_jb_raw(b, "\xef\xbf\xbd", 3);	/* U+FFFD */
				run = 1;
			} else
				tl_jb_raw(b, (const char *)p, run);
			p += run;
			continue;
		}
		if (*p == '"' || *p == '\\')
			snprintf(esc, sizeof(esc), "\\%c", *p);
		else if (*p == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (*p == '\t')
			snprintf(esc, sizeof(esc), "\\t");
		else if (*p == '\r')
			snprintf(esc, sizeof(esc), "\\r");
		else
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
		tl_jb_raw(b, esc, strlen(esc));
		p++;
	}
	tl_jb_raw(b, "\"", 1);
}

void
tl_jb_int(struct tl_jbuf *b, int64_t v)
{
	if (b->cap - b->n <= 24)
		tl_jb_grow(b, 24);
	b->n += tl_fmt_i64(b->s + b->n, v);
}

void
tl_jb_us(struct tl_jbuf *b, int64_t ns)
{
	if (b->cap - b->n <= 32)
		tl_jb_grow(b, 32);
	b->n += tl_fmt_us(b->s + b->n, 32, ns);
}
