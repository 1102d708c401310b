#!/usr/bin/env bash
# The figures of issue 16 (a hall of boards over MQTT), on this machine, with
# a real mosquitto on loopback (passwords, ACL):
#  1. a board's extra CPU for publishing: goref-mqtt-load with one board
#     (the publisher of goref watch in goref watch's loop: FPS frames a
#     second, the board polled once a frame, the position given after a
#     frame with events; each event appended to a journal and flushed, as
#     goref watch's journal, unless JOURNAL=0) giving EVENTS events at RATE
#     a second, against the same run with --dry (the same frames, events
#     and journal, nothing published);
#     the whole process's CPU time (CLOCK_PROCESS_CPUTIME_ID: every thread,
#     user and system) from the moment the board is connected to 1 s after
#     the last event (its acknowledgement read), the difference per event;
#     and, in the same publishing run, the thread's CPU time inside the
#     publisher's calls (event, poll, position; CLOCK_THREAD_CPUTIME_ID read
#     around each) per event: the same cost with no dry run to subtract
#     (on this machine it varies from run to run as much as the difference);
#     RUNS pairs, a dry run and a publishing one each, with the load average
#     before each pair;
#  2. the hall's lag: BOARDS boards at 1 event/s each for SECONDS s, goref
#     hall subscribing, its page open in headless Chromium (selenium): the
#     lag from an event's making to its tile's update on the page, and to the
#     hall's subscriber (its --log), p50 / p99 / max.
# usage: samples/bench_mqtt.sh [BUILD_DIR]   (default build)
# environment: RATE (10), EVENTS (300), FPS (10), RUNS (3), BOARDS (50),
#   HALL_SECONDS (60), PARTS ("1 2": which parts), JOURNAL (1)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
load=$build/goref-mqtt-load
goref=$build/goref
RATE=${RATE:-10}
FPS=${FPS:-10}
PARTS=${PARTS:-1 2}
JOURNAL=${JOURNAL:-1}
EVENTS=${EVENTS:-300}
RUNS=${RUNS:-3}
BOARDS=${BOARDS:-50}
SECONDS_=${HALL_SECONDS:-60}
tmp=$(mktemp -d)
. "$here/../tests/lib_mqtt.sh"
mqtt_need
hallpid=
cleanup() {
	[ -n "$hallpid" ] && kill "$hallpid" 2>/dev/null
	mqtt_stop
	rm -rf "$tmp"
}
trap cleanup EXIT
mqtt_setup "$tmp/broker" "$BOARDS" >/dev/null || { echo "the broker's files could not be made"; exit 1; }
mqtt_start || exit 1
broker=127.0.0.1:$MQTT_PORT
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

field() { grep -o "\"$1\":[0-9.]*" | cut -d: -f2; }
if [[ " $PARTS " == *" 1 "* ]]; then
jarg=()
[ "$JOURNAL" = 1 ] && jarg=(--journal "$tmp/journal")
echo "== 1. a board's CPU per event ($EVENTS events at $RATE/s, $FPS frames/s, journal $JOURNAL, $RUNS runs)"
per=
inc=
for r in $(seq "$RUNS"); do
	la=$(cut -d' ' -f1 /proc/loadavg)
	rm -f "$tmp/journal"
	dry=$("$load" --dry --hall h0 --board b01 --events "$EVENTS" --rate "$RATE" --fps "$FPS" "${jarg[@]}" --quiet | tail -1)
	rm -f "$tmp/journal"
	pub=$("$load" --mqtt "$broker" --hall h0 --board b01 --password pw-b01 --events "$EVENTS" --rate "$RATE" \
		--fps "$FPS" "${jarg[@]}" --quiet | tail -1)
	d=$(echo "$dry" | field cpu_ms_window)
	p=$(echo "$pub" | field cpu_ms_window)
	a=$(echo "$pub" | field acked)
	c=$(echo "$pub" | field cpu_ms_in_calls)
	x=$(awk -v d="$d" -v p="$p" -v n="$EVENTS" 'BEGIN { printf "%.3f", (p - d) / n }')
	y=$(awk -v c="$c" -v n="$EVENTS" 'BEGIN { printf "%.4f", c / n }')
	per="$per $x"
	inc="$inc $y"
	echo "  run $r (load average $la): dry $d ms, publishing $p ms, $a of $EVENTS acknowledged: $x ms an event more;" \
		"inside the publisher's calls $c ms: $y ms an event"
done
med() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo "  per event, the difference:$per ms; median $(echo $per | med) ms"
echo "  per event, inside the calls:$inc ms; median $(echo $inc | med) ms"
fi
[[ " $PARTS " == *" 2 "* ]] || exit 0

echo "== 2. the hall's lag ($BOARDS boards x 1 event/s x $SECONDS_ s)"
hport=$(mqtt_free_port)
printf 'pw-director\n' >"$tmp/director.pw"
"$goref" hall --mqtt "$broker" --hall h1 --http "127.0.0.1:$hport" --user director \
	--password-file "$tmp/director.pw" --pin 1 --log "$tmp/hall.jsonl" 2>"$tmp/hall.err" &
hallpid=$!
sleep 1
browser=0
# Debian's python3-selenium is in the system's python (not a pyenv one)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if $py -c 'import selenium' 2>/dev/null && [ -x /usr/bin/chromedriver ]; then
	browser=1
	$py - "http://127.0.0.1:$hport/" "$((SECONDS_ + 15))" "$tmp/page.json" "$tmp/hall.png" <<'EOF' &
import json, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
url, secs, out, png = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
o = webdriver.ChromeOptions()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
    o.add_argument(a)
d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
d.get(url)
open(out + ".ready", "w").close()
time.sleep(secs / 2)
d.save_screenshot(png)  # in the middle of the run
time.sleep(secs / 2)
lags = d.execute_script("return window.goref_lags")
seen = d.execute_script("return window.goref_seen")
d.quit()
json.dump({"lags": lags, "seen": seen}, open(out, "w"))
EOF
	selpid=$!
	for _ in $(seq 600); do [ -f "$tmp/page.json.ready" ] && break; sleep 0.1; done
	sleep 1
else
	echo "  (no selenium or chromedriver: the page's lag is not measured; apt-get install python3-selenium chromium-driver)"
fi
"$load" --mqtt "$broker" --hall h1 --boards "$BOARDS" --events "$SECONDS_" --rate 1 --password-prefix pw- \
	--quiet >"$tmp/load.out"
tail -1 "$tmp/load.out" | sed 's/^/  load: /'
[ "$browser" = 1 ] && wait "$selpid"
kill "$hallpid"
wait "$hallpid" 2>/dev/null
hallpid=
grep "stopped:" "$tmp/hall.err" | sed 's/^/  /'
python3 - "$tmp/hall.jsonl" "$tmp/page.json" "$((BOARDS * SECONDS_))" <<'EOF'
import json, os, sys
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100 * len(v)))] if v else float("nan")
hall = [json.loads(l)["lag_ms"] for l in open(sys.argv[1]) if "lag_ms" in l]
print("  subscriber (goref hall): %d of %s events, lag p50 %.1f ms, p99 %.1f ms, max %.1f ms"
      % (len(hall), sys.argv[3], pct(hall, 50), pct(hall, 99), max(hall) if hall else float("nan")))
if os.path.exists(sys.argv[2]):
    page = json.load(open(sys.argv[2]))
    lags = [1000 * x for x in page["lags"]]
    print("  page (Chromium, tile updated): %d events, lag p50 %.1f ms, p99 %.1f ms, max %.1f ms"
          % (page["seen"], pct(lags, 50), pct(lags, 99), max(lags) if lags else float("nan")))
EOF
if [ -f "$tmp/hall.png" ] && [ -n "${SHOT:-}" ]; then cp "$tmp/hall.png" "$SHOT" && echo "  screenshot: $SHOT"; fi
