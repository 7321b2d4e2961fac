/* See LICENSE file for copyright and license details. */
#ifndef TL_JLEX_H
#define TL_JLEX_H

/*
 * The strict JSON lexer: the one place that decides where a JSON string,
 * number, literal, nested value and event end (RFC 8259's grammar), for
 * the trace cutter (lib/trace/jsonscan.c) and the event reader
 * (lib/trace/trace.c) alike.  Strings: valid escapes, no control
 * character (a NUL included); their UTF-8 is not checked.  Numbers:
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; literals true, false,
 * null.  What follows a number or literal is the caller's to check (a
 * ',', a closing bracket or a blank): "2NaN" is the number 2 and then a
 * byte that cannot be there.
 *
 * The fast functions return NULL on any error; tl_jlex_value also says
 * what and where (struct tl_jlex), for the message
 * "FILE:OFFSET: event N: what".
 */
#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct tl_jlex {
	const char *what;	/* the last error: what is wrong */
	const char *at;		/* and the byte where */
	int deep;		/* 1 when it is only nesting too deep */
	const char *end;	/* then the value's end */
	char *stk;		/* the open brackets' closing bytes */
	size_t cap;
};

/* Helpers of the two below, inline for the event reader's speed. */
static inline int
tl_jlex_hexdig_(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* A decimal digit. */
#define TL_JLEX_DIGIT(c) ((unsigned)((c) - '0') < 10)

/* The byte after a valid escape at s (a backslash), or NULL. */
static inline const char *
tl_jlex_escape_(const char *s, const char *end)
{
	if (end - s < 2)
		return NULL;
	switch (s[1]) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n':
	case 'r': case 't':
		return s + 2;
	case 'u':
		if (end - s < 6 || !tl_jlex_hexdig_(s[2]) ||
		    !tl_jlex_hexdig_(s[3]) || !tl_jlex_hexdig_(s[4]) ||
		    !tl_jlex_hexdig_(s[5]))
			return NULL;
		return s + 6;
	}
	return NULL;
}

static inline const char *
tl_jlex_literal_(const char *s, const char *end, const char *w, size_t n)
{
	return (size_t)(end - s) >= n && memcmp(s, w, n) == 0 ? s + n : NULL;
}

/* Past the digits at s: a byte that is not one comes before end or at it. */
static inline const char *
tl_jlex_digits_(const char *s, const char *end)
{
#ifdef __SSE2__
	if (end - s >= 16) {
		const __m128i v = _mm_loadu_si128((const void *)s);
		const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8('0'));
		/* A digit's t is at most 9, unsigned. */
		unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_min_epu8(t, _mm_set1_epi8(9)), t)) & 0xffffu;

		if (m != 0)
			return s + __builtin_ctz(m);
		s += 16;
	}
#else
	(void)end;
#endif
	while (TL_JLEX_DIGIT(*s))
		s++;
	return s;
}

/*
 * The closing quote of the string whose opening quote is at s, before
 * end, or NULL.  *esc is set to 1 when the string has an escape.
 */
static inline const char *
tl_jlex_string(const char *s, const char *end, int *esc)
{
	s++;
	for (;;) {
#ifdef __SSE2__
		/*
		 * A quote, a backslash or a control byte (below 0x20), 32
		 * bytes at a time: x = v ^ 2 is at most 0x20 exactly for a
		 * control byte (x below 0x20 too) or a quote (x 0x20).
		 */
		const __m128i two = _mm_set1_epi8(2), c = _mm_set1_epi8(0x20),
		    b = _mm_set1_epi8('\\');
		unsigned m = 0;

		while (end - s >= 32) {
			__m128i v = _mm_loadu_si128((const void *)s);
			__m128i w = _mm_loadu_si128((const void *)(s + 16));
			__m128i x = _mm_xor_si128(v, two);
			__m128i y = _mm_xor_si128(w, two);

			m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(_mm_min_epu8(x, c), x),
			    _mm_cmpeq_epi8(v, b))) |
			    (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(_mm_min_epu8(y, c), y),
			    _mm_cmpeq_epi8(w, b))) << 16;
			if (m != 0)
				break;
			s += 32;
		}
		if (m == 0 && end - s >= 16) {
			__m128i v = _mm_loadu_si128((const void *)s);
			__m128i x = _mm_xor_si128(v, two);

			m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(_mm_min_epu8(x, c), x),
			    _mm_cmpeq_epi8(v, b)));
			if (m == 0)
				s += 16;
		}
		if (m != 0)
			s += __builtin_ctz(m);
#endif
		while (s < end && *s != '"' && *s != '\\' &&
		    (unsigned char)*s >= 0x20)
			s++;
		if (s >= end || *s != '\\')
			return s < end && *s == '"' ? s : NULL;
		*esc = 1;
		if ((s = tl_jlex_escape_(s, end)) == NULL)
			return NULL;
	}
}

/*
 * The end of the number or literal at s (before end), or NULL.  The
 * bytes must end with one that cannot be in a number (end[0] a NUL, or
 * a closing bracket before end), as a cut event's or a buffer's do.
 */
static inline const char *
tl_jlex_prim(const char *s, const char *end)
{
	const char *t = s + (*s == '-');

	if (!TL_JLEX_DIGIT(*t)) {
		switch (t == s ? *s : 0) {
		case 't':
			return tl_jlex_literal_(s, end, "true", 4);
		case 'f':
			return tl_jlex_literal_(s, end, "false", 5);
		case 'n':
			return tl_jlex_literal_(s, end, "null", 4);
		}
		return NULL;
	}
	t = *t == '0' ? t + 1 : tl_jlex_digits_(t, end);
	if (*t == '.') {
		if (!TL_JLEX_DIGIT(t[1]))
			return NULL;
		t = tl_jlex_digits_(t + 1, end);
	}
	if ((*t | 0x20) == 'e') {
		t += t[1] == '+' || t[1] == '-' ? 2 : 1;
		if (!TL_JLEX_DIGIT(*t))
			return NULL;
		t = tl_jlex_digits_(t, end);
	}
	return t;
}

/*
 * The end of the JSON value at s (its first byte, not blank) before
 * end, nested in depth open objects or arrays: values may open
 * brackets up to level max (< 0: no limit).  NULL on an error, with
 * l->what and l->at; l->deep is 1 when the value is valid JSON but
 * nested deeper than max (l->end its end, l->at its first bracket too
 * deep).
 */
const char *tl_jlex_value(struct tl_jlex *l, const char *s, const char *end,
    int depth, int max);

/* Past JSON blanks, before end. */
const char *tl_jlex_blank(const char *s, const char *end);

void tl_jlex_free(struct tl_jlex *l);

/*
 * Where a JSON value ends, in pieces, only by its strings and brackets:
 * the cutter's state machine, which finds an event's end before the
 * event is read, for a reader that goes on from a place it knows.
 * Start with all zero (at the value's first byte), or with depth d and
 * the rest zero inside d open objects or arrays, outside a string.
 * Goes on over d[*pos..len) (d[len] must be NUL): 0 with *pos one past
 * the value's end; 1 when the bytes end first (*pos == len; go on with
 * more, the string start moved as they were); -1 at the byte *pos that
 * cannot be in JSON there (a NUL, or with depth < 0 an unbalanced '}'
 * or ']').  Where it finds an end, that of a valid value is the one
 * tl_jlex_value finds (the same rule for a string's closing quote).
 */
struct tl_span {
	int depth, in_str;
	size_t strstart;	/* the current string's first byte */
};

int tl_span_scan(struct tl_span *sp, const char *d, size_t len, size_t *pos);

#endif
