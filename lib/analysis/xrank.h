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
#include "stream/kernlist.h"

struct tl_xinst;
struct tl_xpend;
struct tl_xspan;
struct tl_xstep;

/* One rank (trace) as the analysis sees it. */
struct tl_xrk {
	const char *name, *gpu;	/* not owned */
	long rank;		/* the rank column; -1 none */
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

/* The straggler's extra time by op name, against the median rank. */
struct tl_xextra {
	const char *name;	/* not owned (the analysis' strings) */
	int64_t extra_ns;	/* per step */
};

struct tl_xrank {
	/* input, as rows come */
	struct tl_strmap str;	/* strings: pgs, op names */
	struct tl_xinst *in;
	size_t nin, capin;
	struct tl_xpend *pend;	/* by instance: what its key is made of */
	size_t cappend;
	struct tl_strmap steps;	/* (trace, iteration) -> index in step */
	struct tl_xstep *step;
	size_t capstep;
	struct tl_strmap ops;	/* (trace, op name) -> index in optime */
	int64_t *optime;
	size_t capop;
	struct tl_xspan *busy;	/* compute kernels, by trace */
	size_t nbusy, capbusy;
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
};

void tl_xrank_init(struct tl_xrank *x);
void tl_xrank_free(struct tl_xrank *x);
/* Trace tr's rank, GPU and timeline (call for tr = 0, 1, ... in order). */
void tl_xrank_trace(struct tl_xrank *x, int tr, const char *name,
    const char *rank, const char *gpu, int64_t busy_ns, int64_t compute_ns,
    int64_t idle_ns);
/*
 * A row of trace tr: its name, category, collective column (empty when
 * none), GPU events, host start and iteration (-1 none); j is scratch.
 */
void tl_xrank_row(struct tl_xrank *x, int tr, const char *name,
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
