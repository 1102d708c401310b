#!/usr/bin/env bash
# Renders games with goref-render and measures the frame pipeline and the
# referee on them with goref eval-video: the figures of README's "Video"
# section come from this script, run the same way every time.
#
# usage: samples/eval_video.sh [-b BUILD] [-o OUTDIR] [-n GAMES] [-j JOBS] [-m MIN_MOVES] [-s SEEDS] [-k] [SGF...]
#
#   -b BUILD      the build folder with goref and goref-render (default build)
#   -o OUTDIR     where the rendered games go (default /tmp/goref-eval-video);
#                 about 0.7 GB a game of 230 moves at 1280x720
#   -n GAMES      how many games (default 20)
#   -j JOBS       renders, then evaluations, at once (default 2)
#   -m MIN_MOVES  only games with at least this many moves (default 200)
#   -s SEEDS      add SEEDS to every game's seed (default 0): another set of
#                 games from the same records (other hands, light, camera
#                 and violations), to check that a figure holds beyond the
#                 games it was worked on
#   -k            keep games already rendered in OUTDIR (same recipe)
#   SGF...        the games (default: samples/game.sgf, the 19x19 GNU Go
#                 self-play games of tests/fixtures/selfplay, longest first,
#                 then samples/games/*.sgf)
#
# Game i (from 1) is rendered with --seed i (plus SEEDS) at 1280x720, 10 frames a second,
# with hands, noise and lens distortion, and:
#   --violations 3       on every game (the renderer picks what fits)
#   --light              on odd games (drifting light, a moving shadow band)
#   --bump 100           on every third game (the board knocked askew)
# then the games are evaluated by JOBS `goref eval-video --json` processes
# (each on one core: CPU time of its own thread); the per-game lines come in
# game order and the last line is the total over all of them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
out=/tmp/goref-eval-video
games=20
jobs=2
min=200
keep=0
seeds=0
while getopts "b:o:n:j:m:s:kh" opt; do
	case $opt in
	b) build=$OPTARG ;;
	o) out=$OPTARG ;;
	n) games=$OPTARG ;;
	j) jobs=$OPTARG ;;
	m) min=$OPTARG ;;
	s) seeds=$OPTARG ;;
	k) keep=1 ;;
	h) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
	args="--quiet --seed $((i + seeds)) --violations 3"
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
echo "rendered in $(($(date +%s) - start)) s; evaluating, $jobs at once (each on one core) ..." >&2
start=$(date +%s)
# JOBS eval-video processes, game i in group i % JOBS; each measures its own
# frames on its own core (CPU time of its thread). Their per-game lines come
# out in game order, then the total over all of them.
pids=()
for ((g = 0; g < jobs; g++)); do
	part=()
	for ((k = g; k < ${#dirs[@]}; k += jobs)); do part+=("${dirs[k]}"); done
	[ ${#part[@]} -eq 0 ] && continue
	"$goref" eval-video --json "${part[@]}" >"$out/eval.$g.jsonl" &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=2; done
for d in "${dirs[@]}"; do grep -h "\"game\":\"$d\"" "$out"/eval.*.jsonl; done
# the total: sums, the mean delay weighted by the moves it was measured on,
# ms a frame weighted by frames
grep -h '"game"' "$out"/eval.*.jsonl | awk '
	function num(k,   m) { if (match($0, "\"" k "\":[-0-9.]+")) { m = substr($0, RSTART, RLENGTH); sub(/.*:/, "", m); return m + 0 } return 0 }
	{ games++; f = num("frames"); frames += f; tm += num("true_moves"); mr += num("moves_right")
	  ex += num("extra_moves"); tr += num("true_rulings"); rf += num("rulings_found"); fr += num("false_rulings")
	  un += num("unexplained"); dsum += num("delay_mean") * num("moves_right")
	  if (num("delay_max") > dmax) dmax = num("delay_max"); ms += num("ms_per_frame") * f
	  if (num("ms_max") > msmax) msmax = num("ms_max"); rd += num("ms_read_per_frame") * f
	  if (num("moves_right") == num("true_moves") && num("extra_moves") == 0 && num("rulings_found") == num("true_rulings") && num("false_rulings") == 0) right++ }
	END { printf "{\"total\":{\"games\":%d,\"games_right\":%d,\"frames\":%d,\"true_moves\":%d,\"moves_right\":%d,\"extra_moves\":%d,\"true_rulings\":%d,\"rulings_found\":%d,\"false_rulings\":%d,\"unexplained\":%d,\"delay_mean\":%.3f,\"delay_max\":%.3f,\"ms_per_frame\":%.3f,\"ms_max\":%.3f,\"ms_read_per_frame\":%.3f}}\n",
	      games, right, frames, tm, mr, ex, tr, rf, fr, un, mr ? dsum / mr : 0, dmax, frames ? ms / frames : 0, msmax, frames ? rd / frames : 0 }'
echo "evaluated in $(($(date +%s) - start)) s" >&2
exit $status
