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
# leak-, timeout-, oom-). Prints the executions of each target and exits 1
# when any target found something. Inputs are at most 4096 bytes (images
# 65536); a run longer than 10 s or over 2 GB is a finding.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
secs=${1:-600}
shift || true
out=${FUZZ_OUT:-$src/build-fuzz}
mkdir -p "$out"
built=$("$here/build.sh" "$out")
rc=$?
[ $rc -eq 0 ] || exit $rc
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets <<<"$built"
status=0
printf '%-10s %10s %10s %8s  %s\n' target execs exec/s corpus result
for t in "${targets[@]}"; do
	mkdir -p "$out/corpus/$t"
	max=4096
	case $t in png | image) max=65536 ;; esac
	(cd "$out" && "./fuzz_$t" -max_total_time="$secs" -max_len=$max -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "corpus/$t" "$here/corpus/$t") >"$out/$t.log" 2>&1
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$t.log" | tail -1)
	n=$(find "$out/corpus/$t" -type f | wc -l)
	if [ $r -eq 0 ]; then
		res=ok
	else
		res="FOUND SOMETHING (exit $r): see $out/$t.log"
		status=1
	fi
	printf '%-10s %10s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$n" "$res"
done
exit $status
