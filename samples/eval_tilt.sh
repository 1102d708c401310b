#!/bin/sh
# A camera far from straight down (issue 11: "the camera up to about 60
# degrees from straight down"): the last positions of six self-play games of
# each size (9x9, 13x13 and 19x19 of tests/fixtures/selfplay) drawn by
# goref-render --last-only (no hands) with stones 7 mm high (--stone-height:
# their tops stand above their points and hide the lines behind them) and
# the camera tilted 40, 50 and 60 degrees from the vertical, at 1280x720,
# two webcam sets at 640x480 and three boards with thickness (30 mm, a table
# board; 150 mm, a floor board: their sides show beside their tops); read as
# photos with `goref eval`, one folder a set. The renders' seeds (101-106)
# were first drawn after the rule they check was made (GV_OUTLINE_OFF_ASYM,
# found on a render of seed 74) and the renderer's framing within the
# width: held out for them.
#
#   samples/eval_tilt.sh [-b BUILD] [-o OUTDIR]
#
# BUILD holds goref and goref-render (default build); OUTDIR (default
# /tmp/goref-eval-tilt) keeps the renders (a set rendered there before is not
# rendered again). Prints goref eval's total for each set.
set -eu
cd "$(dirname "$0")/.."
. samples/lib_render_eval.sh
render_eval_opts /tmp/goref-eval-tilt "[-b BUILD] [-o OUTDIR]" "$@"
# name, board size, tilt, extra render options
sets='
9x9-40 9 40
9x9-50 9 50
9x9-60 9 60
13x13-40 13 40
13x13-50 13 50
13x13-60 13 60
19x19-40 19 40
19x19-50 19 50
19x19-60 19 60
13x13-60-640 13 60 --width 640 --height 480
19x19-50-640 19 50 --width 640 --height 480
9x9-50-thick 9 50 --board-thickness 30
19x19-50-thick 19 50 --board-thickness 30
19x19-40-goban 19 40 --board-thickness 150
'
echo "$sets" | while read -r name size tilt extra; do
	[ -n "$name" ] || continue
	set=$out/$name
	if [ ! -f "$set/s6.txt" ]; then
		echo "rendering $name ..." >&2
		mkdir -p "$set"
		s=0
		for game in $(ls tests/fixtures/selfplay/"$size"x"$size"-*.sgf | head -n 6); do
			s=$((s + 1))
			d=$out/render/$name-$s
			# shellcheck disable=SC2086 # extra is a list of options
			"$build/goref-render" --quiet --seed $((s + 100)) --no-hands --fps 1 --last-only --tilt "$tilt" \
				--stone-height 7 $extra "$game" "$d"
			cp "$(ls "$d"/*.jpg | tail -n 1)" "$set/s$s.jpg"
			grep -v '^@' "$d/truth.log" | tail -n "$size" >"$set/s$s.txt"
		done
	fi
	printf '%-13s ' "$name"
	"$build/goref" eval "$set" | tail -n 1
done
