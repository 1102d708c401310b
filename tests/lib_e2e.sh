# Shared by the end-to-end test scripts (sourced, not run): counters, a
# scratch folder, and checks on a command's exit status and output.
# After sourcing: $tmp is a scratch folder removed at exit; call e2e_done last.
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME WANT_EXIT CMD...: runs, keeps stdout in $tmp/out and stderr in $tmp/err
run() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -eq "$want" ]; then ok; else
		bad "$name: exit $got, expected $want"
		sed 's/^/    out: /' "$tmp/out" | head -20
		sed 's/^/    err: /' "$tmp/err" | head -20
	fi
}
# has NAME FILE TEXT: $tmp/FILE must contain TEXT
has() {
	if grep -qF -- "$3" "$tmp/$2"; then ok; else
		bad "$1: '$3' not in $2"
		sed 's/^/    /' "$tmp/$2" | head -20
	fi
}
# hasnt NAME FILE TEXT: $tmp/FILE must not contain TEXT
hasnt() {
	if ! grep -qF -- "$3" "$tmp/$2"; then ok; else
		bad "$1: '$3' in $2"
		grep -F -- "$3" "$tmp/$2" | head -5 | sed 's/^/    /'
	fi
}
# The closing line, and the exit status.
e2e_done() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# e2e_need_render: $render, goref-render beside $goref, or the test skips
# (77: no vision/ built); $game, the sample game it draws
e2e_need_render() {
	render=$(dirname "$goref")/goref-render
	[ -x "$render" ] || { echo "SKIP: goref-render not built"; exit 77; }
	game=$(dirname "$0")/../samples/game.sgf
}
