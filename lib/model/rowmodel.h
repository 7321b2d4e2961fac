/* See LICENSE file for copyright and license details. */
#ifndef TL_ROWMODEL_H
#define TL_ROWMODEL_H

/*
 * Running the perf model on a row of the op stream: which model applies
 * (a model file's, the op table's family, or for a backward row the
 * forward op's family in backward mode), on the row's argument columns.
 * Shared by tl-perfmodel and tl-efficiency, which runs the model itself
 * when the stream lacks its columns.
 */
#include "common/strmap.h"
#include "model/opargs.h"
#include "model/perfresult.h"
#include "stream/schema.h"

/* A cached result of the model (see tl_rowmodel_run). */
struct tl_rowcache {
	int rc;
	char *model;
	struct tl_perf p;
	char spec[32];		/* tl_perf_spec of p, made once */
};

struct tl_rowmodel {
	struct tl_rowreader rr;		/* the row's model inputs */
	struct tl_opargs args;
	char *opname;
	size_t opcap;
	char model[48];
	struct tl_jbuf sig;		/* their key */
	struct tl_strmap seen;		/* signature -> cache index */
	struct tl_rowcache *cache;
	size_t ncache;			/* capacity of cache */
	/*
	 * The cache index of the row last modelled: rows with the same
	 * index have the same result (a caller may keep what it derives).
	 */
	int64_t last;
	/*
	 * The cache index of recent rows by their model inputs' bytes as
	 * the stream has them (equal bytes, equal inputs), so a row seen
	 * before skips making its key: RAW_SLOTS slots, or NULL.
	 */
	struct tl_rowraw *raw;
};

/*
 * Set up for the rows of stream s, read by its caller (name is required;
 * dies without it).
 */
void tl_rowmodel_init(struct tl_rowmodel *m, struct tl_stream *s);
void tl_rowmodel_free(struct tl_rowmodel *m);
/*
 * Model s's current row.  Returns 0 with p filled and *model naming the
 * model used ("gemm"; "sdpa_bwd" for the backward pass of a forward op;
 * "file" for a model file's formulas), 1 when no model applies, -1
 * when the model or the row's arguments fail (p->err says why).
 */
int tl_rowmodel_run(struct tl_rowmodel *m, struct tl_perf *p,
    const char **model);

#endif
