/* See LICENSE file for copyright and license details. */
/*
 * Regressions found by tests/fuzz/fuzz_findings: text and JSON from the
 * stream must not break what tl-findings writes.  A name with '|' or a
 * newline (TSV "\n") kept a Markdown table row from lining up, as did a
 * rank with '|'; a malformed input_dims (or one jsmn accepts: a bare
 * word in an array), a JSON string holding a control character or a
 * byte that is not UTF-8, was copied raw into the -o directory's JSON
 * files.
 * Also the Markdown text helpers on their own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analyst.h"
#include "analysis/findings.h"
#include "analysis/findrules.h"
#include "common/json.h"
#include "common/util.h"
#include "render/mdtext.h"
#include "render/outdir.h"
#include "render/report.h"
#include "unit.h"

static const char stream[] =
    "trace\trank\tname\tcategory\tkernel_time_us\tpct_gpu_time\t"
    "trace_total_us\ttrace_busy_us\ttrace_compute_us\t"
    "trace_exposed_comm_us\ttrace_exposed_memcpy_us\ttrace_idle_us\thw\t"
    "roofline_time_us\tbound\tflops\tbytes\tinput_dims\tinput_types\n"
    "a\\nb.json\t0|1\taten::mm|x\\ny\tgemm\t100\t50\t1000\t200\t200\t0\t0\t"
    "800\tmi300x\t20\tcompute\t1000000000\t1000000\t[[8192,320flash:]]\t"
    "[\"c10::Half\x01\xba\"]\n"
    "c.json\t2\taten::mm\tgemm\t100\t50\t1000\t200\t200\t0\t0\t800\t"
    "mi300x\t20\tcompute\t1000000000\t1000000\t[[1,2],[2,3]]\t"
    "[\"float\",\"float\"]\n";

static char *
md(void (*fn)(FILE *, const char *, size_t), const char *s, size_t max)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	fn(fp, s, max);
	fclose(fp);
	return out;
}

/* A JSON file is one JSON value (tests/unit/test_json checks that). */
static void
json_ok(const char *path)
{
	size_t n;
	char *s = tl_slurp(path, &n);

	CHECK(s != NULL && n > 0 && s[n - 1] == '\n');
	if (s != NULL && n > 0)
		CHECK(tl_json_valid(s, n - 1));
	free(s);
}

int
main(void)
{
	static struct tl_findings f;
	struct tl_report_opts o = { NULL, NULL, 20 };
	char tmpl[] = "/tmp/test_outdir.XXXXXX", path[256], *files[1];
	char *s, *out = NULL;
	size_t n = 0;
	FILE *fp;
	int fd;

	/* The helpers. */
	s = md(tl_md_code, "a|b`c\nd\te\rf\x01g", 100);
	CHECK_STR(s, "`a\\|b'c\\nd\\te\\rf\\x01g`");
	free(s);
	s = md(tl_md_text, "0|1`x\n", 100);
	CHECK_STR(s, "0\\|1\\`x\\n");
	free(s);
	/* A cut never splits a UTF-8 character ("é" is 2 bytes). */
	s = md(tl_md_code, "ab\xc3\xa9" "cd", 3);
	CHECK_STR(s, "`ab\xc3\xa9...`");
	free(s);
	s = md(tl_md_code, "abcd", 2);
	CHECK_STR(s, "`ab...`");
	free(s);

	/* The stream through tl-findings' library. */
	CHECK((fd = mkstemp(tmpl)) >= 0);
	CHECK(write(fd, stream, sizeof(stream) - 1) ==
	    (ssize_t)(sizeof(stream) - 1));
	close(fd);
	files[0] = tmpl;
	tl_findrules_default(&f.rules);
	f.utilisation_min = 95;
	tl_analyst_load(&f, files, 1);
	CHECK(f.ntr == 2 && f.nop == 2);
	CHECK_STR(f.op[0].name, "aten::mm|x\ny");
	fp = open_memstream(&out, &n);
	tl_report_fair(fp, &f, &o);
	fclose(fp);
	CHECK(strstr(out, "\n| 1 | `aten::mm\\|x\\ny` `[[8192,320flash:]]`: "
	    "compute-bound below peak | 0.060 | 3.0 | Critical |\n") != NULL);
	CHECK(strstr(out, "\n| `a\\nb.json` | 0\\|1 | mi300x | 0.200 | "
	    "0.800 | 0.000 | 1.000 |\n") != NULL);
	free(out);

	/* The -o directory: its JSON stays JSON. */
	snprintf(path, sizeof(path), "%s.d", tmpl);
	tl_outdir_write(path, &f, &o);
	snprintf(path, sizeof(path), "%s.d/category_data/gemm_metrics.json",
	    tmpl);
	json_ok(path);
	s = tl_slurp(path, &n);
	CHECK(s != NULL && strstr(s, "\"input_dims\":\"[[8192,320flash:]]\","
	    "\"input_types\":\"[\\\"c10::Half\\u0001\xef\xbf\xbd\\\"]\"") !=
	    NULL);
	CHECK(s != NULL && strstr(s, "\"input_dims\":[[1,2],[2,3]],"
	    "\"input_types\":[\"float\",\"float\"]") != NULL);
	free(s);
	snprintf(path, sizeof(path), "%s.d/category_data/gemm_tree_data.json",
	    tmpl);
	json_ok(path);
	snprintf(path, sizeof(path), "%s.d/metadata/gemm_metadata.json", tmpl);
	json_ok(path);
	tl_findings_free(&f);
	unlink(tmpl);
	snprintf(path, sizeof(path), "rm -rf '%s.d'", tmpl);
	CHECK(system(path) == 0);
	return unit_done("test_outdir");
}
