#!/usr/bin/env python3
"""The stones' evenness of the boards goref eval found (issue 11).

A proved grid through which half its points or more read as stones must
lie on them: the discs round its points more even than half a cell off
(gv_stone_evenness, stonefit.h; GV_PROOF_EVEN_MIN in vision/tuning.h).
`goref eval --json` gives each board's measure as proof.evenness (0 where
it was not measured: fewer stones, or no proof). This reads such files and
prints, over the boards measured, the least evenness of those read right
(at most 3 points wrong) and every board found with more than 3 wrong,
with its evenness. Built with -DGV_PROOF_EVEN_MIN=0 the rule turns nothing
down, so the boards it would turn down show here too. README's figures for
the rule come from this script, run the same way every time:

    goref eval --json DIR > A.json ...   (one file per folder)
    python3 samples/evenness_table.py A.json B.json ...
"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: evenness_table.py EVAL.json ...")
    right, wrong, found = [], [], 0
    for path in sys.argv[1:]:
        try:
            with open(path) as f:
                photos = json.load(f)["photos"]
        except (OSError, ValueError, KeyError) as e:
            sys.exit("evenness_table.py: %s: %s" % (path, e))
        for p in photos:
            if not p.get("found"):
                continue
            found += 1
            e = p.get("proof", {}).get("evenness", 0)
            if e <= 0:
                continue
            bad = p["points"] - p["points_right"] - p.get("points_unknown", 0)
            (wrong if bad > 3 else right).append((e, bad, p["photo"]))
    print("boards found: %d; measured (half their points stones or more): %d" % (found, len(right) + len(wrong)))
    if right:
        right.sort()
        print("read right (at most 3 wrong): %d, evenness %.3f at least (%s), median %.3f"
              % (len(right), right[0][0], right[0][2], right[len(right) // 2][0]))
    for e, bad, photo in sorted(wrong):
        print("found with %d wrong: evenness %.3f  %s" % (bad, e, photo))


if __name__ == "__main__":
    main()
