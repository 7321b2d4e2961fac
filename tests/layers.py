#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""The layering of lib/ (CONTRIBUTING.md, "Layers"): a module includes only
headers of its own layer or of the layers below it, spelt "layer/name.h";
no module depends on itself through others (no include cycle); nothing
outside cmd/ includes a file of cmd/.  Prints "ok ..." or "FAIL ..." lines
for tests/run.sh, and each offending include."""
import os
import re
import sys

LAYERS = ["common", "stream", "trace", "model", "analysis", "render"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    lib = os.path.join(top, "lib")
    bad = []
    deps = {}
    for layer in sorted(os.listdir(lib)):
        d = os.path.join(lib, layer)
        if not os.path.isdir(d):
            continue
        if layer not in LAYERS:
            bad.append("lib/%s: a folder that is not a layer" % layer)
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith((".c", ".h")):
                continue
            mod = layer + "/" + f[:-2]
            for inc in includes(os.path.join(d, f)):
                if "/" not in inc:
                    bad.append("lib/%s/%s: #include \"%s\" names no layer"
                               % (layer, f, inc))
                    continue
                il = inc.split("/")[0]
                if il not in LAYERS:
                    bad.append("lib/%s/%s: #include \"%s\" is outside lib/"
                               % (layer, f, inc))
                    continue
                if LAYERS.index(il) > LAYERS.index(layer):
                    bad.append("lib/%s/%s: #include \"%s\": %s is above %s"
                               % (layer, f, inc, il, layer))
                dep = inc[:-2]
                if dep != mod:
                    deps.setdefault(mod, set()).add(dep)
    for root, _, files in os.walk(top):
        rel = os.path.relpath(root, top)
        if rel.split(os.sep)[0] in ("cmd", ".git", "fuzz"):
            continue
        for f in files:
            if f.endswith((".c", ".h")):
                for inc in includes(os.path.join(root, f)):
                    if "cmd/" in inc:
                        bad.append("%s/%s: #include \"%s\": only cmd/ holds "
                                   "programs" % (rel, f, inc))
    # Module-level cycles: a depth-first search over deps.
    state = {}
    stack = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for d in sorted(deps.get(m, ())):
            if state.get(d) == 1:
                bad.append("include cycle: " + " -> ".join(
                    stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(deps):
        if m not in state:
            visit(m)
    for b in bad:
        print("    " + b)
    print("%s layers: %d modules, %d includes checked" % (
        "FAIL" if bad else "ok", len(deps),
        sum(len(v) for v in deps.values())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
