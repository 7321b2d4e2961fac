/* See LICENSE file for copyright and license details. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/jsonw.h"
#include "common/tsv.h"
#include "common/util.h"

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
tl_jb_raw(struct tl_jbuf *b, const char *s, size_t n)
{
	tl_grow(&b->s, &b->cap, b->n + n + 1, 1);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

void
tl_jb_lit(struct tl_jbuf *b, const char *s)
{
	tl_jb_raw(b, s, strlen(s));
}

/* 1 if byte c does not go into a JSON string as it is (tl_jb_str). */
static int
json_stop(unsigned char c)
{
	return c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
}

void
tl_jb_str(struct tl_jbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);
	size_t run;

	tl_jb_raw(b, "\"", 1);
	while (*p != '\0') {
		char esc[8];

		run = tl_bytes_run((const char *)p, (size_t)(end - p), 0x20,
		    1, '"', '\\', json_stop);
		tl_jb_raw(b, (const char *)p, run);
		p += run;
		if (*p == '\0')
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
		tl_jb_lit(b, esc);
		p++;
	}
	tl_jb_raw(b, "\"", 1);
}

void
tl_jb_int(struct tl_jbuf *b, int64_t v)
{
	char buf[32];

	tl_jb_raw(b, buf, tl_fmt_i64(buf, v));
}

void
tl_jb_us(struct tl_jbuf *b, int64_t ns)
{
	char buf[32];

	tl_fmt_us(buf, sizeof(buf), ns);
	tl_jb_lit(b, buf);
}
