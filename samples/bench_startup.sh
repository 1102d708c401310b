#!/usr/bin/env bash
# Whole-process cost of goref's commands (issue 14): the median wall time
# (including GNU time's own start, about 1 ms), CPU time (user + system)
# and peak memory of N runs of each (GNU time), the shared libraries each
# program loads (ldd), and the load average before and after (the machine
# may be shared). Run the same way every time for README:
#   samples/bench_startup.sh [-b BUILD] [-n RUNS] [PHOTO...]
# Each PHOTO (default: a 2048x1536 photo of ../shared/datasets, when there)
# is read by `goref detect`; without one that part is left out.
set -eu
build=build
runs=9
while getopts "b:n:" o; do
	case $o in
	b) build=$OPTARG ;;
	n) runs=$OPTARG ;;
	*) echo "usage: $0 [-b BUILD] [-n RUNS] [PHOTO]" >&2; exit 64 ;;
	esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")/.." && pwd)
goref=$build/goref
[ -x "$goref" ] || { echo "$0: no $goref (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time (apt-get install time)" >&2; exit 2; }
[ $# -gt 0 ] || set -- "$here/../shared/datasets/imago/t1/t1_009.jpg"
sgf=$here/tests/fixtures/selfplay/19x19-s0201.sgf
[ -f "$sgf" ] || sgf=$(ls "$here"/tests/fixtures/selfplay/19x19-*.sgf | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median of the column of numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

measure() { # NAME COMMAND...
	local name=$1
	shift
	: >"$tmp/t"
	for _ in $(seq "$runs"); do
		local t0 t1
		t0=$(date +%s%N)
		/usr/bin/time -f "%M %U %S" -o "$tmp/one" "$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		echo "$(( (t1 - t0) / 1000 )) $(cat "$tmp/one")" >>"$tmp/t"
	done
	local ms mb cpu
	ms=$(awk '{ print $1 / 1000 }' "$tmp/t" | median)
	mb=$(awk '{ print $2 / 1024 }' "$tmp/t" | median)
	cpu=$(awk '{ print ($3 + $4) * 1000 }' "$tmp/t" | median)
	printf '%-34s %7.1f ms %7.1f MB %5.0f ms CPU\n' "$name" "$ms" "$mb" "$cpu"
}

nlibs() { [ -x "$1" ] && ldd "$1" | wc -l || echo 0; }
printf 'shared libraries: goref %d, goref-detect %d, goref-vision %d\n' \
	"$(nlibs "$goref")" "$(nlibs "$build/goref-detect")" "$(nlibs "$build/goref-vision")"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median of $runs runs, whole process (wall time, peak resident memory, user + system CPU time):"
measure "goref --help" "$goref" --help
measure "goref check (one 19x19 game)" "$goref" check "$sgf"
measure "goref score (its final position)" "$goref" score "$sgf"
for photo in "$@"; do
	if [ -f "$photo" ] && [ -x "$build/goref-detect" ]; then
		measure "goref detect $(basename "$photo")" "$goref" detect "$photo"
	fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
