/* See LICENSE file for copyright and license details. */
/* tl-categorize: keep the op rows of some categories, re-categorising first. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/tsv.h"
#include "common/util.h"
#include "model/family.h"
#include "stream/category.h"
#include "stream/optable.h"
#include "stream/rules.h"
#include "stream/schema.h"
#include "stream/stream.h"

static const char usage_str[] =
    "usage: tl-categorize [--csv] [--invert] [--rules FILE] [CATEGORY ...] "
    "[file ...]\n"
    "       tl-categorize --list [--csv] [--ops FILE]\n";

static const char help_str[] =
    "Keep the rows of an op stream whose category is one of CATEGORY\n"
    "(all rows when none is given).  CATEGORY is a category of the stream\n"
    "or a group: norm (the five norms), sdpa (attention).\n"
    "\n"
    "  -c, --csv         write CSV instead of TSV\n"
    "  -v, --invert      keep the rows of the other categories\n"
    "      --rules FILE  re-categorise with FILE's rules first\n"
    "      --list        print the op table and exit\n"
    "  -O, --ops FILE    with --list, the op table to print\n"
    "  -h, --help        print this help and exit\n"
    "  -V, --version     print the version and exit\n";

static int keep[TL_CAT_MAX];	/* by index in the category table */

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

/* Select a category or group; 0, or -1 when the word names neither. */
static int
select_word(const char *s)
{
	int i, any = 0;

	if ((i = tl_category_index(s)) >= 0) {
		keep[i] = 1;
		return 0;
	}
	for (i = 0; i < tl_ncategories(); i++)
		if (tl_category_in_group(i, s))
			keep[i] = any = 1;
	return any ? 0 : -1;
}

/* A word that is no category: a file if it exists, else a typo. */
static void
not_a_category(const char *s)
{
	struct stat st;

	if (strcmp(s, "-") == 0 || stat(s, &st) == 0)
		return;
	if (strchr(s, '/') == NULL && strchr(s, '.') == NULL) {
		tl_warn("'%s' is neither a category, a group (%s) nor a file; "
		    "tl-categorize --list shows the categories", s,
		    tl_category_groups());
		usage(stderr, TL_EXIT_USAGE);
	}
}

/* Options with a long name only. */
enum { OPT_RULES = 256, OPT_LIST };

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "ops", required_argument, NULL, 'O' },
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "invert", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_rules *rules = NULL;
	struct tl_stream s;
	struct tl_writer w;
	const char *rules_path = NULL, *ops = NULL;
	int ch, csv = 0, invert = 0, list = 0, any = 0, i;
	int cname, ccat, cdir, cker;

	tl_setprogname(argv[0]);
	argv[0] = (char *)tl_progname();
	while ((ch = getopt_long(argc, argv, "chO:vV", longopts, NULL)) != -1)
		switch (ch) {
		case 'c':
			csv = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case OPT_LIST:
			list = 1;
			break;
		case 'O':
			ops = optarg;
			break;
		case OPT_RULES:
			rules_path = optarg;
			break;
		case 'v':
			invert = 1;
			break;
		case 'V':
			tl_version();
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	tl_stdout_buffer();
	tl_w_init(&w, stdout, csv);
	if (list) {
		if (argc > 0) {
			tl_warn("--list takes no category or file");
			usage(stderr, TL_EXIT_USAGE);
		}
		if (tl_optable_load(ops, tl_perf_family_known) < 0)
			return TL_EXIT_ERROR;
		tl_optable_print(&w);
		return tl_close_stdout();
	}
	if (ops != NULL) {
		tl_warn("--ops goes with --list; tl-parse --ops re-categorises "
		    "from the trace");
		usage(stderr, TL_EXIT_USAGE);
	}
	for (i = 0; i < argc; i++) {
		if (select_word(argv[i]) < 0) {
			not_a_category(argv[i]);
			break;
		}
		any = 1;
	}
	for (int k = i; k < argc; k++)
		if (select_word(argv[k]) == 0) {
			tl_warn("'%s': categories come before files", argv[k]);
			usage(stderr, TL_EXIT_USAGE);
		}
	if (rules_path != NULL && (rules = tl_rules_load(rules_path)) == NULL)
		return TL_EXIT_ERROR;
	tl_stream_open(&s, argv + i, argc - i);
	cname = tl_stream_need(&s, tl_col_name(TL_COL_NAME));
	ccat = tl_stream_need(&s, tl_col_name(TL_COL_CATEGORY));
	cdir = tl_stream_col(&s, tl_col_name(TL_COL_DIRECTION));
	cker = tl_stream_col(&s, tl_col_name(TL_COL_KERNELS));
	for (int k = 0; k < s.ncols; k++)
		tl_w_str(&w, s.cols[k]);
	tl_w_eol(&w);
	while (tl_stream_next(&s)) {
		const char *cat = tl_stream_get(&s, ccat), *dir = NULL;
		int c, k;

		if (rules != NULL) {
			const char *rc, *rd;
			char *name = tl_strdup(tl_stream_get(&s, cname));

			if (tl_rules_match(rules, name, tl_stream_get(&s, cker),
			    &rc, &rd) == 0) {
				cat = rc;
				if (rd[0] != '\0')
					dir = rd;
			}
			free(name);
		}
		c = tl_category_index(cat);
		if (any && (c >= 0 && keep[c]) == invert)
			continue;
		if (!any && invert)
			continue;
		for (k = 0; k < s.ncols; k++) {
			if (k == ccat && rules != NULL)
				tl_w_str(&w, cat);
			else if (k == cdir && dir != NULL)
				tl_w_str(&w, dir);
			else
				tl_stream_copy(&s, k, &w);
		}
		tl_w_eol(&w);
	}
	tl_stream_close(&s);
	tl_rules_free(rules);
	return tl_close_stdout();
}
