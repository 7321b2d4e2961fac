#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""Write the hand-made traces of tests/patterns/ (what tests/findings.py
checks tl-findings' patterns on, where no shared trace has the pattern).

usage: gen-patterns.py [DIR]   (default: tests/patterns beside this file)

h100-host.json, one thread on an H100 (times in µs):
  - aten::to -> _to_copy -> copy_ copies 38.5 MB from pageable host memory
    (Memcpy HtoD (Pageable -> Device), [10, 3470]); no other GPU work
    overlaps it: 3460 µs exposed;
  - aten::mm [3700, 3720], its launch call at 3705, its kernel [3710, 4010]:
    a gap of 240 = 230 before the op began + 5 in it + 5 after the launch;
  - aten::item -> _local_scalar_dense copies device to host
    ([4025, 4027]) and the GPU idles until aten::add's kernel at 4806:
    779 µs after a synchronisation;
  - aten::addmm [5000, 7500] calls its launch at 7400, 2400 µs into the op;
    its kernel [7410, 7510]: a gap of 2599 = 189 before the op + 2400 in
    it + 10 after the launch;
  - aten::add [7600, 7610] launches at 7602 and its kernel starts only at
    9610 on an idle GPU: a gap of 2100 = 90 before the op + 2 in it + 100
    of launch latency + 1908 of a wait the trace does not record.
h100-gemm.json, an H100 (sm_90):
  - aten::bmm [[96,3137,64],[96,64,3137]] under aten::matmul on a kernel
    built for sm_75 with align1 (3137 is odd), 20 ms;
  - aten::mm [[8192,8192],[8192,8192]] under aten::linear on an sm_75
    kernel with full alignment, 5 ms;
  - aten::mm [[8192,8192],[8192,4096]] under aten::linear on a 64x64-tile
    kernel, 4 ms.
h100-attn-fused.json and h100-attn-unfused.json, a pair for tl-compare on
an H100 (the reference runs attention fused, the target does not):
  - both: aten::linear -> aten::addmm [[2304],[788,768],[768,2304]] on one
    GEMM kernel, 100 µs, then the attention of [96,197,64] Q, K and V
    (4 images x 24 heads, 197 tokens);
  - fused: aten::scaled_dot_product_attention ->
    aten::_scaled_dot_product_flash_attention [[4,24,197,64] x 3] on one
    flash kernel, 150 µs;
  - unfused: aten::matmul -> aten::bmm [[96,197,64],[96,64,197]] (QK^T,
    300 µs), aten::softmax -> aten::_softmax [[96,197,197]] (400 µs),
    aten::matmul -> aten::bmm [[96,197,197],[96,197,64]] (AV, 300 µs).
"""
import json
import os
import sys

H100 = {"id": 0, "name": "NVIDIA H100 80GB HBM3",
        "totalGlobalMem": 85018279936, "computeMajor": 9,
        "computeMinor": 0, "numSms": 132}
PID, TID, GPU, STREAM = 100, 100, 0, 7


class Trace:
    def __init__(self):
        self.ev = [
            {"name": "process_name", "ph": "M", "ts": 0, "pid": PID,
             "tid": 0, "args": {"name": "python3"}},
            {"name": "process_labels", "ph": "M", "ts": 0, "pid": GPU,
             "tid": 0, "args": {"labels": "GPU 0"}},
        ]
        self.ext = 0
        self.corr = 0

    def op(self, name, ts, dur, dims=None, types=None, strides=None):
        self.ext += 1
        args = {"External id": self.ext, "Record function id": 0}
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = types
            args["Input Strides"] = strides or [[] for _ in dims]
            args["Concrete Inputs"] = ["" for _ in dims]
        self.ev.append({"ph": "X", "cat": "cpu_op", "name": name,
                        "pid": PID, "tid": TID, "ts": ts, "dur": dur,
                        "args": args})
        return self.ext

    def launch(self, ext, call, ts, dur, kname, kts, kdur, cat="kernel"):
        self.corr += 1
        c = self.corr
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": call,
                        "pid": PID, "tid": TID, "ts": ts, "dur": dur,
                        "args": {"External id": ext, "correlation": c}})
        self.ev.append({"ph": "s", "id": c, "pid": PID, "tid": TID,
                        "ts": ts, "cat": "ac2g", "name": "ac2g"})
        self.ev.append({"ph": "X", "cat": cat, "name": kname, "pid": GPU,
                        "tid": STREAM, "ts": kts, "dur": kdur,
                        "args": {"External id": ext, "device": GPU,
                                 "stream": STREAM, "correlation": c}})
        self.ev.append({"ph": "f", "id": c, "pid": GPU, "tid": STREAM,
                        "ts": kts, "cat": "ac2g", "name": "ac2g",
                        "bp": "e"})

    def write(self, path, dev=None):
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"schemaVersion": 1,
                       "deviceProperties": [dev or H100],
                       "traceEvents": self.ev}, f, indent=0)
            f.write("\n")


BF16 = "c10::BFloat16"
ADD = ("void at::native::vectorized_elementwise_kernel<4, "
       "at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >"
       "(int, at::native::CUDAFunctor_add<c10::BFloat16>, "
       "std::array<char*, 3ul>)")
XMMA = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
        "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas")


def host(path):
    t = Trace()
    t.op("aten::to", 0, 3600, [[9625, 1000], [], [], [], []],
         ["float", "ScalarType", "", "", ""])
    t.op("aten::_to_copy", 1, 3598, [[9625, 1000], [], [], [], []],
         ["float", "ScalarType", "", "", ""])
    e = t.op("aten::copy_", 2, 3596, [[9625, 1000], [9625, 1000], []],
             ["float", "float", "Scalar"], [[1000, 1], [1000, 1], []])
    t.launch(e, "cudaMemcpyAsync", 3, 3590,
             "Memcpy HtoD (Pageable -> Device)", 10, 3460, "gpu_memcpy")
    e = t.op("aten::mm", 3700, 20, [[4096, 4096], [4096, 4096]],
             [BF16, BF16], [[4096, 1], [4096, 1]])
    t.launch(e, "cudaLaunchKernel", 3705, 4, XMMA, 3710, 300)
    t.op("aten::item", 4020, 600, [[]], [BF16])
    e = t.op("aten::_local_scalar_dense", 4021, 598, [[]], [BF16])
    t.launch(e, "cudaMemcpyAsync", 4022, 5,
             "Memcpy DtoH (Device -> Pageable)", 4025, 2, "gpu_memcpy")
    e = t.op("aten::add", 4800, 10, [[4096, 4096], [4096, 4096], []],
             [BF16, BF16, "Scalar"], [[4096, 1], [4096, 1], []])
    t.launch(e, "cudaLaunchKernel", 4802, 3, ADD, 4806, 5)
    e = t.op("aten::addmm", 5000, 2500,
             [[4096], [512, 4096], [4096, 4096], [], []],
             [BF16, BF16, BF16, "Scalar", "Scalar"],
             [[1], [4096, 1], [1, 4096], [], []])
    t.launch(e, "cudaLaunchKernel", 7400, 4, XMMA, 7410, 100)
    e = t.op("aten::add", 7600, 10, [[4096, 4096], [4096, 4096], []],
             [BF16, BF16, "Scalar"], [[4096, 1], [4096, 1], []])
    t.launch(e, "cudaLaunchKernel", 7602, 3, ADD, 9610, 5)
    t.write(path)


def gemm(path):
    t = Trace()
    t.op("aten::matmul", 0, 60, [[96, 3137, 64], [96, 64, 3137]],
         [BF16, BF16], [[200768, 64, 1], [200768, 3137, 1]])
    e = t.op("aten::bmm", 1, 50, [[96, 3137, 64], [96, 64, 3137]],
             [BF16, BF16], [[200768, 64, 1], [200768, 3137, 1]])
    k = "cutlass_75_tensorop_bf16_s1688gemm_bf16_64x64_32x2_nn_align1"
    t.launch(e, "cudaLaunchKernel", 10, 5,
             "void cutlass::Kernel<%s>(%s::Params)" % (k, k), 20, 20000)
    t.op("aten::linear", 20100, 60, [[8192, 8192], [8192, 8192], []],
         [BF16, BF16, ""], [[8192, 1], [8192, 1], []])
    e = t.op("aten::mm", 20101, 50, [[8192, 8192], [8192, 8192]],
             [BF16, BF16], [[8192, 1], [1, 8192]])
    k = "cutlass_75_tensorop_bf16_s1688gemm_bf16_256x128_32x3_tn_align8"
    t.launch(e, "cudaLaunchKernel", 20110, 5,
             "void cutlass::Kernel<%s>(%s::Params)" % (k, k), 20120, 5000)
    t.op("aten::linear", 25200, 60, [[8192, 8192], [4096, 8192], []],
         [BF16, BF16, ""], [[8192, 1], [8192, 1], []])
    e = t.op("aten::mm", 25201, 50, [[8192, 8192], [8192, 4096]],
             [BF16, BF16], [[8192, 1], [1, 8192]])
    t.launch(e, "cudaLaunchKernel", 25210, 5,
             "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_"
             "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
             25220, 4000)
    t.write(path)


SOFTMAX = ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, "
           "c10::BFloat16, float, c10::BFloat16, "
           "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>"
           "(c10::BFloat16*, c10::BFloat16 const*, int)")
FLASH = ("void pytorch_flash::flash_fwd_kernel<pytorch_flash::"
         "Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
         "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, "
         "128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, "
         "true, false, false>(pytorch_flash::Flash_fwd_params)")


def qkv_linear(t):
    """The QKV projection both sides share: [0, 200]."""
    t.op("aten::linear", 0, 60, [[4, 197, 768], [2304, 768], [2304]],
         [BF16, BF16, BF16], [[151296, 768, 1], [768, 1], [1]])
    e = t.op("aten::addmm", 1, 50, [[2304], [788, 768], [768, 2304], [], []],
             [BF16, BF16, BF16, "Scalar", "Scalar"],
             [[1], [768, 1], [1, 768], [], []])
    t.launch(e, "cudaLaunchKernel", 10, 5, XMMA, 20, 100)


def attn_fused(path):
    t = Trace()
    qkv_linear(t)
    d = [[4, 24, 197, 64], [4, 24, 197, 64], [4, 24, 197, 64]]
    st = [[907776, 64, 4608, 1]] * 3
    t.op("aten::scaled_dot_product_attention", 200, 60,
         d + [[], [], []], [BF16, BF16, BF16, "", "Scalar", "Scalar"],
         st + [[], [], []])
    e = t.op("aten::_scaled_dot_product_flash_attention", 201, 50,
             d + [[], [], [], []], [BF16, BF16, BF16, "Scalar", "Scalar",
                                    "Scalar", ""], st + [[], [], [], []])
    t.launch(e, "cudaLaunchKernel", 210, 5, FLASH, 220, 150)
    t.write(path)


def attn_unfused(path):
    t = Trace()
    qkv_linear(t)
    q, kt = [96, 197, 64], [96, 64, 197]
    s, v = [96, 197, 197], [96, 197, 64]
    t.op("aten::matmul", 200, 60, [q, kt], [BF16, BF16],
         [[12608, 64, 1], [12608, 1, 64]])
    e = t.op("aten::bmm", 201, 50, [q, kt], [BF16, BF16],
             [[12608, 64, 1], [12608, 1, 64]])
    t.launch(e, "cudaLaunchKernel", 210, 5, XMMA, 220, 300)
    t.op("aten::softmax", 300, 60, [s, [], []], [BF16, "Scalar", ""],
         [[38809, 197, 1], [], []])
    e = t.op("aten::_softmax", 301, 50, [s, [], []], [BF16, "Scalar",
                                                       "Scalar"],
             [[38809, 197, 1], [], []])
    t.launch(e, "cudaLaunchKernel", 310, 5, SOFTMAX, 530, 400)
    t.op("aten::matmul", 400, 60, [s, v], [BF16, BF16],
         [[38809, 197, 1], [12608, 64, 1]])
    e = t.op("aten::bmm", 401, 50, [s, v], [BF16, BF16],
             [[38809, 197, 1], [12608, 64, 1]])
    t.launch(e, "cudaLaunchKernel", 410, 5, XMMA, 940, 300)
    t.write(path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "patterns")
    os.makedirs(out, exist_ok=True)
    host(os.path.join(out, "h100-host.json"))
    gemm(os.path.join(out, "h100-gemm.json"))
    attn_fused(os.path.join(out, "h100-attn-fused.json"))
    attn_unfused(os.path.join(out, "h100-attn-unfused.json"))


if __name__ == "__main__":
    main()
