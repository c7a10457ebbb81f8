#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-profile CASE="write 64" [N=20000] [FUNC=name] [BASE=null]:
# where the guest instructions of one case of the bench go, function by
# function.
#
# One icount boot of make bench's image (scripts/bench.sh: 1 vCPU, the
# same CPU model and kernel command line) with the QEMU plugin
# bench/qemu/insn-profile.so loaded; the guest (scripts/vm/bench.sh, part
# "insns") runs etw-bench-profile CASE N, which opens the plugin's window,
# runs the case N times and closes it.  The plugin counts every executed
# instruction by address; scripts/bench-profile.py names the addresses and
# prints instructions per event by function (FUNC: then per instruction
# of that function).  CASE and BASE: "write SIZE" (EventWrite of SIZE
# bytes into one session), "null" (the null ioctl), "getpid", "tl"
# (etw-bench-tracelogging's TraceLoggingWrite), "tlfields" (its EventWrite
# of the same fields).  With BASE, a second boot profiles that case and
# the table is the difference, by function.  Files in $BUILD/bench/ (insns.txt, icount.log; the base's as
# insns-base.txt, icount-base.log).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
n=${N:-20000}
out=$BUILD/bench
rel=${ETW_KERNEL:-$(scripts/kernels.sh | tail -n 1)}
plugin=$BUILD/bench/qemu/insn-profile.so

# profile SUFFIX KIND [SIZE]: one boot; its counts in insns$SUFFIX.txt,
# its console in icount$SUFFIX.log.
profile() {
	suffix=$1 kind=$2 size=${3:-0}
	rm -f "$out/insns.txt"
	BENCH_ONLY=insns BENCH_RUNS=icount BENCH_APPEND="etwinsns=$kind,$size,$n" \
		BENCH_QEMU="-plugin $plugin,outfile=$out/insns.txt" scripts/bench.sh >/dev/null
	[ -s "$out/insns.txt" ] || {
		echo "bench-profile: no profile of $kind; see $out/icount.log" >&2
		exit 1
	}
	if [ -n "$suffix" ]; then
		mv "$out/insns.txt" "$out/insns$suffix.txt"
		mv "$out/icount.log" "$out/icount$suffix.log"
	fi
}

make -s --no-print-directory BUILD="$BUILD" "$plugin"
set --
if [ -n "${BASE:-}" ]; then
	# shellcheck disable=SC2086
	profile -base $BASE
	set -- --base "$out/icount-base.log" "$out/insns-base.txt"
fi
# shellcheck disable=SC2086
profile "" ${CASE:-write 0}
exec /usr/bin/python3 scripts/bench-profile.py "$out/icount.log" "$out/insns.txt" "$BUILD" \
	"$BUILD/kmod/linux-headers-$rel/etw.ko" ${FUNC:+--func "$FUNC"} "$@"
