#!/usr/bin/env python3
"""Per-rank summaries (tl-findings --summary, tl-format(5) "The per-rank
summary") on rank sets made by tests/gen/gen-ranks.py from a shared
trace, against what the generator simulated (expected.json) and against
the analysis of the op streams themselves:
- each rank's summary is small and bounded: one rank row, one row per
  step and per collective instance, at most 32 op and 10 culprit rows,
  whether the rank has 748 events (a generated rank) or a real trace's
  thousands (the 32 ops recomputed from the stream);
- the cross-rank report from summaries is the one from the op streams,
  byte for byte, whatever order the files come in;
- merging is associative, byte for byte (per-node pre-merges), and a
  summary of another version or with other columns is an error;
- category_data/ranks.json (per rank, per collective instance) holds the
  simulated straggler, waits, offsets and transfers;
- 1 024 ranks (per-node summaries of 8 ranks) reduce in one process under
  64 MB, the straggler named, the Markdown listing a distribution and at
  most 10 ranks, each chart under 200 KB.
usage: summary.py BINDIR TRACE.json.gz WORKDIR"""
import json, os, re, resource, shutil, subprocess, sys

bindir, trace, work = sys.argv[1], sys.argv[2], sys.argv[3]
here = os.path.dirname(os.path.abspath(__file__))
gen = os.path.join(here, "gen", "gen-ranks.py")
rsum = os.path.join(here, "gen", "rank-summaries.py")
bad = 0
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def ok(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    if not cond:
        bad += 1


def run(args, **kw):
    return subprocess.run([bindir + "/" + args[0]] + args[1:], capture_output=True, text=True, **kw)


def stream(src, dst):
    """tl-parse | tl-efficiency into dst."""
    p = run(["tl-parse", "--quiet", src], check=True).stdout
    with open(dst, "w") as f:
        f.write(run(["tl-efficiency", "--hw", "mi300x"], input=p, check=True).stdout)


def rows(path):
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        return head, [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f]


def count(rs, rec):
    return sum(1 for r in rs if r["record"] == rec)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def across(md):
    i = md.index("## Across ranks")
    j = md.find("## Executive Summary")
    return md[i:j] if j >= 0 else md[i:]


# 8 ranks, one straggler: each rank's stream and its own summary.
d = os.path.join(work, "s8")
subprocess.run([sys.executable, gen, trace, d, "8", "straggler"], check=True)
exp = json.load(open(os.path.join(d, "expected.json")))
ops, sums = [], []
for r in range(8):
    o = os.path.join(d, "rank-%d.ops.tsv" % r)
    stream(os.path.join(d, "rank-%d.json" % r), o)
    s = os.path.join(d, "rank-%d.sum.tsv" % r)
    run(["tl-findings", "--summary", s, o], check=True)
    ops.append(o)
    sums.append(s)
for r, s in enumerate(sums):
    head, rs = rows(s)
    ok(head[0] == "summary_version" and all(x["summary_version"] == "1" for x in rs),
       "rank %d: a version-1 summary" % r)
    ok(count(rs, "rank") == 1 and count(rs, "step") == exp["steps"] and count(rs, "collective") == 2 * exp["steps"],
       "rank %d: 1 rank row, %d steps, %d collectives" % (r, exp["steps"], 2 * exp["steps"]))
    ok(count(rs, "op") <= 32 and count(rs, "culprit") <= 10, "rank %d: at most 32 ops and 10 culprits" % r)
    ok(os.path.getsize(s) < 16384, "rank %d: summary %d bytes" % (r, os.path.getsize(s)))
allops = os.path.join(d, "all.tsv")
with open(allops, "w") as f:
    for i, o in enumerate(ops):
        t = open(o).read()
        f.write(t if i == 0 else t[t.index("\n") + 1:])
raw = run(["tl-findings", allops], check=True).stdout
fromsum = run(["tl-findings"] + sums, check=True).stdout
ok(across(raw) == across(fromsum), "8 ranks: the cross-rank report from summaries is the op streams' one")
rev = run(["tl-findings"] + sums[::-1], check=True).stdout
ok(rev == fromsum, "8 ranks: the same report whatever the files' order")
m = re.search(r"\*\*Straggler:\*\* rank (\d+) ", fromsum)
ok(m is not None and int(m.group(1)) == exp["straggler"], "8 ranks from summaries: straggler rank %d" % exp["straggler"])

# Merging: per-node pre-merges, associative byte for byte.
def merge(out, ins):
    run(["tl-findings", "--summary", out] + ins, check=True)
    return out

a = merge(os.path.join(d, "a.tsv"), sums[0:3])
b = merge(os.path.join(d, "b.tsv"), sums[3:6])
c = merge(os.path.join(d, "c.tsv"), sums[6:8])
l = merge(os.path.join(d, "l.tsv"), [merge(os.path.join(d, "ab.tsv"), [a, b]), c])
rr = merge(os.path.join(d, "r.tsv"), [a, merge(os.path.join(d, "bc.tsv"), [b, c])])
every = merge(os.path.join(d, "every.tsv"), sums)
ok(read(l) == read(rr), "merge(merge(a,b),c) == merge(a,merge(b,c)), byte for byte")
ok(read(l) == read(every), "merging per node == merging every rank at once")
ok(read(merge(os.path.join(d, "cba.tsv"), [c, b, a])) == read(every), "merging in any order: the same bytes")
ok(read(merge(os.path.join(d, "aa.tsv"), [a])) == read(a), "a merged summary merged alone: itself")
out = os.path.join(d, "raw-o")
run(["tl-findings", "-o", out, allops], check=True)
ok(read(os.path.join(out, "summary.tsv")) == read(every), "-o DIR/summary.tsv of the op streams == the ranks' summaries merged")
ok(run(["tl-findings", l], check=True).stdout == fromsum, "the report from the merged summary == from the ranks' summaries")

# Other versions and other columns are errors.
t = open(sums[0]).read().split("\n")
v2 = os.path.join(d, "v2.tsv")
open(v2, "w").write("\n".join([t[0]] + [re.sub(r"^1\t", "2\t", x) for x in t[1:]]))
p = run(["tl-findings", v2])
ok(p.returncode == 1 and "a summary of version 2; this tl reads version 1" in p.stderr, "a version-2 summary: an error")
p = run(["tl-findings", "--summary", os.path.join(d, "m.tsv"), v2, sums[1]])
ok(p.returncode == 1 and "version 2" in p.stderr and not os.path.exists(os.path.join(d, "m.tsv")),
   "merging a version-2 summary: an error, no file")
cut = os.path.join(d, "cut.tsv")
open(cut, "w").write("\n".join("\t".join(x.split("\t")[:-1]) for x in t))
p = run(["tl-findings", cut])
ok(p.returncode == 1 and "not a summary of version 1" in p.stderr, "a summary with a column less: an error")

# ranks.json: per rank and per collective instance, against the simulation.
out = os.path.join(d, "sum-o")
run(["tl-findings", "-o", out] + sums, check=True)
rj = json.load(open(os.path.join(out, "category_data", "ranks.json")))
ok(rj["straggler"] == os.path.join(d, "rank-%d.json" % exp["straggler"]), "ranks.json: the straggler's trace")
for k in rj["ranks"]:
    r = int(k["rank"])
    ok(abs(k["wait_ms"] * 1e3 - exp["wait_per_step_us"][r]) <= 3 and
       abs(k["offset_ms"] * 1e3 - exp["offset_us"][r]) <= 3,
       "ranks.json: rank %d waits %.3f us a step, offset %.3f us" % (r, exp["wait_per_step_us"][r], exp["offset_us"][r]))
ins = rj["instances"]
ok(len(ins) == 2 * exp["steps"] and all(i["ranks"] == 8 and i["last"] == rj["straggler"] for i in ins),
   "ranks.json: %d instances, each recorded by 8 ranks, the straggler last" % (2 * exp["steps"]))
xf = sum(i["transfer_ms"] for i in ins) * 1e3 / exp["steps"]
ok(abs(xf - exp["xfer_per_step_us"]) <= 3, "ranks.json: transfers %.3f us a step (want %.3f)" % (xf, exp["xfer_per_step_us"]))
ok(sorted(os.listdir(os.path.join(out, "charts"))) == ["ranks.svg"], "summaries: charts/ranks.svg")

# Real traces (3 653 and many more GPU events): small summaries, the ops
# with the most kernel time (summed here from the stream's rows).
for name in ("mi300-resnet-act-checkpoint", "mi300-xdit-sd3.5"):
    src = os.path.join(os.path.dirname(trace), name + ".json.gz")
    real = os.path.join(work, name + ".tsv")
    stream(src, real)
    rs_ = os.path.join(work, name + ".sum.tsv")
    run(["tl-findings", "--summary", rs_, real], check=True)
    _, rs = rows(rs_)
    _, st = rows(real)
    ncomm = sum(1 for x in st if x.get("collective", "").startswith("{"))
    ok(count(rs, "collective") == ncomm and count(rs, "rank") == 1,
       "%s: one rank row, one row per collective instance (%d)" % (name, ncomm))
    opt = {}
    for x in st:
        if x["category"] != "comm" and x["kernel_time_us"] not in ("", "0"):
            opt[x["name"]] = opt.get(x["name"], 0) + float(x["kernel_time_us"])
    top = sorted(opt.items(), key=lambda kv: (-round(kv[1], 3), kv[0]))[:32]
    got = {x["key"]: float(x["time_us"]) for x in rs if x["record"] == "op"}
    ok(len(got) == len(top) == min(32, len(opt)) and all(abs(got.get(k, -1) - v) < 0.002 for k, v in top),
       "%s: the %d ops with the most kernel time of %d, with their time" % (name, len(top), len(opt)))
    ok(count(rs, "culprit") <= 10, "%s: at most 10 culprits" % name)
    ok(os.path.getsize(rs_) < 16384, "%s: summary %d bytes (stream %d)" % (name, os.path.getsize(rs_), os.path.getsize(real)))

# One trace's -o: its collective instances, each with its kernels' span
# and message bytes from the stream's collective column.
real = os.path.join(work, "mi300-resnet-act-checkpoint.tsv")
out = os.path.join(work, "real-o")
run(["tl-findings", "-o", out, real], check=True)
rj = json.load(open(os.path.join(out, "category_data", "ranks.json")))
want = []
for x in rows(real)[1]:
    if not x.get("collective", "").startswith("{"):
        continue
    cj, kl = json.loads(x["collective"]), json.loads(x["kernels"])
    lo = min(k["ts"] for k in kl)
    hi = max(k["ts"] + k["dur"] for k in kl)
    want.append((cj["seq"], cj["type"], max(cj.get("in_bytes", -1), cj.get("out_bytes", -1)), hi - lo))
got = sorted((i["seq"], i["type"], i["bytes"], i["kernel_ms"] * 1e3) for i in rj["instances"])
want.sort()
ok(len(got) == len(want) == 12 and all(g[:3] == w[:3] and abs(g[3] - w[3]) < 0.002 for g, w in zip(got, want)) and
   all(0 <= i["exposed_ms"] <= i["kernel_ms"] for i in rj["instances"]),
   "one trace's ranks.json: its 12 collective instances, their type, bytes and kernel span")

# 1 024 ranks, per-node summaries of 8 ranks, reduced in one process.
big = os.path.join(work, "s1024")
nodes = int(subprocess.run([sys.executable, rsum, bindir, trace, big, "1024", "straggler", "8", "20"],
                           check=True, capture_output=True, text=True).stdout)
ok(nodes == 128, "1024 ranks: 128 node summaries")
exp = json.load(open(os.path.join(big, "ranks", "expected.json")))
files = sorted(os.path.join(big, f) for f in os.listdir(big) if f.startswith("node-"))
out = os.path.join(big, "report")
peak = subprocess.run([sys.executable, "-c", "import resource, subprocess, sys; "
                       "subprocess.run(sys.argv[1:], check=True); "
                       "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                       bindir + "/tl-findings", "-o", out] + files,
                      check=True, capture_output=True, text=True).stdout
# A sanitizer build's shadow memory is no measure of tl's own: the bound
# holds for the plain build (make check), which the sanitizer runs of CI
# follow with the same data.
with open(bindir + "/tl-findings", "rb") as f:
    sanitized = any(s in f.read() for s in (b"__asan_init", b"__tsan_init"))
if not sanitized:
    ok(int(peak) <= 64 * 1024, "1024 ranks reduce in %d KB (at most 64 MB)" % int(peak))
md = open(os.path.join(out, "standalone_analysis_fair.md")).read()
m = re.search(r"\*\*Straggler:\*\* rank (\d+) ", md)
ok(m is not None and int(m.group(1)) == exp["straggler"], "1024 ranks: straggler rank %d" % exp["straggler"])
listed = re.findall(r"^\| rank \d+ \(", md, re.M)
ok(len(listed) == 10, "1024 ranks: the Markdown lists the 10 most outlying ranks (got %d)" % len(listed))
ok(re.search(r"over the 1024 ranks: min [0-9.]+ ms, median [0-9.]+ ms, 90th percentile", md) is not None,
   "1024 ranks: the wait's distribution")
ok(len(md) < 20000, "1024 ranks: the report %d bytes" % len(md))
for f in sorted(os.listdir(os.path.join(out, "charts"))):
    sz = os.path.getsize(os.path.join(out, "charts", f))
    ok(sz < 200 * 1024, "1024 ranks: charts/%s %d bytes (under 200 KB)" % (f, sz))
svg = open(os.path.join(out, "charts", "ranks.svg")).read()
ok("of 1024 traces" in svg, "1024 ranks: ranks.svg says which ranks it shows")
ok(read(merge(os.path.join(big, "m.tsv"), files)) == read(os.path.join(big, "summary.tsv")),
   "1024 ranks: the node summaries merged == the summary of all ranks")
print("%s summary" % ("ok" if bad == 0 else "FAIL"))
sys.exit(bad > 0)
