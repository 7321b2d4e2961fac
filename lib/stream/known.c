/* See LICENSE file for copyright and license details. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common/tabfile.h"
#include "common/util.h"
#include "stream/known.h"

static long
find(const struct tl_known *k, const char *key, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (strcmp(k->row[i].f[0], key) == 0)
			return (long)i;
	return -1;
}

/* Read one table into k: its rows appended (user: replacing). */
static int
read_table(struct tl_known *k, const char *path, const char *text,
    const char *builtin, const char *const *col, int nrequired, int user,
    size_t nbuiltin)
{
	struct tl_tabfile t;
	size_t first = k->n;
	int rc, c;

	if (tl_tabfile_open(&t, path, text, builtin, col, k->ncol, nrequired,
	    TL_TABFILE_UNESCAPE) < 0) {
		tl_warn("%s", t.err);
		return -1;
	}
	while ((rc = tl_tabfile_next(&t)) > 0) {
		struct tl_known_row r;
		long at;

		memset(&r, 0, sizeof(r));
		for (c = 0; c < k->ncol; c++)
			r.f[c] = tl_tabfile_get(&t, c);
		r.user = user;
		if (r.f[0][0] == '\0') {
			rc = tl_tabfile_error(&t, t.line, "%s: empty key",
			    col[0]);
			break;
		}
		if (find(k, r.f[0], first, k->n) >= 0) {
			rc = tl_tabfile_error(&t, t.line, "%s '%s' twice",
			    col[0], r.f[0]);
			break;
		}
		if (user && (at = find(k, r.f[0], 0, nbuiltin)) >= 0) {
			if (k->row[at].user) {
				rc = tl_tabfile_error(&t, t.line,
				    "%s '%s' twice", col[0], r.f[0]);
				break;
			}
			k->row[at] = r;
			continue;
		}
		tl_grow(&k->row, &k->cap, k->n + 1, sizeof(*k->row));
		k->row[k->n++] = r;
	}
	return tl_tabfile_end(&t, rc, &k->text[user]);
}

int
tl_known_load(struct tl_known *k, const char *text, const char *builtin,
    const char *path, const char *const *col, int ncol, int nrequired)
{
	size_t nb;

	memset(k, 0, sizeof(*k));
	if (ncol < 1 || ncol > TL_KNOWN_MAXCOL)
		tl_die("tl_known_load: %d columns", ncol);
	k->ncol = ncol;
	if (read_table(k, NULL, text, builtin, col, nrequired, 0, 0) < 0)
		return -1;
	nb = k->n;
	if (path == NULL)
		return 0;
	if (read_table(k, path, NULL, NULL, col, nrequired, 1, nb) < 0)
		return -1;
	/* The user's new rows first. */
	if (k->n > nb) {
		struct tl_known_row *v = tl_malloc(k->n * sizeof(*v));

		memcpy(v, k->row + nb, (k->n - nb) * sizeof(*v));
		memcpy(v + (k->n - nb), k->row, nb * sizeof(*v));
		free(k->row);
		k->row = v;
		k->cap = k->n;
	}
	return 0;
}

void
tl_known_free(struct tl_known *k)
{
	free(k->row);
	free(k->text[0]);
	free(k->text[1]);
	memset(k, 0, sizeof(*k));
}

const char *
tl_known_get(const struct tl_known *k, size_t i, int c)
{
	if (i >= k->n || c < 0 || c >= k->ncol || k->row[i].f[c] == NULL)
		return "";
	return k->row[i].f[c];
}

int
tl_known_match(const char *pat, const char *s)
{
	char buf[512];
	const char *p = pat, *bar;

	if (pat[0] == '\0')
		return 1;
	for (;;) {
		size_t n;

		bar = strchr(p, '|');
		n = bar != NULL ? (size_t)(bar - p) : strlen(p);
		if (n < sizeof(buf)) {
			memcpy(buf, p, n);
			buf[n] = '\0';
			if (fnmatch(buf, s, 0) == 0)
				return 1;
		}
		if (bar == NULL)
			return 0;
		p = bar + 1;
	}
}
