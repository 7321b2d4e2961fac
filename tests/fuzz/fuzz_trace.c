/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer harness: the input as a trace file (JSON, or gzip: the reader
 * sees the magic bytes) through what tl-parse does with one: the streaming
 * reader, the call tree and linking, the timelines (all devices and per
 * device), the op and launcher views, the kernel table, the call stacks,
 * and the op-stream writer, TSV or CSV.
 *
 * Bad input must take the reader's error path (tl_trace_read returns
 * NULL); past the reader nothing may fail.  The library exits only on
 * out-of-memory there, which libFuzzer reports as a crash, as it should.
 * Checked besides the sanitizers: every line written has the header's
 * number of fields; the timeline adds up; in the op view no GPU event
 * is in two rows, and without a window every linked one is in a row.
 *
 * Options come from a hash of the input, so an input always runs the
 * same way: python_function frames skipped, kept strictly (--stack) or
 * read plainly and pruned (the default), with the module columns when
 * kept, and a call_stack depth of 8 or all, a window (the
 * first ProfilerStep#, or the middle half of the trace), unlinked events
 * on the timeline, CSV instead of TSV, and the input merged into itself
 * as its own graph-capture trace (trace/capture.h: the captured graphs
 * it holds grafted under its graph launches).
 *
 * A small plain trace is read three times, on one thread and on two
 * threads with blocks of a few bytes to 4 KiB (from the hash), so that
 * events straddle blocks and the workers guess wrong, and on one thread
 * with every event tokenised (not read in one pass): all reads must fail
 * alike or give the same output.  A larger or gzip one is read once, on one
 * thread or on two with blocks of 4 or 64 KiB.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/jsonw.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/family.h"
#include "stream/optable.h"
#include "trace/callstack.h"
#include "trace/capture.h"
#include "trace/kernclass.h"
#include "trace/opstream.h"
#include "trace/rollup.h"
#include "trace/timeline.h"
#include "trace/trace.h"
#include "trace/tree.h"

#define HARNESS "fuzz_trace"
#include "harness.h"

static struct {
	int python, unlinked, csv, window, capture;
} opt;

static struct tl_writer w;
static struct tl_opstream os = { &w, { NULL, 0, 0 }, 0, 0, 0, 0 };

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	tl_setprogname("fuzz_trace");
	fz_open_inputs();
	if (tl_optable_load(NULL, tl_perf_family_known) < 0)
		tl_die("cannot load the built-in op table");
	return 0;
}

static void
check_timeline(const struct tl_timeline *tl)
{
	CHECK(tl->compute >= 0 && tl->exposed_comm >= 0 &&
	    tl->exposed_memcpy >= 0 && tl->idle >= 0);
	CHECK(tl->compute + tl->exposed_comm + tl->exposed_memcpy == tl->busy);
	CHECK(tl->busy <= tl->total);
	CHECK(tl->exposed_comm <= tl->total_comm);
	CHECK(tl->exposed_memcpy <= tl->total_memcpy);
	/* What the unlinked events alone cover is in their durations. */
	CHECK(tl->unlinked_busy >= 0 && tl->unlinked_busy <= tl->unlinked_dur);
	CHECK((tl->unlinked_events == 0) == (tl->unlinked_dur == 0) ||
	    tl->unlinked_events > 0);
}

/* A window as --step (the first ProfilerStep#) or --window would give. */
static void
pick_window(const struct tl_trace *t, struct tl_window *win)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i;

	memset(win, 0, sizeof(*win));
	if (opt.window == 1) {
		for (i = 0; i < t->nev; i++) {
			const struct tl_event *e = &t->ev[i];

			if ((e->kind == TL_EV_ANNOTATION ||
			    e->kind == TL_EV_CPU_OP) &&
			    strncmp(tl_ev_name(t, e), "ProfilerStep#", 13) == 0) {
				win->on = 1;
				win->start = e->ts;
				win->end = e->ts + e->dur;
				return;
			}
		}
	}
	if (opt.window == 0)
		return;
	for (i = 0; i < t->nev; i++) {
		if (!TL_IS_HOST(t->ev[i].kind))
			continue;
		if (t->ev[i].ts < lo)
			lo = t->ev[i].ts;
		if (t->ev[i].ts > hi)
			hi = t->ev[i].ts;
	}
	if (lo < hi && hi < INT64_MAX) {
		uint64_t span = (uint64_t)hi - (uint64_t)lo;

		win->on = 1;
		win->start = lo + (int64_t)(span / 4);
		win->end = win->start + (int64_t)(span / 2) + 1;
	}
}

/* No GPU event in two rows; without a window every linked one in a row. */
static void
check_rows(const struct tl_trace *t, const struct tl_rows *rows,
    const struct tl_window *win)
{
	unsigned char *seen = calloc(t->nev + 1, 1);
	struct tl_link_stats s;
	long n = 0;
	size_t i;
	int k;

	CHECK(seen != NULL);
	for (i = 0; i < rows->n; i++)
		for (k = 0; k < rows->v[i].ngpu; k++) {
			int g = tl_row_gpu(rows, &rows->v[i])[k];

			CHECK(g >= 0 && (size_t)g < t->nev);
			CHECK(TL_IS_GPU(t->ev[g].kind));
			CHECK(!seen[g]);
			seen[g] = 1;
			n++;
		}
	tl_tree_stats(t, &s);
	if (!win->on)
		CHECK(n == s.linked);
	free(seen);
}

static void
run(struct tl_trace *t, struct tl_trace *cap)
{
	struct tl_timeline tl, dtl;
	struct tl_window win;
	struct tl_rows rows;
	struct tl_callstack *cs = NULL;
	struct tl_link_stats s;
	struct tl_capture_stats cst;
	uint32_t *dev;
	size_t n, i;

	tl_tree_build(t);
	if (cap != NULL) {
		tl_tree_build(cap);
		tl_capture_merge(t, &cap, NULL, 1, &cst);
		CHECK(cst.matched <= cst.launches && cst.graphs >= 0);
		CHECK(cst.attributed <= cst.gpu &&
		    cst.attributed_ns <= cst.gpu_ns);
	}
	tl_tree_stats(t, &s);
	CHECK(s.linked <= s.gpu && s.graph <= s.linked);
	pick_window(t, &win);
	tl_os_header(&os, TL_TAB_TIMELINE, 0);
	tl_timeline(t, &win, TL_ALL_DEVICES, opt.unlinked, &tl);
	check_timeline(&tl);
	tl_os_timeline(&os, t, "all", &tl);
	n = tl_timeline_devices(t, &dev);
	for (i = 0; i < n; i++) {
		tl_timeline(t, &win, dev[i], opt.unlinked, &dtl);
		check_timeline(&dtl);
		tl_os_timeline(&os, t, tl_str(t->str, dev[i]), &dtl);
	}
	free(dev);

	if (opt.python)
		cs = tl_callstack_new(t);
	tl_rollup(t, &win, &rows);
	check_rows(t, &rows, &win);
	tl_os_header(&os, TL_TAB_OPS, cs != NULL);
	os.launchers = 0;
	tl_os_rows(&os, t, &win, &rows, &tl, cs, NULL, NULL);
	tl_rows_free(&rows);
	tl_launchers(t, &win, &rows);
	tl_os_header(&os, TL_TAB_LAUNCHERS, cs != NULL);
	os.launchers = 1;
	tl_os_rows(&os, t, &win, &rows, &tl, cs, NULL, NULL);
	tl_rows_free(&rows);
	tl_callstack_free(cs);

	tl_os_header(&os, TL_TAB_KERNELS, 0);
	tl_os_kernels(&os, t, &win);
	tl_os_header(&os, TL_TAB_META, 0);
	tl_os_meta(&os, t, &tl);
}

/* Read the input file as o says and run it; the output, or NULL. */
static char *
read_run(const struct tl_trace_opts *o, size_t *outlen)
{
	struct tl_trace *t, *cap = NULL;
	struct tl_trace_opts co;
	char *out = NULL;
	FILE *fp;

	if ((t = tl_trace_read(fz_path[0], o)) == NULL)
		return NULL;
	if (opt.capture) {
		co = *o;
		co.launch_kernels = 1;
		CHECK((cap = tl_trace_read(fz_path[0], &co)) != NULL);
	}
	if ((fp = open_memstream(&out, outlen)) == NULL)
		tl_die("open_memstream:");
	tl_w_init(&w, fp, opt.csv);
	run(t, cap);
	tl_trace_free(t);
	tl_trace_free(cap);
	if (fclose(fp) != 0)
		tl_die("fclose:");
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t blocks[] = { 1, 3, 16, 64, 250, 4096 };
	struct tl_trace_opts o;
	uint32_t h = fz_hash(data, size);
	char *out, *out2;
	size_t outlen = 0, outlen2 = 0;

	opt.python = (int)((h >> 12) % 3);	/* TL_PY_SKIP, _ALL, _CONTEXT */
	opt.unlinked = (h >> 1) & 1;
	opt.csv = (h >> 2) & 1;
	opt.window = (int)((h >> 3) % 3);
	opt.capture = (h >> 10) & 1;
	fz_put_input(0, data, size);
	memset(&o, 0, sizeof(o));
	o.keep_python = opt.python;
	os.depth = (h >> 14) & 1 ? 8 : 0;
	o.trace_name = (h >> 5) & 1 ? "x\ty,\"z\"\n" : NULL;
	o.block = blocks[(h >> 6) % (sizeof(blocks) / sizeof(blocks[0]))];
	if (size > 16384 || (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
		/*
		 * Large, or gzip (which may inflate to megabytes): read once,
		 * on one thread or on two with blocks of 4 or 64 KiB, as
		 * reading twice would take too long.
		 */
		o.threads = (h >> 9) & 1 ? 2 : 1;
		o.block = o.block < 250 ? 4096 : 65536;
		if ((out = read_run(&o, &outlen)) != NULL)
			fz_check_fields(out, outlen, opt.csv, 1);
		free(out);
		tl_jb_free(&os.jb);
		return 0;
	}
	o.threads = 1;
	out = read_run(&o, &outlen);
	o.threads = 2;
	out2 = read_run(&o, &outlen2);
	CHECK((out == NULL) == (out2 == NULL));
	if (out != NULL) {
		CHECK(outlen == outlen2 && memcmp(out, out2, outlen) == 0);
		fz_check_fields(out, outlen, opt.csv, 1);
	}
	free(out2);
	/* Every event tokenised: what the one-pass reader read. */
	o.threads = 1;
	o.tokenise = 1;
	out2 = read_run(&o, &outlen2);
	CHECK((out == NULL) == (out2 == NULL));
	if (out != NULL)
		CHECK(outlen == outlen2 && memcmp(out, out2, outlen) == 0);
	free(out);
	free(out2);
	tl_jb_free(&os.jb);
	return 0;
}
