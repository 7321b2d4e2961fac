/* See LICENSE file for copyright and license details. */
#ifndef TL_KERNCLASS_H
#define TL_KERNCLASS_H

/*
 * What a GPU event is on the timeline: computation, collective
 * communication or memory copy.  gpu_memcpy events are copies and
 * gpu_memset events computation, as in TraceLens' GPU timeline; a kernel
 * is what the kernel-name table (stream/kerntable.h, share/tl/kernels.tsv)
 * says: the ROCm copy kernels are copies, NCCL, RCCL, the custom and
 * symmetric-memory all-reduce kernels are communication, the rest
 * (fills included) computation.
 */
#include "stream/kerntable.h"

enum tl_gpuclass tl_kernclass(int kind, const char *name);
const char *tl_gpuclass_name(enum tl_gpuclass c);
/*
 * The kernel-name table's entry for a GPU event: gpu_memcpy and
 * gpu_memset events are memory copies and sets whatever their name.
 */
const struct tl_kerninfo *tl_kernel_info(int kind, const char *name);

/*
 * Whether a kernel name is a layout conversion: a transpose or an
 * NCHW <-> NHWC conversion (case-insensitive, in the first 127 bytes).
 */
int tl_kernel_is_layout(const char *name);

#endif
