#!/usr/bin/env python3
"""tl-findings' Collectives section on one real trace, recomputed from the
op stream: per type the instances, kernel time (first kernel start to last
kernel end of each collective row), the part no compute kernel of the
trace overlaps, the algorithm bandwidth (bytes over the kernel time) and
the bus bandwidth (NCCL's factor 2(n-1)/n for all-reduce, 1 for
broadcast); with --ranks-per-node 8 the expected bandwidth is the GPU
table's link_gbs.
usage: collperf.py BINDIR STREAM.tsv (tl-efficiency's, one trace)"""
import csv, json, re, subprocess, sys

bindir, stream = sys.argv[1], sys.argv[2]
csv.field_size_limit(1 << 30)
rows = list(csv.DictReader(open(stream), delimiter="\t", quoting=csv.QUOTE_NONE))
busy = []
coll = {}
for r in rows:
    ks = json.loads(r["kernels"]) if r["kernels"] else []
    if r["category"] != "comm":
        busy += [(k["ts"], k["ts"] + k["dur"]) for k in ks if k["dur"] > 0]
        continue
    if not ks or not r["collective"]:
        continue
    c = json.loads(r["collective"])
    s = min(k["ts"] for k in ks)
    e = max(k["ts"] + k["dur"] for k in ks)
    t = coll.setdefault(c["type"], [0, 0, 0.0, 0.0, c.get("group_size", 0)])
    t[0] += 1
    t[1] += max(c.get("in_bytes", 0), c.get("out_bytes", 0))
    t[2] += e - s
    t[3] += sum(max(0.0, min(e, b) - max(s, a)) for a, b in busy)  # overlap, filled below
busy.sort()
merged = []
for a, b in busy:
    if merged and a <= merged[-1][1]:
        merged[-1][1] = max(merged[-1][1], b)
    else:
        merged.append([a, b])
for t in coll.values():
    t[3] = 0.0
for r in rows:
    if r["category"] != "comm" or not r["collective"] or not r["kernels"]:
        continue
    ks = json.loads(r["kernels"])
    s = min(k["ts"] for k in ks)
    e = max(k["ts"] + k["dur"] for k in ks)
    cov = sum(max(0.0, min(e, b) - max(s, a)) for a, b in merged)
    coll[json.loads(r["collective"])["type"]][3] += (e - s) - cov
md = subprocess.run([bindir + "/tl-findings", "--ranks-per-node", "8", stream],
                    capture_output=True, text=True, check=True).stdout
sec = md[md.index("## Collectives"):]
bad = 0
factor = {"all_reduce": lambda n: 2 * (n - 1) / n, "broadcast": lambda n: 1}
for typ, (n, nbytes, ktime, expo, g) in coll.items():
    m = re.search(r"^\| `%s` \| (\d+) \| [0-9.n/a]+ \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| (\d+) \(" % typ, sec, re.M)
    if m is None:
        print("FAIL no row for", typ)
        bad += 1
        continue
    alg = nbytes / (ktime * 1e3)          # bytes per ns = GB/s
    want = (n, ktime / 1e3, expo / ktime * 100, alg, alg * factor[typ](g), 448)
    got = (int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)), float(m.group(5)), int(m.group(6)))
    tol = (0, 0.0015, 0.06, 0.06, 0.06, 0)
    for w, x, e, what in zip(want, got, tol, ("instances", "kernel ms", "exposed %", "algbw", "busbw", "expected")):
        if abs(w - x) > e:
            print("FAIL %s %s: got %s, want %s" % (typ, what, x, w))
            bad += 1
print("ok" if bad == 0 else "FAIL", "collectives of one trace:", ", ".join("%s %d" % (k, v[0]) for k, v in coll.items()))
sys.exit(bad > 0)
