#!/usr/bin/env bash
# Instructions per frame of the frame pipeline, counted under callgrind
# (for machines whose CPU counters cannot be read, as in most virtual
# machines): the figure that, with a Raspberry Pi's instructions a second,
# estimates its time per frame (README). Run the same way every time:
#   samples/bench_vision_instr.sh [-b BUILD] [-n FRAMES] [--board N] DIR
# DIR is a folder of frames (goref-render's output). Prints the
# instructions in gv_pipeline_feed per frame, and the shares of its parts.
set -eu
build=build
frames=300
board=19
while [ $# -gt 1 ]; do
	case $1 in
	-b) build=$2; shift 2 ;;
	-n) frames=$2; shift 2 ;;
	--board) board=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "usage: $0 [-b BUILD] [-n FRAMES] [--board N] DIR" >&2; exit 64; }
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --toggle-collect=gv_pipeline_feed --callgrind-out-file="$out/cg" \
	"$build/goref-vision" bench --vision --board "$board" --frames "$frames" "$1" >"$out/bench" 2>"$out/vg" ||
	{ tail -5 "$out/vg" >&2; exit 2; }
n=$(sed -n 's/^frames \([0-9]*\) .*/\1/p' "$out/bench")
callgrind_annotate --inclusive=yes "$out/cg" 2>/dev/null >"$out/ann"
total=$(sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$out/ann" | tr -d ,)
echo "frames $n; instructions in the pipeline: $total, $(awk -v t="$total" -v n="$n" 'BEGIN { printf "%.2f", t / n / 1e6 }') M a frame"
echo "inclusive shares (of the pipeline's instructions):"
for fn in gv_locate gv_classify_features_update gv_classify_decide white_hue_weight robust_quad parallax read_frame sample_all hidden_squares excuse_patches alien_stone; do
	v=$(grep -E "[ :]$fn( |$|'|\\()" "$out/ann" | head -1 | awk '{ print $1 }' | tr -d ,)
	[ -n "$v" ] && awk -v f="$fn" -v v="$v" -v t="$total" 'BEGIN { printf "  %-22s %5.1f%%\n", f, 100 * v / t }'
done
