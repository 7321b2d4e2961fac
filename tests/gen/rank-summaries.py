#!/usr/bin/env python3
"""Per-rank summaries of a generated rank set, as a job would make them.

usage: rank-summaries.py BINDIR TRACE.json.gz OUTDIR N KIND NODE [KERNELS]

Generates N ranks of KIND with tests/gen/gen-ranks.py (KERNELS compute
kernels a step, default 60) into OUTDIR/ranks, runs tl-parse on each
(two at a time), tl-efficiency --hw mi300x once over their streams and
tl-findings --summary once over that, then cuts the summary into one file
per node of NODE ranks (OUTDIR/node-K.tsv, K = rank // NODE), as a
per-node pre-merge would leave them: the rows of a summary are sorted by
trace name, and each node's rows keep that order.  Prints the number of
node files.  The expected values are OUTDIR/ranks/expected.json.
"""
import os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

bindir, trace, out, n, kind, node = sys.argv[1:7]
n, node = int(n), int(node)
kernels = sys.argv[7] if len(sys.argv) > 7 else "60"
gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-ranks.py")
rdir = os.path.join(out, "ranks")
subprocess.run([sys.executable, gen, trace, rdir, str(n), kind, "1", kernels], check=True)


def parse(r):
    return subprocess.run([bindir + "/tl-parse", "--quiet", os.path.join(rdir, "rank-%d.json" % r)],
                          capture_output=True, text=True, check=True).stdout


with ThreadPoolExecutor(2) as ex:
    streams = list(ex.map(parse, range(n)))
allf = os.path.join(out, "all.tsv")
with open(allf, "w") as f:
    f.write(streams[0])
    for s in streams[1:]:
        f.write(s[s.index("\n") + 1:])
del streams
with open(allf) as i, open(allf + ".eff", "w") as o:
    subprocess.run([bindir + "/tl-efficiency", "--hw", "mi300x"], stdin=i, stdout=o, check=True)
os.replace(allf + ".eff", allf)
summ = os.path.join(out, "summary.tsv")
subprocess.run([bindir + "/tl-findings", "--summary", summ, allf], check=True)
os.remove(allf)
nodes = {}
with open(summ) as f:
    head = f.readline()
    for line in f:
        name = line.split("\t")[1]          # OUTDIR/ranks/rank-R.json
        r = int(name.rsplit("-", 1)[1].split(".")[0])
        nodes.setdefault(r // node, []).append(line)
for k, rows in nodes.items():
    with open(os.path.join(out, "node-%d.tsv" % k), "w") as f:
        f.write(head)
        f.writelines(rows)
print(len(nodes))
