#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run host unit tests (KTAP programs); print their output and a last line
# "unit: P passed, F failed, S skipped".  A program that exits non-zero
# without reporting a failure (a crash) counts as one failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
for t in "$@"; do
	out=$("$t" 2>&1)
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
