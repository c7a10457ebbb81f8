// SPDX-License-Identifier: MIT
/*
 * The provider side of evntprov.h: EventRegister, EventEnabled, EventWrite
 * and friends, over /dev/etw.
 *
 * Registering needs no module, as on Windows EventRegister never fails for
 * want of a session: without /dev/etw a registration points at a state
 * that is always disabled (no_module_state) and is written to this
 * process's private loggers only.  It reaches the module when the device
 * appears (device_watch.c) or, failing a watch, at the next EventRegister
 * that finds it; a child of fork() registers its own (fork_child()).
 *
 * The enable state of every registration is in a page the module keeps and
 * the process maps read-only, so EventEnabled, EventProviderEnabled and the
 * disabled path of EventWrite are a load and a few compares: no system
 * call.  Enable callbacks run on one libetw thread per process that reads
 * the module's notifications; EventRegister delivers the notification of a
 * pre-enabled provider itself, before it returns.  Each callback gets the
 * notification's FilterData, and when a controller waits for it
 * (EnableTraceEx2's Timeout) the module is told once it returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

/* Built with LIBETW_NO_INLINE_ENABLED: these are the exported functions. */
#include <windows.h>
#include <evntprov.h>

#include "../common/guard.h"
#include "../common/internal.h"
#include "../common/logger_handle.h"
#include "../private_logger/private_logger.h"
#include "device_watch.h"

/* One EventRegister. */
struct etw_prov {
	REGHANDLE handle;
	GUID guid;
	PENABLECALLBACK callback;
	void *context;
	etw_notify_fn notify;	/* a classic registration's, or NULL */
	void *owner;
	__u32 flags;		/* ETW_REGISTER_F_* */
	/*
	 * The module's id and device; 0 and -1 while it has none.  Set before
	 * @state is published (release), read after it is loaded (acquire).
	 */
	__u32 reg_id;
	int fd;
	unsigned int slot;	/* of _etwRegState and the handle */
	const struct etw_reg_state *state;	/* prov_state() */
	/*
	 * Private loggers of this process that enable it (bit i is id i + 1)
	 * and what each asks for: the write path reads these, no lock.
	 */
	_Atomic unsigned int priv_mask;
	struct etw_private_filter priv[ETW_MAX_PRIVATE_LOGGERS];
	struct etw_private_meta meta;	/* EventSetInformation's */
};

/*
 * The process's registrations, indexed by the module's reg_id (for its
 * notifications) and by slot (for handles).  Entries are published with
 * release stores and read with acquire loads; changes and callbacks are
 * serialised by `dispatch` (recursive: a callback may register or
 * unregister).
 */
static _Atomic(struct etw_prov *) provs[ETW_MAX_REGS_PER_FILE + 1];
static _Atomic(struct etw_prov *) slot_provs[_ETW_SLOTS];

/*
 * What the slot of no EventRegister registration points to (never used,
 * unregistered, slot 0, a classic provider's), and that of one a private
 * logger enables: a state that passes every inline test, so that
 * EventEnabled and EventWrite ask the library, which checks the handle
 * and knows the private loggers.
 */
static const struct _etwRegState ask_library = {
	.Enabled = 1, .Level = 255, .MatchAny = ~0ULL, .MatchAll = 0,
	.MatchAnyAt = { [0 ... _ETW_LEVELS - 1] = ~0ULL },
};

ETW_EXPORT const struct _etwRegState *_etwRegState[_ETW_SLOTS] = {
	[0 ... _ETW_SLOTS - 1] = &ask_library
};

/*
 * The free slots, oldest freed first: a handle that outlives its
 * registration names a slot that asks the library (ERROR_INVALID_HANDLE)
 * until 1023 registrations later at least.  Slot 0 is never handed out,
 * so handle 0 is always refused.  Dispatch lock held.
 */
#define NR_SLOTS	(_ETW_SLOTS - 1)
static unsigned short free_slots[NR_SLOTS];
static unsigned int slots_taken, slots_freed = NR_SLOTS;

_Static_assert(NR_SLOTS >= 2 * ETW_MAX_REGS_PER_FILE - 1,
	       "a slot for every registration, and as many waiting");

static unsigned int slot_take(void)
{
	unsigned int i = slots_taken++ % NR_SLOTS;

	/* Never used: slots 1, 2, ... in order. */
	return slots_taken <= NR_SLOTS ? i + 1 : free_slots[i];
}

static void slot_free(unsigned int slot)
{
	free_slots[slots_freed++ % NR_SLOTS] = (unsigned short)slot;
}

_Static_assert(sizeof(struct _etwRegState) == sizeof(struct etw_reg_state) &&
	       offsetof(struct _etwRegState, Enabled) ==
	       offsetof(struct etw_reg_state, enabled) &&
	       offsetof(struct _etwRegState, Level) ==
	       offsetof(struct etw_reg_state, level) &&
	       offsetof(struct _etwRegState, MatchAny) ==
	       offsetof(struct etw_reg_state, match_any) &&
	       offsetof(struct _etwRegState, MatchAll) ==
	       offsetof(struct etw_reg_state, match_all) &&
	       offsetof(struct _etwRegState, MatchAnyAt) ==
	       offsetof(struct etw_reg_state, match_any_at) &&
	       _ETW_LEVELS == ETW_REG_STATE_LEVELS,
	       "the inline test reads struct etw_reg_state");
/*
 * The state of a registration the module does not know (there was no
 * /dev/etw): all zero, disabled for every module session, so the inline
 * test and the write path stay one load and one branch.
 */
static const struct etw_reg_state no_module_state;

static pthread_mutex_t dispatch = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static const struct etw_reg_state *state_page;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static _Atomic unsigned int handle_gen;

/* REGHANDLE: a generation in the high half, the slot in the low. */
#define HANDLE_SLOT(h)	((__u32)((h) & 0xffffffffu))

/* The registration @h names, made for @notify (NULL: by EventRegister). */
static struct etw_prov *prov_lookup(REGHANDLE h, etw_notify_fn notify)
{
	__u32 slot = HANDLE_SLOT(h);
	struct etw_prov *p;

	if (!slot || slot >= _ETW_SLOTS)
		return NULL;
	p = atomic_load_explicit(&slot_provs[slot], memory_order_acquire);
	return p && p->handle == h && p->notify == notify ? p : NULL;
}

static struct etw_prov *prov_of(REGHANDLE h)
{
	return prov_lookup(h, NULL);
}

/* @p's state: its reg_id and fd are those of the state loaded. */
static inline const struct etw_reg_state *prov_state(const struct etw_prov *p)
{
	return __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
}

/* A consistent copy of a state slot (the module's seqcount protocol). */
static void state_read(const struct etw_reg_state *st, struct etw_reg_state *out)
{
	__u32 seq;

	do {
		seq = __atomic_load_n(&st->seq, __ATOMIC_ACQUIRE);
		out->enabled = __atomic_load_n(&st->enabled, __ATOMIC_RELAXED);
		out->level = __atomic_load_n(&st->level, __ATOMIC_RELAXED);
		out->match_any = __atomic_load_n(&st->match_any, __ATOMIC_RELAXED);
		out->match_all = __atomic_load_n(&st->match_all, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || seq != __atomic_load_n(&st->seq, __ATOMIC_RELAXED));
}

/* Seed 000's test against the aggregate of all enabling sessions. */
static BOOLEAN state_allows(const struct etw_reg_state *st, UCHAR level,
			    ULONGLONG keyword)
{
	struct etw_reg_state s;

	if (!__atomic_load_n(&st->enabled, __ATOMIC_RELAXED))
		return FALSE;	/* the disabled path: one load, one branch */
	state_read(st, &s);
	if (!s.enabled || (level && level > s.level))
		return FALSE;
	return !keyword || ((keyword & s.match_any) &&
			    (keyword & s.match_all) == s.match_all);
}

/* The module's sessions, then this process's private loggers. */
static BOOLEAN prov_allows(struct etw_prov *p, UCHAR level, ULONGLONG keyword)
{
	unsigned int mask;

	if (state_allows(prov_state(p), level, keyword))
		return TRUE;
	mask = atomic_load_explicit(&p->priv_mask, memory_order_acquire);
	return mask && etw_private_want(mask, p->priv, level, keyword);
}

/*
 * Point @p's slot at what <evntprov.h>'s inline test should read: the
 * module's state, unless only the library can answer (a private logger
 * enables it, or it is a classic registration, whose handle EventWrite
 * refuses).  Dispatch lock held.
 */
static void slot_publish(struct etw_prov *p)
{
	bool ask = p->notify ||
		   atomic_load_explicit(&p->priv_mask, memory_order_relaxed);

	__atomic_store_n(&_etwRegState[p->slot],
			 ask ? &ask_library :
			       (const struct _etwRegState *)prov_state(p),
			 __ATOMIC_RELEASE);
}

/* Take @v's private loggers and filters for @p; dispatch lock held. */
static void private_set(struct etw_prov *p, const struct etw_private_view *v)
{
	unsigned int i;

	for (i = 0; i < ETW_MAX_PRIVATE_LOGGERS; i++) {
		__atomic_store_n(&p->priv[i].level, v->f[i].level, __ATOMIC_RELAXED);
		__atomic_store_n(&p->priv[i].any, v->f[i].any, __ATOMIC_RELAXED);
		__atomic_store_n(&p->priv[i].all, v->f[i].all, __ATOMIC_RELAXED);
	}
	atomic_store_explicit(&p->priv_mask, v->mask, memory_order_release);
	slot_publish(p);
}

/*
 * What an EventRegister callback gets: the module's aggregate (@n, or the
 * state page without one) merged with the private loggers' (seed 000's
 * rules: the highest level, OR of MatchAny, AND of MatchAll).
 */
static void call_back(struct etw_prov *p, ULONG code, LPCGUID source,
		      const struct etw_notification *n,
		      PEVENT_FILTER_DESCRIPTOR filter)
{
	struct etw_private_view v;
	struct etw_reg_state s;
	UCHAR level;
	ULONGLONG any, all;
	bool kernel;

	if (n) {
		kernel = n->control_code != EVENT_CONTROL_CODE_DISABLE_PROVIDER;
		level = n->level;
		any = n->match_any;
		all = n->match_all;
	} else {
		state_read(prov_state(p), &s);
		kernel = s.enabled;
		level = s.level;
		any = s.match_any;
		all = s.match_all;
	}
	etw_private_view(&p->guid, &v);
	if (v.mask) {
		level = !kernel ? v.cb_level : !level || !v.cb_level ? 0 :
			level > v.cb_level ? level : v.cb_level;
		any = kernel ? any | v.any : v.any;
		all = kernel ? all & v.all : v.all;
	}
	/* IsEnabled is the state that results, as seed 000 has it. */
	if (code != EVENT_CONTROL_CODE_CAPTURE_STATE)
		code = kernel || v.mask ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
					  EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	p->callback(source, code, level, any, all, filter, p->context);
}

/*
 * Tell @p that private logger @logger_id changed its enable (@code):
 * update its mask and call it back.  A classic provider gets the handle of
 * the private logger that enabled it last, or, when none does any more,
 * WMI_DISABLE_EVENTS with the handle of the one that disabled it.
 * Dispatch lock held.
 */
static void private_notify(struct etw_prov *p, ULONG code, USHORT logger_id,
			   LPCGUID source)
{
	static const GUID zero;
	struct etw_notification n;
	struct etw_private_view v;

	etw_private_view(&p->guid, &v);
	private_set(p, &v);
	if (p->callback) {
		call_back(p, code, source ? source : &zero, NULL, NULL);
		return;
	}
	if (!p->notify)
		return;
	memset(&n, 0, sizeof(n));
	n.size = sizeof(n);
	n.reg_id = p->reg_id;
	n.control_code = code;
	n.logger_id = ETW_LOGGER_PRIVATE | logger_id;
	if (v.mask && code != EVENT_CONTROL_CODE_CAPTURE_STATE) {
		n.control_code = EVENT_CONTROL_CODE_ENABLE_PROVIDER;
		n.logger_id = ETW_LOGGER_PRIVATE | v.newest;
		n.level = v.newest_level;
		n.match_any = v.newest_any;
	}
	p->notify(p->owner, &n);
}

void etw_provider_private_changed(const GUID *guid, USHORT logger_id,
				  ULONG code, LPCGUID source)
{
	struct etw_prov *p;
	unsigned int slot;

	pthread_mutex_lock(&dispatch);
	for (slot = 1; slot < _ETW_SLOTS; slot++) {
		p = atomic_load_explicit(&slot_provs[slot], memory_order_acquire);
		if (p && !memcmp(&p->guid, guid, sizeof(*guid)))
			private_notify(p, code, logger_id, source);
	}
	pthread_mutex_unlock(&dispatch);
}

void etw_provider_private_forget(void)
{
	static const struct etw_private_view none;
	struct etw_prov *p;
	unsigned int slot;

	for (slot = 1; slot < _ETW_SLOTS; slot++) {
		p = atomic_load_explicit(&slot_provs[slot], memory_order_acquire);
		if (p)
			private_set(p, &none);
	}
}

/*
 * A registration of a GUID private loggers already enable: as enabled
 * before it registered.  An EventRegister provider that the module also
 * enabled was called back with both already.  Dispatch lock held.
 */
static void private_pre_enable(struct etw_prov *p)
{
	struct etw_private_view v;

	etw_private_view(&p->guid, &v);
	if (!v.mask)
		return;
	if (p->callback && __atomic_load_n(&prov_state(p)->enabled, __ATOMIC_RELAXED)) {
		private_set(p, &v);
		return;
	}
	private_notify(p, EVENT_CONTROL_CODE_ENABLE_PROVIDER, v.newest, NULL);
}

/*
 * Run the callback of one notification.  FilterData points into the read
 * buffer: valid during the callback only, as on Windows.  Then, if a
 * controller waits for this callback (EnableTraceEx2 with a Timeout),
 * tell the module it returned.
 */
static void dispatch_one(int fd, const struct etw_notification *n,
			 const void *filter_data)
{
	EVENT_FILTER_DESCRIPTOR filter = {
		.Ptr = (uintptr_t)filter_data,
		.Size = n->filter_size,
		.Type = n->filter_type,
	};
	struct etw_notify_ack ack = { .size = sizeof(ack), .cookie = n->cookie };
	struct etw_prov *p = NULL;

	if (n->reg_id && n->reg_id <= ETW_MAX_REGS_PER_FILE)
		p = atomic_load_explicit(&provs[n->reg_id], memory_order_acquire);
	if (p && p->notify)
		p->notify(p->owner, n);
	else if (p && p->callback)
		call_back(p, n->control_code, (LPCGUID)n->source_id, n,
			  n->flags & ETW_NOTIFY_F_FILTER ? &filter : NULL);
	if (n->cookie)
		etw_ioctl(fd, ETW_IOC_NOTIFY_ACK, &ack);
}

/*
 * Call back every registration the queued notifications are for.  The
 * buffer is on the stack: a callback may register a provider, which
 * dispatches again.
 */
static void dispatch_pending(int fd)
{
	_Alignas(8) unsigned char buf[ETW_NOTIFICATION_MAX_SIZE];
	struct etw_notification n;
	ssize_t got, off;

	for (;;) {
		got = read(fd, buf, sizeof(buf));
		if (got < (ssize_t)sizeof(n))
			return;
		for (off = 0; off + (ssize_t)sizeof(n) <= got; off += n.size) {
			memcpy(&n, buf + off, sizeof(n));
			if (n.size < sizeof(n) || n.size > got - off ||
			    n.filter_size > n.size - sizeof(n))
				break;
			dispatch_one(fd, &n, buf + off + sizeof(n));
		}
	}
}

static void *notify_thread(void *arg)
{
	struct pollfd pfd = { .fd = (int)(long)arg, .events = POLLIN };

	for (;;) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return NULL;
		pthread_mutex_lock(&dispatch);
		dispatch_pending(pfd.fd);
		pthread_mutex_unlock(&dispatch);
	}
	return NULL;
}

/*
 * The notification thread reads its own descriptor of the same open file
 * (a dup, non-blocking), so EventRegister's own reads never block.
 */
static int notify_fd = -1;

static void start_notify_thread(void)
{
	pthread_attr_t attr;
	pthread_t t;

	if (notify_fd < 0)
		return;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &attr, notify_thread, (void *)(long)notify_fd);
	pthread_attr_destroy(&attr);
}

/* The device, the state mapping and the notification descriptor. */
static int provider_init(void)
{
	const struct etw_reg_state *page;
	int fd = etw_device_fd();

	if (fd < 0)
		return fd;
	if (state_page)
		return fd;
	page = mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, fd,
		    ETW_MMAP_STATE);
	if (page == MAP_FAILED)
		return -errno;
	notify_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (notify_fd >= 0)
		fcntl(notify_fd, F_SETFL, O_NONBLOCK);
	state_page = page;
	return fd;
}

/*
 * The device cannot be opened because there is no module (no node, or a
 * node without its driver) or because this process may not open it: the
 * registration is made without it.  Anything else is an error.
 */
static bool no_device(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -ENXIO ||
	       err == -EACCES || err == -EPERM;
}

static void module_unregister(int fd, __u32 reg_id)
{
	struct etw_provider_unregister u = { .size = sizeof(u), .reg_id = reg_id };

	etw_ioctl(fd, ETW_IOC_PROVIDER_UNREGISTER, &u);
}

/*
 * Register @p with the module on @fd, whose state page is mapped, and
 * publish its state there: from then on the module's sessions enable it.
 * Returns a Win32 code; dispatch lock held.
 */
static ULONG module_register(struct etw_prov *p, int fd)
{
	struct etw_provider_register r = { .size = sizeof(r) };
	int ret;

	memcpy(r.guid, &p->guid, sizeof(r.guid));
	r.flags = p->flags;
	ret = etw_ioctl(fd, ETW_IOC_PROVIDER_REGISTER, &r);
	if (ret < 0)
		return etw_win32_error(ret, ETW_ERR_CONTROL);
	/* The slots' layout is compiled into callers (the inline test). */
	if (r.state_size != sizeof(struct etw_reg_state)) {
		module_unregister(fd, r.reg_id);
		return ERROR_NOT_SUPPORTED;
	}
	p->reg_id = r.reg_id;
	p->fd = fd;
	atomic_store_explicit(&provs[r.reg_id], p, memory_order_release);
	__atomic_store_n(&p->state, &state_page[r.state_index], __ATOMIC_RELEASE);
	return ERROR_SUCCESS;
}

/*
 * EventSetInformation's settings of a registration made without the
 * module, given to it: the traits (which imply descriptor types), then
 * descriptor types if they differ from that.  Dispatch lock held.
 */
static void module_set_meta(struct etw_prov *p)
{
	struct etw_provider_set_info si = { .size = sizeof(si), .reg_id = p->reg_id };
	const unsigned char *traits = __atomic_load_n(&p->meta.traits, __ATOMIC_ACQUIRE);
	unsigned char typed = __atomic_load_n(&p->meta.typed, __ATOMIC_RELAXED);

	if (traits) {
		si.info_class = EventProviderSetTraits;
		si.data = (uintptr_t)traits;
		si.length = p->meta.traits_len;
		etw_ioctl(p->fd, ETW_IOC_PROVIDER_SET_INFO, &si);
	}
	if (typed == !!traits)
		return;
	si.info_class = EventProviderUseDescriptorType;
	si.data = (uintptr_t)&typed;
	si.length = sizeof(typed);
	etw_ioctl(p->fd, ETW_IOC_PROVIDER_SET_INFO, &si);
}

/*
 * The device is there now: register with the module every registration
 * made without it, as it was (GUID, classic or not, traits).  A pending
 * enable calls them back before this returns.  Dispatch lock held.
 */
static void attach_waiting(int fd)
{
	struct etw_prov *p;
	unsigned int slot;

	for (slot = 1; slot < _ETW_SLOTS; slot++) {
		p = atomic_load_explicit(&slot_provs[slot], memory_order_acquire);
		if (!p || p->reg_id || module_register(p, fd))
			continue;
		module_set_meta(p);
		slot_publish(p);
	}
	if (notify_fd >= 0)
		dispatch_pending(notify_fd);
}

/*
 * device_watch.c's callback: /dev/etw changed.  true once the device
 * opened and every waiting registration was given to the module.
 */
static bool device_appeared(void)
{
	int fd;

	pthread_mutex_lock(&dispatch);
	fd = provider_init();
	if (fd >= 0)
		attach_waiting(fd);
	pthread_mutex_unlock(&dispatch);
	if (fd < 0)
		return false;
	pthread_once(&thread_once, start_notify_thread);
	return true;
}

static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_init(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Register @p (callback or notify set) for @guid, with the module if any. */
static ULONG register_prov(struct etw_prov *p, LPCGUID guid, __u32 flags,
			   REGHANDLE *out)
{
	ULONG err;
	int fd;

	pthread_once(&fork_once, fork_init);
	pthread_mutex_lock(&dispatch);
	p->guid = *guid;
	p->flags = flags;
	p->fd = -1;
	p->state = &no_module_state;
	fd = provider_init();
	if (fd >= 0) {
		err = module_register(p, fd);
		if (err)
			goto out_unlock;
	} else if (!no_device(fd)) {
		err = etw_win32_error(fd, ETW_ERR_CONTROL);
		goto out_unlock;
	}
	p->slot = slot_take();
	p->handle = ((ULONGLONG)(atomic_fetch_add(&handle_gen, 1) + 1) << 32) |
		    p->slot;
	atomic_store_explicit(&slot_provs[p->slot], p, memory_order_release);
	slot_publish(p);
	*out = p->handle;
	/*
	 * Registrations made without a device reach the module now that it
	 * is there; a pre-enabled provider is called back before registering
	 * returns.
	 */
	if (fd >= 0)
		attach_waiting(fd);
	private_pre_enable(p);
	pthread_mutex_unlock(&dispatch);
	if (fd >= 0)
		pthread_once(&thread_once, start_notify_thread);
	else
		etw_device_watch(device_appeared);
	return ERROR_SUCCESS;

out_unlock:
	pthread_mutex_unlock(&dispatch);
	return err;
}

/*
 * fork(): no callback runs and no registration changes while it copies
 * (a fork waits for another thread's enable callback to return; one made
 * from inside a callback holds the lock already).
 */
static void fork_prepare(void)
{
	pthread_mutex_lock(&dispatch);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&dispatch);
}

/*
 * The child of fork() inherits the parent's /dev/etw file, whose
 * registrations are the parent's: their notifications go to the parent's
 * thread.  As lttng-ust does after fork, the child registers its own:
 * every registration leaves the inherited file (its state, reg_id, the
 * thread's writer fd) and is registered anew on a device of the child's,
 * with the child's notification thread; without one, as any registration
 * made without the module.  Handles, callbacks and private loggers' enables
 * stay as they were.  Only the forking thread is in the child.
 */
static void fork_child(void)
{
	const struct etw_reg_state *old = state_page;
	struct etw_prov *p;
	unsigned int slot;
	bool any = false;
	int fd;

	/*
	 * The lock fork_prepare() took is owned by the parent's thread id,
	 * which a recursive mutex checks: made anew, taken by the child's.
	 */
	dispatch = (pthread_mutex_t)PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
	pthread_mutex_lock(&dispatch);
	for (slot = 1; slot < _ETW_SLOTS; slot++) {
		p = atomic_load_explicit(&slot_provs[slot], memory_order_relaxed);
		if (!p)
			continue;
		any = true;
		p->reg_id = 0;
		p->fd = -1;
		__atomic_store_n(&p->state, &no_module_state, __ATOMIC_RELEASE);
		slot_publish(p);
	}
	for (slot = 0; slot <= ETW_MAX_REGS_PER_FILE; slot++)
		atomic_store_explicit(&provs[slot], NULL, memory_order_relaxed);
	thread_once = (pthread_once_t)PTHREAD_ONCE_INIT;
	etw_device_watch_forget();
	if (old) {
		state_page = NULL;
		munmap((void *)old, ETW_MMAP_STATE_SIZE);
		if (notify_fd >= 0)
			close(notify_fd);
		notify_fd = -1;
		etw_writer_forget();
		etw_device_forget();
	}
	fd = any ? provider_init() : -1;
	if (fd >= 0)
		attach_waiting(fd);
	pthread_mutex_unlock(&dispatch);
	if (fd >= 0)
		pthread_once(&thread_once, start_notify_thread);
	else if (any)
		etw_device_watch(device_appeared);
}

ETW_EXPORT ULONG EVNTAPI EventRegister(LPCGUID ProviderId,
				       PENABLECALLBACK EnableCallback,
				       PVOID CallbackContext,
				       PREGHANDLE RegHandle)
{
	struct etw_prov *p;
	ULONG err;

	if (!RegHandle)
		return ERROR_INVALID_PARAMETER;
	*RegHandle = 0;
	if (!ProviderId)
		return ERROR_INVALID_PARAMETER;
	p = calloc(1, sizeof(*p));
	if (!p)
		return ERROR_NOT_ENOUGH_MEMORY;
	p->callback = EnableCallback;
	p->context = CallbackContext;
	err = register_prov(p, ProviderId, 0, RegHandle);
	if (err)
		free(p);
	return err;
}

unsigned int etw_provider_register_as(const void *guid, __u32 flags,
				      etw_notify_fn notify, void *owner,
				      __u64 *handle)
{
	struct etw_prov *p = calloc(1, sizeof(*p));
	REGHANDLE h = 0;
	ULONG err;

	if (!p)
		return ERROR_NOT_ENOUGH_MEMORY;
	p->notify = notify;
	p->owner = owner;
	err = register_prov(p, guid, flags, &h);
	if (err)
		free(p);
	*handle = h;
	return err;
}

static ULONG unregister_prov(REGHANDLE RegHandle, etw_notify_fn notify)
{
	struct etw_prov *p;

	/* Holding dispatch: no callback of this registration is running. */
	pthread_mutex_lock(&dispatch);
	p = prov_lookup(RegHandle, notify);
	if (!p) {
		pthread_mutex_unlock(&dispatch);
		return ERROR_INVALID_HANDLE;
	}
	atomic_store_explicit(&slot_provs[p->slot], NULL, memory_order_release);
	__atomic_store_n(&_etwRegState[p->slot], &ask_library, __ATOMIC_RELEASE);
	slot_free(p->slot);
	/* Made without the module: it has nothing to forget. */
	if (p->reg_id) {
		atomic_store_explicit(&provs[p->reg_id], NULL, memory_order_release);
		module_unregister(p->fd, p->reg_id);
	}
	pthread_mutex_unlock(&dispatch);
	/*
	 * Another thread may be inside EventWrite with this registration; as
	 * on Windows, unregistering while writing is the caller's race.  The
	 * memory is kept (it is small) so such a writer reads stale but valid
	 * memory rather than freed memory.
	 */
	return ERROR_SUCCESS;
}

ETW_EXPORT ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle)
{
	return unregister_prov(RegHandle, NULL);
}

unsigned int etw_provider_unregister_as(__u64 handle, etw_notify_fn notify)
{
	return unregister_prov(handle, notify);
}

ETW_EXPORT BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE RegHandle,
						UCHAR Level, ULONGLONG Keyword)
{
	struct etw_prov *p = prov_of(RegHandle);

	return p ? prov_allows(p, Level, Keyword) : FALSE;
}

ETW_EXPORT BOOLEAN EVNTAPI EventEnabled(REGHANDLE RegHandle,
					PCEVENT_DESCRIPTOR EventDescriptor)
{
	struct etw_prov *p = prov_of(RegHandle);

	if (!p || !EventDescriptor)
		return FALSE;
	return prov_allows(p, EventDescriptor->Level, EventDescriptor->Keyword);
}

/*
 * The thread's activity id (EventActivityIdControl).  Initial-exec: one
 * load per event instead of a __tls_get_addr() call (16 bytes of the
 * static TLS surplus when libetw is dlopen()ed).
 */
static _Thread_local GUID thread_activity __attribute__((tls_model("initial-exec")));

/*
 * ETW_IOC_WRITE_SHORT on @fd, the 56-byte request of most events (no
 * related activity id, no EventWriteEx filter): a single untyped data
 * descriptor travels in the request itself.  Every module EventRegister
 * accepts has it: it came before the 96-byte state register_prov()
 * insists on (ABI 1.0).
 */
static inline __attribute__((always_inline)) ULONG
send_short(const struct etw_prov *p, int fd, PCEVENT_DESCRIPTOR desc,
	   LPCGUID activity, ULONG count, PEVENT_DATA_DESCRIPTOR data,
	   __u32 flags)
{
	struct etw_event_write_short s;
	long ret;

	s.size = sizeof(s);
	s.reg_id = p->reg_id;
	memcpy(&s.desc, desc, sizeof(s.desc));
	memcpy(s.activity_id, activity ? activity : &thread_activity,
	       sizeof(s.activity_id));
	if (count == 1 && data->Type == EVENT_DATA_DESCRIPTOR_TYPE_NONE) {
		s.data = data->Ptr;
		s.count = data->Size;
		s.flags = flags | ETW_WRITE_F_INLINE;
	} else {
		s.data = (uintptr_t)data;
		s.count = count;
		s.flags = flags;
	}
	ret = etw_ioctl_inline(fd, ETW_IOC_WRITE_SHORT, &s);
	if (__builtin_expect(ret < 0, 0))
		return etw_win32_error((int)ret, ETW_ERR_WRITE);
	return ERROR_SUCCESS;
}

/*
 * The ioctl of one event that passed the module's enable test: the short
 * request when it can say it all, else the full ETW_IOC_WRITE.
 */
static ULONG send_event(const struct etw_prov *p, PCEVENT_DESCRIPTOR desc,
			ULONG64 filter, LPCGUID activity, LPCGUID related,
			ULONG count, PEVENT_DATA_DESCRIPTOR data, __u16 flags)
{
	struct etw_event_write w;
	int ret;

	if (!related && !filter)
		return send_short(p, etw_writer_fd(p->fd), desc, activity,
				  count, data, flags);
	memset(&w, 0, sizeof(w));
	w.size = sizeof(w);
	w.kind = ETW_WRITE_EVENT;
	w.flags = flags | ETW_WRITE_F_ACTIVITY;
	w.reg_id = p->reg_id;
	memcpy(&w.desc, desc, sizeof(w.desc));
	memcpy(w.activity_id, activity ? activity : &thread_activity,
	       sizeof(w.activity_id));
	if (related) {
		w.flags |= ETW_WRITE_F_RELATED;
		memcpy(w.related_id, related, sizeof(w.related_id));
	}
	w.filter = filter;
	w.count = count;
	w.data = (uintptr_t)data;
	ret = etw_ioctl(etw_writer_fd(p->fd), ETW_IOC_WRITE, &w);
	return ret ? etw_win32_error(ret, ETW_ERR_WRITE) : ERROR_SUCCESS;
}

/*
 * One event of @p: this process's private loggers first (no system call),
 * then the module's sessions if their aggregate wants it.
 */
static ULONG prov_write(struct etw_prov *p, PCEVENT_DESCRIPTOR desc,
			ULONG64 filter, LPCGUID activity, LPCGUID related,
			ULONG count, PEVENT_DATA_DESCRIPTOR data, __u16 flags)
{
	unsigned int mask;
	ULONG perr = ERROR_SUCCESS, err;

	mask = atomic_load_explicit(&p->priv_mask, memory_order_acquire);
	if (mask)
		mask = etw_private_want(mask, p->priv, desc->Level, desc->Keyword);
	if (mask)
		perr = etw_private_event_write(mask, &p->guid, desc,
					       activity ? activity : &thread_activity,
					       related, count, data,
					       flags & ETW_WRITE_F_STRING, &p->meta);
	if (!state_allows(prov_state(p), desc->Level, desc->Keyword))
		return perr;
	err = send_event(p, desc, filter, activity, related, count, data,
			 flags);
	return err ? err : perr;
}

static ULONG write_event(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR desc,
			 ULONG64 filter, LPCGUID activity, LPCGUID related,
			 ULONG count, PEVENT_DATA_DESCRIPTOR data, __u16 flags)
{
	struct etw_prov *p = prov_of(RegHandle);

	if (!p)
		return ERROR_INVALID_HANDLE;
	if (!desc || (count && !data) || count > ETW_MAX_DATA_DESCRIPTORS)
		return ERROR_INVALID_PARAMETER;
	return prov_write(p, desc, filter, activity, related, count, data,
			  flags);
}

/* write_enabled()'s every other case: send_event() as a tail call. */
static __attribute__((noinline)) ULONG
write_full(const struct etw_prov *p, PCEVENT_DESCRIPTOR desc,
	   LPCGUID activity, LPCGUID related, ULONG count,
	   PEVENT_DATA_DESCRIPTOR data)
{
	return send_event(p, desc, 0, activity, related, count, data, 0);
}

/*
 * The module's sessions want the event: the short request on the
 * thread's writer fd.  A function of its own (a tail call) so that the
 * private loggers' path keeps no frame it does not use; it calls nothing
 * but in tail position, so it saves no register either.  No writer fd
 * yet, or a related activity id: write_full().
 */
static __attribute__((noinline)) ULONG
write_enabled(const struct etw_prov *p, PCEVENT_DESCRIPTOR desc,
	      LPCGUID activity, LPCGUID related, ULONG count,
	      PEVENT_DATA_DESCRIPTOR data)
{
	int w = etw_thread_writer;

	if (related || w <= 0)
		return write_full(p, desc, activity, related, count, data);
	return send_short(p, w - 1, desc, activity, count, data, 0);
}

/*
 * <evntprov.h>'s inline EventWrite and EventWriteTransfer, once their own
 * test found the event maybe enabled (the slot asks the library for a bad
 * handle).  Without private loggers that test read the module's state and
 * was exact unless a MatchAll keyword is set (MatchAnyAt tests MatchAny
 * and the level only): then, as with private loggers, the library
 * decides; else the ioctl follows, the test is not made twice.
 */
ETW_EXPORT ULONG EVNTAPI _etwEventWriteEnabled(REGHANDLE RegHandle,
					       PCEVENT_DESCRIPTOR EventDescriptor,
					       LPCGUID ActivityId,
					       LPCGUID RelatedActivityId,
					       ULONG UserDataCount,
					       PEVENT_DATA_DESCRIPTOR UserData)
{
	struct etw_prov *p = prov_of(RegHandle);

	/* Unregistered since the caller's test. */
	if (!p)
		return ERROR_INVALID_HANDLE;
	if (atomic_load_explicit(&p->priv_mask, memory_order_relaxed) ||
	    __atomic_load_n(&prov_state(p)->match_all, __ATOMIC_RELAXED))
		return prov_write(p, EventDescriptor, 0, ActivityId,
				  RelatedActivityId, UserDataCount, UserData, 0);
	return write_enabled(p, EventDescriptor, ActivityId, RelatedActivityId,
			     UserDataCount, UserData);
}

_Static_assert(sizeof(EVENT_DATA_DESCRIPTOR) == sizeof(struct etw_data_desc),
	       "EVENT_DATA_DESCRIPTOR is the module's data descriptor");
_Static_assert(sizeof(EVENT_DESCRIPTOR) == sizeof(struct etw_event_desc),
	       "EVENT_DESCRIPTOR is the module's event descriptor");

ETW_EXPORT ULONG EVNTAPI EventWrite(REGHANDLE RegHandle,
				    PCEVENT_DESCRIPTOR EventDescriptor,
				    ULONG UserDataCount,
				    PEVENT_DATA_DESCRIPTOR UserData)
{
	return write_event(RegHandle, EventDescriptor, 0, NULL, NULL,
			   UserDataCount, UserData, 0);
}

ETW_EXPORT ULONG EVNTAPI EventWriteTransfer(REGHANDLE RegHandle,
					    PCEVENT_DESCRIPTOR EventDescriptor,
					    LPCGUID ActivityId,
					    LPCGUID RelatedActivityId,
					    ULONG UserDataCount,
					    PEVENT_DATA_DESCRIPTOR UserData)
{
	return write_event(RegHandle, EventDescriptor, 0, ActivityId,
			   RelatedActivityId, UserDataCount, UserData, 0);
}

ETW_EXPORT ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle,
				      PCEVENT_DESCRIPTOR EventDescriptor,
				      ULONG64 Filter, ULONG Flags,
				      LPCGUID ActivityId,
				      LPCGUID RelatedActivityId,
				      ULONG UserDataCount,
				      PEVENT_DATA_DESCRIPTOR UserData)
{
	if (Flags & ~(ULONG)(EVENT_WRITE_FLAG_NO_FAULTING | EVENT_WRITE_FLAG_INPRIVATE))
		return ERROR_INVALID_PARAMETER;
	/* INPRIVATE: sessions with EXCLUDE_INPRIVATE do not get the event. */
	return write_event(RegHandle, EventDescriptor, Filter, ActivityId,
			   RelatedActivityId, UserDataCount, UserData,
			   Flags & EVENT_WRITE_FLAG_INPRIVATE ?
			   ETW_WRITE_F_INPRIVATE : 0);
}

ETW_EXPORT ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level,
					  ULONGLONG Keyword, PCWSTR String)
{
	EVENT_DESCRIPTOR desc;
	EVENT_DATA_DESCRIPTOR data;
	size_t len = 0;

	if (!prov_of(RegHandle))
		return ERROR_INVALID_HANDLE;
	if (!String)
		return ERROR_INVALID_PARAMETER;
	while (String[len])
		len++;
	memset(&desc, 0, sizeof(desc));
	desc.Level = Level;
	desc.Keyword = Keyword;
	EventDataDescCreate(&data, String, (ULONG)((len + 1) * sizeof(WCHAR)));
	return write_event(RegHandle, &desc, 0, NULL, NULL, 1, &data,
			   ETW_WRITE_F_STRING);
}

/* Locally unique ids: a random process prefix and a counter. */
static void create_activity_id(GUID *id)
{
	static _Atomic unsigned long long counter;
	static unsigned long long prefix;
	unsigned long long n = atomic_fetch_add(&counter, 1) + 1;

	if (!prefix) {
		unsigned long long r = 0;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = ((unsigned long long)getpid() << 32) ^ (uintptr_t)&r;
		__atomic_compare_exchange_n(&prefix, &(unsigned long long){ 0 },
					    r | 1, 0, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	}
	memcpy(id, &prefix, 8);
	memcpy((char *)id + 8, &n, 8);
}

ETW_EXPORT ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode,
						LPGUID ActivityId)
{
	GUID old = thread_activity;

	if (!ActivityId)
		return ERROR_INVALID_PARAMETER;
	switch (ControlCode) {
	case EVENT_ACTIVITY_CTRL_GET_ID:
		*ActivityId = old;
		break;
	case EVENT_ACTIVITY_CTRL_SET_ID:
		thread_activity = *ActivityId;
		break;
	case EVENT_ACTIVITY_CTRL_CREATE_ID:
		create_activity_id(ActivityId);
		break;
	case EVENT_ACTIVITY_CTRL_GET_SET_ID:
		thread_activity = *ActivityId;
		*ActivityId = old;
		break;
	case EVENT_ACTIVITY_CTRL_CREATE_SET_ID:
		create_activity_id(&thread_activity);
		*ActivityId = old;
		break;
	default:
		return ERROR_INVALID_PARAMETER;
	}
	return ERROR_SUCCESS;
}

/*
 * The same for private loggers, once the module took it (and checked the
 * blob): SetTraits implies descriptor types, as in the module.  The copy
 * is kept with the registration's memory, which is never freed.
 */
static void private_meta_set(struct etw_prov *p, EVENT_INFO_CLASS cls,
			     const void *info)
{
	const unsigned char *blob = info;
	unsigned char *copy;
	uint16_t len;

	if (cls == EventProviderUseDescriptorType) {
		__atomic_store_n(&p->meta.typed, *blob != 0, __ATOMIC_RELAXED);
		return;
	}
	len = (uint16_t)(blob[0] | blob[1] << 8);
	copy = malloc(len);
	if (copy) {
		memcpy(copy, blob, len);
		p->meta.traits_len = len;
		__atomic_store_n(&p->meta.traits, copy, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&p->meta.typed, true, __ATOMIC_RELAXED);
}

/*
 * The module's rules for a traits blob (module/traits.c): its own size,
 * a NUL-terminated name, then traits of 3 bytes or more filling it.
 * Checked here for a registration the module does not know yet, so that
 * what is accepted now is accepted when it reaches the module.
 */
static bool traits_valid(const unsigned char *b, ULONG len)
{
	ULONG total, pos, size;

	if (len < 3)
		return false;
	total = b[0] | b[1] << 8;
	if (total < 3 || total > len)
		return false;
	for (pos = 2; pos < total && b[pos]; pos++)
		;
	if (pos++ >= total)
		return false;
	for (; pos < total; pos += size) {
		if (total - pos < 3)
			return false;
		size = b[pos] | b[pos + 1] << 8;
		if (size < 3 || size > total - pos)
			return false;
	}
	return true;
}

/*
 * EventSetInformation of a registration made without the module: kept
 * here with the module's checks and codes, and given to the module with
 * the registration (module_set_meta()).  Dispatch lock held.
 */
static ULONG set_info_without_module(struct etw_prov *p, EVENT_INFO_CLASS cls,
				     const void *info, ULONG len)
{
	unsigned char on, *copy;

	etw_guard_init();
	if (cls == EventProviderUseDescriptorType) {
		if (len != 1)
			return ERROR_INVALID_PARAMETER;
		if (etw_guarded_copy(&on, info, 1))
			return ERROR_NOACCESS;
		private_meta_set(p, cls, &on);
		return ERROR_SUCCESS;
	}
	if (len < 3 || len > ETW_MAX_EVENT_SIZE)
		return ERROR_INVALID_PARAMETER;
	copy = malloc(len);
	if (!copy)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (etw_guarded_copy(copy, info, len)) {
		free(copy);
		return ERROR_NOACCESS;
	}
	if (!traits_valid(copy, len) ||
	    __atomic_load_n(&p->meta.traits, __ATOMIC_RELAXED)) {
		free(copy);
		return ERROR_INVALID_PARAMETER;
	}
	private_meta_set(p, cls, copy);
	free(copy);
	return ERROR_SUCCESS;
}

/*
 * EventSetInformation.  Traits and descriptor types live in the module,
 * with the registration: the write path needs them.  A second SetTraits
 * fails; Windows documents that it fails but not with which code, and
 * ERROR_INVALID_PARAMETER is what its other refusals of a class's input
 * are.  EventProviderBinaryTrackInfo (module paths for decoders that read
 * resources from binaries) has no Linux counterpart yet and is
 * ERROR_NOT_SUPPORTED, as is the unused class 1 and any unknown class.
 */
ETW_EXPORT ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle,
					     EVENT_INFO_CLASS InformationClass,
					     PVOID EventInformation,
					     ULONG InformationLength)
{
	struct etw_provider_set_info si;
	struct etw_prov *p;
	ULONG err;
	int ret;

	if (InformationLength && !EventInformation)
		return ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&dispatch);
	p = prov_of(RegHandle);
	if (!p) {
		err = ERROR_INVALID_PARAMETER;
		goto out;
	}
	if (InformationClass != EventProviderSetTraits &&
	    InformationClass != EventProviderUseDescriptorType) {
		err = ERROR_NOT_SUPPORTED;
		goto out;
	}
	if (!p->reg_id) {
		err = set_info_without_module(p, InformationClass,
					      EventInformation,
					      InformationLength);
		goto out;
	}
	memset(&si, 0, sizeof(si));
	si.size = sizeof(si);
	si.reg_id = p->reg_id;
	si.info_class = InformationClass;
	si.data = (uintptr_t)EventInformation;
	si.length = InformationLength;
	ret = etw_ioctl(p->fd, ETW_IOC_PROVIDER_SET_INFO, &si);
	if (!ret)
		private_meta_set(p, InformationClass, EventInformation);
	err = ret == -EEXIST ? ERROR_INVALID_PARAMETER :
			       etw_win32_error(ret, ETW_ERR_CONTROL);
out:
	pthread_mutex_unlock(&dispatch);
	return err;
}
