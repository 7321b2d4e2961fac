/* See LICENSE file for copyright and license details. */
#ifndef TL_KERNCLASS_H
#define TL_KERNCLASS_H

/*
 * What a GPU event is on the timeline: computation, collective
 * communication or memory copy (TraceLens' rules: gpu_memcpy events and
 * the ROCm copy kernels are memcpy; kernel names containing nccl, rccl or
 * cross_device_reduce, in any case, are communication; the rest, memsets
 * included, is computation).
 */
enum tl_gpuclass { TL_GC_COMPUTE, TL_GC_COMM, TL_GC_MEMCPY };

enum tl_gpuclass tl_kernclass(int kind, const char *name);
const char *tl_gpuclass_name(enum tl_gpuclass c);

/*
 * Whether a kernel name is a layout conversion: a transpose or an
 * NCHW <-> NHWC conversion (case-insensitive, in the first 127 bytes).
 */
int tl_kernel_is_layout(const char *name);

#endif
