/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* madvise, mremap, F_SETPIPE_SZ */
#include <sys/mman.h>
#include <sys/stat.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/util.h"

static const char *progname = "tl";

void (*tl_exit_hook)(int status);

void
tl_setprogname(const char *argv0)
{
	const char *p;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	p = strrchr(argv0, '/');
	progname = p != NULL ? p + 1 : argv0;
}

const char *
tl_progname(void)
{
	return progname;
}

static void __attribute__((noreturn))
die_exit(int status)
{
	if (tl_exit_hook != NULL)
		tl_exit_hook(status);
	exit(status);
}

void
tl_put_clean(FILE *fp, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, from = 0;

	for (i = 0; i < n; i++) {
		int c1 = p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f;

		if (p[i] >= 0x20 && p[i] != 0x7f && !c1)
			continue;
		fwrite(s + from, 1, i - from, fp);
		if (c1)
			fprintf(fp, "\\u%04x", p[++i]);
		else if (p[i] == '\n')
			fputs("\\n", fp);
		else if (p[i] == '\t')
			fputs("\\t", fp);
		else if (p[i] == '\r')
			fputs("\\r", fp);
		else
			fprintf(fp, "\\x%02x", p[i]);
		from = i + 1;
	}
	fwrite(s + from, 1, n - from, fp);
}

/*
 * "prog: message[: strerror]" on one line.  The message is formatted
 * first and written through tl_put_clean: what it quotes from a trace or
 * a stream (GPU, trace, op and file names) cannot move the cursor,
 * recolour the terminal or start a line of its own.
 */
static void
vwarn(const char *fmt, va_list ap)
{
	int saved = errno, n;
	size_t len = strlen(fmt);
	char small[512], *buf = small;
	va_list aq;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (buf = malloc((size_t)n + 1)) != NULL)
		vsnprintf(buf, (size_t)n + 1, fmt, aq);
	else if (buf == NULL)
		buf = small;	/* out of memory: the message cut short */
	va_end(aq);
	fprintf(stderr, "%s: ", progname);
	if (n > 0)
		tl_put_clean(stderr, buf, strlen(buf));
	if (buf != small)
		free(buf);
	if (len > 0 && fmt[len - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

/* After a usage error's one line, as GNU tools put it. */
static void
try_help(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", progname);
}

void
tl_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	die_exit(TL_EXIT_ERROR);
}

void
tl_diex(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	if (status == TL_EXIT_USAGE)
		try_help();
	die_exit(status);
}

void
tl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
tl_version(void)
{
	printf("%s (tl) %s\n", progname, TL_VERSION);
	exit(tl_close_stdout());
}

void *
tl_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		tl_die("out of memory (%zu bytes)", n);
	return p;
}

void *
tl_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		tl_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *
tl_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		tl_die("out of memory (%zu bytes)", n);
	return p;
}

void
tl_grow_more(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*p = tl_realloc(*p, n * size);
	*cap = n;
}

void
tl_grow_set(void *pp, size_t *cap, size_t need, size_t size, int byte)
{
	size_t old = *cap;

	tl_grow(pp, cap, need, size);
	if (*cap > old)
		memset((char *)*(void **)pp + old * size, byte,
		    (*cap - old) * size);
}

void
tl_populate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t pagesz = ps > 0 ? (uintptr_t)ps : 4096, lo, hi;

	if (n == 0)
		return;
	/* The whole pages that hold the bytes: each is the caller's. */
	lo = (uintptr_t)p & ~(pagesz - 1);
	hi = ((uintptr_t)p + n + pagesz - 1) & ~(pagesz - 1);
	/* A kernel without it says EINVAL: the pages fault in as before. */
	(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void
tl_ahead_step(struct tl_ahead *a, void *base, size_t used, size_t cap)
{
	size_t n;

	if (base != a->base) {
		/* Moved (or new): what it holds was written by the copy. */
		a->base = base;
		a->upto = used;
	}
	/* Small arrays fault in as any memory does. */
	if (cap < TL_AHEAD || a->upto >= cap)
		return;
	/* At most TL_AHEAD, and no more than is used: small ones stay so. */
	n = used < TL_AHEAD ? used : TL_AHEAD;
	if (n > cap - a->upto)
		n = cap - a->upto;
	tl_populate((char *)base + a->upto, n);
	a->upto += n;
}

/*
 * Address space of their own for the large arrays, where mremap grows it;
 * not under AddressSanitizer, which sees the accesses to malloc'd memory
 * only.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_RESERVE 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || !defined(MREMAP_MAYMOVE)
#define NO_RESERVE 1
#endif

int
tl_ahead_reserves(void)
{
#ifdef NO_RESERVE
	return 0;
#else
	return 1;
#endif
}

#ifndef NO_RESERVE
/* n rounded up to whole pages. */
static size_t
page_up(size_t n)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t pagesz = ps > 0 ? (size_t)ps : 4096;

	return (n + pagesz - 1) / pagesz * pagesz;
}
#endif

void
tl_ahead_grow(void *pp, size_t *cap, size_t need, size_t size,
    struct tl_ahead *a)
{
#ifndef NO_RESERVE
	void **p = pp, *q;
	size_t res;

	if (need <= *cap)
		return;
	if (a->res == 0 && need < TL_RESERVE_FROM / size) {
		tl_grow(pp, cap, need, size);
		return;
	}
	if (need > SIZE_MAX / 8 / size)
		tl_die("out of memory (%zu elements of %zu bytes)", need, size);
	res = page_up(need * size > TL_RESERVE / 8 ? need * size * 8 :
	    TL_RESERVE);
	if (a->res == 0) {
		/* MAP_NORESERVE: address space, not memory. */
		q = mmap(NULL, res, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (q == MAP_FAILED) {	/* a limit on address space */
			tl_grow(pp, cap, need, size);
			return;
		}
		if (*cap > 0) {
			tl_populate(q, *cap * size);
			memcpy(q, *p, *cap * size);
		}
		free(*p);
		a->base = q;
		a->upto = *cap * size;
	} else if ((q = mremap(*p, a->res, res, MREMAP_MAYMOVE)) ==
	    MAP_FAILED)
		tl_die("out of memory (%zu bytes)", res);
	*p = q;
	a->res = res;
	*cap = res / size;
#else
	(void)a;
	tl_grow(pp, cap, need, size);
#endif
}

void
tl_ahead_free(void *pp, struct tl_ahead *a)
{
	void **p = pp;

#ifndef NO_RESERVE
	if (a->res > 0)
		munmap(*p, a->res);
	else
#endif
		free(*p);
	*p = NULL;
	memset(a, 0, sizeof(*a));
}

void
tl_ahead_shrink(void *pp, size_t *cap, size_t n, size_t size,
    struct tl_ahead *a)
{
	void **p = pp;

	if (a->res == 0) {
		if (*cap > n) {
			*cap = n > 0 ? n : 1;
			*p = tl_realloc(*p, *cap * size);
		}
		return;
	}
#ifndef NO_RESERVE
	{
		size_t keep = page_up(n * size);

		if (a->upto > keep)
			(void)madvise((char *)*p + keep, a->upto - keep,
			    MADV_DONTNEED);
		if (a->upto > keep)
			a->upto = keep;
	}
#endif
}

char *
tl_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(tl_malloc(n), s, n);
}

void
tl_pipe_grow(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, TL_PIPE_SIZE);
#else
	(void)fd;
#endif
}

void
tl_malloc_tune(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, TL_MMAP_MIN);
#endif
}

void
tl_stdout_buffer(void)
{
	static char buf[1 << 20];

	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	tl_pipe_grow(STDOUT_FILENO);
}

int
tl_close_stdout(void)
{
	int bad = ferror(stdout);

	if (fflush(stdout) != 0)
		bad = 1;
	if (fclose(stdout) != 0)
		bad = 1;
	if (bad && errno != EPIPE) {
		tl_warn("<stdout>: write error:");
		return TL_EXIT_ERROR;
	}
	return bad ? TL_EXIT_ERROR : TL_EXIT_OK;
}

int
tl_parse_long(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
tl_open_read(const char *path)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return -1;
	}
	return fd;
}

FILE *
tl_fopen_read(const char *path)
{
	FILE *fp;
	int fd, err;

	if ((fd = tl_open_read(path)) < 0)
		return NULL;
	if ((fp = fdopen(fd, "r")) == NULL) {
		err = errno;
		close(fd);
		errno = err;
	}
	return fp;
}

FILE *
tl_tmpfile(const char **dir)
{
	const char *d = getenv("TMPDIR");
	char *path;
	FILE *fp;
	int fd, e;

	if (d == NULL || d[0] == '\0')
		d = "/tmp";
	*dir = d;
	path = tl_malloc(strlen(d) + 16);
	sprintf(path, "%s/tl-XXXXXX", d);
	if ((fd = mkstemp(path)) < 0) {
		free(path);
		return NULL;
	}
	unlink(path);
	free(path);
	if ((fp = fdopen(fd, "w+")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
	}
	return fp;
}

char *
tl_slurp(const char *path, size_t *len)
{
	FILE *fp;
	char *buf = NULL;
	size_t n = 0, cap = 0, k;
	int err;

	if ((fp = tl_fopen_read(path)) == NULL)
		return NULL;
	do {
		tl_grow(&buf, &cap, n + 65536, 1);
		k = fread(buf + n, 1, cap - n - 1, fp);
		n += k;
	} while (k > 0);
	if (ferror(fp)) {
		err = errno;
		fclose(fp);
		free(buf);
		errno = err;
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

void
tl_usage(FILE *fp, int status, const char *usage, const char *help)
{
	if (status != 0) {
		try_help();
		exit(status);
	}
	fputs(usage, fp);
	fputs(help, fp);
	exit(status);
}

int
tl_contains_ci(const char *s, const char *part)
{
	size_t n = strlen(part);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, part, n) == 0)
			return 1;
	return 0;
}

/*
 * The CPUs a cgroup's CPU bandwidth limit allows: its quota over its
 * period, rounded up (cgroup v2's cpu.max, "QUOTA PERIOD" or "max
 * PERIOD"; v1's cpu.cfs_quota_us and cpu.cfs_period_us, -1 for none), at
 * the cgroup's directory dir and at each one above it, where limits nest;
 * 0 if none limits.  See the kernel's Documentation/admin-guide/cgroup-v2.rst
 * and scheduler/sched-bwc.rst.
 */
static FILE *
cg_open(const char *dir, const char *file)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return fopen(path, "r");
}

static long
cg_quota(char *dir, size_t root, int v2)
{
	long best = 0;

	for (;;) {
		long long q = -1, per = 0;
		char word[32];
		FILE *fp;

		if (v2 && (fp = cg_open(dir, "cpu.max")) != NULL) {
			if (fscanf(fp, "%31s %lld", word, &per) == 2 &&
			    strcmp(word, "max") != 0)
				q = strtoll(word, NULL, 10);
			fclose(fp);
		}
		if (!v2 && (fp = cg_open(dir, "cpu.cfs_quota_us")) != NULL) {
			if (fscanf(fp, "%lld", &q) != 1)
				q = -1;
			fclose(fp);
		}
		if (!v2 && (fp = cg_open(dir, "cpu.cfs_period_us")) != NULL) {
			if (fscanf(fp, "%lld", &per) != 1)
				per = 0;
			fclose(fp);
		}
		if (q > 0 && per > 0) {
			long n = (long)((q + per - 1) / per);

			if (best == 0 || n < best)
				best = n;
		}
		if (strlen(dir) <= root)
			break;
		*strrchr(dir, '/') = '\0';
	}
	return best;
}

/* Whether a cgroup v1 controller list ("cpu,cpuacct") names "cpu". */
static int
has_cpu(const char *list)
{
	while (*list != '\0') {
		size_t n = strcspn(list, ",");

		if (n == 3 && strncmp(list, "cpu", 3) == 0)
			return 1;
		list += n + (list[n] == ',');
	}
	return 0;
}

/* The CPUs the cgroup of this process may use, as cg_quota; 0: no limit. */
static long
cgroup_cpus(void)
{
	FILE *fp = fopen("/proc/self/cgroup", "r");
	char line[1024];
	long n = 0;

	if (fp == NULL)
		return 0;
	while (n == 0 && fgets(line, sizeof(line), fp) != NULL) {
		char *c1 = strchr(line, ':'), *c2, *nl;
		char dir[PATH_MAX];
		const char *mnt;
		int v2;

		if (c1 == NULL || (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		if ((nl = strchr(c2, '\n')) != NULL)
			*nl = '\0';
		*c2 = '\0';
		v2 = strcmp(line, "0") == 0 && c1[1] == '\0';
		if (v2)
			mnt = "/sys/fs/cgroup";
		else if (has_cpu(c1 + 1))
			mnt = "/sys/fs/cgroup/cpu";
		else
			continue;
		/* In a cgroup namespace the path may not exist: the root. */
		snprintf(dir, sizeof(dir), "%s%s", mnt,
		    strcmp(c2 + 1, "/") == 0 ? "" : c2 + 1);
		if (access(dir, F_OK) != 0)
			snprintf(dir, sizeof(dir), "%s", mnt);
		n = cg_quota(dir, strlen(mnt), v2);
	}
	fclose(fp);
	return n;
}

int
tl_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), q;
#ifdef CPU_COUNT
	cpu_set_t set;

	/* The affinity mask: taskset, Slurm's --cpus-per-task. */
	if (sched_getaffinity(0, sizeof(set), &set) == 0 &&
	    CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n)
		n = CPU_COUNT(&set);
#endif
	/* The cgroup's CPU quota: docker --cpus, Kubernetes' CPU limits. */
	if ((q = cgroup_cpus()) > 0 && q < n)
		n = q;
	return n < 1 ? 1 : n > TL_THREADS_MAX ? TL_THREADS_MAX : (int)n;
}
