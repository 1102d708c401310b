#!/bin/sh
# Coloured light on renders (issue 11's "a classifier for any light"): the
# last positions of the six 19x19 self-play games s0201-s0206 of
# tests/fixtures/selfplay drawn by goref-render --last-only (no hands) under
# each light (--tint, each channel's gain), at the renderer's own tilt and
# at 35 degrees, and read as photos with `goref eval`, one folder a light.
# The renders were never looked at while the classifier was made: a check
# that holds out every constant.
#
#   samples/eval_tint.sh [-b BUILD] [-o OUTDIR]
#
# BUILD holds goref and goref-render (default build); OUTDIR (default
# /tmp/goref-eval-tint) keeps the renders (a light rendered there before is
# not rendered again). Prints goref eval's total for each light.
set -eu
cd "$(dirname "$0")/.."
. samples/lib_render_eval.sh
render_eval_opts /tmp/goref-eval-tint "[-b BUILD] [-o OUTDIR]" "$@"
# name, gains R,G,B, extra render options
lights='
white 1,1,1
violet 0.55,0.15,1
blue 0.03,0.45,1
orange 1,0.35,0.15
green 0.6,0.75,0.05
pink 1,0.02,0.45
violet35 0.55,0.15,1 --tilt 35
green35 0.6,0.75,0.05 --tilt 35
yellow35 1,0.8,0.2 --tilt 35
cyan35 0.03,0.8,0.75 --tilt 35
'
echo "$lights" | while read -r name gains extra; do
	[ -n "$name" ] || continue
	set=$out/$name
	if [ ! -f "$set/s6.txt" ]; then
		echo "rendering $name ..." >&2
		mkdir -p "$set"
		for s in 1 2 3 4 5 6; do
			d=$out/render/$name-$s
			# shellcheck disable=SC2086 # extra is a list of options
			"$build/goref-render" --quiet --seed $((s + 40)) --no-hands --fps 1 --last-only --tint "$gains" $extra \
				tests/fixtures/selfplay/19x19-s020$s.sgf "$d"
			cp "$(ls "$d"/*.jpg | tail -n 1)" "$set/s$s.jpg"
			grep -v '^@' "$d/truth.log" | tail -n 19 >"$set/s$s.txt"
		done
	fi
	printf '%-9s ' "$name"
	"$build/goref" eval "$set" | tail -n 1
done
