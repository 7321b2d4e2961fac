/* See LICENSE file for copyright and license details. */
#include <stddef.h>

#include "model/roofline.h"

void
tl_roofline(const struct tl_roof_in *in, struct tl_roof_out *out)
{
	double gflops = (double)in->flops / 1e9;
	double compute_us, memory_us;

	out->has_tflops_s = out->has_tbs = out->has_roofline = 0;
	out->tflops_s = out->tbs = out->roofline_us = out->pct_roofline = 0;
	out->bound = "";
	if (in->time_us > 0 && in->has_flops) {
		out->tflops_s = (gflops / 1e3) / (in->time_us / 1e6);
		out->has_tflops_s = 1;
	}
	if (in->time_us > 0 && in->has_bytes) {
		out->tbs = ((double)in->bytes / 1e12) / (in->time_us / 1e6);
		out->has_tbs = 1;
	}
	if (!in->has_flops || !in->has_bytes || in->flops <= 0 ||
	    in->peak_tflops <= 0 || in->peak_tbs <= 0)
		return;
	/* The order of operations is TraceLens', so the doubles agree. */
	compute_us = (gflops * 1e9 / (in->peak_tflops * 1e12)) * 1e6;
	memory_us = ((double)in->bytes / (in->peak_tbs * 1e3 * 1e9)) * 1e6;
	out->roofline_us = compute_us >= memory_us ? compute_us : memory_us;
	out->bound = compute_us >= memory_us ? "compute" : "memory";
	out->has_roofline = 1;
	if (in->time_us > 0)
		out->pct_roofline = out->roofline_us / in->time_us * 100;
}

const char *
tl_assessment(double pct, const double thr[3])
{
	if (pct > thr[0])
		return "excellent";
	if (pct >= thr[1])
		return "good";
	if (pct >= thr[2])
		return "acceptable";
	return "needs investigation";
}

const char *
tl_beyond_peak(const struct tl_roof_in *in, double tol_pct, double *pct)
{
	double c = 0, m = 0, lim = 100 + tol_pct;

	*pct = 0;
	if (!(in->time_us > 0))
		return NULL;
	if (in->has_flops && in->flops > 0 && in->peak_tflops > 0)
		c = (double)in->flops / (in->peak_tflops * 1e6) /
		    in->time_us * 100;
	if (in->has_bytes && in->bytes > 0 && in->peak_tbs > 0)
		m = (double)in->bytes / (in->peak_tbs * 1e6) /
		    in->time_us * 100;
	if (c <= lim && m <= lim)
		return NULL;
	*pct = c >= m ? c : m;
	return c >= m ? "compute" : "memory";
}
