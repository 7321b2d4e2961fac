#!/usr/bin/env python3
"""Iterations and phases of tl-parse on shared traces, computed here from
the trace JSON: the iteration annotations (serving step annotations, else
ProfilerStep#N), the op rows inside each one's host span on its process,
their kernel time, and the phase the annotation's request counts give.

usage: iterations.py TL_PARSE TRACE...
Prints "ok ..." / "FAIL ..." lines for tests/run.sh.
"""
import gzip
import json
import re
import subprocess
import sys

from parity import read_tsv

VLLM = re.compile(r"execute_\d+_context_(\d+)\(sq\d+sk\d+sqsq\d+sqsk\d+\)"
                  r"_generation_(\d+)\(")


def annotations(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        ev = json.load(f)["traceEvents"]
    serving, steps = [], []
    for e in ev:
        if e.get("ph") != "X" or e.get("cat") not in ("user_annotation",
                                                      "cpu_op"):
            continue
        m = VLLM.match(e["name"])
        if m and e["cat"] == "user_annotation":
            c, g = int(m.group(1)), int(m.group(2))
            serving.append((e, "mixed" if c and g else "prefill" if c
                            else "decode" if g else ""))
        elif e["name"].startswith("ProfilerStep#"):
            steps.append((e, ""))
    return sorted(serving or steps, key=lambda x: x[0]["ts"])


def check(tl, path):
    its = annotations(path)
    rows = read_tsv(subprocess.run([tl, path], check=True,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL).stdout.decode())
    table = read_tsv(subprocess.run([tl, "-i", path], check=True,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL).stdout.decode())
    bad = []
    if len(table) != len(its):
        bad.append("%d iterations, want %d" % (len(table), len(its)))
    want_time = [0.0] * len(its)
    for r in rows:
        ts = float(r["ts_us"])
        want = ""
        for k, (e, ph) in enumerate(its):
            if str(e["pid"]) == r["pid"] and e["ts"] <= ts < e["ts"] + e["dur"]:
                want = k
        if want == "":
            if r["iteration"] != "" or r["phase"] != "":
                bad.append("uid %s: iteration %s, want none" % (r["uid"], r["iteration"]))
            continue
        want_time[want] += float(r["kernel_time_us"])
        e, ph = its[want]
        num = e["name"].split("#")[1] if e["name"].startswith("ProfilerStep#") \
            else str(want)
        if r["iteration"] != num or r["phase"] != ph:
            bad.append("uid %s: iteration %s phase %s, want %s %s" % (
                r["uid"], r["iteration"], r["phase"], num, ph))
    for k, t in enumerate(table[:len(its)]):
        if abs(float(t["kernel_time_us"]) - want_time[k]) > 1e-6 * max(1, want_time[k]) \
                or t["name"] != its[k][0]["name"] or t["phase"] != its[k][1]:
            bad.append("iteration %d: %s %s %s, want %s %s %s" % (
                k, t["name"][:40], t["phase"], t["kernel_time_us"],
                its[k][0]["name"][:40], its[k][1], want_time[k]))
    name = path.split("/")[-1]
    if bad:
        print("FAIL iterations %s" % name)
        for b in bad[:10]:
            print("    " + b)
        return 1
    print("ok iterations %s: %d iterations, %d rows in them" % (
        name, len(its), sum(1 for r in rows if r["iteration"] != "")))
    return 0


def main():
    tl = sys.argv[1]
    return 1 if sum(check(tl, p) for p in sys.argv[2:]) else 0


if __name__ == "__main__":
    sys.exit(main())
