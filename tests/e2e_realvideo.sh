#!/usr/bin/env bash
# End-to-end test of goref replay on real webcam video: the 98 frames of a
# 9x9 game in ../shared/datasets/video-9x9-table (640x480, frames seconds
# apart, sunlight changing, a finger once), against its hand labels (every
# distinct position in order). Skipped (exit 77) when the dataset is absent.
# Prints the observations against the labels and the rulings against the
# irregularities the dataset's README names; holds the figures reached now.
# usage: e2e_realvideo.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"

if ! "$goref" replay --help >/dev/null 2>&1; then
	echo "SKIP: this goref has no replay command (vision/ not built)"
	exit 77
fi
shared=${GOREF_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
v=$shared/datasets/video-9x9-table
if [ ! -f "$v/labels.txt" ] || [ ! -d "$v/frames" ]; then
	echo "SKIP: the real video is not in $v (see ../shared/datasets/README.md)"
	exit 77
fi

# observe FRAMES: replays the frames (their times.txt beside them) into
# $tmp/game.log and $tmp/events.jsonl, and sets nlab, nobs, inorder and
# never against the labels
observe() {
	run "replay $1" 0 "$goref" replay --board 9 --quiet --log "$tmp/game.log" --events "$tmp/events.jsonl" "$1"
	# positions as one line of 81 characters: the labels (with their frames'
	# times) and the observations of the log (diagram lines after "@ T")
	awk 'NR == FNR { t[$1] = $2; next }
		/^@ / { if (pos != "") print when, pos; when = t[$2]; pos = ""; next }
		NF { pos = pos $1 }
		END { if (pos != "") print when, pos }' "$1/times.txt" "$v/labels.txt" >"$tmp/labels"
	awk '/^@ / { if (pos != "" && length(pos) == 81) print when, pos; pos = ""; when = (NF == 2 ? $2 : ""); next }
		/^#/ { next }
		when != "" && NF { pos = pos $1 }
		END { if (pos != "" && length(pos) == 81) print when, pos }' "$tmp/game.log" >"$tmp/observed"
	nlab=$(wc -l <"$tmp/labels")
	nobs=$(wc -l <"$tmp/observed")
	# labelled positions observed in order: the longest run of observations
	# that matches labelled positions in their order (a longest common
	# subsequence: a position the game comes back to, a stone lifted and put
	# back, is matched where it belongs), and observations of no labelled
	# position
	read -r inorder never <<<"$(awk 'NR == FNR { lab[++n] = $2; seen[$2] = 1; next }
		{ o[++m] = $2; if (!($2 in seen)) never++ }
		END {
			for (i = 0; i <= m; i++) L[i, 0] = 0
			for (k = 0; k <= n; k++) L[0, k] = 0
			for (i = 1; i <= m; i++)
				for (k = 1; k <= n; k++)
					if (o[i] == lab[k]) L[i, k] = L[i - 1, k - 1] + 1
					else L[i, k] = L[i - 1, k] > L[i, k - 1] ? L[i - 1, k] : L[i, k - 1]
			print L[m, n] + 0, never + 0
		}' "$tmp/labels" "$tmp/observed")"
}

observe "$v/frames"
echo "real video: $nobs observations; $inorder of $nlab labelled positions observed in order; $never observations of a position never labelled"
rulings=$(grep -v '"type":"\(move\|capture\|summary\|count\|restored\|lifted\)"' "$tmp/events.jsonl" |
	sed 's/.*"t":\([0-9.]*\),"type":"\([a-z_]*\)".*/\1 \2/' | tr '\n' ';')
echo "rulings (time type): $rulings"
echo "the dataset's README names: a takeback 358-361 s, two stones lifted and put back 3207-3226 s, Black twice in a row 3117 and 3149 s"

# the rulings against the named irregularities: the takeback (its stone is
# off from 361 s; the next frame that agrees is 372 s), Black's second move
# in a row (3117 s, again 3149 s); nothing else but their warnings, the
# loss by a second warning, and the board's return ("restored"). The two
# stones lifted at 3207 s come after Black's second warning (3149 s) has
# ended the game (article 24.2: the referee judges nothing after a result;
# the same log with that position seen twice rules nothing either), and
# they are back in the next frame (3226 s): that irregularity goes unruled,
# as README says.
has_ruling() { # TYPE FROM TO
	grep -q "\"t\":\($(seq -s '\|' "$2" "$3")\)\(\.[0-9]*\)\?,\"type\":\"$1\"" "$tmp/events.jsonl"
}
if has_ruling takeback 358 400; then ok; else bad "no takeback ruled between 358 and 400 s"; fi
if has_ruling double_move 3117 3149; then ok; else bad "no double move ruled between 3117 and 3149 s"; fi
others=$(grep -v '"type":"\(move\|capture\|summary\|count\|restored\|lifted\|takeback\|double_move\|warning\|result\)"' "$tmp/events.jsonl" | wc -l)
if [ "$others" -eq 0 ]; then ok; else bad "$others rulings of no named irregularity: $(grep -v '"type":"\(move\|capture\|summary\|count\|restored\|lifted\|takeback\|double_move\|warning\|result\)"' "$tmp/events.jsonl" | head -3)"; fi

# reached on 2026-12-01 (drift followed, light judged locally, new stones
# judged against their colour's own, unsure changes held): 43 of 44 in
# order; on 2026-12-02 44 of 44 (the first frame, a plain empty board, is
# an observation by itself: GV_EMPTY_START_CONF); no observation of a
# position never labelled
MIN_IN_ORDER=44
MAX_NEVER=0
if [ "$nlab" -eq 44 ]; then ok; else bad "labels: $nlab positions, expected 44"; fi
if [ "$inorder" -ge "$MIN_IN_ORDER" ]; then ok; else bad "$inorder labelled positions observed in order (at least $MIN_IN_ORDER)"; fi
if [ "$never" -le "$MAX_NEVER" ]; then ok; else bad "$never observations of a position never labelled (at most $MAX_NEVER)"; fi

# The kept-back games' kind (issue 12): few pixels a cell and a camera that
# moves by most of a cell between frames seconds apart. The frames shrunk
# to 160x120 by the decoder (13 px a cell), given a 40 px margin, and each
# shifted by up to 12 px (0.9 cell; samples/shift_frames.py, seeds 1 and
# 2), as samples/eval_lowres.sh does. Reached on 2026-12-03 once the grid
# in use is followed where the locator loses it (gv_track_grid) and frames
# seconds apart are searched at every reading: 42 and 43 of 44 in order
# (37 and 36 before either; seed 2 40 with the follower alone), no
# observation of a position never labelled; the double move still ruled.
here=$(cd "$(dirname "$0")/.." && pwd)
if command -v djpeg >/dev/null && command -v cjpeg >/dev/null && command -v python3 >/dev/null; then
	mkdir -p "$tmp/small"
	for f in "$v"/frames/*.jpg; do
		djpeg -scale 1/4 "$f" | cjpeg -quality 90 >"$tmp/small/$(basename "$f")"
	done
	cp "$v/frames/times.txt" "$tmp/small/"
	for sm in 1:42 2:43; do
		seed=${sm%:*} min=${sm#*:}
		python3 "$here/samples/shift_frames.py" "$tmp/small" "$tmp/shifted$seed" 12 "$seed" --pad 40 >/dev/null
		observe "$tmp/shifted$seed"
		echo "the same at 160x120, shifted by up to 12 px (seed $seed): $nobs observations; $inorder of $nlab in order; $never never labelled"
		if [ "$inorder" -ge "$min" ]; then ok; else bad "shifted, seed $seed: $inorder labelled positions observed in order (at least $min)"; fi
		if [ "$never" -le 0 ]; then ok; else bad "shifted, seed $seed: $never observations of a position never labelled (at most 0)"; fi
		if has_ruling double_move 3117 3149; then ok; else bad "shifted, seed $seed: no double move ruled between 3117 and 3149 s"; fi
	done
	# A camera that moves the board partly out of the frame: the frames at
	# 320x240 (djpeg 1/2, 26 px a cell), with no margin added, shifted by up
	# to 20 px (seed 2): the top row (H9's stone 14 px from the frame's top)
	# goes beyond the frame now and then. Reached on 2026-12-03 once a grid
	# that reaches beyond the frame is read on the points inside it, those
	# beyond held as last seen (gv_classify_features_within): 43 of 44 in
	# order (41 before: every grid found there was refused, and the readings
	# through the old one were hidden), the named rulings only.
	mkdir -p "$tmp/half"
	for f in "$v"/frames/*.jpg; do
		djpeg -scale 1/2 "$f" | cjpeg -quality 90 >"$tmp/half/$(basename "$f")"
	done
	cp "$v/frames/times.txt" "$tmp/half/"
	# With seed 3 a finger over the top edge at 709 s comes back into the
	# frame with the board, over margin squares that were beyond it (no
	# look of their own to tell it by), its tip read as a white stone at E9:
	# a false double move until 2026-12-03, when such squares beside a new
	# stone came to be judged by their neighbours' look (41 of 44 in order
	# and 4 never labelled before; 41 and 2 after). Shifted by up to 15 px
	# with seed 2, the takeback's first frame (358 s) was no observation
	# until the same day: H9's stone, back in the frame, read empty unsurely
	# (held as last seen) beside a margin square whose look had moved with
	# the grid, and the square was taken for a hand over H9 (41 of 44, no
	# takeback ruled, before; 42 and the takeback after). No double move
	# before 3117 s, the takeback ruled, and the figures held where they
	# are now. The observations of positions never labelled (20 px seed 3:
	# 3248 and 3251 s; 15 px seed 2: 3248 s; all after the result): a
	# white stone placed on the top row while it lay beyond the frame,
	# then a black one in view, read as Black's two moves with White's
	# missing. Since 2026-12-07 the loop withholds a position that changed
	# while points lay beyond the frame until they are seen again, and
	# drops it where they came back with a stone of the side to move and
	# it is no plain move of its own (device/session/withhold.h): none.
	for pspm in 20:2:43:0 20:3:41:0 15:2:42:0; do
		px=${pspm%%:*} rest=${pspm#*:}
		seed=${rest%%:*} rest=${rest#*:}
		min=${rest%:*} maxnever=${rest#*:}
		run="$px px, seed $seed"
		python3 "$here/samples/shift_frames.py" "$tmp/half" "$tmp/beyond$px-$seed" "$px" "$seed" >/dev/null
		observe "$tmp/beyond$px-$seed"
		echo "the same at 320x240, shifted by up to $run, no margin: $nobs observations; $inorder of $nlab in order; $never never labelled"
		if [ "$inorder" -ge "$min" ]; then ok; else bad "beyond the frame, $run: $inorder labelled positions observed in order (at least $min)"; fi
		if [ "$never" -le "$maxnever" ]; then ok; else bad "beyond the frame, $run: $never observations of a position never labelled (at most $maxnever)"; fi
		if has_ruling takeback 358 400; then ok; else bad "beyond the frame, $run: no takeback ruled between 358 and 400 s"; fi
		if has_ruling double_move 3117 3149; then ok; else bad "beyond the frame, $run: no double move ruled between 3117 and 3149 s"; fi
		early=$(sed -n 's/.*"t":\([0-9.]*\),"type":"double_move".*/\1/p' "$tmp/events.jsonl" | awk '$1 < 3117' | tr '\n' ' ')
		if [ -z "$early" ]; then ok; else bad "beyond the frame, $run: a double move ruled at $early s (none before 3117 s)"; fi
		others=$(grep -cv '"type":"\(move\|capture\|summary\|count\|restored\|lifted\|takeback\|double_move\|warning\|result\)"' "$tmp/events.jsonl")
		if [ "$others" -eq 0 ]; then ok; else bad "beyond the frame, $run: $others rulings of no named irregularity"; fi
	done
	# A grainy camera: the same frames at 320x240 shifted by up to 15 px
	# (seed 1) with noise of sigma 10 a channel (shift_frames.py --noise).
	# The lattice fitted to the grain's ridges moved from reading to
	# reading, margin squares read hidden and a false "disturbed" was ruled
	# (36 of 44 in order, 3 never labelled) until 2026-12-05, when a grainy
	# frame came to be searched smoothed (pipeline.c, GV_SEARCH_GRAIN): 43.
	python3 "$here/samples/shift_frames.py" "$tmp/half" "$tmp/grainy" 15 1 --noise 10 >/dev/null
	observe "$tmp/grainy"
	echo "the same at 320x240, shifted by up to 15 px, seed 1, grainy (sigma 10): $nobs observations; $inorder of $nlab in order; $never never labelled"
	if [ "$inorder" -ge 43 ]; then ok; else bad "grainy: $inorder labelled positions observed in order (at least 43)"; fi
	if [ "$never" -le 0 ]; then ok; else bad "grainy: $never observations of a position never labelled (at most 0)"; fi
	if has_ruling takeback 358 400; then ok; else bad "grainy: no takeback ruled between 358 and 400 s"; fi
	if has_ruling double_move 3117 3149; then ok; else bad "grainy: no double move ruled between 3117 and 3149 s"; fi
	others=$(grep -cv '"type":"\(move\|capture\|summary\|count\|restored\|lifted\|takeback\|double_move\|warning\|result\)"' "$tmp/events.jsonl")
	if [ "$others" -eq 0 ]; then ok; else bad "grainy: $others rulings of no named irregularity"; fi
else
	echo "djpeg, cjpeg or python3 is not here: the shifted run is left out"
fi
e2e_done
