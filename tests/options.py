"""One meaning per option letter across the suite: every program's --help
lists its options as "-X, --long" (or "--long" alone); a letter that
stands for two long options, in one program or in two, fails, and so
does a help text that prints a printf escape ("%%") or names a short
option the program does not take.

usage: options.py BINDIR   (prints "ok NAME" or "FAIL NAME" lines)
"""
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
PROGS = sorted(p for p in os.listdir(BIN) if p.startswith("tl-"))
TMP = tempfile.mkdtemp()
OPT = re.compile(r"^\s+-([A-Za-z]), --([a-z][a-z0-9-]*)")


def ok(name, cond, why=""):
    print(("ok " if cond else "FAIL ") + name + ("" if cond else ": " + why))


def main():
    letters = {}            # letter -> {long name: [programs]}
    for prog in PROGS:
        path = os.path.join(BIN, prog)
        p = subprocess.run([path, "--help"], capture_output=True, text=True)
        ok(prog + " --help exits 0 with nothing on stderr",
           p.returncode == 0 and p.stderr == "", p.stderr[:200])
        ok(prog + " --help prints no printf escape", "%%" not in p.stdout)
        pairs = [m.groups() for m in map(OPT.match, p.stdout.split("\n"))
                 if m]
        ok(prog + " --help lists its options", len(pairs) >= 2)
        for letter, name in pairs:
            letters.setdefault(letter, {}).setdefault(name, []).append(prog)
            # The program takes the letter (alone, on empty input, in an
            # empty directory: an option that needs a value says so).
            r = subprocess.run([os.path.abspath(path), "-" + letter],
                               capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, cwd=TMP)
            ok("%s: -%s is an option" % (prog, letter),
               "invalid option" not in r.stderr, r.stderr[:200])
    for letter in sorted(letters):
        names = letters[letter]
        ok("-%s has one meaning" % letter, len(names) == 1,
           "; ".join("--%s in %s" % (n, ", ".join(ps))
                     for n, ps in sorted(names.items())))
    os.rmdir(TMP)


main()
