#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""lib/render only renders (CONTRIBUTING.md, "Layers"): verdicts,
thresholds and expected ranges are decided in lib/analysis and reach the
renderer as data.  Fails on code in lib/render that
  - compares a value with a number other than 0, 1 or -1 (a threshold),
  - or chooses a verdict's words ("below what is expected", "high",
    "launch-bound", ...) by comparing two values (<, >, <=, >=).
The files that only draw or encode (SVG geometry, ZIP, Markdown escaping)
are exempt from the first rule: their numbers are pixels and bytes.  A
line may carry the comment "not a verdict" (and why) to say that a number is
a listing limit, not a judgement.  Prints "ok ..." or "FAIL ..." lines
for tests/run.sh, and each offending statement."""
import os
import re
import sys

DRAWING = {"svgchart.c", "svgtime.c", "svgw.c", "svgcmp.c", "zipw.c",
           "mdtext.c"}
VERDICT = re.compile(
    r"expected|below|above|within|high|moderate|acceptable|\blow\b|"
    r"launch-bound|kernel issue|dominat|straggler|flagged|fine|worth|"
    r"bottleneck|likely|keeps up|excellent|good|investigat|critical|"
    r"small:|too little", re.I)
NUM = r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?[fFuUlL]*"
RELOP = re.compile(r"(?<![-<>=!])(?:<=|>=|<(?![<=])|>(?![>=]))")
LIT_CMP = re.compile(r"%s\s*\(?\s*(%s)(?![\w.])|(?<![\w.])(%s)\s*\)?\s*%s" %
                     (RELOP.pattern, NUM, NUM, RELOP.pattern))
TRIVIAL = {"0", "1", "-1", "0.0", "1.0"}
FOR = re.compile(r"\bfor\s*\(")


def strip(src):
    """Comments removed, each string literal replaced by S<n>; the list
    of literals; a marker per line index that carries "not a verdict"."""
    out, lits, i, n = [], [], 0, len(src)
    allowed = set()
    line = 0
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            if "not a verdict" in src[i:j]:
                allowed.add(line)
            line += src.count("\n", i, j)
            out.append("\n" * src.count("\n", i, j) or " ")
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            lit = src[i + 1:j]
            if c == '"':
                lits.append(lit)
                out.append(" S%d " % (len(lits) - 1))
            else:
                out.append(" C ")
            i = j + 1
        else:
            if c == "\n":
                line += 1
            out.append(c)
            i += 1
    return "".join(out), lits, allowed


def statements(code):
    """(first line, text) of each statement: split at ; { } outside
    parentheses (a for loop's header stays one)."""
    line, start, cur, depth = 0, 0, [], 0
    for ch in code:
        depth += (ch == "(") - (ch == ")")
        if ch in "{}" or (ch == ";" and depth <= 0):
            text = "".join(cur)
            yield start, text
            cur = []
            start = line
        else:
            if not cur and ch.isspace():
                start = line + (ch == "\n")
            else:
                cur.append(ch)
        if ch == "\n":
            line += 1
    if cur:
        yield start, "".join(cur)


def drop_for(text):
    """The text without for-loop headers: their bounds are how much of
    a list is shown or an array's size, not a judgement."""
    while True:
        m = FOR.search(text)
        if not m:
            return text
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += (text[i] == "(") - (text[i] == ")")
            i += 1
        text = text[:m.start()] + text[i:]


def literal_cmps(text):
    for m in LIT_CMP.finditer(drop_for(text)):
        v = m.group(1) or m.group(2)
        if v not in TRIVIAL and v.rstrip("fFuUlL") not in TRIVIAL:
            yield v


def check(path, drawing):
    with open(path, encoding="utf-8") as f:
        code, lits, allowed = strip(f.read())
    bad = []
    for start, text in statements(code):
        nlines = text.count("\n")
        if any(l in allowed for l in range(start, start + nlines + 1)):
            continue
        one = " ".join(text.split())
        if one.startswith("#"):
            continue
        if not drawing:
            for v in literal_cmps(one):
                bad.append("%s:%d: compares with %s: %s" %
                           (path, start + 1, v, one[:160]))
                break
        words = [lits[int(k)] for k in re.findall(r"\bS(\d+)\b", one)]
        if not any(VERDICT.search(w) for w in words):
            continue
        for m in RELOP.finditer(drop_for(one)):
            flat = drop_for(one)
            left = flat[:m.start()].rstrip()
            right = flat[m.end():].lstrip()
            lt = re.search(r"(%s)\s*\)*$" % NUM, left)
            rt = re.match(r"\(*\s*(%s)\b" % NUM, right)
            if (lt and lt.group(1) in TRIVIAL) or \
                    (rt and rt.group(1) in TRIVIAL):
                continue
            bad.append("%s:%d: chooses a verdict's words by comparing "
                       "values: %s" % (path, start + 1, one[:160]))
            break
    return bad


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    d = os.path.join(top, "lib", "render")
    bad = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".c"):
            bad += check(os.path.join(d, f), f in DRAWING)
    for b in bad:
        print("    " + b)
    print(("FAIL" if bad else "ok") +
          " renderonly: lib/render decides no verdict and no threshold")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
