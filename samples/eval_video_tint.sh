#!/bin/sh
# Coloured light on rendered video (issue 12 under issue 11's lights): eight
# games a light of samples/eval_drift.sh's kind (a 9x9 area of a 19x19 board
# under paper at 320x240, the camera drifting by up to 12 px; half the games
# with one violation), under white light and eight coloured or dim ones, and
# two lights over 13x13 boards at 640x480; each set measured with goref
# eval-video. The seeds (9601 on) were first rendered and measured on the
# build before the changes of 2026-12-06 that these figures are quoted for
# (README, issue 12: coloured light): they were never looked at while those
# changes were made.
#
#   samples/eval_video_tint.sh [-b BUILD] [-o OUTDIR]
#
# BUILD holds goref and goref-render (default build); OUTDIR (default
# /tmp/goref-eval-video-tint) keeps the renders (eval_drift.sh -k: a game
# rendered there before is not rendered again). Prints, for each light, the
# games entirely right, moves right, violations ruled and false rulings, and
# the same over all lights.
set -eu
cd "$(dirname "$0")/.."
. samples/lib_render_eval.sh
render_eval_opts /tmp/goref-eval-video-tint "[-b BUILD] [-o OUTDIR]" "$@"
# name, gains R,G,B, first seed, board (9: under paper at 320x240; 13)
lights='
white 1,1,1 9601 9
green 0.6,0.75,0.05 9611 9
violet 0.55,0.15,1 9621 9
blue 0.03,0.45,1 9631 9
orange 1,0.35,0.15 9641 9
pink 1,0.02,0.45 9651 9
dim 0.4,0.4,0.4 9661 9
yellow 1,0.8,0.2 9671 9
cyan 0.03,0.8,0.75 9681 9
orange13 1,0.35,0.15 9691 13
pink13 1,0.02,0.45 9701 13
'
# a field of eval-video's JSON total line
field() {
	printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"
}
echo "$lights" | {
	g=0 gr=0 m=0 mr=0 r=0 rf=0 f=0
	while read -r name gains seed size; do
		[ -n "$name" ] || continue
		echo "$name ..." >&2
		line=$(bash samples/eval_drift.sh -b "$build" -o "$out/$name" -k -n 8 -s "$seed" -d 12 -z "$size" \
			-t "$gains" | tail -n 1)
		case $line in
		'{"total":'*) ;;
		*) echo "$0: $name: eval_drift.sh gave no total: $line" >&2; exit 1 ;;
		esac
		set -- "$(field games "$line")" "$(field games_right "$line")" "$(field true_moves "$line")" \
			"$(field moves_right "$line")" "$(field true_rulings "$line")" "$(field rulings_found "$line")" \
			"$(field false_rulings "$line")"
		printf '%-9s games %s of %s right, moves %s of %s, violations ruled %s of %s, false rulings %s\n' \
			"$name" "$2" "$1" "$4" "$3" "$6" "$5" "$7"
		g=$((g + $1)) gr=$((gr + $2)) m=$((m + $3)) mr=$((mr + $4)) r=$((r + $5)) rf=$((rf + $6)) f=$((f + $7))
	done
	printf '%-9s games %s of %s right, moves %s of %s, violations ruled %s of %s, false rulings %s\n' \
		all "$gr" "$g" "$mr" "$m" "$rf" "$r" "$f"
}
