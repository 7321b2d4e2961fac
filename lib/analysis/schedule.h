/* See LICENSE file for copyright and license details. */
#ifndef TL_SCHEDULE_H
#define TL_SCHEDULE_H

/*
 * Patterns of what the GPU waits for or does twice, from the timeline
 * columns and the rows' GPU events and gaps (lib/analysis/findings):
 *
 * - TL_PAT_COMM: exposed collective communication (trace_exposed_comm_us);
 *   recovered: at most that time;
 * - TL_PAT_PAGEABLE: host-to-device copies from pageable memory (their
 *   GPU events say "Pageable"); recovered: at most the part of them no
 *   other GPU work overlaps;
 * - TL_PAT_SYNC: device-to-host copies followed by idle (.item(),
 *   .cpu(), printing a tensor); recovered: at most the idle right after,
 *   less the known culprits' part of it;
 * - TL_PAT_IDLE: the other gaps between GPU work, split into the host
 *   not yet in the next op, the host inside it before its launch call
 *   and the launch latency; recovered: at most the gaps, less the known
 *   culprits' part of them;
 * - TL_PAT_CULPRIT: a known idle culprit (share/tl/culprits.tsv or the
 *   user's table: a single-process DataLoader, zero_grad, ...), one per
 *   known row; recovered: at most the idle its pieces cover in the gaps;
 * - TL_PAT_RECOMPUTE: forward ops re-run in the backward pass by
 *   activation checkpointing (their call stack passes through the
 *   checkpoint code; without call stacks, forward ops of the backward
 *   pass under no backward op whose signature also runs forward);
 *   recovered: their time, traded for the activation memory it saves.
 */
#include "analysis/findings.h"

void tl_schedule_find(struct tl_findings *f);
/* A copy or fill the runtime records (Memcpy ..., Memset ...). */
int tl_kern_is_copy(const char *k);
/* A host-to-device copy from pageable memory, by its recorded name. */
int tl_kern_pageable_h2d(const char *k);

#endif
