#!/usr/bin/env python3
"""Rank sets for the cross-rank analysis, made from a shared trace.

usage: gen-ranks.py TRACE.json.gz OUTDIR N KIND [SEED [KERNELS]]

KIND: straggler (one rank computes 1.2x slower), host (one rank's host
is slow: its GPU waits between kernels), link (every collective's transfer
takes 3x longer after the last rank arrived: a slow link or NIC, no
straggler), window (as straggler, but the ranks of the upper half start
their profile one step later), or even (no straggler).

Each rank is a small Kineto trace (rank-R.json): the compute kernels of
the first profiler step of TRACE (names, durations and the ops that
launched them), two DDP all-reduces a step with the message sizes
TRACE's record_param_comms record (bf16, process group "0" of all N
ranks, no Seq: tl counts them), STEPS steps.  Every rank's clock has its
own offset.  Kernels run in stream order; a collective kernel starts when
its rank reaches it (the compute before it ended) and ends for every rank
at the last arrival plus the transfer time (bytes over 100 GB/s of bus
bandwidth, 2(n-1)/n of the bytes for an all-reduce), plus a jitter under
2 us: ranks that arrive early wait inside the kernel, as NCCL's do.

OUTDIR/expected.json holds what tl must find, computed here from the
simulation, never from tl: the straggler's rank (or null), each rank's
true clock offset against rank 0 (what tl's estimate must approach), each
rank's wait per step, the mean transfer time per step, the slowest rank's
step time, and what the straggler costs the others per step.
"""
import gzip, json, os, random, sys

src, out, n, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
rnd = random.Random(seed)
STEPS = 4
NK = int(sys.argv[6]) if len(sys.argv) > 6 else 60  # compute kernels a step
BUSBW = 100e9           # bytes/s of bus bandwidth
os.makedirs(out, exist_ok=True)

doc = json.load(gzip.open(src))
ev = doc["traceEvents"]
ops = {}
for e in ev:
    if e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
        ops.setdefault(e["args"]["External id"], e)
kern = []
sizes = []
for e in ev:
    if e.get("ph") != "X":
        continue
    if e.get("cat") == "kernel" and not e["name"].startswith("nccl") and len(kern) < NK:
        op = ops.get(e["args"].get("External id"))
        if op is not None:
            a = op.get("args", {})
            kern.append((e["name"], float(e["dur"]), op["name"],
                         a.get("Input Dims", []), a.get("Input type", [])))
    if e.get("name") == "record_param_comms" and e["args"].get("Collective name") == "allreduce" and len(sizes) < 2:
        sizes.append(e["args"]["In msg nelems"])
assert len(kern) == NK and len(sizes) == 2, (len(kern), sizes)

straggler = 3 % n if kind in ("straggler", "host", "window") else None
late_start = set(range(n // 2, n)) if kind == "window" else set()
offset = [0.0] + [rnd.uniform(-50e3, 50e3) for _ in range(n - 1)]  # us
xfer = [2 * (n - 1) / n * s * 2 / BUSBW * 1e6 for s in sizes]       # us
if kind == "link":
    xfer = [3 * x for x in xfer]

# Simulate in true time (us).  Per rank: host clock h, compute stream end
# c, comm stream end m.
step_start = 1000.0
events = [[] for _ in range(n)]
waits = [[0.0] * STEPS for _ in range(n)]
steps_span = [[None] * STEPS for _ in range(n)]
xfer_steps = []
recover = []
uid = [0] * n

def emit(r, e):
    events[r].append(e)

def launch(r, cat_name, name, dims, types, h, start, dur, stream, args=None, ext=None):
    """A cpu_op at host time h launching one kernel [start, start+dur]."""
    ext = ext if ext is not None else len(events[r]) + 1
    corr = ext + 100000
    a = {"External id": ext}
    if dims:
        a["Input Dims"] = dims
        a["Input type"] = types
    if args:
        a.update(args)
    emit(r, {"ph": "X", "cat": "cpu_op", "name": name, "pid": 100, "tid": 100,
             "ts": h, "dur": 2.0, "args": a})
    emit(r, {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 100,
             "tid": 100, "ts": h + 0.5, "dur": 1.0, "args": {"External id": ext, "correlation": corr}})
    emit(r, {"ph": "X", "cat": "kernel", "name": cat_name, "pid": 1, "tid": stream,
             "ts": start, "dur": dur, "args": {"External id": ext, "correlation": corr,
                                                "stream": stream, "device": 0}})

t0 = step_start
for s in range(STEPS):
    comp_end = [t0] * n
    host = [t0] * n
    kspan = [[float("inf")] for _ in range(n)]
    # two halves of compute, an all-reduce after each
    arrivals = []
    ends = []
    for half in range(2):
        arr = []
        for r in range(n):
            slow = 1.2 if (kind in ("straggler", "window") and r == straggler) else 1.0
            for (kn, kd, on, dims, types) in kern[half * NK // 2:(half + 1) * NK // 2]:
                cost = 3.0 + (kd + 30.0 if kind == "host" and r == straggler else 0.0)
                host[r] += cost
                st = max(host[r] + 5.0, comp_end[r])
                d = kd * slow
                if not (s == 0 and r in late_start):
                    launch(r, kn, on, dims, types, host[r] + offset[r], st + offset[r], d, 7)
                kspan[r][0] = min(kspan[r][0], st)
                comp_end[r] = st + d
            arr.append(comp_end[r] if half == 0 else max(comp_end[r], ends[0][r]))
        A = max(arr)
        end = A + xfer[half]
        srt = sorted(arr)
        recover.append((s, srt[-1] - srt[-2]))
        e = []
        for r in range(n):
            jitter = rnd.uniform(0, 2.0)
            e.append(end + jitter)
            waits[r][s] += A - arr[r]
            host[r] += 3.0
            if not (s == 0 and r in late_start):
                nel = sizes[half]
                launch(r, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)",
                       "record_param_comms", [[[nel]]], ["TensorList"],
                       host[r] + offset[r], arr[r] + offset[r], end + jitter - arr[r], 13,
                       {"Collective name": "allreduce", "dtype": "BFloat16",
                        "In msg nelems": nel, "Out msg nelems": nel, "Group size": n,
                        "Process Group Name": "0", "Process Group Description": "default_pg",
                        "Process Group Ranks": str(list(range(n)))})
        ends.append(e)
        arrivals.append(arr)
        xfer_steps.append((s, xfer[half]))
    for r in range(n):
        # tl's step: the first kernel's start to the last kernel's end
        steps_span[r][s] = (kspan[r][0], max(comp_end[r], ends[1][r]))
        if not (s == 0 and r in late_start):
            emit(r, {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (10 + s),
                     "pid": 100, "tid": 100, "ts": t0 + offset[r] - 1,
                     "dur": max(host[r], ends[1][r]) - t0 + 2})
    t0 = max(max(e) for e in ends) + 50.0

dev = doc["deviceProperties"]
for r in range(n):
    events[r].sort(key=lambda e: e["ts"])
    for e in events[r]:
        e["ts"] = round(e["ts"], 3)
        e["dur"] = round(e["dur"], 3)
    d = {"schemaVersion": 1, "deviceProperties": dev,
         "distributedInfo": {"backend": "nccl", "rank": r, "world_size": n},
         "traceEvents": events[r]}
    with open(os.path.join(out, "rank-%d.json" % r), "w") as f:
        json.dump(d, f, separators=(",", ":"))

full = [s for s in range(STEPS) if not (s == 0 and late_start)]
nst = len(full)
span = [sorted(steps_span[r][s][1] - steps_span[r][s][0] for s in full)[nst // 2] for r in range(n)]
exp = {
    "ranks": n, "kind": kind, "steps": nst,
    "straggler": straggler,
    "offset_us": [offset[0] - offset[r] for r in range(n)],
    "wait_per_step_us": [sum(waits[r][s] for s in full) / nst for r in range(n)],
    "xfer_per_step_us": sum(x for s, x in xfer_steps if s in full) / nst,
    "step_us": max(span),
    "recover_per_step_us": sum(x for s, x in recover if s in full) / nst,
    "unmatched_instances": 2 if late_start else 0,
}
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(exp, f, indent=1)
