#!/usr/bin/env python3
"""Recognition time per megapixel, per source (issue 11's 50 ms a
megapixel): reads the JSON of `goref eval --json DIR...` (a file, or - for
standard input), takes each photo's size from its JPEG or PNG header, and
prints per source (the photo's folder, a last folder named skip folded
into its parent, as goref eval counts them) the photos, their mean size,
the mean time per photo (eval's own: the detection on one core, the
decode not counted) and the mean of each photo's time per megapixel.

    ./build/goref eval --json ../shared/datasets > eval.json
    samples/eval_ms_per_mp.py eval.json
"""
import collections
import json
import os
import struct
import sys

SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(path):
    with open(path, "rb") as f:
        d = f.read()
    if d[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", d[16:24])
    i = 2
    while i + 9 < len(d):
        if d[i] != 0xFF:
            i += 1
            continue
        m = d[i + 1]
        if m in SOF:
            h, w = struct.unpack(">HH", d[i + 5:i + 9])
            return w, h
        i += 2 + struct.unpack(">H", d[i + 2:i + 4])[0]
    raise ValueError(f"{path}: no size found (not a JPEG or PNG)")


def source(path):
    folder = os.path.dirname(path)
    if os.path.basename(folder) == "skip":
        folder = os.path.dirname(folder)
    return folder


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    f = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1])
    photos = json.load(f)["photos"]
    by = collections.defaultdict(list)
    for p in photos:
        w, h = image_size(p["photo"])
        by[source(p["photo"])].append((p["ms"], w * h / 1e6))
    print(f"{'source':50s} {'photos':>6s} {'MP':>5s} {'ms a photo':>10s} {'ms a MP':>8s}")
    for s in sorted(by):
        v = by[s]
        print(f"{s:50s} {len(v):6d} {sum(m for _, m in v) / len(v):5.2f} "
              f"{sum(t for t, _ in v) / len(v):10.1f} {sum(t / m for t, m in v) / len(v):8.1f}")


if __name__ == "__main__":
    main()
