/* See LICENSE file for copyright and license details. */
#ifndef TL_OPSIG_H
#define TL_OPSIG_H

/*
 * The op signatures of one trace: an op stream read whole and summed per
 * signature (lib/stream/schema.h), keyed without the trace
 * (TL_SIGKEY_OP), so the signatures of two traces can be matched
 * (tl-compare); a column the input lacks counts as empty.
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
#include "stream/schema.h"

/* The GPU events of a signature with one name. */
struct tl_kstat {
	char *name;
	int64_t count;		/* events */
	int64_t ns;		/* their summed durations */
};

struct tl_opsig {
	char *f[TL_SIG_N];	/* the signature, decoded text; no trace */
	/* from the first row; direction "" when the rows disagree */
	char *category, *direction, *perf_model, *compute_spec;
	char *module;		/* the first row's module path, or "" */
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
	char *gpu_kernel_arch;	/* its trace_gpu_kernel_arch, or "" */
	int64_t gpu_cus, gpu_mem;	/* trace_gpu_compute_units and
					   _memory_bytes, 0 = unknown */
	int grouped;		/* the input had a count column */
	int has_tlc[TL_TLC_N];
	int64_t tlc_ns[TL_TLC_N];	/* from the first row */
	struct tl_opsig *s;	/* in order of first appearance */
	size_t n, cap;
	struct tl_strmap map;	/* joined signature -> index */
	size_t kprobes;		/* hash slots looked at finding the
				   signatures' kernels by name */
	struct tl_sigreader *reading;	/* the reading state, during a read */
};

/*
 * Read the op stream path ("-" = stdin).  The key of signature i in map
 * is its TL_SIGKEY_OP key.  tl_opsigs_free
 * frees what a read made, also when tl_die ended it through tl_exit_hook
 * (the fuzz harnesses).
 */
void tl_opsigs_read(struct tl_opsigs *o, const char *path);
void tl_opsigs_free(struct tl_opsigs *o);

#endif
