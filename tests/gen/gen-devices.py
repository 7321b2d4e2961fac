#!/usr/bin/env python3
"""Small Kineto traces for GPU identification and device kinds (issue 30).

usage: gen-devices.py DIR

Writes into DIR one trace per case, each an aten::mm (fp32, 1024^3) with one
kernel, 1000 us, unless said otherwise:
  v100-dgxs.json      deviceProperties "Tesla V100-DGXS-32GB" (sm_70, 80 SMs,
                      32 GB), kernel volta_sgemm_128x64_nn
  rtx2080ti.json      "NVIDIA GeForce RTX 2080 Ti" (sm_75, 68 SMs, 11 GB),
                      kernel turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn
  unknown-3090.json   a name no table row has ("NVIDIA GeForce RTX 3090 OC")
                      with the figures of the RTX 3090 only (sm_86, 82 SMs,
                      24 GB): identified by its figures
  unknown-a6000.json  "NVIDIA RTX A6000 Custom", sm_86, 84 SMs, 48 GB: the
                      A40 and the RTX A6000 both have these figures
  nodp-volta.json     no deviceProperties; kernels volta_sgemm_128x64_nn
                      and sm70_xmma_gemm_f32f32 (sm_70), so "sm_70 (Volta)"
  nodp-ampere.json    no deviceProperties; kernels volta_sgemm_* and
                      ampere_sgemm_* and sm80_xmma_*: the GPU runs sm_80 code
  nodp-mi300.json     no deviceProperties; a hipBLASLt kernel name with
                      ISA942
  mtia.json           cpu_op events and 3 mtia_ccp_events device events, no
                      GPU event (the MTIA accelerator's)
  mtia-gpu.json       the aten::mm with its kernel and 2 mtia_insight events
Deterministic; Python 3's standard library only.
"""
import json
import os
import sys

GIB = 1 << 30


def devprops(name, major, minor, sms, mem):
    return [{"id": 0, "name": name, "totalGlobalMem": mem,
             "computeMajor": major, "computeMinor": minor,
             "maxThreadsPerBlock": 1024, "warpSize": 32, "numSms": sms,
             "regsPerMultiprocessor": 65536,
             "sharedMemPerBlockOptin": 65536}]


def mm(kernels, ext=1, t0=0):
    """aten::mm on the host, one launch per kernel, kernels 1000 us each."""
    ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100,
           "tid": 100, "ts": t0, "dur": 20 + 10 * len(kernels),
           "args": {"External id": ext,
                    "Input Dims": [[1024, 1024], [1024, 1024]],
                    "Input type": ["float", "float"],
                    "Input Strides": [[1024, 1], [1024, 1]],
                    "Concrete Inputs": ["", ""]}}]
    for i, k in enumerate(kernels):
        corr = ext * 10 + i
        ts = t0 + 2 + 10 * i
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
                   "ts": ts, "dur": 3,
                   "args": {"External id": ext, "correlation": corr}})
        ev.append({"ph": "s", "id": corr, "pid": 100, "tid": 100, "ts": ts,
                   "cat": "ac2g", "name": "ac2g"})
        kts = t0 + 50 + 1020 * i
        ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0,
                   "tid": 7, "ts": kts, "dur": 1000,
                   "args": {"External id": ext, "stream": 7,
                            "correlation": corr}})
        ev.append({"ph": "f", "id": corr, "pid": 0, "tid": 7, "ts": kts,
                   "cat": "ac2g", "name": "ac2g", "bp": "e"})
    return ev


def device(cat, n, t0=1000):
    return [{"ph": "X", "cat": cat, "name": "%s_event_%d" % (cat, i),
             "pid": 5, "tid": 1, "ts": t0 + 10 * i, "dur": 5,
             "args": {}} for i in range(n)]


def trace(events, dp=None):
    d = {"schemaVersion": 1}
    if dp is not None:
        d["deviceProperties"] = dp
    d["traceEvents"] = events
    return d


CASES = {
    "v100-dgxs.json": trace(mm(["volta_sgemm_128x64_nn"]),
                            devprops("Tesla V100-DGXS-32GB", 7, 0, 80,
                                     34087305216)),
    "rtx2080ti.json": trace(
        mm(["turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn"]),
        devprops("NVIDIA GeForce RTX 2080 Ti", 7, 5, 68, 11554717696)),
    "unknown-3090.json": trace(mm(["ampere_sgemm_128x64_nn"]),
                               devprops("NVIDIA GeForce RTX 3090 OC", 8, 6,
                                        82, 25447170048)),
    "unknown-a6000.json": trace(mm(["ampere_sgemm_128x64_nn"]),
                                devprops("NVIDIA RTX A6000 Custom", 8, 6, 84,
                                         51041271808)),
    "nodp-volta.json": trace(mm(["volta_sgemm_128x64_nn",
                                 "sm70_xmma_gemm_f32f32_f32f32_f32_nn_n"])),
    "nodp-ampere.json": trace(mm(["volta_sgemm_128x64_nn",
                                  "ampere_sgemm_32x32_sliced1x4_tn",
                                  "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n"])),
    "nodp-mi300.json": trace(mm([
        "Cijk_Alik_Bljk_S_B_MT128x128x16_MI32x32x2x1_SN_1LDSB0_GRVW4_ISA942"
        "_K1_LBSPP128_MIAV0_MIWT2_2_NLCA1_NLCB1_ONLL1_PGR2_PLR1_SU32"])),
    "mtia.json": trace(mm([])[:1] + device("mtia_ccp_events", 3)),
    "mtia-gpu.json": trace(mm(["volta_sgemm_128x64_nn"]) +
                           device("mtia_insight", 2),
                           devprops("Tesla V100-SXM2-16GB", 7, 0, 80,
                                    16945512448)),
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, d in sorted(CASES.items()):
        with open(os.path.join(out, name), "w") as f:
            json.dump(d, f, indent=None, sort_keys=False)
            f.write("\n")


if __name__ == "__main__":
    main()
