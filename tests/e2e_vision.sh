#!/usr/bin/env bash
# End-to-end tests of goref detect and goref eval: exit codes, JSON, and the
# accuracy on the photo datasets in ../shared/datasets (skipped, exit 77,
# when they are absent). The thresholds are what the program reaches now on
# each source (folder) of photos, with no per-photo setting: a fall below them
# fails; a new folder is reported and judged once it is given a floor.
# usage: e2e_vision.sh GOREF FIXTURES
set -u
goref=$1
fx=$2
. "$(dirname "$0")/lib_e2e.sh"

if ! "$goref" detect --help >/dev/null 2>&1; then
	echo "SKIP: this goref has no detect command (vision/ not built, or detect not dispatched)"
	exit 77
fi

# --- exit codes that need no dataset
run "detect missing file" 2 "$goref" detect "$tmp/none.jpg"
has "detect missing file" err "none.jpg"
printf 'not an image\n' >"$tmp/text.jpg"
run "detect not an image" 2 "$goref" detect "$tmp/text.jpg"
has "detect not an image" err "text.jpg"
# an empty file and a folder: named, and what they are (not "an image OpenCV
# cannot decode")
: >"$tmp/empty.jpg"
run "detect empty file" 2 "$goref" detect "$tmp/empty.jpg"
has "detect empty file" err "empty.jpg: an empty file"
mkdir "$tmp/folder.jpg"
run "detect folder" 2 "$goref" detect "$tmp/folder.jpg"
has "detect folder" err "folder.jpg: a folder"
# a flat grey picture (plain PGM, which vision/imgio.c reads): no board in it
{
	echo "P2 64 48 255"
	for ((i = 0; i < 64 * 48; i++)); do echo 128; done
} >"$tmp/flat.pgm"
run "detect no board" 1 "$goref" detect "$tmp/flat.pgm"
has "detect no board" err "no board found"
run "detect usage" 64 "$goref" detect --size 7 "$tmp/flat.pgm"
run "eval usage" 64 "$goref" eval
run "eval empty dir" 2 "$goref" eval "$tmp"

# --- eval reads each board at the size its label has (a 9x9 and a 13x13
# board rendered side by side, no --size), or at --size's, which a label of
# another size is refused against, named
render=$(dirname "$goref")/goref-render
if [ -x "$render" ]; then
	for z in 9 13; do
		sgf=$(ls "$fx/selfplay/${z}x${z}-"*.sgf | head -1)
		"$render" --quiet --seed 5 --no-hands --fps 2 --moves 24 --width 960 --height 720 "$sgf" "$tmp/render$z"
		mkdir -p "$tmp/sizes/b$z"
		cp "$(ls "$tmp/render$z/"*.jpg | tail -1)" "$tmp/sizes/b$z/last.jpg"
		tail -n "$z" "$tmp/render$z/truth.log" >"$tmp/sizes/b$z/last.txt"
	done
	run "eval sizes from the labels" 0 "$goref" eval --json "$tmp/sizes"
	has "eval 13x13 from its label" out '"b13":{"photos":1,"boards_found":1,"points":169,"points_right":169'
	has "eval 9x9 from its label" out '"b9":{"photos":1,"boards_found":1,"points":81,"points_right":81'
	run "eval --size 9 on a 13x13 label" 2 "$goref" eval --size 9 "$tmp/sizes"
	has "eval --size 9 on a 13x13 label" err "b13/last.txt"
	# labelled video frames: the labels in a labels.txt one folder up
	mkdir -p "$tmp/frames/v/frames"
	cp "$tmp/sizes/b9/last.jpg" "$tmp/frames/v/frames/f1.jpg"
	cp "$tmp/sizes/b9/last.jpg" "$tmp/frames/v/frames/unlabelled.jpg"
	{ echo "@ f0.jpg"; cat "$tmp/sizes/b9/last.txt"; echo "@ f1.jpg"; cat "$tmp/sizes/b9/last.txt"; } >"$tmp/frames/v/labels.txt"
	run "eval labels.txt" 0 "$goref" eval --json "$tmp/frames"
	has "eval labels.txt" out '"v/frames":{"photos":1,"boards_found":1,"points":81,"points_right":81'
	{ echo "@ f1.jpg"; echo "..X"; } >"$tmp/frames/v/labels.txt"
	run "eval labels.txt bad entry" 2 "$goref" eval "$tmp/frames"
	has "eval labels.txt bad entry" err "labels.txt (f1.jpg)"
	# a board on a floor of pale planks at move 200 (samples/eval_floor.sh's
	# seeds 2, 5, 10, 11 and 13), all five "no board found" before 2026-12-05.
	# Seeds 2 and 10: the board's dark edge and its shadow on the floor pass
	# for two outer columns while the true ones lie under stones, so the
	# lines' lattice is two columns over and fails its proof; moved back two
	# lines (detect.c, shift_search; seed 10 polished too) it is the board.
	# Seeds 5 and 13: the seams run near the columns' direction and share
	# their vanishing point, and no regular lattice fits them all; the lines
	# kept within the rows' reach fit (locate.c, try_pair's clip). Seed 11:
	# the seams' few long lines, 20 degrees off the columns, outweighed the
	# board's short pieces of column in the columns' vanishing point, and
	# no pair of directions fitted a grid; they are weighed by length where
	# none fits (locate.c, ransac_vp's power).
	sgf=$(ls "$fx/selfplay/19x19-"*.sgf | head -n 1)
	mkdir -p "$tmp/floor"
	for seed in 2 5 10 11 13; do
		"$render" --quiet --seed $seed --no-hands --fps 1 --moves 200 --floor --last-only "$sgf" "$tmp/floor$seed"
		cp "$(ls "$tmp/floor$seed/"*.jpg | tail -n 1)" "$tmp/floor/s$seed.jpg"
		tail -n 19 "$tmp/floor$seed/truth.log" >"$tmp/floor/s$seed.txt"
	done
	run "eval a board on a pale floor" 0 "$goref" eval --json "$tmp/floor"
	has "eval a board on a pale floor" out '"total":{"photos":5,"boards_found":5,"points":1805,"points_right":1805'
	# a green lamp (samples/eval_tint.sh's green light: the blue channel
	# all but dead), three of its six positions: white stones no greyer than
	# the wood and hardly brighter, in doubt; the second look by the photo's
	# own colours (gv_classify_colours) reads them 1,081 of 1,083 (before it
	# 1,069, the three boards found with 4 and 5 wrong); 1,082 since those
	# colours are two populations fitted to every point read white or
	# empty, not a cut fitted to the surest of them (s1's white stone at
	# 14,13, read empty unsurely, now white)
	# the last position of SGF drawn by goref-render with OPTS (no hands,
	# one frame a second): DIR/NAME.jpg and its rows (the board's size,
	# from the render's truth.jsonl) DIR/NAME.txt
	last_position() { # DIR NAME SGF OPTS...
		local dir=$1 name=$2 sgf=$3
		shift 3
		local r=$tmp/render-${dir##*/}-$name
		"$render" --quiet --no-hands --fps 1 --last-only "$@" "$sgf" "$r"
		mkdir -p "$dir"
		cp "$(ls "$r/"*.jpg | tail -n 1)" "$dir/$name.jpg"
		local rows
		rows=$(grep -o '"size":[0-9]*' "$r/truth.jsonl" | head -n 1 | cut -d: -f2)
		grep -v '^@' "$r/truth.log" | tail -n "$rows" >"$dir/$name.txt"
	}
	# goref eval of DIR: its PHOTOS photos all found, their POINTS points
	# all right
	all_right() { # NAME DIR PHOTOS POINTS
		run "$1" 0 "$goref" eval --json "$2"
		has "$1" out "\"total\":{\"photos\":$3,\"boards_found\":$3,\"points\":$4,\"points_right\":$4"
	}
	# one scene drawn alone into DIR by last_position (DIR must not exist
	# yet: another scene there would be read and counted too), then
	# all_right: found, its POINTS points all right
	scene_right() { # TITLE DIR POINTS NAME SGF OPTS...
		local title=$1 dir=$2 points=$3
		shift 3
		if [ -e "$dir" ]; then
			bad "$title: $dir already holds a scene"
			return
		fi
		last_position "$dir" "$@"
		all_right "$title" "$dir" 1 "$points"
	}
	# the diagram goref printed ($tmp/out) must be TRUTH's
	reads_as() { # NAME TRUTH
		if diff -q "$tmp/out" "$2" >/dev/null; then ok; else
			bad "$1: not the true position"
			diff "$tmp/out" "$2" | head -10
		fi
	}
	for s in 1 3 5; do
		last_position "$tmp/green" "s$s" "$fx/selfplay/19x19-s020$s.sgf" --seed $((s + 40)) --tint 0.6,0.75,0.05
	done
	run "eval under a green lamp" 0 "$goref" eval --json "$tmp/green"
	gtot=$(grep -o '"total":{[^}]*}' "$tmp/out")
	gfig() { echo "$gtot" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2; }
	gright=$(gfig points_right) gfw=$(gfig found_wrong) gfound=$(gfig boards_found)
	echo "eval under a green lamp: found $gfound of 3, points right $gright of 1083, found with >3 wrong $gfw"
	if [ "$gfound" -eq 3 ] && [ "$gright" -ge 1082 ] && [ "$gfw" -eq 0 ]; then ok; else
		bad "under a green lamp: found $gfound of 3, $gright of 1083 right (at least 1082), $gfw found with >3 wrong"
	fi
	# the camera 60 degrees from straight down, the board's near side
	# nearly as wide as the picture (seed 74 of the fourth 19x19 game,
	# --zoom 1.08): the lines' lattice at 400 px, moved a row by
	# shift_search, passed its proof with the board's near edge for its
	# outer line (193 of 361 right, most wrong points sure). The board's
	# outline, found apart, lies two cells beyond its top line and inside
	# its bottom one: turned down (GV_OUTLINE_OFF_ASYM); no board found
	# is better than a wrong one
	last_position "$tmp/tilt" s4 "$fx/selfplay/19x19-s0204.sgf" --seed 74 --tilt 60 --zoom 1.08
	run "eval a camera 60 degrees from the vertical" 0 "$goref" eval --json "$tmp/tilt"
	has "eval a camera 60 degrees from the vertical" out '"found_wrong":0'
	# the board's edge taken for an outer line while the true one on the
	# other side lies under stones (samples/eval_scenes.py's seed 310, 31
	# degrees, 1920x1080, a board 24 mm thick): the lines' lattice lay two
	# columns over, its outer column on the table, and the empty points a
	# line beyond "bounded" it (131 of 361 right, most wrong points sure).
	# The board's outline says it is two lines off (GV_OUTLINE_OFF_ASYM):
	# turned down, and the right grid found after
	scene310="--seed 310 --tilt 31.6 --board-thickness 24 --stone-height 6.3 --width 1920 --height 1080 --zoom 0.85"
	# shellcheck disable=SC2086
	scene_right "eval a board's edge beside its outer line" "$tmp/edge" 361 \
		p310 "$fx/selfplay/19x19-s0203.sgf" $scene310
	# the same kind of lattice, a column over with its outer column on the
	# board's edge and the true outer line on the other side under stones,
	# where the outline does not turn it down: scene 310 with bowls and
	# lids beside the board (181 of 361 right), and scene 313 (58 degrees,
	# 640x480, a floor as pale as the board: 204 of 361 right). Its last
	# spans, from the outer column to the next, lie on the margin's plain
	# wood and show no line (GV_PROOF_MIN_STRIP_SHARE): turned down, and
	# the right grids found after
	# shellcheck disable=SC2086
	last_position "$tmp/edge2" p310c "$fx/selfplay/19x19-s0203.sgf" $scene310 --clutter
	last_position "$tmp/edge2" p313 "$fx/selfplay/19x19-s0206.sgf" --seed 313 --tilt 58.9 --board-thickness 31 \
		--stone-height 5.2 --width 640 --height 480 --zoom 0.91 --floor
	all_right "eval an outer line on the board's edge" "$tmp/edge2" 2 722
	# a thin board on a pale floor (samples/eval_scenes.py's seed 406, 52
	# degrees, no thickness): its edge's dark bevel lies about a cell
	# beyond the bottom line and passed for the grid's own line there, so
	# the lines' right grid was turned down as a lattice a line short (no
	# board found). No line crosses the margin's wood to the bevel
	# (GV_PROOF_BEYOND_CROSS): found, and every point right
	scene_right "eval a thin board's edge a cell beyond its outer line" "$tmp/thin" 361 \
		p406 "$fx/selfplay/19x19-s0214.sgf" --seed 406 --tilt 52.4 --board-thickness 0 \
		--stone-height 5.5 --width 640 --height 480 --zoom 0.86 --floor
	# a 19x19 board a third of a 1920x1080 photo wide on a pale floor
	# (samples/eval_scenes.py's seed 1057, 30 degrees): at 800 px its
	# cells are 17 px, its lines cut by the stones into pieces shorter
	# than the locator's shortest segment, and the floor's long seams
	# outweigh them; at 400 px no better. The lines once more at up to
	# 1600 px (GV_LOCATE_FINE_PX) on a photo of 1200 px or more: found,
	# every point right
	scene_right "eval a large photo's small cells on a floor" "$tmp/fine" 361 \
		p1057 "$fx/selfplay/19x19-s0218.sgf" --seed 1057 --tilt 30.6 --board-thickness 21 \
		--stone-height 5.0 --width 1920 --height 1080 --zoom 0.98 --floor
	# a 19x19 on a pale floor with bowls beside it (samples/eval_scenes.py's
	# seed 1058 with clutter, 29 degrees): the lines' lattice lies a few
	# pixels off at its bottom-left, its lines missed on the spans of one
	# strip (70% of the open spans), and every lattice moved a line fails;
	# the one whose lines show most, polished, stops a line short. The
	# lattice as found, polished as a moved one is (shift_search): found,
	# every point right
	scene_right "eval a lattice a few pixels off, polished as found" "$tmp/asfound" 361 \
		p1058c "$fx/selfplay/19x19-s0219.sgf" --seed 1058 --tilt 29.5 --board-thickness 53 \
		--stone-height 5.2 --width 1280 --height 720 --zoom 0.82 --floor --clutter
	# boards whose outer lines are nearly all under stones, where the
	# points a line beyond are not empty and no outline bounds the grid:
	# a 9x9 on a pale floor with bowls beside it, 144 mm thick, its left
	# margin under a cell wide so that a line beyond is the floor
	# (samples/eval_scenes.py's seed 1055 with clutter, 37 degrees; the
	# outline takes in the whole photo), and a 19x19 156 mm thick on a
	# table (seed 2043 with clutter, 33 degrees). The board's own edge,
	# found beside the grid on every side a margin beyond the outer line,
	# alike across (gv_edge_margins): found, every point right (no board
	# found before)
	last_position "$tmp/byedge" p1055c "$fx/selfplay/9x9-s0004.sgf" --seed 1055 --tilt 37.2 --board-thickness 144 \
		--stone-height 7.9 --width 1920 --height 1080 --zoom 0.88 --floor --clutter
	last_position "$tmp/byedge" p2043c "$fx/selfplay/19x19-s0220.sgf" --seed 2043 --tilt 33.5 \
		--board-thickness 156 --stone-height 5.5 --width 1920 --height 1080 --zoom 0.84 --clutter
	all_right "eval boards bounded by their own edges" "$tmp/byedge" 2 442
	# a 9x9 at 45 degrees with stones 9 mm high (samples/eval_scenes.py's
	# seed 342): the lines' lattice twice too dense in one family, and
	# halved, a column off: two outer lines under stones, and the board's
	# outline a margin of -0.19 cell beyond its left column and 1.84 beyond
	# its right, a line off. The lattice moved the line the outline says
	# (outline_move) passes the whole proof: found, every point right (no
	# board found before)
	last_position "$tmp/moved" p342 "$fx/selfplay/9x9-s0007.sgf" --seed 342 --tilt 45.4 --board-thickness 34 \
		--stone-height 9.0 --width 1280 --height 720 --zoom 0.89
	all_right "eval a lattice moved as its outline says" "$tmp/moved" 1 81
	# the same scene as p1057 above with bowls beside the board (seed 1057
	# with clutter): every lattice moved a line fails; the one whose lines
	# show most, polished, stops a line short (the board's lines go on
	# beyond one outer line, on wood). Moved that line, as the lines' grid
	# is (shift_search): found, every point right (no board found before)
	last_position "$tmp/moved" p1057c "$fx/selfplay/19x19-s0218.sgf" --seed 1057 --tilt 30.6 --board-thickness 21 \
		--stone-height 5.0 --width 1920 --height 1080 --zoom 0.98 --floor --clutter
	all_right "eval a polished lattice moved on where the lines go on" "$tmp/moved" 2 442
	# a 19x19 183 mm thick at 55 degrees with bowls beside it (seed 2042
	# with clutter): found only at 1280 px, two columns off, its left
	# outer lines on the board's side and the right ones under stones;
	# the outline takes in the front face and says nothing. The board's
	# edge looked for within 2.8 cells of each outer line: 1.24 cells
	# inside the left one and 2.74 beyond the right, two columns off
	# alike (edge_move): the grid moved so is found, every point right
	# (no board found before)
	scene_right "eval a lattice moved as the board's edge says" "$tmp/byedge2" 361 \
		p2042c "$fx/selfplay/19x19-s0220.sgf" --seed 2042 --tilt 54.8 --board-thickness 183 \
		--stone-height 5.0 --width 1280 --height 720 --zoom 0.93 --clutter
	# boards found only by the lines at 1280 px, their lattice there a few
	# pixels off or a line short: a 19x19 bamboo board 142 mm thick on a
	# pale floor (seed 5057 with --bamboo, 37 degrees; at 800 px a lattice
	# twice too dense one way), and a 19x19 114 mm thick on a floor with
	# bowls beside it (seed 2059 with clutter, 41 degrees). Polished on its
	# empty points and moved on where the lines go on, as the lattice at
	# the working size is (shift_search): found, every point right (no
	# board found before)
	last_position "$tmp/finemoved" p5057b "$fx/selfplay/19x19-s0218.sgf" --seed 5057 --tilt 37.3 \
		--board-thickness 142 --stone-height 6.2 --width 1280 --height 720 --zoom 0.97 --floor --bamboo
	last_position "$tmp/finemoved" p2059c "$fx/selfplay/19x19-s0203.sgf" --seed 2059 --tilt 41.0 \
		--board-thickness 114 --stone-height 7.4 --width 1280 --height 720 --zoom 1.00 --floor --clutter
	all_right "eval a fine search's lattice polished and moved" "$tmp/finemoved" 2 722
	# a 19x19 bamboo board with no thickness on a pale floor at 37 degrees
	# (seed 5031 with --bamboo) and a 9x9 bamboo board with bowls beside
	# it (seed 1047 with clutter and --bamboo): a few lines' fits drawn
	# off (likely by the glue seams beside them), the lines lay 3.26 and
	# 3.30 pixels (RMS) from the grids fitted to them: "the lines do not
	# form a regular grid". Judged without the worst tenth of the lines
	# (GV_LOCATE_RESID_TRIM: 1.79 and 2.72 px): found, every point right
	# (no board found before)
	last_position "$tmp/seams" p5031b "$fx/selfplay/19x19-s0202.sgf" --seed 5031 --tilt 37.2 --board-thickness 0 \
		--stone-height 7.3 --width 640 --height 480 --zoom 0.81 --floor --bamboo
	last_position "$tmp/seams" p1047cb "$fx/selfplay/9x9-s0009.sgf" --seed 1047 --tilt 38.1 --board-thickness 33 \
		--stone-height 5.6 --width 1280 --height 720 --zoom 0.82 --floor --clutter --bamboo
	all_right "eval lines beside a bamboo board's seams" "$tmp/seams" 2 442
	# a 9x9 bamboo board with bowls beside it at 34 degrees (seed 6034 with
	# clutter and --bamboo): the lines' lattice two columns off, moved
	# whole, passes, but keeps the slant of the lines it was fitted to: a
	# quarter of a cell off at its top-right corner, where a black stone
	# read empty, sure. Polished on its empty points once it passes
	# (shift_search): every point right (80 of 81 before)
	scene_right "eval a lattice moved whole, then polished" "$tmp/movedpolish" 81 \
		p6034cb "$fx/selfplay/9x9-s0007.sgf" --seed 6034 --tilt 33.7 --board-thickness 53 \
		--stone-height 6.7 --width 1920 --height 1080 --zoom 0.93 --clutter --bamboo
	# a 13x13 bamboo board at 35 degrees whose strips' glue seams run
	# halfway between its columns (seed 6049 with --bamboo): the lines'
	# lattice twice too dense across passed every test of the lines (a
	# line on every span) and read 119 of 169 points right. Its cells
	# would have to be 1.75 times as long as wide for any camera to see
	# them so (gv_h_cell_aspects, GV_PROOF_ASPECT_MAX): turned down, the
	# board's outline finds it, every point right
	scene_right "eval a lattice no camera sees as a board's" "$tmp/aspect" 169 \
		p6049b "$fx/selfplay/13x13-s0106.sgf" --seed 6049 --tilt 35.2 --board-thickness 50 \
		--stone-height 6.7 --width 1024 --height 768 --zoom 0.82 --bamboo
	# a 19x19 bamboo board at 32 degrees (seed 6010 with --bamboo): the
	# outline's margin on its near side found 0.46 cell against 0.68 on
	# the far side, the grid 0.4 cell too big there and passed by its
	# stones, the last rows' white stones read empty (357 of 361). The
	# margins searched again with the near one held to the far one's
	# (GV_OUTLINE_NEAR_SLACK): a grid that passes by its lines, every point
	# right
	scene_right "eval an outline's near margin held to its far one's" "$tmp/nearside" 361 \
		p6010b "$fx/selfplay/19x19-s0221.sgf" --seed 6010 --tilt 32.2 --board-thickness 14 \
		--stone-height 5.7 --width 1024 --height 768 --zoom 1.02 --bamboo
	# a crowded 19x19 bamboo board at 35 degrees (seed 7005 with --bamboo):
	# chains of black stones across its margin cut the bright region
	# apart, and the largest piece's quadrilateral was no board ("the
	# lines do not form a regular grid", then the outline failed). Round
	# every large piece (GV_OUTLINE_PIECE_SHARE): found, every point right
	scene_right "eval a board cut in pieces by its stones" "$tmp/pieces" 361 \
		p7005b "$fx/selfplay/19x19-s0217.sgf" --seed 7005 --tilt 34.6 --board-thickness 46 \
		--stone-height 7.1 --width 640 --height 480 --zoom 0.87 --bamboo
	# a crowded 9x9 on a pale floor as bright as the board (seed 3041,
	# 38 degrees): the brightest region is the whole photo, so the outline
	# has nothing to go on, and the lines' lattice (its lines on under
	# half of its 18 lines: "too few of the grid's lines are visible")
	# never reached its proof. Where the brightest region is the whole
	# photo, a lattice on 30% of its lines goes to its proof
	# (GV_LOCATE_LOW_SUPPORT): found, every point right
	scene_right "eval a crowded board on a floor as bright as itself" "$tmp/floorlow" 81 \
		p3041 "$fx/selfplay/9x9-s0002.sgf" --seed 3041 --tilt 38.5 --board-thickness 0 \
		--stone-height 6.8 --width 1280 --height 720 --zoom 1.00 --floor
	# a crowded 13x13 bamboo board at 33 degrees (seed 8012 with
	# --bamboo, a held-out set): the lines' lattice, its top row on the
	# board's second and its rows drifting onto the seams between the
	# lines, passed the lines' proof (47 of 169 points wrong). Most of its
	# points read as stones, and the discs round them were more even half
	# a cell off the lattice (GV_PROOF_EVEN_MIN): it fails, and the right
	# grid is found, every point right
	scene_right "eval a bamboo board whose seams took a lattice off its stones" "$tmp/offstones" 169 \
		p8012b "$fx/selfplay/13x13-s0105.sgf" --seed 8012 --tilt 33.1 --board-thickness 58 \
		--stone-height 5.6 --width 640 --height 480 --zoom 1.00 --bamboo
	# crowded 19x19 bamboo boards on a floor of pale planks (seeds 6025
	# and 8011 with --bamboo): the floor is the brightest region, the
	# whole photo, so the outline had nothing to go on, and the lines'
	# lattices failed their proofs (no board found). The board is darker
	# than the floor: the outline round the darker region (8011, its front
	# face in shade with it) or round that region's brighter part (6025,
	# the top alone) finds it, proved by its lines and the board's own
	# edge; every point right
	scene_right "eval a bamboo board darker than its floor, its face with it" "$tmp/darkface" 361 \
		p8011b "$fx/selfplay/19x19-s0205.sgf" --seed 8011 --tilt 26.1 --board-thickness 26 \
		--stone-height 7.6 --width 640 --height 480 --zoom 0.85 --floor --bamboo
	scene_right "eval a bamboo board darker than its floor, its top" "$tmp/darktop" 361 \
		p6025b "$fx/selfplay/19x19-s0201.sgf" --seed 6025 --tilt 45.9 --board-thickness 52 \
		--stone-height 5.0 --width 640 --height 480 --zoom 0.80 --floor --bamboo
	# the same board of wood on the same floor (seed 6025): the planks'
	# seams beside the board took among the columns pulled the columns'
	# vanishing point, and no fit held half of the grid's lines. The fit
	# again with each family's lines only within the other's reach now
	# also cuts the lines wholly beside the other family's outer lines,
	# and fits the vanishing points again on the lines kept (locate.c,
	# try_pair): found, every point right
	scene_right "eval a board on planks whose seams run beside it" "$tmp/besideseams" 361 \
		p6025 "$fx/selfplay/19x19-s0201.sgf" --seed 6025 --tilt 45.9 --board-thickness 52 \
		--stone-height 5.0 --width 640 --height 480 --zoom 0.80 --floor
	# a crowded 19x19 on a thick board at 53 degrees with bowls and lids
	# beside it (seed 6046 with --clutter): a lid of white stones touches
	# the board's bright region at its near right corner, whose hull's
	# quadrilateral lay 60 px beyond the board there; the grid from it
	# failed its proof (no board found). With each side of the
	# quadrilateral the longest straight run of the region's edge near it
	# (GV_QUAD_SIDES), the board's own corners: found, every point right
	scene_right "eval a board whose region a lid touches" "$tmp/lidtouch" 361 \
		p6046 "$fx/selfplay/19x19-s0212.sgf" --seed 6046 --tilt 53.4 --board-thickness 157 \
		--stone-height 6.1 --width 640 --height 480 --zoom 0.90 --clutter
	# a 9x9 bamboo board six moves into its game (samples/eval_scenes.py's
	# seed 20137 with --bamboo, drawn with --moves 6): the lines' lattice
	# took its columns from the glue seams and three of the grid's lines,
	# 0.85 of a cell apart, and passed its proof with 10 of 81 points
	# wrong, sure. The grid's rows go on a cell beyond its left outer
	# column (GV_PROOF_MAX_CROSS_SHARE): it fails, the outline's grid is
	# found, every point right
	scene_right "eval a lattice on a bamboo board's seams" "$tmp/glueseams" 81 \
		p20137b "$fx/selfplay/9x9-s0004.sgf" --seed 20137 --tilt 48.9 --board-thickness 134 \
		--stone-height 6.4 --width 1280 --height 720 --zoom 0.88 --bamboo --moves 6
	# a 9x9 bamboo board 20 moves in under an orange lamp (seed 20208 with
	# --bamboo --moves 20): its white stones as dark as the wood, five of
	# nine read empty and too few read white for the photo's own colours
	# to judge by. The points whose lines are hidden count among the
	# white ones at first (gv_classify_colours): every point right
	scene_right "eval an opening's white stones under an orange lamp" "$tmp/orangewhites" 81 \
		p20208b "$fx/selfplay/9x9-s0018.sgf" --seed 20208 --tilt 42.9 --board-thickness 185 \
		--stone-height 8.6 --width 640 --height 480 --zoom 0.99 --tint 1,0.35,0.15 --bamboo --moves 20
	# scene 313 through corners clicked about a third of a cell off (its
	# true corners 167.4,103.8 491.3,116.7 559.5,340.1 81.7,321.1; the
	# clicks of samples/eval_scenes.py --clicks 0.3): the polish from the
	# clicks and from four starts beside them lands 0.25 cell apart round
	# the truth; taking the first landing only where the others lay within
	# a fifth of a cell kept these clicks, and read 4 points wrong. The
	# landings' median: every point right
	run "detect through clicks a third of a cell off" 0 "$goref" detect \
		--corners 168.2,107.4,492.6,113.8,557.8,338.1,80.3,322.0 "$tmp/edge2/p313.jpg"
	reads_as "detect through clicks a third of a cell off" "$tmp/edge2/p313.txt"
	# a 9x9 with bowls and lids beside it (seed 1026 with clutter, a board
	# 182 mm thick), clicked 0.3 cell off (its true corners 207.3,96.0
	# 417.6,88.7 437.0,284.2 201.5,292.4): the polish's landings within 0.7
	# cell scatter, and the clicks as given read 2 points wrong; within 0.4
	# cell (GV_REFINE_REACH2) they agree, every point right
	last_position "$tmp/click9" p1026 "$fx/selfplay/9x9-s0016.sgf" --seed 1026 --tilt 34.3 --board-thickness 182 \
		--stone-height 7.9 --width 640 --height 480 --zoom 0.83 --clutter
	run "detect a 9x9 through clicks a third of a cell off" 0 "$goref" detect --size 9 \
		--corners 203.8,95.4,420.6,90.5,439.0,292.0,201.7,300.5 "$tmp/click9/p1026.jpg"
	reads_as "detect a 9x9 through clicks a third of a cell off" "$tmp/click9/p1026.txt"
	# scene 406 (the thin board above, 52 degrees, cells of 17 px) through
	# clicks almost half a cell off (samples/eval_scenes.py --clicks 0.45;
	# its true corners 151.2,115.3 467.7,102.8 546.4,350.1 92.3,368.2): the
	# lines' landings scatter, the clicks kept read 174 points wrong; moved
	# onto the stones (gv_fit_stones), which the classifier reads the more
	# surely: every point right
	run "detect through clicks almost half a cell off" 0 "$goref" detect \
		--corners 145.7,116.2,463.7,101.7,538.4,349.4,86.0,360.2 "$tmp/thin/p406.jpg"
	reads_as "detect through clicks almost half a cell off" "$tmp/thin/p406.txt"
else
	echo "eval sizes: goref-render not built, not checked"
fi

# --- the datasets
shared=${GOREF_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
data=$shared/datasets
if [ ! -d "$data/imago" ] || [ ! -d "$data/gomrade" ]; then
	# the checks above need no dataset: a failure among them is no skip
	echo "$pass passed, $fail failed so far"
	echo "SKIP: the photo datasets are not in $data (see ../shared/datasets/README.md)"
	[ "$fail" -eq 0 ] || exit 1
	exit 77
fi

# one photo: the corners against the four a person clicked (1280x720 frame),
# the diagram's shape, the overlay
seq0=$data/gomrade/testing_sequence/0.jpg
run "detect json" 0 "$goref" detect --json --overlay "$tmp/ov.png" "$seq0"
has "detect json" out '"corners":[['
has "detect json" out '"diagram":["'
has "detect json" out '"confidence":[['
if [ -s "$tmp/ov.png" ] && [ "$(head -c 4 "$tmp/ov.png" | tail -c 3)" = "PNG" ]; then ok; else bad "overlay: no PNG written"; fi
corners=$(grep -o '"corners":\[\[[^]]*\],\[[^]]*\],\[[^]]*\],\[[^]]*\]\]' "$tmp/out" | tr -d '"corners:[]' | tr ',' ' ')
clicks="407 45 939 55 991 643 329 621"
worst=$(echo "$corners $clicks" | awk '{w = 0; for (k = 1; k <= 8; k += 2) { dx = $k - $(k + 8); dy = $(k + 1) - $(k + 9); d = sqrt(dx * dx + dy * dy); if (d > w) w = d } print w}')
if awk -v w="$worst" 'BEGIN { exit !(w <= 10) }'; then ok; else bad "corners $corners are $worst px from the clicks $clicks"; fi
# a calibration without distortion changes nothing; a bad one is a usage error
cp "$tmp/out" "$tmp/plain.json"
run "detect camera" 0 "$goref" detect --json --camera 1000,1000,640,360,0,0,0,0 "$seq0"
if cmp -s "$tmp/out" "$tmp/plain.json"; then ok; else bad "detect --camera with no distortion changed the answer"; fi
run "detect bad camera" 64 "$goref" detect --camera 1,2,3 "$seq0"
# the grid corners given by hand: the same board read, no search; bad ones refused
run "detect corners" 0 "$goref" detect --json --corners "$(echo $corners | tr ' ' ',')" "$seq0"
if grep -o '"diagram":\[[^]]*\]' "$tmp/plain.json" | cmp -s - <(grep -o '"diagram":\[[^]]*\]' "$tmp/out"); then ok; else bad "detect --corners at the located corners read another board"; fi
run "detect corners not 8" 64 "$goref" detect --corners 1,2,3,4,5,6,7 "$seq0"
has "detect corners not 8" err "--corners needs 8 numbers"
run "detect corners outside" 64 "$goref" detect --corners 407,45,1939,55,991,643,329,621 "$seq0"
has "detect corners outside" err "top-right corner (1939, 55) is outside the 1280x720 photo"
run "detect corners crossed" 64 "$goref" detect --corners 939,55,407,45,991,643,329,621 "$seq0"
has "detect corners crossed" err "do not go clockwise"
run "detect text" 0 "$goref" detect "$seq0"
if [ "$(wc -l <"$tmp/out")" -eq 19 ] && ! grep -qv '^[.XO]\{19\}$' "$tmp/out"; then ok; else bad "detect text: not 19 lines of 19 .XO"; fi
# the same photo cut to 40% and 60% of its length: refused, named, no board
# printed (libjpeg alone shows the missing part grey and says only a warning)
for pc in 40 60; do
	head -c $(($(wc -c <"$seq0") * pc / 100)) "$seq0" >"$tmp/cut$pc.jpg"
	run "detect cut to $pc%" 2 "$goref" detect "$tmp/cut$pc.jpg"
	has "detect cut to $pc%" err "cut$pc.jpg: a damaged or cut-short JPEG"
	if [ ! -s "$tmp/out" ]; then ok; else bad "detect cut to $pc%: printed a board"; fi
done

# gomrade/1/11 darkened (samples/transform_photos.py's dark: gamma 1.6, R 0.5,
# G 0.45, B 0.4): the lines' lattice comes out a column short; its proof sees
# the board's grid go on, on the wood, beyond one outer line, and the lattice
# moved a line that way passes (no board found before 2026-12-04). Its grid
# is the undarkened photo's, within 2 px; no point of it is sure (the stones'
# shadows read as stones there: the reading is in doubt).
if command -v djpeg >/dev/null && command -v cjpeg >/dev/null && command -v python3 >/dev/null; then
	mkdir -p "$tmp/one/gomrade/1"
	cp "$data/gomrade/1/11.jpg" "$data/gomrade/1/11.txt" "$tmp/one/gomrade/1/"
	python3 "$(dirname "$0")/../samples/transform_photos.py" --data "$tmp/one" "$tmp/tf" dark >/dev/null
	cget() { grep -o '"corners":\[\[[^]]*\],\[[^]]*\],\[[^]]*\],\[[^]]*\]\]' "$tmp/out" | tr -d '"corners:[]' | tr ',' ' '; }
	run "detect gomrade/1/11" 0 "$goref" detect --json "$data/gomrade/1/11.jpg"
	c0=$(cget)
	run "detect gomrade/1/11 dark" 0 "$goref" detect --json "$tmp/tf/dark/gomrade/1/11.jpg"
	c1=$(cget)
	worst=$(echo "$c0 $c1" | awk 'NF == 16 {w = 0; for (k = 1; k <= 8; k += 2) { dx = $k - $(k + 8); dy = $(k + 1) - $(k + 9); d = sqrt(dx * dx + dy * dy); if (d > w) w = d } print w}')
	if [ -n "$worst" ] && awk -v w="$worst" 'BEGIN { exit !(w <= 2) }'; then ok; else bad "gomrade/1/11 dark: corners $c1, the photo's $c0 (${worst:-?} px apart)"; fi
	if ! grep -o '"confidence":.*' "$tmp/out" | grep -q '0\.9[0-9]*\|1\.0*[],]'; then ok; else bad "gomrade/1/11 dark: a point read sure"; fi
else
	echo "gomrade/1/11 dark: djpeg, cjpeg or python3 missing, not checked"
fi

# every photo with a label, t2/skip included (NAME.disputed.txt is no label),
# and every labelled frame of a labels.txt (in its folder or frames/ below)
nphotos=$(find "$data" -name '*.txt' ! -name labels.txt | while read -r t; do b=${t%.txt}; [ -e "$b.jpg" ] && echo; done | wc -l)
nframes=$(find "$data" -name labels.txt | while read -r l; do
	d=$(dirname "$l")
	awk '/^@/ { print $2 }' "$l" | while read -r f; do [ -e "$d/$f" ] || [ -e "$d/frames/$f" ] && echo; done
done | wc -l)
nphotos=$((nphotos + nframes))
run "eval datasets" 0 "$goref" eval --json "$data"
cp "$tmp/out" "$tmp/eval.json"
total=$(grep -o '"total":{[^}]*}' "$tmp/eval.json")
echo "eval: $total"
get() { echo "$2" | grep -o "\"$1\":[0-9.]*" | head -n 1 | cut -d: -f2; }
photos=$(get photos "$total")
if [ "$photos" = "$nphotos" ]; then ok; else bad "eval saw $photos photos, the datasets hold $nphotos"; fi

# the corners against the hand-checked ones of fixtures/vision/corners.tsv, on
# every photo listed there that eval read
grep -o '{"photo":"[^"]*","found":true,[^}]*"corners":\[\[[^]]*\],\[[^]]*\],\[[^]]*\],\[[^]]*\]\]' "$tmp/eval.json" |
	sed 's|{"photo":"'"$data"'/||; s|".*"corners":| |' | tr -d '[]' | tr ',' ' ' >"$tmp/corners"
grep -o '{"photo":"[^"]*"' "$tmp/eval.json" | sed 's|{"photo":"'"$data"'/||; s|"$||' >"$tmp/evaluated"
nlisted=$(awk 'NR == FNR { e[$1] = 1; next } !/^#/ && ($1 in e)' "$tmp/evaluated" "$fx/vision/corners.tsv" | wc -l)
cstat=$(awk 'NR == FNR { if ($1 !~ /^#/) { seen[$1] = 1; for (k = 2; k <= 9; k++) t[$1, k] = $k } next }
	($1 in seen) { w = 0; for (k = 2; k <= 9; k += 2) { dx = $k - t[$1, k]; dy = $(k + 1) - t[$1, k + 1]; d = sqrt(dx * dx + dy * dy); if (d > w) w = d; s += d; n++ }
	  if (w > mx) { mx = w; mf = $1 } }
	END { if (n == 0) print "0 0 0 none"; else printf "%d %.2f %.2f %s\n", n / 4, s / n, mx, mf }' "$fx/vision/corners.tsv" "$tmp/corners")
echo "corners: $cstat (photos compared, mean and largest error in pixels, the photo with the largest)"
read -r ncmp cmean cmax cworst <<<"$cstat"
if [ "$ncmp" = "$nlisted" ] && [ "$nlisted" -gt 0 ]; then ok; else bad "corners compared on $ncmp photos of the $nlisted listed"; fi
# mean 0.62 px now; the largest is imago/t1/t1_009.jpg (2048x1536, motion-blurred
# doubled lines, its reference corner itself placed by eye to about 5 px): 21.9 px
if awk -v m="$cmean" -v x="$cmax" 'BEGIN { exit !(m <= 1.0 && x <= 25) }'; then ok; else bad "corner error mean $cmean px (at most 1.0), largest $cmax px at $cworst (at most 25)"; fi

# Each source its own floor: what the committed locator and classifier reach
# there now (a source is a folder, imago/t2/skip counted with imago/t2; see
# goref eval --help). found_wrong is a ceiling: boards reported found with more
# than 3 points wrong. A source with no line here is reported, not judged.
# sure_wrong is a ceiling too: points read with a confidence of 0.9 or more
# and wrong (issue 11 asks that 99.95% of the sure points be right; imago's
# were a hand and a sheet of paper over the board, the label the stones
# under, until 2026-12-03: white that goes on past the board's edge is not
# sure, GV_BEYOND_CAP).
#   source                 found  points right  boards right  found_wrong at most  sure_wrong at most
floors='
imago/t1                  11     3971          11            0                    0
imago/t2                  25     9024          24            0                    0
imago/t3                  14     5049          12            0                    0
gomrade/1                 1      361           1             0                    0
gomrade/2                 1      361           1             0                    0
gomrade/3                 1      361           1             0                    0
gomrade/4                 1      361           1             0                    0
gomrade/5                 1      361           1             0                    0
gomrade/testing_sequence  12     4332          12            0                    0
video-9x9-table/frames    44     3564          44            0                    0
gobanwatcher/1            0      0             0             0                    0
gobanwatcher/3            17     6135          16            0                    1
'
# (gobanwatcher/3 boards right 12 -> 11 on 2026-12-05: the lines kept within
# each other's reach fit 4 of its photos, the table's grain beside the board
# cut, where the outline found them before, twice as fast; on 3_jwerth_1 the
# lines' grid lies 2-3 px from the outline's polished one and (17,5) reads
# black with 0.57, not sure)
# (gobanwatcher/3 points right 6131 -> 6135 and boards right 11 -> 15 on
# 2026-12-06: the second look by the photo's own colours, gv_classify_colours;
# boards right 15 -> 16 the same day: (17,5) of 3_jwerth_1, black found only
# off the point, its centre of the wood's brightness and hue, WOOD_CENTRE)
# (the figures with clicked corners, inside a source's, are left out here)
sources=$(grep -o '"sources":{.*},"total"' "$tmp/eval.json" | sed 's/^"sources":{//; s/,"clicked":{[^}]*}//g' | grep -o '"[^"]*":{[^}]*}')
while read -r line; do
	name=$(echo "$line" | sed 's/^"\([^"]*\)".*/\1/')
	fig=$(echo "$line" | sed 's/^"[^"]*"://')
	f=$(get boards_found "$fig") p=$(get points_right "$fig") b=$(get boards_right "$fig") w=$(get found_wrong "$fig")
	sw=$(($(get sure "$fig") - $(get sure_right "$fig")))
	echo "source $name: $(get photos "$fig") photos, found $f, points right $p of $(get points "$fig"), boards right $b, found with >3 wrong $w, sure and wrong $sw of $(get sure "$fig")"
	row=$(echo "$floors" | awk -v s="$name" '$1 == s')
	if [ -z "$row" ]; then
		echo "  (no floor for $name yet: reported, not judged)"
		continue
	fi
	read -r _ mf mp mb mw msw <<<"$row"
	if [ "$f" -ge "$mf" ] && [ "$p" -ge "$mp" ] && [ "$b" -ge "$mb" ] && [ "$w" -le "$mw" ] && [ "$sw" -le "$msw" ]; then ok; else
		bad "$name: found $f (floor $mf), points right $p (floor $mp), boards right $b (floor $mb), found with >3 wrong $w (ceiling $mw), sure and wrong $sw (ceiling $msw)"
	fi
done <<<"$sources"
# read through the corners a person clicked (corners.json beside the photos):
# the corners polished on the lines near them, then the classifier: each
# source its floor of points right and its ceiling of points sure and wrong
# (raised on 2026-12-06 with the second look by the photo's own colours:
# gobanwatcher/1 5194 -> 5380, gobanwatcher/3 6128 -> 6131; then with the
# polish kept only where it lands alike from other starts, gobanwatcher/1
# 5380 -> 5477, its sure points 325 -> 647, 2 of them wrong as before;
# 5472 with the colour from the white evidence's own patches; 5529 with
# the corners moved onto the stones where that reads more surely, its
# sure points 0 -> 1319, 2 of them wrong; 5685 with the photo's colours
# taken for a mixture of two populations; 5718 with black not ruled out by
# its lines where its centre is as dark as a stone's, LINE_BLACK_DARK; 5720
# and its 2 sure wrong points 0 with white found only off a point showing
# the wood not sure, WHITE_OFF_LINE)
#               points right  sure_wrong at most
clicked_floors='
gobanwatcher/1  5712          1
gobanwatcher/3  6128          2
'
while read -r name floor sfloor; do
	[ -n "$name" ] || continue
	fig=$(grep -o '"sources":{.*},"total"' "$tmp/eval.json" | grep -o "\"$name\":{[^}]*,\"clicked\":{[^}]*}" | sed 's/.*"clicked"://')
	p=$(get points_right "$fig")
	sw=$(($(get sure "$fig") - $(get sure_right "$fig")))
	echo "source $name with the clicked corners: points right ${p:-none} of $(get points "$fig"), sure and wrong $sw of $(get sure "$fig")"
	if [ -n "$p" ] && [ "$p" -ge "$floor" ] && [ "$sw" -le "$sfloor" ]; then ok; else
		bad "$name with the clicked corners: points right ${p:-none} (floor $floor), sure and wrong $sw (ceiling $sfloor)"
	fi
done <<<"$clicked_floors"
# the learned classifier behind its switch (README: the learned classifier):
# the built-in weights (trained on every source) must read gomrade's photos
# and gobanwatcher/3 through its clicked corners at least as the hand-made
# classifier does; a bad switch or weights file is refused
run "eval classifier usage" 64 "$goref" eval --classifier nothing "$data/gomrade"
run "eval weights missing" 2 "$goref" eval --cnn-weights "$tmp/none.bin" "$data/gomrade"
has "eval weights missing" err "none.bin"
for c in cnn both; do
	run "eval $c" 0 "$goref" eval --json --classifier $c "$data/gomrade" "$data/gobanwatcher/3"
	t=$(grep -o '"total":{[^}]*' "$tmp/out")
	tc=$(grep -o '"total":{.*"clicked":{[^}]*}' "$tmp/out" | sed 's/.*"clicked"://')
	p=$(get points_right "$t")
	pc=$(get points_right "$tc")
	sw=$(($(get sure "$tc") - $(get sure_right "$tc")))
	echo "eval --classifier $c: gomrade and gobanwatcher/3 points right $p of $(get points "$t"); gobanwatcher/3 clicked $pc, sure and wrong $sw"
	# the hand-made classifier: 6137 + 5759 and 6116 clicked, 3 sure and wrong
	if [ "${p:-0}" -ge 11896 ] && [ "${pc:-0}" -ge 6116 ] && [ "$sw" -le 3 ]; then ok; else
		bad "eval --classifier $c: points right $p (floor 11896), clicked $pc (floor 6116), sure and wrong $sw (ceiling 3)"
	fi
done
# the 9x9 webcam game's frame of 16:27:11 turned a quarter (jpegtran): the
# line locator fitted a lattice twice too dense in one family there, which
# the proof turned down (no board); the spacing is doubled now
# (density_check, locate.c) and the board read right
v9=$data/video-9x9-table
if [ -f "$v9/labels.txt" ] && command -v jpegtran >/dev/null; then
	jpegtran -rotate 90 -perfect "$v9/frames/gocap162711.jpg" >"$tmp/turned.jpg"
	run "detect 9x9 frame turned" 0 "$goref" detect --json --size 9 "$tmp/turned.jpg"
	want=$(awk '/^@ gocap162711.jpg/ { on = 1; next } /^@/ { on = 0 } on && NF' "$v9/labels.txt" |
		awk '{ for (c = 1; c <= length($0); c++) r[NR, c] = substr($0, c, 1); n = NR } END {
			for (i = 1; i <= n; i++) { s = ""; for (j = n; j >= 1; j--) s = s r[j, i]; print s } }')
	got=$(grep -o '"diagram":\[[^]]*\]' "$tmp/out" | sed 's/"diagram":\[//; s/\]$//' | tr -d '" ' | tr ',' '\n')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "9x9 frame turned: read $(echo $got) against $(echo $want)"; fi
else
	echo "  (no video-9x9-table or no jpegtran: the turned frame not judged)"
fi
# every source with a floor was seen
for s in $(echo "$floors" | awk 'NF { print $1 }'); do
	if echo "$sources" | grep -q "^\"$s\":"; then ok; else bad "source $s has a floor but no photo in $data"; fi
done

e2e_done
