#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""Write the planted comparison pairs of tests/cmppairs/ (issue 31): two
small traces each, REF.json and TARGET.json, one difference planted
between them, and NAME.expect.json: the match value of each op of the
tl-compare stream, the faster side, the first recommendation of
`tl-findings --ref R --target T` (its title's words, its impact) and the
words it must not say, all worked out here from the planted times and
shapes, without tl.

usage: gen-cmppairs.py [DIR]   (default: tests/cmppairs beside this file)

Times are kernel times in µs, one kernel per op, one after the other on
one stream; both sides of a pair run on the same GPU, so the hardware
predicts a time ratio of 1 for every matched op.

  attn        the reference runs attention unfused: bmm [32,1024,128] x
              [32,128,1024] (600), _softmax [32,1024,1024] (400), bmm
              [32,1024,1024] x [32,1024,128] (600): 1600 µs; the target
              runs _scaled_dot_product_flash_attention on [2,16,1024,128]
              (400).  N = 2 x 16 = 32 heads of S = T = 1024, D = 128.
              Faster: the target.  It must never be told to adopt the
              reference's ops: no recommendation; the reference may be
              inefficient there (1600 - 400 = 1200 µs).
  attn-rev    the same two traces, roles swapped: the target runs
              attention unfused, first recommendation, impact 1200 µs.
  product     the reference runs aten::mm [[2048,4096],[4096,4096]] (200),
              the target aten::linear -> aten::addmm [[4096],[2048,4096],
              [4096,4096]] (500): one product, M 2048, N 4096, K 4096;
              ratio 2.5 against 1 predicted, above twice: a likely kernel
              problem, unexplained 500 - 200 = 300 µs.
  fallback    an MI300X both sides: aten::mm [[4096,4096],[4096,4096]] on a
              tuned kernel (300) against a `_fallback` kernel (900): the
              first recommendation names the fallback kernel; 600 µs.
  fallback-same  the same kernels at the same time (300 both): every Δ is 0
              but the kernels differ: not "the same op for op", the
              fallback kernel named in the key findings, no
              recommendation.
  copy        aten::copy_ of 38.5 MB host to device, pinned on the
              reference (1000, Memcpy HtoD (Pinned -> Device)), pageable
              on the target (3000), then the same aten::mm (300 both):
              the first recommendation is about copies (pinned against
              pageable), no kernel problem; its 2000 µs are not counted a
              second time as exposed copies.
  norm        Qwen2RMSNorm of [2048,4096]: the reference runs
              aten::_fused_rms_norm (120), the target the six ops of the
              module's forward: pow 60, mean 50, add 5, rsqrt 5, mul 60,
              mul 60 = 240 µs; matched as a group by the module's class
              (the rows ref_group and target_group): unfused RMSNorm on the
              target, 240 - 120 = 120 µs.
  norm-rev    the same, roles swapped: the target faster, no
              recommendation, the reference may be inefficient (120 µs).
  moe         an MoE block of 8 experts, 256 tokens, top 2: the reference
              runs one up GEMM [64,2048] x [2048,2816] (60) and one down GEMM
              [64,1408] x [1408,2048] (40) per expert, 800 µs; the target
              one vllm::outplace_fused_experts (300): the target faster, no
              recommendation, the reference may be inefficient (500 µs).
  moe-rev     the same, roles swapped: unfused MoE on the target, 500 µs.
  conv-algo   an H100 both sides: the same BF16 3x3 convolution
              aten::convolution [[32,256,56,56],[256,256,3,3]], stride 1,
              padding 1, channels_last, on an implicit-GEMM kernel (300)
              against another algorithm's kernel (900) on the target: the
              first recommendation names another convolution algorithm,
              both kernels and benchmark mode; 600 µs; never "the same op
              for op".
  concrete    aten::add [[4096,4096],[4096,4096],[]] (100 both), its
              concrete inputs recorded on the target only: one matched
              row, nothing one-sided, no recommendation.
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    """A generator beside this one, as a module (its Trace, its GPUs)."""
    spec = importlib.util.spec_from_file_location(name,
                                                  os.path.join(HERE, file))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


gp = load("genpatterns", "gen-patterns.py")
MI300X = load("gencauses", "gen-causes.py").MI300X
BF16 = gp.BF16
XMMA = gp.XMMA
SOFTMAX = gp.SOFTMAX
FLASH = gp.FLASH.replace("<64, 128, 128, 4,", "<128, 128, 64, 4,")
TUNED = ("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_"
         "MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_"
         "EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA128_"
         "LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW16_LWPMn1_MIAV1_MIWT4_4_MO40_"
         "NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_"
         "PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_"
         "UIOFGRO0_USFGROn1_VSn1_VWA4_VWB4_WSGRA0_WSGRB0_WS64_WG64_4_1_WGM8")
FALLBACK = "Cijk_Alik_Bljk_BBS_BH_MT64x64x16_SN_fallback"
PINNED = "Memcpy HtoD (Pinned -> Device)"
PAGEABLE = "Memcpy HtoD (Pageable -> Device)"


class Side(gp.Trace):
    """A trace whose ops run one after the other: each op's kernel starts
    10 µs after the previous one ends."""

    def __init__(self):
        super().__init__()
        self.t = 0
        self.gpu = 20

    def run(self, name, dims, types, strides, kname, dur, parent=None,
            cat="kernel"):
        if parent is not None:
            self.op(parent[0], self.t, 60, parent[1], parent[2], parent[3])
        e = self.op(name, self.t + 1, 50, dims, types, strides)
        call = "cudaMemcpyAsync" if cat == "gpu_memcpy" else \
            "cudaLaunchKernel"
        self.launch(e, call, self.t + 10, 5, kname, self.gpu, dur, cat)
        self.gpu += dur + 10
        self.t = max(self.t + 100, self.gpu)
        return e


    def module(self, cls, body, n=0):
        """Run body's ops inside nn.Module cls (instance n): a
        python_function frame around them, as the profiler records with
        with_stack."""
        start = self.t - 0.5
        body()
        self.ev.append({"ph": "X", "cat": "python_function",
                        "name": "nn.Module: %s_%d" % (cls, n),
                        "pid": gp.PID,
                        "tid": gp.TID, "ts": start,
                        "dur": self.t - 1 - start,
                        "args": {"Python id": len(self.ev) + 1,
                                 "Python parent id": 0,
                                 "Python module id": 0}})


def eltwise(t, name, dims, dur):
    t.run(name, dims, [BF16] * len(dims), [[] for _ in dims], gp.ADD, dur)


def norm(fused):
    """Qwen2RMSNorm of [2048, 4096]: one fused op, or the six ops of its
    Python forward (pow, mean, add, rsqrt, mul, mul)."""
    t = Side()
    x, w, r = [2048, 4096], [4096], [2048, 1]
    if fused:
        t.module("Qwen2RMSNorm", lambda: t.run(
            "aten::_fused_rms_norm", [x, [], w, []],
            [BF16, "ScalarList", BF16, "Scalar"], [[4096, 1], [], [1], []],
            "void at::native::rms_norm_kernel<c10::BFloat16>()", 120,
            ("aten::rms_norm", [x, [], w, []],
             [BF16, "ScalarList", BF16, "Scalar"], None)))
        return t

    def body():
        eltwise(t, "aten::pow", [x, []], 60)
        eltwise(t, "aten::mean", [x, [], [], []], 50)
        eltwise(t, "aten::add", [r, []], 5)
        eltwise(t, "aten::rsqrt", [r], 5)
        eltwise(t, "aten::mul", [x, r], 60)
        eltwise(t, "aten::mul", [w, x], 60)
    # Another instance of the class than the fused side's: classes match.
    t.module("Qwen2RMSNorm", body, 1)
    return t


def moe(fused):
    """An MoE block of 8 experts on 256 tokens (top-2, hidden 2048, expert
    width 1408): one fused MoE op, or one up and one down GEMM per expert
    of 64 tokens each (256 x 2 / 8)."""
    t = Side()
    if fused:
        t.module("Qwen2MoeSparseMoeBlock", lambda: t.run(
            "vllm::outplace_fused_experts",
            [[256, 2048], [8, 2816, 2048], [8, 2048, 1408], [256, 2],
             [256, 2]], [BF16, BF16, BF16, "float", "int"],
            None, "fused_moe_kernel", 300))
        return t

    def body():
        for _ in range(8):
            t.run("aten::mm", [[64, 2048], [2048, 2816]], [BF16, BF16],
                  [[2048, 1], [1, 2048]], XMMA, 60)
            t.run("aten::mm", [[64, 1408], [1408, 2048]], [BF16, BF16],
                  [[1408, 1], [1, 1408]], XMMA, 40)
    t.module("Qwen2MoeSparseMoeBlock", body)
    return t


def attention(fused):
    t = Side()
    if fused:
        d = [[2, 16, 1024, 128]] * 3
        st = [[2097152, 131072, 128, 1]] * 3
        t.run("aten::_scaled_dot_product_flash_attention",
              d + [[], [], [], []],
              [BF16, BF16, BF16, "Scalar", "Scalar", "Scalar", ""],
              st + [[], [], [], []], FLASH, 400,
              ("aten::scaled_dot_product_attention", d + [[], [], []],
               [BF16, BF16, BF16, "", "Scalar", "Scalar"],
               st + [[], [], []]))
        return t
    q, kt = [32, 1024, 128], [32, 128, 1024]
    s, v = [32, 1024, 1024], [32, 1024, 128]
    t.run("aten::bmm", [q, kt], [BF16, BF16],
          [[131072, 128, 1], [131072, 1, 128]], XMMA, 600,
          ("aten::matmul", [q, kt], [BF16, BF16],
           [[131072, 128, 1], [131072, 1, 128]]))
    t.run("aten::_softmax", [s, [], []], [BF16, "Scalar", "Scalar"],
          [[1048576, 1024, 1], [], []], SOFTMAX, 400,
          ("aten::softmax", [s, [], []], [BF16, "Scalar", ""],
           [[1048576, 1024, 1], [], []]))
    t.run("aten::bmm", [s, v], [BF16, BF16],
          [[1048576, 1024, 1], [131072, 128, 1]], XMMA, 600,
          ("aten::matmul", [s, v], [BF16, BF16],
           [[1048576, 1024, 1], [131072, 128, 1]]))
    return t


def mm(t, kname, dur, m=4096):
    t.run("aten::mm", [[m, 4096], [4096, 4096]], [BF16, BF16],
          [[4096, 1], [4096, 1]], kname, dur)


def product(addmm):
    t = Side()
    if not addmm:
        mm(t, XMMA, 200, 2048)
        return t
    t.run("aten::addmm", [[4096], [2048, 4096], [4096, 4096], [], []],
          [BF16, BF16, BF16, "Scalar", "Scalar"],
          [[1], [4096, 1], [1, 4096], [], []], XMMA, 500,
          ("aten::linear", [[2048, 4096], [4096, 4096], [4096]],
           [BF16, BF16, BF16], [[4096, 1], [4096, 1], [1]]))
    return t


def copy(kname, dur):
    t = Side()
    dims = [[9625, 1000], [9625, 1000], []]
    t.run("aten::copy_", dims, ["float", "float", "Scalar"],
          [[1000, 1], [1000, 1], []], kname, dur,
          ("aten::_to_copy", [[9625, 1000], [], [], [], []],
           ["float", "ScalarType", "", "", ""], None), "gpu_memcpy")
    mm(t, XMMA, 300)
    return t


def concrete(recorded):
    t = Side()
    e = t.run("aten::add", [[4096, 4096], [4096, 4096], []],
              [BF16, BF16, "Scalar"], [[4096, 1], [4096, 1], []],
              gp.ADD, 100)
    for ev in t.ev:
        if ev.get("cat") == "cpu_op" and ev["args"]["External id"] == e:
            if recorded:
                ev["args"]["Concrete Inputs"] = ["", "", "1"]
            else:
                del ev["args"]["Concrete Inputs"]
    return t


CONV_IGEMM = ("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_"
              "nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_"
              "kernel__5x_cudnn")
CONV_OTHER = ("sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_bf16bf16_"
              "bf16f32_f32_nhwckrsc_nhwc_tilesize128x16x64_stage1_"
              "warpsize4x1x1_g1_tensor16x8x16_kernel")


def conv(kname, dur):
    """A BF16 3x3 convolution, stride 1, padding 1, channels_last."""
    t = Side()
    x, w = [32, 256, 56, 56], [256, 256, 3, 3]
    e = t.run("aten::convolution", [x, w, [], [], [], [], [], [], []],
              [BF16, BF16, "", "ScalarList", "ScalarList", "ScalarList",
               "Scalar", "ScalarList", "Scalar"],
              [[56 * 56 * 256, 1, 56 * 256, 256], [9 * 256, 1, 3 * 256, 256],
               [], [], [], [], [], [], []], kname, dur)
    for ev in t.ev:
        if ev.get("cat") == "cpu_op" and ev["args"]["External id"] == e:
            ev["args"]["Concrete Inputs"] = [
                "", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]",
                "1"]
    return t


def pair(out, name, ref, tgt, expect, dev=None):
    ref.write(os.path.join(out, name + ".ref.json"), dev)
    tgt.write(os.path.join(out, name + ".target.json"), dev)
    with open(os.path.join(out, name + ".expect.json"), "w",
              encoding="utf-8") as f:
        json.dump(expect, f, indent=1, sort_keys=True)
        f.write("\n")


def fallback(out, name, dur, expect):
    """aten::mm on a tuned kernel (300 µs) against a fallback kernel."""
    ref, tgt = Side(), Side()
    mm(ref, TUNED, 300)
    mm(tgt, FALLBACK, dur)
    expect.update({"match": {"aten::mm": ["both"]},
                   "never": ["same op for op"]})
    pair(out, name, ref, tgt, expect, MI300X)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..",
                                                             "cmppairs")
    os.makedirs(out, exist_ok=True)
    flash = "aten::_scaled_dot_product_flash_attention"
    unfused = 600 + 400 + 600
    fused = 400
    pair(out, "attn", attention(False), attention(True), {
        "match": {flash: ["target_group"],
                  "aten::bmm": ["ref_group", "ref_group"],
                  "aten::_softmax": ["ref_group"]},
        "faster": "target",
        "first": None,
        "ref_slower_ms": (unfused - fused) / 1000,
        "never": ["use them", "reference's ops"]})
    pair(out, "attn-rev", attention(True), attention(False), {
        "match": {flash: ["ref_group"],
                  "aten::bmm": ["target_group", "target_group"],
                  "aten::_softmax": ["target_group"]},
        "faster": "ref",
        "first": {"title": "Unfused attention",
                  "impact_ms": (unfused - fused) / 1000},
        # With both sides the target's own unfused-attention pattern
        # names it, with its own estimate: at most the chain's time.
        "first_sides": {"title": "Unfused attention",
                        "impact_max_ms": unfused / 1000},
        "once": ["attention"],
        "never": []})
    pair(out, "product", product(False), product(True), {
        "match": {"aten::addmm": ["product"]},
        "faster": "ref",
        "first": {"title": "`aten::addmm`",
                  "words": ["likely kernel problem (%.1f× the predicted "
                            "time)" % (500 / 200),
                            "aten::mm on the reference, aten::addmm on the "
                            "target"],
                  "impact_ms": (500 - 200) / 1000},
        "never": ["runs on the target only"]})
    fallback(out, "fallback", 900, {
        "faster": "ref",
        "first": {"title": "a fallback kernel on the target",
                  "words": [FALLBACK], "impact_ms": (900 - 300) / 1000}})
    fallback(out, "fallback-same", 300, {
        "faster": "neither",
        "first": None,
        # With both sides the target's own analysis may find its GEMM's
        # tiles (issue 31's GEMM causes): not this pair's question.
        "first_sides": "any",
        "key": [FALLBACK, "a fallback kernel on the target"]})
    pair(out, "conv-algo", conv(CONV_IGEMM, 300), conv(CONV_OTHER, 900), {
        "match": {"aten::convolution": ["both"]},
        "faster": "ref",
        "first": {"title": "another convolution algorithm on the target",
                  "words": [CONV_IGEMM, CONV_OTHER,
                            "torch.backends.cudnn.benchmark"],
                  "impact_ms": (900 - 300) / 1000},
        # With both sides the target's own convolution causes may come
        # first: not this pair's question.
        "first_sides": "any",
        "key": ["another convolution algorithm for the same shape"],
        "never": ["same op for op", "fallback"]})
    pair(out, "copy", copy(PINNED, 1000), copy(PAGEABLE, 3000), {
        "match": {"aten::copy_": ["both"], "aten::mm": ["both"]},
        "faster": "ref",
        "first": {"title": "pageable",
                  "words": ["pin_memory=True", PAGEABLE, PINNED],
                  "impact_ms": (3000 - 1000) / 1000},
        # With both sides the target's pageable-copy pattern names it:
        # at most the target's copy time, the copy row not again.
        "first_sides": {"title": "pageable", "impact_max_ms": 3000 / 1000},
        "copy_ms": 3000 / 1000,
        "never": ["likely kernel problem (", "Check the kernel",
                  "More exposed memory copies"]})
    unf = 60 + 50 + 5 + 5 + 60 + 60
    pair(out, "norm", norm(True), norm(False), {
        "match": {"aten::_fused_rms_norm": ["ref_group"],
                  "aten::pow": ["target_group"],
                  "aten::mean": ["target_group"],
                  "aten::add": ["target_group"],
                  "aten::rsqrt": ["target_group"],
                  "aten::mul": ["target_group", "target_group"]},
        "faster": "ref",
        "first": {"title": "Unfused RMSNorm on the target",
                  "impact_ms": (unf - 120) / 1000},
        # With both sides the target's own unfused-norm pattern may name
        # it, with its own estimate: at most the six ops' time.
        "first_sides": {"title": "Qwen2RMSNorm",
                        "impact_max_ms": unf / 1000},
        "once": ["rmsnorm", "normalization"],
        "never": ["runs on the target only"]})
    pair(out, "norm-rev", norm(False), norm(True), {
        "match": {"aten::_fused_rms_norm": ["target_group"],
                  "aten::pow": ["ref_group"], "aten::mean": ["ref_group"],
                  "aten::add": ["ref_group"], "aten::rsqrt": ["ref_group"],
                  "aten::mul": ["ref_group", "ref_group"]},
        "faster": "target",
        "first": None,
        "ref_slower_ms": (unf - 120) / 1000,
        "never": ["use them", "reference's ops"]})
    pair(out, "moe", moe(False), moe(True), {
        "match": {"vllm::outplace_fused_experts": ["target_group"],
                  "aten::mm": ["ref_group", "ref_group"]},
        "faster": "target",
        "first": None,
        # With both sides the target's own analysis may find a cause in
        # its fused MoE op (issue 31's MoE causes): not this pair's
        # question; it must still not adopt the reference's GEMMs.
        "first_sides": "any",
        "ref_slower_ms": (8 * (60 + 40) - 300) / 1000,
        "never": ["use them", "reference's ops"]})
    pair(out, "moe-rev", moe(True), moe(False), {
        "match": {"vllm::outplace_fused_experts": ["ref_group"],
                  "aten::mm": ["target_group", "target_group"]},
        "faster": "ref",
        "first": {"title": "Unfused MoE on the target",
                  "words": ["grouped GEMM"],
                  "impact_ms": (8 * (60 + 40) - 300) / 1000},
        "first_sides": "any",
        "never": ["runs on the target only"]})
    pair(out, "concrete", concrete(False), concrete(True), {
        "match": {"aten::add": ["both"]},
        "note": "concrete inputs recorded on the target only",
        "faster": "neither",
        "first": None,
        "never": ["only: 1"]})


if __name__ == "__main__":
    main()
