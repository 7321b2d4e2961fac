/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <string.h>

#include "model/roweff.h"

void
tl_roweff_init(struct tl_roweff *e, const struct tl_rowreader *r,
    enum tl_roof roof, double user_tflops, double user_tbs)
{
	memset(e, 0, sizeof(*e));
	e->roof = roof;
	e->user_tflops = user_tflops;
	e->user_tbs = user_tbs;
	e->have_perf = tl_rr_has(r, TL_COL_FLOPS) &&
	    tl_rr_has(r, TL_COL_BYTES) && tl_rr_has(r, TL_COL_COMPUTE_SPEC);
	if (!e->have_perf)
		tl_perfcols_init(&e->pc, r->in, NULL);
	tl_rr_need(r, TL_COL_KERNEL_TIME_US);
}

void
tl_roweff_free(struct tl_roweff *e)
{
	if (!e->have_perf)
		tl_perfcols_free(&e->pc);
}

void
tl_roweff_row(struct tl_roweff *e, struct tl_rowreader *r,
    const struct tl_hw *hw, struct tl_eff *out)
{
	struct tl_roof_in ri;
	const char *spec, *used = NULL, *bw_used = NULL;

	out->flops = out->bytes = 0;
	if (e->have_perf) {
		out->has_flops = tl_rr_i64(r, TL_COL_FLOPS, &out->flops);
		out->has_bytes = tl_rr_i64(r, TL_COL_BYTES, &out->bytes);
		spec = tl_rr_text(r, TL_COL_COMPUTE_SPEC);
	} else {
		tl_perfcols_model(&e->pc);
		out->has_flops = e->pc.has_flops;
		out->has_bytes = e->pc.has_bytes;
		out->flops = e->pc.flops;
		out->bytes = e->pc.bytes;
		spec = e->pc.compute_spec;
	}
	out->hw = hw;
	out->peak_tflops = e->user_tflops;
	out->peak_tbs = e->user_tbs;
	if (out->peak_tflops == 0 && hw != NULL && spec[0] != '\0')
		out->peak_tflops = tl_hw_tflops(hw, spec, e->roof, &used, NULL);
	else if (out->peak_tflops > 0)
		used = "user";
	if (out->peak_tbs == 0 && hw != NULL)
		out->peak_tbs = tl_hw_hbm(hw, e->roof, &bw_used, NULL);
	else if (out->peak_tbs > 0)
		bw_used = "user";
	out->roof_used = used != NULL ? used : "";
	out->bw_used = bw_used != NULL ? bw_used : "";
	ri.has_flops = out->has_flops;
	ri.has_bytes = out->has_bytes;
	ri.flops = out->flops;
	ri.bytes = out->bytes;
	ri.time_us = tl_rr_num(r, TL_COL_KERNEL_TIME_US);
	if (isnan(ri.time_us))
		ri.time_us = 0;
	ri.peak_tflops = out->peak_tflops;
	ri.peak_tbs = out->peak_tbs;
	tl_roofline(&ri, &out->r);
	out->has_pct = out->r.has_roofline && ri.time_us > 0;
}
