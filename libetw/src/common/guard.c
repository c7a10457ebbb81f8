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
#include <ucontext.h>

#include "guard.h"

struct etw_guard {
	sigjmp_buf jb;
	struct etw_guard *outer;
};

/*
 * The innermost guard of this thread; the handler reads it.  Initial-exec:
 * the default model of a shared library calls __tls_get_addr() per use.
 */
static _Thread_local struct etw_guard *volatile etw_guard_cur
	__attribute__((tls_model("initial-exec")));

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

#if defined(__x86_64__)
/*
 * etw_guarded_copy() on x86-64: a copy whose every load of the caller's
 * memory lies between etw_copy_begin and etw_copy_end.  A fault there
 * resumes at etw_copy_fault, which returns 1 instead of 0, as the
 * kernel's exception table does for copy_from_user(): no sigsetjmp() per
 * copy, so a private logger's write pays for a call and the copy only.
 * 64 bytes a turn in SSE registers, then 8 bytes, then single bytes.
 */
unsigned int etw_copy_nofault(void *dst, const void *src, size_t len);
extern const char etw_copy_begin[], etw_copy_end[], etw_copy_fault[];

__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.hidden etw_copy_nofault\n"
	"	.type etw_copy_nofault, @function\n"
	"etw_copy_nofault:\n"
	"	xorl	%eax, %eax\n"
	"	.hidden etw_copy_begin\n"
	"etw_copy_begin:\n"
	"	cmpq	$64, %rdx\n"
	"	jb	2f\n"
	"1:	movdqu	(%rsi), %xmm0\n"
	"	movdqu	16(%rsi), %xmm1\n"
	"	movdqu	32(%rsi), %xmm2\n"
	"	movdqu	48(%rsi), %xmm3\n"
	"	movdqu	%xmm0, (%rdi)\n"
	"	movdqu	%xmm1, 16(%rdi)\n"
	"	movdqu	%xmm2, 32(%rdi)\n"
	"	movdqu	%xmm3, 48(%rdi)\n"
	"	addq	$64, %rsi\n"
	"	addq	$64, %rdi\n"
	"	subq	$64, %rdx\n"
	"	cmpq	$64, %rdx\n"
	"	jae	1b\n"
	"2:	cmpq	$8, %rdx\n"
	"	jb	4f\n"
	"3:	movq	(%rsi), %rcx\n"
	"	movq	%rcx, (%rdi)\n"
	"	addq	$8, %rsi\n"
	"	addq	$8, %rdi\n"
	"	subq	$8, %rdx\n"
	"	cmpq	$8, %rdx\n"
	"	jae	3b\n"
	"4:	testq	%rdx, %rdx\n"
	"	jz	6f\n"
	"5:	movzbl	(%rsi), %ecx\n"
	"	movb	%cl, (%rdi)\n"
	"	incq	%rsi\n"
	"	incq	%rdi\n"
	"	decq	%rdx\n"
	"	jnz	5b\n"
	"	.hidden etw_copy_end\n"
	"etw_copy_end:\n"
	"6:	ret\n"
	"	.hidden etw_copy_fault\n"
	"etw_copy_fault:\n"
	"	movl	$1, %eax\n"
	"	ret\n"
	"	.size etw_copy_nofault, . - etw_copy_nofault\n");

/* A fault of etw_copy_nofault(): resume at its error return. */
static int guard_fixup(siginfo_t *si, void *uc)
{
	greg_t *ip = &((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];

	if (si->si_code <= 0 || *ip < (greg_t)etw_copy_begin ||
	    *ip >= (greg_t)etw_copy_end)
		return 0;
	*ip = (greg_t)etw_copy_fault;
	return 1;
}
#else
static int guard_fixup(siginfo_t *si, void *uc)
{
	return 0;
}
#endif

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
	struct etw_guard *g = etw_guard_cur;

	if (guard_fixup(si, uc))
		return;
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

static int guard_ready;

void etw_guard_init(void)
{
	if (!__atomic_load_n(&guard_ready, __ATOMIC_ACQUIRE)) {
		pthread_once(&guard_once, guard_install);
		__atomic_store_n(&guard_ready, 1, __ATOMIC_RELEASE);
	}
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

#if defined(__x86_64__)
/* memcpy from the caller's memory: ERROR_NOACCESS if it cannot be read. */
ULONG etw_guarded_copy(void *dst, const void *src, size_t len)
{
	etw_guard_init();
	return etw_copy_nofault(dst, src, len) ? ERROR_NOACCESS : ERROR_SUCCESS;
}
#else
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

ULONG etw_guarded_copy(void *dst, const void *src, size_t len)
{
	struct guarded_copy c = { dst, src, len };

	return etw_guarded(guarded_copy, &c);
}
#endif
