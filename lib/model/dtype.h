/* See LICENSE file for copyright and license details. */
#ifndef TL_DTYPE_H
#define TL_DTYPE_H

/*
 * The profiler's dtypes: bytes per element of a dtype name
 * ("c10::BFloat16" → 2), 0 when unknown; its compute precision ("bf16")
 * or NULL.  Case-insensitive; every spelling of PyTorch 1.8 to 2.x, ROCm
 * and the serving frameworks ("c10::BFloat16", "BFloat16", "bf16",
 * "torch.bfloat16") names the same dtype.
 */
int tl_dtype_bytes(const char *dtype);
const char *tl_dtype_precision(const char *dtype);

#endif
