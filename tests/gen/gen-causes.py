#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""Write the planted-defect traces of tests/causes/: each holds one known
cause of a slow kernel, and beside it NAME.expect.json says, computed
here from the shapes, the kernel names and the GPU's public figures (not
by tl), which cause the first recommendation must name and its numbers.
tests/causes.py checks tl-findings against them.

usage: gen-causes.py [DIR]   (default: tests/causes beside this file)

The GPU figures (share/tl/gpus.tsv, with their sources there): MI300X 304
CUs; H100 SXM 132 SMs, BF16 dense 989.4 TFLOPS, 3.35 TB/s; A100 108 SMs;
V100 80 SMs, FP16 matrix units but no BF16 or TF32 ones.  GEMM libraries
are column-major, so a kernel tile MT<a>x<b> runs a along PyTorch's N and
b along M: tiles = B * ceil(N / a) * ceil(M / b).

  mi300-gemm-fewtiles  mm 256x8192 @ 8192x256 on an MT128x128 kernel:
                       4 tiles for 304 CUs, one wave 1.3 % busy.
  mi300-gemm-lastwave  mm 7808x4096 @ 4096x640 on MT128x128: 5 x 61 = 305
                       tiles, 2 waves, the last 1 of 304 CUs busy.
  h100-gemm-pad        mm 4097^3 at 53 % of its roofline beside mm 4096^3
                       at 80 %: N and K pad to 4160 (multiples of 64), timed
                       at the aligned GEMM's 80 %.
  h100-gemv            mm 1x4096 @ 4096x4096 (a GEMV) at 25 % of its
                       memory roofline.
  v100-fp32-gemm       an FP32 mm 4096^3 on sgemm: the advice is FP16
                       autocast, never BF16, TF32 or FP8.
  a100-fp32-gemm       the same on an A100: BF16 autocast and TF32.
  a100-tf32-gemm       the same on a TF32 kernel: no precision advice.
"""
import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "genpatterns", os.path.join(HERE, "gen-patterns.py"))
gp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gp)

MI300X = {"id": 0, "name": "AMD Instinct MI300X", "totalGlobalMem":
          206141652992, "computeMajor": 9, "computeMinor": 4,
          "numSms": 304}
V100 = {"id": 0, "name": "Tesla V100-SXM2-16GB", "totalGlobalMem":
        16945512448, "computeMajor": 7, "computeMinor": 0, "numSms": 80}
A100 = {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem":
        85899345920, "computeMajor": 8, "computeMinor": 0, "numSms": 108}
BF16, F32 = "c10::BFloat16", "float"
TENSILE = ("Cijk_Ailk_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_GRVWA8_ISA942_"
           "SK0_SVW4_TLDS1")
XMMA = gp.XMMA


def ceil_div(a, b):
    return -(-a // b)


def mm(t, ts, m, k, n, typ, kname, dur):
    e = t.op("aten::mm", ts, 20, [[m, k], [k, n]], [typ, typ],
             [[k, 1], [n, 1]])
    t.launch(e, "cudaLaunchKernel", ts + 5, 4, kname, ts + 10, dur)
    return ts + 10 + dur + 10


def waves(m, n, tile, cus):
    tiles = ceil_div(n, tile[0]) * ceil_div(m, tile[1])
    w = ceil_div(tiles, cus)
    return {"tiles": tiles, "compute_units": cus, "waves": w,
            "last_wave_busy_pct": (tiles - (w - 1) * cus) / cus * 100}


def h100_roof_us(m, n, k):
    flops = 2 * m * n * k
    byts = 2 * (m * k + k * n + m * n)
    return max(flops / 989.4e12, byts / 3.35e12) * 1e6


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, "..", "causes")
    os.makedirs(out, exist_ok=True)
    cases = {}

    for name, m, k, n, dur, cause, title in (
            ("mi300-gemm-fewtiles", 256, 8192, 256, 400, "few_tiles",
             "fewer output tiles than compute units"),
            ("mi300-gemm-lastwave", 7808, 4096, 640, 200, "last_wave",
             "last wave of tiles is mostly empty")):
        t = gp.Trace()
        mm(t, 0, m, k, n, BF16, TENSILE, dur)
        t.write(os.path.join(out, name + ".json"), MI300X)
        cases[name] = {
            "hw": "mi300x", "cause": cause, "title": title,
            "numbers": dict(waves(m, n, (128, 128), 304), m=m, n=n, k=k)}

    t = gp.Trace()
    ref = round(h100_roof_us(4096, 4096, 4096) / 0.80, 3)
    odd_roof = h100_roof_us(4097, 4097, 4097)
    odd = round(odd_roof / 0.53, 3)
    ts = mm(t, 0, 4096, 4096, 4096, BF16, XMMA, ref)
    mm(t, ts, 4097, 4097, 4097, BF16, XMMA, odd)
    t.write(os.path.join(out, "h100-gemm-pad.json"))
    ref_eff = h100_roof_us(4096, 4096, 4096) / ref * 100
    padded = 2 * 4097 * 4160 * 4160 / (2 * 4097 ** 3)
    save_ms = (odd - odd_roof * padded / (ref_eff / 100)) / 1e3
    cases["h100-gemm-pad"] = {
        "hw": "h100", "cause": "padding",
        "title": "not multiples of the alignment",
        "numbers": {"m": 4097, "n": 4097, "k": 4097, "padded_m": 4097,
                    "padded_n": 4160, "padded_k": 4160,
                    "reference_efficiency_pct": ref_eff,
                    "estimate": False},
        "reference_op": ["aten::mm", [[4096, 4096], [4096, 4096]]],
        "recoverable_ms": save_ms}

    t = gp.Trace()
    mm(t, 0, 1, 4096, 4096, BF16, XMMA, 40)
    t.write(os.path.join(out, "h100-gemv.json"))
    cases["h100-gemv"] = {
        "hw": "h100", "cause": "skinny", "title": "GEMV-shaped GEMM",
        "numbers": {"m": 1, "n": 4096, "k": 4096, "thin_dimension": 1}}

    for name, dev, hw, kern, must, never in (
            ("v100-fp32-gemm", V100, "v100", "volta_sgemm_128x64_nn",
             ["FP16", "GradScaler"], ["BF16", "TF32", "FP8"]),
            ("a100-fp32-gemm", A100, "a100", "ampere_sgemm_128x64_nn",
             ["BF16", "TF32"], ["FP8"]),
            ("a100-tf32-gemm", A100, "a100",
             "ampere_tf32_s1688gemm_tf32_128x128_32x3_nn", [], [])):
        t = gp.Trace()
        mm(t, 0, 4096, 4096, 4096, F32, kern, 12000)
        t.write(os.path.join(out, name + ".json"), dev)
        if name.startswith("a100-tf32"):
            cases[name] = {"hw": hw, "no_cause": "fp32"}
        else:
            cases[name] = {"hw": hw, "cause": "fp32",
                           "title": "FP32 GEMMs and convolutions",
                           "advice_has": must, "advice_not": never,
                           "numbers": {}}
    for name, c in cases.items():
        with open(os.path.join(out, name + ".expect.json"), "w",
                  encoding="utf-8") as f:
            json.dump(c, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
