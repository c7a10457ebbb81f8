#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test VM (busybox).  The kernel command line chooses the job:
#   etwvm=test   load etw.ko, run every selftest, unload, dump the kernel log
#   etwvm=demo   load etw.ko and run /usr/share/etw/demo.sh
#   etwvm=shell  load etw.ko and start an interactive shell
#   etwvm=bench  load etw.ko and run /usr/share/etw/bench.sh (make bench)
#   etwtests=a,b run only these selftests (make vm-test T="a b")
#   etwenv=A=1,B=2  set these in the tests' environment (make fuzz, stress);
#                ETW_TEST_TIMEOUT bounds each test program (default 300 s)
#   etwko=a=1,b=2  load etw.ko with these parameters (ETW_KO_ARGS="a=1 b=2";
#                the selftests that reload it reload it with them)
#   etwaccel=A   QEMU's -accel option, exported as ETW_VM_ACCEL
#   etwload=modules-load.d  load the modules that modules-load.d names with
#                modprobe (kmod's /sbin/modprobe where the root has it), as
#                systemd-modules-load does at boot, instead of insmod
#                /lib/modules/etw.ko (make deb-test)
# Lines starting with "ETW-" are read by scripts/vm/scan.sh on the host.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/sbin LD_LIBRARY_PATH=/usr/lib
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null

mode=test
tests=$(cat /selftests/list)
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	etwvm=*) mode=${arg#etwvm=} ;;
	etwtests=*) tests=$(echo "${arg#etwtests=}" | tr , ' ') ;;
	etwenv=*) for kv in $(echo "${arg#etwenv=}" | tr , ' '); do export "$kv"; done ;;
	etwko=*) koargs=$(echo "${arg#etwko=}" | tr , ' ') ;;
	etwaccel=*) export ETW_VM_ACCEL="${arg#etwaccel=}" ;;
	etwload=*) load=${arg#etwload=} ;;
	esac
done

# Keep the console for our own output; the log is dumped at the end.
dmesg -n 1

# The disk (scripts/vm/disk.sh, an empty ext4 file system) on /mnt/disk:
# files written where a user writes them, through a block device.
for m in /lib/modules/disk/*.ko; do
	insmod "$m" 2>/dev/null
done
mkdir -p /mnt/disk
for i in $(seq 50); do
	[ -b /dev/vda ] && break
	sleep 0.1
done
mount -t ext4 /dev/vda /mnt/disk 2>/dev/null || echo "ETW-VM: no disk on /mnt/disk"
echo "ETW-VM: kernel $(uname -r) cpus $(grep -c ^processor /proc/cpuinfo)"
echo "ETW-VM: kfence sample_interval $(cat /sys/module/kfence/parameters/sample_interval 2>/dev/null || echo none)"
# The memory checkers every run needs on (scan.sh fails a run without them).
dmesg | grep -q 'kfence: initialized' && echo "ETW-VM: kfence on"
slab=/sys/kernel/slab/kmalloc-256
if [ "$(cat $slab/sanity_checks $slab/red_zone $slab/poison $slab/store_user 2>/dev/null)" = "1
1
1
1" ]; then
	echo "ETW-VM: slub_debug on"
fi
dmesg | grep -q 'CONFIG_PAGE_POISONING is on' && echo "ETW-VM: page_poison on"
# The debug kernel's checkers (make check-debug, scan.sh): the tests read
# ETW_DEBUG_KERNEL for bounds that KASAN's quarantine changes.
kmemleak=/sys/kernel/debug/kmemleak
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	echo "ETW-VM: kasan on"
	export ETW_DEBUG_KERNEL=1
fi
[ -e /proc/lockdep ] && echo "ETW-VM: lockdep on"
[ -d /sys/kernel/debug/failslab ] && [ -d /sys/kernel/debug/fail_page_alloc ] &&
	echo "ETW-VM: fault-injection on"
if [ -e $kmemleak ]; then
	echo "ETW-VM: kmemleak on"
	# What the kernel leaked before etw.ko came is not reported after it.
	echo scan > $kmemleak
	echo clear > $kmemleak
fi

if [ "${load:-}" = modules-load.d ]; then
	modprobe=modprobe
	[ -x /sbin/modprobe ] && modprobe=/sbin/modprobe
	for m in $(cat /usr/lib/modules-load.d/*.conf /etc/modules-load.d/*.conf 2>/dev/null |
		   sed 's/[#;].*//'); do
		$modprobe "$m"
	done
	if grep -q '^etw ' /proc/modules; then
		echo "ETW-VM: module loaded by modprobe from modules-load.d (clock $(cat /sys/module/etw/parameters/clock))"
	else
		echo "ETW-VM: module load failed (modules-load.d)"
	fi
# shellcheck disable=SC2086 # one word per parameter
elif insmod /lib/modules/etw.ko ${koargs:-}; then
	echo "ETW-VM: module loaded${koargs:+ $koargs} (clock $(cat /sys/module/etw/parameters/clock))"
else
	echo "ETW-VM: module load failed"
fi
export ETW_MODULE=/lib/modules/etw.ko ETW_MODULE_ARGS="${koargs:-}"

# A selftest's boot (selftests/etw/boot/TEST/): what a boot would do
# before it, done again just before it: etw.ko loaded anew (with the
# parameters of its etwko file too), its autologger.d in /etc/etw and
# `etw autologger start --early` run, as etw-autologger.service does;
# after the test the sessions stop and the files go.
boot() {
	b=/usr/share/etw/boot/$1
	[ -d "$b" ] || return 0
	rmmod etw 2>/dev/null
	# shellcheck disable=SC2046,SC2086 # one word per parameter
	insmod /lib/modules/etw.ko ${koargs:-} $(cat "$b/etwko" 2>/dev/null) ||
		echo "ETW-VM: boot of $1: module load failed"
	mkdir -p /run /etc/etw
	grep -q " /run " /proc/mounts || mount -t tmpfs tmpfs /run
	if [ -d "$b/autologger.d" ]; then
		cp -a "$b/autologger.d" /etc/etw/
		etw autologger start --early > "/tmp/boot-$1.log" 2>&1
		echo "ETW-VM: boot of $1: etw autologger start: $?"
	fi
}
unboot() {
	[ -d "/usr/share/etw/boot/$1" ] || return 0
	etw autologger stop > /dev/null 2>&1
	# A Global Logger no AutoLogger file claimed.
	g=$(sed -n 's/.*autologger=\([^:]*\):.*/\1/p' "/usr/share/etw/boot/$1/etwko" 2>/dev/null)
	[ -n "$g" ] && etw stop "$g" > /dev/null 2>&1
	rm -rf /etc/etw/autologger.d /run/etw
	rmmod etw 2>/dev/null
	# shellcheck disable=SC2086 # one word per parameter
	insmod /lib/modules/etw.ko ${koargs:-} || echo "ETW-VM: module load failed"
}

case "$mode" in
test)
	for t in $tests; do
		boot "$t"
		echo "ETW-TEST-BEGIN $t"
		cd /tmp && timeout "${ETW_TEST_TIMEOUT:-300}" "/selftests/$t"
		echo "ETW-TEST-END $t $?"
		unboot "$t"
	done
	;;
demo)
	sh /usr/share/etw/demo.sh
	;;
bench)
	sh /usr/share/etw/bench.sh
	;;
shell)
	echo "etw VM shell: etw.ko is loaded; 'poweroff -f' to leave"
	setsid cttyhack sh -l
	;;
esac

cd /
umount /mnt/disk 2>/dev/null
if grep -q '^etw ' /proc/modules; then
	if rmmod etw; then
		echo "ETW-VM: module unloaded"
	else
		echo "ETW-VM: module unload failed"
	fi
fi
if [ -e $kmemleak ] && [ "$mode" = test ]; then
	# Two scans: kmemleak skips objects younger than 5 s, so the second,
	# 6 s later, also judges what the last test allocated.
	echo scan > $kmemleak
	sleep 6
	echo scan > $kmemleak
	echo "ETW-KMEMLEAK-BEGIN"
	cat $kmemleak
	echo "ETW-KMEMLEAK-END"
fi
echo "ETW-DMESG-BEGIN"
dmesg
echo "ETW-DMESG-END"
echo "ETW-VM: done"
sync
poweroff -f
