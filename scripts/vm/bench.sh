#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside the VM (etwvm=bench): run every benchmark program once
# and print their "BENCH key value" lines between ETW-BENCH-BEGIN and
# ETW-BENCH-END; scripts/bench.sh on the host makes the table.  The same
# script runs in both boots (wall clock, two vCPUs; icount, one vCPU).
# etwbench=a,b on the kernel command line runs only those parts
# (write tracelogging wpp threads lttng logger dump kstack kwrite fileio
# profile insns wakes; make bench BENCH_ONLY="a b").
echo "ETW-BENCH-BEGIN"
say() { echo "# $*"; }
b() { echo "BENCH $1 $2"; }
parts="write tracelogging wpp threads lttng logger dump rundown kstack kwrite fileio"
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	etwbench=*) parts=$(echo "${arg#etwbench=}" | tr , ' ') ;;
	esac
done
want() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
guid=6b1a9e3c-52d0-4f7e-9c41-0d2b7e5a8f10
b cpus "$(grep -c ^processor /proc/cpuinfo)"
say "etw.ko session clock: $(cat /sys/module/etw/parameters/clock)"

# Start on a quiet machine: nothing runnable but this script (the
# "running" count of /proc/loadavg includes the reader).
for i in $(seq 50); do
	[ "$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)" -le 1 ] && break
	sleep 0.2
done
say "runnable at start: $(cut -d' ' -f4 /proc/loadavg)"

# trace_marker: tracing on, 1 MiB per CPU, the default overwrite mode.
t=/sys/kernel/tracing
if [ -w $t/trace_marker ]; then
	echo 1024 > $t/buffer_size_kb
	echo 1 > $t/tracing_on
fi

if want write; then
	grep -q etwverbose /proc/cmdline && export ETW_BENCH_VERBOSE=1
	say "1, 2: one event, disabled and filtered events, system calls counted"
	etw-bench-write 2>&1
fi

if want tracelogging; then
	say "7: TraceLoggingWrite vs EventWrite"
	etw-bench-tracelogging
fi

if want wpp; then
	say "13: DoTraceMessage vs EventWrite, disabled DoTraceMessage vs EventEnabled"
	etw-bench-wpp
fi

if want threads; then
	say "3: two writers"
	etw-bench-threads
fi

# Item 5 in one process (etw-bench-lttng): the private logger's and the
# tracepoint's cases timed interleaved.  Without an lttng-ust session the
# private logger's still run.
lttng_start() {
	lttng-sessiond --no-kernel --daemonize &&
	lttng create etwbench --snapshot &&
	lttng enable-event -u etw_bench:payload &&
	lttng start
}
if want lttng; then
	say "5: private logger and lttng-ust, interleaved"
	mkdir -p /dev/shm /var/run /run /root
	mount -t tmpfs tmpfs /dev/shm
	export HOME=/root
	lttng_start >/dev/null 2>/tmp/lttng.err || { say "lttng failed:"; cat /tmp/lttng.err; }
	etw-bench-lttng
	{ lttng stop && lttng destroy etwbench; } >/dev/null 2>&1
	pid=$(pidof lttng-sessiond) && kill $pid
fi

# LTTng's kernel tracer (lttng-modules, when make bench could build it
# for this kernel) recording EVENT in a snapshot session, as item 5's
# lttng-ust session, while COMMAND runs; PROBES: its probe modules.
lttng_kernel() { # lttng_kernel SESSION PROBES EVENT COMMAND...
	ls=$1 probes=$2 event=$3
	shift 3
	mkdir -p /dev/shm /var/run /run /root
	grep -q ' /dev/shm ' /proc/mounts || mount -t tmpfs tmpfs /dev/shm
	export HOME=/root
	if { lttng-sessiond --kmod-probes="$probes" --daemonize &&
	     lttng create "$ls" --snapshot &&
	     lttng enable-event -k "$event" &&
	     lttng start; } >/dev/null 2>/tmp/lttng-k.err; then
		"$@"
		lttng stop "$ls" >/dev/null 2>&1
	else
		say "lttng kernel session failed:"
		cat /tmp/lttng-k.err
	fi
	lttng destroy "$ls" >/dev/null 2>&1
	pid=$(pidof lttng-sessiond) && kill $pid
}

# 11: the kernel logger's CSwitch and PROFILE against perf's, in one run.
if want kstack; then
	say "11: CSwitch and PROFILE cost, and perf's"
	etw-bench-kstack cswitch
	etw-bench-kstack profile
	if command -v perf >/dev/null; then
		perf record -q -a -e sched:sched_switch -o /tmp/perf-cs.data -- \
			etw-bench-kstack cswitch perf 2>/dev/null
		perf record -q -a -F 1000 -g -o /tmp/perf-prof.data -- \
			etw-bench-kstack profile perf 2>/dev/null
		perf record -q -a -F 1000 --call-graph dwarf -o /tmp/perf-dwarf.data -- \
			etw-bench-kstack profile perf_dwarf 2>/dev/null
		rm -f /tmp/perf-cs.data /tmp/perf-prof.data /tmp/perf-dwarf.data
	fi
	# LTTng's kernel sched_switch record.
	if [ -d "/lib/modules/$(uname -r)/extra" ]; then
		lttng_kernel etwbench-k sched sched_switch etw-bench-kstack cswitch lttng
	fi
fi

# 15: a kernel module's EtwWrite against a tracepoint of the same bytes
# recorded by ftrace, then by LTTng's kernel tracer (its probe of the
# tracepoint, lttng-probe-etw-kbench, when make bench built it), and
# the disabled checks (etw_kbench.ko: bench/kmod/).
if want kwrite; then
	say "15: kernel EtwWrite vs ftrace and LTTng records of a tracepoint"
	insmod /lib/modules/etw_kbench.ko
	etw-bench-kwrite ftrace
	if [ -e "/lib/modules/$(uname -r)/extra/lttng-probe-etw-kbench.ko" ]; then
		lttng_kernel etwbench-kw etw-kbench etw_kbench_bytes etw-bench-kwrite lttng
	fi
	rmmod etw_kbench
fi

# 16: FileIo's cost on a read(2), and LTTng's syscall tracing's.
if want fileio; then
	say "16: FileIo on a read(2), and LTTng's --syscall"
	etw-bench-fileio
	if [ -d "/lib/modules/$(uname -r)/extra" ]; then
		mkdir -p /dev/shm /var/run /run /root
		grep -q ' /dev/shm ' /proc/mounts || mount -t tmpfs tmpfs /dev/shm
		export HOME=/root
		if { lttng-sessiond --daemonize &&
		     lttng create etwbench-f --snapshot &&
		     lttng enable-event -k --syscall pread64 &&
		     lttng start; } >/dev/null 2>/tmp/lttng-f.err; then
			etw-bench-fileio lttng
			lttng stop etwbench-f >/dev/null 2>&1
		else
			say "lttng kernel session failed:"
			cat /tmp/lttng-f.err
		fi
		lttng destroy etwbench-f >/dev/null 2>&1
		pid=$(pidof lttng-sessiond) && kill $pid
	fi
fi

if want logger; then
# 4: the logger (etw record) drains a producer writing at full speed with
# default buffers; the file's event count is checked against the producer.
# Twice: to the ext4 disk (/mnt/disk: what a user does, buffers written
# with O_DIRECT) with keys logger.*, and to tmpfs (/tmp: through the page
# cache on 6.1) with keys tmpfs.logger.*.
logger_run() { # logger_run PREFIX DIR
	f=$2/logger.etl
	etw-bench-cpu logger etw record -p "$guid:4:0x1" -o "$f" -- \
		etw-bench-producer $n 64 2>/tmp/logger.err | sed "s/^BENCH /BENCH $1/"
	cat /tmp/logger.err
	lost=$(sed -n 's/.*buffers, \([0-9]*\) events lost.*/\1/p' /tmp/logger.err)
	b "${1}logger.session_lost" "${lost:-1}"
	b "${1}logger.file_bytes" "$(stat -c %s "$f")"
	b "${1}logger.file_events" "$(etw dump -s "$f" 2>/dev/null | awk -v g=$guid '$2 ~ g { print $1; exit }')"
	rm -f "$f"
}
n=200000
if grep -q ' /mnt/disk ' /proc/mounts; then
	say "4: logger, file on the ext4 disk"
	logger_run "" /mnt/disk
	# The logger's fixed cost (etw record, its logger starting, the
	# session, the file's header) against the same with no event.
	n=0
	logger_run idle. /mnt/disk
	n=200000
fi
say "4: logger, file on tmpfs"
logger_run tmpfs. /tmp
fi

if want wakes; then
# Item 4's runs traced (not in the table): what woke the logger's
# processes, and what they did on the CPU (scripts/vm/logger-wakes.awk).
	t=/sys/kernel/tracing
	echo 0 > $t/tracing_on
	echo mono > $t/trace_clock
	echo 16384 > $t/buffer_size_kb
	for e in sched/sched_switch sched/sched_wakeup irq_vectors/local_timer_entry \
		irq_vectors/reschedule_entry irq_vectors/call_function_single_entry \
		irq/irq_handler_entry raw_syscalls/sys_enter raw_syscalls/sys_exit; do
		echo 1 > $t/events/$e/enable
	done
	echo 'comm == "etw"' > $t/events/raw_syscalls/filter
	for d in /mnt/disk /tmp; do
		[ -d $d ] || continue
		echo > $t/trace
		echo 1 > $t/tracing_on
		etw-bench-cpu wakes etw record -p "$guid:4:0x1" -o $d/wakes.etl -- \
			etw-bench-producer 200000 64 2>/dev/null | sed 's/^BENCH /# /'
		echo 0 > $t/tracing_on
		rm -f $d/wakes.etl
		say "4: the logger's wake-ups, file in $d ($(grep -c . $t/trace) trace lines)"
		awk -f /usr/share/etw/logger-wakes.awk $t/trace | sed 's/^/# /'
	done
	echo 0 > $t/events/enable
	echo > $t/trace
fi

if want dump; then
# 6: etw dump of a 100 MB file (512-byte events, 1 MiB buffers so the
# recording keeps up; losses do not matter here).
say "6: etw dump"
etw record -b 1024 -p "$guid:4:0x1" -o /tmp/big.etl -- \
	etw-bench-producer 320000 512 >/dev/null 2>&1
b dump.file_bytes "$(stat -c %s /tmp/big.etl)"
b dump.events "$(etw dump -s /tmp/big.etl 2>/dev/null | awk '/^  Records/ { print $2; exit }')"
etw-bench-cpu dump etw dump -o /dev/null /tmp/big.etl 2>/dev/null
rm -f /tmp/big.etl
fi

if want rundown; then
# 8: the kernel logger's process rundown: StartTrace of the NT Kernel
# Logger with 1,000 processes waiting, against the same with no flag.
say "8: kernel logger rundown of 1000 processes"
etw-bench-rundown 1000
fi

# Not in the table: where the time goes, for working on the write path
# (make bench BENCH_ONLY=profile BENCH_APPEND=etwprofile=CASE profiles
# the cases of etw-bench-write whose key starts with CASE).
# etwprofile=logger profiles item 4 on the disk (the producer and etw
# logger, by command).
if want profile && command -v perf >/dev/null; then
	case=$(sed -n 's/.*etwprofile=\([^ ]*\).*/\1/p' /proc/cmdline)
	if [ "$case" = logger ]; then
		say "profile: item 4, etw record to /mnt/disk"
		perf record -q -a -F 20000 -o /tmp/perf.data -- etw record -p "$guid:4:0x1" \
			-o /mnt/disk/logger.etl -- etw-bench-producer 200000 64 2>&1
		sort=comm,dso,sym
	else
		say "profile: etw-bench-write $case"
		perf record -q -a -F 20000 -o /tmp/perf.data -- etw-bench-write $case 2>&1
		sort=pid,dso,sym
	fi
	perf report -i /tmp/perf.data --stdio --sort $sort 2>/dev/null | grep -v '^#' | grep -v '^$' | head -60
fi

# Not in the table: the instruction profile of one case (make
# bench-profile, which loads bench/qemu/insn-profile.so into this boot and
# passes etwinsns=CASE,SIZE,N).  The kernel's text symbols (gzip, base64)
# and the program's memory map let the host name the addresses it counted.
if want insns; then
	spec=$(sed -n 's/.*etwinsns=\([^ ]*\).*/\1/p' /proc/cmdline)
	echo "ETW-PROFILE-KALLSYMS-BEGIN"
	grep -i ' t ' /proc/kallsyms | gzip -1 | base64
	echo "ETW-PROFILE-KALLSYMS-END"
	echo "ETW-PROFILE-ETW-TEXT $(cat /sys/module/etw/sections/.text)"
	# shellcheck disable=SC2046
	etw-bench-profile $(echo "$spec" | tr , ' ') 2>&1
fi

# Not in the table: which struct file each CPU's ioctls take a reference
# on (make bench BENCH_ONLY=filerefs).  A kprobe on fput(), which fdput()
# calls when fdget() took a reference (a multithreaded process), counts
# per CPU and file while two pinned threads write through the process's
# one /dev/etw fd, through a writer fd each, and with EventWrite.
if want filerefs && [ -w $t/kprobe_events ]; then
	echo 'p:etwfput fput file=%di:x64' > $t/kprobe_events
	e=$t/events/kprobes/etwfput
	hist='hist:keys=common_cpu,file.hex:sort=common_cpu if comm == "etw-bench-threa"'
	for c in sharedfd writerfd eventwrite; do
		say "filerefs: $c: fput() calls per CPU and struct file (over 1000)"
		echo "$hist" > $e/trigger
		echo 1 > $e/enable
		etw-bench-threads $c
		echo 0 > $e/enable
		awk '/hitcount/ { n = $NF + 0; if (n > 1000) print "#   " $0 }' $e/hist
		echo "!$hist" > $e/trigger
	done
	echo '-:etwfput' >> $t/kprobe_events
fi

echo "ETW-BENCH-END"
