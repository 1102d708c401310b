#!/usr/bin/env python3
"""Photos the recognizer was not tuned on, made from those it was (issue 11):
copies of the labelled photos of ../shared/datasets (imago and gomrade; not
gobanwatcher, whose clicked corners would not follow) turned, mirrored,
shrunk, dimmed or lit in colour, each with its label turned the same way,
for `goref eval OUTDIR/KIND`. A robustness check, not a held-out source:
the scenes are the same. Needs djpeg, cjpeg and jpegtran (libjpeg-turbo-progs).

    samples/transform_photos.py [--data DIR] OUTDIR KIND...

KIND: rot90 (a quarter turn clockwise), fliph (mirrored): both lossless where
the photo's size is whole JPEG blocks, else decoded and encoded again; half
(1/2 by the decoder), dim (x0.35), pink (R 1, G 0.62, B 0.85), dark (gamma
1.6 and R 0.5, G 0.45, B 0.4: a dim, bluish room); with ImageMagick's
convert (Debian's imagemagick; the kind is left out, with a message, where
it is missing): blur (Gaussian, sigma 1/400 of the photo's longer side: 2 px
at the locator's 800 px, a photo out of focus or shaken) and noise
(ImageMagick's Gaussian noise at attenuate 0.6, seed 1: a dim room's sensor
noise).
"""
import argparse
import os
import subprocess
import sys

from shift_frames import read_ppm  # beside this script

CASTS = {  # gains per channel, gamma
    "dim": ((0.35, 0.35, 0.35), 1.0),
    "pink": ((1.0, 0.62, 0.85), 1.0),
    "dark": ((0.5, 0.45, 0.4), 1.6),
}
MAGICK = ["blur", "noise"]
KINDS = ["rot90", "fliph", "half"] + list(CASTS) + MAGICK


def have_magick():
    try:
        out = subprocess.run(["convert", "-version"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return "ImageMagick" in out


def magick(kind, src, dst):
    """blur or noise by ImageMagick's convert (have_magick())."""
    if kind == "blur":
        w, h = (int(v) for v in subprocess.run(["identify", "-format", "%w %h", src], capture_output=True,
                                                text=True, check=True).stdout.split())
        args = ["-blur", "0x%.3f" % (max(w, h) / 400)]
    else:
        args = ["-seed", "1", "-attenuate", "0.6", "+noise", "Gaussian"]
    subprocess.run(["convert", src] + args + ["-quality", "90", dst], check=True)


def read_label(path):
    rows = [line.split() for line in open(path) if line.strip()]
    if not rows or any(len(r) != len(rows) for r in rows):
        raise ValueError(f"{path}: not N lines of N fields")
    return rows


def cast(px, gains, gamma):
    out = bytearray(px)
    for c in range(3):
        lut = bytes(min(255, max(0, round(255 * (v / 255) ** gamma * gains[c]))) for v in range(256))
        out[c::3] = bytes(px[c::3]).translate(lut)
    return bytes(out)


def turned(w, h, px, kind):
    """The pixels turned a quarter clockwise (rot90) or mirrored (fliph)."""
    rows = [px[3 * w * y:3 * w * (y + 1)] for y in range(h)]
    if kind == "fliph":
        out = bytearray()
        for row in rows:
            for x in range(w - 1, -1, -1):
                out += row[3 * x:3 * x + 3]
        return w, h, bytes(out)
    out = bytearray()
    for x in range(w):  # the new row x: the old column x, bottom to top
        for y in range(h - 1, -1, -1):
            out += rows[y][3 * x:3 * x + 3]
    return h, w, bytes(out)


def lossless(kind, src, dst):
    """jpegtran's exact turn where the photo's size allows it (-perfect: whole
    blocks); else decoded, turned and encoded again (jpegtran would leave the
    partial blocks at the edge unturned: the picture a few pixels off)."""
    args = ["-rotate", "90"] if kind == "rot90" else ["-flip", "horizontal"]
    if subprocess.run(["jpegtran", "-perfect"] + args + ["-outfile", dst, src], capture_output=True).returncode == 0:
        return
    w, h, px = read_ppm(subprocess.run(["djpeg", "-pnm", src], capture_output=True, check=True).stdout)
    w, h, px = turned(w, h, px, kind)
    pnm = b"P6\n%d %d\n255\n" % (w, h) + px
    subprocess.run(["cjpeg", "-quality", "95", "-outfile", dst], input=pnm, check=True)


def make(kind, src, dst):
    """Writes the transformed photo; returns how the label turns."""
    if kind == "rot90":
        lossless(kind, src, dst)
        return lambda r: [[r[len(r) - 1 - c][i] for c in range(len(r))] for i in range(len(r))]
    if kind == "fliph":
        lossless(kind, src, dst)
        return lambda r: [list(reversed(row)) for row in r]
    if kind in MAGICK:
        magick(kind, src, dst)
        return lambda r: r
    if kind == "half":
        pnm = subprocess.run(["djpeg", "-scale", "1/2", "-pnm", src], capture_output=True, check=True).stdout
    else:
        w, h, px = read_ppm(subprocess.run(["djpeg", "-pnm", src], capture_output=True, check=True).stdout)
        pnm = b"P6\n%d %d\n255\n" % (w, h) + cast(px, *CASTS[kind])
    subprocess.run(["cjpeg", "-quality", "90", "-outfile", dst], input=pnm, check=True)
    return lambda r: r


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "datasets"))
    ap.add_argument("outdir")
    ap.add_argument("kinds", nargs="+", choices=KINDS)
    a = ap.parse_args()
    if not os.path.isdir(a.data):
        print(f"{a.data}: no datasets here", file=sys.stderr)
        sys.exit(77)
    photos = []
    for root, _, files in os.walk(a.data):
        rel = os.path.relpath(root, a.data)
        if not (rel.startswith("imago") or rel.startswith("gomrade")):
            continue
        for f in files:
            if f.lower().endswith(".jpg") and os.path.exists(os.path.join(root, f[:-4] + ".txt")):
                photos.append(os.path.join(root, f))
    photos.sort()
    for kind in a.kinds:
        if kind in MAGICK and not have_magick():
            print(f"{kind}: left out: ImageMagick's convert is not here (apt-get install imagemagick)", file=sys.stderr)
            continue
        for p in photos:
            rel = os.path.relpath(p, a.data)
            dst = os.path.join(a.outdir, kind, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            turn = make(kind, p, dst)
            rows = turn(read_label(p[:-4] + ".txt"))
            with open(dst[:-4] + ".txt", "w") as out:
                out.write("\n".join(" ".join(r) for r in rows) + "\n")
        print(f"{kind}: {len(photos)} photos in {os.path.join(a.outdir, kind)}")


if __name__ == "__main__":
    main()
