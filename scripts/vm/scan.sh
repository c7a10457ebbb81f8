#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Read a test VM's console log:  scan.sh LOG NAME
# Prints the selftests' KTAP, every problem found, and a last line
#   "NAME: P passed, F failed, S skipped"
# where F also counts problems: a VM that did not finish, a module that did
# not load or unload, a test program that crashed or timed out, and every
# kernel report (BUG, WARNING, Oops, KFENCE, slab corruption, lockups...)
# in the kernel log.  Exits non-zero if F > 0.
set -u
log=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
clean=$(mktemp)
trap 'rm -f "$clean"' EXIT
tr -d '\r' < "$log" > "$clean"

problems=0
problem() {
	echo "not ok - $name: $*"
	problems=$((problems + 1))
}

grep -q '^ETW-VM: done' "$clean" || problem "the VM did not finish (timeout, panic or hang); see $log"
grep -q '^ETW-VM: module loaded' "$clean" || problem "etw.ko did not load"
grep -q "^ETW-VM: no disk" "$clean" && problem "the VM's disk (/mnt/disk) did not mount"
if grep -q '^ETW-TEST-BEGIN' "$clean"; then
	grep -q '^ETW-VM: module unloaded' "$clean" || problem "etw.ko did not unload"
fi

# The memory checkers (run.sh, init.sh): slub_debug and page poisoning on
# both kernels, KFENCE on every kernel whose config has it.
# (The first console line starts with the terminal's reset sequence.)
rel=$(sed -n 's/.*ETW-VM: kernel \([^ ]*\) .*/\1/p' "$clean" | head -n 1)
[ -n "$rel" ] || problem "the VM did not say which kernel it runs"
grep -q '^ETW-VM: slub_debug on' "$clean" || problem "slub_debug is not on in $rel"
grep -q '^ETW-VM: page_poison on' "$clean" || problem "page_poison is not on in $rel"
# ETW_KCONFIG: the .config of a kernel that is not Debian's (make
# check-debug's debug kernel).
kconfig=${ETW_KCONFIG:-/usr/src/linux-headers-$rel/.config}
if grep -q '^CONFIG_KFENCE=y' "$kconfig" 2>/dev/null; then
	grep -q '^ETW-VM: kfence on' "$clean" || problem "KFENCE is not on in $rel"
fi

# Each test program's output, with its exit status.
awk '
/^ETW-TEST-BEGIN /	{ name = $2; inside = 1; print "# selftest " name; next }
/^ETW-TEST-END /	{ inside = 0; if (!($2 in seen)) seen[$2] = 1;
			  print "ETW-RC " $2 " " $3; next }
inside			{ print }
' "$clean" > "$clean.tests"
sed '/^ETW-RC /d' "$clean.tests"
set -- $("$top/scripts/ktap-count.sh" < "$clean.tests")
pass=$1 fail=$2 skip=$3

# A program that failed without a "not ok" line crashed or timed out.
for t in $(sed -n 's/^ETW-TEST-BEGIN //p' "$clean"); do
	rc=$(sed -n "s/^ETW-RC $t //p" "$clean.tests")
	nok=$(awk -v t="# selftest $t" '$0 == t { on = 1; next } /^# selftest / { on = 0 } on && /^not ok/' "$clean.tests" | wc -l)
	if [ -z "$rc" ]; then
		problem "$t did not finish"
	elif [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
		problem "$t exited with status $rc without a failed test (crash or timeout)"
	fi
done
rm -f "$clean.tests"

# The debug kernel's checkers (make check-debug): each must be on, and
# kmemleak's scan after the unload must have run and found nothing.
if grep -q '^CONFIG_KASAN=y' "$kconfig" 2>/dev/null; then
	for c in kasan lockdep kmemleak fault-injection; do
		grep -q "^ETW-VM: $c on" "$clean" || problem "$c is not on in $rel"
	done
	if grep -q '^ETW-TEST-BEGIN' "$clean"; then
		grep -q '^ETW-KMEMLEAK-END' "$clean" || problem "kmemleak's scan after the unload did not run"
	fi
fi
leaks=$(sed -n '/^ETW-KMEMLEAK-BEGIN/,/^ETW-KMEMLEAK-END/p' "$clean" | grep -c '^unreferenced object')
if [ "$leaks" -gt 0 ]; then
	sed -n '/^ETW-KMEMLEAK-BEGIN/,/^ETW-KMEMLEAK-END/p' "$clean" | sed '/^ETW-KMEMLEAK/d; s/^/# kmemleak: /' | head -n 60
	problem "kmemleak: $leaks unreferenced objects after etw.ko was unloaded (above)"
fi

# Kernel reports.  The whole console counts (a panic never reaches the dump).
# Between the fault-injection markers (selftests/etw/fault_inject_test.c)
# an allocation that fails may print its warning with a stack
# ("vmalloc error: ...", "page allocation failure"): there only the stack
# is expected, every other report still counts.
export ETW_REPORTS='pagealloc: |BUG:|BUG [^ ]+ \(|kernel BUG|WARNING:|Oops|general protection fault|KFENCE:|Slab corruption|Redzone|Poison overwritten|Object padding|Objects remaining|soft lockup|hard LOCKUP|blocked for more than|rcu_.*stall|UBSAN:|list_(add|del) corruption|possible circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called|scheduling while atomic|workqueue lockup|Kernel panic'
reports=$(awk '
/etw-faults: begin/	{ faults = 1 }
/etw-faults: end/	{ faults = 0 }
$0 ~ ENVIRON["ETW_REPORTS"] || (!faults && /Call Trace:/) { print NR ":" $0 }
' "$clean" | head -n 40)
if [ -n "$reports" ]; then
	printf '%s\n' "$reports" | sed 's/^/# kernel: /'
	problem "kernel reports in the log (above); see $log"
fi

fail=$((fail + problems))
echo "$name: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
