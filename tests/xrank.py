#!/usr/bin/env python3
"""The cross-rank analysis of tl-findings on rank sets made by
tests/gen/gen-ranks.py from a shared trace, against what the generator
simulated (OUTDIR/expected.json, never computed by tl): the straggler (or
none), each listed rank's clock offset and wait per step, the job's step
time, the transfer after the last arrival, what the straggler costs a
step, the unmatched instances; and the flags of sets that are not one
complete job (ranks missing, a rank twice, GPUs or world sizes mixed).
usage: xrank.py BINDIR TRACE.json.gz WORKDIR"""
import json, os, re, shutil, subprocess, sys

bindir, trace, work = sys.argv[1], sys.argv[2], sys.argv[3]
gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen", "gen-ranks.py")
bad = 0


def ok(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    if not cond:
        bad += 1


def report(files, outdir=None):
    """tl-parse each file, one stream, tl-efficiency, tl-findings (and
    tl-findings -o outdir)."""
    rows = []
    for f in files:
        out = subprocess.run([bindir + "/tl-parse", f], capture_output=True, text=True, check=True).stdout
        lines = out.splitlines()
        rows += lines[1:] if rows else lines
    eff = subprocess.run([bindir + "/tl-efficiency", "--hw", "mi300x"], input="\n".join(rows) + "\n",
                         capture_output=True, text=True, check=True).stdout
    if outdir is not None:
        subprocess.run([bindir + "/tl-findings", "-o", outdir], input=eff, capture_output=True, text=True,
                       check=True)
    return subprocess.run([bindir + "/tl-findings"], input=eff, capture_output=True, text=True,
                          check=True).stdout


def section(md):
    return md[md.index("## Across ranks"):md.index("## Executive Summary")]


def ms(s):
    return float(s.replace("+", "")) * 1e3   # us


def near(got, want, tol):
    return abs(got - want) <= tol


def make(n, kind, seed=1):
    d = os.path.join(work, "%s-%d" % (kind, n))
    subprocess.run([sys.executable, gen, trace, d, str(n), kind, str(seed)], check=True)
    exp = json.load(open(os.path.join(d, "expected.json")))
    files = [os.path.join(d, "rank-%d.json" % r) for r in range(n)]
    return d, exp, files


def check_set(n, kind):
    d, exp, files = make(n, kind)
    out = os.path.join(d, "out") if n > 16 else None
    sec = section(report(files, out))
    name = "%s, %d ranks" % (kind, n)
    ok("Not one complete job" not in sec, name + ": one complete job, no flag")
    m = re.search(r"\*\*Straggler:\*\* rank (\d+) ", sec)
    if exp["straggler"] is None:
        ok(m is None and "**No straggler:**" in sec, name + ": no straggler named")
    else:
        ok(m is not None and int(m.group(1)) == exp["straggler"],
           name + ": straggler rank %s (got %s)" % (exp["straggler"], m and m.group(1)))
        m = re.search(r"recovers up to ([0-9.]+) ms a step \(([0-9.]+) % of the job's step\)", sec)
        ok(m is not None and near(ms(m.group(1)), exp["recover_per_step_us"], 3)
           and float(m.group(2)) <= 100,
           name + ": recoverable %.3f us a step, a share of the step" % exp["recover_per_step_us"])
        host = "its host is late" in sec
        ok(host == (kind == "host"), name + ": extra time told as %s" % ("host" if kind == "host" else "compute"))
        ok("overlapping communication would not remove it" in sec,
           name + ": the wait is not called communication to overlap")
    m = re.search(r"step time is the slowest rank's: ([0-9.]+) ms", sec)
    ok(m is not None and near(ms(m.group(1)), exp["step_us"], 1.5),
       name + ": step %.3f us" % exp["step_us"])
    m = re.search(r"collectives took ([0-9.]+) ms a step", sec)
    ok(m is not None and near(ms(m.group(1)), exp["xfer_per_step_us"], 3),
       name + ": transfer %.3f us a step" % exp["xfer_per_step_us"])
    m = re.search(r"; (\d+) instances? \(", sec)
    got = int(m.group(1)) if m else 0
    ok(got == exp["unmatched_instances"], name + ": %d unmatched instances (got %d)" % (exp["unmatched_instances"], got))
    seen = 0
    for row in re.finditer(r"^\| rank (\d+) \(`[^`]*`\) \| ([-+0-9.]+) \| \d+ of \d+ \| ([0-9.]+) \| ([-+0-9.]+) \|", sec, re.M):
        r = int(row.group(1))
        seen += 1
        ok(near(ms(row.group(3)), exp["wait_per_step_us"][r], 3),
           name + ": rank %d waits %.3f us a step (got %s ms)" % (r, exp["wait_per_step_us"][r], row.group(3)))
        ok(near(ms(row.group(4)), exp["offset_us"][r], 3),
           name + ": rank %d clock offset %.3f us (got %s ms)" % (r, exp["offset_us"][r], row.group(4)))
    ok(seen == min(n, 10), name + ": %d ranks listed (got %d)" % (min(n, 10), seen))
    if n > 10:
        ok(len(sec) < 20000, name + ": the section stays short (%d bytes)" % len(sec))
    if out is not None:
        # Over 16 ranks the per-rank charts show the latest, the straggler,
        # the slowest and the reference, and say so.
        for c in ("ranks.svg", "timeline.svg"):
            svg = open(os.path.join(out, "charts", c)).read()
            shown = set(re.findall(r"rank (\d+): ", svg))
            ok("of %d traces: the latest" % n in svg and 10 <= len(shown) <= 13 and
               (exp["straggler"] is None or str(exp["straggler"]) in shown) and "0" in shown,
               name + ": charts/%s shows %d ranks of %d, the straggler and the reference among them" % (c, len(shown), n))
    return d, files


for kind in ("straggler", "host", "link", "window"):
    check_set(8, kind)
d, files = check_set(64, "straggler")
# Not one complete job: two ranks missing, a rank twice, another job's rank.
sec = section(report(files[:6] + files[8:]))
ok(re.search(r"2 of the 64 ranks the collectives' groups name are missing", sec) is not None,
   "64 ranks less two: flagged missing")
dup = os.path.join(work, "dup.json")
shutil.copy(files[5], dup)
sec = section(report(files + [dup]))
ok(re.search(r"1 trace repeats a rank another trace has", sec) is not None, "a rank twice: flagged")
d8, _, files8 = make(8, "even")
sec = section(report(files[:4] + files8[4:8]))
ok("(different `world_size`)" in sec, "ranks of an 8- and a 64-rank job: flagged")
# Mixed GPU names: the upper half of an 8-rank job renamed to an H100.
mixed = []
for f in files8[4:8]:
    doc = json.load(open(f))
    for dp in doc["deviceProperties"]:
        dp["name"] = "NVIDIA H100 80GB HBM3"
    m = os.path.join(work, "h100-" + os.path.basename(f))
    json.dump(doc, open(m, "w"))
    mixed.append(m)
sec = section(report(files8[:4] + mixed))
ok("The traces name different GPUs." in sec and "Not one complete job" in sec, "MI300X and H100 ranks: flagged")
ok("different GPUs" not in section(report(files8)), "one GPU name: not flagged")
print("%s xrank" % ("ok" if bad == 0 else "FAIL"))
sys.exit(bad > 0)
