#!/usr/bin/env python3
"""The collective column of tl-parse on a real trace, recomputed from the
trace's own record_param_comms events: every comm row names one, and its
type, sizes (c10::ScalarType element sizes), process group and its order
among its group's collectives by start match what the event says.
usage: collective.py TL_PARSE TRACE.json.gz EXPECTED_ROWS"""
import csv, gzip, json, subprocess, sys

tlp, path, want_rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
ev = json.load(gzip.open(path))["traceEvents"]
size = {"BFloat16": 2, "Float": 4, "Long": 8, "Half": 2, "Int": 4}
comms = {}
for uid, e in enumerate(ev):
    # "wait" (work.wait()) launches nothing: it is no collective.
    if e.get("name") == "record_param_comms" and e.get("args", {}).get("Collective name", "wait") != "wait":
        comms[uid] = e
order = {}
bypg = {}
for uid in sorted(comms, key=lambda u: (float(comms[u]["ts"]), u)):
    pg = comms[uid]["args"].get("Process Group Name", "")
    order[uid] = bypg.get(pg, 0)
    bypg[pg] = order[uid] + 1
out = subprocess.run([tlp, path], capture_output=True, text=True, check=True).stdout
rows = [r for r in csv.DictReader(out.splitlines(), delimiter="\t") if r["category"] == "comm"]
bad = 0
def fail(msg):
    global bad
    bad += 1
    print("FAIL", msg)
if len(rows) != want_rows:
    fail("%d comm rows, want %d" % (len(rows), want_rows))
for r in rows:
    uid = int(r["uid"])
    if uid not in comms:
        fail("row %d is no record_param_comms" % uid)
        continue
    a = comms[uid]["args"]
    c = json.loads(r["collective"])
    t = {"allreduce": "all_reduce", "broadcast": "broadcast", "allgather": "all_gather"}[a["Collective name"]]
    want = {"name": a["Collective name"], "dtype": a["dtype"], "in_nelems": a["In msg nelems"],
            "out_nelems": a["Out msg nelems"], "group_size": a["Group size"],
            "pg_name": a["Process Group Name"], "pg_desc": a["Process Group Description"],
            "pg_ranks": json.loads(a["Process Group Ranks"]), "type": t, "type_source": "args",
            "in_bytes": a["In msg nelems"] * size[a["dtype"]],
            "out_bytes": a["Out msg nelems"] * size[a["dtype"]],
            "seq": order[uid], "seq_source": "order"}
    if c != want:
        fail("row %d: %s, want %s" % (uid, c, want))
others = [r for r in csv.DictReader(out.splitlines(), delimiter="\t") if r["category"] != "comm" and r["collective"] != ""]
if others:
    fail("%d rows that are no collective have the column" % len(others))
print("ok" if bad == 0 else "FAIL", "collective column of", path, len(rows), "rows")
sys.exit(bad > 0)
