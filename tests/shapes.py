"""Valid events in the shapes JSON allows and Kineto does not write, read
as the same events written plainly (issue 33, item 2): tl-parse's one
reader of events must find the same members, category and values in

- escaped: every key, and every string value of an event's own members,
  written as \\uXXXX escapes ("c\\u0061t": "\\u0063pu_op" is "cat":
  "cpu_op");
- nested: a member "cat" nested in a member before the event's own, and
  one inside its args, which come first (only the top-level "cat" is the
  event's category; an event without one stays unread);
- big: events of more than 16 MiB (a long string in their args), one of
  a category tl reads and one of a category it does not;
- bad: an event of these shapes that tl rejects (a negative "dur") is an
  error naming the file, the event's byte offset and its index, as for a
  plain one.

The plain trace is the shipped sample re-serialised by Python; each
variant is written from the same events, so the expected op stream is the
plain trace's, at -j 1 and -j 4, with python_function frames read too
(--stack).

usage: shapes.py BINDIR   (prints "ok NAME" or "FAIL NAME" lines)
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
SAMPLE = "share/tl/samples/mi300x-transformer-step.json.gz"
fails = 0


def check(name, cond, detail=""):
    global fails
    if cond:
        print("ok %s" % name)
    else:
        fails += 1
        print("FAIL %s%s" % (name, ": " + detail if detail else ""))


def esc(s):
    """s as a JSON string with every character escaped."""
    return '"' + "".join("\\u%04x" % ord(c) if ord(c) < 0x10000
                         else json.dumps(c)[1:-1] for c in s) + '"'


def enc(v, keys=False, strings=False):
    """v as JSON; keys: every key escaped, strings: its string values."""
    if isinstance(v, dict):
        return "{" + ", ".join(
            (esc(k) if keys else json.dumps(k)) + ": " + enc(x, keys)
            for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(enc(x, keys) for x in v) + "]"
    if isinstance(v, str) and strings:
        return esc(v)
    return json.dumps(v)


def event_escaped(e):
    """Keys escaped everywhere, the event's own string values too."""
    return "{" + ", ".join(esc(k) + ": " + enc(x, True, True)
                           for k, x in e.items()) + "}"


def event_nested(e):
    """A member "cat" nested before the event's own, and in its args."""
    out = ['"meta": {"cat": "kernel", "in": [{"cat": "cpu_op"}]}']
    if isinstance(e.get("args"), dict):
        out.append('"args": ' + enc(dict([("cat", "cuda_runtime")] +
                                         list(e["args"].items()))))
    for k, x in e.items():
        if k != "args":
            out.append(json.dumps(k) + ": " + enc(x))
    return "{" + ", ".join(out) + "}"


def event_plain(e):
    return enc(e)


def write(path, doc, events, form):
    """The trace doc with its events written by form; their offsets."""
    head = {k: v for k, v in doc.items() if k != "traceEvents"}
    text = json.dumps(head)[:-1] + ', "traceEvents": ['
    offs = []
    parts = [text]
    pos = len(text.encode())
    for i, e in enumerate(events):
        if i > 0:
            parts.append(", ")
            pos += 2
        s = form(e)
        offs.append(pos)
        parts.append(s)
        pos += len(s.encode())
    parts.append("]}\n")
    with open(path, "w") as f:
        f.write("".join(parts))
    return offs


def parse(path, *opts):
    """tl-parse run where path is, on its name (the trace column)."""
    p = subprocess.run([os.path.join(os.path.abspath(BIN), "tl-parse"),
                        "-q"] + list(opts) + [os.path.basename(path)],
                       cwd=os.path.dirname(path), capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode()


def main():
    doc = json.load(gzip.open(SAMPLE))
    events = doc["traceEvents"]
    big = list(events)
    pad = "p" * (17 << 20)
    first = next(i for i, e in enumerate(events) if e.get("cat") == "cpu_op"
                 and isinstance(e.get("args"), dict))
    skip = next(i for i, e in enumerate(events) if e.get("cat") == "fwdbwd")
    for i in (first, skip):
        e = dict(events[i])
        e["args"] = dict(e.get("args", {}), pad=pad)
        big[i] = e
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, evs, form in (("plain", events, event_plain),
                                ("escaped", events, event_escaped),
                                ("nested", events, event_nested),
                                ("big", big, event_plain)):
            os.mkdir(os.path.join(tmp, name))
            files[name] = os.path.join(tmp, name, "step.json")
            write(files[name], doc, evs, form)
        for opts in ([], ["--stack"]):
            rc, want, err = parse(files["plain"], "-j", "1", *opts)
            check("plain %s" % opts, rc == 0 and want.count(b"\n") > 100,
                  err)
            for name in ("escaped", "nested", "big"):
                for j in ("1", "4"):
                    rc, got, err = parse(files[name], "-j", j, *opts)
                    check("%s -j %s %s: the plain trace's rows" % (name, j,
                                                                   opts),
                          rc == 0 and got == want, "exit %d %s" % (rc, err))
        # An event rejected in each shape: the error names it.
        for name, form in (("escaped", event_escaped),
                           ("nested", event_nested),
                           ("big", event_plain)):
            evs = list(big if name == "big" else events)
            evs[first] = dict(evs[first], dur=-1)
            path = os.path.join(tmp, name, "bad.json")
            offs = write(path, doc, evs, form)
            for j in ("1", "4"):
                rc, got, err = parse(path, "-j", j)
                want = 'tl-parse: bad.json:%d: event %d: negative "dur"\n' % (
                    offs[first], first)
                check("%s -j %s: a negative dur is an error at the event" %
                      (name, j), rc == 1 and err == want,
                      "exit %d %r" % (rc, err))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
