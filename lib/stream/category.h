/* See LICENSE file for copyright and license details. */
#ifndef TL_CATEGORY_H
#define TL_CATEGORY_H

/*
 * The categories of the op stream (its category column): the table
 * share/tl/categories.tsv, built into every program, is their only list.
 * A category is known by its index in the table, which is also the order
 * of the reports; a row holds
 *
 *	value		what the stream's category column says
 *	title		its name in reports ("GEMM", "Collective communication")
 *	file		the stem of its files in tl-findings -o
 *			(category_findings/<file>_findings.md, ...)
 *	colour		its colour in the charts, #rrggbb
 *	groups		the groups it belongs to, comma-separated (tl-categorize
 *			takes a group for all its members: norm, sdpa)
 *	bottleneck_ms	the time above which a slow op of it is a bottleneck
 *	description	what its ops do, in a few words
 *
 * Adding a category is one row of the table (and its line in
 * tl-format(5), which a test compares with the table).
 */

#define TL_CAT_MAX	32	/* categories a table may hold */

struct tl_category {
	const char *value, *title, *file, *colour, *groups, *description;
	double bottleneck_ms;
};

/*
 * Load the built-in table, or FILE when path is not NULL; 0, or -1 after
 * printing "prog: FILE:LINE: what" (the previous table stays).  The other
 * functions load the built-in table on first use.
 */
int tl_categories_load(const char *path);
/* The number of categories. */
int tl_ncategories(void);
/* Category c, 0 <= c < tl_ncategories(). */
const struct tl_category *tl_category(int c);
/* The index of a category value, or -1. */
int tl_category_index(const char *value);
/* The index of a category from its value or its file stem, or -1. */
int tl_category_parse(const char *s);
/* 1 if category c has this value. */
int tl_category_is(int c, const char *value);
/* 1 if category c belongs to the group. */
int tl_category_in_group(int c, const char *group);
/* The groups, sorted and comma-separated: "norm, sdpa". */
const char *tl_category_groups(void);

#endif
