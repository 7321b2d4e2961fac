"""Every example command of README.md and man/tl.7 runs and succeeds.

The commands run in an empty directory holding what they name: the
sample trace as t.json.gz, h100.json.gz, mi300x.json.gz and
traces/rank{0,1}.json.gz, links bin and share to the repository's, a GPU
map gpus.map, and the programs first on PATH; /usr/local/share/tl/tl.mk
stands for the repository's share/tl/tl.mk.  A command is a line (with
the lines its open quotes or trailing backslash carry on), run by bash
with pipefail after the block's variable assignments; a pipeline whose
reader stops early (head) may end in SIGPIPE.  Left out, and named: the
workflow diagrams of tl.7, the building commands of README (make, deps),
and the cluster examples (GNU parallel over ssh, Slurm), which need what a
test machine lacks.

usage: examples.py BINDIR   (prints "ok NAME" or "FAIL NAME" lines)
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
ROOT = os.getcwd()
SAMPLE = os.path.join(ROOT, "share/tl/samples/mi300x-transformer-step.json.gz")
SKIP = re.compile(r"^(make\b(?! -f)|sh tests/tools/deps\.sh|ls traces \| sed|"
                  r"\$ |#SBATCH|\.ci/)")


def ok(name, cond, why=""):
    print(("ok " if cond else "FAIL ") + name + ("" if cond else ": " + why))


def readme_blocks():
    text = open("README.md", encoding="utf-8").read()
    for m in re.finditer(r"^```sh\n(.*?)^```", text, re.S | re.M):
        yield "README.md", m.group(1)


def roff(line):
    line = line.replace("\\(aq", "'").replace("\\-", "-").replace("\\&", "")
    return line.replace("\\e", "\\")


def man_blocks():
    text = open("man/tl.7", encoding="utf-8").read()
    for m in re.finditer(r"^\.Bd -literal[^\n]*\n(.*?)^\.Ed", text,
                         re.S | re.M):
        block = "".join(roff(l) + "\n" for l in m.group(1).split("\n") if l)
        if "->" in block:           # a workflow diagram
            continue
        yield "tl.7", block


def commands(block):
    """The block's commands: lines joined while a quote or a { } group is
    open or a line ends in a backslash or a pipe."""
    cur = ""
    for line in block.split("\n"):
        if not line.strip() and not cur:
            continue
        cur += line + "\n"
        if cur.rstrip("\n").endswith(("\\", "|")):
            continue
        if cur.lstrip().startswith("{") and \
                not re.search(r"\}[^}]*$", cur.strip()):
            continue                # a { ...; } group over lines
        try:
            shlex.split(cur, comments=True)
        except ValueError:          # an open quote
            continue
        yield cur.strip()
        cur = ""


def setup(d):
    os.makedirs(os.path.join(d, "traces"))
    os.makedirs(os.path.join(d, "capture_traces"))
    for n in ["t.json.gz", "h100.json.gz", "mi300x.json.gz",
              "traces/rank0.json.gz", "traces/rank1.json.gz",
              "capture_traces/graphs.json.gz"]:
        shutil.copy(SAMPLE, os.path.join(d, n))
    os.symlink(BIN, os.path.join(d, "bin"))
    os.symlink(os.path.join(ROOT, "share"), os.path.join(d, "share"))
    with open(os.path.join(d, "gpus.map"), "w") as f:
        f.write("*  mi300x\n")


def main():
    d = tempfile.mkdtemp()
    setup(d)
    env = dict(os.environ, PATH=BIN + ":" + os.environ["PATH"])
    n = 0
    for where, block in list(readme_blocks()) + list(man_blocks()):
        cmds = list(commands(block))
        if any("sbatch" in c or "--sshlogin" in c for c in cmds):
            continue                # the cluster examples
        pre = ""
        for c in cmds:
            if SKIP.match(c):
                continue
            c = c.replace("/usr/local/share/tl/tl.mk",
                          os.path.join(ROOT, "share/tl/tl.mk"))
            if re.match(r"^[A-Za-z_]+=\S+$", c):
                pre += c + "\n"
                continue
            p = subprocess.run(["bash", "-o", "pipefail", "-c", pre + c],
                               cwd=d, env=env, capture_output=True,
                               text=True, stdin=subprocess.DEVNULL,
                               timeout=300)
            n += 1
            ok("%s example: %s" % (where, c.split("\n")[0][:70]),
               p.returncode in (0, 141),
               "exit %d: %s" % (p.returncode, p.stderr.strip()[-300:]))
    ok("examples found in README.md and tl.7", n >= 20, "%d commands" % n)
    shutil.rmtree(d)


main()
