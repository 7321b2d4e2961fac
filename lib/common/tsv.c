/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tsv.h"
#include "common/util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

void
tl_w_init(struct tl_writer *w, FILE *fp, int csv)
{
	w->fp = fp;
	w->csv = csv;
	w->col = 0;
	w->buf = NULL;
	w->len = w->cap = 0;
	w->rows = 0;
}

void
tl_w_out(FILE *fp, const char *s, size_t n)
{
	int fd = fileno(fp);

	if (n == 0)
		return;
	if (fd < 0 || fflush(fp) != 0) {
		fwrite(s, 1, n, fp);
		return;
	}
	while (n > 0) {
		ssize_t k = write(fd, s, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {	/* fp's error indicator tells */
			fwrite(s, 1, n, fp);
			return;
		}
		s += k;
		n -= (size_t)k;
	}
}

void
tl_w_rows(struct tl_writer *w)
{
	w->rows = 1;
}

void
tl_w_init_mem(struct tl_writer *w, int csv)
{
	tl_w_init(w, NULL, csv);
}

/* With fp: what is held, out. */
static void
flush(struct tl_writer *w)
{
	if (w->len > 0)
		fwrite(w->out, 1, w->len, w->fp);
	w->len = 0;
}

void
tl_w_flush_(struct tl_writer *w)
{
	flush(w);
}

/* The end of a call that writes: out now, unless rows are held. */
#define done(w) tl_w_done(w)

/* Room for n more bytes (with fp at most sizeof(out)) at the end. */
char *
tl_w_room_(struct tl_writer *w, size_t n)
{
	if (w->fp != NULL) {
		if (sizeof(w->out) - w->len < n)
			flush(w);
		return w->out + w->len;
	}
	if (w->cap - w->len < n)
		tl_grow(&w->buf, &w->cap, w->len + n, 1);
	return w->buf + w->len;
}

#define room(w, n) tl_w_room(w, n)

/* Bytes s[0..n) out, to the file or into memory. */
#define put(w, s, n) tl_w_put_(w, s, n)

static inline void
putch(struct tl_writer *w, char c)
{
	*room(w, 1) = c;
	w->len++;
}

/* The letter of a byte's TSV escape (COPY text: \t \n \r \\), else 0. */
static const char tsv_esc[256] = {
	['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\\'] = '\\'
};

/* 1 if byte c must be quoted in CSV (RFC 4180): , " CR LF. */
static const char csv_quote[256] = {
	[','] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1
};

/*
 * The run of s[0..n) with no byte of table tab (tsv_esc or csv_quote),
 * whose four bytes are c1..c4: sixteen bytes at a time with SSE2.
 */
static inline size_t
plain_run(const char *s, size_t n, const char *tab, char c1, char c2,
    char c3, char c4)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i v1 = _mm_set1_epi8(c1), v2 = _mm_set1_epi8(c2),
	    v3 = _mm_set1_epi8(c3), v4 = _mm_set1_epi8(c4);

	for (; n - i >= 16; i += 16) {
		__m128i x = _mm_loadu_si128((const void *)(s + i));
		int m = _mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, v1), _mm_cmpeq_epi8(x, v2)),
		    _mm_or_si128(_mm_cmpeq_epi8(x, v3), _mm_cmpeq_epi8(x, v4))));

		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
	if (i < n && n >= 16) {	/* the last 16 bytes, less those seen */
		__m128i x = _mm_loadu_si128((const void *)(s + n - 16));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, v1), _mm_cmpeq_epi8(x, v2)),
		    _mm_or_si128(_mm_cmpeq_epi8(x, v3), _mm_cmpeq_epi8(x, v4))));

		m >>= i - (n - 16);
		return m != 0 ? i + (size_t)__builtin_ctz(m) : n;
	}
#else
	(void)c1, (void)c2, (void)c3, (void)c4;
#endif
	for (; i < n; i++)
		if (tab[(unsigned char)s[i]])
			return i;
	return n;
}

/* 1 if a word of bytes w has a byte below 0x0e or a '\\' (exact). */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
static inline int
tsv_word(uint64_t w)
{
	uint64_t b = w ^ ('\\' * ONES);

	return (((w - 0x0e * ONES) & ~w) | ((b - ONES) & ~b)) & HIGHS ? 1 : 0;
}

/*
 * The run of s[0..n) with no byte to escape in TSV (\t \n \r \\).  Its
 * test is looser and cheaper than plain_run's: a byte at most 0x0d
 * (unsigned) or a '\\', two compares; a byte 0x00-0x0d that needs no
 * escape (rare in text) is ruled out by the table.  Sixty-four bytes at
 * a time while nothing is found, then sixteen; a short field by words.
 */
static size_t
tsv_run(const char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i lim = _mm_set1_epi8(0x0d), bs = _mm_set1_epi8('\\');
#define TSV_HIT(x) _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8((x), lim), (x)), \
	    _mm_cmpeq_epi8((x), bs))
	unsigned m;

	for (; n - i >= 64; i += 64) {
		__m128i a = _mm_loadu_si128((const void *)(s + i)),
		    b = _mm_loadu_si128((const void *)(s + i + 16)),
		    c = _mm_loadu_si128((const void *)(s + i + 32)),
		    d = _mm_loadu_si128((const void *)(s + i + 48));

		if (_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(TSV_HIT(a), TSV_HIT(b)),
		    _mm_or_si128(TSV_HIT(c), TSV_HIT(d)))) != 0)
			break;
	}
	for (; n - i >= 16; i += 16) {
		__m128i x = _mm_loadu_si128((const void *)(s + i));

		for (m = (unsigned)_mm_movemask_epi8(TSV_HIT(x)); m != 0;
		    m &= m - 1)
			if (tsv_esc[(unsigned char)s[i + __builtin_ctz(m)]])
				return i + (size_t)__builtin_ctz(m);
	}
	if (i < n && n >= 16) {	/* the last 16 bytes, less those seen */
		__m128i x = _mm_loadu_si128((const void *)(s + n - 16));

		m = (unsigned)_mm_movemask_epi8(TSV_HIT(x)) >> (i - (n - 16));
		for (; m != 0; m &= m - 1)
			if (tsv_esc[(unsigned char)s[i + __builtin_ctz(m)]])
				return i + (size_t)__builtin_ctz(m);
		return n;
	}
#undef TSV_HIT
#endif
	if (n - i > 16) {
		/* a long field without SSE2: byte by byte below */
	} else if (n - i >= 8) {	/* 8 to 16: two words, overlapping */
		uint64_t a, b;

		memcpy(&a, s + i, 8);
		memcpy(&b, s + n - 8, 8);
		if (!tsv_word(a) && !tsv_word(b))
			return n;
	} else if (n - i >= 4) {	/* 4 to 7 */
		uint32_t a, b;

		memcpy(&a, s + i, 4);
		memcpy(&b, s + n - 4, 4);
		if (!tsv_word((uint64_t)a << 32 | b))
			return n;
	}
	for (; i < n; i++)
		if (tsv_esc[(unsigned char)s[i]])
			return i;
	return n;
}

#define sep(w) tl_w_sep(w)

/*
 * A TSV field of 1 to 16 bytes with nothing to escape (most of the short
 * ones: pids, names of kinds, shapes) tested and copied as two words
 * each, overlapping (or byte by byte below 4), without a call; -1 when
 * it has something to escape.
 */
static inline int
small_field(struct tl_writer *w, const char *s, size_t n)
{
	if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		if (tsv_word(a) || tsv_word(b))
			return -1;
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		if (tsv_word((uint64_t)a << 32 | b))
			return -1;
	} else if (tsv_esc[(unsigned char)s[0]] ||	/* 1 to 3: first, */
	    tsv_esc[(unsigned char)s[n / 2]] ||	/* middle and last byte */
	    tsv_esc[(unsigned char)s[n - 1]])
		return -1;
	tl_w_copy_(room(w, n), s, n);
	w->len += n;
	return 0;
}

static void
mem_field(struct tl_writer *w, const char *s, size_t n)
{
	size_t i, run = 0;

	sep(w);
	if (n == 0)
		return;
	if (w->csv) {
		if (plain_run(s, n, csv_quote, ',', '"', '\n', '\r') == n) {
			put(w, s, n);
			return;
		}
		putch(w, '"');
		for (i = 0; i < n; i++) {
			if (s[i] == '"')
				putch(w, '"');
			putch(w, s[i]);
		}
		putch(w, '"');
		return;
	}
	if (n <= 16 && !small_field(w, s, n))
		return;
	for (i = tsv_run(s, n); i < n; i = run + tsv_run(s + run, n - run)) {
		char *p;

		put(w, s + run, i - run);
		p = room(w, 2);
		p[0] = '\\';
		p[1] = tsv_esc[(unsigned char)s[i]];
		w->len += 2;
		run = i + 1;
	}
	put(w, s + run, n - run);
}

int
tl_w_plain(const struct tl_writer *w, const char *s, size_t n)
{
	if (w->csv)
		return plain_run(s, n, csv_quote, ',', '"', '\n', '\r') == n;
	return tsv_run(s, n) == n;
}

void
tl_w_mem(struct tl_writer *w, const char *s, size_t n)
{
	mem_field(w, s, n);
	done(w);
}

size_t
tl_tsv_decode(char *dst, const char *p, size_t n)
{
	char *d = dst;
	size_t k;

	for (k = 0; k < n; k++) {
		if (p[k] == '\\' && k + 1 < n) {
			switch (p[++k]) {
			case 't': *d++ = '\t'; break;
			case 'n': *d++ = '\n'; break;
			case 'r': *d++ = '\r'; break;
			case '\\': *d++ = '\\'; break;
			default: *d++ = '\\'; *d++ = p[k]; break;
			}
		} else
			*d++ = p[k];
	}
	*d = '\0';
	return (size_t)(d - dst);
}

void
tl_w_str(struct tl_writer *w, const char *s)
{
	tl_w_mem(w, s, s != NULL ? strlen(s) : 0);
}

/* "00" "01" .. "99": two digits a table entry. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* 10^k, k < 20. */
static const uint64_t p10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull
};

/* The decimal digits of u into buf, NUL-terminated; their count. */
static inline size_t
fmt_u64(char *buf, uint64_t u)
{
	size_t n;
	unsigned t;
	char *p;

	if (u < 10) {
		buf[0] = (char)('0' + u);
		buf[1] = '\0';
		return 1;
	}
	/* Its digits: floor(log10(u)) + 1, from its bit length. */
	t = (unsigned)((64 - __builtin_clzll(u)) * 1233) >> 12;
	n = t + 1 - (u < p10[t]);
	p = buf + n;
	*p = '\0';
	while (u >= 10000) {	/* four digits a division */
		unsigned r = (unsigned)(u % 10000);

		u /= 10000;
		p -= 4;
		memcpy(p, digit_pairs + 2 * (r / 100), 2);
		memcpy(p + 2, digit_pairs + 2 * (r % 100), 2);
	}
	if (u >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10)
		memcpy(p - 2, digit_pairs + 2 * u, 2);
	else
		p[-1] = (char)('0' + u);
	return n;
}

size_t
tl_fmt_i64(char *buf, int64_t v)
{
	if (v < 0) {
		buf[0] = '-';
		return 1 + fmt_u64(buf + 1, -(uint64_t)v);
	}
	return fmt_u64(buf, (uint64_t)v);
}

size_t
tl_fmt_us(char *buf, size_t n, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	unsigned frac = (unsigned)(a % 1000);
	size_t k = 0;

	/* No snprintf: this runs for every time field of every row. */
	if (n < 24) {		/* "-" 16 digits "." 3 digits NUL, rounded up */
		if (n > 0)
			buf[0] = '\0';
		return 0;
	}
	if (ns < 0)
		buf[k++] = '-';
	if (a / 1000 >= 10000) {
		/*
		 * The digits above the last four, kept from the last call:
		 * a row's start, its kernels' starts and their launches'
		 * are microseconds apart (per thread: rows are formatted
		 * on several).
		 */
		static _Thread_local struct {
			uint64_t hi;
			size_t len;
			char text[16];
		} last = { UINT64_MAX, 0, "" };
		uint64_t hi = a / 1000 / 10000;
		unsigned lo = (unsigned)(a / 1000 % 10000);

		if (hi != last.hi) {	/* < 10^12: 12 digits and a NUL */
			last.len = fmt_u64(last.text, hi);
			last.hi = hi;
		}
		memcpy(buf + k, last.text, sizeof(last.text));
		k += last.len;
		memcpy(buf + k, digit_pairs + 2 * (lo / 100), 2);
		memcpy(buf + k + 2, digit_pairs + 2 * (lo % 100), 2);
		k += 4;
	} else
		k += fmt_u64(buf + k, a / 1000);
	if (frac != 0) {
		buf[k++] = '.';
		buf[k++] = (char)('0' + frac / 100);
		memcpy(buf + k, digit_pairs + 2 * (frac % 100), 2);
		k += 2;
		while (buf[k - 1] == '0')
			k--;
	}
	buf[k] = '\0';
	return k;
}

/*
 * Round the decimal digits dig[0..17) to p digits, half up; returns the
 * carry into the exponent (0 or 1).
 */
static int
round_digits(const char *dig, int p, char *out)
{
	int i, carry;

	memcpy(out, dig, (size_t)p);
	carry = dig[p] >= '5';
	for (i = p - 1; i >= 0 && carry; i--) {
		if (out[i] == '9')
			out[i] = '0';
		else {
			out[i]++;
			carry = 0;
		}
	}
	if (carry) {		/* 999.. -> 1000.. */
		memmove(out + 1, out, (size_t)p - 1);
		out[0] = '1';
		return 1;
	}
	return 0;
}

/*
 * Write sign, digits dig[0..nd) and decimal exponent e as Python's repr
 * (at most 24 bytes and a NUL); straight into buf when it has room.
 * The digits are copied in fixed sizes, without a call: dig has DIGBUF
 * bytes (read past its nd digits), and up to 32 bytes of the text's
 * buffer are written, past its NUL too.  Returns the text's length.
 */
#define DIGBUF 32

static size_t
layout(char *buf, size_t n, int neg, const char *dig, int nd, int e)
{
	char txt[48], *t0 = n >= 32 ? buf : txt, *o = t0;
	size_t len;
	int a;

	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	if (neg)
		*o++ = '-';
	if (e >= -4 && e < 16) {	/* plain notation */
		if (e < 0) {	/* "0.000" and the 17 digits: 24 bytes */
			memcpy(o, "0.0000", 6);
			o += 1 - e;
			memcpy(o, dig, 17);
			o += nd;
		} else if (nd > e + 1) {
			/*
			 * The e + 1 digits before the point, then the
			 * nd - e - 1 after it, 8 or 16: 26 bytes at most.
			 */
			memcpy(o, dig, 16);
			o += e + 1;
			*o++ = '.';
			memcpy(o, dig + e + 1, 8);
			if (nd - e - 1 > 8)
				memcpy(o + 8, dig + e + 9, 8);
			o += nd - e - 1;
		} else {
			memcpy(o, dig, (size_t)nd);
			memset(o + nd, '0', (size_t)(e + 1 - nd));
			o += e + 1;
		}
	} else {
		*o++ = dig[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		/* "e%c%02d" */
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		a = e < 0 ? -e : e;
		if (a >= 100) {
			*o++ = (char)('0' + a / 100);
			a %= 100;
		}
		memcpy(o, digit_pairs + 2 * a, 2);
		o += 2;
	}
	if (t0 == buf) {	/* written in place */
		*o = '\0';
		return (size_t)(o - buf);
	}
	len = (size_t)(o - txt);
	if (len > n - 1)
		len = n - 1;
	memcpy(buf, txt, len);
	buf[len] = '\0';
	return len;
}

/*
 * Exact decimal digits for the common range 1e-5 <= |d| < 1e15 with
 * 128-bit integers, without printf or strtod: d = m * 2^-s, and the
 * p-digit correctly rounded decimal is round(m * 10^k / 2^s).
 */
typedef unsigned __int128 u128;

static u128
pow10_128(int k)
{

	return k <= 19 ? (u128)p10[k] : (u128)p10[19] * p10[k - 19];
}

/* round(m * 10^k / 2^s), ties to even. */
static u128
scaled(uint64_t m, int k, int s)
{
	u128 x = (u128)m * pow10_128(k);
	u128 q = x >> s, r = x & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);

	if (r > half || (r == half && (q & 1)))
		q++;
	return q;
}

/*
 * round(x / 10^j), ties to even, of x = q + f with integer q and
 * fraction f (0 < f < 1 when frac, else f = 0): scaled() with 10^j less,
 * from the same product.
 */
static uint64_t
scaled_less(uint64_t q, int frac, uint64_t j)
{
	uint64_t c = q / j, r = q % j;

	if (r > j / 2 || (r == j / 2 && (frac || (c & 1))))
		c++;
	return c;
}

/*
 * 1 if c * 10^-k reads back as m * 2^-s: within half an ulp, |c * 2^s -
 * m * 10^k| < 10^k / 2 (an integer division).  Told with both sides
 * times t = 10^(17 - p), from the 17 digits' product m * 10^k * t =
 * q * 2^s + r: ct = c * t, and tlim = t * (10^k / 2), half that product's
 * power of ten when k > 0, else 0.
 */
static int
reads_back(uint64_t ct, uint64_t q, u128 r, int s, u128 tlim, int k,
    uint64_t t, uint64_t m)
{
	u128 dx;

	if (ct > q)	/* above, as r < 2^s */
		return ((u128)(ct - q) << s) - r < tlim;
	dx = ((u128)(q - ct) << s) + r;
	if (dx == 0)
		return tlim > 0;
	/* Below a power of two the next double down is half as far. */
	if (m == (1ull << 52))
		tlim = (u128)t * (pow10_128(k) / 2 / 2);
	return dx < tlim;
}

/* The 4 digits of v < 10^4 at d. */
static inline void
digits4(char *d, unsigned v)
{
	memcpy(d, digit_pairs + 2 * (v / 100), 2);
	memcpy(d + 2, digit_pairs + 2 * (v % 100), 2);
}

/* The p digits (15, 16 or 17) of c < 10^p at dig, in 32-bit steps. */
static inline void
digits_of(u128 c128, int p, char *dig)
{
	uint64_t c = (uint64_t)c128;	/* < 10^17 */
	unsigned hi = (unsigned)(c / 100000000), lo = (unsigned)(c % 100000000);
	int i;

	digits4(dig + p - 8, lo / 10000);
	digits4(dig + p - 4, lo % 10000);
	lo = hi % 10000;	/* the p - 8 digits of hi < 10^9 */
	hi /= 10000;
	digits4(dig + p - 12, lo);
	for (i = p - 14; i >= 0; i -= 2) {
		memcpy(dig + i, digit_pairs + 2 * (hi % 100), 2);
		hi /= 100;
	}
	if (i == -1)
		dig[0] = (char)('0' + hi);
}

/* 10^k as doubles (correctly rounded), k = -5 .. 15. */
static const double p10d[21] = {
	1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
};

/*
 * floor(log10(a)) for 1e-5 <= a < 1e15 as libm's log10 gives it: from the
 * table, but by log10 itself within a relative 1e-12 of a power of ten,
 * where log10's rounding decides (the digits below depend on it).
 */
static int
decimal_exp(double a, int ex)
{
	/*
	 * The last k with p10d[k] <= a: 2^(ex - 1) <= a < 2^ex, so
	 * (ex - 1) * log10(2) + 5 (1233 / 4096 is log10(2) within 5e-6)
	 * is within one of it; the steps below find it.
	 */
	int lo = (ex - 1) * 1233 / 4096 + 5;

	if (lo < 0)
		lo = 0;
	if (lo > 20)
		lo = 20;
	while (lo < 20 && p10d[lo + 1] <= a)
		lo++;
	while (lo > 0 && p10d[lo] > a)
		lo--;
	if (a < p10d[lo] * (1 + 1e-12) ||
	    (lo < 20 && a > p10d[lo + 1] * (1 - 1e-12)))
		return (int)floor(log10(a));
	return lo - 5;
}

/*
 * Fast path of tl_fmt_double: the text's length, or -1 when d is out of
 * its range.
 */
static long
fmt_fast(char *buf, size_t n, double d)
{
	double a = fabs(d);
	uint64_t m, bits, q, c;
	int ex, s, E, p;
	u128 c17, x, r, half;
	char dig[DIGBUF];

	if (!(a >= 1e-5 && a < 1e15))
		return -1;
	/* A normal double: a = m * 2^(ex - 53), m of 53 bits (frexp's). */
	memcpy(&bits, &a, sizeof(bits));
	m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
	ex = (int)(bits >> 52) - 1022;
	s = 53 - ex;
	if (s < 1 || s > 120)
		return -1;
	E = decimal_exp(a, ex);
	for (;;) {
		if (16 - E < 0 || 16 - E > 22)
			return -1;
		c17 = scaled(m, 16 - E, s);
		if (c17 >= pow10_128(17))
			E++;
		else if (c17 < pow10_128(16))
			E--;
		else
			break;
	}
	/* the 17 digits' product, its integer part and fraction */
	x = (u128)m * pow10_128(16 - E);
	q = (uint64_t)(x >> s);
	r = x & (((u128)1 << s) - 1);
	half = pow10_128(16 - E) / 2;
	for (p = 15; p <= 16; p++) {
		int k = p - 1 - E;
		uint64_t t = p == 15 ? 100 : 10;

		c = scaled_less(q, r != 0, t);
		if (reads_back(c * t, q, r, s, k > 0 ? half : 0, k, t, m)) {
			if (c == p10[p]) {	/* rounded up to 10^p */
				dig[0] = '1';
				return (long)layout(buf, n, d < 0, dig, 1,
				    E + 1);
			}
			digits_of(c, p, dig);
			return (long)layout(buf, n, d < 0, dig, p, E);
		}
	}
	digits_of(c17, 17, dig);
	return (long)layout(buf, n, d < 0, dig, 17, E);
}

/* tl_fmt_double: the text's length. */
static size_t
fmt_double(char *buf, size_t n, double d)
{
	char e17[40], dig[DIGBUF], cand[DIGBUF], txt[48];
	int e, p, neg = d < 0;
	long len;

	if (!isfinite(d)) {
		buf[0] = '\0';
		return 0;
	}
	if (d == 0) {
		snprintf(buf, n, "0");
		return strlen(buf);
	}
	if (fabs(d) < 1e15 && d == (double)(long long)d) {
		snprintf(buf, n, "%lld", (long long)d);
		return strlen(buf);
	}
	if ((len = fmt_fast(buf, n, d)) >= 0)
		return (size_t)len;
	/*
	 * The 17 significant digits always read back; the shortest of 15,
	 * 16, 17 digits that reads back is Python's repr in practice.
	 */
	snprintf(e17, sizeof(e17), "%.16e", fabs(d));
	dig[0] = e17[0];
	memcpy(dig + 1, e17 + 2, 16);
	dig[17] = '\0';
	e = atoi(e17 + 19);
	for (p = 15; p <= 16; p++) {
		int ce;

		if (dig[p] == '5' && (p == 16 || dig[16] == '0')) {
			/*
			 * The dropped digits are exactly half: the 17-digit
			 * text was rounded, so let printf round d itself.
			 */
			char ep[40];

			snprintf(ep, sizeof(ep), "%.*e", p - 1, fabs(d));
			cand[0] = ep[0];
			memcpy(cand + 1, ep + 2, (size_t)p - 1);
			ce = atoi(ep + p + 2);
		} else
			ce = e + round_digits(dig, p, cand);
		layout(txt, sizeof(txt), neg, cand, p, ce);
		if (strtod(txt, NULL) == d) {
			snprintf(buf, n, "%s", txt);
			return strlen(buf);
		}
	}
	return layout(buf, n, neg, dig, 17, e);
}

void
tl_fmt_double(char *buf, size_t n, double d)
{
	fmt_double(buf, n, d);
}

void
tl_w_double(struct tl_writer *w, double d)
{
	/*
	 * A cache of recent texts (24 KiB a thread): roofs, baselines,
	 * shares of the same kernel times repeat row after row, and
	 * formatting is the costly part.  One per thread: rows are
	 * formatted on several (trace/opstream.h).
	 */
	static _Thread_local struct {
		double d;
		unsigned len;	/* 0: none */
		char text[36];
	} cache[512];
	uint64_t bits;
	unsigned h;

	memcpy(&bits, &d, sizeof(bits));
	h = (unsigned)((bits * 0x9e3779b97f4a7c15ull) >> 55);
	if (cache[h].len == 0 ||
	    memcmp(&cache[h].d, &d, sizeof(d)) != 0) {
		cache[h].d = d;
		cache[h].len = (unsigned)fmt_double(cache[h].text,
		    sizeof(cache[h].text), d);
		if (cache[h].len == 0) {	/* NaN, inf: not cached */
			sep(w);
			done(w);
			return;
		}
	}
	sep(w);
	put(w, cache[h].text, cache[h].len);
	done(w);
}

void
tl_w_eol(struct tl_writer *w)
{
	putch(w, '\n');	/* LF for CSV too, as the TSV */
	w->col = 0;
	if (w->fp != NULL)
		flush(w);
}

void
tl_w_header(struct tl_writer *w, const char *names)
{
	const char *p = names, *q;

	while ((q = strchr(p, ',')) != NULL) {
		tl_w_mem(w, p, (size_t)(q - p));
		p = q + 1;
	}
	tl_w_str(w, p);
	tl_w_eol(w);
}
