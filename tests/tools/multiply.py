#!/usr/bin/env python3
"""Build a large valid trace from a real one: K copies of its events, each
shifted in time by the trace's span (plus a gap), with correlation ids,
External ids, flow ids and sequence numbers offset so that linking stays
exact.  Metadata (ph M) events are written once.

usage: multiply.py K IN.json[.gz] OUT.json[.gz]
"""
import gzip
import json
import sys


def opener(path, mode):
    return gzip.open(path, mode + "t", compresslevel=6) if path.endswith(".gz") \
        else open(path, mode)


def main():
    k = int(sys.argv[1])
    with opener(sys.argv[2], "r") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    ts = [e["ts"] for e in events if isinstance(e.get("ts"), (int, float))]
    end = max(e["ts"] + e.get("dur", 0) for e in events
              if isinstance(e.get("ts"), (int, float)))
    span = (end - min(ts)) + 1000.0
    ids = [0]
    for e in events:
        a = e.get("args") or {}
        for key in ("correlation", "External id", "Sequence number"):
            if isinstance(a.get(key), int):
                ids.append(a[key])
        if isinstance(e.get("id"), int):
            ids.append(e["id"])
    step = max(ids) + 1
    meta = {key: v for key, v in doc.items() if key != "traceEvents"} \
        if isinstance(doc, dict) else {}
    with opener(sys.argv[3], "w") as out:
        out.write('{"schemaVersion": 1')
        for key, v in meta.items():
            if key != "schemaVersion":
                out.write(", %s: %s" % (json.dumps(key), json.dumps(v)))
        out.write(', "traceEvents": [\n')
        first = True
        for c in range(k):
            for e in events:
                if e.get("ph") == "M" and c > 0:
                    continue
                if c > 0:
                    e = dict(e)
                    if isinstance(e.get("ts"), (int, float)):
                        e["ts"] = round(e["ts"] + c * span, 3)
                    if isinstance(e.get("id"), int):
                        e["id"] += c * step
                    if e.get("args"):
                        a = dict(e["args"])
                        for key in ("correlation", "External id", "Sequence number"):
                            if isinstance(a.get(key), int) and a[key] >= 0:
                                a[key] += c * step
                        e["args"] = a
                out.write(("" if first else ",\n") + json.dumps(e))
                first = False
        out.write("\n]}\n")


if __name__ == "__main__":
    main()
