# SPDX-License-Identifier: GPL-2.0
#
# What scripts/check.sh and scripts/check-debug.sh share, sourced after
# they set CHECK_NAME: the tally of passes, failures and skips, the closing
# "N passed, N failed" line, gates (a build or static check that is one
# pass or one fail), and the VM boots' accelerator.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
export BUILD
MAKE="make -s --no-print-directory BUILD=$BUILD"
# Kernel text patched while two vCPUs of multi-threaded TCG run it can
# oops the guest (Documentation/guarantees.rst), and the kernel logger's
# tests and the fuzzer's kernel flags attach sources hundreds of times: the
# boots run their vCPUs on one host thread (about a tenth more time), unless
# ETW_VM_ACCEL says otherwise.
ETW_VM_ACCEL=${ETW_VM_ACCEL:-tcg,thread=single}
export ETW_VM_ACCEL
log=$BUILD/check
start=$(date +%s)

passed=0 failed=0 skipped=0
tally() { # tally P F S
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
}
finish() {
	now=$(date +%s); dt=$((now - start))
	echo "$CHECK_NAME: $skipped skipped, $dt s"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
	exit $?
}
step() { printf '== %s\n' "$*"; }
# gate NAME fatal|go CMD...: fatal stops the run at a failure.
gate() {
	name=$1 mode=$2
	shift 2
	if "$@"; then
		echo "ok - $name"
		tally 1 0 0
	else
		echo "not ok - $name"
		tally 0 1 0
		[ "$mode" = fatal ] && finish
	fi
}
