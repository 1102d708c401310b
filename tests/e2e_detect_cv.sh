#!/usr/bin/env bash
# End-to-end test of goref-detect's OpenCV module (issue 14): goref-detect
# links no OpenCV and loads goref-cv.so (vision/cvwrap.cpp, OpenCV's core and
# imgproc) only when a photo needs it: the board's outline, the lens, the
# overlay. On a rendered photo whose grid the lines give:
#  - detect loads no OpenCV library at all (the dynamic linker's own list,
#    LD_DEBUG=files) and reads the board;
#  - the overlay loads it and is drawn;
#  - with goref and goref-detect alone in a folder (no module beside them,
#    none installed), detect reads the same board, and the overlay fails
#    with exit 2 and a message that names goref-cv.so.
# Skips (77) when goref-render was not built (no vision/).
# usage: e2e_detect_cv.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"
e2e_need_render
bin=$(dirname "$goref")
if [ ! -x "$bin/goref-detect" ] || [ ! -f "$bin/goref-cv.so" ]; then
	echo "SKIP: goref-detect or goref-cv.so not built beside $goref"
	exit 77
fi

run "render" 0 "$render" --quiet --seed 3 --moves 12 --no-hands --fps 1 --width 1280 --height 720 "$game" "$tmp/r"
photo=$tmp/r/$(tail -1 "$tmp/r/times.txt" | cut -d' ' -f1)

# the board from the lines: no OpenCV loaded
LD_DEBUG=files "$bin/goref-detect" detect "$photo" >"$tmp/board" 2>"$tmp/ld"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "detect: exit $rc"; sed 's/^/    /' "$tmp/ld" | grep -v "file=" | head; fi
if grep -q "file=.*libopencv" "$tmp/ld"; then
	bad "detect loaded OpenCV: $(grep -o 'file=[^ ]*libopencv[^ ]*' "$tmp/ld" | sort -u | head -3 | tr '\n' ' ')"
else ok; fi
if [ "$(grep -c '^[.XO]\{19\}$' "$tmp/board")" -eq 19 ]; then ok; else bad "detect: no 19x19 diagram"; fi
# the stones the render put there (its last position, 12 moves: 12 stones)
if [ "$(tr -cd 'XO' <"$tmp/board" | wc -c)" -eq 12 ]; then ok; else bad "detect: not the 12 stones: $(cat "$tmp/board")"; fi

# the overlay: the module loaded, the picture drawn
LD_DEBUG=files "$goref" detect --overlay "$tmp/ov.png" "$photo" >/dev/null 2>"$tmp/ld2"
rc=$?
if [ "$rc" -eq 0 ] && [ -s "$tmp/ov.png" ]; then ok; else bad "detect --overlay: exit $rc, no overlay"; fi
if grep -q "file=.*goref-cv.so" "$tmp/ld2" && grep -q "file=.*libopencv_imgproc" "$tmp/ld2"; then ok; else
	bad "detect --overlay did not load goref-cv.so and OpenCV"
fi

# the programs alone, no module anywhere they look
mkdir -p "$tmp/alone"
cp "$goref" "$bin/goref-detect" "$tmp/alone/"
if [ -f "$(strings "$bin/goref-detect" | grep -m1 '/goref/goref-cv.so$')" ]; then
	echo "note: a goref-cv.so is installed; the missing-module case is not checked"
else
	run "detect alone" 0 "$tmp/alone/goref" detect "$photo"
	if cmp -s "$tmp/out" "$tmp/board"; then ok; else bad "detect alone: another board"; fi
	run "overlay alone" 2 "$tmp/alone/goref" detect --overlay "$tmp/ov2.png" "$photo"
	has "overlay alone" err "goref-cv.so"
	has "overlay alone" err "neither beside the program"
fi

e2e_done
