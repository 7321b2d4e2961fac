/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/family.h"
#include "model/model_file.h"
#include "model/rowmodel.h"
#include "stream/optable.h"

/*
 * The model's inputs: the op signature, the row kind, the forward op and
 * the context args.
 */
static const short cols[] = {
	TL_COL_NAME, TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES,
	TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS, TL_COL_ROW_KIND,
	TL_COL_FWD_NAME, TL_COL_CONTEXT_ARGS
};

void
tl_rowmodel_init(struct tl_rowmodel *m, struct tl_stream *s)
{
	memset(m, 0, sizeof(*m));
	tl_opargs_init(&m->args);
	tl_rr_init(&m->rr, s, cols,
	    (int)(sizeof(cols) / sizeof(cols[0])));
	tl_rr_need(&m->rr, TL_COL_NAME);
}

void
tl_rowmodel_free(struct tl_rowmodel *m)
{
	size_t i;

	tl_opargs_free(&m->args);
	free(m->opname);
	for (i = 0; i < m->seen.n; i++) {
		free(m->cache[i].model);
		tl_perf_free(&m->cache[i].p);
	}
	free(m->cache);
	tl_strmap_free(&m->seen);
	tl_jb_free(&m->sig);
	tl_rr_free(&m->rr);
}

static int
model_row(struct tl_rowmodel *m, struct tl_perf *p, const char **model)
{
	const struct tl_rowreader *rr = &m->rr;
	const struct tl_opinfo *info;
	const char *name = tl_rr_text(rr, TL_COL_NAME), *family = NULL, *err;
	int bwd = 0, rc;
	size_t n;

	if (strcmp(tl_rr_text(rr, TL_COL_ROW_KIND), "backward") == 0) {
		/* An autograd wrapper: the forward op's backward model. */
		name = tl_rr_text(rr, TL_COL_FWD_NAME);
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
	/*
	 * A trace recorded without shapes (record_shapes off, or the legacy
	 * profiler) gives no counts: never 0 or 1 from empty arguments.
	 */
	if (tl_rr_text(rr, TL_COL_INPUT_DIMS)[0] == '\0' &&
	    tl_rr_text(rr, TL_COL_CONTEXT_ARGS)[0] == '\0') {
		tl_perf_reset(p);
		rc = tl_perf_fail(p, "%s: the trace records no input shapes "
		    "(record_shapes off): not modelled", name);
		goto done;
	}
	n = strlen(name) + 1;
	tl_grow(&m->opname, &m->opcap, n, 1);
	memcpy(m->opname, name, n);
	if (tl_opargs_parse(&m->args, m->opname,
	    tl_rr_text(rr, TL_COL_INPUT_DIMS),
	    tl_rr_text(rr, TL_COL_INPUT_TYPES),
	    tl_rr_text(rr, TL_COL_INPUT_STRIDES),
	    tl_rr_text(rr, TL_COL_CONCRETE_INPUTS), &err) < 0 ||
	    tl_opargs_set_ctx(&m->args, tl_rr_text(rr, TL_COL_CONTEXT_ARGS),
	    &err) < 0) {
		tl_perf_reset(p);
		rc = tl_perf_fail(p, "arguments: %s", err);
	} else {
		rc = tl_perf_run(&m->args, family, bwd, p);
		if (rc == 1)
			family = NULL;
	}
done:
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
 * columns, context args), which the model is a pure function of.
 */
int
tl_rowmodel_run(struct tl_rowmodel *m, struct tl_perf *p, const char **model)
{
	struct tl_rowcache *c;
	int64_t i;
	int added;

	tl_rr_fill(&m->rr);
	tl_rr_sigkey(&m->rr, TL_SIGKEY_OP, &m->sig);
	tl_sig_more(&m->sig, tl_rr_text(&m->rr, TL_COL_ROW_KIND));
	tl_sig_more(&m->sig, tl_rr_text(&m->rr, TL_COL_FWD_NAME));
	tl_sig_more(&m->sig, tl_rr_text(&m->rr, TL_COL_CONTEXT_ARGS));
	i = tl_strmap_add(&m->seen, m->sig.s, m->sig.n, &added);
	if (added) {
		const char *mod = NULL;

		tl_grow(&m->cache, &m->ncache, (size_t)i + 1, sizeof(*m->cache));
		c = &m->cache[i];
		c->rc = model_row(m, p, &mod);
		c->model = tl_strdup(mod != NULL ? mod : "");
		memset(&c->p, 0, sizeof(c->p));
		tl_perf_copy(&c->p, p);
	}
	m->last = i;
	c = &m->cache[i];
	tl_perf_copy(p, &c->p);
	*model = c->rc == 1 ? NULL : c->model;
	return c->rc;
}
