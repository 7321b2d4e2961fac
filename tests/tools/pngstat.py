#!/usr/bin/env python3
# See LICENSE file for copyright and license details.
"""Print "WIDTH HEIGHT COLOURS INK" for an 8-bit, non-interlaced PNG.

COLOURS is the number of distinct pixel values, INK the percentage of
pixels that are not the most common value (the background).  Used by
tests/svgcheck.sh to tell a drawn chart from a blank or error page; the
standard library only.  Exit 1 with a message when the file is not such a
PNG.
usage: pngstat.py FILE.png
"""
import struct
import sys
import zlib
from collections import Counter

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # grey, RGB, grey+alpha, RGBA


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def rows(data, width, height, bpp):
    """The unfiltered scanlines (PNG filter types 0-4)."""
    stride = width * bpp
    prev = bytearray(stride)
    pos = 0
    for _ in range(height):
        ftype = data[pos]
        line = bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xff
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xff
            elif ftype == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xff
            elif ftype == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 0xff
            elif ftype != 0:
                raise ValueError("bad filter type %d" % ftype)
        yield bytes(line)
        prev = line


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: pngstat.py FILE.png")
    path = sys.argv[1]
    with open(path, "rb") as f:
        png = f.read()
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if ihdr is None or not idat:
        sys.exit("%s: no IHDR or IDAT" % path)
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in CHANNELS or interlace != 0:
        sys.exit("%s: depth %d, colour type %d, interlace %d not handled" %
                 (path, depth, ctype, interlace))
    bpp = CHANNELS[ctype]
    pixels = Counter()
    for line in rows(zlib.decompress(b"".join(idat)), width, height, bpp):
        pixels.update(line[i:i + bpp] for i in range(0, len(line), bpp))
    total = width * height
    ink = 100.0 * (total - pixels.most_common(1)[0][1]) / total
    print("%d %d %d %.2f" % (width, height, len(pixels), ink))


if __name__ == "__main__":
    main()
