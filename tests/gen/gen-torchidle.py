#!/usr/bin/env python3
"""Idle-culprit traces from real PyTorch host recordings, GPU added.

    python3 tests/gen/gen-torchidle.py OUTDIR [KIND...]
    /usr/bin/python3 tests/gen/gen-torchidle.py --record KIND HOST.json.gz

tests/gen/torchidle/KIND.host.json.gz are host-side recordings of a small
training loop (5 steps) made with torch.profiler on the CPU build of
PyTorch (--record: needs torch; the committed files are its output), with
with_stack=True and record_shapes=True: every CPU op and annotation the
profiler saw (name, start, end, thread, input shapes) and the Python frames
of 5 us or more (a sys.setprofile hook, on the profiler's clock through a
marker annotation; the CPU build's legacy exporter writes no frames).
KIND is one of
  dl0       a single-process DataLoader whose __getitem__ works in Python
  dl2       the same with num_workers=2 (_MultiProcessingDataLoaderIter)
  zerograd  a 26-layer MLP: zero_grad(set_to_none=False), SGD with
            momentum, foreach=False (one op per parameter)
  sync      loss.item() after each step, then Python logging
  preproc   each batch resized (interpolate) and normalised on the main
            thread before the step

Without torch, this writes OUTDIR/KIND.json: the recording as a Kineto
trace (cpu_op, user_annotation, python_function; the ProfilerStep
annotations numbered) with synthetic GPU work: each outermost CPU op under
train_step (forward, backward, optimizer) launches one kernel on GPU 0
stream 7 (cudaLaunchKernel at the op's end, the kernel 5 us later or when
the stream is free); in KIND sync, aten::_local_scalar_dense copies to the
host (cudaMemcpyAsync) and waits in cudaStreamSynchronize until the copy
ends, the host's later events moved by that wait.  And OUTDIR/KIND.expect.json:
every gap of 10 us or more split by what the launching thread did (the
event with the most self time takes the host time, what no event spans is
none, launch to kernel is launch, a sync call keeps its wait), worked out
here from the events, and the idle the first recommendation's known
culprit covers.  Deterministic; Python 3 standard library only.
"""
import bisect
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ("dl0", "dl2", "zerograd", "sync", "preproc")
BASE = 1700000000000.0   # the first event's ts, us
LAT = 5.0                # launch call to kernel on an idle stream, us
NOISE = 10.0             # the listed gaps' threshold, us
VIEWS = {"aten::view", "aten::as_strided", "aten::t", "aten::transpose",
         "aten::expand", "aten::detach", "detach", "aten::empty",
         "aten::empty_strided", "aten::empty_like", "aten::select",
         "aten::slice", "aten::unsqueeze", "aten::narrow", "aten::reshape",
         "aten::_reshape_alias", "aten::resolve_conj", "aten::resolve_neg",
         "aten::item", "aten::_local_scalar_dense", "aten::lift_fresh",
         "aten::alias", "aten::permute", "aten::squeeze",
         "aten::flatten", "aten::to", "aten::_to_copy", "aten::zeros",
         "aten::ones_like", "aten::result_type", "aten::size"}
DL = "enumerate(DataLoader)#"
STEP = "ProfilerStep#"
# The first recommendation each trace must give: the known culprit's
# title (its start, share/tl/culprits.tsv) and the test that says which
# pieces are its (the culprit event or an event around it).
KNOWN = {
    "dl0": ("Single-process DataLoader",
            lambda n: n.startswith(DL + "_SingleProcessDataLoaderIter")),
    "dl2": ("DataLoader workers",
            lambda n: n.startswith(DL + "_MultiProcessingDataLoaderIter")),
    "zerograd": ("Optimizer.zero_grad",
                 lambda n: n.startswith("Optimizer.zero_grad#")),
    "sync": ("Logging on the training thread",
             lambda n: n.endswith(": log_metrics")),
    "preproc": ("Preprocessing on the main thread",
                lambda n: n.endswith(": resize_batch")),
}


def kernel_us(e):
    """The synthetic kernel's length: a fill 2 us, an optimizer's kernel
    30 us, a forward or backward kernel 30 us (GEMMs 120 us) or as long as
    the CPU build spent in the op if longer: the GPU keeps up inside the
    forward and backward, and waits for what the host does around them."""
    if e.name in ("aten::fill_", "aten::zero_"):
        return 2.0
    if any(a.name.startswith("Optimizer.") for a in ancestors(e)):
        return 30.0
    base = 120.0 if e.name in ("aten::mm", "aten::addmm") else 30.0
    return max(base, e.end - e.ts)


class Ev:
    __slots__ = ("cat", "name", "ts", "end", "args", "depth", "gpu",
                 "parent")

    def __init__(self, cat, name, ts, end, args=None, depth=0):
        self.cat, self.name, self.ts, self.end = cat, name, ts, end
        self.args, self.depth, self.gpu, self.parent = args, depth, None, None


def load(kind):
    path = os.path.join(HERE, "torchidle", kind + ".host.json.gz")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    ev, steps = [], 0
    for name, a, b, _th, shapes in sorted(doc["ops"], key=lambda e: e[1]):
        if name.startswith("__tl_"):
            continue
        if name == "ProfilerStep*":
            steps += 1
            name = STEP + str(steps)
        cat = "user_annotation" if "#" in name else "cpu_op"
        args = None
        if cat == "cpu_op":
            args = {"Input Dims": shapes,
                    "Input type": ["float" if s else "" for s in shapes]}
        ev.append(Ev(cat, name, float(a), float(b), args))
    host = [e for e in ev]
    frames = [Ev("python_function", n, a, b, None, d)
              for n, a, b, d in doc["frames"]]
    # The hook's clock lags the profiler's: each annotation ends inside
    # record_function's __exit__ frame, so move the frames by the median
    # distance from such a frame's end to the annotation's.
    exits = sorted(f.end for f in frames
                   if f.name.startswith("torch/autograd/profiler.py")
                   and f.name.endswith(": __exit__"))
    lag = []
    for e in ev:
        if e.cat == "user_annotation" and exits:
            x = min(exits, key=lambda t: abs(t - e.end))
            if abs(x - e.end) < 200:
                lag.append(e.end - x)
    lag.sort()
    d = lag[len(lag) // 2] if lag else 0.0
    for f in frames:
        f.ts += d
        f.end += d
    nest(host, frames)
    return host + frames


def nest(ops, frames):
    """Frames and ops cut across each other by the clocks' few us of
    error: move the frame's edge that the op crosses, to the op's edge
    that costs less (widen the frame over the op, or end it before /
    start it after the op); then each frame inside its caller.  Frames
    left empty go."""
    by_ts = sorted(ops, key=lambda o: o.ts)
    by_end = sorted(ops, key=lambda o: o.end)
    ts = [o.ts for o in by_ts]
    ends = [o.end for o in by_end]
    for _ in range(4):
        changed = False
        for f in frames:
            for o in by_ts[bisect.bisect_right(ts, f.ts):
                           bisect.bisect_left(ts, f.end)]:
                if o.end > f.end and f.ts < o.ts < f.end:
                    if o.end - f.end < f.end - o.ts:
                        f.end = o.end
                    else:
                        f.end = o.ts
                    changed = True
            for o in by_end[bisect.bisect_right(ends, f.ts):
                            bisect.bisect_left(ends, f.end)]:
                if o.ts < f.ts < o.end < f.end:
                    if f.ts - o.ts < o.end - f.ts:
                        f.ts = o.ts
                    else:
                        f.ts = o.end
                    changed = True
        frames[:] = [f for f in frames if f.end > f.ts]
        stack = []
        for f in sorted(frames, key=lambda f: (f.ts, f.depth)):
            while stack and (stack[-1].depth >= f.depth or
                             stack[-1].end <= f.ts):
                stack.pop()
            if stack and f.end > stack[-1].end:
                f.end = stack[-1].end
                changed = True
            stack.append(f)
        frames[:] = [f for f in frames if f.end > f.ts]
        if not changed:
            return


def tree(host):
    """Parent links by containment, the longer event outside."""
    order = sorted(host, key=lambda e: (e.ts, -(e.end - e.ts),
                                        e.cat != "user_annotation"))
    stack = []
    for e in order:
        while stack and stack[-1].end <= e.ts:
            stack.pop()
        while stack and stack[-1].end < e.end:
            stack.pop()
        e.parent = stack[-1] if stack else None
        stack.append(e)


def depth(e):
    return sum(1 for _ in ancestors(e))


def ancestors(e):
    while e is not None:
        yield e
        e = e.parent


def shift(host, at, w):
    for e in host:
        if e.ts >= at:
            e.ts += w
            e.end += w
        elif e.end > at:
            e.end += w


def gpu(host, kind):
    """The synthetic GPU work: (start, end, launch runtime event, name,
    category), in launch order."""
    tree(host)
    ops = [e for e in host if e.cat == "cpu_op" and launches(e, kind)]
    ops.sort(key=lambda e: e.ts)
    work, free = [], 0.0
    for e in ops:
        if e.name == "aten::_local_scalar_dense":
            lt = e.ts + 0.5
            r = Ev("cuda_runtime", "cudaMemcpyAsync", lt, lt + 0.5)
            k0 = max(r.ts + LAT, free)
            free = k0 + 2.0
            work.append((k0, free, r, "Memcpy DtoH (Device -> Pinned)",
                         "gpu_memcpy"))
            s0 = r.end + 0.25
            wait = max(0.0, free - (s0 + 0.5))
            if wait > 0:
                shift(host, s0 + 0.25, wait)
            host.append(r)
            host.append(Ev("cuda_runtime", "cudaStreamSynchronize", s0,
                           s0 + 0.5 + wait))
            continue
        d = min(2.0, (e.end - e.ts) / 2)
        r = Ev("cuda_runtime", "cudaLaunchKernel", e.end - d, e.end - d / 2)
        k0 = max(r.ts + LAT, free)
        free = k0 + kernel_us(e)
        work.append((k0, free, r, "kernel_" + e.name[6:], "kernel"))
        host.append(r)
    return work


def launches(e, kind):
    """The outermost CPU ops of the model's step (forward, backward,
    optimizer; not views) launch a kernel at their end; in KIND sync,
    aten::_local_scalar_dense copies to the host."""
    if e.name == "aten::_local_scalar_dense":
        return kind == "sync"
    if e.end - e.ts < 1.0 or e.name in VIEWS or (
            e.parent is not None and e.parent.cat == "cpu_op"):
        return False
    return any(a.name.endswith(": train_step") for a in ancestors(e))


def write(host, work, path):
    ev = [{"name": "process_name", "ph": "M", "ts": 0, "pid": 100,
           "tid": 0, "args": {"name": "python3"}},
          {"name": "process_labels", "ph": "M", "ts": 0, "pid": 0,
           "tid": 0, "args": {"labels": "GPU 0"}}]
    corr = {}
    for i, w in enumerate(work):
        corr[id(w[2])] = 1000 + i
    for e in sorted(host, key=lambda e: (e.ts, -(e.end - e.ts))):
        x = {"ph": "X", "cat": e.cat, "name": e.name, "pid": 100,
             "tid": 100, "ts": round(BASE + e.ts, 3),
             "dur": round(e.end - e.ts, 3)}
        args = dict(e.args or {})
        if e.cat == "python_function":
            args = {"Python id": len(ev), "Python parent id": 0}
        if id(e) in corr:
            args = {"External id": corr[id(e)], "correlation": corr[id(e)]}
        if args:
            x["args"] = args
        ev.append(x)
        if id(e) in corr:
            ev.append({"ph": "s", "id": corr[id(e)], "pid": 100, "tid": 100,
                       "ts": x["ts"], "cat": "ac2g", "name": "ac2g"})
    for k0, k1, r, name, cat in work:
        c = corr[id(r)]
        ev.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": 7,
                   "ts": round(BASE + k0, 3), "dur": round(k1 - k0, 3),
                   "args": {"External id": c, "correlation": c,
                            "stream": 7, "device": 0}})
        ev.append({"ph": "f", "id": c, "pid": 0, "tid": 7,
                   "ts": round(BASE + k0, 3), "cat": "ac2g", "name": "ac2g",
                   "bp": "e"})
    doc = {"schemaVersion": 1, "deviceProperties": [
        {"id": 0, "name": "NVIDIA H100 80GB HBM3"}], "traceEvents": ev}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def owner(e):
    """Whose time an instant inside e is: a runtime call's (not a sync)
    is the event around it's; ProfilerStep is nobody's."""
    while e is not None and (e.cat == "cuda_runtime" and
                             e.name != "cudaStreamSynchronize"):
        e = e.parent
    if e is not None and e.name.startswith(STEP):
        return None
    return e


def context(e, steps):
    """The outermost annotation around e inside its step, else the
    outermost event there."""
    s = next((s for s in steps if s.ts <= e.ts and e.end <= s.end), None)
    best = e
    ann = e if e.cat == "user_annotation" else None
    for a in ancestors(e.parent):
        if s is None or a.ts < s.ts or a.end > s.end or a is s:
            break
        best = a
        if a.cat == "user_annotation":
            ann = a
    return (ann or best).name


def kind_of(e):
    return {"cpu_op": "cpu_op", "user_annotation": "annotation",
            "python_function": "python"}.get(e.cat, "sync")


def explain(host, work, known):
    """The gaps of GPU 0 and their pieces, from the events."""
    tree(host)
    steps = [e for e in host if e.name.startswith(STEP)]
    busy = sorted((w[0], w[1], w[2]) for w in work)
    gaps, noise, n_noise, end = [], 0.0, 0, None
    first = min(e.ts for e in host)
    for k0, k1, r in busy:
        if end is not None and k0 > end:
            if k0 - end < NOISE - 1e-9:
                noise += k0 - end
                n_noise += 1
            else:
                gaps.append(piece(host, steps, end, k0, r, first, known))
        end = k1 if end is None else max(end, k1)
    return gaps, noise, n_noise


def piece(host, steps, a, b, r, first, known):
    cut = min(max(r.ts, a), b)
    cuts = sorted({a, cut} | {x for e in host for x in (e.ts, e.end)
                              if a < x < cut})
    self_us, none, sync, order = {}, 0.0, 0.0, []
    for x0, x1 in zip(cuts, cuts[1:]):
        m = (x0 + x1) / 2
        inner = None    # the deepest event open at m
        for e in host:
            if e.ts <= m < e.end and (inner is None or
                                      depth(e) > depth(inner)):
                inner = e
        o = owner(inner)
        if o is None:
            none += x1 - x0
        elif o.name == "cudaStreamSynchronize":
            sync += x1 - x0
        else:
            if o not in self_us:
                order.append(o)
            self_us[o] = self_us.get(o, 0.0) + x1 - x0
    pieces = []
    covered = sum(self_us.values())
    hit = False
    if order:
        top = max(order, key=lambda o: self_us[o])
        pieces.append([kind_of(top), top.name, context(top, steps),
                       round(covered, 3)])
        hit = any(known(x.name) for x in ancestors(top))
    if none > 1e-9:
        pieces.append(["none", "", "", round(none, 3)])
    pieces.append(["launch", r.name, "", round(b - cut, 3)])
    if sync > 1e-9:
        pieces.append(["sync", "cudaStreamSynchronize", "", round(sync, 3)])
    step = next((int(s.name[len(STEP):]) for s in steps
                 if s.ts <= r.ts < s.end), None)
    return {"ts": round(BASE + a, 3), "offset": round(a - first, 3),
            "dur": round(b - a, 3), "step": step, "pieces": pieces,
            "known_us": round(covered, 3) if hit else 0.0}


def build(kind, out):
    host = load(kind)
    work = gpu(host, kind)
    title, known = KNOWN[kind]
    gaps, noise, n_noise = explain(host, work, known)
    write(host, work, os.path.join(out, kind + ".json"))
    total = sum(g["dur"] for g in gaps) + noise
    busy = sum(w[1] - w[0] for w in work)
    exp = {"gaps": gaps, "noise_us": round(noise, 3),
           "noise_count": n_noise, "idle_us": round(total, 3),
           "busy_us": round(busy, 3),
           "first": [title, round(sum(g["known_us"] for g in gaps), 3)]}
    with open(os.path.join(out, kind + ".expect.json"), "w",
              encoding="utf-8") as f:
        json.dump(exp, f, indent=1, sort_keys=True)
        f.write("\n")
    return exp


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--record":
        sys.path.insert(0, os.path.join(HERE, "torchidle"))
        import record  # noqa: needs torch
        record.run(sys.argv[2], sys.argv[3])
        return
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    for kind in sys.argv[2:] or KINDS:
        e = build(kind, out)
        print("%s: %d gaps, idle %.3f us, first %s %.3f us" %
              (kind, len(e["gaps"]), e["idle_us"], e["first"][0],
               e["first"][1]), file=sys.stderr)


if __name__ == "__main__":
    main()
