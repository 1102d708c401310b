#!/usr/bin/env bash
# End-to-end tests of the bounds of issue 17 (README "Bounds"):
#  - a photo over the working size (GV_WORK_SIDE, 4096 a side) is read
#    shrunk: detect finds the same board as on the same scene drawn at half
#    the size, its corners in the photo's own pixels (twice the other's);
#  - frames over the largest a source takes (4096 a side) are refused with
#    the size and the bound named: raw frames on stdin, a folder's photo;
#  - a journal over 64 MB is refused by watch with --new named, and kept.
# (SIGTERM: tests/e2e_signal.sh.)
# Skips (77) when goref-render was not built (no vision/).
# usage: e2e_bounds.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"
e2e_need_render

# --- detect over the working size: the same board, corners in its pixels
run "render small" 0 "$render" --quiet --seed 4 --moves 2 --no-hands --fps 1 --width 2400 --height 1350 "$game" "$tmp/s"
run "render large" 0 "$render" --quiet --seed 4 --moves 2 --no-hands --fps 1 --width 4800 --height 2700 "$game" "$tmp/l"
last=$(tail -1 "$tmp/s/times.txt" | cut -d' ' -f1)
"$goref" detect --json "$tmp/s/$last" >"$tmp/small.json" 2>"$tmp/err" || bad "detect on the 2400x1350 frame: $(cat "$tmp/err")"
"$goref" detect --json "$tmp/l/$last" >"$tmp/large.json" 2>"$tmp/err" || bad "detect on the 4800x2700 frame: $(cat "$tmp/err")"
diag() { grep -o '"diagram":\[[^]]*\]' "$1"; }
corners() { grep -o '"corners":\[[^a-z]*\]\]' "$1" | tr -d '[]"a-z:' | tr ',' ' '; }
if [ -n "$(diag "$tmp/small.json")" ] && [ "$(diag "$tmp/small.json")" = "$(diag "$tmp/large.json")" ]; then ok; else
	bad "detect: another board at 4800x2700 than at 2400x1350"
fi
read -r -a cs <<<"$(corners "$tmp/small.json")"
read -r -a cl <<<"$(corners "$tmp/large.json")"
worst=$(awk -v s="${cs[*]}" -v l="${cl[*]}" 'BEGIN { n = split(s, a, " "); split(l, b, " "); w = (n == 8 ? 0 : 999)
	for (k = 1; k <= n; k++) { d = b[k] - 2 * a[k]; if (d < 0) d = -d; if (d > w) w = d } print w }')
# the same grid found in a picture read at 3/4 of 4800 (3600): within 4 px
if awk -v w="$worst" 'BEGIN { exit !(w <= 4) }'; then ok; else
	bad "detect at 4800x2700: corners ${cl[*]}, not twice ${cs[*]} (off by $worst px)"
fi

# --- frames over the largest a source takes
printf 'x' | "$goref" replay --quiet --size 4097x100 - >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st -eq 64 ]; then ok; else bad "replay --size 4097x100: exit $st, expected 64"; fi
has "raw over the bound" err "4097x100 is over the largest frame"
mkdir -p "$tmp/huge"
cp "$tmp/l/$last" "$tmp/huge/0.jpg"
run "replay a 4800x2700 folder" 2 "$goref" replay --quiet "$tmp/huge"
has "folder frame over the bound" err "4800x2700, over the largest frame"

# --- a journal over 64 MB: refused, kept, --new named
head -c 67108865 /dev/zero | tr '\0' '#' >"$tmp/big.log"
run "watch on a journal over the bound" 2 "$goref" watch --device "$tmp/s" --journal "$tmp/big.log" \
	--sgf "$tmp/big.sgf" --events "$tmp/big.jsonl" --quiet
has "journal over the bound" err "over the bound of 67108864"
has "journal over the bound" err "--new"
if [ "$(stat -c %s "$tmp/big.log")" = 67108865 ]; then ok; else bad "the journal over the bound was changed"; fi

e2e_done
