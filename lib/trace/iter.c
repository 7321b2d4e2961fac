/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "stream/optable.h"
#include "trace/iter.h"

#define ITER_BACK 8		/* earlier iterations tried around an op */
#define WARM_MIN 3		/* iterations before the first is warm-up */
#define MAD_K 3.0		/* outliers: beyond MAD_K scaled MADs */
#define MAD_FLOOR 0.1		/* ... or at least this share of the median */

const char *const tl_itersrc_names[4] = {
	"", "annotation", "native annotation", "profiler step"
};

const char *
tl_iter_source(const struct tl_iter *i)
{
	static const char *const fmt[] = {
		"profiler_step", "vllm", "sglang", "atom", "xdit"
	};

	return fmt[i->si.fmt];
}

/* N of "ProfilerStep#N": 1, or 0 when name is not one. */
static int
profiler_step(const char *name, int64_t *n)
{
	static const char pre[] = "ProfilerStep#";

	/* The first byte first: asked of every op's name. */
	if (name[0] != pre[0] || strncmp(name, pre, sizeof(pre) - 1) != 0)
		return 0;
	name += sizeof(pre) - 1;
	return tl_parse_i64(name, strlen(name), n) == 0;
}

/* The tier of host event e, with what its name says; TL_ITER_NONE. */
static enum tl_itersrc
tier(const struct tl_trace *t, const struct tl_event *e,
    struct tl_stepinfo *si, int64_t *n)
{
	const char *name = tl_ev_name(t, e);

	if (e->kind == TL_EV_ANNOTATION && tl_step_info(name, si))
		return si->detailed ? TL_ITER_DETAILED : TL_ITER_NATIVE;
	if ((e->kind == TL_EV_ANNOTATION || e->kind == TL_EV_CPU_OP) &&
	    profiler_step(name, n)) {
		memset(si, 0, sizeof(*si));
		si->tokens = si->batch = si->ctx_reqs = si->gen_reqs = -1;
		return TL_ITER_PROFILER;
	}
	return TL_ITER_NONE;
}

static int
cmp_iter(const void *a, const void *b)
{
	const struct tl_iter *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The first integer of dims text "[[T,...],...]", or -1. */
static int64_t
first_dim(const char *s)
{
	int64_t v;
	size_t n;

	while (*s == '[')
		s++;
	for (n = 0; s[n] >= '0' && s[n] <= '9'; n++)
		;
	if (n == 0 || tl_parse_i64(s, n, &v) != 0)
		return -1;
	return v;
}

/*
 * What tl_iters_find learns of each name id once, not each event (bits):
 * whether it was looked at as an annotation's or a cpu_op's name and had
 * a tier then, and whether it is a paged attention op's.
 */
enum {
	NM_ANN = 1, NM_ANN_TIER = 2, NM_OP = 4, NM_OP_TIER = 8,
	NM_PAGED_KNOWN = 16, NM_PAGED = 32
};

/* 1 if cpu_op e is a paged attention op (nm: by name id, nstr of them). */
static int
paged_op(const struct tl_trace *t, const struct tl_event *e,
    unsigned char *nm, size_t nstr)
{
	const struct tl_opinfo *o;
	int p;

	if (e->name < nstr && (nm[e->name] & NM_PAGED_KNOWN))
		return (nm[e->name] & NM_PAGED) != 0;
	o = tl_optable_find(tl_ev_name(t, e));
	p = o != NULL && (strcmp(o->model, "paged_attn") == 0 ||
	    strcmp(o->extra_model, "paged_attn") == 0);
	if (e->name < nstr)
		nm[e->name] |= NM_PAGED_KNOWN | (p ? NM_PAGED : 0);
	return p;
}

/*
 * The shape-based batch of iterations without a token count, from the
 * paged attention ops, the first of which is event first (nev: none).
 */
static void
shape_tokens(const struct tl_trace *t, struct tl_iters *it, size_t first,
    unsigned char *nm, size_t nstr)
{
	size_t i, left = 0;

	for (i = 0; i < it->n; i++)
		left += it->v[i].si.tokens < 0;
	for (i = first; i < t->nev && left > 0; i++) {
		const struct tl_event *e = &t->ev[i];
		struct tl_args a;
		long k;

		if (e->kind != TL_EV_CPU_OP || !paged_op(t, e, nm, nstr) ||
		    (k = tl_iters_of(it, t, (int)i)) < 0 ||
		    it->v[k].si.tokens >= 0)
			continue;
		tl_ev_args(t, e, &a);
		if ((it->v[k].si.tokens = first_dim(tl_str(t->str, a.dims))) >= 0) {
			it->v[k].shape_tokens = 1;
			left--;
		}
	}
}

void
tl_iters_find(const struct tl_trace *t, struct tl_iters *it)
{
	struct tl_stepinfo si;
	size_t i, cap = 0, nstr = tl_strtab_count(t->str), first = t->nev;
	unsigned char *nm = tl_calloc(nstr > 0 ? nstr : 1, 1);
	int64_t n = 0;
	enum tl_itersrc s;

	memset(it, 0, sizeof(*it));
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];
		unsigned seen, has;

		if (e->kind == TL_EV_ANNOTATION) {
			seen = NM_ANN;
			has = NM_ANN_TIER;
		} else if (e->kind == TL_EV_CPU_OP) {
			seen = NM_OP;
			has = NM_OP_TIER;
			/* The paged attention ops, for shape_tokens. */
			if (first == t->nev && paged_op(t, e, nm, nstr))
				first = i;
		} else
			continue;
		/* A name without a tier is looked at once. */
		if (e->name < nstr && (nm[e->name] & seen) &&
		    !(nm[e->name] & has))
			continue;
		s = tier(t, e, &si, &n);
		if (e->name < nstr)
			nm[e->name] |= (unsigned char)(seen |
			    (s != TL_ITER_NONE ? has : 0));
		if (s == TL_ITER_NONE ||
		    (it->src != TL_ITER_NONE && s > it->src))
			continue;
		if (s < it->src)	/* a better tier: start again */
			it->n = 0;
		it->src = s;
		tl_grow(&it->v, &cap, it->n + 1, sizeof(*it->v));
		memset(&it->v[it->n], 0, sizeof(*it->v));
		it->v[it->n].ev = (int)i;
		it->v[it->n].ts = e->ts;
		it->v[it->n].end = e->ts + e->dur;
		it->v[it->n].pid = tl_ev_pid(t, e);
		it->v[it->n].number = s == TL_ITER_PROFILER ? n : -1;
		it->v[it->n].si = si;
		it->n++;
	}
	if (it->n > 0) {
		qsort(it->v, it->n, sizeof(*it->v), cmp_iter);
		for (i = 0; i < it->n; i++) {
			if (it->v[i].number < 0)
				it->v[i].number = (int64_t)i;
			it->v[i].gpu_start = it->v[i].gpu_end = TL_NONE;
		}
		it->hi = it->n;
		shape_tokens(t, it, first, nm, nstr);
	}
	free(nm);
}

void
tl_iters_free(struct tl_iters *it)
{
	free(it->v);
	memset(it, 0, sizeof(*it));
}

long
tl_iters_of(const struct tl_iters *it, const struct tl_trace *t, int ev)
{
	const struct tl_event *e = &t->ev[ev];
	uint32_t pid = tl_ev_pid(t, e);
	size_t lo = 0, hi = it->n, k;

	/* The first iteration starting after e. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (it->v[mid].ts <= e->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k-- > 0 && lo - k <= ITER_BACK;)
		if (it->v[k].pid == pid && e->ts < it->v[k].end)
			return (long)k;
	return -1;
}

void
tl_iters_stats(struct tl_iters *it, const struct tl_trace *t,
    const struct tl_rows *rows)
{
	size_t i;
	int k;

	for (i = 0; i < rows->n; i++) {
		const struct tl_row *r = &rows->v[i];
		const int *gpu = tl_row_gpu(rows, r);
		long x = tl_iters_of(it, t, r->op);
		struct tl_iter *p;

		if (x < 0)
			continue;
		p = &it->v[x];
		p->nrows++;
		p->nkernels += r->ngpu;
		p->kernel_ns += r->busy;
		for (k = 0; k < r->ngpu; k++) {
			const struct tl_event *g = &t->ev[gpu[k]];

			if (p->gpu_start == TL_NONE || g->ts < p->gpu_start)
				p->gpu_start = g->ts;
			if (p->gpu_end == TL_NONE || g->ts + g->dur > p->gpu_end)
				p->gpu_end = g->ts + g->dur;
		}
	}
}

static int64_t
requests(const struct tl_iter *i)
{
	return i->si.ctx_reqs + i->si.gen_reqs;
}

/* TraceLens' steady-state regions; the largest into *s, *e. */
static void
largest_region(const struct tl_iters *it, size_t nsteps, size_t *s,
    size_t *e, double *ratio)
{
	double thresh = it->n >= nsteps ? 0.1 : 0.2, tol;
	int64_t gmax = 0;
	size_t i, start = 0, bs = 0, be = 0, steps = 0, pd = 0, k;
	long cnt = 0;
	int started = 0, found = 0;

	for (i = 0; i < it->n; i++)
		if (requests(&it->v[i]) > gmax)
			gmax = requests(&it->v[i]);
	tol = thresh * (double)gmax > 1 ? thresh * (double)gmax : 1;
	for (i = 0; i <= it->n; i++) {
		int end = i == it->n;

		if (!end && fabs((double)(requests(&it->v[i]) - gmax)) <= tol) {
			if (!started)
				cnt++;
		} else if (!end && started)
			cnt--;
		if (!end && cnt > 5 && !started) {
			started = 1;
			start = i + 1 - (size_t)cnt;
		}
		if ((end && started) || (!end && started && cnt <= 0)) {
			for (k = start; k < i; k++)
				pd += it->v[k].si.ctx_reqs > 0;
			steps += i - start;
			if (!found || i - start > be - bs)
				bs = start, be = i;
			found = 1;
			started = 0;
			cnt = 0;
		}
	}
	if (!found) {
		size_t d = nsteps > it->n ? nsteps - it->n : 0;

		d = d < 8 ? 8 : d;
		d = d < it->n ? d : it->n;
		bs = d / 2;
		be = it->n - d / 2 > bs + 1 ? it->n - d / 2 : bs + 1;
		for (k = bs; k < be; k++)
			pd += it->v[k].si.ctx_reqs > 0;
		steps = be - bs;
	}
	*s = bs;
	*e = be;
	*ratio = steps > 0 ? (double)pd / (double)steps : 0;
}

/* TraceLens' "mixed" window of nsteps in the largest region. */
static void
serving_window(struct tl_iters *it, size_t nsteps)
{
	size_t s, e, s1, k, div, step, best = 0;
	double ref, bdist = 0, breq = 0;
	int have = 0, bpd = 0;

	largest_region(it, nsteps, &s, &e, &ref);
	if (e - s < nsteps) {
		it->lo = s;
		it->hi = e;
		return;
	}
	div = nsteps / 2 < 10 ? nsteps / 2 : 10;
	div = div > 0 ? div : 1;
	step = nsteps / div > 0 ? nsteps / div : 1;
	for (s1 = s; s1 + nsteps <= e; s1 += step) {
		size_t pd = 0;
		int64_t req = 0;
		double dist, avg;

		for (k = s1; k < s1 + nsteps; k++) {
			pd += it->v[k].si.ctx_reqs > 0;
			req += requests(&it->v[k]);
		}
		dist = fabs((double)pd / (double)nsteps - ref);
		avg = (double)req / (double)nsteps;
		/* Windows with a prefill step first, then the nearest. */
		if (!have || (pd > 0 && !bpd) || ((pd > 0) == bpd &&
		    (dist < bdist || (dist == bdist && avg > breq)))) {
			have = 1;
			best = s1;
			bdist = dist;
			breq = avg;
			bpd = pd > 0;
		}
	}
	it->lo = best;
	it->hi = best + nsteps;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int64_t
median(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* Warm-up, then the longest run without duration outliers. */
static void
plain_window(struct tl_iters *it, size_t nsteps)
{
	size_t first = it->n >= WARM_MIN ? 1 : 0, m = it->n - first, i;
	size_t run = 0, bs = first, blen = 0;
	int64_t *d, med, mad;
	double tol;

	if (m == 0)
		return;
	d = tl_malloc(m * sizeof(*d));
	for (i = 0; i < m; i++)
		d[i] = it->v[first + i].end - it->v[first + i].ts;
	med = median(d, m);
	for (i = 0; i < m; i++)
		d[i] = llabs(d[i] - med);
	mad = median(d, m);
	free(d);
	tol = MAD_K * 1.4826 * (double)mad;
	if (tol < MAD_FLOOR * (double)med)
		tol = MAD_FLOOR * (double)med;
	for (i = first; i <= it->n; i++) {
		if (i < it->n && fabs((double)(it->v[i].end - it->v[i].ts -
		    med)) <= tol) {
			run++;
			continue;
		}
		if (run > blen) {
			blen = run;
			bs = i - run;
		}
		run = 0;
	}
	it->lo = bs;
	it->hi = bs + (blen < nsteps ? blen : nsteps);
}

void
tl_iters_steady(struct tl_iters *it, size_t nsteps)
{
	size_t i;
	int counts = it->n > 0;

	if (nsteps == 0)
		nsteps = TL_STEADY_STEPS;
	for (i = 0; i < it->n; i++)
		if (it->v[i].si.ctx_reqs < 0 || it->v[i].si.gen_reqs < 0)
			counts = 0;
	it->lo = it->hi = 0;
	if (counts)
		serving_window(it, nsteps);
	else
		plain_window(it, nsteps);
	for (i = 0; i < it->n; i++)
		it->v[i].steady = i >= it->lo && i < it->hi;
}

int
tl_iters_window(const struct tl_iters *it, struct tl_window *w)
{
	if (it->n == 0 || it->hi <= it->lo)
		return 0;
	w->on = 1;
	w->start = it->v[it->lo].ts;
	w->end = it->v[it->hi - 1].end > w->start ? it->v[it->hi - 1].end :
	    w->start + 1;
	return 1;
}
