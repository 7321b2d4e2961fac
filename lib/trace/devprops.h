/* See LICENSE file for copyright and license details. */
#ifndef TL_DEVPROPS_H
#define TL_DEVPROPS_H

/*
 * The GPU a trace ran on, from its top-level "deviceProperties" array
 * (Kineto writes one object per device: name, totalGlobalMem,
 * computeMajor, computeMinor, numSms, warpSize, ...).  tl keeps the first
 * device's name, architecture, compute-unit count and memory size: what
 * tl-efficiency --hw auto needs to tell GPUs apart when the name alone
 * cannot (an empty name, "AMD Radeon Graphics").
 */
#include <stddef.h>

struct tl_gpuinfo {
	char *name;		/* "name", NULL when absent (may be "") */
	/*
	 * "sm_90" (NVIDIA: sm_ and the compute capability) or "gfx94" (AMD:
	 * gfx and HIP's major and minor, which leave out the stepping of
	 * gfx942), "" when unknown.
	 */
	char arch[16];
	long long compute_units;	/* numSms (SMs or CUs), 0 = unknown */
	long long memory_bytes;		/* totalGlobalMem, 0 = unknown */
};

/*
 * Fill g from the compact JSON text of a deviceProperties value; fields
 * the value lacks stay unknown.  g->name is malloc'd (free it).
 */
void tl_devprops_parse(const char *val, size_t len, struct tl_gpuinfo *g);

#endif
