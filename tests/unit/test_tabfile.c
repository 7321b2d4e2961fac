/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tabfile.h"
#include "unit.h"

static const char *const col[] = { "name", "kind", "note" };

/*
 * Read the built-in text (name and kind required, note optional) into
 * "name/kind/note;" per row, or the error.
 */
static const char *
rows(const char *text, int flags)
{
	static char out[512];
	struct tl_tabfile t;
	size_t n = 0;
	int rc;

	out[0] = '\0';
	if ((rc = tl_tabfile_open(&t, NULL, text, "built-in t.tsv", col, 3, 2,
	    flags)) == 0)
		while ((rc = tl_tabfile_next(&t)) > 0)
			n += (size_t)snprintf(out + n, sizeof(out) - n,
			    "%s/%s/%s;", tl_tabfile_get(&t, 0),
			    tl_tabfile_get(&t, 1), tl_tabfile_get(&t, 2));
	tl_tabfile_close(&t);
	if (rc < 0)
		snprintf(out, sizeof(out), "%s", t.err);
	return out;
}

int
main(void)
{
	struct tl_tabfile t;
	/* The built-in text read, or the error. */
	static const struct {
		const char *text;
		int flags;
		const char *want;
	} v[] = {
		/* Comments, blank lines, CR LF, a BOM, any column order. */
		{ "\xef\xbb\xbf# c\n\nkind\tname\r\n# x\ta\nk1\tn1\r\n\nk2\tn2",
		    0, "n1/k1/;n2/k2/;" },
		/* Unknown columns are ignored; optional ones read. */
		{ "name\textra\tkind\tnote\na\tz\tb\tc\n", 0, "a/b/c;" },
		/* A row may leave out the field of an optional column... */
		{ "name\tkind\tnote\na\tb\tc\nd\te\n", 0, "a/b/c;d/e/;" },
		/* ...but not of a required or unread one, nor add one. */
		{ "name\tnote\tkind\na\tb\n", 0,
		    "built-in t.tsv:2: 2 fields, the header has 3: no value "
		    "for 'kind'" },
		{ "name\tkind\textra\na\tb\n", 0,
		    "built-in t.tsv:2: 2 fields, the header has 3: no value "
		    "for 'extra'" },
		{ "name\tkind\na\tb\tc\n", 0,
		    "built-in t.tsv:2: 3 fields, the header has 2: field 3 "
		    "('c') has no column" },
		{ "name\tkind\na\n", 0,
		    "built-in t.tsv:2: 1 field, the header has 2: no value for "
		    "'kind'" },
		/* The header. */
		{ "", 0, "built-in t.tsv:1: no header line (want name, kind, "
		    "note)" },
		{ "# only\n\n", 0, "built-in t.tsv:3: no header line (want "
		    "name, kind, note)" },
		{ "# h\nname\tnote\n", 0, "built-in t.tsv:2: the header has "
		    "no column 'kind' (want name, kind, note)" },
		{ "name\tkind\tname\n", 0,
		    "built-in t.tsv:1: column 'name' twice in the header" },
		/* A table has rows. */
		{ "name\tkind\n", 0,
		    "built-in t.tsv:1: no rows after the header" },
		{ "# h\nname\tkind\n# none\n", 0,
		    "built-in t.tsv:3: no rows after the header" },
		/* More columns it does not know than it knows: not a table. */
		{ "trace\tname\tuid\tkind\tts_us\n", 0, "built-in t.tsv:1: 3 "
		    "of 5 columns are not this table's, such as 'trace' (want "
		    "name, kind, note): not a table of this kind" },
		/* Escapes only when asked for. */
		{ "name\tkind\na\\tb\\\\c\\x\tk\n", 0,
		    "a\\tb\\\\c\\x/k/;" },
		{ "name\tkind\na\\tb\\\\c\\x\tk\n", TL_TABFILE_UNESCAPE,
		    "a\tb\\c\\x/k/;" },
	};
	const char *path, *field;
	char *kept;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECK_STR(rows(v[i].text, v[i].flags), v[i].want);

	/* A file: the same, with its name and line in messages. */
	path = unit_tmpfile("name\tkind\nx\ty\n", 14);
	CHECK(tl_tabfile_open(&t, path, "ignored", "built-in", col, 3, 2,
	    0) == 0);
	CHECK(tl_tabfile_next(&t) == 1 && t.line == 2);
	CHECK_STR(tl_tabfile_get(&t, 1), "y");
	CHECK(tl_tabfile_error(&t, t.line, "kind: bad '%s'",
	    tl_tabfile_get(&t, 1)) == -1);
	CHECK(strncmp(t.err, path, strlen(path)) == 0 &&
	    strcmp(t.err + strlen(path), ":2: kind: bad 'y'") == 0);
	/* The caller may keep the text its fields point into. */
	field = tl_tabfile_get(&t, 0);
	kept = tl_tabfile_keep(&t);
	CHECK(tl_tabfile_next(&t) == 0);
	tl_tabfile_close(&t);
	CHECK(field > kept && strcmp(field, "x") == 0);
	free(kept);
	unlink(path);
	path = unit_tmpfile("name\tkind\nx\n\0y\n", 15);
	CHECK(tl_tabfile_open(&t, path, NULL, NULL, col, 3, 2, 0) == -1);
	CHECK(strstr(t.err, ":3: NUL byte: not a text file") != NULL);
	tl_tabfile_close(&t);
	unlink(path);
	CHECK(tl_tabfile_open(&t, path, NULL, NULL, col, 3, 2, 0) == -1);
	CHECK(strstr(t.err, ": No such file or directory") != NULL);
	tl_tabfile_close(&t);
	return unit_done("test_tabfile");
}
