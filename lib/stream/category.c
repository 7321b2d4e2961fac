/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/category.h"
#include "stream/schema.h"

extern const char tl_default_ops[];	/* ops_table.c, from share/tl/ops.tsv */

static const char *const categories[] = {
	"gemm", "conv", "attention", "batchnorm", "layernorm", "groupnorm",
	"instancenorm", "rmsnorm", "softmax", "elementwise", "reduce", "comm",
	"memcpy", "triton", "other", NULL
};

struct entry {
	char *name;
	size_t len;
	int prefix;
	struct tl_opinfo info;
};

static struct entry *tab;
static size_t ntab, captab;
static char *text;
static struct tl_map exact;	/* (hash, length) -> entry */

const char *const *
tl_categories(void)
{
	return categories;
}

int
tl_is_category(const char *s)
{
	size_t i;

	for (i = 0; categories[i] != NULL; i++)
		if (strcmp(categories[i], s) == 0)
			return 1;
	return 0;
}

static int
parse(const char *src, const char *where)
{
	char *line, *next;
	long lineno = 0;

	free(text);
	text = tl_strdup(src);
	ntab = 0;
	tl_map_free(&exact);
	for (line = text; line != NULL && *line != '\0'; line = next) {
		char *f[6];
		int nf = 0;
		struct entry *e;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		lineno++;
		if (lineno == 1 || *line == '\0')
			continue;	/* header */
		f[nf++] = line;
		for (char *p = line; *p != '\0' && nf < 6; p++)
			if (*p == '\t') {
				*p = '\0';
				f[nf++] = p + 1;
			}
		if (nf < 3) {
			tl_warn("%s:%ld: expected name, category, direction",
			    where, lineno);
			return -1;
		}
		if (!tl_is_category(f[1])) {
			tl_warn("%s:%ld: unknown category '%s'", where, lineno,
			    f[1]);
			return -1;
		}
		if (strcmp(f[2], "fwd") != 0 && strcmp(f[2], "bwd") != 0) {
			tl_warn("%s:%ld: direction must be fwd or bwd", where,
			    lineno);
			return -1;
		}
		tl_grow(&tab, &captab, ntab + 1, sizeof(*tab));
		e = &tab[ntab++];
		e->name = f[0];
		e->len = strlen(f[0]);
		e->prefix = e->len > 0 && f[0][e->len - 1] == '*';
		if (e->prefix)
			e->len--;
		e->info.category = f[1];
		e->info.direction = f[2];
		e->info.model = nf > 3 ? f[3] : "";
		e->info.bwd_model = nf > 4 && strcmp(f[4], "yes") == 0;
		e->info.extra_model = nf > 5 ? f[5] : "";
	}
	/* Index the exact names; the first entry of a name wins. */
	for (size_t i = ntab; i-- > 0;)
		if (!tab[i].prefix)
			tl_map_put(&exact, tl_hash(tab[i].name, tab[i].len),
			    tab[i].len, (int64_t)i);
	return 0;
}

int
tl_optable_load(const char *path)
{
	char *buf;
	int rc;

	if (path == NULL)
		return parse(tl_default_ops, "built-in op table");
	if ((buf = tl_slurp(path, NULL)) == NULL) {
		tl_warn("%s:", path);
		return -1;
	}
	rc = parse(buf, path);
	free(buf);
	return rc;
}

const struct tl_opinfo *
tl_optable_find(const char *name)
{
	size_t i, n = strlen(name);
	int64_t *k = tl_map_get(&exact, tl_hash(name, n), n);

	if (k != NULL && memcmp(tab[*k].name, name, n) == 0)
		return &tab[*k].info;
	for (i = 0; i < ntab; i++)
		if (tab[i].prefix && strncmp(tab[i].name, name, tab[i].len) == 0)
			return &tab[i].info;
	return NULL;
}

const char *
tl_categorize(const char *name, const char *k)
{
	const struct tl_opinfo *o = tl_optable_find(name);

	if (o != NULL)
		return o->category;
	if (k != NULL && strncmp(k, "void at::native", 15) == 0) {
		if (strstr(k, "elementwise") != NULL ||
		    strstr(k, "multi_tensor_apply") != NULL)
			return "elementwise";
		if (strstr(k, "reduce") != NULL)
			return "reduce";
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
