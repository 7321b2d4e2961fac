/* See LICENSE file for copyright and license details. */
#ifndef TL_KCAUSE_H
#define TL_KCAUSE_H

/*
 * Known causes of slow convolutions (and, through the same table,
 * attention, MoE and elementwise ops): TL_PAT_KERNEL_CAUSE, one pattern
 * per op signature, at most one cause each.  The causes' words are the
 * rows of share/tl/causes.tsv (lib/stream/known.h, as the idle culprits'
 * table); this module computes only which row applies and the numbers
 * its placeholders show: channels, kernel size, dilation, stride,
 * groups, output positions, weight bytes, efficiency, and the time the
 * fix would recover at the expected efficiency (an estimate, labelled).
 * Ops another pattern mostly explains are left alone.
 */
#include <stdint.h>

#include "analysis/findings.h"

void tl_kcause_find(struct tl_findings *f);

/* The causes table's columns. */
enum { TL_KCC_KEY, TL_KCC_KIND, TL_KCC_TITLE, TL_KCC_ISSUE, TL_KCC_ACTION,
    TL_KCC_IMPACT, TL_KCC_N };

/* The name of a pattern's cause: its row's key. */
const char *tl_kcause_name(const struct tl_findings *f,
    const struct tl_fpat *p);
/* Pattern p's field of column c of its row ("" without one). */
const char *tl_kcause_text(const struct tl_findings *f,
    const struct tl_fpat *p, int c);

/*
 * Load the causes table into f: the built-in one and the user's file path
 * (NULL none), whose rows replace the built-in rows of the same key (to
 * reword a cause; a new key names no cause tl computes).  0, or -1 after
 * saying why ("prog: FILE:LINE: what").  tl_kcause_find loads the
 * built-in table when nothing was loaded.
 */
int tl_kcause_load(struct tl_findings *f, const char *path);
/*
 * Set the numbers kernel_time and calls of every pattern of kind to the
 * pattern's summed time and calls (after its ops are added).
 */
void tl_kcause_totals(struct tl_findings *f, enum tl_patkind kind);
/* The row of the causes table whose key is key (loading it), -1. */
long tl_kcause_row(struct tl_findings *f, const char *key);

/* Add a number to k: an integer, a real shown with digits decimals, ns
   shown as ms, an op (f->op index) shown as its name and shapes, text. */
void tl_kcn_int(struct tl_kcause *k, const char *name, int64_t v);
void tl_kcn_real(struct tl_kcause *k, const char *name, double v,
    int digits);
void tl_kcn_ms(struct tl_kcause *k, const char *name, int64_t ns);
void tl_kcn_op(struct tl_kcause *k, const char *name, int op);
void tl_kcn_text(struct tl_kcause *k, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Set k's number name to v, adding it with unit when it has none. */
void tl_kcn_set(struct tl_kcause *k, const char *name, enum tl_kcunit unit,
    double v);

/*
 * Mixed precision a GPU with the TL_PREC_* bits prec runs faster: FP16
 * autocast where it has FP16 only, BF16 (or FP16) autocast and TF32 for
 * what stays FP32 where its row has them; NULL when it has none.
 */
const char *tl_precision_advice(unsigned prec);
/* "FP8, W8A8" where the GPU has FP8 matrix units, else "INT8 ...". */
const char *tl_lowbit_weights(unsigned prec);

extern const char tl_default_causes[];

#endif
