// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions (loggers): at most ETW_MAX_SESSIONS, each with an id, a name, a
 * GUID, settings and per-CPU buffers.  A session lives until it is stopped,
 * whoever started it; while one runs the module cannot be unloaded.
 *
 * The table is changed under etw_lock.  A session is reference counted:
 * the table holds one reference, a control operation that must drop
 * etw_lock (copying a buffer out, STOP waiting for its logger) holds
 * another, and an attached consumer holds one: a stopped session stays
 * readable until its consumer is done with it.  A stopped session a
 * logger must still drain is kept off the table (keep.c).  Writers hold none: they
 * reach a session only through a provider's RCU route, and a stopping
 * session is removed from every route, then a grace period passes, before
 * its buffers are flushed for the last time.
 */
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "kapi.h"
#include "klog/klog_internal.h"

/*
 * Changed under etw_lock; classic writes (TraceEvent names a session by
 * its logger id) read it under RCU.
 */
static struct etw_session __rcu *etw_sessions[ETW_MAX_SESSIONS];

/* The session in slot @i; etw_lock held. */
static struct etw_session *etw_session_slot(unsigned int i)
{
	return rcu_dereference_protected(etw_sessions[i],
					 lockdep_is_held(&etw_lock));
}

/* FlushTimer bound: a day, in seconds. */
#define ETW_MAX_FLUSH_TIMER	86400

/* Seconds between FILETIME's epoch (1601) and the Unix epoch. */
#define ETW_FILETIME_UNIX_OFFSET	11644473600ULL

/* A CLOCK_REALTIME reading in ns as a FILETIME. */
static u64 etw_filetime_of(u64 realtime_ns)
{
	return div_u64(realtime_ns, 100) +
	       ETW_FILETIME_UNIX_OFFSET * 10000000ULL;
}

/* Find a session by id; etw_lock held.  Takes a reference. */
struct etw_session *etw_session_get(u32 logger_id)
{
	struct etw_session *s;

	lockdep_assert_held(&etw_lock);
	if (!logger_id || logger_id > ETW_MAX_SESSIONS)
		return NULL;
	s = etw_session_slot(array_index_nospec(logger_id - 1, ETW_MAX_SESSIONS));
	if (s)
		kref_get(&s->ref);
	return s;
}

/* The same, taking etw_lock, for callers that do not hold it. */
struct etw_session *etw_session_find(u32 logger_id)
{
	struct etw_session *s;

	mutex_lock(&etw_lock);
	s = etw_session_get(logger_id);
	mutex_unlock(&etw_lock);
	return s;
}

static struct etw_session *etw_session_by_name(const char *name)
{
	struct etw_session *s;
	unsigned int i;

	for (i = 0; i < ETW_MAX_SESSIONS; i++) {
		s = etw_session_slot(i);
		if (s && !strcmp(s->info.name, name)) {
			kref_get(&s->ref);
			return s;
		}
	}
	return NULL;
}

/*
 * Find a session by id for a writer: RCU read lock held, no reference
 * taken.  A stopping session leaves the table before the grace period
 * that precedes its last flush, so it stays usable until the unlock.
 */
struct etw_session *etw_session_lookup_rcu(u32 logger_id)
{
	if (!logger_id || logger_id > ETW_MAX_SESSIONS)
		return NULL;
	/* The id comes from userspace: no speculative load out of bounds. */
	return rcu_dereference(etw_sessions[array_index_nospec(logger_id - 1,
							       ETW_MAX_SESSIONS)]);
}

static void etw_session_free(struct kref *ref)
{
	struct etw_session *s = container_of(ref, struct etw_session, ref);

	cancel_delayed_work_sync(&s->flush_work);
	klog_session_destroy(s);
	etw_kp_lanes_destroy(s);
	etw_buffers_free(s);
	free_percpu(s->cpu);
	kfree(s->log_file_name);
	kfree(s);
	module_put(THIS_MODULE);
}

void etw_session_put(struct etw_session *s)
{
	kref_put(&s->ref, etw_session_free);
}

/* The settings and the statistics Windows reports, into @out. */
void etw_session_stats(struct etw_session *s, struct etw_session_info *out)
{
	unsigned int cpu;
	u64 lost = 0;

	for_each_possible_cpu(cpu)
		lost += READ_ONCE(per_cpu_ptr(s->cpu, cpu)->events_lost);
	spin_lock(&s->pool_lock);
	etw_consumer_reclaim_locked(s);
	if (s->consumer)
		s->log_buffers_lost = READ_ONCE(s->consumer->ctrl->log_buffers_lost);
	*out = s->info;
	out->number_of_buffers = s->nr_buffers;
	out->free_buffers = s->nr_free;
	out->buffers_written = s->buffers_written;
	/* A kept session discarded unread: its buffers and events are lost. */
	out->log_buffers_lost = s->log_buffers_lost + s->discarded_buffers;
	out->real_time_buffers_lost = s->rt_buffers_lost;
	lost += s->discarded_events;
	spin_unlock(&s->pool_lock);
	lost += klog_session_lost(s);
	lost += etw_kp_lanes_lost(s);
	out->flush_timer = READ_ONCE(s->info.flush_timer);
	out->events_lost = min_t(u64, lost, U32_MAX);
}

static long etw_flush_on_cpu(void *arg)
{
	struct etw_session *s = arg;

	preempt_disable();
	etw_buffer_flush_cpu(s, smp_processor_id(), false);
	preempt_enable();
	return 0;
}

/* Hand over every CPU's partial buffer (ControlTrace FLUSH, FlushTimer). */
static void etw_session_flush(struct etw_session *s)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			work_on_cpu(cpu, etw_flush_on_cpu, s);
		else
			etw_buffer_flush_cpu(s, cpu, false);
	}
	cpus_read_unlock();
	klog_session_flush(s, false);
	etw_kp_lanes_flush(s, false);
}

static void etw_flush_timer_fn(struct work_struct *work)
{
	struct etw_session *s = container_of(to_delayed_work(work),
					     struct etw_session, flush_work);

	etw_session_flush(s);
	etw_buffers_output_held(s, false);
	schedule_delayed_work(&s->flush_work, READ_ONCE(s->info.flush_timer) * HZ);
}

static int etw_session_check(struct etw_session_info *in)
{
	u32 mode;
	int ret;

	if (in->logger_id || in->number_of_buffers || in->free_buffers ||
	    in->buffers_written || in->events_lost || in->log_buffers_lost ||
	    in->real_time_buffers_lost || in->clock_type ||
	    in->frequency || in->start_time || in->start_ticks)
		return -EINVAL;
	ret = klog_session_check(in);
	if (ret)
		return ret;
	mode = in->log_file_mode;
	if ((mode & ETW_MODE_FILE_SEQUENTIAL) && (mode & ETW_MODE_FILE_CIRCULAR))
		return -EINVAL;
	if (!in->name[0] || strnlen(in->name, ETW_MAX_NAME) == ETW_MAX_NAME)
		return -EINVAL;
	if (in->flush_timer > ETW_MAX_FLUSH_TIMER)
		return -EINVAL;
	if (!in->buffer_size_kb)
		in->buffer_size_kb = 64;
	if (in->buffer_size_kb > 1024)
		return -EINVAL;
	if (in->max_buffers && in->min_buffers > in->max_buffers)
		return -EINVAL;
	/* As Windows: at least two buffers per CPU, and room to grow. */
	in->min_buffers = max(in->min_buffers, 2 * num_possible_cpus());
	/* A system logger's kernel lanes: a buffer and a spare per CPU. */
	if (mode & ETW_MODE_SYSTEM_LOGGER)
		in->min_buffers = max(in->min_buffers, 4 * num_possible_cpus());
	if (!in->max_buffers)
		in->max_buffers = in->min_buffers + 20;
	in->max_buffers = max(in->max_buffers, in->min_buffers);
	/* Windows caps what is too large rather than failing. */
	in->max_buffers = min_t(u32, in->max_buffers, ETW_MAX_SESSION_BUFFERS);
	in->min_buffers = min(in->min_buffers, in->max_buffers);
	return 0;
}

/*
 * The log file name given at start (ABI 1.4), NULL if none.  Kept only to
 * be returned by the control codes: the session's logger writes the file.
 */
static char *etw_session_file_name(const struct etw_session_start *arg)
{
	char *name;

	if (!arg->log_file_name)
		return NULL;
	name = strndup_user(u64_to_user_ptr(arg->log_file_name),
			    ETW_MAX_LOG_FILE_NAME);
	if (!IS_ERR(name) && !name[0]) {
		kfree(name);
		return ERR_PTR(-EINVAL);
	}
	return name;
}

int etw_session_start(struct etw_session_start *arg)
{
	struct etw_session_info *in = &arg->info;
	struct etw_session *s, *other;
	unsigned int i, slot = ETW_MAX_SESSIONS;
	char *file_name;
	u64 real_ns;
	guid_t g;
	int ret;

	if (arg->flags || arg->reserved[0] || arg->reserved[1] ||
	    arg->reserved1)
		return -EINVAL;
	ret = etw_session_check(in);
	if (ret)
		return ret;
	file_name = etw_session_file_name(arg);
	if (IS_ERR(file_name))
		return PTR_ERR(file_name);

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		kfree(file_name);
		return -ENOMEM;
	}
	s->log_file_name = file_name;
	kref_init(&s->ref);
	spin_lock_init(&s->pool_lock);
	INIT_LIST_HEAD(&s->copiers);
	init_waitqueue_head(&s->wait);
	INIT_DELAYED_WORK(&s->flush_work, etw_flush_timer_fn);
	etw_keep_init(s);
	s->info = *in;
	s->buffer_size = in->buffer_size_kb * 1024;
	s->cpu = alloc_percpu(struct etw_cpu);
	if (!s->cpu)
		goto out_free;
	/* MinimumBuffers now, within max_buffer_memory_mb (else ENOMEM). */
	ret = etw_buffers_init(s);
	if (ret)
		goto out_free_cpu;
	ret = klog_session_create(s);
	if (ret)
		goto out_free_buffers;

	mutex_lock(&etw_lock);
	for (i = 0; i < ETW_MAX_SESSIONS; i++) {
		other = etw_session_slot(i);
		if (!other) {
			slot = min(slot, i);
			continue;
		}
		if (!strcmp(other->info.name, in->name) ||
		    (!guid_is_null((guid_t *)in->guid) &&
		     !memcmp(other->info.guid, in->guid, sizeof(in->guid)))) {
			ret = -EEXIST;
			goto out_unlock;
		}
	}
	if (slot == ETW_MAX_SESSIONS) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	if (guid_is_null((guid_t *)in->guid)) {
		guid_gen(&g);
		export_guid(s->info.guid, &g);
	}
	s->info.logger_id = slot + 1;
	s->info.clock_type = 1;
	s->info.frequency = etw_clock_frequency();
	etw_clock_start(&real_ns, &s->info.start_ticks);
	s->info.start_time = etw_filetime_of(real_ns);
	/* Kernel events from here on, then the DCStart rundown. */
	ret = klog_session_attach(s);
	if (ret)
		goto out_unlock;
	__module_get(THIS_MODULE);
	rcu_assign_pointer(etw_sessions[slot], s);
	if (s->info.flush_timer)
		schedule_delayed_work(&s->flush_work, s->info.flush_timer * HZ);
	etw_session_stats(s, &arg->info);
	mutex_unlock(&etw_lock);
	return 0;

out_unlock:
	mutex_unlock(&etw_lock);
	klog_session_destroy(s);
out_free_buffers:
	etw_buffers_free(s);
out_free_cpu:
	free_percpu(s->cpu);
out_free:
	kfree(s->log_file_name);
	kfree(s);
	return ret ? ret : -ENOMEM;
}

/*
 * Stop: unreachable for writers, a grace period, then the last flush of
 * every CPU's partial buffer.  Only the session's last buffer carries
 * FLUSH_MARKER, as in Windows' files.  The buffers stay for the consumer.
 */
static void etw_session_stop(struct etw_session *s)
{
	unsigned int cpu, last = nr_cpu_ids;
	struct etw_cpu *c;

	lockdep_assert_held(&etw_lock);
	/* The DCEnd rundown while kernel events still reach it. */
	klog_session_detach(s);
	RCU_INIT_POINTER(etw_sessions[s->info.logger_id - 1], NULL);
	etw_registry_session_stopped(s);
	synchronize_rcu();
	cancel_delayed_work_sync(&s->flush_work);

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(s->cpu, cpu);
		if (c->cur && c->cur->offset > ETW_BUFFER_HEADER_SIZE)
			last = cpu;
	}
	/* The kernel lanes first: FLUSH_MARKER goes on the very last. */
	etw_kp_lanes_flush(s, last == nr_cpu_ids && !s->klog);
	etw_kp_lanes_stopped(s);
	klog_session_flush(s, last == nr_cpu_ids);
	klog_session_stopped(s);
	for_each_possible_cpu(cpu)
		etw_buffer_flush_cpu(s, cpu, cpu == last);
	etw_buffers_output_held(s, true);
	/* Kept for a logger that will drain it, or the table's reference goes. */
	if (!etw_keep_stopped(s))
		etw_session_put(s);
}

/* The log file name into the caller's room, if it fits (ABI 1.4). */
static int etw_session_put_file_name(const struct etw_session *s,
				     struct etw_session_control *arg)
{
	u32 len = s->log_file_name ? strlen(s->log_file_name) + 1 : 0;

	arg->log_file_name_len = len;
	if (!len || !arg->log_file_name || len > arg->log_file_name_size)
		return 0;
	if (copy_to_user(u64_to_user_ptr(arg->log_file_name),
			 s->log_file_name, len))
		return -EFAULT;
	return 0;
}

int etw_session_control(struct etw_session_control *arg)
{
	struct etw_session *s;
	int ret = 0;

	if (arg->flags || arg->reserved[0] || arg->reserved[1] ||
	    arg->code > ETW_CONTROL_DISCARD)
		return -EINVAL;
	arg->log_file_name_len = 0;
	/* Kept sessions are off the table: keep.c finds them. */
	if (arg->code == ETW_CONTROL_DISCARD)
		return etw_keep_discard_request(arg);

	mutex_lock(&etw_lock);
	if (arg->logger_id) {
		s = etw_session_get(arg->logger_id);
	} else {
		arg->info.name[ETW_MAX_NAME - 1] = 0;
		s = etw_session_by_name(arg->info.name);
	}
	if (!s) {
		mutex_unlock(&etw_lock);
		return -ENOENT;
	}

	switch (arg->code) {
	case ETW_CONTROL_UPDATE:
		/* MaximumBuffers may grow, within the slots made at start. */
		if (arg->info.flush_timer > ETW_MAX_FLUSH_TIMER ||
		    (arg->info.max_buffers &&
		     (arg->info.max_buffers < s->max_buffers ||
		      arg->info.max_buffers > s->nr_slots))) {
			ret = -EINVAL;
			break;
		}
		/* A system logger's EnableFlags (0: none), as Windows. */
		ret = klog_session_update(s, arg->info.enable_flags);
		if (ret)
			break;
		if (arg->info.max_buffers)
			etw_buffers_raise_max(s, arg->info.max_buffers);
		if (arg->info.flush_timer) {
			WRITE_ONCE(s->info.flush_timer, arg->info.flush_timer);
			mod_delayed_work(system_wq, &s->flush_work,
					 arg->info.flush_timer * HZ);
		}
		break;
	case ETW_CONTROL_FLUSH:
		etw_session_flush(s);
		etw_buffers_output_held(s, false);
		break;
	case ETW_CONTROL_STOP:
		etw_session_stop(s);
		break;
	}
	mutex_unlock(&etw_lock);
	/* StopTrace returns once the logger has written the file. */
	if (arg->code == ETW_CONTROL_STOP)
		etw_consumer_wait_logger(s);
	etw_session_stats(s, &arg->info);
	if (!ret)
		ret = etw_session_put_file_name(s, arg);
	etw_session_put(s);
	return ret;
}

int etw_session_buffer_read(struct etw_buffer_read *arg)
{
	struct etw_session *s;
	struct etw_buffer *b;
	int ret = 0;

	if (arg->flags || arg->reserved0 || arg->reserved[0] || arg->reserved[1])
		return -EINVAL;
	s = etw_session_find(arg->logger_id);
	if (!s)
		return -ENOENT;
	if (arg->length < s->buffer_size) {
		ret = -EINVAL;
		goto out_put;
	}
	if (READ_ONCE(s->consumer)) {
		ret = -EBUSY;	/* the mmap consumer gets the buffers */
		goto out_put;
	}
	b = etw_buffer_take(s);
	if (!b) {
		ret = -EAGAIN;
		goto out_put;
	}
	if (copy_to_user(u64_to_user_ptr(arg->buf), b->data, s->buffer_size)) {
		/* Not taken after all: the next read gets it. */
		etw_buffer_untake(s, b);
		ret = -EFAULT;
		goto out_put;
	}
	arg->cpu = b->cpu;
	arg->sequence = b->sequence;
	etw_buffer_release(s, b);
out_put:
	etw_session_put(s);
	return ret;
}

/* Module exit: nothing runs (each session holds a module reference). */
void etw_session_exit(void)
{
	unsigned int i;

	for (i = 0; i < ETW_MAX_SESSIONS; i++)
		WARN_ON(rcu_access_pointer(etw_sessions[i]));
}
