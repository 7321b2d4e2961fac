/* See LICENSE file for copyright and license details. */
#ifndef TL_STREAM_H
#define TL_STREAM_H

/*
 * Reading the stream (man/tl-format.5): one header line, then one record
 * per line, from one or more files ("-" = stdin).  TSV (escaped like
 * PostgreSQL COPY text) is read with read(2) into one buffer and split
 * there in one pass (tabs, escapes, NUL bytes); a file whose
 * header has no tab but a comma is CSV and goes through libcsv.  Every
 * file must have the first file's header.  Errors end the program with
 * "prog: FILE:LINE: what" (exit 1): ragged rows, a missing header, a
 * read error.
 *
 * Fields are kept as read.  tl_stream_get gives the decoded text;
 * tl_stream_copy writes a field to a writer, verbatim when both sides are
 * TSV, so a filter passes columns through without decoding them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tl_writer;

/*
 * The input buffer: it grows for a longer line.  Reads of this size keep
 * what was read in the CPU's cache while it is split.
 */
#define TL_STREAM_BUF (1 << 18)

struct tl_stream {
	char *const *files;
	int nfiles, cur;
	int fd;			/* -1: none open */
	const char *path;
	long lineno;
	int csv;		/* current file is CSV */
	void *csvp;		/* struct csv_parser */
	/* header of the first file */
	char **cols;
	int ncols;
	/* the input buffer: buf[pos..end) not yet read as lines */
	char *buf;
	size_t bufcap, pos, end, scan;	/* scan: no newline in [pos..scan) */
	int eof;
	char *hdr;		/* a copy of a file's first line */
	size_t hdrcap;
	/* current record */
	char **f;		/* field starts (NUL-terminated) */
	size_t *flen;
	unsigned char *esc;	/* field holds a backslash escape (TSV) */
	int nf, fcap;
	char *dec;		/* decoding buffer */
	size_t deccap;
	/* CSV record under construction */
	char *cbuf;
	size_t cbuflen, cbufcap;
	size_t *coff;
	int cnf, crec;
};

/*
 * Open the files (none = stdin) and read the first header.  Dies on
 * error; an input with no header at all is an error.
 */
void tl_stream_open(struct tl_stream *s, char *const *files, int nfiles);
void tl_stream_close(struct tl_stream *s);
/* Index of a column of the header, or -1. */
int tl_stream_col(const struct tl_stream *s, const char *name);
/* Index of a column the program needs; dies with a message if absent. */
int tl_stream_need(const struct tl_stream *s, const char *name);
/* Read the next record: 1, or 0 at the end of the last file. */
int tl_stream_next(struct tl_stream *s);
/*
 * Decoded text of field i of the current record ("" for i < 0).  Valid
 * until the next call of tl_stream_get with another field that needs
 * decoding, or the next record; copy it if it must live longer.
 */
const char *tl_stream_get(struct tl_stream *s, int i);
/*
 * Field i of the current record as a number, for the programs that read
 * numeric columns.  tl_stream_i64: 1 with *v set, 0 when the field is
 * empty (or i < 0).  tl_stream_us: a number of microseconds as integer
 * nanoseconds (exact up to three decimals), 1 or 0 likewise.
 * tl_stream_double: NaN when empty.  Each dies with "FILE:LINE: COLUMN
 * 'TEXT' is not ..." on any other text.  The tl_stream_try_* forms return
 * -1 instead (tl_stream_double's: NaN in *v when empty), and
 * tl_stream_not_a dies with that message, what being "an integer" or "a
 * number".
 */
int tl_stream_i64(struct tl_stream *s, int i, int64_t *v);
int tl_stream_us(struct tl_stream *s, int i, int64_t *ns);
double tl_stream_double(struct tl_stream *s, int i);
int tl_stream_try_i64(struct tl_stream *s, int i, int64_t *v);
int tl_stream_try_us(struct tl_stream *s, int i, int64_t *ns);
int tl_stream_try_double(struct tl_stream *s, int i, double *v);
/*
 * The number of text t[0..n) (NUL-terminated: t[n] is '\0'), as
 * tl_stream_try_double reads a field: 1 with *v, 0 empty (NaN), -1 not a
 * number (or out of range).
 */
int tl_stream_parse_double(const char *t, size_t n, double *v);
void tl_stream_not_a(struct tl_stream *s, int i, const char *what)
    __attribute__((noreturn));
/* Write field i of the current record (empty for i < 0). */
void tl_stream_copy(struct tl_stream *s, int i, struct tl_writer *w);
/*
 * Write all fields of the current record, as tl_stream_copy of each would;
 * in one block when both sides are TSV.
 */
void tl_stream_copy_all(struct tl_stream *s, struct tl_writer *w);
/* "FILE:LINE" of the current record, for messages. */
const char *tl_stream_where(const struct tl_stream *s);

#endif
