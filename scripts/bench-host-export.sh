#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's host rows for the viewers (etw report and etw export) on
# this machine, one core, CPU time: a synthetic kernel trace of
# BENCH_VIEWERS_SAMPLES CPU samples (default 1 M) with their stacks, and
# a CSwitch with its stack and a ReadyThread every 8 samples
# (bench/viewers.c).  Prints BENCH lines (bench/bench.h), then the rows
# as a small table (not with --lines, as scripts/bench-host.sh runs it).
#
#   viewers.records, viewers.samples, viewers.file_bytes  the trace
#   viewers.report.*        etw report -o /dev/null (the best of three)
#   viewers.speedscope.*    etw export -f speedscope
#   viewers.perfetto.*      etw export -f perfetto
#   .cpu_ns, .maxrss_kb     CPU time, and peak resident memory, which
#                           counts the pages of the trace's mapping read
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"
$MAKE tools "$BUILD/bench/etw-bench-viewers" "$BUILD/bench/etw-bench-cpu" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/bench.txt
"$BUILD/bench/etw-bench-viewers" "$tmp/trace.etl" "${BENCH_VIEWERS_SAMPLES:-1000000}" > "$out"
run() { # run KEY ARGS...: etw's CPU time and peak memory, the best of three
	key=$1
	shift
	for i in 1 2 3; do
		"$BUILD/bench/etw-bench-cpu" "$key" "$BUILD/bin/etw" "$@" |
			awk '$2 ~ /cpu_ns$/ { c = $3 } $2 ~ /maxrss_kb$/ { m = $3 } END { print c, m }'
	done | sort -n | head -n 1 |
		awk -v k="$key" '{ print "BENCH " k ".cpu_ns " $1; print "BENCH " k ".maxrss_kb " $2 }'
}
run viewers.report report -o /dev/null "$tmp/trace.etl" >> "$out"
run viewers.speedscope export -f speedscope -o "$tmp/t.json" "$tmp/trace.etl" >> "$out"
run viewers.perfetto export -f perfetto -o "$tmp/t.pftrace" "$tmp/trace.etl" >> "$out"
echo "BENCH viewers.speedscope.out_bytes $(stat -c %s "$tmp/t.json")" >> "$out"
echo "BENCH viewers.perfetto.out_bytes $(stat -c %s "$tmp/t.pftrace")" >> "$out"
cat "$out"
[ "${1:-}" = --lines ] && exit 0
awk '$1 == "BENCH" { v[$2] = $3 }
function rate(k) { return v["viewers.records"] / (v[k ".cpu_ns"] / 1e9) }
END {
	printf "\n19.6 etw report and etw export of %d CPU samples, %d records (%.0f MB), one core\n",
		v["viewers.samples"], v["viewers.records"], v["viewers.file_bytes"] / 1e6
	printf "  %-36s %12s %14s %10s\n", "", "records/s", "s / M records", "peak MB"
	split("report speedscope perfetto", w, " ")
	for (i = 1; i <= 3; i++) {
		k = "viewers." w[i]
		printf "  %-36s %12.0f %14.2f %10.0f\n", (i == 1 ? "etw report" : "etw export -f " w[i]),
			rate(k), v[k ".cpu_ns"] / 1e9 / (v["viewers.records"] / 1e6), v[k ".maxrss_kb"] / 1024
	}
	printf "  %-36s %12s %14.2f %10s %s\n", "etw report, target", "", 1, "",
		(v["viewers.report.cpu_ns"] / 1e9 <= v["viewers.records"] / 1e6 ? "met" : "NOT met")
}' "$out"
