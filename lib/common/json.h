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
