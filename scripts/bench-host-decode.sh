#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's host rows for decoding (issue 17 item 6): what etw dump
# costs per kernel record decoded into named fields, against the same
# record printed raw, on this machine, one core.  Prints BENCH lines
# (bench/bench.h), then the rows as a small table (not with --lines, as
# scripts/bench-host.sh runs it for make bench's table).
#
#   decode.records, decode.file_bytes  the files bench/decode.c makes from
#       ShutdownPerfDiagLogger (Process, Thread, Image rundown): its data
#       buffers repeated to BENCH_DECODE_RECORDS records (default 1 M),
#       once as written (every record decodes) and once with each kernel
#       record's version made unknown (every record prints in hex)
#   decode.lib_ns       etw_decode_etl_event() alone, CPU ns per record
#   decode.text.*, decode.raw.*, decode.json.*  etw dump -o /dev/null of
#       the decoded file (text, JSON) and of the raw one (text), CPU time
#   decode.text_insns, decode.raw_insns  instructions per record of the
#       same dumps of one copy of the sample (callgrind), when valgrind is
#       installed: the ratio the issue judges, free of the machine's load
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"
$MAKE lib tools "$BUILD/bench/etw-bench-decode" "$BUILD/bench/etw-bench-cpu" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sample=testdata/etl/etlparser-ShutdownPerfDiagLogger.etl
out=$tmp/bench.txt
"$BUILD/bench/etw-bench-decode" "$sample" "$tmp/decoded.etl" "$tmp/raw.etl" \
	"${BENCH_DECODE_RECORDS:-1000000}" > "$out"
cpu() { # cpu KEY ARGS...: etw dump's CPU time, the best of three
	key=$1
	shift
	for i in 1 2 3; do
		"$BUILD/bench/etw-bench-cpu" "$key" "$BUILD/bin/etw" dump -o /dev/null "$@" |
			awk '$2 ~ /cpu_ns$/ { print $3 }'
	done | sort -n | head -n 1 | sed "s/^/BENCH $key.cpu_ns /"
}
cpu decode.text "$tmp/decoded.etl" >> "$out"
cpu decode.raw "$tmp/raw.etl" >> "$out"
cpu decode.json -f json "$tmp/decoded.etl" >> "$out"
if command -v valgrind >/dev/null 2>&1; then
	"$BUILD/bench/etw-bench-decode" "$sample" "$tmp/d1.etl" "$tmp/r1.etl" 1 |
		sed -n 's/^BENCH decode.records /n=/p' > "$tmp/n"
	. "$tmp/n"
	for f in d1:text r1:raw; do
		refs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$BUILD/bin/etw" dump -o /dev/null "$tmp/${f%%:*}.etl" 2>&1 |
			sed -n 's/.*refs: *//p' | tr -d ,)
		echo "BENCH decode.${f#*:}_insns $((refs / n))" >> "$out"
	done
fi
cat "$out"
[ "${1:-}" = --lines ] && exit 0
awk '$1 == "BENCH" { v[$2] = $3 }
function rate(k) { return v["decode.records"] / (v[k ".cpu_ns"] / 1e9) }
END {
	printf "\n17.6 etw dump of %d kernel records (%.0f MB), one core, CPU time\n",
		v["decode.records"], v["decode.file_bytes"] / 1e6
	printf "  %-44s %12s %10s %8s\n", "", "records/s", "MB/s", "target"
	printf "  %-44s %12.0f %10.0f %8s %s\n", "text, decoded fields", rate("decode.text"),
		v["decode.file_bytes"] / 1e6 / (v["decode.text.cpu_ns"] / 1e9), ">= 1M",
		(rate("decode.text") >= 1e6 ? "yes" : "NO")
	printf "  %-44s %12.0f %10.0f\n", "text, the same records raw (hex)", rate("decode.raw"),
		v["decode.file_bytes"] / 1e6 / (v["decode.raw.cpu_ns"] / 1e9)
	printf "  %-44s %12.0f %10.0f\n", "JSON, decoded fields", rate("decode.json"),
		v["decode.file_bytes"] / 1e6 / (v["decode.json.cpu_ns"] / 1e9)
	printf "  %-44s %12.0f ns\n", "decoder alone (etw_decode_etl_event)", v["decode.lib_ns"]
	r = v["decode.text.cpu_ns"] / v["decode.raw.cpu_ns"]
	printf "  %-44s %11.2fx %19s %s\n", "decoded / raw record, CPU time", r, "<= 2x",
		(r <= 2 ? "yes" : "NO")
	if ("decode.text_insns" in v) {
		r = v["decode.text_insns"] / v["decode.raw_insns"]
		printf "  %-44s %11.2fx %19s %s  (%d / %d instructions)\n",
			"decoded / raw record, instructions", r, "<= 2x",
			(r <= 2 ? "yes" : "NO"), v["decode.text_insns"], v["decode.raw_insns"]
	}
}' "$out"
