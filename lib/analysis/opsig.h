/* See LICENSE file for copyright and license details. */
#ifndef TL_OPSIG_H
#define TL_OPSIG_H

/*
 * The op signatures of one trace: an op stream read whole and summed per
 * signature, the fields name, input_dims, input_types, input_strides and
 * concrete_inputs (a column the input lacks counts as empty).  The trace
 * column is not part of the signature, so the signatures of two traces
 * can be matched (tl-compare).
 *
 * The input may hold one row per op instance (tl-parse, tl-efficiency)
 * or one row per signature (tl-efficiency --group, told by its count
 * column); either way a signature's count, kernel time and FLOP and byte
 * totals come out the same.  When the stream lacks the perf-model
 * columns (flops, bytes, compute_spec) the model runs here, on the first
 * row of each signature.  The stream must hold one trace: a second value
 * of the trace column is an error, as are the stream reader's errors and
 * numbers that are not numbers (all through tl_die).
 */
#include <stdint.h>

#include "common/strmap.h"

enum {
	TL_SIG_NAME, TL_SIG_DIMS, TL_SIG_TYPES, TL_SIG_STRIDES,
	TL_SIG_CONCRETE, TL_SIG_N
};
/* The signature's columns, in the order above. */
extern const char *const tl_sig_cols[TL_SIG_N];

/* The trace's GPU timeline constants, the trace_*_us columns. */
enum {
	TL_TLC_TOTAL, TL_TLC_BUSY, TL_TLC_COMPUTE, TL_TLC_EXPOSED_COMM,
	TL_TLC_EXPOSED_MEMCPY, TL_TLC_IDLE, TL_TLC_N
};
extern const char *const tl_tlc_cols[TL_TLC_N];

/* The GPU events of a signature with one name. */
struct tl_kstat {
	char *name;
	int64_t count;		/* events */
	int64_t ns;		/* their summed durations */
};

struct tl_opsig {
	char *f[TL_SIG_N];	/* the signature, decoded text */
	/* from the first row; direction "" when the rows disagree */
	char *category, *direction, *perf_model, *compute_spec;
	int has_flops, has_bytes;
	int64_t flops, bytes;	/* of one instance */
	/* over every instance */
	int64_t count, time_ns;
	int64_t flops_sum, bytes_sum;
	int sum_ovf;		/* a FLOP or byte total overflowed */
	int has_pct;
	double pct;		/* summed pct_gpu_time, in increasing order */
	/*
	 * The kernels column's events by name, in order of first
	 * appearance; of the first instance only for grouped input.
	 */
	struct tl_kstat *k;
	size_t nk, capk;
};

struct tl_opsigs {
	char *path;		/* as given; "-" = stdin */
	char *trace;		/* the trace column's value, "" without */
	char *hw;		/* the first row's hw (tl-efficiency), or "" */
	char *gpu;		/* the first row's trace_gpu, or "" */
	char *gpu_arch;		/* its trace_gpu_arch, or "" */
	int64_t gpu_cus, gpu_mem;	/* trace_gpu_compute_units and
					   _memory_bytes, 0 = unknown */
	int grouped;		/* the input had a count column */
	int has_tlc[TL_TLC_N];
	int64_t tlc_ns[TL_TLC_N];	/* from the first row */
	struct tl_opsig *s;	/* in order of first appearance */
	size_t n, cap;
	struct tl_strmap map;	/* joined signature -> index */
	struct tl_sigreader *reading;	/* the reading state, during a read */
};

/*
 * Read the op stream path ("-" = stdin).  The key of signature i in map
 * is its five fields, each followed by the byte 0x1f.  tl_opsigs_free
 * frees what a read made, also when tl_die ended it through tl_exit_hook
 * (the fuzz harnesses).
 */
void tl_opsigs_read(struct tl_opsigs *o, const char *path);
void tl_opsigs_free(struct tl_opsigs *o);

#endif
