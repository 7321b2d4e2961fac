/* See LICENSE file for copyright and license details. */
#include <stdint.h>

#include "common/pool.h"
#include "unit.h"

struct job {
	int id;
	uint64_t val;		/* f(id), once run */
	int runs;		/* times run */
};

/* A worker's (or the caller's) own state: the jobs it ran, in order. */
struct state {
	int n;
	int order[4096];
};

static uint64_t
f(int id)
{
	uint64_t h = 1469598103934665603u ^ (uint64_t)id;
	int i;

	/* Uneven work, so that jobs end out of order. */
	for (i = 0; i < (id * 7919) % 3001; i++)
		h = (h ^ (uint64_t)i) * 1099511628211u;
	return h;
}

static void
run(void *ctx, void *w, void *job)
{
	struct job *j = job;
	struct state *st = w;

	(void)ctx;
	j->val = f(j->id);
	j->runs++;
	if (st != NULL && st->n < 4096)
		st->order[st->n++] = j->id;
}

#define NJOB 3000

int
main(void)
{
	static struct job jobs[NJOB];
	static struct state st[5], mine;
	void *w[4] = { &st[0], &st[1], &st[2], &st[3] };
	struct tl_pool *p;
	uint64_t seq;
	int i, k, ok, total;

	/* Four workers and a helping caller: results in submission order. */
	p = tl_pool_new(run, NULL, 4, w, 8, 1);
	ok = 1;
	for (i = k = 0; i < NJOB; i++) {
		jobs[i].id = i;
		if (tl_pool_held(p) == 8) {
			struct job *j = tl_pool_take(p, &mine);

			ok &= j == &jobs[k] && j->val == f(k) && j->runs == 1;
			k++;
		}
		CHECK(tl_pool_submit(p, &jobs[i]) == (uint64_t)i);
	}
	while (tl_pool_held(p) > 0) {
		struct job *j = tl_pool_take(p, &mine);

		ok &= j == &jobs[k] && j->val == f(k) && j->runs == 1;
		k++;
	}
	CHECK(ok);
	CHECK(k == NJOB);
	CHECK(tl_pool_take(p, &mine) == NULL);
	total = mine.n;
	for (i = 0; i < 4; i++) {
		total += st[i].n;
		/* A worker starts jobs in submission order. */
		for (k = 1, ok = 1; k < st[i].n; k++)
			ok &= st[i].order[k] > st[i].order[k - 1];
		CHECK(ok);
	}
	CHECK(total == NJOB);
	tl_pool_free(p);

	/* No workers: a wait runs the job itself, and only that one. */
	memset(jobs, 0, sizeof(jobs));
	p = tl_pool_new(run, NULL, 0, NULL, 4, 1);
	for (i = 0; i < 4; i++) {
		jobs[i].id = i;
		tl_pool_submit(p, &jobs[i]);
	}
	CHECK(tl_pool_wait(p, 2, NULL) == &jobs[2]);
	CHECK(jobs[2].runs == 1 && jobs[2].val == f(2));
	CHECK(jobs[0].runs == 0 && jobs[1].runs == 0 && jobs[3].runs == 0);
	/* A drop takes the oldest without running it. */
	CHECK(tl_pool_drop(p, &seq) == &jobs[0] && seq == 0);
	CHECK(jobs[0].runs == 0);
	/* A take runs it. */
	CHECK(tl_pool_take(p, NULL) == &jobs[1] && jobs[1].runs == 1);
	/* A job run ahead is not run again. */
	CHECK(tl_pool_take(p, NULL) == &jobs[2] && jobs[2].runs == 1);
	/* Cancel: what is held never runs. */
	tl_pool_cancel(p);
	CHECK(tl_pool_held(p) == 0 && jobs[3].runs == 0);
	CHECK(tl_pool_submit(p, &jobs[4]) == 4);
	tl_pool_free(p);
	CHECK(jobs[4].runs == 0);

	/* One worker, no help: the jobs run on it, in order. */
	memset(jobs, 0, sizeof(jobs));
	memset(&st[4], 0, sizeof(st[4]));
	w[0] = &st[4];
	p = tl_pool_new(run, NULL, 1, w, 3, 0);
	for (i = 0; i < 100; i++) {
		jobs[i].id = i;
		if (i >= 3)
			CHECK(tl_pool_take(p, &mine) == &jobs[i - 3]);
		tl_pool_submit(p, &jobs[i]);
	}
	tl_pool_free(p);
	for (i = 0, ok = 1; i < st[4].n; i++)
		ok &= st[4].order[i] == i;
	CHECK(ok && st[4].n >= 97);
	return unit_done("test_pool");
}
