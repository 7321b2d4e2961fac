/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/oprow.h"
#include "analysis/schedule.h"
#include "common/interval.h"
#include "common/util.h"
#include "stream/category.h"

static void
comm(struct tl_findings *f)
{
	struct tl_fpat *p = NULL;
	int64_t t = 0;
	int i, c = tl_category_index("comm");

	for (i = 0; i < f->ntr; i++)
		t += f->tr[i].comm_ns;
	if (t <= 0)
		return;
	p = tl_findings_pat(f, TL_PAT_COMM);
	p->where = tl_strdup("");
	p->example = tl_strdup("");
	p->detail = tl_strdup("");
	p->cat = c;
	p->time_ns = t;
	p->save_ns = p->save_lo_ns = p->save_hi_ns = t;
	p->upper = 1;
	for (i = 0; i < f->nop; i++)
		if (f->op[i].cat == c) {
			tl_fpat_ev(p, i, 0, f->op[i].count, f->op[i].time_ns);
			p->calls += f->op[i].count;
		}
}

int
tl_kern_pageable_h2d(const char *k)
{
	return strstr(k, "Pageable") != NULL && (strstr(k, "HtoD") != NULL ||
	    strstr(k, "Host -> Device") != NULL ||
	    strstr(k, "Pageable -> Device") != NULL);
}

int
tl_kern_is_copy(const char *k)
{
	return strncmp(k, "Memcpy", 6) == 0 || strncmp(k, "Memset", 6) == 0;
}

/*
 * tl_kern_pageable_h2d of kernel name id, found once per name: (*pk)[id]
 * is 0 not yet known, else 1 + the answer.
 */
static int
pageable_id(const struct tl_findings *f, uint32_t id, unsigned char **pk,
    size_t *npk)
{
	if (id >= *npk)
		tl_grow_set(pk, npk, (size_t)id + 1, 1, 0);
	if ((*pk)[id] == 0)
		(*pk)[id] = (unsigned char)(1 +
		    tl_kern_pageable_h2d(tl_fstr(f, id)));
	return (*pk)[id] - 1;
}

/*
 * Pageable host-to-device copies: their time, and the part of it no
 * other GPU work of the same trace overlaps.
 */
static void
pageable(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_fpat *p = NULL;
	struct tl_ivals *busy, copy = { 0 }, bare = { 0 };
	const struct tl_fkev *k;
	unsigned char *pk = NULL, *cp;
	size_t npk = 0;
	int r, i, t, pi = -1, hit;

	/* By kernel name id: 1 + tl_kern_is_copy, 0 not yet known. */
	cp = tl_calloc(tl_strtab_count(f->str) + 1, 1);
	busy = tl_calloc((size_t)f->ntr + 1, sizeof(*busy));
	for (r = 0; r < f->nrow; r++)
		for (i = 0; i < f->row[r].nk; i++) {
			k = &f->kev[f->row[r].k0 + i];
			if (cp[k->name] == 0)
				cp[k->name] = (unsigned char)(1 +
				    tl_kern_is_copy(tl_fstr(f, k->name)));
			if (cp[k->name] == 1)
				tl_ivals_add(&busy[f->row[r].tr], k->ts,
				    k->ts + k->dur);
		}
	free(cp);
	tl_patgroup_init(&g, f, TL_PAT_PAGEABLE);
	for (t = 0; t < f->ntr; t++) {
		tl_ivals_merge(&busy[t]);
		copy.n = 0;
		for (r = 0; r < f->nrow; r++) {
			if (f->row[r].tr != t)
				continue;
			for (i = 0, hit = 0; i < f->row[r].nk; i++) {
				k = &f->kev[f->row[r].k0 + i];
				if (!pageable_id(f, k->name, &pk, &npk))
					continue;
				if (pi < 0) {
					pi = tl_patgroup_get(&g, "", "");
					p = &f->pat[pi];
					p->cat = tl_category_index("memcpy");
					p->upper = 1;
				}
				tl_fpat_ev(p, -1, k->name, 1, k->dur);
				tl_ivals_add(&copy, k->ts, k->ts + k->dur);
				hit = 1;
			}
			if (hit) {
				tl_patgroup_row(&g, pi, r, f->row[r].claim < 0);
				p->calls++;
			}
		}
		if (copy.n == 0)
			continue;
		tl_ivals_merge(&copy);
		tl_ivals_subtract(&copy, &busy[t], &bare);
		p->save_ns += tl_ivals_length(&bare);
	}
	if (p != NULL)
		p->save_lo_ns = p->save_hi_ns = p->save_ns;
	for (t = 0; t < f->ntr; t++)
		tl_ivals_free(&busy[t]);
	free(busy);
	tl_ivals_free(&copy);
	tl_ivals_free(&bare);
	tl_patgroup_free(&g);
	free(pk);
}

/* Device-to-host copies with the idle that follows them. */
static void
syncs(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_fpat *p;
	int r, pi;

	tl_patgroup_init(&g, f, TL_PAT_SYNC);
	for (r = 0; r < f->nrow; r++) {
		/* Less the known culprits' part: their findings have it. */
		int64_t after = f->row[r].gap_after_ns -
		    f->row[r].known_after_ns;

		if (!f->row[r].d2h || after <= 0)
			continue;
		pi = tl_patgroup_get(&g, "", "");
		p = &f->pat[pi];
		/* The evidence of a synchronisation is the idle after it. */
		tl_fpat_ev(p, f->row[r].op, 0, 1, after);
		tl_patgroup_instance(&g, pi, f->row[r].module);
		if (p->example_row < 0)
			p->example_row = r;
		p->time_ns += f->row[r].time_ns;
		p->calls++;
		p->save_ns += after;
		p->cat = tl_category_index("memcpy");
		p->upper = 1;
		p->save_lo_ns = p->save_hi_ns = p->save_ns;
	}
	tl_patgroup_free(&g);
}

static int
cmp_ev_time(const void *a, const void *b)
{
	const struct tl_fpev *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return x->op - y->op;
}

/*
 * The gaps before GPU work no synchronisation explains, by the op that
 * ends each: the host not yet in it, inside it before the launch, the
 * launch latency and the wait past it.
 */
static void
idle(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_fpat *p = NULL;
	const struct tl_frow *row;
	int r, pi = -1;

	tl_patgroup_init(&g, f, TL_PAT_IDLE);
	for (r = 0; r < f->nrow; r++) {
		int64_t before;

		row = &f->row[r];
		/* Less the known culprits' part: their findings have it. */
		before = row->gap_before_ns - row->known_before_ns;
		if (before <= 0)
			continue;
		if (pi < 0) {
			pi = tl_patgroup_get(&g, "", "");
			p = &f->pat[pi];
			p->upper = 1;
			p->cat = -1;
		}
		tl_fpat_ev(p, row->op, 0, 1, before);
		tl_patgroup_instance(&g, pi, row->module);
		if (p->example_row < 0 || row->gap_before_ns >
		    f->row[p->example_row].gap_before_ns)
			p->example_row = r;
		p->calls += row->ngap_before;
		p->save_ns += before;
		p->part[0] += row->gap_late_ns - row->known_late_ns;
		p->part[1] += row->gap_in_op_ns - row->known_in_op_ns;
		p->part[3] += row->gap_wait_ns - row->known_wait_ns;
	}
	if (p == NULL) {
		tl_patgroup_free(&g);
		return;
	}
	p->time_ns = p->save_ns;
	p->part[2] = f->cov.has_launch ? p->save_ns - p->part[0] - p->part[1] -
	    p->part[3] : -1;
	p->save_lo_ns = p->save_hi_ns = p->save_ns;
	qsort(p->ev, (size_t)p->nev, sizeof(*p->ev), cmp_ev_time);
	tl_patgroup_free(&g);
}

/*
 * The known idle culprits, one pattern per known row (share/tl/
 * culprits.tsv or the user's): the idle their pieces cover in the
 * timeline's gaps, which the idle and synchronisation patterns leave to
 * them.
 */
static void
culprits(struct tl_findings *f)
{
	const struct tl_fidle *d = &f->idle;
	struct tl_fpat *p;
	long *pat;
	size_t i, k;
	int pi;

	if (d->known.n == 0)
		return;
	pat = tl_malloc(d->known.n * sizeof(*pat));
	for (k = 0; k < d->known.n; k++)
		pat[k] = -1;
	for (i = 0; i < d->n; i++) {
		const struct tl_fculprit *x = &d->c[i];

		if (x->known < 0 || x->found_ns <= 0)
			continue;
		if (pat[x->known] < 0) {
			p = tl_findings_pat(f, TL_PAT_CULPRIT);
			pat[x->known] = (long)(p - f->pat);
			p->where = tl_strdup(tl_fidle_kfield(d, x, TL_KC_KEY));
			p->example = tl_strdup("");
			p->detail = tl_strdup("");
			p->cat = -1;
			p->upper = 1;
			p->culprit = i;
		}
		pi = (int)pat[x->known];
		p = &f->pat[pi];
		p->time_ns += x->found_ns;
		p->save_ns = p->save_lo_ns = p->save_hi_ns = p->time_ns;
		p->calls += x->gaps;
		if (x->found_ns > d->c[p->culprit].found_ns)
			p->culprit = i;
	}
	free(pat);
}

/* A backward-pass op that is not a backward op's work. */
static int
maybe_recompute(const struct tl_findings *f, const struct tl_frow *row)
{
	const char *parent = tl_fstr(f, row->parent);

	return strstr(parent, "Backward") == NULL &&
	    strstr(parent, "backward") == NULL &&
	    strncmp(parent, "autograd::", 10) != 0 &&
	    strstr(parent, "reducer") == NULL &&
	    !tl_category_is(f->op[row->op].cat, "comm");
}

static void
recompute(struct tl_findings *f)
{
	struct tl_patgroup g;
	struct tl_fpat *p;
	unsigned char *fwd;
	int r, pi;

	fwd = tl_calloc((size_t)f->nop + 1, 1);
	for (r = 0; r < f->nrow; r++)
		if (!f->row[r].bwd)
			fwd[f->row[r].op] = 1;
	tl_patgroup_init(&g, f, TL_PAT_RECOMPUTE);
	for (r = 0; r < f->nrow; r++) {
		if (f->row[r].recompute == 1 && (!fwd[f->row[r].op] ||
		    !maybe_recompute(f, &f->row[r])))
			f->row[r].recompute = 0;
		if (f->row[r].recompute == 0 || f->row[r].time_ns <= 0)
			continue;
		pi = tl_patgroup_get(&g, "", "");
		p = &f->pat[pi];
		tl_patgroup_row(&g, pi, r, 0);
		p->calls++;
		p->save_ns += f->row[r].time_ns;
		p->save_lo_ns = p->save_hi_ns = p->save_ns;
		p->cat = -1;
	}
	free(fwd);
	tl_patgroup_free(&g);
}

void
tl_schedule_find(struct tl_findings *f)
{
	comm(f);
	if (f->nrow == 0)
		return;
	pageable(f);
	syncs(f);
	idle(f);
	culprits(f);
	recompute(f);
}
