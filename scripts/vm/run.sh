#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot one kernel under QEMU software emulation:
#   run.sh VMLINUZ INITRAMFS MODE [LOG]
# MODE is test, demo or shell (see init.sh).  With LOG the console goes to
# that file (and, for demo, to the terminal as well); shell is interactive.
# ETW_VM_TIMEOUT (seconds, default 1500) bounds a non-interactive boot
# (a quiet machine runs the test boot in about 5 minutes; a loaded one has
# taken over 10);
# ETW_VM_APPEND adds to the kernel command line.
# ETW_VM_ACCEL is QEMU's -accel option (default tcg: multi-threaded, one
# host thread per vCPU; tcg,thread=single runs every vCPU on one thread)
# and ETW_VM_SMP the number of vCPUs (default 2): the text-patching
# measurements of Documentation/guarantees.rst compare them.
set -eu

kernel=$1 initrd=$2 mode=$3 log=${4:-}
timeout_s=${ETW_VM_TIMEOUT:-1500}

# slub_debug=FZPU: sanity checks, red zones, poisoning and owner tracking on
# every slab; KFENCE sampling where the kernel has it (6.12; Debian's 6.1 is
# built without CONFIG_KFENCE); page_poison=1: freed pages are filled and
# checked when allocated again ("pagealloc: memory corruption"), for the
# page allocator what slub_debug is for slabs (both kernels have
# CONFIG_PAGE_POISONING; it takes precedence over init_on_alloc).
# init.sh reports each and scan.sh fails a run that lacks one.
# panic=-1 with -no-reboot turns a panic into an exit.
# tsc=reliable: on a loaded host the clocksource watchdog can find the
# emulated TSC unstable and flip sched_clock's static key, and that code
# patching can hit a stale int3 under TCG (an oops in sched_clock_cpu
# from clocksource_watchdog_work, seen in make fuzz on 6.12).
append="console=ttyS0 quiet panic=-1 slub_debug=FZPU kfence.sample_interval=10 page_poison=1"
append="$append softlockup_panic=0 no_timer_check tsc=reliable nokaslr etwvm=$mode"
# The accelerator, for the tests that patch kernel text (selftests/etw/text_patch.h).
accel=${ETW_VM_ACCEL:-tcg}
append="$append etwaccel=$accel ${ETW_VM_APPEND:-}"

# The host's TSC rate, so that the guest's clock keeps time on a loaded
# host (scripts/vm/tsc-khz.sh); without one the guest calibrates as before.
tsc_khz=$("$(dirname "$0")/tsc-khz.sh")
[ -n "$tsc_khz" ] && append="$append tsc_early_khz=$tsc_khz"

# The disk: one ext4 image per kernel directory, never changed (snapshot).
disk=$(dirname "$kernel")/disk-ext4.img
"$(dirname "$0")/disk.sh" "$disk"

set -- qemu-system-x86_64 -accel "$accel" -cpu max -smp "${ETW_VM_SMP:-2}" -m 1G \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-drive "file=$disk,format=raw,if=virtio,snapshot=on" \
	-nographic -no-reboot -nodefaults -serial stdio -monitor none

case "$mode" in
shell)
	exec "$@"
	;;
demo)
	timeout -k 10 "$timeout_s" "$@" < /dev/null | tee "$log"
	;;
*)
	timeout -k 10 "$timeout_s" "$@" < /dev/null > "$log" 2>&1 || true
	;;
esac
