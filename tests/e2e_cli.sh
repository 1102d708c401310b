#!/usr/bin/env bash
# End-to-end tests of the goref program: score and check on fixture files,
# exit codes, errors that name the file and line, help text.
# usage: e2e_cli.sh GOREF FIXTURES
set -u
goref=$1
fx=$2
. "$(dirname "$0")/lib_e2e.sh"

# --- score
run "score json" 0 "$goref" score --json "$fx/rules/count_dead.txt"
has "score json" out '"black":45'
has "score json" out '"white":36'
has "score json" out '"dame":0'
has "score json" out '"komi":3.75'
has "score json" out '"winner":"B"'
has "score json" out '"margin":0.75'
has "score json" out '"result":"B+0.75"'
has "score json" out '"result_points":"B+1.5"'
has "score json" out '"dead":["G7","B2","C2"]'

run "score text" 0 "$goref" score "$fx/rules/count_dead.txt"
has "score text" out "Black wins by 3/4 stone"

run "score komi" 0 "$goref" score --json --komi 0 "$fx/rules/dame.txt"
has "score komi" out '"winner":"draw"'
has "score komi" out '"dame":5'
has "score komi" out '"black":12.5'

run "score stdin" 0 bash -c "'$goref' score --json - < '$fx/rules/dame.txt'"
has "score stdin" out '"result":"W+3.75"'

# an SGF's final position; its KM (0 here) is the komi
run "score sgf" 0 "$goref" score --json "$fx/check/legal.sgf"
has "score sgf" out '"komi":0'
has "score sgf" out '"black":14'

# bad input: the error names the file, line and column; exit 2
printf 'X.O\n.Z.\nO..\n' >"$tmp/bad.txt"
run "score bad diagram" 2 "$goref" score "$tmp/bad.txt"
has "score bad diagram" err "bad.txt:2:2:"
run "score missing file" 2 "$goref" score "$tmp/nope.txt"
has "score missing file" err "nope.txt"
run "score bad komi" 64 "$goref" score --komi abc "$fx/rules/dame.txt"
has "score bad komi" err "--komi"
run "score no file" 64 "$goref" score
run "score help" 0 "$goref" score --help
has "score help" out "usage: goref score"

# --- check
run "check legal" 0 "$goref" check "$fx/check/legal.sgf"
has "check legal" out "7 moves, legal"

run "check ko" 1 "$goref" check --json "$fx/check/ko.sgf"
has "check ko" out '"legal":false'
has "check ko" out '{"move":2,"color":"W","point":"B4","rule":"ko","article":"20.1"}'

run "check suicide" 1 "$goref" check "$fx/check/suicide.sgf"
has "check suicide" out "move 1, White A5: suicide (article 5, 19)"

run "check occupied, double" 1 "$goref" check --json "$fx/check/occupied_double.sgf"
has "check occupied, double" out '{"move":2,"color":"W","point":"E5","rule":"occupied","article":"2"}'
has "check occupied, double" out '{"move":4,"color":"B","point":"G3","rule":"double_move","article":"17.2"}'

run "check truncated" 2 "$goref" check "$fx/check/truncated.sgf"
has "check truncated" err "truncated.sgf:2:"
run "check missing" 2 "$goref" check "$tmp/none.sgf"
run "check bad rule" 64 "$goref" check --repetition sometimes "$fx/check/legal.sgf"
run "check help" 0 "$goref" check --help
has "check help" out "usage: goref check"

# --- the program
run "help" 0 "$goref" --help
has "help" out "Commands:"
run "no command" 64 "$goref"
run "unknown command" 64 "$goref" frobnicate
has "unknown command" err "unknown command 'frobnicate'"

e2e_done
