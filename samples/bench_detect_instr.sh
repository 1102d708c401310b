#!/usr/bin/env bash
# Instructions a photo in gv_detect (the whole recognition of one photo,
# the decode not counted), counted under callgrind: a figure that does not
# move with a busy machine, for comparing builds (README, "Time"). Run the
# same way every time:
#   samples/bench_detect_instr.sh [-b BUILD] DIR
# DIR is a folder of photos (*.jpg, *.png). Prints each photo's count and
# the mean, in millions of instructions.
set -eu
build=build
while [ $# -gt 1 ]; do
	case $1 in
	-b) build=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 [-b BUILD] DIR (a folder of photos)" >&2
	exit 64
fi
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
[ -x "$build/goref-detect" ] || { echo "$0: no $build/goref-detect (build it first)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0 sum=0
for f in "$1"/*.jpg "$1"/*.png; do
	[ -e "$f" ] || continue
	# the exit code is goref-detect's (1: no board found); the count stands either way
	valgrind --tool=callgrind --toggle-collect=gv_detect --callgrind-out-file="$out/cg" \
		"$build/goref-detect" detect "$f" >/dev/null 2>"$out/vg" || true
	i=$(callgrind_annotate "$out/cg" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
	[ -n "$i" ] || { echo "$0: $f: no count (valgrind: $(tail -1 "$out/vg"))" >&2; exit 2; }
	printf '%s %.1f M\n' "$(basename "$f")" "$(awk -v i="$i" 'BEGIN { print i / 1e6 }')"
	n=$((n + 1)) sum=$((sum + i))
done
[ "$n" -gt 0 ] || { echo "$0: no photos in $1" >&2; exit 2; }
awk -v s="$sum" -v n="$n" -v d="$1" 'BEGIN { printf "%s: %d photos, mean %.0f M instructions in gv_detect\n", d, n, s / n / 1e6 }'
