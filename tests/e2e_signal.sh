#!/usr/bin/env bash
# SIGTERM and SIGINT end goref watch and replay cleanly at any point (issue
# 17): exit 0 (watch) or 128+N (replay), a message, the journal whole (what
# it held is still its beginning and it reads), the record written. How
# soon is samples/bench_signal.sh's figure, not a test's (no timing here):
#  - watch while it feeds back a long journal at start-up;
#  - watch while a game plays;
#  - watch on raw frames from a pipe that stays open and sends nothing;
#  - watch signalled the moment it is started (goref runs goref-vision: the
#    signal must not fall between the two);
#  - replay while it runs: what was refereed is written (SGF, events).
# Skips (77) when goref-render was not built (no vision/).
# usage: e2e_signal.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"
e2e_need_render
run "render" 0 "$render" --quiet --seed 9 --moves 30 --width 640 --height 360 "$game" "$tmp/g"

# wait_for FILE TEXT: until FILE holds TEXT (at most 60 s)
wait_for() { for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# signal_watch NAME SIGNAL JOURNAL_BEFORE IN WAIT...: watch on $tmp/g (or
# raw frames from IN), signalled after WAIT (a command), then checked
signal_watch() {
	local name=$1 sig=$2 before=$3 in=$4
	shift 4
	local j=$tmp/$name.log dev=$tmp/g
	rm -f "$j"
	[ -n "$before" ] && cp "$before" "$j"
	[ "$in" != /dev/null ] && dev=-
	"$goref" watch --device "$dev" --size 640x360 --speed 1 --journal "$j" \
		--sgf "$tmp/$name.sgf" --events "$tmp/$name.jsonl" --quiet >"$tmp/$name.out" 2>&1 <"$in" &
	local pid=$!
	if [ "$1" = started_last ]; then started $pid; else "$@"; fi
	kill "-$sig" $pid
	wait $pid
	local st=$?
	if [ $st -eq 0 ]; then ok; else bad "$name: watch after SIG$sig: exit $st"; sed 's/^/    /' "$tmp/$name.out" | head -5; fi
	has "$name: says it stopped" "$name.out" "stopped"
	if [ -n "$before" ]; then
		if cmp -s <(head -c "$(stat -c %s "$before")" "$j") "$before"; then ok; else
			bad "$name: the journal lost what it held"
		fi
	fi
	if [ ! -s "$j" ] || "$goref" referee --quiet "$j" >/dev/null 2>"$tmp/err"; then ok; else
		bad "$name: the journal does not read after SIG$sig: $(head -2 "$tmp/err")"
	fi
}

# a long journal (60,000 positions), fed back at start-up
awk 'BEGIN { for (i = 0; i < 60000; i++) { printf "@ %d\n", i
	for (y = 0; y < 19; y++) { row = ""; for (x = 0; x < 19; x++) row = row ((y == 3 && x == 15) ? "X" : "."); print row } } }' \
	>"$tmp/long.log"
signal_watch journal TERM "$tmp/long.log" /dev/null sleep 0.3
signal_watch playing TERM "" /dev/null wait_for "$tmp/playing.log" '^@'
signal_watch playing_int INT "" /dev/null wait_for "$tmp/playing_int.log" '^@'
mkfifo "$tmp/fifo"
sleep 100000 >"$tmp/fifo" &
writer=$!
signal_watch stalled TERM "" "$tmp/fifo" sleep 0.5
# the moment goref has become goref-vision (a signal before goref's own
# start would stop the shell's fork, not goref)
started() { for _ in $(seq 1000); do case $(readlink "/proc/$1/exe" 2>/dev/null) in */goref-vision) return 0 ;; esac; sleep 0.001; done; }
signal_watch at_once TERM "" "$tmp/fifo" started_last
kill $writer

# replay: stopped between frames, what was refereed written, exit 143
"$goref" replay --sgf "$tmp/r.sgf" --events "$tmp/r.jsonl" "$tmp/g" >"$tmp/r.out" 2>"$tmp/r.err" &
pid=$!
wait_for "$tmp/r.jsonl" '"type":"move"' || bad "replay: no move in 60 s"
kill -TERM $pid
wait $pid
st=$?
if [ $st -eq 143 ]; then ok; else bad "replay after SIGTERM: exit $st, expected 143"; sed 's/^/    /' "$tmp/r.err" | head -5; fi
has "replay says it stopped" r.err "stopped by a signal"
if [ -s "$tmp/r.sgf" ] && grep -q ';B\[' "$tmp/r.sgf"; then ok; else bad "replay after SIGTERM: no record with its moves"; fi
has "replay's summary" r.jsonl '"type":"summary"'
e2e_done
