/* See LICENSE file for copyright and license details. */
#ifndef TL_MODEL_FILE_H
#define TL_MODEL_FILE_H

/*
 * Perf models written as formulas in a TSV file (tl-perfmodel(1), MODEL
 * FILES), so users add or replace a model without recompiling: a table
 * (lib/common/tabfile.h) with the columns op, maf, flops and bytes.  op is
 * an exact op name, maf "matrix" or "vector", flops and bytes formulas
 * of lib/model/expr.h (empty = unknown).  A later file's entry for an op
 * replaces an earlier one's; file models take precedence over the
 * built-in C models.
 */
#include "model/opargs.h"
#include "model/perfresult.h"

struct tl_filemodel;

/*
 * Load the built-in file (path NULL: share/tl/models/default.tsv as
 * compiled in) or FILE.  0, or -1 after printing "prog: FILE:LINE: what".
 */
int tl_filemodels_load(const char *path);
/* Ask for FILE to be read by tl_filemodels_setup (--models FILE). */
void tl_filemodels_want(const char *path);
/*
 * Load the built-in file, then the files asked for, in order; 0, or -1
 * after printing the error.
 */
int tl_filemodels_setup(void);
/* The model for an op name, or NULL. */
const struct tl_filemodel *tl_filemodel_find(const char *op);
/* Run it: 0 with p filled (a formula may fail alone), or -1. */
int tl_filemodel_run(const struct tl_filemodel *m, const struct tl_opargs *o,
    struct tl_perf *p);
void tl_filemodels_free(void);

#endif
