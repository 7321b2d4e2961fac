/* See LICENSE file for copyright and license details. */
#ifndef TL_OPMODEL_H
#define TL_OPMODEL_H

/*
 * Running the perf model on a row of the op stream: which model applies
 * (a model file's, the op table's family, or for a backward row the
 * forward op's family in backward mode), on the row's argument columns.
 * Shared by tl-perfmodel and tl-efficiency, which runs the model itself
 * when the stream lacks its columns.
 */
#include "common/strmap.h"
#include "model/opargs.h"
#include "model/perfmodel.h"
#include "stream/schema.h"

/* A cached result of the model (see tl_opmodel_run). */
struct tl_opcache {
	int rc, has_flops, has_bytes, nparams;
	int64_t flops, bytes;
	const char *maf, *precision;	/* static strings */
	char *model, *params, *err;
};

struct tl_opmodel {
	struct tl_rowreader rr;		/* the row's model inputs */
	struct tl_opargs args;
	char *opname;
	size_t opcap;
	char model[48];
	struct tl_jbuf sig;		/* their key */
	struct tl_strmap seen;		/* signature -> cache index */
	struct tl_opcache *cache;
	size_t ncache;			/* capacity of cache */
};

/*
 * Set up for the rows of stream s, read by its caller (name is required;
 * dies without it).
 */
void tl_opmodel_init(struct tl_opmodel *m, struct tl_stream *s);
void tl_opmodel_free(struct tl_opmodel *m);
/*
 * Model s's current row.  Returns 0 with p filled and *model naming the
 * model used ("gemm"; "sdpa_bwd" for the backward pass of a forward op;
 * "file" for a model file's formulas), 1 when no model applies, -1
 * when the model or the row's arguments fail (p->err says why).
 */
int tl_opmodel_run(struct tl_opmodel *m, struct tl_perf *p,
    const char **model);

/* The compute spec of p ("matrix_bf16") into buf; "" when unknown. */
const char *tl_perf_spec(const struct tl_perf *p, char *buf, size_t n);

#endif
