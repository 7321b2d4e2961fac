/* See LICENSE file for copyright and license details. */
/*
 * The collective types names say (lib/trace/collective.c): PyTorch's
 * collective names as record_param_comms writes them, NCCL's and RCCL's
 * kernel names (old ncclKernel_* and new ncclDevKernel_* spellings),
 * PyTorch's symmetric-memory kernels; ncclDevKernel_Generic says none.
 * And the c10::ScalarType element sizes of the dtype argument.
 */
#include <stdio.h>
#include <string.h>

#include "trace/collective.h"
#include "unit.h"

static void
type(const char *name, const char *want)
{
	const char *got = tl_coll_type(name);

	if (want == NULL) {
		CHECK(got == NULL);
		if (got != NULL)
			printf("  %s: %s\n", name, got);
	} else
		CHECK_STR(got != NULL ? got : "(null)", want);
}

int
main(void)
{
	type("allreduce", "all_reduce");
	type("allreduce_coalesced", "all_reduce");
	type("_allgather_base", "all_gather");
	type("all_gather_into_tensor_coalesced", "all_gather");
	type("_reduce_scatter_base", "reduce_scatter");
	type("reduce_scatter_tensor_coalesced", "reduce_scatter");
	type("all_to_all", "all_to_all");
	type("alltoall_base", "all_to_all");
	type("broadcast", "broadcast");
	type("_reduce_oop", "reduce");
	type("gather", "gather");
	type("scatter", "scatter");
	type("send", "send");
	type("recv", "recv");
	type("barrier", "barrier");
	type("ncclKernel_AllReduce_RING_LL_Sum_float", "all_reduce");
	type("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
	    "all_gather");
	type("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL", "reduce_scatter");
	type("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
	    "send_recv");
	type("ncclKernel_Broadcast_RING_LL_Sum_int8_t", "broadcast");
	type("void c10d::symmetric_memory::multimem_all_reduce_kernel<"
	    "__nv_bfloat16, 16, 4>(...)", "all_reduce");
	type("two_shot_all_reduce_kernel", "all_reduce");
	type("multimem_all_gather_kernel", "all_gather");
	type("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", NULL);
	type("ncclDevKernel_Generic_4", NULL);
	type("", NULL);
	CHECK(tl_coll_dtype_bytes("BFloat16") == 2);
	CHECK(tl_coll_dtype_bytes("Float") == 4);
	CHECK(tl_coll_dtype_bytes("Long") == 8);
	CHECK(tl_coll_dtype_bytes("Float8_e4m3fn") == 1);
	CHECK(tl_coll_dtype_bytes("c10::BFloat16") == 0);
	CHECK(tl_coll_dtype_bytes("") == 0);
	return unit_done("test_collective");
}
