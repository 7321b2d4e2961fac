/* See LICENSE file for copyright and license details. */
#ifndef TL_OUTFILE_H
#define TL_OUTFILE_H

/*
 * Output files that appear complete or not at all, for every program that
 * writes files (tl-findings -o and --charts, tl-replay -o and -z).
 *
 * One file (tl_outfile): written under a temporary name beside it,
 * ".NAME.tl-PID-N", created exclusively (never through a link planted
 * there), and renamed over NAME once complete, so that an existing file
 * survives a failed write and a link at NAME is replaced, not followed.
 * Such a file that a killed run left (its PID gone; a regular file of
 * ours with one link) is removed by the next run for NAME.
 * A destination that is not a file (a pipe, a terminal, /dev/null) is
 * written directly.
 *
 * A set of files in a directory (tl_outset), DIR: created when absent and
 * locked against a second writer (flock).  The files are written into the
 * hidden staging directory DIR/.SET.tmp; the commit then, with SIGHUP,
 * SIGINT and SIGTERM held back, renames each into place, exchanging it
 * with the file it replaces (renameat2 RENAME_EXCHANGE) so that a failed
 * rename puts every earlier one back; removes the files the set's
 * previous run wrote and this one did not (they are listed in the
 * manifest DIR/.SET.manifest, each with a record: a digest of its
 * contents and its size; a file is removed only while it matches its
 * record, so a planted manifest removes nothing of the user's);
 * and writes the new manifest (created exclusively).  Until the
 * commit DIR holds the previous set untouched; after it, the new one.
 * Nothing else in DIR is read, written or removed.  A symbolic link where
 * a file of the set goes is replaced; one where a directory of the set
 * goes is an error.  A staging directory left by a killed run is removed
 * by the next one.  (Only SIGKILL or a crash during the commit's renames,
 * a few microseconds, can leave a mix; the manifest then names both sets'
 * files, so the next run removes what is stale.)
 *
 * On an error, a signal (SIGHUP, SIGINT, SIGTERM, SIGXFSZ) or tl_die,
 * the temporary files, the staging directory and a DIR the set created
 * are removed.  Errors end the program: "prog: PATH: what", with the
 * first write error's cause ("No space left on device").
 *
 * In test builds only (-DTL_TEST_HOOKS: tests/fault/), TL_TEST_FAULT=
 * N[:SIG] raises signal SIG (default 9, SIGKILL) at the Nth point: each
 * file of a set closed, each rename of a commit, each single file
 * written (before its rename).
 */
#include <stdio.h>

struct tl_outfile {
	FILE *fp;
	char *path, *tmp;	/* tmp is NULL when writing directly */
	void *undo;
};

/* Start writing path with permissions mode (less the umask). */
FILE *tl_outfile_open(struct tl_outfile *f, const char *path, int mode);
/* Check, close and rename the file into place. */
void tl_outfile_commit(struct tl_outfile *f);

struct tl_outset;

/*
 * Start a set of files in dir; name (the program, "tl-findings") names
 * its staging directory and manifest.
 */
struct tl_outset *tl_outset_begin(const char *dir, const char *name);
/*
 * Start the file rel ("category_data/gemm_ops.csv": relative, '/'
 * between directories) with permissions mode (less the umask).
 */
FILE *tl_outset_open(struct tl_outset *s, const char *rel, int mode);
/* Check and close a file of tl_outset_open. */
void tl_outset_close(struct tl_outset *s, FILE *fp);
/* Put the set in place and free s. */
void tl_outset_commit(struct tl_outset *s);

#endif
