/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gemmcause.h"
#include "analysis/kcause.h"
#include "analysis/xrank.h"
#include "analysis/xsummary.h"
#include "common/json.h"
#include "common/jsonw.h"
#include "common/outfile.h"
#include "common/tsv.h"
#include "common/util.h"
#include "render/charts.h"
#include "render/cmpreport.h"
#include "render/outdir.h"
#include "render/xreport.h"
#include "stream/category.h"
#include "stream/schema.h"

/* "sub/NAMEsuffix" or "NAMEsuffix": a file of the set. */
static char *
rel(const char *sub, const char *name, const char *suffix)
{
	size_t n = strlen(sub) + strlen(name) + strlen(suffix) + 2;
	char *p = tl_malloc(n);

	snprintf(p, n, "%s%s%s%s", sub, sub[0] != '\0' ? "/" : "", name,
	    suffix);
	return p;
}

static void
jb_num(struct tl_jbuf *b, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		tl_jb_lit(b, "null");
		return;
	}
	tl_fmt_double(buf, sizeof(buf), v);
	tl_jb_lit(b, buf);
}


static void
jb_comma(struct tl_jbuf *b)
{
	if (b->n > 0 && b->s[b->n - 1] != '{' && b->s[b->n - 1] != '[')
		tl_jb_lit(b, ",");
}

/* A member key, after a comma unless it is the first. */
static void
jb_key(struct tl_jbuf *b, const char *k)
{
	jb_comma(b);
	tl_jb_str(b, k);
	tl_jb_lit(b, ":");
}

static void
jb_kstr(struct tl_jbuf *b, const char *k, const char *v)
{
	jb_key(b, k);
	tl_jb_str(b, v);
}

static void
jb_knum(struct tl_jbuf *b, const char *k, double v)
{
	jb_key(b, k);
	jb_num(b, v);
}

static void
jb_kint(struct tl_jbuf *b, const char *k, int64_t v)
{
	jb_key(b, k);
	tl_jb_int(b, v);
}

/*
 * A field that should hold JSON text (shapes, params): the value when it
 * is one JSON value, null when empty, else the text as a JSON string (a
 * hand-edited stream must not make the file unreadable).
 */
static void
jb_kjson(struct tl_jbuf *b, const char *k, const char *v)
{
	jb_key(b, k);
	if (v[0] == '\0')
		tl_jb_lit(b, "null");
	else if (tl_json_valid(v, strlen(v)))
		tl_jb_lit(b, v);
	else
		tl_jb_str(b, v);
}

static void
write_jbuf(struct tl_outset *s, const char *p, struct tl_jbuf *b)
{
	FILE *fp = tl_outset_open(s, p, 0666);

	fwrite(b->s, 1, b->n, fp);
	fputc('\n', fp);
	tl_outset_close(s, fp);
}

static void
op_json(struct tl_jbuf *b, const struct tl_fop *op)
{
	jb_comma(b);
	tl_jb_lit(b, "{");
	jb_kstr(b, "name", op->name);
	jb_kstr(b, "direction", op->direction);
	jb_kint(b, "count", op->count);
	jb_knum(b, "time_ms", (double)op->time_ns / 1e6);
	jb_knum(b, "pct_of_category", op->pct_category);
	jb_knum(b, "pct_of_compute", op->pct_compute);
	jb_key(b, "efficiency_pct");
	if (op->has_eff)
		jb_num(b, op->eff);
	else
		tl_jb_lit(b, "null");
	jb_key(b, "flops_per_byte");
	if (op->fpb > 0)
		jb_num(b, op->fpb);
	else
		tl_jb_lit(b, "null");
	jb_knum(b, "tflops_s", op->tflops_s);
	jb_knum(b, "tbs", op->tbs);
	jb_kstr(b, "type", op->bound);
	jb_kjson(b, "input_dims", op->dims);
	jb_kjson(b, "input_types", op->types);
	jb_kjson(b, "input_strides", op->strides);
	jb_kjson(b, "concrete_inputs", op->concrete);
	jb_kjson(b, "params", op->params);
	jb_kstr(b, "perf_model", op->perf_model);
	jb_key(b, "bottleneck");
	tl_jb_lit(b, op->bottleneck ? "true" : "false");
	jb_kstr(b, "priority", tl_priority_name(op->prio));
	jb_kstr(b, "seed_priority", tl_priority_name(op->seed_prio));
	jb_kstr(b, "priority_rule", tl_prio_rule_name(op->prio_rule));
	jb_key(b, "recoverable_ms");
	if (op->save_ns >= 0)
		jb_num(b, (double)op->save_ns / 1e6);
	else
		tl_jb_lit(b, "null");
	jb_knum(b, "explained_by_patterns_ms", (double)op->claimed_ns / 1e6);
	jb_key(b, "replay_recommended");
	tl_jb_lit(b, op->replay ? "true" : "false");
	jb_key(b, "pattern");
	if (op->pattern != NULL)
		tl_jb_str(b, op->pattern);
	else
		tl_jb_lit(b, "null");
	if (op->has_base)
		jb_knum(b, "pct_of_eltwise_baseline", op->pct_base);
	tl_jb_lit(b, "}");
}

/* A GEMM shape cause's numbers (lib/analysis/gemmcause). */
static void
gemm_shape_json(struct tl_jbuf *b, const struct tl_findings *f,
    const struct tl_fpat *p)
{
	const char *adv = tl_precision_advice(p->gs.prec);
	const struct tl_gshape *g = &p->gs;
	const struct { const char *key; int64_t v; } num[] = {
		{ "m", g->m }, { "n", g->n }, { "k", g->k }, { "batch", g->b },
		{ "tile_m", p->tile_m }, { "tile_n", p->tile_n },
		{ "tiles", g->tiles }, { "compute_units", g->cus },
		{ "waves", g->waves }, { "padded_m", g->pm },
		{ "padded_n", g->pn }, { "padded_k", g->pk },
		{ "thin_dimension", g->thin },
	};
	size_t i;

	jb_kstr(b, "cause", tl_gemmcause_name(g->cause));
	for (i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		jb_kint(b, num[i].key, num[i].v);
	jb_knum(b, "last_wave_busy_pct", g->last_fill);
	jb_key(b, "tiles_from_grid");
	tl_jb_lit(b, g->from_grid ? "true" : "false");
	jb_key(b, "reference_op");
	if (p->gs.ref_op >= 0) {
		tl_jb_lit(b, "{");
		jb_kstr(b, "name", f->op[p->gs.ref_op].name);
		jb_kjson(b, "input_dims", f->op[p->gs.ref_op].dims);
		tl_jb_lit(b, "}");
	} else
		tl_jb_lit(b, "null");
	jb_knum(b, "reference_efficiency_pct", p->gs.ref_eff);
	jb_key(b, "estimate");
	tl_jb_lit(b, p->gs.estimate ? "true" : "false");
	jb_key(b, "precision_advice");
	if (adv != NULL)
		tl_jb_str(b, adv);
	else
		tl_jb_lit(b, "null");
}

/* A known cause's name and numbers (lib/analysis/kcause). */
static void
kcause_json(struct tl_jbuf *b, const struct tl_findings *f,
    const struct tl_fpat *p)
{
	char key[80];
	int i;

	jb_kstr(b, "cause", tl_kcause_name(f, p));
	for (i = 0; i < p->kc.n; i++) {
		const struct tl_kcnum *n = &p->kc.num[i];

		switch (n->unit) {
		case TL_KCU_INT:
			jb_kint(b, n->name, (int64_t)n->v);
			break;
		case TL_KCU_NUM:
			jb_knum(b, n->name, n->v);
			break;
		case TL_KCU_MS:
			snprintf(key, sizeof(key), "%s_ms", n->name);
			jb_knum(b, key, n->v / 1e6);
			break;
		case TL_KCU_TEXT:
			jb_kstr(b, n->name, n->text);
			break;
		case TL_KCU_OP:
			jb_key(b, n->name);
			tl_jb_lit(b, "{");
			jb_kstr(b, "name", f->op[(int)n->v].name);
			jb_kjson(b, "input_dims", f->op[(int)n->v].dims);
			tl_jb_lit(b, "}");
			break;
		}
	}
	jb_key(b, "estimate");
	tl_jb_lit(b, p->kc.estimate ? "true" : "false");
}

static void
jb_kbool(struct tl_jbuf *b, const char *k, int v)
{
	jb_key(b, k);
	tl_jb_lit(b, v ? "true" : "false");
}

/* An integer member, null when TL_FNONE (none, unknown). */
static void
jb_kopt(struct tl_jbuf *b, const char *k, int64_t v)
{
	jb_key(b, k);
	if (v != TL_FNONE)
		tl_jb_int(b, v);
	else
		tl_jb_lit(b, "null");
}

/* Where a gap is, for a trace viewer: its members. */
static void
where_json(struct tl_jbuf *b, const struct tl_fwhere *w)
{
	jb_knum(b, "ts_us", (double)w->ts_ns / 1e3);
	jb_knum(b, "offset_ms", (double)w->offset_ns / 1e6);
	jb_kopt(b, "step", w->step);
	jb_kstr(b, "device", w->device != NULL ? w->device : "");
	jb_kopt(b, "stream", w->stream);
	jb_kstr(b, "pid", w->pid != NULL ? w->pid : "");
	jb_kstr(b, "tid", w->tid != NULL ? w->tid : "");
}

/* An idle culprit: what, the idle it covers, where its largest piece is. */
static void
culprit_json(struct tl_jbuf *b, const struct tl_findings *f,
    const struct tl_fculprit *x)
{
	tl_jb_lit(b, "{");
	jb_kstr(b, "kind", x->kind);
	jb_kstr(b, "name", x->name);
	jb_kstr(b, "context", x->context);
	jb_kstr(b, "other_thread", x->tid);
	jb_kbool(b, "warm_up", x->warm);
	jb_knum(b, "idle_ms", (double)x->ns / 1e6);
	jb_knum(b, "timeline_pct", f->tr[x->tr].total_ns > 0 ?
	    (double)x->ns / (double)f->tr[x->tr].total_ns * 100 : 0);
	jb_kint(b, "gaps", x->gaps);
	jb_kint(b, "steps", x->nsteps);
	jb_kstr(b, "known", tl_fidle_kfield(&f->idle, x, TL_KC_KEY));
	jb_kstr(b, "known_title", tl_fidle_kfield(&f->idle, x, TL_KC_TITLE));
	jb_knum(b, "largest_piece_ms", (double)x->piece_ns / 1e6);
	jb_key(b, "largest_piece_gap");
	tl_jb_lit(b, "{");
	jb_knum(b, "length_ms", (double)x->where.len_ns / 1e6);
	where_json(b, &x->where);
	tl_jb_lit(b, "}}");
}

/*
 * Each trace's idle: the listed and noise gaps, the culprits by the idle
 * they cover, and the longest gaps, each with where to find it.
 */
static void
idle_json(struct tl_jbuf *b, const struct tl_findings *f)
{
	const struct tl_fidle *d = &f->idle;
	size_t i;
	int tr, g;

	jb_key(b, "idle");
	tl_jb_lit(b, "[");
	for (tr = 0; tr < f->ntr; tr++) {
		const struct tl_ftrace *t = &f->tr[tr];
		const struct tl_fidletr *it = (size_t)tr < d->ntr ?
		    &d->tr[tr] : NULL;

		jb_comma(b);
		tl_jb_lit(b, "{");
		jb_kstr(b, "trace", t->name);
		jb_knum(b, "idle_ms", (double)t->idle_ns / 1e6);
		jb_kbool(b, "culprits_computed", it != NULL && it->has);
		if (it != NULL && it->has) {
			jb_kint(b, "listed_gaps", it->listed);
			jb_knum(b, "listed_ms", (double)it->listed_ns / 1e6);
			jb_kint(b, "noise_gaps", it->noise);
			jb_knum(b, "noise_ms", (double)it->noise_ns / 1e6);
			jb_key(b, "python_frames");
			if (it->frames >= 0)
				tl_jb_int(b, it->frames);
			else
				tl_jb_lit(b, "null");
		}
		jb_key(b, "culprits");
		tl_jb_lit(b, "[");
		for (i = 0; i < d->n; i++)
			if (d->c[i].tr == tr) {
				jb_comma(b);
				culprit_json(b, f, &d->c[i]);
			}
		tl_jb_lit(b, "]");
		jb_key(b, "largest_gaps");
		tl_jb_lit(b, "[");
		for (g = 0; g < t->ntop; g++) {
			const struct tl_fgap *gp = &t->top[g];
			struct tl_fwhere w;

			jb_comma(b);
			tl_jb_lit(b, "{");
			jb_knum(b, "length_ms", (double)gp->len_ns / 1e6);
			if (gp->listed >= 0) {
				tl_fidle_gap_where(d, gp->listed, &w);
				where_json(b, &w);
			} else {
				/* Not listed (under 10 us, or no culprits). */
				jb_knum(b, "ts_us", (double)gp->start_ns / 1e3);
				jb_kbool(b, "listed", 0);
			}
			jb_kstr(b, "after_op", gp->before);
			jb_kstr(b, "next_op", gp->after);
			tl_jb_lit(b, "}");
		}
		tl_jb_lit(b, "]}");
	}
	tl_jb_lit(b, "]");
}

/* Pattern i of f as a JSON object, for agents. */
static void
pat_json(struct tl_jbuf *b, const struct tl_findings *f, int i)
{
	const struct tl_fpat *p = &f->pat[i];
	int k;

	jb_comma(b);
	tl_jb_lit(b, "{");
	jb_kstr(b, "kind", tl_patkind_name(p->kind));
	jb_kstr(b, "where", p->where);
	jb_kstr(b, "example_module", p->example);
	jb_kstr(b, "detail", p->detail);
	jb_kstr(b, "category", p->cat >= 0 ? tl_category(p->cat)->value : "");
	jb_kint(b, "module_instances", p->instances);
	jb_kint(b, "calls", p->calls);
	jb_knum(b, "time_ms", (double)p->time_ns / 1e6);
	jb_key(b, "recoverable_ms");
	if (p->unquantified)
		tl_jb_lit(b, "null");
	else
		jb_num(b, (double)p->save_ns / 1e6);
	jb_knum(b, "recoverable_low_ms", (double)p->save_lo_ns / 1e6);
	jb_knum(b, "recoverable_high_ms", (double)p->save_hi_ns / 1e6);
	jb_key(b, "upper_bound");
	tl_jb_lit(b, p->upper ? "true" : "false");
	jb_kstr(b, "priority", tl_priority_name(p->prio));
	jb_kstr(b, "seed_priority", tl_priority_name(p->seed_prio));
	jb_kstr(b, "priority_rule", tl_prio_rule_name(p->prio_rule));
	if (p->kind == TL_PAT_ATTENTION) {
		jb_kint(b, "fused_flops", p->flops);
		jb_kint(b, "fused_bytes", p->bytes);
		jb_knum(b, "fused_efficiency_low_pct", p->eff_lo);
		jb_knum(b, "fused_efficiency_high_pct", p->eff_hi);
		jb_knum(b, "fused_time_low_ms", (double)p->model_hi_ns / 1e6);
		jb_knum(b, "fused_time_high_ms", (double)p->model_lo_ns / 1e6);
	}
	if (p->kind == TL_PAT_NORM) {
		jb_kint(b, "one_pass_bytes", p->bytes);
		jb_knum(b, "one_pass_tbs", p->tbs);
		jb_knum(b, "one_pass_ms", (double)p->model_lo_ns / 1e6);
	}
	if (p->kind == TL_PAT_ELTWISE) {
		jb_kint(b, "bytes", p->bytes);
		jb_kint(b, "fused_bytes", p->bytes_after);
	}
	if (p->kind == TL_PAT_IDLE) {
		jb_knum(b, "host_not_in_op_ms", (double)p->part[0] / 1e6);
		jb_knum(b, "host_in_op_before_launch_ms",
		    (double)p->part[1] / 1e6);
		jb_key(b, "after_launch_ms");
		if (p->part[2] >= 0)
			jb_num(b, (double)p->part[2] / 1e6);
		else
			tl_jb_lit(b, "null");
		jb_knum(b, "waited_after_launch_ms", (double)p->part[3] / 1e6);
	}
	if (p->kind == TL_PAT_GEMM_ALIGN || p->kind == TL_PAT_GEMM_ARCH ||
	    p->kind == TL_PAT_GEMM_TILE) {
		jb_kstr(b, "kernel_arch", p->karch);
		jb_kstr(b, "gpu_arch", p->garch);
		jb_kint(b, "kernel_alignment", p->align);
		jb_kint(b, "full_alignment", p->align_want);
		jb_kint(b, "tile_m", p->tile_m);
		jb_kint(b, "tile_n", p->tile_n);
		jb_key(b, "split_k");
		tl_jb_lit(b, p->splitk ? "true" : "false");
	}
	if (p->kind == TL_PAT_GEMM_SHAPE)
		gemm_shape_json(b, f, p);
	if (p->kind == TL_PAT_KERNEL_CAUSE)
		kcause_json(b, f, p);
	if (p->kind == TL_PAT_CULPRIT && p->culprit < f->idle.n) {
		const struct tl_fculprit *x = &f->idle.c[p->culprit];

		jb_kstr(b, "known_title", tl_fidle_kfield(&f->idle, x,
		    TL_KC_TITLE));
		jb_kstr(b, "action", tl_fidle_kfield(&f->idle, x,
		    TL_KC_ACTION));
		jb_kstr(b, "deeper", tl_fidle_kfield(&f->idle, x,
		    TL_KC_DEEPER));
		jb_key(b, "largest_culprit");
		culprit_json(b, f, x);
	}
	jb_key(b, "ops");
	tl_jb_lit(b, "[");
	for (k = 0; k < p->nev; k++) {
		if (p->ev[k].op < 0)
			continue;
		jb_comma(b);
		tl_jb_lit(b, "{");
		jb_kstr(b, "name", f->op[p->ev[k].op].name);
		jb_kjson(b, "input_dims", f->op[p->ev[k].op].dims);
		jb_kint(b, "count", p->ev[k].count);
		jb_knum(b, "time_ms", (double)p->ev[k].time_ns / 1e6);
		tl_jb_lit(b, "}");
	}
	tl_jb_lit(b, "]");
	jb_key(b, "kernels");
	tl_jb_lit(b, "[");
	for (k = 0; k < p->nev; k++) {
		if (p->ev[k].op >= 0)
			continue;
		jb_comma(b);
		tl_jb_lit(b, "{");
		jb_kstr(b, "name", tl_fstr(f, p->ev[k].kname));
		jb_kint(b, "count", p->ev[k].count);
		jb_knum(b, "time_ms", (double)p->ev[k].time_ns / 1e6);
		tl_jb_lit(b, "}");
	}
	tl_jb_lit(b, "]}");
}

/* The patterns of category c (every one for c < 0), by rank. */
static void
pats_json(struct tl_jbuf *b, const struct tl_findings *f, int c)
{
	int i;

	jb_key(b, "patterns");
	tl_jb_lit(b, "[");
	for (i = 0; i < f->nrec; i++)
		if (f->rec[i].pat >= 0 && (c < 0 ||
		    f->pat[f->rec[i].pat].cat == c))
			pat_json(b, f, f->rec[i].pat);
	for (i = 0; i < f->npat; i++)
		if (f->pat[i].save_ns <= 0 && !f->pat[i].unquantified &&
		    (c < 0 || f->pat[i].cat == c))
			pat_json(b, f, i);
	tl_jb_lit(b, "]");
}

/*
 * The analysis for agents: coverage, the patterns and the ranked
 * recommendations (patterns by index in "patterns", ops by name).
 */
static void
analysis_json(struct tl_outset *s, const char *p, const struct tl_findings *f)
{
	const struct tl_fcov *c = &f->cov;
	struct tl_jbuf b = { 0 };
	int i;

	tl_jb_lit(&b, "{");
	jb_key(&b, "coverage");
	tl_jb_lit(&b, "{");
	jb_knum(&b, "op_time_ms", (double)c->op_ns / 1e6);
	jb_knum(&b, "modelled_ms", (double)c->model_ns / 1e6);
	jb_knum(&b, "above_peak_ms", (double)c->peak_ns / 1e6);
	jb_knum(&b, "pattern_ms", (double)c->pattern_ns / 1e6);
	jb_knum(&b, "analysed_ms", (double)c->analysed_ns / 1e6);
	jb_knum(&b, "other_ms", (double)c->other_ns / 1e6);
	jb_knum(&b, "graph_launch_ms", (double)c->graph_ns / 1e6);
	jb_key(&b, "unlinked_ms");
	if (c->has_unlinked)
		jb_num(&b, (double)c->unlinked_ns / 1e6);
	else
		tl_jb_lit(&b, "null");
	jb_key(&b, "unlinked_count");
	if (c->has_unlinked)
		tl_jb_int(&b, c->unlinked_count);
	else
		tl_jb_lit(&b, "null");
	tl_jb_lit(&b, "}");
	pats_json(&b, f, -1);
	idle_json(&b, f);
	jb_key(&b, "recommendations");
	tl_jb_lit(&b, "[");
	for (i = 0; i < f->nrec; i++) {
		const struct tl_frec *r = &f->rec[i];

		jb_comma(&b);
		tl_jb_lit(&b, "{");
		jb_kint(&b, "rank", i + 1);
		if (r->pat >= 0) {
			jb_kstr(&b, "pattern", tl_patkind_name(
			    f->pat[r->pat].kind));
			jb_kstr(&b, "where", f->pat[r->pat].where);
			if (f->pat[r->pat].kind == TL_PAT_GEMM_SHAPE)
				jb_kstr(&b, "cause", tl_gemmcause_name(
				    f->pat[r->pat].gs.cause));
			if (f->pat[r->pat].kind == TL_PAT_KERNEL_CAUSE)
				jb_kstr(&b, "cause", tl_kcause_name(f,
				    &f->pat[r->pat]));
		} else {
			jb_kstr(&b, "op", f->op[r->op].name);
			jb_kjson(&b, "input_dims", f->op[r->op].dims);
		}
		if (r->pat >= 0 && f->pat[r->pat].unquantified) {
			/* Not quantified: null, never 0. */
			jb_key(&b, "recoverable_ms");
			tl_jb_lit(&b, "null");
			jb_key(&b, "recoverable_low_ms");
			tl_jb_lit(&b, "null");
			jb_key(&b, "recoverable_high_ms");
			tl_jb_lit(&b, "null");
		} else {
			jb_knum(&b, "recoverable_ms", (double)r->save_ns / 1e6);
			jb_knum(&b, "recoverable_low_ms",
			    (double)r->lo_ns / 1e6);
			jb_knum(&b, "recoverable_high_ms",
			    (double)r->hi_ns / 1e6);
		}
		jb_key(&b, "upper_bound");
		tl_jb_lit(&b, r->upper ? "true" : "false");
		jb_kstr(&b, "priority", tl_priority_name(r->prio));
		jb_kstr(&b, "priority_rule", tl_prio_rule_name(r->prio_rule));
		jb_key(&b, "slot");
		tl_jb_lit(&b, r->slot ? "true" : "false");
		tl_jb_lit(&b, "}");
	}
	tl_jb_lit(&b, "]}");
	write_jbuf(s, p, &b);
	tl_jb_free(&b);
}

static void
metrics(struct tl_outset *s, const char *p, const struct tl_findings *f, int c)
{
	const struct tl_fcat *k = &f->cat[c];
	struct tl_jbuf b = { 0 };
	int i;

	tl_jb_lit(&b, "{");
	jb_kstr(&b, "category", tl_category(c)->file);
	jb_kstr(&b, "status", k->error != NULL ? "ERROR" : "OK");
	if (k->error != NULL)
		jb_kstr(&b, "error", k->error);
	jb_key(&b, "summary");
	tl_jb_lit(&b, "{");
	jb_kint(&b, "instances", k->count);
	jb_kint(&b, "signatures", k->nops);
	jb_knum(&b, "time_ms", (double)k->time_ns / 1e6);
	jb_knum(&b, "pct_of_compute", k->pct_compute);
	jb_key(&b, "avg_efficiency_pct");
	if (k->eff >= 0)
		jb_num(&b, k->eff);
	else
		tl_jb_lit(&b, "null");
	jb_kint(&b, "missing_perf_models", k->missing_model);
	jb_kint(&b, "bottlenecks", k->error != NULL ? 0 : k->nbottleneck);
	tl_jb_lit(&b, "}");
	jb_key(&b, "operations");
	tl_jb_lit(&b, "[");
	for (i = 0; i < k->nops; i++)
		op_json(&b, &f->op[k->ops[i]]);
	tl_jb_lit(&b, "]");
	jb_key(&b, "category_specific");
	tl_jb_lit(&b, "{");
	if (tl_category_is(c, "conv")) {
		jb_knum(&b, "layout_conversion_ms", (double)k->layout_ns / 1e6);
		jb_knum(&b, "transpose_overhead_percent", k->layout_pct);
	}
	if (tl_category_is(c, "batchnorm") ||
	    tl_category_is(c, "elementwise")) {
		jb_key(&b, "eltwise_baseline_tbs");
		if (f->base_tbs > 0)
			jb_num(&b, f->base_tbs);
		else
			tl_jb_lit(&b, "null");
	}
	if (tl_category_is(c, "gemm")) {
		jb_kint(&b, "quantized_gemms", k->nquant);
	}
	tl_jb_lit(&b, "}");
	pats_json(&b, f, c);
	tl_jb_lit(&b, "}");
	write_jbuf(s, p, &b);
	tl_jb_free(&b);
}

static void
tree_data(struct tl_outset *s, const char *p, const struct tl_findings *f, int c)
{
	const struct tl_fcat *k = &f->cat[c];
	struct tl_jbuf b = { 0 };
	int i, j;

	tl_jb_lit(&b, "{");
	jb_kstr(&b, "category", tl_category(c)->file);
	jb_key(&b, "has_call_stacks");
	tl_jb_lit(&b, f->has_stack ? "true" : "false");
	jb_key(&b, "ops");
	tl_jb_lit(&b, "[");
	for (i = 0; i < k->nops && i < 20; i++) {
		const struct tl_fop *op = &f->op[k->ops[i]];
		const char *s, *e;

		jb_comma(&b);
		tl_jb_lit(&b, "{");
		jb_kstr(&b, "name", op->name);
		jb_kjson(&b, "input_dims", op->dims);
		jb_kstr(&b, "trace", op->trace);
		jb_kstr(&b, "example_uid", op->uid);
		jb_kstr(&b, "parent_name", op->parent_name);
		jb_kstr(&b, "module", op->module);
		jb_key(&b, "call_stack");
		tl_jb_lit(&b, "[");
		for (s = op->call_stack; *s != '\0'; s = *e ? e + 1 : e) {
			e = strchr(s, ';');
			if (e == NULL)
				e = s + strlen(s);
			jb_comma(&b);
			{
				char *fr = tl_malloc((size_t)(e - s) + 1);

				memcpy(fr, s, (size_t)(e - s));
				fr[e - s] = '\0';
				tl_jb_str(&b, fr);
				free(fr);
			}
		}
		tl_jb_lit(&b, "]");
		jb_key(&b, "subtree_kernels");
		tl_jb_lit(&b, "[");
		for (j = 0; j < op->nkern; j++) {
			jb_comma(&b);
			tl_jb_lit(&b, "{");
			jb_kstr(&b, "name", op->kern[j].name);
			jb_kint(&b, "count", op->kern[j].count);
			jb_knum(&b, "time_ms", (double)op->kern[j].time_ns /
			    1e6);
			tl_jb_lit(&b, "}");
		}
		tl_jb_lit(&b, "]}");
	}
	tl_jb_lit(&b, "]}");
	write_jbuf(s, p, &b);
	tl_jb_free(&b);
}

static double
ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* v, or TL_FNONE (null in JSON) when it is none. */
static int64_t
opt(int64_t v, int64_t none)
{
	return v == none ? TL_FNONE : v;
}

/*
 * category_data/ranks.json: each rank as the cross-rank analysis saw it
 * and each collective instance (matched across the ranks, or one trace's
 * own): tl-findings(1) documents the keys.
 */
static void
ranks_json(struct tl_outset *s, const char *p, const struct tl_xrank *x)
{
	struct tl_jbuf b = { 0 };
	int64_t nst = x->nsteps > 0 ? x->nsteps : 1;
	size_t i;
	int r;

	tl_jb_lit(&b, "{");
	jb_kint(&b, "summary_version", TL_XSUM_VERSION);
	jb_key(&b, "straggler");
	if (x->straggler >= 0)
		tl_jb_str(&b, x->rk[x->straggler].name);
	else
		tl_jb_lit(&b, "null");
	jb_knum(&b, "step_ms", ms(x->step_ns));
	jb_knum(&b, "recoverable_ms", ms(x->recover_ns));
	jb_knum(&b, "transfer_ms", ms(x->xfer_ns));
	jb_key(&b, "ranks");
	tl_jb_lit(&b, "[");
	for (r = 0; r < x->nrk; r++) {
		const struct tl_xrk *k = &x->rk[r];

		jb_comma(&b);
		tl_jb_lit(&b, "{");
		jb_kstr(&b, "trace", k->name);
		jb_kstr(&b, "rank", k->rank_text);
		jb_kstr(&b, "gpu", k->gpu);
		jb_kint(&b, "world_size", k->world);
		jb_kint(&b, "aligned", k->aligned);
		jb_knum(&b, "offset_ms", ms(k->offset_ns));
		jb_knum(&b, "wait_ms", ms(k->wait_ns / nst));
		jb_knum(&b, "late_ms", x->matched > 0 ?
		    ms(k->late_ns / x->matched) : 0);
		jb_kint(&b, "last_at", k->last);
		jb_knum(&b, "step_ms", ms(k->step_ns));
		jb_kint(&b, "steps", k->nsteps);
		jb_knum(&b, "computation_ms", ms(k->compute_ns));
		jb_knum(&b, "idle_ms", ms(k->idle_ns));
		tl_jb_lit(&b, "}");
	}
	tl_jb_lit(&b, "]");
	jb_key(&b, "instances");
	tl_jb_lit(&b, "[");
	if (x->nrk > 1)
		for (i = 0; i < x->nres; i++) {
			const struct tl_xres *v = &x->res[i];

			jb_comma(&b);
			tl_jb_lit(&b, "{");
			jb_kstr(&b, "pg", v->pg);
			jb_kint(&b, "seq", v->seq);
			jb_kopt(&b, "iteration", opt(v->iter, -1));
			jb_kstr(&b, "type", v->type);
			jb_kopt(&b, "bytes", opt(v->bytes, -1));
			jb_kint(&b, "group_size", v->group);
			jb_kint(&b, "ranks", v->nranks);
			jb_kstr(&b, "last", x->rk[v->last].name);
			jb_knum(&b, "start_ms", ms(v->start_ns));
			jb_knum(&b, "start_spread_ms", ms(v->start_spread_ns));
			jb_knum(&b, "end_spread_ms", ms(v->end_spread_ns));
			jb_knum(&b, "kernel_ms", ms(v->kernel_ns));
			jb_knum(&b, "transfer_ms", ms(v->xfer_ns));
			tl_jb_lit(&b, "}");
		}
	else
		for (i = 0; i < x->nin; i++) {
			struct tl_xin v;
			int tr;

			tl_xrank_get_inst(x, i, &tr, &v);
			jb_comma(&b);
			tl_jb_lit(&b, "{");
			jb_kstr(&b, "pg", v.pg);
			jb_kint(&b, "seq", v.seq);
			jb_kopt(&b, "iteration", opt(v.iter, -1));
			jb_kstr(&b, "type", v.type);
			jb_kopt(&b, "bytes", opt(v.bytes, -1));
			jb_kint(&b, "group_size", v.group);
			jb_kint(&b, "ranks", 1);
			jb_knum(&b, "start_ms", ms(v.start));
			jb_knum(&b, "kernel_ms", ms(v.end - v.start));
			jb_knum(&b, "exposed_ms", ms(v.exposed));
			tl_jb_lit(&b, "}");
		}
	tl_jb_lit(&b, "]}");
	write_jbuf(s, p, &b);
	tl_jb_free(&b);
}

/* summary.tsv: the per-rank summary of every trace (tl-format(5)). */
static void
summary_tsv(struct tl_outset *s, const struct tl_xrank *x)
{
	FILE *fp = tl_outset_open(s, "summary.tsv", 0666);

	tl_xsum_write(fp, x);
	tl_outset_close(s, fp);
}

static void
metadata(struct tl_outset *s, const char *p, const struct tl_findings *f, int c)
{
	struct tl_ftimeline t;
	struct tl_jbuf b = { 0 };
	const struct tl_findrules *r = &f->rules;
	int i;

	t = f->tl;
	tl_jb_lit(&b, "{");
	jb_kstr(&b, "category", tl_category(c)->file);
	jb_kstr(&b, "hw", f->hw != NULL ? f->hw : "");
	jb_knum(&b, "peak_tbs", f->peak_tbs);
	jb_key(&b, "traces");
	tl_jb_lit(&b, "[");
	for (i = 0; i < f->ntr; i++) {
		const struct tl_ftrace *tr = &f->tr[i];

		jb_comma(&b);
		tl_jb_lit(&b, "{");
		jb_kstr(&b, "trace", tr->name);
		jb_kstr(&b, "rank", tr->rank);
		jb_kstr(&b, "gpu", tr->gpu);
		jb_knum(&b, "total_ms", (double)tr->total_ns / 1e6);
		jb_knum(&b, "computation_ms", (double)tr->compute_ns / 1e6);
		jb_knum(&b, "exposed_comm_ms", (double)tr->comm_ns / 1e6);
		jb_knum(&b, "exposed_memcpy_ms", (double)tr->memcpy_ns / 1e6);
		jb_knum(&b, "idle_ms", (double)tr->idle_ns / 1e6);
		tl_jb_lit(&b, "}");
	}
	tl_jb_lit(&b, "]");
	jb_knum(&b, "gpu_utilization_pct", t.total > 0 ?
	    (double)t.compute / (double)t.total * 100 : 0);
	jb_key(&b, "thresholds");
	tl_jb_lit(&b, "{");
	jb_knum(&b, "bottleneck_time_ms", tl_category(c)->bottleneck_ms);
	jb_knum(&b, "bottleneck_category_pct", r->bottleneck_cat_pct);
	jb_knum(&b, "bottleneck_efficiency_pct", r->bottleneck_eff);
	jb_knum(&b, "critical_compute_pct", r->critical_pct);
	jb_knum(&b, "critical_efficiency_pct", r->critical_eff);
	jb_knum(&b, "high_compute_pct", r->high_pct);
	jb_knum(&b, "high_efficiency_pct", r->high_eff);
	jb_knum(&b, "medium_compute_pct", r->medium_pct);
	tl_jb_lit(&b, "}}");
	write_jbuf(s, p, &b);
	tl_jb_free(&b);
}

static void
ops_csv(struct tl_outset *s, const char *p, const struct tl_findings *f, int c)
{
	const struct tl_fcat *k = &f->cat[c];
	struct tl_writer w;
	FILE *fp = tl_outset_open(s, p, 0666);
	int i;

	tl_w_init(&w, fp, 1);
	tl_table_header(&w, TL_TAB_CAT_OPS);
	for (i = 0; i < k->nops; i++) {
		const struct tl_fop *op = &f->op[k->ops[i]];

		tl_w_str(&w, op->name);
		tl_w_str(&w, tl_category(op->cat)->value);
		tl_w_str(&w, op->direction);
		tl_w_int(&w, op->count);
		tl_w_us(&w, op->time_ns);
		tl_w_double(&w, op->pct_compute);
		tl_w_double(&w, op->pct_category);
		if (op->has_flops)
			tl_w_int(&w, op->flops);
		else
			tl_w_empty(&w);
		if (op->has_bytes)
			tl_w_int(&w, op->bytes);
		else
			tl_w_empty(&w);
		if (op->fpb > 0)
			tl_w_double(&w, op->fpb);
		else
			tl_w_empty(&w);
		if (!isnan(op->tflops_s))
			tl_w_double(&w, op->tflops_s);
		else
			tl_w_empty(&w);
		if (!isnan(op->tbs))
			tl_w_double(&w, op->tbs);
		else
			tl_w_empty(&w);
		if (op->has_eff)
			tl_w_double(&w, op->eff);
		else
			tl_w_empty(&w);
		tl_w_str(&w, op->bound);
		tl_w_str(&w, op->dims);
		tl_w_str(&w, op->types);
		tl_w_str(&w, op->strides);
		tl_w_str(&w, op->concrete);
		tl_w_str(&w, op->perf_model);
		tl_w_str(&w, op->params);
		tl_w_str(&w, op->bottleneck ? "yes" : "no");
		tl_w_str(&w, tl_priority_name(op->prio));
		tl_w_eol(&w);
	}
	tl_outset_close(s, fp);
}

static void
report_file(struct tl_outset *s, const char *p, const struct tl_findings *f,
    int c, const struct tl_report_opts *o,
    void (*fn)(FILE *, const struct tl_findings *,
    const struct tl_report_opts *))
{
	FILE *fp = tl_outset_open(s, p, 0666);

	if (fn != NULL)
		fn(fp, f, o);
	else
		tl_report_category(fp, f, c, o);
	tl_outset_close(s, fp);
}

/*
 * The charts of f (lib/render/chartlist) under sub ("charts"), or at the
 * top of the set with sub "".  A write error shows in tl_outset_close.
 */
static void
charts(struct tl_outset *s, const char *sub, const struct tl_findings *f)
{
	char *p;
	FILE *fp;
	int i;

	for (i = 0; i < TL_CHART_N; i++) {
		if (!tl_chart_wanted(f, i))
			continue;
		p = rel(sub, tl_charts[i].file, "");
		fp = tl_outset_open(s, p, 0666);
		(void)tl_chart_write(fp, f, i);
		tl_outset_close(s, fp);
		free(p);
	}
}

/* The comparison chart, as charts() writes those of an analysis. */
static void
cmpcharts(struct tl_outset *s, const char *sub, const struct tl_cmpfind *c)
{
	char *p = rel(sub, tl_cmpchart.file, "");
	FILE *fp = tl_outset_open(s, p, 0666);

	(void)tl_cmpchart_write(fp, c);
	tl_outset_close(s, fp);
	free(p);
}

void
tl_outdir_charts(const char *dir, const struct tl_findings *f)
{
	struct tl_outset *s = tl_outset_begin(dir, "tl-findings-charts");

	charts(s, "", f);
	tl_outset_commit(s);
}

void
tl_outdir_cmpcharts(const char *dir, const struct tl_cmpfind *c)
{
	struct tl_outset *s = tl_outset_begin(dir, "tl-findings-charts");

	cmpcharts(s, "", c);
	tl_outset_commit(s);
}

void
tl_outdir_write(const char *dir, const struct tl_findings *f,
    const struct tl_report_opts *o)
{
	struct tl_outset *s = tl_outset_begin(dir, "tl-findings");
	struct tl_report_opts ro = *o;
	char *p;
	int c;

	for (c = 0; c < tl_ncategories(); c++) {
		const char *n = tl_category(c)->file;

		if (f->cat[c].present) {
			p = rel("category_data", n, "_ops.csv");
			ops_csv(s, p, f, c);
			free(p);
			p = rel("category_data", n, "_metrics.json");
			metrics(s, p, f, c);
			free(p);
			p = rel("category_data", n, "_tree_data.json");
			tree_data(s, p, f, c);
			free(p);
			p = rel("metadata", n, "_metadata.json");
			metadata(s, p, f, c);
			free(p);
		}
		if (f->cat[c].present || tl_category_is(c, "gemm") ||
		    tl_category_is(c, "conv") ||
		    tl_category_is(c, "batchnorm")) {
			p = rel("category_findings", n, "_findings.md");
			report_file(s, p, f, c, o, NULL);
			free(p);
		}
	}
	analysis_json(s, "category_data/analysis.json", f);
	if (f->xr != NULL && f->xr->nin > 0)
		ranks_json(s, "category_data/ranks.json", f->xr);
	if (f->xr != NULL)
		summary_tsv(s, f->xr);
	charts(s, "charts", f);
	ro.charts = "charts";
	report_file(s, "standalone_analysis_fair.md", f, 0, &ro,
	    tl_report_fair);
	report_file(s, "standalone_analysis_rough.md", f, 0, &ro,
	    tl_report_rough);
	tl_outset_commit(s);
}

static void
w_num(struct tl_writer *w, double v)
{
	if (isnan(v))
		tl_w_empty(w);
	else
		tl_w_double(w, v);
}

/* One CSV row per row of the comparison, in its order. */
static void
compare_csv(struct tl_outset *s, const char *p, const struct tl_cmpfind *c)
{
	struct tl_writer w;
	FILE *fp = tl_outset_open(s, p, 0666);
	int i, k;

	tl_w_init(&w, fp, 1);
	tl_table_header(&w, TL_TAB_CMP_OPS);
	for (i = 0; i < c->nrow; i++) {
		const struct tl_crow *r = &c->row[i];

		if (r->candidate && r->rank > 0) {
			tl_w_int(&w, r->rank);
			tl_w_str(&w, tl_priority_name(r->prio));
		} else {
			tl_w_empty(&w);
			tl_w_empty(&w);
		}
		tl_w_str(&w, tl_crow_match_value(r));
		tl_w_str(&w, r->name);
		tl_w_str(&w, r->category);
		tl_w_str(&w, r->direction);
		tl_w_str(&w, r->dims);
		tl_w_str(&w, r->types);
		tl_w_str(&w, r->strides);
		tl_w_str(&w, r->target_strides);
		tl_w_str(&w, r->layout_note);
		tl_w_str(&w, r->concrete);
		tl_w_str(&w, r->bound);
		for (k = 0; k < 2; k++)
			if (r->s[k].has)
				tl_w_int(&w, r->s[k].count);
			else
				tl_w_empty(&w);
		for (k = 0; k < 2; k++)
			if (r->s[k].has)
				tl_w_us(&w, r->s[k].time_ns);
			else
				tl_w_empty(&w);
		tl_w_us(&w, r->delta_ns);
		w_num(&w, r->delta_pct);
		tl_w_str(&w, c->roof_kind);
		w_num(&w, r->expected);
		w_num(&w, r->actual);
		tl_w_str(&w, r->explained);
		tl_w_str(&w, tl_cexp_value(r->exp));
		w_num(&w, r->other_expected);
		tl_w_str(&w, tl_cexp_value(r->other_exp));
		w_num(&w, r->unexplained_us);
		if (r->candidate && r->rank > 0)
			tl_w_double(&w, r->score);
		else
			tl_w_empty(&w);
		tl_w_eol(&w);
	}
	tl_outset_close(s, fp);
}

void
tl_outdir_compare(const char *dir, const struct tl_cmpfind *c,
    const struct tl_report_opts *o)
{
	struct tl_outset *s = tl_outset_begin(dir, "tl-findings");
	struct tl_report_opts ro = *o;
	FILE *fp;

	cmpcharts(s, "charts", c);
	ro.charts = "charts";
	fp = tl_outset_open(s, "comparative_analysis_fair.md", 0666);
	tl_cmpreport_fair(fp, c, &ro);
	tl_outset_close(s, fp);
	fp = tl_outset_open(s, "comparative_analysis_rough.md", 0666);
	tl_cmpreport_rough(fp, c, &ro);
	tl_outset_close(s, fp);
	compare_csv(s, "comparative_ops.csv", c);
	tl_outset_commit(s);
}

void
tl_outdir_ranks(const char *dir, const struct tl_findings *f,
    const struct tl_report_opts *o)
{
	struct tl_outset *s = tl_outset_begin(dir, "tl-findings");
	const char *const name[2] = { "standalone_analysis_fair.md",
	    "standalone_analysis_rough.md" };
	FILE *fp;
	int k;

	for (k = 0; k < 2; k++) {
		fp = tl_outset_open(s, name[k], 0666);
		tl_report_ranks(fp, f, o);
		tl_outset_close(s, fp);
	}
	ranks_json(s, "category_data/ranks.json", f->xr);
	summary_tsv(s, f->xr);
	if (f->xr->nrk > 1) {
		fp = tl_outset_open(s, "charts/ranks.svg", 0666);
		(void)tl_chart_xranks(fp, f->xr);
		tl_outset_close(s, fp);
	}
	tl_outset_commit(s);
}
