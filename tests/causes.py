#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""The planted-defect traces of tests/causes/ (tests/gen/gen-causes.py):
the first recommendation of each names the cause its generator planted,
with the generator's numbers (tiles, waves, compute units, padded shape,
the aligned GEMM it is timed against, the GEMV's row), and precision
advice names only what the GPU's table row has.

usage: causes.py BINDIR [DIR]
Prints "ok NAME" or "FAIL NAME" lines (tests/run.sh counts them)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
DIR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "causes")
TMP = tempfile.mkdtemp()
FAILED = []


def ok(name, cond, why=""):
    print(("ok " if cond else "FAIL ") + name)
    if not cond:
        print("    %s" % (why,))
        FAILED.append(name)


def close(a, b, rel=5e-3):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-9)


def run(trace, hw, name):
    d = os.path.join(TMP, name)
    cmd = ("%s/tl-parse %s | %s/tl-efficiency --hw %s | "
           "%s/tl-findings -o %s" % (BIN, trace, BIN, hw, BIN, d))
    r = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode != 0:
        return None, None
    a = json.load(open(os.path.join(d, "category_data", "analysis.json")))
    fair = open(os.path.join(d, "standalone_analysis_fair.md"),
                encoding="utf-8").read()
    return a, fair


def check(path):
    name = os.path.basename(path)[:-len(".expect.json")]
    want = json.load(open(path))
    a, fair = run(os.path.join(DIR, name + ".json"), want["hw"], name)
    if a is None:
        ok(name + ": the pipeline runs", False)
        return
    kind = want.get("pattern", "gemm_shape")
    shapes = [p for p in a["patterns"] if p["kind"] == kind]
    if "no_cause" in want:
        ok("%s: no %s cause (the kernel name shows it already)" %
           (name, want["no_cause"]),
           not [p for p in shapes if p["cause"] == want["no_cause"]] and
           "autocast" not in fair, shapes)
        return
    rec = a["recommendations"][0] if a["recommendations"] else {}
    ok("%s: the first recommendation names the cause %s %s" %
       (name, kind, want["cause"]),
       rec.get("pattern") == kind and
       rec.get("cause") == want["cause"], rec)
    first = fair.split("Priority 1:", 1)[1].split("\n", 1)[0] \
        if "Priority 1:" in fair else ""
    ok("%s: the report's first recommendation says so" % name,
       want["title"] in first, first)
    got = [p for p in shapes if p.get("cause") == want["cause"]]
    if not got:
        ok(name + ": the pattern's numbers", False, shapes)
        return
    p = got[0]
    bad = {k: (v, p.get(k)) for k, v in want["numbers"].items()
           if not (isinstance(v, (bool, str)) and p.get(k) == v) and
           not (not isinstance(v, (bool, str)) and p.get(k) is not None and
                close(float(v), float(p[k])))}
    ok("%s: the numbers %s" % (name, sorted(want["numbers"])), not bad, bad)
    if "reference_op" in want:
        r = p["reference_op"] or {}
        ok("%s: timed against %s %s" % ((name,) + tuple(
            json.dumps(x) for x in want["reference_op"])),
           [r.get("name"), r.get("input_dims")] == want["reference_op"], r)
    for k in ("recoverable_ms", "recoverable_high_ms"):
        if k in want:
            ok("%s: %s %.4f" % (name, k, want[k]),
               close(p[k], want[k], 1e-2), p[k])
    adv = p.get("precision_advice") or ""
    for w in want.get("advice_has", []):
        ok("%s: the precision advice names %s" % (name, w), w in adv, adv)
    for w in want.get("advice_not", []):
        ok("%s: the precision advice never names %s" % (name, w),
           w not in adv and w not in first, adv)


for path in sorted(glob.glob(os.path.join(DIR, "*.expect.json"))):
    check(path)
sys.exit(1 if FAILED else 0)
