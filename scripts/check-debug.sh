#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: etw.ko under the kernel's own checkers, ending with one
# line "N passed, N failed" as make check does.
#
#   1. setup (scripts/setup.sh) and the debug kernel: Debian's
#      linux-source-6.12 with scripts/debug-kernel/debug.config (KASAN,
#      lockdep, UBSAN, kmemleak, KFENCE, DEBUG_LIST, DEBUG_ATOMIC_SLEEP,
#      lockup detectors, fault injection), built once per machine and kept
#      in /var/cache/etw/debug-kernel/ (scripts/debug-kernel/build.sh;
#      REBUILD=1 builds it again)
#   2. etw.ko against it with W=1 and warnings as errors, objtool's
#      warnings too
#   3. two boots at once in the VM lane (scripts/vm/, the same disk; QEMU's
#      -accel tcg,thread=single unless ETW_VM_ACCEL says otherwise): the
#      fuzzer (ETW_FUZZ_CALLS, default 200,000, and the 32-bit run), and
#      every other selftest, a short stress and fault_inject_test
#      (failslab and fail_page_alloc inside etw.ko) among them; in each,
#      etw.ko is then unloaded and kmemleak scans twice
#   4. scripts/vm/scan.sh: any KASAN, lockdep, UBSAN, atomic-sleep, list,
#      lockup, RCU, KFENCE or kmemleak report fails the run
#
# T="a b" runs only the named selftests (as make vm-test does).
set -u
CHECK_NAME=check-debug
. "$(dirname "$0")/check-lib.sh"

step "setup"
mkdir -p "$log"
gate setup fatal scripts/setup.sh "$BUILD"

step "debug kernel"
kdir=$(scripts/debug-kernel/build.sh --dir)
echo "   $kdir (REBUILD=1, or deleting it, builds it again)"
gate "debug kernel: linux-source-6.12 + scripts/debug-kernel/debug.config" fatal \
	sh -c "scripts/debug-kernel/build.sh > /dev/null"
rel=$(cat "$kdir/release")

step "build"
gate "build: libetw, etw, selftests" fatal $MAKE lib tools selftests stage
# objtool runs when etw.o is linked: never skipped as up to date.
rm -f "$BUILD/kmod/linux/etw.o"
gate "build: etw.ko for $rel, W=1" fatal sh -c "$MAKE module KDIR=$kdir/linux > $log/build-$rel.log 2>&1 || { cat $log/build-$rel.log; exit 1; }"
# module/build.mk names the build after KDIR's last component.
ko=$BUILD/kmod/linux/etw.ko
# objtool's findings are warnings to the kernel's build, failures here: a
# call inside a user access window (the checkers' instrumentation turns
# an inline check or copy into a call), a stack or frame error.
objtool_clean() {
	! grep -h 'objtool:' "$log/build-$rel.log" | sed 's/^/# /' | grep .
}
gate "objtool: no warning from etw.ko for $rel" go objtool_clean

step "VM: $rel"
vm=$BUILD/vm/$rel
mkdir -p "$vm"
cp "$kdir/linux/arch/x86/boot/bzImage" "$vm/vmlinuz"
initrd=$vm/initramfs-test.cpio.gz
if ! ETW_DISKMODS=none scripts/vm/mkinitramfs.sh "$initrd" "$ko" "$BUILD/stage"; then
	tally 0 1 0
	finish
fi
# The debug kernel runs the tests several times slower: the harness's
# timeouts scale (selftests/etw/timeout_scale.h), each program may take
# 30 minutes (the fuzzer 2.5 hours), a boot 3 hours.  A 16 MiB log buffer
# keeps every report of a long run for the dump at the end.  init_on_alloc=1
# as Debian's kernels have it by default (page_poison=1 takes precedence,
# and says so: how init.sh knows page poisoning is on).
env="ETW_TIMEOUT_SCALE=6 ETW_STRESS_SECONDS=20"
env_tests="$env ETW_TEST_TIMEOUT=1800"
env_fuzz="$env ETW_TEST_TIMEOUT=9000 ETW_FUZZ_SECONDS=8400"
env_fuzz="$env_fuzz ETW_FUZZ_CALLS=${ETW_FUZZ_CALLS:-200000} ETW_FUZZ_CALLS_32=${ETW_FUZZ_CALLS_32:-20000}"

# Two boots at once, each with the same disk (a snapshot) and its own
# kmemleak scan: the fuzzer, and every other selftest.
if [ -n "${T:-}" ]; then
	jobs="tests"
	tests_tests=$T
else
	jobs="tests fuzz"
	tests_fuzz="fuzz_test fuzz_test_32"
	tests_tests=$(grep -vxE 'fuzz_test|fuzz_test_32' "$BUILD/stage/selftests/list")
fi
scripts/vm/disk.sh "$vm/disk-ext4.img"	# once, before the two boots share it
t0=$(date +%s)
for job in $jobs; do
	eval "list=\$tests_$job env=\$env_$job"
	ETW_VM_TIMEOUT=${ETW_VM_TIMEOUT:-10800} \
	ETW_VM_APPEND="log_buf_len=16M init_on_alloc=1 etwenv=$(echo $env | tr ' ' ,) etwtests=$(echo $list | tr ' ' ,)" \
		scripts/vm/run.sh "$vm/vmlinuz" "$initrd" test "$log/vm-debug-$job.log" &
done
wait
for job in $jobs; do
	ETW_KCONFIG=$kdir/linux/.config scripts/vm/scan.sh "$log/vm-debug-$job.log" \
		"vm $rel $job" > "$log/scan-debug-$job.log"
	grep -E '^(not ok|# kernel:|# kmemleak:)' "$log/scan-debug-$job.log" || true
	tail -n 1 "$log/scan-debug-$job.log"
	set -- $(tail -n 1 "$log/scan-debug-$job.log" | sed 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/')
	tally "$@"
done
echo "   $(( $(date +%s) - t0 )) s, console logs in $log/vm-debug-*.log"

finish
