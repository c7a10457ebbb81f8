/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etw eventlog: the Event Log's Admin and Operational channels in the
 * systemd journal.  What the subcommand (cmd/eventlog.c) and its parts
 * share: the channels the installed manifests declare and whether each is
 * kept (channels.c), one event as a journal entry (journal.c), the
 * journal catalog of the manifests' messages (catalog.c), and the
 * real-time sessions of the service (service.c).
 */
#ifndef ETW_TOOLS_EVENTLOG_H
#define ETW_TOOLS_EVENTLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <etw_decode.h>
#include <etw_etl.h>
#include <etw_manifest.h>

/* Where `etw eventlog enable|disable` keeps its choices. */
#define EL_STATE_FILE	"/var/lib/etw/eventlog.conf"

/* A channel of an installed provider that the journal may get. */
struct el_channel {
	const struct etw_mf_provider *provider;
	const struct etw_mf_channel *channel;
	bool enabled;			/* the manifest's, or the state file's */
	/* Its session: "Application", "System", or the channel (Custom). */
	const char *group;
};

struct el_plan {
	struct el_channel *c;
	size_t n;
	const char *state;		/* the state file */
};

/*
 * Every Admin and Operational channel of the installed manifests (and of
 * those loaded into this process); Analytic and Debug channels stay ETL
 * sessions.  0 or -errno (the state file unreadable).
 */
int el_plan_build(struct el_plan *plan, const char *state);
void el_plan_free(struct el_plan *plan);
/*
 * Read a manifest installed since the plan was built (the service's
 * pickup); the decoders find it too.  1, or -errno (not a manifest).
 */
int el_plan_add_file(const char *path);
/* The entry of (provider, channel value), or NULL. */
const struct el_channel *el_plan_find(const struct el_plan *plan,
				      const GUID *provider, uint8_t channel);
/*
 * Record in the state file that channel NAME (as the manifest names it,
 * "Provider/Operational") is kept or not.  0, -ENOENT (no such journal
 * channel), -errno.
 */
int el_state_set(const struct el_plan *plan, const char *name, bool enabled);

/* The journal side. */
struct el_journal {
	uint64_t sent;			/* events written */
	uint64_t failed;		/* entries the journal refused */
	uint64_t failed_unreported;	/* of them, not yet said in the journal */
	uint64_t undecoded;		/* events shown raw */
	int last_error;			/* -errno of the last refusal */
	/* Tests: write the entries here, one "FIELD=value" a line, not to journald. */
	void *capture;
};

/*
 * Journal one event of channel c, decoded as d when decoded is 0; else
 * decoded is the decoder's error (-ENOENT: an event its manifest does not
 * have, -EBADMSG: a payload that does not match it) and ev's bytes go in
 * raw.  0, or -errno from the journal (counted).
 */
int el_journal_event(struct el_journal *j, const struct el_channel *c,
		     const struct etw_etl_event *ev,
		     const struct etw_decoded_event *d, int decoded);
/* A message of the service itself (lost events, the journal back). */
int el_journal_notice(struct el_journal *j, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* syslog's priority of an ETW level (the table in system-service.rst). */
int el_priority(uint8_t level);
/*
 * The journal's MESSAGE_ID of (provider, id, version): 32 lower-case hex
 * digits.
 */
void el_message_id(const GUID *provider, uint16_t id, uint8_t version,
		   char out[33]);
/* "ETW_DATA_" and a property name made a journal field name. */
void el_field_name(const char *prefix, const char *name, char *out,
		   size_t size);

/* The catalog of every journal channel's events into dir; 0 or -errno. */
int el_catalog_write(const struct el_plan *plan, const char *dir,
		     unsigned int *files, unsigned int *entries);

/*
 * The service: one real-time session per group ("EventLog-Application",
 * "EventLog-System", "EventLog-<channel>" for Custom), each provider
 * enabled with its kept channels' keyword bits, its events journaled,
 * until SIGTERM or SIGINT.  Manifests installed while it runs are picked
 * up.  Returns the exit status.
 */
int el_service_run(const char *state, unsigned int poll_ms);

#endif /* ETW_TOOLS_EVENTLOG_H */
