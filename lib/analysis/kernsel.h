/* See LICENSE file for copyright and license details. */
#ifndef TL_KERNSEL_H
#define TL_KERNSEL_H

/*
 * GEMM kernel selection judged from kernel names, each kind one
 * pattern over the GEMM signatures that show it:
 *
 * - TL_PAT_GEMM_ALIGN: a kernel built for unaligned operands (a CUTLASS
 *   "alignN" below 16 bytes of the dtype), or a GEMM below 40 % of its
 *   roofline whose N or K is not a multiple of 16 bytes of elements:
 *   padding the dimension lets the aligned kernels run;
 * - TL_PAT_GEMM_ARCH: a kernel built for an architecture two
 *   generations older than the trace's GPU (sm_75 on sm_90), or for
 *   another gfx family on AMD (ISA90a on gfx94);
 * - TL_PAT_GEMM_TILE: split-K or a tile of at most 64x64 outputs on a
 *   GEMM of 4M outputs or more that runs below 50 % of its roofline.
 *
 * The GPU's architecture is the trace's (trace_gpu_arch) or, without
 * it, the one its name implies.  Recovered: what the GEMMs save at
 * 50 % of their roofline (20-80 % for the range).  A signature joins
 * one kind, the first that applies.
 */
#include "analysis/findings.h"

/* What a GEMM kernel's name says about the kernel. */
struct tl_kname {
	char arch[16];		/* "sm_75", "gfx90a"; "" unknown */
	int align;		/* CUTLASS alignN, 0 none */
	int64_t tm, tn;		/* tile, 0 unknown */
	int splitk;		/* splits K (splitK, GSU > 1) */
	int streamk;		/* stream-K or persistent: one workgroup per
				   compute unit, whatever the tiles */
};

/* The facts of a kernel name (zero when it says nothing). */
void tl_kname_parse(const char *name, struct tl_kname *k);

/*
 * The facts of the GEMM kernel that takes most of op's time (not a
 * reduction kernel), split-K when any of its kernels splits K.
 */
void tl_kname_best(const struct tl_fop *op, struct tl_kname *best);

void tl_kernsel_find(struct tl_findings *f);

/*
 * 1 if a kernel built for karch ("sm_75", "gfx90a") is older than the
 * GPU's garch: two NVIDIA generations back, or an older AMD family.
 */
int tl_arch_older(const char *karch, const char *garch);

/*
 * The architecture a GPU name implies ("sm_90" for an H100, "gfx94"
 * for an MI300X) into buf, "" when unknown.
 */
const char *tl_gpu_arch(const char *gpu, char *buf, size_t n);

#endif
