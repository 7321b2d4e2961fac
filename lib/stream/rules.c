/* See LICENSE file for copyright and license details. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/tabfile.h"
#include "common/util.h"
#include "stream/category.h"
#include "stream/rules.h"

struct rule {
	int kernel;
	char *pattern, *category, *direction;
};

struct tl_rules {
	struct rule *v;
	size_t n, cap;
	int any_kernel;
	struct tl_json j;
	char *name;
	size_t namecap;
};

void
tl_rules_free(struct tl_rules *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].pattern);
		free(r->v[i].category);
		free(r->v[i].direction);
	}
	free(r->v);
	free(r->name);
	tl_json_free(&r->j);
	free(r);
}

/* Check one rule; 0, or -1 with t->err set. */
static int
check(struct tl_tabfile *t)
{
	const char *match = tl_tabfile_get(t, 0), *dir = tl_tabfile_get(t, 3);

	if (strcmp(match, "op") != 0 && strcmp(match, "kernel") != 0)
		return tl_tabfile_error(t, t->line, "match must be 'op' or "
		    "'kernel'");
	if (tl_tabfile_get(t, 1)[0] == '\0')
		return tl_tabfile_error(t, t->line, "empty pattern");
	if (tl_category_index(tl_tabfile_get(t, 2)) < 0)
		return tl_tabfile_error(t, t->line, "unknown category "
		    "(tl-categorize --list shows them)");
	if (dir[0] != '\0' && strcmp(dir, "fwd") != 0 &&
	    strcmp(dir, "bwd") != 0)
		return tl_tabfile_error(t, t->line, "direction must be fwd, bwd "
		    "or empty");
	return 0;
}

struct tl_rules *
tl_rules_load(const char *path)
{
	static const char *const col[] = {
		"match", "pattern", "category", "direction"
	};
	struct tl_tabfile t;
	struct tl_rules *r;
	int rc;

	if (tl_tabfile_open(&t, path, NULL, NULL, col, 4, 3, 0) < 0) {
		tl_warn("%s", t.err);
		return NULL;
	}
	r = tl_calloc(1, sizeof(*r));
	tl_json_init(&r->j);
	while ((rc = tl_tabfile_next(&t)) > 0 && (rc = check(&t)) == 0) {
		struct rule *u;

		tl_grow(&r->v, &r->cap, r->n + 1, sizeof(*r->v));
		u = &r->v[r->n++];
		u->kernel = tl_tabfile_get(&t, 0)[0] == 'k';
		u->pattern = tl_strdup(tl_tabfile_get(&t, 1));
		u->category = tl_strdup(tl_tabfile_get(&t, 2));
		u->direction = tl_strdup(tl_tabfile_get(&t, 3));
		r->any_kernel |= u->kernel;
	}
	tl_tabfile_close(&t);
	if (rc < 0) {
		tl_warn("%s", t.err);
		tl_rules_free(r);
		return NULL;
	}
	return r;
}

/* 1 if a kernel name in the JSON list matches pattern. */
static int
kernel_match(struct tl_rules *r, const char *kernels, const char *pattern)
{
	const char *err;
	int n, i, t, k;

	if (kernels == NULL || kernels[0] == '\0' ||
	    tl_json_parse(&r->j, kernels, strlen(kernels), &err) <= 0 ||
	    tl_json_type(&r->j, 0) != TL_J_ARRAY)
		return 0;
	n = tl_json_size(&r->j, 0);
	for (i = 0, t = 1; i < n; i++, t = tl_json_next(&r->j, t)) {
		size_t len;
		const char *s;

		if (tl_json_type(&r->j, t) != TL_J_OBJECT ||
		    (k = TL_JSON_GET(&r->j, t, "name")) < 0)
			continue;
		s = tl_json_text(&r->j, k, &len);
		tl_grow(&r->name, &r->namecap, len + 1, 1);
		tl_json_unescape(r->name, s, len);
		if (fnmatch(pattern, r->name, 0) == 0)
			return 1;
	}
	return 0;
}

int
tl_rules_match(const struct tl_rules *rc, const char *name,
    const char *kernels, const char **category, const char **direction)
{
	struct tl_rules *r = (struct tl_rules *)rc;	/* scratch buffers */
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct rule *u = &r->v[i];

		if (u->kernel ? kernel_match(r, kernels, u->pattern) :
		    fnmatch(u->pattern, name, 0) == 0) {
			*category = u->category;
			*direction = u->direction;
			return 0;
		}
	}
	return -1;
}
