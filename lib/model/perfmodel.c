/* See LICENSE file for copyright and license details. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/perfmodel.h"

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

void
tl_mac(int64_t *acc, int64_t a, int64_t b, int *ovf)
{
	int64_t t;

	if (*ovf || tl_mul(&t, a, b) < 0 || tl_add(acc, *acc, t) < 0)
		*ovf = 1;
}
