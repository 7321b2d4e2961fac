/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/roweff.h"

void
tl_roweff_init(struct tl_roweff *e, const struct tl_rowreader *r,
    enum tl_roof roof, double user_tflops, double user_tbs, double tol_pct)
{
	memset(e, 0, sizeof(*e));
	e->tol_pct = tol_pct;
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
	free(e->res);
}

/* Kernel times shorter than this are near the profiler clock's resolution. */
#define CLOCK_US 5.0

/*
 * Check the row against the physical limit: the peak roofs (the user's
 * when given), and when beyond it say why in f->why, after the model's
 * own perf_error (err).
 */
static void
check_peak(const struct tl_roweff *e, const struct tl_roof_in *ri,
    const char *spec, const struct tl_roofmemo *m, const char *err,
    struct tl_eff *f)
{
	struct tl_roof_in pk = *ri;
	double roof;

	f->beyond = NULL;
	f->beyond_pct = 0;
	f->why[0] = '\0';
	if (e->user_tflops == 0)
		pk.peak_tflops = f->hw == NULL || spec[0] == '\0' ? 0 :
		    m != NULL ? m->peak :
		    tl_hw_figure(f->hw, spec, TL_FIG_PEAK, NULL);
	if (e->user_tbs == 0)	/* hbm_peak: f->hw's (tl_roweff_row) */
		pk.peak_tbs = f->hw != NULL ? e->hbm_peak : 0;
	if ((f->beyond = tl_beyond_peak(&pk, e->tol_pct, &f->beyond_pct)) ==
	    NULL)
		return;
	f->has_pct = 0;
	roof = f->beyond[0] == 'c' ? pk.peak_tflops : pk.peak_tbs;
	tl_peak_why(f->why, sizeof(f->why), err, tl_perf_error_own(err),
	    f->beyond, f->beyond_pct, roof, ri->time_us);
}

void
tl_peak_why(char *buf, size_t size, const char *own, size_t own_len,
    const char *beyond, double pct, double roof, double time_us)
{
	const char *cause;
	int n = 0;

	if (time_us < CLOCK_US)
		cause = "the trace's clock (a kernel time this short is near "
		    "the profiler's resolution)";
	else if (beyond[0] == 'c')
		cause = "a model assumption or an argument the trace does not "
		    "record (the model counts FLOPs the kernels did not run), "
		    "else the trace's clock";
	else
		cause = "a model assumption (the model counts bytes the "
		    "kernels did not read from memory: data reused from "
		    "cache, or weights, experts or pages not all read), else "
		    "the trace's clock";
	if (own_len > 0)
		n = snprintf(buf, size, "%.*s; ", (int)own_len, own);
	if (n < 0 || (size_t)n >= size)
		n = 0;
	snprintf(buf + n, size - (size_t)n, "%s%.0f %% of the "
	    "peak %s roof (%g %s) in %g us is beyond the physical limit; "
	    "likely cause: %s", TL_PERF_ERROR_PEAK, pct, beyond,
	    roof, beyond[0] == 'c' ? "TFLOPS" : "TB/s", time_us, cause);
}

size_t
tl_perf_error_own(const char *s)
{
	const char *p = strstr(s, TL_PERF_ERROR_PEAK);

	if (p == NULL)
		return strlen(s);
	return p - s >= 2 ? (size_t)(p - s) - 2 : 0;
}

const char *
tl_roweff_assessment(const struct tl_eff *f, const double thr[3])
{
	if (f->beyond != NULL)
		return TL_ASSESS_ABOVE_PEAK;
	return f->has_pct ? tl_assessment(f->r.pct_roofline, thr) : "";
}

/*
 * The roofs of hw for compute spec: kept in e->m when the spec is short
 * enough, else worked out into *one.  res: the in-process model's
 * result the spec is of, whose entry is tried first; -1 when none.
 */
static const struct tl_roofmemo *
roofs(struct tl_roweff *e, const struct tl_hw *hw, const char *spec,
    int64_t res, struct tl_roofmemo *one)
{
	struct tl_roofmemo *m = one;
	struct tl_resroof *r = NULL;
	int i;

	if (res >= 0) {
		if ((size_t)res >= e->nres)	/* new ones: none yet */
			tl_grow_set(&e->res, &e->nres, (size_t)res + 1,
			    sizeof(*e->res), 0);
		r = &e->res[res];
		if (r->fill != 0 && e->m[r->at].fill == r->fill &&
		    e->m[r->at].hw == hw)
			return &e->m[r->at];
	}
	for (i = 0; i < TL_ROWEFF_MEMO && e->m[i].hw != NULL; i++)
		if (e->m[i].hw == hw && strcmp(spec, e->m[i].spec) == 0) {
			m = &e->m[i];
			goto found;
		}
	if (strlen(spec) < sizeof(m->spec)) {
		m = &e->m[e->m_next];
		e->m_next = (e->m_next + 1) % TL_ROWEFF_MEMO;
		strcpy(m->spec, spec);
		m->fill = ++e->fills;
	}
	m->hw = hw;
	m->tflops = tl_hw_tflops(hw, spec, e->roof, &m->used, NULL);
	m->peak = tl_hw_figure(hw, spec, TL_FIG_PEAK, NULL);
	if (m == one)
		return m;
found:
	if (r != NULL) {
		r->at = (int)(m - e->m);
		r->fill = m->fill;
	}
	return m;
}

void
tl_roweff_row(struct tl_roweff *e, struct tl_rowreader *r,
    const struct tl_hw *hw, struct tl_eff *out)
{
	struct tl_roofmemo one;
	const struct tl_roofmemo *m = NULL;
	struct tl_roof_in ri;
	const char *spec, *err, *used = NULL, *bw_used = NULL;

	out->flops = out->bytes = 0;
	if (e->have_perf) {
		out->has_flops = tl_rr_i64(r, TL_COL_FLOPS, &out->flops);
		out->has_bytes = tl_rr_i64(r, TL_COL_BYTES, &out->bytes);
		spec = tl_rr_text(r, TL_COL_COMPUTE_SPEC);
		err = tl_rr_text(r, TL_COL_PERF_ERROR);
	} else {
		tl_perfcols_model(&e->pc);
		out->has_flops = e->pc.has_flops;
		out->has_bytes = e->pc.has_bytes;
		out->flops = e->pc.flops;
		out->bytes = e->pc.bytes;
		spec = e->pc.compute_spec;
		err = e->pc.rc == 1 ? "" : e->pc.p.err;
	}
	out->hw = hw;
	if (hw != NULL && hw != e->hbm_hw) {
		e->hbm_hw = hw;
		e->hbm_tbs = tl_hw_hbm(hw, e->roof, &e->hbm_used, NULL);
		e->hbm_peak = tl_hw_figure(hw, "hbm_tbs", TL_FIG_PEAK, NULL);
	}
	out->peak_tflops = e->user_tflops;
	out->peak_tbs = e->user_tbs;
	if (out->peak_tflops == 0 && hw != NULL && spec[0] != '\0') {
		m = roofs(e, hw, spec, e->have_perf ? -1 : e->pc.m.last,
		    &one);
		out->peak_tflops = m->tflops;
		used = m->used;
	} else if (out->peak_tflops > 0)
		used = "user";
	if (out->peak_tbs == 0 && hw != NULL) {
		out->peak_tbs = e->hbm_tbs;
		bw_used = e->hbm_used;
	} else if (out->peak_tbs > 0)
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
	check_peak(e, &ri, spec, m, err, out);
}
