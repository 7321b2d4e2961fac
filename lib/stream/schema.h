/* See LICENSE file for copyright and license details. */
#ifndef TL_SCHEMA_H
#define TL_SCHEMA_H

/*
 * The vocabulary of the stream (man/tl-format.5), in one place:
 *
 * - tl_cols: every column any program writes, by its TL_COL_* id, with
 *   its type and unit.  Column names are spelt here only: a writer takes
 *   its header from a table below, a reader finds its columns by id.
 * - tl_tables: what each program (and option) writes, as lists of
 *   column ids in output order, with the section of the manual that
 *   documents them; tests/schema.py checks the two against each other.
 * - The op signature: which fields make two rows the same op, and the
 *   key that groups rows by it (tl-efficiency --group, tl-replay,
 *   tl-compare, tl-findings, the perf model's cache).
 * - The row reader: the columns a program asks for, filled into one
 *   struct per row, numbers parsed once with the stream's readers.
 * - The output columns of a filter (tl_outcols): the input's columns,
 *   less the ones the program owns, then its own.
 */
#include <stdint.h>

#include "common/jsonw.h"
#include "common/tsv.h"
#include "stream/stream.h"

/* How a column's text reads. */
enum tl_coltype {
	TL_CT_TEXT,	/* free text */
	TL_CT_JSON,	/* compact JSON text */
	TL_CT_INT,	/* a decimal integer */
	TL_CT_US,	/* exact microseconds, read as integer nanoseconds */
	TL_CT_REAL	/* a real number */
};

struct tl_coldef {
	const char *name;
	enum tl_coltype type;
	const char *unit;	/* "µs", "%", "TFLOPS", "TB/s" ...; "" none */
	int quantity;		/* a time, count, FLOPs, bytes or a figure
				   derived from them: 0 or more */
};

/*
 * Every column, grouped by the table that introduces it.  Add one here
 * and in tl_cols (lib/stream/schema.c), then in the tables that hold it
 * and in man/tl-format.5 (CONTRIBUTING.md, "Add a stream column").
 */
enum tl_col {
	/* the op stream (tl-parse) */
	TL_COL_TRACE, TL_COL_RANK, TL_COL_UID, TL_COL_NAME, TL_COL_CATEGORY,
	TL_COL_DIRECTION, TL_COL_ROW_KIND, TL_COL_PID, TL_COL_TID,
	TL_COL_TS_US, TL_COL_CPU_DUR_US, TL_COL_KERNEL_COUNT,
	TL_COL_KERNEL_TIME_US, TL_COL_SUBTREE_KERNEL_TIME_US, TL_COL_KERNELS,
	TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES,
	TL_COL_CONCRETE_INPUTS, TL_COL_PARENT_UID, TL_COL_PARENT_NAME,
	TL_COL_FWD_UID, TL_COL_FWD_NAME, TL_COL_SEQ, TL_COL_PCT_GPU_TIME,
	TL_COL_TRACE_TOTAL_US, TL_COL_TRACE_BUSY_US, TL_COL_TRACE_COMPUTE_US,
	TL_COL_TRACE_EXPOSED_COMM_US, TL_COL_TRACE_EXPOSED_MEMCPY_US,
	TL_COL_TRACE_IDLE_US, TL_COL_TRACE_UNLINKED_US,
	TL_COL_TRACE_UNLINKED_COUNT, TL_COL_TRACE_GPU, TL_COL_TRACE_GPU_ARCH,
	TL_COL_TRACE_GPU_COMPUTE_UNITS, TL_COL_TRACE_GPU_MEMORY_BYTES,
	TL_COL_TRACE_GPU_KERNEL_ARCH,
	TL_COL_CONTEXT_ARGS, TL_COL_ITERATION, TL_COL_PHASE,
	TL_COL_COLLECTIVE,
	TL_COL_STEADY_STEPS, TL_COL_STEADY_TOTAL_US, TL_COL_STEADY_BUSY_US,
	TL_COL_STEADY_COMPUTE_US, TL_COL_STEADY_IDLE_US,
	TL_COL_IDLE_GAPS, TL_COL_TRACE_IDLE_NOISE_US,
	TL_COL_TRACE_IDLE_NOISE_COUNT, TL_COL_TRACE_PYTHON_FRAMES,
	TL_COL_MODULE, TL_COL_CALL_STACK,
	/* the timeline, the kernel table, the metadata (tl-parse) */
	TL_COL_DEVICE, TL_COL_TYPE, TL_COL_TIME_US, TL_COL_PCT_TOTAL,
	TL_COL_KIND, TL_COL_CLASS, TL_COL_STREAM, TL_COL_DUR_US,
	TL_COL_CORRELATION, TL_COL_LINKED, TL_COL_GRAPH, TL_COL_LAUNCHER_UID,
	TL_COL_LAUNCHER, TL_COL_OP_UID, TL_COL_OP_NAME, TL_COL_OP_CATEGORY,
	TL_COL_GRID, TL_COL_BLOCK, TL_COL_KEY, TL_COL_VALUE,
	/* the iteration table (tl-parse) */
	TL_COL_ITERATION_SOURCE, TL_COL_CONTEXT_REQUESTS,
	TL_COL_GENERATION_REQUESTS, TL_COL_BATCH_TOKENS, TL_COL_BATCH_SOURCE,
	TL_COL_GPU_START_US, TL_COL_GPU_SPAN_US, TL_COL_GAP_BEFORE_US,
	TL_COL_STEADY,
	/* the perf-model columns (tl-perfmodel) */
	TL_COL_PERF_MODEL, TL_COL_FLOPS, TL_COL_BYTES, TL_COL_FLOPS_PER_BYTE,
	TL_COL_COMPUTE_SPEC, TL_COL_PARAMS, TL_COL_PERF_ERROR,
	/* the efficiency columns and grouped rows (tl-efficiency) */
	TL_COL_HW, TL_COL_ROOF_KIND, TL_COL_ROOF, TL_COL_BW_ROOF,
	TL_COL_PEAK_TFLOPS,
	TL_COL_PEAK_TBS, TL_COL_TFLOPS_S, TL_COL_TBS, TL_COL_ROOFLINE_TIME_US,
	TL_COL_BOUND, TL_COL_PCT_ROOFLINE, TL_COL_ASSESSMENT,
	TL_COL_ELTWISE_BASELINE_TBS, TL_COL_PCT_ELTWISE_BASELINE,
	TL_COL_COUNT, TL_COL_KERNEL_TIME_MEAN_US, TL_COL_KERNEL_TIME_STD_US,
	TL_COL_KERNEL_TIME_MIN_US, TL_COL_KERNEL_TIME_MAX_US,
	TL_COL_ABOVE_PEAK_COUNT, TL_COL_ABOVE_PEAK_TIME_US,
	/* the op table (tl-categorize --list) */
	TL_COL_MODEL, TL_COL_BWD_MODEL, TL_COL_EXTRA_MODEL,
	/* the GPU list (tl-efficiency --hw list) */
	TL_COL_GPU, TL_COL_ALIASES, TL_COL_DESCRIPTION, TL_COL_HBM_TBS,
	TL_COL_HBM_ACHIEVABLE_TBS, TL_COL_MEMORY_GB,
	TL_COL_DEVICES_PER_PACKAGE, TL_COL_COMPUTE_UNITS,
	TL_COL_MATRIX_BF16_TFLOPS, TL_COL_MATRIX_BF16_ACHIEVABLE_TFLOPS,
	/* the roofs (tl-efficiency --hw show) */
	TL_COL_ROOF_ACHIEVABLE, TL_COL_ROOF_PEAK, TL_COL_SOURCE,
	/* the comparison and the timeline comparison (tl-compare) */
	TL_COL_MATCH, TL_COL_TARGET_INPUT_STRIDES, TL_COL_LAYOUT_NOTE,
	TL_COL_REF_NAME, TL_COL_TARGET_NAME, TL_COL_REF_HW, TL_COL_TARGET_HW,
	TL_COL_REF_ROOF, TL_COL_TARGET_ROOF, TL_COL_REF_BW_ROOF,
	TL_COL_TARGET_BW_ROOF, TL_COL_REF_PEAK_TFLOPS,
	TL_COL_TARGET_PEAK_TFLOPS, TL_COL_REF_PEAK_TBS, TL_COL_TARGET_PEAK_TBS,
	TL_COL_REF_COUNT, TL_COL_TARGET_COUNT, TL_COL_REF_KERNEL_TIME_US,
	TL_COL_TARGET_KERNEL_TIME_US, TL_COL_REF_KERNEL_TIME_MEAN_US,
	TL_COL_TARGET_KERNEL_TIME_MEAN_US, TL_COL_REF_TFLOPS_S,
	TL_COL_TARGET_TFLOPS_S, TL_COL_REF_TBS, TL_COL_TARGET_TBS,
	TL_COL_REF_PCT_ROOFLINE, TL_COL_TARGET_PCT_ROOFLINE,
	TL_COL_REF_ABOVE_PEAK_PCT, TL_COL_TARGET_ABOVE_PEAK_PCT,
	TL_COL_REF_PERF_ERROR, TL_COL_TARGET_PERF_ERROR,
	TL_COL_REF_PCT_GPU_TIME, TL_COL_TARGET_PCT_GPU_TIME,
	TL_COL_REF_KERNELS, TL_COL_TARGET_KERNELS, TL_COL_DELTA_TIME_US,
	TL_COL_DELTA_PCT, TL_COL_EXPECTED_RATIO, TL_COL_ACTUAL_RATIO,
	TL_COL_EXPLAINED, TL_COL_TOLERANCE_PCT, TL_COL_UNEXPLAINED_TIME_US,
	TL_COL_OTHER_EXPECTED_RATIO, TL_COL_OTHER_EXPLAINED,
	TL_COL_REF_TRACE_TOTAL_US, TL_COL_REF_TRACE_BUSY_US,
	TL_COL_REF_TRACE_COMPUTE_US, TL_COL_REF_TRACE_EXPOSED_COMM_US,
	TL_COL_REF_TRACE_EXPOSED_MEMCPY_US, TL_COL_REF_TRACE_IDLE_US,
	TL_COL_TARGET_TRACE_TOTAL_US, TL_COL_TARGET_TRACE_BUSY_US,
	TL_COL_TARGET_TRACE_COMPUTE_US, TL_COL_TARGET_TRACE_EXPOSED_COMM_US,
	TL_COL_TARGET_TRACE_EXPOSED_MEMCPY_US, TL_COL_TARGET_TRACE_IDLE_US,
	TL_COL_REF_TIME_US, TL_COL_TARGET_TIME_US, TL_COL_REF_PCT_TOTAL,
	TL_COL_TARGET_PCT_TOTAL,
	/* the replay results (the runner of a tl-replay package) */
	TL_COL_INDEX, TL_COL_OP, TL_COL_OVERLOAD, TL_COL_STATUS,
	TL_COL_OBSERVED_US, TL_COL_REPLAYED_US, TL_COL_CHECKSUM,
	TL_COL_REF_CHECKSUM, TL_COL_REASON,
	/* the per-op tables of tl-findings -o */
	TL_COL_PRIORITY, TL_COL_HW_EXPECTED, TL_COL_OTHER_HW_EXPECTED,
	TL_COL_UNEXPLAINED_PCT,
	TL_COL_PCT_CATEGORY, TL_COL_BOTTLENECK,
	/* tl-findings --summary: the per-rank summary */
	TL_COL_SUMMARY_VERSION, TL_COL_RECORD, TL_COL_SEQ_SOURCE,
	TL_COL_GROUP_SIZE,
	TL_COL_N
};

extern const struct tl_coldef tl_cols[TL_COL_N];

static inline const char *
tl_col_name(int c)
{
	return tl_cols[c].name;
}

/* The column named name, or -1. */
int tl_col_find(const char *name);
/*
 * One side's column of the comparison: the column named "ref_" (side 0)
 * or "target_" (side 1) followed by c's name, or -1.
 */
int tl_col_side(int c, int side);

/* What the programs write. */
enum tl_table {
	TL_TAB_OPS,		/* tl-parse: the op stream */
	TL_TAB_LAUNCHERS,	/* tl-parse --launchers */
	TL_TAB_STACK,		/* tl-parse's module context: after the rows' */
	TL_TAB_TIMELINE,	/* tl-parse --timeline */
	TL_TAB_KERNELS,		/* tl-parse --kernels */
	TL_TAB_META,		/* tl-parse --meta */
	TL_TAB_ITERATIONS,	/* tl-parse --iterations */
	TL_TAB_PERF,		/* tl-perfmodel: appended */
	TL_TAB_EFF,		/* tl-efficiency: appended */
	TL_TAB_GROUP,		/* tl-efficiency --group: appended */
	TL_TAB_OPTABLE,		/* tl-categorize --list */
	TL_TAB_GPUS,		/* tl-efficiency --hw list */
	TL_TAB_ROOFS,		/* tl-efficiency --hw show */
	TL_TAB_COMPARE,		/* tl-compare */
	TL_TAB_CMP_TIMELINE,	/* tl-compare --timeline */
	TL_TAB_REPLAY_RESULTS,	/* replay.py --results of a tl-replay package */
	TL_TAB_CMP_OPS,		/* tl-findings -o: comparative_ops.csv */
	TL_TAB_CAT_OPS,		/* tl-findings -o: category_data/CAT_ops.csv */
	TL_TAB_SUMMARY,		/* tl-findings --summary: per-rank summary */
	TL_TAB_N
};

struct tl_tabdef {
	const char *progs;	/* the programs that write it, by blanks */
	const char *option;	/* the option that asks for it, or "" */
	const char *man;	/* the manual page that documents it */
	const char *section;	/* its section (.Ss) or item (.It Pa) there */
	const short *cols;	/* the columns, in output order */
	int ncols;
	/* Input columns whose values it rewrites (--group's sums). */
	const short *changes;
	int nchanges;
};

extern const struct tl_tabdef tl_tables[TL_TAB_N];

/*
 * Write the names of table t's columns as fields: tl_table_names without
 * the end of the line (more columns follow), tl_table_header with it.
 */
void tl_table_names(struct tl_writer *w, int t);
void tl_table_header(struct tl_writer *w, int t);

/* The trace's GPU timeline constants, the trace_*_us columns. */
enum {
	TL_TLC_TOTAL, TL_TLC_BUSY, TL_TLC_COMPUTE, TL_TLC_EXPOSED_COMM,
	TL_TLC_EXPOSED_MEMCPY, TL_TLC_IDLE, TL_TLC_N
};
extern const short tl_tlc_cols[TL_TLC_N];

/*
 * The op signature: the fields that make two rows the same op of the
 * same trace.  Its keys hold the fields of a kind, each followed by the
 * byte 0x1f:
 *   TL_SIGKEY_FULL   all six: one trace's op (tl-efficiency --group,
 *                    tl-replay);
 *   TL_SIGKEY_OP     without the trace: the op in any trace (tl-compare
 *                    matches two traces on it, tl-findings pools traces);
 *   TL_SIGKEY_LOOSE  without the trace and the strides: the same op in
 *                    another memory layout (tl-compare's second pass).
 */
enum {
	TL_SIG_TRACE, TL_SIG_NAME, TL_SIG_DIMS, TL_SIG_TYPES, TL_SIG_STRIDES,
	TL_SIG_CONCRETE, TL_SIG_N
};
extern const short tl_sig_cols[TL_SIG_N];

enum tl_sigkey { TL_SIGKEY_FULL, TL_SIGKEY_OP, TL_SIGKEY_LOOSE };

/* Reset key to the signature fields f (NULL counts as "") of a kind. */
void tl_sig_key(struct tl_jbuf *key, enum tl_sigkey kind,
    const char *const f[TL_SIG_N]);
/* Append one more field to a key (what a program adds to the op's). */
void tl_sig_more(struct tl_jbuf *key, const char *field);

/* One field of the current row (tl_rr_field; tl_rr_text for its text). */
struct tl_field {
	const char *s;	/* the decoded text; "" when empty or absent */
	size_t n;	/* its length */
	int has;	/* 1 a value; 0 empty or absent; -1 not a number of
			   the column's type, not finite, or a negative
			   quantity (the accessors below die then) */
	int64_t i;	/* TL_CT_INT: the integer; TL_CT_US: nanoseconds */
	double d;	/* a number as a double (TL_CT_US: µs); NaN none */
	int parsed;	/* has, i and d are set (at most once per row) */
	const char *why;	/* has = -1: tl_rr_why */
	uint64_t row;	/* the reader's row s and n were taken from */
	/*
	 * The text has, i, d and why were read from, when shorter than
	 * last (else lastn is UCHAR_MAX): a number that repeats row after
	 * row (a trace's or a step's) is read once.
	 */
	unsigned char lastn;
	/*
	 * The last texts read that were not the one before (up to
	 * TL_RR_MEMO_OFF): a column whose number changes row after row (a
	 * start, a duration) stops comparing and keeping its text.
	 */
	unsigned char misses;
	char last[23];
};

#define TL_RR_MEMO_OFF 8

/* What a reader fills as its columns are asked for (tl_rr_text). */
struct tl_rrrow {
	size_t decoff;		/* decoded text used in dec */
	struct tl_field v[TL_COL_N];
};

/*
 * The row reader: reads the columns a program asks for from a stream,
 * one struct per row: the text of each when first asked for in the row,
 * a number when first asked for (so a row costs only what its reader
 * uses: a column asked for only on an op's first row costs nothing on
 * the others).  A column the input lacks, or the reader was not set up
 * for, reads as empty.  One rule for every number: it
 * parses as the column's type, is finite, and a quantity (a time, count,
 * FLOPs, bytes) is 0 or more.  A number that breaks it is kept as has =
 * -1 and ends the program (with the stream's message, naming the line,
 * the column and what is wrong: tl_rr_why) only when a tl_rr_* number
 * accessor reads it, so a reader that tolerates bad numbers (tl-findings)
 * checks tl_rr_field's has itself.  The text stays valid until the next
 * row.
 */
struct tl_rowreader {
	struct tl_stream *in;	/* the stream read (the caller's) */
	int pos[TL_COL_N];	/* field of each column in the input, or -1 */
	int lpos[TL_COL_N];	/* the same for the columns read, else -1 */
	int nread;		/* columns read */
	uint64_t row;		/* rows filled so far */
	struct tl_rrrow *cur;	/* the current row's fields */
	char *dec;		/* decoded text of escaped fields */
	size_t deccap;
};

/*
 * Set up to read columns cols[0..n) of the open stream in (a column
 * listed twice, as two modules' column lists may, is read once).
 */
void tl_rr_init(struct tl_rowreader *r, struct tl_stream *in,
    const short *cols, int n);
void tl_rr_free(struct tl_rowreader *r);
/* 1 when the input has column c. */
int tl_rr_has(const struct tl_rowreader *r, int c);
/* Die with "FILE:1: no column 'NAME' in the input" unless it has c. */
void tl_rr_need(const struct tl_rowreader *r, int c);
/* Read the next row: 1, or 0 at the end of the input. */
int tl_rr_next(struct tl_rowreader *r);
/*
 * Fill r from the stream's current row, which another reader (or
 * tl_stream_next) has read: a module that reads a few columns of rows
 * its caller reads (the perf model) keeps its own reader.
 */
void tl_rr_fill(struct tl_rowreader *r);

/* Decode escaped field c of the current row (tl_rr_take's rare case). */
void tl_rr_decode(const struct tl_rowreader *r, int c);

/* Take field c of the current row, once a row (tl_rr_text does). */
static inline void
tl_rr_take(const struct tl_rowreader *r, int c)
{
	struct tl_field *v = &r->cur->v[c];
	int i = r->lpos[c];

	v->row = r->row;
	if (i < 0)
		return;		/* not read: stays empty */
	if (r->in->esc[i])
		tl_rr_decode(r, c);
	else {
		v->s = r->in->f[i];
		v->n = r->in->flen[i];
	}
	v->parsed = 0;
}

static inline const char *
tl_rr_text(const struct tl_rowreader *r, int c)
{
	if (r->cur->v[c].row != r->row)
		tl_rr_take(r, c);
	return r->cur->v[c].s;
}

/* Field c of the current row, its number read; never dies. */
const struct tl_field *tl_rr_field(struct tl_rowreader *r, int c);
/*
 * Numbers: 1 with the value set, 0 when empty (tl_rr_num: NaN); each
 * dies with "FILE:LINE: COLUMN 'TEXT' is ..." (tl_rr_why) on a number
 * that breaks the rule.  tl_rr_i64 reads TL_CT_INT columns, tl_rr_ns TL_CT_US ones,
 * tl_rr_num any number.
 */
int tl_rr_i64(struct tl_rowreader *r, int c, int64_t *v);
int tl_rr_ns(struct tl_rowreader *r, int c, int64_t *ns);
double tl_rr_num(struct tl_rowreader *r, int c);
/*
 * What is wrong with field c when its has is -1: "is not a number" ("an
 * integer"), "is out of range", "is not finite" or "is negative ...".
 */
const char *tl_rr_why(struct tl_rowreader *r, int c);

/*
 * The signature fields of the current row (read them: tl_sig_cols), and
 * its key of a kind.
 */
void tl_rr_sig(const struct tl_rowreader *r, const char *f[TL_SIG_N]);
void tl_rr_sigkey(const struct tl_rowreader *r, enum tl_sigkey kind,
    struct tl_jbuf *key);

/*
 * The output columns of a filter: the input's, less those the program
 * owns (column ids), then the owned ones in the program's order (so
 * running a stage twice replaces its columns).  map[k] is the input
 * column of output column k, or -1 for an owned column; own[k] is the
 * owned column's index in the program's list.
 */
struct tl_outcols {
	int n;
	int all;	/* the first columns are all the input's, in order */
	int *map;
	int *own;
};

void tl_outcols_init(struct tl_outcols *oc, const struct tl_stream *s,
    const short *owned, int nowned);
void tl_outcols_free(struct tl_outcols *oc);
/* Write the header line. */
void tl_outcols_header(const struct tl_outcols *oc, const struct tl_stream *s,
    const short *owned, struct tl_writer *w);

#endif
