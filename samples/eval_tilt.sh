#!/bin/sh
# A camera far from straight down (issue 11: "the camera up to about 60
# degrees from straight down"): the last positions of six self-play games of
# each size (9x9, 13x13 and 19x19 of tests/fixtures/selfplay) drawn by
# goref-render --last-only (no hands) with the camera tilted 40, 50 and 60
# degrees from the vertical, and read as photos with `goref eval`, one folder
# a size and tilt. The renders' seeds (101-106) were first drawn after the
# rule they check was made (GV_SHIFT_OUTLINE_ASYM, found on a render of
# seed 74): held out for it.
#
#   samples/eval_tilt.sh [-b BUILD] [-o OUTDIR]
#
# BUILD holds goref and goref-render (default build); OUTDIR (default
# /tmp/goref-eval-tilt) keeps the renders (a set rendered there before is not
# rendered again). Prints goref eval's total for each set. The stones are
# drawn flat on the board (the renderer has no stone height), so this checks
# the grid's finding and proof at a slant more than the stones' reading.
set -eu
cd "$(dirname "$0")/.."
. samples/lib_render_eval.sh
render_eval_opts /tmp/goref-eval-tilt "[-b BUILD] [-o OUTDIR]" "$@"
for size in 9 13 19; do
	games=$(ls tests/fixtures/selfplay/"$size"x"$size"-*.sgf | head -n 6)
	for tilt in 40 50 60; do
		set=$out/${size}x$size-$tilt
		if [ ! -f "$set/s6.txt" ]; then
			echo "rendering ${size}x$size at $tilt degrees ..." >&2
			mkdir -p "$set"
			s=0
			for game in $games; do
				s=$((s + 1))
				d=$out/render/${size}x$size-$tilt-$s
				"$build/goref-render" --quiet --seed $((s + 100)) --no-hands --fps 1 --last-only --tilt "$tilt" \
					"$game" "$d"
				cp "$(ls "$d"/*.jpg | tail -n 1)" "$set/s$s.jpg"
				grep -v '^@' "$d/truth.log" | tail -n "$size" >"$set/s$s.txt"
			done
		fi
		printf '%-9s ' "${size}x$size-$tilt"
		"$build/goref" eval "$set" | tail -n 1
	done
done
