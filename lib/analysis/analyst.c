/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analyst.h"
#include "analysis/fusion.h"
#include "analysis/gemmcause.h"
#include "analysis/kcause.h"
#include "analysis/kernsel.h"
#include "analysis/oprow.h"
#include "analysis/schedule.h"
#include "analysis/verdict.h"
#include "common/util.h"
#include "stream/category.h"


int64_t
tl_analyst_timeline(const struct tl_findings *f)
{
	int64_t t = 0;
	int i;

	for (i = 0; i < f->ntr; i++)
		t += f->tr[i].total_ns;
	return t;
}

static double
pct(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part / (double)whole * 100 : 0;
}

/* Patterns whose share is of the timeline rather than of compute. */
static int
timeline_kind(enum tl_patkind k)
{
	return k == TL_PAT_COMM || k == TL_PAT_PAGEABLE ||
	    k == TL_PAT_SYNC || k == TL_PAT_IDLE || k == TL_PAT_CULPRIT;
}

static int
cmp_ev(const void *a, const void *b)
{
	const struct tl_fpev *x = a, *y = b;

	if ((x->op < 0) != (y->op < 0))
		return x->op < 0 ? 1 : -1;
	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return x->kname < y->kname ? -1 : x->kname > y->kname;
}

static const struct tl_fop *sort_op;

static int
cmp_bottleneck(const void *a, const void *b)
{
	const struct tl_fop *x = &sort_op[*(const int *)a];
	const struct tl_fop *y = &sort_op[*(const int *)b];

	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return *(const int *)a < *(const int *)b ? -1 : 1;
}

static int
cmp_rec(const void *a, const void *b)
{
	const struct tl_frec *x = a, *y = b;

	if (x->slot != y->slot)
		return x->slot ? -1 : 1;
	if (x->save_ns != y->save_ns)
		return x->save_ns > y->save_ns ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->pat != y->pat)
		return x->pat > y->pat ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

static struct tl_frec *
new_rec(struct tl_findings *f, size_t *cap)
{
	struct tl_frec *r;

	tl_grow(&f->rec, cap, (size_t)f->nrec + 1, sizeof(*f->rec));
	r = &f->rec[f->nrec++];
	memset(r, 0, sizeof(*r));
	r->pat = r->op = -1;
	return r;
}

/* 1 if every GPU event of op copies between host and device. */
static int
host_copy(const struct tl_fop *op)
{
	int k;

	if (op->nkern == 0 || op->kern_other_ns > 0)
		return 0;
	for (k = 0; k < op->nkern; k++)
		if (strstr(op->kern[k].name, "HtoD") == NULL &&
		    strstr(op->kern[k].name, "DtoH") == NULL)
			return 0;
	return 1;
}

/* Every op's recoverable time and priority, lowered when it is small. */
static void
ops(struct tl_findings *f, int64_t total)
{
	struct tl_fop *op;
	double t[3];
	int i, n;

	for (i = 0; i < f->nop; i++) {
		op = &f->op[i];
		op->covered = op->claimed_ns > 0 &&
		    op->claimed_ns * 2 >= op->time_ns;
		op->hostcopy = host_copy(op);
		n = tl_op_targets(op, t);
		op->save_ns = n == 0 ? -1 : tl_op_save_at(op, n > 1 ?
		    t[n - 2] : t[n - 1]);
		if (f->cat[op->cat].error != NULL)
			continue;
		op->prio = tl_priority_cap(&f->rules, op->seed_prio,
		    pct(op->save_ns >= 0 ? op->save_ns : op->covered ? 0 :
		    op->time_ns, total), &op->capped);
	}
	sort_op = f->op;
	if (f->nbottlenecks > 1)
		qsort(f->bottlenecks, (size_t)f->nbottlenecks,
		    sizeof(*f->bottlenecks), cmp_bottleneck);
}

static void
patterns(struct tl_findings *f, int64_t total)
{
	struct tl_fpat *p;
	double share;
	int i;

	for (i = 0; i < f->npat; i++) {
		p = &f->pat[i];
		if (p->nev > 1)
			qsort(p->ev, (size_t)p->nev, sizeof(*p->ev), cmp_ev);
		share = timeline_kind(p->kind) ? pct(p->save_ns, total) :
		    f->op_total_us > 0 ? (double)p->time_ns / 1e3 /
		    f->op_total_us * 100 : 0;
		/*
		 * Its efficiency: the share of its time the fix keeps (0
		 * for pure overhead such as layout kernels or idle).
		 */
		p->eff = p->time_ns > 0 && !p->unquantified ? (double)(p->time_ns -
		    (p->save_ns < p->time_ns ? p->save_ns : p->time_ns)) /
		    (double)p->time_ns * 100 : 0;
		p->seed_prio = tl_priority_rule(&f->rules, share,
		    p->time_ns > 0 && !p->unquantified, p->eff, 1,
		    &p->prio_rule);
		p->prio = tl_priority_cap(&f->rules, p->seed_prio,
		    pct(p->unquantified ? p->time_ns : p->save_ns, total),
		    &p->capped);
	}
}

/* The recommendations: patterns and uncovered bottlenecks, ranked. */
static void
recs(struct tl_findings *f, int64_t total)
{
	struct tl_frec *r;
	struct tl_fop *op;
	size_t cap = 0;
	double t[3];
	int i, n;

	for (i = 0; i < f->npat; i++) {
		if (f->pat[i].save_ns <= 0 && !f->pat[i].unquantified)
			continue;
		r = new_rec(f, &cap);
		r->pat = i;
		r->save_ns = f->pat[i].save_ns;
		r->lo_ns = f->pat[i].save_lo_ns;
		r->hi_ns = f->pat[i].save_hi_ns;
		r->upper = f->pat[i].upper;
		r->prio = f->pat[i].prio;
		r->prio_rule = f->pat[i].prio_rule;
		r->capped = f->pat[i].capped;
		r->slot = pct(f->pat[i].unquantified ? f->pat[i].time_ns :
		    r->save_ns, total) >= f->rules.slot_pct;
	}
	for (i = 0; i < f->nbottlenecks; i++) {
		op = &f->op[f->bottlenecks[i]];
		if (op->covered || op->hostcopy || op->save_ns <= 0 ||
		    (n = tl_op_targets(op, t)) == 0)
			continue;
		r = new_rec(f, &cap);
		r->op = f->bottlenecks[i];
		r->save_ns = op->save_ns;
		r->lo_ns = tl_op_save_at(op, t[0]);
		r->hi_ns = tl_op_save_at(op, t[n - 1]);
		r->prio = op->prio;
		r->prio_rule = op->prio_rule;
		r->capped = op->capped;
		r->slot = pct(r->save_ns, total) >= f->rules.slot_pct;
	}
	if (f->nrec > 1)
		qsort(f->rec, (size_t)f->nrec, sizeof(*f->rec), cmp_rec);
}

void
tl_analyst_run(struct tl_findings *f)
{
	int64_t total = tl_analyst_timeline(f);

	int r;

	tl_fusion_find(f);
	tl_kernsel_find(f);
	tl_gemmcause_find(f);
	tl_kcause_find(f);
	tl_schedule_find(f);
	f->cov.analysed_ns = f->nrow == 0 ? f->cov.model_ns : 0;
	/* Collectives and copies are judged by the patterns of their kind. */
	for (r = 0; r < f->nrow; r++)
		if (f->row[r].modelled || f->row[r].claim >= 0 ||
		    tl_category_is(f->op[f->row[r].op].cat, "comm") ||
		    tl_category_is(f->op[f->row[r].op].cat, "memcpy"))
			f->cov.analysed_ns += f->row[r].time_ns;
	ops(f, total);
	patterns(f, total);
	recs(f, total);
	tl_verdict_run(f);
}

void
tl_analyst_load(struct tl_findings *f, char *const *files, int nfiles)
{
	tl_findings_load(f, files, nfiles);
	tl_analyst_run(f);
}

void
tl_analyst_read(struct tl_findings *f, struct tl_stream *in)
{
	tl_findings_read(f, in);
	tl_analyst_run(f);
}
