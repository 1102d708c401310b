#!/usr/bin/env bash
# Renders games of the kind the kept-back real videos show (a 320x240 webcam
# over a 9x9 area of a 19x19 board with white paper over the rest, the
# camera drifting by up to DRIFT pixels) and measures the frame pipeline and
# the referee on them with goref eval-video: the drift figures of README's
# issue 12 section come from this script, run the same way every time.
#
# usage: samples/eval_drift.sh [-b BUILD] [-o OUTDIR] [-n GAMES] [-s SEED] [-d DRIFT] [-N NOISE] [-m MOVES] [-z SIZE] [-l] [-t R,G,B] [-r OPTS] [-k]
#
#   -b BUILD   the build folder with goref and goref-render (default build)
#   -o OUTDIR  where the rendered games go (default /tmp/goref-eval-drift)
#   -n GAMES   how many games (default 8)
#   -s SEED    the first game's seed (default 201); game i has SEED + i - 1
#              and plays tests/fixtures/selfplay/9x9-s00NN.sgf, NN = 1 + (SEED + i - 1) % 10
#              (13x13: 13x13-s01NN.sgf, NN = 1 + (SEED + i - 1) % 8)
#   -d DRIFT   the camera's drift in pixels (default 12)
#   -N NOISE   the camera's grain: noise of this many grey levels a channel
#              (goref-render --noise; default 0, none)
#   -m MOVES   moves rendered a game (default 40)
#   -z SIZE    9 (default: 320x240, the 9x9 area of a 19x19 board under
#              paper) or 13 (a 13x13 board, 640x480, no paper)
#   -l         slowly changing light and a moving shadow band
#              (goref-render --light; default steady light)
#   -t R,G,B   a coloured light, each channel's gain (goref-render --tint;
#              e.g. 0.6,0.75,0.05 green; default white)
#   -r OPTS    more goref-render options, one word each (e.g. "--tilt 45
#              --stone-height 7 --board-thickness 30": a camera far from
#              straight down over stones and a board with height)
#   -k         keep games already rendered in OUTDIR (same recipe)
#
# Odd games are clean (no violation: a referee must rule nothing); even
# games have one violation, double_move or moved_stone in turn, after move
# 10 to 29 (9x9; 13x13: 10 to 39). The last line is eval-video's total over all games.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build out=/tmp/goref-eval-drift games=8 seed=201 drift=12 noise=0 moves=40 size=9 light=0 tint='' more='' keep=0
while getopts "b:o:n:s:d:N:m:z:lt:r:kh" opt; do
	case $opt in
	b) build=$OPTARG ;;
	o) out=$OPTARG ;;
	n) games=$OPTARG ;;
	s) seed=$OPTARG ;;
	d) drift=$OPTARG ;;
	N) noise=$OPTARG ;;
	m) moves=$OPTARG ;;
	z) size=$OPTARG ;;
	l) light=1 ;;
	t) tint=$OPTARG ;;
	r) more=$OPTARG ;;
	k) keep=1 ;;
	h) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 64 ;;
	esac
done
case $size in
9 | 13) ;;
*) echo "eval_drift.sh: -z takes 9 or 13" >&2; exit 64 ;;
esac
for b in "$build/goref" "$build/goref-render"; do
	if [ ! -x "$b" ]; then
		echo "eval_drift.sh: $b is missing: build first (cmake -S . -B $build && cmake --build $build)" >&2
		exit 2
	fi
done
mkdir -p "$out"
dirs=()
for i in $(seq 1 "$games"); do
	s=$((seed + i - 1))
	if [ "$size" -eq 9 ]; then
		sgf=$(printf '%s/tests/fixtures/selfplay/9x9-s%04d.sgf' "$here" $((1 + s % 10)))
		view="--width 320 --height 240 --board-lines 19 --paper"
		span=20
	else
		sgf=$(printf '%s/tests/fixtures/selfplay/13x13-s%04d.sgf' "$here" $((101 + s % 8)))
		view="--width 640 --height 480"
		span=30
	fi
	inj=()
	if [ $((i % 2)) -eq 0 ]; then
		kinds=(double_move moved_stone)
		inj=(--inject "${kinds[$(((i / 2) % 2))]}@$((10 + s % span))")
	fi
	d=$out/g$size-$s-d$drift-m$moves
	grain=""
	if [ "$noise" != 0 ]; then
		d=$d-n$noise
		grain=" --noise $noise"
	fi
	if [ "$light" -eq 1 ]; then
		d=$d-l
		grain="$grain --light"
	fi
	if [ -n "$tint" ]; then
		d=$d-t$tint
		grain="$grain --tint $tint"
	fi
	if [ -n "$more" ]; then
		d=$d-r$(echo "$more" | tr -d ' -')
		grain="$grain $more"
	fi
	recipe="--seed $s --moves $moves $view --drift $drift$grain ${inj[*]} $sgf"
	if [ "$keep" -eq 1 ] && [ -f "$d/recipe" ] && [ "$(cat "$d/recipe")" = "$recipe" ]; then
		dirs+=("$d")
		continue
	fi
	rm -rf "$d"
	# shellcheck disable=SC2086
	"$build/goref-render" --quiet $recipe "$d"
	echo "$recipe" > "$d/recipe"
	dirs+=("$d")
done
"$build/goref" eval-video --json --board "$size" "${dirs[@]}"
