/* See LICENSE file for copyright and license details. */
#ifndef TL_JSONW_H
#define TL_JSONW_H

/* Building compact JSON text (lists and maps inside stream fields). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tl_jbuf {
	char *s;
	size_t n, cap;
};

void tl_jb_reset(struct tl_jbuf *b);
void tl_jb_free(struct tl_jbuf *b);
/* Room for n more bytes and a NUL. */
void tl_jb_grow(struct tl_jbuf *b, size_t n);
/* Bytes s[0..n) as they are (inline: a literal's copy is a few moves). */
static inline void
tl_jb_raw(struct tl_jbuf *b, const char *s, size_t n)
{
	if (b->cap - b->n <= n)
		tl_jb_grow(b, n);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}
/* A string literal (its length known where it is called). */
static inline void
tl_jb_lit(struct tl_jbuf *b, const char *s)
{
	tl_jb_raw(b, s, strlen(s));
}
/* A JSON string, quoted and escaped; bytes that are not UTF-8 as U+FFFD. */
void tl_jb_str(struct tl_jbuf *b, const char *s);
/* The same of s[0..n) (up to a NUL in it). */
void tl_jb_strn(struct tl_jbuf *b, const char *s, size_t n);
void tl_jb_int(struct tl_jbuf *b, int64_t v);
/* Nanoseconds as a JSON number of microseconds. */
void tl_jb_us(struct tl_jbuf *b, int64_t ns);

#endif
