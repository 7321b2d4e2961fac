/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "common/tabfile.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/category.h"
#include "stream/kerntable.h"
#include "stream/optable.h"
#include "stream/schema.h"

extern const char tl_default_ops[];	/* ops_table.c, from share/tl/ops.tsv */

struct entry {
	const char *name;
	size_t len;
	int prefix;
	struct tl_opinfo info;
};

static struct entry *tab;
static size_t ntab, captab;
static char *text;
static struct tl_map exact;	/* (hash, length) -> entry */
static size_t *prefixes;	/* the prefix entries, in table order */
static size_t nprefix;

/* The row's model columns: known families, bwd_model "yes" or empty. */
static int
check_models(struct tl_tabfile *t, int (*known)(const char *family))
{
	static const int col[] = { 3, 5 };
	const char *f;
	size_t i;

	for (i = 0; i < sizeof(col) / sizeof(col[0]); i++) {
		f = tl_tabfile_get(t, col[i]);
		if (f[0] != '\0' && !known(f))
			return tl_tabfile_error(t, t->line, "%s: unknown perf-"
			    "model family '%s' (tl-perfmodel(1) lists them)",
			    t->col[col[i]], f);
	}
	f = tl_tabfile_get(t, 4);
	if (f[0] != '\0' && strcmp(f, "yes") != 0)
		return tl_tabfile_error(t, t->line, "bwd_model must be 'yes' "
		    "or empty, not '%s'", f);
	return 0;
}

/* Read the table (FILE, or the built-in one when path is NULL). */
int
tl_optable_load(const char *path, int (*known)(const char *family))
{
	static const char *const col[] = {
		"name", "category", "direction", "model", "bwd_model",
		"extra_model"
	};
	struct tl_tabfile t;
	int rc;

	free(text);
	text = NULL;
	ntab = 0;
	nprefix = 0;
	tl_map_free(&exact);
	if (tl_tabfile_open(&t, path, tl_default_ops, "built-in ops.tsv", col, 6,
	    3, 0) < 0) {
		tl_warn("%s", t.err);
		return -1;
	}
	while ((rc = tl_tabfile_next(&t)) > 0) {
		struct entry *e;
		const char *name = tl_tabfile_get(&t, 0);

		if (tl_category_index(tl_tabfile_get(&t, 1)) < 0) {
			rc = tl_tabfile_error(&t, t.line, "unknown category '%s'",
			    tl_tabfile_get(&t, 1));
			break;
		}
		if (strcmp(tl_tabfile_get(&t, 2), "fwd") != 0 &&
		    strcmp(tl_tabfile_get(&t, 2), "bwd") != 0) {
			rc = tl_tabfile_error(&t, t.line, "direction must be fwd "
			    "or bwd");
			break;
		}
		if ((rc = check_models(&t, known)) < 0)
			break;
		tl_grow(&tab, &captab, ntab + 1, sizeof(*tab));
		e = &tab[ntab++];
		e->name = name;
		e->len = strlen(name);
		e->prefix = e->len > 0 && name[e->len - 1] == '*';
		if (e->prefix)
			e->len--;
		e->info.category = tl_tabfile_get(&t, 1);
		e->info.direction = tl_tabfile_get(&t, 2);
		e->info.model = tl_tabfile_get(&t, 3);
		e->info.bwd_model = strcmp(tl_tabfile_get(&t, 4), "yes") == 0;
		e->info.extra_model = tl_tabfile_get(&t, 5);
	}
	if (tl_tabfile_end(&t, rc, &text) < 0) {
		ntab = 0;
		return -1;
	}
	/* Index the exact names; the first entry of a name wins. */
	for (size_t i = ntab; i-- > 0;)
		if (!tab[i].prefix)
			tl_map_put(&exact, tl_hash(tab[i].name, tab[i].len),
			    tab[i].len, (int64_t)i);
	/* The prefixes apart: a name no entry names tries only them. */
	free(prefixes);
	prefixes = tl_calloc(ntab + 1, sizeof(*prefixes));
	nprefix = 0;
	for (size_t i = 0; i < ntab; i++)
		if (tab[i].prefix)
			prefixes[nprefix++] = i;
	return 0;
}

const struct tl_opinfo *
tl_optable_find(const char *name)
{
	size_t i, n = strlen(name);
	int64_t *k = tl_map_get(&exact, tl_hash(name, n), n);

	if (k != NULL && memcmp(tab[*k].name, name, n) == 0)
		return &tab[*k].info;
	for (i = 0; i < nprefix; i++) {
		const struct entry *e = &tab[prefixes[i]];

		if (strncmp(e->name, name, e->len) == 0)
			return &e->info;
	}
	return NULL;
}

const char *
tl_categorize(const char *name, const char *k)
{
	return tl_categorize_info(tl_optable_find(name), k);
}

const char *
tl_categorize_info(const struct tl_opinfo *o, const char *k)
{
	if (o != NULL)
		return o->category;
	if (k != NULL) {
		const struct tl_kerninfo *ki = tl_kerntable_find(k);

		if (ki->ops)
			return ki->category;
	}
	return "other";
}

void
tl_optable_print(struct tl_writer *w)
{
	size_t i;

	tl_table_header(w, TL_TAB_OPTABLE);
	for (i = 0; i < ntab; i++) {
		tl_w_mem(w, tab[i].name, tab[i].len + (size_t)tab[i].prefix);
		tl_w_str(w, tab[i].info.category);
		tl_w_str(w, tab[i].info.direction);
		tl_w_str(w, tab[i].info.model);
		tl_w_str(w, tab[i].info.bwd_model ? "yes" : "");
		tl_w_str(w, tab[i].info.extra_model);
		tl_w_eol(w);
	}
}
