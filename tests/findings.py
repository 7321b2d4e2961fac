#!/usr/bin/env python3
"""End-to-end checks of tl-findings on the shared traces.

usage: findings.py BINDIR TRACES
Prints "ok NAME", "FAIL NAME" or "SKIP NAME" lines (tests/run.sh counts
them).  Every number asserted is computed here, independently, from the
op stream that tl-efficiency writes: the layout-conversion share of the
convolutions, the batchnorm bandwidth against the elementwise baseline,
the GEMM table with tl-findings' priority rules, the roofline points.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.dom.minidom

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mdcheck  # noqa: E402
from mdcheck import ok  # noqa: E402
from parity import read_tsv  # noqa: E402

BIN, TRACES = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp()
FAILED = []


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **kw)


def stream(trace, hw):
    path = os.path.join(TMP, os.path.basename(trace) + ".tsv")
    r = sh("%s/tl-parse --stack %s | %s/tl-efficiency --hw %s > %s"
           % (BIN, trace, BIN, hw, path))
    if r.returncode != 0:
        raise SystemExit("FAIL pipeline on %s: %s" % (trace, r.stderr))
    return path


def findings(stream_path, outdir, *args):
    return sh("%s/tl-findings -o %s %s %s" % (BIN, outdir, " ".join(args),
                                              stream_path))


def groups(rows):
    """Op signatures as tl-findings forms them."""
    g = {}
    for r in rows:
        k = (r["name"], r["input_dims"], r["input_types"],
             r["input_strides"], r["concrete_inputs"], r["category"])
        e = g.setdefault(k, {"rows": [], "time": 0.0, "roof": 0.0,
                             "has_roof": True})
        e["rows"].append(r)
        e["time"] += float(r["kernel_time_us"] or 0)
        if r["roofline_time_us"] == "":
            e["has_roof"] = False
        else:
            e["roof"] += float(r["roofline_time_us"])
    return g


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def md_ms(us):
    """The reports' millisecond format: 3 decimals of the µs rounded."""
    ns = round(us * 1000)
    u = (ns + 500) // 1000
    return "%d.%03d" % (u // 1000, u % 1000)


def scan_wording(name, files):
    bad = []
    for f in files:
        bad += ["%s: %s" % (os.path.basename(f), m) for m in
                mdcheck.scan(open(f, encoding="utf-8").read(), mdcheck.VENDOR)]
    ok(name, not bad, bad[:10])


def md_files(d):
    out = []
    for root, _, files in os.walk(d):
        out += [os.path.join(root, f) for f in files if f.endswith(".md")]
    return sorted(out)


def check_svgs(name, d, rows):
    """Well-formed; one roofline point per signature with flops/byte and
    TFLOPS/s, at the stream's numbers."""
    roof = os.path.join(d, "charts", "roofline.svg")
    brk = os.path.join(d, "charts", "breakdown.svg")
    try:
        dom = xml.dom.minidom.parse(roof)
        xml.dom.minidom.parse(brk)
    except Exception as e:  # noqa: BLE001
        ok(name + ": SVGs are well-formed XML", False, e)
        return
    ok(name + ": SVGs are well-formed XML", True)
    want = []
    for e in groups(rows).values():
        r = e["rows"][0]
        if r["flops"] == "" or r["bytes"] == "" or int(r["bytes"]) <= 0:
            continue
        fl, by = int(r["flops"]), int(r["bytes"])
        n = len(e["rows"])
        t = e["time"]
        if fl <= 0 or t <= 0:
            continue
        want.append((fl / by, fl * n / (t * 1e-6) / 1e12))
    got = [(float(c.getAttribute("data-flops-per-byte")),
            float(c.getAttribute("data-tflops-s")))
           for c in dom.getElementsByTagName("circle")
           if c.getAttribute("class") == "point"]
    want.sort()
    got.sort()
    good = len(want) == len(got) and all(
        close(a[0], b[0]) and close(a[1], b[1], 1e-6)
        for a, b in zip(want, got))
    ok(name + ": one roofline point per op signature, at the stream's "
       "numbers (%d)" % len(want), good and len(want) > 0,
       (want[:3], got[:3]))
    # tests/run.sh renders the charts in $TL_SVG_OUT with tests/svgcheck.sh.
    out = os.environ.get("TL_SVG_OUT")
    if out:
        shutil.copy(roof, os.path.join(out, name + "-roofline.svg"))
        shutil.copy(brk, os.path.join(out, name + "-breakdown.svg"))


def resnet():
    trace = os.path.join(TRACES, "mi300-resnet-act-checkpoint.json.gz")
    s = stream(trace, "mi300x")
    rows = read_tsv(open(s, encoding="utf-8").read())
    d = os.path.join(TMP, "resnet")
    r = findings(s, d)
    ok("resnet: tl-findings -o exits 0", r.returncode == 0, r.stderr)
    # Layout conversion: transpose kernels under the convolutions.
    conv = [x for x in rows if x["category"] == "conv"]
    conv_us = sum(float(x["kernel_time_us"]) for x in conv)
    tr_us = sum(k["dur"] for x in conv for k in json.loads(x["kernels"])
                if "transpose" in k["name"].lower())
    m = json.load(open(os.path.join(d, "category_data",
                                    "convolution_metrics.json")))
    pct = m["category_specific"]["transpose_overhead_percent"]
    ok("resnet: convolution layout-conversion overhead = transpose kernels "
       "/ convolution time (%.2f %%)" % (tr_us / conv_us * 100),
       close(pct, tr_us / conv_us * 100, 1e-6) and tr_us > 0, (pct, tr_us,
                                                               conv_us))
    text = open(os.path.join(d, "category_findings",
                             "convolution_findings.md")).read()
    ok("resnet: convolution findings state the overhead and channels_last",
       ("%.1f %%" % (tr_us / conv_us * 100)) in text and
       md_ms(tr_us) + " ms" in text and "channels_last" in text)
    # Batchnorm against the elementwise baseline of the same trace.
    base = float(next(x["eltwise_baseline_tbs"] for x in rows
                      if x["eltwise_baseline_tbs"] != ""))
    m = json.load(open(os.path.join(d, "category_data",
                                    "batchnorm_metrics.json")))
    ok("resnet: batchnorm metrics carry the elementwise baseline",
       close(m["category_specific"]["eltwise_baseline_tbs"], base))
    g = groups([x for x in rows if x["category"] == "batchnorm"])
    want = {}
    for k, e in g.items():
        r0 = e["rows"][0]
        if r0["bound"] != "memory" or r0["bytes"] == "":
            continue
        tbs = int(r0["bytes"]) * len(e["rows"]) / (e["time"] * 1e-6) / 1e12
        want[(k[0], k[1])] = tbs / base * 100
    got = {(o["name"], json.dumps(o["input_dims"], separators=(",", ":"))):
           o.get("pct_of_eltwise_baseline") for o in m["operations"]}
    bad = [(k, v, got.get(k)) for k, v in want.items()
           if got.get(k) is None or not close(got[k], v, 1e-6)]
    ok("resnet: each memory-bound batchnorm's bandwidth vs the baseline "
       "(%d signatures)" % len(want), not bad and len(want) > 5, bad[:3])
    text = open(os.path.join(d, "category_findings",
                             "batchnorm_findings.md")).read()
    below = sum(1 for v in want.values() if v < 20)
    ok("resnet: batchnorm findings compare with the baseline",
       ("reach %s TB/s" % ("%.3f" % base)) in text and
       ("%d of %d memory-bound batchnorm" % (below, len(want))) in text)
    # --fail-on: the resnet has High bottlenecks and no Critical one.
    worst = max((o["priority"] for f in os.listdir(os.path.join(
        d, "category_data")) if f.endswith("_metrics.json")
        for o in json.load(open(os.path.join(d, "category_data", f)))
        ["operations"] if o["bottleneck"]),
        key=["Low", "Medium", "High", "Critical"].index)
    hi = sh("%s/tl-findings --fail-on high %s > /dev/null" % (BIN, s))
    cr = sh("%s/tl-findings --fail-on critical %s > /dev/null" % (BIN, s))
    ok("resnet: --fail-on high exits 3, --fail-on critical exits %d "
       "(worst bottleneck %s)" % (3 if worst == "Critical" else 0, worst),
       hi.returncode == 3 and cr.returncode == (3 if worst == "Critical"
                                                 else 0))
    scan_wording("resnet: no vendor library names or unobservable claims "
                 "outside code spans", md_files(d))
    fair_rough(d, "resnet")
    check_svgs("resnet", d, rows)
    d2 = os.path.join(TMP, "resnet2")
    findings(s, d2)
    r = sh("diff -r %s %s" % (d, d2))
    ok("resnet: output is byte-identical across runs", r.returncode == 0,
       r.stdout[:500])


def fair_rough(d, name):
    fair = open(os.path.join(d, "standalone_analysis_fair.md")).read()
    rough = open(os.path.join(d, "standalone_analysis_rough.md")).read()
    rows = re.findall(r"^\| (\d) \| (.*) \| ([0-9.]+) \| ([0-9.]+) \| "
                      r"(\w+) \|$", fair, re.M)
    missing = [r for r in rows if r[2] not in rough or r[3] not in rough]
    ok(name + ": the fair report's top bottlenecks' times and shares are "
       "in the rough report", rows and not missing, missing)
    top = [l for l in fair.split("## Recommendations")[0].split("\n")
           if l.strip()]
    ok(name + ": executive summary is at most ~20 lines of text plus "
       "tables", len([l for l in top if not l.startswith("|")]) <= 20)


def qwen():
    trace = os.path.join(TRACES, "h100-qwen1.5-0.5b.json.gz")
    s = stream(trace, "h100")
    rows = read_tsv(open(s, encoding="utf-8").read())
    d = os.path.join(TMP, "qwen")
    r = findings(s, d)
    ok("qwen: tl-findings -o exits 0", r.returncode == 0, r.stderr)
    gemm = [x for x in rows if x["category"] == "gemm"]
    g = groups(gemm)
    total_op = sum(float(x["kernel_time_us"]) for x in rows)
    cat_us = sum(e["time"] for e in g.values())
    expect = []
    for k, e in g.items():
        pct = e["time"] / total_op * 100
        eff = e["roof"] / e["time"] * 100 if e["has_roof"] and \
            e["time"] > 0 and e["roof"] > 0 else None
        if pct > 15 and eff is not None and eff < 30:
            prio = "Critical"
        elif pct > 10 or (eff is not None and eff < 40):
            prio = "High"
        elif pct > 5:
            prio = "Medium"
        else:
            prio = "Low"
        bott = eff is not None and eff < 40 and (
            e["time"] / 1e3 > 50 or e["time"] / cat_us * 100 > 5)
        expect.append((-e["time"], k[0], k[1], len(e["rows"]), eff, prio,
                       bott))
    expect.sort()
    m = json.load(open(os.path.join(d, "category_data", "gemm_metrics.json")))
    got = [(o["name"], json.dumps(o["input_dims"], separators=(",", ":")),
            o["count"], o["efficiency_pct"], o["priority"], o["bottleneck"],
            o["time_ms"]) for o in m["operations"]]
    bad = []
    for w, gg in zip(expect, got):
        if (w[1], w[2], w[3], w[5], w[6]) != (gg[0], gg[1], gg[2], gg[4],
                                              gg[5]) or \
           not close(-w[0] / 1e3, gg[6], 1e-9) or \
           (w[4] is None) != (gg[3] is None) or \
           (w[4] is not None and not close(w[4], gg[3], 1e-9)):
            bad.append((w, gg))
    ok("qwen: GEMM signatures by time with shapes, counts, efficiency and "
       "priority by the rules (%d)" % len(expect),
       len(expect) == len(got) and not bad and len(expect) >= 3, bad[:2])
    text = open(os.path.join(d, "category_findings", "gemm_findings.md")).read()
    top = expect[0]
    ok("qwen: GEMM findings table lists the top GEMM with its shape and count",
       ("| `%s` | %d | %s |" % (top[1], top[3], md_ms(-top[0]))) in text and
       ("`%s`" % top[2]) in text)
    att = os.path.join(d, "category_findings", "attention_findings.md")
    ok("qwen: attention is analysed",
       os.path.exists(att) and "## Overview" in open(att).read() and
       "attention" in open(os.path.join(d, "standalone_analysis_fair.md"))
       .read().lower())
    scan_wording("qwen: no vendor library names or unobservable claims "
                 "outside code spans", md_files(d))
    fair_rough(d, "qwen")
    check_svgs("qwen", d, rows)
    # A stream with no GEMM rows.
    r = sh("%s/tl-categorize -v gemm %s | %s/tl-findings --report category "
           "--category gemm" % (BIN, s, BIN))
    ok("no GEMM rows: 'No GEMM operations found in trace', exit 0",
       r.returncode == 0 and b"No GEMM operations found in trace" in r.stdout)
    # A malformed number fails its category only.
    lines = open(s, encoding="utf-8").read().split("\n")
    head = lines[0].split("\t")
    ci, cf = head.index("category"), head.index("flops")
    for i in range(1, len(lines)):
        f = lines[i].split("\t")
        if len(f) > ci and f[ci] == "gemm":
            f[cf] = "12x"
            lines[i] = "\t".join(f)
            break
    bad = os.path.join(TMP, "bad.tsv")
    open(bad, "w", encoding="utf-8").write("\n".join(lines))
    r = sh("%s/tl-findings --report category --category gemm %s"
           % (BIN, bad))
    r2 = sh("%s/tl-findings --report category --category attention %s"
            % (BIN, bad))
    ok("a malformed number: Status: ERROR for its category, no bottleneck "
       "claims; others analysed",
       r.returncode == 0 and b"Status: ERROR" in r.stdout and
       b"'12x' is not an integer" in r.stdout and
       b"Key Bottlenecks" not in r.stdout and b"## Overview" in r2.stdout)


if not os.path.isdir(TRACES):
    print("SKIP tl-findings on shared traces (no %s)" % TRACES)
    sys.exit(0)
for case in (resnet, qwen):
    try:
        case()
    except Exception as e:  # noqa: BLE001
        print("FAIL %s: %s: %s" % (case.__name__, type(e).__name__, e))
shutil.rmtree(TMP)
