/* See LICENSE file for copyright and license details. */
#ifndef TL_FINDINGS_H
#define TL_FINDINGS_H

/*
 * The analyst's facts: an enriched op stream (tl-efficiency's columns,
 * per-instance or --group rows, one or more traces) read into op
 * signatures, categories, GPU timelines and idle gaps, with the rules of
 * lib/analysis/findrules applied.  No text: the reports (lib/render/report.h) render it.
 *
 * Times are int64 ns sums of the stream's kernel_time_us; shares are %.
 * "% of compute" is the pooled pct_gpu_time: the op's kernel time over
 * the op kernel time of its trace before any filtering (every row carries
 * it), summed over the traces present.
 */
#include <stddef.h>
#include <stdint.h>

#include "analysis/findrules.h"
#include "stream/category.h"

struct tl_stream;

/* A kernel name and its share of an op signature. */
struct tl_fkern {
	char *name;
	int64_t time_ns;
	long long count;
};

#define TL_FKERN_MAX 6

/* One op signature: name, shapes, dtypes, strides, concrete inputs. */
struct tl_fop {
	char *name, *direction, *dims, *types, *strides, *concrete;
	char *perf_model, *params, *compute_spec, *bound, *perf_error;
	char *parent_name, *module, *call_stack, *uid, *trace;
	int cat;
	long long count;
	long long kernel_count;
	int64_t time_ns;
	double pct_compute;	/* of all traces' op kernel time */
	double pct_category;	/* of its category's kernel time */
	int has_flops, has_bytes;
	int64_t flops, bytes;	/* per instance */
	double fpb;		/* flops / bytes; 0 unknown */
	int has_eff;
	double roofline_us;	/* summed over instances */
	double eff;		/* roofline_us over kernel time, % */
	double tflops_s, tbs;	/* over the summed kernel time */
	double peak_tflops, peak_tbs;
	int has_base;
	double base_tbs, pct_base;	/* elementwise baseline, tbs vs it */
	int64_t layout_ns;	/* layout-conversion kernels */
	struct tl_fkern kern[TL_FKERN_MAX];
	int nkern;
	int64_t kern_other_ns;	/* kernels beyond the listed ones */
	/* the rules */
	int bottleneck, replay;
	enum tl_priority prio;
	const char *pattern;	/* a notable pattern, or NULL */
};

/* One category. */
struct tl_fcat {
	int present;
	const char *error;	/* analysis failed: the message */
	long long count;	/* instances */
	int64_t time_ns;
	double pct_compute;
	double modelled_us, roofline_us;	/* ops with an efficiency */
	double eff;		/* roofline over modelled time, %; -1 none */
	long long missing_model;	/* signatures without flops/bytes */
	int *ops;		/* signature indexes, by time desc */
	int nops;
	size_t capops;
	int64_t layout_ns;	/* conv: layout-conversion kernel time */
	int nbottleneck;
};

/* A gap between GPU busy intervals, with what the host did. */
struct tl_fgap {
	int64_t start_ns, len_ns;
	int64_t host_late_ns;	/* part before the next op began on the host */
	const char *before, *after;	/* op names around the gap */
};

#define TL_FGAP_TOP 5
#define TL_FSHORT_NS 10000	/* a short kernel: under 10 µs */

/*
 * Gap lengths in 1-2-5 steps (the gap-length histogram): bin 0 holds the
 * gaps under tl_fgap_edges[0] ns, bin i those from edge i - 1 up to edge
 * i, the last one those of at least the last edge (1 s).
 */
#define TL_FGAP_BINS 20
extern const int64_t tl_fgap_edges[TL_FGAP_BINS - 1];

/* Equal bins of a trace's kernel span, for the busy/idle strip. */
#define TL_FSTRIP 720

/* One trace's GPU timeline and idle analysis. */
struct tl_ftrace {
	char *name, *rank, *gpu, *hw;
	int64_t total_ns, busy_ns, compute_ns, comm_ns, memcpy_ns, idle_ns;
	double op_total_us;	/* its op kernel time before filtering */
	int64_t op_time_ns;	/* kernel time of its rows here */
	long long rows;
	/* GPU events of the rows */
	long long nkernels, nshort;
	int64_t kernel_ns, short_ns;
	int64_t median_kernel_ns;
	/* gaps between busy intervals */
	long long ngaps, gap_hist[4];	/* <10 µs, <100 µs, <1 ms, >= 1 ms */
	int64_t gap_ns, gap_hist_ns[4];
	int64_t host_late_ns;	/* GPU waited for the host to start the op */
	struct tl_fgap top[TL_FGAP_TOP];
	int ntop;
	long long gap_bin[TL_FGAP_BINS];	/* gaps per length bin */
	int64_t gap_bin_ns[TL_FGAP_BINS];
	/* busy time over the span of the rows' kernels */
	int64_t span_start_ns, span_end_ns;	/* first start, last end */
	int64_t *strip;		/* busy ns per TL_FSTRIP bin; NULL none */
	/* host issue rate */
	int has_host;
	int64_t host_first_ns, host_last_ns;	/* op starts on the host */
	long long nsync;	/* ops with a device-to-host copy */
	int64_t sync_gap_ns;	/* idle right after them */
	/* events for the gap analysis, freed after it */
	struct tl_fev *ev;
	size_t nev, capev;
};

/* A roof rows were measured against: a GPU's figures for a compute spec. */
struct tl_froof {
	char *hw, *spec;	/* "" when the rows have none */
	char *kind, *bw_kind;	/* figures used: achievable, peak, user, "" */
	double peak_tflops, peak_tbs;	/* 0 none */
};

/* An op signature's rows measured against one roof: a roofline point. */
struct tl_fpoint {
	int op, roof;		/* indexes in op[] and roofs[] */
	long long count;	/* instances */
	int64_t time_ns;
	double roofline_us;	/* summed over the instances */
	int has_roofline;	/* every row had one */
};

struct tl_findings {
	struct tl_findrules rules;
	double utilisation_min;	/* flag below this % (95) */
	struct tl_ftrace *tr;
	int ntr;
	size_t captr;
	struct tl_fop *op;
	int nop;
	struct tl_fcat cat[TL_CAT_MAX];	/* by index in the category table */
	double op_total_us;	/* op kernel time of every trace */
	int grouped;		/* the input had --group rows */
	int has_stack;		/* module and call_stack columns */
	int has_eff_cols;
	const char *hw;		/* the first row's hw */
	double peak_tbs;	/* the first row's bandwidth roof */
	double base_tbs;	/* elementwise baseline (first trace), 0 none */
	/* the roofs: the run's kind (roof_kind), those used, the points */
	char *roof_kind;	/* the first row's; "" when the stream has none */
	int roof_kinds;		/* distinct non-empty roof_kind values */
	struct tl_froof *roofs;
	int nroofs;
	struct tl_fpoint *pts;
	int npts;
	int *bytime;		/* every signature index, by time desc */
	int *bottlenecks;	/* signature indexes by priority, then time */
	int nbottlenecks;
	size_t capb;
	/* module instances (with --stack): kernel time under each */
	struct tl_fmod *mod;
	int nmod;
	struct tl_floader *load;	/* the reading state, during a load */
};

/* A module instance and what ran under it (fusion candidates). */
struct tl_fmod {
	char *path;		/* Model_0/Layer_3/RMSNorm_7 */
	long long ops, kernels;
	int64_t time_ns;
	int heavy;		/* a gemm, conv or attention op ran under it */
};

/*
 * Read the stream files (none = stdin) and analyse them.  Dies on input
 * errors, a stream without rows among them; a malformed number in a row
 * only fails the row's category (tl_fcat.error).  tl_findings_free frees
 * what a load made, also when tl_die ended it through tl_exit_hook (the
 * fuzz harnesses).
 */
void tl_findings_load(struct tl_findings *f, char *const *files, int nfiles);
/* The same from a stream opened with tl_stream_open; the caller closes it. */
void tl_findings_read(struct tl_findings *f, struct tl_stream *in);
void tl_findings_free(struct tl_findings *f);

/*
 * The straggler of several traces: the one with the most busy time (the
 * first of equals); 0 for one trace.
 */
int tl_findings_straggler(const struct tl_findings *f);
/* The worst priority of a bottleneck, or -1 when there is none. */
int tl_findings_worst(const struct tl_findings *f);
/* The category with this value (an empty one if the table has none). */
const struct tl_fcat *tl_findings_cat(const struct tl_findings *f,
    const char *value);

#endif
