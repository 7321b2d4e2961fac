#!/usr/bin/env python3
"""Parity of tl-compare with TraceLens' compare reports, and its symmetries.

usage: parity_compare.py BINDIR TRACES REFROOT

For every REFROOT/compare-A-vs-B-MODEL/ whose traces TRACES/A-MODEL.json[.gz]
(the reference) and TRACES/B-MODEL.json[.gz] (the target) exist:

  unified   tl-parse both | tl-compare, against
            unified_perf_summary_{intersect,only_baseline,only_variant}_TAG.csv:
            every op TraceLens matches is a "both" row with the same counts,
            kernel times, means, delta and delta %; the ops matched on their
            whole signature are exactly TraceLens' intersection; its
            one-sided ops are one-sided here (or paired by layout).
  ops       the same on tl-parse --launchers against ops_unique_args_*.
  timeline  tl-compare --timeline on tl-parse --timeline tables equals
            gpu_timeline.csv (eight rows); on the op streams, the six rows
            their trace_*_us columns hold are the same.
  swap      roles swapped: the same matched set, every delta_time_us
            negated exactly, ref_only and target_only exchanged.
  self      a trace against itself: every row "both", delta 0, ratio 1,
            explained yes wherever a ratio is expected.

Times compare within 1e-6 relative, or within the rounding of TraceLens'
double timestamps (tests/parity.py's close(), summed over both sides for a
difference).  Exit 0 when all agree, 1 otherwise, 77 when there is no
compare reference.
"""
import csv
import glob
import math
import os
import re
import subprocess
import sys
import tempfile

import parity
from parity import close, norm, read_tsv

REL = 1e-6
NGPU = 0    # GPU events of the larger trace: intervals on its timeline


def sh(args, out=None):
    r = subprocess.run(args, check=True, stdout=subprocess.PIPE)
    if out is not None:
        with open(out, "wb") as f:
            f.write(r.stdout)
    return r.stdout.decode()


def trace_path(traces, name):
    for ext in (".json.gz", ".json"):
        p = os.path.join(traces, name + ext)
        if os.path.exists(p):
            return p
    return None


def key_tl(r):
    return (r["name"], norm(r["input_dims"]), norm(r["input_types"]),
            norm(r["input_strides"]), norm(r["concrete_inputs"]))


def key_ref(r):
    return (r["name"], norm(r["Input Dims"]), norm(r["Input type"]),
            norm(r["Input Strides"]), norm(r["Concrete Inputs"]))


def tol(x, n):
    """What close() allows on a time x made of n intervals."""
    return max(REL * abs(x), 1e-6, 2 * n * parity.ULP)


def close_diff(got, want, a, b, n):
    """A difference of two sums: the errors of both sides add up."""
    return abs(got - want) <= tol(a, n) + tol(b, n)


def close_pct(got, want, x, total, n):
    """A percentage 100 x / total: the errors of x and total carried over."""
    if got is None or want is None:
        return got is None and want is None
    t = 100 * (tol(x, n) / abs(total) + abs(x) * tol(total, n) / total ** 2)
    return abs(got - want) <= t + REL * abs(want)


def num(s):
    return float(s) if s not in ("", None) else None


def check_sheet(rows, refdir, sheet, tag, base, cols):
    """rows: tl-compare's output; cols: TraceLens' sum, mean, count names."""
    csum, cmean, ccount = cols
    bad = 0
    inter = list(csv.DictReader(open(os.path.join(
        refdir, "%s_intersect_%s.csv" % (sheet, tag)))))
    got = {}
    for r in rows:
        if r["match"] == "both":
            got[key_tl(r)] = r
    seen = {}
    for w in inter:
        seen[key_ref(w)] = seen.get(key_ref(w), 0) + 1
    nskip = 0
    for w in inter:
        k = key_ref(w)
        if seen[k] > 1 or "(Synthetic Op)" in w["name"]:
            nskip += 1      # merged across threads, or a per-kernel name
            continue
        g = got.get(k)
        if g is None:
            print("%s: TraceLens matches %s %s, tl does not" % (sheet, k[0], k[1]))
            bad += 1
            continue
        rs, ts = float(w["%s::%s" % (base, csum)]), float(w["%s::%s" % (tag, csum)])
        n = int(g["ref_count"]) + int(g["target_count"])
        checks = [
            ("ref count", int(g["ref_count"]) == int(float(w["%s::%s" % (base, ccount)]))),
            ("target count", int(g["target_count"]) == int(float(w["%s::%s" % (tag, ccount)]))),
            ("ref time", close(float(g["ref_kernel_time_us"]), rs, n)),
            ("target time", close(float(g["target_kernel_time_us"]), ts, n)),
            ("ref mean", close(float(g["ref_kernel_time_mean_us"]),
                               float(w["%s::%s" % (base, cmean)]), n)),
            ("target mean", close(float(g["target_kernel_time_mean_us"]),
                                  float(w["%s::%s" % (tag, cmean)]), n)),
            ("delta", close_diff(float(g["delta_time_us"]),
                                 float(w["%s__%s_diff" % (csum, tag)]), rs, ts, n)),
        ]
        checks.append(("delta %", close_pct(num(g["delta_pct"]),
                       num(w["%s__%s_pct" % (csum, tag)]), ts - rs, rs, 2 * n)))
        for what, ok in checks:
            if not ok:
                print("%s %s %s: %s differs (tl %s)" % (sheet, k[0], k[1], what,
                      {c: g[c] for c in ("ref_kernel_time_us", "target_kernel_time_us",
                                         "delta_time_us", "delta_pct")}))
                bad += 1
    # Matched on the whole signature = TraceLens' intersection.
    exact = {key_tl(r) for r in rows if r["match"] == "both" and not r["layout_note"]}
    want = {key_ref(w) for w in inter}
    for k in sorted(exact ^ want, key=str):
        if k[0].endswith("(Synthetic Op)"):
            continue
        print("%s: %s %s matched by %s only" % (sheet, k[0], k[1],
              "tl" if k in exact else "TraceLens"))
        bad += 1
    # One-sided ops stay one-sided, or are paired by layout.
    for side, match in (("only_baseline", "ref_only"), ("only_variant", "target_only")):
        p = os.path.join(refdir, "%s_%s_%s.csv" % (sheet, side, tag))
        if not os.path.exists(p):
            continue
        strides = "input_strides" if match == "ref_only" else "target_input_strides"
        ours = {key_tl(r) for r in rows if r["match"] == match}
        ours |= {key_tl(dict(r, input_strides=r[strides])) for r in rows
                 if r["match"] == "both" and r["layout_note"]}
        for w in csv.DictReader(open(p)):
            if key_ref(w) not in ours and "(Synthetic Op)" not in w["name"]:
                print("%s: %s %s is %s in TraceLens, not in tl" % (sheet, w["name"],
                      w["Input Dims"], side))
                bad += 1
    print("%s: %d TraceLens rows, %d skipped (threads or synthetic), %d mismatches"
          % (sheet, len(inter), nskip, bad))
    return bad


def check_timeline(tlc, tmp, refdir, tag, base, ops):
    bad = 0
    got = {r["type"]: r for r in read_tsv(sh([tlc, "--timeline", "--ref",
           tmp + "/ref-t.tsv", "--target", tmp + "/tgt-t.tsv"]))}
    want = list(csv.DictReader(open(os.path.join(refdir, "gpu_timeline.csv"))))
    if len(got) != len(want):
        print("timeline: %d rows, TraceLens %d" % (len(got), len(want)))
        bad += 1
    n = NGPU
    for w in want:
        t = w["type"][:-len("_time")]
        g = got.get(t)
        a, b = float(w["%s::time ms" % base]) * 1e3, float(w["%s::time ms" % tag]) * 1e3
        d = float(w["time ms__%s_diff" % tag]) * 1e3
        ta = float(want[5]["%s::time ms" % base]) * 1e3     # total_time
        tb = float(want[5]["%s::time ms" % tag]) * 1e3
        if g is None or not close(float(g["ref_time_us"]), a, n) or \
                not close(float(g["target_time_us"]), b, n) or \
                not close_diff(float(g["delta_time_us"]), d, a, b, n) or \
                not close_pct(num(g["delta_pct"]), num(w["time ms__%s_pct" % tag]),
                              b - a, a, 2 * n) or \
                not close_pct(num(g["ref_pct_total"]), num(w["%s::percent" % base]),
                              a, ta, n) or \
                not close_pct(num(g["target_pct_total"]), num(w["%s::percent" % tag]),
                              b, tb, n):
            print("timeline %s: tl %s, TraceLens %s" % (t, g, w))
            bad += 1
    # The same six rows from the op streams' constants.
    six = read_tsv(sh([tlc, "--timeline", "--ref", ops[0], "--target", ops[1]]))
    if len(six) != 6:
        print("timeline from op streams: %d rows, want 6" % len(six))
        bad += 1
    for r in six:
        g = got.get(r["type"])
        if g is None or any(r[c] != g[c] for c in ("ref_time_us", "target_time_us",
                                                   "delta_time_us", "delta_pct")):
            print("timeline from op streams, %s: %s, from tables %s" % (r["type"], r, g))
            bad += 1
    print("timeline: %d TraceLens rows, %d mismatches" % (len(want), bad))
    return bad


def check_swap(tlc, ref, tgt):
    bad = 0
    a = read_tsv(sh([tlc, "--ref", ref, "--target", tgt]))
    b = read_tsv(sh([tlc, "--ref", tgt, "--target", ref]))
    flip = {"both": "both", "ref_only": "target_only", "target_only": "ref_only"}

    def keyed(rows, swapped):
        out = {}
        for r in rows:
            s = (r["input_strides"], r["target_input_strides"])
            if swapped:
                s = (s[1], s[0]) if r["match"] == "both" else (s[0], "")
                if r["match"] == "target_only":
                    s = ("", s[0])
            elif r["match"] == "target_only":
                s = ("", r["target_input_strides"])
            k = (r["name"], r["input_dims"], r["input_types"], r["concrete_inputs"]) + s
            out[k] = r
        return out

    ka, kb = keyed(a, False), keyed(b, True)
    if set(ka) != set(kb):
        print("swap: the row sets differ: %s" % sorted(set(ka) ^ set(kb))[:3])
        bad += 1
    for k in set(ka) & set(kb):
        ra, rb = ka[k], kb[k]
        if flip[ra["match"]] != rb["match"]:
            print("swap %s: %s then %s" % (k[0], ra["match"], rb["match"]))
            bad += 1
        da, db = ra["delta_time_us"], rb["delta_time_us"]
        if not (da == db == "0" or da == "-" + db or db == "-" + da):
            print("swap %s %s: delta %s then %s" % (k[0], k[1], da, db))
            bad += 1
    print("swap: %d rows, %d matched, %d mismatches"
          % (len(a), sum(r["match"] == "both" for r in a), bad))
    return bad


def check_self(tlc, ref):
    bad = 0
    rows = read_tsv(sh([tlc, "--ref", ref, "--target", ref]))
    nexp = 0
    for r in rows:
        ok = r["match"] == "both" and r["delta_time_us"] == "0" and \
            r["delta_pct"] in ("0", "") and r["actual_ratio"] in ("1", "") and \
            r["ref_kernel_time_us"] == r["target_kernel_time_us"] and \
            r["unexplained_time_us"] in ("0", "") and not r["layout_note"]
        if r["expected_ratio"]:
            nexp += 1
            ok = ok and r["expected_ratio"] == "1" and r["explained"] == "yes" \
                and r["unexplained_time_us"] == "0"
        if not ok:
            print("self %s %s: %s" % (r["name"], r["input_dims"], r))
            bad += 1
    if nexp == 0:
        print("self: no row has an expected ratio")
        bad += 1
    print("self: %d rows, %d with an expected ratio, %d mismatches" % (len(rows), nexp, bad))
    return bad


def main():
    bindir, traces, refroot = sys.argv[1:4]
    tlp, tlc = os.path.join(bindir, "tl-parse"), os.path.join(bindir, "tl-compare")
    dirs = sorted(glob.glob(os.path.join(refroot, "compare-*-vs-*")))
    bad = ndone = 0
    for d in dirs:
        m = re.match(r"compare-([^-]+)-vs-([^-]+)-(.+)$", os.path.basename(d))
        if not m:
            continue
        ref = trace_path(traces, "%s-%s" % (m.group(1), m.group(3)))
        tgt = trace_path(traces, "%s-%s" % (m.group(2), m.group(3)))
        inter = glob.glob(os.path.join(d, "unified_perf_summary_intersect_*.csv"))
        if ref is None or tgt is None or not inter:
            continue
        tag = re.search(r"_intersect_(.+)\.csv$", inter[0]).group(1)
        base = next(c for c in next(csv.reader(open(os.path.join(d, "gpu_timeline.csv"))))
                    if c.endswith("::time ms") and not c.startswith(tag + "::"))[:-9]
        print("== %s (reference %s, target %s)" % (os.path.basename(d), base, tag))
        global NGPU
        ulp = 0.0
        for t in (ref, tgt):
            ks = read_tsv(sh([tlp, "-k", t]))
            ulp = max(ulp, math.ulp(max([abs(float(r["ts_us"])) for r in ks] + [0.0])))
            NGPU = max(NGPU, len(ks))
        parity.ULP = ulp
        with tempfile.TemporaryDirectory() as tmp:
            ops = [tmp + "/ref.tsv", tmp + "/tgt.tsv"]
            sh([tlp, ref], ops[0])
            sh([tlp, tgt], ops[1])
            sh([tlp, "-l", ref], tmp + "/ref-l.tsv")
            sh([tlp, "-l", tgt], tmp + "/tgt-l.tsv")
            sh([tlp, "-t", ref], tmp + "/ref-t.tsv")
            sh([tlp, "-t", tgt], tmp + "/tgt-t.tsv")
            rows = [r for r in read_tsv(sh([tlc, "--ref", ops[0], "--target", ops[1]]))
                    if r["category"] != "comm"]
            bad += check_sheet(rows, d, "unified_perf_summary", tag, base,
                               ("Kernel Time (µs)_sum", "Kernel Time (µs)_mean",
                                "operation_count"))
            rows = [r for r in read_tsv(sh([tlc, "--ref", tmp + "/ref-l.tsv", "--target",
                                            tmp + "/tgt-l.tsv"]))
                    if r["category"] != "comm"]
            bad += check_sheet(rows, d, "ops_unique_args", tag, base,
                               ("total_direct_kernel_time_sum",
                                "total_direct_kernel_time_mean", "operation_count"))
            bad += check_timeline(tlc, tmp, d, tag, base, ops)
            bad += check_swap(tlc, ops[0], ops[1])
            bad += check_self(tlc, ops[0])
        ndone += 1
    if ndone == 0:
        print("no compare reference with its traces")
        return 77
    print("compare parity: %d reference pairs, %d mismatches" % (ndone, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
