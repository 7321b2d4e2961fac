/* See LICENSE file for copyright and license details. */
#ifndef TL_EFFICIENCY_H
#define TL_EFFICIENCY_H

/*
 * tl-efficiency's stream (man/tl-efficiency.1, the columns in
 * tl-format(5)): each row of an op stream with the perf-model columns
 * when the input lacks them, the efficiency columns of lib/model/roweff,
 * and its trace's elementwise baseline; or, grouped, one row per op
 * signature (TL_SIGKEY_FULL) with its count and time statistics.
 *
 * The elementwise baseline of a trace is the aggregate bandwidth of its
 * plain adds, multiplies and copies (aten::add, add_, mul, mul_, copy_)
 * that read their bytes from HBM (not memory copies or sets), counting
 * only those that move at least 1 MiB when there are any: smaller ones
 * measure launch latency.  It needs every row of its trace, so the rows
 * are spooled to a temporary file (lib/analysis/rowspool) and written
 * with it at the end; with
 * no_baseline each row is written at once and its baseline columns are
 * empty.  Grouped rows carry the first row's columns, the sums of
 * kernel_time_us (exact), kernel_count and pct_gpu_time, the means of
 * tflops_s, tbs and pct_roofline over the rows that have one and are
 * not above their peak roof (tl_roweff: such a row's assessment is
 * TL_ASSESS_ABOVE_PEAK, its perf_error says why, and it takes no part in
 * the means or the baseline; a group of only such rows is one), and the
 * count, mean, sample standard deviation (Welford's running update),
 * minimum and maximum of kernel_time_us; they are sorted by total time,
 * larger first, then in order of first appearance.
 */
#include "common/tsv.h"
#include "model/hwauto.h"
#include "model/hwspec.h"

struct tl_effopts {
	/*
	 * Each row's GPU (--hw NAME or auto, --hw-map), the caller's; NULL:
	 * none, the user's roofs only.
	 */
	struct tl_hwauto *hw;
	enum tl_roof roof;
	double peak_tflops, peak_tbs;	/* 0, or roofs for every op */
	double thr[3];		/* excellent, good, acceptable: % of roofline */
	double tol_pct;		/* above the peak roof by more: beyond */
	int group, no_baseline;
};

/* The state of a run. */
struct tl_efficiency;

struct tl_efficiency *tl_efficiency_new(const struct tl_effopts *o);
/*
 * Read the op stream files (none = stdin) and write the result to w;
 * returns the number of input rows.  Dies (tl_die) on bad input.
 */
long tl_efficiency_run(struct tl_efficiency *e, char *const *files,
    int nfiles, struct tl_writer *w);
/* Free e, also after tl_die ended a run through tl_exit_hook. */
void tl_efficiency_free(struct tl_efficiency *e);

#endif
