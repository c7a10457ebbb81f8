#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo / make vm-shell: build what is needed and boot one kernel
# (ETW_KERNEL, default the newest of scripts/kernels.sh) in QEMU.
#   vm-job.sh demo|shell|test
# test runs the selftests named in T (all when empty), with the variables
# in E ("A=1 B=2") in their environment, with etw.ko's parameters in
# ETW_KO_ARGS ("clock=tsc"), and prints their KTAP output and the scan's
# verdict.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mode=$1
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"

scripts/setup.sh "$BUILD"
rel=${ETW_KERNEL:-$(scripts/kernels.sh | tail -n 1)}
$MAKE lib tools selftests stage "modules-$rel" >/dev/null
initrd=$BUILD/vm/$rel/initramfs-$mode.cpio.gz
scripts/vm/mkinitramfs.sh "$initrd" "$BUILD/kmod/linux-headers-$rel/etw.ko" "$BUILD/stage"
mkdir -p "$BUILD/check"
echo "Booting Debian's $rel in QEMU (software emulation)..."
if [ "$mode" = test ]; then
	append=
	[ -n "${T:-}" ] && append="etwtests=$(echo $T | tr ' ' ,)"
	[ -n "${E:-}" ] && append="$append etwenv=$(echo $E | tr ' ' ,)"
	[ -n "${ETW_KO_ARGS:-}" ] && append="$append etwko=$(echo $ETW_KO_ARGS | tr ' ' ,)"
	export ETW_VM_APPEND="${ETW_VM_APPEND:-} $append"
	log=$BUILD/check/vm-test-$rel.log
	scripts/vm/run.sh "$BUILD/vm/$rel/vmlinuz" "$initrd" test "$log"
	sed -n '/^ETW-TEST-BEGIN/,/^ETW-DMESG-BEGIN/p' "$log" | grep -v '^ETW-DMESG'
	scripts/vm/scan.sh "$log" "vm $rel" | grep -E "^(not ok|# kernel:)|passed"
	scripts/vm/scan.sh "$log" "vm $rel" | tail -n 1 | grep -q ' 0 failed'
elif [ "$mode" = demo ]; then
	scripts/vm/run.sh "$BUILD/vm/$rel/vmlinuz" "$initrd" demo "$BUILD/check/demo.log" |
		sed -n '/^ETW-DEMO/,$p' | sed -n '/^ETW-DEMO-END/q; /^ETW-DEMO/d; /^ETW-FILE-BEGIN/,/^ETW-FILE-END/d; p'
	# The files the demo exported, from the console to BUILD/check/.
	for f in demo.speedscope.json demo.pftrace; do
		tr -d '\r' < "$BUILD/check/demo.log" |
			sed -n "/^ETW-FILE-BEGIN $f\$/,/^ETW-FILE-END/{/^ETW-FILE/d; p}" |
			base64 -d > "$BUILD/check/$f"
	done
	echo
	echo "Open $BUILD/check/demo.speedscope.json at https://www.speedscope.app (or offline:"
	echo "  $BUILD/npm/node_modules/.bin/speedscope $BUILD/check/demo.speedscope.json),"
	echo "and $BUILD/check/demo.pftrace at https://ui.perfetto.dev (Open trace file)."
	grep -q '^ETW-DEMO-END ok' "$BUILD/check/demo.log"
else
	exec scripts/vm/run.sh "$BUILD/vm/$rel/vmlinuz" "$initrd" shell
fi
