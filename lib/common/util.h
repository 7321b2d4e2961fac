/* See LICENSE file for copyright and license details. */
#ifndef TL_UTIL_H
#define TL_UTIL_H

/*
 * Errors, allocation and output shut-down shared by every tl program.
 * A format ending in ':' appends strerror(errno), as in sbase.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum {
	TL_EXIT_OK = 0,
	TL_EXIT_ERROR = 1,	/* runtime, data or I/O error */
	TL_EXIT_USAGE = 2,	/* bad command line */
	TL_EXIT_FINDING = 3	/* tl-findings --fail-on matched */
};

void tl_setprogname(const char *argv0);
const char *tl_progname(void);

/* Print "prog: msg" to stderr and exit 1 (tl_die) or continue (tl_warn). */
/*
 * Errors and warnings, "prog: message", on stderr; the message written
 * through tl_put_clean.
 */
void tl_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void tl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Write s[0..n) for a terminal: control characters (C0, DEL, and C1 in
 * UTF-8) escaped as \n, \t, \r, \xNN or \u00NN, so that text from a
 * trace (a GPU, trace, op or file name) in a message cannot move the
 * cursor, change colours or forge a line.  The one escaper for stderr.
 */
void tl_put_clean(FILE *fp, const char *s, size_t n);
/* Print "prog: msg" and exit with status. */
void tl_diex(int status, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
/*
 * When set, tl_die and tl_diex call it with the exit status instead of
 * exiting, after printing the message; it must not return (if it does,
 * the program exits).  The fuzz harnesses (tests/fuzz/) set it to longjmp
 * back, so that bad input's clean exit is not counted as a crash; the
 * programs leave it NULL.
 */
extern void (*tl_exit_hook)(int status);

/*
 * With status 0, print the usage and help texts on fp; otherwise (a
 * usage error, whose message is out already) only the pointer "Try 'PROG
 * --help' for more information." on stderr, as GNU tools do.  Exit with
 * status.  tl_diex with TL_EXIT_USAGE prints the pointer too.
 */
void tl_usage(FILE *fp, int status, const char *usage, const char *help)
    __attribute__((noreturn));
/* Print "prog (tl) VERSION" on stdout and exit 0. */
void tl_version(void) __attribute__((noreturn));

void *tl_malloc(size_t n);
void *tl_calloc(size_t n, size_t size);
void *tl_realloc(void *p, size_t n);
/* tl_grow's growing, when *cap < need. */
void tl_grow_more(void *pp, size_t *cap, size_t need, size_t size);
/*
 * Grow *p so that it holds at least need elements of size bytes; inline,
 * as most calls find room (a stack pushed an element at a time).
 */
static inline void
tl_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	if (need > *cap)
		tl_grow_more(pp, cap, need, size);
}
/*
 * tl_grow for a table indexed by id: the new elements' bytes are set to
 * byte (0, or -1 where -1 says "not yet").
 */
void tl_grow_set(void *pp, size_t *cap, size_t need, size_t size, int byte);
/*
 * Make the pages that hold p[0..n) resident and writable now, in one
 * system call (Linux's MADV_POPULATE_WRITE, 5.14) instead of a page
 * fault per page: in a virtual machine a fault costs several
 * microseconds, and an array that grows to tens of MB takes thousands.  Only for memory that
 * is about to be written; nothing happens where the kernel lacks it.
 */
void tl_populate(void *p, size_t n);

/*
 * tl_grow for an array written one element at a time that may grow large
 * (the trace's events, the op stream's rows): it also makes the array's
 * pages resident TL_AHEAD bytes at a time just ahead of the writes
 * (tl_populate), so that its growth costs a system call per step, not a
 * fault per page, and its resident size grows at most TL_AHEAD past its
 * use.  Past TL_RESERVE_FROM bytes the array moves, once, into address
 * space set aside for it (TL_RESERVE bytes, or eight times its size;
 * pages count only once written), where it grows in place: moving pages
 * (realloc's mremap at each doubling) makes the first touch of each one
 * afterwards cost about as much as a fault in a virtual machine, and an
 * array of 40 MB was moved a dozen times.  Each array has its own struct
 * tl_ahead, zeroed at the start, which stays with the array: free it with
 * tl_ahead_free, not free.
 */
struct tl_ahead {
	const void *base;	/* the array when last populated */
	size_t upto;		/* its bytes [0, upto) are resident */
	size_t res;		/* bytes of address space it has, 0: malloc'd */
};

#define TL_AHEAD (256u << 10)
#define TL_RESERVE_FROM ((size_t)1 << 16)
#define TL_RESERVE ((size_t)256 << 20)

void tl_ahead_step(struct tl_ahead *a, void *base, size_t used, size_t cap);
void tl_ahead_grow(void *pp, size_t *cap, size_t need, size_t size,
    struct tl_ahead *a);
/* 1 if arrays get address space of their own here (Linux, no ASan). */
int tl_ahead_reserves(void);
/* Free the array of a; *pp becomes NULL. */
void tl_ahead_free(void *pp, struct tl_ahead *a);
/*
 * The array holds n elements of size from now on: the memory past them
 * goes back (realloc, or the pages given back where it has address
 * space of its own).
 */
void tl_ahead_shrink(void *pp, size_t *cap, size_t n, size_t size,
    struct tl_ahead *a);

static inline void
tl_grow_ahead(void *pp, size_t *cap, size_t need, size_t size,
    struct tl_ahead *a)
{
	if (need > *cap)
		tl_ahead_grow(pp, cap, need, size, a);
	if (need * size > a->upto || *(void **)pp != a->base)
		tl_ahead_step(a, *(void **)pp, need * size, *cap * size);
}

char *tl_strdup(const char *s);
/*
 * The default number of threads: the CPUs this process may run on (the
 * online ones, as far as its affinity mask and its cgroup's CPU quota
 * allow), at most TL_THREADS_MAX.
 */
int tl_ncpu(void);
/*
 * Past this, tl-parse's threads gain little: its main thread merges
 * the records in file order and links them alone, about a quarter of
 * its CPU time at two threads (docs/PERFORMANCE.md).
 */
#define TL_THREADS_MAX 8
/* 1 if part occurs in s, ignoring ASCII case. */
int tl_contains_ci(const char *s, const char *part);

/*
 * Flush and close stdout; report a write error (not EPIPE) and return 1,
 * else 0.  Call once at the end of main.
 */
int tl_close_stdout(void);
/* Put stdout behind a large buffer (and a pipe there, tl_pipe_grow). */
void tl_stdout_buffer(void);
/*
 * Give each allocation of TL_MMAP_MIN bytes or more pages of its own,
 * returned to the system when freed (glibc's M_MMAP_THRESHOLD; nothing
 * elsewhere).  glibc's own threshold grows up to 32 MiB as large blocks
 * are freed, and the blocks above it then come from the heaps of the
 * threads' arenas, whose freed pages stay resident: for a program that
 * holds a large trace and makes and frees large arrays in phases
 * (tl-parse), that is several MB of peak memory, more the more threads.
 */
#define TL_MMAP_MIN (128 * 1024)
void tl_malloc_tune(void);
/*
 * When fd is a pipe, make it hold TL_PIPE_SIZE bytes (Linux's
 * F_SETPIPE_SZ; 64 KiB by default, and at most 1 MiB unless the
 * administrator allows more), so that a stage of a pipeline wakes the
 * next one once a MiB, not once every 64 KiB: each wake-up is a context
 * switch on both sides.  Nothing happens elsewhere or where it is refused.
 */
void tl_pipe_grow(int fd);
#define TL_PIPE_SIZE (1 << 20)

/*
 * Open path for reading: a file descriptor or a stream, or -1 or NULL
 * with errno set, EISDIR for a directory (which open and fopen take).
 */
int tl_open_read(const char *path);
FILE *tl_fopen_read(const char *path);
/*
 * Read a whole file into a NUL-terminated buffer (its length in *len when
 * len is not NULL); NULL with errno set when it cannot be opened or read.
 */
char *tl_slurp(const char *path, size_t *len);
/*
 * An anonymous temporary file (removed from its directory at once) in
 * $TMPDIR, or /tmp when TMPDIR is unset or empty: a stream open for
 * reading and writing, or NULL with errno set.  *dir is the directory,
 * for messages.
 */
FILE *tl_tmpfile(const char **dir);
/* Parse a whole decimal number; 0 on success. */
int tl_parse_long(const char *s, long long min, long long max, long long *out);

#endif
