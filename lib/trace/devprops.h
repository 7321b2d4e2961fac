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
	/*
	 * The architecture the kernel names show the GPU has at least
	 * (tl_gpuinfo_kernel): "sm_80", "gfx942"; "" when none shows one.
	 */
	char kernel_arch[16];
};

/*
 * Fill g from the compact JSON text of a deviceProperties value; fields
 * the value lacks stay unknown.  g->name is malloc'd (free it).
 */
void tl_devprops_parse(const char *val, size_t len, struct tl_gpuinfo *g);

/*
 * The architecture a kernel's name says it was built for, into arch
 * (len >= 16): "sm_70" for volta_*, "sm_80" for ampere_*, sm80_*,
 * cutlass_80_* and cutlass::arch::Sm80, "gfx942" for the ISA942 of
 * Tensile and hipBLASLt names or a gfx942 in the name.  0 when the name
 * shows none.
 */
int tl_kernel_name_arch(const char *name, char *arch, size_t len);
/*
 * Raise g->kernel_arch with a kernel's name: NVIDIA the highest compute
 * capability any kernel was built for (the GPU runs them all); AMD the
 * first ISA seen.
 */
void tl_gpuinfo_kernel(struct tl_gpuinfo *g, const char *name);

#endif
