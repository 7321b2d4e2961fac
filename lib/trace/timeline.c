/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/interval.h"
#include "common/util.h"
#include "trace/timeline.h"
#include "trace/tree.h"

const char *const tl_timeline_rows[8] = {
	"computation", "exposed_comm", "exposed_memcpy", "busy", "idle",
	"total", "total_comm", "total_memcpy"
};

/* What a timeline gathers of its GPU events before it sums them. */
struct acc {
	struct tl_ivals comp, comm, mem, all, lk, ul;
};

/* GPU event e (on the device, in the window) into a and out's counts. */
static void
acc_add(struct acc *a, const struct tl_event *e, int unlinked,
    struct tl_timeline *out)
{
	struct tl_ivals *s;

	if (!(e->flags & TL_F_TREE)) {
		out->unlinked_events++;
		out->unlinked_dur += e->dur;
		tl_ivals_add(&a->ul, e->ts, e->ts + e->dur);
		if (!unlinked)
			return;
	} else if (unlinked)
		tl_ivals_add(&a->lk, e->ts, e->ts + e->dur);
	s = e->flags & TL_F_COMM ? &a->comm :
	    e->flags & TL_F_MEMCPY_CLASS ? &a->mem : &a->comp;
	tl_ivals_add(s, e->ts, e->ts + e->dur);
	tl_ivals_add(&a->all, e->ts, e->ts + e->dur);
	out->nevents++;
}

/* out's times from a; frees a. */
static void
acc_end(struct acc *a, int unlinked, struct tl_timeline *out)
{
	struct tl_ivals memx = {0}, memxx = {0}, commx = {0}, ulx = {0};

	tl_ivals_merge(&a->comp);
	tl_ivals_merge(&a->comm);
	tl_ivals_merge(&a->mem);
	tl_ivals_merge(&a->all);
	out->compute = tl_ivals_length(&a->comp);
	tl_ivals_subtract(&a->comm, &a->comp, &commx);
	out->exposed_comm = tl_ivals_length(&commx);
	tl_ivals_subtract(&a->mem, &a->comp, &memx);
	tl_ivals_subtract(&memx, &a->comm, &memxx);
	out->exposed_memcpy = tl_ivals_length(&memxx);
	out->busy = tl_ivals_length(&a->all);
	if (a->all.n > 0)
		out->total = a->all.v[a->all.n - 1].end - a->all.v[0].start;
	out->idle = out->total - out->busy;
	out->total_comm = tl_ivals_length(&a->comm);
	out->total_memcpy = tl_ivals_length(&a->mem);
	if (a->ul.n > 0) {
		/* The linked events' union is all's unless they are in it. */
		tl_ivals_merge(&a->ul);
		tl_ivals_merge(&a->lk);
		tl_ivals_subtract(&a->ul, unlinked ? &a->lk : &a->all, &ulx);
		out->unlinked_busy = tl_ivals_length(&ulx);
	}
	tl_ivals_free(&a->comp);
	tl_ivals_free(&a->comm);
	tl_ivals_free(&a->mem);
	tl_ivals_free(&a->all);
	tl_ivals_free(&memx);
	tl_ivals_free(&memxx);
	tl_ivals_free(&commx);
	tl_ivals_free(&a->lk);
	tl_ivals_free(&a->ul);
	tl_ivals_free(&ulx);
}

void
tl_timeline(const struct tl_trace *t, const struct tl_window *w,
    uint32_t device, int unlinked, struct tl_timeline *out)
{
	struct acc a;
	size_t k, n;
	const int32_t *sp = tl_ev_sparse(t, &n);

	memset(out, 0, sizeof(*out));
	memset(&a, 0, sizeof(a));
	for (k = 0; k < n; k++) {
		size_t i = sp != NULL ? (size_t)sp[k] : k;
		const struct tl_event *e = &t->ev[i];

		if (!TL_IS_GPU(e->kind))
			continue;
		if (device != TL_ALL_DEVICES && tl_ev_pid(t, e) != device)
			continue;
		if (tl_in_window(t, w, (int)i))
			acc_add(&a, e, unlinked, out);
	}
	acc_end(&a, unlinked, out);
}

void
tl_timelines(const struct tl_trace *t, const struct tl_window *w,
    int unlinked, struct tl_timeline *out, const struct tl_window *sw,
    struct tl_timeline *sout, struct tl_link_stats *s)
{
	struct acc a, sa;
	size_t k, n;
	const int32_t *sp = tl_ev_sparse(t, &n);

	memset(out, 0, sizeof(*out));
	memset(&a, 0, sizeof(a));
	memset(&sa, 0, sizeof(sa));
	memset(s, 0, sizeof(*s));
	if (sw != NULL)
		memset(sout, 0, sizeof(*sout));
	for (k = 0; k < n; k++) {
		size_t i = sp != NULL ? (size_t)sp[k] : k;
		const struct tl_event *e = &t->ev[i];

		if (!TL_IS_GPU(e->kind))
			continue;
		tl_tree_stats_add(s, e);
		if (tl_in_window(t, w, (int)i))
			acc_add(&a, e, unlinked, out);
		if (sw != NULL && tl_in_window(t, sw, (int)i))
			acc_add(&sa, e, 0, sout);
	}
	acc_end(&a, unlinked, out);
	if (sw != NULL)
		acc_end(&sa, 0, sout);
}

void
tl_timeline_values(const struct tl_timeline *tl, int64_t v[8])
{
	v[0] = tl->compute;
	v[1] = tl->exposed_comm;
	v[2] = tl->exposed_memcpy;
	v[3] = tl->busy;
	v[4] = tl->idle;
	v[5] = tl->total;
	v[6] = tl->total_comm;
	v[7] = tl->total_memcpy;
}

static const struct tl_trace *sort_t;

static int
cmp_pid(const void *a, const void *b)
{
	const char *x = tl_str(sort_t->str, *(const uint32_t *)a);
	const char *y = tl_str(sort_t->str, *(const uint32_t *)b);
	size_t nx = strlen(x), ny = strlen(y);

	/* Numeric text sorts by value: shorter first, then bytes. */
	if (nx != ny)
		return nx < ny ? -1 : 1;
	return strcmp(x, y);
}

void
tl_devices_add(const struct tl_trace *t, const struct tl_event *e,
    struct tl_devices *d)
{
	uint32_t pid = tl_ev_pid(t, e);
	size_t j;

	for (j = 0; j < d->n && d->v[j] != pid; j++)
		;
	if (j == d->n) {
		tl_grow(&d->v, &d->cap, d->n + 1, sizeof(*d->v));
		d->v[d->n++] = pid;
	}
}

void
tl_devices_sort(const struct tl_trace *t, struct tl_devices *d)
{
	sort_t = t;
	if (d->n > 0)
		qsort(d->v, d->n, sizeof(*d->v), cmp_pid);
}

size_t
tl_timeline_devices(const struct tl_trace *t, uint32_t **out)
{
	struct tl_devices d = { NULL, 0, 0 };
	size_t k, n;
	const int32_t *sp = tl_ev_sparse(t, &n);

	for (k = 0; k < n; k++) {
		size_t i = sp != NULL ? (size_t)sp[k] : k;

		if (TL_IS_GPU(t->ev[i].kind))
			tl_devices_add(t, &t->ev[i], &d);
	}
	tl_devices_sort(t, &d);
	*out = d.v;
	return d.n;
}
