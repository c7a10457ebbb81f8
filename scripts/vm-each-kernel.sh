#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz, make stress: run some selftests on every kernel of the VM lane
# (scripts/kernels.sh), each in a fresh VM, and scan each kernel log:
#   vm-each-kernel.sh NAME "test ..." "VAR=value ..." TIMEOUT
# Prints the tests' output and one verdict line per kernel; exits non-zero
# if any kernel had a failure or a kernel report.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
name=$1 tests=$2 env=$3 timeout_s=$4
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"

scripts/setup.sh "$BUILD" >/dev/null
kernels=$(scripts/kernels.sh)
$MAKE lib tools selftests stage >/dev/null
mkdir -p "$BUILD/check"
status=0
for rel in $kernels; do
	if ! $MAKE "modules-$rel" > "$BUILD/check/$name-build-$rel.log" 2>&1; then
		cat "$BUILD/check/$name-build-$rel.log"
		exit 1
	fi
	initrd=$BUILD/vm/$rel/initramfs-$name.cpio.gz
	log=$BUILD/check/$name-$rel.log
	scripts/vm/mkinitramfs.sh "$initrd" "$BUILD/kmod/linux-headers-$rel/etw.ko" "$BUILD/stage"
	echo "== $name on $rel (console log in $log)"
	t0=$(date +%s)
	ETW_VM_TIMEOUT=$timeout_s \
	ETW_VM_APPEND="etwtests=$(echo $tests | tr ' ' ,) etwenv=$(echo $env | tr ' ' ,)" \
		scripts/vm/run.sh "$BUILD/vm/$rel/vmlinuz" "$initrd" test "$log"
	sed -n '/^ETW-TEST-BEGIN/,/^ETW-DMESG-BEGIN/p' "$log" | tr -d '\r' |
		grep -E '^(# |ok |not ok )' | grep -vE '^# +(RUN|OK) '
	if ! scripts/vm/scan.sh "$log" "$name $rel" > "$log.scan"; then
		status=1
	fi
	grep -E '^(not ok|# kernel:)' "$log.scan" || true
	echo "$(tail -n 1 "$log.scan"), $(( $(date +%s) - t0 )) s"
done
exit $status
