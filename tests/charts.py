#!/usr/bin/env python3
"""One roof kind per run, and the charts of tl-findings, on the shared traces.

usage: charts.py BINDIR TRACES
Prints "ok NAME", "FAIL NAME" or "SKIP NAME" lines (tests/run.sh counts
them).  Every number asserted is recomputed here from the op stream or
from `tl-efficiency --hw show all`:

- the roof kind: a stream of an H100 and an MI300X trace, through
  tl-efficiency --roof achievable and --roof peak, measures every row
  against the figure of the run's kind, or, where the GPU table has none
  for the GPU, against the other kind (a stand-in), and the report names
  the kind and every stand-in;
- the roofline: each point sits against the roof of its own GPU and
  compute spec, at the efficiency the stream gives its rows, the roof
  labels do not overlap and the axes span the plotted ops;
- the busy strip, the gap histogram, the largest gaps and the per-rank
  chart against the kernels and timeline columns of the stream;
- every chart well-formed, linked from the reports, byte-identical from
  run to run, its times in milliseconds with 3 decimals and its shares
  with 1; they are left in $TL_SVG_OUT for tests/svgcheck.sh to render.
"""
import json
import math
import os
import re
import shutil
import sys
import tempfile
import xml.dom.minidom

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdcheck import must, ok, sh  # noqa: E402
from parity import read_tsv  # noqa: E402

BIN, TRACES = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp()
H100 = "h100-qwen1.5-0.5b.json.gz"
MI300 = "mi300-qwen1.5-0.5b.json.gz"
MULTI = ["mi300-bert-small.json.gz", "mi300-falconsai-vit.json.gz",
         "mi300-qwen1.5-0.5b.json.gz"]
KIND = {"peak": "dense peak", "achievable": "achievable"}
OTHER = {"peak": "achievable", "achievable": "peak"}
CHARTS = ["roofline.svg", "breakdown.svg", "ranks.svg", "timeline.svg",
          "gaps.svg"]


def ns(us):
    """Exact nanoseconds of a microseconds text (at most 3 decimals)."""
    us = str(us)
    neg = us.startswith("-")
    whole, _, frac = us.lstrip("-").partition(".")
    v = int(whole or 0) * 1000 + int((frac + "000")[:3])
    return -v if neg else v


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def stream(traces, name, *opts):
    p = os.path.join(TMP, name + ".tsv")
    must("%s/tl-parse %s | %s/tl-efficiency --hw auto %s > %s"
         % (BIN, " ".join(os.path.join(TRACES, t) for t in traces), BIN,
            " ".join(opts), p))
    return p, read_tsv(open(p, encoding="utf-8").read())


def roof_table():
    """(gpu, key, kind) -> (value, roof_achievable, roof_peak)."""
    t = {}
    for r in read_tsv(must("%s/tl-efficiency --hw show all" % BIN)):
        t[(r["gpu"], r["key"], r["kind"])] = (float(r["value"]),
                                             r["roof_achievable"],
                                             r["roof_peak"])
    return t


def figure(table, hw, key, kind):
    """The figure a run of kind uses: (kind used, value), or None."""
    for k in (kind, OTHER[kind]):
        if (hw, key, k) in table:
            return k, table[(hw, key, k)][0]
    return None


def check_kind(kind, table):
    """Every row of a mixed H100 + MI300X stream against the run's kind."""
    name = "mixed H100 + MI300X, --roof %s" % kind
    p, rows = stream([H100, MI300], "mixed-" + kind, "--roof", kind)
    bad, stand = [], set()
    for r in rows:
        if r["roof_kind"] != kind:
            bad.append(("roof_kind", r["roof_kind"]))
            continue
        want = figure(table, r["hw"], "hbm_tbs", kind)
        if want is None or (r["bw_roof"], float(r["peak_tbs"])) != want:
            bad.append(("bw", r["hw"], r["bw_roof"], r["peak_tbs"], want))
        elif want[0] != kind:
            stand.add((r["hw"], "hbm_tbs"))
        if r["compute_spec"] == "":
            continue
        want = figure(table, r["hw"], r["compute_spec"], kind)
        got = (r["roof"], float(r["peak_tflops"])) if r["peak_tflops"] \
            else None
        if got != want:
            bad.append((r["hw"], r["compute_spec"], got, want))
        elif want[0] != kind:
            stand.add((r["hw"], r["compute_spec"]))
        # The table's roof_<kind> column says the same.
        if want is not None and \
           table[(r["hw"], r["compute_spec"], want[0])][
               1 if kind == "achievable" else 2] != \
           ("yes" if want[0] == kind else "stand-in"):
            bad.append(("--hw show", r["hw"], r["compute_spec"]))
    hws = sorted(set(r["hw"] for r in rows))
    ok("%s: every row against the %s figure of its GPU, or the other kind "
       "where the table has none (%d rows, %d stand-ins)"
       % (name, kind, len(rows), len(stand)),
       not bad and hws == ["h100", "mi300x"] and stand, bad[:3])
    # The report names the kind and every stand-in of every GPU.
    rep = must("%s/tl-findings %s" % (BIN, p))
    lines = rep.split("\n")
    head = [i for i, x in enumerate(lines) if x.startswith(
        "- Roofs: **%s** figures for every GPU (`tl-efficiency --roof %s`"
        % (KIND[kind], kind))]
    bad = []
    for hw in hws:
        line = next((x for x in lines[head[0] + 1:] if x.startswith(
            "  - `%s`" % hw)), "") if head else ""
        keys = sorted(set((r["compute_spec"], r["roof"], r["peak_tflops"])
                          for r in rows if r["hw"] == hw and
                          r["compute_spec"] and r["peak_tflops"]))
        every = all((hw, k[0]) in stand for k in keys) and \
            (hw, "hbm_tbs") in stand
        if every != (("has no %s figure in the GPU table: its %s figures "
                      "stand in:" % (KIND[kind], KIND[OTHER[kind]]))
                     in line):
            bad.append((hw, "all", line))
        for spec, roof, peak in keys:
            text = "`%s` %s TFLOPS/s" % (spec, peak)
            mark = " (%s, stand-in)" % KIND[roof]
            if text not in line or \
               ((hw, spec) in stand and not every) != (text + mark in line):
                bad.append((hw, spec, line))
        if "`tl-efficiency --hw show %s`" % hw not in line:
            bad.append((hw, "show", line))
    ok("%s: the report names the roof kind, each GPU's figures and every "
       "stand-in" % name, len(head) == 1 and not bad, bad[:3])
    return p, rows


def groups(rows):
    """Roofline points as tl-findings forms them: an op signature (and
    category) on one roof (GPU, compute spec, the figures)."""
    g = {}
    for r in rows:
        if r["flops"] == "" or r["bytes"] == "" or int(r["bytes"]) <= 0 or \
           int(r["flops"]) <= 0:
            continue
        k = (r["name"], r["input_dims"], r["input_types"], r["input_strides"],
             r["concrete_inputs"], r["category"], r["hw"], r["compute_spec"],
             r["roof"], r["bw_roof"], r["peak_tflops"], r["peak_tbs"])
        e = g.setdefault(k, {"t": 0, "n": 0, "roof": 0.0, "all": True,
                             "fl": int(r["flops"]), "by": int(r["bytes"])})
        e["t"] += ns(r["kernel_time_us"] or "0")
        e["n"] += 1
        if r["roofline_time_us"] == "":
            e["all"] = False
        else:
            e["roof"] += float(r["roofline_time_us"])
    return g


def svg(path):
    return xml.dom.minidom.parse(path)


def by_class(dom, tag, cls):
    return [e for e in dom.getElementsByTagName(tag)
            if e.getAttribute("class") == cls]


def check_roofline(name, path, rows):
    """Each point against the roof of its precision, at its stream %."""
    dom = svg(path)
    roofs = {g.getAttribute("data-roof"): g for g in
             by_class(dom, "g", "roof")}
    want = {}
    for k, e in groups(rows).items():
        if e["t"] <= 0:
            continue
        fpb = e["fl"] / e["by"]
        tf = e["fl"] * e["n"] / e["t"] / 1e3
        want.setdefault((round(math.log10(fpb), 9), round(math.log10(tf), 9)),
                        []).append((k, e))
    bad, n, pct = [], 0, 0
    for c in by_class(dom, "circle", "point"):
        key = (round(math.log10(float(c.getAttribute("data-flops-per-byte"))),
                     9),
               round(math.log10(float(c.getAttribute("data-tflops-s"))), 9))
        cands = want.get(key, [])
        if not cands:
            bad.append(("no such point", key))
            continue
        k, e = cands.pop()
        n += 1
        g = roofs.get(c.getAttribute("data-roof"))
        if g is None:
            bad.append(("no roof", k[0]))
            continue
        label = g.getAttribute("data-label")
        if not (label == k[7] or label == "%s %s" % (k[6], k[7])) or \
           g.getAttribute("data-peak-tflops") != k[10] or \
           g.getAttribute("data-peak-tbs") != k[11]:
            bad.append(("roof", k[0], k[6:], label))
        if e["all"] and e["roof"] > 0:
            pct += 1
            if not close(float(c.getAttribute("data-pct-roof")),
                         e["roof"] / (e["t"] / 1e3) * 100, 1e-6):
                bad.append(("pct", k[0], c.getAttribute("data-pct-roof"),
                            e["roof"] / (e["t"] / 1e3) * 100))
    left = sum(len(v) for v in want.values())
    specs = set(g.getAttribute("data-label") for g in roofs.values())
    ok("%s: every point against the roof of its GPU and precision, at the "
       "stream's efficiency (%d points, %d with one; roofs %s)"
       % (name, n, pct, ", ".join(sorted(specs))),
       not bad and not left and n > 0 and pct > 0 and
       any("matrix" in s for s in specs) and
       any("vector" in s for s in specs), (bad[:3], left))
    # Labels apart; axes from the plotted ops.
    ys = sorted(float(t.getAttribute("y")) for t in
                by_class(dom, "text", "roof-label") if t.hasAttribute("x"))
    lx = [math.log10(float(c.getAttribute("data-flops-per-byte")))
          for c in by_class(dom, "circle", "point")]
    xd = by_class(dom, "g", "points")[0].getAttribute(
        "data-x-decades").split()
    lo, hi = math.floor(min(lx) - 0.05), math.ceil(max(lx) + 0.05)
    while hi - lo < 2:
        lo -= 1
        hi += hi - lo < 2
    ok("%s: the roof labels do not overlap (%d) and the x axis spans the "
       "ops (%s)" % (name, len(ys), " ".join(xd)),
       all(b - a >= 13 - 1e-9 for a, b in zip(ys, ys[1:])) and
       [int(xd[0]), int(xd[1])] == [lo, hi] and len(ys) >= 2, (ys, lo, hi))


def kernel_gaps(rows):
    """Per trace: the span, the busy time and the gaps between the union
    of the rows' kernels, in ns, as tl-findings computes them."""
    ev = {}
    for r in rows:
        if r["kernels"]:
            for k in json.loads(r["kernels"]):
                s = ns(k["ts"])
                ev.setdefault(r["trace"], []).append((s, s + ns(k["dur"])))
    out = {}
    for t, e in ev.items():
        e.sort()
        busy, gaps, s, end = 0, [], e[0][0], e[0][1]
        for a, b in e[1:]:
            if a > end:
                busy += end - s
                gaps.append(a - end)
                s = a
            end = max(end, b)
        busy += end - s
        out[t] = (e[0][0], max(b for _, b in e), busy, gaps)
    return out


EDGES = [1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
         1000000, 2000000, 5000000, 10000000, 20000000, 50000000, 100000000,
         200000000, 500000000, 1000000000]


def check_time_charts(name, d, rows):
    """The busy strip, the largest gaps and the gap histogram."""
    kg = kernel_gaps(rows)
    dom = svg(os.path.join(d, "charts", "timeline.svg"))
    strips = by_class(dom, "g", "strip")
    got = sorted((s.getAttribute("data-label").split(": ")[-1],
                  float(s.getAttribute("data-span-us")),
                  float(s.getAttribute("data-busy-us"))) for s in strips)
    want = sorted((t, (v[1] - v[0]) / 1e3, v[2] / 1e3) for t, v in kg.items())
    ok("%s: timeline.svg: one strip per trace with its kernels' span and "
       "busy time (%d)" % (name, len(want)),
       len(got) == len(want) and all(
           g[0] == w[0] and close(g[1], w[1]) and close(g[2], w[2], 1e-6)
           for g, w in zip(got, want)), (got[:2], want[:2]))
    gaps = sorted((g for v in kg.values() for g in v[3]), reverse=True)[:5]
    marks = sorted(by_class(dom, "rect", "gap"),
                   key=lambda e: int(e.getAttribute("data-rank")))
    ok("%s: timeline.svg: the %d longest gaps numbered by length"
       % (name, len(gaps)),
       [ns(m.getAttribute("data-len-us")) for m in marks] == gaps, gaps)
    dom = svg(os.path.join(d, "charts", "gaps.svg"))
    hist = [[0, 0] for _ in range(len(EDGES) + 1)]
    for v in kg.values():
        for g in v[3]:
            b = sum(g >= e for e in EDGES)
            hist[b][0] += 1
            hist[b][1] += g
    got = {int(b.getAttribute("data-bin")): (int(b.getAttribute(
        "data-count")), round(float(b.getAttribute("data-time-us")) * 1e3))
        for b in by_class(dom, "g", "bin")}
    want = {i: tuple(h) for i, h in enumerate(hist) if h[0]}
    ok("%s: gaps.svg: the gaps per length bin, counts and idle time (%d "
       "gaps)" % (name, sum(h[0] for h in hist)),
       all(got.get(i) == w for i, w in want.items()) and
       all(got[i][0] == 0 or i in want for i in got), (got, want))


def check_ranks(name, d, rows):
    dom = svg(os.path.join(d, "charts", "ranks.svg"))
    first = {}
    for r in rows:
        first.setdefault(r["trace"], r)
    got = []
    for g in by_class(dom, "g", "rank"):
        seg = {s.getAttribute("data-part"): ns(s.getAttribute("data-value-us"))
               for s in by_class(g, "rect", "segment")}
        got.append((g.getAttribute("data-label"),
                    g.getAttribute("data-straggler"), seg))
    # The straggler is the rank that arrives last at the collectives the
    # ranks share (tl-findings, Across ranks; tests/xrank.py checks it):
    # these sets share none, so no bar is marked.
    slow = None
    want = []
    for t, r in first.items():
        seg = {k: ns(r["trace_%s_us" % c]) for k, c in (
            ("computation", "compute"), ("exposed comm", "exposed_comm"),
            ("exposed memcpy", "exposed_memcpy"), ("idle", "idle"))}
        want.append((t, "1" if t == slow else "0",
                     {k: v for k, v in seg.items() if v > 0}))
    ok("%s: ranks.svg: each trace's timeline parts, no straggler marked "
       "(no shared collective)" % name, got == want, (got[:1], want[:1]))
    # Each bar's label: the name's last path components that tell the
    # traces apart (cut to 25 characters), the full name in its tooltip.
    depth = next(c for c in range(1, 64) if len(set(
        "/".join(t.split("/")[-c:]) for t in first)) == len(first))
    shown = []
    for g in by_class(dom, "g", "rank"):
        t = g.getElementsByTagName("text")[0]
        shown.append((t.firstChild.data, t.getElementsByTagName(
            "title")[0].firstChild.data))
    want = []
    for t in first:
        v = "/".join(t.split("/")[-depth:])
        want.append((v if len(v) <= 25 else "\u2026" + v[-24:], t))
    ok("%s: ranks.svg: each bar labelled with the last %d path "
       "component(s) of its trace, all different" % (name, depth),
       shown == want and len(set(x for x, _ in shown)) == len(shown),
       (shown[:2], want[:2]))


def numbers(path):
    """Text with a time not in ms with 3 decimals, or a share not 1."""
    dom = svg(path)
    bad = []

    def walk(n):
        for c in n.childNodes:
            if c.nodeType == c.TEXT_NODE:
                t = c.data
                bad.extend(m for m in re.findall(r"[\d.]+ ms\b", t)
                           if not re.fullmatch(r"\d+\.\d{3} ms", m))
                bad.extend(m for m in re.findall(r"[\d.]+%", t)
                           if not re.fullmatch(r"\d+\.\d%", m))
            walk(c)
    walk(dom)
    return bad


def check_outdir(name, p, rows, multi):
    d = os.path.join(TMP, name)
    must("%s/tl-findings -o %s %s" % (BIN, d, p))
    files = sorted(os.listdir(os.path.join(d, "charts")))
    want = sorted(f for f in CHARTS if multi or f != "ranks.svg")
    ok("%s: -o writes %s" % (name, ", ".join(want)), files == want, files)
    bad = []
    for rep in ("standalone_analysis_fair.md", "standalone_analysis_rough.md"):
        text = open(os.path.join(d, rep), encoding="utf-8").read()
        bad += [(rep, f) for f in want
                if "](charts/%s)" % f not in text]
    ok("%s: both reports link every chart" % name, not bad, bad)
    bad = [(f, x) for f in want for x in numbers(os.path.join(d, "charts",
                                                              f))]
    ok("%s: every chart writes times as ms with 3 decimals and shares with "
       "1" % name, not bad, bad[:5])
    d2 = d + "-again"
    must("%s/tl-findings -o %s %s" % (BIN, d2, p))
    r = sh("diff -r %s %s" % (d, d2))
    ok("%s: the charts are byte-identical across runs" % name,
       r.returncode == 0, r.stdout[:300])
    c = os.path.join(TMP, name + "-c")
    must("%s/tl-findings --charts %s %s > /dev/null" % (BIN, c, p))
    r = sh("diff -r -x '.tl-*' %s %s" % (os.path.join(d, "charts"), c))
    ok("%s: --charts DIR writes the same charts as -o (and its manifest)"
       % name,
       r.returncode == 0, r.stdout[:300])
    # Rendering takes seconds a chart: every chart of the first stream
    # (mixed GPUs, two traces), the roofline of the others.
    out = os.environ.get("TL_SVG_OUT")
    if out:
        for f in (want if name == "mixed" else ["roofline.svg"]):
            shutil.copy(os.path.join(d, "charts", f),
                        os.path.join(out, "%s-%s" % (name, f)))
    check_roofline(name, os.path.join(d, "charts", "roofline.svg"), rows)
    check_time_charts(name, d, rows)
    if multi:
        check_ranks(name, d, rows)


def main():
    table = roof_table()
    mixed = {}
    for kind in ("achievable", "peak"):
        mixed[kind] = check_kind(kind, table)
    p, rows = mixed["achievable"]
    check_outdir("mixed", p, rows, True)
    p, rows = stream([H100], "h100")
    check_outdir("h100", p, rows, False)
    p, rows = stream(MULTI, "multi")
    check_outdir("multi", p, rows, True)


if not os.path.isdir(TRACES):
    print("SKIP charts on the shared traces (no %s)" % TRACES)
    sys.exit(0)
try:
    main()
except Exception as e:  # noqa: BLE001
    print("FAIL charts: %s: %s" % (type(e).__name__, e))
shutil.rmtree(TMP)
