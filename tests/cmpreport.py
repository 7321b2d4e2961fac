#!/usr/bin/env python3
"""End-to-end checks of tl-findings' comparative reports on the Qwen pair.

usage: cmpreport.py BINDIR TRACES
Prints "ok NAME", "FAIL NAME" or "SKIP NAME" lines (tests/run.sh counts
them).  The pair is the H100 Qwen trace (reference) and the MI300X one
(target), each through tl-parse | tl-efficiency --hw, then tl-compare.
Every number asserted is recomputed here from tl-compare's stream: the
executive tables (timelines from the ref_/target_trace_*_us columns,
kernel time per category), the Expected? column of every matched op, the
order of the recommendations.  Also: the wording scans (no vendor names,
no platform verdicts) on both reports in both role orders, a trace
against itself (Δ 0, no findings), swapped roles (every Δ changes sign),
ops of one side only and layout pairs, identical output across runs and
the exit statuses.
"""
import csv
import json
import io
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mdcheck  # noqa: E402
from mdcheck import md_ms, must, ns, ok, sh, table  # noqa: E402
from parity import read_tsv  # noqa: E402

BIN, TRACES = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp()
REF = "h100-qwen1.5-0.5b.json.gz"
TGT = "mi300-qwen1.5-0.5b.json.gz"
TLC = ["total", "busy", "compute", "exposed_comm", "exposed_memcpy", "idle"]
TL_LABEL = ["Total GPU timeline", "Busy", "Computation",
            "Exposed communication", "Exposed memory copy", "Idle"]

def categories():
    """The category values in report order: share/tl/categories.tsv."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "share", "tl", "categories.tsv")
    with open(path, encoding="utf-8") as f:
        lines = [x.rstrip("\n").split("\t") for x in f
                 if x.strip() and not x.startswith("#")]
    col = lines[0].index("value")
    return [x[col] for x in lines[1:]]


CATS = categories()


def stem(path):
    """A trace's name as the reports print it (tl_md_stem): its file name
    without .gz and .json."""
    s = os.path.basename(path)
    if len(s) > 3 and s.endswith(".gz"):
        s = s[:-3]
    if len(s) > 5 and s.endswith(".json"):
        s = s[:-5]
    return s


def with_sign(s):
    """mdtext's signed form: '+' before a positive number, none on zero."""
    if s.lstrip("-").replace("0", "").replace(".", "") == "":
        return s.lstrip("-")
    return s if s.startswith("-") else "+" + s


def md_ms_signed(n):
    return with_sign(md_ms(n))


def md_pct_signed(v):
    return "n/a" if v is None else with_sign("%.1f" % v)


def num(s):
    return None if s == "" else float(s)




def is_copy(r):
    """Every kernel of both sides a copy or fill the runtime records:
    timed by the host link, judged as a copy (tl-findings(1))."""
    names = [k["name"] for p in ("ref", "target")
             for k in json.loads(r[p + "_kernels"] or "[]")]
    return bool(names) and all(n.startswith(("Memcpy", "Memset",
                                              "MEMORY_COPY_"))
                               for n in names)


def copy_gap_us(r):
    """A matched copy the target takes more than twice as long over:
    its recoverable time in µs, else None."""
    if r["match"] != "both" or not is_copy(r):
        return None
    a, b = ns(r["ref_kernel_time_us"]), ns(r["target_kernel_time_us"])
    return (b - a) / 1e3 if a > 0 and (b - a) * 100 > 100 * a else None


def judge(r):
    """The Expected? of a row, by the definition of tl-findings(1)."""
    e, a = num(r["expected_ratio"]), num(r["actual_ratio"])
    if r["match"] not in ("both", "product") or e is None or a is None or \
       is_copy(r):
        return "n/a"
    if r["explained"] == "yes":
        return "yes"
    if a > 2 * e:
        return "likely kernel problem"
    return "no (slower)" if a > e else "no (faster)"


def op_total_us(rows):
    """The target's op kernel time: from a row's share, else the sum."""
    for r in rows:
        t, p = num(r["target_kernel_time_us"]), num(r["target_pct_gpu_time"])
        if t and p:
            return t / p * 100
    return sum(float(r["target_kernel_time_us"] or 0) for r in rows)


def timeline_gaps(rows):
    """The timeline entries the target spends longer in than the
    reference, by at least 0.5 % of its timeline: [(label, ns, score)]."""
    if not rows or rows[0]["target_trace_total_us"] == "":
        return []
    tot, out = ns(rows[0]["target_trace_total_us"]), []
    for k, what in (("idle", "idle time"),
                    ("exposed_comm", "exposed communication"),
                    ("exposed_memcpy", "exposed memory copies")):
        a, b = rows[0]["ref_trace_%s_us" % k], rows[0]["target_trace_%s_us" % k]
        if a == "" or b == "":
            continue
        d = ns(b) - ns(a)
        if k == "exposed_memcpy":   # the copies' own findings left out
            d -= sum(round(copy_gap_us(r) * 1e3) for r in rows
                     if copy_gap_us(r) is not None)
        if d > 0 and d * 100 >= 0.5 * tot:
            out.append(("More %s on the target than on the reference" % what,
                        d, d / 1e3 / op_total_us(rows) * 100))
    return out


def ranked(rows, gaps=False):
    """The recommendations in their order: [(row index, score)]; with
    gaps, the timeline gaps too, as (-1 - their index, score)."""
    tot = sum(float(r["target_kernel_time_us"] or 0) for r in rows)
    recs = []
    for i, r in enumerate(rows):
        t = r["target_kernel_time_us"]
        if t == "" or float(t) <= 0:
            continue
        u = num(r["unexplained_time_us"])
        if r["match"] == "target_only" and u is None:
            u = float(t)
        if is_copy(r) and r["match"] == "both":
            u = copy_gap_us(r)
        elif u is None or u <= 0 or not (
                r["match"] == "target_only" or
                judge(r) in ("no (slower)", "likely kernel problem")):
            continue
        if u is None or u <= 0:
            continue
        p = num(r["target_pct_gpu_time"])
        score = u / float(t) * p if p is not None else u / tot * 100
        recs.append((-score, -u, 0, i))
    for k, (_, d, score) in enumerate(timeline_gaps(rows) if gaps else []):
        recs.append((-score, -d / 1e3, 1, -1 - k))
    recs.sort(key=lambda x: (x[0], x[1], x[2], abs(x[3])))
    return [(i, -s) for s, _, _, i in recs]


def label(r):
    return "`%s` `%s`" % (r["name"], r["input_dims"])


def no_charts(text):
    """A report as written without charts: no "### Charts" section."""
    return re.sub(r"### Charts\n\n(- [^\n]*\n)+\n", "", text)


def judge_other(r):
    """The Expected? under the other roof kind (other_* columns)."""
    return judge(dict(r, expected_ratio=r["other_expected_ratio"],
                      explained=r["other_explained"]))


KIND = {"peak": "dense peak", "achievable": "achievable"}


def check_roof_kind(name, rows, fair, rough):
    """The reports name the roof kind of every expected ratio, each GPU
    whose figure of that kind is missing (a stand-in, from the stream's
    ref_/target_roof columns), and the verdicts the other kind gives
    where they differ."""
    kind = rows[0]["roof_kind"]
    other = "peak" if kind == "achievable" else "achievable"
    ok(name + ": one roof kind in the stream (%s)" % kind,
       kind in KIND and all(r["roof_kind"] == kind for r in rows))
    want = []
    for side in ("ref", "target"):
        specs = []
        for r in rows:
            if r[side + "_roof"] not in ("", kind) and \
               r["compute_spec"] not in specs:
                specs.append(r["compute_spec"])
        bw = any(r[side + "_bw_roof"] not in ("", kind) for r in rows)
        if not specs and not bw:
            continue
        line = "  - `%s` (`%s`): no %s figure for " % (
            stem(rows[0][side + "_name"]), rows[0][side + "_hw"], KIND[kind])
        line += ", ".join("`%s`" % x for x in specs)
        if bw:
            line += (" and " if specs else "") + "its bandwidth"
        want.append(line)
    head = ("- Roofs: the expected ratios rest on the **%s** roofs of both "
            "GPUs (`tl-compare --roof %s`)" % (KIND[kind], kind))
    for t, rep in (("fair", fair), ("rough", rough)):
        lines = rep.split("\n")
        i = next((k for k, x in enumerate(lines) if x.startswith(head)), -1)
        got = []
        while i >= 0 and lines[i + 1 + len(got)].startswith("  - "):
            got.append(lines[i + 1 + len(got)])
        ok("%s: the %s report names the roof kind and every stand-in "
           "(%d sides)" % (name, t, len(want)), i >= 0 and got == want and
           len(want) > 0, (got, want))
    diff = [r for r in rows if r["match"] == "both" and
            judge_other(r) != "n/a" and judge_other(r) != judge(r)]
    got = table(fair, "### Verdicts under the other roof kind")
    want = [[label(r), "%.3f" % float(r["actual_ratio"]),
             "%.3f" % float(r["expected_ratio"]), judge(r),
             "%.3f" % float(r["other_expected_ratio"]), judge_other(r)]
            for r in diff]
    ok("%s: the verdicts under %s roofs where they differ, from the "
       "other_* columns (%d ops)" % (name, KIND[other], len(want)),
       got == want and len(want) > 0 and
       ("Under %s roofs %d of them would be judged otherwise."
        % (KIND[other], len(want))) in fair, (got[:2], want[:2]))


def check_cmpchart(name, rows, path, fair):
    """The comparison chart: per category the sums of the rows' kernel
    times, then the recommendations in rank order with the time the
    roofs predict; linked from the report; rendered by svgcheck."""
    import xml.dom.minidom
    try:
        dom = xml.dom.minidom.parse(path)
    except Exception as e:  # noqa: BLE001
        ok(name + ": comparison.svg is well-formed XML", False, e)
        return
    pairs = [g for g in dom.getElementsByTagName("g")
             if g.getAttribute("class") == "pair"]
    cat = {}
    for r in rows:
        c = cat.setdefault(r["category"], [0, 0])
        c[0] += ns(r["ref_kernel_time_us"])
        c[1] += ns(r["target_kernel_time_us"])
    want = [(c, cat[c][0] / 1e3, cat[c][1] / 1e3) for c in CATS if c in cat]
    got = [(g.getAttribute("data-label"), float(g.getAttribute("data-ref-us")),
            float(g.getAttribute("data-target-us"))) for g in pairs
           if g.getAttribute("data-section") == "category"]
    ok(name + ": comparison.svg: reference and target time per category "
       "(%d)" % len(want), got == want, (got[:2], want[:2]))
    want = []
    for i, _ in ranked(rows)[:10]:
        r = rows[i]
        e = None
        if r["match"] == "both" and r["expected_ratio"] != "":
            e = float(r["expected_ratio"]) * float(
                r["ref_kernel_time_mean_us"]) * int(r["target_count"])
        want.append(("%s %s" % (r["name"], r["input_dims"]),
                     ns(r["ref_kernel_time_us"]) / 1e3 if r["ref_kernel_time_us"]
                     else None, ns(r["target_kernel_time_us"]) / 1e3, e))
    got = []
    for g in pairs:
        if g.getAttribute("data-section") != "op":
            continue
        a = g.getAttribute
        got.append((a("data-label"),
                    float(a("data-ref-us")) if a("data-ref-us") else None,
                    float(a("data-target-us")),
                    float(a("data-expected-us")) if a("data-expected-us")
                    else None))
    good = len(got) == len(want) and all(
        g[:3] == w[:3] and (g[3] is None) == (w[3] is None) and
        (w[3] is None or abs(g[3] - w[3]) <= 1e-9 * w[3])
        for g, w in zip(got, want))
    ok(name + ": comparison.svg: the top %d recommendations in rank order, "
       "with the time the roofs predict" % len(want), good and want,
       (got[:2], want[:2]))
    ok(name + ": the fair report links comparison.svg",
       "[charts/comparison.svg](charts/comparison.svg)" in fair)
    out = os.environ.get("TL_SVG_OUT")
    if out:
        shutil.copy(path, os.path.join(out, name.replace(" ", "-") +
                                       "-comparison.svg"))


def enrich(trace, hw):
    p = os.path.join(TMP, os.path.basename(trace) + ".tsv")
    must("%s/tl-parse %s | %s/tl-efficiency --hw %s > %s"
         % (BIN, trace, BIN, hw, p))
    return p


def compare(ref, tgt, name):
    p = os.path.join(TMP, name + ".tsv")
    must("%s/tl-compare -R %s -T %s > %s" % (BIN, ref, tgt, p))
    return p


def reports(cmp, name, *opts):
    d = os.path.join(TMP, name)
    must("%s/tl-findings %s -o %s %s" % (BIN, " ".join(opts), d, cmp))
    return d, [open(os.path.join(d, f), encoding="utf-8").read() for f in
               ("comparative_analysis_fair.md",
                "comparative_analysis_rough.md")]


def check_exec(name, rows, fair):
    r0 = rows[0]
    want = []
    for k, lab in zip(TLC, TL_LABEL):
        a, b = ns(r0["ref_trace_%s_us" % k]), ns(r0["target_trace_%s_us" % k])
        want.append([lab, md_ms(a), md_ms(b), md_ms_signed(b - a),
                     md_pct_signed(100.0 * float(b - a) / float(a)
                                   if a else None)])
    got = table(fair, "### GPU timeline")
    ok(name + ": executive GPU timeline table = the stream's trace_*_us "
       "columns, Δ and Δ %", got == want, (got, want))
    cat = {}
    for r in rows:
        c = cat.setdefault(r["category"], [0, 0])
        c[0] += ns(r["ref_kernel_time_us"])
        c[1] += ns(r["target_kernel_time_us"])
    want = []
    for c in [c for c in CATS if c in cat] + ["**All ops**"]:
        a, b = cat[c] if c in cat else (sum(v[0] for v in cat.values()),
                                        sum(v[1] for v in cat.values()))
        want.append([c, md_ms(a), md_ms(b), md_ms_signed(b - a),
                     md_pct_signed(100.0 * float(b - a) / float(a)
                                   if a else None)])
    got = table(fair, "### Kernel time by category")
    ok(name + ": executive kernel time per category = sums of the rows' "
       "kernel times (%d categories)" % (len(want) - 1), got == want,
       (got, want))


def check_ops(name, rows, rough):
    """The rough report's table of matched ops: every one, judged."""
    got = {int(g[0]): g for g in table(rough, "### Step 7: Matched ops")}
    bad = []
    for i, r in enumerate(rows):
        if r["match"] != "both":
            continue
        g = got.pop(i + 1, None)
        a, b = ns(r["ref_kernel_time_us"]), ns(r["target_kernel_time_us"])
        e, x = num(r["expected_ratio"]), num(r["actual_ratio"])
        want = [str(i + 1), label(r), r["bound"] or "n/a", md_ms(a), md_ms(b),
                md_pct_signed(100.0 * float(b - a) / float(a) if a else None),
                "n/a" if e is None else "%.3f" % e,
                "n/a" if x is None else "%.3f" % x, judge(r)]
        if g != want:
            bad.append((g, want))
    ok(name + ": every matched op with Δ %%, ratios and Expected? from the "
       "stream (%d ops)" % sum(r["match"] == "both" for r in rows),
       not bad and not got, (bad[:3], list(got)[:3]))
    return sum(judge(r) in ("no (slower)", "likely kernel problem",
                            "no (faster)") for r in rows)


def check_ranking(name, rows, fair, rough, csvtext):
    """The recommendations: the ops and the timeline gaps, one ranking."""
    want = ranked(rows, gaps=True)
    gaps = timeline_gaps(rows)

    def title(i):
        return label(rows[i]) if i >= 0 else gaps[-1 - i][0]
    heads = re.findall(r"^### \S+ Priority (\d+): (`[^`]*` `[^`]*`|More [^\n]*)",
                       fair, re.M)
    good = [(int(n), h) for n, h in heads] == \
        [(k + 1, title(i)) for k, (i, _) in enumerate(want[:8])]
    ok(name + ": fair recommendations ranked by unexplained_time_us / "
       "target time x target_pct_gpu_time, timeline gaps by their excess "
       "over the op kernel time (first %d of %d, %d gaps)"
       % (min(8, len(want)), len(want), len(gaps)), good, (heads[:4], want[:4]))
    got = table(rough, "### Step 6: Ranking")
    good = len(got) == len(want) and all(
        g[0] == str(k + 1) and g[1] == title(i) and
        g[6] == "%.3f" % s for k, ((i, s), g) in enumerate(zip(want, got)))
    ok(name + ": rough ranking table lists all %d with their scores"
       % len(want), good, (got[:2], want[:2]))
    cs = list(csv.DictReader(io.StringIO(csvtext)))
    good = len(cs) == len(rows) and all(
        c["name"] == r["name"] and c["input_dims"] == r["input_dims"] and
        c["hw_expected"] == {"n/a": "", "yes": "yes", "no (slower)": "slower",
                             "no (faster)": "faster",
                             "likely kernel problem":
                             "likely_kernel_problem"}[judge(r)]
        for c, r in zip(cs, rows))
    rank = {i: k + 1 for k, (i, _) in enumerate(want)}
    good = good and all(c["rank"] == str(rank.get(i, "")) for i, c in
                        enumerate(cs))
    ok(name + ": comparative_ops.csv has every row with its judgement and "
       "rank", good)
    return want


def scanner():
    """The verdict scan itself catches verdicts and lets hardware
    comparisons and code spans through."""
    bad = ["The MI300X is faster than the H100.", "H100 wins here.",
           "the target is slower", "the better platform", "H100 beats it",
           "a superior GPU", "runs 2x faster than the reference"]
    fine = ["slower than the hardware explains", "no (faster)",
            "takes longer than the time ratio of the two GPUs predicts",
            "`winner_kernel_beats`", "less time on the target than the "
            "roofs predict"]
    ok("the verdict scan flags verdicts, not hardware comparisons",
       all(mdcheck.scan(t, mdcheck.VERDICT) for t in bad) and
       not any(mdcheck.scan(t, mdcheck.VERDICT) for t in fine))


def scan_all(name, texts):
    bad = []
    for t in texts:
        bad += mdcheck.scan(t, mdcheck.VERDICT + mdcheck.VENDOR)
    ok(name, not bad and texts, bad[:10])


def sign(x):
    """-1, 0 or 1 for a signed cell, None for n/a."""
    if x == "n/a":
        return None
    if x.lstrip("+-").replace("0", "").replace(".", "") == "":
        return 0
    return -1 if x.startswith("-") else 1


def flipped(x, y):
    """y is x with the other sign (n/a stays n/a, or has a zero base)."""
    if sign(x) is None or sign(y) is None:
        return True
    return sign(x) == -sign(y)


def flip_checks(fair_a, rough_a, fair_b, rough_b):
    """Swapped roles: every Δ of the tables changes sign."""
    bad = []
    for h in ("### GPU timeline", "### Kernel time by category"):
        ta, tb = table(fair_a, h), table(fair_b, h)
        if len(ta) != len(tb) or not ta:
            bad.append((h, len(ta), len(tb)))
        for a, b in zip(ta, tb):
            if a[0] != b[0] or a[1] != b[2] or a[2] != b[1] or \
               a[3].lstrip("+-") != b[3].lstrip("+-") or \
               not flipped(a[3], b[3]) or not flipped(a[4], b[4]):
                bad.append((a, b))
    ta = {(g[1], g[3], g[4]): g for g in table(rough_a, "### Step 7")}
    tb = {(g[1], g[4], g[3]): g for g in table(rough_b, "### Step 7")}
    n = 0
    for k, a in ta.items():
        b = tb.get(k)
        if b is None or sign(a[5]) is None or not flipped(a[5], b[5]):
            bad.append((a, b))
        n += 1
    return bad, n


def pair():
    ref = enrich(os.path.join(TRACES, REF), "h100")
    tgt = enrich(os.path.join(TRACES, TGT), "mi300x")
    cmp = compare(ref, tgt, "cmp")
    rows = read_tsv(open(cmp, encoding="utf-8").read())
    d, (fair, rough) = reports(cmp, "qwen")
    out = sh("%s/tl-findings %s" % (BIN, cmp))
    ok("qwen pair: tl-findings on tl-compare's stream writes the fair report "
       "by default (exit 0, = the -o file but its chart link)",
       out.returncode == 0 and out.stdout.decode() == no_charts(fair) and
       fair.startswith("# Performance Comparison: `%s`" %
                       stem(rows[0]["ref_name"])))
    out = sh("%s/tl-findings --report rough %s" % (BIN, cmp))
    ok("qwen pair: --report rough writes the long report (= the -o file but "
       "its chart link)", out.returncode == 0 and
       out.stdout.decode() == no_charts(rough) and
       "## Raw Data Exploration" in rough)
    out = sh("%s/tl-findings --charts %s/cc %s" % (BIN, TMP, cmp))
    ok("qwen pair: --charts DIR writes the comparison chart beside the "
       "report, which links it", out.returncode == 0 and
       out.stdout.decode() == fair.replace("charts/comparison.svg",
                                           "%s/cc/comparison.svg" % TMP)
       and sh("cmp %s/cc/comparison.svg %s/charts/comparison.svg"
              % (TMP, d)).returncode == 0)
    ok("qwen pair: -o writes comparative_analysis_{fair,rough}.md, "
       "comparative_ops.csv and charts/comparison.svg only (and its "
       "manifest)",
       sorted(os.listdir(d)) == [
           ".tl-findings.manifest", "charts",
           "comparative_analysis_fair.md", "comparative_analysis_rough.md",
           "comparative_ops.csv"] and
       os.listdir(os.path.join(d, "charts")) == ["comparison.svg"])
    check_roof_kind("qwen pair", rows, fair, rough)
    check_cmpchart("qwen pair", rows, os.path.join(d, "charts",
                                                   "comparison.svg"), fair)
    check_exec("qwen pair", rows, fair)
    nunexp = check_ops("qwen pair", rows, rough)
    want = check_ranking("qwen pair", rows, fair, rough, open(
        os.path.join(d, "comparative_ops.csv"), encoding="utf-8").read())
    ok("qwen pair: the target has recommendations and unexpected ops "
       "(%d, %d)" % (len(want), nunexp), len(want) >= 3 and nunexp >= 3)
    # The first op among the recommendations (a timeline gap, index < 0,
    # has no detail section).
    first = next(i for i, _ in want if i >= 0)
    ok("qwen pair: the first op recommendation links to its detail section",
       ("→ *See [details](#cmp-op-%d)*" % (first + 1)) in fair and
       ('<a id="cmp-op-%d"></a>' % (first + 1)) in fair and
       label(rows[first]) in fair.split("## Detailed Comparison")[1])
    exe = fair.split("## Recommendations")[0]
    ok("qwen pair: executive summary is at most ~20 lines of text plus "
       "tables", len([x for x in exe.split("\n") if x.strip() and
                      not x.startswith("|")]) <= 20)
    for sec in ("**Issue**:", "**Action**:", "**Impact**:"):
        ok("qwen pair: every recommendation has %s" % sec,
           fair.count(sec) == min(8, len(want)))
    rough_order = [int(x) for x in re.findall(r'<a id="cmp-op-(\d+)"></a>',
                                              rough)]
    ok("qwen pair: the rough report details every op with its derivation",
       rough_order == list(range(1, len(rows) + 1)) and
       rough.split("## Raw Data")[1].split("## Questions")[0].count(
           "- Expected ratio: ") ==
       sum(r["match"] == "both" for r in rows) and
       re.search(r"TFLOPS/s \((dense peak|achievable)\), over the "
                 r"target's", rough) is not None and
       re.search(r"TB/s \((dense peak|achievable)\), over the target's",
                 rough) is not None)
    d2, _ = reports(cmp, "qwen2")
    r = sh("diff -r %s %s" % (d, d2))
    ok("qwen pair: output is byte-identical across runs", r.returncode == 0,
       r.stdout[:300])
    d3, (fair3, _) = reports(cmp, "qwen3", "--title", "Qwen1.5-0.5B")
    ok("qwen pair: --title names the model in the title",
       fair3.startswith("# Qwen1.5-0.5B Performance Comparison: "))

    # Swapped roles.
    sw = compare(tgt, ref, "swap")
    srows = read_tsv(open(sw, encoding="utf-8").read())
    _, (sfair, srough) = reports(sw, "swap")
    bad, n = flip_checks(fair, rough, sfair, srough)
    ok("swapped roles: every Δ of the timeline, category and per-op tables "
       "changes sign (%d ops)" % n, not bad and n == len(rows), bad[:3])
    check_exec("swapped roles", srows, sfair)
    check_ops("swapped roles", srows, srough)
    check_ranking("swapped roles", srows, sfair, srough, open(
        os.path.join(TMP, "swap", "comparative_ops.csv"),
        encoding="utf-8").read())
    scan_all("no platform verdicts or vendor names outside code spans "
             "(fair and rough, both role orders)", [fair, rough, sfair,
                                                    srough])

    # A trace against itself.
    me = compare(ref, ref, "self")
    _, (mfair, mrough) = reports(me, "self")
    cells = table(mfair, "### GPU timeline") + \
        table(mfair, "### Kernel time by category")
    ops = table(mrough, "### Step 7")
    ok("self: Δ 0 in every table row", cells and ops and all(
        c[3] == "0.000" and c[4] in ("0.0", "n/a") for c in cells) and
        all(o[5] == "0.0" and o[8] in ("yes", "n/a") for o in ops))
    judged = table(mrough, "### Step 5")
    ok("self: no findings, no recommendations, no unexpected op",
       "No findings" in mfair and "no findings" in mfair and
       "Priority 1" not in mfair + mrough and
       all(o[8] in ("yes", "n/a") for o in
           ops + table(mfair, "### Matched ops")) and
       [j[1] for j in judged if j[0] not in ("yes", "n/a")] == ["0"] * 3)
    r = sh("%s/tl-findings --fail-on low %s > /dev/null" % (BIN, me))
    ok("self: --fail-on low exits 0", r.returncode == 0)
    scan_all("self: no platform verdicts or vendor names", [mfair, mrough])
    return ref, tgt, cmp, want, rows


def one_sided(ref, tgt):
    """Ops of one side only and a layout pair, made by editing the target."""
    head, *lines = open(tgt, encoding="utf-8").read().rstrip("\n").split("\n")
    cols = head.split("\t")
    ci, di, si = (cols.index(c) for c in ("name", "input_dims",
                                           "input_strides"))
    out = [head]
    for line in lines:
        f = line.split("\t")
        if f[ci] == "aten::cat":
            continue                    # reference only
        if f[ci] == "aten::addmm":
            f[ci] = "aten::linear"      # target only (addmm reference only)
        if f[ci] == "aten::neg":
            f[si] = "[[1,1,1,1]]"       # paired by layout
        out.append("\t".join(f))
    t2 = os.path.join(TMP, "tgt-edited.tsv")
    open(t2, "w", encoding="utf-8").write("\n".join(out) + "\n")
    cmp = compare(ref, t2, "edited")
    rows = read_tsv(open(cmp, encoding="utf-8").read())
    _, (fair, rough) = reports(cmp, "edited")
    got = table(fair, "### Ops on one side only")
    want = [["%s only" % ("reference" if r["match"] == "ref_only" else
                          "target"), label(r),
             "`%s`" % r["input_types"].replace("|", "\\|"),
             r["ref_count"] or r["target_count"],
             md_ms(ns(r["ref_kernel_time_us"] or r["target_kernel_time_us"])),
             "%.2f" % float(r["ref_pct_gpu_time"] or r["target_pct_gpu_time"])]
            for r in rows if r["match"] != "both"]
    ok("one side only: listed apart with count, time and share (%d rows)"
       % len(want), got == want and
       sorted(w[0] for w in want) == ["reference only", "reference only",
                                      "reference only", "target only"],
       (got, want))
    lay = [r for r in rows if r["layout_note"]]
    got = table(fair, "### Layout differences")
    ok("layout pair: reported with both strides and the note",
       len(lay) == 1 and len(got) == 1 and got[0][0] == label(lay[0]) and
       got[0][2] == "`[[1,1,1,1]]`" and got[0][3] == lay[0]["layout_note"])
    want_r = ranked(rows)
    only = [k for k, (i, _) in enumerate(want_r)
            if rows[i]["match"] == "target_only"]
    heads = re.findall(r"^### \S+ Priority (\d+): (.*)$", fair, re.M)
    ok("target only: ranked among the recommendations at its share "
       "(rank %d)" % (only[0] + 1 if only else 0),
       len(only) == 1 and heads[only[0]] == (
           str(only[0] + 1), label(rows[want_r[only[0]][0]]) +
           ": runs on the target only") and
       table(rough, "### Step 6")[only[0]][2] == "target only")
    check_ops("one side only", rows, rough)
    scan_all("one side only: no platform verdicts or vendor names",
             [fair, rough])


def statuses(cmp, want):
    worst = max(("Low", "Medium", "High", "Critical").index(
        "Low" if s <= 5 else "Medium" if s <= 10 else "High" if s <= 15
        else "Critical") for _, s in want)
    codes = [sh("%s/tl-findings --fail-on %s %s > /dev/null" % (BIN, p, cmp))
             .returncode for p in ("low", "medium", "high", "critical")]
    ok("exit status: --fail-on exits 3 up to the worst priority (%s)"
       % ("Low", "Medium", "High", "Critical")[worst],
       codes == [3 if k <= worst else 0 for k in range(4)], codes)
    r = sh("%s/tl-findings --report category -C gemm %s" % (BIN, cmp))
    ok("exit status: no category report for a comparison (2)",
       r.returncode == 2 and b"no category report" in r.stderr)
    t = os.path.join(TMP, "timeline.tsv")
    must("%s/tl-compare -t -R %s -T %s > %s" % (BIN, os.path.join(
        TMP, REF + ".tsv"), os.path.join(TMP, TGT + ".tsv"), t))
    r = sh("%s/tl-findings %s" % (BIN, t))
    ok("exit status: a timeline comparison is refused with a message (1)",
       r.returncode == 1 and b"timeline comparison" in r.stderr and
       r.stderr.count(b"\n") == 1)
    bad = os.path.join(TMP, "bad.tsv")
    text = open(cmp, encoding="utf-8").read().split("\n")
    text[2] = "maybe" + text[2][text[2].index("\t"):]
    open(bad, "w", encoding="utf-8").write("\n".join(text))
    r = sh("%s/tl-findings %s" % (BIN, bad))
    ok("exit status: a bad match value is an error naming the line (1)",
       r.returncode == 1 and b"bad.tsv:3: match 'maybe'" in r.stderr)
    r = sh("%s/tl-findings %s > /dev/full" % (BIN, cmp))
    ok("exit status: a write error exits 1", r.returncode == 1 and
       r.stderr != b"")


if not all(os.path.exists(os.path.join(TRACES, t)) for t in (REF, TGT)):
    print("%s comparative reports (no Qwen pair in %s)"
          % ("FAIL" if os.environ.get("CI") == "true" else "SKIP", TRACES))
    sys.exit(0)
scanner()
try:
    ref_s, tgt_s, cmp_s, want_s, _ = pair()
    one_sided(ref_s, tgt_s)
    statuses(cmp_s, want_s)
except Exception as e:  # noqa: BLE001
    print("FAIL comparative reports: %s: %s" % (type(e).__name__, e))
shutil.rmtree(TMP) if not os.environ.get("KEEP") else print(TMP)
