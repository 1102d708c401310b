#!/usr/bin/env bash
# How soon goref stops on SIGTERM (issue 17: within 1 s at any point): sends
# SIGTERM at random moments and reports the time from the signal to the
# process's end, the median and the worst, per case:
#   watch-journal  goref watch started on a long journal (50 MB, about
#                  130,000 positions: start-up, the journal fed back, then
#                  the frames), signalled 0 to 3 s after its launch;
#   watch-frames   goref watch on a rendered game, signalled while it plays;
#   watch-stalled  goref watch on raw frames from a pipe that sends nothing
#                  (a camera pipe that hangs): blocked in read;
#   replay         goref replay of the rendered game, signalled while it runs.
# Each run must end with exit 0 (replay: 143) and leave the journal whole
# (what it held before is still its beginning; `goref referee` reads it).
#   samples/bench_signal.sh [-b BUILD] [-n RUNS]      (default build, 20 runs a case)
set -u
build=build
runs=20
while getopts "b:n:" o; do
	case $o in
	b) build=$OPTARG ;;
	n) runs=$OPTARG ;;
	*) echo "usage: $0 [-b BUILD] [-n RUNS]" >&2; exit 64 ;;
	esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
goref=$(cd "$(dirname "$build/goref")" && pwd)/goref
render=$(dirname "$goref")/goref-render
if [ ! -x "$goref" ] || [ ! -x "$render" ]; then echo "$0: no $goref or goref-render (build first, with vision/)" >&2; exit 2; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RANDOM=1
"$render" --quiet --seed 7 --moves 40 --width 640 --height 360 "$here/samples/game.sgf" "$tmp/g" || exit 2
# a long journal: the game's positions, each seen again and again
awk 'BEGIN { srand(5) } /^@/ { n++ } !/^#/ && !/^@/ { p[n] = p[n] $0 "\n" }
	END { t = 0; for (k = 0; size < 50 * 1024 * 1024; k++) { i = 1 + int(k / 3000); if (i > n) i = n
	      s = sprintf("@ %d\n%s", t++, p[i]); printf "%s", s; size += length(s) } }' "$tmp/g/truth.log" >"$tmp/long.log"
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
worst() { sort -n | tail -1; }

fails=0
# a pipe that stays open and sends nothing (a camera pipe that hangs)
mkfifo "$tmp/fifo"
sleep 100000 >"$tmp/fifo" &
writer=$!
trap 'kill $writer 2>/dev/null; rm -rf "$tmp"' EXIT
# one run: CASE MAXDELAY WANT_EXIT JOURNAL COMMAND... ; the time to stop into $tmp/CASE.t
one() {
	local name=$1 maxd=$2 want=$3 journal=$4
	shift 4
	[ -n "$journal" ] && cp "$tmp/long.log" "$journal"
	"$@" >/dev/null 2>"$tmp/err" <"${IN:-/dev/null}" &
	local pid=$! d t0 t1 st
	d=$(awk -v r=$RANDOM -v m="$maxd" 'BEGIN { printf "%.3f", r / 32768 * m }')
	sleep "$d"
	t0=$(date +%s%N)
	kill -TERM $pid 2>/dev/null || { wait $pid; echo "$name: ended before the signal (after $d s)" >&2; return; }
	wait $pid
	st=$?
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000000))" >>"$tmp/$name.t"
	if [ $st -ne "$want" ]; then
		echo "$name: exit $st after SIGTERM at $d s: $(head -2 "$tmp/err")" >&2
		fails=$((fails + 1))
	fi
	if [ -n "$journal" ]; then
		if ! cmp -s <(head -c "$(stat -c %s "$tmp/long.log")" "$journal") "$tmp/long.log" ||
			! "$goref" referee --quiet "$journal" >/dev/null 2>&1; then
			echo "$name: the journal is not whole after SIGTERM at $d s" >&2
			fails=$((fails + 1))
		fi
	fi
}

for _ in $(seq "$runs"); do
	one watch-journal 3 0 "$tmp/j.log" "$goref" watch --device "$tmp/g" --speed 4 --journal "$tmp/j.log" \
		--sgf "$tmp/j.sgf" --events "$tmp/j.jsonl" --quiet
	rm -f "$tmp/f.log"
	one watch-frames 3 0 "" "$goref" watch --device "$tmp/g" --speed 4 --journal "$tmp/f.log" \
		--sgf "$tmp/f.sgf" --events "$tmp/f.jsonl" --quiet
	IN=$tmp/fifo one watch-stalled 1 0 "" "$goref" watch --device - --size 640x360 --journal "$tmp/s.log" \
		--sgf "$tmp/s.sgf" --events "$tmp/s.jsonl" --quiet
	one replay 2 143 "" "$goref" replay --quiet "$tmp/g"
done
printf '%-14s %5s %10s %10s\n' case runs median_ms worst_ms
for c in watch-journal watch-frames watch-stalled replay; do
	[ -s "$tmp/$c.t" ] || continue
	printf '%-14s %5s %10s %10s\n' "$c" "$(wc -l <"$tmp/$c.t")" "$(median <"$tmp/$c.t")" "$(worst <"$tmp/$c.t")"
done
cat "$tmp"/*.t | awk '{ if ($1 > w) w = $1 } END { printf "worst of all: %d ms\n", w }'
[ $fails -eq 0 ]
