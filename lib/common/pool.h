/* See LICENSE file for copyright and license details. */
#ifndef TL_POOL_H
#define TL_POOL_H

/*
 * The one ordered worker pipeline: jobs go in numbered in the order they
 * are submitted, worker threads run them (each with a state of its own),
 * and the caller takes them back out in that order, whatever order they
 * finished in.  The queue is bounded: at most cap jobs are held (queued,
 * running, or done and not taken yet); submitting more waits for a take.
 * Workers start jobs in submission order.  A caller that waits for a job
 * may help: it runs the job itself if no worker has begun it, or other
 * queued jobs while it waits, with a state of its own (the shape of
 * zstd's thread pool and of its ordered list of compression jobs, in
 * lib/common/pool.c and lib/compress/zstdmt_compress.c of
 * https://github.com/facebook/zstd).
 *
 * All of the suite's threads are this module's workers; no other module
 * takes a lock.  Jobs and their results are the caller's own memory,
 * handed over by pointer: what a job writes is visible to whoever waits
 * for it or takes it, and what the caller wrote before submitting is
 * visible to the job.
 */
#include <stddef.h>
#include <stdint.h>

struct tl_pool;

/* Run job with the worker (or helping caller) state w. */
typedef void tl_pool_run_fn(void *ctx, void *w, void *job);

/*
 * A pool of nworkers threads (0: none; the caller runs every job when it
 * waits) holding at most cap jobs; worker i runs with state w[i] (w may
 * be NULL: every state NULL).  With help 0, callers only sleep while
 * they wait: the jobs must run one at a time, on the one worker, in
 * order (nworkers must be 1), as for a stream's reader.
 */
struct tl_pool *tl_pool_new(tl_pool_run_fn *run, void *ctx, int nworkers,
    void *const *w, size_t cap, int help);
/*
 * Submit jobs[0..n) in that order (waiting while the pool is full);
 * returns the sequence number of the first (0 for the pool's first job).
 */
uint64_t tl_pool_submit_n(struct tl_pool *p, void *const *jobs, size_t n);
uint64_t tl_pool_submit(struct tl_pool *p, void *job);
/* Jobs held: submitted and not taken. */
size_t tl_pool_held(struct tl_pool *p);
/*
 * Wait until job seq (held) is done, helping with state w; returns it.
 * It stays held.
 */
void *tl_pool_wait(struct tl_pool *p, uint64_t seq, void *w);
/* The oldest job held, once done (helping with w), taken; NULL if none. */
void *tl_pool_take(struct tl_pool *p, void *w);
/*
 * The oldest job held, taken without running it if no one has begun it
 * (else once done); NULL if none.  Its sequence number in *seq if not
 * NULL.
 */
void *tl_pool_drop(struct tl_pool *p, uint64_t *seq);
/* Drop every job held: those not begun never run. */
void tl_pool_cancel(struct tl_pool *p);
/* Cancel what is held, stop the workers and free the pool. */
void tl_pool_free(struct tl_pool *p);

#endif
