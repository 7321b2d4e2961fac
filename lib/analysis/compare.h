/* See LICENSE file for copyright and license details. */
#ifndef TL_COMPARE_H
#define TL_COMPARE_H

/*
 * Comparing a reference trace with a target trace (tl-compare(1), the
 * columns in tl-format(5)).
 *
 * Ops match on their signature (lib/analysis/opsig.h) regardless of kernel
 * names, so traces of two vendors match; signatures left over on both
 * sides that differ only in input_strides are paired next, and their
 * rows say so in layout_note.  What is left is matched as one op in
 * another form (tl-compare(1)): concrete inputs recorded on one side
 * only (both), attention fused on one side and bmm, softmax, bmm on the
 * other, or a norm or MoE op on one side and other ops in a module of
 * the same class on the other (ref_group and target_group rows sharing
 * the group's layout_note), one matrix product as mm, addmm, linear,
 * matmul, bmm or baddbmm (product).  Each matched row gets both sides' count,
 * kernel time and roofline efficiency, the exact time difference, the
 * time ratio the two GPUs' figures predict and whether the measured ratio
 * stays within a tolerance of it; a signature of one side only is kept
 * and marked.  Both GPUs are measured against roofs of the run's kind
 * (--roof), with the other kind standing in where a GPU lacks a figure
 * (lib/model/hwspec.h); the expected ratio and its verdict under the
 * other kind are written too, so a report can show where they differ.
 *
 * The timeline comparison reads either op streams (their trace_*_us
 * columns, six rows) or tl-parse --timeline tables (eight rows).
 */
#include "analysis/opsig.h"
#include "common/tsv.h"
#include "model/hwspec.h"

struct tl_cmp_opts {
	const struct tl_hw *hw[2];	/* reference, target */
	const char *name[2];		/* NULL: the trace column, or the path */
	enum tl_roof roof;		/* the run's roof kind */
	double tolerance_pct;		/* explained within this % */
};

/*
 * The GPU of one side: the table entry named by opt when not NULL (an
 * unknown name is a usage error), else that of the stream's hw column,
 * else the one its trace_gpu names (tl_hw_identify).  When none is
 * known, a warning naming option (--ref-hw) and NULL: that side's roofs,
 * efficiency and the expected ratios stay empty, as tl-efficiency
 * leaves a GPU it cannot name; with strict, an error (exit 1).
 */
const struct tl_hw *tl_compare_gpu(const struct tl_opsigs *s,
    const char *opt, const char *option, int strict);

/* Write the compare stream of ref and tgt, header first. */
void tl_compare_ops(const struct tl_opsigs *ref, const struct tl_opsigs *tgt,
    const struct tl_cmp_opts *o, struct tl_writer *w);

/* The GPU timeline of one input, for tl-compare --timeline. */
#define TL_TLINE_N 8	/* computation, ..., total_memcpy */
struct tl_tline {
	char *path;		/* as given; "-" = stdin */
	char *trace;		/* the trace column's value, "" without */
	int has[TL_TLINE_N];
	int64_t ns[TL_TLINE_N];
	struct tl_tline_reading *reading;	/* the input, during a read */
};

/*
 * Read the timeline of path ("-" = stdin): a tl-parse --timeline table,
 * or the trace_*_us columns of an op stream.  tl_tline_free frees what a
 * read made, also when tl_die ended it through tl_exit_hook (the fuzz
 * harnesses).
 */
void tl_tline_read(struct tl_tline *t, const char *path);
void tl_tline_free(struct tl_tline *t);

/*
 * Write the timeline comparison of ref and tgt: one row per timeline
 * type either has, header first.
 */
void tl_compare_timeline(const struct tl_tline *ref,
    const struct tl_tline *tgt, const struct tl_cmp_opts *o,
    struct tl_writer *w);

#endif
