// SPDX-License-Identifier: MIT
/*
 * Waiting for /dev/etw, for registrations made without the module.
 *
 * When the module is loaded after the program registered its providers,
 * the providers should reach it without the program doing anything: a
 * program registers once, at start, and may run for months.  As
 * lttng-ust's listener thread connects to a session daemon started after
 * the program, one thread watches /dev with inotify (created, moved in,
 * mode changed: udev creates the node, then sets its mode) and tells the
 * provider side, which registers everything with the module and starts
 * the notification thread; then the watch ends.  No thread runs, and no
 * system call is made, while the device is there or nothing waits for it.
 * Without inotify (no instance left, or a /dev that cannot be watched),
 * the registrations reach the module at the next EventRegister.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "device_watch.h"
#include "../common/internal.h"

/* The watching thread runs (or is being started). */
static atomic_bool watching;

struct watch {
	int fd;
	bool (*appeared)(void);
};

static struct watch watch;

/* An event of @buf[0..len) names the device. */
static bool names_device(const char *buf, ssize_t len)
{
	const struct inotify_event *ev;
	ssize_t off;

	for (off = 0; off + (ssize_t)sizeof(*ev) <= len;
	     off += sizeof(*ev) + ev->len) {
		ev = (const struct inotify_event *)(buf + off);
		if (ev->len && !strcmp(ev->name, ETW_DEVICE_NAME))
			return true;
		if (ev->mask & IN_Q_OVERFLOW)
			return true;	/* events were lost: look anyway */
	}
	return false;
}

static void *watch_thread(void *arg)
{
	_Alignas(struct inotify_event) char buf[4096];
	struct watch *w = arg;
	ssize_t got;

	/* The device may have come between the failed open and the watch. */
	while (!w->appeared()) {
		got = read(w->fd, buf, sizeof(buf));
		if (got < 0 && errno != EINTR)
			break;
		while (got > 0 && !names_device(buf, got))
			got = read(w->fd, buf, sizeof(buf));
	}
	close(w->fd);
	atomic_store(&watching, false);
	return NULL;
}

void etw_device_watch(bool (*appeared)(void))
{
	pthread_attr_t attr;
	pthread_t t;

	if (atomic_exchange(&watching, true))
		return;
	watch.appeared = appeared;
	watch.fd = inotify_init1(IN_CLOEXEC);
	if (watch.fd < 0)
		goto fail;
	if (inotify_add_watch(watch.fd, "/dev",
			      IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0)
		goto fail_close;
	if (pthread_attr_init(&attr))
		goto fail_close;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, watch_thread, &watch)) {
		pthread_attr_destroy(&attr);
		goto fail_close;
	}
	pthread_attr_destroy(&attr);
	return;

fail_close:
	close(watch.fd);
fail:
	/* The next EventRegister tries again (and may watch then). */
	atomic_store(&watching, false);
}

void etw_device_watch_forget(void)
{
	if (atomic_load(&watching))
		close(watch.fd);
	atomic_store(&watching, false);
}
