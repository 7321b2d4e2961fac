/* See LICENSE file for copyright and license details. */
/*
 * The input file of a harness whose code under test opens a path: one
 * temporary file per process ($TMPDIR or /tmp), rewritten for each input,
 * removed at exit.  Static functions: included by one harness each.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"

static char path[4096];
static int fd = -1;

static void
cleanup(void)
{
	if (fd >= 0)
		unlink(path);
}

/* Create the file, named after the harness. */
static void
open_input(const char *name)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(path, sizeof(path), "%s/%s.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", name);
	if ((fd = mkstemp(path)) < 0)
		tl_die("mkstemp %s:", path);
	atexit(cleanup);
}

/* Make the file hold exactly data[0..size). */
static void
put_input(const uint8_t *data, size_t size)
{
	size_t off = 0;
	ssize_t k;

	if (ftruncate(fd, 0) < 0)
		tl_die("%s: ftruncate:", path);
	while (off < size) {
		if ((k = pwrite(fd, data + off, size - off, (off_t)off)) < 0)
			tl_die("%s: write:", path);
		off += (size_t)k;
	}
}
