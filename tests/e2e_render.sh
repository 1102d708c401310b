#!/usr/bin/env bash
# End-to-end test of goref-render (samples/render/): a short game rendered
# with violations injected; 'goref referee' on the ideal observation log it
# writes (truth.log) reports exactly the moves and rulings of truth.jsonl, at
# the same times; one frame per line of times.txt; the same seed gives the
# same bytes. Skips (77) when goref-render was not built (no vision/).
# usage: e2e_render.sh GOREF FIXTURES
set -u
goref=$1
fx=$2
. "$(dirname "$0")/lib_e2e.sh"
e2e_need_render

# One line per event: "T TYPE COLOR POINT TO POINTS", T with three decimals;
# a pass is a move at "pass"; a move's captures are left out. Only moves,
# passes and rulings (and anything the referee should never say here).
norm() {
	sed -E 's/"type":"pass","color":"(.)"/"type":"move","color":"\1","point":"pass"/' "$1" |
		grep -E '"type":"(move|double_move|missed_capture|wrong_removal|takeback|moved_stone|disturbed|illegal|ambiguous|unexplained|error|result)"' |
		sed -E 's/^\{"t":([0-9.]+),"type":"([a-z_]+)"/\1 \2 |/; s/\|,"color":"([BW])"/\1 |/; s/\|,"point":"([^"]*)"/\1 |/; s/\|,"to":"([^"]*)"/\1 |/; s/\|,"points":\[([^]]*)\]/\1 |/; s/ *\|.*//' |
		awk '{ if ($2 == "move") printf "%.3f %s %s %s\n", $1, $2, $3, $4; else { $1 = sprintf("%.3f", $1); print } }'
}

# --- a short game with three violations, small frames
out=$tmp/r1
run "render" 0 "$render" --quiet --seed 7 --moves 30 --width 640 --height 360 \
	--inject double_move@7,takeback@14,moved_stone@22 "$game" "$out"
for f in times.txt truth.jsonl truth.log game.sgf 000000.jpg; do
	if [ -s "$out/$f" ]; then ok; else bad "render: no $f"; fi
done
frames=$(ls "$out" | grep -c '\.jpg$')
lines=$(grep -vc '^#' "$out/times.txt")
if [ "$frames" -gt 300 ] && [ "$frames" -eq "$lines" ]; then ok; else bad "render: $frames frames, $lines lines in times.txt"; fi
if diff <(ls "$out" | grep '\.jpg$') <(grep -v '^#' "$out/times.txt" | cut -d' ' -f1) >/dev/null; then ok; else
	bad "render: frame names differ from times.txt"
fi
has "render header" r1/truth.jsonl '"type":"render","seed":7'
has "render corners" r1/truth.jsonl '"corners":['

run "referee truth.log" 0 "$goref" referee "$out/truth.log"
cp "$tmp/out" "$tmp/events"
norm "$out/truth.jsonl" >"$tmp/want"
norm "$tmp/events" >"$tmp/got"
if diff "$tmp/want" "$tmp/got" >"$tmp/diff"; then ok; else
	bad "referee on truth.log differs from truth.jsonl (want <, got >)"
	head -20 "$tmp/diff" | sed 's/^/    /'
fi
if [ "$(grep -c ' move ' "$tmp/want")" -eq 30 ]; then ok; else bad "truth: not 30 moves"; fi
for k in double_move takeback moved_stone; do
	if grep -q " $k " "$tmp/got"; then ok; else bad "referee: no $k"; fi
done
hasnt "no second warning" events '"warnings":2'
# game.sgf holds the 30 moves rendered, and they are legal
run "game.sgf" 0 "$goref" check "$out/game.sgf"
if [ "$(tr -d ' \n' <"$out/game.sgf" | grep -o ';[BW]\[' | wc -l)" -eq 30 ]; then ok; else bad "game.sgf: not 30 moves"; fi

# --- the same seed gives the same bytes; another seed does not
run "same seed a" 0 "$render" --quiet --seed 3 --moves 3 --width 320 --height 180 "$game" "$tmp/a"
run "same seed b" 0 "$render" --quiet --seed 3 --moves 3 --width 320 --height 180 "$game" "$tmp/b"
run "other seed" 0 "$render" --quiet --seed 4 --moves 3 --width 320 --height 180 "$game" "$tmp/c"
same=1
for f in "$tmp/a"/*; do cmp -s "$f" "$tmp/b/$(basename "$f")" || same=0; done
[ "$(ls "$tmp/a" | wc -l)" -eq "$(ls "$tmp/b" | wc -l)" ] || same=0
if [ "$same" -eq 1 ]; then ok; else bad "same seed: files differ"; fi
if cmp -s "$tmp/a/000000.jpg" "$tmp/c/000000.jpg"; then bad "other seed: same first frame"; else ok; fi
# --last-only: the one last frame, the same bytes as drawn with all the others
# (a wobbling camera and drifting light too: their state is carried, not drawn)
run "last only" 0 "$render" --quiet --seed 3 --moves 3 --width 320 --height 180 --last-only "$game" "$tmp/l"
run "last only, all" 0 "$render" --quiet --seed 3 --moves 3 --width 320 --height 180 --drift 6 --light "$game" "$tmp/la"
run "last only, drift" 0 "$render" --quiet --seed 3 --moves 3 --width 320 --height 180 --drift 6 --light --last-only "$game" "$tmp/ld"
last=$(ls "$tmp/a" | grep '\.jpg$' | tail -n 1)
if [ "$(ls "$tmp/l" | grep -c '\.jpg$')" -eq 1 ] && cmp -s "$tmp/a/$last" "$tmp/l/$last" &&
	cmp -s "$tmp/la/$last" "$tmp/ld/$last" && cmp -s "$tmp/a/times.txt" "$tmp/l/times.txt"; then ok; else
	bad "--last-only: not the same last frame ($last)"
fi

# --- a coloured light (--tint): each channel by its gain, the blue of a
# lamp with none of it nearly gone, red and green as in white light; bad
# gains refused
means() { # FILE: the mean of each channel of raw RGB frames
	od -An -v -tu1 -w3 "$1" | awk '{ r += $1; g += $2; b += $3 } END { printf "%d %d %d", r / NR, g / NR, b / NR }'
}
run "white light" 0 "$render" --quiet --seed 3 --moves 3 --width 160 --height 90 --no-hands --last-only --format rgb24 "$game" "$tmp/tw"
run "tinted light" 0 "$render" --quiet --seed 3 --moves 3 --width 160 --height 90 --no-hands --last-only --format rgb24 \
	--tint 1,1,0.1 "$game" "$tmp/tt"
read -r wr wg wb <<<"$(means "$tmp/tw/frames.rgb")"
read -r tr tg tb <<<"$(means "$tmp/tt/frames.rgb")"
if [ "$wb" -gt 20 ] && [ $((tb * 5)) -lt "$wb" ] && [ $((tr - wr)) -le 1 ] && [ $((wr - tr)) -le 1 ] &&
	[ $((tg - wg)) -le 1 ] && [ $((wg - tg)) -le 1 ]; then ok; else
	bad "--tint 1,1,0.1: channel means $tr $tg $tb against $wr $wg $wb in white light"
fi
run "tint of two gains" 2 "$render" --tint 1,1 "$game" "$tmp/tx"
run "tint over 2" 2 "$render" --tint 1,1,3 "$game" "$tmp/tx"

# --- random violations, passes, PNG, no hands
run "violations" 0 "$render" --quiet --no-hands --format png --seed 2 --violations 2 --width 160 --height 90 \
	"$game" "$tmp/v"
if [ -s "$tmp/v/000000.png" ]; then ok; else bad "violations: no PNG frame"; fi
run "referee violations" 0 "$goref" referee "$tmp/v/truth.log"
cp "$tmp/out" "$tmp/vevents"
norm "$tmp/v/truth.jsonl" >"$tmp/want"
norm "$tmp/vevents" >"$tmp/got"
if diff "$tmp/want" "$tmp/got" >"$tmp/diff"; then ok; else
	bad "violations: referee differs from truth.jsonl (want <, got >)"
	head -20 "$tmp/diff" | sed 's/^/    /'
fi
if [ "$(grep -cvE ' (move) ' "$tmp/want")" -eq 2 ]; then ok; else bad "violations: not 2 rulings in truth"; fi
has "passes" v/truth.log "pass"

# --- errors
run "help" 0 "$render" --help
has "help" out "--inject"
run "unknown option" 2 "$render" --frobnicate "$game" "$tmp/x"
has "unknown option" err "unknown option"
run "missing sgf" 1 "$render" "$tmp/nothing.sgf" "$tmp/x"
has "missing sgf" err "cannot read"
printf '(;SZ[19];B[zz' >"$tmp/bad.sgf"
run "bad sgf" 1 "$render" "$tmp/bad.sgf" "$tmp/x"
touch "$tmp/file"
run "outdir a file" 1 "$render" --moves 1 "$game" "$tmp/file"
has "outdir a file" err "cannot write"
run "bad inject" 2 "$render" --inject nonsense@3 "$game" "$tmp/x"
run "inject does not fit" 1 "$render" --inject missed_capture@3 --moves 10 "$game" "$tmp/x"
has "inject does not fit" err "captures nothing"
run "two warnings" 1 "$render" --inject double_move@3,takeback@5 --moves 10 "$game" "$tmp/x"
has "two warnings" err "second warning"

e2e_done
