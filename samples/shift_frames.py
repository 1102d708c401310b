#!/usr/bin/env python3
"""A wobbling camera made from steady frames (issue 12): copies the JPEG
frames of SRC into DST, each picture shifted by a whole number of pixels,
to a new place (uniform within MAX pixels of the original, both axes) at
70% of the frames, the edge pixels repeated into the gap. Deterministic for
a seed. Needs djpeg and cjpeg (libjpeg-turbo-progs); times.txt is copied.
With --pad N each picture first gets N pixels more on every side (its edge
pixels repeated), so that a board framed tightly stays in the picture when
it is shifted by more than its margin. With --noise S each picture then
gets a camera's grain: Gaussian noise of sigma S grey levels in every
channel (drawn from its own stream: the shifts are those without it).

    samples/shift_frames.py SRC DST MAX [SEED] [--pad N] [--noise S]
"""
import math
import os
import random
import shutil
import subprocess
import sys


def read_ppm(data):
    """(width, height, pixels) of a binary PPM as djpeg writes it."""
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError("not an 8-bit colour PPM")
    return int(fields[1]), int(fields[2]), data[i + 1:]


def shifted(w, h, px, dx, dy):
    rows = []
    for y in range(h):
        sy = min(h - 1, max(0, y - dy))
        row = px[sy * w * 3:(sy + 1) * w * 3]
        if dx > 0:
            row = row[:3] * dx + row[:(w - dx) * 3]
        elif dx < 0:
            row = row[-dx * 3:] + row[-3:] * -dx
        rows.append(row)
    return b"".join(rows)


def padded(w, h, px, pad):
    """(width, height, pixels) with pad pixels more on every side."""
    rows = []
    for y in range(h + 2 * pad):
        sy = min(h - 1, max(0, y - pad))
        row = px[sy * w * 3:(sy + 1) * w * 3]
        rows.append(row[:3] * pad + row + row[-3:] * pad)
    return w + 2 * pad, h + 2 * pad, b"".join(rows)


def grainy(px, sigma, rng):
    """px with Gaussian noise of sigma in every byte (rounded, clipped)."""
    reach = int(4 * sigma) + 1
    offsets = list(range(-reach, reach + 1))
    weights = [math.exp(-0.5 * (o / sigma) ** 2) for o in offsets]
    noise = rng.choices(offsets, weights, k=len(px))
    return bytes(min(255, max(0, p + o)) for p, o in zip(px, noise))


def main():
    args = sys.argv[1:]
    pad = 0
    sigma = 0.0
    if "--noise" in args:
        i = args.index("--noise")
        try:
            sigma = float(args[i + 1])
        except (IndexError, ValueError):
            sigma = -1
        if not sigma > 0:
            sys.exit("--noise needs a sigma over 0")
        del args[i:i + 2]
    if "--pad" in args:
        i = args.index("--pad")
        if i + 1 >= len(args) or not args[i + 1].isdigit():
            sys.exit("--pad needs a number of pixels")
        pad = int(args[i + 1])
        del args[i:i + 2]
    if len(args) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    src, dst, most = args[0], args[1], int(args[2])
    seed = int(args[3]) if len(args) == 4 else 1
    rng = random.Random(seed)
    grain = random.Random(seed + 7919)
    os.makedirs(dst, exist_ok=True)
    names = sorted(n for n in os.listdir(src) if n.lower().endswith((".jpg", ".jpeg")))
    if not names:
        sys.exit(f"{src}: no JPEG frames")
    dx = dy = 0
    for n in names:
        raw = subprocess.run(["djpeg", "-pnm", os.path.join(src, n)], capture_output=True, check=True).stdout
        w, h, px = read_ppm(raw)
        if pad:
            w, h, px = padded(w, h, px, pad)
        if rng.random() < 0.7:
            dx, dy = rng.randint(-most, most), rng.randint(-most, most)
        px = shifted(w, h, px, dx, dy)
        if sigma:
            px = grainy(px, sigma, grain)
        out = b"P6\n%d %d\n255\n" % (w, h) + px
        subprocess.run(["cjpeg", "-quality", "90", "-outfile", os.path.join(dst, n)], input=out, check=True)
    times = os.path.join(src, "times.txt")
    if os.path.exists(times):
        shutil.copy(times, dst)
    print(f"{len(names)} frames shifted by up to {most} px into {dst}" + (f", grain {sigma}" if sigma else ""))


if __name__ == "__main__":
    main()
