/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "common/util.h"
#include "trace/input.h"

#define NBUF 4
#define BUFSZ (1u << 18)

struct buf {
	char *data;
	long len;		/* bytes, 0 = end, -1 = error */
};

struct tl_input {
	char *name;
	gzFile gz;
	pthread_t thread;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct buf ring[NBUF];
	unsigned head, tail;	/* filled buffers are [head, tail) */
	int stop;		/* consumer closed early */
	int done;		/* producer finished */
	int err;		/* producer saw an error */
	char errmsg[256];
	int gzip;
	struct buf *cur;
	long curpos;
};

static void *
producer(void *arg)
{
	struct tl_input *in = arg;

	for (;;) {
		struct buf *b;
		int n;

		pthread_mutex_lock(&in->mu);
		while (in->tail - in->head == NBUF && !in->stop)
			pthread_cond_wait(&in->cv, &in->mu);
		if (in->stop) {
			pthread_mutex_unlock(&in->mu);
			break;
		}
		b = &in->ring[in->tail % NBUF];
		pthread_mutex_unlock(&in->mu);

		n = gzread(in->gz, b->data, BUFSZ);
		if (in->tail == 0)
			in->gzip = !gzdirect(in->gz);
		if (n == 0) {
			int zerr;

			/* zlib reports a cut gzip stream as a plain end. */
			gzerror(in->gz, &zerr);
			if (zerr == Z_BUF_ERROR)
				n = -1;
		}
		if (n < 0) {
			int zerr;
			const char *m = gzerror(in->gz, &zerr);

			if (zerr == Z_BUF_ERROR)
				m = "truncated gzip input (unexpected end of file)";
			else if (zerr == Z_ERRNO)
				m = strerror(errno);
			snprintf(in->errmsg, sizeof(in->errmsg), "%s", m);
		}
		pthread_mutex_lock(&in->mu);
		b->len = n;
		if (n < 0)
			in->err = 1;
		in->tail++;
		if (n <= 0)
			in->done = 1;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
		if (n <= 0)
			break;
	}
	return NULL;
}

struct tl_input *
tl_input_open(const char *path)
{
	struct tl_input *in;
	int fd, i;

	if (strcmp(path, "-") == 0) {
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
	in->gz = gzdopen(fd, "rb");
	if (in->gz == NULL) {
		close(fd);
		tl_warn("%s: cannot open for reading", in->name);
		free(in->name);
		free(in);
		return NULL;
	}
	gzbuffer(in->gz, 256 * 1024);
	for (i = 0; i < NBUF; i++)
		in->ring[i].data = tl_malloc(BUFSZ);
	pthread_mutex_init(&in->mu, NULL);
	pthread_cond_init(&in->cv, NULL);
	if (pthread_create(&in->thread, NULL, producer, in) != 0)
		tl_die("%s: cannot start the reader thread", in->name);
	in->started = 1;
	return in;
}

long
tl_input_read(struct tl_input *in, char *dst, size_t n)
{
	size_t got = 0;

	while (got < n) {
		long k;

		if (in->cur == NULL) {
			pthread_mutex_lock(&in->mu);
			while (in->head == in->tail)
				pthread_cond_wait(&in->cv, &in->mu);
			in->cur = &in->ring[in->head % NBUF];
			pthread_mutex_unlock(&in->mu);
			in->curpos = 0;
		}
		if (in->cur->len < 0)	/* an error stays, as the end does */
			return got > 0 ? (long)got : -1;
		if (in->cur->len == 0)
			return (long)got;	/* end of input: stays there */
		k = in->cur->len - in->curpos;
		if ((size_t)k > n - got)
			k = (long)(n - got);
		memcpy(dst + got, in->cur->data + in->curpos, (size_t)k);
		got += (size_t)k;
		in->curpos += k;
		if (in->curpos == in->cur->len) {
			pthread_mutex_lock(&in->mu);
			in->head++;
			in->cur = NULL;
			pthread_cond_broadcast(&in->cv);
			pthread_mutex_unlock(&in->mu);
		}
	}
	return (long)got;
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
tl_input_close(struct tl_input *in)
{
	int rc = 0, zrc, i, finished;

	pthread_mutex_lock(&in->mu);
	in->stop = 1;
	finished = in->done && !in->err;
	pthread_cond_broadcast(&in->cv);
	pthread_mutex_unlock(&in->mu);
	pthread_join(in->thread, NULL);
	zrc = gzclose(in->gz);
	if (finished && zrc != Z_OK) {
		tl_warn("%s: truncated or corrupt gzip input%s", in->name,
		    zrc == Z_BUF_ERROR ? " (unexpected end of file)" : "");
		rc = -1;
	}
	pthread_mutex_destroy(&in->mu);
	pthread_cond_destroy(&in->cv);
	for (i = 0; i < NBUF; i++)
		free(in->ring[i].data);
	free(in->name);
	free(in);
	return rc;
}
