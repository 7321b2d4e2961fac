/* See LICENSE file for copyright and license details. */
#ifndef TL_GEMMCAUSE_H
#define TL_GEMMCAUSE_H

/*
 * Why a GEMM is slow, from its shape, its kernel's name and the GPU's
 * table row (TL_PAT_GEMM_SHAPE, one pattern per op signature and cause,
 * FP32 ones pooled): fewer output tiles than the GPU has compute units,
 * a last wave of tiles mostly empty, dimensions that are not multiples
 * of the alignment the fast kernels need (the time padding saves, at the
 * efficiency of the nearest aligned GEMM of the same compute spec in the
 * same trace, else an estimate at the expected range), tall-skinny and
 * GEMV shapes that are memory-bound by nature, and FP32 GEMMs on a GPU
 * whose matrix units run lower precisions faster.  Tiles come from the
 * kernel's name: Tensile/hipBLASLt "MT<m>x<n>", cuBLAS "tilesize<m>x<n>",
 * CUTLASS and cuBLAS "_<m>x<n>_"; the libraries are column-major, so a
 * tile's first size runs along the PyTorch output's columns (N).  Each
 * signature gets at most one cause: the one that recovers most.  Also
 * sets every op's gpu_prec.
 */
#include "analysis/findings.h"

void tl_gemmcause_find(struct tl_findings *f);

/* The name of a cause in the -o JSON: "few_tiles", "last_wave", ... */
const char *tl_gemmcause_name(enum tl_gemmcause c);

/* The precision bits (TL_PREC_*) of the GPU named hw in the table. */
unsigned tl_gpu_prec(const char *hw);

#endif
