/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/family.h"
#include "model/model_file.h"
#include "model/opmodel.h"
#include "stream/category.h"

void
tl_opmodel_init(struct tl_opmodel *m, const struct tl_stream *s)
{
	memset(m, 0, sizeof(*m));
	tl_opargs_init(&m->args);
	m->name = tl_stream_need(s, "name");
	m->row_kind = tl_stream_col(s, "row_kind");
	m->fwd_name = tl_stream_col(s, "fwd_name");
	m->dims = tl_stream_col(s, "input_dims");
	m->types = tl_stream_col(s, "input_types");
	m->strides = tl_stream_col(s, "input_strides");
	m->concrete = tl_stream_col(s, "concrete_inputs");
}

void
tl_opmodel_free(struct tl_opmodel *m)
{
	size_t i;

	tl_opargs_free(&m->args);
	free(m->opname);
	for (i = 0; i < m->seen.n; i++) {
		free(m->cache[i].model);
		free(m->cache[i].params);
		free(m->cache[i].err);
	}
	free(m->cache);
	tl_strmap_free(&m->seen);
	tl_jb_free(&m->sig);
}

/* A copy of field i (the stream's decoding buffer is shared). */
static char *
dup_field(struct tl_stream *s, int i)
{
	return tl_strdup(tl_stream_get(s, i));
}

static int
model_row(struct tl_opmodel *m, struct tl_stream *s, struct tl_perf *p,
    const char **model)
{
	const struct tl_opinfo *info;
	const char *name = tl_stream_get(s, m->name), *family = NULL, *err;
	char *f[4];
	int bwd = 0, rc, k;
	size_t n;

	if (m->row_kind >= 0 &&
	    strcmp(tl_stream_get(s, m->row_kind), "backward") == 0) {
		/* An autograd wrapper: the forward op's backward model. */
		name = tl_stream_get(s, m->fwd_name);
		info = tl_optable_find(name);
		if (info == NULL || !info->bwd_model) {
			tl_perf_reset(p);
			return 1;
		}
		family = info->model;
		bwd = 1;
	} else if (tl_filemodel_find(name) == NULL) {
		info = tl_optable_find(name);
		if (info != NULL)
			family = info->model[0] != '\0' ? info->model :
			    info->extra_model;
		if (family == NULL || family[0] == '\0') {
			tl_perf_reset(p);
			return 1;
		}
	}
	n = strlen(name) + 1;
	tl_grow(&m->opname, &m->opcap, n, 1);
	memcpy(m->opname, name, n);
	f[0] = dup_field(s, m->dims);
	f[1] = dup_field(s, m->types);
	f[2] = dup_field(s, m->strides);
	f[3] = dup_field(s, m->concrete);
	if (tl_opargs_parse(&m->args, m->opname, f[0], f[1], f[2], f[3],
	    &err) < 0) {
		tl_perf_reset(p);
		rc = tl_perf_fail(p, "arguments: %s", err);
	} else {
		rc = tl_perf_run(&m->args, family, bwd, p);
		if (rc == 1)
			family = NULL;
	}
	for (k = 0; k < 4; k++)
		free(f[k]);
	if (family == NULL && rc != 1)
		family = "file";
	if (family != NULL && bwd) {
		snprintf(m->model, sizeof(m->model), "%s_bwd", family);
		family = m->model;
	}
	*model = family;
	return rc;
}

/*
 * Ops repeat by the thousand with the same arguments: the result is cached
 * by the row's model inputs (name, row kind, forward op, four argument
 * columns), which the model is a pure function of.
 */
int
tl_opmodel_run(struct tl_opmodel *m, struct tl_stream *s, struct tl_perf *p,
    const char **model)
{
	const int cols[7] = { m->name, m->row_kind, m->fwd_name, m->dims,
	    m->types, m->strides, m->concrete };
	struct tl_opcache *c;
	int64_t i;
	int k, added;

	tl_jb_reset(&m->sig);
	for (k = 0; k < 7; k++) {
		tl_jb_lit(&m->sig, tl_stream_get(s, cols[k]));
		tl_jb_raw(&m->sig, "\x1f", 1);
	}
	i = tl_strmap_add(&m->seen, m->sig.s, m->sig.n, &added);
	if (added) {
		const char *mod = NULL;

		tl_grow(&m->cache, &m->ncache, (size_t)i + 1, sizeof(*m->cache));
		c = &m->cache[i];
		c->rc = model_row(m, s, p, &mod);
		c->model = tl_strdup(mod != NULL ? mod : "");
		c->has_flops = p->has_flops;
		c->has_bytes = p->has_bytes;
		c->flops = p->flops;
		c->bytes = p->bytes;
		c->maf = p->maf;
		c->precision = p->precision;
		c->params = tl_strdup(p->params.s != NULL ? p->params.s : "");
		c->nparams = p->nparams;
		c->err = tl_strdup(p->err);
	}
	c = &m->cache[i];
	tl_perf_reset(p);
	p->has_flops = c->has_flops;
	p->has_bytes = c->has_bytes;
	p->flops = c->flops;
	p->bytes = c->bytes;
	p->maf = c->maf;
	p->precision = c->precision;
	tl_jb_lit(&p->params, c->params);
	p->nparams = c->nparams;
	snprintf(p->err, sizeof(p->err), "%s", c->err);
	*model = c->rc == 1 ? NULL : c->model;
	return c->rc;
}

const char *
tl_perf_spec(const struct tl_perf *p, char *buf, size_t n)
{
	if (p->maf == NULL || p->precision == NULL)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "%s_%s", p->maf, p->precision);
	return buf;
}
