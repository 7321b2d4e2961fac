/* See LICENSE file for copyright and license details. */
#ifndef TL_TABFILE_H
#define TL_TABFILE_H

/*
 * The one reader of the data tables in share/tl (the category table, the
 * op table, the GPU table, perf-model files) and of the users' tables
 * that replace or extend them (tl-categorize --rules, --ops, --hw-file,
 * --models).  A table is tab-separated text, read from a file or from the
 * copy compiled into the programs (tests/tools/embed.awk):
 *
 *  - lines that start with '#' and empty lines are skipped; a line may end
 *    in CR LF; a UTF-8 byte order mark before the first line is skipped;
 *  - the first other line is the header.  Columns are found by name, in
 *    any order: each required column must be there, an optional one may
 *    be missing, a column the table does not know is ignored (a note),
 *    and a name twice is an error; a header with more columns the table
 *    does not know than ones it knows is an error (an op stream or other
 *    output given in place of a table);
 *  - every other line is a row with as many fields as the header, except
 *    that it may leave out trailing fields of optional columns; a table
 *    has at least one row (an empty table in place of the built-in one
 *    would silently change every result);
 *  - a file with a NUL byte is not text.
 *
 * Errors are written into t->err as "FILE:LINE: what" (the table's name
 * instead of FILE for the built-in text); the caller prints them.
 */
#define TL_TABFILE_MAXCOL	64	/* fields of a line */

enum {
	TL_TABFILE_UNESCAPE = 1	/* fields use the stream's \t \n \r \\ escapes */
};

struct tl_tabfile {
	const char *where;		/* file name, or the built-in's name */
	const char *const *col;		/* the columns the caller reads */
	int ncol, nrequired;		/* the first nrequired are required */
	int flags;
	char *text;			/* the whole text, cut in place */
	char *next;			/* the next line */
	long line;			/* line number of the row just read */
	int nhdr;			/* fields of the header, 0 before it */
	char *hdr[TL_TABFILE_MAXCOL];	/* the header's names */
	long nrows;			/* rows read */
	int at[TL_TABFILE_MAXCOL];	/* field index of col[k], -1 missing */
	char *f[TL_TABFILE_MAXCOL];	/* the fields of the row */
	int nf;
	char err[512];
};

/*
 * Open FILE (path not NULL) or the built-in text (path NULL), named by
 * builtin in messages; col names the ncol columns to read, the first
 * nrequired of which are required.  0, or -1 with t->err set.
 */
int tl_tabfile_open(struct tl_tabfile *t, const char *path, const char *text,
    const char *builtin, const char *const *col, int ncol, int nrequired,
    int flags);
/* Read the next row: 1, 0 at the end, or -1 with t->err set. */
int tl_tabfile_next(struct tl_tabfile *t);
/* Field of column k (its index in col) in the row; "" when absent. */
const char *tl_tabfile_get(const struct tl_tabfile *t, int k);
/*
 * Write "FILE:LINE: what" (line 0: "FILE: what") into t->err; returns -1,
 * for "return tl_tabfile_error(...)".
 */
int tl_tabfile_error(struct tl_tabfile *t, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * The text the fields point into, now the caller's to free, for tables
 * that keep the fields; tl_tabfile_close then frees nothing.
 */
char *tl_tabfile_keep(struct tl_tabfile *t);
void tl_tabfile_close(struct tl_tabfile *t);
/*
 * End a table whose fields the caller keeps, rc being what reading it
 * gave: *text takes the text (as tl_tabfile_keep), the table is closed,
 * and when rc < 0 its error is printed ("prog: FILE:LINE: what").
 * Returns -1 when rc < 0, else 0.
 */
int tl_tabfile_end(struct tl_tabfile *t, int rc, char **text);

#endif
