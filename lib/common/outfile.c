/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* renameat2, flock */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/outfile.h"
#include "common/util.h"

/*
 * What to remove when the program ends before a commit: files and
 * directories it created, newest first.  The signal handler walks the
 * list, so a node is complete before it is linked in and never freed.
 */
struct undo {
	char *path;
	int dir;
	volatile sig_atomic_t done;
	struct undo *next;
};

static struct undo *volatile undo_head;
/* SIGXFSZ: a write past the file size limit (ulimit -f). */
static const int caught[] = { SIGHUP, SIGINT, SIGTERM, SIGXFSZ };
#define NCAUGHT (int)(sizeof(caught) / sizeof(caught[0]))

static void
undo_all(void)
{
	struct undo *u;

	for (u = undo_head; u != NULL; u = u->next)
		if (!u->done) {
			u->done = 1;
			if (u->dir)
				rmdir(u->path);
			else
				unlink(u->path);
		}
}

static void
on_signal(int sig)
{
	undo_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static struct undo *
undo_add(const char *path, int dir)
{
	static int installed;
	struct undo *u = tl_calloc(1, sizeof(*u));
	int i;

	if (!installed) {
		installed = 1;
		atexit(undo_all);
		for (i = 0; i < NCAUGHT; i++) {
			struct sigaction sa, old;

			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_signal;
			sigemptyset(&sa.sa_mask);
			/* Keep what the parent ignores ignored (nohup). */
			if (sigaction(caught[i], NULL, &old) == 0 &&
			    old.sa_handler != SIG_IGN)
				sigaction(caught[i], &sa, NULL);
		}
	}
	u->path = tl_strdup(path);
	u->dir = dir;
	u->next = undo_head;
	undo_head = u;
	return u;
}

static void
undo_done(void *u)
{
	if (u != NULL)
		((struct undo *)u)->done = 1;
}

/* Hold back (block 1) or let through (0) the signals undo_all is for. */
static void
hold_signals(int block)
{
	sigset_t set;
	int i;

	sigemptyset(&set);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&set, caught[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

#ifdef TL_TEST_HOOKS
/*
 * The test hook of outfile.h: TL_TEST_FAULT=N[:SIG].  Compiled into the
 * test builds only (tests/fault/, make check), never into bin/.
 */
static void
fault_point(void)
{
	static long n = -1, sig = SIGKILL;
	const char *e;
	char *end;

	if (n == -1) {
		n = 0;
		if ((e = getenv("TL_TEST_FAULT")) != NULL && *e != '\0') {
			n = strtol(e, &end, 10);
			if (*end == ':')
				sig = strtol(end + 1, NULL, 10);
		}
	}
	if (n > 0 && --n == 0)
		raise((int)sig);
}
#else
#define fault_point() ((void)0)
#endif

/*
 * Files written through a stdio stream of their own (fopencookie) that
 * keeps the first write error: stdio itself keeps only a flag, and
 * "write error: Input/output error" would hide "No space left on
 * device".  Looked up by stream in close_checked.
 */
struct wfile {
	FILE *fp;
	int fd, err;
	struct wfile *next;
};

static struct wfile *wfiles;

static ssize_t
wf_write(void *cookie, const char *buf, size_t n)
{
	struct wfile *w = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t k = write(w->fd, buf + done, n - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (w->err == 0)
				w->err = k < 0 ? errno : EIO;
			return done > 0 ? (ssize_t)done : -1;
		}
		done += (size_t)k;
	}
	return (ssize_t)n;
}

static int
wf_close(void *cookie)
{
	struct wfile *w = cookie;
	int rc = close(w->fd);

	if (rc < 0 && w->err == 0)
		w->err = errno;
	return rc;
}

/* A stream writing to fd, or NULL with errno set. */
static FILE *
wf_open(int fd)
{
	cookie_io_functions_t io = { NULL, wf_write, NULL, wf_close };
	struct wfile *w = tl_calloc(1, sizeof(*w));

	w->fd = fd;
	if ((w->fp = fopencookie(w, "w", io)) == NULL) {
		free(w);
		return NULL;
	}
	w->next = wfiles;
	wfiles = w;
	return w->fp;
}

static char *
join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = tl_malloc(n);

	snprintf(p, n, "%s/%s", a, b);
	return p;
}

/*
 * Remove the temporary files of path that a run killed beyond catching
 * (SIGKILL, a crash) left: ".BASE.tl-PID-N" beside it whose process is
 * gone, regular files of ours with one link (a hard link planted there
 * keeps its name: a user's file is never touched through it).
 */
static void
clean_stale(const char *path)
{
	const char *b = strrchr(path, '/');
	char *dir = b != NULL ? tl_strdup(path) : tl_strdup(".");
	const char *base = b != NULL ? b + 1 : path;
	size_t nb = strlen(base);
	struct dirent *e;
	DIR *d;
	int dfd;

	if (b != NULL)
		dir[b - path + (b == path)] = '\0';
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (d = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		free(dir);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		const char *p = e->d_name;
		struct stat st;
		char *end;
		long pid;

		if (p[0] != '.' || strncmp(p + 1, base, nb) != 0 ||
		    strncmp(p + 1 + nb, ".tl-", 4) != 0)
			continue;
		pid = strtol(p + nb + 5, &end, 10);
		if (pid <= 0 || *end != '-' || end[1] == '\0' ||
		    strspn(end + 1, "0123456789") != strlen(end + 1))
			continue;
		if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_nlink == 1 &&
		    st.st_uid == geteuid())
			unlinkat(dfd, p, 0);
	}
	closedir(d);
	free(dir);
}

FILE *
tl_outfile_open(struct tl_outfile *f, const char *path, int mode)
{
	static unsigned long serial;
	const char *base = strrchr(path, '/');
	struct stat st;
	size_t n;
	int fd;

	memset(f, 0, sizeof(*f));
	f->path = tl_strdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		/* A pipe or a device: nothing to replace. */
		if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0 ||
		    (f->fp = wf_open(fd)) == NULL)
			tl_die("%s:", path);
		return f->fp;
	}
	clean_stale(path);
	base = base != NULL ? base + 1 : path;
	n = strlen(path) + 48;
	f->tmp = tl_malloc(n);
	do {
		snprintf(f->tmp, n, "%.*s.%s.tl-%ld-%lu", (int)(base - path),
		    path, base, (long)getpid(), serial++);
		fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, mode);
	} while (fd < 0 && errno == EEXIST);
	if (fd < 0)
		tl_die("%s: cannot create a temporary file beside it:", path);
	f->undo = undo_add(f->tmp, 0);
	if ((f->fp = wf_open(fd)) == NULL)
		tl_die("%s:", path);
	return f->fp;
}

/*
 * Flush and close fp; 0, or -1 with errno set: the first write error of
 * a wf_open stream (ENOSPC, EFBIG), else what fflush or fclose said.
 */
static int
close_checked(FILE *fp)
{
	struct wfile **pw, *w = NULL;
	int bad = ferror(fp), err = 0;

	for (pw = &wfiles; *pw != NULL; pw = &(*pw)->next)
		if ((*pw)->fp == fp) {
			w = *pw;
			*pw = w->next;
			break;
		}
	if (fflush(fp) != 0) {
		bad = 1;
		err = errno;
	}
	if (fclose(fp) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (w != NULL) {
		if (w->err != 0)
			err = w->err;
		free(w);
	}
	errno = err != 0 ? err : EIO;
	return bad ? -1 : 0;
}

void
tl_outfile_commit(struct tl_outfile *f)
{
	if (close_checked(f->fp) < 0)
		tl_die("%s: write error:", f->path);
	if (f->tmp != NULL) {
		fault_point();
		if (rename(f->tmp, f->path) < 0)
			tl_die("%s:", f->path);
		undo_done(f->undo);
	}
	free(f->path);
	free(f->tmp);
	memset(f, 0, sizeof(*f));
}

/* A file of a set. */
struct sfile {
	char *rel;
	char *rec;		/* its manifest line: what identifies it */
	FILE *fp;
	struct undo *undo;
	int state;		/* commit: 0 staged, 1 exchanged, 2 moved */
};

struct tl_outset {
	char *dir, *stage, *manifest;	/* DIR, .SET.tmp, .SET.manifest */
	char *stagepath;		/* DIR/.SET.tmp */
	int dfd, sfd;
	struct undo *udir, *ustage;
	struct sfile *f;
	size_t nf, capf;
	struct undo **sub;		/* directories made in the staging one */
	size_t nsub, capsub;
	char **old;			/* the previous manifest's lines */
	size_t nold, capold;
};

/*
 * Remove the directory name under fd and everything in it, depth levels
 * down at most (a staging directory is a few levels deep; a planted one
 * may nest without end); links are not followed.
 */
#define RM_DEPTH 16
static void
rm_tree_at(int fd, const char *name, int depth)
{
	struct dirent *e;
	DIR *d;
	int sub;

	if (depth > RM_DEPTH || (sub = openat(fd, name, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return;
	if ((d = fdopendir(sub)) == NULL) {
		close(sub);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(sub, e->d_name, 0) < 0 &&
		    (errno == EISDIR || errno == EPERM))
			rm_tree_at(sub, e->d_name, depth + 1);
	}
	closedir(d);
	unlinkat(fd, name, AT_REMOVEDIR);
}

static void
rm_tree(int fd, const char *name)
{
	rm_tree_at(fd, name, 0);
}

/*
 * What identifies a file tl wrote, as a manifest line before its name:
 * "tl1 DIGEST SIZE" (FNV-1a 64 of the contents, the size in bytes; the
 * same for the same output, so the manifest is as deterministic as the
 * files).  A file is removed as stale only when it still matches its
 * line, so a planted manifest, which cannot know the contents of the
 * user's files, or one naming a file the user has changed since,
 * removes nothing.  fd is open on the file; 0, or -1 when it is not a
 * regular file or cannot be read.
 */
#define REC_MAX 96
static int
identify(int fd, char *rec, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned char buf[65536];
	struct stat st;
	ssize_t k, i;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	while ((k = read(fd, buf, sizeof(buf))) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (i = 0; i < k; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
	}
	snprintf(rec, n, "tl1 %016llx %lld", (unsigned long long)h,
	    (long long)st.st_size);
	return 0;
}

/* The name in a manifest line: after the tab. */
static const char *
rec_rel(const char *line)
{
	const char *t = strchr(line, '\t');

	return t != NULL ? t + 1 : line;
}

/*
 * 1 if rel is a path a set may hold: relative, no empty, "." or ".."
 * component, no control character.
 */
static int
rel_ok(const char *rel)
{
	const char *p = rel, *e;

	if (*p == '\0' || *p == '/')
		return 0;
	for (; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		size_t n;

		e = strchr(p, '/');
		if (e == NULL)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
	}
	for (p = rel; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static void
read_manifest(struct tl_outset *s)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *fp;
	int fd;

	if ((fd = openat(s->dfd, s->manifest, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0)
		return;
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return;
	}
	while ((n = getline(&line, &cap, fp)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		/* A line without a record (an older tl's) removes nothing. */
		if (line[0] == '#' || strncmp(line, "tl1 ", 4) != 0 ||
		    strchr(line, '\t') == NULL || !rel_ok(rec_rel(line)))
			continue;
		tl_grow(&s->old, &s->capold, s->nold + 1, sizeof(*s->old));
		s->old[s->nold++] = tl_strdup(line);
	}
	free(line);
	fclose(fp);
}

struct tl_outset *
tl_outset_begin(const char *dir, const char *name)
{
	struct tl_outset *s = tl_calloc(1, sizeof(*s));
	size_t n = strlen(name) + 16;

	s->dir = tl_strdup(dir);
	s->stage = tl_malloc(n);
	snprintf(s->stage, n, ".%s.tmp", name);
	s->manifest = tl_malloc(n);
	snprintf(s->manifest, n, ".%s.manifest", name);
	s->stagepath = join(dir, s->stage);
	if (mkdir(dir, 0777) == 0)
		s->udir = undo_add(dir, 1);
	else if (errno != EEXIST)
		tl_die("%s: cannot create directory:", dir);
	if ((s->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		tl_die("%s:", dir);
	/* Some file systems (NFS) lock only files: then go without. */
	if (flock(s->dfd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		tl_die("%s: another %s is writing into it", dir, name);
	rm_tree(s->dfd, s->stage);
	if (mkdirat(s->dfd, s->stage, 0700) < 0)
		tl_die("%s:", s->stagepath);
	s->ustage = undo_add(s->stagepath, 1);
	if ((s->sfd = openat(s->dfd, s->stage, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) < 0)
		tl_die("%s:", s->stagepath);
	read_manifest(s);
	return s;
}

FILE *
tl_outset_open(struct tl_outset *s, const char *rel, int mode)
{
	struct sfile *f;
	const char *p;
	char *path;
	FILE *fp;
	size_t i;
	int fd;

	if (!rel_ok(rel))
		tl_die("%s: '%s': not a relative file name", s->dir, rel);
	for (i = 0; i < s->nf; i++)
		if (strcmp(s->f[i].rel, rel) == 0)
			tl_die("%s/%s: written twice", s->dir, rel);
	/* The directories on the way, in the staging directory. */
	for (p = strchr(rel, '/'); p != NULL; p = strchr(p + 1, '/')) {
		char *d = tl_malloc((size_t)(p - rel) + 1);

		memcpy(d, rel, (size_t)(p - rel));
		d[p - rel] = '\0';
		if (mkdirat(s->sfd, d, 0777) == 0) {
			path = join(s->stagepath, d);
			tl_grow(&s->sub, &s->capsub, s->nsub + 1,
			    sizeof(*s->sub));
			s->sub[s->nsub++] = undo_add(path, 1);
			free(path);
		} else if (errno != EEXIST)
			tl_die("%s/%s:", s->stagepath, d);
		free(d);
	}
	path = join(s->stagepath, rel);
	if ((fd = openat(s->sfd, rel, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, mode)) < 0)
		tl_die("%s:", path);
	tl_grow(&s->f, &s->capf, s->nf + 1, sizeof(*s->f));
	f = &s->f[s->nf++];
	memset(f, 0, sizeof(*f));
	f->rel = tl_strdup(rel);
	f->undo = undo_add(path, 0);
	free(path);
	if ((fp = wf_open(fd)) == NULL)
		tl_die("%s/%s:", s->dir, rel);
	f->fp = fp;
	return fp;
}

/* The manifest line of a staged file, complete and closed. */
static void
set_record(struct tl_outset *s, struct sfile *f)
{
	char rec[REC_MAX];
	size_t n;
	int fd;

	if ((fd = openat(s->sfd, f->rel, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0)
		tl_die("%s/%s:", s->stagepath, f->rel);
	if (identify(fd, rec, sizeof(rec)) < 0)
		tl_die("%s/%s: cannot read back:", s->stagepath, f->rel);
	close(fd);
	n = strlen(rec) + strlen(f->rel) + 2;
	f->rec = tl_malloc(n);
	snprintf(f->rec, n, "%s\t%s", rec, f->rel);
}

void
tl_outset_close(struct tl_outset *s, FILE *fp)
{
	size_t i;

	for (i = 0; i < s->nf; i++)
		if (s->f[i].fp == fp)
			break;
	if (i == s->nf)
		tl_die("%s: closing a file not of the set", s->dir);
	s->f[i].fp = NULL;
	if (close_checked(fp) < 0)
		tl_die("%s/%s: write error:", s->dir, s->f[i].rel);
	set_record(s, &s->f[i]);
	fault_point();
}

/*
 * Open the directory of rel under fd (fd itself for a top-level file),
 * without following links; make the missing directories when make is
 * set, recording them in made.  Returns the fd (to close when not fd)
 * and sets *base to rel's last component, or -1 with *what set.
 */
static int
open_parent(int fd, const char *rel, const char **base, int make,
    char ***made, size_t *nmade, size_t *capmade, const char **what)
{
	const char *p = rel, *slash;
	int cur = fd, next;

	*what = NULL;
	while ((slash = strchr(p, '/')) != NULL) {
		char *d = tl_malloc((size_t)(slash - rel) + 1);
		const char *comp = d + (p - rel);

		memcpy(d, rel, (size_t)(slash - rel));
		d[slash - rel] = '\0';
		next = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (next < 0 && errno == ENOENT && make &&
		    mkdirat(cur, comp, 0777) == 0) {
			tl_grow(made, capmade, *nmade + 1, sizeof(**made));
			(*made)[(*nmade)++] = tl_strdup(d);
			next = openat(cur, comp, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0 && (errno == ELOOP || errno == ENOTDIR)) {
			struct stat st;

			*what = fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) ==
			    0 && S_ISLNK(st.st_mode) ? "a symbolic link "
			    "where a directory goes (not followed)" :
			    "not a directory";
		}
		free(d);
		if (cur != fd)
			close(cur);
		if (next < 0)
			return -1;
		cur = next;
		p = slash + 1;
	}
	*base = p;
	return cur;
}

/* The prefix of rel up to its last '/', as a new string ("" if none). */
static char *
dir_of(const char *rel)
{
	const char *e = strrchr(rel, '/');
	size_t n = e != NULL ? (size_t)(e - rel) : 0;
	char *d = tl_malloc(n + 1);

	memcpy(d, rel, n);
	d[n] = '\0';
	return d;
}

/*
 * Write the lines names[0..n) (and the records of more[0..m)) as the
 * manifest; 0 or -1.  The new manifest is created exclusively under its
 * temporary name: whatever was there (a planted link) is unlinked, never
 * written through.
 */
static int
write_manifest(struct tl_outset *s, char *const *names, size_t n,
    const struct sfile *more, size_t m)
{
	size_t len = strlen(s->manifest) + 8, i;
	char *tmp = tl_malloc(len);
	FILE *fp;
	int fd, rc = -1;

	snprintf(tmp, len, "%s.new", s->manifest);
	unlinkat(s->dfd, tmp, 0);
	if ((fd = openat(s->dfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0666)) < 0)
		goto out;
	if ((fp = wf_open(fd)) == NULL) {
		close(fd);
		goto out;
	}
	fprintf(fp, "# The files %s wrote here, for its next run: each is "
	    "removed only while it is as written.\n", tl_progname());
	for (i = 0; i < n; i++)
		fprintf(fp, "%s\n", names[i]);
	for (i = 0; i < m; i++)
		fprintf(fp, "%s\n", more[i].rec);
	if (close_checked(fp) == 0)
		rc = renameat(s->dfd, tmp, s->dfd, s->manifest);
	if (rc < 0)
		unlinkat(s->dfd, tmp, 0);
out:
	free(tmp);
	return rc;
}

static int
in_set(const struct tl_outset *s, const char *rel)
{
	size_t i;

	for (i = 0; i < s->nf; i++)
		if (strcmp(s->f[i].rel, rel) == 0)
			return 1;
	return 0;
}

/* Move one staged file into place; 0, or -1 with errno set. */
static int
move_in(struct tl_outset *s, struct sfile *f, char ***made, size_t *nmade,
    size_t *capmade, const char **what)
{
	const char *base, *sbase;
	struct stat st;
	int pfd, sfd, rc;

	if ((pfd = open_parent(s->dfd, f->rel, &base, 1, made, nmade,
	    capmade, what)) < 0)
		return -1;
	if ((sfd = open_parent(s->sfd, f->rel, &sbase, 0, NULL, NULL, NULL,
	    what)) < 0) {
		if (pfd != s->dfd)
			close(pfd);
		return -1;
	}
	if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = renameat2(sfd, sbase, pfd, base, RENAME_EXCHANGE);
		if (rc == 0)
			f->state = 1;
		else if (errno == EINVAL || errno == ENOSYS) {
			/* No exchange on this file system: replace. */
			if ((rc = renameat(sfd, sbase, pfd, base)) == 0)
				f->state = 2;
		}
	} else if ((rc = renameat(sfd, sbase, pfd, base)) == 0)
		f->state = 2;
	if (pfd != s->dfd)
		close(pfd);
	if (sfd != s->sfd)
		close(sfd);
	return rc;
}

/* Put back what move_in did to f (a failed commit). */
static void
move_out(struct tl_outset *s, struct sfile *f)
{
	const char *base, *sbase, *what;
	int pfd, sfd;

	if (f->state == 0)
		return;
	if ((pfd = open_parent(s->dfd, f->rel, &base, 0, NULL, NULL, NULL,
	    &what)) < 0)
		return;
	if ((sfd = open_parent(s->sfd, f->rel, &sbase, 0, NULL, NULL, NULL,
	    &what)) >= 0) {
		if (f->state == 1)
			renameat2(sfd, sbase, pfd, base, RENAME_EXCHANGE);
		else
			renameat(pfd, base, sfd, sbase);
		if (sfd != s->sfd)
			close(sfd);
	}
	if (pfd != s->dfd)
		close(pfd);
	f->state = 0;
}

/*
 * Remove a stale file of the previous run, and its directory when that
 * is left empty and is one level down.
 */
static void
remove_stale(struct tl_outset *s, const char *line)
{
	const char *base, *what, *rel = rec_rel(line);
	char rec[REC_MAX];
	char *d;
	int pfd, fd;

	if ((pfd = open_parent(s->dfd, rel, &base, 0, NULL, NULL, NULL,
	    &what)) < 0)
		return;
	/* Only a file that is still as this program wrote it. */
	if ((fd = openat(pfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) >= 0) {
		if (identify(fd, rec, sizeof(rec)) == 0 &&
		    strncmp(line, rec, strlen(rec)) == 0 &&
		    line[strlen(rec)] == '\t')
			unlinkat(pfd, base, 0);
		close(fd);
	}
	if (pfd != s->dfd)
		close(pfd);
	d = dir_of(rel);
	if (d[0] != '\0' && strchr(d, '/') == NULL)
		unlinkat(s->dfd, d, AT_REMOVEDIR);
	free(d);
}

static void
outset_free(struct tl_outset *s)
{
	size_t i;

	close(s->sfd);
	close(s->dfd);		/* and the lock */
	for (i = 0; i < s->nf; i++) {
		free(s->f[i].rel);
		free(s->f[i].rec);
	}
	for (i = 0; i < s->nold; i++)
		free(s->old[i]);
	free(s->f);
	free(s->sub);
	free(s->old);
	free(s->dir);
	free(s->stage);
	free(s->manifest);
	free(s->stagepath);
	free(s);
}

void
tl_outset_commit(struct tl_outset *s)
{
	char **made = NULL, *bad = NULL;
	const char *what = NULL, *base;
	size_t i, nmade = 0, capmade = 0;
	int err = 0, pfd;

	/* Check the way before moving anything. */
	for (i = 0; i < s->nf; i++) {
		struct stat st;

		if (s->f[i].fp != NULL)
			tl_die("%s/%s: not closed", s->dir, s->f[i].rel);
		pfd = open_parent(s->dfd, s->f[i].rel, &base, 0, NULL, NULL,
		    NULL, &what);
		if (pfd < 0 && what != NULL) {
			char *d = dir_of(s->f[i].rel);

			tl_die("%s/%s: %s", s->dir, d, what);
		}
		if (pfd >= 0 && fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && S_ISDIR(st.st_mode))
			tl_die("%s/%s: a directory where a file goes",
			    s->dir, s->f[i].rel);
		if (pfd >= 0 && pfd != s->dfd)
			close(pfd);
	}
	hold_signals(1);
	/* The manifest names both sets while they change places. */
	if (write_manifest(s, s->old, s->nold, s->f, s->nf) < 0) {
		err = errno;
		bad = join(s->dir, s->manifest);
	}
	for (i = 0; bad == NULL && i < s->nf; i++) {
		if (move_in(s, &s->f[i], &made, &nmade, &capmade, &what) < 0) {
			err = errno;
			bad = join(s->dir, s->f[i].rel);
			break;
		}
		fault_point();
	}
	if (bad != NULL) {
		while (i-- > 0)
			move_out(s, &s->f[i]);
		while (nmade-- > 0)
			unlinkat(s->dfd, made[nmade], AT_REMOVEDIR);
		write_manifest(s, s->old, s->nold, NULL, 0);
		rm_tree(s->dfd, s->stage);
		hold_signals(0);
		errno = err;
		if (what != NULL)
			tl_die("%s: %s", bad, what);
		tl_die("%s:", bad);
	}
	for (i = 0; i < s->nold; i++)
		if (!in_set(s, rec_rel(s->old[i])))
			remove_stale(s, s->old[i]);
	if (write_manifest(s, NULL, 0, s->f, s->nf) < 0)
		tl_warn("%s/%s: cannot write:", s->dir, s->manifest);
	/* The staging directory holds the replaced files now. */
	rm_tree(s->dfd, s->stage);
	for (i = 0; i < s->nf; i++)
		undo_done(s->f[i].undo);
	for (i = 0; i < s->nsub; i++)
		undo_done(s->sub[i]);
	undo_done(s->ustage);
	undo_done(s->udir);
	for (i = 0; i < nmade; i++)
		free(made[i]);
	free(made);
	outset_free(s);
	hold_signals(0);
}
