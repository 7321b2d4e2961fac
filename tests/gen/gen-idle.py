#!/usr/bin/env python3
"""Write the idle-culprit fixtures tests/data/idle/idle-*.json and their answers.

    python3 tests/gen/gen-idle.py [OUTDIR]   (default tests/data/idle)

Small Kineto traces in which the GPU waits for the host, each laid out by
hand so that the answer is known from the layout: every listed idle gap
(at least 10 us), its step and the pieces it splits into (culprit kind,
name, context, duration, the other thread's tid), the summed noise gaps
(under 10 us), written to idle-expect.json.  The host spellings are those
of PyTorch's profiler (DataLoader and optimizer annotations, Python frames
"file.py(line): function"); the GPU events are added as Kineto writes them
(correlation + ac2g flows).  Host process 100, GPU 0 stream 7.

idle-dataloader.json  3 ProfilerSteps; each starts with a single-process
    DataLoader span (Python frames: __next__, resize, collate with an
    aten::stack) before a convolution; a 5 us noise gap in each step.
idle-nopython.json    the same without Python frames (with_stack off).
idle-zerograd.json    Optimizer.zero_grad with 50 aten::zero_, each a
    1 us kernel: 49 gaps of 19 us.
idle-sync.json        .item(): a device-to-host copy and a
    cudaStreamSynchronize, then 2 ms of Python logging on the host.
idle-firstcall.json   3 steps; the first convolution spends 50 ms in
    aten::cudnn_convolution before its launch (autotuning).
idle-oneoff.json      five steps; a new convolution shape whose first
    call (in steady step 3) spends 5 ms before its launch: the op
    stream's steady flags (a one-time cost is warm-up).
idle-threads.json     two launching threads (main and autograd): a gap
    ended by the autograd thread's launch, and a cudaDeviceSynchronize on
    the main thread while the other thread runs Python.
Deterministic; Python 3 standard library only.
"""
import json
import os
import sys

BASE = 1000000  # the first event's ts, us
NOISE = 10      # the listed gaps' threshold, us

META = [
    {"name": "process_name", "ph": "M", "ts": 0, "pid": 100, "tid": 0,
     "args": {"name": "python3"}},
    {"name": "process_name", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
     "args": {"name": "python3"}},
    {"name": "process_labels", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
     "args": {"labels": "GPU 0"}},
]

DL = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
ZG = "Optimizer.zero_grad#SGD.zero_grad"


class Trace:
    def __init__(self, python=True):
        self.ev = list(META)
        self.corr = 1000
        self.python = python
        self.frames = 0
        self.gaps = []       # the answer
        self.steady = None   # [name, iteration, steady] of each row
        # the first recommendation: a known culprit's title (its start)
        # and the idle its pieces cover, us; and the idle left to the
        # generic idle finding (every gap, noise included, less that)
        self.first = None
        self.rest = None
        self.noise = [0, 0]  # us, count
        self.host("user_annotation", "marker", 0, 1)  # offsets count from it

    def host(self, cat, name, ts, dur, tid=100, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": 100, "tid": tid,
             "ts": BASE + ts, "dur": dur}
        if args is not None:
            e["args"] = args
        self.ev.append(e)

    def py(self, name, ts, dur, tid=100):
        if self.python:
            self.frames += 1
            self.host("python_function", name, ts, dur, tid,
                      {"Python id": len(self.ev), "Python parent id": 0})

    def op(self, name, ts, dur, tid=100, dims=None):
        dims = dims or []
        self.host("cpu_op", name, ts, dur, tid,
                  {"External id": 0, "Input Dims": dims,
                   "Input type": ["float"] * len(dims)})

    def launch(self, lts, kernel, kts, kdur, tid=100, call="cudaLaunchKernel",
               cat="kernel"):
        """A launch call at lts (3 us) of a GPU event at kts."""
        self.corr += 1
        c = self.corr
        self.host("cuda_runtime", call, lts, 3, tid,
                  {"External id": c, "correlation": c})
        self.ev.append({"ph": "s", "id": c, "pid": 100, "tid": tid,
                        "ts": BASE + lts, "cat": "ac2g", "name": "ac2g"})
        self.ev.append({"ph": "X", "cat": cat, "name": kernel, "pid": 0,
                        "tid": 7, "ts": BASE + kts, "dur": kdur,
                        "args": {"External id": c, "correlation": c,
                                 "stream": 7, "device": 0}})
        self.ev.append({"ph": "f", "id": c, "pid": 0, "tid": 7,
                        "ts": BASE + kts, "cat": "ac2g", "name": "ac2g",
                        "bp": "e"})

    def gap(self, a, b, step, pieces, warm=False, tid=100):
        """A listed gap [a, b) and its pieces (kind, name, context, us, tid).

        warm: the GPU work that ends it is warm-up (the first of three or
        more steps, or a one-time cost); tid: the thread that launched it.
        """
        assert b - a >= NOISE
        assert sum(p[3] for p in pieces) == b - a, (a, b, pieces)
        self.gaps.append({"ts": BASE + a, "offset": a, "dur": b - a,
                          "step": step, "warm": warm, "tid": str(tid),
                          "culprits": sorted([list(p) for p in pieces])})

    def write(self, path):
        doc = {"schemaVersion": 1, "deviceProperties": [
            {"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
            "traceEvents": self.ev}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")

    def answer(self):
        if self.steady is not None:
            return {"steady": sorted(self.steady)}
        a = {"gaps": sorted(self.gaps, key=lambda g: g["ts"]),
             "noise_us": self.noise[0], "noise_count": self.noise[1],
             "frames": self.frames}
        if self.first is not None:
            a["first"] = list(self.first)
        if self.rest is not None:
            a["rest_us"] = self.rest
        return a

    def known(self, title, names):
        """The first recommendation: the pieces named (or in a context
        named) in names are the known culprit title's; the rest of the
        idle (gaps and noise) is the generic idle finding's."""
        us = sum(p[3] for g in self.gaps for p in g["culprits"]
                 if p[1] in names or p[2] in names)
        total = sum(g["dur"] for g in self.gaps) + self.noise[0]
        self.first = (title, us)
        self.rest = total - us


def dataloader(python):
    """Each step S: DataLoader [S+100, S+5100), conv at S+5200."""
    t = Trace(python)
    for s in (1, 2, 3):
        S = 10000 * s
        t.host("user_annotation", "ProfilerStep#%d" % s, S, 10000)
        t.host("user_annotation", DL, S + 100, 5000)
        t.py("torch/utils/data/dataloader.py(628): __next__", S + 110, 4980)
        t.py("torchvision/transforms/functional.py(467): resize", S + 200,
             3000)
        t.py("torch/utils/data/_utils/collate.py(138): collate", S + 3300,
             1500)
        t.op("aten::stack", S + 3400, 1000)
        t.op("aten::conv2d", S + 5200, 100)
        t.launch(S + 5250, "implicit_convolve_sgemm", S + 5270, 3730)
        # relu: launched at 8952, its kernel 5 us after the conv's end
        t.op("aten::relu", S + 8950, 10)
        t.launch(S + 8952, "vectorized_elementwise_kernel", S + 9005, 95)
        t.noise[0] += 5
        t.noise[1] += 1
        if s == 1:
            continue
        # The gap from the last kernel of step s - 1 (S - 900) to the
        # conv kernel (S + 5270), launched at S + 5250:
        #   [S-900, S+100)   nothing recorded (the step's own annotation)
        #   [S+100, S+5100)  the DataLoader span: 5000
        #   [S+5100, S+5200) nothing recorded
        #   [S+5200, S+5250) aten::conv2d before its launch call
        #   [S+5250, S+5270) the launch
        if python:
            # resize's 3000 us of self time is the most of any event.
            top = ("python",
                   "torchvision/transforms/functional.py(467): resize", DL)
        else:
            # The annotation's self time: 5000 - aten::stack's 1000.
            top = ("annotation", DL, DL)
        t.gap(S - 900, S + 5270, s, [
            top + (5000 + 50, ""),
            ("none", "", "", 1000 + 100, ""),
            ("launch", "cudaLaunchKernel", "", 20, "")])
    # The DataLoader's pieces (by name or context) are the single-process
    # DataLoader's finding; the rest (none, launch, noise) generic idle.
    t.known("Single-process DataLoader", [DL])
    return t


def zerograd():
    t = Trace()
    t.host("user_annotation", "ProfilerStep#7", 0, 2000)
    t.host("user_annotation", ZG, 10, 1100)
    Z = 100
    for i in range(50):
        # zero_ [Z+20i, Z+20i+15), launch at +10, its kernel [+14, +15)
        t.op("aten::zero_", Z + 20 * i, 15)
        t.launch(Z + 20 * i + 10, "FillFunctor", Z + 20 * i + 14, 1)
        if i > 0:
            # [Z+20i-5, Z+20i): the annotation's self time (5 us);
            # [Z+20i, Z+20i+10): aten::zero_ (10 us), the most.
            t.gap(Z + 20 * i - 5, Z + 20 * i + 14, 7, [
                ("cpu_op", "aten::zero_", ZG, 15, ""),
                ("launch", "cudaLaunchKernel", "", 4, "")])
    t.known("Optimizer.zero_grad", [ZG])
    return t


def sync():
    t = Trace()
    T = 1000
    t.host("user_annotation", "ProfilerStep#1", T - 300, 2700)
    t.py("train.py(40): train_step", T - 200, 2500)
    t.op("aten::mm", T - 150, 20)
    t.launch(T - 140, "gemm_kernel", T - 100, 118)
    t.op("aten::item", T, 36)
    t.op("aten::_local_scalar_dense", T + 5, 31)
    t.launch(T + 10, "Memcpy DtoH (Device -> Pinned)", T + 20, 10,
             call="cudaMemcpyAsync", cat="gpu_memcpy")
    t.host("cuda_runtime", "cudaStreamSynchronize", T + 16, 19)
    t.py("train.py(50): log_metrics", T + 40, 2000)
    t.op("aten::add", T + 2100, 10)
    t.launch(T + 2102, "elementwise_kernel", T + 2110, 90)
    t.noise[0] += 2  # [T+18, T+20): the copy waits for the GEMM
    t.noise[1] += 1
    # [T+30, T+2110), launched at T+2102:
    #   [T+30, T+35)  cudaStreamSynchronize: its wait (no other thread)
    #   [T+35, T+36)  _local_scalar_dense, [T+36, T+40) train_step,
    #   [T+40, T+2040) log_metrics (the most), [T+2040, T+2100)
    #   train_step, [T+2100, T+2102) aten::add: 2067 in all
    t.gap(T + 30, T + 2110, 1, [
        ("python", "train.py(50): log_metrics", "train.py(40): train_step",
         2067, ""),
        ("sync", "cudaStreamSynchronize", "train.py(40): train_step", 5, ""),
        ("launch", "cudaLaunchKernel", "", 8, "")])
    t.first = ("Logging on the training thread", 2067)
    return t


def firstcall():
    t = Trace()
    S = 0
    for s, pre in ((1, 50000), (2, 100), (3, 100)):
        t.host("user_annotation", "ProfilerStep#%d" % s, S, pre + 3000)
        t.op("aten::linear", S + 5, 10)
        t.launch(S + 7, "gemm_kernel", S + 10, 990)
        # conv [S+1000, ...): cudnn_convolution from S+1010 to its
        # launch call at S+1000+pre
        t.op("aten::conv2d", S + 1000, pre + 100)
        t.op("aten::cudnn_convolution", S + 1010, pre + 80)
        t.launch(S + 1000 + pre, "implicit_convolve_sgemm", S + 1010 + pre,
                 990)
        t.gap(S + 1000, S + 1010 + pre, s, [
            ("cpu_op", "aten::cudnn_convolution", "aten::conv2d", pre, ""),
            ("launch", "cudaLaunchKernel", "", 10, "")], warm=s == 1)
        end = S + 2000 + pre
        S += pre + 3000
        # from this conv's end to the next step's linear kernel
        if s < 3:
            t.gap(end, S + 10, s + 1, [
                ("none", "", "", S - end + 5, ""),
                ("cpu_op", "aten::linear", "aten::linear", 2, ""),
                ("launch", "cudaLaunchKernel", "", 3, "")])
    # The first step's conv before its launch: warm-up, a first-call cost.
    t.first = ("First-call cost", 50000)
    return t


def oneoff():
    """Five steps; a new convolution shape first runs in step 3.

    Each step S (10000 us apart): a linear (kernel at S+10) and a
    convolution of shape A whose cudnn_convolution spends 100 us before
    its launch.  From step 3 on, a second convolution of shape B: 5000 us
    before its launch in step 3 (a one-time cost: >= 1 ms and >= 10x the
    median 90 us of its later instances), 100 us in steps 4 and 5.  The
    steady window is steps 2-5 (the first of three or more is warm-up):
    step 1's rows and step 3's shape-B convolution are warm-up (0).
    """
    t = Trace()
    t.steady = []
    S = 0
    A = [[8, 3, 32, 32], [16, 3, 3, 3]]
    B = [[8, 16, 30, 30], [32, 16, 3, 3]]
    for s in (1, 2, 3, 4, 5):
        extra = 5000 if s == 3 else 100
        dur = 10000  # equal steps: none is an outlier of the window
        t.host("user_annotation", "ProfilerStep#%d" % s, S, dur)
        t.op("aten::linear", S + 5, 10)
        t.launch(S + 7, "gemm_kernel", S + 10, 500)
        t.steady.append(["aten::linear", s, 0 if s == 1 else 1])
        t.op("aten::conv2d", S + 1000, 200, dims=A)
        t.op("aten::cudnn_convolution", S + 1010, 180, dims=A)
        t.launch(S + 1110, "conv_a", S + 1120, 500)
        t.steady.append(["aten::cudnn_convolution", s, 0 if s == 1 else 1])
        if s >= 3:
            t.op("aten::conv2d", S + 2000, extra + 100, dims=B)
            t.op("aten::cudnn_convolution", S + 2010, extra + 80, dims=B)
            t.launch(S + 2010 + extra, "conv_b", S + 2020 + extra, 500)
            t.steady.append(["aten::cudnn_convolution", s,
                             0 if s == 3 else 1])
        S += dur
    return t


def threads():
    t = Trace()
    t.host("user_annotation", "ProfilerStep#1", 0, 6000)
    t.op("aten::mul", 0, 100)
    t.launch(40, "mul_kernel", 50, 450)
    t.py("train.py(10): other", 600, 1800)
    EV = "autograd::engine::evaluate_function: MulBackward0"
    t.op(EV, 300, 1700, tid=200)
    t.op("aten::mul", 1900, 90, tid=200)
    t.launch(1950, "mul_kernel", 1970, 530, tid=200)
    # [500, 1970) ended by thread 200's launch at 1950: the autograd
    # function's self time [500, 1900) and aten::mul [1900, 1950).
    t.gap(500, 1970, 1, [
        ("cpu_op", EV, EV, 1450, ""),
        ("launch", "cudaLaunchKernel", "", 20, "")], tid=200)
    t.host("cuda_runtime", "cudaDeviceSynchronize", 2450, 1550)
    t.py("worker.py(5): prefetch", 3000, 600, tid=200)
    t.op("aten::add", 4000, 50)
    t.launch(4010, "add_kernel", 4030, 70)
    # [2500, 4030): thread 100 in the sync until 4000 (thread 200's
    # prefetch covers 600 us of it), aten::add [4000, 4010), the launch.
    t.gap(2500, 4030, 1, [
        ("cpu_op", "aten::add", "aten::add", 10, ""),
        ("python", "worker.py(5): prefetch", "worker.py(5): prefetch", 600,
         "200"),
        ("sync", "cudaDeviceSynchronize", "cudaDeviceSynchronize", 900, ""),
        ("launch", "cudaLaunchKernel", "", 20, "")])
    return t


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/idle"
    traces = {
        "idle-dataloader.json": dataloader(True),
        "idle-nopython.json": dataloader(False),
        "idle-zerograd.json": zerograd(),
        "idle-sync.json": sync(),
        "idle-firstcall.json": firstcall(),
        "idle-threads.json": threads(),
        "idle-oneoff.json": oneoff(),
    }
    answer = {}
    for name, t in sorted(traces.items()):
        t.write(os.path.join(out, name))
        answer[name] = t.answer()
    with open(os.path.join(out, "idle-expect.json"), "w",
              encoding="utf-8") as f:
        json.dump(answer, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
