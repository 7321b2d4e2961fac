/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/serving.h"
#include "common/json.h"
#include "common/tsv.h"
#include "common/util.h"
#include "stream/stream.h"

const char *const tl_sphase_names[TL_SPHASES] = {
	"", "prefill", "decode", "mixed"
};

enum {
	S_TRACE, S_NAME, S_CAT, S_TIME, S_ITER, S_PHASE, S_KIND, S_BOUND,
	S_ROOF, S_PARAMS, S_DIMS, S_N
};
const short tl_serving_cols[S_N] = {
	TL_COL_TRACE, TL_COL_NAME, TL_COL_CATEGORY, TL_COL_KERNEL_TIME_US,
	TL_COL_ITERATION, TL_COL_PHASE, TL_COL_ROW_KIND, TL_COL_BOUND,
	TL_COL_ROOFLINE_TIME_US, TL_COL_PARAMS, TL_COL_INPUT_DIMS
};

void
tl_serving_init(struct tl_serving *s, struct tl_rowreader *rr)
{
	memset(s, 0, sizeof(*s));
	s->rr = rr;
	tl_json_init(&s->j);
	tl_strmap_init(&s->params);
	tl_strmap_init(&s->iters);
	tl_strmap_init(&s->traces);
	s->last_iter = s->last_trace = -1;
}

/* 1 when a and b are the same text (the first byte first: per row). */
static int
same(const char *a, const char *b)
{
	return a[0] == b[0] && strcmp(a, b) == 0;
}

static int
phase_of(const char *v)
{
	int p;

	for (p = 1; p < TL_SPHASES; p++)
		if (same(v, tl_sphase_names[p]))
			return p;
	return 0;
}

/* The item named name (and dims) in *v, added when new. */
static struct tl_sitem *
item(struct tl_sitem **v, int *n, size_t *cap, const char *name,
    const char *dims)
{
	int i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i].name, name) == 0 && (dims == NULL ||
		    strcmp((*v)[i].dims, dims) == 0))
			return &(*v)[i];
	tl_grow(v, cap, (size_t)*n + 1, sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].name = tl_strdup(name);
	(*v)[*n].dims = dims != NULL ? tl_strdup(dims) : NULL;
	return &(*v)[(*n)++];
}

/*
 * The integer members keys[0..n) of the JSON object text s into v, each
 * -1 when missing or not an integer (all when s is not an object).
 */
static void
members(struct tl_json *j, const char *s, const char *const *keys, int n,
    int64_t *v)
{
	const char *err, *t;
	size_t len;
	int i, k, obj;

	obj = tl_json_parse(j, s, strlen(s), &err) >= 1 &&
	    tl_json_type(j, 0) == TL_J_OBJECT;
	for (i = 0; i < n; i++) {
		v[i] = -1;
		if (!obj || (k = tl_json_get(j, 0, keys[i],
		    strlen(keys[i]))) < 0 || tl_json_type(j, k) != TL_J_PRIM)
			continue;
		t = tl_json_text(j, k, &len);
		if (tl_parse_i64(t, len, &v[i]) != 0)
			v[i] = -1;
	}
}

/* A GEMM row: small-batch memory-bound time and its weight share. */
static void
gemm(struct tl_serving *s, struct tl_sphase *ph, int64_t ns, int op,
    const struct tl_field *rf)
{
	static const char *const mnk[] = { "M", "N", "K" };
	const struct tl_field *pf = tl_rr_field(s->rr,
	    tl_serving_cols[S_PARAMS]);
	const char *params = pf->s;
	struct tl_sitem *it;
	int64_t v[3], m, n, k, x = -1;
	int added;
	double roof = rf->has > 0 ? rf->d : 0;

	ph->gemm_ns += ns;
	/*
	 * A model's GEMMs repeat their params: each text is read once, and
	 * an op's rows repeat its last one (compared, not hashed).
	 */
	if (op >= 0 && (size_t)op < s->nopparams && s->opparams[op] > 0) {
		x = s->opparams[op] - 1;
		if (s->params.len[x] != pf->n ||
		    memcmp(tl_strmap_key(&s->params, x), params, pf->n) != 0)
			x = -1;
	}
	if (x < 0) {
		x = tl_strmap_add(&s->params, params, pf->n, &added);
		if (added) {
			members(&s->j, params, mnk, 3, v);
			tl_grow(&s->mnk, &s->capmnk, (size_t)x + 1,
			    sizeof(*s->mnk));
			memcpy(s->mnk[x], v, sizeof(v));
		}
		if (op >= 0) {
			if ((size_t)op >= s->nopparams)
				tl_grow_set(&s->opparams, &s->nopparams,
				    (size_t)op + 1, sizeof(*s->opparams), 0);
			s->opparams[op] = x + 1;
		}
	}
	m = s->mnk[x][0], n = s->mnk[x][1], k = s->mnk[x][2];
	if (m <= 0 || m > TL_SMALL_M || n <= 0 || k <= 0 ||
	    strcmp(tl_rr_text(s->rr, tl_serving_cols[S_BOUND]), "memory") != 0)
		return;
	ph->gemm_small_mem_ns += ns;
	ph->weight_share_ns += (double)ns * (double)(n * k) /
	    (double)(m * k + n * k + m * n);
	it = item(&ph->gemm, &ph->ngemm, &ph->capgemm,
	    tl_rr_text(s->rr, tl_serving_cols[S_NAME]), tl_rr_text(s->rr, tl_serving_cols[S_DIMS]));
	it->time_ns += ns;
	it->count++;
	it->m = m, it->n = n, it->k = k;
	it->roof_us += roof;
}

/*
 * The row's GPU events (those of its kernels column before any bad one):
 * attention kernels by name into ph, and the iteration's first start and
 * last end into it.
 */
static void
kernels(struct tl_sphase *ph, struct tl_siter *it, int attn,
    const struct tl_kernlist *kl)
{
	size_t i;

	for (i = 0; i < kl->n; i++) {
		const struct tl_kitem *k = &kl->v[i];

		if (it != NULL) {
			if (it->start < 0 || k->ts < it->start)
				it->start = k->ts;
			if (k->ts + k->dur > it->end)
				it->end = k->ts + k->dur;
		}
		if (attn) {
			struct tl_sitem *a = item(&ph->attn, &ph->nattn,
			    &ph->capattn, k->name, NULL);

			a->time_ns += k->dur;
			a->count++;
			ph->attn_ns += k->dur;
		}
	}
}

/* The iteration of the current row, added when new; NULL for none. */
static struct tl_siter *
iteration(struct tl_serving *s, int phase)
{
	const char *tr = tl_rr_text(s->rr, tl_serving_cols[S_TRACE]);
	const struct tl_field *f = tl_rr_field(s->rr, tl_serving_cols[S_ITER]);
	char key[64];
	int64_t x, trace;
	int added;
	size_t n;

	if (f->has <= 0)
		return NULL;
	trace = tl_strmap_add_last(&s->traces, &s->last_trace, tr, strlen(tr),
	    &added);
	/* "trace\037iteration", formatted by hand: this runs for every row. */
	n = tl_fmt_i64(key, trace);
	key[n++] = '\037';
	n += tl_fmt_i64(key + n, f->i);
	x = tl_strmap_add_last(&s->iters, &s->last_iter, key, n, &added);
	if (added) {
		tl_grow(&s->it, &s->capit, s->nit + 1, sizeof(*s->it));
		s->it[s->nit].trace = (int)trace;
		s->it[s->nit].number = f->i;
		s->it[s->nit].phase = phase;
		s->it[s->nit].start = -1;
		s->it[s->nit].end = -1;
		s->nit++;
		s->ph[phase].iterations++;
	}
	return &s->it[x];
}

void
tl_serving_row(struct tl_serving *s, const struct tl_kernlist *kl, int cat,
    int op, const struct tl_field *roof)
{
	const struct tl_field *tf;
	const char *catv, *name;
	struct tl_sphase *ph;
	int64_t ns;
	int phase;

	tf = tl_rr_field(s->rr, tl_serving_cols[S_TIME]);
	ns = tf->has > 0 && tf->i > 0 ? tf->i : 0;
	catv = tl_rr_text(s->rr, tl_serving_cols[S_CAT]);
	name = tl_rr_text(s->rr, tl_serving_cols[S_NAME]);
	phase = phase_of(tl_rr_text(s->rr, tl_serving_cols[S_PHASE]));
	s->has_phase |= phase != 0;
	s->has_iter |= tl_rr_text(s->rr, tl_serving_cols[S_ITER])[0] != '\0';
	ph = &s->ph[phase];
	ph->rows++;
	ph->time_ns += ns;
	ph->cat_ns[cat] += ns;
	s->total_ns += ns;
	if (same(tl_rr_text(s->rr, tl_serving_cols[S_KIND]), "synthetic")) {
		s->synthetic_ns += ns;
		if (strstr(name, "GraphLaunch") != NULL)
			s->graph_ns += ns;
	}
	if (same(catv, "moe")) {
		s->moe_ns += ns;
		if (roof->has > 0) {
			s->moe_modelled_ns += ns;
			s->moe_roof_us += roof->d;
		}
	}
	if (same(catv, "gemm"))
		gemm(s, ph, ns, op, roof);
	kernels(ph, iteration(s, phase), same(catv, "attention"), kl);
}

static int
cmp_iter(const void *a, const void *b)
{
	const struct tl_siter *x = a, *y = b;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int
cmp_item(const void *a, const void *b)
{
	const struct tl_sitem *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

void
tl_serving_finish(struct tl_serving *s)
{
	size_t i;
	int p;

	for (p = 0; p < TL_SPHASES; p++) {
		if (s->ph[p].ngemm > 0)
			qsort(s->ph[p].gemm, (size_t)s->ph[p].ngemm,
			    sizeof(*s->ph[p].gemm), cmp_item);
		if (s->ph[p].nattn > 0)
			qsort(s->ph[p].attn, (size_t)s->ph[p].nattn,
			    sizeof(*s->ph[p].attn), cmp_item);
	}
	if (s->nit > 0)
		qsort(s->it, s->nit, sizeof(*s->it), cmp_iter);
	for (i = 0; i < s->nit; i++) {
		const struct tl_siter *a = &s->it[i];

		if (a->start < 0)
			continue;
		s->span_ns += a->end - a->start;
		if (i == 0 || s->it[i - 1].trace != a->trace ||
		    s->it[i - 1].start < 0)
			continue;
		if (a->start > s->it[i - 1].end) {
			int64_t g = a->start - s->it[i - 1].end;

			s->gap_ns += g;
			s->span_ns += g;
			if (g > s->gap_max_ns)
				s->gap_max_ns = g;
		}
		s->ngaps++;
	}
}

static void
items_free(struct tl_sitem *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].dims);
	}
	free(v);
}

void
tl_serving_free(struct tl_serving *s)
{
	int p;

	for (p = 0; p < TL_SPHASES; p++) {
		items_free(s->ph[p].gemm, s->ph[p].ngemm);
		items_free(s->ph[p].attn, s->ph[p].nattn);
	}
	free(s->it);
	tl_json_free(&s->j);
	tl_strmap_free(&s->params);
	free(s->mnk);
	free(s->opparams);
	tl_strmap_free(&s->iters);
	tl_strmap_free(&s->traces);
	memset(s, 0, sizeof(*s));
}

int
tl_serving_any(const struct tl_serving *s)
{
	return s->has_phase || s->moe_ns > 0 || s->graph_ns > 0;
}
