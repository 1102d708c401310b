#!/usr/bin/env bash
# End-to-end tests of goref referee and goref makelog (issue 3).
# The real-games proof: every GNU Go self-play game under selfplay/*.sgf,
# turned into a clean observation log by 'goref makelog', refereed by
# 'goref referee --sgf', comes back as the same moves with no ruling at all.
# Then hand-written logs under referee/: events, bad logs, options, help.
# usage: e2e_referee.sh GOREF FIXTURES
set -u
goref=$1
fx=$2
. "$(dirname "$0")/lib_e2e.sh"

# The moves of an SGF, one a line (";B[pd]", ";W[]"; "tt" is a pass too).
moves() { tr -d ' \t\r\n' <"$1" | grep -o ';[BW]\[[a-z]*\]' | sed 's/\[tt\]/[]/'; }
# The rulings among events: any of these types is one.
rulings='"type":"(illegal|double_move|missed_capture|wrong_removal|takeback|moved_stone|disturbed|warning|ambiguous|unexplained|error)"'

# --- the real-games proof
games=0
clean=0
for sgf in "$fx"/selfplay/*.sgf; do
	[ -e "$sgf" ] || continue
	games=$((games + 1))
	name=$(basename "$sgf" .sgf)
	if ! "$goref" makelog "$sgf" >"$tmp/$name.log" 2>"$tmp/err"; then
		bad "selfplay $name: makelog failed"
		sed 's/^/    err: /' "$tmp/err"
		continue
	fi
	if ! "$goref" referee --sgf "$tmp/$name.out.sgf" "$tmp/$name.log" >"$tmp/$name.ev" 2>"$tmp/err"; then
		bad "selfplay $name: referee failed"
		sed 's/^/    err: /' "$tmp/err"
		continue
	fi
	good=1
	if grep -qE "$rulings" "$tmp/$name.ev"; then
		bad "selfplay $name: a ruling on a clean log"
		grep -E "$rulings" "$tmp/$name.ev" | head -5 | sed 's/^/    /'
		good=0
	fi
	if ! diff <(moves "$sgf") <(moves "$tmp/$name.out.sgf") >"$tmp/diff"; then
		bad "selfplay $name: the moves differ (original <, refereed >)"
		head -10 "$tmp/diff" | sed 's/^/    /'
		good=0
	fi
	if [ "$(moves "$sgf" | wc -l)" -eq 0 ]; then
		bad "selfplay $name: no moves in the game"
		good=0
	fi
	if ! "$goref" check "$tmp/$name.out.sgf" >"$tmp/out" 2>&1; then
		bad "selfplay $name: goref check rejects the refereed SGF"
		sed 's/^/    /' "$tmp/out"
		good=0
	fi
	if ! grep -q '"type":"result"' "$tmp/$name.ev"; then
		bad "selfplay $name: no result at the end"
		good=0
	fi
	[ "$good" -eq 1 ] && { ok; clean=$((clean + 1)); }
done
echo "selfplay: $clean of $games games came back clean"
[ "$games" -gt 0 ] || bad "no self-play games under $fx/selfplay"

# the same through a pipe, other timings: the first 13x13 game
first=$(ls "$fx"/selfplay/13x13-*.sgf 2>/dev/null | head -1)
if [ -n "$first" ]; then
	run "makelog timings" 0 "$goref" makelog --interval 0.25 --lift-delay 0.125 "$first"
	has "makelog timings" out "@ 0.25"
	run "referee stdin" 0 bash -c "'$goref' makelog --interval 0.25 --lift-delay 0.125 '$first' | '$goref' referee --sgf '$tmp/pipe.sgf' -"
	if diff <(moves "$first") <(moves "$tmp/pipe.sgf") >/dev/null; then ok; else bad "referee stdin: moves differ"; fi
	hasnt "referee stdin" out '"type":"illegal"'
fi

# --- makelog
run "makelog handicap" 0 "$goref" makelog "$fx/sgf/handicap.sgf"
has "makelog handicap" out "setup stones"
cp "$tmp/out" "$tmp/handicap.log"
run "referee setup" 0 "$goref" referee --setup --sgf "$tmp/handicap.sgf" "$tmp/handicap.log"
has "referee setup" out '{"t":1,"type":"move","color":"W","point":"G7","move":1'
if diff <(moves "$fx/sgf/handicap.sgf") <(moves "$tmp/handicap.sgf") >/dev/null; then ok; else
	bad "referee setup: moves differ"
fi
if grep -qE "$rulings" "$tmp/out"; then bad "referee setup: a ruling"; else ok; fi

run "makelog void move" 1 "$goref" makelog "$fx/check/ko.sgf"
has "makelog void move" err "move 2 (W B4) is void: ko"
run "makelog double move" 1 "$goref" makelog "$fx/check/occupied_double.sgf"
has "makelog double move" err "move 2"
run "makelog truncated" 2 "$goref" makelog "$fx/check/truncated.sgf"
has "makelog truncated" err "truncated.sgf:2:"
run "makelog missing" 2 "$goref" makelog "$tmp/none.sgf"
run "makelog bad interval" 64 "$goref" makelog --interval -1 "$fx/check/legal.sgf"
has "makelog bad interval" err "--interval"
run "makelog no file" 64 "$goref" makelog
run "makelog help" 0 "$goref" makelog --help
has "makelog help" out "usage: goref makelog"

# --- referee: a hand-written clean game
run "capture" 0 "$goref" referee --sgf "$tmp/capture5.sgf" "$fx/referee/capture5.log"
has "capture" out '{"t":5,"type":"move","color":"B","point":"A2"'
has "capture" out '{"t":5.5,"type":"capture","color":"B","points":["A1"]'
has "capture" out '"type":"pass","color":"W"'
has "capture" out '"type":"end"'
has "capture" out '"type":"count"'
has "capture" out '"type":"result","result":"W+4.5"'
[ "$(wc -l <"$tmp/out")" -eq 11 ] && ok || bad "capture: $(wc -l <"$tmp/out") events, expected 11"
if grep -qE "$rulings" "$tmp/out"; then bad "capture: a ruling"; else ok; fi
run "capture sgf check" 0 "$goref" check "$tmp/capture5.sgf"
has "capture sgf check" out "7 moves, legal"
[ ! -e "$tmp/capture5.sgf.tmp" ] && ok || bad "capture: the .tmp file is left"
# the events are JSON: one object a line
if command -v python3 >/dev/null; then
	run "capture json" 0 python3 -c 'import json,sys
for l in open(sys.argv[1]): json.loads(l)' "$tmp/out"
fi

run "quiet" 0 "$goref" referee --quiet --sgf "$tmp/quiet.sgf" "$fx/referee/capture5.log"
[ ! -s "$tmp/out" ] && ok || bad "quiet: events printed"
if cmp -s "$tmp/quiet.sgf" "$tmp/capture5.sgf"; then ok; else bad "quiet: another SGF"; fi
run "komi" 0 "$goref" referee --komi 0 "$fx/referee/capture5.log"
has "komi" out '"result":"B+1.5"'
run "size given" 0 "$goref" referee --size 5 "$fx/referee/capture5.log"
run "size wrong" 2 "$goref" referee --size 9 "$fx/referee/capture5.log"
has "size wrong" err "capture5.log:4:6: row of 5 points where the board has 9"

# a ruling, printed as it happens, and in the SGF
run "double move" 0 "$goref" referee --sgf "$tmp/double5.sgf" "$fx/referee/double5.log"
has "double move" out '"type":"double_move","color":"B","point":"D4"'
has "double move" out '"article":"17.2"'
has "double move" out '"type":"warning","color":"B"'
has "double5.sgf" double5.sgf "GRWARNB[1]"

# a triple ko reached by moves: White's retake at B2 repeats the whole board
# (article 20.3), each way --repetition can say
tk=$fx/referee/triple_ko.log
run "triple ko forbid" 0 "$goref" referee --sgf "$tmp/tk.sgf" "$tk"
has "triple ko forbid" out '{"t":28,"type":"illegal","color":"W","point":"B2","move":28,"rule":"repetition","article":"20"'
has "triple ko forbid" out '{"t":28.5,"type":"lifted","points":["B2"]'
has "triple ko forbid" out '{"t":29,"type":"move","color":"B","point":"J1","move":29'
[ "$(grep -cE "$rulings" "$tmp/out")" -eq 1 ] && ok || bad "triple ko forbid: other rulings than the one"
hasnt "triple ko forbid" out '"type":"result"'
for rule in draw:Draw replay:Replay no-result:Void; do
	run "triple ko ${rule%%:*}" 0 "$goref" referee --repetition "${rule%%:*}" "$tk"
	has "triple ko ${rule%%:*}" out '{"t":28,"type":"move","color":"W","point":"B2","points":["C2"],"move":28'
	has "triple ko ${rule%%:*}" out "{\"t\":28,\"type\":\"result\",\"result\":\"${rule##*:}\""
	hasnt "triple ko ${rule%%:*}" out '"type":"illegal"'
	hasnt "triple ko ${rule%%:*}" out '"t":29,'
	if grep -qE "$rulings" "$tmp/out"; then bad "triple ko ${rule%%:*}: a ruling"; else ok; fi
done
# GNU Go as the oracle: before move 28 White's B2 is a superko (illegal with
# situational superko), not a simple ko (legal with GNU Go's default rule)
gnugo=/usr/games/gnugo
if [ -x "$gnugo" ]; then
	printf 'loadsgf %s 28\nis_legal W B2\nis_legal W J1\n' "$tmp/tk.sgf" >"$tmp/tk.gtp"
	"$gnugo" --mode gtp --situational-superko <"$tmp/tk.gtp" | grep '^=' >"$tmp/gg"
	[ "$(tr -d '\n' <"$tmp/gg")" = "= white= 0= 1" ] && ok || bad "GNU Go (superko): $(tr '\n' ' ' <"$tmp/gg")"
	"$gnugo" --mode gtp <"$tmp/tk.gtp" | grep '^=' >"$tmp/gg"
	[ "$(tr -d '\n' <"$tmp/gg")" = "= white= 1= 1" ] && ok || bad "GNU Go (simple ko): $(tr '\n' ' ' <"$tmp/gg")"
fi

# points not seen ('?'): no position, no move, no ruling, persistence goes on
run "unseen" 0 "$goref" referee "$fx/referee/unseen.log"
has "unseen" out '{"t":3,"type":"move","color":"B","point":"C3"'
has "unseen" out '{"t":7,"type":"wrong_removal","color":"W","points":["C3"]'
has "unseen" out '{"t":9,"type":"restored"'
hasnt "unseen" out '"t":2,'

# a command before the first board
run "command first" 2 "$goref" referee "$fx/referee/command_first.log"
has "command first" err "command_first.log:2:"
has "command first" err "--size"
run "command first sized" 0 "$goref" referee --size 9 --sgf "$tmp/resign.sgf" "$fx/referee/command_first.log"
has "command first sized" out '"result":"W+R"'
has "resign.sgf" resign.sgf "RE[W+R]"

# --- referee: bad logs name FILE:LINE:COLUMN, exit 2, no SGF
run "bad time" 2 "$goref" referee --sgf "$tmp/bad.sgf" "$fx/referee/bad_time.log"
has "bad time" err "bad_time.log:9:3: time goes backwards (2.5 after 3)"
has "bad time" out '"type":"pass"' # events before the bad line were printed
[ ! -e "$tmp/bad.sgf" ] && [ ! -e "$tmp/bad.sgf.tmp" ] && ok || bad "bad time: an SGF was written"
run "bad size" 2 "$goref" referee "$fx/referee/bad_size.log"
has "bad size" err "bad_size.log:8:3: row of 2 points where the board has 3"
run "bad cut" 2 "$goref" referee "$fx/referee/bad_cut.log"
has "bad cut" err "bad_cut.log:8:1: diagram cut short: 2 of 3 rows"
run "bad command" 2 "$goref" referee "$fx/referee/bad_command.log"
has "bad command" err "bad_command.log:5:5: unknown command 'pas'"
run "bad stdin" 2 bash -c "'$goref' referee - < '$fx/referee/bad_command.log'"
has "bad stdin" err "stdin:5:5:"
run "missing log" 2 "$goref" referee "$tmp/none.log"
has "missing log" err "none.log"
run "unwritable sgf" 2 "$goref" referee --quiet --sgf "$tmp/no/such/dir/x.sgf" "$fx/referee/capture5.log"
has "unwritable sgf" err "x.sgf"

# --- referee: usage
run "referee help" 0 "$goref" referee --help
has "referee help" out "usage: goref referee"
has "referee help" out "--sgf OUT"
run "referee no log" 64 "$goref" referee
run "referee two logs" 64 "$goref" referee a.log b.log
run "referee bad option" 64 "$goref" referee --frob "$fx/referee/capture5.log"
run "referee bad persist" 64 "$goref" referee --persist 0 "$fx/referee/capture5.log"
has "referee bad persist" err "--persist"
run "referee bad size" 64 "$goref" referee --size 25 "$fx/referee/capture5.log"
run "referee bad rule" 64 "$goref" referee --repetition sometimes "$fx/referee/capture5.log"
run "referee bad komi" 64 "$goref" referee --komi x "$fx/referee/capture5.log"
run "referee sgf no name" 64 "$goref" referee --sgf

# --- streaming: an event is out before the log ends (a guard of 60 s against
# a hang, not a timing test)
if coproc REF { "$goref" referee -; }; then
	printf '@ 0\n..\n..\n@ 1\nX.\n..\n' >&"${REF[1]}"
	if IFS= read -r -t 60 -u "${REF[0]}" first_event; then
		case $first_event in
		*'"type":"move"'*) ok ;;
		*) bad "streaming: first event '$first_event'" ;;
		esac
	else
		bad "streaming: no event before the end of the log"
	fi
	eval "exec ${REF[1]}>&-"
	wait "$REF_PID" 2>/dev/null
fi

e2e_done
