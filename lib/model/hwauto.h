/* See LICENSE file for copyright and license details. */
#ifndef TL_HWAUTO_H
#define TL_HWAUTO_H

/*
 * The GPU of each row of a stream, for the programs that take --hw:
 * --hw NAME for every row, --hw auto from the row's trace_gpu,
 * trace_gpu_arch, trace_gpu_compute_units and trace_gpu_memory_bytes
 * (tl_hw_identify), and --hw-map FILE, which names the GPU of the traces
 * whose trace value matches a glob and comes before either.
 *
 * The map file: one "GLOB GPU" line per rule ('#' comments and empty
 * lines skipped); the last white-space-separated field is a GPU name or
 * alias of the table, the text before it the glob (fnmatch(3), matched
 * against the whole trace value and against its last path component).
 * The first matching line wins.
 *
 * A GPU --hw auto cannot name (not in the table, or several fit) gets one
 * warning per trace and no GPU (NULL: the efficiency columns stay
 * empty), or, in strict mode, an error (exit 1).
 */
#include <stddef.h>

#include "model/hwspec.h"
#include "stream/schema.h"

/* The columns a row reader reads for tl_hwauto_row. */
#define TL_HWAUTO_COLS \
	TL_COL_TRACE, TL_COL_TRACE_GPU, TL_COL_TRACE_GPU_ARCH, \
	TL_COL_TRACE_GPU_COMPUTE_UNITS, TL_COL_TRACE_GPU_MEMORY_BYTES, \
	TL_COL_TRACE_GPU_KERNEL_ARCH

struct tl_hwrule {
	char *glob;
	const struct tl_hw *hw;
};

struct tl_hwauto {
	const struct tl_hw *fixed;	/* --hw NAME; NULL = auto */
	int strict;
	struct tl_hwrule *rule;
	size_t nrule, caprule;
	void *seen;			/* trace -> its GPU, decided once */
};

/*
 * Set up a: fixed is --hw NAME's GPU (NULL for auto), map the --hw-map
 * file (NULL for none).  0, or -1 with "FILE:LINE: what" in err.
 */
int tl_hwauto_init(struct tl_hwauto *a, const struct tl_hw *fixed,
    const char *map, int strict, char *err, size_t errlen);
/*
 * Check the input of r, which reads TL_HWAUTO_COLS.  Dies when auto has
 * nothing to go by: no trace_gpu or trace_gpu_arch column and no map.
 */
void tl_hwauto_columns(const struct tl_hwauto *a,
    const struct tl_rowreader *r);
/* The GPU of the current row of r, or NULL (warned once per trace). */
const struct tl_hw *tl_hwauto_row(struct tl_hwauto *a,
    struct tl_rowreader *r);
void tl_hwauto_free(struct tl_hwauto *a);

#endif
