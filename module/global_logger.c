// SPDX-License-Identifier: GPL-2.0
/*
 * The Global Logger: a session started by etw.ko itself at load, from its
 * autologger parameter, before any user space runs when the module is in
 * the initramfs or built in, as Windows starts its GlobalLogger session
 * in kernel initialisation.  It is a sequential-file session without a
 * logger: its buffers stay in memory (events beyond MaximumBuffers are
 * lost and counted) until a logger attaches and claims it -- `etw
 * autologger start`, for the AutoLogger file of the same name, writes
 * them to that file's FileName (Documentation/autologger.rst).
 *
 *   etw.autologger=NAME:GUID[:LEVEL[:KEYWORDS]]
 *   etw.autologger_buffers=N   MaximumBuffers (64 KiB each), default 64
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "internal.h"

static char *autologger;
module_param(autologger, charp, 0444);
MODULE_PARM_DESC(autologger,
		 "A session started at load: NAME:GUID[:LEVEL[:KEYWORDS]], claimed by etw autologger");

static unsigned int autologger_buffers = 64;
module_param(autologger_buffers, uint, 0444);
MODULE_PARM_DESC(autologger_buffers, "MaximumBuffers of the autologger session (64 KiB each)");

/* NAME:GUID[:LEVEL[:KEYWORDS]] into @st and @en; 0 or -EINVAL. */
static int etw_global_logger_parse(char *spec, struct etw_session_start *st,
				   struct etw_enable *en)
{
	char *name = strsep(&spec, ":");
	char *guid = strsep(&spec, ":");
	char *level = strsep(&spec, ":");
	char *keywords = spec;
	guid_t g;

	if (!name || !*name || !guid ||
	    strscpy(st->info.name, name, sizeof(st->info.name)) < 0 ||
	    guid_parse(guid, &g) || guid_is_null(&g))
		return -EINVAL;
	export_guid(en->guid, &g);
	if (level && *level && kstrtou8(level, 0, &en->level))
		return -EINVAL;
	if (keywords && *keywords && kstrtou64(keywords, 0, &en->match_any))
		return -EINVAL;
	return 0;
}

int etw_global_logger_start(void)
{
	struct etw_session_start st = { .size = sizeof(st) };
	struct etw_enable en = {
		.size = sizeof(en),
		.control_code = ETW_CONTROL_CODE_ENABLE,
		.timeout_ms = ETW_TIMEOUT_ASYNC,
	};
	char *spec;
	int ret;

	if (!autologger || !*autologger)
		return 0;
	spec = kstrdup(autologger, GFP_KERNEL);
	if (!spec)
		return -ENOMEM;
	ret = etw_global_logger_parse(spec, &st, &en);
	kfree(spec);
	if (ret) {
		pr_err("etw: autologger=%s: not NAME:GUID[:LEVEL[:KEYWORDS]]\n", autologger);
		return ret;
	}
	st.info.log_file_mode = ETW_MODE_FILE_SEQUENTIAL;
	st.info.max_buffers = autologger_buffers;
	ret = etw_session_start(&st);
	if (ret) {
		pr_err("etw: autologger %s: cannot start: %d\n", st.info.name, ret);
		return ret;
	}
	en.logger_id = st.info.logger_id;
	ret = etw_registry_enable(&en, NULL, NULL, NULL);
	if (ret) {
		struct etw_session_control c = {
			.size = sizeof(c),
			.code = ETW_CONTROL_STOP,
			.logger_id = st.info.logger_id,
		};

		etw_session_control(&c);
		pr_err("etw: autologger %s: cannot enable %pUl: %d\n", st.info.name,
		       en.guid, ret);
		return ret;
	}
	pr_info("etw: autologger %s started (logger id %u), %pUl level %u keywords 0x%llx\n",
		st.info.name, st.info.logger_id, en.guid, en.level, en.match_any);
	return 0;
}
