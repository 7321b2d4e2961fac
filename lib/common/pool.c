/* See LICENSE file for copyright and license details. */
#include <pthread.h>
#include <stdlib.h>

#include "common/pool.h"
#include "common/util.h"

enum { S_QUEUED, S_RUNNING, S_DONE, S_DROPPED };

struct slot {
	void *job;
	int st;			/* S_* */
};

struct worker {
	struct tl_pool *p;
	void *w;
	pthread_t th;
};

struct tl_pool {
	tl_pool_run_fn *run;
	void *ctx;
	int help;
	int nworkers;
	struct worker *wk;
	pthread_mutex_t mu;
	pthread_cond_t work;	/* a job was queued, or quit */
	pthread_cond_t done;	/* a job ended, or a slot came free */
	int nsleep;		/* threads waiting on done */
	int quit;
	struct slot *q;		/* seq head..tail-1 at q[seq % cap] */
	size_t cap;
	uint64_t head, tail;
	uint64_t next;		/* no job before it is queued */
};

static struct slot *
slot(struct tl_pool *p, uint64_t seq)
{
	return &p->q[seq % p->cap];
}

/* The first queued job, marked running (mutex held); NULL if none. */
static struct slot *
pick(struct tl_pool *p)
{
	for (; p->next < p->tail; p->next++) {
		struct slot *s = slot(p, p->next);

		if (s->st == S_QUEUED) {
			p->next++;
			s->st = S_RUNNING;
			return s;
		}
	}
	return NULL;
}

static void
wake_sleepers(struct tl_pool *p)
{
	if (p->nsleep > 0)
		pthread_cond_broadcast(&p->done);
}

/* Run the job of s, marked running, with w (mutex held, dropped meanwhile). */
static void
run_slot(struct tl_pool *p, struct slot *s, void *w)
{
	pthread_mutex_unlock(&p->mu);
	p->run(p->ctx, w, s->job);
	pthread_mutex_lock(&p->mu);
	s->st = S_DONE;
	wake_sleepers(p);
}

static void
sleep_done(struct tl_pool *p)
{
	p->nsleep++;
	pthread_cond_wait(&p->done, &p->mu);
	p->nsleep--;
}

static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct tl_pool *p = wk->p;
	struct slot *s;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		s = NULL;
		while (!p->quit && (s = pick(p)) == NULL)
			pthread_cond_wait(&p->work, &p->mu);
		if (s == NULL)
			break;
		run_slot(p, s, wk->w);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct tl_pool *
tl_pool_new(tl_pool_run_fn *run, void *ctx, int nworkers, void *const *w,
    size_t cap, int help)
{
	struct tl_pool *p = tl_calloc(1, sizeof(*p));
	int i;

	p->run = run;
	p->ctx = ctx;
	p->help = help;
	p->cap = cap > 0 ? cap : 1;
	p->q = tl_calloc(p->cap, sizeof(*p->q));
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->nworkers = nworkers > 0 ? nworkers : 0;
	p->wk = tl_calloc((size_t)p->nworkers + 1, sizeof(*p->wk));
	for (i = 0; i < p->nworkers; i++) {
		p->wk[i].p = p;
		p->wk[i].w = w != NULL ? w[i] : NULL;
		if (pthread_create(&p->wk[i].th, NULL, worker_main,
		    &p->wk[i]) != 0)
			tl_die("cannot start a thread");
	}
	return p;
}

uint64_t
tl_pool_submit_n(struct tl_pool *p, void *const *jobs, size_t n)
{
	uint64_t first;
	size_t i;

	pthread_mutex_lock(&p->mu);
	first = p->tail;
	for (i = 0; i < n; i++) {
		struct slot *s;

		while (p->tail - p->head == p->cap)
			sleep_done(p);
		s = slot(p, p->tail++);
		s->job = jobs[i];
		s->st = S_QUEUED;
	}
	if (n == 1)
		pthread_cond_signal(&p->work);
	else if (n > 1)
		pthread_cond_broadcast(&p->work);
	/* A helper asleep may take it too. */
	if (p->help)
		wake_sleepers(p);
	pthread_mutex_unlock(&p->mu);
	return first;
}

uint64_t
tl_pool_submit(struct tl_pool *p, void *job)
{
	return tl_pool_submit_n(p, &job, 1);
}

size_t
tl_pool_held(struct tl_pool *p)
{
	size_t n;

	pthread_mutex_lock(&p->mu);
	n = (size_t)(p->tail - p->head);
	pthread_mutex_unlock(&p->mu);
	return n;
}

/* Wait for job seq, helping with w (mutex held). */
static void
wait_locked(struct tl_pool *p, uint64_t seq, void *w)
{
	struct slot *s = slot(p, seq);

	if (seq < p->head || seq >= p->tail)
		tl_die("internal error: waiting for a job not held");
	while (s->st != S_DONE) {
		struct slot *o;

		if (p->help && s->st == S_QUEUED) {
			s->st = S_RUNNING;
			run_slot(p, s, w);
		} else if (p->help && (o = pick(p)) != NULL)
			run_slot(p, o, w);	/* a later one meanwhile */
		else
			sleep_done(p);
	}
}

void *
tl_pool_wait(struct tl_pool *p, uint64_t seq, void *w)
{
	void *job;

	pthread_mutex_lock(&p->mu);
	wait_locked(p, seq, w);
	job = slot(p, seq)->job;
	pthread_mutex_unlock(&p->mu);
	return job;
}

/* Take the oldest job (mutex held, done or dropped). */
static void *
pop(struct tl_pool *p)
{
	void *job = slot(p, p->head)->job;

	p->head++;
	if (p->next < p->head)
		p->next = p->head;
	wake_sleepers(p);	/* a submitter may wait for the slot */
	return job;
}

void *
tl_pool_take(struct tl_pool *p, void *w)
{
	void *job = NULL;

	pthread_mutex_lock(&p->mu);
	if (p->head < p->tail) {
		wait_locked(p, p->head, w);
		job = pop(p);
	}
	pthread_mutex_unlock(&p->mu);
	return job;
}

void *
tl_pool_drop(struct tl_pool *p, uint64_t *seq)
{
	void *job = NULL;

	pthread_mutex_lock(&p->mu);
	if (p->head < p->tail) {
		struct slot *s = slot(p, p->head);

		if (s->st == S_QUEUED)
			s->st = S_DROPPED;
		while (s->st == S_RUNNING)
			sleep_done(p);
		if (seq != NULL)
			*seq = p->head;
		job = pop(p);
	}
	pthread_mutex_unlock(&p->mu);
	return job;
}

void
tl_pool_cancel(struct tl_pool *p)
{
	uint64_t i;

	pthread_mutex_lock(&p->mu);
	for (i = p->head; i < p->tail; i++)
		if (slot(p, i)->st == S_QUEUED)
			slot(p, i)->st = S_DROPPED;
	for (i = p->head; i < p->tail; i++)
		while (slot(p, i)->st == S_RUNNING)
			sleep_done(p);
	p->head = p->next = p->tail;
	wake_sleepers(p);
	pthread_mutex_unlock(&p->mu);
}

void
tl_pool_free(struct tl_pool *p)
{
	int i;

	if (p == NULL)
		return;
	tl_pool_cancel(p);
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->nworkers; i++)
		pthread_join(p->wk[i].th, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p->wk);
	free(p->q);
	free(p);
}
