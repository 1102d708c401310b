#!/usr/bin/env python3
"""Random scenes as photos (issue 11: a board the recognizer has never seen).

Each seed draws one scene at random with goref-render --last-only (no hands):
a self-play game's last position (9x9, 13x13 or 19x19 from
tests/fixtures/selfplay, 19x19 three times as often), the camera 25 to 60
degrees from straight down, stones 5 to 9 mm high, a board 0 to 200 mm
thick, 640x480 to 1920x1080, the board framed from a little smaller to a
little larger (--zoom 0.8 to 1.08: at a slant its near corners may leave
the picture), a pale floor instead of the table in a fifth of the scenes,
a tinted lamp in some (--floor: every scene on the floor, each else as
drawn), and with --clutter bowls of stones,
lids and loose stones beside the board. The photos are read with
`goref eval`; its total is printed, with every photo not read entirely
right. Each photo's name says its scene: p SEED _ SIZE _t TILT _h BOARD
THICKNESS _s STONE HEIGHT _ WxH, then fl (floor), ti (tint) and bb
(--bamboo: every board of laminated bamboo, each scene else as without).

    samples/eval_scenes.py [--build BUILD] [--out OUTDIR] [--seed S] [--count N] [--clutter]
                           [--bamboo] [--moves M] [--floor] [--clicks J]

With --moves M each game is drawn after its first M moves instead of its last
(0: the empty board; an opening's few stones leave most of the lines and
the board's wood in view, where the glue seams of a bamboo board and the
stones' colours under a tinted lamp are judged with few stones to compare);
the photos' names then end in _mM, the scenes else the same.

With --clicks J the photos are read through clicked corners as well: a
corners.json beside them (the gobanwatcher format: the four corners of the
grid half a cell further out, as fractions of the photo, kept inside it)
holds each photo's true corners, each moved by a random offset of up to J
of the cell there (its own random stream per seed), as a person's clicks
are; `goref eval` reports the photos read through them apart ('with the
clicked corners').

BUILD holds goref and goref-render (default build); OUTDIR (default
/tmp/goref-eval-scenes) keeps the renders, a folder of photos for each run's
seeds (a scene drawn there before is not drawn again). Seeds 300-359,
400-459, 1000-1059 and 2000-2059 (with and without --clutter) were looked
at while the recognizer was worked on (README); seeds from 3000 on were
not.
"""
import argparse
import glob
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys

TINTS = ['1,0.8,0.2', '0.55,0.15,1', '1,0.35,0.15', '0.8,0.9,1']


def scene(seed, clutter, games, bamboo=False, moves=None, floor=False):
    """The render options and the photo's name for one seed (the game
    drawn after its first `moves` moves where that is given; on the pale
    floor whatever the draw where floor)."""
    r = random.Random(seed)
    size = r.choice([9, 13, 19, 19, 19])
    game = r.choice(games[size])
    tilt = r.uniform(25, 60)
    thick = r.choice([0, r.uniform(10, 60), r.uniform(10, 60), r.uniform(100, 200)])
    stone_h = r.uniform(5, 9)
    w, h = r.choice([(1280, 720), (1280, 720), (640, 480), (1920, 1080), (1024, 768)])
    extra, tags = [], ''
    if r.random() < 0.2 or floor:
        extra.append('--floor')
        tags += 'fl'
    if r.random() < 0.15:
        extra += ['--tint', r.choice(TINTS)]
        tags += 'ti'
    zoom = r.uniform(0.8, 1.08)
    if clutter:
        extra.append('--clutter')
    if bamboo:
        extra.append('--bamboo')
        tags += 'bb'
    opts = ['--seed', str(seed), '--no-hands', '--fps', '1', '--last-only', '--tilt', '%.1f' % tilt,
            '--board-thickness', '%.0f' % thick, '--stone-height', '%.1f' % stone_h, '--width', str(w),
            '--height', str(h), '--zoom', '%.2f' % zoom] + extra
    name = 'p%d_%d_t%d_h%d_s%.0f_%dx%d%s' % (seed, size, tilt, thick, stone_h, w, h, tags)
    if moves is not None:
        opts += ['--moves', str(moves)]
        name += '_m%d' % moves
    return size, game, opts, name


def solve(a, b):
    """x with a x = b (Gaussian elimination with pivoting; a is n x n)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def homography(src, dst):
    """The 3x3 homography (row-major, h33 = 1) taking four src points to dst."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    return solve(a, b) + [1.0]


def apply(h, x, y):
    w = h[6] * x + h[7] * y + h[8]
    return (h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w


def clicks(corners, size, width, height, jitter, seed):
    """A person's clicks on a photo whose grid has these corners (x, y
    clockwise from the top-left): half a cell outside the grid, each moved
    by up to jitter of the cell there, kept inside the photo; as fractions."""
    n = size - 1
    grid = [(0, 0), (n, 0), (n, n), (0, n)]
    h = homography(grid, [(corners[2 * k], corners[2 * k + 1]) for k in range(4)])
    r = random.Random(seed * 7919 + 17)
    out = []
    for gx, gy in grid:
        ox, oy = (-0.5 if gx == 0 else 0.5), (-0.5 if gy == 0 else 0.5)
        x, y = apply(h, gx + ox, gy + oy)
        # the cell there: the mean of its two sides in pixels
        x1, y1 = apply(h, gx + ox + (1 if gx == 0 else -1), gy + oy)
        x2, y2 = apply(h, gx + ox, gy + oy + (1 if gy == 0 else -1))
        cell = (math.hypot(x1 - x, y1 - y) + math.hypot(x2 - x, y2 - y)) / 2
        d, t = jitter * cell * math.sqrt(r.random()), r.uniform(0, 2 * math.pi)
        x, y = x + d * math.cos(t), y + d * math.sin(t)
        # eval reads a fraction f as the pixel f * width - 0.5
        out.append([min(max((x + 0.5) / width, 0.0), 1.0), min(max((y + 0.5) / height, 0.0), 1.0)])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build', default='build')
    ap.add_argument('--out', default='/tmp/goref-eval-scenes')
    ap.add_argument('--seed', type=int, default=1000)
    ap.add_argument('--count', type=int, default=60)
    ap.add_argument('--clutter', action='store_true', help='bowls, lids and loose stones beside the board')
    ap.add_argument('--bamboo', action='store_true',
                    help='every board of laminated bamboo (goref-render --bamboo), the scene else the same')
    ap.add_argument('--moves', type=int, metavar='M',
                    help="each game after its first M moves (0: the empty board) instead of its last position")
    ap.add_argument('--floor', action='store_true',
                    help='every scene on the pale floor (the draw else the same)')
    ap.add_argument('--clicks', type=float, metavar='J',
                    help='read through clicked corners too, each up to J cells off (corners.json)')
    a = ap.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    goref, render = os.path.join(a.build, 'goref'), os.path.join(a.build, 'goref-render')
    for b in (goref, render):
        if not os.access(b, os.X_OK):
            sys.exit('eval_scenes.py: %s is missing (build first)' % b)
    games = {z: sorted(glob.glob(os.path.join(here, 'tests/fixtures/selfplay/%dx%d-*.sgf' % (z, z))))
             for z in (9, 13, 19)}
    if a.moves is not None and a.moves < 0:
        sys.exit('eval_scenes.py: --moves must be 0 or more')
    kind = ('clutter' if a.clutter else 'plain') + ('-bamboo' if a.bamboo else '') + ('-floor' if a.floor else '') + (
        '' if a.moves is None else '-m%d' % a.moves)
    photos = os.path.join(a.out, '%s-%d-%d' % (kind, a.seed, a.seed + a.count - 1))
    os.makedirs(photos, exist_ok=True)
    clicked = {}
    for seed in range(a.seed, a.seed + a.count):
        size, game, opts, name = scene(seed, a.clutter, games, a.bamboo, a.moves, a.floor)
        label = os.path.join(photos, name + '.txt')
        d = os.path.join(a.out, 'render', '%d%s%s%s%s' % (seed, 'c' if a.clutter else '', 'b' if a.bamboo else '',
                                                          'f' if a.floor else '', '' if a.moves is None else 'm%d' % a.moves))
        if not os.path.exists(label):
            print('rendering %s ...' % name, file=sys.stderr)
            subprocess.run([render, '--quiet'] + opts + [game, d], check=True)
            frame = sorted(glob.glob(os.path.join(d, '*.jpg')))[-1]
            shutil.copy(frame, os.path.join(photos, name + '.jpg'))
            with open(os.path.join(d, 'truth.log')) as f:
                rows = [line for line in f if not line.startswith('@')]
            if len(rows) < size:
                # no move drawn: the truth log holds no position
                rows = ['.' * size + '\n'] * size
            with open(label, 'w') as f:
                f.write(''.join(rows[-size:]))
        # the true corners from the render (a photo whose render is gone
        # is read without clicks)
        truth = os.path.join(d, 'truth.jsonl')
        if a.clicks is not None and os.path.exists(truth):
            with open(truth) as f:
                head = json.loads(f.readline())
            clicked[name + '.jpg'] = clicks(head['corners'], size, head['width'], head['height'], a.clicks, seed)
    cj = os.path.join(photos, 'corners.json')
    if a.clicks is not None:
        with open(cj, 'w') as f:
            json.dump(clicked, f, indent=1)
    elif os.path.exists(cj):
        os.remove(cj)
    out = subprocess.run([goref, 'eval', photos], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.search(r'clicked corners: (\d+)/(\d+)', line)
        if line.startswith('total') or line.startswith('  ') or (line.startswith('/') and (
                'board right' not in line or (m and m.group(1) != m.group(2)))):
            print(line)


if __name__ == '__main__':
    main()
