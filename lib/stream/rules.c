/* See LICENSE file for copyright and license details. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
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

static void
bad(const char *path, long line, const char *what, struct tl_rules *r,
    FILE *fp, char *buf)
{
	tl_warn("%s:%ld: %s", path, line, what);
	tl_rules_free(r);
	free(buf);
	fclose(fp);
}

struct tl_rules *
tl_rules_load(const char *path)
{
	struct tl_rules *r;
	FILE *fp;
	char *buf = NULL, *f[5];
	size_t cap = 0;
	ssize_t len;
	long line = 0;
	int header = 0;

	if ((fp = fopen(path, "r")) == NULL) {
		tl_warn("%s:", path);
		return NULL;
	}
	r = tl_calloc(1, sizeof(*r));
	tl_json_init(&r->j);
	while ((len = getline(&buf, &cap, fp)) >= 0) {
		int nf = 0;
		struct rule *u;

		line++;
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (len == 0 || buf[0] == '#')
			continue;
		f[nf++] = buf;
		for (char *p = buf; *p != '\0' && nf < 5; p++)
			if (*p == '\t') {
				*p = '\0';
				f[nf++] = p + 1;
			}
		if (!header) {
			header = 1;
			if (nf < 3 || strcmp(f[0], "match") != 0 ||
			    strcmp(f[1], "pattern") != 0 ||
			    strcmp(f[2], "category") != 0) {
				bad(path, line, "expected the header "
				    "'match<TAB>pattern<TAB>category<TAB>direction'",
				    r, fp, buf);
				return NULL;
			}
			continue;
		}
		if (nf < 3 || nf > 4) {
			bad(path, line, "expected 3 or 4 tab-separated fields",
			    r, fp, buf);
			return NULL;
		}
		if (strcmp(f[0], "op") != 0 && strcmp(f[0], "kernel") != 0) {
			bad(path, line, "match must be 'op' or 'kernel'", r, fp,
			    buf);
			return NULL;
		}
		if (f[1][0] == '\0') {
			bad(path, line, "empty pattern", r, fp, buf);
			return NULL;
		}
		if (!tl_is_category(f[2])) {
			bad(path, line, "unknown category (tl-categorize --list "
			    "shows them)", r, fp, buf);
			return NULL;
		}
		if (nf == 4 && f[3][0] != '\0' && strcmp(f[3], "fwd") != 0 &&
		    strcmp(f[3], "bwd") != 0) {
			bad(path, line, "direction must be fwd, bwd or empty", r,
			    fp, buf);
			return NULL;
		}
		tl_grow(&r->v, &r->cap, r->n + 1, sizeof(*r->v));
		u = &r->v[r->n++];
		u->kernel = f[0][0] == 'k';
		u->pattern = tl_strdup(f[1]);
		u->category = tl_strdup(f[2]);
		u->direction = tl_strdup(nf == 4 ? f[3] : "");
		r->any_kernel |= u->kernel;
	}
	if (ferror(fp)) {
		tl_warn("%s: read error:", path);
		tl_rules_free(r);
		r = NULL;
	}
	free(buf);
	fclose(fp);
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
