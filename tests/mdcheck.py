"""What tests/findings.py, cmpreport.py, cmppatterns.py and charts.py
share: the result line of a check, running a program, the reports'
number formats and tables, and the wording scans of the Markdown reports.

Text inside `code` spans (op and kernel names, file names) is left out:
kernel names may name a vendor library.  VENDOR catches vendor and
library names and claims a trace cannot support; VERDICT catches the
platform verdicts a comparative report must not make (a winner, "X is
faster than Y"), while comparisons with what the hardware predicts
("slower than the hardware explains") stay allowed.
"""
import re
import subprocess


def ok(name, cond, detail=""):
    """Print "ok NAME", or "FAIL NAME" and the detail (tests/run.sh)."""
    if cond:
        print("ok " + name)
    else:
        print("FAIL " + name)
        if detail:
            print("  " + str(detail)[:2000])


def sh(cmd):
    """Run a shell command; its CompletedProcess, output captured."""
    return subprocess.run(cmd, shell=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def must(cmd):
    """The standard output of a shell command that must exit 0."""
    r = sh(cmd)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (cmd, r.returncode,
                                                r.stderr.decode()[:500]))
    return r.stdout.decode()


def ns(us):
    """Exact nanoseconds of a microseconds field (at most 3 decimals)."""
    if us == "":
        return 0
    neg = us.startswith("-")
    whole, _, frac = us.lstrip("-").partition(".")
    v = int(whole) * 1000 + int((frac + "000")[:3])
    return -v if neg else v


def md_ms(n):
    u = (abs(n) + 500) // 1000
    return "%s%d.%03d" % ("-" if n < 0 else "", u // 1000, u % 1000)


def table(text, heading):
    """The rows (lists of cells) of the first table after heading."""
    i = text.index(heading)
    rows = []
    for line in text[i:].split("\n")[1:]:
        if line.startswith("|"):
            if not line.startswith("|---"):
                rows.append([c.strip() for c in
                             re.split(r"(?<!\\)\|", line)[1:-1]])
        elif rows:
            break
    return rows[1:]


VENDOR = [r"\bcuBLAS", r"\brocBLAS", r"\bhipBLAS", r"\bMIOpen", r"\bcuDNN",
          r"\bCUTLASS", r"\bNCCL", r"\bRCCL", r"\bCUDA\b", r"\bROCm",
          r"\bNVIDIA\b", r"\bAMD\b", r"bank conflict", r"coalesc",
          r"\boccupancy", r"cache hit", r"\bwinner\b",
          r"better platform", r"worse platform"]

VERDICT = [r"\bwinners?\b", r"\blosers?\b", r"\bwins\b", r"\bbeats?\b",
           r"\bsuperior\b", r"\binferior\b", r"\boutperform",
           r"\b(better|worse|best|worst|faster|slower) (platform|gpu|vendor)",
           r"\b(faster|slower|better|worse|quicker) than (?!(the )?(hardware|"
           r"predict|expect|roofs?\b|time ratio))",
           r"\b(is|are|runs?|was|were) (\w+ )?(faster|slower|better|worse|"
           r"quicker)\b(?! than (the )?(hardware|predict|expect|roofs?\b|"
           r"time ratio))"]


def outside_code(text):
    """Markdown text with the `code` spans (kernel and op names) removed."""
    return re.sub(r"`[^`\n]*`", "", text)


def scan(text, patterns):
    """The matches of patterns in text outside code spans."""
    text = outside_code(text)
    return [m.group(0) for p in patterns
            for m in re.finditer(p, text, re.I)]
