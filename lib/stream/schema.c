/* See LICENSE file for copyright and license details. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "stream/schema.h"

/*
 * Every column.  A number's type decides how the row reader parses it:
 * TL_CT_US exactly, as integer nanoseconds (times tl computes and writes
 * with tl_w_us), TL_CT_REAL as a double (derived numbers, tl_w_double).
 * The rank column holds the trace's rank in the op stream and a
 * recommendation's rank in comparative_ops.csv: text in both.
 */
const struct tl_coldef tl_cols[TL_COL_N] = {
	[TL_COL_TRACE] = { "trace", TL_CT_TEXT, "", 0 },
	[TL_COL_RANK] = { "rank", TL_CT_TEXT, "", 0 },
	[TL_COL_UID] = { "uid", TL_CT_INT, "", 0 },
	[TL_COL_NAME] = { "name", TL_CT_TEXT, "", 0 },
	[TL_COL_CATEGORY] = { "category", TL_CT_TEXT, "", 0 },
	[TL_COL_DIRECTION] = { "direction", TL_CT_TEXT, "", 0 },
	[TL_COL_ROW_KIND] = { "row_kind", TL_CT_TEXT, "", 0 },
	[TL_COL_PID] = { "pid", TL_CT_TEXT, "", 0 },
	[TL_COL_TID] = { "tid", TL_CT_TEXT, "", 0 },
	[TL_COL_TS_US] = { "ts_us", TL_CT_US, "µs", 0 },
	[TL_COL_CPU_DUR_US] = { "cpu_dur_us", TL_CT_US, "µs", 1 },
	[TL_COL_KERNEL_COUNT] = { "kernel_count", TL_CT_INT, "", 1 },
	[TL_COL_KERNEL_TIME_US] = { "kernel_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_SUBTREE_KERNEL_TIME_US] =
	    { "subtree_kernel_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_KERNELS] = { "kernels", TL_CT_JSON, "", 0 },
	[TL_COL_INPUT_DIMS] = { "input_dims", TL_CT_JSON, "", 0 },
	[TL_COL_INPUT_TYPES] = { "input_types", TL_CT_JSON, "", 0 },
	[TL_COL_INPUT_STRIDES] = { "input_strides", TL_CT_JSON, "", 0 },
	[TL_COL_CONCRETE_INPUTS] = { "concrete_inputs", TL_CT_JSON, "", 0 },
	[TL_COL_CONTEXT_ARGS] = { "context_args", TL_CT_JSON, "", 0 },
	[TL_COL_ITERATION] = { "iteration", TL_CT_INT, "", 1 },
	[TL_COL_PHASE] = { "phase", TL_CT_TEXT, "", 0 },
	[TL_COL_COLLECTIVE] = { "collective", TL_CT_JSON, "", 0 },
	[TL_COL_STEADY_STEPS] = { "steady_steps", TL_CT_INT, "", 1 },
	[TL_COL_STEADY_TOTAL_US] = { "steady_total_us", TL_CT_US, "µs", 1 },
	[TL_COL_STEADY_BUSY_US] = { "steady_busy_us", TL_CT_US, "µs", 1 },
	[TL_COL_STEADY_COMPUTE_US] =
	    { "steady_compute_us", TL_CT_US, "µs", 1 },
	[TL_COL_STEADY_IDLE_US] = { "steady_idle_us", TL_CT_US, "µs", 1 },
	[TL_COL_IDLE_GAPS] = { "idle_gaps", TL_CT_JSON, "", 0 },
	[TL_COL_TRACE_IDLE_NOISE_US] =
	    { "trace_idle_noise_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_IDLE_NOISE_COUNT] =
	    { "trace_idle_noise_count", TL_CT_INT, "", 1 },
	[TL_COL_TRACE_PYTHON_FRAMES] =
	    { "trace_python_frames", TL_CT_INT, "", 1 },
	[TL_COL_ITERATION_SOURCE] = { "iteration_source", TL_CT_TEXT, "", 0 },
	[TL_COL_CONTEXT_REQUESTS] = { "context_requests", TL_CT_INT, "", 1 },
	[TL_COL_GENERATION_REQUESTS] = { "generation_requests", TL_CT_INT,
	    "", 1 },
	[TL_COL_BATCH_TOKENS] = { "batch_tokens", TL_CT_INT, "", 1 },
	[TL_COL_BATCH_SOURCE] = { "batch_source", TL_CT_TEXT, "", 0 },
	[TL_COL_GPU_START_US] = { "gpu_start_us", TL_CT_US, "µs", 0 },
	[TL_COL_GPU_SPAN_US] = { "gpu_span_us", TL_CT_US, "µs", 1 },
	[TL_COL_GAP_BEFORE_US] = { "gap_before_us", TL_CT_US, "µs", 0 },
	[TL_COL_STEADY] = { "steady", TL_CT_INT, "", 1 },
	[TL_COL_PARENT_UID] = { "parent_uid", TL_CT_INT, "", 0 },
	[TL_COL_PARENT_NAME] = { "parent_name", TL_CT_TEXT, "", 0 },
	[TL_COL_FWD_UID] = { "fwd_uid", TL_CT_INT, "", 0 },
	[TL_COL_FWD_NAME] = { "fwd_name", TL_CT_TEXT, "", 0 },
	[TL_COL_SEQ] = { "seq", TL_CT_INT, "", 0 },
	[TL_COL_PCT_GPU_TIME] = { "pct_gpu_time", TL_CT_REAL, "%", 1 },
	[TL_COL_TRACE_TOTAL_US] = { "trace_total_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_BUSY_US] = { "trace_busy_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_COMPUTE_US] = { "trace_compute_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_EXPOSED_COMM_US] =
	    { "trace_exposed_comm_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_EXPOSED_MEMCPY_US] =
	    { "trace_exposed_memcpy_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_IDLE_US] = { "trace_idle_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_UNLINKED_US] = { "trace_unlinked_us", TL_CT_US, "µs", 1 },
	[TL_COL_TRACE_UNLINKED_COUNT] =
	    { "trace_unlinked_count", TL_CT_INT, "", 1 },
	[TL_COL_TRACE_GPU] = { "trace_gpu", TL_CT_TEXT, "", 0 },
	[TL_COL_TRACE_GPU_ARCH] = { "trace_gpu_arch", TL_CT_TEXT, "", 0 },
	[TL_COL_TRACE_GPU_COMPUTE_UNITS] =
	    { "trace_gpu_compute_units", TL_CT_INT, "", 1 },
	[TL_COL_TRACE_GPU_MEMORY_BYTES] =
	    { "trace_gpu_memory_bytes", TL_CT_INT, "byte", 1 },
	[TL_COL_TRACE_GPU_KERNEL_ARCH] =
	    { "trace_gpu_kernel_arch", TL_CT_TEXT, "", 0 },
	[TL_COL_MODULE] = { "module", TL_CT_TEXT, "", 0 },
	[TL_COL_CALL_STACK] = { "call_stack", TL_CT_TEXT, "", 0 },
	[TL_COL_DEVICE] = { "device", TL_CT_TEXT, "", 0 },
	[TL_COL_TYPE] = { "type", TL_CT_TEXT, "", 0 },
	[TL_COL_TIME_US] = { "time_us", TL_CT_US, "µs", 1 },
	[TL_COL_PCT_TOTAL] = { "pct_total", TL_CT_REAL, "%", 1 },
	[TL_COL_KIND] = { "kind", TL_CT_TEXT, "", 0 },
	[TL_COL_CLASS] = { "class", TL_CT_TEXT, "", 0 },
	[TL_COL_STREAM] = { "stream", TL_CT_INT, "", 0 },
	[TL_COL_DUR_US] = { "dur_us", TL_CT_US, "µs", 1 },
	[TL_COL_CORRELATION] = { "correlation", TL_CT_INT, "", 0 },
	[TL_COL_LINKED] = { "linked", TL_CT_INT, "", 0 },
	[TL_COL_GRAPH] = { "graph", TL_CT_INT, "", 0 },
	[TL_COL_LAUNCHER_UID] = { "launcher_uid", TL_CT_INT, "", 0 },
	[TL_COL_LAUNCHER] = { "launcher", TL_CT_TEXT, "", 0 },
	[TL_COL_OP_UID] = { "op_uid", TL_CT_INT, "", 0 },
	[TL_COL_OP_NAME] = { "op_name", TL_CT_TEXT, "", 0 },
	[TL_COL_OP_CATEGORY] = { "op_category", TL_CT_TEXT, "", 0 },
	[TL_COL_GRID] = { "grid", TL_CT_JSON, "", 0 },
	[TL_COL_BLOCK] = { "block", TL_CT_JSON, "", 0 },
	[TL_COL_KEY] = { "key", TL_CT_TEXT, "", 0 },
	[TL_COL_VALUE] = { "value", TL_CT_JSON, "", 0 },
	[TL_COL_PERF_MODEL] = { "perf_model", TL_CT_TEXT, "", 0 },
	[TL_COL_FLOPS] = { "flops", TL_CT_INT, "FLOP", 1 },
	[TL_COL_BYTES] = { "bytes", TL_CT_INT, "byte", 1 },
	[TL_COL_FLOPS_PER_BYTE] =
	    { "flops_per_byte", TL_CT_REAL, "FLOP/byte", 1 },
	[TL_COL_COMPUTE_SPEC] = { "compute_spec", TL_CT_TEXT, "", 0 },
	[TL_COL_PARAMS] = { "params", TL_CT_JSON, "", 0 },
	[TL_COL_PERF_ERROR] = { "perf_error", TL_CT_TEXT, "", 0 },
	[TL_COL_HW] = { "hw", TL_CT_TEXT, "", 0 },
	[TL_COL_ROOF_KIND] = { "roof_kind", TL_CT_TEXT, "", 0 },
	[TL_COL_ROOF] = { "roof", TL_CT_TEXT, "", 0 },
	[TL_COL_BW_ROOF] = { "bw_roof", TL_CT_TEXT, "", 0 },
	[TL_COL_PEAK_TFLOPS] = { "peak_tflops", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_PEAK_TBS] = { "peak_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_TFLOPS_S] = { "tflops_s", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_TBS] = { "tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_ROOFLINE_TIME_US] = { "roofline_time_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_BOUND] = { "bound", TL_CT_TEXT, "", 0 },
	[TL_COL_PCT_ROOFLINE] = { "pct_roofline", TL_CT_REAL, "%", 1 },
	[TL_COL_ASSESSMENT] = { "assessment", TL_CT_TEXT, "", 0 },
	[TL_COL_ELTWISE_BASELINE_TBS] =
	    { "eltwise_baseline_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_PCT_ELTWISE_BASELINE] =
	    { "pct_eltwise_baseline", TL_CT_REAL, "%", 1 },
	[TL_COL_COUNT] = { "count", TL_CT_INT, "", 1 },
	[TL_COL_KERNEL_TIME_MEAN_US] =
	    { "kernel_time_mean_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_KERNEL_TIME_STD_US] =
	    { "kernel_time_std_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_KERNEL_TIME_MIN_US] =
	    { "kernel_time_min_us", TL_CT_US, "µs", 1 },
	[TL_COL_KERNEL_TIME_MAX_US] =
	    { "kernel_time_max_us", TL_CT_US, "µs", 1 },
	[TL_COL_ABOVE_PEAK_COUNT] = { "above_peak_count", TL_CT_INT, "", 1 },
	[TL_COL_ABOVE_PEAK_TIME_US] =
	    { "above_peak_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_MODEL] = { "model", TL_CT_TEXT, "", 0 },
	[TL_COL_BWD_MODEL] = { "bwd_model", TL_CT_TEXT, "", 0 },
	[TL_COL_EXTRA_MODEL] = { "extra_model", TL_CT_TEXT, "", 0 },
	[TL_COL_GPU] = { "gpu", TL_CT_TEXT, "", 0 },
	[TL_COL_ALIASES] = { "aliases", TL_CT_JSON, "", 0 },
	[TL_COL_DESCRIPTION] = { "description", TL_CT_TEXT, "", 0 },
	[TL_COL_HBM_TBS] = { "hbm_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_HBM_ACHIEVABLE_TBS] =
	    { "hbm_achievable_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_MEMORY_GB] = { "memory_gb", TL_CT_REAL, "GB", 1 },
	[TL_COL_DEVICES_PER_PACKAGE] =
	    { "devices_per_package", TL_CT_INT, "", 1 },
	[TL_COL_COMPUTE_UNITS] = { "compute_units", TL_CT_INT, "", 1 },
	[TL_COL_MATRIX_BF16_TFLOPS] =
	    { "matrix_bf16_tflops", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_MATRIX_BF16_ACHIEVABLE_TFLOPS] =
	    { "matrix_bf16_achievable_tflops", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_ROOF_ACHIEVABLE] = { "roof_achievable", TL_CT_TEXT, "", 0 },
	[TL_COL_ROOF_PEAK] = { "roof_peak", TL_CT_TEXT, "", 0 },
	[TL_COL_SOURCE] = { "source", TL_CT_TEXT, "", 0 },
	[TL_COL_MATCH] = { "match", TL_CT_TEXT, "", 0 },
	[TL_COL_TARGET_INPUT_STRIDES] =
	    { "target_input_strides", TL_CT_JSON, "", 0 },
	[TL_COL_LAYOUT_NOTE] = { "layout_note", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_NAME] = { "ref_name", TL_CT_TEXT, "", 0 },
	[TL_COL_TARGET_NAME] = { "target_name", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_HW] = { "ref_hw", TL_CT_TEXT, "", 0 },
	[TL_COL_TARGET_HW] = { "target_hw", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_ROOF] = { "ref_roof", TL_CT_TEXT, "", 0 },
	[TL_COL_TARGET_ROOF] = { "target_roof", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_BW_ROOF] = { "ref_bw_roof", TL_CT_TEXT, "", 0 },
	[TL_COL_TARGET_BW_ROOF] = { "target_bw_roof", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_PEAK_TFLOPS] =
	    { "ref_peak_tflops", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_TARGET_PEAK_TFLOPS] =
	    { "target_peak_tflops", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_REF_PEAK_TBS] = { "ref_peak_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_TARGET_PEAK_TBS] = { "target_peak_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_REF_COUNT] = { "ref_count", TL_CT_INT, "", 1 },
	[TL_COL_TARGET_COUNT] = { "target_count", TL_CT_INT, "", 1 },
	[TL_COL_REF_KERNEL_TIME_US] =
	    { "ref_kernel_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_KERNEL_TIME_US] =
	    { "target_kernel_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_KERNEL_TIME_MEAN_US] =
	    { "ref_kernel_time_mean_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_TARGET_KERNEL_TIME_MEAN_US] =
	    { "target_kernel_time_mean_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_REF_TFLOPS_S] = { "ref_tflops_s", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_TARGET_TFLOPS_S] =
	    { "target_tflops_s", TL_CT_REAL, "TFLOPS", 1 },
	[TL_COL_REF_TBS] = { "ref_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_TARGET_TBS] = { "target_tbs", TL_CT_REAL, "TB/s", 1 },
	[TL_COL_REF_PCT_ROOFLINE] = { "ref_pct_roofline", TL_CT_REAL, "%", 1 },
	[TL_COL_TARGET_PCT_ROOFLINE] =
	    { "target_pct_roofline", TL_CT_REAL, "%", 1 },
	[TL_COL_REF_ABOVE_PEAK_PCT] =
	    { "ref_above_peak_pct", TL_CT_REAL, "%", 1 },
	[TL_COL_TARGET_ABOVE_PEAK_PCT] =
	    { "target_above_peak_pct", TL_CT_REAL, "%", 1 },
	[TL_COL_REF_PERF_ERROR] = { "ref_perf_error", TL_CT_TEXT, "", 0 },
	[TL_COL_TARGET_PERF_ERROR] =
	    { "target_perf_error", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_PCT_GPU_TIME] = { "ref_pct_gpu_time", TL_CT_REAL, "%", 1 },
	[TL_COL_TARGET_PCT_GPU_TIME] =
	    { "target_pct_gpu_time", TL_CT_REAL, "%", 1 },
	[TL_COL_REF_KERNELS] = { "ref_kernels", TL_CT_JSON, "", 0 },
	[TL_COL_TARGET_KERNELS] = { "target_kernels", TL_CT_JSON, "", 0 },
	[TL_COL_DELTA_TIME_US] = { "delta_time_us", TL_CT_US, "µs", 0 },
	[TL_COL_DELTA_PCT] = { "delta_pct", TL_CT_REAL, "%", 0 },
	[TL_COL_EXPECTED_RATIO] = { "expected_ratio", TL_CT_REAL, "", 1 },
	[TL_COL_ACTUAL_RATIO] = { "actual_ratio", TL_CT_REAL, "", 1 },
	[TL_COL_EXPLAINED] = { "explained", TL_CT_TEXT, "", 0 },
	[TL_COL_TOLERANCE_PCT] = { "tolerance_pct", TL_CT_REAL, "%", 1 },
	[TL_COL_UNEXPLAINED_TIME_US] =
	    { "unexplained_time_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_OTHER_EXPECTED_RATIO] =
	    { "other_expected_ratio", TL_CT_REAL, "", 1 },
	[TL_COL_OTHER_EXPLAINED] = { "other_explained", TL_CT_TEXT, "", 0 },
	[TL_COL_REF_TRACE_TOTAL_US] =
	    { "ref_trace_total_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_TRACE_BUSY_US] = { "ref_trace_busy_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_TRACE_COMPUTE_US] =
	    { "ref_trace_compute_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_TRACE_EXPOSED_COMM_US] =
	    { "ref_trace_exposed_comm_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_TRACE_EXPOSED_MEMCPY_US] =
	    { "ref_trace_exposed_memcpy_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_TRACE_IDLE_US] = { "ref_trace_idle_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TRACE_TOTAL_US] =
	    { "target_trace_total_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TRACE_BUSY_US] =
	    { "target_trace_busy_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TRACE_COMPUTE_US] =
	    { "target_trace_compute_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TRACE_EXPOSED_COMM_US] =
	    { "target_trace_exposed_comm_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TRACE_EXPOSED_MEMCPY_US] =
	    { "target_trace_exposed_memcpy_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TRACE_IDLE_US] =
	    { "target_trace_idle_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_TIME_US] = { "ref_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_TARGET_TIME_US] = { "target_time_us", TL_CT_US, "µs", 1 },
	[TL_COL_REF_PCT_TOTAL] = { "ref_pct_total", TL_CT_REAL, "%", 1 },
	[TL_COL_TARGET_PCT_TOTAL] = { "target_pct_total", TL_CT_REAL, "%", 1 },
	[TL_COL_INDEX] = { "index", TL_CT_INT, "", 0 },
	[TL_COL_OP] = { "op", TL_CT_TEXT, "", 0 },
	[TL_COL_OVERLOAD] = { "overload", TL_CT_TEXT, "", 0 },
	[TL_COL_STATUS] = { "status", TL_CT_TEXT, "", 0 },
	[TL_COL_OBSERVED_US] = { "observed_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_REPLAYED_US] = { "replayed_us", TL_CT_REAL, "µs", 1 },
	[TL_COL_CHECKSUM] = { "checksum", TL_CT_REAL, "", 0 },
	[TL_COL_REF_CHECKSUM] = { "ref_checksum", TL_CT_REAL, "", 0 },
	[TL_COL_REASON] = { "reason", TL_CT_TEXT, "", 0 },
	[TL_COL_PRIORITY] = { "priority", TL_CT_TEXT, "", 0 },
	[TL_COL_HW_EXPECTED] = { "hw_expected", TL_CT_TEXT, "", 0 },
	[TL_COL_OTHER_HW_EXPECTED] =
	    { "other_hw_expected", TL_CT_TEXT, "", 0 },
	[TL_COL_UNEXPLAINED_PCT] = { "unexplained_pct", TL_CT_REAL, "%", 1 },
	[TL_COL_PCT_CATEGORY] = { "pct_category", TL_CT_REAL, "%", 1 },
	[TL_COL_BOTTLENECK] = { "bottleneck", TL_CT_TEXT, "", 0 },
	[TL_COL_SUMMARY_VERSION] = { "summary_version", TL_CT_INT, "", 0 },
	[TL_COL_RECORD] = { "record", TL_CT_TEXT, "", 0 },
	[TL_COL_SEQ_SOURCE] = { "seq_source", TL_CT_TEXT, "", 0 },
	[TL_COL_GROUP_SIZE] = { "group_size", TL_CT_INT, "", 1 },
};

/* The op stream's columns before and after the launcher view's extra one. */
#define OPS_HEAD \
	TL_COL_TRACE, TL_COL_RANK, TL_COL_UID, TL_COL_NAME, TL_COL_CATEGORY, \
	TL_COL_DIRECTION, TL_COL_ROW_KIND, TL_COL_PID, TL_COL_TID, \
	TL_COL_TS_US, TL_COL_CPU_DUR_US, TL_COL_KERNEL_COUNT, \
	TL_COL_KERNEL_TIME_US
#define OPS_TAIL \
	TL_COL_KERNELS, TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES, \
	TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS, TL_COL_PARENT_UID, \
	TL_COL_PARENT_NAME, TL_COL_FWD_UID, TL_COL_FWD_NAME, TL_COL_SEQ, \
	TL_COL_PCT_GPU_TIME, TL_COL_TRACE_TOTAL_US, TL_COL_TRACE_BUSY_US, \
	TL_COL_TRACE_COMPUTE_US, TL_COL_TRACE_EXPOSED_COMM_US, \
	TL_COL_TRACE_EXPOSED_MEMCPY_US, TL_COL_TRACE_IDLE_US, \
	TL_COL_TRACE_UNLINKED_US, TL_COL_TRACE_UNLINKED_COUNT, \
	TL_COL_TRACE_GPU, TL_COL_TRACE_GPU_ARCH, \
	TL_COL_TRACE_GPU_COMPUTE_UNITS, TL_COL_TRACE_GPU_MEMORY_BYTES, \
	TL_COL_TRACE_GPU_KERNEL_ARCH, \
	TL_COL_CONTEXT_ARGS, TL_COL_ITERATION, TL_COL_PHASE, \
	TL_COL_COLLECTIVE, TL_COL_STEADY, TL_COL_STEADY_STEPS, \
	TL_COL_STEADY_TOTAL_US, TL_COL_STEADY_BUSY_US, \
	TL_COL_STEADY_COMPUTE_US, TL_COL_STEADY_IDLE_US, \
	TL_COL_IDLE_GAPS, TL_COL_TRACE_IDLE_NOISE_US, \
	TL_COL_TRACE_IDLE_NOISE_COUNT, TL_COL_TRACE_PYTHON_FRAMES
#define ARGS \
	TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES, \
	TL_COL_CONCRETE_INPUTS
/* One side's columns of the comparison. */
#define SIDE(s) \
	TL_COL_##s##_NAME, TL_COL_##s##_HW, TL_COL_##s##_ROOF, \
	TL_COL_##s##_BW_ROOF, TL_COL_##s##_PEAK_TFLOPS, \
	TL_COL_##s##_PEAK_TBS, TL_COL_##s##_COUNT, \
	TL_COL_##s##_KERNEL_TIME_US, TL_COL_##s##_KERNEL_TIME_MEAN_US, \
	TL_COL_##s##_TFLOPS_S, TL_COL_##s##_TBS, TL_COL_##s##_PCT_ROOFLINE, \
	TL_COL_##s##_ABOVE_PEAK_PCT, TL_COL_##s##_PCT_GPU_TIME, \
	TL_COL_##s##_KERNELS, TL_COL_##s##_PERF_ERROR
#define SIDE_TIMELINE(s) \
	TL_COL_##s##_TRACE_TOTAL_US, TL_COL_##s##_TRACE_BUSY_US, \
	TL_COL_##s##_TRACE_COMPUTE_US, TL_COL_##s##_TRACE_EXPOSED_COMM_US, \
	TL_COL_##s##_TRACE_EXPOSED_MEMCPY_US, TL_COL_##s##_TRACE_IDLE_US

static const short ops[] = { OPS_HEAD, OPS_TAIL };
static const short launchers[] = {
	OPS_HEAD, TL_COL_SUBTREE_KERNEL_TIME_US, OPS_TAIL
};
static const short stack[] = { TL_COL_MODULE, TL_COL_CALL_STACK };
static const short timeline[] = {
	TL_COL_TRACE, TL_COL_RANK, TL_COL_DEVICE, TL_COL_TYPE, TL_COL_TIME_US,
	TL_COL_PCT_TOTAL
};
static const short kernels[] = {
	TL_COL_TRACE, TL_COL_RANK, TL_COL_UID, TL_COL_NAME, TL_COL_KIND,
	TL_COL_CLASS, TL_COL_PID, TL_COL_STREAM, TL_COL_TS_US, TL_COL_DUR_US,
	TL_COL_CORRELATION, TL_COL_LINKED, TL_COL_GRAPH, TL_COL_LAUNCHER_UID,
	TL_COL_LAUNCHER, TL_COL_OP_UID, TL_COL_OP_NAME, TL_COL_OP_CATEGORY,
	ARGS, TL_COL_GRID, TL_COL_BLOCK
};
static const short meta[] = {
	TL_COL_TRACE, TL_COL_RANK, TL_COL_KEY, TL_COL_VALUE
};
static const short iterations[] = {
	TL_COL_TRACE, TL_COL_RANK, TL_COL_ITERATION, TL_COL_NAME,
	TL_COL_ITERATION_SOURCE, TL_COL_PHASE, TL_COL_CONTEXT_REQUESTS,
	TL_COL_GENERATION_REQUESTS, TL_COL_BATCH_TOKENS, TL_COL_BATCH_SOURCE,
	TL_COL_PID, TL_COL_TID, TL_COL_TS_US, TL_COL_CPU_DUR_US,
	TL_COL_KERNEL_COUNT, TL_COL_KERNEL_TIME_US, TL_COL_GPU_START_US,
	TL_COL_GPU_SPAN_US, TL_COL_GAP_BEFORE_US, TL_COL_STEADY
};
static const short perf[] = {
	TL_COL_PERF_MODEL, TL_COL_FLOPS, TL_COL_BYTES, TL_COL_FLOPS_PER_BYTE,
	TL_COL_COMPUTE_SPEC, TL_COL_PARAMS, TL_COL_PERF_ERROR
};
static const short eff[] = {
	TL_COL_HW, TL_COL_ROOF_KIND, TL_COL_ROOF, TL_COL_BW_ROOF,
	TL_COL_PEAK_TFLOPS, TL_COL_PEAK_TBS, TL_COL_TFLOPS_S, TL_COL_TBS,
	TL_COL_ROOFLINE_TIME_US, TL_COL_BOUND, TL_COL_PCT_ROOFLINE, TL_COL_ASSESSMENT,
	TL_COL_ELTWISE_BASELINE_TBS, TL_COL_PCT_ELTWISE_BASELINE
};
static const short group[] = {
	TL_COL_COUNT, TL_COL_KERNEL_TIME_MEAN_US, TL_COL_KERNEL_TIME_STD_US,
	TL_COL_KERNEL_TIME_MIN_US, TL_COL_KERNEL_TIME_MAX_US,
	TL_COL_ABOVE_PEAK_COUNT, TL_COL_ABOVE_PEAK_TIME_US
};
static const short group_changes[] = {
	TL_COL_KERNEL_TIME_US, TL_COL_KERNEL_COUNT, TL_COL_PCT_GPU_TIME,
	TL_COL_TFLOPS_S, TL_COL_TBS, TL_COL_PCT_ROOFLINE
};
static const short optable[] = {
	TL_COL_NAME, TL_COL_CATEGORY, TL_COL_DIRECTION, TL_COL_MODEL,
	TL_COL_BWD_MODEL, TL_COL_EXTRA_MODEL
};
static const short gpus[] = {
	TL_COL_GPU, TL_COL_ALIASES, TL_COL_DESCRIPTION, TL_COL_HBM_TBS,
	TL_COL_HBM_ACHIEVABLE_TBS, TL_COL_MEMORY_GB,
	TL_COL_DEVICES_PER_PACKAGE, TL_COL_COMPUTE_UNITS,
	TL_COL_MATRIX_BF16_TFLOPS, TL_COL_MATRIX_BF16_ACHIEVABLE_TFLOPS
};
static const short roofs[] = {
	TL_COL_GPU, TL_COL_KEY, TL_COL_KIND, TL_COL_VALUE,
	TL_COL_ROOF_ACHIEVABLE, TL_COL_ROOF_PEAK, TL_COL_SOURCE
};
static const short compare[] = {
	TL_COL_MATCH, TL_COL_NAME, TL_COL_CATEGORY, TL_COL_DIRECTION,
	TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES,
	TL_COL_TARGET_INPUT_STRIDES, TL_COL_LAYOUT_NOTE,
	TL_COL_CONCRETE_INPUTS, TL_COL_PERF_MODEL, TL_COL_COMPUTE_SPEC,
	TL_COL_FLOPS, TL_COL_BYTES, TL_COL_FLOPS_PER_BYTE, TL_COL_BOUND,
	TL_COL_ROOF_KIND, SIDE(REF), SIDE(TARGET),
	TL_COL_DELTA_TIME_US, TL_COL_DELTA_PCT, TL_COL_EXPECTED_RATIO,
	TL_COL_ACTUAL_RATIO, TL_COL_EXPLAINED, TL_COL_TOLERANCE_PCT,
	TL_COL_UNEXPLAINED_TIME_US, TL_COL_OTHER_EXPECTED_RATIO,
	TL_COL_OTHER_EXPLAINED,
	SIDE_TIMELINE(REF), SIDE_TIMELINE(TARGET)
};
static const short cmp_timeline[] = {
	TL_COL_REF_NAME, TL_COL_TARGET_NAME, TL_COL_TYPE, TL_COL_REF_TIME_US,
	TL_COL_TARGET_TIME_US, TL_COL_DELTA_TIME_US, TL_COL_DELTA_PCT,
	TL_COL_REF_PCT_TOTAL, TL_COL_TARGET_PCT_TOTAL
};
static const short replay_results[] = {
	TL_COL_INDEX, TL_COL_OP, TL_COL_OVERLOAD, TL_COL_STATUS,
	TL_COL_OBSERVED_US, TL_COL_REPLAYED_US, TL_COL_CHECKSUM,
	TL_COL_REF_CHECKSUM, TL_COL_INPUT_DIMS, TL_COL_INPUT_STRIDES,
	TL_COL_INPUT_TYPES, TL_COL_REASON
};
static const short cmp_ops[] = {
	TL_COL_RANK, TL_COL_PRIORITY, TL_COL_MATCH, TL_COL_NAME,
	TL_COL_CATEGORY, TL_COL_DIRECTION, TL_COL_INPUT_DIMS,
	TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES, TL_COL_TARGET_INPUT_STRIDES,
	TL_COL_LAYOUT_NOTE, TL_COL_CONCRETE_INPUTS, TL_COL_BOUND,
	TL_COL_REF_COUNT, TL_COL_TARGET_COUNT, TL_COL_REF_KERNEL_TIME_US,
	TL_COL_TARGET_KERNEL_TIME_US, TL_COL_DELTA_TIME_US, TL_COL_DELTA_PCT,
	TL_COL_ROOF_KIND, TL_COL_EXPECTED_RATIO, TL_COL_ACTUAL_RATIO,
	TL_COL_EXPLAINED, TL_COL_HW_EXPECTED, TL_COL_OTHER_EXPECTED_RATIO,
	TL_COL_OTHER_HW_EXPECTED, TL_COL_UNEXPLAINED_TIME_US,
	TL_COL_UNEXPLAINED_PCT
};
static const short cat_ops[] = {
	TL_COL_NAME, TL_COL_CATEGORY, TL_COL_DIRECTION, TL_COL_COUNT,
	TL_COL_KERNEL_TIME_US, TL_COL_PCT_GPU_TIME, TL_COL_PCT_CATEGORY,
	TL_COL_FLOPS, TL_COL_BYTES, TL_COL_FLOPS_PER_BYTE, TL_COL_TFLOPS_S,
	TL_COL_TBS, TL_COL_PCT_ROOFLINE, TL_COL_BOUND, ARGS,
	TL_COL_PERF_MODEL, TL_COL_PARAMS, TL_COL_BOTTLENECK, TL_COL_PRIORITY
};

static const short summary[] = {
	TL_COL_SUMMARY_VERSION, TL_COL_TRACE, TL_COL_RANK, TL_COL_RECORD,
	TL_COL_KEY, TL_COL_TYPE, TL_COL_TRACE_GPU, TL_COL_HW, TL_COL_ITERATION,
	TL_COL_SEQ, TL_COL_SEQ_SOURCE, TL_COL_GPU_START_US, TL_COL_GPU_SPAN_US,
	TL_COL_TIME_US, TL_COL_BYTES, TL_COL_GROUP_SIZE, TL_COL_TRACE_TOTAL_US,
	TL_COL_TRACE_BUSY_US, TL_COL_TRACE_COMPUTE_US,
	TL_COL_TRACE_EXPOSED_COMM_US, TL_COL_TRACE_EXPOSED_MEMCPY_US,
	TL_COL_TRACE_IDLE_US
};

#define COLS(a) a, (int)(sizeof(a) / sizeof(a[0]))
#define FORMAT "tl-format.5"

const struct tl_tabdef tl_tables[TL_TAB_N] = {
	[TL_TAB_OPS] = { "tl-parse", "", FORMAT, "The op stream", COLS(ops),
	    NULL, 0 },
	[TL_TAB_LAUNCHERS] = { "tl-parse", "--launchers", FORMAT,
	    "The op stream", COLS(launchers), NULL, 0 },
	[TL_TAB_STACK] = { "tl-parse", "", FORMAT, "The op stream",
	    COLS(stack), NULL, 0 },
	[TL_TAB_TIMELINE] = { "tl-parse", "--timeline", FORMAT,
	    "The timeline", COLS(timeline), NULL, 0 },
	[TL_TAB_KERNELS] = { "tl-parse", "--kernels", FORMAT,
	    "The kernel table", COLS(kernels), NULL, 0 },
	[TL_TAB_META] = { "tl-parse", "--meta", FORMAT, "The metadata",
	    COLS(meta), NULL, 0 },
	[TL_TAB_ITERATIONS] = { "tl-parse", "--iterations", FORMAT,
	    "The iteration table", COLS(iterations), NULL, 0 },
	[TL_TAB_PERF] = { "tl-perfmodel tl-efficiency", "", FORMAT,
	    "The perf-model columns", COLS(perf), NULL, 0 },
	[TL_TAB_EFF] = { "tl-efficiency", "", FORMAT, "The efficiency columns",
	    COLS(eff), NULL, 0 },
	[TL_TAB_GROUP] = { "tl-efficiency", "--group", FORMAT, "Grouped rows",
	    COLS(group), COLS(group_changes) },
	[TL_TAB_OPTABLE] = { "tl-categorize", "--list", FORMAT, "The op table",
	    COLS(optable), NULL, 0 },
	[TL_TAB_GPUS] = { "tl-efficiency", "--hw list", FORMAT, "The GPU list",
	    COLS(gpus), NULL, 0 },
	[TL_TAB_ROOFS] = { "tl-efficiency", "--hw show", FORMAT, "The roofs",
	    COLS(roofs), NULL, 0 },
	[TL_TAB_COMPARE] = { "tl-compare", "", FORMAT, "The comparison",
	    COLS(compare), NULL, 0 },
	[TL_TAB_CMP_TIMELINE] = { "tl-compare", "--timeline", FORMAT,
	    "The timeline comparison", COLS(cmp_timeline), NULL, 0 },
	[TL_TAB_REPLAY_RESULTS] = { "replay.py", "--results", FORMAT,
	    "The replay results", COLS(replay_results), NULL, 0 },
	[TL_TAB_CMP_OPS] = { "tl-findings", "-o", FORMAT,
	    "The comparative per-op table", COLS(cmp_ops), NULL, 0 },
	[TL_TAB_CAT_OPS] = { "tl-findings", "-o", "tl-findings.1",
	    "category_data/", COLS(cat_ops), NULL, 0 },
	[TL_TAB_SUMMARY] = { "tl-findings", "--summary", FORMAT,
	    "The per-rank summary", COLS(summary), NULL, 0 },
};

const short tl_tlc_cols[TL_TLC_N] = {
	TL_COL_TRACE_TOTAL_US, TL_COL_TRACE_BUSY_US, TL_COL_TRACE_COMPUTE_US,
	TL_COL_TRACE_EXPOSED_COMM_US, TL_COL_TRACE_EXPOSED_MEMCPY_US,
	TL_COL_TRACE_IDLE_US
};

const short tl_sig_cols[TL_SIG_N] = {
	TL_COL_TRACE, TL_COL_NAME, TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES,
	TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS
};

int
tl_col_find(const char *name)
{
	int c;

	for (c = 0; c < TL_COL_N; c++)
		if (strcmp(tl_cols[c].name, name) == 0)
			return c;
	return -1;
}

int
tl_col_side(int c, int side)
{
	static const char *const prefix[2] = { "ref_", "target_" };
	char name[64];

	snprintf(name, sizeof(name), "%s%s", prefix[side], tl_cols[c].name);
	return tl_col_find(name);
}

void
tl_table_names(struct tl_writer *w, int t)
{
	int k;

	for (k = 0; k < tl_tables[t].ncols; k++)
		tl_w_str(w, tl_cols[tl_tables[t].cols[k]].name);
}

void
tl_table_header(struct tl_writer *w, int t)
{
	tl_table_names(w, t);
	tl_w_eol(w);
}

/* Which fields each kind of key holds. */
static const unsigned char sig_in[3][TL_SIG_N] = {
	[TL_SIGKEY_FULL] = { 1, 1, 1, 1, 1, 1 },
	[TL_SIGKEY_OP] = { 0, 1, 1, 1, 1, 1 },
	[TL_SIGKEY_LOOSE] = { 0, 1, 1, 1, 0, 1 },
};

void
tl_sig_key(struct tl_jbuf *key, enum tl_sigkey kind,
    const char *const f[TL_SIG_N])
{
	int k;

	tl_jb_reset(key);
	for (k = 0; k < TL_SIG_N; k++)
		if (sig_in[kind][k])
			tl_sig_more(key, f[k]);
}

void
tl_sig_more(struct tl_jbuf *key, const char *field)
{
	size_t n = field != NULL ? strlen(field) : 0;

	/* One call per field and row: one check for room, no tl_jb_raw. */
	if (key->n + n + 2 > key->cap)
		tl_grow(&key->s, &key->cap, key->n + n + 2, 1);
	memcpy(key->s + key->n, field != NULL ? field : "", n);
	key->n += n;
	key->s[key->n++] = '\x1f';
	key->s[key->n] = '\0';
}

void
tl_rr_init(struct tl_rowreader *r, struct tl_stream *in, const short *cols,
    int n)
{
	int i, c;

	memset(r, 0, sizeof(*r));
	r->in = in;
	r->cur = tl_calloc(1, sizeof(*r->cur));
	for (c = 0; c < TL_COL_N; c++) {
		r->pos[c] = r->lpos[c] = -1;
		r->cur->v[c].s = "";
		r->cur->v[c].n = 0;
		r->cur->v[c].d = NAN;
		r->cur->v[c].parsed = 1;
		r->cur->v[c].lastn = UCHAR_MAX;	/* none yet */
	}
	/* The first of two columns of one name, as tl_stream_col finds. */
	for (i = 0; i < in->ncols; i++)
		if ((c = tl_col_find(in->cols[i])) >= 0 && r->pos[c] < 0)
			r->pos[c] = i;
	for (i = 0; i < n; i++) {
		assert(cols[i] >= 0 && cols[i] < TL_COL_N);
		/* Once each: the decoding room holds every field once. */
		if (r->pos[cols[i]] < 0 || r->lpos[cols[i]] >= 0)
			continue;
		r->lpos[cols[i]] = r->pos[cols[i]];
		r->nread++;
	}
}

void
tl_rr_free(struct tl_rowreader *r)
{
	free(r->cur);
	free(r->dec);
	r->cur = NULL;
	r->dec = NULL;
	r->nread = 0;
	r->deccap = 0;
}

int
tl_rr_has(const struct tl_rowreader *r, int c)
{
	return r->pos[c] >= 0;
}

void
tl_rr_need(const struct tl_rowreader *r, int c)
{
	if (r->pos[c] < 0)
		tl_stream_need(r->in, tl_cols[c].name);
}

/*
 * Read the number of field v of column c as its type says, then apply
 * the rule for numbers: finite, and a quantity is 0 or more.
 */
static void
parse(struct tl_rowreader *r, int c, struct tl_field *v)
{
	(void)r;
	v->parsed = 1;
	if (tl_cols[c].type >= TL_CT_INT && v->misses < TL_RR_MEMO_OFF) {
		if (v->n < sizeof(v->last) && v->n == v->lastn &&
		    memcmp(v->s, v->last, v->n) == 0) {
			v->misses = 0;
			return;		/* the last text read: as read */
		}
		if (v->n < sizeof(v->last)) {
			memcpy(v->last, v->s, v->n);
			v->lastn = (unsigned char)v->n;
		} else
			v->lastn = UCHAR_MAX;
		v->misses++;
	}
	v->i = 0;
	v->d = NAN;
	/* The field's decoded text, as tl_stream_try_* would read it. */
	switch (tl_cols[c].type) {
	case TL_CT_INT:
		v->has = v->n == 0 ? 0 : tl_parse_i64(v->s, v->n, &v->i) < 0 ?
		    -1 : 1;
		if (v->has > 0)
			v->d = (double)v->i;
		break;
	case TL_CT_US:
		v->has = v->n == 0 ? 0 : tl_parse_us_ns(v->s, v->n, &v->i) < 0 ?
		    -1 : 1;
		if (v->has > 0)
			v->d = (double)v->i / 1e3;
		break;
	case TL_CT_REAL:
		v->has = tl_stream_parse_double(v->s, v->n, &v->d);
		break;
	default:
		v->has = v->s[0] != '\0';
		return;
	}
	if (v->has < 0)
		v->why = tl_num_out_of_range(v->s, v->n) ?
		    "is out of range" : tl_cols[c].type == TL_CT_INT ?
		    "is not an integer" : "is not a number";
	else if (v->has == 0)
		return;
	else if (!isfinite(v->d))
		v->why = "is not finite";
	else if (tl_cols[c].quantity && (v->d < 0 || v->i < 0))
		v->why = "is negative: a time, count, FLOPs or bytes is 0 or "
		    "more";
	else
		return;
	v->has = -1;
}

int
tl_rr_next(struct tl_rowreader *r)
{
	if (!tl_stream_next(r->in))
		return 0;
	tl_rr_fill(r);
	return 1;
}

void
tl_rr_fill(struct tl_rowreader *r)
{
	struct tl_stream *in = r->in;
	size_t need;

	/*
	 * Room for every escaped field at once, so the pointers stay put:
	 * the fields lie in order in one buffer, so its span (plus a NUL
	 * each) bounds their decoded length.  The fields themselves are
	 * taken when first asked for (tl_rr_take).
	 */
	if (in->nf == 0)
		return;
	need = (size_t)(in->f[in->nf - 1] + in->flen[in->nf - 1] - in->f[0]) +
	    (size_t)in->nf;
	if (need > r->deccap)
		tl_grow(&r->dec, &r->deccap, need, 1);
	r->cur->decoff = 0;
	r->row++;
}

void
tl_rr_decode(const struct tl_rowreader *r, int c)
{
	const struct tl_stream *in = r->in;
	struct tl_field *v = &r->cur->v[c];
	int i = r->lpos[c];

	v->s = r->dec + r->cur->decoff;
	v->n = tl_tsv_decode(r->dec + r->cur->decoff, in->f[i], in->flen[i]);
	r->cur->decoff += v->n + 1;
}

void
tl_rr_sig(const struct tl_rowreader *r, const char *f[TL_SIG_N])
{
	int k;

	for (k = 0; k < TL_SIG_N; k++)
		f[k] = tl_rr_text(r, tl_sig_cols[k]);
}

void
tl_rr_sigkey(const struct tl_rowreader *r, enum tl_sigkey kind,
    struct tl_jbuf *key)
{
	const char *f[TL_SIG_N];

	tl_rr_sig(r, f);
	tl_sig_key(key, kind, f);
}

const struct tl_field *
tl_rr_field(struct tl_rowreader *r, int c)
{
	struct tl_field *v = &r->cur->v[c];

	if (v->row != r->row)
		tl_rr_take(r, c);
	if (!v->parsed)
		parse(r, c, v);
	return v;
}

const char *
tl_rr_why(struct tl_rowreader *r, int c)
{
	const struct tl_field *v = tl_rr_field(r, c);

	return v->has < 0 ? v->why : "";
}

/* Field c's number; dies when it breaks the rule. */
static const struct tl_field *
number(struct tl_rowreader *r, int c)
{
	const struct tl_field *v = tl_rr_field(r, c);

	if (v->has < 0)
		tl_die("%s: %s '%s' %s", tl_stream_where(r->in),
		    tl_cols[c].name, v->s, v->why);
	return v;
}

int
tl_rr_i64(struct tl_rowreader *r, int c, int64_t *v)
{
	const struct tl_field *f;

	assert(tl_cols[c].type == TL_CT_INT);
	if ((f = number(r, c))->has > 0)
		*v = f->i;
	return f->has > 0;
}

int
tl_rr_ns(struct tl_rowreader *r, int c, int64_t *ns)
{
	const struct tl_field *f;

	assert(tl_cols[c].type == TL_CT_US);
	if ((f = number(r, c))->has > 0)
		*ns = f->i;
	return f->has > 0;
}

double
tl_rr_num(struct tl_rowreader *r, int c)
{
	assert(tl_cols[c].type >= TL_CT_INT);
	return number(r, c)->d;
}

void
tl_outcols_init(struct tl_outcols *oc, const struct tl_stream *s,
    const short *owned, int nowned)
{
	int i, k, n = 0;

	oc->map = tl_calloc((size_t)(s->ncols + nowned) + 1, sizeof(int));
	oc->own = tl_calloc((size_t)(s->ncols + nowned) + 1, sizeof(int));
	for (i = 0; i < s->ncols; i++) {
		for (k = 0; k < nowned; k++)
			if (strcmp(s->cols[i], tl_cols[owned[k]].name) == 0)
				break;
		if (k < nowned)
			continue;
		oc->map[n] = i;
		oc->own[n++] = -1;
	}
	for (k = 0; k < nowned; k++) {
		oc->map[n] = -1;
		oc->own[n++] = k;
	}
	oc->n = n;
	oc->all = 1;
	for (k = 0; k < s->ncols; k++)
		if (k >= n || oc->map[k] != k)
			oc->all = 0;
}

void
tl_outcols_free(struct tl_outcols *oc)
{
	free(oc->map);
	free(oc->own);
	memset(oc, 0, sizeof(*oc));
}

void
tl_outcols_header(const struct tl_outcols *oc, const struct tl_stream *s,
    const short *owned, struct tl_writer *w)
{
	int k;

	for (k = 0; k < oc->n; k++)
		tl_w_str(w, oc->map[k] >= 0 ? s->cols[oc->map[k]] :
		    tl_cols[owned[oc->own[k]]].name);
	tl_w_eol(w);
}
