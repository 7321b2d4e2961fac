/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* F_GETPIPE_SZ */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/util.h"
#include "unit.h"

/* The largest pipe an unprivileged process may ask for, or 0. */
static long
pipe_max(void)
{
	FILE *fp = fopen("/proc/sys/fs/pipe-max-size", "r");
	long v = 0;

	if (fp != NULL) {
		if (fscanf(fp, "%ld", &v) != 1)
			v = 0;
		fclose(fp);
	}
	return v;
}

int
main(void)
{
#ifdef F_GETPIPE_SZ
	int fd[2];
	long want = pipe_max() < TL_PIPE_SIZE ? pipe_max() : TL_PIPE_SIZE;
	char path[] = "/tmp/test_pipe.XXXXXX";
	int f;

	/* A pipe grows to TL_PIPE_SIZE (or as far as it may). */
	CHECK(pipe(fd) == 0);
	CHECK(fcntl(fd[0], F_GETPIPE_SZ) < TL_PIPE_SIZE);
	tl_pipe_grow(fd[1]);
	CHECK(geteuid() != 0 && want < TL_PIPE_SIZE ?
	    fcntl(fd[0], F_GETPIPE_SZ) >= want :
	    fcntl(fd[0], F_GETPIPE_SZ) >= TL_PIPE_SIZE);
	close(fd[0]);
	close(fd[1]);
	/* Anything else is left alone. */
	f = mkstemp(path);
	CHECK(f >= 0);
	tl_pipe_grow(f);
	CHECK(fcntl(f, F_GETPIPE_SZ) < 0);
	close(f);
	unlink(path);
#endif
	return unit_done("test_pipe");
}
