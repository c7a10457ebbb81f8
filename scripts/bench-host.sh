#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's host part, run before the VM boots (and alone by make
# bench-host): what needs no kernel, measured on this machine, one core.
# Prints BENCH lines (bench/bench.h) for scripts/bench-table.awk.
#
#   17.6  compressed ETL reading: the XPRESS decoder alone, and etw dump
#         (text, JSON) of a compressed file built from the kernel sample
#         (ShutdownPerfDiagLogger's buffers repeated to BENCH_XPRESS_MB
#         megabytes of records, default 180, then compressed as the
#         relogger does: about 50 MB on disk)
#   17.6  decoding: etw dump of the same kernel records decoded and raw,
#         and the decoder alone (scripts/bench-host-decode.sh)
#   18.6  manifests: etw dump of manifest events against the same fields
#         written with TraceLogging (scripts/bench-host-manifest.sh)
#   19.6  viewers: etw report and etw export (speedscope, perfetto) of a
#         synthetic kernel trace of 1 M CPU samples with stacks and
#         context switches (scripts/bench-host-export.sh)
#
# Times are CPU time of the one thread or process (etw-bench-cpu), so the
# other work of a shared machine inflates them less than wall time would.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"
$MAKE lib tools "$BUILD/bench/etw-bench-xpress" "$BUILD/bench/etw-bench-cpu" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
etl=$tmp/compressed.etl
"$BUILD/bench/etw-bench-xpress" testdata/etl/etlparser-ShutdownPerfDiagLogger.etl \
	"$etl" "${BENCH_XPRESS_MB:-180}"
for fmt in text json; do
	"$BUILD/bench/etw-bench-cpu" "xpress.dump.$fmt" \
		"$BUILD/bin/etw" dump -f "$fmt" -o /dev/null "$etl"
done
scripts/bench-host-decode.sh --lines
# Needs providers to register without the module (private loggers): its
# rows say n/a where that is not so, and the rest of the part still runs.
scripts/bench-host-manifest.sh --lines || true
scripts/bench-host-export.sh --lines
