/* See LICENSE file for copyright and license details. */
#ifndef TL_FUSION_H
#define TL_FUSION_H

/*
 * Patterns that one fused kernel, a layout change or a compiler would
 * remove, found over module instances and kernel sequences in host
 * order (lib/analysis/findings' rows), each with the rows or kernels it
 * explains and the time it recovers:
 *
 * - unfused attention (TL_PAT_ATTENTION): a softmax between two GEMMs of
 *   two activations, QK^T whose output has the softmax's elements and
 *   AV whose first operand does, in one module instance (or, without
 *   modules, next to each other on one thread); the chain is those
 *   GEMMs, the score-sized ops between them and the copies of Q and K
 *   just before.  Recovered: the chain's kernel time minus the time of
 *   the attention perf model (lib/model's sdpa family on the implied
 *   shapes: B·H = the GEMM batch, N_Q = M, N_KV = N, d = K) at 40-70 %
 *   of its roofline, 10-30 % for sequences under 1024;
 * - decomposed norms (TL_PAT_NORM): three or more elementwise and
 *   reduction ops, one of them a mean, variance or rsqrt, under one
 *   call of a module whose class names a norm (or, without modules, an
 *   rsqrt with its mean before it and its scaling after).  Recovered:
 *   the chain's time minus one pass reading and writing the input in
 *   its storage type at the trace's elementwise baseline (the
 *   bandwidth roof without one);
 * - layout conversions (TL_PAT_LAYOUT): the transpose kernels that
 *   convolution and normalization ops launch around their real kernels
 *   (NCHW <-> NHWC).  Recovered: their time;
 * - layout-only copies (TL_PAT_LAYOUT_COPY): copies whose source and
 *   destination have one shape and type and different strides.
 *   Recovered: at most their time;
 * - elementwise chains (TL_PAT_ELTWISE): three or more elementwise ops
 *   in a row under one module call (without modules: on one tensor
 *   size).  Recovered: the chain's time times the share of its bytes a
 *   fused kernel would not move, which reads and writes only as much
 *   as the largest op of the chain.
 */
#include "analysis/findings.h"

void tl_fusion_find(struct tl_findings *f);

#endif
