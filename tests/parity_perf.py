#!/usr/bin/env python3
"""Parity of tl-perfmodel's flops and bytes with TraceLens' reports.

usage: parity_perf.py BINDIR TRACES REFROOT

For every trace TRACES/NAME.json[.gz] with a reference REFROOT/NAME/:

Two checks, each row within 1e-6 relative:
  sheets   every row of TraceLens' per-category sheets (GEMM.csv, CONV_fwd.csv,
           ...): its name and arguments go through tl-perfmodel as a stream,
           and flops/1e9 must equal GFLOPS_first, bytes/2^20 Data Moved (MB).
           Rows of the *_bwd sheets named after a forward op are fed as the
           backward row of that op.
  unified  tl-parse | tl-perfmodel on the trace, matched to
           unified_perf_summary.csv by name and arguments.
Rows listed in docs/DEVIATIONS.md, section "Perf-model rows skipped by the
parity tests" ("- `TRACE` `NAME`" or "- `TRACE` `NAME` `INPUT_DIMS`"), are
skipped and counted.  Prints the rows compared per trace and category;
exit 0 when all agree and every sheet that has reference rows (other than
listed deviations) in some trace was compared on at least one row, 1
otherwise.

The serving traces (INFERENCE_REF) have TraceLens' inference report:
its sheets' models read what the trace holds outside the op's arguments
(the serving step's sq/sk sums, an MoE's top-k and weight dtype), which
reach tl-perfmodel as the context_args column, here built from the
sheet's "param:" columns; its unified table comes from the trace with
the graph-capture trace merged and pseudo-ops made, as tl-parse merges
NAME.capture.json.gz beside the trace.  A unified row tl-parse does not
make from the trace is looked for in the trace's graph-capture trace
alone, when there is one (its ops ran eagerly there), and counted as
"(capture trace)".  The pipeline and roofline checks (kernel times) are
not run on them.
"""
import ast
import collections
import csv
import json
import math
import os
import subprocess
import sys

from parity import read_tsv

REL = 1e-6
PRESENT = set()     # sheets with rows that are not listed deviations
SHEETS = ["GEMM", "CONV_fwd", "CONV_bwd", "SDPA_fwd", "SDPA_bwd",
          "Normalization", "Normalization_fwd", "Reduce_fwd", "Reduce_bwd",
          "UnaryElementwise", "BinaryElementwise", "InferenceAttention_fwd",
          "MoE_unfused_fwd", "MoE_fused_fwd", "RMSNorm_fwd"]
COLS = ["name", "row_kind", "fwd_name", "input_dims", "input_types",
        "input_strides", "concrete_inputs", "context_args"]
STEP_KEYS = ["c_sq", "c_sk", "c_sqsq", "c_sqsk", "g_sq", "g_sk", "g_sqsq",
             "g_sqsk"]


def js(text):
    """Python-literal (or JSON) text -> compact JSON text; '' for None."""
    if text is None or text == "" or text == "None":
        return ""
    try:
        v = json.loads(text)
    except ValueError:
        v = ast.literal_eval(text)
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def key(name, dims, types, strides, concrete):
    return (name, js(dims), js(types), js(strides), js(concrete))


def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def context_args(r):
    """The context_args of a sheet row, from TraceLens' parameters: the
    step's sq/sk sums, an MoE's top-k, gate and weight dtype."""
    ctx = {}
    if all(r.get("param: " + k, "") != "" for k in STEP_KEYS):
        for k in STEP_KEYS:
            ctx[k] = int(float(r["param: " + k]))
    if r["name"].startswith("pseudo_op::moe_triton_unfused_"):
        if r.get("param: topk", "") != "":
            ctx["topk"] = int(r["param: topk"])
        if r.get("param: gated", "") != "":
            ctx["gated"] = r["param: gated"] == "True"
        if r.get("param: weight_dtype", "") not in ("", "None"):
            ctx["weight_dtype"] = r["param: weight_dtype"].lower()
    return json.dumps(ctx, separators=(",", ":")) if ctx else ""


def skipped(trace, section="Perf-model rows skipped by the parity tests"):
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "DEVIATIONS.md")
    rows = []
    on = False
    for ln in open(path, encoding="utf-8"):
        if ln.startswith("## "):
            on = section in ln
        elif on and ln.startswith("- `"):
            parts = ln.split("`")
            if len(parts) >= 4 and parts[1] == trace:
                rows.append((parts[3], js(parts[5]) if len(parts) >= 6 and
                             parts[5] else None))
    return rows


def is_skipped(skips, name, dims):
    return any((n == name or (n.endswith("*") and name.startswith(n[:-1])))
               and (d is None or d == js(dims)) for n, d in skips)


def close(a, b):
    return abs(a - b) <= REL * max(abs(a), abs(b)) or abs(a - b) <= 1e-12


def num(s):
    if s is None or s == "" or s.lower() == "nan":
        return None
    if s.startswith("np.float64("):
        s = s[len("np.float64("):-1]
    return float(s)


def compare(where, name, dims, tl, ref_gflops, ref_mb, stats, cat):
    """0 if equal, 1 if not; counts into stats."""
    want_f, want_b = num(ref_gflops), num(ref_mb)
    got_f = int(tl["flops"]) / 1e9 if tl.get("flops") else None
    got_b = int(tl["bytes"]) / 1048576 if tl.get("bytes") else None
    bad = 0
    if want_f is not None:
        if got_f is None or not close(got_f, want_f):
            bad = 1
    if want_b is not None:
        if got_b is None or not close(got_b, want_b):
            bad = 1
    if want_f is None and want_b is None:
        stats["tl only"] += 1
        return 0
    if bad:
        print("%s %s %s: tl GFLOPS %s MB %s (%s), TraceLens %s %s" %
              (where, name, dims, got_f, got_b, tl.get("perf_error", ""),
               ref_gflops, ref_mb))
        return 1
    stats[cat] += 1
    return 0


def run_perfmodel(bindir, rows):
    text = "\t".join(COLS) + "\n" + "".join(
        "\t".join(esc(r[c]) for c in COLS) + "\n" for r in rows)
    out = subprocess.run([os.path.join(bindir, "tl-perfmodel")],
                         input=text.encode(), stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    return read_tsv(out)


def bwd_forward_ops(bindir):
    out = subprocess.run([os.path.join(bindir, "tl-categorize"), "--list"],
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    return {r["name"] for r in read_tsv(out) if r["bwd_model"] == "yes"}


def check_sheets(bindir, refdir, skips, stats):
    bwd_ops = bwd_forward_ops(bindir)
    bad = nrows = 0
    for sheet in SHEETS:
        path = os.path.join(refdir, sheet + ".csv")
        if not os.path.exists(path):
            continue
        ref = list(csv.DictReader(open(path, encoding="utf-8")))
        rows = []
        for r in ref:
            back = sheet.endswith("_bwd") and r["name"] in bwd_ops
            rows.append({
                "name": r["name"], "row_kind": "backward" if back else "model",
                "fwd_name": r["name"] if back else "",
                "input_dims": js(r["Input Dims_first"]),
                "input_types": js(r["Input type_first"]),
                "input_strides": js(r["Input Strides_first"]),
                "concrete_inputs": js(r["Concrete Inputs_first"]),
                "context_args": context_args(r)})
        got = run_perfmodel(bindir, rows)
        for r, g in zip(ref, got):
            nrows += 1
            if is_skipped(skips, r["name"], r["Input Dims_first"]):
                stats["skipped"] += 1
                continue
            PRESENT.add("sheet " + sheet)
            bad += compare(sheet, r["name"], r["Input Dims_first"], g,
                           r["GFLOPS_first"], r["Data Moved (MB)_first"],
                           stats, "sheet " + sheet)
    return bad, nrows


def check_unified(bindir, trace, refdir, skips, stats):
    path = os.path.join(refdir, "unified_perf_summary.csv")
    if not os.path.exists(path):
        return 0, 0
    got = {}
    capture = trace.replace(".json", ".capture.json")
    for t in [trace] + ([capture] if os.path.exists(capture) else []):
        p1 = subprocess.Popen([os.path.join(bindir, "tl-parse"), t],
                              stdout=subprocess.PIPE)
        out = subprocess.run([os.path.join(bindir, "tl-perfmodel")],
                             stdin=p1.stdout, stdout=subprocess.PIPE,
                             check=True).stdout.decode()
        p1.wait()
        for r in read_tsv(out):
            r["from_capture"] = t == capture
            got.setdefault(key(r["name"], r["input_dims"], r["input_types"],
                               r["input_strides"], r["concrete_inputs"]), r)
    bad = nrows = 0
    for r in csv.DictReader(open(path, encoding="utf-8")):
        if "(Synthetic Op)" in r["name"]:
            continue
        nrows += 1
        k = key(r["name"], r["Input Dims"], r["Input type"], r["Input Strides"],
                r["Concrete Inputs"])
        g = got.get(k)
        if is_skipped(skips, r["name"], r["Input Dims"]):
            stats["skipped"] += 1
            continue
        if g is None:
            if num(r.get("GFLOPS")) is None and num(r.get("Data Moved (MB)")) is None:
                continue    # nothing to compare (e.g. a backward wrapper)
            print("unified %s %s: no tl row" % (r["name"], r["Input Dims"]))
            bad += 1
            continue
        bad += compare("unified", r["name"], r["Input Dims"], g, r.get("GFLOPS"),
                       r.get("Data Moved (MB)"), stats,
                       "unified " + (g.get("category") or "?") +
                       (" (capture trace)" if g["from_capture"] else ""))
    return bad, nrows


def pipe(cmds):
    """Run a pipeline of argument lists; its stdout as text."""
    procs = []
    prev = None
    for c in cmds:
        pr = subprocess.Popen(c, stdin=prev, stdout=subprocess.PIPE)
        if prev is not None:
            prev.close()
        prev = pr.stdout
        procs.append(pr)
    out = prev.read().decode()
    for pr in procs:
        if pr.wait() != 0:
            raise RuntimeError("%s failed" % " ".join(pr.args))
    return out


def check_pipeline(bindir, trace, refdir, hw):
    """tl-parse | tl-categorize gemm | tl-efficiency --hw HW against the GEMM
    sheet: the same shapes, counts and kernel times, efficiency filled."""
    path = os.path.join(refdir, "GEMM.csv")
    if hw is None or not os.path.exists(path):
        return 0, 0
    out = pipe([[os.path.join(bindir, "tl-parse"), trace],
                [os.path.join(bindir, "tl-categorize"), "gemm"],
                [os.path.join(bindir, "tl-efficiency"), "--hw", hw]])
    got = collections.defaultdict(lambda: [0, 0.0, 0])
    rows = read_tsv(out)
    ulp = max([math.ulp(float(r["ts_us"])) for r in rows] + [0.0])
    for r in rows:
        if r["name"] not in ("aten::mm", "aten::addmm", "aten::bmm",
                             "aten::baddbmm", "aten::_scaled_mm"):
            continue
        g = got[(r["name"], js(r["input_dims"]), js(r["input_types"]),
                 js(r["input_strides"]))]
        g[0] += 1
        g[1] += float(r["kernel_time_us"])
        g[2] += int(r["tflops_s"] != "" and r["pct_roofline"] != "" and
                    r["bound"] != "")
    bad = n = 0
    want = set()
    for r in csv.DictReader(open(path, encoding="utf-8")):
        k = (r["name"], js(r["Input Dims_first"]), js(r["Input type_first"]),
             js(r["Input Strides_first"]))
        want.add(k)
        n += 1
        g = got.get(k)
        cnt, t = int(r["name_count"]), float(r["Kernel Time (µs)_sum"])
        if g is None or g[0] != cnt or not close_t(g[1], t, cnt, ulp) or \
                g[2] != cnt:
            print("pipeline %s %s: tl %s, TraceLens count %d time %s" %
                  (k[0], k[1], g and tuple(g), cnt, t))
            bad += 1
    for k in set(got) - want:
        print("pipeline %s %s: only in tl" % k[:2])
        bad += 1
    return bad, n


def close_t(a, b, n, ulp):
    """Times: 1e-6 relative, or TraceLens' rounding of n intervals' ends to
    doubles (one ulp of the trace's timestamps each; docs/DEVIATIONS.md)."""
    return abs(a - b) <= REL * max(abs(a), abs(b)) or abs(a - b) <= 2 * n * ulp


def check_roofline(bindir, trace, refdir):
    """Roofline time, bound and % of roofline per unified row, 1e-9."""
    path = os.path.join(refdir, "unified_perf_summary.csv")
    if not os.path.exists(path):
        return 0, 0
    ref = list(csv.DictReader(open(path, encoding="utf-8")))
    if not ref or "Roofline Time (µs)_first" not in ref[0]:
        return 0, 0
    out = pipe([[os.path.join(bindir, "tl-parse"), trace],
                [os.path.join(bindir, "tl-efficiency"), "--hw", "mi300x"]])
    got = {}
    for r in read_tsv(out):
        got.setdefault(key(r["name"], r["input_dims"], r["input_types"],
                           r["input_strides"], r["concrete_inputs"]), r)
    bad = n = 0
    for r in ref:
        g = got.get(key(r["name"], r["Input Dims"], r["Input type"],
                        r["Input Strides"], r["Concrete Inputs"]))
        want_t = num(r["Roofline Time (µs)_first"])
        if want_t is None:
            continue
        n += 1
        ok = g is not None and g["roofline_time_us"] != "" and \
            abs(float(g["roofline_time_us"]) - want_t) <= 1e-9 * want_t and \
            g["bound"] == r["Roofline Bound"].split("_")[0].lower() and \
            abs(float(g["pct_roofline"]) - num(r["Pct Roofline_mean"])) <= \
            1e-9 * num(r["Pct Roofline_mean"])
        if not ok:
            print("roofline %s: tl %s, TraceLens %s %s %s" % (
                r["name"], g and (g["roofline_time_us"], g["bound"],
                                  g["pct_roofline"]),
                want_t, r["Roofline Bound"], r["Pct Roofline_mean"]))
            bad += 1
    return bad, n


def main():
    bindir, traces, refroot = sys.argv[1:4]
    bad = 0
    total = collections.Counter()
    for name in sorted(os.listdir(refroot)):
        refdir = os.path.join(refroot, name)
        trace = os.path.join(traces, name + ".json.gz")
        if not os.path.exists(trace):
            trace = os.path.join(traces, name + ".json")
        if not os.path.isdir(refdir) or not os.path.exists(trace):
            continue
        inference = name in os.environ.get("INFERENCE_REF", "").split()
        skips = skipped(name)
        stats = collections.Counter()
        b1, n1 = check_sheets(bindir, refdir, skips, stats)
        b2, n2 = check_unified(bindir, trace, refdir, skips, stats)
        hw = "mi300x" if name.startswith("mi300") else \
            "h100" if name.startswith("h100") else None
        b3, n3 = check_pipeline(bindir, trace, refdir, hw) if not inference \
            else (0, 0)
        b4, n4 = check_roofline(bindir, trace, refdir)
        stats["pipeline gemm"] += n3 - b3
        stats["roofline"] += n4 - b4
        b2 += b3 + b4
        if n1 + n2 == 0:
            continue
        print("%s: %s; %d mismatches" % (name, ", ".join(
            "%s %d" % (k, stats[k]) for k in sorted(stats)), b1 + b2))
        total.update(stats)
        bad += b1 + b2
    for k in sorted(PRESENT):
        if total[k] == 0:
            print("%s: reference rows, but none compared" % k)
            bad += 1
    print("all traces: %s" % ", ".join("%s %d" % (k, total[k])
                                         for k in sorted(total)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
