/* See LICENSE file for copyright and license details. */
/* A minimal unit-test harness: CHECK records, the summary line ends. */
#include <stdio.h>
#include <string.h>

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

/* Write text into the file path (made or emptied); a failure is a FAIL. */
static inline void
unit_write(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fputs(text, fp) == EOF || fclose(fp) != 0) {
		unit_fail++;
		printf("FAIL cannot write %s\n", path);
	}
}
