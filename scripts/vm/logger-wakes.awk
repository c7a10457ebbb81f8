# The logger's wake-ups, from an ftrace of a bench run (make bench
# BENCH_ONLY=wakes, scripts/vm/bench.sh): sched_switch, sched_wakeup, the
# timer, call-function, reschedule and device interrupt entries, and the
# system calls of the processes named etw (etw record, the logger's
# supervisor and its writer).  Each time one of them is switched in, what
# woke it: its CPU's own timer, an IPI (call-function or reschedule: a
# wake-up from another CPU), a device interrupt, another CPU's wake-up
# executed there ("remote"), or nothing ("preempted": it was runnable).
# Per kind: how many, the mean time from the switch to its first system
# call's return (where one returned before it left the CPU), the mean
# time on the CPU until it left it, the total.  Per system call also how
# many calls slept, and how long they ran before.
# Then its time on the CPU by system call, and per process.
{
	if (!match($0, / \[[0-9]+\] /))
		next
	pre = substr($0, 1, RSTART - 1)
	cpu = substr($0, RSTART + 2, RLENGTH - 4) + 0
	split(substr($0, RSTART + RLENGTH), f, " ")
	ts = f[2]; sub(/:$/, "", ts); ts += 0
	ev = f[3]; sub(/:$/, "", ev)
	sub(/.*-/, "", pre); pid = pre + 0
	rest = $0
}
ev == "local_timer_entry" { irq[cpu] = "timer"; next }
ev == "call_function_single_entry" || ev == "reschedule_entry" { irq[cpu] = "IPI"; next }
ev == "irq_handler_entry" { irq[cpu] = "device"; next }
ev == "sys_enter" && (pid in etw) {
	if (running[pid])
		account(pid, ts)
	sc[pid] = f[5] + 0
	calls[sc[pid]]++
	scin[pid] = ts
	next
}
ev == "sys_exit" && (pid in etw) {
	if (first[pid]) {
		firstlat[kind[pid]] += ts - swin[pid]
		nfirst[kind[pid]]++
		first[pid] = 0
	}
	if (running[pid])
		account(pid, ts)
	sc[pid] = "user"
	next
}
ev == "sched_wakeup" {
	w = rest; sub(/.* pid=/, "", w); w += 0
	c = rest; sub(/.*comm=/, "", c); sub(/ pid=.*/, "", c)
	if (c == "etw") {
		etw[w] = 1
		wkcpu[w] = cpu
	}
	next
}
ev == "sched_switch" {
	p = rest; sub(/.*prev_pid=/, "", p); p += 0
	st = rest; sub(/.*prev_state=/, "", st); sub(/ .*/, "", st)
	n = rest; sub(/.*next_pid=/, "", n); n += 0
	c = rest; sub(/.*next_comm=/, "", c); sub(/ next_pid.*/, "", c)
	pc = rest; sub(/.*prev_comm=/, "", pc); sub(/ prev_pid.*/, "", pc)
	if ((p in etw) && pc != "etw") {
		# It exec'd another program (the producer): not the logger.
		delete etw[p]
		running[p] = 0
	}
	if ((p in etw) && running[p]) {
		account(p, ts)
		slice[kind[p]] += ts - swin[p]
		oncpu[p] += ts - swin[p]
		if (st != "R" && st != "R+") {
			# Asleep in a system call: how long it ran before.
			before[sc[p]] += ts - scin[p]
			nbefore[sc[p]]++
		}
		running[p] = 0
		first[p] = 0
	}
	if (c != "etw") {
		if (n in etw)	# exec'd another program: not the logger
			delete etw[n]
		next
	}
	etw[n] = 1
	if (n in wkcpu)
		k = wkcpu[n] != cpu ? "remote" : irq[cpu] ? irq[cpu] : "other"
	else
		k = "preempted"
	delete wkcpu[n]
	kind[n] = k; nk[k]++
	running[n] = 1; swin[n] = ts; seg[n] = ts; first[n] = 1
	if (!(n in sc))
		sc[n] = "user"
	next
}
function account(q, t) {
	insys[sc[q]] += t - seg[q]
	seg[q] = t
}
END {
	for (k in nk)
		printf "%-10s %5d wake-ups  to the first return %7.3f ms  on the CPU %7.3f ms each, %7.1f ms in all\n",
		       k, nk[k], nfirst[k] ? firstlat[k] / nfirst[k] * 1e3 : 0, slice[k] / nk[k] * 1e3, slice[k] * 1e3
	for (s in insys)
		if (insys[s] >= 0.001)
			printf "  on the CPU in system call %-4s %7.1f ms (%d calls; %d slept, %.3f ms each before)\n",
			       s, insys[s] * 1e3, calls[s], nbefore[s], nbefore[s] ? before[s] / nbefore[s] * 1e3 : 0
	for (q in oncpu)
		if (q in etw)
			printf "  process %d on the CPU %.1f ms\n", q, oncpu[q] * 1e3
}
