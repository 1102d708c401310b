#!/usr/bin/env bash
# The referee's page in a real browser: goref watch --http on a rendered
# game (a folder played at its own pace, a double move injected), driven by
# headless Chromium through Selenium (tests/e2e_web.py says what it checks).
# Skips (77) when goref-render was not built (no vision/) or no browser can
# be driven (chromium, chromium-driver, python3-selenium: install-deps.sh).
# GOREF_WEB_SCREENSHOT=FILE keeps the page's screenshot there.
# usage: e2e_web.sh GOREF FIXTURES
set -u
goref=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
render=$(dirname "$goref")/goref-render
[ -x "$render" ] || { echo "SKIP: goref-render not built"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
for need in /usr/bin/chromium /usr/bin/chromedriver; do
	[ -x "$need" ] || { echo "SKIP: $need is not installed (install-deps.sh installs it)"; exit 77; }
done
"$py" -c 'import selenium' 2>/dev/null || { echo "SKIP: python3-selenium is not installed"; exit 77; }
. "$(dirname "$0")/lib_e2e.sh"
here=$(cd "$(dirname "$0")" && pwd)
game=$here/../samples/game.sgf

run "render" 0 "$render" --quiet --seed 7 --moves 18 --width 640 --height 360 --inject double_move@11 "$game" "$tmp/g"
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pin=24680
# watch in its own folder: no goref.conf there until the corners page saves one
(cd "$tmp" && exec "$goref" watch --device "$tmp/g" --speed 1.2 --http "127.0.0.1:$port" --pin "$pin" \
	--journal "$tmp/game.log" --sgf "$tmp/game.sgf" --events "$tmp/game.jsonl") >"$tmp/watch.log" 2>&1 </dev/null &
pid=$!
for _ in $(seq 100); do
	grep -q "the referee's page is at" "$tmp/watch.log" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
has "watch serves the page" watch.log "the referee's page is at http://127.0.0.1:$port/ (the operator's PIN as set)"
shot=${GOREF_WEB_SCREENSHOT:-$tmp/web-page.png}
st=1
if kill -0 $pid 2>/dev/null; then
	"$py" "$here/e2e_web.py" "http://127.0.0.1:$port/" "$pin" "$tmp/game.jsonl" "$tmp/watch.log" "$tmp/goref.conf" "$shot"
	st=$?
fi
# new game, pressed with the PIN: the game set aside, none begun while its stones are on the board
if [ $st -eq 0 ]; then
	code=$(curl -s -o "$tmp/ng" -w '%{http_code}' -X POST -H "X-Goref-Pin: $pin" "http://127.0.0.1:$port/action/new-game")
	if [ "$code" = 200 ]; then ok; else bad "new-game: HTTP $code"; fi
	# the action is queued for the frame loop, which sets the journal aside,
	# then begins the new one and empties the events file: wait for all of it
	for _ in $(seq 50); do
		[ -f "$tmp/game.log.1" ] && [ ! -s "$tmp/game.log" ] && [ ! -s "$tmp/game.jsonl" ] && break
		sleep 0.1
	done
	if [ -f "$tmp/game.log.1" ] && [ ! -s "$tmp/game.log" ] && [ ! -s "$tmp/game.jsonl" ]; then ok; else
		bad "new-game: the journal not set aside as game.log.1, or the new one not empty"; ls -la "$tmp"
	fi
	curl -s "http://127.0.0.1:$port/state.json" >"$tmp/state.json"
	hasnt "new-game: no board until it is cleared" state.json '"board"'
fi
kill -INT $pid 2>/dev/null
wait $pid
wst=$?
if [ $st -eq 77 ]; then
	# the checks above ran: a failure among them is no skip
	echo "$pass passed, $fail failed so far"
	[ "$fail" -eq 0 ] || exit 1
	exit 77
fi
if [ $st -eq 0 ]; then ok; else bad "the page in the browser (above)"; sed 's/^/    watch: /' "$tmp/watch.log" | tail -20; fi
if [ $wst -eq 0 ]; then ok; else bad "watch ended with $wst after Ctrl-C"; fi
has "watch stopped cleanly" watch.log "goref watch: stopped; the journal"
e2e_done
