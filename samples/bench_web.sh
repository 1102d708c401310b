#!/usr/bin/env bash
# The referee's page's cost to the frame loop, and its weight.
#
# Replays one rendered game (1280x720, 30 moves, at twice its pace) through
# `goref watch` three times: without the page, with the page and no viewer,
# and with the page and VIEWERS viewers (default 20) that do what the page
# does: each holds /events open, reads /state.json after every event and
# /snapshot.jpg once a second. Each run's last line is watch's own measure
# of a frame's work (wall clock, the pacing's waits left out). Then the
# page's weight: the bytes of /, /app.js and /style.css as served (and the
# corners page). Viewers are Python threads, not browsers: twenty Chromiums
# would measure the browsers on a 2-core machine, not the server.
#
# usage: samples/bench_web.sh [BUILD_DIR] [VIEWERS]
set -eu
build=${1:-build}
viewers=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
goref=$(cd "$build" && pwd)/goref
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/goref-render" --quiet --seed 7 --moves 30 --width 1280 --height 720 --inject double_move@12 \
	"$here/game.sgf" "$tmp/g"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cat >"$tmp/viewers.py" <<'PY'
import sys, threading, time, urllib.error, urllib.request
base, n, stop_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
import os
done = threading.Event()
counts = {"events": 0, "states": 0, "snapshots": 0, "no view yet": 0, "errors": 0}
lock = threading.Lock()
def count(k):
    with lock:
        counts[k] += 1
def viewer():
    try:
        r = urllib.request.urlopen(base + "events", timeout=60)
    except Exception:
        return
    while not done.is_set():
        line = r.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            count("events")
            try:
                urllib.request.urlopen(base + "state.json").read()
                count("states")
            except Exception:
                count("errors")
def snapshots():  # each viewer's page fetches the view once a second
    while not done.is_set():
        for _ in range(n):
            try:
                urllib.request.urlopen(base + "snapshot.jpg").read()
                count("snapshots")
            except urllib.error.HTTPError as e:  # 404: no view made yet (the first asks make one)
                count("no view yet" if e.code == 404 else "errors")
            except Exception:
                count("errors")
        time.sleep(1.0)
ts = [threading.Thread(target=viewer, daemon=True) for _ in range(n)] + [threading.Thread(target=snapshots, daemon=True)]
for t in ts:
    t.start()
while not os.path.exists(stop_file):
    time.sleep(0.2)
done.set()
print("viewers: %d, events read %d, states %d, snapshots %d (404 before the first view %d), failed requests %d"
      % (n, counts["events"], counts["states"], counts["snapshots"], counts["no view yet"], counts["errors"]))
PY

# one replay: $1 a name, $2 the number of viewers (-1: no page)
replay() {
	local name=$1 nv=$2 http=()
	rm -f "$tmp"/game.* "$tmp/stop"
	[ "$nv" -ge 0 ] && http=(--http "127.0.0.1:$port" --pin 1)
	(cd "$tmp" && exec "$goref" watch --device "$tmp/g" --speed 2 --quiet "${http[@]}" --journal "$tmp/game.log" \
		--sgf "$tmp/game.sgf" --events "$tmp/game.jsonl") >"$tmp/$name.log" 2>&1 </dev/null &
	local pid=$! vpid=
	if [ "$nv" -gt 0 ]; then
		for _ in $(seq 100); do grep -q "page is at" "$tmp/$name.log" && break; sleep 0.1; done
		python3 "$tmp/viewers.py" "http://127.0.0.1:$port/" "$nv" "$tmp/stop" >"$tmp/$name.viewers" &
		vpid=$!
	fi
	if [ "$nv" -ge 0 ]; then
		until grep -q "the input ended" "$tmp/$name.log"; do sleep 0.2; done
		touch "$tmp/stop"
		[ -n "$vpid" ] && wait "$vpid"
		kill -INT $pid
	fi
	wait $pid || true
	printf '%-22s %s  %s\n' "$name:" "$(grep -o 'a frame.s work.*' "$tmp/$name.log")" \
		"$(cat "$tmp/$name.viewers" 2>/dev/null || true)"
}
echo "30 moves, 1280x720, --speed 2; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
replay "no page" -1
replay "page, 0 viewers" 0
replay "page, $viewers viewers" "$viewers"
replay "page, 0 viewers again" 0

# the page's weight as served
(cd "$tmp" && exec "$goref" watch --device "$tmp/g" --speed 0 --quiet --http "127.0.0.1:$port" --pin 1 \
	--journal "$tmp/w.log" --sgf "$tmp/w.sgf" --events "$tmp/w.jsonl") >"$tmp/weight.log" 2>&1 </dev/null &
pid=$!
for _ in $(seq 100); do grep -q "page is at" "$tmp/weight.log" && break; sleep 0.1; done
size() { curl -s -o /dev/null -w '%{size_download}' "http://127.0.0.1:$port$1"; }
main=$(( $(size /) + $(size /app.js) + $(size /style.css) ))
cal=$(( $(size /calibrate) + $(size /calibrate.js) + $(size /style.css) ))
kill -INT $pid
wait $pid || true
echo "page weight: / with its script and style $main bytes; /calibrate $cal bytes (no third-party file; plus /state.json and the JPEG view)"
