/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/jlex.h"
#include "common/json.h"
#include "common/util.h"

#define STR(x) #x
#define XSTR(x) STR(x)

const char *
tl_jlex_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\n' || *s == '\r' ||
	    *s == '\t'))
		s++;
	return s;
}

static const char *
fail(struct tl_jlex *l, const char *at, const char *what)
{
	l->at = at;
	l->what = what;
	return NULL;
}

/* Why the string at s is not one. */
static const char *
string_fail(struct tl_jlex *l, const char *s, const char *end)
{
	for (s++; s < end && *s != '"'; s++) {
		if (*s == '\0')
			return fail(l, s, "NUL byte in JSON");
		if ((unsigned char)*s < 0x20)
			return fail(l, s, "malformed JSON: control character "
			    "in a string");
		if (*s == '\\') {
			const char *e = tl_jlex_escape_(s, end);

			if (e == NULL)
				return fail(l, s, "malformed JSON: invalid "
				    "escape in a string");
			s = e - 1;
		}
	}
	return fail(l, s, "malformed JSON: unterminated string");
}

/* Why there is no value at s. */
static const char *
value_fail(struct tl_jlex *l, const char *s, const char *end)
{
	if (s >= end)
		return fail(l, s, "malformed JSON: incomplete value");
	if (*s == '\0')
		return fail(l, s, "NUL byte in JSON");
	if (*s == '-' || (*s >= '0' && *s <= '9'))
		return fail(l, s, "malformed JSON: invalid number");
	if (*s == 't' || *s == 'f' || *s == 'n')
		return fail(l, s, "malformed JSON: invalid literal");
	return fail(l, s, "malformed JSON: expected a value");
}

const char *
tl_jlex_value(struct tl_jlex *l, const char *s, const char *end, int depth,
    int max)
{
	const char *q, *deep = NULL;
	size_t n = 0;		/* brackets open here: l->stk[0..n) */
	int esc;

	l->deep = 0;
	l->what = NULL;
	l->at = NULL;
	for (;;) {
		/* At a value's first byte. */
		if (s >= end)
			return value_fail(l, s, end);
		if (*s == '"') {
			if ((q = tl_jlex_string(s, end, &esc)) == NULL)
				return string_fail(l, s, end);
			s = q + 1;
		} else if (*s == '{' || *s == '[') {
			char close = *s == '{' ? '}' : ']';

			if (max >= 0 && deep == NULL &&
			    (size_t)depth + n >= (size_t)max)
				deep = s;
			if (n >= l->cap)
				tl_grow(&l->stk, &l->cap, n + 1, 1);
			l->stk[n++] = close;
			s = tl_jlex_blank(s + 1, end);
			if (s < end && *s == close) {
				n--;
				s++;
			} else if (close == ']')
				continue;
			else
				goto key;
		} else if ((q = tl_jlex_prim(s, end)) != NULL)
			s = q;
		else
			return value_fail(l, s, end);
		/* After a value: its container's ',' or closing bracket. */
		for (;;) {
			if (n == 0) {
				if (deep == NULL)
					return s;
				l->deep = 1;
				l->end = s;
				return fail(l, deep, "JSON nested more than "
				    XSTR(TL_JSON_DEPTH) " deep");
			}
			s = tl_jlex_blank(s, end);
			if (s < end && *s == l->stk[n - 1]) {
				n--;
				s++;
				continue;
			}
			if (s >= end || *s != ',')
				return fail(l, s, l->stk[n - 1] == '}' ?
				    "malformed JSON: expected ',' or '}'" :
				    "malformed JSON: expected ',' or ']'");
			s = tl_jlex_blank(s + 1, end);
			if (l->stk[n - 1] == ']')
				break;
key:
			/* An object's member: "key": then its value. */
			if (s >= end || *s != '"')
				return fail(l, s, "malformed JSON: expected a "
				    "member name");
			if ((q = tl_jlex_string(s, end, &esc)) == NULL)
				return string_fail(l, s, end);
			s = tl_jlex_blank(q + 1, end);
			if (s >= end || *s != ':')
				return fail(l, s, "malformed JSON: expected ':' "
				    "after a member name");
			s = tl_jlex_blank(s + 1, end);
			break;
		}
	}
}

/* Byte classes outside strings. */
enum { C_OTHER, C_QUOTE, C_OPEN, C_CLOSE, C_NUL };

static const unsigned char cls[256] = {
	[0] = C_NUL, ['"'] = C_QUOTE, ['{'] = C_OPEN, ['['] = C_OPEN,
	['}'] = C_CLOSE, [']'] = C_CLOSE
};

/*
 * The one state machine that finds where a JSON value ends: strings (a
 * quote ends one unless an odd number of backslashes comes before it),
 * and brackets, balanced.  It goes on over d[*pos..len) (d[len] is NUL)
 * from state sp: 0 with *pos one past the value's end, 1 when the bytes
 * end first (the state kept, to go on over more of them), -1 at the byte
 * *pos that cannot be one ('}' or ']' unbalanced: sp->depth < 0; a NUL).
 * Strings are not otherwise checked here: the event reader does that.
 */
int
tl_span_scan(struct tl_span *sp, const char *d, size_t len, size_t *pos)
{
	size_t p = *pos;

	while (p < len) {
		if (sp->in_str) {
			const char *q = memchr(d + p, '"', len - p);
			size_t bs;

			if (q == NULL) {
				p = len;
				break;
			}
			p = (size_t)(q - d);
			for (bs = 0; p - bs > sp->strstart &&
			    d[p - bs - 1] == '\\'; bs++)
				;
			p++;
			if (bs % 2 == 0) {
				sp->in_str = 0;
				if (sp->depth == 0) {
					*pos = p;
					return 0;
				}
			}
			continue;
		}
		/* d[len] is NUL: no bound check for the ordinary bytes. */
		while (cls[(unsigned char)d[p]] == C_OTHER)
			p++;
		if (p == len)
			break;
		switch (cls[(unsigned char)d[p]]) {
		case C_QUOTE:
			sp->in_str = 1;
			sp->strstart = p + 1;
			break;
		case C_OPEN:
			sp->depth++;
			break;
		case C_CLOSE:
			if (--sp->depth == 0) {
				*pos = p + 1;
				return 0;
			}
			if (sp->depth < 0) {
				*pos = p;
				return -1;
			}
			break;
		default:	/* C_NUL */
			*pos = p;
			return -1;
		}
		p++;
	}
	*pos = p;
	return 1;
}

void
tl_jlex_free(struct tl_jlex *l)
{
	free(l->stk);
	memset(l, 0, sizeof(*l));
}
