/* See LICENSE file for copyright and license details. */
/* A minimal unit-test harness: CHECK records, the summary line ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int unit_pass, unit_fail;

#define CHECK(cond) do { \
	if (cond) \
		unit_pass++; \
	else { \
		unit_fail++; \
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	if (strcmp(a_, b_) == 0) \
		unit_pass++; \
	else { \
		unit_fail++; \
		printf("FAIL %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
		    a_, b_); \
	} \
} while (0)

static int
unit_done(const char *name)
{
	printf("%s: %d checks passed, %d failed\n", name, unit_pass, unit_fail);
	return unit_fail != 0;
}

/* Write n bytes into the file path (made or emptied); a failure is a FAIL. */
static inline void
unit_writen(const char *path, const char *text, size_t n)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fwrite(text, 1, n, fp) != n || fclose(fp) != 0) {
		unit_fail++;
		printf("FAIL cannot write %s\n", path);
	}
}

/* Write text into the file path (made or emptied). */
static inline void
unit_write(const char *path, const char *text)
{
	unit_writen(path, text, strlen(text));
}

static char unit_tmp[64];

/* A fresh temporary file holding n bytes; its name (also in unit_tmp). */
static inline const char *
unit_tmpfile(const char *text, size_t n)
{
	int fd;

	snprintf(unit_tmp, sizeof(unit_tmp), "/tmp/tl-unit.XXXXXX");
	if ((fd = mkstemp(unit_tmp)) < 0) {
		perror("mkstemp");
		exit(1);
	}
	close(fd);
	unit_writen(unit_tmp, text, n);
	return unit_tmp;
}
