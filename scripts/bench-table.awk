# SPDX-License-Identifier: GPL-2.0
#
# make bench's table: reads the BENCH lines of the wall-clock run and of
# the icount run (two files, in that order) and prints every item of
# issue 7 side by side, with its target and whether it is met.
#   awk -v date=... -v kernel=... -v qemu=... -v cpu=... -v host=... -f bench-table.awk WALL ICOUNT [HOST]
# HOST is scripts/bench-host.sh's lines: measured on the host, printed
# in the wall column.
# A value that a run did not produce prints as "n/a"; an item whose code
# is not in the tree yet prints "n/a (not built yet)".

FNR == 1 { run = FILENAME == ARGV[1] ? "w" : FILENAME == ARGV[2] ? "i" : "h" }
$1 == "BENCH" { v[run, $2] = $3 }

function has(r, k) { return ((r, k) in v) }
function val(r, k) { return v[r, k] + 0 }

# (a - base) / (b - base) of one run: what a adds over what b adds.
function ratio2(r, a, b, base) {
	if (!has(r, a) || !has(r, b) || !has(r, base) || val(r, b) == val(r, base))
		return ""
	return (val(r, a) - val(r, base)) / (val(r, b) - val(r, base))
}

# How much slower a case is than the untraced one of its kind, in %.
function overhead(r, k,    base) {
	base = k
	sub(/\.[^.]*$/, ".none", base)
	if (!has(r, k) || !has(r, base) || val(r, base) == 0)
		return ""
	return (val(r, k) / val(r, base) - 1) * 100
}

# A ratio a/b of one run, or "" if either is missing.
function ratio(r, a, b) {
	if (!has(r, a) || !has(r, b) || val(r, b) == 0)
		return ""
	return val(r, a) / val(r, b)
}

function fmt(x, unit) {
	if (x == "")
		return "n/a"
	if (unit == "x")
		return sprintf("%.2fx", x)
	if (unit == "%")
		return sprintf("%.1f%%", x)
	if (x >= 100)
		return sprintf("%.0f%s", x, unit)
	return sprintf("%.1f%s", x, unit)
}

# A verdict: op is "<=" or ">=" or "==".
function met(x, op, target) {
	if (x == "")
		return "-"
	if (op == "<=")
		return x <= target + 1e-9 ? "yes" : "NO"
	if (op == ">=")
		return x >= target - 1e-9 ? "yes" : "NO"
	return x == target ? "yes" : "NO"
}

function row(name, w, i, unit, op, target, tgt) {
	printf "  %-44s %14s %14s  %-8s %s\n", name, fmt(w, unit), fmt(i, unit),
	       tgt, (op == "" ? "" : met(w, op, target) "/" met(i, op, target))
}

# Item 3's two / one of a case, of measure @m ("" wall, ".ran" while
# both vCPUs ran): the median of its paired rounds (before those, the
# ratio of its best rates).
function scaling(m, k) {
	if (has("w", "scale" m "." k ".ratio"))
		return val("w", "scale" m "." k ".ratio")
	return ratio("w", "scale" m "." k ".2", "scale" m "." k ".1")
}

function scale_rows(m) {
	row("  two / one", scaling(m, "eventwrite"), "", "x", ">=", 1.8, ">= 1.8x")
	info("  getpid two / one (what this VM allows)", scaling(m, "getpid"), "", "x")
	info("  getpid + TSC read, two / one", scaling(m, "getpidtsc"), "", "x")
	info("  user-space loop, no system call, two / one", scaling(m, "spin"), "", "x")
	info("  ioctl on the one /dev/etw fd, two / one", scaling(m, "sharedfd"), "", "x")
	info("  ioctl on a writer fd per thread, two / one", scaling(m, "writerfd"), "", "x")
	info("  EventWrite's two / one over getpid's", cost("w", "scale" m ".eventwrite.vs_getpid"), "", "x")
	info("  EventWrite's over getpid + TSC's", cost("w", "scale" m ".eventwrite.vs_getpidtsc"), "", "x")
}

# ns the other vCPU's writer adds to each event (measured while both ran).
function added_rows() {
	printf "  ns the second thread adds to each event of a thread, while both ran\n"
	info("  EventWrite 64 B", cost("w", "scale.ran.eventwrite.added_ns"), "", "")
	info("  getpid", cost("w", "scale.ran.getpid.added_ns"), "", "")
	info("  getpid + TSC read", cost("w", "scale.ran.getpidtsc.added_ns"), "", "")
	info("  user-space loop", cost("w", "scale.ran.spin.added_ns"), "", "")
	info("  ioctl on the one /dev/etw fd", cost("w", "scale.ran.sharedfd.added_ns"), "", "")
	info("  ioctl on a writer fd per thread", cost("w", "scale.ran.writerfd.added_ns"), "", "")
}

function info(name, w, i, unit) { row(name, w, i, unit, "", 0, "") }

function section(title) { printf "\n%s\n", title }

# A rate from the host part: bytes or records per ns of @ns, times @scale.
function host_rate(k, ns, scale) {
	if (!has("h", k) || !has("h", ns) || val("h", ns) == 0)
		return ""
	return val("h", k) / val("h", ns) * scale
}

# Issue 17's item 6, on the host (scripts/bench-host.sh).
function xpress_rows(    f, p, ok) {
	section("8. Host, one core (CPU time): compressed ETL reading, " \
		sprintf("%.0f MB file, %.0f MB of records", val("h", "xpress.file_bytes") / 1e6,
			val("h", "xpress.out_bytes") / 1e6))
	if (!has("h", "xpress.ns")) {
		printf "  %-44s %14s\n", "XPRESS decompression", "n/a (host part not run)"
		return
	}
	row("XPRESS decompression alone, MB/s of output", host_rate("xpress.out_bytes", "xpress.ns", 1e3),
	    "", "", ">=", 500, ">= 500")
	info("  MB/s of compressed input", host_rate("xpress.in_bytes", "xpress.ns", 1e3), "", "")
	info("reader (etw_etl_next), records/s", host_rate("xpress.records", "xpress.read_ns", 1e9), "", "")
	for (f = 1; f <= 2; f++) {
		p = "xpress.dump." (f == 1 ? "text" : "json")
		ok = has("h", p ".status") && val("h", p ".status") == 0
		if (f == 1)
			row("etw dump text, records/s", ok ? host_rate("xpress.records", p ".cpu_ns", 1e9) : "",
			    "", "", ">=", 1e6, ">= 1M")
		else
			info("etw dump JSON, records/s", ok ? host_rate("xpress.records", p ".cpu_ns", 1e9) : "", "", "")
		info("  MB/s of the compressed file", ok ? host_rate("xpress.file_bytes", p ".cpu_ns", 1e3) : "", "", "")
		info("  MB/s of records (decompressed)", ok ? host_rate("xpress.out_bytes", p ".cpu_ns", 1e3) : "", "", "")
	}
}

# Item 6's decoding rows (scripts/bench-host-decode.sh): one core, CPU time.
function decode_rows(    r, ok) {
	section("9. Host, one core (CPU time): etw dump of " \
		sprintf("%.0f kernel records decoded into fields, and raw", val("h", "decode.records")))
	if (!has("h", "decode.text.cpu_ns")) {
		printf "  %-44s %14s\n", "decoding", "n/a (host part not run)"
		return
	}
	row("text, decoded fields, records/s", host_rate("decode.records", "decode.text.cpu_ns", 1e9),
	    "", "", ">=", 1e6, ">= 1M")
	info("text, the same records raw (hex), records/s", host_rate("decode.records", "decode.raw.cpu_ns", 1e9), "", "")
	info("JSON, decoded fields, records/s", host_rate("decode.records", "decode.json.cpu_ns", 1e9), "", "")
	info("decoder alone, ns per record", cost("h", "decode.lib_ns"), "", "")
	r = val("h", "decode.raw.cpu_ns") ? val("h", "decode.text.cpu_ns") / val("h", "decode.raw.cpu_ns") : ""
	row("decoded / raw record, CPU time", r, "", "x", "<=", 2, "<= 2x")
	ok = has("h", "decode.text_insns") && val("h", "decode.raw_insns") > 0
	row("decoded / raw record, instructions", ok ? val("h", "decode.text_insns") / val("h", "decode.raw_insns") : "",
	    "", "x", "<=", 2, "<= 2x")
}

# Issue 18's item 6 (scripts/bench-host-manifest.sh): one core, CPU time.
function manifest_rows(    r, ok) {
	section("10. Host, one core (CPU time): etw dump of " \
		sprintf("%.0f manifest events and as many TraceLogging ones, five fields each",
			val("h", "manifest.records")))
	if (!has("h", "manifest.text.cpu_ns")) {
		printf "  %-44s %14s\n", "manifests", "n/a (host part not run)"
		return
	}
	info("manifest events, text, events/s", host_rate("manifest.records", "manifest.text.cpu_ns", 1e9), "", "")
	info("TraceLogging events, text, events/s", host_rate("manifest.records", "manifest.tl.cpu_ns", 1e9), "", "")
	r = val("h", "manifest.tl.cpu_ns") ? val("h", "manifest.text.cpu_ns") / val("h", "manifest.tl.cpu_ns") : ""
	row("manifest / TraceLogging event, CPU time", r, "", "x", "<=", 1.5, "<= 1.5x")
	ok = has("h", "manifest.text_insns") && val("h", "manifest.tl_insns") > 0
	row("manifest / TraceLogging, instructions", ok ? val("h", "manifest.text_insns") / val("h", "manifest.tl_insns") : "",
	    "", "x", "<=", 1.5, "<= 1.5x")
}

# The viewers' rows (scripts/bench-host-export.sh): one core, CPU time.
function viewers_rows(    k, w, i, mrec) {
	section("14. Host, one core (CPU time): etw report and etw export of " \
		sprintf("%.0f CPU samples with stacks (%.0f records)", val("h", "viewers.samples"),
			val("h", "viewers.records")))
	if (!has("h", "viewers.report.cpu_ns")) {
		printf "  %-44s %14s\n", "viewers", "n/a (host part not run)"
		return
	}
	mrec = val("h", "viewers.records") / 1e6
	row("etw report, s per million records", val("h", "viewers.report.cpu_ns") / 1e9 / mrec,
	    "", "", "<=", 1, "<= 1")
	split("speedscope perfetto", w, " ")
	for (i = 1; i <= 2; i++) {
		k = "viewers." w[i]
		info("etw export -f " w[i] ", records/s", host_rate("viewers.records", k ".cpu_ns", 1e9), "", "")
		info("  peak resident MB (the trace mapped: " sprintf("%.0f", val("h", "viewers.file_bytes") / 1e6) ")",
		     val("h", k ".maxrss_kb") / 1024, "", "")
	}
	info("etw report, peak resident MB", val("h", "viewers.report.maxrss_kb") / 1024, "", "")
}

# Item 4 for the file in one place; @p prefixes the keys of that run.
function logger_rows(where, p,    n, r, lost, share, rate) {
	for (n = 1; n <= 2; n++) {
		r = n == 1 ? "w" : "i"
		lost[r] = ""
		share[r] = ""
		rate[r] = ""
		if (has(r, p "producer.events") && has(r, p "logger.file_events")) {
			# A failed write is one the session counted lost: not twice.
			lost[r] = val(r, p "logger.session_lost") + \
				  val(r, p "producer.events") - val(r, p "logger.file_events")
			share[r] = 100 * (val(r, p "logger.cpu_ns") - val(r, p "producer.cpu_ns")) / \
				   val(r, p "producer.cpu_ns")
			rate[r] = val(r, p "logger.file_bytes") / val(r, p "logger.wall_ns") * 1e9 / 1e6
		}
	}
	printf "  %s\n", where
	info("  events written by the producer", cost("w", p "producer.events"),
	     cost("i", p "producer.events"), "")
	row("  events lost (session + missing in file)", lost["w"], lost["i"],
	    "", "==", 0, "0")
	# When the session ran out of buffers: at the start (the pool still
	# growing) or later (the logger stalled), and how often.
	info("    first failed write (none: all written)", cost("w", p "producer.first_failed"),
	     cost("i", p "producer.first_failed"), "")
	info("    runs of failed writes", cost("w", p "producer.failed_runs"),
	     cost("i", p "producer.failed_runs"), "")
	row("  logger CPU / producer CPU", share["w"], share["i"], "%", "<=", 10, "<= 10%")
	info("  file MB/s written", rate["w"], rate["i"], "")
	# What the logger's time goes to, per 100 buffers of the file (64 KiB).
	info("    logger system time / its CPU", sys_share("w", p), sys_share("i", p), "%")
	info("    logger sleeps (wake-ups) per 100 buffers", per_buffer("w", p, "nvcsw"),
	     per_buffer("i", p, "nvcsw"), "")
	info("    logger preemptions per 100 buffers", per_buffer("w", p, "nivcsw"),
	     per_buffer("i", p, "nivcsw"), "")
	info("    logger page faults per 100 buffers", per_buffer("w", p, "minflt"),
	     per_buffer("i", p, "minflt"), "")
	if (p == "")
		info("  no events: logger ms (icount: M instr.)", idle("w"), idle("i"), "")
	# The share above less that fixed cost: what the logger adds per
	# buffer (the no-event run writes its file on the disk).
	info("    share less the no-event run's", marginal("w", p), marginal("i", p), "%")
}

# The logger's share of the producer's CPU time beyond its fixed cost.
function marginal(r, p,    fixed) {
	fixed = idle(r)
	if (fixed == "" || !has(r, p "logger.cpu_ns") || !has(r, p "producer.cpu_ns"))
		return ""
	return 100 * (val(r, p "logger.cpu_ns") - val(r, p "producer.cpu_ns") - fixed * 1e6) / \
	       val(r, p "producer.cpu_ns")
}

# The logger's @what (a getrusage() count: everything but the producer)
# per 100 64-KiB buffers of the file, the header buffer not counted.
function per_buffer(r, p, what,    b) {
	if (!has(r, p "logger." what) || !has(r, p "producer." what) ||
	    !has(r, p "logger.file_bytes"))
		return ""
	b = val(r, p "logger.file_bytes") / 65536 - 1
	if (b <= 0)
		return ""
	return 100 * (val(r, p "logger." what) - val(r, p "producer." what)) / b
}

# The share of the logger's CPU time spent in the kernel.
function sys_share(r, p,    cpu) {
	if (!has(r, p "logger.sys_ns") || !has(r, p "producer.sys_ns"))
		return ""
	cpu = val(r, p "logger.cpu_ns") - val(r, p "producer.cpu_ns")
	return cpu > 0 ? 100 * (val(r, p "logger.sys_ns") - val(r, p "producer.sys_ns")) / cpu : ""
}

# The logger's CPU time in the run without events: its fixed cost.
function idle(r) {
	if (!has(r, "idle.logger.cpu_ns") || !has(r, "idle.producer.cpu_ns"))
		return ""
	return (val(r, "idle.logger.cpu_ns") - val(r, "idle.producer.cpu_ns")) / 1e6
}

function cost(r, k) { return has(r, k) ? val(r, k) : "" }

function per_sec(r, k) { return has(r, k) && val(r, k) > 0 ? 1e9 / val(r, k) : "" }

# Issue 27's item 5: a kernel module's EtwWrite against a tracepoint of
# the same bytes recorded by ftrace and by LTTng (etw-bench-kwrite).
function kwrite_rows(    n, p, t, tn) {
	section("15. Kernel EtwWrite vs a TRACE_EVENT tracepoint of the same bytes (etw_kbench.ko)")
	if (!has("w", "kwrite.ftrace.etw.0") && !has("i", "kwrite.ftrace.etw.0")) {
		printf "  %-44s %14s\n", "kernel EtwWrite", "n/a (not run)"
		return
	}
	for (t = 1; t <= 2; t++) {
		tn = t == 1 ? "ftrace" : "lttng"
		if (!has("w", "kwrite." tn ".etw.0") && !has("i", "kwrite." tn ".etw.0")) {
			printf "  %-44s %14s\n", "LTTng's kernel record", "n/a (no lttng-modules probe)"
			continue
		}
		for (n = 1; n <= 3; n++) {
			p = sizes[n]
			info((t == 1 ? "ftrace" : "LTTng") " record of the tracepoint, " p " B",
			     cost("w", "kwrite." tn ".tp." p), cost("i", "kwrite." tn ".tp." p), "")
			info("EtwWrite, " p " B (same rounds)", cost("w", "kwrite." tn ".etw." p),
			     cost("i", "kwrite." tn ".etw." p), "")
			if (t == 1)
				info("  EtwWrite / ftrace", ratio("w", "kwrite.ftrace.etw." p, "kwrite.ftrace.tp." p),
				     ratio("i", "kwrite.ftrace.etw." p, "kwrite.ftrace.tp." p), "x")
			else
				row("  EtwWrite / LTTng", ratio("w", "kwrite.lttng.etw." p, "kwrite.lttng.tp." p),
				    ratio("i", "kwrite.lttng.etw." p, "kwrite.lttng.tp." p), "x", "<=", 1.0, "<= 1.0x")
		}
		row("  EtwWrite events lost", has("w", "kwrite." tn ".etw.lost") ? val("w", "kwrite." tn ".etw.lost") : "",
		    has("i", "kwrite." tn ".etw.lost") ? val("i", "kwrite." tn ".etw.lost") : "", "", "==", 0, "0")
	}
	info("the loop alone (per turn)", cost("w", "kwrite.off.loop"), cost("i", "kwrite.off.loop"), "")
	info("tracepoint, nothing attached (static key)", cost("w", "kwrite.off.tp"), cost("i", "kwrite.off.tp"), "")
	info("EtwEventEnabled, provider not enabled", cost("w", "kwrite.off.enabled"),
	     cost("i", "kwrite.off.enabled"), "")
	info("etw mc -km EventEnabled<Event>(), not enabled", cost("w", "kwrite.off.inline"),
	     cost("i", "kwrite.off.inline"), "")
	info("EtwWrite 64 B, provider not enabled", cost("w", "kwrite.off.write"),
	     cost("i", "kwrite.off.write"), "")
}

END {
	if (only == "host") {
		printf "etw bench, host part: %s\n", host
		printf "\n  %-44s %14s %14s  %-8s %s\n", "", "host", "", "target", "met"
		xpress_rows()
		decode_rows()
		manifest_rows()
		viewers_rows()
		exit
	}
	split("0 64 512", sizes, " ")
	printf "etw bench, %s, Debian kernel %s\n", date, kernel
	printf "host: %s; %s, TCG, -cpu %s\n", host, qemu, cpu
	printf "wall:   2 vCPUs, wall clock (host shared with other work: noisy; ratios within the run only)\n"
	printf "icount: 1 vCPU, -icount shift=0,sleep=off: 1 ns = 1 guest instruction (deterministic)\n"
	printf "\n  %-44s %14s %14s  %-8s %s\n", "", "wall", "icount", "target", "met wall/icount"

	section("1. EventWrite into one enabled session (ns per call; icount: instructions)")
	info("getpid()", cost("w", "getpid"), cost("i", "getpid"), "")
	info("null ioctl on /dev/etw (ENOTTY)", cost("w", "null_ioctl"), cost("i", "null_ioctl"), "")
	for (n = 1; n <= 3; n++) {
		p = sizes[n]
		info("trace_marker write, " p " B", cost("w", "marker." p), cost("i", "marker." p), "")
		info("EventWrite, " p " B", cost("w", "eventwrite." p), cost("i", "eventwrite." p), "")
		info("  events/s per core (wall)", per_sec("w", "eventwrite." p), "", "")
		row("  EventWrite / null ioctl", ratio("w", "eventwrite." p, "null_ioctl"),
		    ratio("i", "eventwrite." p, "null_ioctl"), "x", "<=", 1.3, "<= 1.3x")
		row("  EventWrite / trace_marker", ratio("w", "eventwrite." p, "marker." p),
		    ratio("i", "eventwrite." p, "marker." p), "x", "<=", 1.0, "<= 1.0x")
		info("  EventWrite / getpid", ratio("w", "eventwrite." p, "getpid"),
		     ratio("i", "eventwrite." p, "getpid"), "x")
	}

	section("2. Disabled provider, filtered events (getpid / cost: how many fit in one getpid)")
	split("disabled level keyword", kinds, " ")
	split("provider not enabled|level above the session's|keyword not enabled", why, "|")
	for (n = 1; n <= 3; n++) {
		k = kinds[n]
		for (m = 1; m <= 2; m++) {
			api = m == 1 ? "enabled" : "write"
			label = (m == 1 ? "EventEnabled, " : "EventWrite 64 B, ") why[n]
			info(label, cost("w", k "." api), cost("i", k "." api), "")
			row("  getpid / it", ratio("w", "getpid", k "." api),
			    ratio("i", "getpid", k "." api), "x", ">=", 50, ">= 50x")
			row("  system calls per call (seccomp count)", cost("w", "syscalls." k "." api),
			    cost("i", "syscalls." k "." api), "", "==", 0, "0")
		}
	}
	info("control: enabled EventWrite, syscalls per call", cost("w", "syscalls.eventwrite"),
	     cost("i", "syscalls.eventwrite"), "")
	info("lttng-ust tracepoint not enabled", cost("w", "lttng.off"), cost("i", "lttng.off"), "")

	section("3. Two writer threads pinned to the two vCPUs (events/s; medians of paired rounds)")
	info("EventWrite 64 B, one thread", cost("w", "scale.eventwrite.1"), "", "")
	info("EventWrite 64 B, two threads", cost("w", "scale.eventwrite.2"), "", "")
	scale_rows("")
	if (has("w", "scale.ran.eventwrite.ratio")) {
		printf "  while both vCPUs ran (the host's other load left out)\n"
		scale_rows(".ran")
		added_rows()
	}

	section("4. Logger: etw record draining one producer at full speed, default buffers, 64 B events")
	logger_rows("file on the ext4 disk (O_DIRECT)", "")
	logger_rows("file on tmpfs", "tmpfs.")

	section("5. Private logger EventWrite vs lttng-ust tracepoint (same payload)")
	for (n = 1; n <= 3; n++) {
		p = sizes[n]
		info("lttng-ust tracepoint, " p " B", cost("w", "lttng." p), cost("i", "lttng." p), "")
		if (has("w", "private." p) || has("i", "private." p)) {
			info("private-logger EventWrite, " p " B", cost("w", "private." p),
			     cost("i", "private." p), "")
			row("  private / lttng-ust", ratio("w", "private." p, "lttng." p),
			    ratio("i", "private." p, "lttng." p), "x", "<=", 1.0, "<= 1.0x")
		} else {
			printf "  %-44s %14s\n", "private-logger EventWrite, " p " B", "n/a (not built yet)"
		}
	}

	section("6. etw dump (text) of a " sprintf("%.0f", val("w", "dump.file_bytes") / 1e6) " MB ETL file")
	for (n = 1; n <= 2; n++) {
		r = n == 1 ? "w" : "i"
		evs[r] = mbs[r] = ipe[r] = ""
		if (has(r, "dump.wall_ns") && val(r, "dump.status") == 0) {
			evs[r] = val(r, "dump.events") / val(r, "dump.wall_ns") * 1e9
			mbs[r] = val(r, "dump.file_bytes") / val(r, "dump.wall_ns") * 1e3
			ipe[r] = val(r, "dump.wall_ns") / val(r, "dump.events")
		}
	}
	info("events/s", evs["w"], "", "")
	info("MB/s", mbs["w"], "", "")
	info("ns per event; icount: instructions per event", ipe["w"], ipe["i"], "")

	section("7. TraceLoggingWrite vs EventWrite, same fields (INT32 and a 17-byte string)")
	if (has("w", "tl.write") || has("i", "tl.write")) {
		info("TraceLoggingWrite", cost("w", "tl.write"), cost("i", "tl.write"), "")
		info("EventWrite, same fields", cost("w", "tl.eventwrite"), cost("i", "tl.eventwrite"), "")
		row("  TraceLoggingWrite / EventWrite", ratio("w", "tl.write", "tl.eventwrite"),
		    ratio("i", "tl.write", "tl.eventwrite"), "x", "<=", 1.3, "<= 1.3x")
		info("TraceLoggingWrite, event above the session level", cost("w", "tl.filtered"),
		     cost("i", "tl.filtered"), "")
	} else {
		printf "  %-44s %14s\n", "TraceLoggingWrite / EventWrite", "n/a (not built yet)"
	}

	xpress_rows()
	decode_rows()
	manifest_rows()
	viewers_rows()

	section("11. kernel logger: rundown of " sprintf("%d", val("w", "rundown.procs")) " processes (Process + Thread DCStart/DCEnd)")
	if (has("w", "rundown.start_ns") || has("i", "rundown.start_ns")) {
		for (n = 1; n <= 2; n++) {
			r = n == 1 ? "w" : "i"
			rs[r] = re[r] = ""
			if (has(r, "rundown.start_ns")) {
				rs[r] = (val(r, "rundown.start_ns") - val(r, "rundown.empty_start_ns")) / 1e6
				re[r] = (val(r, "rundown.stop_ns") - val(r, "rundown.empty_stop_ns")) / 1e6
			}
		}
		info("DCStart at StartTrace, ms", rs["w"], rs["i"], "")
		info("DCEnd at StopTrace, ms", re["w"], re["i"], "")
		row("  events lost", has("w", "rundown.events_lost") ? val("w", "rundown.events_lost") : "",
		    has("i", "rundown.events_lost") ? val("i", "rundown.events_lost") : "", "", "==", 0, "0")
	} else {
		printf "  %-44s %14s\n", "rundown", "n/a (not built yet)"
	}

	section("12. kernel logger: what CSwitch and PROFILE cost what they observe")
	if (has("w", "kstack.cswitch.none") || has("i", "kstack.cswitch.none")) {
		info("context switch (sched_yield turn), no tracing", cost("w", "kstack.cswitch.none"),
		     cost("i", "kstack.cswitch.none"), "")
		info("  with CSwitch recorded", cost("w", "kstack.cswitch.etw"),
		     cost("i", "kstack.cswitch.etw"), "")
		info("  with CSwitch and its stack", cost("w", "kstack.cswitch.etw_stack"),
		     cost("i", "kstack.cswitch.etw_stack"), "")
		info("  under perf record -e sched:sched_switch", cost("w", "kstack.cswitch.perf"),
		     cost("i", "kstack.cswitch.perf"), "")
		row("  CSwitch record (ns added) / perf's", ratio2("w", "kstack.cswitch.etw", "kstack.cswitch.perf", "kstack.cswitch.none"),
		    ratio2("i", "kstack.cswitch.etw", "kstack.cswitch.perf", "kstack.cswitch.none"), "x", "<=", 1, "<= 1x")
		if (has("w", "kstack.cswitch.lttng") || has("i", "kstack.cswitch.lttng")) {
			info("  under LTTng's kernel sched_switch", cost("w", "kstack.cswitch.lttng"),
			     cost("i", "kstack.cswitch.lttng"), "")
			row("  CSwitch record (ns added) / LTTng's", ratio2("w", "kstack.cswitch.etw", "kstack.cswitch.lttng", "kstack.cswitch.none"),
			    ratio2("i", "kstack.cswitch.etw", "kstack.cswitch.lttng", "kstack.cswitch.none"), "x", "<=", 1, "<= 1x")
		} else {
			printf "  %-44s %14s\n", "  under LTTng's kernel sched_switch", "n/a (no lttng-modules)"
		}
		info("  records lost (CSwitch, with stacks)", val("w", "kstack.cswitch.etw.lost") + val("w", "kstack.cswitch.etw_stack.lost"),
		     val("i", "kstack.cswitch.etw.lost") + val("i", "kstack.cswitch.etw_stack.lost"), "")
		info("busy loop block, no tracing", cost("w", "kstack.profile.none"),
		     cost("i", "kstack.profile.none"), "")
		row("  1 kHz PROFILE with stacks: overhead", overhead("w", "kstack.profile.etw"),
		    overhead("i", "kstack.profile.etw"), "%", "", 0, "")
		row("  perf record -F 1000 -g: overhead", overhead("w", "kstack.profile.perf"),
		    overhead("i", "kstack.profile.perf"), "%", "", 0, "")
		row("  PROFILE overhead / perf's", ratio2("w", "kstack.profile.etw", "kstack.profile.perf", "kstack.profile.none"),
		    ratio2("i", "kstack.profile.etw", "kstack.profile.perf", "kstack.profile.none"), "x", "<=", 1, "<= 1x")
		row("  with an 8 KiB user stack copy: overhead", overhead("w", "kstack.profile.etw_copy"),
		    overhead("i", "kstack.profile.etw_copy"), "%", "", 0, "")
		row("  perf record -F 1000 --call-graph dwarf", overhead("w", "kstack.profile.perf_dwarf"),
		    overhead("i", "kstack.profile.perf_dwarf"), "%", "", 0, "")
		row("  with the copy: overhead / perf dwarf's", ratio2("w", "kstack.profile.etw_copy", "kstack.profile.perf_dwarf", "kstack.profile.none"),
		    ratio2("i", "kstack.profile.etw_copy", "kstack.profile.perf_dwarf", "kstack.profile.none"), "x", "<=", 1, "<= 1x")
		info("  samples lost", val("w", "kstack.profile.etw.lost") + val("w", "kstack.profile.etw_copy.lost"),
		     val("i", "kstack.profile.etw.lost") + val("i", "kstack.profile.etw_copy.lost"), "")
	} else {
		printf "  %-44s %14s\n", "CSwitch and PROFILE", "n/a (not built yet)"
	}

	kwrite_rows()
	section("13. WPP: DoTraceMessage vs EventWrite, same bytes (INT32 and a 17-byte string)")
	if (has("w", "wpp.write") || has("i", "wpp.write")) {
		info("DoTraceMessage (TraceMessage, flags 0x2B)", cost("w", "wpp.write"), cost("i", "wpp.write"), "")
		info("EventWrite, same bytes", cost("w", "wpp.eventwrite"), cost("i", "wpp.eventwrite"), "")
		row("  DoTraceMessage / EventWrite", ratio("w", "wpp.write", "wpp.eventwrite"),
		    ratio("i", "wpp.write", "wpp.eventwrite"), "x", "<=", 1.3, "<= 1.3x")
		info("DoTraceMessage, flag not enabled", cost("w", "wpp.disabled"), cost("i", "wpp.disabled"), "")
		info("EventEnabled, provider not enabled", cost("w", "wpp.eventenabled"),
		     cost("i", "wpp.eventenabled"), "")
		row("  disabled DoTraceMessage / EventEnabled", ratio("w", "wpp.disabled", "wpp.eventenabled"),
		    ratio("i", "wpp.disabled", "wpp.eventenabled"), "x", "<=", 1.0, "<= 1.0x")
	} else {
		printf "  %-44s %14s\n", "DoTraceMessage / EventWrite", "n/a (not built yet)"
	}

	section("16. kernel logger: what FileIo costs a read(2) (pread64 of 64 B, page cache)")
	if (has("w", "fileio.read.none") || has("i", "fileio.read.none")) {
		info("pread64, no tracing", cost("w", "fileio.read.none"), cost("i", "fileio.read.none"), "")
		info("  with FILE_IO and FILE_IO_INIT (Read, OpEnd)", cost("w", "fileio.read.etw"),
		     cost("i", "fileio.read.etw"), "")
		row("  FileIo: overhead", overhead("w", "fileio.read.etw"), overhead("i", "fileio.read.etw"),
		    "%", "", 0, "")
		if (has("w", "fileio.read.lttng") || has("i", "fileio.read.lttng")) {
			info("  under LTTng's --syscall pread64 (entry, exit)", cost("w", "fileio.read.lttng"),
			     cost("i", "fileio.read.lttng"), "")
			info("  FileIo (ns added) / LTTng's", ratio2("w", "fileio.read.etw", "fileio.read.lttng", "fileio.read.none"),
			     ratio2("i", "fileio.read.etw", "fileio.read.lttng", "fileio.read.none"), "x")
		} else {
			printf "  %-44s %14s\n", "  under LTTng's --syscall pread64", "n/a (no lttng-modules)"
		}
		info("pread64 of /dev/zero (not followed), no tracing", cost("w", "fileio.read.zero.none"),
		     cost("i", "fileio.read.zero.none"), "")
		info("  the same session: the tracing slow path", cost("w", "fileio.read.zero.etw"),
		     cost("i", "fileio.read.zero.etw"), "")
		row("  overhead", overhead("w", "fileio.read.zero.etw"), overhead("i", "fileio.read.zero.etw"),
		    "%", "", 0, "")
		info("  records lost", val("w", "fileio.read.etw.lost"), val("i", "fileio.read.etw.lost"), "")
	} else {
		printf "  %-44s %14s\n", "FileIo", "n/a (not built yet)"
	}
}
