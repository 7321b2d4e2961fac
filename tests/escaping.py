"""Trace text escaped for the format it lands in: an op name, a kernel
name and a trace name holding every character that means something in
Markdown, HTML, SVG (XML), JSON, CSV, TSV or on a line, through every
output of tl-findings (the reports, the -o directory, the charts),
tl-compare, and tl-replay (the IR, the README, and the TSV cells its
Python runner writes).

Each output is read back with the format's own reader where Python has
one (json, csv, xml.etree) and must hold the name exactly; Markdown is
checked for what a renderer would see: each table row has its header's
cells, the name sits whole in one code span (backticks as quotes, '|'
escaped, control characters spelt out), and none of its markup (a link,
HTML, an entity) is outside a code span.

usage: escaping.py BINDIR   (prints "ok NAME" or "FAIL NAME" lines)
"""
import ast
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdcheck import ok  # noqa: E402

BIN = sys.argv[1]
SAMPLE = "share/tl/samples/mi300x-transformer-step.json.gz"
EVIL = "aten::e|v`il[x](http://e.x)<b>&lt;*_#\\\n\t\r\x01\u00e9\"'"
KEVIL = "k_" + EVIL
TEVIL = "t|r`a[c](e)<i>&amp;.json"
TSTEM = TEVIL[:-len(".json")]   # the reports' titles drop the extension
HEVIL = "mi300x <b>[h](http://e.x) *_x_* `c`"    # plain text, not code


def run(args, stdin=None):
    """stdout of a program of BIN; the test fails on a non-zero exit."""
    p = subprocess.run([os.path.join(BIN, args[0])] + args[1:], input=stdin,
                       capture_output=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                               p.stderr.decode()[:300]))
    return p.stdout


def tsv_field(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r"))


def md_code(s):
    """What tl_md_code makes of s (mdtext.h), without the backticks."""
    out = []
    for c in s:
        if c == "`":
            out.append("'")
        elif c == "|":
            out.append("\\|")
        elif c in "\n\t\r":
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}[c])
        elif ord(c) < 0x20 or c == "\x7f":
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return "`" + "".join(out) + "`"


def evil_stream(src):
    """The stream src (bytes) with every op renamed EVIL, every kernel
    KEVIL, every trace TEVIL."""
    lines = src.decode().rstrip("\n").split("\n")
    hdr = lines[0].split("\t")
    ni, ti, ki = hdr.index("name"), hdr.index("trace"), hdr.index("kernels")
    hi = hdr.index("hw")
    out = [lines[0]]
    for line in lines[1:]:
        r = line.split("\t")
        r[ni] = tsv_field(EVIL)
        ks = json.loads(r[ki].replace("\\\\", "\\"))
        for k in ks:
            k["name"] = KEVIL
        r[ki] = tsv_field(json.dumps(ks, separators=(",", ":")))
        r[ti] = tsv_field(TEVIL)
        r[hi] = tsv_field(HEVIL)
        out.append("\t".join(r))
    return ("\n".join(out) + "\n").encode()


def outside_code(text):
    return re.sub(r"`[^`\n]*`", "", text)


def md_problems(text):
    """What is wrong with a Markdown text holding the names."""
    bad = []
    want = None
    for n, line in enumerate(text.split("\n"), 1):
        if not line.startswith("|"):
            want = None
            continue
        cells = len(re.findall(r"(?<!\\)\|", line))
        if want is None:
            want = cells
        elif cells != want:
            bad.append("line %d: %d cells, the header has %d" %
                       (n, cells, want))
    # What a renderer reads as markup: outside code spans, and less the
    # characters a backslash escapes.
    rest = re.sub(r"\\.", "\x00", outside_code(text))
    for frag in ["](http://e.x)", "<b>", "&lt;", "<i>", "&amp;", "](e)",
                 "\x01", "*_x_*", "`c`"]:
        if frag in rest:
            bad.append("%r outside a code span" % frag)
    return bad


def check_md(name, text, names, hw=False):
    bad = md_problems(text)
    if hw and "mi300x" not in text:
        bad.append("no hw name")
    for s in names:
        if md_code(s) not in text:
            bad.append("no code span %r" % md_code(s))
    ok(name + ": Markdown", not bad, bad)


def check_json(name, text, names):
    try:
        v = json.loads(text)
        dump = json.dumps(v)
        miss = [s for s in names if json.dumps(s)[1:-1] not in dump]
        ok(name + ": JSON", not miss, "names not found whole: %r" % miss)
    except ValueError as e:
        ok(name + ": JSON", False, e)


def check_csv(name, text, names):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    cells = {c for r in rows for c in r}
    bad = [i for i, r in enumerate(rows) if len(r) != len(rows[0])]
    miss = [s for s in names if s not in cells]
    ok(name + ": CSV", not bad and not miss,
       "ragged rows %r, names not found whole %r" % (bad[:5], miss))


def check_tsv(name, text, names):
    rows = [line.split("\t") for line in text.rstrip("\n").split("\n")]
    bad = [i for i, r in enumerate(rows) if len(r) != len(rows[0])]
    un = {re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(
        m.group(1), m.group(1)), c) for r in rows for c in r}
    miss = [s for s in names if s not in un]
    ok(name + ": TSV", not bad and not miss,
       "ragged rows %r, names not found whole %r" % (bad[:5], miss))


def check_svg(name, path, need="e|v`il[x](http://e.x)<b>&lt;*_#"):
    """path parses as XML and, unless need is None, its text holds need."""
    try:
        root = ET.parse(path).getroot()
        text = "".join(root.itertext()) + "".join(
            v for e in root.iter() for v in e.attrib.values())
        ok(name + ": SVG", need is None or need in text,
           "the name is not in the chart's text")
    except ET.ParseError as e:
        ok(name + ": SVG", False, e)


def check_runner_cells():
    """The replay runner's TSV cells (its --results file): tsv_cell of
    share/tl/replay/replay.py, taken out of the file (the runner itself
    needs PyTorch), writes each name as the stream's one field."""
    src = open("share/tl/replay/replay.py", encoding="utf-8").read()
    fn = [n for n in ast.parse(src).body
          if isinstance(n, ast.FunctionDef) and n.name == "tsv_cell"]
    env = {}
    exec(compile(ast.Module(body=fn, type_ignores=[]), "replay.py", "exec"),
         env)
    for n in [EVIL, KEVIL, TEVIL]:
        cell = env["tsv_cell"](n)
        ok("replay runner: a name is one TSV cell",
           "\t" not in cell and "\n" not in cell and "\r" not in cell and
           cell == tsv_field(n), repr(cell))


def main():
    tmp = tempfile.mkdtemp()
    # Without the module context, so that the titles name the trace.
    stream = run(["tl-efficiency", "--hw", "mi300x"],
                 run(["tl-parse", "--no-context", SAMPLE]))
    evil = evil_stream(stream)
    ev = os.path.join(tmp, "evil.tsv")
    with open(ev, "wb") as f:
        f.write(evil)
    names = [EVIL, KEVIL, TEVIL]
    for rep in ["fair", "rough"]:
        check_md("findings --report " + rep,
                 run(["tl-findings", "--report", rep, ev]).decode(),
                 [EVIL, TSTEM] + ([KEVIL] if rep == "rough" else []),
                 hw=True)
    check_md("findings --report category gemm",
             run(["tl-findings", "-C", "gemm", ev]).decode(), [EVIL])
    out = os.path.join(tmp, "out")
    run(["tl-findings", "-o", out, ev])
    for dirpath, _, files in os.walk(out):
        for fn in files:
            p = os.path.join(dirpath, fn)
            text = open(p, encoding="utf-8", newline="").read()
            rel = os.path.relpath(p, out)
            if "gemm" not in rel and "standalone" not in rel:
                continue
            if fn.endswith(".md"):
                check_md("findings -o " + rel, text, [EVIL])
            elif fn.endswith(".json"):
                check_json("findings -o " + rel, text,
                           [HEVIL] if "metadata" in rel else
                           [EVIL, KEVIL, TEVIL] if "tree" in fn else [EVIL])
            elif fn.endswith(".csv"):
                check_csv("findings -o " + rel, text, [EVIL])
    check_svg("findings -o charts/roofline.svg",
              os.path.join(out, "charts", "roofline.svg"))
    # Every other chart, whatever it draws, is well-formed XML with the
    # trace text in it.
    for fn in sorted(os.listdir(os.path.join(out, "charts"))):
        if fn.endswith(".svg") and fn != "roofline.svg":
            check_svg("findings -o charts/" + fn,
                      os.path.join(out, "charts", fn), need=None)
    cmp = run(["tl-compare", "--ref", ev, "--target", ev, "--ref-hw",
               "mi300x", "--target-hw", "h100"])
    check_tsv("compare", cmp.decode(), [EVIL])
    # The comparison's own text columns, as a hand-edited stream may hold.
    lines = cmp.decode().rstrip("\n").split("\n")
    hdr = lines[0].split("\t")
    for i in range(1, len(lines)):
        r = lines[i].split("\t")
        if r[hdr.index("match")] == "both":
            r[hdr.index("layout_note")] = tsv_field(HEVIL)
        lines[i] = "\t".join(r)
    cp = os.path.join(tmp, "cmp.tsv")
    with open(cp, "w") as f:
        f.write("\n".join(lines) + "\n")
    rough = run(["tl-findings", "--report", "rough", cp]).decode()
    check_md("findings comparative rough", rough, [EVIL])
    ok("findings comparative rough: the layout note is there, escaped",
       "mi300x \\<b\\>\\[h\\](http://e.x)" in rough)
    run(["tl-findings", "-o", os.path.join(tmp, "cmpout"), cp])
    check_csv("findings -o comparative_ops.csv",
              open(os.path.join(tmp, "cmpout", "comparative_ops.csv"),
                   encoding="utf-8", newline="").read(), [EVIL])
    rp = os.path.join(tmp, "replay")
    run(["tl-replay", "-o", rp, ev])
    ir = open(os.path.join(rp, "replay_ir.json"), encoding="utf-8").read()
    check_json("replay IR", ir, names)
    ok("replay IR: the op name read back exactly",
       any(e["op"] == EVIL and KEVIL in e["kernels"] and e["trace"] == TEVIL
           for e in json.loads(ir)))
    check_md("replay README",
             open(os.path.join(rp, "README.md"), encoding="utf-8").read(),
             names)
    check_runner_cells()
    subprocess.run(["rm", "-rf", tmp])


main()
