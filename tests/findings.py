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
# The layout-conversion kernels (lib/trace/kernclass.c), in a name's start.
LAYOUT = re.compile(r"transpose|nchw2nhwc|nhwc2nchw|nchwtonhwc|nhwctonchw|"
                    r"nchw_to_nhwc|nhwc_to_nchw", re.I)
TMP = tempfile.mkdtemp()
FAILED = []


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **kw)


def stream(trace, hw, parse="--stack"):
    path = os.path.join(TMP, os.path.basename(trace) + ".tsv")
    r = sh("%s/tl-parse %s %s | %s/tl-efficiency --hw %s > %s"
           % (BIN, parse, trace, BIN, hw, path))
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


def pipeline(trace, hw, name, parse="--stack"):
    """tl-parse --stack | tl-efficiency, then tl-findings -o: the rows,
    the output directory and its analysis.json."""
    s = stream(trace, hw, parse)
    rows = read_tsv(open(s, encoding="utf-8").read())
    d = os.path.join(TMP, name)
    r = findings(s, d)
    ok(name + ": tl-findings -o exits 0", r.returncode == 0, r.stderr)
    a = json.load(open(os.path.join(d, "category_data", "analysis.json")))
    return s, rows, d, a


def pats(a, kind, where=None):
    return [p for p in a["patterns"] if p["kind"] == kind and
            (where is None or p["where"] == where)]


def mod_class(path):
    last = path.split("/")[-1]
    return re.sub(r"_[0-9]+$", "", last)


def norm_chains(name, rows, a, cls):
    """A decomposed norm of module class cls: its module instances and
    calls (one rsqrt a call) against the rows'."""
    paths = set(x["module"] for x in rows if mod_class(x["module"]) == cls
                and x["name"] == "aten::rsqrt")
    calls = sum(1 for x in rows if mod_class(x["module"]) == cls and
                x["name"] == "aten::rsqrt")
    got = pats(a, "decomposed_norm", cls)
    ok("%s: decomposed %s found in %d module instances, %d calls" %
       (name, cls, len(paths), calls),
       len(got) == 1 and calls > 0 and
       got[0]["module_instances"] == len(paths) and
       got[0]["calls"] == calls and got[0]["recoverable_ms"] > 0 and
       got[0]["recoverable_ms"] < got[0]["time_ms"],
       (got[:1], len(paths), calls))


def unfused_attention(name, rows, a, cls):
    """An unfused attention of module class cls: one call per softmax,
    the fused op's FLOPs 4·B·H·N_Q·N_KV·d from the softmax's shape and
    the QK^T GEMM's K."""
    sm = [x for x in rows if mod_class(x["module"]) == cls and
          "softmax" in x["name"] and x["direction"] == "fwd"]
    flops = 0
    for x in sm:
        dims = json.loads(x["input_dims"])[0]
        bh = 1
        for v in dims[:-2]:
            bh *= v
        qk = [y for y in rows if y["module"] == x["module"] and
              y["name"] == "aten::bmm" and
              float(y["ts_us"]) < float(x["ts_us"])]
        k = json.loads(qk[-1]["params"])["K"]
        flops += 4 * bh * dims[-2] * dims[-1] * k
    got = pats(a, "unfused_attention", cls)
    ok("%s: unfused attention in %s found: %d calls, fused FLOPs %d" %
       (name, cls, len(sm), flops),
       len(got) == 1 and len(sm) > 0 and got[0]["calls"] == len(sm) and
       got[0]["module_instances"] == len(set(x["module"] for x in sm)) and
       got[0]["fused_flops"] == flops and
       0 < got[0]["recoverable_ms"] < got[0]["time_ms"],
       (got[:1], len(sm), flops))


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
    # One layout finding, its saving the sum of the layout kernels of the
    # convolutions and normalizations.
    lay = sum(k["dur"] for x in rows if x["category"] in (
        "conv", "batchnorm", "layernorm", "groupnorm", "instancenorm",
        "rmsnorm") for k in json.loads(x["kernels"] or "[]")
        if LAYOUT.search(k["name"][:127]) and
        not k["name"].startswith("triton"))
    a = json.load(open(os.path.join(d, "category_data", "analysis.json")))
    recs = [r for r in a["recommendations"]
            if r.get("pattern") == "layout_conversion"]
    ok("resnet: one channels_last recommendation recovering the layout "
       "kernels' %.3f ms" % (lay / 1e3),
       len(recs) == 1 and close(recs[0]["recoverable_ms"], lay / 1e3, 1e-6)
       and recs[0]["slot"], recs)
    fair = open(os.path.join(d, "standalone_analysis_fair.md")).read()
    recs_md = fair.split("## Recommendations")[1].split("## Detailed")[0]
    ok("resnet: the fair report's recommendations say channels_last once",
       recs_md.count("memory_format=torch.channels_last") == 1 and
       ("| %s | " % md_ms(lay)) in fair, recs_md.count("channels_last"))
    ok("resnet: no batchnorm of this training step is told to fold into "
       "the convolution", "Fold batchnorm" not in fair)
    summary = fair.split("## Recommendations")[0]
    head = open(s, encoding="utf-8").readline().rstrip("\n").split("\t")
    if "trace_unlinked_us" in head:
        r0 = rows[0]
        n = int(r0["trace_unlinked_count"] or 0)
        want = ("%d events, %s ms" % (n, md_ms(float(
            r0["trace_unlinked_us"])))) if n else "Unlinked GPU events"
        ok("resnet: the executive summary states the unlinked GPU time "
           "left out (%s)" % want, want in summary)
    else:
        ok("resnet: the executive summary says the unlinked GPU time is "
           "not known (the stream has no unlinked columns)",
           "Unlinked GPU events (no launch call in the trace reaches "
           "them): not known" in summary)
    rec = pats(a, "recompute")
    want = sum(float(x["kernel_time_us"]) for x in rows
               if x["direction"] == "bwd" and "backward" not in
               x["name"].lower() and "checkpoint" in x["call_stack"])
    ok("resnet: activation-checkpoint recompute = forward ops in the "
       "backward pass under the checkpoint code (%.3f ms)" % (want / 1e3),
       len(rec) == 1 and close(rec[0]["recoverable_ms"], want / 1e3, 1e-6),
       rec[:1])
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
    rows = re.findall(r"^\| (\d) \| (.*) \| (?:up to )?([0-9.]+) \| "
                      r"([0-9.]+|under 0\.1) \| (\w+) \|$", fair, re.M)
    missing = [r for r in rows if r[2] not in rough or r[3] not in rough]
    ok(name + ": the fair report's top findings' savings and shares are "
       "in the rough report", rows and not missing, missing)
    ok(name + ": no impact reads 0.0-0.0 % and no rough gaps section says "
       "none", "0.0-0.0 %" not in fair + rough and
       "TraceLens gaps" not in rough and "## Gaps: what this analysis "
       "could not see on this trace" in rough)
    ok(name + ": the title names no machine path",
       "/" not in fair.split("\n")[0])
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
    timeline = float(rows[0]["trace_total_us"])
    m = json.load(open(os.path.join(d, "category_data", "gemm_metrics.json")))
    explained = {(o["name"], json.dumps(o["input_dims"], separators=(
        ",", ":"))): o["explained_by_patterns_ms"] for o in m["operations"]}
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
        # Lowered by what it recovers: the time no pattern explains
        # minus the roofline time at 50 % (80 % above 50 %).
        left = e["time"] - explained[(k[0], k[1])] * 1e3
        if eff is None:
            save = 0 if left * 2 <= e["time"] else e["time"]
        else:
            feff = e["roof"] / left * 100 if left > 0 else 100
            t = 50 if feff < 50 else 80
            save = max(0.0, left - e["roof"] / (t / 100)) \
                if feff < 80 and left > 0 else 0
        share = save / timeline * 100
        capped = prio
        if share < 0.5:
            capped = "Low"
        elif share < 1 and prio in ("High", "Critical"):
            capped = "Medium"
        expect.append((-e["time"], k[0], k[1], len(e["rows"]), eff, capped,
                       bott))
    expect.sort()
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
       "priority by the rules, lowered when they recover little (%d)"
       % len(expect),
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
    a = json.load(open(os.path.join(d, "category_data", "analysis.json")))
    norm_chains("qwen", rows, a, "Qwen2RMSNorm")
    ok("qwen: no unfused attention (it runs fused SDPA)",
       not pats(a, "unfused_attention") and
       any(x["name"] == "aten::_scaled_dot_product_flash_attention"
           for x in rows))
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


def mi300_qwen():
    _, rows, d, a = pipeline(os.path.join(
        TRACES, "mi300-qwen1.5-0.5b.json.gz"), "mi300x", "mi300-qwen")
    norm_chains("mi300-qwen", rows, a, "Qwen2RMSNorm")
    fair_rough(d, "mi300-qwen")


def xdit():
    for t in ("mi300-xdit-flux-aiter-sage", "mi300-xdit-sd3.5"):
        _, rows, d, a = pipeline(os.path.join(TRACES, t + ".json.gz"),
                                 "mi300x", t)
        norm_chains(t, rows, a, "T5LayerNorm")
        unfused_attention(t, rows, a, "T5Attention")
        fair_rough(d, t)
        scan_wording(t + ": no vendor library names or unobservable "
                     "claims outside code spans", md_files(d))


def vllm():
    """Most GPU time in graph replays (the capture trace left out): the
    report says what it cannot analyse instead of "no action is needed"."""
    s, rows, d, a = pipeline(os.path.join(
        TRACES, "mi300-vllm-prefilldecode-piecewise.json.gz"), "mi300x",
        "vllm", "--stack --no-capture")
    fair = open(os.path.join(d, "standalone_analysis_fair.md")).read()
    graph = sum(float(x["kernel_time_us"]) for x in rows
                if "GraphLaunch" in x["name"])
    total = sum(float(x["kernel_time_us"]) for x in rows)
    ok("vllm: the coverage names the %.1f %% of GPU time in graph replays "
       "and never says no action is needed" % (graph / total * 100),
       ("%.1f %% runs inside graph launches" % (graph / total * 100)) in fair
       and "No action is needed" not in fair and
       "Most of the GPU time is beyond this analysis" in fair)


def vllm_captured():
    """With its capture trace merged, the MoE's bf16 x mxfp4 grouped GEMMs
    (80 % of compute) are judged on the bf16 matrix roof, so nearly all of
    the GPU time is analysed; the modelled share is recomputed here from
    the rows that have a roofline time."""
    s, rows, d, a = pipeline(os.path.join(
        TRACES, "mi300-vllm-prefilldecode-piecewise.json.gz"), "mi300x",
        "vllm-captured", "")
    fair = open(os.path.join(d, "standalone_analysis_fair.md")).read()
    total = sum(float(x["kernel_time_us"] or 0) for x in rows)
    model = sum(float(x["kernel_time_us"] or 0) for x in rows
                if x["roofline_time_us"] != "")
    moe = [x for x in rows if x["name"].startswith(
        "pseudo_op::moe_triton_unfused_") and x["flops"] != ""]
    ok("vllm with capture: %d MoE grouped GEMMs on matrix_bf16 with a roof"
       % len(moe), len(moe) > 0 and all(
           x["compute_spec"] == "matrix_bf16" and x["pct_roofline"] != ""
           for x in moe))
    want = "%.1f %% has a perf model" % (model / total * 100)
    ok("vllm with capture: coverage says '%s' (over 90 %%)" % want,
       want in fair and model / total > 0.9, fair[:2000])


# The last launch call of a GPU event and its op's start, for the gaps.
def gaps_of(rows):
    ev = []
    for x in rows:
        for k in json.loads(x["kernels"] or "[]"):
            ev.append((k["ts"], k["ts"] + k["dur"], float(x["ts_us"]),
                       k.get("launch_ts"), k["name"], x["name"]))
    ev.sort()
    out, end, prev = [], ev[0][1], ev[0]
    for e in ev[1:]:
        if e[0] > end:
            late = min(max(e[2] - end, 0), e[0] - end)
            inop = min(max(e[3] - (end + late), 0), e[0] - end - late)
            out.append((end, e[0] - end, late, inop, prev, e))
        if e[1] > end:
            end, prev = e[1], e
    return out


def fixtures():
    """The hand-made traces of tests/patterns (tests/gen/gen-patterns.py)."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "patterns")
    _, rows, d, a = pipeline(os.path.join(here, "h100-host.json"), "auto",
                             "host")
    ev = sorted((k["ts"], k["ts"] + k["dur"], k["name"]) for x in rows
                for k in json.loads(x["kernels"]))
    bare = 0.0
    for s0, e0, n in ev:
        if "Pageable" in n and "HtoD" in n:
            cover = sum(max(0.0, min(e0, e1) - max(s0, s1))
                        for s1, e1, m in ev if not m.startswith("Memcpy"))
            bare += e0 - s0 - cover
    p = pats(a, "pageable_copy")
    ok("host: a pageable host-to-device copy is one finding recovering its "
       "%.3f ms no GPU work overlaps" % (bare / 1e3),
       len(p) == 1 and close(p[0]["recoverable_ms"], bare / 1e3, 1e-9) and
       bare > 0, p)
    ok("host: the pageable copy is not judged as an elementwise kernel",
       not any(r.get("op") == "aten::copy_" for r in a["recommendations"]))
    g = gaps_of(rows)
    sync = sum(x[1] for x in g if "DtoH" in x[4][4])
    p = pats(a, "sync")
    fair = open(os.path.join(d, "standalone_analysis_fair.md")).read()
    ok("host: a device-to-host copy followed by %.3f ms of idle is a "
       "synchronisation naming .item()" % (sync / 1e3),
       len(p) == 1 and close(p[0]["recoverable_ms"], sync / 1e3, 1e-9) and
       sync > 0 and "`.item()`" in fair, p)
    rest = [x for x in g if "DtoH" not in x[4][4]]
    late = sum(x[2] for x in rest)
    inop = sum(x[3] for x in rest)
    # After the launch: up to 100 us is launch latency, the rest a wait.
    after = sum(min(x[1] - x[2] - x[3], 100) for x in rest)
    waited = sum(max(x[1] - x[2] - x[3] - 100, 0) for x in rest)
    p = pats(a, "idle")
    ok("host: idle split into host not in the op %.3f, inside it before "
       "the launch %.3f, launch latency %.3f and waits after it %.3f ms" % (
           late / 1e3, inop / 1e3, after / 1e3, waited / 1e3),
       len(p) == 1 and close(p[0]["host_not_in_op_ms"], late / 1e3, 1e-9)
       and close(p[0]["host_in_op_before_launch_ms"], inop / 1e3, 1e-9)
       and close(p[0]["after_launch_ms"], after / 1e3, 1e-9) and
       close(p[0]["waited_after_launch_ms"], waited / 1e3, 1e-9) and
       inop > 0, p)
    big = max(rest, key=lambda x: x[1])
    ok("host: the largest gap names %s with %.3f ms inside it before the "
       "launch" % (big[5][5], big[3] / 1e3),
       # length, then step, GPU and stream, pid and tid (issue 29)
       re.search(r"\| %s \| [^|]* \| [^|]* \| [^|]* \| %s \| %s \| %s \| "
                 r"[^|]* \| `%s` \|" % (
           md_ms(big[1]), md_ms(big[2]), md_ms(big[3]),
           md_ms(big[1] - big[2] - big[3]), big[5][5]), fair) is not None)
    _, rows, d, a = pipeline(os.path.join(here, "h100-gemm.json"), "auto",
                             "gemm")
    al, ar, ti = (pats(a, "gemm_alignment"), pats(a, "gemm_old_arch"),
                  pats(a, "gemm_tile"))
    ok("gemm: the bmm on an sm_75 align1 kernel on an sm_90 GPU (odd "
       "3137) is an alignment finding",
       len(al) == 1 and al[0]["ops"][0]["name"] == "aten::bmm" and
       al[0]["kernel_arch"] == "sm_75" and al[0]["gpu_arch"] == "sm_90" and
       al[0]["kernel_alignment"] == 1, al)
    ok("gemm: the aligned sm_75 kernel is an old-architecture finding, the "
       "64x64 tiles on 8192x4096 a tile finding",
       len(ar) == 1 and ar[0]["ops"][0]["input_dims"] ==
       [[8192, 8192], [8192, 8192]] and len(ti) == 1 and
       ti[0]["ops"][0]["input_dims"] == [[8192, 8192], [8192, 4096]], (ar,
                                                                       ti))
    bmm = [x for x in rows if x["name"] == "aten::bmm"][0]
    t, roof = float(bmm["kernel_time_us"]), float(bmm["roofline_time_us"])
    ok("gemm: the alignment finding recovers the bmm's time at 50 %% of "
       "its roofline (%.3f ms)" % ((t - roof * 2) / 1e3),
       close(al[0]["recoverable_ms"], (t - roof * 2) / 1e3, 1e-6), al)
    fair = open(os.path.join(d, "standalone_analysis_fair.md")).read()
    ok("gemm: the already batched bmm of two activations is told neither "
       "to batch nor to quantize weights",
       "torch.bmm" not in fair and "Batch the small" not in fair and
       "W8A8" not in fair and "pad the dimensions" in fair)


fixtures()
if not os.path.isdir(TRACES):
    print("SKIP tl-findings on shared traces (no %s)" % TRACES)
    sys.exit(0)
for case in (resnet, qwen, mi300_qwen, xdit, vllm, vllm_captured):
    try:
        case()
    except Exception as e:  # noqa: BLE001
        print("FAIL %s: %s: %s" % (case.__name__, type(e).__name__, e))
shutil.rmtree(TMP)
