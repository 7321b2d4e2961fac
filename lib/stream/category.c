/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tabfile.h"
#include "common/util.h"
#include "stream/category.h"

extern const char tl_default_categories[];	/* categories_table.c */

enum { COL_VALUE, COL_TITLE, COL_FILE, COL_COLOUR, COL_GROUPS, COL_MS,
	COL_DESC, NCOL };

static struct tl_category cat[TL_CAT_MAX];
static int ncat = -1;		/* -1: nothing loaded yet */
static char *text;
static char groups[256];	/* tl_category_groups() */

/* n bytes of lower-case letters, digits and '_'; n > 0. */
static int
valid_word(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return n > 0;
}

static int
valid_colour(const char *s)
{
	int i;

	if (s[0] != '#' || strlen(s) != 7)
		return 0;
	for (i = 1; i < 7; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* 1 if the comma-separated list holds the n bytes of word. */
static int
in_list(const char *list, const char *word, size_t n)
{
	const char *e;

	for (; *list != '\0'; list = *e != '\0' ? e + 1 : e) {
		e = list + strcspn(list, ",");
		if ((size_t)(e - list) == n && strncmp(list, word, n) == 0)
			return 1;
	}
	return 0;
}

/* Read row n into c[n] and check it; 0, or -1 with t->err set. */
static int
row(struct tl_tabfile *t, struct tl_category *c, int n)
{
	struct tl_category *k = &c[n];
	const char *ms = tl_tabfile_get(t, COL_MS), *g, *e;
	char *end;
	int i;

	if (n == TL_CAT_MAX)
		return tl_tabfile_error(t, t->line, "more than %d categories",
		    TL_CAT_MAX);
	k->value = tl_tabfile_get(t, COL_VALUE);
	k->title = tl_tabfile_get(t, COL_TITLE);
	k->file = tl_tabfile_get(t, COL_FILE);
	k->colour = tl_tabfile_get(t, COL_COLOUR);
	k->groups = tl_tabfile_get(t, COL_GROUPS);
	k->description = tl_tabfile_get(t, COL_DESC);
	k->bottleneck_ms = strtod(ms, &end);
	if (!valid_word(k->value, strlen(k->value)))
		return tl_tabfile_error(t, t->line, "value: '%s' is not lower "
		    "case letters, digits and '_'", k->value);
	if (!valid_word(k->file, strlen(k->file)))
		return tl_tabfile_error(t, t->line, "file: '%s' is not lower "
		    "case letters, digits and '_'", k->file);
	for (i = 0; i < n; i++) {
		if (strcmp(c[i].value, k->value) == 0)
			return tl_tabfile_error(t, t->line, "value: '%s' twice",
			    k->value);
		if (strcmp(c[i].file, k->file) == 0)
			return tl_tabfile_error(t, t->line, "file: '%s' is the "
			    "file of %s too", k->file, c[i].value);
	}
	if (k->title[0] == '\0' || k->description[0] == '\0')
		return tl_tabfile_error(t, t->line, "%s: empty",
		    k->title[0] == '\0' ? "title" : "description");
	if (!valid_colour(k->colour))
		return tl_tabfile_error(t, t->line, "colour: '%s' is not #rrggbb "
		    "(lower case)", k->colour);
	for (g = k->groups; *g != '\0'; g = *e != '\0' ? e + 1 : e) {
		e = g + strcspn(g, ",");
		if (!valid_word(g, (size_t)(e - g)))
			return tl_tabfile_error(t, t->line, "groups: '%s' is not "
			    "comma-separated words", k->groups);
	}
	if (ms[0] == '\0' || *end != '\0' || !(k->bottleneck_ms > 0) ||
	    k->bottleneck_ms > 1e9)
		return tl_tabfile_error(t, t->line, "bottleneck_ms: not a "
		    "positive number of ms '%s'", ms);
	return 0;
}

/* A group must not be a category: "tl-categorize X" would be ambiguous. */
static int
check_groups(struct tl_tabfile *t, const struct tl_category *c, int n)
{
	const char *g, *e;
	int i, j;

	for (i = 0; i < n; i++)
		for (g = c[i].groups; *g != '\0'; g = *e != '\0' ? e + 1 : e) {
			e = g + strcspn(g, ",");
			for (j = 0; j < n; j++)
				if (strlen(c[j].value) == (size_t)(e - g) &&
				    strncmp(c[j].value, g, (size_t)(e - g)) == 0)
					return tl_tabfile_error(t, 0, "group '%s' "
					    "of %s is a category", c[j].value,
					    c[i].value);
		}
	for (i = 0; i < n; i++)
		if (strcmp(c[i].value, "other") == 0)
			return 0;
	return tl_tabfile_error(t, 0, "no category 'other' (what no table "
	    "names)");
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "a, b": the distinct groups, sorted. */
static void
list_groups(const struct tl_category *c, int n)
{
	char all[sizeof(groups)], *w[TL_CAT_MAX * 4], *p, *save;
	size_t len = 0;
	int i, nw = 0;

	all[0] = groups[0] = '\0';
	for (i = 0; i < n; i++)
		if (c[i].groups[0] != '\0' && len < sizeof(all))
			len += (size_t)snprintf(all + len, sizeof(all) - len,
			    ",%s", c[i].groups);
	for (p = strtok_r(all, ",", &save); p != NULL &&
	    nw < (int)(sizeof(w) / sizeof(w[0])); p = strtok_r(NULL, ",", &save))
		w[nw++] = p;
	qsort(w, (size_t)nw, sizeof(*w), cmp_str);
	for (i = 0, len = 0; i < nw && len < sizeof(groups); i++)
		if (i == 0 || strcmp(w[i], w[i - 1]) != 0)
			len += (size_t)snprintf(groups + len,
			    sizeof(groups) - len, "%s%s", len > 0 ? ", " : "",
			    w[i]);
}

int
tl_categories_load(const char *path)
{
	static const char *const col[NCOL] = {
		"value", "title", "file", "colour", "groups", "bottleneck_ms",
		"description"
	};
	struct tl_category c[TL_CAT_MAX + 1];
	struct tl_tabfile t;
	int n = 0, rc;

	if (tl_tabfile_open(&t, path, tl_default_categories,
	    "built-in categories.tsv", col, NCOL, NCOL, 0) < 0) {
		tl_warn("%s", t.err);
		return -1;
	}
	while ((rc = tl_tabfile_next(&t)) > 0 && (rc = row(&t, c, n)) == 0)
		n++;
	if (rc == 0)
		rc = check_groups(&t, c, n);
	if (rc < 0) {
		tl_warn("%s", t.err);
		tl_tabfile_close(&t);
		return -1;
	}
	free(text);
	text = tl_tabfile_keep(&t);
	tl_tabfile_close(&t);
	memcpy(cat, c, (size_t)n * sizeof(*c));
	ncat = n;
	list_groups(cat, ncat);
	return 0;
}

/* Load the built-in table on first use. */
static void
ensure(void)
{
	if (ncat < 0 && tl_categories_load(NULL) < 0)
		tl_die("the built-in category table does not load");
}

int
tl_ncategories(void)
{
	ensure();
	return ncat;
}

const struct tl_category *
tl_category(int c)
{
	ensure();
	return &cat[c];
}

int
tl_category_index(const char *value)
{
	int i;

	ensure();
	/* The first byte first: this runs for every row. */
	for (i = 0; i < ncat; i++)
		if (cat[i].value[0] == value[0] &&
		    strcmp(cat[i].value, value) == 0)
			return i;
	return -1;
}

int
tl_category_parse(const char *s)
{
	int i;

	ensure();
	for (i = 0; i < ncat; i++)
		if ((s[0] == cat[i].value[0] && strcmp(s, cat[i].value) == 0) ||
		    (s[0] == cat[i].file[0] && strcmp(s, cat[i].file) == 0))
			return i;
	return -1;
}

int
tl_category_is(int c, const char *value)
{
	ensure();
	/* The first byte first: this runs for every row, mostly unequal. */
	return c >= 0 && c < ncat && cat[c].value[0] == value[0] &&
	    strcmp(cat[c].value, value) == 0;
}

int
tl_category_in_group(int c, const char *group)
{
	ensure();
	return c >= 0 && c < ncat && in_list(cat[c].groups, group,
	    strlen(group));
}

const char *
tl_category_groups(void)
{
	ensure();
	return groups;
}
