/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/json.h"
#include "model/concrete.h"

/* One list item, trimmed and not empty: store it as item i of v; 0 or -1. */
typedef int item_fn(const char *s, size_t len, int i, void *v);

static const char *
skip(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Length of the n bytes at s without trailing blanks. */
static size_t
rtrim(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

/* *s moved past leading blanks; its length without trailing ones. */
static size_t
trim(const char **s)
{
	*s = skip(*s);
	return rtrim(*s, strlen(*s));
}

/* The trimmed text means "not given": empty or "None". */
static int
none(const char *s, size_t len)
{
	return len == 0 || (len == 4 && strncmp(s, "None", 4) == 0);
}

/* A bool word of len bytes: 1, 0, or -1; with digits "1" and "0" too. */
static int
word_bool(const char *s, size_t len, int digits)
{
	if (len == 4 && strncasecmp(s, "true", 4) == 0)
		return 1;
	if (len == 5 && strncasecmp(s, "false", 5) == 0)
		return 0;
	if (digits && len == 1 && (s[0] == '1' || s[0] == '0'))
		return s[0] - '0';
	return -1;
}

/*
 * The items of "[a, b]", "(a,)" or, when lone, a lone "a", each passed
 * to put.  Returns the count (0 for blank), or -1 when the text is not
 * such a list, an item is rejected or there are more than max.
 */
static int
list(const char *s, int max, int lone, item_fn *put, void *v)
{
	const char *e;
	char close = '\0';
	size_t len;
	int n = 0;

	s = skip(s);
	if (*s == '\0')
		return 0;
	if (*s == '[' || *s == '(')
		close = *s++ == '[' ? ']' : ')';
	else if (!lone)
		return -1;
	for (;;) {
		s = skip(s);
		/* The end: "[]", or after a trailing comma as in "(1,)". */
		if (close != '\0' && *s == close) {
			s++;
			break;
		}
		for (e = s; *e != '\0' && *e != ',' && *e != close; e++)
			;
		len = rtrim(s, (size_t)(e - s));
		if (len == 0 || n == max || put(s, len, n, v) < 0)
			return -1;
		n++;
		if (close == '\0' || *e != ',') {
			if (*e != close)
				return -1;
			s = close != '\0' ? e + 1 : e;
			break;
		}
		s = e + 1;
	}
	return *skip(s) == '\0' ? n : -1;
}

static int
put_int(const char *s, size_t len, int i, void *v)
{
	return tl_parse_i64(s, len, (int64_t *)v + i) == 0 ? 0 : -1;
}

static int
put_bool(const char *s, size_t len, int i, void *v)
{
	int b = word_bool(s, len, 1);

	if (b < 0)
		return -1;
	((int *)v)[i] = b;
	return 0;
}

int
tl_ci_blank(const char *s)
{
	return *skip(s) == '\0';
}

int
tl_ci_truth(const char *s)
{
	size_t len = trim(&s);

	return word_bool(s, len, 0);
}

int
tl_ci_bool(const char *s, int def, int *v)
{
	size_t len = trim(&s);
	int b;

	if (none(s, len)) {
		*v = def;
		return 0;
	}
	if ((b = word_bool(s, len, 1)) < 0)
		return -1;
	*v = b;
	return 0;
}

int
tl_ci_int(const char *s, int64_t *v)
{
	size_t len = trim(&s);

	return tl_parse_i64(s, len, v) == 0 ? 0 : -1;
}

int
tl_ci_double(const char *s, double def, double *v)
{
	char buf[64], *end;
	size_t len = trim(&s);
	double d;

	if (none(s, len)) {
		*v = def;
		return 0;
	}
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	if (end == buf || *end != '\0' || errno == ERANGE || !isfinite(d))
		return -1;
	*v = d;
	return 0;
}

int
tl_ci_count(const char *s, int64_t *v)
{
	size_t len = trim(&s);
	double d;

	if (none(s, len) || tl_ci_double(s, 0, &d) < 0 || d < 0 ||
	    d >= 9007199254740992.0 || d != floor(d))
		return -1;
	*v = (int64_t)d;
	return 0;
}

int
tl_ci_ints(const char *s, int64_t *v, int max)
{
	return list(s, max, 1, put_int, v);
}

int
tl_ci_bools(const char *s, int *v, int max)
{
	return list(s, max, 0, put_bool, v);
}

int
tl_scalar_type_bytes(int64_t code)
{
	static const signed char bytes[] = {
		1, 1, 2, 4, 8, 2, 4, 8,	/* uint8 .. double */
		4, 8, 16, 1,		/* complex half .. double, bool */
		1, 1, 4, 2,		/* qint8, quint8, qint32, bfloat16 */
		0, 0, 1, 1, 1, 1, 2,	/* quint4x2 .. bits16 */
		1, 1, 1, 1,		/* the four float8 types */
		2, 4, 8			/* uint16, uint32, uint64 */
	};

	if (code == 44)		/* Float8_e8m0fnu */
		return 1;
	if (code < 0 || code >= (int64_t)sizeof(bytes))
		return 0;
	return bytes[code];
}
