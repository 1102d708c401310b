#!/usr/bin/env bash
# Instructions and mispredicted branches per random playout move, counted
# under cachegrind (for machines whose CPU counters cannot be read, as in
# most virtual machines). Fixed work (goref bench --playouts N, 19x19,
# seed 1), so the counts repeat exactly for the same binary; on a
# superscalar CPU the mispredicted branches (about 15-20 cycles each) cost as
# much as the instructions do. Run the same way every time:
#   samples/bench_playout_instr.sh [-b BUILD] [-n PLAYOUTS]
set -eu
build=build
n=300
while [ $# -gt 0 ]; do
	case $1 in
	-b) build=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	*) echo "usage: $0 [-b BUILD] [-n PLAYOUTS]" >&2; exit 64 ;;
	esac
done
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes --cachegrind-out-file=/dev/null \
	"$build/goref" bench --playouts "$n" >"$out/bench" 2>"$out/vg" || { tail -5 "$out/vg" >&2; exit 2; }
moves=$(sed -n 's/^playouts: [0-9]* games, \([0-9]*\) moves$/\1/p' "$out/bench")
instr=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$out/vg" | tr -d ,)
misp=$(sed -n 's/.*Mispredicts: *\([0-9,]*\).*/\1/p' "$out/vg" | tr -d ,)
[ -n "$moves" ] && [ -n "$instr" ] && [ -n "$misp" ] || { echo "$0: could not read the counts" >&2; exit 2; }
awk -v n="$n" -v m="$moves" -v i="$instr" -v b="$misp" 'BEGIN {
	printf "%d playouts, %d moves: %.0f instructions and %.2f mispredicted branches a move (whole process)\n", n, m, i / m, b / m }'
