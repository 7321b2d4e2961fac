#!/usr/bin/env python3
"""Write the iteration fixtures tests/data/{sglang,vllm,profiler}-steps.json.

    python3 tests/gen/gen-steps.py [OUTDIR]   (default tests/data)

Small Kineto traces of serving loops, written from the annotation formats
TraceLens documents (TraceLens/TraceUtils/annotation_utils.py); no shared
trace has them.  One host thread (pid 100), one GPU stream (device 0,
stream 7); every iteration is one annotation with an attention op and a
GEMM inside, each launching one kernel (correlation + ac2g flow).
Deterministic; Python 3 standard library only.

sglang-steps.json: 13 detailed SGLang steps, step[MODE bs=B ...]:
  EXTEND 1, MIXED 1+1, DECODE 2, MIXED 1+2, DECODE 3, DECODE 4, DECODE 4,
  MIXED 1+3, DECODE 4 x3, DECODE 2, DECODE 1 (ramp-up, peak, ramp-down).
vllm-steps.json: 6 native vLLM steps inside ProfilerStep#1 (the annotations
  win over the profiler step): execute_context_R(N)_generation_R(N).
profiler-steps.json: 7 ProfilerStep#N (N = 10..16) with a
  vllm::unified_attention_with_output op (the shape-based batch size), host
  durations 500, 100, 100, 250, 100, 100, 100 µs (warm-up, an outlier).
"""
import json
import os
import sys

META = [
    {"name": "process_name", "ph": "M", "ts": 0, "pid": 100, "tid": 0,
     "args": {"name": "python3"}},
    {"name": "thread_name", "ph": "M", "ts": 0, "pid": 100, "tid": 100,
     "args": {"name": "thread 100 (python3)"}},
    {"name": "process_name", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
     "args": {"name": "python3"}},
    {"name": "process_labels", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
     "args": {"labels": "GPU 0"}},
]


class Trace:
    def __init__(self):
        self.ev = list(META)
        self.corr = 1000

    def host(self, cat, name, ts, dur, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": 100, "tid": 100,
             "ts": ts, "dur": dur}
        if args is not None:
            e["args"] = args
        self.ev.append(e)

    def op(self, name, ts, dims, kernel, kts, kdur):
        """A cpu_op at ts (10 µs) launching kernel at kts for kdur µs."""
        self.corr += 1
        c = self.corr
        n = len(dims)
        self.host("cpu_op", name, ts, 10, {
            "External id": c, "Input Dims": dims,
            "Input type": ["c10::BFloat16"] * n,
            "Input Strides": [[]] * n, "Concrete Inputs": [""] * n})
        self.host("cuda_runtime", "hipLaunchKernel", ts + 2, 3,
                  {"External id": c, "correlation": c})
        self.ev.append({"ph": "s", "id": c, "pid": 100, "tid": 100,
                        "ts": ts + 2, "cat": "ac2g", "name": "ac2g"})
        self.ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0,
                        "tid": 7, "ts": kts, "dur": kdur,
                        "args": {"External id": c, "correlation": c,
                                 "stream": 7, "device": 0}})
        self.ev.append({"ph": "f", "id": c, "pid": 0, "tid": 7, "ts": kts,
                        "cat": "ac2g", "name": "ac2g", "bp": "e"})

    def step(self, name, ts, dur, tokens, attn, cat="user_annotation"):
        """An iteration: attention over tokens, then a GEMM."""
        self.host(cat, name, ts, dur, {"External id": 0})
        self.op(attn, ts + 5, [[tokens, 32, 128], [tokens, 8, 128],
                               [tokens, 8, 128], [tokens, 32, 128]],
                "attention_kernel", ts + 20, 8)
        self.op("aten::mm", ts + 30, [[tokens, 4096], [4096, 4096]],
                "Cijk_Alik_Bljk_BBS_MT64x64", ts + 40, 12)

    def write(self, path):
        doc = {"schemaVersion": 1, "deviceProperties": [
            {"id": 0, "name": "AMD Instinct MI300X"}],
            "traceEvents": self.ev}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")


def sglang():
    t = Trace()
    # (mode, context requests, generation requests, context tokens)
    steps = [("EXTEND", 1, 0, 100), ("MIXED", 1, 1, 50), ("DECODE", 0, 2, 0),
             ("MIXED", 1, 2, 40), ("DECODE", 0, 3, 0), ("DECODE", 0, 4, 0),
             ("DECODE", 0, 4, 0), ("MIXED", 1, 3, 30), ("DECODE", 0, 4, 0),
             ("DECODE", 0, 4, 0), ("DECODE", 0, 4, 0), ("DECODE", 0, 2, 0),
             ("DECODE", 0, 1, 0)]
    for i, (mode, c, g, ctok) in enumerate(steps):
        kv = []
        if mode == "EXTEND":
            kv = ["bs=%d" % c, "toks=%d" % ctok, "c_sq=%d" % ctok,
                  "c_sqsq=%d" % (ctok * ctok), "c_sqsk=%d" % (ctok * ctok),
                  "c_sk=%d" % ctok]
        elif mode == "DECODE":
            kv = ["bs=%d" % g, "g_sq=%d" % g, "g_sqsq=%d" % g,
                  "g_sqsk=%d" % (g * 200), "g_sk=%d" % (g * 200)]
        else:
            kv = ["bs=%d" % (c + g), "c=%d" % c, "g=%d" % g,
                  "c_sq=%d" % ctok, "c_sk=%d" % ctok,
                  "c_sqsq=%d" % (ctok * ctok), "c_sqsk=%d" % (ctok * ctok),
                  "g_sq=%d" % g, "g_sk=%d" % (g * 200), "g_sqsq=%d" % g,
                  "g_sqsk=%d" % (g * 200)]
        name = "step[%s %s]" % (mode, " ".join(kv))
        # SGLang's profiler numbers the ops it records.
        t.step(name, 1000 + 100 * i, 90, ctok + g,
               "sglang_profiler::attention_paged_attention_ragged_%d"
               % (100 + i))
    return t


def vllm():
    t = Trace()
    # (context requests, context tokens, generation requests)
    steps = [(1, 100, 0), (1, 60, 1), (0, 0, 2), (0, 0, 2), (1, 30, 1),
             (0, 0, 2)]
    t.host("user_annotation", "ProfilerStep#1", 900, 100 * len(steps) + 200,
           {"External id": 0})
    for i, (c, ctok, g) in enumerate(steps):
        name = "execute_context_%d(%d)_generation_%d(%d)" % (c, ctok, g, g)
        t.step(name, 1000 + 100 * i, 90, ctok + g,
               "vllm::unified_attention_with_output")
    return t


def profiler():
    t = Trace()
    ts = 1000
    for i, dur in enumerate([500, 100, 100, 250, 100, 100, 100]):
        t.step("ProfilerStep#%d" % (10 + i), ts, dur, 8 + i,
               "vllm::unified_attention_with_output")
        ts += dur + 10
    return t


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "data")
    sglang().write(os.path.join(out, "sglang-steps.json"))
    vllm().write(os.path.join(out, "vllm-steps.json"))
    profiler().write(os.path.join(out, "profiler-steps.json"))


if __name__ == "__main__":
    main()
