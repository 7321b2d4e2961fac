/* See LICENSE file for copyright and license details. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/perfresult.h"

/*
 * Append s to buf[0..*len), cut to fit n bytes with its NUL, as snprintf
 * would: these run for every row, printf's parsing of "%s" costs more.
 */
static void
cat_cut(char *buf, size_t n, size_t *len, const char *s)
{
	size_t k = strlen(s);

	if (*len + 1 >= n)
		return;
	if (k > n - 1 - *len)
		k = n - 1 - *len;
	memcpy(buf + *len, s, k);
	*len += k;
	buf[*len] = '\0';
}

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

void
tl_perf_copy(struct tl_perf *dst, const struct tl_perf *src)
{
	tl_perf_reset(dst);
	dst->has_flops = src->has_flops;
	dst->has_bytes = src->has_bytes;
	dst->flops = src->flops;
	dst->bytes = src->bytes;
	dst->maf = src->maf;
	dst->precision = src->precision;
	tl_jb_raw(&dst->params, src->params.s != NULL ? src->params.s : "",
	    src->params.n);	/* NUL-free JSON text: its length */
	dst->nparams = src->nparams;
	cat_cut(dst->err, sizeof(dst->err), &(size_t){ 0 }, src->err);
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

const char *
tl_perf_spec(const struct tl_perf *p, char *buf, size_t n)
{
	size_t len = 0;

	if (n > 0)
		buf[0] = '\0';
	if (p->maf != NULL && p->precision != NULL) {
		cat_cut(buf, n, &len, p->maf);
		cat_cut(buf, n, &len, "_");
		cat_cut(buf, n, &len, p->precision);
	}
	return buf;
}
