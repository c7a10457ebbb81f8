#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check: everything a change must pass, ending with one line
# "N passed, N failed" that adds up the host tests, the static checks and
# the selftests run in QEMU on each of Debian's kernels.
#
#   1. install what is missing (scripts/setup.sh)
#   2. build libetw, etw and the selftests, and etw.ko for every kernel
#      with W=1 and warnings as errors
#   3. checkpatch --strict, kernel-doc, sparse (warnings as errors), the
#      reStructuredText of Documentation/
#   4. host unit tests
#   5. per kernel: initramfs, boot with -accel tcg,thread=single (unless
#      ETW_VM_ACCEL says otherwise), selftests, kernel log scan
#   6. the Debian packages (make deb, scripts/deb-test.sh): built, lintian,
#      installed into a root of their own, DKMS's build for each kernel,
#      and a VM per kernel whose installed etw records a provider
#
# Exits non-zero on any failure, any kernel report, a VM that does not
# finish, or a run in which nothing passed (everything skipped).
set -u
CHECK_NAME=check
. "$(dirname "$0")/check-lib.sh"

step "setup"
gate setup fatal scripts/setup.sh "$BUILD"
mkdir -p "$log"
kernels=$(scripts/kernels.sh) || { tally 0 1 0; finish; }

step "build"
gate "build: libetw, etw, selftests, bench programs" fatal $MAKE lib tools selftests stage bench-progs
for rel in $kernels; do
	gate "build: etw.ko for $rel, W=1" fatal sh -c "$MAKE modules-$rel > $log/build-$rel.log 2>&1 || { cat $log/build-$rel.log; exit 1; }"
done

gate "make install: files, soname, symbol versions, pkg-config" go scripts/install-test.sh "$BUILD"
gate "make without the build's Debian packages: one message names them" go \
	sh -c "scripts/deps-test.sh $BUILD > $log/deps-test.log 2>&1 || { cat $log/deps-test.log; exit 1; }"

step "static checks"
gate "checkpatch --strict" go $MAKE checkpatch
gate "kernel-doc" go $MAKE kernel-doc
gate "Documentation/ as reStructuredText" go $MAKE rst-check
gate "the tree stands alone; libetw/src includes one way" go scripts/tree-check.sh
for rel in $kernels; do
	gate "sparse on $rel" go sh -c "$MAKE sparse-$rel > $log/sparse-$rel.log 2>&1 || { cat $log/sparse-$rel.log; exit 1; }"
done

step "host unit tests"
$MAKE unit > "$log/unit.log" 2>&1
grep -E '^(not ok|ok|#.*(FAIL|SKIP))' "$log/unit.log" | grep -v '^ok' || true
set -- $(sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$log/unit.log")
if [ $# -eq 3 ]; then
	tally "$@"
	echo "unit: $1 passed, $2 failed, $3 skipped"
else
	cat "$log/unit.log"
	tally 0 1 0
fi

for rel in $kernels; do
	step "VM: $rel"
	ko=$BUILD/kmod/linux-headers-$rel/etw.ko
	initrd=$BUILD/vm/$rel/initramfs-test.cpio.gz
	if ! scripts/vm/mkinitramfs.sh "$initrd" "$ko" "$BUILD/stage"; then
		tally 0 1 0
		continue
	fi
	t0=$(date +%s)
	# The newest kernel runs every test on the TSC session clock, the
	# clock clock=auto picks on hardware (an invariant TSC, which QEMU
	# without KVM cannot advertise); the others on the clock auto picks
	# here, CLOCK_MONOTONIC.  clock_test covers each clock on each kernel.
	koargs=
	[ "$rel" = "$(echo $kernels | tr ' ' '\n' | tail -n 1)" ] && koargs=etwko=clock=tsc
	ETW_VM_APPEND="$koargs" \
		scripts/vm/run.sh "$BUILD/vm/$rel/vmlinuz" "$initrd" test "$log/vm-$rel.log"
	scripts/vm/scan.sh "$log/vm-$rel.log" "vm $rel" > "$log/scan-$rel.log"
	grep -E '^(not ok|# kernel:)' "$log/scan-$rel.log" || true
	tail -n 1 "$log/scan-$rel.log"
	now=$(date +%s); dt=$((now - t0))
	echo "   $dt s, console log in $log/vm-$rel.log"
	set -- $(tail -n 1 "$log/scan-$rel.log" | sed 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/')
	tally "$@"
done

step "Debian packages"
t0=$(date +%s)
gate "make deb: dpkg-buildpackage -b, lintian clean" go \
	sh -c "scripts/deb.sh build $BUILD > $log/deb.log 2>&1 || { cat $log/deb.log; exit 1; }"
if [ -e "$BUILD/deb/tree.sum" ]; then
	scripts/deb-test.sh "$BUILD" > "$log/deb-test.log" 2>&1
	grep -E '^(not ok|# kernel:)' "$log/deb-test.log" || true
	tail -n 1 "$log/deb-test.log"
	set -- $(tail -n 1 "$log/deb-test.log" | sed -n 's/^deb: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2 0/p')
	if [ $# -eq 3 ]; then tally "$@"; else tally 0 1 0; fi
fi
echo "   $(($(date +%s) - t0)) s, logs in $BUILD/deb/"

finish
