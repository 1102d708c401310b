#!/usr/bin/env bash
# Renders games with goref-render and measures the frame pipeline and the
# referee on them with goref eval-video: the figures of README's "Video"
# section come from this script, run the same way every time.
#
# usage: samples/eval_video.sh [-b BUILD] [-o OUTDIR] [-n GAMES] [-j JOBS] [-m MIN_MOVES] [-k] [SGF...]
#
#   -b BUILD      the build folder with goref and goref-render (default build)
#   -o OUTDIR     where the rendered games go (default /tmp/goref-eval-video);
#                 about 0.7 GB a game of 230 moves at 1280x720
#   -n GAMES      how many games (default 20)
#   -j JOBS       renders at once (default 2)
#   -m MIN_MOVES  only games with at least this many moves (default 200)
#   -k            keep games already rendered in OUTDIR (same recipe)
#   SGF...        the games (default: samples/game.sgf, the 19x19 GNU Go
#                 self-play games of tests/fixtures/selfplay, longest first,
#                 then samples/games/*.sgf)
#
# Game i (from 1) is rendered with --seed i at 1280x720, 10 frames a second,
# with hands, noise and lens distortion, and:
#   --violations 3       on every game (the renderer picks what fits)
#   --light              on odd games (drifting light, a moving shadow band)
#   --bump 100           on every third game (the board knocked askew)
# then every game is evaluated in one `goref eval-video --json` run (one
# core), whose last line is the total.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
out=/tmp/goref-eval-video
games=20
jobs=2
min=200
keep=0
while getopts "b:o:n:j:m:kh" opt; do
	case $opt in
	b) build=$OPTARG ;;
	o) out=$OPTARG ;;
	n) games=$OPTARG ;;
	j) jobs=$OPTARG ;;
	m) min=$OPTARG ;;
	k) keep=1 ;;
	h) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 64 ;;
	esac
done
shift $((OPTIND - 1))
goref=$build/goref
render=$build/goref-render
for b in "$goref" "$render"; do
	if [ ! -x "$b" ]; then
		echo "eval_video.sh: $b is missing: build first (cmake -S . -B $build && cmake --build $build)" >&2
		exit 2
	fi
done
if [ $# -eq 0 ]; then
	set -- "$here/samples/game.sgf" $(for f in "$here"/tests/fixtures/selfplay/19x19-*.sgf; do
		echo "$(grep -o ';[BW]\[[a-s][a-s]\]' "$f" | wc -l) $f"
	done | sort -rn | awk '{print $2}') "$here"/samples/games/*.sgf
fi
# the games long enough
list=()
for f in "$@"; do
	n=$(grep -o ';[BW]\[[a-s][a-s]\]' "$f" | wc -l)
	if [ "$n" -ge "$min" ]; then list+=("$f"); fi
	[ "${#list[@]}" -ge "$games" ] && break
done
if [ "${#list[@]}" -lt "$games" ]; then
	echo "eval_video.sh: only ${#list[@]} games of $min moves or more (wanted $games); going on with those" >&2
fi
mkdir -p "$out"
jobsfile=$out/jobs.txt
: >"$jobsfile"
dirs=()
i=0
for f in "${list[@]}"; do
	i=$((i + 1))
	args="--quiet --seed $i --violations 3"
	[ $((i % 2)) -eq 1 ] && args="$args --light"
	[ $((i % 3)) -eq 0 ] && args="$args --bump 100"
	d=$out/game$(printf %02d $i)
	dirs+=("$d")
	recipe="$args $f"
	if [ "$keep" -eq 1 ] && [ -f "$d/recipe" ] && [ "$(cat "$d/recipe")" = "$recipe" ] && [ -f "$d/truth.jsonl" ]; then
		continue
	fi
	echo "$d|$recipe" >>"$jobsfile"
done
start=$(date +%s)
echo "rendering $(wc -l <"$jobsfile") game(s) into $out, $jobs at once ..." >&2
# shellcheck disable=SC2016
xargs -a "$jobsfile" -d '\n' -P "$jobs" -I{} bash -c '
	line=$1; d=${line%%|*}; recipe=${line#*|}
	rm -rf "$d"
	if '"$render"' $recipe "$d"; then echo "$recipe" >"$d/recipe"; echo "  rendered $d" >&2
	else echo "  FAILED: goref-render $recipe $d" >&2; exit 1; fi' _ {}
echo "rendered in $(($(date +%s) - start)) s; evaluating (one core) ..." >&2
start=$(date +%s)
"$goref" eval-video --json "${dirs[@]}"
echo "evaluated in $(($(date +%s) - start)) s" >&2
