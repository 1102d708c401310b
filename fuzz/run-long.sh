#!/bin/bash
# The long fuzz run: builds every harness (fuzz/build.sh) and runs each for
# SECONDS (default 600), one after the other, on its seed corpus.
#
#   fuzz/run-long.sh [SECONDS] [TARGET...]     e.g. fuzz/run-long.sh 60 sgf settings
#
# Work goes in build-fuzz/ beside fuzz/ (FUZZ_OUT to change it): the
# corpus each run grew in build-fuzz/corpus/NAME (kept from run to run, so
# a second run starts where the first stopped), its log in
# build-fuzz/NAME.log, and any crashing input as build-fuzz/crash-* (or
# leak-, timeout-, oom-). Prints the executions of each target, its slowest
# input, and exits 1 when any target found something. Inputs are at most
# 4096 bytes (images 65536); a run longer than 10 s or over 2 GB is a
# finding.
#
# A timeout is measured on the wall clock, and a machine shared with other
# work (or `nice -n 19`) can stall the fuzzer for seconds: an input that
# timed out is run again alone, and when it then takes under 1 s it is a
# stall, not a finding: kept in build-fuzz/stalls/, counted, and the target
# goes on for the rest of its time.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
secs=${1:-600}
shift || true
out=${FUZZ_OUT:-$src/build-fuzz}
mkdir -p "$out" "$out/stalls"
built=$("$here/build.sh" "$out")
rc=$?
[ $rc -eq 0 ] || exit $rc
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets <<<"$built"
status=0
printf '%-10s %10s %10s %8s %8s %6s  %s\n' target execs exec/s corpus slowest stalls result
for t in "${targets[@]}"; do
	mkdir -p "$out/corpus/$t"
	max=4096
	case $t in png | image) max=65536 ;; esac
	: >"$out/$t.log"
	start=$(date +%s)
	left=$secs
	execs=0
	slowest=0
	stalls=0
	res=ok
	while [ "$left" -gt 0 ]; do
		mark=$(mktemp "$out/.mark.XXXXXX")
		(cd "$out" && "./fuzz_$t" -max_total_time="$left" -max_len=$max -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 "corpus/$t" "$here/corpus/$t") >>"$out/$t.log" 2>&1
		r=$?
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)
		execs=$((execs + ${n:-0}))
		s=$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$out/$t.log" | tail -1)
		[ "${s:-0}" -gt "$slowest" ] && slowest=$s
		art=$(find "$out" -maxdepth 1 -name 'timeout-*' -newer "$mark" | head -1)
		rm -f "$mark"
		if [ $r -ne 0 ] && [ -n "$art" ]; then
			ms=$(cd "$out" && "./fuzz_$t" "$art" 2>&1 | sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' | tail -1)
			if [ -n "$ms" ] && [ "$ms" -lt 1000 ]; then
				echo "run-long: $art took $ms ms alone: a stall of the machine, not a finding" >>"$out/$t.log"
				mv "$art" "$out/stalls/$t-$(basename "$art")"
				stalls=$((stalls + 1))
				left=$((secs - ($(date +%s) - start)))
				continue
			fi
		fi
		if [ $r -ne 0 ]; then
			res="FOUND SOMETHING (exit $r): see $out/$t.log"
			status=1
		fi
		break
	done
	n=$(find "$out/corpus/$t" -type f | wc -l)
	el=$(($(date +%s) - start))
	printf '%-10s %10s %10s %8s %7ss %6s  %s\n' "$t" "$execs" "$((execs / (el > 0 ? el : 1)))" "$n" "$slowest" \
		"$stalls" "$res"
done
exit $status
