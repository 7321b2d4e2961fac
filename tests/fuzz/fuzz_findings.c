/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as an enriched op stream (TSV or CSV)
 * through what tl-findings does with one: the loader of lib/analysis/findings
 * (signatures, categories, timelines, idle gaps, the rules), the fair,
 * rough and category reports of lib/render/report, and for a quarter of the
 * inputs the -o directory of lib/render/outdir with the SVG charts of
 * lib/render/svgchart.
 *
 * The loader ends the program on bad input (tl_die, exit 1), as
 * tl-findings must; the harness catches that (harness.h) and frees what
 * the load made with tl_findings_free.  Past the loader nothing may fail.
 *
 * Options come from a hash of the input: the rule thresholds (defaults,
 * or everything a bottleneck), the top-N of the tables, a title, the
 * charts link and the category of the category report.
 *
 * Checked besides the sanitizers: the worst priority is in range; in
 * every Markdown report each table row has its header's number of cells
 * (a name with '|' or a newline must not break a table); every JSON file
 * of the directory is one JSON value as RFC 8259 has it (tl_json_valid:
 * strict syntax, UTF-8, no control characters); every CSV file has the
 * same number of fields on each line; every SVG file is UTF-8 without
 * control characters other than newline and is one <svg> element.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analyst.h"
#include "analysis/findings.h"
#include "analysis/findrules.h"
#include "common/json.h"
#include "common/util.h"
#include "render/outdir.h"
#include "render/report.h"
#include "stream/category.h"

#define HARNESS "fuzz_findings"
#include "harness.h"

static char outdir[4096];

/* Remove the -o directory at exit (check_tree empties it per input). */
static void
rm_outdir(void)
{
	rmdir(outdir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	tl_setprogname(HARNESS);
	fz_open_inputs();
	snprintf(outdir, sizeof(outdir), "%s/%s.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", HARNESS);
	if (mkdtemp(outdir) == NULL)
		tl_die("mkdtemp %s:", outdir);
	atexit(rm_outdir);
	fz_catch();
	return 0;
}

/*
 * Markdown: in each table (lines that start with '|'), every line has as
 * many unescaped '|' as the first.
 */
static void
check_markdown(const char *s, size_t n)
{
	size_t i, start;
	long pipes, want = -1;

	CHECK(memchr(s, '\0', n) == NULL);
	for (start = 0; start < n; start = i + 1) {
		pipes = 0;
		for (i = start; i < n && s[i] != '\n'; i++)
			if (s[i] == '|' && (i == start || s[i - 1] != '\\'))
				pipes++;
		if (s[start] != '|') {
			want = -1;
			continue;
		}
		if (want < 0)
			want = pipes;
		if (pipes != want) {
			fprintf(stderr, HARNESS ": table row with %ld cells, "
			    "the header has %ld: %.*s\n", pipes - 1, want - 1,
			    (int)(i - start), s + start);
			CHECK(pipes == want);
		}
	}
	CHECK(n == 0 || s[n - 1] == '\n');
}

/* Length of the UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t k, len;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[k] & 0x3f);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

/* SVG: UTF-8, no control characters but newline, one <svg> element. */
static void
check_svg(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, k;

	for (i = 0; i < n; i += k) {
		CHECK(u[i] >= 0x20 || u[i] == '\n');
		CHECK(u[i] != 0x7f);
		CHECK((k = utf8_len(u + i, n - i)) > 0);
	}
	CHECK(strstr(s, "<svg") != NULL);
	CHECK(n >= 7 && memcmp(s + n - 7, "</svg>\n", 7) == 0);
}

/* JSON: one value (RFC 8259, UTF-8) and a newline. */
static void
check_json(const char *s, size_t n)
{
	CHECK(n > 0 && s[n - 1] == '\n');
	if (!tl_json_valid(s, n - 1)) {
		fprintf(stderr, HARNESS ": not JSON: %.*s\n",
		    n > 300 ? 300 : (int)n, s);
		CHECK(!"well-formed JSON");
	}
}

/* Check each file of the tree under dir by its suffix, and remove it. */
static void
check_tree(const char *dir)
{
	struct dirent *de;
	struct stat st;
	char p[8192], *text;
	size_t len, nl;
	DIR *d;

	CHECK((d = opendir(dir)) != NULL);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		CHECK(lstat(p, &st) == 0);
		if (S_ISDIR(st.st_mode)) {
			check_tree(p);
			CHECK(rmdir(p) == 0);
			continue;
		}
		CHECK((text = tl_slurp(p, &len)) != NULL);
		nl = strlen(de->d_name);
		if (nl > 3 && strcmp(de->d_name + nl - 3, ".md") == 0)
			check_markdown(text, len);
		else if (nl > 4 && strcmp(de->d_name + nl - 4, ".svg") == 0)
			check_svg(text, len);
		else if (nl > 5 && strcmp(de->d_name + nl - 5, ".json") == 0)
			check_json(text, len);
		else if (nl > 4 && strcmp(de->d_name + nl - 4, ".csv") == 0)
			fz_check_fields(text, len, 1, 0);
		else if (strcmp(de->d_name, "summary.tsv") == 0)
			fz_check_fields(text, len, 0, 0);	/* per-rank summary */
		else if (strcmp(de->d_name, ".tl-findings.manifest") == 0)
			CHECK(memchr(text, '\0', len) == NULL &&
			    strstr(text, "..") == NULL);
		else
			CHECK(!"a file of an unknown kind");
		free(text);
		CHECK(unlink(p) == 0);
	}
	closedir(d);
}

/* Render one report into memory and check it. */
static void
report(const struct tl_findings *f, const struct tl_report_opts *o,
    int kind, int cat)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	if ((fp = open_memstream(&out, &len)) == NULL)
		tl_die("open_memstream:");
	if (kind == 0)
		tl_report_fair(fp, f, o);
	else if (kind == 1)
		tl_report_rough(fp, f, o);
	else
		tl_report_category(fp, f, cat, o);
	CHECK(!ferror(fp));
	if (fclose(fp) != 0)
		tl_die("fclose:");
	check_markdown(out, len);
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_findings f;
	static char *files[1];
	static const int tops[4] = { 20, 1, 2, 3 };
	struct tl_report_opts o;
	uint32_t h = fz_hash(data, size);
	int worst;

	fz_put_input(0, data, size);
	files[0] = fz_path[0];
	memset(&f, 0, sizeof(f));
	tl_findrules_default(&f.rules);
	f.utilisation_min = 95;
	if (h & 1) {		/* every op with a model a bottleneck */
		f.rules.bottleneck_eff = 1e9;
		f.rules.bottleneck_cat_pct = 0;
		f.rules.replay_pct = 0;
		f.rules.replay_eff = 1e9;
	}
	fz_armed = 1;
	if (setjmp(fz_env) == 0) {
		tl_analyst_load(&f, files, 1);
		fz_armed = 0;
		worst = tl_findings_worst(&f);
		CHECK(worst >= -1 && worst <= TL_PRIO_CRITICAL);
		o.title = (h >> 1) & 1 ? "a | title `with` code" : NULL;
		o.charts = (h >> 2) & 1 ? "charts" : NULL;
		o.top = tops[(h >> 3) & 3];
		report(&f, &o, 0, 0);
		report(&f, &o, 1, 0);
		report(&f, &o, 2, (int)((h >> 5) % (uint64_t)tl_ncategories()));
		if (((h >> 9) & 3) == 0) {
			tl_outdir_write(outdir, &f, &o);
			check_tree(outdir);
		}
	}
	tl_findings_free(&f);
	return 0;
}
