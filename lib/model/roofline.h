/* See LICENSE file for copyright and license details. */
#ifndef TL_ROOFLINE_H
#define TL_ROOFLINE_H

/*
 * Roofline efficiency of one op (as TraceLens' compute_perf_metrics in
 * TraceLens/TreePerf/tree_perf.py): achieved TFLOPS/s and
 * TB/s over the op's kernel time, the roofline time max(flops / peak
 * FLOPS, bytes / peak bandwidth), the bound that sets it, and the op's
 * kernel time against it.  SI units: TFLOPS = 1e12 FLOP/s, TB/s = 1e12
 * B/s.  As TraceLens, the roofline needs flops > 0, known bytes and both
 * roofs.
 */
#include <stdint.h>

struct tl_roof_in {
	int has_flops, has_bytes;
	int64_t flops, bytes;
	double time_us;		/* kernel time; <= 0 = none */
	double peak_tflops;	/* roof for the op's compute spec; 0 = none */
	double peak_tbs;	/* bandwidth roof; 0 = none */
};

struct tl_roof_out {
	int has_tflops_s, has_tbs, has_roofline;
	double tflops_s, tbs;
	double roofline_us, pct_roofline;
	const char *bound;	/* "compute", "memory", or "" */
};

void tl_roofline(const struct tl_roof_in *in, struct tl_roof_out *out);

/*
 * The assessment of a % of roofline: thr = { excellent, good, acceptable }
 * lower bounds (80, 60, 40 by default).
 */
const char *tl_assessment(double pct, const double thr[3]);

/*
 * The assessment of a row that ran faster than the physical limit
 * allows (tl_beyond_peak), in place of tl_assessment's.
 */
#define TL_ASSESS_ABOVE_PEAK "above peak"
/* The default tolerance of tl_beyond_peak: 5 %. */
#define TL_PEAK_TOL_PCT 5.0

/*
 * Whether an op's kernel time is shorter than its FLOPs at the peak
 * compute roof (in->peak_tflops) or its bytes at the peak bandwidth
 * (in->peak_tbs) take, by more than tol_pct % of that time: a result
 * beyond the physical limit, which no kernel reaches.  Each resource is
 * checked on its own (flops > 0 or bytes > 0 with a roof and a kernel
 * time).  Returns "compute" or "memory" (the resource furthest beyond;
 * *pct its time at the peak over the kernel time, %), or NULL.
 */
const char *tl_beyond_peak(const struct tl_roof_in *in, double tol_pct,
    double *pct);

#endif
