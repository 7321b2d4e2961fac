/* See LICENSE file for copyright and license details. */
#ifndef TL_SERVING_H
#define TL_SERVING_H

/*
 * The analyst's serving facts, from the op stream's iteration and phase
 * columns (tl-parse) and the efficiency columns: GPU time per phase,
 * the GPU's wait between iterations, decode GEMMs that are memory-bound
 * at small batch, the attention kernels of each phase, the MoE share and
 * its efficiency, and the kernel time no op accounts for (graph replays,
 * launches outside ops).  Read through tl-findings' own loader's row
 * reader, from the same rows, so a column both read is taken and its
 * number parsed once a row.
 */
#include <stdint.h>

#include "common/json.h"
#include "common/strmap.h"
#include "stream/category.h"
#include "stream/kernlist.h"
#include "stream/schema.h"

#define TL_SPHASES 4		/* none, prefill, decode, mixed */
#define TL_SMALL_M 64		/* a small batch: GEMM M (tokens) up to this */
#define TL_STOP 3		/* listed GEMMs and kernels per phase */

extern const char *const tl_sphase_names[TL_SPHASES];

/* A kernel name or GEMM signature and its time. */
struct tl_sitem {
	char *name;		/* kernel name; GEMM: op name */
	char *dims;		/* GEMM: input_dims; else NULL */
	int64_t time_ns;
	long long count;
	int64_t m, n, k;	/* GEMM: from params; else 0 */
	double roof_us;		/* GEMM: summed roofline time */
};

struct tl_sphase {
	long long iterations, rows;
	int64_t time_ns;
	int64_t cat_ns[TL_CAT_MAX];
	/* GEMMs with M <= TL_SMALL_M that are memory-bound. */
	int64_t gemm_ns, gemm_small_mem_ns;
	double weight_share_ns;	/* weight bytes share, time-weighted */
	struct tl_sitem *gemm;	/* by signature */
	int ngemm;
	size_t capgemm;
	struct tl_sitem *attn;	/* attention kernels by name */
	int nattn;
	size_t capattn;
	int64_t attn_ns;
};

/* An iteration: its GPU events' first start and last end. */
struct tl_siter {
	int trace;
	int64_t number;
	int phase;
	int64_t start, end;
};

struct tl_serving {
	struct tl_rowreader *rr;	/* the loader's, during the load */
	int has_phase, has_iter;	/* the columns, with a value */
	struct tl_sphase ph[TL_SPHASES];
	int64_t total_ns;
	int64_t synthetic_ns, graph_ns;	/* rows without an op; of them in
					   graph launches */
	int64_t moe_ns, moe_modelled_ns;
	double moe_roof_us;
	struct tl_siter *it;
	size_t nit, capit;
	struct tl_strmap iters, traces;
	int64_t last_iter, last_trace;	/* the last row's, -1 none */
	/* After tl_serving_finish: the GPU's wait between iterations. */
	long long ngaps;
	int64_t gap_ns, gap_max_ns, span_ns;
	int gap_worth;		/* gap_ns is serve_gap_pct of span_ns or
				   more (lib/analysis/verdict) */
	struct tl_json j;	/* scratch for the params column */
	struct tl_strmap params;	/* a GEMM row's params text */
	int64_t (*mnk)[3];	/* and its M, N, K (-1 none), by index */
	size_t capmnk;
	int64_t *opparams;	/* by op: its last params' index + 1, 0 none */
	size_t nopparams;
};

/* The columns the serving view reads (its reader must be set up for them). */
#define TL_SERVING_NCOLS 11
extern const short tl_serving_cols[TL_SERVING_NCOLS];

/* Read rows through rr, the caller's reader (set up for tl_serving_cols). */
void tl_serving_init(struct tl_serving *s, struct tl_rowreader *rr);
/*
 * Add rr's current row, of category cat (tl_category_parse of its
 * category column, known) and of the caller's op op (an index, 0 or more,
 * that names one op signature; -1 none), with its GPU events as the
 * caller found them in its kernels column, and its roofline_time_us as
 * the caller read it (has and d as tl_rr_field gives them).
 */
void tl_serving_row(struct tl_serving *s, const struct tl_kernlist *kl,
    int cat, int op, const struct tl_field *roof);
void tl_serving_finish(struct tl_serving *s);
void tl_serving_free(struct tl_serving *s);
/* 1 when the stream is a serving one: phases, or MoE, or graph launches. */
int tl_serving_any(const struct tl_serving *s);

#endif
