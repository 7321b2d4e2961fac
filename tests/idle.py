#!/usr/bin/env python3
"""Check tl-parse's idle gaps and culprits on tests/data/idle/*.json.

    python3 tests/idle.py BINDIR [DATADIR]

The answers come from tests/gen/gen-idle.py, which lays each trace out by
hand (idle-expect.json): every listed gap's trace ts, offset, length,
step and pieces, and the summed noise gaps.  Prints ok/FAIL lines; exits
1 on a failure.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile


def rows(tsv):
    csv.field_size_limit(1 << 30)
    return list(csv.DictReader(tsv.splitlines(), delimiter="\t",
                               quoting=csv.QUOTE_NONE))


def us(x):
    return round(float(x), 3)


def main():
    bindir = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else "tests/data/idle"
    with open(os.path.join(data, "idle-expect.json"), encoding="utf-8") as f:
        expect = json.load(f)
    fails = 0
    for name, want in sorted(expect.items()):
        out = subprocess.run([os.path.join(bindir, "tl-parse"),
                              os.path.join(data, name)], check=True,
                             capture_output=True, text=True).stdout
        rs = rows(out)
        if "steady" in want:
            got = sorted([r["name"], int(r["iteration"]), int(r["steady"])]
                         for r in rs)
            ok = got == want["steady"] and all(
                r["steady_steps"] == "4" for r in rs)
            print("%s %s: steady flags (one-time cost is warm-up)" %
                  ("ok" if ok else "FAIL", name))
            if not ok:
                fails += 1
                print("  got  %s\n  want %s" % (got, want["steady"]))
            continue
        got = []
        for r in rs:
            if r["idle_gaps"]:
                # [ts, offset, dur, step, device, stream, pid, tid,
                #  [[kind, name, context, dur(, tid)], ...]]
                for (ts, offset, dur, step, device, stream, pid, tid,
                     pieces) in json.loads(r["idle_gaps"]):
                    got.append({
                        "ts": us(ts), "offset": us(offset),
                        "dur": us(dur), "step": step,
                        "culprits": sorted([[p[0], p[1], p[2], us(p[3]),
                                             p[4] if len(p) > 4 else ""]
                                            for p in pieces])})
        got.sort(key=lambda g: g["ts"])
        warm = dict((g["ts"], g.pop("warm")) for g in want["gaps"])
        tids = dict((g["ts"], g.pop("tid")) for g in want["gaps"])
        for g in want["gaps"]:
            g["culprits"] = sorted(g["culprits"])
        checks = [
            ("gaps", got == want["gaps"]),
            ("noise", us(rs[0]["trace_idle_noise_us"]) == want["noise_us"]
             and int(rs[0]["trace_idle_noise_count"]) ==
             want["noise_count"]),
            ("python frames", int(rs[0]["trace_python_frames"]) ==
             want["frames"]),
            # every ns of idle goes to a listed gap or to the noise
            ("idle = gaps + noise", abs(us(rs[0]["trace_idle_us"]) -
                                        sum(g["dur"] for g in got) -
                                        want["noise_us"]) < 1e-6),
        ]
        for what, ok in checks:
            print("%s %s: %s" % ("ok" if ok else "FAIL", name, what))
            if not ok:
                fails += 1
                if what == "gaps":
                    print("  got  %s\n  want %s" % (json.dumps(got),
                                                    json.dumps(want["gaps"])))
        for g in want["gaps"]:
            g["warm"] = warm[g["ts"]]
            g["tid"] = tids[g["ts"]]
        fails += report(bindir, data, name, want)
        fails += recommendations(bindir, data, name, want)
        fails += outdir(bindir, data, name, want)
    return 1 if fails else 0


def recommendations(bindir, data, name, want):
    """The fair report's ranked findings: a known culprit first, with the
    idle its pieces cover; the generic idle finding keeps only the rest
    (no idle counted twice); the DataLoader's actions."""
    if "first" not in want:
        return 0
    p = subprocess.run(
        "%s/tl-parse %s | %s/tl-efficiency --hw h100 | %s/tl-findings" %
        (bindir, os.path.join(data, name), bindir, bindir),
        shell=True, check=True, capture_output=True, text=True).stdout
    top = [r.split(" | ") for r in p.split("Top Findings", 1)[1].split(
        "\n\n", 2)[1].splitlines() if r.startswith("| ") and
           r[2:3].isdigit()]
    title, first_us = want["first"]
    checks = [("first recommendation %s, up to %.3f ms" %
               (title, first_us / 1000.0),
               len(top) > 0 and top[0][1].startswith(title) and
               top[0][2] == "up to %.3f" % (first_us / 1000.0))]
    if "rest_us" in want:
        rest = [r for r in top if r[1].endswith("idle: the GPU waits for "
                                                "the host")]
        checks.append(("the generic idle finding keeps the other %.3f ms" %
                       (want["rest_us"] / 1000.0),
                       len(rest) == 1 and rest[0][2] == "up to %.3f" %
                       (want["rest_us"] / 1000.0)))
    if title.startswith("Single-process DataLoader"):
        rec = p.split("Priority 1: ", 1)[-1].split("\n### ", 1)[0]
        checks.append(("priority 1 names the DataLoader and its settings",
                       all(w in rec for w in (
                           "DataLoader", "num_workers", "pin_memory",
                           "persistent_workers", "prefetch_factor",
                           "Path A", "Path B", "**Impact**")) and
                       rec.startswith(title)))
    fails = 0
    for what, ok in checks:
        print("%s %s: %s" % ("ok" if ok else "FAIL", name, what))
        if not ok:
            fails += 1
            print("  got %s" % top[:3])
    return fails


def outdir(bindir, data, name, want):
    """tl-findings -o: analysis.json's idle section gives each culprit's
    idle and gaps, and the longest gaps with where to find them (trace
    ts, offset, step, GPU, stream, pid, tid), and the first recommendation
    is the known culprit's."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(
            "%s/tl-parse %s | %s/tl-efficiency --hw h100 | "
            "%s/tl-findings -o %s/o > /dev/null" %
            (bindir, os.path.join(data, name), bindir, bindir, d),
            shell=True, check=True)
        with open(os.path.join(d, "o", "category_data", "analysis.json"),
                  encoding="utf-8") as f:
            a = json.load(f)
        with open(os.path.join(d, "o", "charts", "timeline.svg"),
                  encoding="utf-8") as f:
            svg = f.read()
    idle = a["idle"][0]
    agg = {}
    for g in want["gaps"]:
        for kind, cname, ctx, dur, tid in g["culprits"]:
            k = (kind, cname, ctx, tid, g["warm"])
            agg[k] = agg.get(k, 0) + dur
    got = dict(((c["kind"], c["name"], c["context"], c["other_thread"],
                 c["warm_up"]), round(c["idle_ms"] * 1000, 3))
               for c in idle["culprits"])
    listed = sorted(want["gaps"], key=lambda g: (-g["dur"], g["ts"]))
    gl = [g for g in idle["largest_gaps"] if g.get("listed", True)]
    where = [(g["ts_us"], g["offset_ms"], g["length_ms"], g["step"],
              g["device"], g["stream"], g["pid"], g["tid"]) for g in gl]
    wwant = [(g["ts"], g["offset"] / 1000.0, g["dur"] / 1000.0, g["step"],
              "0", 7, "100", g["tid"]) for g in listed[:5]]
    # The timeline chart's gap list: each listed gap's line under it
    # says where a trace viewer shows it.
    at = re.findall(r'<text class="gap-at"[^>]*>([^<]*)</text>', svg)
    swant = ["ts %.3f us (+%.3f ms from the trace's first event), step %d, "
             "GPU 0 stream 7, pid 100 tid %s" %
             (g["ts"], g["offset"] / 1000.0, g["step"], g["tid"])
             for g in listed[:5]]
    sgot = [x for x in at if "not listed" not in x]
    checks = [("-o analysis.json: each culprit's idle", got == agg),
              ("-o analysis.json: the longest gaps, where to find them",
               sorted(where) == sorted(wwant)),
              ("timeline.svg: the longest gaps, where to find them",
               sorted(sgot) == sorted(swant))]
    if "first" in want:
        r = a["recommendations"][0]
        checks.append(("-o analysis.json: the first recommendation is the "
                       "known culprit's",
                       r["pattern"] == "idle_culprit" and
                       abs(r["recoverable_ms"] - want["first"][1] / 1000.0)
                       < 1e-9))
    fails = 0
    for what, ok in checks:
        print("%s %s: %s" % ("ok" if ok else "FAIL", name, what))
        if not ok:
            fails += 1
            print("  got  %s %s %s\n  want %s %s %s" %
                  (got, where, sgot, agg, wwant, swant))
    return fails


def report(bindir, data, name, want):
    """The rough report's culprit table: each culprit's idle and gaps."""
    p = subprocess.run(
        "%s/tl-parse %s | %s/tl-efficiency --hw h100 | "
        "%s/tl-findings --report rough" % (bindir, os.path.join(data, name),
                                           bindir, bindir),
        shell=True, check=True, capture_output=True, text=True).stdout
    table = p.split("What the host was doing while the GPU waited", 1)[1]
    table = table.split("\n\n", 2)[1].splitlines()
    agg = {}
    for g in want["gaps"]:
        for kind, cname, ctx, dur, tid in g["culprits"]:
            k = (kind, cname, ctx, tid, g["warm"])
            a = agg.setdefault(k, [0, 0])
            a[0] += dur
            a[1] += 1
    fails = 0
    for (kind, cname, ctx, tid, warm), (dur, gaps) in sorted(agg.items()):
        ms = "%.3f" % (dur / 1000.0)
        label = {"none": "no host activity recorded",
                 "launch": "launch latency: `%s`" % cname,
                 "sync": "synchronisation wait: `%s`" % cname}.get(
                     kind, "`%s`" % cname)
        if warm:
            label += {"python": " (Python)", "cpu_op": " (CPU op)",
                      "annotation": " (annotation)"}.get(kind, "")
            label += ", warm-up"
        ok = any(("| %s" % label) in r and ("| %s |" % ms) in r and
                 ("| %d |" % gaps) in r and
                 (ctx in ("", cname) or ("`%s`" % ctx) in r) for r in table)
        print("%s %s: report row %s %s ms in %d gaps" %
              ("ok" if ok else "FAIL", name, label, ms, gaps))
        fails += not ok
    return fails


if __name__ == "__main__":
    sys.exit(main())
