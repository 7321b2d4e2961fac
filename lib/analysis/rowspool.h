/* See LICENSE file for copyright and license details. */
#ifndef TL_ROWSPOOL_H
#define TL_ROWSPOOL_H

/*
 * A spool of text rows in a temporary file, written once and read back
 * once in order (tl-efficiency holds its rows there until the trace's
 * baseline is known), each row with a fixed-size note of the caller's.
 *
 * The file holds less than the rows: a block of columns that recur (a
 * trace's figures, which the first rows show equal from row to row; the
 * columns the caller names: call stacks, shapes) or a kernel's name in
 * the kernels column, seen recently, is kept as the number of its slot in
 * a cache of recent texts, which the reader rebuilds as it reads.  The
 * cache has a fixed number of slots of a bounded length: memory does not
 * grow with the stream.  Rows come back byte for byte as given.
 */
#include <stddef.h>

struct tl_rowspool;

/*
 * A spool in TMPDIR (else /tmp) with notes of note_size bytes; NULL with
 * errno set when the file cannot be made.  *dir: its directory.
 */
struct tl_rowspool *tl_rowspool_new(size_t note_size, const char **dir);
/* Share the texts of column col through the slots (before any row). */
void tl_rowspool_share(struct tl_rowspool *sp, int col);
/* The column whose kernels' names go through the slots, or -1. */
void tl_rowspool_kernels(struct tl_rowspool *sp, int col);
/*
 * Start a row with nf fields (columns 0 to nf - 1), field k at
 * f[k][0..n[k]), each and the next one line of text apart by a tab or a
 * NUL in place (f[k][n[k]]: the stream's split lines); a NUL is spooled
 * as a tab.
 */
void tl_rowspool_row(struct tl_rowspool *sp, char *const *f,
    const size_t *n, int nf);
/* Then text s[0..n) as it is (the row's other columns, tabs included). */
void tl_rowspool_tail(struct tl_rowspool *sp, const char *s, size_t n);
/*
 * Text s[0..n), which the caller keeps unchanged until the spool is
 * freed, spooled by its number from now on: its id for tl_rowspool_ref.
 */
unsigned tl_rowspool_text(struct tl_rowspool *sp, const char *s, size_t n);
/* Then text id as it is. */
void tl_rowspool_ref(struct tl_rowspool *sp, unsigned id);
/* End the row with its note; -1 (errno) on a write error. */
int tl_rowspool_end(struct tl_rowspool *sp, const void *note);
/* Done adding: read from the first row on; -1 (errno) on an error. */
int tl_rowspool_rewind(struct tl_rowspool *sp);
/*
 * The next row's text appended to the growing buffer *buf[*len..*cap)
 * (without a newline), and its note: 1, 0 at the end, -1 (errno) on a
 * read error.
 */
int tl_rowspool_next(struct tl_rowspool *sp, char **buf, size_t *len,
    size_t *cap, void *note);
void tl_rowspool_free(struct tl_rowspool *sp);

#endif
