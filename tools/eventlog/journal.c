// SPDX-License-Identifier: GPL-2.0
/*
 * One event as a journal entry, written with sd_journal_sendv()
 * (libsystemd): MESSAGE is the manifest's message with its inserts,
 * PRIORITY comes from the level, MESSAGE_ID names (provider, event id,
 * version), SYSLOG_IDENTIFIER is the provider, OBJECT_PID and TID the
 * writer's, the ETW_* fields the event descriptor, and one ETW_DATA_*
 * field per template property.  Field names and the priority table are
 * in Documentation/system-service.rst.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

/* No CODE_FILE/LINE/FUNC: they would name this file, not the event's writer. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include <libetw.h>

#include "dump/dump.h"
#include "eventlog/eventlog.h"

#define JOURNAL_SOCKET	"/run/systemd/journal/socket"

int el_priority(uint8_t level)
{
	switch (level) {
	case 0:			/* win:LogAlways */
		return LOG_NOTICE;
	case 1:			/* win:Critical */
		return LOG_CRIT;
	case 2:			/* win:Error */
		return LOG_ERR;
	case 3:			/* win:Warning */
		return LOG_WARNING;
	case 4:			/* win:Informational */
		return LOG_INFO;
	default:		/* win:Verbose and the provider's own */
		return LOG_DEBUG;
	}
}

void el_message_id(const GUID *provider, uint16_t id, uint8_t version,
		   char out[33])
{
	char name[80];
	uint8_t g[16];
	int n;

	/* The name-based GUID Windows derives for providers (SHA-1). */
	n = snprintf(name, sizeof(name),
		     "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x/%u/%u",
		     (unsigned int)provider->Data1, provider->Data2, provider->Data3,
		     provider->Data4[0], provider->Data4[1], provider->Data4[2],
		     provider->Data4[3], provider->Data4[4], provider->Data4[5],
		     provider->Data4[6], provider->Data4[7], id, version);
	etw_guid_from_name(name, (size_t)n, g);
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", g[i]);
}

void el_field_name(const char *prefix, const char *name, char *out, size_t size)
{
	size_t n = strlen(prefix);

	/* journald: upper-case letters, digits and '_', 64 at most. */
	if (size > 65)
		size = 65;
	snprintf(out, size, "%s", prefix);
	for (const char *p = name; *p && n + 1 < size; p++) {
		unsigned char c = (unsigned char)*p;

		out[n++] = isalnum(c) && c < 0x80 ? (char)toupper(c) : '_';
	}
	out[n] = '\0';
}

/* The fields of an entry, "NAME=value" each, built in one buffer. */
struct entry {
	struct sbuf text;
	size_t start[128 + 32];
	size_t len[128 + 32];
	unsigned int n;
};

static void field(struct entry *e, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void field(struct entry *e, const char *name, const char *fmt, ...)
{
	size_t at = e->text.len;
	va_list ap;
	int n;

	if (e->n == sizeof(e->start) / sizeof(e->start[0]))
		return;
	sb_printf(&e->text, "%s=", name);
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0) {
		sb_reserve(&e->text, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(e->text.p + e->text.len, (size_t)n + 1, fmt, ap);
		va_end(ap);
		e->text.len += (size_t)n;
	}
	e->start[e->n] = at;
	e->len[e->n++] = e->text.len - at;
}

static void guid_text(const struct etw_etl_guid *g, char out[37])
{
	snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 g->data1, g->data2, g->data3, g->data4[0], g->data4[1],
		 g->data4[2], g->data4[3], g->data4[4], g->data4[5], g->data4[6],
		 g->data4[7]);
}

/* An event's entry (counted), or the service's own notice (not). */
static int send_entry(struct el_journal *j, struct entry *e, bool event)
{
	struct iovec iov[sizeof(e->start) / sizeof(e->start[0])];
	int ret;

	for (unsigned int i = 0; i < e->n; i++) {
		iov[i].iov_base = e->text.p + e->start[i];
		iov[i].iov_len = e->len[i];
	}
	if (j->capture) {
		FILE *f = j->capture;

		for (unsigned int i = 0; i < e->n; i++)
			fprintf(f, "%.*s\n", (int)e->len[i], e->text.p + e->start[i]);
		fputc('\n', f);
		ret = ferror(f) ? -EIO : 0;
	} else if (access(JOURNAL_SOCKET, W_OK)) {
		/* sd_journal_sendv() says 0 when there is no journal at all. */
		ret = -errno;
	} else {
		ret = sd_journal_sendv(iov, (int)e->n);
	}
	if (ret < 0) {
		j->failed++;
		j->failed_unreported++;
		j->last_error = ret;
		return ret;
	}
	if (event)
		j->sent++;
	return 0;
}

/* Once the journal takes entries again, say how many it refused. */
static void report_refused(struct el_journal *j)
{
	uint64_t n = j->failed_unreported;

	if (!n)
		return;
	j->failed_unreported = 0;
	el_journal_notice(j, LOG_WARNING,
			  "etw eventlog: %llu events could not be written to the journal (%s)",
			  (unsigned long long)n, strerror(-j->last_error));
}

int el_journal_event(struct el_journal *j, const struct el_channel *c,
		     const struct etw_etl_event *ev,
		     const struct etw_decoded_event *d, int decoded)
{
	const struct etw_mf_provider *p = c->provider;
	struct entry e = { 0 };
	struct sbuf msg = { 0 };
	char id[33], guid[37], name[80], time[40];
	int ret;

	if (decoded)
		d = NULL;
	el_message_id(&p->guid, ev->id, (uint8_t)ev->version, id);
	guid_text(&ev->provider, guid);
	if (d && d->message && *d->message) {
		dump_message(&msg, d->message, d);
		/* The journal's MESSAGE is one paragraph: no trailing newline. */
		while (msg.len && (msg.p[msg.len - 1] == '\n' || msg.p[msg.len - 1] == '\r'))
			msg.p[--msg.len] = '\0';
		field(&e, "MESSAGE", "%s", msg.p ? msg.p : "");
	} else if (d) {
		field(&e, "MESSAGE", "%s event %u", p->name, ev->id);
	} else if (decoded == -ENOENT) {
		field(&e, "MESSAGE", "%s event %u is not in its manifest (%u bytes)",
		      p->name, ev->id, ev->data_size);
	} else {
		field(&e, "MESSAGE", "%s event %u: its %u bytes do not match the manifest",
		      p->name, ev->id, ev->data_size);
	}
	field(&e, "PRIORITY", "%d", el_priority((uint8_t)ev->level));
	field(&e, "MESSAGE_ID", "%s", id);
	field(&e, "SYSLOG_IDENTIFIER", "%s", p->name);
	field(&e, "SYSLOG_PID", "%u", ev->process_id);
	field(&e, "OBJECT_PID", "%u", ev->process_id);
	field(&e, "TID", "%u", ev->thread_id);
	field(&e, "ETW_PROVIDER", "%s", p->name);
	field(&e, "ETW_PROVIDER_GUID", "%s", guid);
	field(&e, "ETW_EVENT_ID", "%u", ev->id);
	field(&e, "ETW_VERSION", "%u", ev->version);
	field(&e, "ETW_CHANNEL", "%s", c->channel->v.name);
	field(&e, "ETW_LEVEL", "%u", ev->level);
	field(&e, "ETW_TASK", "%u", ev->task);
	field(&e, "ETW_OPCODE", "%u", ev->opcode);
	field(&e, "ETW_KEYWORDS", "0x%016llx", (unsigned long long)ev->keyword);
	if (d && d->level_name && *d->level_name)
		field(&e, "ETW_LEVEL_NAME", "%s", d->level_name);
	if (d && d->task_name && *d->task_name)
		field(&e, "ETW_TASK_NAME", "%s", d->task_name);
	if (d && d->opcode_name && *d->opcode_name)
		field(&e, "ETW_OPCODE_NAME", "%s", d->opcode_name);
	if (ev->has & ETW_ETL_HAS_FILETIME && format_filetime(ev->filetime, time, sizeof(time)))
		field(&e, "ETW_TIME", "%s", time);
	if (ev->has & ETW_ETL_HAS_ACTIVITY) {
		static const struct etw_etl_guid none;

		if (memcmp(&ev->activity_id, &none, sizeof(none))) {
			guid_text(&ev->activity_id, guid);
			field(&e, "ETW_ACTIVITY_ID", "%s", guid);
		}
	}
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const struct etw_etl_ext_item *x = &ev->ext[i];

		if (x->type == 1 && x->size == 16) {	/* RELATED_ACTIVITYID */
			guid_text(x->data, guid);
			field(&e, "ETW_RELATED_ACTIVITY_ID", "%s", guid);
		}
	}
	if (d) {
		for (uint32_t i = 0; i < d->field_count; i++) {
			el_field_name("ETW_DATA_", d->fields[i].name, name, sizeof(name));
			field(&e, name, "%s", d->fields[i].value);
		}
	} else {
		struct sbuf hex = { 0 };

		sb_hex(&hex, ev->data, ev->data_size);
		field(&e, "ETW_DATA", "%s", hex.p ? hex.p : "");
		sb_free(&hex);
		j->undecoded++;
	}
	ret = send_entry(j, &e, true);
	if (!ret)
		report_refused(j);
	sb_free(&e.text);
	sb_free(&msg);
	return ret;
}

int el_journal_notice(struct el_journal *j, int priority, const char *fmt, ...)
{
	struct entry e = { 0 };
	char text[512];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	field(&e, "MESSAGE", "%s", text);
	field(&e, "PRIORITY", "%d", priority);
	field(&e, "SYSLOG_IDENTIFIER", "%s", "etw-eventlog");
	ret = send_entry(j, &e, false);
	if (ret)
		fprintf(stderr, "etw: eventlog: %s\n", text);
	sb_free(&e.text);
	return ret;
}
