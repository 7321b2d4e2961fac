/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jsmn.h>

#include "common/json.h"
#include "common/util.h"

#define TOK(j) ((jsmntok_t *)(j)->tok)
#define STR(x) #x
#define XSTR(x) STR(x)

void
tl_json_init(struct tl_json *j)
{
	memset(j, 0, sizeof(*j));
}

void
tl_json_free(struct tl_json *j)
{
	free(j->tok);
	tl_json_init(j);
}

/*
 * 1 if no bracket of s[0..n) outside strings opens deeper than max.  jsmn
 * walks back up the open brackets at each closing one, so its time grows
 * with the square of the nesting: this linear pass bounds it first.
 */
static int
depth_ok(const char *s, size_t n, int max)
{
	const char *p, *end = s + n;
	int depth = 0, open = 0;

	/*
	 * Most values have few brackets at all: count them, inside strings
	 * too, with memchr (fast on long strings).
	 */
	for (p = s; open <= max && (p = memchr(p, '[', (size_t)(end - p))) != NULL; p++)
		open++;
	for (p = s; open <= max && (p = memchr(p, '{', (size_t)(end - p))) != NULL; p++)
		open++;
	if (open <= max)
		return 1;
	for (p = s; p < end; ) {
		switch (*p++) {
		case '"':
			while (p < end && *p != '"')
				p += *p == '\\' ? 2 : 1;
			p++;
			break;
		case '[':
		case '{':
			if (++depth > max)
				return 0;
			break;
		case ']':
		case '}':
			depth--;
			break;
		}
	}
	return 1;
}

/* The fast way's limit: more tokens are jsmn's. */
#define FAST_TOKENS (1 << 20)

/* Bytes of the fast way: 1 ends a string there, 2 goes on a primitive. */
static const unsigned char fast_class[256] = {
	['"'] = 1, ['\\'] = 1, ['\0'] = 1, ['.'] = 2, ['+'] = 2, ['-'] = 2,
	['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2,
	['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
	['a'] = 2, ['b'] = 2, ['c'] = 2, ['d'] = 2, ['e'] = 2, ['f'] = 2,
	['g'] = 2, ['h'] = 2, ['i'] = 2, ['j'] = 2, ['k'] = 2, ['l'] = 2,
	['m'] = 2, ['n'] = 2, ['o'] = 2, ['p'] = 2, ['q'] = 2, ['r'] = 2,
	['s'] = 2, ['t'] = 2, ['u'] = 2, ['v'] = 2, ['w'] = 2, ['x'] = 2,
	['y'] = 2, ['z'] = 2,
	['A'] = 2, ['B'] = 2, ['C'] = 2, ['D'] = 2, ['E'] = 2, ['F'] = 2,
	['G'] = 2, ['H'] = 2, ['I'] = 2, ['J'] = 2, ['K'] = 2, ['L'] = 2,
	['M'] = 2, ['N'] = 2, ['O'] = 2, ['P'] = 2, ['Q'] = 2, ['R'] = 2,
	['S'] = 2, ['T'] = 2, ['U'] = 2, ['V'] = 2, ['W'] = 2, ['X'] = 2,
	['Y'] = 2, ['Z'] = 2
};

/* The end of the string whose text starts at js[p]: its quote, or len
 * when it has an escape or a NUL first (the fast way gives up). */
static size_t
fast_string(const char *js, size_t len, size_t p)
{
	while (p < len && fast_class[(unsigned char)js[p]] != 1)
		p++;
	return p < len && js[p] == '"' ? p : len;
}

/* Token k of j, as jsmn fills one (start, end, size, parent). */
static void
fast_tok(struct tl_json *j, int k, jsmntype_t type, int start, int end,
    int parent)
{
	jsmntok_t *t = &TOK(j)[k];

	t->type = type;
	t->start = start;
	t->end = end;
	t->size = 0;
	t->parent = parent;
	if (parent >= 0)
		TOK(j)[parent].size++;
}

/*
 * The tokens jsmn (strict, with parent links) makes of js[0..len), made
 * in one plain pass for the compact JSON the stream holds: no blanks, no
 * string escapes, primitives of letters, digits and ".+-".  Returns the
 * token count, or 0 for any other text (valid or not), which jsmn reads:
 * a text read here is one jsmn reads alike, token for token.
 */
static int
fast_tokens(struct tl_json *j, const char *js, size_t len)
{
	int open[TL_JSON_DEPTH], depth = 0, n = 0, parent, top;
	size_t p = 0, q;
	char c;

	if (js[0] != '[' && js[0] != '{')	/* jsmn's end is not len */
		return 0;
	for (;;) {
		if (n + 2 > j->cap) {	/* a key and its value at most */
			if (j->cap >= FAST_TOKENS)
				return 0;
			j->cap = j->cap == 0 ? 256 : j->cap * 2;
			j->tok = tl_realloc(j->tok,
			    (size_t)j->cap * sizeof(jsmntok_t));
		}
		parent = depth > 0 ? open[depth - 1] : -1;
		if (parent >= 0 && TOK(j)[parent].type == JSMN_OBJECT) {
			/* "key": the value's parent */
			if (p >= len || js[p] != '"')
				return 0;
			q = fast_string(js, len, p + 1);
			if (q + 1 >= len || js[q + 1] != ':')
				return 0;
			fast_tok(j, n, JSMN_STRING, (int)p + 1, (int)q, parent);
			parent = n++;
			p = q + 2;
		}
		if (p >= len)
			return 0;
		switch (c = js[p]) {
		case '[':
		case '{':
			if (depth == TL_JSON_DEPTH)
				return 0;
			fast_tok(j, n, c == '[' ? JSMN_ARRAY : JSMN_OBJECT, (int)p,
			    -1, parent);
			open[depth++] = n++;
			p++;
			if (p < len && js[p] == c + 2)	/* empty: ] or } */
				break;
			continue;
		case '"':
			if ((q = fast_string(js, len, p + 1)) >= len)
				return 0;
			fast_tok(j, n++, JSMN_STRING, (int)p + 1, (int)q, parent);
			p = q + 1;
			break;
		default:	/* a primitive, ended by , ] or } */
			if (!(c == '-' || (c >= '0' && c <= '9') || c == 't' ||
			    c == 'f' || c == 'n'))
				return 0;
			for (q = p + 1; q < len &&
			    fast_class[(unsigned char)js[q]] == 2; q++)
				;
			if (q >= len || (js[q] != ',' && js[q] != ']' &&
			    js[q] != '}'))
				return 0;
			fast_tok(j, n++, JSMN_PRIMITIVE, (int)p, (int)q, parent);
			p = q;
			break;
		}
		/* After a value: the containers it ends, then a comma. */
		for (;;) {
			if (depth == 0)
				return p == len ? n : 0;
			if (p >= len)
				return 0;
			top = open[depth - 1];
			if (js[p] == ',') {
				p++;
				break;
			}
			if (js[p] != (TOK(j)[top].type == JSMN_ARRAY ? ']' : '}'))
				return 0;
			TOK(j)[top].end = (int)p + 1;
			depth--;
			p++;
		}
	}
}

int
tl_json_parse(struct tl_json *j, const char *js, size_t len, const char **err)
{
	jsmn_parser p;
	int n;

	if (len > 0 && len <= 0x7fffffff && (n = fast_tokens(j, js, len)) > 0) {
		j->js = js;
		j->len = len;
		j->ntok = n;
		return n;
	}
	if (len > 0x7fffffff) {
		*err = "value larger than 2 GiB";
		return -1;
	}
	if (!depth_ok(js, len, TL_JSON_DEPTH)) {
		*err = "JSON nested more than " XSTR(TL_JSON_DEPTH) " deep";
		return -1;
	}
	if (j->cap == 0) {
		j->cap = 256;
		j->tok = tl_malloc((size_t)j->cap * sizeof(jsmntok_t));
	}
	/* jsmn resumes where it ran out of tokens. */
	jsmn_init(&p);
	for (;;) {
		n = jsmn_parse(&p, js, len, TOK(j), (unsigned)j->cap);
		if (n != JSMN_ERROR_NOMEM)
			break;
		if (j->cap > (1 << 26)) {
			*err = "too many JSON tokens in one event";
			return -1;
		}
		j->cap *= 2;
		j->tok = tl_realloc(j->tok, (size_t)j->cap * sizeof(jsmntok_t));
	}
	if (n < 0 || (n > 0 && (size_t)TOK(j)[0].end != len)) {
		if (memchr(js, '\0', len) != NULL)
			*err = "NUL byte in JSON";
		else if (n == JSMN_ERROR_PART)
			*err = "malformed JSON: incomplete value";
		else
			*err = "malformed JSON";
		return -1;
	}
	if (n == 0) {
		*err = "empty JSON value";
		return -1;
	}
	/* jsmn is a tokenizer: check that object members are "key": value. */
	for (int i = 1; i < n; i++) {
		const jsmntok_t *k = &TOK(j)[i];

		if (k->parent >= 0 && TOK(j)[k->parent].type == JSMN_OBJECT &&
		    (k->type != JSMN_STRING || k->size != 1)) {
			*err = "malformed JSON: object member is not \"key\": value";
			return -1;
		}
	}
	j->js = js;
	j->len = len;
	j->ntok = n;
	return n;
}

enum tl_jtype
tl_json_type(const struct tl_json *j, int t)
{
	switch (TOK(j)[t].type) {
	case JSMN_OBJECT:
		return TL_J_OBJECT;
	case JSMN_ARRAY:
		return TL_J_ARRAY;
	case JSMN_STRING:
		return TL_J_STRING;
	case JSMN_PRIMITIVE:
		return TL_J_PRIM;
	default:
		return TL_J_UNDEF;
	}
}

const char *
tl_json_text(const struct tl_json *j, int t, size_t *len)
{
	const jsmntok_t *k = &TOK(j)[t];

	*len = (size_t)(k->end - k->start);
	return j->js + k->start;
}

int
tl_json_size(const struct tl_json *j, int t)
{
	return TOK(j)[t].size;
}

int
tl_json_next(const struct tl_json *j, int t)
{
	const jsmntok_t *tok = TOK(j);
	int end = tok[t].end, i = t + 1;

	while (i < j->ntok && tok[i].start < end)
		i++;
	return i;
}

int
tl_json_get(const struct tl_json *j, int obj, const char *key, size_t klen)
{
	const jsmntok_t *tok = TOK(j);
	int i, n;

	if (obj < 0 || tok[obj].type != JSMN_OBJECT)
		return -1;
	n = tok[obj].size;
	i = obj + 1;
	while (n-- > 0 && i + 1 < j->ntok) {
		const jsmntok_t *k = &tok[i];

		if ((size_t)(k->end - k->start) == klen &&
		    memcmp(j->js + k->start, key, klen) == 0)
			return i + 1;
		i = tl_json_next(j, i + 1);
	}
	return -1;
}

void
tl_json_members(const struct tl_json *j, int obj, const char *const *keys,
    int nkeys, int *out)
{
	const jsmntok_t *tok = TOK(j);
	int i, n, k;

	for (k = 0; k < nkeys; k++)
		out[k] = -1;
	if (obj < 0 || tok[obj].type != JSMN_OBJECT)
		return;
	n = tok[obj].size;
	for (i = obj + 1; n-- > 0 && i + 1 < j->ntok; i = tl_json_next(j, i + 1)) {
		const char *s = j->js + tok[i].start;
		size_t len = (size_t)(tok[i].end - tok[i].start);

		for (k = 0; k < nkeys; k++)
			if (out[k] < 0 && len > 0 && keys[k][0] == s[0] &&
			    strlen(keys[k]) == len &&
			    memcmp(keys[k], s, len) == 0) {
				out[k] = i + 1;
				break;
			}
	}
}

size_t
tl_json_compact_text(const char *s, size_t n, char *out)
{
	size_t i, o = 0;
	int in_str = 0;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (in_str) {
			out[o++] = c;
			if (c == '\\' && i + 1 < n)
				out[o++] = s[++i];
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		if (c == '"')
			in_str = 1;
		out[o++] = c;
	}
	out[o] = '\0';
	return o;
}

size_t
tl_json_compact(const struct tl_json *j, int t, char **out, size_t *cap)
{
	const jsmntok_t *k = &TOK(j)[t];
	const char *s = j->js + k->start;
	size_t n = (size_t)(k->end - k->start);

	if (k->type == JSMN_STRING) {
		s--;		/* include the quotes */
		n += 2;
	}
	tl_grow(out, cap, n + 1, 1);
	return tl_json_compact_text(s, n, *out);
}

static int
hex4(const char *s, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t
put_utf8(char *d, unsigned cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xc0 | cp >> 6);
		d[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xe0 | cp >> 12);
		d[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		d[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | cp >> 18);
	d[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	d[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	d[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t
tl_utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, i;

	if (n == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	for (i = 1; i < len; i++)	/* stops at a NUL too */
		if (i >= n || (p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) ||	/* overlong */
	    (p[0] == 0xed && p[1] > 0x9f) ||	/* surrogate */
	    (p[0] == 0xf0 && p[1] < 0x90) ||	/* overlong */
	    (p[0] == 0xf4 && p[1] > 0x8f))	/* beyond U+10FFFF */
		return 0;
	return len;
}

/* The JSON checker of tl_json_valid: p moves over what is valid. */
struct jcheck {
	const char *p, *end;
};

static void
jc_space(struct jcheck *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' ||
	    *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int
jc_digits(struct jcheck *c)
{
	const char *q = c->p;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		c->p++;
	return c->p > q;
}

static int
jc_number(struct jcheck *c)
{
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (!jc_digits(c))
		return 0;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (!jc_digits(c))
			return 0;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!jc_digits(c))
			return 0;
	}
	return 1;
}

/* A string, at its opening quote. */
static int
jc_string(struct jcheck *c)
{
	unsigned cp;
	size_t k;

	for (c->p++; c->p < c->end; ) {
		unsigned char ch = (unsigned char)*c->p;

		if (ch == '"') {
			c->p++;
			return 1;
		}
		if (ch < 0x20)
			return 0;
		if (ch == '\\') {
			if (c->end - c->p < 2)
				return 0;
			if (c->p[1] == 'u') {
				if (c->end - c->p < 6 || hex4(c->p + 2, &cp) < 0)
					return 0;
				c->p += 6;
			} else if (strchr("\"\\/bfnrt", c->p[1]) != NULL &&
			    c->p[1] != '\0')
				c->p += 2;
			else
				return 0;
			continue;
		}
		if ((k = tl_utf8_len(c->p, (size_t)(c->end - c->p))) == 0)
			return 0;
		c->p += k;
	}
	return 0;
}

static int
jc_word(struct jcheck *c, const char *w)
{
	size_t k = strlen(w);

	if ((size_t)(c->end - c->p) < k || memcmp(c->p, w, k) != 0)
		return 0;
	c->p += k;
	return 1;
}

static int
jc_value(struct jcheck *c, int depth)
{
	char close;

	jc_space(c);
	if (c->p == c->end)
		return 0;
	switch (*c->p) {
	case '"':
		return jc_string(c);
	case 't':
		return jc_word(c, "true");
	case 'f':
		return jc_word(c, "false");
	case 'n':
		return jc_word(c, "null");
	case '[':
	case '{':
		if (depth >= TL_JSON_DEPTH)
			return 0;
		close = *c->p++ == '[' ? ']' : '}';
		jc_space(c);
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 1;
		}
		for (;;) {
			if (close == '}') {
				jc_space(c);
				if (c->p == c->end || *c->p != '"' ||
				    !jc_string(c))
					return 0;
				jc_space(c);
				if (c->p == c->end || *c->p++ != ':')
					return 0;
			}
			if (!jc_value(c, depth + 1))
				return 0;
			jc_space(c);
			if (c->p == c->end)
				return 0;
			if (*c->p == close) {
				c->p++;
				return 1;
			}
			if (*c->p++ != ',')
				return 0;
		}
	default:
		return jc_number(c);
	}
}

int
tl_json_valid(const char *s, size_t n)
{
	struct jcheck c;

	c.p = s;
	c.end = s + n;
	if (!jc_value(&c, 0))
		return 0;
	jc_space(&c);
	return c.p == c.end;
}

size_t
tl_json_unescape(char *dst, const char *src, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len) {
		unsigned cp, lo;
		const char *bs = memchr(src + i, '\\', len - i);
		size_t run = bs != NULL ? (size_t)(bs - src) - i : len - i;
		char c;

		/* The run before the next escape as it is: most have none. */
		memmove(dst + o, src + i, run);
		i += run;
		o += run;
		if (i >= len)
			break;
		c = src[i++];
		if (c != '\\' || i >= len) {
			dst[o++] = c;
			continue;
		}
		c = src[i++];
		switch (c) {
		case 'b': dst[o++] = '\b'; break;
		case 'f': dst[o++] = '\f'; break;
		case 'n': dst[o++] = '\n'; break;
		case 'r': dst[o++] = '\r'; break;
		case 't': dst[o++] = '\t'; break;
		case 'u':
			if (i + 4 > len || hex4(src + i, &cp) < 0) {
				dst[o++] = '\\';
				dst[o++] = 'u';
				break;
			}
			i += 4;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (i + 6 <= len && src[i] == '\\' &&
				    src[i + 1] == 'u' &&
				    hex4(src + i + 2, &lo) == 0 &&
				    lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					    (lo - 0xdc00);
					i += 6;
				} else
					cp = 0xfffd;
			} else if (cp >= 0xdc00 && cp < 0xe000)
				cp = 0xfffd;
			/* \u0000 would cut C strings: keep it visible. */
			o += put_utf8(dst + o, cp == 0 ? 0xfffd : cp);
			break;
		default:	/* \" \\ \/ and anything unknown */
			dst[o++] = c;
			break;
		}
	}
	dst[o] = '\0';
	return o;
}

/*
 * The usual µs time: 1 to 15 digits, then perhaps a point and 1 to 3
 * more (Kineto's "2915995397672.546").  1 with *ns, or 0 for any other
 * text, which tl_parse_us_ns reads the long way: no digit here can
 * overflow, so the loop checks nothing else.
 */
static int
us_ns_plain(const char *s, size_t len, int64_t *ns)
{
	int64_t ip = 0, frac = 0;
	size_t i = 0, k;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Eight digits at once when there are. */
	if (len >= 8) {
		uint64_t v, a;

		memcpy(&v, s, 8);
		if (tl_swar8(v ^ 0x3030303030303030ull, &a)) {
			ip = (int64_t)a;
			i = 8;
		}
	}
#endif
	/* Sixteen digits at most: more are the long way's to judge. */
	for (; i < len && i < 16 && (unsigned)(s[i] - '0') < 10; i++)
		ip = ip * 10 + (s[i] - '0');
	if (i == 0 || i > 15)
		return 0;
	if (i < len) {
		if (s[i] != '.' || len - i - 1 < 1 || len - i - 1 > 3)
			return 0;
		for (k = i + 1; k < len; k++) {
			if ((unsigned)(s[k] - '0') >= 10)
				return 0;
			frac = frac * 10 + (s[k] - '0');
		}
		for (k = len - i - 1; k < 3; k++)
			frac *= 10;
	}
	*ns = ip * 1000 + frac;
	return 1;
}

/*
 * tl_parse_us_ns of any text but the usual three decimals (below);
 * apart, so that their call saves no registers for it.
 */
static int __attribute__((noinline))
us_ns_other(const char *s, size_t len, int64_t *ns)
{
	const char *p = s, *end = s + len;
	int neg = 0, nfrac = 0, round = 0;
	int64_t ip = 0, frac = 0;

	if (us_ns_plain(s, len, ns))
		return 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p == end || *p < '0' || *p > '9')
		return -1;
	while (p < end && *p >= '0' && *p <= '9') {
		if (ip > (INT64_MAX / 1000 - 9) / 10) {
			/* Too large, if the rest is a number. */
			while (p < end && *p >= '0' && *p <= '9')
				p++;
			if (p < end && *p == '.')
				for (p++; p < end && *p >= '0' && *p <= '9'; p++)
					;
			return p == end ? -2 : -1;
		}
		ip = ip * 10 + (*p++ - '0');
	}
	if (p < end && *p == '.') {
		p++;
		while (p < end && *p >= '0' && *p <= '9') {
			if (nfrac < 3)
				frac = frac * 10 + (*p - '0');
			else if (nfrac == 3)
				round = *p >= '5';
			nfrac++;
			p++;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		/* Rare: fall back to a correctly rounded double. */
		char buf[64], *dend;
		double d;

		if (len >= sizeof(buf))
			return -1;
		memcpy(buf, s, len);
		buf[len] = '\0';
		errno = 0;
		d = strtod(buf, &dend);
		if (dend != buf + len)
			return -1;
		if ((errno == ERANGE && d != 0) || !isfinite(d) ||
		    fabs(d) > 9e12)
			return -2;
		*ns = llround(d * 1000.0);
		return 0;
	}
	if (p != end)
		return -1;
	while (nfrac < 3) {
		frac *= 10;
		nfrac++;
	}
	*ns = ip * 1000 + frac + round;
	if (neg)
		*ns = -*ns;
	return 0;
}

int
tl_parse_us_ns(const char *s, size_t len, int64_t *ns)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Three decimals, as Kineto writes nearly every time, and 1 to 15
	 * digits before them: the digits on both sides of the point joined
	 * in at most two words (tl_swar8; nothing outside s[0..len) read).
	 */
	if (len >= 8 && len <= 19 && s[len - 4] == '.') {
		/* 8 bytes and more: the integer part's first and last (up
		 * to) eight digits from two loads, overlapping. */
		const char *f = s + len - 3;
		unsigned d0 = (unsigned)(f[0] - '0'), d1 = (unsigned)(f[1] - '0'),
		    d2 = (unsigned)(f[2] - '0');
		size_t n = len - 4;
		uint64_t v, a, b = 0;
		static const uint64_t p10[8] = {
			1, 10, 100, 1000, 10000, 100000, 1000000, 10000000
		};

		memcpy(&v, s, 8);
		v ^= 0x3030303030303030ull;
		if (n < 8)
			v <<= 8 * (8 - n);	/* the n digits last */
		if (d0 < 10 && d1 < 10 && d2 < 10 && tl_swar8(v, &a)) {
			if (n > 8) {
				memcpy(&v, s + n - 8, 8);
				v ^= 0x3030303030303030ull;
				v &= ~0ull << 8 * (16 - n);	/* its last n - 8 */
				if (!tl_swar8(v, &b))
					return us_ns_other(s, len, ns);
				a = a * p10[n - 8] + b;
			}
			*ns = (int64_t)(a * 1000 + d0 * 100 + d1 * 10 + d2);
			return 0;
		}
	} else if (len >= 5 && len < 8 && s[len - 4] == '.') {
		/* Shorter: 1 to 3 digits before the point, in one word. */
		uint32_t lo, hi;
		uint64_t a;

		memcpy(&lo, s, 4);
		memcpy(&hi, s + len - 4, 4);
		lo ^= 0x30303030u;
		hi ^= 0x30303030u;
		/* Those before it to bytes 5 - n..4, those after to 5..7. */
		if (tl_swar8(((uint64_t)lo << 8 * (9 - len) &
		    0xffffffffffull) | (uint64_t)(hi & 0xffffff00u) << 32, &a)) {
			*ns = (int64_t)a;
			return 0;
		}
	}
#endif
	return us_ns_other(s, len, ns);
}

int
tl_parse_i64(const char *s, size_t len, int64_t *v)
{
	const char *p = s, *end = s + len, *q;
	int neg = 0;
	uint64_t x = 0;

	if (p < end && *p == '-')
		neg = *p++ == '-';
	/* Plain digits, at most 18 (no overflow): the usual case. */
	if (end - p <= 18) {
		for (q = p; q < end && (unsigned)(*q - '0') < 10; q++)
			x = x * 10 + (uint64_t)(*q - '0');
		if (q == end && q > p) {
			*v = neg ? -(int64_t)x : (int64_t)x;
			return 0;
		}
		x = 0;
	}
	if (p == end || *p < '0' || *p > '9')	/* a digit first */
		return -1;
	while (p < end && *p >= '0' && *p <= '9') {
		if (x > (UINT64_MAX - 9) / 10)
			x = UINT64_MAX;		/* out of range, if an integer */
		else
			x = x * 10 + (uint64_t)(*p++ - '0');
		if (x == UINT64_MAX)
			while (p < end && *p >= '0' && *p <= '9')
				p++;
	}
	if (p < end && *p == '.') {	/* "5.0" */
		for (p++; p < end && *p == '0'; p++)
			;
	}
	if (p != end)
		return -1;
	if (x > (uint64_t)INT64_MAX)
		return -2;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return 0;
}

int
tl_num_out_of_range(const char *s, size_t len)
{
	char buf[64], *end;
	int64_t v;
	double d;

	if (tl_parse_i64(s, len, &v) == -2 || tl_parse_us_ns(s, len, &v) == -2)
		return 1;
	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	return end != buf && *end == '\0' && errno == ERANGE && d != 0;
}

int64_t
tl_json_get_i64(const struct tl_json *j, int obj, const char *key,
    int64_t dflt)
{
	int k = tl_json_get(j, obj, key, strlen(key));
	const char *s;
	size_t n;
	int64_t v;

	if (k < 0 || tl_json_type(j, k) != TL_J_PRIM)
		return dflt;
	s = tl_json_text(j, k, &n);
	return tl_parse_i64(s, n, &v) < 0 ? dflt : v;
}
