#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: build the benchmark image, boot it twice and print one table.
#
# BENCH_ONLY="write threads lttng logger dump" runs only those parts and
# BENCH_RUNS="host wall icount" only those runs (for working on one item;
# host is scripts/bench-host.sh, on this machine before the boots).
# BENCH_ETWKO="clock=mono" loads etw.ko with other parameters (default
# clock=tsc).
#
#   1. install what is missing: the test lane's packages (setup.sh), and
#      lttng-tools and liblttng-ust-dev, the peers item 5 compares with
#   2. build etw.ko for the kernel (ETW_KERNEL, default the newest of
#      scripts/kernels.sh), libetw, etw and the programs in bench/
#   3. an initramfs of its own: the test image's busybox root plus the
#      bench programs, lttng-sessiond, lttng-consumerd and lttng, and
#      lttng-modules built for the kernel (scripts/lttng-modules.sh)
#   4. boot it twice under QEMU TCG, each boot running scripts/vm/bench.sh:
#        wall    2 vCPUs, times are wall clock (inflated by emulation and
#                by whatever else this machine runs: read ratios only)
#        icount  1 vCPU, -icount shift=0,sleep=off: guest time advances one
#                nanosecond per guest instruction, so "ns" are instructions,
#                deterministic whatever the host's load
#   5. scripts/bench-table.awk: one table of both runs and the host part
#      (run first, before step 2), the issues' targets and whether each
#      is met
#
# No debug options on the kernel command line (slub_debug, KFENCE): the
# test lane wants them, a benchmark must not pay for them.  Logs and the
# table are kept in $BUILD/bench/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
MAKE="make -s --no-print-directory BUILD=$BUILD"
out=$BUILD/bench
start=$(date +%s)

scripts/setup.sh "$BUILD"

# The host part first (scripts/bench-host.sh): what needs no VM.
runs=${BENCH_RUNS:-host wall icount}
mkdir -p "$out"
rm -f "$out/host.txt"
case " $runs " in *" host "*)
	echo "bench: host part" >&2
	BUILD=$BUILD scripts/bench-host.sh > "$out/host.txt" ||
		echo "bench: the host part failed" >&2 ;;
esac
case " $runs " in
*" wall "* | *" icount "*) ;;
*)	# No boot asked for (make bench-host): the host's rows only.
	awk -v only=host -v host="$(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores" \
	    -f scripts/bench-table.awk /dev/null /dev/null "$out/host.txt" |
		tee "$out/table-host.txt"
	exit 0 ;;
esac

need=
for pkg in lttng-tools liblttng-ust-dev; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] ||
		need="$need $pkg"
done
if [ -n "$need" ]; then
	echo "bench: installing:$need" >&2
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

rel=${ETW_KERNEL:-$(scripts/kernels.sh | tail -n 1)}
echo "bench: building for $rel" >&2
$MAKE lib tools bench-progs "modules-$rel" >/dev/null

# The image: what the bench programs and the peers need, nothing else.
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage/usr/bin" "$stage/usr/lib" "$stage/usr/share/etw" "$out"
cp -a "$BUILD"/lib/libetw.so* "$stage/usr/lib/"
cp "$BUILD/bin/etw" "$BUILD"/bench/etw-bench-* "$stage/usr/bin/"
cp scripts/vm/bench.sh "$stage/usr/share/etw/bench.sh"
cp scripts/vm/logger-wakes.awk "$stage/usr/share/etw/"
consumerd=/usr/lib/x86_64-linux-gnu/lttng/libexec/lttng-consumerd
for f in /usr/bin/lttng /usr/bin/lttng-sessiond $consumerd; do
	mkdir -p "$stage$(dirname $f)"
	cp "$f" "$stage$f"
done
# LTTng's kernel tracer (scripts/lttng-modules.sh) where it builds for
# $rel, with the indexes lttng-sessiond's libkmod reads: modules.dep, and
# modules.builtin from the kernel's package (libkmod refuses an empty one).
if scripts/lttng-modules.sh "$BUILD" "$rel"; then
	mkdir -p "$stage/lib/modules/$rel/extra"
	cp "$BUILD/lttng-modules/$rel"/ko/*.ko "$stage/lib/modules/$rel/extra/"
	deb=$(scripts/kernel-deb.sh "$rel")
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$stage" --wildcards \
		"./lib/modules/$rel/modules.builtin" "./lib/modules/$rel/modules.builtin.modinfo" \
		"./lib/modules/$rel/modules.order"
	depmod -b "$stage" "$rel"
else
	echo "bench: no LTTng kernel tracer for $rel: sections 12 and 15 have no LTTng row" >&2
fi
# perf, when this machine has it, for BENCH_ONLY=profile.
[ -x /usr/bin/perf ] && cp /usr/bin/perf "$stage/usr/bin/"
# lttng-sessiond validates its session configuration against this schema.
mkdir -p "$stage/usr/share/xml"
cp -a /usr/share/xml/lttng "$stage/usr/share/xml/"
initrd=$BUILD/vm/$rel/initramfs-bench.cpio.gz
scripts/vm/mkinitramfs.sh "$initrd" "$BUILD/kmod/linux-headers-$rel/etw.ko" "$stage"

# tsc=reliable: without it the guest may choose HPET, and every
# clock_gettime (the bench's clock, and the tracers' timestamps) becomes a
# slow emulated device read.  cryptomgr.notests: the crypto self-tests run
# in a kernel thread for a long while after boot under emulation, taking
# half the CPU from the first measurements.  etwko=clock=tsc: etw.ko's
# session clock is the TSC, as on any machine whose CPU says its TSC is
# invariant (every x86-64 CPU of the last fifteen years); TCG's TSC is
# invariant too but cannot say so (QEMU refuses +invtsc without KVM), and
# tsc=reliable is not visible to modules (module/clock.c).
append="console=ttyS0 quiet panic=-1 nokaslr tsc=reliable clocksource=tsc"
append="$append cryptomgr.notests=1 etwvm=bench etwko=${BENCH_ETWKO:-clock=tsc} ${BENCH_APPEND:-}"
[ -n "${BENCH_ONLY:-}" ] && append="$append etwbench=$(echo $BENCH_ONLY | tr ' ' ,)"
# The guest CPU: QEMU's "max" without ERMS and FSRM.  With them the guest
# kernel copies user memory with "rep movsb", which TCG runs one byte per
# step and icount counts one instruction per byte (a real CPU with them
# moves 16 to 64 bytes a cycle); without them it picks "rep movsq", which
# TCG and icount take a word per step.  Every copy in the run is the
# kernel's or libc's choice for the CPU it is told it runs on; this tells
# it the truth about the emulated one.  BENCH_CPU=max measures the other.
cpu=${BENCH_CPU:-max,-erms,-fsrm}
boot() { # boot NAME KERNEL-COMMAND-LINE QEMU-ARGS...
	name=$1 cmdline=$2
	shift 2
	echo "bench: boot $name ($(( $(date +%s) - start )) s so far)" >&2
	cp --sparse=always "$disk" "$out/disk.img"
	timeout -k 10 "${ETW_VM_TIMEOUT:-420}" qemu-system-x86_64 -cpu "$cpu" -m 2G "$@" \
		-kernel "$BUILD/vm/$rel/vmlinuz" -initrd "$initrd" -append "$cmdline" \
		-drive "file=$out/disk.img,format=raw,if=virtio,cache=unsafe" \
		-nographic -no-reboot -nodefaults -serial stdio -monitor none \
		< /dev/null > "$out/$name.log" 2>&1 || true
	# A line may start with a tool's progress text: take the BENCH at its end.
	tr -d '\r' < "$out/$name.log" | sed -n '/^ETW-BENCH-BEGIN/,/^ETW-BENCH-END/p' |
		sed -n 's/.*\(BENCH [^ ]* [^ ]*\)$/\1/p' > "$out/$name.txt" || true
	rm -f "$out/disk.img"
	grep -q '^ETW-BENCH-END' "$out/$name.log" ||
		echo "bench: the $name run did not finish; see $out/$name.log" >&2
}
# The disk item 4 writes its file to (scripts/vm/disk.sh): a fresh raw
# copy each boot, cache=unsafe (the host's page cache is the device, no
# flushes), so the emulated device is as fast as it can be and the guest's
# CPU is what is measured.  A qcow2 snapshot overlay, as the test VM has,
# made the device slower than the producer under emulation.
disk=$BUILD/vm/$rel/disk-ext4.img
scripts/vm/disk.sh "$disk"
rm -f "$out/wall.txt" "$out/icount.txt"
# The wall boot's clock is the host's TSC: give the guest its rate, as the
# test VMs do (scripts/vm/tsc-khz.sh), or a calibration the loaded host
# threw off makes every rate of the run wrong.  The icount boot's TSC
# counts instructions, and its calibration is exact.
tsc_khz=$(scripts/vm/tsc-khz.sh)
case " $runs " in *" wall "*) boot wall "$append${tsc_khz:+ tsc_early_khz=$tsc_khz}" -accel tcg -smp 2 ;; esac
# BENCH_QEMU: more QEMU arguments for the icount boot (make bench-profile's plugin).
# shellcheck disable=SC2086
case " $runs " in *" icount "*) boot icount "$append" -accel tcg -smp 1 -icount shift=0,sleep=off ${BENCH_QEMU:-} ;; esac
touch "$out/wall.txt" "$out/icount.txt" "$out/host.txt"

awk -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v kernel="$rel" \
    -v qemu="$(qemu-system-x86_64 --version | head -n 1)" -v cpu="$cpu" \
    -v host="$(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores" \
    -f scripts/bench-table.awk "$out/wall.txt" "$out/icount.txt" "$out/host.txt" |
	tee "$out/table.txt"
echo "bench: $(( $(date +%s) - start )) s; logs in $out/" >&2
