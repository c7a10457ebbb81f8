// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: the header of an ETL file (TRACE_LOGFILE_HEADER) as the
 * key/value pairs every format prints, and FILETIME as text.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "dump/dump.h"

/*
 * Records come in time order, many per second: the last second's text is
 * kept and only the seven fraction digits are written again.  One thread
 * formats (etw dump, or etw live's callback).
 */
bool format_filetime(uint64_t ft, char *buf, size_t size)
{
	static _Thread_local uint64_t last_sec = UINT64_MAX;
	static _Thread_local char last[40];
	uint64_t frac = ft % 10000000;

	if (ft / 10000000 != last_sec || size < 29) {
		if (etw_etl_format_filetime(ft, buf, size))
			return false;
		/* "YYYY-MM-DDTHH:MM:SS.fffffffZ": only that shape is kept. */
		if (strlen(buf) == 28 && buf[19] == '.' && size >= 29) {
			memcpy(last, buf, 29);
			last_sec = ft / 10000000;
		}
		return true;
	}
	memcpy(buf, last, 29);
	for (int i = 26; i >= 20; i--, frac /= 10)
		buf[i] = (char)('0' + frac % 10);
	return true;
}

/* EVENT_TRACE_* LogFileMode bits. */
static const char *const mode_names[32] = {
	"FILE_MODE_SEQUENTIAL", "FILE_MODE_CIRCULAR", "FILE_MODE_APPEND",
	"FILE_MODE_NEWFILE", "USE_MS_FLUSH_TIMER", "FILE_MODE_PREALLOCATE",
	"NONSTOPPABLE_MODE", "SECURE_MODE", "REAL_TIME_MODE",
	"DELAY_OPEN_FILE_MODE", "BUFFERING_MODE", "PRIVATE_LOGGER_MODE",
	"ADD_HEADER_MODE", "USE_KBYTES_FOR_SIZE", "USE_GLOBAL_SEQUENCE",
	"USE_LOCAL_SEQUENCE", "RELOG_MODE", "PRIVATE_IN_PROC",
	"BUFFER_INTERFACE_MODE", "KD_FILTER_MODE", "REALTIME_RELOG_MODE",
	"LOST_EVENTS_DEBUG_MODE", "STOP_ON_HYBRID_SHUTDOWN",
	"PERSIST_ON_HYBRID_SHUTDOWN", "USE_PAGED_MEMORY",
	"SYSTEM_LOGGER_MODE", "COMPRESSED_MODE", "INDEPENDENT_SESSION_MODE",
	"NO_PER_PROCESSOR_BUFFERING", "BLOCKING_MODE", NULL,
	"ADDTO_TRIAGE_DUMP",
};

static void mode_text(uint32_t mode, struct sbuf *sb)
{
	sb_printf(sb, "0x%08x", mode);
	if (!mode) {
		sb_printf(sb, " (FILE_MODE_NONE)");
		return;
	}
	sb_printf(sb, " (");
	for (int i = 0, first = 1; i < 32; i++) {
		if (!(mode & 1u << i))
			continue;
		if (mode_names[i])
			sb_printf(sb, "%s%s", first ? "" : "|", mode_names[i]);
		else
			sb_printf(sb, "%s0x%x", first ? "" : "|", 1u << i);
		first = 0;
	}
	sb_printf(sb, ")");
}

static const char *clock_name(uint32_t clock)
{
	switch (clock) {
	case ETW_ETL_CLOCK_RAW:
		return "raw";
	case ETW_ETL_CLOCK_QPC:
		return "QPC";
	case ETW_ETL_CLOCK_SYSTEM_TIME:
		return "system time";
	case ETW_ETL_CLOCK_CPU_CYCLES:
		return "CPU cycles";
	}
	return "unknown";
}

static void add_time(struct kv_list *l, const char *key, const char *label,
		     uint64_t ft)
{
	char buf[40];

	if (format_filetime(ft, buf, sizeof(buf)))
		kv_add(l, key, label, false, "%s", buf);
	else
		kv_add(l, key, label, false, "FILETIME 0x%016" PRIx64, ft);
}

static void add_names(const struct etw_etl_header *h, struct kv_list *l)
{
	struct sbuf sb = { 0 };

	kv_add(l, "logger_name", "Logger name", false, "%s", h->logger_name);
	kv_add(l, "log_file_name", "Log file name", false, "%s", h->log_file_name);
	mode_text(h->log_file_mode, &sb);
	kv_add(l, "log_file_mode", "Log file mode", false, "%s", sb.p);
	sb_free(&sb);
}

static void add_sizes(const struct etw_etl_header *h, struct kv_list *l)
{
	kv_add(l, "buffer_size", "Buffer size", true, "%u", h->buffer_size);
	kv_add(l, "buffers", "Buffers in file", true, "%u", h->buffer_count);
	kv_add(l, "buffers_written", "Buffers written", true, "%u",
	       h->buffers_written);
	kv_add(l, "compressed_buffers", "Compressed buffers", true, "%u",
	       h->compressed_buffers);
	kv_add(l, "file_size", "File size", true, "%" PRIu64, h->file_size);
	kv_add(l, "maximum_file_size", "Maximum file size (MB)", true, "%u",
	       h->maximum_file_size);
	kv_add(l, "number_of_processors", "Processors", true, "%u",
	       h->number_of_processors);
	kv_add(l, "pointer_size", "Pointer size", true, "%u", h->pointer_size);
	kv_add(l, "start_buffers", "Start buffers", true, "%u", h->start_buffers);
}

static void add_version(const struct etw_etl_header *h, struct kv_list *l)
{
	uint32_t v = h->version;

	kv_add(l, "os_version", "OS version", false, "%u.%u build %u",
	       v & 0xff, v >> 8 & 0xff, h->provider_version);
	kv_add(l, "layout_version", "Layout version", false, "%u.%u",
	       v >> 16 & 0xff, v >> 24);
}

static void add_times(const struct etw_etl_header *h, struct kv_list *l)
{
	add_time(l, "start_time", "Start time", h->start_time);
	add_time(l, "end_time", "End time", h->end_time);
	if (h->end_time >= h->start_time)
		kv_add(l, "duration", "Duration (s)", true, "%.7f",
		       (double)(h->end_time - h->start_time) / 1e7);
	add_time(l, "boot_time", "Boot time", h->boot_time);
	kv_add(l, "clock", "Clock", false, "%s (%u)",
	       clock_name(h->reserved_flags), h->reserved_flags);
	kv_add(l, "perf_freq", "Clock frequency (Hz)", true, "%" PRIu64,
	       h->perf_freq);
	kv_add(l, "cpu_speed_mhz", "CPU speed (MHz)", true, "%u",
	       h->cpu_speed_mhz);
	kv_add(l, "timer_resolution", "Timer resolution (100 ns)", true, "%u",
	       h->timer_resolution);
	kv_add(l, "time_zone_bias", "Time zone bias (min)", true, "%d",
	       h->time_zone.bias);
	kv_add(l, "time_zone", "Time zone", false, "%s / %s",
	       h->time_zone.standard_name, h->time_zone.daylight_name);
}

void dump_header_kvs(const struct etw_etl_header *h, struct kv_list *l)
{
	kv_reset(l);
	add_names(h, l);
	add_sizes(h, l);
	add_version(h, l);
	add_times(h, l);
	kv_add(l, "events_lost", "Events lost", true, "%u", h->events_lost);
	kv_add(l, "buffers_lost", "Buffers lost", true, "%u", h->buffers_lost);
	kv_finish(l);
}
