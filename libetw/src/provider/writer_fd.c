// SPDX-License-Identifier: MIT
/*
 * The descriptor events are written through: the calling thread's own
 * writer fd (ETW_IOC_WRITER_OPEN), else the process's /dev/etw fd.
 *
 * In a multithreaded process every ioctl takes a reference on its file:
 * threads writing through one file would each write that count's cache
 * line twice per event.  A thread's writer fd is opened on its first write
 * that reaches the kernel, kept in initial-exec TLS (one load per event
 * after that) and closed at thread exit by a pthread key's destructor.  If
 * the module has no writer fds (an older etw.ko: ENOTTY), every thread
 * writes through the shared fd; if it refuses one thread (EMFILE, ENOMEM),
 * that thread does, for the rest of its life, so that no write pays a
 * failing system call.
 *
 * fork(): the child registers its providers anew on a /dev/etw file of its
 * own (provider.c), so the forking thread's writer fd, bound to the
 * parent's file and its registrations, is closed and the next write opens
 * one on the child's.  The writer fds of the parent's other threads are
 * copied into the child like any fd and stay open there (close-on-exec).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#include "../common/internal.h"

/* The thread's writer fd + 1; 0: not tried yet; -1: use the shared fd. */
_Thread_local int etw_thread_writer __attribute__((tls_model("initial-exec")));

/* The module has no writer fds: no thread asks again. */
static atomic_bool writer_unsupported;

static pthread_once_t writer_once = PTHREAD_ONCE_INIT;
static pthread_key_t writer_key;
static bool writer_key_ok;

/* Thread exit.  A later destructor's event goes through the shared fd. */
static void writer_close(void *unused)
{
	int w = etw_thread_writer;

	(void)unused;
	etw_thread_writer = -1;
	if (w > 0)
		close(w - 1);
}

void etw_writer_forget(void)
{
	int w = etw_thread_writer;

	etw_thread_writer = 0;
	if (w > 0)
		close(w - 1);
}

static void writer_key_init(void)
{
	writer_key_ok = !pthread_key_create(&writer_key, writer_close);
}

/* The thread's first write: its writer fd, or @shared if it gets none. */
int etw_writer_open(int shared)
{
	struct etw_writer_open o = { .size = sizeof(o) };
	int ret;

	etw_thread_writer = -1;
	if (atomic_load_explicit(&writer_unsupported, memory_order_relaxed))
		return shared;
	pthread_once(&writer_once, writer_key_init);
	if (!writer_key_ok)
		return shared;
	ret = etw_ioctl(shared, ETW_IOC_WRITER_OPEN, &o);
	if (ret) {
		if (ret == -ENOTTY || ret == -EINVAL)
			atomic_store_explicit(&writer_unsupported, true,
					      memory_order_relaxed);
		return shared;
	}
	/* Any non-NULL value: the destructor runs at thread exit. */
	if (pthread_setspecific(writer_key, &writer_key)) {
		close(o.fd);
		return shared;
	}
	etw_thread_writer = o.fd + 1;
	return o.fd;
}
