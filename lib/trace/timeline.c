/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/interval.h"
#include "common/util.h"
#include "trace/timeline.h"

const char *const tl_timeline_rows[8] = {
	"computation", "exposed_comm", "exposed_memcpy", "busy", "idle",
	"total", "total_comm", "total_memcpy"
};

void
tl_timeline(const struct tl_trace *t, const struct tl_window *w,
    uint32_t device, int unlinked, struct tl_timeline *out)
{
	struct tl_ivals comp = {0}, comm = {0}, mem = {0}, all = {0};
	struct tl_ivals memx = {0}, memxx = {0}, commx = {0};
	struct tl_ivals lk = {0}, ul = {0}, ulx = {0};
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];
		struct tl_ivals *s;

		if (!TL_IS_GPU(e->kind))
			continue;
		if (device != TL_ALL_DEVICES && tl_ev_pid(t, e) != device)
			continue;
		if (!tl_in_window(t, w, (int)i))
			continue;
		if (!(e->flags & TL_F_TREE)) {
			out->unlinked_events++;
			out->unlinked_dur += e->dur;
			tl_ivals_add(&ul, e->ts, e->ts + e->dur);
			if (!unlinked)
				continue;
		} else if (unlinked)
			tl_ivals_add(&lk, e->ts, e->ts + e->dur);
		s = e->flags & TL_F_COMM ? &comm :
		    e->flags & TL_F_MEMCPY_CLASS ? &mem : &comp;
		tl_ivals_add(s, e->ts, e->ts + e->dur);
		tl_ivals_add(&all, e->ts, e->ts + e->dur);
		out->nevents++;
	}
	tl_ivals_merge(&comp);
	tl_ivals_merge(&comm);
	tl_ivals_merge(&mem);
	tl_ivals_merge(&all);
	out->compute = tl_ivals_length(&comp);
	tl_ivals_subtract(&comm, &comp, &commx);
	out->exposed_comm = tl_ivals_length(&commx);
	tl_ivals_subtract(&mem, &comp, &memx);
	tl_ivals_subtract(&memx, &comm, &memxx);
	out->exposed_memcpy = tl_ivals_length(&memxx);
	out->busy = tl_ivals_length(&all);
	if (all.n > 0)
		out->total = all.v[all.n - 1].end - all.v[0].start;
	out->idle = out->total - out->busy;
	out->total_comm = tl_ivals_length(&comm);
	out->total_memcpy = tl_ivals_length(&mem);
	if (ul.n > 0) {
		/* The linked events' union is all's unless they are in it. */
		tl_ivals_merge(&ul);
		tl_ivals_merge(&lk);
		tl_ivals_subtract(&ul, unlinked ? &lk : &all, &ulx);
		out->unlinked_busy = tl_ivals_length(&ulx);
	}
	tl_ivals_free(&comp);
	tl_ivals_free(&comm);
	tl_ivals_free(&mem);
	tl_ivals_free(&all);
	tl_ivals_free(&memx);
	tl_ivals_free(&memxx);
	tl_ivals_free(&commx);
	tl_ivals_free(&lk);
	tl_ivals_free(&ul);
	tl_ivals_free(&ulx);
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
	size_t i;

	for (i = 0; i < t->nev; i++)
		if (TL_IS_GPU(t->ev[i].kind))
			tl_devices_add(t, &t->ev[i], &d);
	tl_devices_sort(t, &d);
	*out = d.v;
	return d.n;
}
