#!/usr/bin/env bash
# End-to-end tests of goref calibrate: usage errors, the settings file made
# and updated (other lines kept), a bad settings file named by line and key,
# and `calibrate board` on a real webcam frame against the four corners a
# person clicked there (skipped, exit 77, when the dataset is absent).
# usage: e2e_calibrate.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"

if ! "$goref" calibrate --help >/dev/null 2>&1; then
	echo "SKIP: this goref has no calibrate command (vision/ not built)"
	exit 77
fi

# --- usage errors, missing files
run "help" 0 "$goref" calibrate --help
has "help" out "calibrate lens"
has "help" out "calibrate board"
run "no kind" 64 "$goref" calibrate
run "unknown kind" 64 "$goref" calibrate stones x.jpg
has "unknown kind" err "unknown calibration 'stones'"
run "lens no photos" 64 "$goref" calibrate lens --out "$tmp/s.conf"
has "lens no photos" err "chessboard photos"
run "lens bad pattern" 64 "$goref" calibrate lens --pattern 9by6 a.jpg
has "lens bad pattern" err "--pattern"
run "lens unknown option" 64 "$goref" calibrate lens --fast a.jpg
run "board no image" 64 "$goref" calibrate board --settings "$tmp/s.conf"
run "board two images" 64 "$goref" calibrate board a.jpg b.jpg
run "board bad size" 64 "$goref" calibrate board --board 15 a.jpg
run "board bad rotate" 64 "$goref" calibrate board --rotate 45 a.jpg
run "board corners not 8" 64 "$goref" calibrate board --corners 1,2,3,4 a.jpg
has "board corners not 8" err "--corners needs 8 numbers"
run "board missing image" 2 "$goref" calibrate board --settings "$tmp/s.conf" "$tmp/none.jpg"
has "board missing image" err "none.jpg"
if [ ! -e "$tmp/s.conf" ]; then ok; else bad "a failed calibration wrote the settings"; fi

# a bad settings file: named by line and key, nothing done
printf 'fps = 10\n\n# the light\nstill = abc\n' >"$tmp/bad.conf"
run "bad settings" 2 "$goref" calibrate board --settings "$tmp/bad.conf" "$tmp/none.jpg"
has "bad settings" err "bad.conf: line 4: still: must be a number of seconds from 0 to 60, not 'abc'"
# control bytes in a file are shown escaped, never sent to the terminal (issue 17)
printf 'fps = \033]0;TITLE\007\n' >"$tmp/esc.conf"
run "settings with an escape" 2 "$goref" calibrate board --settings "$tmp/esc.conf" "$tmp/none.jpg"
has "settings with an escape" err "not '\\x1b]0;TITLE\\x07'"
if ! grep -q "$(printf '\033')" "$tmp/err"; then ok; else bad "a raw escape byte reached the terminal"; fi

# --- lens: photos with no pattern are named, and too few is an error
{
	echo "P2 64 48 255"
	for ((i = 0; i < 64 * 48; i++)); do echo 128; done
} >"$tmp/flat.pgm"
cp "$tmp/flat.pgm" "$tmp/flat2.pgm"
run "lens no pattern" 1 "$goref" calibrate lens --out "$tmp/s.conf" "$tmp/flat.pgm" "$tmp/flat2.pgm"
has "lens no pattern" err "found in 0 photos of 2: at least 3 are needed"
has "lens no pattern" err "flat.pgm"
has "lens no pattern" err "flat2.pgm"
{
	echo "P2 32 24 255"
	for ((i = 0; i < 32 * 24; i++)); do echo 128; done
} >"$tmp/small.pgm"
run "lens sizes differ" 2 "$goref" calibrate lens --out "$tmp/s.conf" "$tmp/flat.pgm" "$tmp/small.pgm"
has "lens sizes differ" err "small.pgm: the photo is 32x24 but the first was 64x48"
if [ ! -e "$tmp/s.conf" ]; then ok; else bad "a failed lens calibration wrote the settings"; fi

# --- board on a real frame
shared=${GOREF_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
seq0=$shared/datasets/gomrade/testing_sequence/0.jpg
if [ ! -f "$seq0" ]; then
	echo "$pass passed, $fail failed"
	echo "SKIP: $seq0 is absent (see ../shared/datasets/README.md)"
	[ "$fail" -eq 0 ] || exit 1
	exit 77
fi
run "no board" 1 "$goref" calibrate board --settings "$tmp/s.conf" --snapshot "$tmp/x.png" "$tmp/flat.pgm"
has "no board" err "flat.pgm"

# a new settings file: made whole, with the corners, the rotation and the snapshot
run "board" 0 "$goref" calibrate board --settings "$tmp/s.conf" --snapshot "$tmp/snap.png" --rotate 180 "$seq0"
has "board" out "A1"
has "board" out "top-right corner"
if [ -s "$tmp/snap.png" ] && [ "$(head -c 4 "$tmp/snap.png" | tail -c 3)" = "PNG" ]; then ok; else bad "no PNG snapshot"; fi
cp "$tmp/s.conf" "$tmp/conf"
has "board settings" conf "rotate = 180"
has "board settings" conf "board = 19"
has "board settings" conf "komi = 3.75"
has "board settings" conf "# Seconds the board must be still"
# the corners against the four a person clicked on this 1280x720 frame
# (board_extractor_state.yml beside it: pts_clicks)
clicks="407 45 939 55 991 643 329 621"
corners=$(sed -n 's/^corners = //p' "$tmp/s.conf")
if [ "$(echo "$corners" | wc -w)" -eq 8 ]; then ok; else bad "corners = '$corners' is not 8 numbers"; fi
worst=$(echo "$corners $clicks" | awk '{w = 0; for (k = 1; k <= 8; k += 2) { dx = $k - $(k + 8); dy = $(k + 1) - $(k + 9); d = sqrt(dx * dx + dy * dy); if (d > w) w = d } print w}')
if awk -v w="$worst" 'BEGIN { exit !(w <= 8) }'; then ok; else bad "corners $corners are $worst px from the clicks $clicks"; fi

# an existing file: only board, corners and rotate change, the rest is kept
cat >"$tmp/own.conf" <<'EOF'
# my club's camera
device = -
frame_size = 1280x720
komi = 2.75   # the older edition
rotate = 90
EOF
run "board update" 0 "$goref" calibrate board --settings "$tmp/own.conf" "$seq0"
has "board update" out "bottom-right corner" # rotate 90 kept from the file
cp "$tmp/own.conf" "$tmp/conf"
has "board update" conf "# my club's camera"
has "board update" conf "komi = 2.75   # the older edition"
has "board update" conf "rotate = 90"
has "board update" conf "corners = "
has "board update" conf "board = 19"
if [ "$(wc -l <"$tmp/own.conf")" -eq 7 ]; then ok; else bad "own.conf: expected 7 lines"; cat "$tmp/own.conf"; fi
if [ -s "$tmp/goref-board.png" ]; then ok; else bad "no default snapshot beside the settings"; fi
# the same frame again gives the same file
cp "$tmp/own.conf" "$tmp/own1.conf"
run "board again" 0 "$goref" calibrate board --settings "$tmp/own.conf" "$seq0"
if cmp -s "$tmp/own.conf" "$tmp/own1.conf"; then ok; else bad "a second calibration on the same frame changed the file"; fi
# corners given by hand: taken as they are (no search), checked against the frame
run "board corners" 0 "$goref" calibrate board --settings "$tmp/hand.conf" --snapshot "$tmp/h.png" --corners 407,45,939,55,991,643,329,621 "$seq0"
has "board corners" out "at the corners given"
cp "$tmp/hand.conf" "$tmp/conf"
has "board corners" conf "corners = 407 45 939 55 991 643 329 621"
run "board corners outside" 64 "$goref" calibrate board --settings "$tmp/hand2.conf" --corners 407,45,939,55,991,643,329,721 "$seq0"
has "board corners outside" err "bottom-left corner (329, 721) is outside the 1280x720 photo"
run "board corners crossed" 64 "$goref" calibrate board --settings "$tmp/hand2.conf" --corners 407,45,939,55,329,621,991,643 "$seq0"
has "board corners crossed" err "do not go clockwise"
if [ ! -e "$tmp/hand2.conf" ]; then ok; else bad "bad corners wrote the settings"; fi
# a lens in the settings: the frame is undistorted first (no distortion: the same corners)
printf 'camera = 1000 1000 640 360\ndistortion = 0 0 0 0\n' >"$tmp/lens.conf"
run "board lens" 0 "$goref" calibrate board --settings "$tmp/lens.conf" --snapshot "$tmp/l.png" "$seq0"
has "board lens" out "after undoing the lens"
c1=$(sed -n 's/^corners = //p' "$tmp/lens.conf")
c0=$(sed -n 's/^corners = //p' "$tmp/own.conf")
if [ "$c1" = "$c0" ]; then ok; else bad "a lens with no distortion moved the corners: $c1 vs $c0"; fi

e2e_done
