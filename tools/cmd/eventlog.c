// SPDX-License-Identifier: GPL-2.0
/*
 * etw eventlog: the Event Log's Admin and Operational channels in the
 * systemd journal (tools/eventlog/).  run is the service; replay journals
 * the channel events of ETL files (a Windows machine's, say); list,
 * enable and disable show and change which channels are kept, as
 * `wevtutil gl` and `wevtutil sl /e` do; catalog writes the journal
 * catalog of the installed manifests.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <etw_decode.h>
#include <etw_etl.h>

#include "etw.h"
#include "eventlog/eventlog.h"

#define CATALOG_DIR	"/usr/local/lib/systemd/catalog"

static const char usage_text[] =
	"usage: etw eventlog run [--state FILE] [--poll MS]\n"
	"       etw eventlog replay [--state FILE] FILE.etl...\n"
	"       etw eventlog list [--state FILE]\n"
	"       etw eventlog enable|disable [--state FILE] CHANNEL\n"
	"       etw eventlog catalog [--dir DIR]\n"
	"\n"
	"The Admin and Operational channels of the installed manifests, in the\n"
	"systemd journal.  run keeps a real-time session per isolation group\n"
	"(EventLog-Application, EventLog-System, EventLog-<channel> for Custom)\n"
	"and journals each event of a kept channel until SIGTERM; replay does\n"
	"the same for the events of ETL files.  enable and disable choose the\n"
	"kept channels (a running service follows); catalog writes the journal\n"
	"catalog that journalctl -x explains entries with.\n"
	"\n"
	"  -s, --state FILE   the kept-channel choices (" EL_STATE_FILE ")\n"
	"  -p, --poll MS      how often run looks for new manifests, state\n"
	"                     changes and lost events (1000)\n"
	"  -d, --dir DIR      catalog's folder (" CATALOG_DIR ")\n"
	"  -h, --help         this text\n";

struct opts {
	const char *state;
	const char *dir;
	unsigned int poll_ms;
};

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "poll", required_argument, NULL, 'p' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:p:d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->state = optarg;
			break;
		case 'p':
			o->poll_ms = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !o->poll_ms || o->poll_ms > 3600000)
				return etw_error("eventlog: --poll takes milliseconds, 1 to 3600000") + 1;
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return etw_bad_option("eventlog", c, argv);
		}
	}
	return -1;
}

static int list(const struct el_plan *plan)
{
	if (!plan->n) {
		fprintf(stderr, "etw: eventlog list: no installed manifest has an Admin or Operational channel\n");
		return 0;
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct el_channel *c = &plan->c[i];

		printf("%-48s %-11s %-8s EventLog-%-16s keyword 0x%016llx  %s\n",
		       c->channel->v.name, c->channel->type,
		       c->enabled ? "enabled" : "disabled", c->group,
		       (unsigned long long)c->channel->keyword, c->provider->name);
	}
	return 0;
}

static int replay(const struct el_plan *plan, int argc, char **argv)
{
	struct el_journal j = { 0 };
	struct etw_decoder *dec;
	uint64_t events = 0;
	int status = 0;

	if (etw_decoder_new(&dec))
		return etw_error("eventlog replay: out of memory");
	for (int i = optind; i < argc; i++) {
		struct etw_etl_event ev;
		struct etw_etl *etl;
		int ret = etw_etl_open(argv[i], &etl, NULL);

		if (ret) {
			status = etw_error("eventlog replay: %s: %s", argv[i], strerror(-ret));
			continue;
		}
		etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
		while (etw_etl_next(etl, &ev) > 0) {
			const struct el_channel *c;
			struct etw_decoded_event d;
			GUID g;

			if (ev.kind != ETW_ETL_KIND_EVENT)
				continue;
			memcpy(&g, &ev.provider, sizeof(g));
			c = el_plan_find(plan, &g, (uint8_t)ev.channel);
			if (!c || !c->enabled)
				continue;
			events++;
			el_journal_event(&j, c, &ev, &d, etw_decode_etl_event(dec, &ev, &d));
		}
		etw_etl_close(etl);
	}
	etw_decoder_free(dec);
	if (j.failed)
		status = etw_error("eventlog replay: %llu of %llu events could not be written to the journal: %s",
				   (unsigned long long)j.failed, (unsigned long long)events,
				   strerror(-j.last_error));
	else
		printf("%llu events journaled, %llu shown raw\n",
		       (unsigned long long)j.sent, (unsigned long long)j.undecoded);
	return status;
}

int cmd_eventlog(int argc, char **argv)
{
	struct opts o = { .state = EL_STATE_FILE, .dir = CATALOG_DIR, .poll_ms = 1000 };
	struct el_plan plan;
	const char *verb;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	verb = argv[1];
	argc--;
	argv++;
	ret = parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (!strcmp(verb, "run")) {
		if (optind != argc)
			return etw_error("eventlog run: takes no arguments") + 1;
		return el_service_run(o.state, o.poll_ms);
	}
	if (el_plan_build(&plan, o.state))
		return etw_error("eventlog: out of memory");
	if (!strcmp(verb, "list") && optind == argc) {
		ret = list(&plan);
	} else if (!strcmp(verb, "replay") && optind < argc) {
		ret = replay(&plan, argc, argv);
	} else if ((!strcmp(verb, "enable") || !strcmp(verb, "disable")) &&
		   optind + 1 == argc) {
		ret = el_state_set(&plan, argv[optind], !strcmp(verb, "enable"));
		if (ret == -ENOENT)
			ret = etw_error("eventlog %s: no installed manifest has an Admin or Operational channel named '%s' (see etw eventlog list)",
					verb, argv[optind]);
		else if (ret)
			ret = etw_error("eventlog %s: %s: %s", verb, o.state, strerror(-ret));
	} else if (!strcmp(verb, "catalog") && optind == argc) {
		unsigned int files, entries;

		ret = el_catalog_write(&plan, o.dir, &files, &entries);
		if (ret)
			ret = etw_error("eventlog catalog: %s: %s", o.dir, strerror(-ret));
		else
			printf("%u catalog files, %u entries in %s; run journalctl --update-catalog\n",
			       files, entries, o.dir);
	} else if (strcmp(verb, "list") && strcmp(verb, "replay") && strcmp(verb, "enable") &&
		   strcmp(verb, "disable") && strcmp(verb, "catalog")) {
		etw_error("eventlog: '%s' is not run, replay, list, enable, disable or catalog", verb);
		ret = 2;
	} else {
		fputs(usage_text, stderr);
		ret = 2;
	}
	el_plan_free(&plan);
	return ret;
}
