// SPDX-License-Identifier: MIT
/*
 * The fault handler behind guard.h: a fault inside a guard jumps back to
 * it; any other is the program's, passed to the handler libetw found
 * installed, or given the default action.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "guard.h"

struct etw_guard {
	sigjmp_buf jb;
	struct etw_guard *outer;
};

/* The innermost guard of this thread; the handler reads it. */
static _Thread_local struct etw_guard *volatile etw_guard_cur;

static struct sigaction prev_segv, prev_bus;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

static void guard_pass_on(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *prev = sig == SIGBUS ? &prev_bus : &prev_segv;
	struct sigaction dfl;

	if (prev->sa_flags & SA_SIGINFO) {
		prev->sa_sigaction(sig, si, uc);
		return;
	}
	if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
		return;
	}
	/*
	 * The default action: back to SIG_DFL, then a fault re-executes the
	 * instruction and ends the process as it would have; a signal that
	 * was sent, not raised by a fault, is sent again.
	 */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
	struct etw_guard *g = etw_guard_cur;

	if (g && si->si_code > 0) {
		etw_guard_cur = g->outer;
		siglongjmp(g->jb, 1);
	}
	guard_pass_on(sig, si, uc);
}

static void guard_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = guard_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &prev_segv);
	sigaction(SIGBUS, &sa, &prev_bus);
}

void etw_guard_init(void)
{
	pthread_once(&guard_once, guard_install);
}

/*
 * sigsetjmp saves no signal mask (no system call): the handler runs with
 * SA_NODEFER, so nothing is left blocked after the jump.
 */
ULONG etw_guarded(ULONG (*fn)(void *arg), void *arg)
{
	ULONG (*volatile call)(void *) = fn;
	void *volatile data = arg;
	struct etw_guard g;
	ULONG err;

	etw_guard_init();
	g.outer = etw_guard_cur;
	if (sigsetjmp(g.jb, 0))
		return ERROR_NOACCESS;	/* the handler restored g.outer */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	etw_guard_cur = &g;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	err = call(data);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	etw_guard_cur = g.outer;
	return err;
}

struct guarded_copy {
	void *dst;
	const void *src;
	size_t len;
};

static ULONG guarded_copy(void *arg)
{
	struct guarded_copy *c = arg;

	memcpy(c->dst, c->src, c->len);
	return ERROR_SUCCESS;
}

/* memcpy from the caller's memory: ERROR_NOACCESS if it cannot be read. */
ULONG etw_guarded_copy(void *dst, const void *src, size_t len)
{
	struct guarded_copy c = { dst, src, len };

	return etw_guarded(guarded_copy, &c);
}
