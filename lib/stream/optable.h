/* See LICENSE file for copyright and license details. */
#ifndef TL_OPTABLE_H
#define TL_OPTABLE_H

/*
 * The op table (share/tl/ops.tsv, built into every program): op name →
 * category, direction, perf-model family.  A name ending in '*' is a
 * prefix pattern; exact names win, then patterns in table order.  Ops no
 * table names fall back on their first kernel's name, through the rows of
 * the kernel-name table marked for ops (stream/kerntable.h: ATen's
 * elementwise and reduce kernels, as TraceLens' categorize_torch_op in
 * TraceLens/PerfModel/torch_op_mapping.py), then "other".
 */
struct tl_opinfo {
	const char *category;	/* a value of the category table */
	const char *direction;	/* "fwd" or "bwd" */
	const char *model;	/* perf-model family, "" = none */
	int bwd_model;		/* the family also models the backward pass */
	/*
	 * A family tl models that TraceLens does not (linear, softmax, ...):
	 * tl-perfmodel uses it, but it does not stop the roll-up at the op.
	 */
	const char *extra_model;
};

/*
 * Load the built-in table, or FILE when path is not NULL; 0, or -1 after
 * a message "FILE:LINE: ..." on a bad row.  known says whether a model
 * family exists (tl_perf_family_known of the model layer, which this
 * layer cannot call); the model and extra_model of a row must be one.
 */
int tl_optable_load(const char *path, int (*known)(const char *family));
/* The entry for an op name, or NULL. */
const struct tl_opinfo *tl_optable_find(const char *name);
/*
 * The category of an op: table, then the name of its first kernel (may be
 * NULL), then "other".
 */
const char *tl_categorize(const char *name, const char *first_kernel);
/* The same with the op's entry already found (o, NULL for none). */
const char *tl_categorize_info(const struct tl_opinfo *o,
    const char *first_kernel);
/* Write the table with its header. */
struct tl_writer;
void tl_optable_print(struct tl_writer *w);

#endif
