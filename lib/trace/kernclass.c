/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <string.h>

#include "trace/kernclass.h"
#include "trace/trace.h"

const struct tl_kerninfo *
tl_kernel_info(int kind, const char *name)
{
	static const struct tl_kerninfo copy = {
		"memcpy", "memory copy", TL_GC_MEMCPY, 0
	}, set = {
		"memcpy", "memory set", TL_GC_COMPUTE, 0
	};

	if (kind == TL_EV_MEMCPY)
		return &copy;
	if (kind == TL_EV_MEMSET)
		return &set;
	return tl_kerntable_find(name);
}

enum tl_gpuclass
tl_kernclass(int kind, const char *name)
{
	return tl_kernel_info(kind, name)->timeline;
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
