/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <string.h>

#include "model/dtype.h"
#include "model/family.h"
#include "model/model_file.h"

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
	{ "moe", tl_model_moe },
	{ "paged_attn", tl_model_paged },
	{ "triton", model_triton },
};

/* The C model of a family name ("gemm", "conv", ...), or NULL. */
static tl_model_fn
find(const char *family)
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
tl_perf_family_known(const char *family)
{
	return find(family) != NULL || tl_norm_family(family);
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
	if (family == NULL || family[0] == '\0')
		return 1;
	if ((fn = find(family)) != NULL)
		rc = fn(o, bwd, p);
	else if (tl_norm_family(family))
		rc = tl_model_norm(family, o, bwd, p);
	else
		return 1;
	tl_perf_params_end(p);
	if (rc == 0 && p->has_flops && !p->has_bytes && p->err[0] == '\0')
		unknown_dtype(o, p);
	return rc < 0 ? -1 : 0;
}
