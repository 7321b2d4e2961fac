/* See LICENSE file for copyright and license details. */
#ifndef TL_JSON_H
#define TL_JSON_H

/*
 * Tokenising one JSON value (a metadata value, a stream cell; trace events
 * only in the tests' second reading) with jsmn, and the small
 * helpers tl needs on its tokens.  This is the only file that includes
 * <jsmn.h>; it is always built with JSMN_PARENT_LINKS and JSMN_STRICT.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The deepest nesting of arrays and objects tl reads or checks. */
#define TL_JSON_DEPTH 64

enum tl_jtype { TL_J_UNDEF, TL_J_OBJECT, TL_J_ARRAY, TL_J_STRING, TL_J_PRIM };

struct tl_json {
	const char *js;
	size_t len;
	void *tok;		/* jsmntok_t[] */
	int ntok, cap;
};

void tl_json_init(struct tl_json *j);
void tl_json_free(struct tl_json *j);
/*
 * Tokenise js[0..len); return the token count, or -1 with *err set to a
 * short description.  A value nested more than TL_JSON_DEPTH deep is an
 * error, found in one pass before tokenising: the time is linear in len.
 */
int tl_json_parse(struct tl_json *j, const char *js, size_t len,
    const char **err);

enum tl_jtype tl_json_type(const struct tl_json *j, int t);
/* Raw text of token t (strings without their quotes). */
const char *tl_json_text(const struct tl_json *j, int t, size_t *len);
/* Number of keys of an object, elements of an array. */
int tl_json_size(const struct tl_json *j, int t);
/* Index of the token after t's subtree. */
int tl_json_next(const struct tl_json *j, int t);
/* Value token of key in object obj, or -1.  Keys compare on raw bytes. */
int tl_json_get(const struct tl_json *j, int obj, const char *key, size_t klen);
/*
 * One pass over the members of obj: out[k] = value token of keys[k], or -1.
 * Cheaper than tl_json_get per key when several keys are wanted.
 */
void tl_json_members(const struct tl_json *j, int obj, const char *const *keys,
    int nkeys, int *out);
/* The integer value of key in object obj, or dflt when absent or not one. */
int64_t tl_json_get_i64(const struct tl_json *j, int obj, const char *key,
    int64_t dflt);
#define TL_JSON_GET(j, obj, lit) tl_json_get((j), (obj), (lit), sizeof(lit) - 1)

/*
 * The value of token t as compact JSON (no blanks outside strings),
 * written to out (grown as needed); returns its length.
 */
size_t tl_json_compact(const struct tl_json *j, int t, char **out, size_t *cap);
/* The same for raw JSON text s[0..n); out holds at least n+1 bytes. */
size_t tl_json_compact_text(const char *s, size_t n, char *out);

/*
 * Decode JSON string escapes of src[0..len) into dst (at least len+1
 * bytes; UTF-8 never grows): \uXXXX to UTF-8, surrogate pairs joined, lone
 * surrogates as U+FFFD.  Returns the decoded length.
 */
size_t tl_json_unescape(char *dst, const char *src, size_t len);

/*
 * 1 if s[0..n) is one JSON value as RFC 8259 has it (whitespace around
 * it allowed; strings of UTF-8 without control characters, with valid
 * escapes; numbers in JSON's syntax), nested at most TL_JSON_DEPTH deep;
 * else 0.  jsmn is a tokeniser and lets through much that is not JSON
 * (bare words in arrays, a leading comma): check text with this before
 * copying it into a JSON document.
 */
int tl_json_valid(const char *s, size_t n);

/*
 * Length (1 to 4) of the UTF-8 character at s, reading at most n bytes
 * (a NUL ends the text too), or 0 when the bytes there are not UTF-8: a
 * stray continuation byte, an overlong form, a surrogate, a code point
 * beyond U+10FFFF, a character cut short.
 */
size_t tl_utf8_len(const char *s, size_t n);

/*
 * 1 with the value of the eight digits in v (8 bytes of text, each
 * '0' turned into 0 by ^ 0x30...: a 0 byte counts as a leading zero),
 * the first byte's the most significant; 0 if a byte is no digit.
 * Lemire's SWAR parse: digits joined in pairs, fours and eights.
 */
static inline int
tl_swar8(uint64_t v, uint64_t *out)
{
	/* Any byte above 9 gets its high bit in bad. */
	if (((((v & 0x7f7f7f7f7f7f7f7full) + 0x7676767676767676ull) | v) &
	    0x8080808080808080ull) != 0)
		return 0;
	v = (v * 10 + (v >> 8)) & 0x00ff00ff00ff00ffull;
	v = (v * 100 + (v >> 16)) & 0x0000ffff0000ffffull;
	*out = (v * 10000 + (v >> 32)) & 0xffffffffull;
	return 1;
}

/*
 * The decimal digits from p (t <= p <= e) up to the first other byte or
 * e, added to *w (*w * 10 + each digit, wrapping past 2^64: the callers
 * bound the count); returns where they stop.  Eight bytes a step where
 * the text has them (tl_swar8); the last few are loaded as the 8 bytes
 * that end at e when the text from t has 8: nothing outside [t, e) is
 * read.
 */
static inline const char *
tl_dec_digits(const char *t, const char *p, const char *e, uint64_t *w)
{
	uint64_t x = *w;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint64_t p10[9] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000
	};
	uint64_t v, bad;
	unsigned k;

	for (;;) {
		if (e - p >= 8)
			memcpy(&v, p, 8);
		else if (p < e && e - t >= 8) {
			memcpy(&v, e - 8, 8);
			v >>= 8 * (8 - (e - p));	/* zero bytes after e */
		} else
			break;
		v ^= 0x3030303030303030ull;
		bad = (((v & 0x7f7f7f7f7f7f7f7full) + 0x7676767676767676ull) |
		    v) & 0x8080808080808080ull;
		k = bad != 0 ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
		if (k == 0)
			break;
		if (k < 8)	/* the k digits last, zeros before them */
			v <<= 8 * (8 - k);
		(void)tl_swar8(v, &v);
		x = x * p10[k] + v;
		p += k;
		if (k < 8) {
			*w = x;
			return p;
		}
	}
#else
	(void)t;
#endif
	for (; p < e && (unsigned)(*p - '0') < 10; p++)
		x = x * 10 + (uint64_t)(*p - '0');
	*w = x;
	return p;
}

/*
 * Parse a decimal number of microseconds (as Kineto writes ts/dur) into
 * integer nanoseconds, exactly when it has at most 3 decimals.  Returns 0,
 * -1 if the text is not a number, -2 if it is one out of range (beyond
 * 9e12 us, about 104 days).
 */
int tl_parse_us_ns(const char *s, size_t len, int64_t *ns);
/*
 * Parse an integer (an integral float such as "5.0" too); 0, -1 if the
 * text is not an integer, -2 if it is one beyond int64_t.
 */
int tl_parse_i64(const char *s, size_t len, int64_t *v);
/*
 * 1 if s[0..len) is a number too large for tl (-2 of the two above), or
 * for a double; for the message "out of range" rather than "not a number".
 */
int tl_num_out_of_range(const char *s, size_t len);

#endif
