#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""Graph launches and graph-capture traces (tl-parse, issue 18).

usage: capture.py BINDIR SHARED

Hand-made fixtures (tests/data/capture/): a CUDA trace whose capture trace
names no kernels (position decides) and a ROCm one whose capture trace does
(names decide, a call left over, a launch no graph matches).  The shared
graph-mode traces with their capture traces: every number tl-parse gives is
recomputed here from the trace JSON and share/tl/kernels.tsv (the kernel
table read with fnmatch, not tl's matcher), and the merged op stream is
compared with TraceLens' inference report (unified_perf_summary.csv),
which TraceLens made with the same capture traces merged.  Prints "ok NAME",
"FAIL NAME" or "SKIP NAME" lines.
"""
import csv
import fnmatch
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, SHARED = sys.argv[1], sys.argv[2]
TRACES = os.path.join(SHARED, "traces")
REF = os.path.join(SHARED, "reference", "tracelens")
DATA = "tests/data/capture"
GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
csv.field_size_limit(sys.maxsize)


def check(name, cond, detail=""):
    print(("ok " if cond else "FAIL ") + name)
    if not cond and detail:
        print("  " + str(detail)[:2000])


def tlparse(*args):
    p = subprocess.run([os.path.join(BIN, "tl-parse")] + list(args),
                       capture_output=True, text=True)
    rows = list(csv.DictReader(p.stdout.splitlines(), delimiter="\t"))
    return p.returncode, rows, p.stderr


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)["traceEvents"]


def kernel_table():
    """share/tl/kernels.tsv as (pattern, category, family) rows."""
    rows, hdr = [], None
    with open("share/tl/kernels.tsv") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f_ = line.split("\t")
            if hdr is None:
                hdr = f_
                continue
            d = dict(zip(hdr, f_))
            rows.append((d["pattern"].lower(), d["category"], d["family"]))
    return rows


TABLE = kernel_table()


def family(ev):
    """(category, family) of a GPU event, as the table says."""
    if ev["cat"] == "gpu_memcpy":
        return "memcpy", "memory copy"
    if ev["cat"] == "gpu_memset":
        return "memcpy", "memory set"
    name = ev["name"].lower()
    for pat, cat, fam in TABLE:
        if fnmatch.fnmatchcase(name, pat):
            return cat, fam
    return "other", "other kernels"


def graph_launches(ev):
    """{launch index: [replayed GPU event indices]} by correlation."""
    launch = {e["args"]["correlation"]: i for i, e in enumerate(ev)
              if e.get("cat") == "cuda_runtime" and
              e.get("name", "").endswith("GraphLaunch")}
    out = {i: [] for i in launch.values()}
    for i, e in enumerate(ev):
        if e.get("cat") in GPU_CATS and \
                e.get("args", {}).get("correlation") in launch:
            out[launch[e["args"]["correlation"]]].append(i)
    return {k: v for k, v in out.items() if v}


def us(x):
    return float(x)


# --- Fixtures -----------------------------------------------------------

def graph_rows(launch, rows):
    """Expected graph rows: (family, category, kernel time) each."""
    return [(launch + ": " + f, c, "graph", 1, t, "") for f, c, t in rows]


def brief(rows):
    return [(r["name"], r["category"], r["row_kind"], int(r["kernel_count"]),
             us(r["kernel_time_us"]), r["input_dims"]) for r in rows]


rc, rows, err = tlparse(os.path.join(DATA, "cuda-piecewise.json"))
# Launch 1 replays graph 0 (mm, rms_norm; the only graph with two calls),
# launch 2 the graph captured after it (silu, copy_ as the Memcpy call,
# mm), launch 3 graph 0 again (no graph after graph 1).  The warm-up mm
# before the first capture is in no graph.
want = [
    ("aten::mm", "gemm", "model", 1, 20.0, "[[4,64],[64,128]]"),
    ("aten::rms_norm", "rmsnorm", "leaf", 1, 5.0, "[[4,128],[128]]"),
    ("aten::silu", "elementwise", "model", 1, 4.0, "[[4,128]]"),
    ("aten::copy_", "elementwise", "model", 1, 2.0, "[[4,128],[4,128]]"),
    ("aten::mm", "gemm", "model", 1, 30.0, "[[4,128],[128,64]]"),
    ("aten::mm", "gemm", "model", 1, 21.0, "[[4,64],[64,128]]"),
    ("aten::rms_norm", "rmsnorm", "leaf", 1, 6.0, "[[4,128],[128]]"),
]
check("capture fixture (CUDA, by position): rows of the captured ops",
      rc == 0 and brief(rows) == want, brief(rows))
check("capture fixture (CUDA): the uids of copied ops follow the trace's "
      "11 events", [r["uid"] for r in rows] ==
      ["11", "13", "15", "17", "19", "21", "23"], [r["uid"] for r in rows])
check("capture fixture (CUDA): each captured op in the module instance "
      "around it at capture time (the trace has no frames of its own)",
      [r["module"] for r in rows] == ["Block_0"] * 2 + ["MLP_0"] * 3 +
      ["Block_0"] * 2, [r["module"] for r in rows])
check("capture fixture (CUDA): one line on stderr with the counts",
      err.count("\n") == 1 and "3 of 3 graph launches matched a captured "
      "graph (2 read from 1 capture traces); 7 of 7 replayed GPU events "
      "(0.088 of 0.088 ms)" in err, err)
rc, rows, err = tlparse("--no-capture",
                        os.path.join(DATA, "cuda-piecewise.json"))
# By family: (gemm, rmsnorm), (elementwise, memcpy, gemm), (gemm, rmsnorm).



want = graph_rows("cudaGraphLaunch", [
    ("GEMM", "gemm", 20.0), ("RMSNorm", "rmsnorm", 5.0),
    ("ATen elementwise", "elementwise", 4.0), ("memory copy", "memcpy", 2.0),
    ("GEMM", "gemm", 30.0), ("GEMM", "gemm", 21.0),
    ("RMSNorm", "rmsnorm", 6.0)])
got = sorted(brief(rows), key=lambda x: x[4])
check("--no-capture: one row per launch and kernel family",
      rc == 0 and got == sorted(want, key=lambda x: x[4]) and
      "3 graph launches replay 7 GPU events (0.088 ms) that --no-capture "
      "leaves without their ops" in err, (got, err))

rc, rows, err = tlparse("--capture", os.path.join(DATA, "hip-details.json"),
                        os.path.join(DATA, "hip-names.json"))
# Launch 1 (Tensile, Triton) is the second graph by name, its memset call
# left over; launch 2 (Tensile, CK RMSNorm) the first; launch 3 (Tensile,
# topk, CK) matches none: three graph rows.
want = [
    ("aten::mm", "gemm", "model", 1, 10.0, "[[8,64],[64,32]]"),
    ("aten::add", "elementwise", "model", 1, 3.0, "[[8,32],[8,32]]"),
    ("aten::mm", "gemm", "model", 1, 10.0, "[[8,64],[64,64]]"),
    ("aiter::rms_norm", "rmsnorm", "model", 1, 4.0, "[[8,64],[64]]"),
] + graph_rows("hipGraphLaunch", [
    ("hipBLASLt/Tensile GEMM", "gemm", 10.0), ("MoE routing", "moe", 2.0),
    ("RMSNorm", "rmsnorm", 3.0)])
check("capture fixture (ROCm, by name): graphs chosen by kernel name, a "
      "call left over, an unmatched launch by family",
      rc == 0 and brief(rows) == want and "2 of 3 graph launches" in err
      and "4 of 7 replayed GPU events" in err and
      "the rest broken down by kernel family" in err, (brief(rows), err))
rc2, rows2, err2 = tlparse(os.path.join(DATA, "hip-names.json"))
check("capture fixture (ROCm): STEM.capture.json beside the trace is found",
      rc2 == 0 and brief(rows2) == brief(rows), err2)

# Two capture traces of the same graph at batch sizes 8 and 4 (listed in
# that order): the step around launch 1 has 3 tokens (0 + 3), so the
# batch-4 graph; launch 2 has 8 (5 + 3), the batch-8 one.  The batch sizes
# come from the details file, or from the capture_N_FULL annotations.
want = [("aten::mm", "gemm", "model", 1, 20.0, "[[4,64],[64,128]]"),
        ("aten::rms_norm", "rmsnorm", "leaf", 1, 5.0, "[[4,128],[128]]"),
        ("aten::mm", "gemm", "model", 1, 40.0, "[[8,64],[64,128]]"),
        ("aten::rms_norm", "rmsnorm", "leaf", 1, 9.0, "[[8,128],[128]]")]
rc, rows, err = tlparse("--capture", os.path.join(DATA, "batch-details.json"),
                        os.path.join(DATA, "batch.json"))
check("capture: the graph of the step's padded batch size (details file)",
      rc == 0 and brief(rows) == want, (brief(rows), err))
rc, rows, err = tlparse("--capture", os.path.join(DATA, "batch-8.json"), "--capture",
                        os.path.join(DATA, "batch-4.json"),
                        os.path.join(DATA, "batch.json"))
check("capture: the graph of the step's padded batch size (capture_N "
      "annotation)", rc == 0 and brief(rows) == want, (brief(rows), err))

# Two streams: the replay interleaves them (A C on one, B D on the other)
# unlike the capture order A B C D; each stream's queue pairs in order.
rc, rows, err = tlparse(os.path.join(DATA, "streams.json"))
want = [("aten::mm", "gemm", "model", 1, 2.0, "[[2,64],[64,64]]"),
        ("aten::add", "elementwise", "model", 1, 1.0, "[[2,64],[2,64]]"),
        ("aten::mm", "gemm", "model", 1, 4.0, "[[2,64],[64,32]]"),
        ("aten::mul", "elementwise", "model", 1, 3.0, "[[2,32],[2,32]]")]
check("capture: a graph on two streams pairs per stream by name",
      rc == 0 and brief(rows) == want, (brief(rows), err))

rc, rows, err = tlparse("--capture", os.path.join(DATA, "nonexistent"),
                        os.path.join(DATA, "hip-names.json"))
check("--capture of a missing path: exit 1, one line",
      rc == 1 and err.count("\n") == 1 and "nonexistent: no such capture "
      "trace, details file or directory" in err, err)
rc, rows, err = tlparse("--no-capture", "--capture",
                        os.path.join(DATA, "hip-details.json"),
                        os.path.join(DATA, "hip-names.json"))
check("--capture and --no-capture: usage error", rc == 2, err)

# --- The shared graph-mode traces ----------------------------------------

SHARED_GRAPH = ["mi300-vllm-prefilldecode-piecewise",
                "mi300-xdit-flux-aiter-sage"]
for stem in SHARED_GRAPH:
    path = os.path.join(TRACES, stem + ".json.gz")
    cap = os.path.join(TRACES, stem + ".capture.json.gz")
    if not (os.path.exists(path) and os.path.exists(cap)):
        print("SKIP %s: trace or capture trace not found" % stem)
        continue
    ev = load(path)
    launches = graph_launches(ev)
    replayed = sorted(i for v in launches.values() for i in v)
    ns = sum(round(ev[i]["dur"] * 1000) for i in replayed)

    # By kernel family: what the table says of each launch's events.
    rc, rows, err = tlparse("--no-capture", path)
    want_rows = {}
    want_cat = {}
    for li, gs in launches.items():
        fams = {}
        for g in gs:
            cat, fam = family(ev[g])
            fams.setdefault(fam, []).append(g)
            want_cat[cat] = want_cat.get(cat, 0) + round(ev[g]["dur"] * 1000)
        for fam, v in fams.items():
            name = "%s: %s" % (ev[li]["name"], fam)
            want_rows[name] = want_rows.get(name, 0) + 1
    graph = [r for r in rows if r["row_kind"] == "graph"]
    got_rows = {}
    got_cat = {}
    for r in graph:
        got_rows[r["name"]] = got_rows.get(r["name"], 0) + 1
        for k in json.loads(r["kernels"]):
            got_cat[r["category"]] = got_cat.get(r["category"], 0) + \
                round(k["dur"] * 1000)
    check("%s --no-capture: graph rows per family = launches holding it"
          % stem, rc == 0 and got_rows == want_rows, (got_rows, want_rows))
    check("%s --no-capture: replayed GPU time per category (kernel table)"
          % stem, got_cat == want_cat, (got_cat, want_cat))
    check("%s --no-capture: every replayed event in one graph row" % stem,
          sorted(k["uid"] for r in graph for k in json.loads(r["kernels"]))
          == replayed)
    check("%s --no-capture: the warning counts launches and events" % stem,
          "%d graph launches replay %d GPU events (%.3f ms)"
          % (len(launches), len(replayed), ns / 1e6) in err, err)

    # Merged: every replayed event under a captured op.
    rc, rows, err = tlparse("--trace-name", "t", path)
    m = re.search(r"graph capture: (\d+) of (\d+) graph launches matched a "
                  r"captured graph \((\d+) read from 1 capture traces\); "
                  r"(\d+) of (\d+) replayed GPU events \(([\d.]+) of "
                  r"([\d.]+) ms\)", err)
    capev = load(cap)
    ncap = sum(1 for e in capev if "StreamBeginCapture" in e.get("name", ""))
    check("%s: the capture line counts launches, graphs, events" % stem,
          m is not None and int(m.group(1)) == len(launches) and
          int(m.group(2)) == len(launches) and int(m.group(3)) == ncap and
          int(m.group(4)) == len(replayed) and
          int(m.group(5)) == len(replayed) and
          m.group(6) == m.group(7) == "%.3f" % (ns / 1e6), err)
    owner = {}
    for r in rows:
        for k in json.loads(r["kernels"]):
            owner.setdefault(k["uid"], []).append(r)
    check("%s: every replayed event in exactly one captured op's row" % stem,
          all(len(owner.get(g, [])) == 1 and
              owner[g][0]["row_kind"] != "graph" and
              not owner[g][0]["name"].endswith("GraphLaunch")
              for g in replayed))
    # TraceLens' inference report merged the same capture trace: the same
    # ops, as many, with the same kernel time (its CSV rounds to 1e-3 µs).
    ref = os.path.join(REF, stem, "unified_perf_summary.csv")
    if not os.path.exists(ref):
        print("SKIP %s: %s not found" % (stem, ref))
        continue
    tl_n, tl_t, tl_d = {}, {}, {}
    with open(ref) as f:
        for x in csv.DictReader(f):
            n = x["name"].split("->")[0]
            tl_n[n] = tl_n.get(n, 0) + int(x["operation_count"])
            tl_t[n] = tl_t.get(n, 0.0) + float(x["Kernel Time (µs)_sum"])
            tl_d.setdefault(n, set()).add(x["Input Dims"])
    our_n, our_t, our_d = {}, {}, {}
    for r in rows:
        n = r["name"]
        our_n[n] = our_n.get(n, 0) + 1
        our_t[n] = our_t.get(n, 0.0) + us(r["kernel_time_us"])
        our_d.setdefault(n, set()).add(r["input_dims"])
    check("%s: ops and counts as TraceLens' merged report" % stem,
          our_n == tl_n, sorted(set(our_n.items()) ^ set(tl_n.items())))
    off = [n for n in tl_t if abs(tl_t[n] - our_t.get(n, 0.0)) >
           1e-3 * tl_n[n] + 1e-9 * tl_t[n]]
    check("%s: kernel time per op name as TraceLens' merged report" % stem,
          not off, [(n, tl_t[n], our_t.get(n)) for n in off])
    check("%s: as many distinct shapes per op name as TraceLens" % stem,
          all(len(our_d.get(n, ())) == len(tl_d[n]) for n in tl_d))

# --- How capture traces are found -----------------------------------------

stem = "mi300-vllm-prefilldecode-piecewise"
path = os.path.join(TRACES, stem + ".json.gz")
details = os.path.join(TRACES, stem + ".capture-details.json")
if os.path.exists(path) and os.path.exists(details):
    rc, base, err = tlparse("--trace-name", "t", path)
    tmp = tempfile.mkdtemp()
    try:
        # TraceLens' layout: capture_traces/ with execution_details.json
        # and the capture trace under the name it gives.
        d = os.path.join(tmp, "capture_traces")
        os.mkdir(d)
        with open(details) as f:
            name = json.load(f)[0]["file"]
        shutil.copy(details, os.path.join(d, "execution_details.json"))
        os.symlink(os.path.abspath(os.path.join(TRACES, stem +
                   ".capture.json.gz")), os.path.join(d, name))
        os.symlink(os.path.abspath(path), os.path.join(tmp, "run.json.gz"))
        rc1, rows1, err1 = tlparse("--trace-name", "t",
                                   os.path.join(tmp, "run.json.gz"))
        check("capture_traces/ beside the trace is found", rc1 == 0 and
              rows1 == base and "25 of 25 graph launches" in err1, err1)
        rc2, rows2, err2 = tlparse("--trace-name", "t", "--capture", d, path)
        check("--capture DIR reads its execution_details.json",
              rc2 == 0 and rows2 == base, err2)
        os.remove(os.path.join(d, "execution_details.json"))
        rc3, rows3, err3 = tlparse("--trace-name", "t", "--capture", d, path)
        check("--capture DIR without details: every trace in it",
              rc3 == 0 and rows3 == base, err3)
        rc4, rows4, err4 = tlparse("--trace-name", "t", "--capture",
                                   os.path.join(d, name), path)
        check("--capture FILE", rc4 == 0 and rows4 == base, err4)
    finally:
        shutil.rmtree(tmp)
else:
    print("SKIP capture discovery: %s not found" % path)
