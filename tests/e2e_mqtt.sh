#!/usr/bin/env bash
# End-to-end tests of a hall of boards over MQTT (issue 16), with a real
# mosquitto on loopback ports (a password file, an ACL, TLS):
#  - goref watch --mqtt on a rendered game, killed with kill -9 in the middle
#    (the hall shows the board offline: its last will) and run again: the
#    hall gets every event of the events file, numbered from 1, in order,
#    none twice; the director's end and count (the page's POST with the
#    PIN) reach the board and its tile shows the result; a malformed control
#    message and a press without the PIN are refused with a log line;
#  - 50 boards (goref-mqtt-load, the same publisher) at 1 event/s, the broker
#    killed with kill -9 in the middle and restarted 10 s later: the hall
#    gets every event of every board, in order, none twice;
#  - a wrong password, a board publishing under another board's topic:
#    refused with a log line; TLS with the broker's CA, by address and by
#    name (the certificate checked against the name).
# GOREF_MQTT_LONG=1: 50 boards x 120 events instead of 30.
# Skips (77) when mosquitto or openssl are absent or goref has no hall.
# usage: e2e_mqtt.sh GOREF FIXTURES
set -u
goref=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
bin=$(dirname "$goref")
load=$bin/goref-mqtt-load
render=$bin/goref-render
. "$(dirname "$0")/lib_e2e.sh"
. "$(dirname "$0")/lib_mqtt.sh"
mqtt_need
[ -x "$load" ] || { echo "SKIP: goref-mqtt-load not built (libmosquitto-dev)"; exit 77; }
[ -x "$render" ] || { echo "SKIP: goref-render not built (no vision/)"; exit 77; }
if ! "$goref" hall --help >/dev/null 2>&1; then echo "SKIP: this goref has no hall (libmicrohttpd-dev)"; exit 77; fi
command -v curl >/dev/null || { echo "SKIP: curl is not installed"; exit 77; }
cleanup() {
	for p in ${pids:-}; do kill "$p" 2>/dev/null; done
	mqtt_kill
	rm -rf "$tmp"
}
trap cleanup EXIT
pids=
mqtt_setup "$tmp/broker" 50 || { echo "FAIL: the broker's files could not be made"; exit 1; }
mqtt_start || exit 1
broker=127.0.0.1:$MQTT_PORT
printf 'pw-director\n' >"$tmp/director.pw"
hport=$(mqtt_free_port)
# the director's page on hall h1
"$goref" hall --mqtt "$broker" --hall h1 --http "127.0.0.1:$hport" --user director \
	--password-file "$tmp/director.pw" --pin 4321 --log "$tmp/hall1.jsonl" 2>"$tmp/hall1.err" &
hall1=$!
pids="$pids $hall1"
page=http://127.0.0.1:$hport
for _ in $(seq 50); do curl -sf "$page/tiles" >/dev/null && break; sleep 0.1; done
tile() { # tile BOARD FIELD: the field of the board's tile on the page
	curl -sf "$page/tiles" | python3 -c "import json,sys; t=[x for x in json.load(sys.stdin)['tiles'] if x['board']=='$1']; print(t[0]['$2'] if t else '')"
}
wait_tile() { # wait_tile BOARD FIELD VALUE: up to 30 s
	python3 -c '
import json, sys, time, urllib.request
url, board, field, want = sys.argv[1:]
for _ in range(300):
    try:
        t = [x for x in json.load(urllib.request.urlopen(url, timeout=2))["tiles"] if x["board"] == board]
        if t and str(t[0][field]) == want:
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)' "$page/tiles" "$1" "$2" "$3"
}

# --- goref watch on a rendered game, killed and run again
game=$(dirname "$0")/../samples/game.sgf
run "render" 0 "$render" --quiet --seed 9 --moves 20 --width 640 --height 360 "$game" "$tmp/w"
cat >"$tmp/goref.conf" <<EOF
mqtt = $broker
hall = h1
board_id = b01
mqtt_user = b01
mqtt_password = pw-b01
control_user = director
page_url = http://b01.local:8080/
EOF
j=$tmp/game.log
watch() { # watch ROUND SOURCE SPEED [OPTION]
	(cd "$tmp" && exec "$goref" watch --config "$tmp/goref.conf" --device "$2" --speed "$3" --journal "$j" \
		--sgf "$tmp/game.sgf" --events "$tmp/game.jsonl" --quiet ${4:+"$4"}) >"$tmp/watch$1.out" 2>&1 </dev/null &
	wpid=$!
}
watch 1 "$tmp/w" 5
if wait_tile b01 online True; then ok; else bad "watch: the board's tile is not online"; fi
sleep 2
kill -9 $wpid 2>/dev/null
wait $wpid 2>/dev/null
if wait_tile b01 online False; then ok; else bad "watch killed: its tile is not offline (the last will)"; fi
# the frames after the journal's last position
last=$(grep '^@' "$j" | awk 'NF == 2 { t = $2 } END { print t + 0 }')
mkdir -p "$tmp/w2"
awk -v after="$last" '!/^#/ && $2 > after' "$tmp/w/times.txt" >"$tmp/w2/times.txt"
while read -r name t; do ln -s "$tmp/w/$name" "$tmp/w2/$name"; done <"$tmp/w2/times.txt"
watch 2 "$tmp/w2" 5
wait $wpid
st=$?
if [ $st -eq 0 ]; then ok; else bad "watch round 2: exit $st"; sed 's/^/    /' "$tmp/watch2.out" | head; fi
has "watch resumed" watch2.out "resuming the game in"
has "watch published" watch2.out "publishing to $broker as board b01 of hall h1"
# a third run on a still board: the director's actions
final=$(tail -1 "$tmp/w/times.txt" | awk '{ print $1 }')
mkdir -p "$tmp/w3"
for i in $(seq 0 149); do
	printf '%05d.jpg %d.%d\n' "$i" $((i / 10)) $((i % 10)) >>"$tmp/w3/times.txt"
	ln -s "$tmp/w/$final" "$tmp/w3/$(printf '%05d.jpg' "$i")"
done
watch 3 "$tmp/w3" 1
for _ in $(seq 100); do grep -q "publishing to" "$tmp/watch3.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
# a malformed control message from the director's own user: refused
"$load" --mqtt "$broker" --user director --password pw-director --raw goref/h1/b01/control/director 'nonsense{' \
	>"$tmp/raw.out" 2>&1 || bad "the raw control message was not published: $(cat "$tmp/raw.out")"
# no PIN, a wrong PIN: 403 and a log line
code=$(curl -s -o /dev/null -w '%{http_code}' -d 'board=b01&action=end' "$page/control")
if [ "$code" = 403 ]; then ok; else bad "control without the PIN: HTTP $code, not 403"; fi
code=$(curl -s -o /dev/null -w '%{http_code}' -d 'board=b01&action=end&pin=1111' "$page/control")
if [ "$code" = 403 ]; then ok; else bad "control with a wrong PIN: HTTP $code, not 403"; fi
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$page/control")
if [ "$code" = 405 ]; then ok; else bad "PUT: HTTP $code, not 405"; fi
code=$(curl -s -o /dev/null -w '%{http_code}' -d 'board=b01&action=end&pin=4321' "$page/control")
if [ "$code" = 200 ]; then ok; else bad "control end with the PIN: HTTP $code"; fi
sleep 1.5
code=$(curl -s -o /dev/null -w '%{http_code}' -d 'board=b01&action=count&pin=4321' "$page/control")
if [ "$code" = 200 ]; then ok; else bad "control count with the PIN: HTTP $code"; fi
wait $wpid
has "malformed control refused" watch3.out "refused a control message on goref/h1/b01/control/director"
has "director's end" watch3.out "the director says end"
has "director's count" watch3.out "the director says count"
has "wrong PIN logged" hall1.err "refused end to board b01 from 127.0.0.1: wrong PIN"
has "end event" game.jsonl '"type":"end"'
has "result event" game.jsonl '"type":"result"'
if wait_tile b01 online False; then ok; else bad "watch stopped: its tile is not offline"; fi
result=$(grep -o '"type":"result"[^}]*"result":"[^"]*"' "$tmp/game.jsonl" | grep -o '"result":"[^"]*"' | cut -d'"' -f4)
if [ -n "$result" ] && wait_tile b01 result "$result"; then ok; else bad "the tile's result '$(tile b01 result)' is not the game's '$result'"; fi
if [ "$(tile b01 page)" = "http://b01.local:8080/" ]; then ok; else bad "the tile's page link: '$(tile b01 page)'"; fi
# every event of the events file reached the hall: numbered 1.., in order, once
want=$(grep -o '"type":"[a-z_]*"' "$tmp/game.jsonl" | cut -d'"' -f4 | awk '{ print NR, $0 }')
got=$(grep '"board":"b01"' "$tmp/hall1.jsonl" | python3 -c '
import json, sys
for l in sys.stdin:
    e = json.loads(l); print(e["n"], e["type"])')
nwant=$(printf '%s\n' "$want" | wc -l)
if [ "$nwant" -ge 20 ] && [ "$got" = "$want" ]; then ok; else
	bad "the hall's events of b01 differ from the events file ($nwant events)"
	diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -10 | sed 's/^/    /'
fi
# a new game (--new: the journal set aside): the tile starts again from 1
cp "$tmp/game.jsonl" "$tmp/game1.jsonl"
watch 4 "$tmp/w3" 5 --new
wait $wpid
st=$?
if [ $st -eq 0 ]; then ok; else bad "watch --new: exit $st"; sed 's/^/    /' "$tmp/watch4.out" | head; fi
n2=$(wc -l <"$tmp/game.jsonl")
sleep 1
if [ "$n2" -ge 1 ] && wait_tile b01 n "$n2"; then ok; else bad "the new game's tile: n $(tile b01 n), not its $n2 events"; fi
if [ "$(tile b01 result)" = "" ]; then ok; else bad "the new game's tile keeps the last game's result"; fi
seg=$(grep '"board":"b01"' "$tmp/hall1.jsonl" | python3 -c '
import json, sys
ns = [json.loads(l)["n"] for l in sys.stdin]
cut = max(i for i in range(len(ns)) if ns[i] == 1)
print(" ".join(map(str, ns[cut:])))')
if [ "$seg" = "$(seq -s ' ' 1 "$n2")" ]; then ok; else bad "the new game's events at the hall: $seg"; fi

# --- 50 boards, the broker killed in the middle and restarted 10 s later
nev=30
[ "${GOREF_MQTT_LONG:-0}" = 1 ] && nev=120
# (this hall from a settings file, as a director's machine keeps them; a bad
# one is refused naming its line)
printf 'mqtt = %s\nhall = h2\nmqtt_user = director\nnot_a_key = 1\n' "$broker" >"$tmp/hall2-bad.conf"
run "hall, bad settings" 2 "$goref" hall --config "$tmp/hall2-bad.conf"
has "hall, bad settings" err "hall2-bad.conf:4:1: unknown setting 'not_a_key'"
printf 'mqtt = %s\nhall = h2\nhttp = 127.0.0.1:%s\nmqtt_user = director\nmqtt_password = %s\n' \
	"$broker" "$(mqtt_free_port)" "$(head -1 "$tmp/director.pw")" >"$tmp/hall2.conf"
"$goref" hall --config "$tmp/hall2.conf" --log "$tmp/hall2.jsonl" 2>"$tmp/hall2.err" &
hall2=$!
pids="$pids $hall2"
sleep 0.5
"$load" --mqtt "$broker" --hall h2 --boards 50 --events "$nev" --rate 1 --password-prefix pw- --linger 8 \
	--wait 60 >"$tmp/load.out" 2>"$tmp/load.err" &
lpid=$!
sleep $((nev / 3))
mqtt_kill
sleep 10
mqtt_start || bad "the broker did not start again"
wait $lpid
st=$?
if [ $st -eq 0 ]; then ok; else bad "load: exit $st"; tail -3 "$tmp/load.out" "$tmp/load.err" | sed 's/^/    /'; fi
sleep 2
kill $hall2
wait $hall2
check=$(python3 - "$tmp/hall2.jsonl" "$nev" <<'EOF'
import json, sys
seen = {}
bad = []
for l in open(sys.argv[1]):
    e = json.loads(l)
    seen.setdefault(e["board"], []).append(e["n"])
n = int(sys.argv[2])
for i in range(1, 51):
    b = "b%02d" % i
    if seen.get(b) != list(range(1, n + 1)):
        s = seen.get(b, [])
        bad.append("%s: %d events, first %s" % (b, len(s), s[:5]))
print("ok" if not bad and len(seen) == 50 else "; ".join(bad[:5]) or "boards %d" % len(seen))
EOF
)
if [ "$check" = ok ]; then ok; else bad "50 boards through a broker restart: $check"; fi
grep "stopped:" "$tmp/hall2.err" | sed 's/^/    hall: /'
grep '"summary"' "$tmp/load.out" | sed 's/^/    load: /'

# --- refusals
run "wrong password" 1 "$load" --mqtt "$broker" --hall h3 --board b01 --password wrong --events 2 --rate 0 --wait 3
has "wrong password" err "the broker refused board b01 of hall h3: Not authorized"
run "another board's topic" 1 "$load" --mqtt "$broker" --hall h3 --board b01 --topic-board b02 \
	--password pw-b01 --events 2 --rate 0 --wait 5
has "another board's topic" err "the broker refused event 1 on goref/h3/b02/events: Not authorized"
# TLS with the broker's CA
run "TLS" 0 "$load" --mqtt "127.0.0.1:$MQTT_TLS_PORT" --cafile "$tmp/broker/ca.crt" --hall h3 --board b03 \
	--password pw-b03 --events 3 --rate 0 --wait 10
has "TLS" out '"acked":3'
# TLS by name: the board's connection attempt (its name lookup on a thread of
# its own) gives libmosquitto the name, which the certificate is checked
# against: localhost's certificate takes the name, not the address (where
# localhost is 127.0.0.1 first: the broker listens there only)
if [ "$(getent ahosts localhost 2>/dev/null | awk 'NR == 1 { print $1 }')" != 127.0.0.1 ]; then
	echo "  (TLS by name skipped: localhost is not 127.0.0.1 first here)"
else
	run "TLS by name" 0 "$load" --mqtt "localhost:$MQTT_TLS_NAME_PORT" --cafile "$tmp/broker/ca.crt" --hall h3 \
		--board b04 --password pw-b04 --events 3 --rate 0 --wait 10
	has "TLS by name" out '"acked":3'
	run "TLS, a certificate for another name" 1 "$load" --mqtt "127.0.0.1:$MQTT_TLS_NAME_PORT" \
		--cafile "$tmp/broker/ca.crt" --hall h3 --board b05 --password pw-b05 --events 3 --rate 0 --wait 3
	has "TLS, a certificate for another name" err "host name verification failed"
fi
# usage
run "hall usage" 64 "$goref" hall --mqtt "$broker" --hall h1
run "watch mqtt without hall" 64 "$goref" watch --device "$tmp/w" --mqtt "$broker"
kill $hall1
wait $hall1
e2e_done
