#!/bin/sh
# A board on a floor of pale planks (bamboo), as bright as the board, whose
# seams are long straight lines at a random angle (goref-render --floor):
# renders the first 19x19 self-play game of tests/fixtures/selfplay to move
# 200 for each seed, no hands (only its last frame: --last-only, the same
# picture in a fraction of the time), and reads that frame as a photo with
# `goref eval` (its label: the last position of the render's truth.log).
#
#   samples/eval_floor.sh [--bamboo] [-b BUILD] [-o OUTDIR] [SEED...]   (default seeds 1-8)
#
# BUILD holds goref and goref-render (default build); OUTDIR (default
# /tmp/goref-eval-floor, with --bamboo /tmp/goref-eval-floor-bamboo) keeps
# the renders (a seed rendered there before is not rendered again) and set/
# the photos with their labels. --bamboo (first): the board of laminated
# bamboo (goref-render --bamboo), the scene else the same.
set -eu
cd "$(dirname "$0")/.."
. samples/lib_render_eval.sh
more='' default=/tmp/goref-eval-floor
if [ "${1:-}" = --bamboo ]; then
	more=--bamboo default=/tmp/goref-eval-floor-bamboo
	shift
fi
render_eval_opts $default "[--bamboo] [-b BUILD] [-o OUTDIR] [SEED...]" "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 1 2 3 4 5 6 7 8
game=$(ls tests/fixtures/selfplay/19x19-*.sgf | head -n 1)
mkdir -p "$out/set"
for seed in "$@"; do
	d=$out/s$seed
	if [ ! -f "$d/truth.log" ]; then
		echo "rendering seed $seed ..." >&2
		"$build/goref-render" --quiet --seed "$seed" --no-hands --fps 1 --moves 200 --floor $more --last-only "$game" "$d"
	fi
	cp "$(ls "$d"/*.jpg | tail -n 1)" "$out/set/s$seed.jpg"
	tail -n 19 "$d/truth.log" >"$out/set/s$seed.txt"
done
"$build/goref" eval "$out/set"
