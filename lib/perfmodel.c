/* See LICENSE file for copyright and license details. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model_file.h"
#include "perfmodel.h"

void
tl_perf_reset(struct tl_perf *p)
{
	p->has_flops = p->has_bytes = 0;
	p->flops = p->bytes = 0;
	p->maf = NULL;
	p->precision = NULL;
	tl_jb_reset(&p->params);
	p->nparams = 0;
	p->err[0] = '\0';
}

void
tl_perf_free(struct tl_perf *p)
{
	tl_jb_free(&p->params);
}

int
tl_perf_fail(struct tl_perf *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	p->has_flops = p->has_bytes = 0;
	return -1;
}

static void
key(struct tl_perf *p, const char *k)
{
	tl_jb_lit(&p->params, p->nparams++ == 0 ? "{" : ",");
	tl_jb_str(&p->params, k);
	tl_jb_lit(&p->params, ":");
}

void
tl_perf_param_int(struct tl_perf *p, const char *k, int64_t v)
{
	key(p, k);
	tl_jb_int(&p->params, v);
}

void
tl_perf_param_str(struct tl_perf *p, const char *k, const char *v)
{
	key(p, k);
	tl_jb_str(&p->params, v);
}

void
tl_perf_param_bool(struct tl_perf *p, const char *k, int v)
{
	key(p, k);
	tl_jb_lit(&p->params, v ? "true" : "false");
}

void
tl_perf_param_ints(struct tl_perf *p, const char *k, const int64_t *v, int n)
{
	int i;

	key(p, k);
	tl_jb_lit(&p->params, "[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_jb_lit(&p->params, ",");
		tl_jb_int(&p->params, v[i]);
	}
	tl_jb_lit(&p->params, "]");
}

void
tl_perf_params_end(struct tl_perf *p)
{
	tl_jb_lit(&p->params, p->nparams == 0 ? "{}" : "}");
}

/*
 * The profiler's dtype names (c10 scalar type names as the record function
 * prints them).  Sizes follow the dtype; TraceLens' table (semantics §6)
 * lacks bool and the 16-bit and complex types, tl knows them.
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

int
tl_mul(int64_t *r, int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_mul_overflow(a, b, &v))
		return -1;
	*r = v;
	return 0;
}

int
tl_add(int64_t *r, int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_add_overflow(a, b, &v))
		return -1;
	*r = v;
	return 0;
}

/*
 * Triton kernels compiled by Inductor: their FLOPs and bytes are in
 * Inductor's metadata, which the trace does not hold (docs/DEVIATIONS.md).
 */
static int
model_triton(const struct tl_opargs *o, int bwd, struct tl_perf *p)
{
	(void)bwd;
	return tl_perf_fail(p, "%s: a Triton kernel compiled by Inductor; its "
	    "counts need Inductor's metadata, which the trace lacks", o->name);
}

void
tl_mac(int64_t *acc, int64_t a, int64_t b, int *ovf)
{
	int64_t t;

	if (*ovf || tl_mul(&t, a, b) < 0 || tl_add(acc, *acc, t) < 0)
		*ovf = 1;
}

static const struct {
	const char *family;
	tl_model_fn fn;
} families[] = {
	{ "gemm", tl_model_gemm },
	{ "unary", tl_model_unary },
	{ "binary", tl_model_binary },
	{ "conv", tl_model_conv },
	{ "conv_bwd", tl_model_conv_bwd },
	{ "sdpa", tl_model_sdpa },
	{ "sdpa_bwd", tl_model_sdpa_bwd },
	{ "reduce", tl_model_reduce },
	{ "softmax", tl_model_softmax },
	{ "softmax_bwd", tl_model_softmax_bwd },
	{ "batchnorm", tl_model_batchnorm },
	{ "batchnorm_bwd", tl_model_batchnorm_bwd },
	{ "layernorm", tl_model_layernorm },
	{ "layernorm_bwd", tl_model_layernorm_bwd },
	{ "groupnorm", tl_model_groupnorm },
	{ "groupnorm_bwd", tl_model_groupnorm_bwd },
	{ "instancenorm", tl_model_instancenorm },
	{ "instancenorm_bwd", tl_model_instancenorm_bwd },
	{ "rmsnorm", tl_model_rmsnorm },
	{ "rmsnorm_bwd", tl_model_rmsnorm_bwd },
	{ "triton", model_triton },
};

tl_model_fn
tl_model_find(const char *family)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(families[i].family, family) == 0)
			return families[i].fn;
	return NULL;
}

/* Say why a model that counted FLOPs has no bytes: a dtype tl cannot size. */
static void
unknown_dtype(const struct tl_opargs *o, struct tl_perf *p)
{
	int i;

	for (i = 0; i < o->n; i++) {
		const char *t = o->a[i].type;

		if (tl_arg_is_tensor(&o->a[i]) && tl_dtype_bytes(t) == 0) {
			snprintf(p->err, sizeof(p->err), "bytes unknown: input "
			    "%d has dtype '%s', whose size tl does not know", i,
			    t);
			return;
		}
	}
	snprintf(p->err, sizeof(p->err), "bytes unknown");
}

int
tl_perf_run(const struct tl_opargs *o, const char *family, int bwd,
    struct tl_perf *p)
{
	tl_model_fn fn;
	int rc;

	tl_perf_reset(p);
	if (!bwd && o->name != NULL) {
		const struct tl_filemodel *m = tl_filemodel_find(o->name);

		if (m != NULL) {
			rc = tl_filemodel_run(m, o, p);
			tl_perf_params_end(p);
			return rc < 0 ? -1 : 0;
		}
	}
	if (family == NULL || family[0] == '\0' ||
	    (fn = tl_model_find(family)) == NULL)
		return 1;
	rc = fn(o, bwd, p);
	tl_perf_params_end(p);
	if (rc == 0 && p->has_flops && !p->has_bytes && p->err[0] == '\0')
		unknown_dtype(o, p);
	return rc < 0 ? -1 : 0;
}
