/* See LICENSE file for copyright and license details. */
#include <stddef.h>
#include <strings.h>

#include "model/dtype.h"

/*
 * The profiler's dtype names (the "Input type" of a cpu_op) with their
 * element size and compute precision.  TraceLens sizes dtypes with
 * name2bpe in TraceLens/PerfModel/utils.py, which lacks bool and the
 * 16-bit integer and complex types; tl knows them.
 */
static const struct {
	const char *name;
	int bytes;
	const char *precision;
} dtypes[] = {
	{ "double", 8, "fp64" },
	{ "float", 4, "fp32" },
	{ "c10::Half", 2, "fp16" },
	{ "c10::BFloat16", 2, "bf16" },
	{ "c10::Float8_e4m3fn", 1, "fp8" },
	{ "c10::Float8_e4m3fnuz", 1, "fp8" },
	{ "c10::Float8_e5m2", 1, "fp8" },
	{ "c10::Float8_e5m2fnuz", 1, "fp8" },
	{ "c10::Float8_e8m0fnu", 1, "fp8" },
	{ "c10::Float4_e2m1fn_x2", 1, "fp4" },
	{ "fp8", 1, "fp8" },
	{ "fp4", 1, "fp4" },
	{ "mxfp4", 1, "fp4" },
	{ "long int", 8, "int64" },
	{ "int", 4, "int32" },
	{ "short int", 2, "int16" },
	{ "short", 2, "int16" },
	{ "signed char", 1, "int8" },
	{ "unsigned char", 1, "uint8" },
	{ "bool", 1, NULL },
	{ "c10::complex<float>", 8, NULL },
	{ "c10::complex<double>", 16, NULL },
	{ "c10::complex<c10::Half>", 4, NULL },
	{ "Scalar", 4, NULL },
};

static int
dtype_index(const char *s)
{
	size_t i;

	if (s == NULL)
		return -1;
	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (strcasecmp(s, dtypes[i].name) == 0)
			return (int)i;
	return -1;
}

int
tl_dtype_bytes(const char *dtype)
{
	int i = dtype_index(dtype);

	return i < 0 ? 0 : dtypes[i].bytes;
}

const char *
tl_dtype_precision(const char *dtype)
{
	int i = dtype_index(dtype);

	return i < 0 ? NULL : dtypes[i].precision;
}
