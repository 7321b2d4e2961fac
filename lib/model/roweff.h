/* See LICENSE file for copyright and license details. */
#ifndef TL_ROWEFF_H
#define TL_ROWEFF_H

/*
 * The roofline efficiency of the current row of an op stream, as
 * tl-efficiency computes it: the perf model's flops, bytes and
 * compute_spec (read back when the stream has tl-perfmodel's columns,
 * else modelled in-process), the GPU's roofs for that spec (or the
 * user's), then tl_roofline on the row's kernel_time_us.  Shared by
 * tl-efficiency and tl-replay --bottlenecks, so both decide alike.
 */
#include <stdint.h>

#include "model/hwspec.h"
#include "model/perfcols.h"
#include "model/roofline.h"
#include "stream/schema.h"

/* The columns a row reader reads for tl_roweff_row. */
#define TL_ROWEFF_COLS \
	TL_COL_FLOPS, TL_COL_BYTES, TL_COL_COMPUTE_SPEC, TL_COL_KERNEL_TIME_US, \
	TL_COL_PERF_ERROR

#define TL_ROWEFF_MEMO 8

struct tl_roweff {
	int have_perf;		/* the stream has flops, bytes, compute_spec */
	struct tl_perfcols pc;	/* the in-process model, when !have_perf */
	enum tl_roof roof;
	double user_tflops, user_tbs;	/* roofs for every op; 0 = GPU's */
	double tol_pct;		/* above the peak roof by more: beyond */
	/*
	 * The roofs of the last GPUs and compute specs asked for (rows of
	 * a stream repeat a few): its TFLOPS for roof and the kind used,
	 * its peak TFLOPS.  hw NULL: none yet.  m_next: the one to replace.
	 */
	struct tl_roofmemo {
		const struct tl_hw *hw;
		char spec[48];
		double tflops, peak;
		const char *used;
		uint64_t fill;	/* which filling of the memo made it, 1.. */
	} m[TL_ROWEFF_MEMO];
	int m_next;
	uint64_t fills;
	/*
	 * Per result of the in-process model (pc.m.last, whose spec is
	 * fixed): the memo entry its spec was last found in, valid while
	 * that entry is the same filling (0: none).
	 */
	struct tl_resroof {
		int at;
		uint64_t fill;
	} *res;
	size_t nres;
	/* The last row's GPU and its HBM roofs: the same for all its rows. */
	const struct tl_hw *hbm_hw;
	double hbm_tbs, hbm_peak;
	const char *hbm_used;
};

/* The efficiency of one row. */
struct tl_eff {
	const struct tl_hw *hw;
	const char *roof_used, *bw_used;	/* "achievable", "peak", "user", "" */
	double peak_tflops, peak_tbs;		/* 0 = none */
	int has_flops, has_bytes;
	int64_t flops, bytes;
	struct tl_roof_out r;
	int has_pct;		/* r.pct_roofline is meaningful */
	/*
	 * Beyond the physical limit (tl_beyond_peak on the peak roofs, or
	 * the user's): the resource ("compute", "memory") or NULL; then
	 * has_pct is 0, assessment is TL_ASSESS_ABOVE_PEAK and why is the
	 * row's perf_error, naming the likely cause.
	 */
	const char *beyond;
	double beyond_pct;	/* % of the peak roof */
	char why[512];
};

/*
 * Set up for the rows of r, which reads TL_ROWEFF_COLS: needs
 * kernel_time_us (dies without it).  user_tflops, user_tbs: 0, or a roof
 * that replaces the GPU's.  tol_pct: how far above its peak roof a row
 * may be before it is beyond the physical limit (TL_PEAK_TOL_PCT).
 */
void tl_roweff_init(struct tl_roweff *e, const struct tl_rowreader *r,
    enum tl_roof roof, double user_tflops, double user_tbs, double tol_pct);
void tl_roweff_free(struct tl_roweff *e);
/*
 * The efficiency of the current row of r on hw (NULL: only the user's
 * roofs).  Dies on a malformed flops, bytes or kernel_time_us field.
 */
void tl_roweff_row(struct tl_roweff *e, struct tl_rowreader *r,
    const struct tl_hw *hw, struct tl_eff *out);
/*
 * The perf_error of a row above its peak roof is the model's own text
 * (if any), "; ", then TL_PERF_ERROR_PEAK and why.  tl_perf_error_own
 * gives the length of the model's own part of a perf_error, so a stream
 * read again is judged afresh.
 */
#define TL_PERF_ERROR_PEAK "above peak: "
size_t tl_perf_error_own(const char *s);
/*
 * Write into buf the perf_error of a row above its peak roof: own_len
 * bytes of own (the model's own text, none when 0) and "; ", then
 * TL_PERF_ERROR_PEAK, pct % of the peak beyond roof (in TFLOPS or TB/s)
 * in time_us, and the likely cause: the trace's clock for a kernel time
 * under 5 us, else the model's assumption on FLOPs or bytes.
 */
void tl_peak_why(char *buf, size_t size, const char *own, size_t own_len,
    const char *beyond, double pct, double roof, double time_us);
/* The assessment of a row: TL_ASSESS_ABOVE_PEAK, tl_assessment's or "". */
const char *tl_roweff_assessment(const struct tl_eff *f, const double thr[3]);

#endif
