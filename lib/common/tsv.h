/* See LICENSE file for copyright and license details. */
#ifndef TL_TSV_H
#define TL_TSV_H

/*
 * Writing the stream: TSV escaped like PostgreSQL COPY text (\t \n \r \\),
 * or RFC 4180 CSV.  Fields are written one at a time; the writer puts the
 * separators.  Numbers are locale-independent.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct tl_writer {
	FILE *fp;		/* NULL: into buf */
	int csv;
	int col;
	char *buf;		/* what was written, without fp */
	size_t len, cap;	/* of buf, or with fp of out */
	/*
	 * With fp: what is written, out at the end of each call, or with
	 * rows set (tl_w_rows) at the end of each row (tl_w_eol) or when
	 * full: one fwrite a row, not one a field.
	 */
	int rows;
	char out[4096];
};

void tl_w_init(struct tl_writer *w, FILE *fp, int csv);
/*
 * With fp, hold each row until its end (tl_w_eol): nothing else may write
 * to fp in the middle of a row, and a row not ended is not written.
 */
void tl_w_rows(struct tl_writer *w);
/*
 * A writer into memory (buf[0..len), malloc'd, yours to free): rows
 * formatted on one thread and written out on another.
 */
void tl_w_init_mem(struct tl_writer *w, int csv);
/*
 * Bytes s[0..n) (rows formatted in memory) out to fp's file past its
 * buffer, flushed first: one write(2), no copy into stdio's buffer.  A
 * write that fails is done again through fp, whose error indicator then
 * tells (ferror).
 */
void tl_w_out(FILE *fp, const char *s, size_t n);
void tl_w_str(struct tl_writer *w, const char *s);
void tl_w_mem(struct tl_writer *w, const char *s, size_t n);
/*
 * 1 if field s[0..n) goes out as it is, nothing to escape (TSV) or
 * quote (CSV): tl_w_raw may write it.
 */
int tl_w_plain(const struct tl_writer *w, const char *s, size_t n);
/* Shortest text that reads back as the same double; NaN/inf as empty. */
void tl_w_double(struct tl_writer *w, double d);
void tl_w_eol(struct tl_writer *w);
/* A header: names separated by commas in one string. */
void tl_w_header(struct tl_writer *w, const char *names);

/* Shortest round-trip text of d into buf (at least 32 bytes). */
void tl_fmt_double(char *buf, size_t n, double d);
/*
 * Decode the TSV escapes (\t \n \r \\) of src[0..n) into dst (n + 1
 * bytes at least; an unknown escape is kept as it is); the decoded length.
 */
size_t tl_tsv_decode(char *dst, const char *src, size_t n);
/* Decimal text of v into buf (at least 21 bytes); its length. */
size_t tl_fmt_i64(char *buf, int64_t v);
/* Microseconds text of ns into buf (at least 32 bytes); its length. */
size_t tl_fmt_us(char *buf, size_t n, int64_t ns);

/*
 * The writer's calls for every field, inline: a row has dozens of fields
 * and most are a few bytes, so a call and its checks a field would cost
 * more than the field.  Their slow paths, not to be called otherwise:
 * room for n more bytes at the end (flushing to fp, growing buf), and
 * the end of a call that writes (out to fp unless rows are held).
 */
char *tl_w_room_(struct tl_writer *w, size_t n);
void tl_w_flush_(struct tl_writer *w);

static inline char *
tl_w_room(struct tl_writer *w, size_t n)
{
	if (w->fp == NULL && w->cap - w->len >= n)
		return w->buf + w->len;
	return tl_w_room_(w, n);
}

static inline void
tl_w_sep(struct tl_writer *w)
{
	if (w->col++ > 0) {
		*tl_w_room(w, 1) = w->csv ? ',' : '\t';
		w->len++;
	}
}

static inline void
tl_w_done(struct tl_writer *w)
{
	if (w->fp != NULL && !w->rows)
		tl_w_flush_(w);
}

/* s[0..n) to p: up to 16 bytes as two moves, overlapping, not a call. */
static inline void
tl_w_copy_(char *p, const char *s, size_t n)
{
	if (n > 16)
		memcpy(p, s, n);
	else if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(p, &a, 4);
		memcpy(p + n - 4, &b, 4);
	} else if (n > 0) {
		p[0] = s[0];
		p[n / 2] = s[n / 2];
		p[n - 1] = s[n - 1];
	}
}

/* Bytes s[0..n) out, to the file or into memory. */
static inline void
tl_w_put_(struct tl_writer *w, const char *s, size_t n)
{
	if (w->fp != NULL && n > sizeof(w->out) / 2) {
		tl_w_flush_(w);
		fwrite(s, 1, n, w->fp);
		return;
	}
	tl_w_copy_(tl_w_room(w, n), s, n);
	w->len += n;
}

/* A field already in the writer's format (TSV-escaped), verbatim. */
static inline void
tl_w_raw(struct tl_writer *w, const char *s, size_t n)
{
	tl_w_sep(w);
	tl_w_put_(w, s, n);
	tl_w_done(w);
}

static inline void
tl_w_empty(struct tl_writer *w)
{
	tl_w_sep(w);
	tl_w_done(w);
}

static inline void
tl_w_int(struct tl_writer *w, int64_t v)
{
	tl_w_sep(w);
	w->len += tl_fmt_i64(tl_w_room(w, 24), v);
	tl_w_done(w);
}

/* Nanoseconds as microseconds, exact: "12.345", "7". */
static inline void
tl_w_us(struct tl_writer *w, int64_t ns)
{
	tl_w_sep(w);
	w->len += tl_fmt_us(tl_w_room(w, 32), 32, ns);
	tl_w_done(w);
}
#endif
