/* See LICENSE file for copyright and license details. */
/*
 * What the libFuzzer harnesses share: the input files of code that opens
 * a path, a hash of the input that picks the options, catching the clean
 * exit of tl_die, and the field count check of a TSV or CSV text.
 * Static functions (marked unused: a harness need not call each):
 * included by one harness each, after it defines HARNESS (its name, for
 * file names and messages).
 *
 * Input files: FZ_NFILES per process in $TMPDIR (or /tmp), rewritten for
 * each input, removed at exit.
 *
 * tl_die: the stream readers end the program on bad input (exit 1), as
 * the programs must.  With fz_catch() set up, tl_exit_hook jumps back to
 * the harness instead; a status other than 1, or an exit outside the
 * armed part (fz_armed), is a crash.  Use it as
 *	fz_armed = 1;
 *	if (setjmp(fz_env) == 0) { ...code that may die...; fz_armed = 0; }
 * and keep what the code under test allocates reachable from static
 * variables, so that it can be freed after the jump.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "model/hwspec.h"
#include "model/family.h"
#include "model/model_file.h"
#include "stream/optable.h"

#ifndef HARNESS
#error "define HARNESS before including harness.h"
#endif

#define CHECK(c) do { if (!(c)) { fprintf(stderr, \
    HARNESS ": check failed: %s (line %d)\n", #c, __LINE__); \
    abort(); } } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_NFILES 2
#define FZ_FN static __attribute__((unused))

static char fz_path[FZ_NFILES][4096];
static int fz_fd[FZ_NFILES] = { -1, -1 };

FZ_FN void
fz_cleanup(void)
{
	int i;

	for (i = 0; i < FZ_NFILES; i++)
		if (fz_fd[i] >= 0)
			unlink(fz_path[i]);
}

/* Load the built-in op, model and GPU tables, as the programs do. */
FZ_FN void
fz_load_tables(void)
{
	char err[256];

	if (tl_optable_load(NULL, tl_perf_family_known) < 0 || tl_filemodels_setup() < 0)
		tl_die("cannot load the built-in tables");
	if (tl_hw_load(NULL, err, sizeof(err)) < 0)
		tl_die("%s", err);
}

/* Create the input files, named after the harness. */
FZ_FN void
fz_open_inputs(void)
{
	const char *tmp = getenv("TMPDIR");
	int i;

	for (i = 0; i < FZ_NFILES; i++) {
		snprintf(fz_path[i], sizeof(fz_path[i]), "%s/%s.XXXXXX",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", HARNESS);
		if ((fz_fd[i] = mkstemp(fz_path[i])) < 0)
			tl_die("mkstemp %s:", fz_path[i]);
	}
	atexit(fz_cleanup);
}

/* What every harness does first: its name for messages, its input files. */
FZ_FN void
fz_start(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tl_setprogname(HARNESS);
	fz_open_inputs();
}

/* Make input file i hold exactly data[0..size). */
FZ_FN void
fz_put_input(int i, const uint8_t *data, size_t size)
{
	size_t off = 0;
	ssize_t k;

	if (ftruncate(fz_fd[i], 0) < 0)
		tl_die("%s: ftruncate:", fz_path[i]);
	while (off < size) {
		if ((k = pwrite(fz_fd[i], data + off, size - off,
		    (off_t)off)) < 0)
			tl_die("%s: write:", fz_path[i]);
		off += (size_t)k;
	}
}

/*
 * Input files 0 and 1: data split at its first NUL byte (before it, after
 * it), or all of data in both when it has none.
 */
FZ_FN void
fz_put_pair(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);

	if (nul == NULL) {
		fz_put_input(0, data, size);
		fz_put_input(1, data, size);
	} else {
		fz_put_input(0, data, (size_t)(nul - data));
		fz_put_input(1, nul + 1, size - (size_t)(nul - data) - 1);
	}
}

/* FNV-1a of the input: picks the options, so an input always runs alike. */
FZ_FN uint32_t
fz_hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h;
}

static jmp_buf fz_env;
static int fz_armed;

FZ_FN void
fz_exit_hook(int status)
{
	if (!fz_armed || status != TL_EXIT_ERROR) {
		fprintf(stderr, HARNESS ": exit %d%s\n", status,
		    fz_armed ? "" : " outside the code under test");
		abort();
	}
	fz_armed = 0;
	longjmp(fz_env, 1);
}

/* Catch tl_die from now on. */
FZ_FN void
fz_catch(void)
{
	tl_exit_hook = fz_exit_hook;
}

/*
 * Count the fields of each line of a TSV (no quoting: a raw tab or
 * newline inside a field is the error) or CSV (RFC 4180) text: every
 * record must have as many as the header before it, and end with a
 * newline.  The first line is a header; with multi, so is every line
 * that starts with the field "trace" (several tables one after another).
 * Returns the number of records that are not headers.
 */
FZ_FN long
fz_check_fields(const char *s, size_t n, int csv, int multi)
{
	size_t i, start = 0;
	long fields = 1, want = -1, records = 0;
	int quoted = 0;

	for (i = 0; i < n; i++) {
		if (csv && s[i] == '"') {
			quoted = !quoted;
			continue;
		}
		if (quoted)
			continue;
		if (s[i] == (csv ? ',' : '\t'))
			fields++;
		else if (s[i] == '\n') {
			if (want < 0 || (multi && i - start >= 6 &&
			    memcmp(s + start, "trace", 5) == 0 &&
			    (s[start + 5] == ',' || s[start + 5] == '\t')))
				want = fields;	/* a header */
			else {
				CHECK(fields == want);
				records++;
			}
			fields = 1;
			start = i + 1;
		}
	}
	CHECK(!quoted);
	CHECK(start == n);	/* every record ends with a newline */
	return records;
}
