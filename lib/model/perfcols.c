/* See LICENSE file for copyright and license details. */
#include <string.h>

#include "common/util.h"
#include "model/perfcols.h"

void
tl_perfcols_init(struct tl_perfcols *pc, struct tl_stream *s,
    struct tl_writer *w)
{
	memset(pc, 0, sizeof(*pc));
	tl_rowmodel_init(&pc->m, s);
	tl_outcols_init(&pc->oc, s, tl_tables[TL_TAB_PERF].cols, TL_PC_N);
	if (w != NULL)
		tl_outcols_header(&pc->oc, s, tl_tables[TL_TAB_PERF].cols, w);
}

void
tl_perfcols_free(struct tl_perfcols *pc)
{
	tl_rowmodel_free(&pc->m);
	tl_perf_free(&pc->p);
	tl_outcols_free(&pc->oc);
}

void
tl_perfcols_model(struct tl_perfcols *pc)
{
	pc->rc = tl_rowmodel_run(&pc->m, &pc->p, &pc->model);
	pc->has_flops = pc->rc == 0 && pc->p.has_flops;
	pc->has_bytes = pc->rc == 0 && pc->p.has_bytes;
	pc->flops = pc->p.flops;
	pc->bytes = pc->p.bytes;
	/* the result's spec, made when it was cached */
	_Static_assert(sizeof(pc->spec) == sizeof(pc->m.cache->spec),
	    "compute spec buffers differ");
	memcpy(pc->spec, pc->m.cache[pc->m.last].spec, sizeof(pc->spec));
	pc->compute_spec = pc->rc == 0 ? pc->spec : "";
}

void
tl_perfcols_write(const struct tl_perfcols *pc, int k, struct tl_writer *w)
{
	switch (k) {
	case TL_PC_MODEL:
		tl_w_str(w, pc->rc == 1 ? "" : pc->model);
		break;
	case TL_PC_FLOPS:
		if (pc->has_flops)
			tl_w_int(w, pc->flops);
		else
			tl_w_empty(w);
		break;
	case TL_PC_BYTES:
		if (pc->has_bytes)
			tl_w_int(w, pc->bytes);
		else
			tl_w_empty(w);
		break;
	case TL_PC_FPB:
		if (pc->has_flops && pc->has_bytes && pc->bytes > 0)
			tl_w_double(w, (double)pc->flops / (double)pc->bytes);
		else
			tl_w_empty(w);
		break;
	case TL_PC_SPEC:
		tl_w_str(w, pc->compute_spec);
		break;
	case TL_PC_PARAMS:
		if (pc->rc == 0 && pc->p.nparams > 0)
			tl_w_mem(w, pc->p.params.s, pc->p.params.n);
		else
			tl_w_empty(w);
		break;
	case TL_PC_ERROR:
		tl_w_str(w, pc->rc == 1 ? "" : pc->p.err);
		break;
	}
}

void
tl_perfcols_row(struct tl_perfcols *pc, struct tl_stream *s,
    struct tl_writer *w)
{
	int k = 0;

	tl_perfcols_model(pc);
	if (pc->oc.all) {	/* the input's columns in one block */
		tl_stream_copy_all(s, w);
		k = s->ncols;
	}
	for (; k < pc->oc.n; k++) {
		if (pc->oc.map[k] >= 0)
			tl_stream_copy(s, pc->oc.map[k], w);
		else
			tl_perfcols_write(pc, pc->oc.own[k], w);
	}
	tl_w_eol(w);
}
