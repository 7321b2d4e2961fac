"""What tests/findings.py, tests/cmpreport.py and tests/charts.py share:
the result line of a check, running a command, and the wording scans of
the Markdown reports.

Text inside `code` spans (op and kernel names, file names) is left out:
kernel names may name a vendor library.  VENDOR catches vendor and
library names and claims a trace cannot support; VERDICT catches the
platform verdicts a comparative report must not make (a winner, "X is
faster than Y"), while comparisons with what the hardware predicts
("slower than the hardware explains") stay allowed.
"""
import re
import subprocess


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


def ok(name, cond, detail=""):
    """Print "ok NAME", or "FAIL NAME" and the detail (tests/run.sh)."""
    if cond:
        print("ok " + name)
    else:
        print("FAIL " + name)
        if detail:
            print("  " + str(detail)[:2000])

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
