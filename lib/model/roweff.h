/* See LICENSE file for copyright and license details. */
#ifndef TL_ROWEFF_H
#define TL_ROWEFF_H

/*
 * The roofline efficiency of the current row of an op stream, as
 * tl-efficiency computes it: the perf model's flops, bytes and
 * compute_spec (read back when the stream has tl-perfmodel's columns,
 * else modelled in-process), the GPU's roofs for that spec (or the
 * user's), then tl_roofline on the row's kernel_time_us.  Shared by
 * tl-efficiency and tl-replay --bottlenecks, so both decide alike.
 */
#include <stdint.h>

#include "model/hwspec.h"
#include "model/perfcols.h"
#include "model/roofline.h"
#include "stream/schema.h"

/* The columns a row reader reads for tl_roweff_row. */
#define TL_ROWEFF_COLS \
	TL_COL_FLOPS, TL_COL_BYTES, TL_COL_COMPUTE_SPEC, TL_COL_KERNEL_TIME_US

struct tl_roweff {
	int have_perf;		/* the stream has flops, bytes, compute_spec */
	struct tl_perfcols pc;	/* the in-process model, when !have_perf */
	enum tl_roof roof;
	double user_tflops, user_tbs;	/* roofs for every op; 0 = GPU's */
};

/* The efficiency of one row. */
struct tl_eff {
	const struct tl_hw *hw;
	const char *roof_used, *bw_used;	/* "achievable", "peak", "user", "" */
	double peak_tflops, peak_tbs;		/* 0 = none */
	int has_flops, has_bytes;
	int64_t flops, bytes;
	struct tl_roof_out r;
	int has_pct;		/* r.pct_roofline is meaningful */
};

/*
 * Set up for the rows of r, which reads TL_ROWEFF_COLS: needs
 * kernel_time_us (dies without it).  user_tflops, user_tbs: 0, or a roof
 * that replaces the GPU's.
 */
void tl_roweff_init(struct tl_roweff *e, const struct tl_rowreader *r,
    enum tl_roof roof, double user_tflops, double user_tbs);
void tl_roweff_free(struct tl_roweff *e);
/*
 * The efficiency of the current row of r on hw (NULL: only the user's
 * roofs).  Dies on a malformed flops, bytes or kernel_time_us field.
 */
void tl_roweff_row(struct tl_roweff *e, struct tl_rowreader *r,
    const struct tl_hw *hw, struct tl_eff *out);

#endif
