#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run host unit tests (KTAP programs); print their output and a last line
# "unit: P passed, F failed, S skipped".  A program that exits non-zero
# without reporting a failure (a crash) counts as one failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
# The -m32 tests (NAME_32) run natively where the kernel has IA-32
# emulation, else under QEMU's user-mode emulator (qemu-i386, which
# scripts/setup.sh installs): some hosts' kernels run no 32-bit program.
run_one() {
	case $1 in
	*_32) if [ -z "${ia32:-}" ]; then
		ia32=no
		"$1" --help >/dev/null 2>&1 </dev/null
		[ $? -eq 126 ] || ia32=yes
	      fi
	      if [ "$ia32" = no ]; then
		qemu-i386 "$1"
		return
	      fi ;;
	esac
	"$1"
}

for t in "$@"; do
	out=$(run_one "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	set -- $(printf '%s\n' "$out" | "$top/scripts/ktap-count.sh")
	pass=$((pass + $1)) fail=$((fail + $2)) skip=$((skip + $3))
	if [ "$rc" -ne 0 ] && [ "$2" -eq 0 ]; then
		echo "not ok - $t exited with status $rc"
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
