/* See LICENSE file for copyright and license details. */
/*
 * schema: print the table of stream columns of lib/stream/schema.h for
 * tests/schema.py, which checks it against man/tl-format.5.  One line per
 * table, then one per column, tab-separated:
 *
 *	table	PROGS	OPTION	MAN	SECTION	COL,COL,...	CHANGED,...
 *	column	NAME	TYPE	UNIT
 *
 * PROGS are the programs that write the table, separated by blanks.
 */
#include <stdio.h>

#include "stream/schema.h"

static const char *const types[] = { "text", "json", "int", "us", "real" };

static void
list(const short *cols, int n)
{
	int k;

	for (k = 0; k < n; k++)
		printf("%s%s", k > 0 ? "," : "", tl_col_name(cols[k]));
}

int
main(void)
{
	int t, c;

	for (t = 0; t < TL_TAB_N; t++) {
		const struct tl_tabdef *d = &tl_tables[t];

		printf("table\t%s\t%s\t%s\t%s\t", d->progs, d->option, d->man,
		    d->section);
		list(d->cols, d->ncols);
		putchar('\t');
		list(d->changes, d->nchanges);
		putchar('\n');
	}
	for (c = 0; c < TL_COL_N; c++)
		printf("column\t%s\t%s\t%s\n", tl_col_name(c),
		    types[tl_cols[c].type], tl_cols[c].unit);
	return ferror(stdout) || fflush(stdout) != 0;
}
