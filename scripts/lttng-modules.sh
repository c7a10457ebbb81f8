#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build LTTng's kernel tracer for one kernel, for make bench's section 12
# (LTTng's sched_switch record against the kernel logger's CSwitch) and
# section 14 (its record of etw_kbench.ko's tracepoint against EtwWrite,
# through the probe module bench/kmod/lttng/, built in the tree as
# lttng-modules' own probes are):
#   scripts/lttng-modules.sh BUILD_DIR RELEASE
# The sources are Debian's lttng-modules-dkms (trixie's), which scripts/setup.sh
# extracts into BUILD_DIR/lttng-modules/src (not installed: DKMS would
# build it for every kernel on this machine).  The .ko files end in
# BUILD_DIR/lttng-modules/RELEASE/ko/; the compiler's output in build.log
# there.  Exits non-zero when a module the benchmark needs did not build
# (and at once on later calls for that kernel).
#
# The timer probe is left out: the benchmark records sched_switch only,
# and Debian's 6.1 (6.1.x stable) gave trace_hrtimer_start a third
# argument (was_armed) that some lttng-modules releases do not know.
set -eu
build=${1:?usage: lttng-modules.sh BUILD_DIR RELEASE} rel=${2:?usage: lttng-modules.sh BUILD_DIR RELEASE}
src=$build/lttng-modules/src
out=$build/lttng-modules/$rel
kdir=/usr/src/linux-headers-$rel
[ -f "$src/Makefile" ] || { echo "lttng-modules: no sources in $src (scripts/setup.sh)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
probe=$top/bench/kmod/lttng
# The tree built before: its probe of the benchmark's tracepoint again
# when that changed (an incremental make).
stamp=$(cat "$probe"/* "$top/bench/kmod/etw_kbench_trace.h" | md5sum | cut -d' ' -f1)
add_probe() { # add_probe TREE
	cp "$probe/lttng-probe-etw-kbench.c" "$top/bench/kmod/etw_kbench_trace.h" "$1/src/probes/"
	cp "$probe/etw_kbench.h" "$1/include/instrumentation/events/"
	grep -q lttng-probe-etw-kbench "$1/src/probes/Kbuild" ||
		echo 'obj-$(CONFIG_LTTNG) += lttng-probe-etw-kbench.o' >> "$1/src/probes/Kbuild"
}
if [ -e "$out/ko/.built" ]; then
	[ "$(cat "$out/ko/.built")" = "$stamp" ] && exit 0
	add_probe "$out/tree"
	nice -n 10 make -C "$out/tree" KERNELDIR="$kdir" -j2 modules > "$out/build.log" 2>&1 ||
		{ grep 'error:' "$out/build.log" | sort -u | head -n 20 >&2; }
	find "$out/tree/src" -name '*.ko' -exec cp {} "$out/ko/" \;
	echo "$stamp" > "$out/ko/.built"
	exit 0
fi
# A kernel it failed for fails again: say so without building again.
if [ -e "$out/.failed" ]; then
	echo "lttng-modules: does not build for $rel (rm -r $out to retry); the errors:" >&2
	grep 'error:' "$out/build.log" | sort -u | head -n 20 >&2
	exit 1
fi

rm -rf "$out"
mkdir -p "$out"
cp -a "$src" "$out/tree"
sed -i '/lttng-probe-timer\.o/d' "$out/tree/src/probes/Kbuild"
add_probe "$out/tree"
if ! nice -n 10 make -C "$out/tree" KERNELDIR="$kdir" -j2 modules > "$out/build.log" 2>&1; then
	echo "lttng-modules: the build for $rel failed; the errors ($out/build.log):" >&2
	grep 'error:' "$out/build.log" | sort -u | head -n 20 >&2
	touch "$out/.failed"
	exit 1
fi
mkdir -p "$out/ko"
find "$out/tree/src" -name '*.ko' -exec cp {} "$out/ko/" \;
for m in lttng-tracer lttng-wrapper lttng-lib-ring-buffer lttng-probe-sched \
	 lttng-ring-buffer-client-overwrite lttng-ring-buffer-client-mmap-overwrite \
	 lttng-ring-buffer-metadata-mmap-client; do
	[ -s "$out/ko/$m.ko" ] || { echo "lttng-modules: $m.ko was not built for $rel" >&2; exit 1; }
done
# The benchmark's probe is not required: section 14 says when it is missing.
[ -s "$out/ko/lttng-probe-etw-kbench.ko" ] ||
	echo "lttng-modules: lttng-probe-etw-kbench.ko was not built for $rel" >&2
echo "$stamp" > "$out/ko/.built"
