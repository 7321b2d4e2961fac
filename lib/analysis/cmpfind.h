/* See LICENSE file for copyright and license details. */
#ifndef TL_CMPFIND_H
#define TL_CMPFIND_H

/*
 * The comparative findings: a tl-compare stream (tl-format(5), "The
 * comparison") read into its rows, the two GPU timelines, per-category
 * kernel times, each matched op judged against the time ratio the two
 * GPUs' roofs predict, and the recommendations for the target ranked.
 * No text: lib/render/cmpreport renders it.
 *
 * The timelines come from the ref_trace_*_us and target_trace_*_us
 * columns that every row of the stream carries (the first row's), so
 * the report needs no second input; a timeline comparison (tl-compare
 * --timeline) is not this stream and is told apart by its columns.
 *
 * The judgement of a matched op (its "Expected?"), with E its
 * expected_ratio, A its actual_ratio and p its tolerance_pct:
 *   yes                    explained is "yes": A within E / (1 + p/100)
 *                          and E (1 + p/100);
 *   likely kernel problem  otherwise A > 2 E: the target takes more than
 *                          twice (over 100 % more than) the time the
 *                          hardware ratio predicts;
 *   no (slower)            otherwise A > E;
 *   no (faster)            otherwise (A below the band);
 *   n/a                    without E or A (no bound or perf model, a
 *                          GPU without a roof for it, a reference time
 *                          of 0), and on a copy (every kernel a copy or
 *                          fill: the host link times it, not a roof).
 * E rests on the roofs of the stream's roof_kind (the other kind
 * standing in where a GPU lacks a figure: the sides' roof and bw_roof
 * columns say so); the same judgement against other_expected_ratio is
 * the verdict under the other kind.
 *
 * The recommendations for the target are the matched ops judged slower
 * or likely kernel problems, the ops on the target only (not a group's),
 * and the matched copies the target takes more than cmp_unexplained_pct
 * % longer over (their difference recoverable; pageable against pinned
 * copies told by the kernel names); each scores
 * its unexplained gap times its share of the target's time:
 * unexplained_time_us / target_kernel_time_us * target_pct_gpu_time,
 * which is its unexplained time as a percentage of the target's op
 * kernel time (over the sum of the rows' target_kernel_time_us when
 * target_pct_gpu_time is empty).  They are ranked by score, larger
 * first, then by unexplained time, then in stream order; a score above
 * the critical, high or medium percentage of the rules (lib/analysis/findrules)
 * gives that priority, else low.
 *
 * Findings that are no single op join them, ranked by the same score
 * (their recoverable time over the target's op kernel time, in %):
 *   a timeline gap        the target idles, or leaves communication or
 *                         copies exposed, longer than the reference by
 *                         at least TL_CMP_MIN_PCT % of its timeline: the
 *                         difference is recoverable;
 *   a pattern             with the two op streams (tl_cmpfind_sides):
 *                         each side analysed (lib/analysis/analyst) and
 *                         its patterns matched by kind and where; a
 *                         pattern the target has and the reference has
 *                         not, or has recovering less, is a finding
 *                         with the difference as its recoverable time
 *                         (when at least TL_CMP_MIN_PCT % of the
 *                         target's timeline),
 *                         and the target's ops it covers stop being
 *                         recommendations of their own.  An unfused
 *                         attention on the target that the reference
 *                         runs fused is named first.
 *   a group               rows of one group (ref_group, target_group)
 *                         summed per side, its fused side the one whose
 *                         rows are all of one category of fused work
 *                         (attention, a norm, MoE) the other lacks: the
 *                         target slower is a finding (attention unfused
 *                         on the target named first, as the pattern; a
 *                         group whose target rows a pattern of the sides
 *                         covers recovers nothing of its own); the
 *                         target faster, none: the reference may be
 *                         inefficient (nref_slower).
 * The exposed copies' timeline gap leaves out what the copy rows and the
 * target's pageable-copy patterns recover: no time counts twice.  A
 * matched row whose kernel names differ is kdiff, and fallback names the
 * side whose top kernel is a fallback kernel; "identical" needs no kdiff.
 * Matched ops that the target runs more than twice as fast as the
 * hardware ratio predicts (actual < expected / 2) are the reference's
 * possible inefficiencies (c->nfast, TL_CE_FASTER rows with fast set).
 *
 * Errors in the stream end the program through tl_die with
 * "FILE:LINE: what" (exit 1).
 */
#include <stdint.h>

#include "analysis/findings.h"
#include "analysis/findrules.h"
#include "analysis/opsig.h"

struct tl_stream;

enum tl_cmatch { TL_CM_BOTH, TL_CM_REF_ONLY, TL_CM_TARGET_ONLY };
/*
 * How a row was matched: on its signature (both, ref_only, target_only),
 * as another form of the same matrix product (product: a matched row),
 * or as a member of a group matched with the other side's ops
 * (ref_group, target_group: one side's row, the group named by its
 * layout_note).
 */
enum tl_cform { TL_CF_SIG, TL_CF_PRODUCT, TL_CF_GROUP };

/* The judgement of a row against the hardware ratio. */
enum tl_cexp {
	TL_CE_NA, TL_CE_YES, TL_CE_FASTER, TL_CE_SLOWER, TL_CE_KERNEL,
	TL_CE_N
};

#define TL_CKERN 3	/* kernels kept per side, most time first */

/* One side of a row; has == 0 when the side lacks the op. */
struct tl_cside {
	int has;
	char *roof, *bw_roof;		/* achievable, peak or "" */
	double peak_tflops, peak_tbs;	/* NaN when empty */
	long long count;
	int64_t time_ns;
	double mean_us, tflops_s, tbs, pct_roofline, pct_gpu;	/* NaN: empty */
	/*
	 * Above its peak roof (tl-compare's above_peak_pct, perf_error):
	 * the % of the peak roof, NaN when not; why, "" when not.
	 */
	double above_peak_pct;
	char *perf_error;
	struct tl_fkern kern[TL_CKERN];
	int nkern, nkern_all;		/* kept, in the stream */
	int64_t kern_other_ns;		/* the kernels not kept */
};

/* One row of the stream. */
struct tl_crow {
	enum tl_cmatch match;
	enum tl_cform form;
	int grp;			/* group: 1 + its gap */
	int layout;			/* matched despite other strides */
	int kdiff;			/* matched, other kernel names */
	int fallback;			/* kdiff: the side (REF 0, TGT 1) whose
					   top kernel is a fallback kernel and
					   the other's not, else -1 */
	int algo;			/* kdiff, no fallback: a convolution of
					   one shape on one GPU for which the
					   library chose another algorithm
					   (its kernels) in the two runs */
	int copy;			/* every kernel of both sides a copy:
					   no hardware ratio, a copy's finding */
	int pageable[2];		/* a side copies from pageable memory */
	char *name, *category, *direction, *dims, *types, *strides;
	char *target_strides, *layout_note, *concrete, *perf_model;
	char *compute_spec, *bound;
	int cat;			/* category index; other when unknown */
	int has_flops, has_bytes;
	int64_t flops, bytes;
	struct tl_cside s[2];		/* reference, target */
	int64_t delta_ns;		/* target - reference; none counts 0 */
	double delta_pct;		/* of the reference; NaN without it */
	double expected, actual;	/* the ratios; NaN when empty */
	char *explained;
	double other_expected;		/* under the other roof kind; NaN */
	char *other_explained;
	enum tl_cexp other_exp;		/* the judgement under it */
	double unexplained_us;		/* NaN when empty */
	enum tl_cexp exp;
	int unexplained;		/* matched, no hardware expectation,
					   the time differs by more than
					   cmp_unexplained_pct */
	int candidate;			/* a recommendation */
	int fast;			/* much faster than predicted */
	double ref_excess_us;		/* fast: the reference's time beyond
					   what the ratio predicts */
	int in_pat;			/* 1 + the gap whose pattern covers it */
	double score;			/* % of the target's op kernel time */
	enum tl_priority prio;
	int rank;			/* 1.. among the recommendations, 0 */
};

/* Least share of the target's timeline a timeline gap must recover. */
#define TL_CMP_MIN_PCT 0.5

enum tl_cgkind { TL_CG_TIMELINE, TL_CG_PATTERN, TL_CG_GROUP };

/* A finding of the comparison that is no single op. */
struct tl_cgap {
	enum tl_cgkind kind;
	int tlc;			/* timeline: its TL_TLC_* entry */
	int pat[2];			/* pattern: on each side (the side's
					   f->pat index), -1 none */
	int64_t ns[2];			/* each side's time in it */
	int64_t save_ns;		/* what the target recovers */
	int64_t fused_ns;		/* attention: the reference's fused
					   attention kernel time, else 0 */
	int row;			/* group: its first row */
	int fused_side;			/* group: the side running it fused
					   (attention, a norm, MoE), -1 none */
	int cat;			/* group: the fused side's category */
	int nrows[2];			/* group: each side's rows */
	int ref_slower;			/* group: the reference takes longer
					   (it may be inefficient there) */
	int covered;			/* group: a pattern of the sides names
					   it (tl_cmpfind_sides) */
	double score;			/* % of the target's op kernel time */
	enum tl_priority prio;
};

/* A recommendation: an op row or a gap, by rank. */
struct tl_citem {
	int row, gap;			/* one of them is -1 */
	double score;
	enum tl_priority prio;
};

struct tl_cmpfind {
	struct tl_findrules rules;	/* the priorities' thresholds */
	char *name[2], *hw[2];		/* ref_name, target_name; ref_hw ... */
	double tolerance_pct;		/* NaN when the stream has none */
	char *roof_kind;		/* achievable, peak; "" unknown */
	/* the two timelines, in the order of lib/analysis/opsig's tl_tlc_cols */
	int has_tl[2][TL_TLC_N];
	int64_t tl_ns[2][TL_TLC_N];
	struct tl_crow *row;		/* in stream order */
	int nrow;
	size_t caprow;
	int64_t cat_ns[2][TL_CAT_MAX];	/* kernel time per category and side */
	int cat_present[TL_CAT_MAX];
	int64_t op_ns[2];		/* sum of each side's kernel time */
	int nmatch[3];			/* rows per tl_cmatch */
	int nlayout;			/* matched despite other strides */
	int nproduct;			/* matched as another product form */
	int ngroup, ngrouprow;		/* groups and their rows */
	int nref_slower;		/* groups the reference runs slower */
	int64_t ref_slower_ns;		/* by this much together */
	int nkdiff;			/* matched rows with other kernels */
	int kdiff_row;			/* the first (a fallback first), -1 */
	int same_hw;			/* both sides name the same GPU */
	int nexp[TL_CE_N];		/* matched rows per judgement */
	int nother;			/* matched rows judged otherwise under
					   the other roof kind */
	int64_t bound_ns[3];		/* target time of matched rows:
					   compute, memory, unknown bound */
	int memory_dominates;		/* bound_ns: memory-bound ops take at
					   least as long as compute-bound */
	double unexplained_us;		/* over the recommendations */
	int identical;			/* rows, every delta 0, nothing
					   one-sided, the same kernels */
	int *rec;			/* row indexes of the recommendations */
	int nrec;
	int nfast;			/* matched rows much faster than
					   predicted */
	int64_t fast_ns;		/* the reference's excess time in them */
	int nabove[2];			/* rows above their peak roof, per
					   side (coverage: no efficiency) */
	int64_t above_ns[2];		/* their kernel time */
	const struct tl_findings *side[2];	/* the op streams, or NULL */
	struct tl_cgap *gap;		/* timeline gaps, then patterns */
	int ngap;
	struct tl_citem *item;		/* every recommendation, by rank */
	int nitem;
	double op_total_us;		/* the target's op kernel time */
};

/*
 * What the open stream holds, from its columns: 1 a comparison
 * (match, ref_kernel_time_us, target_kernel_time_us), 2 a timeline
 * comparison (type, ref_time_us, target_time_us), 0 anything else.
 */
int tl_cmpfind_kind(const struct tl_stream *in);
/* Read a comparison stream and judge it with the priorities of r. */
void tl_cmpfind_read(struct tl_cmpfind *c, struct tl_stream *in,
    const struct tl_findrules *r);
/*
 * Compare the patterns of the two sides' analysed op streams (ref and
 * target, each tl_analyst_load'ed; kept, not owned) and rank again.
 */
void tl_cmpfind_sides(struct tl_cmpfind *c, const struct tl_findings *ref,
    const struct tl_findings *target);
void tl_cmpfind_free(struct tl_cmpfind *c);
/* The worst priority of a recommendation, or -1 when there is none. */
int tl_cmpfind_worst(const struct tl_cmpfind *c);
/* The row's match column: both, product, ref_group, ... */
const char *tl_crow_match_value(const struct tl_crow *w);
/* "yes", "no (slower)", ... as the reports print it. */
const char *tl_cexp_text(enum tl_cexp e);
/* "yes", "slower", "faster", "likely_kernel_problem", "" for the CSV. */
const char *tl_cexp_value(enum tl_cexp e);

#endif
