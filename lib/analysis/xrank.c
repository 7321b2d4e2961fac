/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/xrank.h"
#include "common/idxsort.h"
#include "common/tsv.h"
#include "common/util.h"

/* One rank's record of one collective instance. */
struct tl_xinst {
	int tr;
	int ordered;		/* seq is the order on the rank (no Seq) */
	int64_t key;		/* index in x->str of its matching key */
	int64_t pg;		/* index in x->str of its process group */
	int64_t type;		/* index in x->str of its type */
	int64_t seq;
	int64_t bytes;		/* largest of in/out bytes; -1 unknown */
	int64_t group;		/* group size; 0 unknown */
	int64_t start, end;	/* its kernels, own clock */
	int64_t iter;		/* its iteration, -1 none */
	int64_t exposed;	/* no compute kernel overlaps; -1 not yet */
};

/* A compute kernel of a rank, for the overlap of its collectives. */
struct tl_xspan {
	int tr;
	int64_t start, end;
};

/* One rank's iteration: its kernels' span. */
struct tl_xstep {
	int tr;
	int64_t iter;
	int64_t start, end;
};

void
tl_xrank_init(struct tl_xrank *x)
{
	memset(x, 0, sizeof(*x));
	tl_strmap_init(&x->str);
	tl_strmap_init(&x->steps);
	tl_strmap_init(&x->ops);
	x->straggler = x->slowest = -1;
	x->laststep[0] = -1;
}

void
tl_xrank_free(struct tl_xrank *x)
{
	tl_strmap_free(&x->str);
	tl_strmap_free(&x->steps);
	tl_strmap_free(&x->ops);
	free(x->in);
	free(x->step);
	free(x->optime);
	free(x->opk);
	tl_ahead_free(&x->busy, &x->busyahead);
	free(x->rk);
	free(x->outlier);
	free(x->cul);
	free(x->show);
	free(x->res);
	memset(x, 0, sizeof(*x));
}

static struct tl_xrk *
rank_at(struct tl_xrank *x, int tr)
{
	if (tr >= x->nrk) {
		tl_grow(&x->rk, &x->caprk, (size_t)tr + 1, sizeof(*x->rk));
		memset(x->rk + x->nrk, 0, ((size_t)tr + 1 - (size_t)x->nrk) *
		    sizeof(*x->rk));
		for (; x->nrk <= tr; x->nrk++) {
			x->rk[x->nrk].rank = -1;
			x->rk[x->nrk].name = x->rk[x->nrk].gpu =
			    x->rk[x->nrk].hw = x->rk[x->nrk].rank_text = "";
		}
	}
	return &x->rk[tr];
}

/* s interned in x->str: a copy that lives as long as x. */
static const char *
intern(struct tl_xrank *x, const char *s)
{
	int added;

	return tl_strmap_key(&x->str, tl_strmap_add(&x->str, s, strlen(s),
	    &added));
}

void
tl_xrank_trace(struct tl_xrank *x, int tr, const char *name,
    const char *rank, const char *gpu, const char *hw,
    const int64_t tlc[TL_TLC_N])
{
	struct tl_xrk *r = rank_at(x, tr);
	char *end;
	long v;

	r->name = intern(x, name);
	r->gpu = intern(x, gpu);
	r->hw = intern(x, hw != NULL ? hw : "");
	r->rank_text = intern(x, rank);
	v = strtol(rank, &end, 10);
	r->rank = rank[0] != '\0' && *end == '\0' && v >= 0 ? v : -1;
	memcpy(r->tlc, tlc, sizeof(r->tlc));
	r->busy_ns = tlc[TL_TLC_BUSY];
	r->compute_ns = tlc[TL_TLC_COMPUTE];
	r->idle_ns = tlc[TL_TLC_IDLE];
}

void
tl_xrank_span(struct tl_xrank *x, int tr, int64_t first, int64_t last)
{
	struct tl_xrk *r = rank_at(x, tr);

	if (r->first_ns == 0 && r->last_ns == 0)
		r->first_ns = first, r->last_ns = last;
	if (first < r->first_ns)
		r->first_ns = first;
	if (last > r->last_ns)
		r->last_ns = last;
}

void
tl_xrank_culprit(struct tl_xrank *x, int tr, const char *kind,
    const char *name, int64_t ns)
{
	struct tl_xcul *c;

	rank_at(x, tr);
	tl_grow(&x->cul, &x->capcul, x->ncul + 1, sizeof(*x->cul));
	c = &x->cul[x->ncul++];
	c->tr = tr;
	c->kind = intern(x, kind);
	c->name = intern(x, name);
	c->ns = ns;
}

static int64_t
jint(struct tl_json *j, const char *key, int64_t dflt)
{
	return tl_json_get_i64(j, 0, key, dflt);
}

static const char *
jstr(struct tl_json *j, const char *key, size_t *n)
{
	int k = tl_json_get(j, 0, key, strlen(key));

	if (k < 0 || tl_json_type(j, k) != TL_J_STRING) {
		*n = 0;
		return "";
	}
	return tl_json_text(j, k, n);
}

/*
 * Index of "a\037b" in m, added when added != NULL, else -1 when absent.
 * Longer keys than the buffer are cut (the names stay told apart by
 * their first 500 bytes).
 */
static int64_t
key2(struct tl_strmap *m, const char *a, size_t na, const char *b,
    size_t nb, int *added)
{
	char buf[512];

	if (na > 16)
		na = 16;
	if (na + nb + 1 > sizeof(buf))
		nb = sizeof(buf) - na - 1;
	memcpy(buf, a, na);
	buf[na] = '\037';
	memcpy(buf + na + 1, b, nb);
	if (added == NULL)
		return tl_strmap_get(m, buf, na + nb + 1);
	return tl_strmap_add(m, buf, na + nb + 1, added);
}

void
tl_xrank_step(struct tl_xrank *x, int tr, int64_t iter, int64_t lo,
    int64_t hi)
{
	char num[48];
	size_t n;
	int64_t k;
	int added;

	rank_at(x, tr);
	added = 0;
	if (x->laststep[0] == tr && x->laststep[1] == iter)
		k = x->laststep[2];	/* rows of a step come together */
	else {
		/* "tr:iter" by hand: this runs for every step's rows. */
		n = tl_fmt_i64(num, tr);
		num[n++] = ':';
		n += tl_fmt_i64(num + n, iter);
		k = tl_strmap_add(&x->steps, num, n, &added);
		x->laststep[0] = tr;
		x->laststep[1] = iter;
		x->laststep[2] = k;
	}
	if (added) {
		tl_grow(&x->step, &x->capstep, (size_t)k + 1,
		    sizeof(*x->step));
		x->step[k].tr = tr;
		x->step[k].iter = iter;
		x->step[k].start = lo;
		x->step[k].end = hi;
	}
	if (lo < x->step[k].start)
		x->step[k].start = lo;
	if (hi > x->step[k].end)
		x->step[k].end = hi;
}

/* Op name's entry of trace tr in optime, added when new. */
static int64_t
op_at(struct tl_xrank *x, int tr, const char *name)
{
	char num[32];
	int64_t k;
	int added;

	rank_at(x, tr);
	k = key2(&x->ops, num, tl_fmt_i64(num, tr), name, strlen(name),
	    &added);
	if (added) {
		tl_grow(&x->optime, &x->capop, (size_t)k + 1,
		    sizeof(*x->optime));
		x->optime[k] = 0;
	}
	return k;
}

void
tl_xrank_op(struct tl_xrank *x, int tr, const char *name, int64_t ns)
{
	int64_t k = op_at(x, tr, name);	/* may move optime */

	x->optime[k] += ns;
}

/* The same for the caller's op op (tl_xrank_row), of name name. */
static void
op_add(struct tl_xrank *x, int tr, const char *name, int op, int64_t ns)
{
	struct tl_xopk *o;
	size_t i, old = x->nopk;

	if ((size_t)op >= x->nopk) {
		tl_grow(&x->opk, &x->nopk, (size_t)op + 1, sizeof(*x->opk));
		for (i = old; i < x->nopk; i++)
			x->opk[i].tr = -1;
	}
	o = &x->opk[op];
	if (o->tr != tr) {
		o->k = op_at(x, tr, name);
		o->tr = tr;
	}
	x->optime[o->k] += ns;
}

void
tl_xrank_inst(struct tl_xrank *x, int tr, const struct tl_xin *v)
{
	struct tl_xinst *in;
	int added;

	rank_at(x, tr);
	tl_grow(&x->in, &x->capin, x->nin + 1, sizeof(*x->in));
	in = &x->in[x->nin++];
	in->tr = tr;
	in->ordered = v->ordered;
	in->key = -1;
	in->pg = tl_strmap_add(&x->str, v->pg, strlen(v->pg), &added);
	in->type = tl_strmap_add(&x->str, v->type, strlen(v->type), &added);
	in->seq = v->seq;
	in->bytes = v->bytes;
	in->group = v->group;
	in->start = v->start;
	in->end = v->end;
	in->iter = v->iter;
	in->exposed = v->exposed;
	if (in->group > x->rk[tr].world)
		x->rk[tr].world = in->group;
}

void
tl_xrank_row(struct tl_xrank *x, int tr, const char *name, int op,
    int is_comm, const char *coll, const struct tl_kernlist *kl,
    int64_t iteration, struct tl_json *j)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, ns = 0;
	const char *err;
	size_t i, n;

	for (i = 0; i < kl->n; i++) {
		if (kl->v[i].ts < lo)
			lo = kl->v[i].ts;
		if (kl->v[i].ts + kl->v[i].dur > hi)
			hi = kl->v[i].ts + kl->v[i].dur;
	}
	rank_at(x, tr);
	if (kl->n > 0)
		tl_xrank_span(x, tr, lo, hi);
	if (kl->n > 0 && iteration >= 0)
		tl_xrank_step(x, tr, iteration, lo, hi);
	if (!is_comm) {
		for (i = 0; i < kl->n; i++) {
			ns += kl->v[i].dur;
			if (kl->v[i].dur <= 0)
				continue;
			tl_grow_ahead(&x->busy, &x->capbusy, x->nbusy + 1,
			    sizeof(*x->busy), &x->busyahead);
			x->busy[x->nbusy].tr = tr;
			x->busy[x->nbusy].start = kl->v[i].ts;
			x->busy[x->nbusy++].end = kl->v[i].ts + kl->v[i].dur;
		}
		op_add(x, tr, name, op, ns);
		return;
	}
	if (coll[0] == '\0' || kl->n == 0 ||
	    tl_json_parse(j, coll, strlen(coll), &err) <= 0 ||
	    tl_json_type(j, 0) != TL_J_OBJECT)
		return;
	{
		struct tl_xin v;
		char pg[128], type[64];
		const char *s;
		int64_t ib, ob;

		v.seq = jint(j, "seq", -1);
		if (v.seq < 0)
			return;
		v.iter = iteration;
		v.start = lo;
		v.end = hi;
		v.exposed = -1;
		v.group = jint(j, "group_size", 0);
		ib = jint(j, "in_bytes", -1);
		ob = jint(j, "out_bytes", -1);
		v.bytes = ib > ob ? ib : ob;
		s = jstr(j, "type", &n);
		if (n == 0 || n >= sizeof(type))
			s = "unknown", n = 7;
		memcpy(type, s, n);
		type[n] = '\0';
		v.type = type;
		s = jstr(j, "pg_name", &n);
		if (n >= sizeof(pg))
			n = sizeof(pg) - 1;
		memcpy(pg, s, n);
		pg[n] = '\0';
		v.pg = pg;
		s = jstr(j, "seq_source", &n);
		v.ordered = n == 5 && memcmp(s, "order", 5) == 0;
		tl_xrank_inst(x, tr, &v);
	}
}

void
tl_xrank_links(struct tl_xrank *x, double link_gbs, const char *name,
    long ranks_per_node, double net_gbs)
{
	x->link_gbs = link_gbs;
	x->link_name = name;
	x->ranks_per_node = ranks_per_node;
	x->net_gbs = net_gbs;
}

double
tl_xrank_busbw_factor(const char *type, int64_t n)
{
	double d = (double)n;

	/*
	 * nccl-tests, doc/PERFORMANCE.md: AllReduce 2(n-1)/n,
	 * ReduceScatter, AllGather and AlltoAll (n-1)/n, Broadcast, Reduce
	 * and SendRecv 1.
	 */
	if (n < 1)
		return 0;
	if (strcmp(type, "all_reduce") == 0)
		return 2 * (d - 1) / d;
	if (strcmp(type, "reduce_scatter") == 0 ||
	    strcmp(type, "all_gather") == 0 ||
	    strcmp(type, "all_to_all") == 0)
		return (d - 1) / d;
	if (strcmp(type, "broadcast") == 0 || strcmp(type, "reduce") == 0 ||
	    strcmp(type, "send_recv") == 0 || strcmp(type, "send") == 0 ||
	    strcmp(type, "recv") == 0)
		return 1;
	return 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t
median(int64_t *v, size_t n)
{
	return n == 0 ? 0 : tl_kth_i64(v, n, n / 2);
}

/* Instances by key, then rank. */
static const struct tl_xinst *sort_base;

static int
cmp_inst(const void *a, const void *b)
{
	const struct tl_xinst *x = &sort_base[*(const int32_t *)a];
	const struct tl_xinst *y = &sort_base[*(const int32_t *)b];

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->tr > y->tr) - (x->tr < y->tr);
}

/* The matching keys: pg and seq, or pg, iteration and ordinal. */
static void
make_keys(struct tl_xrank *x)
{
	struct tl_strmap first;	/* (tr, pg, iter) -> its first seq */
	int64_t *firstseq = NULL;
	size_t cap = 0, i;
	char buf[320];
	int added, noiter = 0;

	tl_strmap_init(&first);
	for (i = 0; i < x->nin; i++) {
		const struct tl_xinst *p = &x->in[i];
		int64_t k;

		if (!p->ordered)
			continue;
		if (p->iter < 0)
			noiter = 1;
		snprintf(buf, sizeof(buf), "%d\037%s\037%lld", p->tr,
		    tl_strmap_key(&x->str, p->pg), (long long)p->iter);
		k = tl_strmap_add(&first, buf, strlen(buf), &added);
		if (added) {
			tl_grow(&firstseq, &cap, (size_t)k + 1,
			    sizeof(*firstseq));
			firstseq[k] = p->seq;
		} else if (p->seq < firstseq[k])
			firstseq[k] = p->seq;
	}
	for (i = 0; i < x->nin; i++) {
		const struct tl_xinst *p = &x->in[i];
		const char *pg = tl_strmap_key(&x->str, p->pg);

		if (!p->ordered)
			snprintf(buf, sizeof(buf), "%s\037s%lld", pg,
			    (long long)p->seq);
		else if (p->iter >= 0) {
			char b2[320];

			snprintf(b2, sizeof(b2), "%d\037%s\037%lld", p->tr,
			    pg, (long long)p->iter);
			snprintf(buf, sizeof(buf), "%s\037i%lld:%lld", pg,
			    (long long)p->iter, (long long)(p->seq -
			    firstseq[tl_strmap_get(&first, b2, strlen(b2))]));
		} else
			snprintf(buf, sizeof(buf), "%s\037o%lld", pg,
			    (long long)p->seq);
		x->in[i].key = tl_strmap_add(&x->str, buf, strlen(buf),
		    &added);
	}
	x->by_order = noiter;
	free(firstseq);
	tl_strmap_free(&first);
}

/* A matched instance: its members in in[idx[lo..hi)]. */
struct grp {
	size_t lo, hi;
	int64_t pgkey;
};

static int
type_slot(struct tl_xrank *x, const char *type)
{
	int i;

	for (i = 0; i < x->ntype; i++)
		if (strcmp(x->type[i].type, type) == 0)
			return i;
	if (x->ntype == TL_XTYPE_MAX)
		return -1;
	x->type[x->ntype].type = type;
	return x->ntype++;
}

/* The pg part of key k ("pg\037..."): its length. */
static size_t
pg_len(const struct tl_xrank *x, int64_t k)
{
	const char *s = tl_strmap_key(&x->str, k);

	return (size_t)(strchr(s, '\037') - s);
}

static void
offsets(struct tl_xrank *x, const int32_t *idx, const struct grp *g,
    size_t ng)
{
	int64_t *d = tl_calloc(ng + 1, sizeof(*d)), *spread;
	size_t i, k, nd;
	int r;

	/* The reference: the lowest rank (the first trace without ranks). */
	x->ref = 0;
	for (r = 1; r < x->nrk; r++)
		if (x->rk[r].rank >= 0 && (x->rk[x->ref].rank < 0 ||
		    x->rk[r].rank < x->rk[x->ref].rank))
			x->ref = r;
	for (r = 0; r < x->nrk; r++) {
		nd = 0;
		for (i = 0; i < ng; i++) {
			int64_t er = INT64_MIN, e0 = INT64_MIN;

			for (k = g[i].lo; k < g[i].hi; k++) {
				const struct tl_xinst *in = &x->in[idx[k]];

				if (in->tr == r)
					er = in->end;
				if (in->tr == x->ref)
					e0 = in->end;
			}
			if (er != INT64_MIN && e0 != INT64_MIN)
				d[nd++] = e0 - er;
		}
		x->rk[r].aligned = nd > 0;
		x->rk[r].offset_ns = median(d, nd);
		if (nd == 0)
			x->unaligned++;
	}
	x->offset_lo_ns = x->offset_hi_ns = x->rk[0].offset_ns;
	for (r = 1; r < x->nrk; r++) {
		if (x->rk[r].offset_ns < x->offset_lo_ns)
			x->offset_lo_ns = x->rk[r].offset_ns;
		if (x->rk[r].offset_ns > x->offset_hi_ns)
			x->offset_hi_ns = x->rk[r].offset_ns;
	}
	/* What is left: the spread of the aligned ends, per instance. */
	spread = d;
	for (i = 0; i < ng; i++) {
		int64_t lo = INT64_MAX, hi = INT64_MIN;

		for (k = g[i].lo; k < g[i].hi; k++) {
			const struct tl_xinst *in = &x->in[idx[k]];
			int64_t e = in->end + x->rk[in->tr].offset_ns;

			lo = e < lo ? e : lo;
			hi = e > hi ? e : hi;
		}
		spread[i] = hi - lo;
	}
	x->residual_ns = median(spread, ng);
	free(d);
}

/* The steps rank r recorded (at least 1). */
static int64_t
own_steps(const struct tl_xrank *x, int r)
{
	return x->rk[r].nsteps > 0 ? x->rk[r].nsteps : 1;
}

/* The straggler's extra time by op name, per step, against the median. */
static void
extra_ops(struct tl_xrank *x, int s)
{
	size_t i, no = x->ops.n;
	int64_t *v = tl_calloc((size_t)x->nrk + 1, sizeof(*v));
	char num[32];
	int r;

	snprintf(num, sizeof(num), "%d", s);
	for (i = 0; i < no; i++) {
		const char *k = tl_strmap_key(&x->ops, (int64_t)i);
		const char *name = strchr(k, '\037') + 1;
		size_t nn = strlen(name), n = 0;
		int64_t mine, med, e;
		int j;

		if ((size_t)(name - 1 - k) != strlen(num) ||
		    memcmp(k, num, strlen(num)) != 0)
			continue;
		mine = x->optime[i];
		for (r = 0; r < x->nrk; r++) {
			char b[32];
			int64_t o;

			if (r == s)
				continue;
			snprintf(b, sizeof(b), "%d", r);
			o = key2(&x->ops, b, strlen(b), name, nn, NULL);
			if (o < 0 || (size_t)o >= no) {
				v[n++] = 0;
				continue;
			}
			v[n++] = x->optime[o] / own_steps(x, r);
		}
		med = median(v, n);
		e = mine / own_steps(x, s) - med;
		if (e <= 0)
			continue;
		for (j = x->nextra; j > 0 && x->extra[j - 1].extra_ns < e; j--)
			if (j < 3)
				x->extra[j] = x->extra[j - 1];
		if (j < 3) {
			x->extra[j].name = name;
			x->extra[j].extra_ns = e;
			if (x->nextra < 3)
				x->nextra++;
		}
	}
	free(v);
}

/*
 * Each rank's median step (iteration span of its kernels), the slowest
 * rank's, and the steps the analysis divides by: the iterations the
 * ranks recorded (the most any rank has), else 1 (the window).
 */
static int64_t
steps(struct tl_xrank *x)
{
	size_t i, n;
	int64_t *v = tl_calloc(x->steps.n + 1, sizeof(*v)), most = 1;
	int r;

	for (r = 0; r < x->nrk; r++) {
		for (i = n = 0; i < x->steps.n; i++)
			if (x->step[i].tr == r)
				v[n++] = x->step[i].end - x->step[i].start;
		x->rk[r].nsteps = (long)n;
		x->rk[r].step_ns = n > 0 ? median(v, n) :
		    x->rk[r].last_ns - x->rk[r].first_ns;
		if ((int64_t)n > most)
			most = (int64_t)n;
		if (x->slowest < 0 ||
		    x->rk[r].step_ns > x->rk[x->slowest].step_ns)
			x->slowest = r;
	}
	x->step_ns = x->rk[x->slowest].step_ns;
	free(v);
	return most;
}

/*
 * The steps the matched instances span: their distinct iterations, or 1
 * (the window) without iterations.
 */
static int64_t
matched_steps(struct tl_xrank *x, const int32_t *idx, const struct grp *g,
    size_t ng)
{
	int64_t *it = tl_calloc(ng + 1, sizeof(*it)), n = 0;
	size_t i, k = 0;

	for (i = 0; i < ng; i++)
		if (x->in[idx[g[i].lo]].iter >= 0)
			it[k++] = x->in[idx[g[i].lo]].iter;
	if (k > 1)
		qsort(it, k, sizeof(*it), cmp_i64);
	for (i = 0; i < k; i++)
		if (i == 0 || it[i] != it[i - 1])
			n++;
	free(it);
	x->nsteps = n > 0 ? (long)n : 1;
	return x->nsteps;
}

static const int64_t *late_base;

static int
cmp_late(const void *a, const void *b)
{
	int64_t x = late_base[*(const int *)a], y = late_base[*(const int *)b];

	return (x < y) - (x > y);
}

/*
 * The straggler: the rank with the largest mean arrival after the median
 * rank, when it arrives last at most instances, waits no more than the
 * median rank and is late by more than the clocks' residual (three times
 * it) and 20 us.  Its cost per step: what the others would not wait if it
 * arrived with the second-last (sec, summed over instances).  Per-step
 * values divide by nsteps.
 */
static void
judge(struct tl_xrank *x, int64_t nsteps, int64_t meanlate, int64_t sec)
{
	int64_t *w = tl_calloc((size_t)x->nrk + 1, sizeof(*w)), mw, mi, mc;
	int r, s = 0, n = 0, *ord;
	int64_t thr;

	(void)meanlate;
	for (r = 0; r < x->nrk; r++)
		if (x->rk[r].late_ns > x->rk[s].late_ns)
			s = r;
	for (r = 0; r < x->nrk; r++)
		w[n++] = x->rk[r].wait_ns;
	mw = median(w, (size_t)n);
	x->wait_ns = mw / nsteps;
	x->xfer_ns /= nsteps;
	x->slow_extra_ns /= nsteps;
	thr = 3 * x->residual_ns > 20000 ? 3 * x->residual_ns : 20000;
	if (x->rk[s].late_ns / x->matched > thr &&
	    2 * x->rk[s].last >= x->matched && x->rk[s].wait_ns <= mw) {
		x->straggler = s;
		x->late_ns = x->rk[s].late_ns / x->matched;
		x->recover_ns = sec / nsteps;
		if (x->recover_ns > x->step_ns)
			x->recover_ns = x->step_ns;
		/* Where its time goes: idle (host) or compute, vs median. */
		for (r = n = 0; r < x->nrk; r++)
			if (r != s)
				w[n++] = x->rk[r].idle_ns / own_steps(x, r);
		mi = median(w, (size_t)n);
		for (r = n = 0; r < x->nrk; r++)
			if (r != s)
				w[n++] = x->rk[r].compute_ns / own_steps(x, r);
		mc = median(w, (size_t)n);
		x->extra_idle_ns = x->rk[s].idle_ns / own_steps(x, s) - mi;
		x->extra_compute_ns = x->rk[s].compute_ns / own_steps(x, s) -
		    mc;
		x->host_bound = x->extra_idle_ns > x->extra_compute_ns;
		extra_ops(x, s);
	}
	/* The most outlying ranks: by arrival after the median. */
	ord = tl_calloc((size_t)x->nrk, sizeof(*ord));
	for (r = 0; r < x->nrk; r++)
		ord[r] = r;
	for (r = 0; r < x->nrk; r++)
		w[r] = x->rk[r].late_ns;
	late_base = w;
	if ((size_t)x->nrk > 1)
		qsort(ord, (size_t)x->nrk, sizeof(*ord), cmp_late);
	x->noutlier = x->nrk < TL_XTOP ? x->nrk : TL_XTOP;
	x->outlier = ord;
	for (r = 0; r < x->ntype; r++) {
		struct tl_xtype *t = &x->type[r];

		if (t->xfer_ns > 0 && t->bytes > 0) {
			t->algbw = (double)t->bytes / (double)t->xfer_ns;
			t->busbw = t->algbw * tl_xrank_busbw_factor(t->type,
			    t->group);
		}
	}
	free(w);
}

static int
cmp_span(const void *a, const void *b)
{
	const struct tl_xspan *x = a, *y = b;

	if (x->tr != y->tr)
		return x->tr < y->tr ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

/*
 * The compute kernels as a union of intervals per trace (merged in
 * place); first[tr] .. first[tr + 1] are trace tr's.
 */
static size_t *
busy_union(struct tl_xrank *x)
{
	size_t *first = tl_calloc((size_t)x->nrk + 2, sizeof(*first));
	size_t i, n = 0;
	int r;

	if (x->nbusy > 1)
		qsort(x->busy, x->nbusy, sizeof(*x->busy), cmp_span);
	for (i = 0; i < x->nbusy; i++) {
		if (n > 0 && x->busy[n - 1].tr == x->busy[i].tr &&
		    x->busy[i].start <= x->busy[n - 1].end) {
			if (x->busy[i].end > x->busy[n - 1].end)
				x->busy[n - 1].end = x->busy[i].end;
			continue;
		}
		x->busy[n++] = x->busy[i];
	}
	x->nbusy = n;
	for (r = 0, i = 0; r <= x->nrk; r++) {
		while (i < n && x->busy[i].tr < r)
			i++;
		first[r] = i;
	}
	first[x->nrk + 1] = n;
	return first;
}

/* The part of [s, e) of trace tr that no compute kernel covers. */
static int64_t
exposed(const struct tl_xrank *x, const size_t *first, int tr, int64_t s,
    int64_t e)
{
	size_t lo = first[tr], hi = first[tr + 1], mid;
	int64_t cov = 0;

	while (lo < hi) {	/* the first interval ending after s */
		mid = (lo + hi) / 2;
		if (x->busy[mid].end <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < first[tr + 1] && x->busy[lo].start < e; lo++) {
		int64_t a = x->busy[lo].start > s ? x->busy[lo].start : s;
		int64_t b = x->busy[lo].end < e ? x->busy[lo].end : e;

		if (b > a)
			cov += b - a;
	}
	return e - s - cov;
}

/*
 * Per type over every instance of every rank: exposed and kernel time,
 * and, with one trace, count, bytes and the bandwidths over the kernel
 * time; then the expected bandwidth where the ranks per node say which
 * link carries the group.
 */
static void
per_type(struct tl_xrank *x, int single)
{
	size_t i;
	int k, nt = x->nrk > 0 ? x->nrk : 1;

	for (i = 0; i < x->nin; i++) {
		const struct tl_xinst *in = &x->in[i];
		int slot = type_slot(x, tl_strmap_key(&x->str, in->type));
		int64_t ex = in->exposed;

		x->coll_ns += in->end - in->start;
		x->exposed_ns += ex;
		if (slot < 0)
			continue;
		x->type[slot].exposed_ns += ex;
		x->type[slot].ranks_kernel_ns += in->end - in->start;
		if (in->group > x->type[slot].group)
			x->type[slot].group = in->group;
		if (!single)
			continue;
		x->type[slot].count++;
		x->type[slot].kernel_ns += in->end - in->start;
		x->type[slot].xfer_ns += in->end - in->start;
		if (in->bytes > 0)
			x->type[slot].bytes += in->bytes;
		if (in->bytes >= 0 && in->bytes < (1 << 20))
			x->type[slot].small++;
		if (strcmp(tl_strmap_key(&x->str, in->type), "unknown") == 0)
			x->unknown_type++;
	}
	for (k = 0; k < x->ntype; k++) {
		struct tl_xtype *t = &x->type[k];

		x->small_per_step += t->small;
		if (single && t->xfer_ns > 0 && t->bytes > 0) {
			t->algbw = (double)t->bytes / (double)t->xfer_ns;
			t->busbw = t->algbw * tl_xrank_busbw_factor(t->type,
			    t->group);
		}
		t->across_nodes = x->ranks_per_node <= 0 || t->group <= 0 ?
		    -1 : t->group > x->ranks_per_node;
		if (t->across_nodes == 0)
			t->expected_gbs = x->link_gbs;
		else if (t->across_nodes == 1)
			t->expected_gbs = x->net_gbs;
	}
	x->coll_ns /= nt;
	x->exposed_ns /= nt;
}

/* The ranks per-rank charts show (x->show). */
static void
show(struct tl_xrank *x)
{
	char *in = tl_calloc((size_t)x->nrk + 1, 1);
	int r, k;

	x->show = tl_calloc((size_t)x->nrk + 1, sizeof(*x->show));
	x->show_all = x->nrk <= TL_XSHOW || x->noutlier == 0;
	if (x->show_all)
		memset(in, 1, (size_t)x->nrk);
	else {
		for (k = 0; k < x->noutlier; k++)
			in[x->outlier[k]] = 1;
		if (x->straggler >= 0)
			in[x->straggler] = 1;
		if (x->slowest >= 0)
			in[x->slowest] = 1;
		in[x->ref] = 1;
	}
	for (r = 0; r < x->nrk; r++)
		if (in[r])
			x->show[x->nshow++] = r;
	free(in);
}

void
tl_xrank_get_inst(const struct tl_xrank *x, size_t i, int *tr,
    struct tl_xin *v)
{
	const struct tl_xinst *in = &x->in[i];

	*tr = in->tr;
	v->pg = tl_strmap_key(&x->str, in->pg);
	v->type = tl_strmap_key(&x->str, in->type);
	v->seq = in->seq;
	v->ordered = in->ordered;
	v->iter = in->iter;
	v->bytes = in->bytes;
	v->group = in->group;
	v->start = in->start;
	v->end = in->end;
	v->exposed = in->exposed;
}

size_t
tl_xrank_nsteps(const struct tl_xrank *x)
{
	return x->steps.n;
}

void
tl_xrank_get_step(const struct tl_xrank *x, size_t i, int *tr,
    int64_t *iter, int64_t *lo, int64_t *hi)
{
	*tr = x->step[i].tr;
	*iter = x->step[i].iter;
	*lo = x->step[i].start;
	*hi = x->step[i].end;
}

size_t
tl_xrank_nops(const struct tl_xrank *x)
{
	return x->ops.n;
}

const char *
tl_xrank_get_op(const struct tl_xrank *x, size_t i, int *tr, int64_t *ns)
{
	const char *k = tl_strmap_key(&x->ops, (int64_t)i);

	*tr = atoi(k);
	*ns = x->optime[i];
	return strchr(k, '\037') + 1;
}

void
tl_xrank_exposed(struct tl_xrank *x)
{
	size_t *first, i;

	for (i = 0; i < x->nin && x->in[i].exposed >= 0; i++)
		;
	if (i == x->nin)
		return;
	first = busy_union(x);
	for (i = 0; i < x->nin; i++) {
		struct tl_xinst *in = &x->in[i];

		if (in->exposed < 0)
			in->exposed = exposed(x, first, in->tr, in->start,
			    in->end);
	}
	free(first);
}

void
tl_xrank_finish(struct tl_xrank *x)
{
	int32_t *idx;
	struct grp *g = NULL;
	size_t capg = 0, ng = 0, i, k, ntr;
	int64_t *v, *a, nsteps, ssum = 0, ssec = 0;
	int r;

	tl_xrank_exposed(x);
	if (x->nin == 0)
		return;
	if (x->nrk < 2) {
		struct tl_xstep *st = x->step;
		size_t n = x->steps.n;

		(void)st;
		make_keys(x);
		per_type(x, 1);
		x->nsteps = n > 0 ? (long)n : 1;
		x->small_per_step /= x->nsteps;
		x->coll_ns /= x->nsteps;
		x->exposed_ns /= x->nsteps;
		x->latency_bound = x->small_per_step >= TL_XSMALL_STEP;
		return;
	}
	/* One job? */
	for (r = 0; r < x->nrk; r++) {
		if (x->rk[r].world > x->world)
			x->world = x->rk[r].world;
		if (r > 0 && x->rk[r].world != x->rk[0].world)
			x->mixed_world = 1;
		if (r > 0 && strcmp(x->rk[r].gpu, x->rk[0].gpu) != 0)
			x->mixed_gpu = 1;
	}
	{
		int *seen;
		int64_t w = x->world > 0 ? x->world : x->nrk;

		seen = tl_calloc((size_t)w + 1, sizeof(*seen));
		for (r = 0; r < x->nrk; r++) {
			long rk = x->rk[r].rank;

			if (rk < 0 || rk >= w)
				continue;
			if (seen[rk]++)
				x->duplicate++;
			else
				x->nranks++;
		}
		x->missing = (int)(w - x->nranks);
		free(seen);
	}
	make_keys(x);
	idx = tl_calloc(x->nin, sizeof(*idx));
	for (i = 0; i < x->nin; i++)
		idx[i] = (int32_t)i;
	sort_base = x->in;
	if (x->nin > 1)
		qsort(idx, x->nin, sizeof(*idx), cmp_inst);
	/* Groups; those with the most members of their pg are matched. */
	{
		struct tl_strmap pgs;
		long *full = NULL;
		size_t capf = 0;
		int added;

		tl_strmap_init(&pgs);
		for (i = 0; i < x->nin; i = k) {
			const struct tl_xinst *in = &x->in[idx[i]];
			int64_t p;

			for (k = i; k < x->nin && x->in[idx[k]].key == in->key;
			    k++)
				;
			tl_grow(&g, &capg, ng + 1, sizeof(*g));
			g[ng].lo = i;
			g[ng].hi = k;
			p = tl_strmap_add(&pgs, tl_strmap_key(&x->str, in->key),
			    pg_len(x, in->key), &added);
			if (added) {
				tl_grow(&full, &capf, (size_t)p + 1,
				    sizeof(*full));
				full[p] = 0;
			}
			g[ng].pgkey = p;
			if ((long)(k - i) > full[p])
				full[p] = (long)(k - i);
			ng++;
		}
		x->npg = (long)pgs.n;
		for (i = k = 0; i < ng; i++)
			if ((long)(g[i].hi - g[i].lo) == full[g[i].pgkey] &&
			    full[g[i].pgkey] > 1)
				g[k++] = g[i];
			else {
				x->unmatched++;
				x->unmatched_rows += (long)(g[i].hi - g[i].lo);
			}
		ng = k;
		x->matched = (long)ng;
		free(full);
		tl_strmap_free(&pgs);
	}
	if (ng == 0)
		goto out;
	offsets(x, idx, g, ng);
	/* Arrivals, waits, skews, transfer. */
	ntr = (size_t)x->nrk;
	v = tl_calloc(ntr + 1, sizeof(*v));
	a = tl_calloc(ntr + 1, sizeof(*a));
	{
		int64_t sks = 0, ske = 0;
		int64_t *xf = tl_calloc(ng, sizeof(*xf));

		x->res = tl_calloc(ng, sizeof(*x->res));
		x->nres = ng;

		for (i = 0; i < ng; i++) {
			int64_t A = INT64_MIN, A2 = INT64_MIN, F = INT64_MAX;
			int64_t elo = INT64_MAX, ehi = INT64_MIN, med, E, T;
			size_t n = 0;
			int last = -1, slot;
			const struct tl_xinst *in0 = &x->in[idx[g[i].lo]];

			for (k = g[i].lo; k < g[i].hi; k++) {
				const struct tl_xinst *in = &x->in[idx[k]];
				int64_t o = x->rk[in->tr].offset_ns;
				int64_t s = in->start + o, e = in->end + o;

				if (s > A) {
					A2 = A;
					A = s;
					last = in->tr;
				} else if (s > A2)
					A2 = s;
				F = s < F ? s : F;
				elo = e < elo ? e : elo;
				ehi = e > ehi ? e : ehi;
				a[n] = s;
				v[n++] = e;
			}
			E = median(v, n);
			med = median(a, n);
			T = E > A ? E - A : 0;
			xf[i] = T;
			sks += A - F;
			ske += ehi - elo;
			if (A - F > x->skew_start_max_ns)
				x->skew_start_max_ns = A - F;
			x->xfer_ns += T;
			x->rk[last].last++;
			ssum += A - med;
			ssec += A2 != INT64_MIN ? A - A2 : 0;
			for (k = g[i].lo; k < g[i].hi; k++) {
				const struct tl_xinst *in = &x->in[idx[k]];
				int64_t s = in->start + x->rk[in->tr].offset_ns;

				x->rk[in->tr].wait_ns += A - s;
				x->rk[in->tr].late_ns += s - med;
				x->rk[in->tr].xfer_ns += T;
			}
			{
				struct tl_xres *rs = &x->res[i];

				rs->pg = tl_strmap_key(&x->str, in0->pg);
				rs->type = tl_strmap_key(&x->str, in0->type);
				rs->seq = in0->seq;
				rs->iter = in0->iter;
				rs->bytes = in0->bytes;
				rs->group = in0->group;
				rs->nranks = (int)n;
				rs->last = last;
				rs->start_spread_ns = A - F;
				rs->end_spread_ns = ehi - elo;
				rs->xfer_ns = T;
				rs->kernel_ns = E - med;
				rs->start_ns = med;
			}
			slot = type_slot(x, tl_strmap_key(&x->str, in0->type));
			if (slot >= 0) {
				struct tl_xtype *t = &x->type[slot];

				t->count++;
				if (in0->bytes > 0)
					t->bytes += in0->bytes;
				t->xfer_ns += T;
				t->kernel_ns += E - med;
				if (in0->group > t->group)
					t->group = in0->group;
				if (in0->bytes >= 0 && in0->bytes < (1 << 20))
					t->small++;
			}
			if (strcmp(tl_strmap_key(&x->str, in0->type),
			    "unknown") == 0)
				x->unknown_type++;
		}
		x->skew_start_ns = sks / (int64_t)ng;
		x->skew_end_ns = ske / (int64_t)ng;
		/* A slow link at times: transfer over 2x its kind's median. */
		{
			int64_t *tv = tl_calloc(ng, sizeof(*tv));

			for (i = 0; i < ng; i++) {
				const struct tl_xinst *in0 = &x->in[idx[g[i].lo]];
				size_t n = 0, j;
				int64_t m;

				for (j = 0; j < ng; j++) {
					const struct tl_xinst *o = &x->in[idx[g[j].lo]];

					if (o->type == in0->type &&
					    o->bytes == in0->bytes)
						tv[n++] = xf[j];
				}
				if (n < 3)
					continue;
				m = median(tv, n);
				if (xf[i] > 2 * m && xf[i] - m > 100000) {
					x->slow_inst++;
					x->slow_extra_ns += xf[i] - m;
				}
			}
			free(tv);
		}
		free(xf);
	}
	free(v);
	free(a);
	steps(x);
	nsteps = matched_steps(x, idx, g, ng);
	judge(x, nsteps, ssum / (int64_t)ng, ssec);
	per_type(x, 0);
	x->small_per_step /= nsteps;
	x->coll_ns /= nsteps;
	x->exposed_ns /= nsteps;
	x->latency_bound = x->small_per_step >= TL_XSMALL_STEP;
	x->xfer_bound = x->straggler < 0 && x->xfer_ns > x->wait_ns;
	{
		int64_t *w = tl_calloc((size_t)x->nrk, sizeof(*w));
		size_t n = (size_t)x->nrk;

		for (r = 0; r < x->nrk; r++)
			w[r] = x->rk[r].wait_ns / nsteps;
		if (n > 1)
			qsort(w, n, sizeof(*w), cmp_i64);
		x->wait_q[0] = w[0];
		x->wait_q[1] = w[n / 2];
		x->wait_q[2] = w[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1];
		x->wait_q[3] = w[n - 1];
		free(w);
	}
out:
	free(idx);
	free(g);
	show(x);
}
