#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""The planted comparison pairs of tests/cmppairs/
(tests/gen/gen-cmppairs.py, issue 31): ops matched as groups and as
another form of the same product, the faster side never told to adopt
the slower side's path, "the same op for op" only with the same
kernels, a copy's difference about copies and counted once.

usage: cmppairs.py BINDIR [DIR]
Prints "ok NAME" or "FAIL NAME" lines (tests/run.sh counts them).  For
each pair: both sides through tl-parse | tl-efficiency --hw auto, then
tl-compare, then tl-findings on the comparison alone (the stream's
judgement) and with --ref/--target (the sides' patterns too); every
expected value is the generator's NAME.expect.json."""
import csv
import glob
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdcheck import VENDOR, VERDICT, must, ns, ok, scan  # noqa: E402

BIN = sys.argv[1]
DIR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "cmppairs")
TMP = tempfile.mkdtemp()
HEAD = re.compile(r"^### \S+ Priority (\d+): (.*)$", re.M)
IMPACT = re.compile(r"\*\*Impact\*\*: (?:up to )?(-?[0-9.]+) ms")


def stream(trace, name):
    p = os.path.join(TMP, name + ".tsv")
    must("%s/tl-parse %s 2>/dev/null | %s/tl-efficiency --hw auto > %s"
         % (BIN, trace, BIN, p))
    return p


def sections(md):
    """(heading, section text) of each recommendation, in rank order."""
    out = []
    for m in HEAD.finditer(md):
        end = md.find("\n---", m.end())
        out.append((m.group(2), md[m.start():end if end > 0 else None]))
    return out


def key_findings(md):
    return md.split("### Key Findings")[1].split("\n---")[0]


def check_first(name, mode, md, first):
    recs = sections(md)
    if first == "any":
        return
    if first is None:
        ok("%s, %s: no recommendation for the target" % (name, mode),
           not recs, [h for h, _ in recs])
        return
    h, sec = recs[0] if recs else ("", "")
    imp = IMPACT.search(sec)
    v = float(imp.group(1)) if imp else -1
    if "impact_ms" in first:
        what, good = "%.3f ms" % first["impact_ms"], \
            abs(v - first["impact_ms"]) < 5e-4
    else:
        what, good = "at most %.3f ms" % first["impact_max_ms"], \
            0 < v <= first["impact_max_ms"] + 5e-4
    ok("%s, %s: the first recommendation is '%s', impact %s"
       % (name, mode, first["title"], what),
       first["title"] in h and good and
       all(w in sec for w in first.get("words", [])),
       (h, v, sec[:700]))


def pair(expect_path):
    name = os.path.basename(expect_path)[:-len(".expect.json")]
    e = json.load(open(expect_path, encoding="utf-8"))
    ref = stream(os.path.join(DIR, name + ".ref.json"), name + ".ref")
    tgt = stream(os.path.join(DIR, name + ".target.json"), name + ".tgt")
    cmp_ = os.path.join(TMP, name + ".cmp")
    must("%s/tl-compare -R %s -T %s > %s" % (BIN, ref, tgt, cmp_))
    rows = list(csv.DictReader(open(cmp_, encoding="utf-8"),
                               delimiter="\t"))
    got = {}
    for r in rows:
        got.setdefault(r["name"], []).append(r["match"])
    want = {k: sorted(v) for k, v in e["match"].items()}
    have = {k: sorted(v) for k, v in got.items() if k in want}
    ok("%s: the match column %s" % (name, want), have == want, got)
    ok("%s: nothing on one side only" % name,
       not [r for r in rows if r["match"] in ("ref_only", "target_only")],
       got)
    if "note" in e:
        ok("%s: the note '%s'" % (name, e["note"]),
           all(r["layout_note"] == e["note"] for r in rows),
           [r["layout_note"] for r in rows])
    t = [sum(ns(r[p + "_kernel_time_us"]) for r in rows)
         for p in ("ref", "target")]
    faster = "ref" if t[0] < t[1] else "target" if t[1] < t[0] else \
        "neither"
    ok("%s: the faster side is the %s" % (name, e["faster"]),
       faster == e["faster"], t)
    alone = must("%s/tl-findings %s" % (BIN, cmp_))
    sides = must("%s/tl-findings --ref %s --target %s %s"
                 % (BIN, ref, tgt, cmp_))
    check_first(name, "the stream alone", alone, e["first"])
    check_first(name, "with both sides", sides,
                e.get("first_sides", e["first"]))
    for mode, md in (("the stream alone", alone),
                     ("with both sides", sides)):
        bad = [w for w in e["never"] if w in md]
        ok("%s, %s: never says %s" % (name, mode, e["never"]), not bad,
           bad)
        titles = [h.lower() for h, _ in sections(md)]
        n = [h for h in titles if any(w in h for w in e.get("once", []))]
        ok("%s, %s: named by one recommendation at most: %s"
           % (name, mode, e.get("once", [])), len(n) <= 1, n)
        kf = key_findings(md)
        ok("%s, %s: the key findings say %s"
           % (name, mode, e.get("key", [])),
           all(w in kf for w in e.get("key", [])), kf[:1500])
        if "ref_slower_ms" in e:
            ok("%s, %s: the reference may be inefficient, by %.3f ms"
               % (name, mode, e["ref_slower_ms"]),
               "The reference takes %.3f ms longer than the target"
               % e["ref_slower_ms"] in kf and "may be inefficient" in kf,
               kf[:1500])
        if "copy_ms" in e:
            tot = sum(float(m.group(1)) for _, s in sections(md)
                      for m in IMPACT.finditer(s))
            ok("%s, %s: no time counted twice: the recommendations "
               "recover %.3f ms, at most the target's %.3f ms of copies"
               % (name, mode, tot, e["copy_ms"]),
               0 < tot <= e["copy_ms"] + 5e-4, tot)
        words = scan(md, VENDOR + VERDICT)
        ok("%s, %s: no vendor claim or platform verdict" % (name, mode),
           not words, words)
    # The -o directory's CSV writes the same match values.
    d = os.path.join(TMP, name + ".d")
    must("%s/tl-findings -o %s %s" % (BIN, d, cmp_))
    path = [os.path.join(dp, f) for dp, _, fs in os.walk(d) for f in fs
            if f == "comparative_ops.csv"]
    csvrows = list(csv.DictReader(open(path[0], encoding="utf-8"))) \
        if path else []
    ok("%s: comparative_ops.csv has the same match values" % name,
       sorted(r["match"] for r in csvrows) ==
       sorted(r["match"] for r in rows), path)


try:
    files = sorted(glob.glob(os.path.join(DIR, "*.expect.json")))
    ok("the planted pairs are there (%d)" % len(files), len(files) >= 7)
    for f in files:
        pair(f)
except Exception as ex:  # noqa: BLE001
    print("FAIL comparison pairs: %s: %s" % (type(ex).__name__, ex))
shutil.rmtree(TMP) if not os.environ.get("KEEP") else print(TMP)
