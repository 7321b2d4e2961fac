#!/usr/bin/env python3
"""Parity of tl-parse with TraceLens' CSV reports (../shared/reference/tracelens).

usage: parity.py TL_PARSE TRACE REFDIR CHECK
CHECK is one of: timeline, ops_summary, unified, kernel_summary, by_category.
Prints one line per mismatch and a summary line; exit 0 when equal within
1e-6 relative (absolute 1e-6 near zero), 1 otherwise, 77 when the reference
has no such sheet.  Rows listed in docs/DEVIATIONS.md (section "Rows skipped
by the parity tests", lines "- `TRACE` `NAME`") are skipped and counted.
Rows of the section "Rows that need the graph-capture merge" are compared:
a listed name that differs is counted as needing the merge, not as a
mismatch (TraceLens' inference report merged the capture trace).
"""
import ast
import collections
import csv
import json
import math
import os
import subprocess
import sys

REL = 1e-6
NGPU = 0
ULP = 0.0   # one ulp of the trace's largest GPU timestamp, in µs


def close(a, b, n=1):
    """Equal within 1e-6 relative, or within the rounding TraceLens' doubles
    make: each of n intervals has ends rounded to ULP (docs/DEVIATIONS.md)."""
    d = abs(a - b)
    return d <= REL * max(abs(a), abs(b)) or d <= 1e-6 or d <= 2 * n * ULP


def run(tl, args, trace):
    out = subprocess.run([tl] + args + [trace], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    return read_tsv(out)


def read_tsv(text):
    """The rows of a TSV stream as dicts, fields decoded."""
    lines = text.split("\n")
    head = lines[0].split("\t")
    rows = []
    for ln in lines[1:]:
        if ln:
            f = [x.replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\")
                 for x in ln.split("\t")]
            rows.append(dict(zip(head, f)))
    return rows


def norm(v):
    """Python-literal or JSON text -> nested tuples, '' / None -> None."""
    if v is None or v == "" or v == "None":
        return None
    if isinstance(v, str):
        try:
            v = json.loads(v)
        except ValueError:
            v = ast.literal_eval(v)
    if isinstance(v, (list, tuple)):
        return tuple(norm2(x) for x in v)
    return v


def norm2(x):
    if isinstance(x, (list, tuple)):
        return tuple(norm2(y) for y in x)
    return x


def skipped(trace, section="Rows skipped by the parity tests"):
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "DEVIATIONS.md")
    names = set()
    try:
        on = False
        for ln in open(path, encoding="utf-8"):
            if ln.startswith("## "):
                on = section in ln
            elif on and ln.startswith("- `"):
                parts = ln.split("`")
                if len(parts) >= 4 and parts[1] == trace:
                    names.add(parts[3])
    except OSError:
        pass
    return names


def check_timeline(tl, trace, ref):
    want = {r["type"].replace("_time", ""): float(r["time ms"]) * 1e3
            for r in csv.DictReader(open(ref))}
    got = {r["type"].replace("computation", "computation"): float(r["time_us"])
           for r in run(tl, ["-t"], trace)}
    got = {("computation" if k == "computation" else k): v for k, v in got.items()}
    bad = 0
    for k, v in want.items():
        g = got.get(k)
        if g is None or not close(g, v, NGPU):
            print("timeline %s: tl %s, TraceLens %s" % (k, g, v))
            bad += 1
    return bad, len(want), 0


MERGE = "Rows that need the graph-capture merge"


def differs(kind, k, g, w, merge, nmerge):
    """Print a row that differs; 1 if it is a mismatch, 0 if it is listed
    as needing the graph-capture merge (counted in nmerge[0])."""
    if k in merge:
        nmerge[0] += 1
        print("%s %s: needs the graph-capture merge (tl %s, TraceLens %s)"
              % (kind, k[:90], g, w))
        return 0
    return 1


def check_ops_summary(tl, trace, ref):
    # TraceLens' inference report groups by name and parent module
    # (--group_by_parent_module): its rows of one name are summed.
    want = collections.defaultdict(lambda: (0, 0.0, 0.0))
    for r in csv.DictReader(open(ref)):
        w = want[r["name"]]
        want[r["name"]] = (w[0] + int(r["Count"]),
                           w[1] + float(r["total_direct_kernel_time_sum"]),
                           w[2] + float(r["total_subtree_kernel_time_sum"]))
    want = dict(want)
    got = collections.defaultdict(lambda: [0, 0.0, 0.0, 0])
    for r in run(tl, ["-l"], trace):
        g = got[r["name"]]
        g[0] += 1
        g[1] += float(r["kernel_time_us"])
        g[2] += float(r["subtree_kernel_time_us"])
        g[3] += int(r["kernel_count"])
    merge = skipped(os.path.basename(trace).split(".json")[0], MERGE)
    bad = 0
    nmerge = [0]
    for k in sorted(set(want) | set(got)):
        w, g = want.get(k), got.get(k)
        if w is None or g is None or w[0] != g[0] or not close(w[1], g[1], g[3]) \
                or not close(w[2], g[2], NGPU):
            if differs("ops_summary", k, g and tuple(g[:3]), w, merge, nmerge):
                print("ops_summary %s: tl %s, TraceLens %s" % (k, g and tuple(g[:3]), w))
                bad += 1
    return bad, len(want), nmerge[0]


def check_unified(tl, trace, ref):
    skip = skipped(os.path.basename(trace).split(".json")[0])
    want = collections.defaultdict(lambda: [0, 0.0])
    for r in csv.DictReader(open(ref)):
        key = (r["name"], norm(r["Input Dims"]), norm(r["Input type"]),
               norm(r["Input Strides"]), norm(r["Concrete Inputs"]))
        want[key][0] += int(r["operation_count"])
        want[key][1] += float(r["Kernel Time (µs)_sum"])
    got = collections.defaultdict(lambda: [0, 0.0, 0])
    for r in run(tl, [], trace):
        if r["category"] == "comm":
            continue
        name = r["name"]
        if r["row_kind"] == "synthetic":
            name = "%s->%s (Synthetic Op)" % (name, json.loads(r["kernels"])[0]["name"])
        key = (name, norm(r["input_dims"]), norm(r["input_types"]),
               norm(r["input_strides"]), norm(r["concrete_inputs"]))
        got[key][0] += 1
        got[key][1] += float(r["kernel_time_us"])
        got[key][2] += int(r["kernel_count"])
    merge = skipped(os.path.basename(trace).split(".json")[0], MERGE)
    bad = nskip = 0
    nmerge = [0]
    for k in sorted(set(want) | set(got), key=str):
        if k[0] in skip:
            nskip += 1
            continue
        w, g = want.get(k), got.get(k)
        if w is None or g is None or w[0] != g[0] or not close(w[1], g[1], g[2]):
            if differs("unified", k[0], g and g[:2], w, merge, nmerge):
                print("unified %s %s: tl %s, TraceLens %s" % (k[0][:90], k[1], g and g[:2], w))
                bad += 1
    return bad, len(want), nskip + nmerge[0]


# tl's categories in the categories of TraceLens' ops_summary_by_category
# (its op categories; direction picks fwd or bwd).  Ops TraceLens puts
# elsewhere are listed in DEVIATIONS.md, "Categories that differ from
# TraceLens' reports".
# TraceLens' registry puts every aten:: norm, batch norm and RMS norm
# included, in NORM_fwd/NORM_bwd; its RMSNorm category holds the serving
# frameworks' RMS norms.
CATMAP = {"gemm": "GEMM", "conv": "CONV_%s", "attention": "SDPA_%s",
          "layernorm": "NORM_%s", "groupnorm": "NORM_%s",
          "batchnorm": "NORM_%s", "instancenorm": "NORM_%s",
          "rmsnorm": "RMSNorm", "elementwise": "elementwise",
          "reduce": "reduce", "triton": "triton", "softmax": "other",
          "memcpy": "other", "other": "other", "moe": "other",
          "rope": "other", "kvcache": "other", "quant": "other"}


def tracelens_category(r, moved, turned):
    """TraceLens' category of a tl launcher row r: the DEVIATIONS.md
    lists (moved: op -> category, turned: op -> direction), else CATMAP."""
    c = moved.get(r["name"])
    if c is None and r["category"] == "rmsnorm" and r["name"].startswith("aten::"):
        c = "NORM_%s"
    if c is None:
        c = CATMAP.get(r["category"], "other")
    if "%s" in c:
        c = c % turned.get(r["name"], r["direction"])
    return c


def recategorised(trace, section="Categories that differ from TraceLens' reports"):
    """{op name: TraceLens category (or direction)} from DEVIATIONS.md."""
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "DEVIATIONS.md")
    out = {}
    on = False
    for ln in open(path, encoding="utf-8"):
        if ln.startswith("## "):
            on = section in ln
        elif on and ln.startswith("- `"):
            parts = ln.split("`")
            if len(parts) >= 6 and parts[1] == trace:
                out[parts[3]] = parts[5]
    return out


def check_by_category(tl, trace, ref):
    """Kernel time per category: TraceLens' groups (by parent module)
    summed per category against tl's launcher rows by category."""
    name = os.path.basename(trace).split(".json")[0]
    moved = recategorised(name)
    turned = recategorised(name, "Directions that differ from TraceLens' reports")
    merge = skipped(name, MERGE)
    want = collections.Counter()
    for r in csv.DictReader(open(ref)):
        want[r["op category"]] += float(r["total_direct_kernel_time_ms"]) * 1e3
    got = collections.Counter()
    nk = collections.Counter()
    for r in run(tl, ["-l"], trace):
        if r["category"] == "comm":
            continue
        c = tracelens_category(r, moved, turned)
        got[c] += float(r["kernel_time_us"])
        nk[c] += int(r["kernel_count"])
    bad = nmerge = 0
    for k in sorted(set(want) | set(got)):
        if not close(want.get(k, 0.0), got.get(k, 0.0), nk[k]):
            print("by_category %s: tl %s, TraceLens %s%s" % (
                k, got.get(k), want.get(k),
                ": needs the graph-capture merge" if merge else ""))
            if merge:
                nmerge += 1
            else:
                bad += 1
    # Op by op, so that no two differences cancel: the categories of each
    # op name in TraceLens' ops_summary.csv (its Categories column) against
    # those of tl's launcher rows of that name.
    summary = os.path.join(os.path.dirname(ref), "ops_summary.csv")
    if os.path.exists(summary):
        cats = collections.defaultdict(set)
        for r in run(tl, ["-l"], trace):
            if r["category"] != "comm":
                cats[r["name"]].add(tracelens_category(r, moved, turned))
        for r in csv.DictReader(open(summary)):
            w = set(ast.literal_eval(r["Categories"]))
            if r["name"] in cats and cats[r["name"]] != w:
                print("by_category op %s: tl %s, TraceLens %s" % (
                    r["name"], sorted(cats[r["name"]]), sorted(w)))
                bad += 1
    return bad, len(want), nmerge


def check_kernel_summary(tl, trace, ref):
    want = collections.defaultdict(lambda: [0, 0.0])
    rd = csv.DictReader(open(ref))
    has_parent = "Parent cpu_op" in rd.fieldnames
    for r in rd:
        key = (r.get("Parent cpu_op", ""), r["Kernel name"], r["Kernel stream"])
        want[key][0] += int(r["Kernel duration (µs)_count"])
        want[key][1] += float(r["Kernel duration (µs)_sum"])
    got = collections.defaultdict(lambda: [0, 0.0])
    for r in run(tl, ["-k"], trace):
        if r["kind"] != "kernel":
            continue
        parent = (r["op_name"] or r["launcher"]) if has_parent else ""
        key = (parent, r["name"], r["stream"])
        got[key][0] += 1
        got[key][1] += float(r["dur_us"])
    bad = 0
    for k in sorted(set(want) | set(got), key=str):
        w, g = want.get(k), got.get(k)
        if w is None or g is None or w[0] != g[0] or not close(w[1], g[1], g[0]):
            print("kernel_summary %s %s: tl %s, TraceLens %s" % (k[0][:40], k[1][:60], g, w))
            bad += 1
    return bad, len(want), 0


def main():
    tl, trace, refdir, check = sys.argv[1:5]
    sheet = {"timeline": "gpu_timeline.csv", "ops_summary": "ops_summary.csv",
             "unified": "unified_perf_summary.csv",
             "kernel_summary": "kernel_summary.csv",
             "by_category": "ops_summary_by_category.csv"}[check]
    ref = os.path.join(refdir, sheet)
    if not os.path.exists(ref):
        print("no %s reference" % sheet)
        return 77
    global ULP, NGPU
    ks = run(tl, ["-k"], trace)
    NGPU = len(ks)
    ULP = math.ulp(max([abs(float(r["ts_us"])) for r in ks] + [0.0]))
    bad, n, nskip = globals()["check_" + check](tl, trace, ref)
    print("%s %s: %d reference rows, %d mismatches, %d skipped or needing "
          "the graph-capture merge (DEVIATIONS.md)"
          % (os.path.basename(refdir), check, n, bad, nskip))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
