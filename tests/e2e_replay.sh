#!/usr/bin/env bash
# End-to-end tests of goref replay: usage errors, bad sources, and the real
# webcam frames of ../shared/datasets/gomrade/testing_sequence (skipped,
# exit 77, when the dataset is absent): read one still frame at a time, they
# must come out as the moves of its game1.sgf.
# usage: e2e_replay.sh GOREF FIXTURES
set -u
goref=$1
fx=$2
. "$(dirname "$0")/lib_e2e.sh"

if ! "$goref" replay --help >/dev/null 2>&1; then
	echo "SKIP: this goref has no replay command (vision/ not built)"
	exit 77
fi

# --- usage and bad sources
run "no source" 64 "$goref" replay
run "unknown option" 64 "$goref" replay --frobnicate "$tmp"
run "raw without size" 64 "$goref" replay -
has "raw without size" err "--size"
run "raw bad format" 64 "$goref" replay --size 64x48 --format rgb32 -
run "bad rotate" 64 "$goref" replay --rotate 45 "$tmp"
run "missing folder" 2 "$goref" replay "$tmp/none"
has "missing folder" err "none"
mkdir "$tmp/empty"
run "empty folder" 2 "$goref" replay "$tmp/empty"
# raw frames with no board in them: no observation, no move, a clear message,
# exit 1 (as detect when it finds no board)
head -c $((64 * 48 * 3 * 5)) /dev/zero >"$tmp/black.rgb"
run "raw frames, no board" 1 "$goref" replay --size 64x48 - <"$tmp/black.rgb"
has "raw frames, no board" err "no board was found in 5 frames"
# a frame cut short
head -c $((64 * 48 * 3 + 100)) /dev/zero >"$tmp/short.rgb"
run "raw frame cut short" 2 "$goref" replay --size 64x48 - <"$tmp/short.rgb"
hasnt "raw frame cut short" err "stdin: stdin:"
hasnt "raw frame cut short" err "no board was found"
has "raw frame cut short" err "frame 1"

# --- the real webcam sequence
shared=${GOREF_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
seq=$shared/datasets/gomrade/testing_sequence
if [ ! -d "$seq" ]; then
	echo "$pass passed, $fail failed so far"
	echo "SKIP: the webcam sequence is not in $seq (see ../shared/datasets/README.md)"
	[ "$fail" -eq 0 ] || exit 1
	exit 77
fi
# The camera sits on White's side: --rotate 180 gives the players' view,
# the coordinates of game1.sgf.
run "sequence" 0 "$goref" replay --stills --rotate 180 --sgf "$tmp/seq.sgf" --log "$tmp/seq.log" \
	--events "$tmp/seq.jsonl" "$seq"
want=$(tr -d ' \n\r' <"$seq/game1.sgf" | grep -o ';[BW]\[[a-s][a-s]\]' | tr -d '\n')
got=$(tr -d ' \n\r' <"$tmp/seq.sgf" | grep -o ';[BW]\[[a-s][a-s]\]' | tr -d '\n')
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else
	bad "sequence: moves $got, expected game1.sgf's $want"
fi
has "sequence events" seq.jsonl '"type":"capture","color":"W","points":["D4"]'
has "sequence summary" seq.jsonl '"type":"summary","frames":12'
# the grid corners given by hand (fixtures/vision/corners.tsv): the same moves
hand=$(awk '$1 == "gomrade/testing_sequence/0.jpg" { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 }' "$fx/vision/corners.tsv")
run "sequence corners" 0 "$goref" replay --stills --rotate 180 --corners "$hand" --quiet --sgf "$tmp/hand.sgf" "$seq"
hgot=$(tr -d ' \n\r' <"$tmp/hand.sgf" | grep -o ';[BW]\[[a-s][a-s]\]' | tr -d '\n')
if [ "$hgot" = "$want" ]; then ok; else bad "sequence with --corners: moves $hgot, expected $want"; fi
run "sequence corners outside" 2 "$goref" replay --stills --corners 1,1,2000,1,2000,700,1,700 --quiet "$seq"
has "sequence corners outside" err "the corners given do not fit the 1280x720 frames"
run "corners not 8" 64 "$goref" replay --corners 1,2 "$seq"
# the log replays through the referee alone to the same moves
run "sequence log" 0 "$goref" referee --sgf "$tmp/again.sgf" --quiet "$tmp/seq.log"
again=$(tr -d ' \n\r' <"$tmp/again.sgf" | grep -o ';[BW]\[[a-s][a-s]\]' | tr -d '\n')
if [ "$again" = "$got" ]; then ok; else bad "the log's moves $again differ from replay's $got"; fi
e2e_done
