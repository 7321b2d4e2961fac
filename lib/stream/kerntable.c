/* See LICENSE file for copyright and license details. */
#define _GNU_SOURCE		/* memmem */
#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/tabfile.h"
#include "common/util.h"
#include "stream/category.h"
#include "stream/kerntable.h"

extern const char tl_default_kernels[];	/* kernels_table.c */

struct entry {
	char *lower;		/* the pattern, in lower case */
	struct tl_kerninfo info;
};

static struct entry *tab;
static size_t ntab, captab;
static char *text;
static int loaded;
/*
 * The names matched so far and the entry each matched (ntab: none): a
 * trace names the same kernels again and again, and a name tries the
 * patterns one by one.  At most SEEN_MAX names.  Like the table, for
 * one thread: the reader's and the row writer's workers never classify
 * kernels.
 */
#define SEEN_MAX 65536
static struct tl_strmap seen;
static size_t *seenix, capseen;
static const struct tl_kerninfo unknown = {
	"other", "other kernels", TL_GC_COMPUTE, 0
};

/* s with ASCII letters in lower case (the C locale's tolower), malloc'd. */
static char *
lower_dup(const char *s)
{
	size_t i, n = strlen(s);
	char *l = tl_malloc(n + 1);

	for (i = 0; i <= n; i++)
		l[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') :
		    s[i];
	return l;
}

/*
 * The pairs of adjacent bytes of the name being matched, a bit each: a
 * glob matches a name only if the name has every pair of the glob's text
 * between stars, so a glob the name lacks a pair of is passed by without
 * searching the name (a trace's hundred kernel names each tried a
 * hundred patterns, and memmem was most of it).
 */
static unsigned char pairs[65536 / 8];

#define PAIR(a, b) ((unsigned)(unsigned char)(a) << 8 | (unsigned char)(b))

/* Mark (on) or clear the pairs of s[0..n). */
static void
mark_pairs(const char *s, size_t n, int on)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		unsigned k = PAIR(s[i], s[i + 1]);

		if (on)
			pairs[k >> 3] |= (unsigned char)(1u << (k & 7));
		else
			pairs[k >> 3] = 0;
	}
}

/* 1 if the marked name has every pair of glob p between its stars. */
static int
has_pairs(const char *p)
{
	for (; p[0] != '\0' && p[1] != '\0'; p++) {
		unsigned k = PAIR(p[0], p[1]);

		if (p[0] != '*' && p[1] != '*' &&
		    !(pairs[k >> 3] & (1u << (k & 7))))
			return 0;
	}
	return 1;
}

/*
 * The glob p matches all of s[0..n), both in lower case.  With '*' the
 * only wildcard, the text before the first star must start s, the text
 * after the last must end it, and the pieces between may be found from
 * left to right, each at its first place after the one before: a piece
 * found further on only leaves less room for those after it.
 */
static int
glob_lower(const char *p, const char *s, size_t n)
{
	const char *end = s + n, *star = strchr(p, '*'), *last;
	size_t k;

	if (star == NULL)
		return strlen(p) == n && memcmp(p, s, n) == 0;
	k = (size_t)(star - p);
	if (k > n || memcmp(p, s, k) != 0)
		return 0;
	s += k;
	last = strrchr(star, '*');
	k = strlen(last + 1);
	if (k > (size_t)(end - s) || memcmp(last + 1, end - k, k) != 0)
		return 0;
	end -= k;
	for (p = star + 1; p < last; p = star + 1) {
		const char *q;

		star = strchr(p, '*');
		k = (size_t)(star - p);
		if (k == 0)
			continue;
		if ((q = memmem(s, (size_t)(end - s), p, k)) == NULL)
			return 0;
		s = q + k;
	}
	return 1;
}

int
tl_glob_ci(const char *p, const char *s)
{
	char *lp = lower_dup(p), *ls = lower_dup(s);
	int r = glob_lower(lp, ls, strlen(ls));

	free(lp);
	free(ls);
	return r;
}

static int
parse_timeline(const char *s, const char *category, enum tl_gpuclass *c)
{
	if (*s == '\0')
		*c = strcmp(category, "comm") == 0 ? TL_GC_COMM :
		    strcmp(category, "memcpy") == 0 ? TL_GC_MEMCPY :
		    TL_GC_COMPUTE;
	else if (strcmp(s, "compute") == 0)
		*c = TL_GC_COMPUTE;
	else if (strcmp(s, "comm") == 0)
		*c = TL_GC_COMM;
	else if (strcmp(s, "memcpy") == 0)
		*c = TL_GC_MEMCPY;
	else
		return -1;
	return 0;
}

int
tl_kerntable_load(const char *path)
{
	static const char *const col[] = {
		"pattern", "category", "family", "timeline", "ops"
	};
	struct tl_tabfile t;
	int rc;

	free(text);
	text = NULL;
	while (ntab > 0)
		free(tab[--ntab].lower);
	loaded = 1;
	tl_strmap_free(&seen);
	tl_strmap_init(&seen);
	if (tl_tabfile_open(&t, path, tl_default_kernels,
	    "built-in kernels.tsv", col, 5, 3, 0) < 0) {
		tl_warn("%s", t.err);
		return -1;
	}
	while ((rc = tl_tabfile_next(&t)) > 0) {
		struct entry *e;
		const char *pattern = tl_tabfile_get(&t, 0);
		const char *ops = tl_tabfile_get(&t, 4);

		tl_grow(&tab, &captab, ntab + 1, sizeof(*tab));
		e = &tab[ntab];
		e->info.category = tl_tabfile_get(&t, 1);
		e->info.family = tl_tabfile_get(&t, 2);
		if (*pattern == '\0') {
			rc = tl_tabfile_error(&t, t.line, "empty pattern");
			break;
		}
		if (tl_category_index(e->info.category) < 0) {
			rc = tl_tabfile_error(&t, t.line,
			    "unknown category '%s'", e->info.category);
			break;
		}
		if (*e->info.family == '\0') {
			rc = tl_tabfile_error(&t, t.line, "empty family");
			break;
		}
		if (parse_timeline(tl_tabfile_get(&t, 3), e->info.category,
		    &e->info.timeline) < 0) {
			rc = tl_tabfile_error(&t, t.line, "timeline must be "
			    "compute, comm or memcpy");
			break;
		}
		if (*ops != '\0' && strcmp(ops, "yes") != 0) {
			rc = tl_tabfile_error(&t, t.line, "ops must be yes or "
			    "empty");
			break;
		}
		e->info.ops = *ops != '\0';
		e->lower = lower_dup(pattern);
		ntab++;
	}
	if (tl_tabfile_end(&t, rc, &text) < 0) {
		while (ntab > 0)
			free(tab[--ntab].lower);
		return -1;
	}
	return 0;
}

const struct tl_kerninfo *
tl_kerntable_find(const char *name)
{
	size_t i, n = strlen(name);
	int64_t k;
	int added;

	if (!loaded && tl_kerntable_load(NULL) < 0)
		tl_die("the built-in kernel table is broken");
	k = tl_strmap_get(&seen, name, n);
	i = k >= 0 ? seenix[k] : 0;
	if (k < 0) {
		char *low = lower_dup(name);

		mark_pairs(low, n, 1);
		for (i = 0; i < ntab; i++)
			if (has_pairs(tab[i].lower) &&
			    glob_lower(tab[i].lower, low, n))
				break;
		mark_pairs(low, n, 0);
		free(low);
		if (seen.n < SEEN_MAX) {
			k = tl_strmap_add(&seen, name, n, &added);
			tl_grow(&seenix, &capseen, (size_t)k + 1,
			    sizeof(*seenix));
			seenix[k] = i;
		}
	}
	return i < ntab ? &tab[i].info : &unknown;
}
