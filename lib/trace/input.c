/* See LICENSE file for copyright and license details. */
#define _DEFAULT_SOURCE		/* madvise */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#ifdef TL_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "common/pool.h"
#include "common/util.h"
#include "trace/input.h"

#define NBUF 4
/*
 * Bytes one read or inflate call fills at most, so that the progress line
 * moves while a slow pipe fills a request: PIECE.  A mapped gzip file is
 * inflated a whole request a call (at most FILLMAX), as it never waits:
 * ISA-L copies about 64 KiB of window in and out of its own buffer on
 * every call (igzip/igzip_inflate.c, isal_inflate), so fewer calls copy
 * less.
 */
#define PIECE (1u << 18)
#define FILLMAX (1u << 30)
#define INSZ (1u << 18)		/* compressed bytes read at a time */
#define DROP_EVERY (1u << 18)	/* mapped bytes given back at a time */

#ifdef TL_ISAL
/*
 * gzip with ISA-L's inflate, as zlib's gzread does it (zlib 1.2.13,
 * gzread.c and inflate.c): gzip when the input starts with the magic
 * bytes, else the bytes as they are; members one after the other, and
 * after one, anything that does not start with the magic bytes ignored;
 * the header checked as inflate checks it (method, reserved flags,
 * header CRC) and the trailer's CRC-32 and length; zlib's messages.
 * ISA-L only inflates the deflate data between them.
 */
enum { Z_LOOK, Z_COPY, Z_GZIP };

struct zin {
	int fd;
	unsigned char *in;	/* INSZ bytes, or the whole file mapped */
	size_t have, at;	/* bytes in in, the first not consumed */
	size_t mapped;		/* the mapping's length; 0: read */
	size_t dropped;		/* mapped bytes given back before this */
	int eof;
	int how;		/* Z_* */
	int members;		/* gzip members begun */
	int err;		/* Z_OK, Z_BUF_ERROR, Z_DATA_ERROR, Z_ERRNO */
	const char *msg;
	unsigned char last[8];	/* the last bytes inflate consumed */
	struct inflate_state st;
};
#endif

struct tl_input {
	char *name;
	int fd;
#ifdef TL_ISAL
	struct zin z;
#else
	gzFile gz;
#endif
	/* The input thread: a pool of one worker that fills requests. */
	struct tl_pool *pool;
	size_t depth;		/* requests held at most */
	void (*notify)(void *, struct tl_input_req *);
	void *notify_arg;
	int ended;		/* the input ended (or failed) */
	int err;		/* the input failed */
	char errmsg[256];
	int gzip;
	/* The progress line: on a terminal only (and not quiet). */
	int progress, shown;
	uint64_t done;		/* bytes of JSON read */
	off_t size;		/* of a regular file; else 0 */
	int named;		/* opened by name (not standard input) */
	double t0, shown_at;
};

#define PROGRESS_EVERY 0.25	/* seconds */

static int quiet;

void
tl_input_quiet(int on)
{
	quiet = on;
}

/*
 * The message of a read error, zerr as zlib's (and the ISA-L reader's)
 * error codes put it, msg their text: what is wrong with the file and
 * what to do, in one line.
 */
static void
gz_error(struct tl_input *in, int zerr, const char *msg)
{
	static const char check[] = "gzip -t FILE checks a copy";

	if (zerr == Z_BUF_ERROR)
		snprintf(in->errmsg, sizeof(in->errmsg), "the gzip data is cut "
		    "short (an unfinished copy or write?): use the whole file "
		    "(%s)", check);
	else if (zerr == Z_ERRNO)
		snprintf(in->errmsg, sizeof(in->errmsg), "%s", msg);
	else if (strstr(msg, "check") != NULL)
		snprintf(in->errmsg, sizeof(in->errmsg), "gzip checksum "
		    "mismatch (%s): the file is corrupt; use an intact copy "
		    "(%s)", msg, check);
	else
		snprintf(in->errmsg, sizeof(in->errmsg), "corrupt gzip data "
		    "(%s): use an intact copy (%s)", msg, check);
}

#ifdef TL_ISAL
/* Read more input after the bytes not consumed yet: 0, or -1. */
static int
z_load(struct zin *z)
{
	ssize_t r = 0;

	if (z->eof)
		return 0;
	if (z->at > 0) {
		memmove(z->in, z->in + z->at, z->have - z->at);
		z->have -= z->at;
		z->at = 0;
	}
	while (z->have < INSZ) {
		r = read(z->fd, z->in + z->have, INSZ - z->have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		z->have += (size_t)r;
	}
	if (r < 0) {
		z->err = Z_ERRNO;
		z->msg = strerror(errno);
		return -1;
	}
	if (r == 0)
		z->eof = 1;
	return 0;
}

/* The next input byte, or -1 at the end (z->err set) or on an error. */
static int
z_byte(struct zin *z, uLong *crc)
{
	unsigned char c;

	if (z->at == z->have && (z_load(z) < 0 || z->at == z->have)) {
		if (z->err == Z_OK) {
			z->err = Z_BUF_ERROR;
			z->msg = "unexpected end of file";
		}
		return -1;
	}
	c = z->in[z->at++];
	*crc = crc32(*crc, &c, 1);
	return c;
}

static int
z_bad(struct zin *z, const char *msg)
{
	z->err = Z_DATA_ERROR;
	z->msg = msg;
	return -1;
}

/* The message of an error isal_inflate returned. */
static const char *
z_inflate_msg(int ret)
{
	switch (ret) {
	case ISAL_INVALID_LOOKBACK:
		return "invalid distance too far back";
	case ISAL_INVALID_SYMBOL:
		return "invalid literal/length or distance code";
	default:
		return "invalid deflate block";
	}
}

/* The rest of a member's header after the magic bytes: 0 or -1. */
static int
z_header(struct zin *z)
{
	static const unsigned char magic[2] = { 31, 139 };
	uLong crc = crc32(crc32(0L, Z_NULL, 0), magic, 2), hcrc;
	int c, flags, i, k;

	if ((c = z_byte(z, &crc)) < 0 || (flags = z_byte(z, &crc)) < 0)
		return -1;
	if (c != Z_DEFLATED)
		return z_bad(z, "unknown compression method");
	if (flags & 0xe0)
		return z_bad(z, "unknown header flags set");
	for (i = 0; i < 6; i++)		/* MTIME, XFL, OS */
		if (z_byte(z, &crc) < 0)
			return -1;
	if (flags & 4) {		/* FEXTRA */
		if ((c = z_byte(z, &crc)) < 0 || (k = z_byte(z, &crc)) < 0)
			return -1;
		for (k = c | k << 8; k > 0; k--)
			if (z_byte(z, &crc) < 0)
				return -1;
	}
	if (flags & 8)			/* FNAME */
		while ((c = z_byte(z, &crc)) != 0)
			if (c < 0)
				return -1;
	if (flags & 16)			/* FCOMMENT */
		while ((c = z_byte(z, &crc)) != 0)
			if (c < 0)
				return -1;
	if (flags & 2) {		/* FHCRC */
		hcrc = crc & 0xffff;
		if ((c = z_byte(z, &crc)) < 0 || (k = z_byte(z, &crc)) < 0)
			return -1;
		if ((uLong)(c | k << 8) != hcrc)
			return z_bad(z, "header crc mismatch");
	}
	isal_inflate_reset(&z->st);
	z->st.crc_flag = ISAL_GZIP_NO_HDR_VER;
	return 0;
}

/* Remember the last 8 bytes of in[0..n) after those before. */
static void
z_consumed(struct zin *z, const unsigned char *in, size_t n)
{
	if (n >= sizeof(z->last))
		memcpy(z->last, in + n - sizeof(z->last), sizeof(z->last));
	else if (n > 0) {
		memmove(z->last, z->last + n, sizeof(z->last) - n);
		memcpy(z->last + sizeof(z->last) - n, in, n);
	}
}

/*
 * Which check of the trailer (the last 8 bytes consumed) failed: inflate
 * compares the CRC-32 first.
 */
static const char *
z_checksum_msg(const struct zin *z)
{
	const unsigned char *p = z->last;
	uint32_t crc = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

	return crc != z->st.crc ? "incorrect data check" :
	    "incorrect length check";
}

/*
 * Give the mapped pages before z->at back: the page cache keeps them,
 * but they leave the process's resident set, which would otherwise grow
 * by the whole compressed file.
 */
static void
z_drop(struct zin *z)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t to = z->at / pg * pg;

	if (to > z->dropped) {
		(void)madvise(z->in + z->dropped, to - z->dropped,
		    MADV_DONTNEED);
		z->dropped = to;
	}
}

/*
 * Inflate up to n bytes into dst; the count.  As gz_read, a data error
 * loses what this call inflated (returns 0 with z->err set), while the
 * end of the input within a member returns what was inflated, with
 * Z_BUF_ERROR set.
 */
static size_t
z_read(struct zin *z, unsigned char *dst, size_t n)
{
	size_t got = 0;

	while (got < n && z->err == Z_OK) {
		if (z->how == Z_LOOK) {
			/* At least the magic bytes, or the end. */
			if (z->have - z->at < 2 && z_load(z) < 0)
				return 0;
			if (z->have - z->at >= 2 && z->in[z->at] == 31 &&
			    z->in[z->at + 1] == 139) {
				z->at += 2;
				z->how = Z_GZIP;
				z->members++;
				if (z_header(z) < 0)
					return z->err == Z_BUF_ERROR ? got : 0;
				continue;
			}
			if (z->members > 0) {
				/* Trailing garbage after a member: ignored. */
				z->at = z->have;
				z->eof = 1;
				return got;
			}
			if (z->at == z->have)
				return got;
			z->how = Z_COPY;
		}
		if (z->how == Z_COPY) {
			size_t k;

			if (z->at == z->have && !z->eof) {
				/* Straight into dst: no copy of the bytes. */
				ssize_t r = read(z->fd, dst + got, n - got);

				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0) {
					z->err = Z_ERRNO;
					z->msg = strerror(errno);
					return 0;
				}
				if (r == 0)
					z->eof = 1;
				got += (size_t)r;
				continue;
			}
			if (z->at == z->have)
				return got;
			k = z->have - z->at;
			if (k > n - got)
				k = n - got;
			memcpy(dst + got, z->in + z->at, k);
			z->at += k;
			got += k;
			continue;
		}
		/* Z_GZIP: the deflate data and the trailer. */
		if (z->at == z->have && z_load(z) < 0)
			return 0;
		{
			unsigned char *in0 = z->in + z->at;
			size_t out = n - got > UINT32_MAX ? UINT32_MAX : n - got;
			int ret;

			z->st.next_in = in0;
			z->st.avail_in = (uint32_t)(z->have - z->at);
			z->st.next_out = dst + got;
			z->st.avail_out = (uint32_t)out;
			ret = isal_inflate(&z->st);
			z_consumed(z, in0, (size_t)(z->st.next_in - in0));
			z->at += (size_t)(z->st.next_in - in0);
			if (z->mapped > 0 && z->at - z->dropped >= DROP_EVERY)
				z_drop(z);
			got += out - z->st.avail_out;
			if (ret == ISAL_DECOMP_OK && z->at == z->have &&
			    z->eof && z->st.avail_out == out &&
			    z->st.block_state != ISAL_BLOCK_FINISH) {
				/* Cut short: nothing more comes out. */
				z->err = Z_BUF_ERROR;
				z->msg = "unexpected end of file";
				return got;
			}
			if (ret == ISAL_INCORRECT_CHECKSUM) {
				z_bad(z, z_checksum_msg(z));
				return 0;
			}
			if (ret != ISAL_DECOMP_OK) {
				z_bad(z, z_inflate_msg(ret));
				return 0;
			}
			if (z->st.block_state == ISAL_BLOCK_FINISH)
				z->how = Z_LOOK;
		}
	}
	return z->err == Z_OK || z->err == Z_BUF_ERROR ? got : 0;
}

/*
 * A file cut shorter while it is mapped: touching a page past its new
 * end raises SIGBUS in the thread that touched it (mmap(2)).  z_read on
 * a mapping runs with z_guard set, and the handler jumps back out of it,
 * so the cut is an error with a message like read(2)'s cut, not a crash;
 * a SIGBUS anywhere else ends the process as before.
 */
static _Thread_local struct zin *volatile z_guard;
static _Thread_local sigjmp_buf z_jump;

static void
z_on_bus(int sig, siginfo_t *si, void *uc)
{
	struct zin *z = z_guard;
	const unsigned char *a = si->si_addr;

	(void)uc;
	if (z != NULL && a >= z->in && a < z->in + z->mapped)
		siglongjmp(z_jump, 1);
	/* Not ours: the fault again, now with the default action. */
	signal(sig, SIG_DFL);
}

static pthread_once_t z_bus_once = PTHREAD_ONCE_INIT;

static void
z_catch_bus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = z_on_bus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static size_t
z_read_mapped(struct zin *z, unsigned char *dst, size_t n)
{
	size_t got;

	if (sigsetjmp(z_jump, 0) != 0) {
		z_guard = NULL;
		z->err = Z_ERRNO;
		z->msg = "the file shrank while it was read (written again "
		    "by another program?): read a copy that is complete";
		return 0;
	}
	z_guard = z;
	got = z_read(z, dst, n);
	z_guard = NULL;
	return got;
}

static int
src_open(struct tl_input *in)
{
	struct zin *z = &in->z;
	ssize_t r;

	z->fd = in->fd;
	z->how = Z_LOOK;
	z->err = Z_OK;
	isal_inflate_init(&z->st);
	/*
	 * A regular gzip file is inflated from a mapping of it, without
	 * read(2)'s copy of every compressed byte; anything else is read,
	 * standard input too (from where its offset is, which it moves).
	 * No MADV_SEQUENTIAL: the pages would not count as used, and would
	 * leave the page cache sooner than read(2)'s.  (A file cut shorter
	 * while it is read ends the process with SIGBUS, as it does grep's
	 * or ripgrep's, unless it is caught: z_read_mapped.)
	 */
	if (in->named && in->size >= 2 && (uint64_t)in->size <= SIZE_MAX) {
		size_t n = (size_t)in->size;
		unsigned char magic[2];
		unsigned char *m;

		if (pread(z->fd, magic, 2, 0) == 2 && magic[0] == 31 &&
		    magic[1] == 139 && (m = mmap(NULL, n, PROT_READ,
		    MAP_PRIVATE, z->fd, 0)) != MAP_FAILED) {
			pthread_once(&z_bus_once, z_catch_bus);
			z->in = m;
			z->have = n;
			z->mapped = n;
			z->eof = 1;
			in->gzip = 1;
			return 0;
		}
	}
	z->in = tl_malloc(INSZ);
	/*
	 * The first two bytes now, so that whether the input is gzip is
	 * known before the first read (tl_input_readers); z_read takes
	 * them from z->in.  An error is the first read's.
	 */
	while (z->have < 2 && !z->eof) {
		r = read(z->fd, z->in + z->have, INSZ - z->have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			z->err = Z_ERRNO;
			z->msg = strerror(errno);
			break;
		}
		if (r == 0)
			z->eof = 1;
		z->have += (size_t)r;
	}
	in->gzip = z->have >= 2 && z->in[0] == 31 && z->in[1] == 139;
	return 0;
}

/* Fill b from the input: a count, 0 at the end, -1 on an error. */
static long
src_read(struct tl_input *in, char *dst, unsigned n)
{
	struct zin *z = &in->z;
	size_t got;

	if (z->err != Z_OK && z->err != Z_BUF_ERROR)
		got = 0;
	else if (z->mapped > 0)
		got = z_read_mapped(z, (unsigned char *)dst, n);
	else
		got = z_read(z, (unsigned char *)dst, n);
	if (got > 0)
		return (long)got;
	if (z->err == Z_OK)
		return 0;
	gz_error(in, z->err, z->msg);
	return -1;
}

/* The offset in the file read up to. */
static off_t
src_pos(struct tl_input *in)
{
	return in->z.mapped > 0 ? (off_t)in->z.at : lseek(in->fd, 0, SEEK_CUR);
}

/* Close; Z_OK (a cut stream was an error of src_read already). */
static int
src_close(struct tl_input *in)
{
	if (in->z.mapped > 0)
		munmap(in->z.in, in->z.mapped);
	else
		free(in->z.in);
	return close(in->z.fd) == 0 ? Z_OK : Z_ERRNO;
}

/* Bytes a src_read call fills at most (PIECE). */
static size_t
src_piece(const struct tl_input *in)
{
	return in->z.mapped > 0 ? FILLMAX : PIECE;
}
#else
static int
src_open(struct tl_input *in)
{
	in->gz = gzdopen(in->fd, "rb");
	if (in->gz == NULL)
		return -1;
	gzbuffer(in->gz, 256 * 1024);
	/* zlib looks at the first bytes for this (tl_input_readers). */
	in->gzip = !gzdirect(in->gz);
	return 0;
}

/* Fill b from the input: a count, 0 at the end, -1 on an error. */
static long
src_read(struct tl_input *in, char *dst, unsigned n)
{
	int r = gzread(in->gz, dst, n);

	if (r == 0) {
		int zerr;

		/* zlib reports a cut gzip stream as a plain end. */
		gzerror(in->gz, &zerr);
		if (zerr == Z_BUF_ERROR)
			r = -1;
	}
	if (r < 0) {
		int zerr;
		const char *m = gzerror(in->gz, &zerr);
		const char *colon = strstr(m, ": ");

		/*
		 * zlib puts the name it was opened with before its message
		 * ("<fd:3>: incorrect data check"): the file is named already.
		 */
		if (m[0] == '<' && colon != NULL)
			m = colon + 2;
		gz_error(in, zerr, zerr == Z_ERRNO ? strerror(errno) : m);
	}
	return r;
}

/* The offset in the file read up to. */
static off_t
src_pos(struct tl_input *in)
{
	return lseek(in->fd, 0, SEEK_CUR);
}

/* Close; Z_OK, or what gzclose says of a stream cut short. */
static int
src_close(struct tl_input *in)
{
	return gzclose(in->gz);
}

static size_t
src_piece(const struct tl_input *in)
{
	(void)in;
	return PIECE;
}
#endif

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The progress line, on the input thread: after the first second, at
 * most every PROGRESS_EVERY seconds, the bytes of the file read of its
 * size, as pv(1) shows them (the JSON read where the input is a pipe),
 * rewritten in place.
 */
static void
progress(struct tl_input *in)
{
	double t = now_s();
	off_t at;

	if (in->t0 == 0) {
		in->t0 = t;
		return;
	}
	if (t - in->t0 < 1 || t - in->shown_at < PROGRESS_EVERY)
		return;
	in->shown_at = t;
	in->shown = 1;
	at = in->size > 0 ? src_pos(in) : -1;
	/* The file name as any message has it: control characters escaped. */
	fprintf(stderr, "\r%s: ", tl_progname());
	tl_put_clean(stderr, in->name, strlen(in->name));
	if (at >= 0)
		fprintf(stderr, ": %lld of %lld MB read (%d %%)\033[K",
		    (long long)(at / 1000000),
		    (long long)(in->size / 1000000),
		    (int)((double)at * 100 / (double)in->size));
	else
		fprintf(stderr, ": %llu MB of JSON read\033[K",
		    (unsigned long long)(in->done / 1000000));
}

/* Fill r on the input thread, src_piece bytes a call, showing progress. */
static void
fill(struct tl_input *in, struct tl_input_req *r)
{
	size_t got = 0, piece = src_piece(in);

	while (got < r->n && !in->ended) {
		size_t k = r->n - got > piece ? piece : r->n - got;
		long n = src_read(in, r->buf + got, (unsigned)k);

		if (n <= 0) {
			in->ended = 1;
			in->err = n < 0;
			break;
		}
		got += (size_t)n;
		in->done += (size_t)n;
		if (in->progress)
			progress(in);
	}
	r->got = got > 0 ? (long)got : in->err ? -1 : 0;
}

/* A request, on the input thread. */
static void
producer(void *ctx, void *w, void *job)
{
	struct tl_input *in = ctx;
	struct tl_input_req *r = job;

	(void)w;
	fill(in, r);
	if (in->notify != NULL)
		in->notify(in->notify_arg, r);
}

static struct tl_pool *
in_pool(struct tl_input *in)
{
	if (in->pool == NULL)
		in->pool = tl_pool_new(producer, in, 1, NULL, in->depth, 0);
	return in->pool;
}

void
tl_input_depth(struct tl_input *in, size_t n)
{
	if (in->pool != NULL)
		tl_die("internal error: input depth set after the first read");
	in->depth = n;
}

void
tl_input_give_n(struct tl_input *in, struct tl_input_req **v, size_t n)
{
	tl_pool_submit_n(in_pool(in), (void *const *)v, n);
}

void
tl_input_give(struct tl_input *in, struct tl_input_req *r)
{
	tl_input_give_n(in, &r, 1);
}

struct tl_input_req *
tl_input_next(struct tl_input *in)
{
	return tl_pool_take(in_pool(in), NULL);
}

void
tl_input_notify(struct tl_input *in, void (*done)(void *,
    struct tl_input_req *), void *arg)
{
	in->notify = done;
	in->notify_arg = arg;
}

void
tl_input_cancel(struct tl_input *in)
{
	if (in->pool != NULL)
		tl_pool_cancel(in->pool);
}

struct tl_input *
tl_input_open(const char *path)
{
	struct stat st;
	struct tl_input *in;
	int fd;

	if (strcmp(path, "-") == 0) {
		tl_pipe_grow(STDIN_FILENO);
		fd = dup(STDIN_FILENO);
		if (fd < 0) {
			tl_warn("<stdin>:");
			return NULL;
		}
	} else if ((fd = tl_open_read(path)) < 0) {
		tl_warn("%s:", path);
		return NULL;
	}
	in = tl_calloc(1, sizeof(*in));
	in->name = tl_strdup(strcmp(path, "-") == 0 ? "<stdin>" : path);
	in->fd = fd;
	in->named = strcmp(path, "-") != 0;
	/* Never in pipes or files. */
	in->progress = !quiet && isatty(STDERR_FILENO);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = st.st_size;
	if (src_open(in) < 0) {
		close(fd);
		tl_warn("%s: cannot open for reading", in->name);
		free(in->name);
		free(in);
		return NULL;
	}
	in->depth = NBUF;
	return in;
}

const char *
tl_input_name(const struct tl_input *in)
{
	return in->name;
}

const char *
tl_input_error(const struct tl_input *in)
{
	return in->errmsg;
}

int
tl_input_is_gzip(const struct tl_input *in)
{
	return in->gzip;
}

int
tl_input_readers(const struct tl_input *in)
{
	int n = tl_ncpu();

	/*
	 * Inflating keeps the input thread busy: it is one of the CPUs.
	 * Plain text costs it only the reads (and their copies).
	 */
	return in->gzip && n > 1 ? n - 1 : n;
}

int
tl_input_close(struct tl_input *in)
{
	int rc = 0, zrc, finished;

	tl_pool_free(in->pool);
	if (in->shown)		/* take the progress line away */
		fputs("\r\033[K", stderr);
	finished = in->ended && !in->err;
	zrc = src_close(in);
	if (finished && zrc != Z_OK) {
		gz_error(in, zrc, "corrupt data");
		tl_warn("%s: %s", in->name, in->errmsg);
		rc = -1;
	}
	free(in->name);
	free(in);
	return rc;
}
