#!/usr/bin/env python3
"""Every label of a chart readable when rendered (issue 30).

usage: chartlabels.py FILE.svg...

Chromium lays each SVG out headlessly (--dump-dom on a page that measures
every <text> with getBoundingClientRect, the font and transforms applied),
and then, per chart:
  clipped   no text reaches outside the chart's width and height;
  overlap   no two texts overlap (by more than 1 px each way; a text and
            the white halo of a roof label are the same text);
  roofs     every compute roof (g.roof with data-peak-tflops) has a label
            with its name and value, every memory roof line a label with
            its TB/s; the legend names every roof with its value, or "no
            figure" for one the GPU table has no compute figure for.
Prints "ok NAME", "FAIL NAME" (what is wrong indented under it) or
"SKIP NAME" (no chromium; a failure with CI=true) lines, as tests/cases.sh.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
PAGE = """<!DOCTYPE html><html><head><style>body{margin:0}</style></head>
<body>%s<pre id="out"></pre><script>
var r = [], b = document.querySelector("svg").getBoundingClientRect();
document.querySelectorAll("svg text").forEach(function (t, i) {
  var q = t.getBoundingClientRect();
  if (t.textContent.trim() === "" || q.width === 0) return;
  r.push({i: i, t: t.textContent, x0: q.left - b.left, y0: q.top - b.top,
          x1: q.right - b.left, y1: q.bottom - b.top,
          rot: /rotate/.test(t.getAttribute("transform") || "")});
});
document.getElementById("out").textContent = JSON.stringify(r);
</script></body></html>"""


def chromium():
    for c in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(c):
            return c
    return None


def measure(browser, svg, tmp):
    page = os.path.join(tmp, "page.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(PAGE % open(svg, encoding="utf-8").read())
    out = subprocess.run([browser, "--headless", "--no-sandbox",
                          "--disable-gpu", "--dump-dom", "file://" + page],
                         capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'<pre id="out">(.*?)</pre>', out, re.S)
    if not m:
        raise RuntimeError("chromium gave no measurements")
    return json.loads(html.unescape(m.group(1)))


def overlaps(a, b, tol=1.0):
    return (min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > tol and
            min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > tol)


def size(root):
    return float(root.get("width")), float(root.get("height"))


def check_roofs(root, texts):
    """Names and values of the roofs in their labels; messages."""
    bad = []
    labels = [t for t in root.iter(SVG + "text")
              if "roof-label" in (t.get("class") or "").split()]
    lt = ["".join(t.itertext()) for t in labels]
    for g in root.iter(SVG + "g"):
        if "roof" not in (g.get("class") or "").split():
            continue
        if g.get("data-peak-tflops") is None:
            continue
        name = g.get("data-label") or ""
        own = ["".join(t.itertext()) for t in g.iter(SVG + "text")
               if "roof-label" in (t.get("class") or "").split()]
        if not any(name in t and re.search(r"\d", t) for t in own):
            bad.append("roof %r has no label with its name and value" % name)
    # The legend names every roof with its value, or says it has none.
    legend = [t for g in root.iter(SVG + "g")
              if "legend" in (g.get("class") or "").split()
              for t in ("".join(x.itertext()) for x in g.iter(SVG + "text"))]
    for g in root.iter(SVG + "g"):
        if "roof" not in (g.get("class") or "").split():
            continue
        name = g.get("data-label") or ""
        if legend and not any(t.startswith(name + " \u00b7 ") and
                              (re.search(r"\d", t[len(name):]) or
                               "no figure" in t) for t in legend):
            bad.append("roof %r has no legend entry with its value" % name)
    for ln in root.iter(SVG + "line"):
        if "memory-roof" not in (ln.get("class") or "").split():
            continue
        v = float(ln.get("data-peak-tbs"))
        want = ("%.4g" % v)
        if not any("memory roof" in t and want in t for t in lt):
            bad.append("memory roof %s TB/s has no label with its value"
                       % want)
    return bad


def check(browser, svg, tmp):
    root = ET.parse(svg).getroot()
    w, h = size(root)
    texts = measure(browser, svg, tmp)
    bad = []
    for t in texts:
        if t["x0"] < -0.5 or t["y0"] < -0.5 or t["x1"] > w + 0.5 or \
                t["y1"] > h + 0.5:
            bad.append("clipped: %r at (%.0f,%.0f)-(%.0f,%.0f) in %gx%g"
                       % (t["t"][:60], t["x0"], t["y0"], t["x1"], t["y1"],
                          w, h))
    flat = [t for t in texts if not t["rot"]]
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            a, b = flat[i], flat[j]
            if a["t"] == b["t"] and abs(a["x0"] - b["x0"]) < 1 and \
                    abs(a["y0"] - b["y0"]) < 1:
                continue
            if overlaps(a, b):
                bad.append("overlap: %r and %r" % (a["t"][:50], b["t"][:50]))
    rot = [t for t in texts if t["rot"]]
    for a in rot:
        for b in texts:
            if b is a or b["rot"]:
                continue
            # A rotated label's box is larger than its glyphs: only a text
            # inside the middle of it counts.
            cx, cy = (b["x0"] + b["x1"]) / 2, (b["y0"] + b["y1"]) / 2
            if a["x0"] < cx < a["x1"] and a["y0"] < cy < a["y1"] and \
                    overlaps(a, b, 4):
                mx, my = (a["x0"] + a["x1"]) / 2, (a["y0"] + a["y1"]) / 2
                if abs(cx - mx) < (a["x1"] - a["x0"]) / 4 and \
                        abs(cy - my) < (a["y1"] - a["y0"]) / 4:
                    bad.append("overlap: %r and %r" % (a["t"][:50],
                                                       b["t"][:50]))
    bad += check_roofs(root, texts)
    return bad


def main():
    browser = chromium()
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for svg in sys.argv[1:]:
            name = "chart labels readable: " + svg
            if browser is None:
                if os.environ.get("CI") == "true":
                    print("FAIL %s\n    chromium not installed" % name)
                    status = 1
                else:
                    print("SKIP %s (chromium not installed)" % name)
                continue
            try:
                bad = check(browser, svg, tmp)
            except (RuntimeError, subprocess.SubprocessError, ValueError,
                    ET.ParseError) as e:
                bad = [str(e)]
            if bad:
                status = 1
                print("FAIL " + name)
                for b in bad[:20]:
                    print("    " + b)
            else:
                print("ok " + name)
    return status


if __name__ == "__main__":
    sys.exit(main())
