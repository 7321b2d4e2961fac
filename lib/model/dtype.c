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

/*
 * Other spellings of the same dtypes: PyTorch 1.8 to 2.x, ROCm builds and
 * the serving frameworks write the scalar type's name without "c10::"
 * ("BFloat16", "Half", "Float8_e4m3fn"), as torch.dtype ("torch.bfloat16")
 * or short ("bf16"); the "c10::" and "torch." prefixes are dropped before
 * this table and the one above are searched (case does not matter).
 */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "bfloat16", "c10::BFloat16" },
	{ "bf16", "c10::BFloat16" },
	{ "float16", "c10::Half" },
	{ "fp16", "c10::Half" },
	{ "float32", "float" },
	{ "fp32", "float" },
	{ "float64", "double" },
	{ "fp64", "double" },
	{ "float8_e4m3fn", "c10::Float8_e4m3fn" },
	{ "float8_e4m3fnuz", "c10::Float8_e4m3fnuz" },
	{ "float8_e5m2", "c10::Float8_e5m2" },
	{ "float8_e5m2fnuz", "c10::Float8_e5m2fnuz" },
	{ "float8_e8m0fnu", "c10::Float8_e8m0fnu" },
	{ "float4_e2m1fn_x2", "c10::Float4_e2m1fn_x2" },
	{ "int64", "long int" },
	{ "long", "long int" },
	{ "int32", "int" },
	{ "int16", "short int" },
	{ "int8", "signed char" },
	{ "uint8", "unsigned char" },
	{ "byte", "unsigned char" },
	{ "char", "signed char" },
	{ "complex64", "c10::complex<float>" },
	{ "complex128", "c10::complex<double>" },
	{ "complex32", "c10::complex<c10::Half>" },
	{ "ComplexFloat", "c10::complex<float>" },
	{ "ComplexDouble", "c10::complex<double>" },
	{ "ComplexHalf", "c10::complex<c10::Half>" },
};

/* s without a "c10::" or "torch." prefix. */
static const char *
bare(const char *s)
{
	if (strncasecmp(s, "c10::", 5) == 0)
		return s + 5;
	if (strncasecmp(s, "torch.", 6) == 0)
		return s + 6;
	return s;
}

static int
dtype_index(const char *s)
{
	size_t i;

	if (s == NULL)
		return -1;
	s = bare(s);
	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (strcasecmp(s, bare(dtypes[i].name)) == 0)
			return (int)i;
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcasecmp(s, aliases[i].alias) == 0)
			return dtype_index(aliases[i].name);
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
