/* See LICENSE file for copyright and license details. */
/*
 * The reader on several threads reads what it reads on one: every trace
 * of tests/data and tests/bad, the samples, and the smallest shared
 * trace (../shared, or TL_SHARED), read with one thread and then with
 * two and three threads and blocks small enough that events straddle
 * them and workers guess wrong, with python_function frames skipped,
 * kept strictly and read plainly.  The records, strings, threads, flows,
 * metadata, frames and the error messages must be the same.  And the
 * one-pass event reader reads what the tokeniser reads: each file is
 * read on one thread with every event tokenised too.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "trace/input.h"
#include "trace/trace.h"
#include "unit.h"

/* Read path as o says; the trace or NULL, and what went to stderr. */
static struct tl_trace *
readit(const char *path, int threads, size_t block, int python, int tokenise,
    char **err)
{
	struct tl_trace_opts o;
	struct tl_trace *t;
	FILE *fp = tmpfile();
	int save = dup(2);
	long n;

	memset(&o, 0, sizeof(o));
	o.threads = threads;
	o.block = block;
	o.keep_python = python;
	o.tokenise = tokenise;
	fflush(stderr);
	dup2(fileno(fp), 2);
	t = tl_trace_read(path, &o);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	n = ftell(fp) > 0 ? ftell(fp) : lseek(fileno(fp), 0, SEEK_END);
	*err = calloc(1, (size_t)n + 1);
	rewind(fp);
	if (n > 0 && fread(*err, 1, (size_t)n, fp) != (size_t)n)
		(*err)[0] = '\0';
	fclose(fp);
	return t;
}

/* 1 if every flow id of a has its value in b too. */
static int
flows_in(const struct tl_dmap32 *a, const struct tl_dmap32 *b)
{
	size_t p, j;

	for (p = 0; p < a->cap; p++) {
		const uint32_t *v = tl_dmap32_page(a, p);

		for (j = 0; v != NULL && j < TL_DMAP32_PAGE; j++)
			if (v[j] != 0 && tl_dmap32_get(b, (uint64_t)p *
			    TL_DMAP32_PAGE + j) != v[j])
				return 0;
	}
	for (j = 0; j < a->rest.cap; j++)
		if (a->rest.val[j] != 0 && tl_dmap32_get(b,
		    tl_map32_key(&a->rest, j)) != a->rest.val[j])
			return 0;
	return 1;
}

static int
same_trace(const struct tl_trace *a, const struct tl_trace *b)
{
	size_t i;

	if (a->nev != b->nev || a->nevents != b->nevents ||
	    a->nthreads != b->nthreads || a->nmeta != b->nmeta ||
	    a->link_external != b->link_external ||
	    a->flows.n != b->flows.n || a->flows.rest.n != b->flows.rest.n)
		return 0;
	if (a->nev > 0 && memcmp(a->ev, b->ev, a->nev * sizeof(*a->ev)) != 0)
		return 0;
	if (a->nthreads > 0 && memcmp(a->threads, b->threads,
	    a->nthreads * sizeof(*a->threads)) != 0)
		return 0;
	for (i = 0; i < a->nev; i++) {
		const struct tl_event *e = &a->ev[i];
		struct tl_args x, y;

		if (strcmp(tl_ev_name(a, e), tl_ev_name(b, e)) != 0)
			return 0;
		tl_ev_args(a, e, &x);
		tl_ev_args(b, e, &y);
		if (memcmp(&x, &y, sizeof(x)) != 0 ||
		    strcmp(tl_str(a->str, x.dims), tl_str(b->str, y.dims)) ||
		    strcmp(tl_str(a->str, x.concrete),
		    tl_str(b->str, y.concrete)) ||
		    strcmp(tl_str(a->str, x.comm), tl_str(b->str, y.comm)))
			return 0;
		if (TL_IS_GPU(e->kind) && (strcmp(tl_str(a->str,
		    tl_ev_grid(a, e)), tl_str(b->str, tl_ev_grid(b, e))) != 0 ||
		    tl_ev_stream(a, e) != tl_ev_stream(b, e)))
			return 0;
	}
	for (i = 0; i < a->nthreads; i++)
		if (strcmp(tl_str(a->str, a->threads[i].pid),
		    tl_str(b->str, b->threads[i].pid)) != 0 ||
		    strcmp(tl_str(a->str, a->threads[i].tid),
		    tl_str(b->str, b->threads[i].tid)) != 0)
			return 0;
	if (!flows_in(&a->flows, &b->flows))
		return 0;
	for (i = 0; i < a->nmeta; i++)
		if (strcmp(a->meta[i].key, b->meta[i].key) != 0 ||
		    strcmp(a->meta[i].value, b->meta[i].value) != 0)
			return 0;
	if ((a->rank == NULL) != (b->rank == NULL) ||
	    (a->rank != NULL && strcmp(a->rank, b->rank) != 0))
		return 0;
	/* The python_function frames kept, with their names and threads. */
	if (a->npy != b->npy)
		return 0;
	for (i = 0; i < a->npy; i++) {
		const struct tl_pyframe *x = &a->py[i], *y = &b->py[i];

		if (x->ts != y->ts || x->dur != y->dur ||
		    strcmp(tl_str(a->pystr, x->name),
		    tl_str(b->pystr, y->name)) != 0 ||
		    tl_strsize(a->pythr, x->thread) !=
		    tl_strsize(b->pythr, y->thread) ||
		    memcmp(tl_str(a->pythr, x->thread), tl_str(b->pythr,
		    y->thread), tl_strsize(a->pythr, x->thread)) != 0)
			return 0;
	}
	return 1;
}

/*
 * Read path on one thread in one pass, and with every event tokenised:
 * the same trace and messages (a FAIL otherwise).  The first reading,
 * and its messages in *err.
 */
static struct tl_trace *
one_pass_same(const char *path, int python, char **err)
{
	char *err2;
	struct tl_trace *t1 = readit(path, 1, 0, python, 0, err);
	struct tl_trace *t0 = readit(path, 1, 0, python, 1, &err2);
	int same = (t0 == NULL) == (t1 == NULL) && strcmp(*err, err2) == 0 &&
	    (t0 == NULL || same_trace(t0, t1));

	if (!same)
		printf("FAIL %s: the one-pass reader and the tokeniser%s "
		    "differ:\n%s---\n%s", path, python ? ", python "
		    "frames kept," : "", err2, *err);
	CHECK(same);
	tl_trace_free(t0);
	free(err2);
	return t1;
}

static void
check_file(const char *path)
{
	static const size_t small[] = { 1, 7, 64, 300, 4096, 0 };
	static const size_t big[] = { 4096, 65536, 0 };
	const size_t *blocks = small;
	int nblocks = sizeof(small) / sizeof(small[0]);
	int python, th, k;
	FILE *fp = NULL;

	/*
	 * Blocks of a few bytes cost a hand-over each: small plain files
	 * only.
	 */
	if (strstr(path, ".gz") != NULL || ((fp = fopen(path, "rb")) != NULL &&
	    fseek(fp, 0, SEEK_END) == 0 && ftell(fp) > 32768)) {
		blocks = big;
		nblocks = sizeof(big) / sizeof(big[0]);
	}
	if (fp != NULL)
		fclose(fp);

	for (python = TL_PY_SKIP; python <= TL_PY_CONTEXT; python++) {
		char *err1, *err2;
		struct tl_trace *t1 = one_pass_same(path, python, &err1);

		for (th = 2; th <= 3; th++)
			for (k = 0; k < nblocks; k++) {
				struct tl_trace *t2 = readit(path, th,
				    blocks[k], python, 0, &err2);
				int ok = (t1 == NULL) == (t2 == NULL) &&
				    strcmp(err1, err2) == 0 &&
				    (t1 == NULL || same_trace(t1, t2));

				if (!ok)
					printf("FAIL %s: %d threads, %zu-byte "
					    "blocks%s differ:\n%s---\n%s",
					    path, th, blocks[k], python ?
					    ", python frames kept," : "", err1,
					    err2);
				CHECK(ok);
				tl_trace_free(t2);
				free(err2);
			}
		tl_trace_free(t1);
		free(err1);
	}
}

/*
 * The keys the one-pass reader knows by their bytes as Kineto writes
 * them (quote, name, quote, colon, blank), beside their neighbours:
 * other blanks, a longer name, an escape, a repeat, "cat" inside args,
 * and the text cut at every byte of an event: read as the tokeniser
 * reads them.
 */
static void
known_keys(void)
{
	static const char text[] =
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
	    "\"pid\": 7, \"tid\": 7, \"ts\": 10.5, \"dur\": 4, \"args\": "
	    "{\"External id\": 3, \"Sequence number\": 9, \"Input Dims\": "
	    "[[2, 3], [3, 4]], \"Input type\": [\"float\", \"float\"], "
	    "\"Input Strides\": [[3, 1], [4, 1]], \"Concrete Inputs\": "
	    "[\"\", \"\"], \"Ev Idx\": 1}},\n"
	    "{\"ph\" : \"X\", \"cat\":\"cuda_runtime\", \"name\":  "
	    "\"cudaLaunchKernel\", \"pidx\": 1, \"pid\": 7, \"tid\": 7, "
	    "\"ts\": 11, \"dur\": 2, \"args\": {\"correlation\" : 5, "
	    "\"External id\":3, \"External idx\": 4, \"cbid\": 211}},\n"
	    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", "
	    "\"p\\u0069d\": 9, \"pid\": 0, \"tid\": 7, \"ts\": 12, "
	    "\"dur\": 3, \"ts\": 99, \"args\": {\"device\": 0, "
	    "\"stream\": 7, \"correlation\": 5, \"correlation\": 6, "
	    "\"grid\": [1, 1, 1], \"block\":  [64, 1, 1], \"kind\": "
	    "\"Dispatch Kernel\"}},\n"
	    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
	    "\"pid\": 7, \"tid\": 7, \"ts\": 20, \"dur\": 1, \"args\": "
	    "{\"Input Dims\": {\"cat\": 1}}}\n"
	    "]}\n";
	char path[] = "/tmp/test_scan.XXXXXX", *err;
	size_t n = strlen(text), cut;
	int fd = mkstemp(path), python;

	CHECK(fd >= 0);
	close(fd);
	unit_writen(path, text, n);
	check_file(path);
	/* Cut anywhere in the first two events, past the array's start. */
	for (cut = 17; cut < 420 && cut < n; cut++) {
		unit_writen(path, text, cut);
		for (python = TL_PY_SKIP; python <= TL_PY_CONTEXT; python++) {
			tl_trace_free(one_pass_same(path, python, &err));
			free(err);
		}
	}
	unlink(path);
}

/*
 * Times ("ts", "dur") of every length and form, read by the one-pass
 * reader 8 digits at a time as Kineto writes them and byte by byte near
 * the end of the bytes (the last event): read as the tokeniser reads
 * them (tl_parse_us_ns), errors included.
 */
static void
times(void)
{
	static const char *const form[] = {
		"0", "7", "10", "1234567", "12345678", "123456789",
		"10840892", "1234567812345", "123456781234567",
		"1234567812345678", "1695835573040878", "99999999.999",
		"12345678.9", "12345678.12", "0.5", "1.25", "2.125", "2.1255",
		"7.00", "1.", "01", "-1", "-0.5", "1e3", "1E-2", "2.5e1",
		"\"5\"", "null", "2NaN"
	};
	char path[] = "/tmp/test_scan.XXXXXX", buf[1024], *err;
	size_t i, j, n;
	int fd = mkstemp(path), python;

	CHECK(fd >= 0);
	close(fd);
	for (i = 0; i < sizeof(form) / sizeof(form[0]); i++)
		for (j = 0; j < 3; j++) {
			const char *a = form[i], *b = form[(i + j) %
			    (sizeof(form) / sizeof(form[0]))];

			n = (size_t)snprintf(buf, sizeof(buf),
			    "{\"traceEvents\": [\n"
			    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
			    "\"k\", \"pid\": 0, \"tid\": 7, \"ts\": %s, "
			    "\"dur\": %s, \"args\": {\"stream\": 7}},\n"
			    "{\"ph\": \"X\", \"cat\": \"python_function\", "
			    "\"name\": \"f\", \"pid\": 0, \"tid\": 7, "
			    "\"ts\": %s, \"dur\": %s, \"args\": {}},\n"
			    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
			    "\"k\", \"pid\": 0, \"tid\": 7, \"args\": {}, "
			    "\"dur\": %s, \"ts\": %s}]}", a, b, b, a, b, a);
			unit_writen(path, buf, n);
			for (python = TL_PY_SKIP; python <= TL_PY_CONTEXT;
			    python++) {
				tl_trace_free(one_pass_same(path, python,
				    &err));
				free(err);
			}
		}
	unlink(path);
}

/*
 * The 64-bit integers a record packs into 32 bits (trace.h): Sequence
 * numbers and streams at and past the edges of the packed range read
 * back whole, repeated ones too; each kernel keeps its grid and block.
 */
static void
wide_values(void)
{
	static const int64_t seq[] = {
		9, INT32_MAX, (int64_t)INT32_MAX + 1, -((int64_t)1 << 30),
		-((int64_t)1 << 30) - 1, INT32_MIN, 9007199254740993,
		9007199254740993, INT64_MIN + 1
	};
	static const int64_t stream[] = {
		7, -5, (int64_t)1 << 32, (int64_t)1 << 32, -((int64_t)1 << 35),
		INT64_MAX
	};
	char path[] = "/tmp/test_wide.XXXXXX", *err, buf[512];
	size_t ns = sizeof(seq) / sizeof(seq[0]);
	size_t ng = sizeof(stream) / sizeof(stream[0]), i;
	int fd = mkstemp(path), threads;
	FILE *fp;

	CHECK(fd >= 0);
	CHECK((fp = fdopen(fd, "w")) != NULL);
	fputs("{\"traceEvents\": [\n", fp);
	for (i = 0; i < ns; i++)
		fprintf(fp, "{\"ph\": \"X\", \"cat\": \"cpu_op\", "
		    "\"name\": \"aten::mm\", \"pid\": 7, \"tid\": 7, "
		    "\"ts\": %zu, \"dur\": 1, \"args\": {\"Sequence "
		    "number\": %lld}},\n", 10 * i, (long long)seq[i]);
	for (i = 0; i < ng; i++)
		fprintf(fp, "{\"ph\": \"X\", \"cat\": \"kernel\", "
		    "\"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %zu, "
		    "\"dur\": 1, \"args\": {\"stream\": %lld, \"grid\": "
		    "[%zu, 1, 1], \"block\": [64, 1, 1]}}%s\n", 10 * i,
		    (long long)stream[i], i % 2, i + 1 < ng ? "," : "");
	fputs("]}\n", fp);
	CHECK(fclose(fp) == 0);
	for (threads = 1; threads <= 2; threads++) {
		struct tl_trace *t = readit(path, threads, 0, TL_PY_SKIP, 0,
		    &err);

		CHECK(t != NULL && t->nev == ns + ng);
		for (i = 0; t != NULL && i < ns + ng && i < t->nev; i++) {
			const struct tl_event *e = &t->ev[i];

			if (i < ns) {
				CHECK(tl_ev_seq(t, e) == seq[i]);
				continue;
			}
			CHECK(tl_ev_stream(t, e) == stream[i - ns]);
			snprintf(buf, sizeof(buf), "[%zu,1,1]", (i - ns) % 2);
			CHECK(strcmp(tl_str(t->str, tl_ev_grid(t, e)),
			    buf) == 0);
			CHECK(strcmp(tl_str(t->str, tl_ev_block(t, e)),
			    "[64,1,1]") == 0);
		}
		CHECK(t == NULL || t->nlaunch == 2);
		tl_trace_free(t);
		free(err);
	}
	unlink(path);
}

/*
 * Whether the input is gzip is known at the open, before any read, and
 * gzip input is read on one thread fewer by default: the input thread
 * inflating it takes a CPU.
 */
static void
input_readers(void)
{
	static const char gz[] = "share/tl/samples/mi300x-transformer-step.json.gz";
	static const char plain[] = "tests/data/bleed.json";
	struct tl_input *in;
	int n = tl_ncpu();

	tl_input_quiet(1);
	if ((in = tl_input_open(gz)) != NULL) {
		CHECK(tl_input_is_gzip(in) == 1);
		CHECK(tl_input_readers(in) == (n > 1 ? n - 1 : 1));
		CHECK(tl_input_close(in) == 0);
	} else
		CHECK(!"cannot open the sample");
	if ((in = tl_input_open(plain)) != NULL) {
		CHECK(tl_input_is_gzip(in) == 0);
		CHECK(tl_input_readers(in) == n);
		CHECK(tl_input_close(in) == 0);
	} else
		CHECK(!"cannot open a fixture");
}

int
main(void)
{
	static const char *const pat[] = {
		"tests/data/*.json", "tests/bad/*.json*",
		"share/tl/samples/*.json*"
	};
	const char *shared = getenv("TL_SHARED");
	char pattern[4096];
	glob_t g;
	size_t i, k;

	tl_setprogname("test_scan");
	known_keys();
	input_readers();
	times();
	wide_values();
	for (k = 0; k < sizeof(pat) / sizeof(pat[0]); k++) {
		if (glob(pat[k], 0, NULL, &g) != 0)
			continue;
		for (i = 0; i < g.gl_pathc; i++)
			check_file(g.gl_pathv[i]);
		globfree(&g);
	}
	/* The smallest shared trace. */
	snprintf(pattern, sizeof(pattern), "%s/traces/mi300-normalization-"
	    "layers.json.gz", shared != NULL ? shared : "../shared");
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			check_file(g.gl_pathv[i]);
		globfree(&g);
	}
	return unit_done("test_scan");
}
