#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-profile CASE="write 64" [N=20000] [FUNC=name]: where the
# guest instructions of one case of the bench go, function by function.
#
# One icount boot of make bench's image (scripts/bench.sh: 1 vCPU, the
# same CPU model and kernel command line) with the QEMU plugin
# bench/qemu/insn-profile.so loaded; the guest (scripts/vm/bench.sh, part
# "insns") runs etw-bench-profile CASE N, which opens the plugin's window,
# runs the case N times and closes it.  The plugin counts every executed
# instruction by address; scripts/bench-profile.py names the addresses and
# prints instructions per event by function (FUNC: then per instruction
# of that function).  CASE: "write SIZE" (EventWrite of SIZE bytes into one
# session), "null" (the null ioctl), "getpid".  Files in $BUILD/bench/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
case=${CASE:-write 0}
n=${N:-20000}
# shellcheck disable=SC2086
set -- $case
kind=$1 size=${2:-0}
out=$BUILD/bench
rel=${ETW_KERNEL:-$(scripts/kernels.sh | tail -n 1)}
plugin=$BUILD/bench/qemu/insn-profile.so
profile=$out/insns.txt

make -s --no-print-directory BUILD="$BUILD" "$plugin"
rm -f "$profile"
BENCH_ONLY=insns BENCH_RUNS=icount BENCH_APPEND="etwinsns=$kind,$size,$n" \
	BENCH_QEMU="-plugin $plugin,outfile=$profile" scripts/bench.sh >/dev/null
[ -s "$profile" ] || { echo "bench-profile: no profile; see $out/icount.log" >&2; exit 1; }
exec /usr/bin/python3 scripts/bench-profile.py "$out/icount.log" "$profile" "$BUILD" \
	"$BUILD/kmod/linux-headers-$rel/etw.ko" ${FUNC:+"$FUNC"}
