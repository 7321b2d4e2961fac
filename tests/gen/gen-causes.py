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
  h100-gemm-grid       mm 256x8192 @ 8192x256 on a kernel whose name has no
                       tile, its grid [4, 1, 1] blocks of 256 threads
                       (cudaLaunchKernel: the grid counts blocks): 4
                       workgroups for 132 SMs.
  mi300-gemm-grid      mm 7808x4096 @ 4096x640 launched by
                       hipExtModuleLaunchKernel with grid [78080, 1, 1]
                       and block [256, 1, 1]: that launch call records
                       work-items, so 78080 / 256 = 305 workgroups, 2 waves
                       on 304 CUs, the last 1 CU busy.
  h100-gemm-pad        mm 4097^3 at 53 % of its roofline beside mm 4096^3
                       at 80 %: N and K pad to 4160 (multiples of 64), timed
                       at the aligned GEMM's 80 %.
  h100-gemv            mm 1x4096 @ 4096x4096 (a GEMV) at 25 % of its
                       memory roofline.
  v100-fp32-gemm       an FP32 mm 4096^3 on sgemm: the advice is FP16
                       autocast, never BF16, TF32 or FP8.
  a100-fp32-gemm       the same on an A100: BF16 autocast and TF32.
  a100-tf32-gemm       the same on a TF32 kernel: no precision advice.

Convolutions (aten::convolution on an H100 in BF16, one defect each, at
8-25 % of the roofline max(FLOPs / 989.4 TFLOPS, bytes / 3.35 TB/s) with
FLOPs = 2 * prod(out) * prod(w[1:]) (prod(x) for a transposed one) and
bytes = 2 * (prod(x) + prod(w) + prod(out))); the seeds' expected range
of its kernel size (1x1 40-60 %, 3x3-class 50-70 %, 5x5 and larger
60-80 %, depthwise 30-50 %; memory-bound shapes 50-80 %) gives the
recoverable time at its low end:
  h100-conv-fewchan    3 input channels (7x7 stem): 6 bytes per position,
                       8 channels per 16 bytes, K = 3 * 49 = 147.
  h100-conv-weightbound  2048 -> 2048 channels, 3x3, on 4x4 positions,
                       batch 8: 128 output positions for 75.5 MB of
                       weights, 128 FLOPs per weight byte.
  h100-conv-dilated    3x3 with dilation 16: a 33-position span.
  h100-conv-asym       1x7 (Inception): 7 taps, K = 192 * 7.
  h100-conv-transposed ConvTranspose2d 3x3 stride 2: 1 or 2 taps a side.
  h100-conv-depthwise  384 groups of 1 channel, 3x3.
  h100-conv-strided    1x1 stride 2: reads 25 % of the input positions.
  h100-conv-nchw       a BF16 3x3 convolution with NCHW strides on an NCHW
                       kernel (an H100 has BF16 matrix units): channels
                       3136 elements apart; channels_last.
  v100-fp32-conv       an FP32 3x3 convolution on a V100: FP16 autocast.
Attention (H100, BF16; FLOPs = 4 * B * H_Q * N_Q * N_KV * d, bytes =
2 * (q + k + v + o), TraceLens' SDPA; a fused kernel is expected at
40-70 % from 1024 queries, 10-30 % below):
  h100-attn-mask       the memory-efficient op given a 4x1x2048x2048 BF16
                       mask (33.6 MB): flash cannot take it.
  h100-attn-backend    the memory-efficient op, no mask, BF16, d = 128.
  h100-attn-headdim    flash, d = 192 at 25 % beside d = 128 at 60 %: timed
                       at the d = 128 op's efficiency.
  h100-attn-short      flash, batch 1, 8 heads, 512 queries: 1 x 8 x 4 = 32
                       blocks of 128 queries for 132 SMs (24.2 % busy).
  h100-attn-kv-expand  grouped-query attention, 32 query heads on 8
                       key/value heads, whose keys and values are copied
                       to 32 heads first (HF's repeat_kv: aten::clone of an
                       expanded [2,8,4,2048,128] view, stride 0 along the
                       repeat, 150 us each), then flash at 60 % of its
                       roof: the two copies' 300 us are recoverable.
MoE (vllm::outplace_fused_experts, BF16, gated: FLOPs = 2 T H I k (g + 1)
+ T H (2k - 1), bytes = 2 (T H + E_act (g + 1) H I + T H) with E_act =
E (1 - ((E - k) / E)^T), TraceLens' FusedMoE):
  h100-moe-decode      8 tokens, top-6 of 64 experts, H 2048, I 1024:
                       0.75 tokens per expert, 34.9 experts reached, their
                       439 MB of weights 99.8 % of the bytes.
  h100-moe-prefill     8192 tokens, same layer: 768 rows per expert,
                       compute-bound at 31 % of the roofline (a dense GEMM
                       60-80 %).
Elementwise:
  h100-eltwise-chain   mul, add, tanh, sigmoid, mul on 4096x1024 BF16, one
                       kernel each: 13 tensor passes where one fused
                       kernel makes 3; the recoverable time is the chain's
                       time x 10 / 13.
  h100-conv-layout     NCHW input on NHWC kernels with a conversion
                       kernel each way: channels_last (the layout
                       pattern), the conversions' time recoverable.
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


def mm(t, ts, m, k, n, typ, kname, dur, call="cudaLaunchKernel",
       grid=None, block=None):
    e = t.op("aten::mm", ts, 20, [[m, k], [k, n]], [typ, typ],
             [[k, 1], [n, 1]])
    t.launch(e, call, ts + 5, 4, kname, ts + 10, dur)
    if grid is not None:
        t.ev[-2]["args"]["grid"] = grid
        t.ev[-2]["args"]["block"] = block
    return ts + 10 + dur + 10


CONV_K = ("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_"
          "tilesize128x128x64_warpgroupsize1x1x1_execute_kernel__5x_cudnn")


def prod(v):
    r = 1
    for x in v:
        r *= x
    return r


def conv_out(x, w, s, p, d, g, tr, op=0):
    """The output shape (PyTorch's Conv2d / ConvTranspose2d docs)."""
    if tr:
        return [x[0], w[1] * g] + [
            (x[2 + i] - 1) * s - 2 * p[i] + d * (w[2 + i] - 1) + op + 1
            for i in range(2)]
    return [x[0], w[0]] + [
        (x[2 + i] + 2 * p[i] - d * (w[2 + i] - 1) - 1) // s + 1
        for i in range(2)]


def cl_strides(v):
    n, c, h, w = v
    return [h * w * c, 1, w * c, c]


def nchw_strides(v):
    n, c, h, w = v
    return [c * h * w, h * w, w, 1]


def conv(t, ts, x, w, s, p, d, g, tr, typ, kname, dur, strides=None,
         op=0, extra=()):
    e = t.op("aten::convolution", ts, 20, [x, w, [], [], [], [], [], [], []],
             [typ, typ, "", "ScalarList", "ScalarList", "ScalarList",
              "Scalar", "ScalarList", "Scalar"],
             [(strides or cl_strides)(x), (strides or cl_strides)(w),
              [], [], [], [], [], [], []])
    t.ev[-1]["args"]["Concrete Inputs"] = [
        "", "", "", "[%d, %d]" % (s, s), "[%d, %d]" % tuple(p),
        "[%d, %d]" % (d, d), "True" if tr else "False",
        "[%d, %d]" % (op, op), str(g)]
    at, host = ts + 20, ts + 2
    for k, kd in list(extra) + [(kname, dur)]:
        t.launch(e, "cudaLaunchKernel", host, 2, k, at, kd)
        at += kd + 2
        host += 3
    return at + 10


FLASH_K = ("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, "
           "128, 64, 4, false, false, cutlass::bfloat16_t, "
           "Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, "
           "false, false, false, false, true, true, false, false>"
           "(pytorch_flash::Flash_fwd_params)")
MEMEFF_K = ("fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::"
            "AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, "
            "64, 128, 128, true, true>::Params)")


def attn(t, ts, q, kv, dur, mask=None, efficient=False):
    """An SDPA backend op: flash (q, k, v, dropout_p, is_causal,
    return_debug_mask, scale) or memory-efficient (q, k, v, attn_bias,
    compute_log_sumexp, dropout_p, is_causal, scale)."""
    def st(v):
        return [prod(v[i + 1:]) for i in range(len(v))]
    if efficient:
        name = "aten::_scaled_dot_product_efficient_attention"
        dims = [q, kv, kv, mask or [], [], [], [], []]
        types = [BF16] * 3 + [BF16 if mask else "", "Scalar", "Scalar",
                              "Scalar", ""]
        ci = ["", "", "", "", "False", "0.", "False", ""]
        kname = MEMEFF_K
    else:
        name = "aten::_scaled_dot_product_flash_attention"
        dims = [q, kv, kv, [], [], [], []]
        types = [BF16] * 3 + ["Scalar", "Scalar", "Scalar", ""]
        ci = ["", "", "", "0.", "False", "False", ""]
        kname = FLASH_K
    e = t.op(name, ts, 20, dims, types, [st(d) if d else [] for d in dims])
    t.ev[-1]["args"]["Concrete Inputs"] = ci
    t.launch(e, "cudaLaunchKernel", ts + 5, 4, kname, ts + 20, dur)
    return ts + 20 + dur + 10


def attn_roof_us(q, kv):
    b, h, n, d = q
    flops = 4 * b * h * n * kv[2] * d
    byts = 2 * (2 * prod(q) + 2 * prod(kv))
    return max(flops / 989.4e12, byts / 3.35e12) * 1e6


def moe_layer(t, ts, tok, hid, inter, e, k, dur):
    x, w1, w2, tw = [tok, hid], [e, 2 * inter, hid], [e, hid, inter], \
        [tok, k]
    ev = t.op("vllm::outplace_fused_experts", ts, 20, [x, w1, w2, tw, [tok, k]],
              [BF16, BF16, BF16, "float", "int"],
              [[hid, 1], [2 * inter * hid, hid, 1], [hid * inter, inter, 1],
               [k, 1], [k, 1]])
    t.launch(ev, "cudaLaunchKernel", ts + 5, 4, "fused_moe_kernel", ts + 20,
             dur)
    return ts + 20 + dur + 10


def moe_model(tok, hid, inter, e, k, g=2):
    act = e * (1 - ((e - k) / e) ** tok)
    flops = 2 * tok * hid * inter * k * (g + 1) + tok * hid * (2 * k - 1)
    w = round(act * (g + 1) * hid * inter * 2)
    byts = 2 * tok * hid * 2 + w
    return flops, byts, w, act


def conv_roof_us(x, w, out, tr, es=2, flops_peak=989.4e12, bw=3.35e12):
    flops = 2 * prod(x if tr else out) * prod(w[1:])
    byts = es * (prod(x) + prod(w) + prod(out))
    return max(flops / flops_peak, byts / bw) * 1e6, flops, byts


def waves(m, n, tile, cus):
    tiles = ceil_div(n, tile[0]) * ceil_div(m, tile[1])
    w = ceil_div(tiles, cus)
    return {"tiles": tiles, "compute_units": cus, "waves": w,
            "last_wave_busy_pct": (tiles - (w - 1) * cus) / cus * 100}


def h100_roof_us(m, n, k):
    flops = 2 * m * n * k
    byts = 2 * (m * k + k * n + m * n)
    return max(flops / 989.4e12, byts / 3.35e12) * 1e6


TITLES = {}


def open_title(cause):
    """The cause's title: share/tl/causes.tsv is the table tl reads; the
    test checks the report shows that row's title."""
    if not TITLES:
        with open(os.path.join(HERE, "..", "..", "share", "tl",
                               "causes.tsv"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                c = line.rstrip("\n").split("\t")
                TITLES[c[0]] = c[2]
    return TITLES[cause]


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

    for name, dev, hw, m, k, n, call, grid, dur, cause, cus, tiles in (
            ("h100-gemm-grid", None, "h100", 256, 8192, 256,
             "cudaLaunchKernel", [4, 1, 1], 100, "few_tiles", 132, 4),
            ("mi300-gemm-grid", MI300X, "mi300x", 7808, 4096, 640,
             "hipExtModuleLaunchKernel", [305 * 256, 1, 1], 200,
             "last_wave", 304, 305)):
        t = gp.Trace()
        mm(t, 0, m, k, n, BF16, "generic_gemm_kernel_bf16", dur, call, grid,
           [256, 1, 1])
        t.write(os.path.join(out, name + ".json"), dev)
        w = ceil_div(tiles, cus)
        cases[name] = {
            "hw": hw, "cause": cause,
            "title": "fewer output tiles than compute units"
            if cause == "few_tiles" else "last wave of tiles is mostly empty",
            "numbers": {"tiles": tiles, "compute_units": cus, "waves": w,
                        "last_wave_busy_pct": (tiles - (w - 1) * cus) / cus
                        * 100, "tiles_from_grid": True}}
        if name == "h100-gemm-grid":
            cases[name]["recoverable_ms"] = (dur - max(
                dur * tiles / cus, h100_roof_us(m, n, k))) / 1e3

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
    convs = (
        ("h100-conv-fewchan", [32, 3, 224, 224], [64, 3, 7, 7], 2, (3, 3),
         1, 1, False, 150, "conv_few_channels", (60, 80),
         lambda x, w, o: {"in_channels": 3, "channel_bytes": 6,
                          "pad_channels": 8, "reduce_k": 3 * 49}),
        ("h100-conv-weightbound", [8, 2048, 4, 4], [2048, 2048, 3, 3], 1,
         (1, 1), 1, 1, False, 100, "conv_weight_bound", (50, 80),
         lambda x, w, o: {"out_positions": 8 * 16, "out_channels": 2048,
                          "in_channels": 2048,
                          "weight_mb": prod(w) * 2 / 1e6,
                          "flops_per_weight_byte": 2 * 8 * 16 / 2,
                          "weight_pct": prod(w) * 100 /
                          (prod(x) + prod(w) + prod(o))}),
        ("h100-conv-dilated", [8, 256, 64, 64], [256, 256, 3, 3], 1,
         (16, 16), 16, 1, False, 300, "conv_dilated", (50, 70),
         lambda x, w, o: {"dilation": 16, "span": 2 * 16 + 1}),
        ("h100-conv-asym", [8, 192, 17, 17], [192, 192, 1, 7], 1, (0, 3),
         1, 1, False, 20, "conv_asymmetric", (60, 80),
         lambda x, w, o: {"taps": 7, "reduce_k": 192 * 7}),
        ("h100-conv-transposed", [8, 256, 32, 32], [256, 128, 3, 3], 2,
         (1, 1), 1, 1, True, 60, "conv_transposed", (50, 70),
         lambda x, w, o: {"stride": 2, "kernel_side": 3, "taps_lo": 1,
                          "taps_hi": 2}),
        ("h100-conv-depthwise", [32, 384, 56, 56], [384, 1, 3, 3], 1,
         (1, 1), 1, 384, False, 400, "conv_grouped", (30, 50),
         lambda x, w, o: {"groups": 384, "group_in": 1, "group_out": 1,
                          "taps": 9}),
        ("h100-conv-strided", [32, 256, 56, 56], [512, 256, 1, 1], 2,
         (0, 0), 1, 1, False, 200, "conv_strided", (40, 60),
         lambda x, w, o: {"stride": 2, "read_pct": 25.0}),
    )
    for (name, x, w, s_, p, d, g, tr, dur, cause, (lo, hi),
         nums) in convs:
        t = gp.Trace()
        o = conv_out(x, w, s_, p, d, g, tr, 1 if tr else 0)
        conv(t, 0, x, w, s_, p, d, g, tr, BF16, CONV_K, dur,
             op=1 if tr else 0)
        t.write(os.path.join(out, name + ".json"))
        roof, _, _ = conv_roof_us(x, w, o, tr)
        cases[name] = {
            "hw": "h100", "pattern": "kernel_cause", "cause": cause,
            "title": open_title(cause),
            "numbers": dict(nums(x, w, o), efficiency_pct=roof / dur * 100,
                            estimate=True),
            "recoverable_ms": (dur - roof / (lo / 100)) / 1e3,
            "recoverable_high_ms": (dur - roof / (hi / 100)) / 1e3}

    q = [4, 16, 2048, 128]
    for name, mask, cause, dur, nums in (
            ("h100-attn-mask", [4, 1, 2048, 2048], "attn_mask", 1000,
             {"mask_mb": 4 * 2048 * 2048 * 2 / 1e6, "mask_dims": "4x1x2048x2048",
              "backend": "memory-efficient"}),
            ("h100-attn-backend", None, "attn_backend", 800,
             {"backend": "memory-efficient", "dtype": "BF16"})):
        t = gp.Trace()
        attn(t, 0, q, q, dur, mask, efficient=True)
        t.write(os.path.join(out, name + ".json"))
        roof = attn_roof_us(q, q)
        cases[name] = {
            "hw": "h100", "pattern": "kernel_cause", "cause": cause,
            "title": open_title(cause),
            "numbers": dict(nums, head_dim=128, n_q=2048,
                            efficiency_pct=roof / dur * 100, estimate=True),
            "recoverable_ms": (dur - roof / 0.40) / 1e3,
            "recoverable_high_ms": (dur - roof / 0.70) / 1e3}

    t = gp.Trace()
    q192, ref_roof = [4, 16, 2048, 192], attn_roof_us(q, q)
    odd_roof = attn_roof_us(q192, q192)
    ts = attn(t, 0, q, q, round(ref_roof / 0.60, 3))
    attn(t, ts, q192, q192, round(odd_roof / 0.25, 3))
    t.write(os.path.join(out, "h100-attn-headdim.json"))
    ref_eff = ref_roof / round(ref_roof / 0.60, 3) * 100
    cases["h100-attn-headdim"] = {
        "hw": "h100", "pattern": "kernel_cause", "cause": "attn_head_dim",
        "title": open_title("attn_head_dim"),
        "numbers": {"head_dim": 192, "ref_head_dim": 128,
                    "ref_eff": ref_eff, "estimate": False,
                    "efficiency_pct": odd_roof / round(odd_roof / 0.25, 3)
                    * 100},
        "recoverable_ms": (round(odd_roof / 0.25, 3) -
                           odd_roof / (ref_eff / 100)) / 1e3}

    t = gp.Trace()
    qs = [1, 8, 512, 128]
    attn(t, 0, qs, qs, 40)
    t.write(os.path.join(out, "h100-attn-short.json"))
    blocks = 1 * 8 * ceil_div(512, 128)
    roof = attn_roof_us(qs, qs)
    cases["h100-attn-short"] = {
        "hw": "h100", "pattern": "kernel_cause", "cause": "attn_short_seq",
        "title": open_title("attn_short_seq"),
        "numbers": {"blocks": blocks, "cus": 132,
                    "busy_pct": blocks / 132 * 100, "block_q": 128,
                    "efficiency_pct": roof / 40 * 100},
        "recoverable_ms": (40 - max(40 * blocks / 132, roof)) / 1e3}

    t = gp.Trace()
    qg, src = [2, 32, 2048, 128], [2, 8, 4, 2048, 128]
    ts = 0
    for _ in range(2):	# keys, then values
        e = t.op("aten::clone", ts, 20, [src, []], [BF16, ""],
                 [[8 * 2048 * 128, 2048 * 128, 0, 128, 1], []])
        t.launch(e, "cudaLaunchKernel", ts + 5, 4, gp.ADD, ts + 20, 150)
        ts += 20 + 150 + 10
    roof = attn_roof_us(qg, qg)
    attn(t, ts, qg, qg, round(roof / 0.60, 3))
    t.write(os.path.join(out, "h100-attn-kv-expand.json"))
    cases["h100-attn-kv-expand"] = {
        "hw": "h100", "pattern": "kernel_cause", "cause": "attn_kv_expand",
        "title": open_title("attn_kv_expand"),
        "numbers": {"kv_heads": 8, "heads": 32, "n_rep": 4, "copies": 2,
                    "copy_mb": 2 * prod(src) * 2 / 1e6},
        "recoverable_ms": 2 * 150 / 1e3}

    for name, tok, dur, cause, (lo, hi) in (
            ("h100-moe-decode", 8, 400, "moe_weight_bound", (50, 80)),
            ("h100-moe-prefill", 8192, 2000, "moe_grouped_gemm", (60, 80))):
        t = gp.Trace()
        moe_layer(t, 0, tok, 2048, 1024, 64, 6, dur)
        t.write(os.path.join(out, name + ".json"))
        flops, byts, w, act = moe_model(tok, 2048, 1024, 64, 6)
        roof = max(flops / 989.4e12, byts / 3.35e12) * 1e6
        cases[name] = {
            "hw": "h100", "pattern": "kernel_cause", "cause": cause,
            "title": open_title(cause),
            "numbers": {"tokens": tok, "experts": 64, "topk": 6,
                        "tokens_per_expert": tok * 6 / 64,
                        "active_experts": act, "weight_mb": w / 1e6,
                        "weight_pct": w * 100 / byts,
                        "efficiency_pct": roof / dur * 100,
                        "estimate": True},
            "recoverable_ms": (dur - roof / (lo / 100)) / 1e3,
            "recoverable_high_ms": (dur - roof / (hi / 100)) / 1e3}

    t = gp.Trace()
    a, ts, n = [4096, 1024], 0, 4096 * 1024
    chain = (("aten::mul", [a, a], [BF16, BF16], 9),
             ("aten::add", [a, a, []], [BF16, BF16, "Scalar"], 9),
             ("aten::tanh", [a], [BF16], 6),
             ("aten::sigmoid", [a], [BF16], 6),
             ("aten::mul", [a, a], [BF16, BF16], 9))
    total, gpu = 0, 60
    for op, dims, types, dur in chain:
        # The host runs ahead: the kernels run back to back.
        e = t.op(op, ts, 8, dims, types,
                 [[1024, 1] if d else [] for d in dims])
        t.launch(e, "cudaLaunchKernel", ts + 2, 3, gp.ADD.replace(
            "CUDAFunctor_add", op.split("::")[1]), gpu, dur)
        ts += 10
        gpu += dur
        total += dur
    t.write(os.path.join(out, "h100-eltwise-chain.json"))
    cases["h100-eltwise-chain"] = {
        "hw": "h100", "pattern": "elementwise_chain", "cause": None,
        "title": "elementwise chain", "numbers": {"bytes": 13 * n * 2,
                                            "fused_bytes": 3 * n * 2},
        "recoverable_ms": total * 10 / 13 / 1e3}

    t = gp.Trace()
    x, w = [32, 256, 56, 56], [256, 256, 3, 3]
    conv(t, 0, x, w, 1, (1, 1), 1, 1, False, BF16,
         "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nchwkcrs_nchw_"
         "tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16_kernel",
         600, strides=nchw_strides)
    t.write(os.path.join(out, "h100-conv-nchw.json"))
    roof, _, _ = conv_roof_us(x, w, x, False)
    cases["h100-conv-nchw"] = {
        "hw": "h100", "pattern": "kernel_cause", "cause": "conv_nchw",
        "title": open_title("conv_nchw"),
        "numbers": {"dtype": "BF16", "in_strides": "(802816, 3136, 56, 1)",
                    "channel_stride": 3136, "efficiency_pct": roof / 6,
                    "estimate": True},
        "recoverable_ms": (600 - roof / 0.5) / 1e3,
        "recoverable_high_ms": (600 - roof / 0.7) / 1e3}

    t = gp.Trace()
    conv(t, 0, [32, 64, 56, 56], [64, 64, 3, 3], 1, (1, 1), 1, 1, False, F32,
         "volta_scudnn_128x64_relu_interior_nn_v1", 5000)
    t.write(os.path.join(out, "v100-fp32-conv.json"), V100)
    cases["v100-fp32-conv"] = {
        "hw": "v100", "cause": "fp32", "title": "FP32 GEMMs and convolutions",
        "advice_has": ["FP16", "GradScaler"],
        "advice_not": ["BF16", "TF32", "FP8"], "numbers": {}}

    t = gp.Trace()
    x, w = [32, 256, 56, 56], [256, 256, 3, 3]
    conv(t, 0, x, w, 1, (1, 1), 1, 1, False, BF16, CONV_K, 120,
         strides=nchw_strides,
         extra=(("void cudnn::ops::nchwToNhwcKernel<__nv_bfloat16, "
                 "__nv_bfloat16, float, false, true, (cudnnKernelDataType_t)"
                 "2>(cudnn::ops::nchw2nhwc_params_t<float>, "
                 "__nv_bfloat16 const*, __nv_bfloat16*)", 30),
                ("void cudnn::ops::nhwcToNchwKernel<__nv_bfloat16, "
                 "__nv_bfloat16, float, true, false, (cudnnKernelDataType_t)"
                 "2>(cudnn::ops::nhwc2nchw_params_t<float>, "
                 "__nv_bfloat16 const*, __nv_bfloat16*)", 30)))
    t.write(os.path.join(out, "h100-conv-layout.json"))
    cases["h100-conv-layout"] = {
        "hw": "h100", "pattern": "layout_conversion", "cause": None,
        "title": "channels_last", "numbers": {},
        "recoverable_ms": 60 / 1e3}

    for name, c in cases.items():
        with open(os.path.join(out, name + ".expect.json"), "w",
                  encoding="utf-8") as f:
            json.dump(c, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
