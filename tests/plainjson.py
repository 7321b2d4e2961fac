#!/usr/bin/env python3
"""Check that tl-findings reads the JSON columns the same way whichever
reader takes them.

    python3 tests/plainjson.py BINDIR [TRACEDIR]

tl-findings reads the compact idle_gaps and kernels columns tl-parse
writes in place, and leaves any other text to the JSON tokeniser.  For
each trace (tests/data/idle and, when given, the shared traces) the op
stream through tl-efficiency is read twice: as written, and with a blank
after every comma outside strings in those two columns (the same JSON,
which only the tokeniser reads).  The report, the long report and the
-o tree must be the same.  Prints ok/FAIL lines; exits 1 on a failure.
"""
import filecmp
import glob
import os
import subprocess
import sys
import tempfile

COLS = ("idle_gaps", "kernels")


def spaced(text):
    """text with a blank after each comma outside strings."""
    out, instr, esc = [], False, False
    for c in text:
        out.append(c)
        if instr:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                instr = False
        elif c == '"':
            instr = True
        elif c == ",":
            out.append(" ")
    return "".join(out)


def respace(stream):
    lines = stream.split("\n")
    head = lines[0].split("\t")
    idx = [head.index(c) for c in COLS if c in head]
    for i in range(1, len(lines)):
        if not lines[i]:
            continue
        f = lines[i].split("\t")
        for k in idx:
            f[k] = spaced(f[k])
        lines[i] = "\t".join(f)
    return "\n".join(lines)


def same_tree(a, b):
    c = filecmp.dircmp(a, b)
    if c.left_only or c.right_only or c.diff_files or c.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, c.common_files,
                                           shallow=False)
    if mismatch or errors:
        return False
    return all(same_tree(os.path.join(a, d), os.path.join(b, d))
               for d in c.common_dirs)


def main():
    bindir = sys.argv[1]
    traces = sorted(glob.glob("tests/data/idle/idle-*.json"))
    traces = [t for t in traces if not t.endswith("-expect.json")]
    if len(sys.argv) > 2:
        for name in ("mi300-xdit-sd3.5.json.gz", "h100-bert-small.json.gz",
                     "mi300-vllm-prefilldecode-piecewise.json.gz"):
            path = os.path.join(sys.argv[2], name)
            if os.path.exists(path):
                traces.append(path)
    fails = 0
    tool = lambda n: os.path.join(bindir, n)
    with tempfile.TemporaryDirectory() as tmp:
        for t in traces:
            ops = subprocess.run([tool("tl-parse"), "-q", t], check=True,
                                 capture_output=True).stdout
            eff = subprocess.run([tool("tl-efficiency"), "--hw", "mi300x"],
                                 input=ops, check=True,
                                 capture_output=True).stdout.decode()
            alt = respace(eff)
            name = os.path.basename(t)
            if alt == eff or "idle_gaps" not in eff.split("\n")[0]:
                print("FAIL %s: the spaced stream is not different" % name)
                fails += 1
                continue
            paths = []
            for k, text in enumerate((eff, alt)):
                p = os.path.join(tmp, "s%d.tsv" % k)
                with open(p, "w", encoding="utf-8") as f:
                    f.write(text)
                paths.append(p)
            for opts in ([], ["--report", "rough"]):
                outs = [subprocess.run([tool("tl-findings")] + opts + [p],
                                       capture_output=True).stdout
                        for p in paths]
                ok = outs[0] == outs[1] and len(outs[0]) > 0
                print("%s %s: %s the same from both readers" %
                      ("ok" if ok else "FAIL", name,
                       " ".join(opts) or "report"))
                fails += not ok
            dirs = [os.path.join(tmp, "o%d" % k) for k in range(2)]
            for p, d in zip(paths, dirs):
                subprocess.run([tool("tl-findings"), "-o", d, p],
                               capture_output=True)
            ok = os.path.isdir(dirs[0]) and same_tree(dirs[0], dirs[1])
            print("%s %s: -o tree the same from both readers" %
                  ("ok" if ok else "FAIL", name))
            fails += not ok
            for d in dirs:
                subprocess.run(["rm", "-rf", d])
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
