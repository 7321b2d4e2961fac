/* See LICENSE file for copyright and license details. */
#ifndef TL_XRANK_H
#define TL_XRANK_H

/*
 * Across ranks: the collectives of several traces (ranks) of one job,
 * from the collective column (tl-format(5)), matched instance by
 * instance, with each rank's clock offset estimated from the collectives
 * themselves, each rank's arrival and wait, the straggler and where its
 * extra time goes, the transfer time after the last arrival (a slow link
 * tells itself there), the job's step time and what the straggler costs
 * per step.  And the checks that the traces are one complete job.
 *
 * Clocks: the kernels of a blocking collective end together across its
 * group (each rank's kernel returns when the last rank's data has
 * arrived), within the link's latency; so the offset of rank r against
 * the reference rank (the lowest) is the median over the instances both
 * recorded of the difference of their kernels' ends.  The spread of the
 * ends left after alignment says how well that holds.
 *
 * Arrival: a rank arrives at an instance when its collective kernel
 * starts (its stream reached it); it waits inside the kernel until the
 * last rank arrives (NCCL's kernels spin there).  Transfer: from the last
 * arrival to the (median) end.
 *
 * Instances match by process group and the trace's sequence number; when
 * the trace has none (seq_source "order"), by process group, iteration
 * and order within the iteration, so that windows starting at different
 * steps line up; without iterations, by order alone (windows assumed to
 * start together).  Only instances every rank of the group recorded are
 * used; the rest are counted as unmatched.
 *
 * With one trace (or for each rank), the collectives by type: count,
 * bytes, kernel time, the part no compute kernel of the same rank
 * overlaps (exposed) and the overlap ratio; bandwidths over the kernel
 * time with one trace (wait included: one rank cannot tell it apart),
 * over the transfer after the last arrival with several; the bus
 * bandwidth against the link's (the GPU table's link_gbs inside a node,
 * the user's network bandwidth across nodes) only when the ranks per node
 * are known.
 *
 * All times int64 ns.  No text: lib/render/xreport renders it.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/json.h"
#include "common/strmap.h"
#include "common/util.h"
#include "stream/kernlist.h"
#include "stream/schema.h"

struct tl_xinst;
struct tl_xspan;
struct tl_xstep;

/* One rank (trace) as the analysis sees it. */
struct tl_xrk {
	const char *name, *gpu, *hw, *rank_text;	/* in x->str */
	long rank;		/* the rank column; -1 none */
	int64_t tlc[TL_TLC_N];	/* its GPU timeline (TL_TLC_*) */
	int64_t world;		/* largest group size among its collectives */
	int64_t compute_ns, idle_ns, busy_ns;
	/* per instance matched: */
	int64_t offset_ns;	/* added to its clock to align it */
	int aligned;		/* shares instances with the reference */
	int64_t wait_ns;	/* summed wait inside the collectives */
	int64_t late_ns;	/* summed arrival after the median rank's */
	long last;		/* instances it arrived last at */
	int64_t step_ns;	/* its median step (iteration) span; 0 */
	long nsteps;
	int64_t first_ns, last_ns;	/* its kernels' span, own clock */
	int64_t xfer_ns;	/* its collective kernels' time after the
				   last arrival (summed) */
};

/* The collectives of one type, one instance per rank counted once. */
struct tl_xtype {
	const char *type;	/* "all_reduce", ..., "unknown" */
	long count;		/* matched instances */
	int64_t bytes;		/* summed message bytes (largest of in/out) */
	int64_t xfer_ns;	/* summed transfer after the last arrival */
	int64_t kernel_ns;	/* summed median kernel time */
	int64_t group;		/* group size (the largest seen) */
	double algbw, busbw;	/* GB/s over the transfer time; 0 unknown */
	long small;		/* instances under 1 MiB: latency-bound */
	int64_t exposed_ns;	/* kernel time no compute kernel overlaps,
				   summed over ranks */
	int64_t ranks_kernel_ns;	/* kernel time summed over ranks */
	double expected_gbs;	/* the link's bandwidth; 0 no verdict */
	int across_nodes;	/* 1 across nodes, 0 inside, -1 unknown */
};

#define TL_XTYPE_MAX 16
/* Collectives under 1 MiB a step from which they are latency-bound. */
#define TL_XSMALL_STEP 8
#define TL_XTOP 10
#define TL_XSHOW 16		/* ranks a per-rank chart shows at most */

/* The straggler's extra time by op name, against the median rank. */
struct tl_xextra {
	const char *name;	/* not owned (the analysis' strings) */
	int64_t extra_ns;	/* per step */
};

/* An idle culprit of a rank (analysis/culprits.h), for its summary. */
struct tl_xcul {
	int tr;
	const char *kind, *name;	/* interned in x->str */
	int64_t ns;
};

/* One rank's record of a collective instance, as tl_xrank_inst takes it. */
struct tl_xin {
	const char *pg, *type;	/* process group name, type ("unknown") */
	int64_t seq;		/* the trace's Seq, or its order (ordered) */
	int ordered;		/* seq_source "order" */
	int64_t iter;		/* its iteration, -1 none */
	int64_t bytes;		/* the larger message, -1 unknown */
	int64_t group;		/* group size, 0 unknown */
	int64_t start, end;	/* its kernels, the rank's clock */
	int64_t exposed;	/* of its kernel time, what no compute
				   kernel overlaps; -1: from the rows */
};

/* A matched instance, as the analysis found it (for the -o data). */
struct tl_xres {
	const char *pg, *type;	/* interned in x->str */
	int64_t seq, iter, bytes, group;
	int nranks;		/* ranks that recorded it */
	int last;		/* the rank (index) that arrived last */
	int64_t start_spread_ns;	/* last arrival - first, aligned */
	int64_t end_spread_ns;	/* latest end - earliest end, aligned */
	int64_t xfer_ns;	/* median end - last arrival */
	int64_t kernel_ns;	/* median end - median start */
	int64_t start_ns;	/* the median start, the reference clock */
};

/* A caller's op (tl_xrank_row) in trace tr: its index in optime. */
struct tl_xopk {
	int tr;			/* -1 none */
	int64_t k;
};

struct tl_xrank {
	/* input, as rows come */
	struct tl_strmap str;	/* strings: pgs, types, keys, names */
	struct tl_xinst *in;
	size_t nin, capin;
	struct tl_xcul *cul;	/* idle culprits, for the summary */
	size_t ncul, capcul;
	struct tl_strmap steps;	/* (trace, iteration) -> index in step */
	struct tl_xstep *step;
	size_t capstep;
	int64_t laststep[3];	/* the last step found: trace (-1 none),
				   iteration, index in step */
	struct tl_strmap ops;	/* (trace, op name) -> index in optime */
	int64_t *optime;
	size_t capop;
	struct tl_xopk *opk;	/* by tl_xrank_row's op: its last one */
	size_t nopk;
	struct tl_xspan *busy;	/* compute kernels, by trace */
	size_t nbusy, capbusy;
	struct tl_ahead busyahead;	/* busy's pages (tl_grow_ahead) */
	/* the links (tl_xrank_links) */
	double link_gbs, net_gbs;	/* 0 unknown */
	const char *link_name;	/* not owned */
	long ranks_per_node;	/* 0 unknown */
	/* the ranks (tl_xrank_trace) */
	struct tl_xrk *rk;
	int nrk;
	size_t caprk;
	/* results (tl_xrank_finish) */
	int ref;		/* the reference rank's index */
	int64_t offset_lo_ns, offset_hi_ns;	/* offsets used */
	int64_t residual_ns;	/* median spread of aligned ends */
	int unaligned;		/* ranks sharing no instance with the ref */
	long matched, unmatched;	/* instances (not per rank) */
	long unmatched_rows;	/* rank-instances left out */
	long npg;		/* process groups */
	int by_order;		/* matched by order, no iterations */
	int64_t skew_start_ns, skew_end_ns;	/* mean over instances */
	int64_t skew_start_max_ns;
	int64_t step_ns;	/* the slowest rank's step */
	int slowest;		/* that rank */
	long nsteps;		/* steps the matched instances span (>= 1) */
	int straggler;		/* rank index, -1 none */
	int64_t late_ns;	/* its mean arrival after the median rank */
	int64_t recover_ns;	/* per step: others' wait it causes */
	int host_bound;		/* its extra time is GPU idle (host) */
	int64_t extra_idle_ns, extra_compute_ns;	/* per step vs median */
	struct tl_xextra extra[3];
	int nextra;
	int64_t wait_ns;	/* per step, median rank */
	int64_t xfer_ns;	/* per step: transfer after the last arrival */
	long slow_inst;		/* instances whose transfer is > 2x their
				   kind's median: a slow link at times */
	int64_t slow_extra_ns;	/* per step, their time over that median */
	struct tl_xtype type[TL_XTYPE_MAX];
	int ntype;
	long small_per_step;	/* instances under 1 MiB a step */
	int latency_bound;	/* TL_XSMALL_STEP of them or more a step */
	int xfer_bound;		/* no straggler and the transfer after the
				   last arrival exceeds the median wait */
	int64_t wait_q[4];	/* wait a step over the ranks: min, median,
				   90th percentile, max */
	int64_t coll_ns, exposed_ns;	/* per rank and step: collective
					   kernel time and its exposed part */
	long unknown_type;	/* matched instances of unknown type */
	/* one job? */
	int mixed_world, mixed_gpu, duplicate, missing, disjoint;
	int64_t world;		/* largest group size */
	long nranks;		/* distinct ranks */
	int *outlier;		/* the TL_XTOP most outlying ranks */
	int noutlier;
	int *show;		/* the ranks per-rank charts show, in order:
				   all up to TL_XSHOW, else the outliers,
				   the straggler, the slowest and the ref */
	int nshow;
	int show_all;		/* show holds every rank */
	struct tl_xres *res;	/* the matched instances, in order */
	size_t nres;
};

void tl_xrank_init(struct tl_xrank *x);
void tl_xrank_free(struct tl_xrank *x);
/*
 * Trace tr's name, rank, GPU and timeline (TL_TLC_* in ns), copied.  The
 * rows' and the summaries' functions below take tr as a dense index.
 */
void tl_xrank_trace(struct tl_xrank *x, int tr, const char *name,
    const char *rank, const char *gpu, const char *hw,
    const int64_t tlc[TL_TLC_N]);
/* Trace tr's kernels span [first, last) at least (its own clock). */
void tl_xrank_span(struct tl_xrank *x, int tr, int64_t first, int64_t last);
/* Trace tr's iteration iter spans [lo, hi) at least. */
void tl_xrank_step(struct tl_xrank *x, int tr, int64_t iter, int64_t lo,
    int64_t hi);
/* ns more kernel time of op name on trace tr (not a collective). */
void tl_xrank_op(struct tl_xrank *x, int tr, const char *name, int64_t ns);
/* A collective instance trace tr recorded. */
void tl_xrank_inst(struct tl_xrank *x, int tr, const struct tl_xin *v);
/* An idle culprit of trace tr (kept for the summary only). */
void tl_xrank_culprit(struct tl_xrank *x, int tr, const char *kind,
    const char *name, int64_t ns);
/*
 * Each instance's exposed time from the compute kernels the rows gave,
 * where tl_xrank_inst was not told it (tl_xrank_finish calls it).
 */
void tl_xrank_exposed(struct tl_xrank *x);
/* What was put in, for the summary: instance i, step i, op i. */
void tl_xrank_get_inst(const struct tl_xrank *x, size_t i, int *tr,
    struct tl_xin *v);
size_t tl_xrank_nsteps(const struct tl_xrank *x);
void tl_xrank_get_step(const struct tl_xrank *x, size_t i, int *tr,
    int64_t *iter, int64_t *lo, int64_t *hi);
size_t tl_xrank_nops(const struct tl_xrank *x);
/* Op i's name (its trace in *tr, its kernel time in *ns). */
const char *tl_xrank_get_op(const struct tl_xrank *x, size_t i, int *tr,
    int64_t *ns);
/*
 * A row of trace tr: its name, category, collective column (empty when
 * none), GPU events, host start and iteration (-1 none); j is scratch.
 * op (0 or more) numbers the caller's ops, each of one name: an op's
 * rows find its entry without hashing its name again.
 */
void tl_xrank_row(struct tl_xrank *x, int tr, const char *name, int op,
    int is_comm, const char *coll, const struct tl_kernlist *kl,
    int64_t iteration, struct tl_json *j);
/*
 * What the links can do: link_gbs (the GPU table's, 0 unknown) and its
 * name, the ranks per node and the network's bandwidth per GPU (GB/s one
 * direction; the user's, 0 unknown).
 */
void tl_xrank_links(struct tl_xrank *x, double link_gbs, const char *name,
    long ranks_per_node, double net_gbs);
/* The analysis, once every row and trace is in. */
void tl_xrank_finish(struct tl_xrank *x);
/*
 * The NCCL bus-bandwidth factor of a collective type on n ranks
 * (nccl-tests, doc/PERFORMANCE.md): busbw = algbw * factor; 0 unknown.
 */
double tl_xrank_busbw_factor(const char *type, int64_t n);

#endif
