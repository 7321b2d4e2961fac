/* See LICENSE file for copyright and license details. */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPLIT_AVX2	/* a 32-byte splitter, chosen at run time */
#endif

#include "common/json.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/stream.h"

static char where[512];

const char *
tl_stream_where(const struct tl_stream *s)
{
	snprintf(where, sizeof(where), "%s:%ld", s->path, s->lineno);
	return where;
}

static void
fail(const struct tl_stream *s, const char *what)
{
	tl_die("%s: %s", tl_stream_where(s), what);
}

/*
 * A CSV error: the line (of the record's end, for a quoted field over
 * several), the field's number and column.  unterminated: the input
 * ended inside a quoted field.
 */
static void
csv_fail(const struct tl_stream *s, int unterminated)
{
	char msg[256], col[128] = "";
	int k = s->cnf;		/* fields done in this record */

	if (s->cols != NULL && k < s->ncols)
		snprintf(col, sizeof(col), " (%s)", s->cols[k]);
	if (unterminated)
		snprintf(msg, sizeof(msg), "CSV field %d%s: a quoted field "
		    "still open at the end of the input", k + 1, col);
	else if (csv_error(s->csvp) == CSV_EPARSE)
		snprintf(msg, sizeof(msg), "CSV field %d%s: a quote inside an "
		    "unquoted field, or text after a closing quote (quote "
		    "the field and double its quotes)", k + 1, col);
	else
		snprintf(msg, sizeof(msg), "CSV field %d%s: %s", k + 1, col,
		    csv_strerror(csv_error(s->csvp)));
	fail(s, msg);
}

static int
is_space(unsigned char c)
{
	(void)c;
	return 0;	/* keep every blank: the stream's fields are exact */
}

/* Make room for n fields. */
static void
fields(struct tl_stream *s, int n)
{
	size_t cap = (size_t)s->fcap;

	if (n <= s->fcap)
		return;
	tl_grow(&s->f, &cap, (size_t)n, sizeof(*s->f));
	s->flen = tl_realloc(s->flen, cap * sizeof(*s->flen));
	s->esc = tl_realloc(s->esc, cap);
	s->coff = tl_realloc(s->coff, cap * sizeof(*s->coff));
	s->fcap = (int)cap;
}

static void
csv_field(void *data, size_t len, void *arg)
{
	struct tl_stream *s = arg;
	size_t need = s->cbuflen + len + 1;

	tl_grow(&s->cbuf, &s->cbufcap, need, 1);
	if (len > 0)
		memcpy(s->cbuf + s->cbuflen, data, len);
	s->cbuf[s->cbuflen + len] = '\0';
	fields(s, s->cnf + 1);
	s->coff[s->cnf++] = s->cbuflen;
	s->cbuflen = need;
}

static void
csv_record(int c, void *arg)
{
	struct tl_stream *s = arg;

	(void)c;
	s->crec = 1;
}

/* Make the CSV record just parsed the current fields. */
static void
csv_take(struct tl_stream *s)
{
	int i;

	fields(s, s->cnf);
	s->nf = s->cnf;
	for (i = 0; i < s->nf; i++) {
		s->f[i] = s->cbuf + s->coff[i];
		s->flen[i] = strlen(s->f[i]);
		s->esc[i] = 0;
	}
}

/* Room past the buffer's end: the splitter reads 32 bytes at a time. */
#define PAD 64

/*
 * Read more of the current file into the buffer, moving what is left
 * to its start and growing it when a line fills it; sets eof at the end.
 */
static void
fill(struct tl_stream *s)
{
	ssize_t n;

	if (s->pos > 0) {
		memmove(s->buf, s->buf + s->pos, s->end - s->pos);
		s->end -= s->pos;
		s->scan -= s->pos;
		s->pos = 0;
	}
	if (s->buf == NULL || s->end == s->bufcap) {
		s->bufcap = s->bufcap == 0 ? TL_STREAM_BUF : s->bufcap * 2;
		s->buf = tl_realloc(s->buf, s->bufcap + PAD);
	}
	do
		n = read(s->fd, s->buf + s->end, s->bufcap - s->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		tl_die("%s: read error:", s->path);
	if (n == 0)
		s->eof = 1;
	s->end += (size_t)n;
	memset(s->buf + s->end, 0, PAD);
}

/*
 * The next line of the current file, its newline included (none on a
 * last line without one), taken out of the buffer; NULL at the end.
 * Valid until the next call; the byte after it may be the next line's.
 */
static char *
next_line(struct tl_stream *s, size_t *len)
{
	char *nl, *line;

	for (;;) {
		nl = s->scan < s->end ? memchr(s->buf + s->scan, '\n',
		    s->end - s->scan) : NULL;
		if (nl != NULL) {
			*len = (size_t)(nl + 1 - (s->buf + s->pos));
			break;
		}
		s->scan = s->end;
		if (s->eof) {
			if (s->pos == s->end)
				return NULL;
			*len = s->end - s->pos;
			break;
		}
		fill(s);
	}
	line = s->buf + s->pos;
	s->pos += *len;
	s->scan = s->pos;
	return line;
}

/*
 * Split a TSV line in place, byte by byte (tabs become NULs; line[len]
 * is writable): the fields, which hold a backslash, and an error at a
 * NUL byte.  For lines with a backslash or a NUL, and without SSE2.
 */
static void
split_slow(struct tl_stream *s, char *line, size_t len)
{
	size_t p, start = 0;
	int n = 0;
	unsigned char esc = 0;

	for (p = 0; p <= len; p++) {
		if (p == len || line[p] == '\t') {
			fields(s, n + 1);
			s->f[n] = line + start;
			s->flen[n] = p - start;
			s->esc[n++] = esc;
			line[p] = '\0';
			start = p + 1;
			esc = 0;
		} else if (line[p] == '\\')
			esc = 1;
		else if (line[p] == '\0')
			fail(s, "NUL byte: not a text stream");
	}
	s->nf = n;
}

#ifdef __SSE2__
/*
 * The mask of the tabs of p[0..16); the backslashes and NULs there ORed
 * into *odd, a vector looked at once a line.
 */
static inline unsigned
tabs16(const char *p, __m128i *odd)
{
	const __m128i tab = _mm_set1_epi8('\t'), bs = _mm_set1_epi8('\\');
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	*odd = _mm_or_si128(*odd, _mm_or_si128(_mm_cmpeq_epi8(x, bs),
	    _mm_cmpeq_epi8(x, _mm_setzero_si128())));
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, tab));
}

/*
 * The tabs of mask t, bytes from line + i on: each ends a field (f, l:
 * the next field's start and length; start: where it starts).
 */
#define CUT(t, ctz) do {						\
	for (; (t) != 0; (t) &= (t) - 1) {				\
		size_t p_ = i + (size_t)ctz(t);				\
									\
		*f++ = line + start;					\
		*l++ = p_ - start;					\
		line[p_] = '\0';					\
		start = p_ + 1;						\
	}								\
} while (0)

/* Room for n fields more than the f cut so far, f and l kept. */
#define ROOM(n) do {							\
	if (flim - f < (n)) {						\
		int k_ = (int)(f - s->f);				\
									\
		fields(s, k_ + (n));					\
		f = s->f + k_;						\
		l = s->flen + k_;					\
		flim = s->f + s->fcap;					\
	}								\
} while (0)

/*
 * The end of a line cut up to f, its last field from line + start on;
 * odd: it holds a backslash or a NUL.  Then the tabs are put back for
 * split_slow to go byte by byte.
 */
static inline void
cut_last(struct tl_stream *s, char *line, size_t len, char **f,
    size_t start, unsigned odd)
{
	int n = (int)(f - s->f);

	if (odd != 0) {
		while (n-- > 0)
			s->f[n][s->flen[n]] = '\t';
		split_slow(s, line, len);
		return;
	}
	fields(s, n + 1);
	s->f[n] = line + start;
	s->flen[n] = len - start;
	line[len] = '\0';
	memset(s->esc, 0, (size_t)n + 1);
	s->nf = n + 1;
}
#endif

#ifdef SPLIT_AVX2
/*
 * The mask of the tabs of p[0..32); a byte of *odd becomes 0 at a
 * backslash or NUL there (min(x, x ^ '\\') is 0 only at those).
 */
__attribute__((target("avx2"))) static inline unsigned
tabs32(const char *p, __m256i *odd)
{
	const __m256i tab = _mm256_set1_epi8('\t'),
	    bs = _mm256_set1_epi8('\\');
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);

	*odd = _mm256_min_epu8(*odd, _mm256_min_epu8(x,
	    _mm256_xor_si256(x, bs)));
	return (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, tab));
}

/*
 * split_tsv with AVX2 (and BMI's tzcnt and blsr for the cuts), on CPUs
 * that have them: the same fields, from half the vector instructions.
 * 32 bytes after line[len] are readable, and s has room for 65 fields.
 */
__attribute__((target("avx2,bmi"))) static void
split_avx2(struct tl_stream *s, char *line, size_t len)
{
	char **f = s->f, **flim = f + s->fcap;
	size_t *l = s->flen, i, start = 0;
	__m256i vodd = _mm256_set1_epi8(-1);
	unsigned odd;

	for (i = 0; i + 64 <= len; i += 64) {
		uint64_t t = (uint64_t)tabs32(line + i, &vodd) |
		    (uint64_t)tabs32(line + i + 32, &vodd) << 32;

		ROOM(65);
		CUT(t, __builtin_ctzll);
	}
	odd = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(vodd,
	    _mm256_setzero_si256()));
	for (; i < len; i += 32) {
		unsigned t, m = len - i < 32 ? (1u << (len - i)) - 1 :
		    0xffffffffu;
		__m256i o = _mm256_set1_epi8(-1);

		t = tabs32(line + i, &o) & m;
		odd |= (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(o,
		    _mm256_setzero_si256())) & m;
		ROOM(33);
		CUT(t, __builtin_ctz);
	}
	cut_last(s, line, len, f, start, odd);
}
#endif

/*
 * Split a TSV line in place (tabs become NULs; line[len] is writable,
 * and 32 bytes after it readable); a NUL byte in it is an error.  One
 * pass finds the tabs, 64 bytes a step with SSE2, and cuts the fields
 * there.  A line with a backslash or a NUL (rare: the stream's numbers,
 * names and JSON seldom need an escape) is split again by split_slow,
 * which says which fields hold one, or fails.
 */
static void
split_tsv(struct tl_stream *s, char *line, size_t len)
{
#ifdef __SSE2__
	char **f, **flim;
	size_t *l, i, start = 0;
	__m128i vodd = _mm_setzero_si128();
	unsigned odd;

	fields(s, 65);		/* f and flim are not NULL */
#ifdef SPLIT_AVX2
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")) {
		split_avx2(s, line, len);
		return;
	}
#endif
	f = s->f;
	flim = f + s->fcap;
	l = s->flen;
	for (i = 0; i + 64 <= len; i += 64) {
		uint64_t t = (uint64_t)tabs16(line + i, &vodd) |
		    (uint64_t)tabs16(line + i + 16, &vodd) << 16 |
		    (uint64_t)tabs16(line + i + 32, &vodd) << 32 |
		    (uint64_t)tabs16(line + i + 48, &vodd) << 48;

		ROOM(65);
		CUT(t, __builtin_ctzll);
	}
	odd = (unsigned)_mm_movemask_epi8(vodd);
	for (; i < len; i += 16) {
		unsigned t, m = len - i < 16 ? (1u << (len - i)) - 1 : 0xffff;
		__m128i o = _mm_setzero_si128();

		t = tabs16(line + i, &o) & m;
		odd |= (unsigned)_mm_movemask_epi8(o) & m;
		ROOM(17);
		CUT(t, __builtin_ctz);
	}
	cut_last(s, line, len, f, start, odd);
#else
	split_slow(s, line, len);
#endif
}

/* Read one raw record of the current file: 1, or 0 at its end. */
static int
record(struct tl_stream *s)
{
	size_t n;
	char *line;

	if (!s->csv) {
		if ((line = next_line(s, &n)) == NULL)
			return 0;
		s->lineno++;
		if (n > 0 && line[n - 1] == '\n')
			n--;
		if (n > 0 && line[n - 1] == '\r')
			n--;
		split_tsv(s, line, n);
		return 1;
	}
	s->cnf = 0;
	s->cbuflen = 0;
	s->crec = 0;
	while (!s->crec) {
		if ((line = next_line(s, &n)) == NULL) {
			if (csv_fini(s->csvp, csv_field, csv_record, s) != 0)
				csv_fail(s, 1);
			if (!s->crec)
				return 0;
			break;
		}
		s->lineno++;
		if (memchr(line, '\0', n) != NULL)
			fail(s, "NUL byte: not a text stream");
		if (csv_parse(s->csvp, line, n, csv_field, csv_record, s) != n)
			csv_fail(s, 0);
	}
	csv_take(s);
	return 1;
}

/*
 * A trace (JSON) or gzip data given to a stream stage: say what to do
 * rather than what is wrong with it as a stream.
 */
static void
not_a_trace(struct tl_stream *s, const char *first, size_t n)
{
	const unsigned char *p = (const unsigned char *)first;
	size_t i = 0;
	int c = EOF;

	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		tl_die("%s: gzip data, not an op stream: run tl-parse first on "
		    "a trace (zcat a compressed stream)", s->path);
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
	    p[i] == '\n'))
		i++;
	if (i < n)
		c = p[i];
	else {
		/* A blank first line (Kineto writes one): look on. */
		for (;;) {
			while (s->pos < s->end && (s->buf[s->pos] == ' ' ||
			    s->buf[s->pos] == '\t' || s->buf[s->pos] == '\r' ||
			    s->buf[s->pos] == '\n'))
				s->pos++;
			s->scan = s->pos;
			if (s->pos < s->end) {
				c = (unsigned char)s->buf[s->pos];
				break;
			}
			if (s->eof)
				break;
			fill(s);
		}
	}
	if (c == '{' || c == '[')
		tl_die("%s: this is a trace (JSON), not an op stream: run "
		    "tl-parse first", s->path);
}

/* Open file k and read its header; 0, or -1 when it is empty. */
static int
open_file(struct tl_stream *s, int k)
{
	const char *path = s->nfiles > 0 ? s->files[k] : "-";
	char *first, *line;
	size_t len, n;
	int c;

	s->cur = k;
	s->lineno = 0;
	s->pos = s->end = s->scan = 0;
	s->eof = 0;
	if (strcmp(path, "-") == 0) {
		s->fd = STDIN_FILENO;
		s->path = "<stdin>";
		tl_pipe_grow(s->fd);
	} else {
		s->fd = tl_open_read(path);
		s->path = path;
		if (s->fd < 0)
			tl_die("%s:", path);
	}
	/* Peek at the header to choose TSV or CSV. */
	if ((line = next_line(s, &n)) == NULL)
		return -1;
	/* A copy: looking past a blank first line moves the buffer. */
	tl_grow(&s->hdr, &s->hdrcap, n + 1 + PAD, 1);
	first = memcpy(s->hdr, line, n);
	memset(first + n, 0, 1 + PAD);	/* the splitter reads on */
	s->lineno = 1;
	not_a_trace(s, first, n);
	/* A UTF-8 byte order mark (spreadsheets write one) is no column's. */
	if (n >= 3 && memcmp(first, "\xef\xbb\xbf", 3) == 0) {
		first += 3;
		n -= 3;
	}
	len = strlen(first);
	if (len != n)
		fail(s, "NUL byte: not a text stream");
	s->csv = memchr(first, '\t', len) == NULL &&
	    memchr(first, ',', len) != NULL;
	if (s->csv) {
		if (s->csvp == NULL) {
			s->csvp = tl_malloc(sizeof(struct csv_parser));
			if (csv_init(s->csvp, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
				tl_die("out of memory");
			csv_set_space_func(s->csvp, is_space);
		}
		s->cnf = 0;
		s->cbuflen = 0;
		s->crec = 0;
		c = (int)len;
		s->lineno = 1;
		if (csv_parse(s->csvp, first, len, csv_field, csv_record, s) !=
		    len)
			csv_fail(s, 0);
		/* A quoted header field may span lines: read on. */
		while (!s->crec && (line = next_line(s, &n)) != NULL) {
			s->lineno++;
			c = (int)strnlen(line, n);
			if (csv_parse(s->csvp, line, (size_t)c, csv_field,
			    csv_record, s) != (size_t)c)
				csv_fail(s, 0);
		}
		if (!s->crec && csv_fini(s->csvp, csv_field, csv_record, s) != 0)
			csv_fail(s, 1);
		csv_take(s);
	} else {
		s->lineno = 1;
		if (len > 0 && first[len - 1] == '\n')
			first[--len] = '\0';
		if (len > 0 && first[len - 1] == '\r')
			first[--len] = '\0';
		split_tsv(s, first, len);
	}
	return 0;
}

static void
check_header(struct tl_stream *s)
{
	int i;

	if (s->cols == NULL) {
		s->ncols = s->nf;
		s->cols = tl_calloc((size_t)s->nf + 1, sizeof(*s->cols));
		for (i = 0; i < s->nf; i++) {
			s->cols[i] = tl_strdup(tl_stream_get(s, i));
			if (s->cols[i][0] == '\0')
				fail(s, "header has an empty column name");
		}
		return;
	}
	if (s->nf != s->ncols)
		fail(s, "header differs from the first input's");
	for (i = 0; i < s->nf; i++)
		if (strcmp(tl_stream_get(s, i), s->cols[i]) != 0)
			fail(s, "header differs from the first input's");
}

void
tl_stream_open(struct tl_stream *s, char *const *files, int nfiles)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->files = files;
	s->nfiles = nfiles;
	if (open_file(s, 0) < 0)
		tl_die("%s: empty input: no header line", s->path);
	check_header(s);
}

static void
close_file(struct tl_stream *s)
{
	if (s->fd > STDIN_FILENO)
		close(s->fd);
	s->fd = -1;
}

void
tl_stream_close(struct tl_stream *s)
{
	int i;

	close_file(s);
	if (s->csvp != NULL) {
		csv_free(s->csvp);
		free(s->csvp);
	}
	for (i = 0; i < s->ncols; i++)
		free(s->cols[i]);
	free(s->cols);
	free(s->buf);
	free(s->hdr);
	free(s->f);
	free(s->flen);
	free(s->esc);
	free(s->dec);
	free(s->cbuf);
	free(s->coff);
	memset(s, 0, sizeof(*s));
}

int
tl_stream_next(struct tl_stream *s)
{
	char msg[96];

	for (;;) {
		if (record(s)) {
			if (!s->csv && s->nf == 1 && s->flen[0] == 0)
				continue;	/* a blank line */
			if (s->nf != s->ncols) {
				snprintf(msg, sizeof(msg),
				    "%d fields, the header has %d", s->nf,
				    s->ncols);
				fail(s, msg);
			}
			return 1;
		}
		close_file(s);
		if (s->cur + 1 >= s->nfiles)
			return 0;
		if (open_file(s, s->cur + 1) < 0)
			continue;	/* an empty file adds nothing */
		check_header(s);
	}
}

int
tl_stream_col(const struct tl_stream *s, const char *name)
{
	int i;

	for (i = 0; i < s->ncols; i++)
		if (strcmp(s->cols[i], name) == 0)
			return i;
	return -1;
}

int
tl_stream_need(const struct tl_stream *s, const char *name)
{
	int i = tl_stream_col(s, name);

	if (i < 0)
		tl_die("%s:1: no column '%s' in the input", s->files != NULL &&
		    s->nfiles > 0 ? s->files[0] : "<stdin>", name);
	return i;
}

const char *
tl_stream_get(struct tl_stream *s, int i)
{
	if (i < 0 || i >= s->nf)
		return "";
	if (!s->esc[i])
		return s->f[i];
	tl_grow(&s->dec, &s->deccap, s->flen[i] + 1, 1);
	tl_tsv_decode(s->dec, s->f[i], s->flen[i]);
	return s->dec;
}

void
tl_stream_not_a(struct tl_stream *s, int i, const char *what)
{
	const char *t = tl_stream_get(s, i);

	if (tl_num_out_of_range(t, strlen(t)))
		tl_die("%s: %s '%s' is out of range", tl_stream_where(s),
		    s->cols[i], t);
	tl_die("%s: %s '%s' is not %s", tl_stream_where(s), s->cols[i], t,
	    what);
}

int
tl_stream_try_i64(struct tl_stream *s, int i, int64_t *v)
{
	const char *t = tl_stream_get(s, i);

	if (t[0] == '\0')
		return 0;
	return tl_parse_i64(t, strlen(t), v) < 0 ? -1 : 1;
}

int
tl_stream_try_us(struct tl_stream *s, int i, int64_t *ns)
{
	const char *t = tl_stream_get(s, i);

	if (t[0] == '\0')
		return 0;
	return tl_parse_us_ns(t, strlen(t), ns) < 0 ? -1 : 1;
}

/* 10^k, exact in a double, for k <= 22. */
static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

typedef unsigned __int128 u128;

/* Bits of x > 0: its highest set bit's position plus one. */
static int
bits128(u128 x)
{
	uint64_t hi = (uint64_t)(x >> 64);

	return hi != 0 ? 128 - __builtin_clzll(hi) :
	    64 - __builtin_clzll((uint64_t)x);
}

/*
 * w / 10^k correctly rounded (to nearest, ties to even), for 0 < w <
 * 2^64 and 1 <= k <= 22, in integers: q = floor(w * 2^s / 10^k) has at
 * least 54 bits (w * 2^s fits 128 bits since 10^22 < 2^74); its top 53
 * are the double's, rounded by the bits below them and the remainder.
 */
static double
wide(uint64_t w, int k)
{
	u128 d = (u128)pow10_exact[k];	/* exact: 5^22 < 2^53 */
	int s = 54 + bits128(d) - (64 - __builtin_clzll(w)), drop;
	u128 x, q, r;
	uint64_t m, low, half, bits;
	double v;
	int e;

	if (s < 0)		/* w alone has the bits */
		s = 0;
	x = (u128)w << s;
	q = x / d;
	r = x - q * d;

	drop = bits128(q) - 53;		/* 1 or 2 */
	m = (uint64_t)(q >> drop);
	low = (uint64_t)q & ((1ull << drop) - 1);
	half = 1ull << (drop - 1);
	if (low > half || (low == half && (r != 0 || (m & 1))))
		m++;		/* 2^53 at most: still exact */
	/* m * 2^(drop - s), a normal double: its bits, not ldexp. */
	e = drop - s + 52 + 1023;
	if (m == 1ull << 53) {
		m >>= 1;
		e++;
	}
	bits = (uint64_t)e << 52 | (m & ((1ull << 52) - 1));
	memcpy(&v, &bits, sizeof(v));
	return v;
}

int
tl_stream_parse_double(const char *t, size_t n, double *v)
{
	const char *p = t, *e = t + n, *ip, *ie, *fp, *q;
	uint64_t w = 0;
	int frac = -1, nd;
	char *end;

	*v = NAN;
	if (n == 0)
		return 0;
	/*
	 * Plain decimals ("-12.5", the stream's form) of at most 19
	 * significant digits, with at most 22 after the point: digits that
	 * fit in 53 bits and the power of ten are exact doubles, so one
	 * division rounds correctly, as strtod does (Clinger, "How to read
	 * floating point numbers accurately", PLDI 1990); more digits (the
	 * shortest text of most doubles has 16 or 17) are divided exactly
	 * in 128-bit integers.  Anything else goes to strtod.
	 */
	if (*p == '-')
		p++;
	ip = p;
	p = tl_dec_digits(t, p, e, &w);
	ie = p;
	if (p < e && *p == '.' && p + 1 < e) {	/* digits after it, or none */
		fp = ++p;
		p = tl_dec_digits(t, p, e, &w);
		frac = (int)(p - fp);
	} else
		fp = p;
	if (ie > ip && p == e && frac <= 22) {
		/*
		 * w holds all the digits; exactly, when there are at most
		 * 19 from the first that is not 0 (leading zeros add
		 * nothing, and w only grows as digits join it).
		 */
		nd = (int)(ie - ip) + (frac > 0 ? frac : 0);
		if (nd > 19) {
			for (q = ip; q < ie && *q == '0'; q++)
				;
			if (q == ie)
				for (q = fp; q < p && *q == '0'; q++)
					;
			nd = q < ie ? (int)(ie - q) + (frac > 0 ? frac : 0) :
			    (int)(p - q);
		}
		if (nd <= 19) {
			if (frac < 0)	/* an integer: converted rounded */
				*v = (double)w;
			else if (w < (1ull << 53))
				*v = (double)w / pow10_exact[frac];
			else
				*v = wide(w, frac);
			if (*t == '-')
				*v = -*v;
			return 1;
		}
	}
	errno = 0;
	*v = strtod(t, &end);
	/* An overflow is not infinity. */
	return end != e || (errno == ERANGE && *v != 0) ? -1 : 1;
}

int
tl_stream_try_double(struct tl_stream *s, int i, double *v)
{
	const char *t = tl_stream_get(s, i);

	return tl_stream_parse_double(t, strlen(t), v);
}

/* r of a tl_stream_try_* on field i, dying when it is -1. */
static int
or_die(struct tl_stream *s, int i, int r, const char *what)
{
	if (r < 0)
		tl_stream_not_a(s, i, what);
	return r;
}

int
tl_stream_i64(struct tl_stream *s, int i, int64_t *v)
{
	return or_die(s, i, tl_stream_try_i64(s, i, v), "an integer");
}

int
tl_stream_us(struct tl_stream *s, int i, int64_t *ns)
{
	return or_die(s, i, tl_stream_try_us(s, i, ns), "a number");
}

double
tl_stream_double(struct tl_stream *s, int i)
{
	double v;

	or_die(s, i, tl_stream_try_double(s, i, &v), "a number");
	return v;
}

void
tl_stream_copy(struct tl_stream *s, int i, struct tl_writer *w)
{
	if (i < 0 || i >= s->nf)
		tl_w_empty(w);
	else if (!s->csv && !w->csv)
		tl_w_raw(w, s->f[i], s->flen[i]);
	else if (!s->esc[i])
		tl_w_mem(w, s->f[i], s->flen[i]);
	else
		tl_w_str(w, tl_stream_get(s, i));
}

void
tl_stream_copy_all(struct tl_stream *s, struct tl_writer *w)
{
	int i;

	if (s->csv || w->csv || s->nf == 0) {
		for (i = 0; i < s->nf; i++)
			tl_stream_copy(s, i, w);
		return;
	}
	/* The fields lie in one line, NULs where the tabs were. */
	for (i = 0; i + 1 < s->nf; i++)
		s->f[i][s->flen[i]] = '\t';
	tl_w_raw(w, s->f[0], (size_t)(s->f[s->nf - 1] + s->flen[s->nf - 1] -
	    s->f[0]));
	w->col += s->nf - 1;
	for (i = 0; i + 1 < s->nf; i++)
		s->f[i][s->flen[i]] = '\0';
}
