#!/bin/bash
# The short fuzz run of the suite: builds the libFuzzer harnesses of fuzz/
# with clang (ASan + UBSan, -O1) in a scratch folder and runs each for a
# bounded number of inputs (FUZZ_RUNS, default 5000) after its seed corpus
# (fuzz/corpus/NAME), inputs of at most 4096 bytes. Any crash, sanitizer
# report, broken round trip or input over 10 s fails the test. Skipped (exit
# 77) when clang or its libFuzzer runtime is absent. The long run:
# fuzz/run-long.sh.
# Usage: e2e_fuzz.sh [GOREF FIXTURES]  (both unused: the harnesses are built
# from the sources beside this script)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
# shellcheck source=lib_e2e.sh
. "$here/lib_e2e.sh"
runs=${FUZZ_RUNS:-5000}

"$src/fuzz/build.sh" "$tmp/build" >"$tmp/built" 2>"$tmp/build.err"
rc=$?
if [ $rc -eq 77 ]; then
	cat "$tmp/build.err"
	echo "SKIP: clang with libFuzzer is needed for the fuzz harnesses (./install-deps.sh installs it)"
	exit 77
fi
if [ $rc -ne 0 ]; then
	bad "fuzz/build.sh: exit $rc"
	sed 's/^/    /' "$tmp/build.err" | head -30
	e2e_done
	exit 1
fi
cat "$tmp/build.err"
mapfile -t targets <"$tmp/built"
if [ ${#targets[@]} -ge 5 ]; then ok; else bad "only ${#targets[@]} harnesses built: ${targets[*]}"; fi

for t in "${targets[@]}"; do
	mkdir -p "$tmp/corpus/$t"
	start=$SECONDS
	(cd "$tmp/build" && "./fuzz_$t" -runs="$runs" -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "$tmp/corpus/$t" "$src/fuzz/corpus/$t") >"$tmp/$t.log" 2>&1
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log" | tail -1)
	if [ $r -eq 0 ]; then
		ok
		echo "fuzz_$t: ${execs:-?} inputs in $((SECONDS - start)) s, nothing found"
	else
		bad "fuzz_$t: exit $r"
		grep -E 'ERROR|SUMMARY|runtime error|property broken|Test unit written' -A3 "$tmp/$t.log" | head -30 | sed 's/^/    /'
		for f in "$tmp/build"/crash-* "$tmp/build"/timeout-* "$tmp/build"/oom-* "$tmp/build"/leak-*; do
			[ -e "$f" ] || continue
			echo "    reproducer ($(wc -c <"$f") bytes, base64):"
			head -c 2048 "$f" | base64 | head -20 | sed 's/^/      /'
			rm -f "$f"
		done
	fi
done
e2e_done
