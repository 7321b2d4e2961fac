/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <string.h>

#include "common/util.h"
#include "trace/kernclass.h"
#include "trace/trace.h"

/* Strip an optional ".kd" suffix; return the remaining length. */
static size_t
base_len(const char *s)
{
	size_t n = strlen(s);

	if (n >= 3 && strcmp(s + n - 3, ".kd") == 0)
		n -= 3;
	return n;
}

static int
eq(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* ^(MEMORY_COPY_(HOST_TO_DEVICE|...)|__amd_rocclr_copyBuffer(Rect)?(Aligned)?)(\.kd)?$ */
static int
rocm_copy(const char *s)
{
	size_t n = base_len(s);

	return eq(s, n, "MEMORY_COPY_HOST_TO_DEVICE") ||
	    eq(s, n, "MEMORY_COPY_DEVICE_TO_HOST") ||
	    eq(s, n, "MEMORY_COPY_DEVICE_TO_DEVICE") ||
	    eq(s, n, "__amd_rocclr_copyBuffer") ||
	    eq(s, n, "__amd_rocclr_copyBufferRect") ||
	    eq(s, n, "__amd_rocclr_copyBufferAligned") ||
	    eq(s, n, "__amd_rocclr_copyBufferRectAligned");
}

static int
rocm_fill(const char *s)
{
	size_t n = base_len(s);

	return eq(s, n, "__amd_rocclr_fillBuffer") ||
	    eq(s, n, "__amd_rocclr_fillBufferAligned");
}

enum tl_gpuclass
tl_kernclass(int kind, const char *name)
{
	if (kind == TL_EV_MEMCPY)
		return TL_GC_MEMCPY;
	if (kind == TL_EV_KERNEL) {
		if (rocm_copy(name))
			return TL_GC_MEMCPY;
		if (rocm_fill(name))
			return TL_GC_COMPUTE;
		if (tl_contains_ci(name, "nccl") || tl_contains_ci(name, "rccl") ||
		    tl_contains_ci(name, "cross_device_reduce"))
			return TL_GC_COMM;
	}
	return TL_GC_COMPUTE;
}

const char *
tl_gpuclass_name(enum tl_gpuclass c)
{
	switch (c) {
	case TL_GC_COMM:
		return "comm";
	case TL_GC_MEMCPY:
		return "memcpy";
	default:
		return "compute";
	}
}

int
tl_kernel_is_layout(const char *name)
{
	static const char *const pat[] = {
		"transpose", "nchw2nhwc", "nhwc2nchw", "nchwtonhwc",
		"nhwctonchw", "nchw_to_nhwc", "nhwc_to_nchw", NULL
	};
	char low[128];
	size_t i;
	int k;

	/* Compare the start of the name, where the kernel's kind is. */
	for (i = 0; i < sizeof(low) - 1 && name[i] != '\0'; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	for (k = 0; pat[k] != NULL; k++)
		if (strstr(low, pat[k]) != NULL)
			return 1;
	return 0;
}
