#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""The stream's vocabulary against its manual: the tables of
lib/stream/schema.h (printed by tests/tools/schema) and the columns that
man/tl-format.5 documents must not drift apart.

For each section of tl-format.5 that documents columns, the columns it
lists (the tags of its top-level list, or the list after "with the
columns" when its text gives one) must be exactly those of the schema's
tables that name the section, and the section's opening text must name
each program that writes them; every other section must be one of the
few that document no table.  The same holds for the item of
man/tl-findings.1 that lists category_data/CAT_ops.csv, in order, and for
the header the replay runner (share/tl/replay/replay.py) writes.  Every
column of the schema must be in a table.

Usage: schema.py SCHEMA_TOOL [TOP].  Prints "ok ..." or "FAIL ..." lines
for tests/run.sh.
"""
import re
import subprocess
import sys

# Sections of tl-format.5 that document no table of columns.
NOT_TABLES = {"Tab-separated values", "Comma-separated values", "Reading",
              "Values", "Categories and direction", "Row kinds"}
WORD = re.compile(r"^[a-z][a-z0-9_]*$")


def schema(tool):
    tables, columns = [], []
    out = subprocess.run([tool], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "table":
            tables.append({"progs": f[1].split(), "option": f[2],
                           "man": f[3], "section": f[4],
                           "cols": f[5].split(",") if f[5] else [],
                           "changes": f[6].split(",") if f[6] else []})
        else:
            columns.append(f[1])
    return tables, columns


def lines_of(path):
    """The page's lines, those ending in a backslash joined to the next."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text.replace("\\\n", " ").splitlines()


def words(line):
    """The column names a macro line names: its lower-case words."""
    return [w for w in line.split()[1:] if WORD.match(w)]


def sections(path):
    """Each .Ss section's columns (in order) and its opening text."""
    out = {}
    name = None
    depth = 0
    for line in lines_of(path):
        if line.startswith(".Sh"):
            name = None
            continue
        if line.startswith(".Ss "):
            name = line[4:].strip()
            out[name] = {"cols": [], "intro": "", "inline": None}
            depth = 0
            continue
        if name is None:
            continue
        s = out[name]
        if line.startswith(".Bl"):
            depth += 1
        elif line.startswith(".El"):
            depth -= 1
        elif line.startswith(".It") and depth == 1:
            s["cols"] += words(line)
        if depth == 0 and not s["cols"]:
            s["intro"] += line + "\n"
    # A section whose text lists its columns: "with the columns .Cm a , b
    # ... and .Cm z ;" before its list.
    for s in out.values():
        m = re.search(r"with the\s+columns\n(.*?;)\n", s["intro"], re.S)
        if m:
            s["inline"] = [w for ln in m.group(1).splitlines()
                           if ln.startswith(".Cm") for w in words(ln)]
    return out


def findings_item(path, item):
    """The comma-separated columns of the tl-findings.1 item for item."""
    lines = lines_of(path)
    for i, line in enumerate(lines):
        if line.startswith(".It Pa " + item):
            text = ""
            for ln in lines[i + 1:]:
                if ln.startswith(".It"):
                    break
                text += " " + ln
            m = re.search(r":\s*([a-z0-9_,\s]+);", text)
            if m:
                return [w.strip() for w in m.group(1).split(",")]
    return None


def replay_header(path):
    """The header line the runner writes with --results."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'f\.write\(((?:\s*"[^"]*")+)\)', text)
    if not m:
        return None
    s = "".join(re.findall(r'"([^"]*)"', m.group(1)))
    return s.replace("\\t", "\t").replace("\\n", "").split("\t")


def main():
    tool = sys.argv[1]
    top = sys.argv[2] if len(sys.argv) > 2 else "."
    tables, columns = schema(tool)
    bad = []
    fmt = sections(top + "/man/tl-format.5")
    named = {}
    for t in tables:
        if t["man"] == "tl-format.5":
            named.setdefault(t["section"], []).append(t)
    for sec, ts in sorted(named.items()):
        if sec not in fmt:
            bad.append("tl-format.5 has no section '%s'" % sec)
            continue
        s = fmt[sec]
        want = set()
        for t in ts:
            want |= set(t["cols"]) | set(t["changes"])
        doc = s["inline"] if s["inline"] is not None else s["cols"]
        for c in sorted(want - set(doc)):
            bad.append("tl-format.5, %s: column %s is not documented"
                       % (sec, c))
        for c in sorted(set(doc) - want):
            bad.append("tl-format.5, %s: column %s is in no table of "
                       "lib/stream/schema.c" % (sec, c))
        if s["inline"] is not None:
            for c in sorted(set(s["cols"]) - set(doc)):
                bad.append("tl-format.5, %s: %s is described but not "
                           "listed" % (sec, c))
            for t in ts:
                if t["cols"] != doc:
                    bad.append("tl-format.5, %s: the columns are listed "
                               "in another order than written" % sec)
        for t in ts:
            for p in t["progs"]:
                if not re.search(r"(\.Nm|\.Xr|\.Ic)\s+(python3\s+)?"
                                 + re.escape(p) + r"\b", s["intro"]):
                    bad.append("tl-format.5, %s: the text does not name "
                               "%s, which writes it" % (sec, p))
    for sec in sorted(set(fmt) - set(named) - NOT_TABLES):
        bad.append("tl-format.5, %s: a section no table of "
                   "lib/stream/schema.c names" % sec)
    for t in tables:
        if t["man"] == "tl-format.5":
            continue
        doc = findings_item(top + "/man/" + t["man"], t["section"])
        if doc is None:
            bad.append("%s: no item %s listing its columns"
                       % (t["man"], t["section"]))
        elif doc != t["cols"]:
            bad.append("%s, %s: lists %s, writes %s" % (
                t["man"], t["section"], ",".join(doc), ",".join(t["cols"])))
        if t["man"] != " ".join(t["progs"]) + ".1":
            bad.append("%s documents %s, written by %s" % (
                t["man"], t["section"], " ".join(t["progs"])))
    for t in tables:
        if t["progs"] == ["replay.py"]:
            got = replay_header(top + "/share/tl/replay/replay.py")
            if got != t["cols"]:
                bad.append("replay.py --results writes %s, the schema "
                           "says %s" % (got, ",".join(t["cols"])))
    used = set()
    for t in tables:
        used |= set(t["cols"])
    for c in columns:
        if c not in used:
            bad.append("column %s is in no table" % c)
    for b in bad:
        print("FAIL schema: " + b)
    if not bad:
        print("ok schema: %d tables, %d columns against man/tl-format.5"
              % (len(tables), len(columns)))


if __name__ == "__main__":
    main()
