#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-manifest, host rows for issue 18 item 6: what etw dump costs
# per manifest event against the same fields written with TraceLogging,
# on this machine, one core.  Prints BENCH lines (bench/bench.h), then
# the rows as a small table (not with --lines, as make bench's host part
# runs it: scripts/bench-table.awk prints them there).
#
#   manifest.records, manifest.lost   the two files bench/manifest.c
#       writes through private loggers: BENCH_MANIFEST_RECORDS events
#       (default 200,000) of five fields each, once from the provider etw
#       mc makes of bench/manifest.man, once with TraceLoggingWrite
#   manifest.text.cpu_ns, manifest.tl.cpu_ns   etw dump -o /dev/null of
#       each (with --manifest bench/manifest.man), CPU time, best of three
#   manifest.text_insns, manifest.tl_insns   instructions per event of the
#       same dumps of 2,000-event files (callgrind), when valgrind is
#       installed: the ratio the issue judges (target <= 1.5x)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"
$MAKE lib tools "$BUILD/bench/etw-bench-manifest" "$BUILD/bench/etw-bench-cpu" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/bench.txt
man=bench/manifest.man
"$BUILD/bench/etw-bench-manifest" "$tmp" "${BENCH_MANIFEST_RECORDS:-200000}" > "$out"
cpu() { # cpu KEY FILE: etw dump's CPU time, the best of three
	for i in 1 2 3; do
		"$BUILD/bench/etw-bench-cpu" "$1" "$BUILD/bin/etw" dump -o /dev/null \
			--manifest "$man" "$2" | awk '$2 ~ /cpu_ns$/ { print $3 }'
	done | sort -n | head -n 1 | sed "s/^/BENCH $1.cpu_ns /"
}
cpu manifest.text "$tmp/manifest.etl" >> "$out"
cpu manifest.tl "$tmp/tracelogging.etl" >> "$out"
if command -v valgrind >/dev/null 2>&1; then
	mkdir -p "$tmp/small"
	"$BUILD/bench/etw-bench-manifest" "$tmp/small" 2000 >/dev/null
	for f in manifest:text tracelogging:tl; do
		refs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$BUILD/bin/etw" dump -o /dev/null --manifest "$man" \
			"$tmp/small/${f%%:*}.etl" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,)
		echo "BENCH manifest.${f#*:}_insns $((refs / 2000))" >> "$out"
	done
fi
cat "$out"
[ "${1:-}" = --lines ] && exit 0
awk '$1 == "BENCH" { v[$2] = $3 }
END {
	printf "\n18.6 etw dump of %d events of five fields, one core (%d lost)\n",
		v["manifest.records"], v["manifest.lost"]
	printf "  %-40s %12s %10s\n", "", "events/s", "ns/event"
	printf "  %-40s %12.0f %10.0f\n", "manifest (XMLFile), text",
		v["manifest.records"] / (v["manifest.text.cpu_ns"] / 1e9),
		v["manifest.text.cpu_ns"] / v["manifest.records"]
	printf "  %-40s %12.0f %10.0f\n", "TraceLogging (Tlg), text",
		v["manifest.records"] / (v["manifest.tl.cpu_ns"] / 1e9),
		v["manifest.tl.cpu_ns"] / v["manifest.records"]
	r = v["manifest.text.cpu_ns"] / v["manifest.tl.cpu_ns"]
	printf "  %-40s %11.2fx %10s %s\n", "manifest / TraceLogging, CPU time", r,
		"<= 1.5x", (r <= 1.5 ? "yes" : "NO")
	if ("manifest.text_insns" in v) {
		r = v["manifest.text_insns"] / v["manifest.tl_insns"]
		printf "  %-40s %11.2fx %10s %s  (%d / %d instructions)\n",
			"manifest / TraceLogging, instructions", r, "<= 1.5x",
			(r <= 1.5 ? "yes" : "NO"), v["manifest.text_insns"], v["manifest.tl_insns"]
	}
}' "$out"
