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

#include "analysis/culprits.h"
#include "analysis/findrules.h"
#include "common/intern.h"
#include "common/util.h"
#include "stream/category.h"

struct tl_stream;
struct tl_serving;
struct tl_xrank;

/* A kernel name and its share of an op signature. */
struct tl_fkern {
	char *name;
	int64_t time_ns;
	long long count;
	int64_t grid, block;	/* workgroups, work-items in each (the first
				   event that records them); -1 none */
	uint32_t id;		/* the name's id in the findings' strings,
				   TL_FKERN_NOID when loaded grouped */
};

#define TL_FKERN_NOID UINT32_MAX

#define TL_FKERN_MAX 6

/* What a GEMM multiplies (struct tl_fop.operands). */
enum { TL_OPND_UNKNOWN, TL_OPND_WEIGHTS, TL_OPND_ACTIVATIONS };

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
	/*
	 * Over the kernel time of the instances within the peak roof; NaN
	 * without FLOPs (bytes) or without such an instance.
	 */
	double tflops_s, tbs;
	double peak_tflops, peak_tbs;
	int has_base;
	double base_tbs, pct_base;	/* elementwise baseline, tbs vs it */
	/*
	 * Instances above their peak roof (tl-efficiency's assessment
	 * "above peak"): their kernel time counts in time_ns and the
	 * shares, their efficiency nowhere; the first one's perf_error.
	 */
	long long peak_count;
	int64_t peak_ns;
	char *peak_why;
	int64_t layout_ns;	/* layout-conversion kernels */
	int64_t claimed_ns;	/* kernel time a pattern explains */
	int operands;		/* TL_OPND_* */
	int training;		/* concrete training flag: 1, 0, -1 unknown */
	int64_t batch;		/* GEMM batch (params B), 0 unknown */
	int graph_launch;	/* its name names a graph launch call */
	struct tl_fkern kern[TL_FKERN_MAX];
	int nkern;
	int64_t kern_other_ns;	/* kernels beyond the listed ones */
	/* the rules */
	int bottleneck, replay;
	enum tl_priority prio;
	int prio_rule;		/* enum tl_prio_rule of the seed rule */
	enum tl_priority seed_prio;	/* before tl_priority_cap */
	int capped;		/* prio lowered: it recovers little */
	int64_t save_ns;	/* recoverable at 50 % of roofline; -1 */
	int covered;		/* a pattern explains most of its time */
	int hostcopy;		/* only copies over the host link: the
				   memory roofline does not judge it */
	const char *pattern;	/* a notable pattern, or NULL */
	unsigned gpu_prec;	/* TL_PREC_* of its GPU's table row; 0 unknown */
	/* the verdicts (lib/analysis/verdict) */
	enum tl_convkind conv_kind;	/* a convolution's kind */
	double conv_eff;	/* its efficiency without its layout
				   conversions, % */
	enum tl_expect conv_expect;	/* conv_eff against the kind's range */
	enum tl_basecheck base_check;	/* a batch norm against the baseline */
	double base_peak_pct;	/* its baseline of the bandwidth roof, % */
	int rule_time, rule_share, rule_eff;	/* the bottleneck rule's three
						   terms, each true or not */
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
	/* the verdicts (lib/analysis/verdict) */
	double layout_pct;	/* conv: layout_ns of time_ns, % */
	enum tl_level layout_level;	/* ... against the layout rule */
	int nbase, nbase_below;	/* batchnorm: signatures with a baseline,
				   those under base_issue_pct of it */
	int cnn_heavy;		/* batchnorm within cnn_lo-cnn_hi % */
	int nquant;		/* gemm: quantized GEMM signatures */
};

/*
 * A gap between GPU busy intervals, with what the host did: the gap
 * splits into the host not yet in the op that launched the next GPU work
 * (host_late_ns), the host inside that op before its launch call
 * (in_op_ns), and the launch latency (the rest).  With no launch_ts in
 * the stream, in_op_ns is -1 and the rest is not split.
 */
struct tl_fgap {
	int64_t start_ns, len_ns;
	int64_t host_late_ns;	/* part before the next op began on the host */
	int64_t in_op_ns;	/* part inside the op before its launch; -1 */
	const char *before, *after;	/* op names around the gap */
	int row_before, row_after;	/* their rows (f->row), -1 none */
	long listed;		/* the gap tl-parse listed there (f->idle.lg),
				   -1 none */
};

#define TL_FGAP_TOP 5

/*
 * The longest wait after a launch call that counts as launch latency.  A
 * launch reaches an idle GPU in microseconds to tens of microseconds; GPU
 * work that starts later than this after its launch call waited on
 * something the trace does not record (an event or another stream, work
 * of another process, or host and GPU clocks out of step).
 */
#define TL_LAUNCH_LATENCY_NS 100000
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
	int64_t in_op_ns;	/* ... inside the op before the launch call */
	int64_t latency_ns;	/* ... from the launch call to the GPU */
	int64_t wait_ns;	/* ... past TL_LAUNCH_LATENCY_NS of that */
	int has_launch;		/* the stream gives launch times */
	long long nsyncgap;	/* gaps right after a device-to-host copy */
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
	/* unlinked GPU events the stream leaves out (has_unlinked: known) */
	int has_unlinked;
	int64_t unlinked_ns;
	long long unlinked_count;
	char *arch;		/* the GPU's architecture: "sm_90", "gfx94" */
	/* the verdicts (lib/analysis/verdict): the host's issue rate */
	double issue_us, kern_us;	/* per GPU event: host, GPU */
	int launch_bound;	/* the host issues slower than the GPU runs */
	/* events for the gap analysis, freed after it */
	struct tl_fev *ev;
	size_t nev, capev;
	struct tl_ahead evahead;	/* of ev */
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

/*
 * One op instance of a per-instance stream (none for --group rows): what
 * the pattern detectors read, in stream order.  Strings are ids of
 * f->str (0: empty).
 */
struct tl_frow {
	int op;			/* its signature, index in f->op */
	int tr;			/* its trace, index in f->tr */
	uint32_t thread;	/* "pid/tid" */
	uint32_t module;	/* nn.Module instance path */
	uint32_t parent;	/* parent op name */
	int64_t uid;
	int64_t ts, dur;	/* host start and duration, ns */
	int64_t time_ns;	/* kernel busy time */
	int k0, nk;		/* its GPU events, f->kev[k0 .. k0 + nk) */
	unsigned char bwd;	/* direction bwd */
	unsigned char graph;	/* a graph launch's kernels */
	unsigned char recompute;	/* a forward op re-run in backward:
					   2 by its call stack, 1 by name */
	unsigned char d2h;	/* it copies device to host */
	unsigned char modelled;	/* it has a roofline time */
	int claim;		/* the pattern that explains it, -1 none */
	/* the idle gaps around its GPU events (struct tl_fgap) */
	int64_t gap_before_ns, gap_after_ns;
	int64_t gap_late_ns, gap_in_op_ns;	/* parts of gap_before_ns */
	int64_t gap_wait_ns;	/* its part past the launch latency */
	int ngap_before;		/* gaps in gap_before_ns */
	/*
	 * The known idle culprits' part of gap_before_ns and gap_after_ns
	 * (analysis/culprits.h): their own findings recover it, the generic
	 * idle and synchronisation findings the rest.
	 */
	int64_t known_before_ns, known_after_ns;
	int64_t known_late_ns, known_in_op_ns, known_wait_ns;	/* parts of
				   known_before_ns, as of gap_before_ns */
};

/* One GPU event of a row. */
struct tl_fkev {
	uint32_t name;		/* f->str id */
	int64_t ts, dur;	/* ns */
	int64_t launch;		/* its launch call's start, ns; -1 unknown */
};

/*
 * What share of the GPU time the analysis could see and judge: the
 * rows' kernel time, the part with a roofline (a perf model and an
 * efficiency), above its peak roof (no efficiency: beyond the physical
 * limit), in category other, and under graph launches.
 */
struct tl_fcov {
	int64_t op_ns, model_ns, other_ns, graph_ns;
	int64_t peak_ns;	/* rows above their peak roof */
	long long peak_rows;
	long long graph_rows;
	int64_t pattern_ns;	/* kernel time the patterns explain */
	int64_t analysed_ns;	/* modelled or explained by a pattern */
	int has_unlinked;	/* every trace states its unlinked events */
	int64_t unlinked_ns;
	long long unlinked_count;
	int bwd;		/* backward ops present: a training step */
	int has_launch;		/* kernels carry their launch times */
};

/* The patterns: groups of ops and kernels one change would fix. */
enum tl_patkind {
	TL_PAT_ATTENTION,	/* unfused attention: QK^T, softmax, AV */
	TL_PAT_NORM,		/* a norm decomposed into small kernels */
	TL_PAT_LAYOUT,		/* layout conversions around convolutions */
	TL_PAT_LAYOUT_COPY,	/* copies that only change the layout */
	TL_PAT_ELTWISE,		/* a chain of elementwise kernels */
	TL_PAT_GEMM_ALIGN,	/* an alignment fallback, odd dimensions */
	TL_PAT_GEMM_ARCH,	/* a kernel built for an older GPU */
	TL_PAT_GEMM_TILE,	/* split-K or tiny tiles on a large GEMM */
	TL_PAT_PAGEABLE,	/* host-to-device copies from pageable memory */
	TL_PAT_SYNC,		/* device-to-host copies followed by idle */
	TL_PAT_IDLE,		/* the GPU waits for the host */
	TL_PAT_COMM,		/* exposed collective communication */
	TL_PAT_RECOMPUTE,	/* activation-checkpoint recompute */
	TL_PAT_GEMM_SHAPE,	/* a GEMM's shape against the GPU: tiles and
				   waves, padding, skinny, FP32 (cause) */
	TL_PAT_KERNEL_CAUSE,	/* a known cause of a slow convolution,
				   attention, MoE or elementwise op (kc) */
	TL_PAT_CULPRIT,		/* a known idle culprit (share/tl/culprits.tsv) */
	TL_PAT_N
};

/*
 * What most of an idle pattern's time is (struct tl_fpat.part): the host
 * not yet in the op, inside it before its launch call, the launch latency,
 * or the wait past it.
 */
enum tl_idlekind { TL_IDLE_HOST, TL_IDLE_IN_OP, TL_IDLE_LATENCY,
    TL_IDLE_WAIT };

/* What about a GEMM's shape costs it time (TL_PAT_GEMM_SHAPE). */
enum tl_gemmcause {
	TL_GC_FEW_TILES,	/* fewer output tiles than compute units */
	TL_GC_LAST_WAVE,	/* the last wave of tiles mostly empty */
	TL_GC_PAD,		/* dimensions not multiples of the alignment */
	TL_GC_SKINNY,		/* tall-skinny or GEMV: memory-bound shape */
	TL_GC_FP32		/* FP32 on a GPU with faster matrix units */
};

/* A GEMM shape cause's facts (lib/analysis/gemmcause). */
struct tl_gshape {
	enum tl_gemmcause cause;
	int64_t m, n, k, b;	/* the GEMM (the pattern's first op) */
	int64_t pm, pn, pk;	/* pad: the padded dimensions */
	int64_t thin;		/* skinny: the small output dimension */
	double tflops32, tflops16;	/* fp32: the GPU's FP32 and BF16 (else
					   FP16) matrix rates */
	int64_t tiles;		/* output tiles of tile_m x tile_n */
	int from_grid;		/* tiles are the kernel's workgroups (its
				   grid), the name giving no tile */
	int64_t wg_threads;	/* from_grid: work-items per workgroup */
	int cus;		/* the GPU's compute units (GPU table) */
	int64_t waves;		/* ceil(tiles / cus) */
	double last_fill;	/* share of the last wave's CUs busy, % */
	int ref_op;		/* pad: the nearest aligned GEMM, -1 none */
	double ref_eff;		/* pad: the efficiency it is timed at, % */
	int estimate;		/* pad without ref_op: at the expected range */
	unsigned prec;		/* TL_PREC_* the GPU's table row has */
};

/*
 * A known cause's numbers (TL_PAT_KERNEL_CAUSE, lib/analysis/kcause): the
 * row of the causes table (share/tl/causes.tsv) whose words say it, and
 * the numbers its {name} placeholders and the -o JSON show.
 */
enum tl_kcunit {
	TL_KCU_INT,		/* an integer */
	TL_KCU_NUM,		/* a real, shown with digits decimals */
	TL_KCU_MS,		/* nanoseconds, shown (and in JSON) as ms */
	TL_KCU_TEXT,		/* text */
	TL_KCU_OP		/* an op signature (f->op index) */
};
#define TL_KC_MAXNUM 24
struct tl_kcnum {
	const char *name;	/* a static string */
	enum tl_kcunit unit;
	int digits;
	double v;
	char text[200];
};
struct tl_kcause {
	long row;		/* of f->causes */
	int estimate;		/* the recoverable time is an estimate */
	int n;
	struct tl_kcnum num[TL_KC_MAXNUM];
};

/* Precisions a GPU's table row has matrix units for. */
enum {
	TL_PREC_FP16 = 1, TL_PREC_BF16 = 2, TL_PREC_TF32 = 4, TL_PREC_FP8 = 8
};

/* An op signature or a kernel name in a pattern's evidence. */
struct tl_fpev {
	int op;			/* signature index, or -1 for a kernel */
	uint32_t kname;		/* kernel name (f->str), for op -1 */
	long long count;
	int64_t time_ns;
};

struct tl_fpat {
	enum tl_patkind kind;
	char *where;		/* module class or op sequence */
	char *example;		/* an example module instance path, or "" */
	char *detail;		/* a fact of the kind: "sm_75 on sm_90" */
	int cat;		/* the category it is reported with */
	long long instances;	/* module instances; 0 without modules */
	long long calls;	/* occurrences */
	int64_t time_ns;	/* kernel time of what it covers */
	int64_t save_ns;	/* recoverable time: the point estimate */
	int64_t save_lo_ns, save_hi_ns;	/* its range (lo = hi: exact) */
	int upper;		/* save_ns is an upper bound */
	/* inputs of the impact formula, by kind */
	int64_t flops, bytes;	/* attention: the fused op; norm: one pass;
				   eltwise: bytes before fusion */
	int64_t bytes_after;	/* eltwise: bytes after fusion */
	double eff_lo, eff_hi;	/* attention: efficiency range, % */
	int64_t model_lo_ns, model_hi_ns;	/* attention: the fused op's
						   time at eff_lo, eff_hi */
	int unquantified;	/* no roof or model: save_ns unknown */
	/* GEMM kernel selection: what the kernel names say */
	char karch[16], garch[16];	/* kernel's and GPU's architecture */
	int align;		/* alignment of the kernel, elements; 0 */
	int align_want;		/* full alignment for the dtype */
	int64_t tile_m, tile_n;	/* tile of the kernel; 0 unknown */
	int splitk;		/* the kernel splits K */
	struct tl_gshape gs;	/* TL_PAT_GEMM_SHAPE */
	struct tl_kcause kc;	/* TL_PAT_KERNEL_CAUSE */
	double tbs;		/* norm: bandwidth of the pass; -1 none */
	int tbs_baseline;	/* 1 the elementwise baseline, 0 the roof */
	/*
	 * Idle: the host not in the op, in the op, the launch latency (-1:
	 * no launch times), the wait past TL_LAUNCH_LATENCY_NS.
	 */
	int64_t part[4];
	int example_row;	/* a row of it, -1 none */
	size_t culprit;		/* TL_PAT_CULPRIT: its largest culprit
				   (f->idle.c), whose known row it is */
	enum tl_idlekind idle_kind;	/* idle: what most of it is */
	int short_seq;		/* attention: sequences under 1024, where even
				   a fused kernel reaches a low share of its
				   roofline */
	struct tl_fpev *ev;	/* ops by time, then kernels by time */
	int nev;
	size_t capev;
	int *evop;		/* by op: its index in ev + 1, 0 unknown (a
				   hint for tl_fpat_ev, checked) */
	size_t nevop;
	/* ranking (tl_analyst) */
	double eff;		/* share of its time the fix keeps, % */
	enum tl_priority prio, seed_prio;	/* after and before the cap */
	int prio_rule;		/* enum tl_prio_rule */
	int capped;		/* lowered: it recovers little */
};

/* A recommendation: a pattern or a bottleneck op, ranked. */
struct tl_frec {
	int pat;		/* f->pat index, or -1 */
	int op;			/* f->op index of a bottleneck, or -1 */
	int64_t save_ns, lo_ns, hi_ns;
	int upper;
	enum tl_priority prio;
	int prio_rule;		/* enum tl_prio_rule */
	int capped;
	int slot;		/* takes a recommendation slot */
};

/* The GPU timeline summed over the traces, ns. */
struct tl_ftimeline {
	int64_t total, busy, compute, comm, memcpy, idle;
};

/* The busy time of the ranks (several traces). */
struct tl_franks {
	int idle;		/* most idle (first of equals) */
	int64_t lo, hi, sum;	/* busy time: least, most, sum */
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
	/* op instances (per-instance streams) and their GPU events */
	struct tl_strtab *str;
	struct tl_frow *row;
	int nrow;
	size_t caprow;
	struct tl_fkev *kev;
	int nkev;
	size_t capkev;
	struct tl_ahead rowahead, kevahead;	/* of row, kev */
	/*
	 * Rows by op, made when first asked for (tl_patgroup_op): op o's
	 * rows, in order, are byop[byop0[o] .. byop0[o + 1]); for nbyop
	 * rows.
	 */
	int *byop0, *byop;
	int nbyop;
	int *order;		/* rows by trace, thread, host start */
	struct tl_fcov cov;
	/* the patterns and the ranked recommendations (tl_analyst) */
	struct tl_fpat *pat;
	int npat;
	size_t cappat;
	struct tl_frec *rec;
	int nrec;
	/* the verdicts (lib/analysis/verdict) */
	struct tl_ftimeline tl;	/* the summed timeline */
	int low_util;		/* computation under utilisation_min % */
	enum tl_loss loss;	/* what dominates the rest */
	struct tl_franks ranks;
	double base_peak_pct;	/* base_tbs of peak_tbs, %; 0 none */
	int base_good;		/* base_peak_pct above base_ok_pct */
	int64_t op_all_ns;	/* op kernel time of the traces: of every op
				   before any filtering, at least the rows' */
	double analysed_pct;	/* cov.analysed_ns of op_all_ns, % */
	int analysed_low;	/* under analysed_min_pct */
	struct tl_floader *load;	/* the reading state, during a load */
	struct tl_serving *serv;	/* phases and serving facts */
	struct tl_xrank *xr;	/* across ranks (analysis/xrank.h) */
	/* the user's: ranks per node, network GB/s per GPU; 0 unknown */
	long ranks_per_node;
	double net_gbs;
	/*
	 * The traces that could not be analysed, "TRACE: why" a line (the
	 * user's, tl-findings --failed; NULL none); tl_findings_free frees it.
	 */
	char *failed;
	/*
	 * The idle gaps' culprits (analysis/culprits.h); the caller may
	 * load a user's known-culprit table into it before the load.
	 */
	struct tl_fidle idle;
	/* The known causes' table (lib/analysis/kcause), once loaded. */
	struct tl_known causes;
	int causes_loaded;
};

/* A module instance and what ran under it (fusion candidates). */
struct tl_fmod {
	char *path;		/* Model_0/Layer_3/RMSNorm_7 */
	long long ops, kernels;
	int64_t time_ns;
	int heavy;		/* a gemm, conv or attention op ran under it */
	int candidate;		/* not heavy, fusion_min_kernels or more */
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
/*
 * The cross-rank analysis of per-rank summaries (analysis/xsummary.h)
 * into f, which holds nothing else (f->ntr stays 0): f->xr only, with the
 * GPU table's links of the first rank that names its GPU row and the
 * user's (f->ranks_per_node, f->net_gbs).
 */
void tl_findings_summaries(struct tl_findings *f, struct tl_stream *in);
void tl_findings_free(struct tl_findings *f);

/*
 * The straggler of several traces, the rank that arrives last at the
 * collectives and waits least (analysis/xrank.h); -1 for none.
 */
int tl_findings_straggler(const struct tl_findings *f);
/* The trace (f->tr index) of the cross-rank analysis' rank r, or -1. */
int tl_findings_xtrace(const struct tl_findings *f, int r);
/* The worst priority of a bottleneck, or -1 when there is none. */
int tl_findings_worst(const struct tl_findings *f);
/* A new pattern of kind k, zeroed but for its kind (example_row -1). */
struct tl_fpat *tl_findings_pat(struct tl_findings *f, enum tl_patkind k);
/* Add count and time to the evidence of p: an op (op >= 0) or a kernel. */
void tl_fpat_ev(struct tl_fpat *p, int op, uint32_t kname, long long count,
    int64_t time_ns);
/* The name of a pattern kind ("attention") and of a priority rule. */
const char *tl_patkind_name(enum tl_patkind k);
const char *tl_prio_rule_name(int rule);
/* A string of f->str. */
const char *tl_fstr(const struct tl_findings *f, uint32_t id);
/* The category with this value (an empty one if the table has none). */
const struct tl_fcat *tl_findings_cat(const struct tl_findings *f,
    const char *value);

#endif
