#!/usr/bin/env python3
"""The referee's order search on hostile observations (issue 17: any
observation answered in <= 50 ms on one core): CPU time of `goref referee`
on logs of one observation where N stones (2..16, both colours, the side to
move first) appear at once on a 19x19 board in mid-game, with or without an
earlier stone gone (then no order explains them and the search runs to its
budget), less the same log without that observation (which comes three times, for
the change to last: all three are counted as one, an upper bound). Prints, per N, the
median and the largest extra CPU time over the random observations.

    samples/bench_search.py [-b BUILD] [-n LOGS_PER_N]     (default build, 20)
"""
import argparse, os, random, resource, statistics, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument('-b', default='build')
ap.add_argument('-n', type=int, default=20)
a = ap.parse_args()
goref = os.path.join(a.b, 'goref')
if not os.access(goref, os.X_OK):
    sys.exit(f'{sys.argv[0]}: no {goref} (build first)')
N = 19
rnd = random.Random(17)


def board_text(b):
    return ''.join(''.join(b[y * N:(y + 1) * N]) + '\n' for y in range(N))


def cpu(path):
    """CPU seconds of goref referee on path (best of 3: the machine is shared)."""
    best = None
    for _ in range(3):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([goref, 'referee', '--quiet', path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        best = t if best is None else min(best, t)
    return best


tmp = tempfile.mkdtemp()
print(f'{"stones":>6} {"gone":>5} {"logs":>5} {"median_ms":>10} {"max_ms":>8}')
worst = 0.0
for n in (2, 4, 6, 8, 10, 12, 14, 16):
    for gone in (False, True):
        extra = []
        for k in range(a.n):
            # a mid-game board: 40 stones, alternating, Black first (Black to move)
            b = ['.'] * (N * N)
            pts = rnd.sample(range(N * N), 40 + n)
            for i, p in enumerate(pts[:40]):
                b[p] = 'X' if i % 2 == 0 else 'O'
            entries = []
            t = 1
            # the stones one by one, as moves
            cur = ['.'] * (N * N)
            for i, p in enumerate(pts[:40]):
                cur[p] = b[p]
                entries.append(f'@ {t}\n' + board_text(cur))
                t += 1
            base = '# bench_search\n' + ''.join(entries)
            hostile = list(cur)
            for i, p in enumerate(pts[40:]):
                hostile[p] = 'X' if i % 2 == 0 else 'O'
            if gone:
                hostile[pts[38]] = '.'  # an earlier Black stone gone, no capture
            log = base + ''.join(f'@ {t + j}\n' + board_text(hostile) for j in range(3))
            p0, p1 = os.path.join(tmp, 'base.log'), os.path.join(tmp, 'hostile.log')
            open(p0, 'w').write(base)
            open(p1, 'w').write(log)
            # three observations of it (the change must last): all three
            # counted as one, an upper bound for any of them
            extra.append(max(0.0, cpu(p1) - cpu(p0)) * 1000)
        worst = max(worst, max(extra))
        print(f'{n:>6} {"yes" if gone else "no":>5} {len(extra):>5} {statistics.median(extra):>10.2f} {max(extra):>8.2f}')
print(f'largest: {worst:.2f} ms an observation')
