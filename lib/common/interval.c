/* See LICENSE file for copyright and license details. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/idxsort.h"
#include "common/interval.h"
#include "common/util.h"

void
tl_ivals_add(struct tl_ivals *s, int64_t start, int64_t end)
{
	tl_grow_ahead(&s->v, &s->cap, s->n + 1, sizeof(*s->v), &s->ahead);
	s->v[s->n].start = start;
	s->v[s->n].end = end;
	s->n++;
}

void
tl_ivals_free(struct tl_ivals *s)
{
	tl_ahead_free(&s->v, &s->ahead);
	s->n = s->cap = 0;
}

static int
cmp_ival(const void *a, const void *b)
{
	const struct tl_ival *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/*
 * v[0..n) in start order.  Their union does not depend on the order of
 * equal starts: a stable natural merge sort by start (tl_idxsort) takes
 * the intervals' near order (events come about in start order) in
 * about linear time, where qsort compared each through a pointer.
 */
static void
sort_starts(struct tl_ival *v, size_t n)
{
	struct tl_ival *tmp;
	int32_t *idx;
	size_t i;

	for (i = 1; i < n && v[i - 1].start <= v[i].start; i++)
		;
	if (i >= n)
		return;
	if (n > INT32_MAX) {
		qsort(v, n, sizeof(*v), cmp_ival);
		return;
	}
	idx = tl_malloc(n * sizeof(*idx));
	tmp = tl_malloc(n * sizeof(*tmp));
	for (i = 0; i < n; i++)
		idx[i] = (int32_t)i;
	tl_idxsort(idx, n, v, sizeof(*v), offsetof(struct tl_ival, start));
	for (i = 0; i < n; i++)
		tmp[i] = v[idx[i]];
	memcpy(v, tmp, n * sizeof(*v));
	free(tmp);
	free(idx);
}

static size_t
merge(struct tl_ival *v, size_t n)
{
	size_t i, o = 0;

	if (n == 0)
		return 0;
	sort_starts(v, n);
	for (i = 1; i < n; i++) {
		if (v[i].start <= v[o].end) {
			if (v[i].end > v[o].end)
				v[o].end = v[i].end;
		} else
			v[++o] = v[i];
	}
	return o + 1;
}

void
tl_ivals_merge(struct tl_ivals *s)
{
	s->n = merge(s->v, s->n);
}

int64_t
tl_ivals_length(const struct tl_ivals *s)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		sum += s->v[i].end - s->v[i].start;
	return sum;
}

void
tl_ivals_subtract(const struct tl_ivals *b, const struct tl_ivals *a,
    struct tl_ivals *out)
{
	size_t i, j = 0;

	out->n = 0;
	for (i = 0; i < b->n; i++) {
		int64_t s = b->v[i].start, e = b->v[i].end;

		while (j < a->n && a->v[j].end <= s)
			j++;
		for (size_t k = j; k < a->n && a->v[k].start < e; k++) {
			if (a->v[k].start > s)
				tl_ivals_add(out, s, a->v[k].start);
			if (a->v[k].end > s)
				s = a->v[k].end;
			if (s >= e)
				break;
		}
		if (s < e)
			tl_ivals_add(out, s, e);
	}
}

int64_t
tl_busy(const struct tl_ival *v, size_t n)
{
	struct tl_ival stackbuf[64], *w;
	int64_t sum = 0;
	size_t i, m;

	if (n == 0)
		return 0;
	w = n <= 64 ? stackbuf : tl_malloc(n * sizeof(*w));
	memcpy(w, v, n * sizeof(*w));
	m = merge(w, n);
	for (i = 0; i < m; i++)
		sum += w[i].end - w[i].start;
	if (w != stackbuf)
		free(w);
	return sum;
}
