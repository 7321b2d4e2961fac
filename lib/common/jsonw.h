/* See LICENSE file for copyright and license details. */
#ifndef TL_JSONW_H
#define TL_JSONW_H

/* Building compact JSON text (lists and maps inside stream fields). */
#include <stddef.h>
#include <stdint.h>

struct tl_jbuf {
	char *s;
	size_t n, cap;
};

void tl_jb_reset(struct tl_jbuf *b);
void tl_jb_free(struct tl_jbuf *b);
void tl_jb_raw(struct tl_jbuf *b, const char *s, size_t n);
void tl_jb_lit(struct tl_jbuf *b, const char *s);
/* A JSON string, quoted and escaped; bytes that are not UTF-8 as U+FFFD. */
void tl_jb_str(struct tl_jbuf *b, const char *s);
void tl_jb_int(struct tl_jbuf *b, int64_t v);
/* Nanoseconds as a JSON number of microseconds. */
void tl_jb_us(struct tl_jbuf *b, int64_t ns);

#endif
