/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "trace/input.h"
#include "trace/jsonscan.h"

#define READSZ (1u << 18)

/* Byte classes outside strings. */
enum { C_OTHER, C_QUOTE, C_OPEN, C_CLOSE, C_NUL };

static unsigned char cls[256];

struct scanner {
	struct tl_input *in;
	const char *name;
	char *buf;
	size_t cap, len;	/* valid bytes buf[0..len) */
	size_t pos;		/* scan position */
	uint64_t base;		/* input offset of buf[0] */
	int eof;
	int failed;
};

static void
init_classes(void)
{
	cls['"'] = C_QUOTE;
	cls['{'] = cls['['] = C_OPEN;
	cls['}'] = cls[']'] = C_CLOSE;
	cls[0] = C_NUL;
}

static int
fail(struct scanner *s, size_t at, const char *what)
{
	tl_warn("%s:%llu: %s", s->name,
	    (unsigned long long)(s->base + at), what);
	s->failed = 1;
	return -1;
}

/*
 * Make more bytes available, keeping buf[keep..len).  Returns 1 if bytes
 * were added, 0 at end of input, -1 on error.  Positions are shifted by
 * keep; the caller adjusts its own offsets by the returned shift.
 */
static int
refill(struct scanner *s, size_t keep, size_t *shift)
{
	long n;

	*shift = 0;
	if (s->eof)
		return 0;
	if (keep > 0) {
		memmove(s->buf, s->buf + keep, s->len - keep);
		s->len -= keep;
		s->pos -= keep;
		s->base += keep;
		*shift = keep;
	}
	if (s->cap - s->len < READSZ) {
		size_t need = s->len + READSZ;

		if (need > TL_EVENT_MAX + READSZ)
			return fail(s, 0, "event or value larger than 256 MiB");
		tl_grow(&s->buf, &s->cap, need + 1, 1);
	}
	n = tl_input_read(s->in, s->buf + s->len, s->cap - s->len - 1);
	if (n < 0)
		return fail(s, s->len, tl_input_error(s->in));
	if (n == 0) {
		s->eof = 1;
		return 0;
	}
	s->len += (size_t)n;
	return 1;
}

/* Skip JSON whitespace; return the next byte or -1 at end, -2 on error. */
static int
peek(struct scanner *s, size_t *keep)
{
	for (;;) {
		while (s->pos < s->len) {
			unsigned char c = (unsigned char)s->buf[s->pos];

			if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
				return c;
			s->pos++;
		}
		size_t shift, k = keep ? *keep : s->pos;
		int r = refill(s, k, &shift);

		if (keep)
			*keep -= shift;
		if (r < 0)
			return -2;
		if (r == 0)
			return -1;
	}
}

/*
 * Find the end of the JSON value starting at s->pos (a non-blank byte).
 * On success s->pos is one past its end and *start is its first byte
 * (adjusted for buffer moves).  Strings, objects, arrays and primitives.
 */
static int
scan_value(struct scanner *s, size_t *start)
{
	int depth = 0, in_str = 0;
	size_t strstart = 0;
	unsigned char c = (unsigned char)s->buf[s->pos];

	if (c != '"' && c != '{' && c != '[') {
		/* Primitive: up to a delimiter. */
		for (;;) {
			while (s->pos < s->len) {
				c = (unsigned char)s->buf[s->pos];
				if (c == ',' || c == '}' || c == ']' ||
				    c == ' ' || c == '\t' || c == '\n' ||
				    c == '\r')
					return 0;
				if (c == 0)
					return fail(s, s->pos, "NUL byte in JSON");
				s->pos++;
			}
			size_t shift;
			int r = refill(s, *start, &shift);

			*start -= shift;
			if (r <= 0)
				return r < 0 ? -1 : 0;
		}
	}
	for (;;) {
		/*
		 * Locals, not s->pos: stores through the char buffer would
		 * force s->pos back to memory on every byte.  buf[len] is a
		 * NUL sentinel (refill keeps a spare byte), so the loop that
		 * skips ordinary bytes needs no bound check.
		 */
		const char *b = s->buf;
		size_t pos = s->pos, len = s->len;

		s->buf[len] = '\0';
		while (pos < len) {
			if (in_str) {
				const char *q = memchr(b + pos, '"', len - pos);
				size_t bs;

				if (q == NULL) {
					pos = len;
					break;
				}
				pos = (size_t)(q - b);
				for (bs = 0; pos - bs > strstart &&
				    b[pos - bs - 1] == '\\'; bs++)
					;
				pos++;
				if (bs % 2 == 0) {
					in_str = 0;
					if (depth == 0) {
						s->pos = pos;
						return 0;
					}
				}
				continue;
			}
			while (cls[(unsigned char)b[pos]] == C_OTHER)
				pos++;
			if (pos == len)
				break;
			switch (cls[(unsigned char)b[pos]]) {
			case C_QUOTE:
				in_str = 1;
				strstart = pos + 1;
				break;
			case C_OPEN:
				depth++;
				break;
			case C_CLOSE:
				if (--depth == 0) {
					s->pos = pos + 1;
					return 0;
				}
				if (depth < 0)
					return fail(s, pos, "unbalanced '}' or ']'");
				break;
			case C_NUL:
				return fail(s, pos, "NUL byte in JSON");
			default:
				break;
			}
			pos++;
		}
		s->pos = pos;
		size_t shift;
		int r = refill(s, *start, &shift);

		*start -= shift;
		strstart -= shift;
		if (r < 0)
			return -1;
		if (r == 0)
			return fail(s, s->len, in_str ?
			    "truncated JSON: unterminated string" :
			    "truncated JSON: unterminated object or array");
	}
}

/* Parse the events array; s->pos is just after '['. */
static int
scan_events(struct scanner *s, const struct tl_scan_cb *cb)
{
	uint64_t index = 0;
	int c;

	for (;;) {
		size_t start;

		c = peek(s, NULL);
		if (c == -2)
			return -1;
		if (c == -1)
			return fail(s, s->len,
			    "truncated JSON: unterminated traceEvents array");
		if (c == ']') {
			s->pos++;
			return 0;
		}
		if (index > 0) {
			if (c != ',')
				return fail(s, s->pos,
				    "expected ',' or ']' between events");
			s->pos++;
			c = peek(s, NULL);
			if (c == -2)
				return -1;
			if (c == -1)
				return fail(s, s->len, "truncated JSON: "
				    "unterminated traceEvents array");
		}
		if (c == ']' && index > 0)
			return fail(s, s->pos, "trailing comma after the last event");
		if (c != '{')
			return fail(s, s->pos, "event is not a JSON object");
		start = s->pos;
		if (scan_value(s, &start) < 0)
			return -1;
		if (cb->event(cb->ctx, s->buf + start, s->pos - start, index,
		    s->base + start) < 0) {
			s->failed = 1;
			return -1;
		}
		index++;
	}
}

/* Read a JSON string key at s->pos into *key (a pointer into buf). */
static int
scan_key(struct scanner *s, size_t *kstart, size_t *klen)
{
	size_t start = s->pos;

	if (s->buf[s->pos] != '"')
		return fail(s, s->pos, "expected a member name");
	if (scan_value(s, &start) < 0)
		return -1;
	*kstart = start + 1;
	*klen = s->pos - start - 2;
	return 0;
}

static int
scan_object(struct scanner *s, const struct tl_scan_cb *cb)
{
	int c, n = 0, seen = 0;

	s->pos++;		/* '{' */
	for (;;) {
		size_t kstart = 0, klen = 0, vstart, keep, before;

		c = peek(s, NULL);
		if (c == -2)
			return -1;
		if (c == -1)
			return fail(s, s->len, "truncated JSON: unterminated "
			    "top-level object");
		if (c == '}') {
			s->pos++;
			break;
		}
		if (n > 0) {
			if (c != ',')
				return fail(s, s->pos,
				    "expected ',' or '}' in top-level object");
			s->pos++;
			if ((c = peek(s, NULL)) < 0)
				return c == -2 ? -1 : fail(s, s->len,
				    "truncated JSON: unterminated top-level object");
		}
		if (scan_key(s, &kstart, &klen) < 0)
			return -1;
		keep = kstart;
		c = peek(s, &keep);
		kstart = keep;
		if (c != ':')
			return c == -2 ? -1 : fail(s, s->pos,
			    "expected ':' after a member name");
		s->pos++;
		keep = kstart;
		c = peek(s, &keep);
		kstart = keep;
		if (c < 0)
			return c == -2 ? -1 : fail(s, s->len,
			    "truncated JSON: member without a value");
		n++;
		if (klen == 11 && memcmp(s->buf + kstart, "traceEvents", 11) == 0) {
			if (c != '[')
				return fail(s, s->pos,
				    "traceEvents is not an array");
			s->pos++;
			if (scan_events(s, cb) < 0)
				return -1;
			seen = 1;
			continue;
		}
		/* The key stays in the buffer while the value is scanned. */
		before = s->pos - kstart;
		if (scan_value(s, &kstart) < 0)
			return -1;
		vstart = kstart + before;
		if (cb->meta != NULL) {
			size_t vlen = s->pos - vstart;

			if (vlen > TL_META_MAX)
				vlen = 0;
			cb->meta(cb->ctx, s->buf + kstart, klen,
			    vlen ? s->buf + vstart : "", vlen);
		}
	}
	if (!seen)
		return fail(s, s->pos, "no traceEvents array in the trace");
	return 0;
}

int
tl_scan(struct tl_input *in, const struct tl_scan_cb *cb)
{
	struct scanner s;
	int c, rc;

	if (cls['"'] == 0)
		init_classes();
	memset(&s, 0, sizeof(s));
	s.in = in;
	s.name = tl_input_name(in);
	c = peek(&s, NULL);
	if (c == -2) {
		free(s.buf);
		return -1;
	}
	if (c == -1) {
		fail(&s, 0, "empty input: not a trace");
		free(s.buf);
		return -1;
	}
	/* A UTF-8 byte order mark is allowed before the JSON text. */
	if (c == 0xef && s.len - s.pos >= 3 &&
	    memcmp(s.buf + s.pos, "\xef\xbb\xbf", 3) == 0) {
		s.pos += 3;
		c = peek(&s, NULL);
	}
	if (c == '{')
		rc = scan_object(&s, cb);
	else if (c == '[') {
		s.pos++;
		rc = scan_events(&s, cb);
	} else if (c < 0)
		rc = c == -2 ? -1 : fail(&s, s.len, "empty input: not a trace");
	else
		rc = fail(&s, s.pos, "not a JSON trace: expected '{' or '['");
	if (rc == 0) {
		c = peek(&s, NULL);
		if (c == -2)
			rc = -1;
		else if (c != -1)
			rc = fail(&s, s.pos, "trailing data after the trace");
	}
	free(s.buf);
	return rc;
}
