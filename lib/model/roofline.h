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

#endif
