/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tabfile.h"
#include "common/util.h"

int
tl_tabfile_error(struct tl_tabfile *t, long line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line > 0)
		n = snprintf(t->err, sizeof(t->err), "%s:%ld: ", t->where,
		    line);
	else
		n = snprintf(t->err, sizeof(t->err), "%s: ", t->where);
	if (n < 0 || (size_t)n >= sizeof(t->err))
		return -1;
	va_start(ap, fmt);
	vsnprintf(t->err + n, sizeof(t->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Undo the stream's escapes in place: \t \n \r \\; others stay. */
static void
unescape(char *s)
{
	char *d = s;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			switch (s[1]) {
			case 't': *d++ = '\t'; s++; continue;
			case 'n': *d++ = '\n'; s++; continue;
			case 'r': *d++ = '\r'; s++; continue;
			case '\\': *d++ = '\\'; s++; continue;
			default: break;
			}
		}
		*d++ = *s;
	}
	*d = '\0';
}

/* "a, b, c": the columns, for messages. */
static const char *
want(const struct tl_tabfile *t)
{
	static char buf[256];
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < t->ncol && n < sizeof(buf); k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    k > 0 ? ", " : "", t->col[k]);
	return buf;
}

int
tl_tabfile_open(struct tl_tabfile *t, const char *path, const char *text,
    const char *builtin, const char *const *col, int ncol, int nrequired,
    int flags)
{
	size_t n;
	char *z;

	memset(t, 0, sizeof(*t));
	t->where = path != NULL ? path : builtin;
	t->col = col;
	t->ncol = ncol;
	t->nrequired = nrequired;
	t->flags = flags;
	if (ncol > TL_TABFILE_MAXCOL || nrequired > ncol)
		return tl_tabfile_error(t, 0, "too many columns");
	if (path == NULL)
		t->text = tl_strdup(text);
	else if ((t->text = tl_slurp(path, &n)) == NULL)
		return tl_tabfile_error(t, 0, "%s", strerror(errno));
	else if ((z = memchr(t->text, '\0', n)) != NULL) {
		long line = 1;

		for (char *p = t->text; p < z; p++)
			line += *p == '\n';
		free(t->text);		/* the callers close only after 0 */
		t->text = NULL;
		return tl_tabfile_error(t, line, "NUL byte: not a text file");
	}
	t->next = t->text;
	if (strncmp(t->next, "\xef\xbb\xbf", 3) == 0)
		t->next += 3;	/* a UTF-8 byte order mark */
	return 0;
}

/* The header: find the columns by name. */
static int
header(struct tl_tabfile *t)
{
	int i, k, unknown, first;

	for (k = 0; k < t->ncol; k++) {
		t->at[k] = -1;
		for (i = 0; i < t->nf; i++)
			if (strcmp(t->f[i], t->col[k]) == 0) {
				if (t->at[k] >= 0)
					return tl_tabfile_error(t, t->line,
					    "column '%s' twice in the header",
					    t->col[k]);
				t->at[k] = i;
			}
		if (t->at[k] < 0 && k < t->nrequired)
			return tl_tabfile_error(t, t->line, "the header has no "
			    "column '%s' (want %s)", t->col[k], want(t));
	}
	for (i = 0, unknown = 0, first = -1; i < t->nf; i++) {
		for (k = 0; k < t->ncol; k++)
			if (strcmp(t->f[i], t->col[k]) == 0)
				break;
		if (k == t->ncol && unknown++ == 0)
			first = i;
	}
	if (unknown > t->nf - unknown)	/* a stream, not a table */
		return tl_tabfile_error(t, t->line, "%d of %d columns are not "
		    "this table's, such as '%.40s' (want %s): not a table of "
		    "this kind", unknown, t->nf, t->f[first], want(t));
	t->nhdr = t->nf;
	memcpy(t->hdr, t->f, sizeof(t->hdr[0]) * (size_t)t->nf);
	return 0;
}

/* A row may leave out trailing fields of optional columns only. */
static int
fields_ok(const struct tl_tabfile *t)
{
	int i, k;

	if (t->nf > t->nhdr)
		return 0;
	for (i = t->nf; i < t->nhdr; i++) {
		for (k = t->nrequired; k < t->ncol; k++)
			if (t->at[k] == i)
				break;
		if (k == t->ncol)
			return 0;	/* a required or unread column */
	}
	return 1;
}

int
tl_tabfile_next(struct tl_tabfile *t)
{
	char *line;
	size_t n;
	int i;

	while ((line = t->next) != NULL) {
		t->next = strchr(line, '\n');
		if (t->next != NULL)
			*t->next++ = '\0';
		else if (*line == '\0')
			break;
		t->line++;
		n = strlen(line);
		if (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		t->nf = 0;
		t->f[t->nf++] = line;
		for (char *p = line; *p != '\0'; p++)
			if (*p == '\t') {
				if (t->nf == TL_TABFILE_MAXCOL)
					return tl_tabfile_error(t, t->line,
					    "more than %d columns",
					    TL_TABFILE_MAXCOL);
				*p = '\0';
				t->f[t->nf++] = p + 1;
			}
		if (t->flags & TL_TABFILE_UNESCAPE)
			for (i = 0; i < t->nf; i++)
				unescape(t->f[i]);
		if (t->nhdr == 0) {
			if (header(t) < 0)
				return -1;
			continue;
		}
		if (!fields_ok(t) && t->nf < t->nhdr)
			return tl_tabfile_error(t, t->line, "%d field%s, the "
			    "header has %d: no value for '%s'", t->nf,
			    t->nf == 1 ? "" : "s", t->nhdr, t->hdr[t->nf]);
		if (!fields_ok(t))
			return tl_tabfile_error(t, t->line, "%d fields, the "
			    "header has %d: field %d ('%s') has no column",
			    t->nf, t->nhdr, t->nhdr + 1, t->f[t->nhdr]);
		t->nrows++;
		return 1;
	}
	t->next = NULL;
	if (t->nhdr == 0)
		return tl_tabfile_error(t, t->line + 1, "no header line (want "
		    "%s)", want(t));
	if (t->nrows == 0)
		return tl_tabfile_error(t, t->line, "no rows after the header");
	return 0;
}

const char *
tl_tabfile_get(const struct tl_tabfile *t, int k)
{
	int i = t->at[k];

	return i >= 0 && i < t->nf ? t->f[i] : "";
}

char *
tl_tabfile_keep(struct tl_tabfile *t)
{
	char *s = t->text;

	t->text = NULL;
	return s;
}

void
tl_tabfile_close(struct tl_tabfile *t)
{
	free(t->text);
	t->text = t->next = NULL;
}

int
tl_tabfile_end(struct tl_tabfile *t, int rc, char **text)
{
	*text = tl_tabfile_keep(t);
	tl_tabfile_close(t);
	if (rc < 0) {
		tl_warn("%s", t->err);
		return -1;
	}
	return 0;
}
