/* See LICENSE file for copyright and license details. */
#ifndef TL_KNOWN_H
#define TL_KNOWN_H

/*
 * Known-cause tables: what tl knows about a cause (an idle culprit, a
 * kernel pattern) and what to do about it, as data.  A table is read
 * with lib/common/tabfile: its first column is the row's key (unique),
 * the others are the caller's (the columns it names, the first nrequired
 * of them required).  The built-in table (share/tl/NAME.tsv compiled in)
 * always loads; a user's file given with it adds rows and replaces the
 * built-in row of the same key in place, so that built-in rows stay and
 * the user's win.  Rows are in order: the user's new rows first (in
 * their file's order), then the built-in rows (in the table's order,
 * those the user replaced among them), so "the first row that matches"
 * prefers the user's.
 *
 * A match field is a list of fnmatch(3) globs separated by '|'; an empty
 * field matches anything (tl_known_match).
 */
#include <stddef.h>

#define TL_KNOWN_MAXCOL 16

struct tl_known {
	int ncol;		/* columns, the key first */
	struct tl_known_row {
		const char *f[TL_KNOWN_MAXCOL];	/* by column; "" absent */
		int user;	/* from the user's file */
	} *row;
	size_t n, cap;
	char *text[2];		/* the tables' texts, which f points into */
};

/*
 * Load the built-in text (named builtin in messages) and the user's FILE
 * (path; NULL none).  col[0] is the key column; col[1..ncol) the others,
 * col[0..nrequired) required.  0, or -1 after printing
 * "prog: FILE:LINE: what" (a key twice in one table is an error).
 */
int tl_known_load(struct tl_known *k, const char *text, const char *builtin,
    const char *path, const char *const *col, int ncol, int nrequired);
void tl_known_free(struct tl_known *k);
/* Row i's field of column c ("" when absent). */
const char *tl_known_get(const struct tl_known *k, size_t i, int c);
/* 1 if s matches the '|'-separated globs of pat (empty: anything). */
int tl_known_match(const char *pat, const char *s);

#endif
