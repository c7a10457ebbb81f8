// SPDX-License-Identifier: GPL-2.0
/*
 * The ETL reader against files written by Windows.  Expected values come
 * from the samples' README (testdata/etl/README.md) and from
 * Documentation/etl-format.rst, never from the reader's own output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etw_etl.h>

#include "kselftest_harness.h"
#include "etl_test.h"

#define EVENTTRACE_GUID	"68fdd900-4a3e-11d1-84f4-0000f80464e3"
#define PROCESS_GUID	"3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c"
#define THREAD_GUID	"3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"
#define IMAGELOAD_GUID	"2cb15d1d-5fc1-11d2-abe1-00a0c911f518"
#define POWERSHELL_GUID	"a0c1853b-5c40-4b15-8766-3cf1c58f985a"
#define LXCORE_GROUP	"4f50731a-89cf-4782-b3e0-dce8c90476ba"

/* Open a sample; false, and the test failed, if it cannot be read. */
static bool open_sample(struct __test_metadata *_metadata, const char *name,
			struct etw_etl **etl)
{
	struct etw_etl_error err;
	char path[1024];

	*etl = NULL;
	snprintf(path, sizeof(path), "%s/%s", samples_dir(), name);
	EXPECT_EQ(0, access(path, R_OK))
		TH_LOG("sample %s is missing", path);
	EXPECT_EQ(0, etw_etl_open(path, etl, &err))
		TH_LOG("%s", err.message);
	return *etl != NULL;
}

FIXTURE(sample) {
	struct etw_etl *etl;
	const struct etw_etl_header *h;
};

FIXTURE_VARIANT(sample) {
	const struct sample_facts *f;
};

FIXTURE_VARIANT_ADD(sample, amsitrace) { .f = &sample_amsitrace };
FIXTURE_VARIANT_ADD(sample, lxcore) { .f = &sample_lxcore };
FIXTURE_VARIANT_ADD(sample, powershell) { .f = &sample_powershell };
FIXTURE_VARIANT_ADD(sample, perfdiag) { .f = &sample_perfdiag };

FIXTURE_SETUP(sample)
{
	if (!open_sample(_metadata, variant->f->file, &self->etl))
		return;
	self->h = etw_etl_get_header(self->etl);
}

FIXTURE_TEARDOWN(sample)
{
	etw_etl_close(self->etl);
}

TEST_F(sample, header)
{
	const struct etw_etl_header *h = self->h;

	EXPECT_STREQ(variant->f->logger, h->logger_name);
	if (variant->f->buffer_size)
		EXPECT_EQ(variant->f->buffer_size, h->buffer_size);
	EXPECT_EQ(variant->f->mode, h->log_file_mode);
	if (variant->f->cpus)
		EXPECT_EQ(variant->f->cpus, h->number_of_processors);
	if (variant->f->build)
		EXPECT_EQ(variant->f->build, h->provider_version);
	/* Notes 2.2: values observed in every sample. */
	EXPECT_EQ(8, h->pointer_size);
	EXPECT_EQ(8, h->header_pointer_size);
	EXPECT_EQ(1, h->start_buffers);
	EXPECT_EQ(156250, h->timer_resolution);
	EXPECT_EQ(10000000, h->perf_freq);
	EXPECT_EQ(ETW_ETL_CLOCK_QPC, h->reserved_flags);
	EXPECT_EQ(0x0501000a, h->version);
	EXPECT_EQ(0, h->buffers_lost);
	EXPECT_NE(0, h->cpu_speed_mhz);
	EXPECT_LT(h->boot_time, h->start_time);
	EXPECT_LT(h->start_time, h->end_time);
	/* Notes 1.3: BuffersWritten counts every buffer of the file. */
	EXPECT_EQ(h->buffers_written, h->buffer_count);
	EXPECT_EQ(h->file_size, (uint64_t)h->buffer_count * h->buffer_size);
	EXPECT_EQ(0, h->compressed_buffers);
}

TEST_F(sample, buffers)
{
	struct etw_etl_buffer b;

	ASSERT_EQ(0, etw_etl_get_buffer(self->etl, 0, &b));
	EXPECT_EQ(ETW_ETL_BUFFER_TYPE_HEADER, b.type);
	EXPECT_EQ(0, b.sequence);
	for (uint32_t i = 0; i < self->h->buffer_count; i++) {
		ASSERT_EQ(0, etw_etl_get_buffer(self->etl, i, &b));
		EXPECT_EQ((uint64_t)i * self->h->buffer_size, b.offset);
		EXPECT_EQ(self->h->buffer_size, b.size);
		EXPECT_EQ(3, b.state);
		EXPECT_LT(b.processor, self->h->number_of_processors);
		EXPECT_LE(b.sequence, self->h->buffers_written);
	}
	EXPECT_EQ(-ENOENT, etw_etl_get_buffer(self->etl, self->h->buffer_count, &b));
}

/* Every record, in file order: counts, header group, record kinds. */
TEST_F(sample, records)
{
	uint32_t n = 0, in_buffer0 = 0, kinds_ok = 0;
	struct etw_etl_event ev;
	int ret;

	while ((ret = etw_etl_next(self->etl, &ev)) > 0) {
		if (!ev.buffer) {
			in_buffer0++;
			/* Notes 1.3: only EventTrace-group events in buffer 0. */
			EXPECT_EQ(ETW_ETL_KIND_SYSTEM, ev.kind);
			EXPECT_TRUE(guid_eq(&ev.provider, EVENTTRACE_GUID));
		} else if (variant->f->kernel) {
			kinds_ok += (ev.kind == ETW_ETL_KIND_SYSTEM ||
				     ev.kind == ETW_ETL_KIND_PERFINFO) &&
				    ev.pointer_size == 8;
		} else {
			kinds_ok += ev.kind == ETW_ETL_KIND_EVENT &&
				    ev.header_type == 0x13;
		}
		n++;
	}
	EXPECT_EQ(0, ret) TH_LOG("%s", etw_etl_last_error(self->etl)->message);
	EXPECT_EQ(variant->f->header_group, in_buffer0);
	EXPECT_EQ(variant->f->events, n - in_buffer0);
	EXPECT_EQ(variant->f->events, kinds_ok);
	/* The end stays the end. */
	EXPECT_EQ(0, etw_etl_next(self->etl, &ev));
}

/* The header event first, its timestamp is the clock at StartTime. */
TEST_F(sample, header_event)
{
	struct etw_etl_event ev;

	ASSERT_EQ(1, etw_etl_next(self->etl, &ev));
	EXPECT_EQ(0x48, ev.offset);
	EXPECT_EQ(ETW_ETL_KIND_SYSTEM, ev.kind);
	EXPECT_EQ(0x0000, ev.hook_id);
	EXPECT_EQ(2, ev.version);
	EXPECT_EQ(self->h->sync_timestamp, ev.timestamp);
	EXPECT_EQ(self->h->start_time, ev.filetime);
	EXPECT_EQ(0x118, ev.data_size - 2 * (strlen(self->h->logger_name) +
					     strlen(self->h->log_file_name) + 2));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Time order: the same records, each once, header events first, then
 * timestamps that never go back; every time within the session.
 */
TEST_F(sample, time_order)
{
	uint32_t n = 0, cap = variant->f->events + variant->f->header_group;
	uint64_t *file = calloc(cap, 8), *time = calloc(cap, 8), last = 0;
	uint32_t back = 0, outside = 0;
	struct etw_etl_event ev;
	int ret;

	ASSERT_TRUE(file && time);
	while ((ret = etw_etl_next(self->etl, &ev)) > 0 && n < cap)
		file[n++] = ev.offset;
	ASSERT_EQ(0, ret);
	ASSERT_EQ(cap, n);
	ASSERT_EQ(0, etw_etl_rewind(self->etl, ETW_ETL_ORDER_TIME));
	n = 0;
	while ((ret = etw_etl_next(self->etl, &ev)) > 0 && n < cap) {
		if (n < variant->f->header_group)
			EXPECT_EQ(0, ev.buffer);
		back += ev.timestamp < last;
		last = ev.timestamp;
		outside += !(ev.has & ETW_ETL_HAS_FILETIME) ||
			   ev.filetime < self->h->start_time ||
			   ev.filetime > self->h->end_time;
		time[n++] = ev.offset;
	}
	EXPECT_EQ(0, ret);
	ASSERT_EQ(cap, n);
	EXPECT_EQ(0, back);
	EXPECT_EQ(0, outside);
	qsort(file, n, 8, cmp_u64);
	qsort(time, n, 8, cmp_u64);
	EXPECT_EQ(0, memcmp(file, time, 8 * n));
	free(file);
	free(time);
}

/* README: EventsLost = 3; notes 1.1: file order of buffers 0,4,5,1,2,3. */
TEST(amsitrace_header)
{
	static const int64_t seq[] = { 0, 4, 5, 1, 2, 3 };
	struct etw_etl_buffer b;
	struct etw_etl *etl;

	if (!open_sample(_metadata, "etlparser-AMSITrace.etl", &etl))
		return;
	EXPECT_EQ(3, etw_etl_get_header(etl)->events_lost);
	EXPECT_EQ(6, etw_etl_get_header(etl)->buffers_written);
	EXPECT_EQ(1992, etw_etl_get_header(etl)->cpu_speed_mhz);
	EXPECT_EQ(-60, etw_etl_get_header(etl)->time_zone.bias);
	EXPECT_STREQ("c:\\work\\AMSITrace.etl", etw_etl_get_header(etl)->log_file_name);
	for (int i = 0; i < 6; i++) {
		ASSERT_EQ(0, etw_etl_get_buffer(etl, i, &b));
		EXPECT_EQ(seq[i], b.sequence);
	}
	etw_etl_close(etl);
}

/* TraceLogging: PROV_TRAITS then EVENT_SCHEMA_TL on every event (3.7). */
static void check_tracelogging(struct __test_metadata *_metadata,
			       const char *file, const char *provider,
			       uint32_t events, const uint8_t *schema,
			       size_t schema_size, const char *group)
{
	uint32_t n = 0, traits_ok = 0, schema_ok = 0, group_ok = 0;
	size_t plen = strlen(provider) + 1;
	struct etw_etl_guid first = { 0 };
	struct etw_etl_event ev;
	struct etw_etl *etl;

	if (!open_sample(_metadata, file, &etl))
		return;
	while (etw_etl_next(etl, &ev) > 0) {
		const struct etw_etl_ext_item *x = ev.ext;

		if (!ev.buffer)
			continue;
		if (!n++)
			first = ev.provider;
		EXPECT_EQ(0, memcmp(&first, &ev.provider, sizeof(first)));
		EXPECT_EQ(11, ev.channel);
		EXPECT_EQ(0, ev.id);
		EXPECT_TRUE(ev.flags & ETW_ETL_FLAG_EXTENDED_INFO);
		ASSERT_EQ(2, ev.ext_count);
		traits_ok += x[0].type == ETW_ETL_EXT_PROV_TRAITS &&
			     x[0].size >= 2 + plen &&
			     !memcmp((const char *)x[0].data + 2, provider, plen);
		if (group && x[0].size == 2 + plen + 3 + 16) {
			const uint8_t *t = (const uint8_t *)x[0].data + 2 + plen;
			struct etw_etl_guid g;

			memcpy(&g, t + 3, 16);
			group_ok += t[0] == 19 && t[2] == 1 && guid_eq(&g, group);
		}
		schema_ok += x[1].type == ETW_ETL_EXT_EVENT_SCHEMA_TL &&
			     (!schema || (x[1].size == schema_size &&
					  !memcmp(x[1].data, schema, schema_size)));
	}
	EXPECT_EQ(0, etw_etl_last_error(etl)->code);
	EXPECT_EQ(events, n);
	EXPECT_EQ(events, traits_ok);
	EXPECT_EQ(events, schema_ok);
	if (group)
		EXPECT_EQ(events, group_ok);
	etw_etl_close(etl);
}

/* Notes 6.2 give the metadata of the AMSI event byte by byte. */
TEST(amsitrace_tracelogging)
{
	static const uint8_t schema[] =
		"\x2b\x00" "\x00" "AmsiScript\0" "Engine\0" "\x01"
		"Script\0" "\x01" "Raw Script\0" "\xc6\x02";

	check_tracelogging(_metadata, "etlparser-AMSITrace.etl", "AmsiTrace",
			   19, schema, sizeof(schema) - 1, NULL);
}

/* Notes 6.1: traits with a provider-group trait. */
TEST(lxcore_tracelogging)
{
	check_tracelogging(_metadata, "etlparser-lxcore_kernel.etl",
			   "Microsoft.Windows.Subsystem.LxCore", 2, NULL, 0,
			   LXCORE_GROUP);
}

/* README: 112 manifest events of PowerShell, no extended items. */
TEST(powershell_provider)
{
	uint32_t n = 0, ps = 0, ext = 0;
	struct etw_etl_event ev;
	struct etw_etl *etl;

	if (!open_sample(_metadata, "krabsetw-powershell.etl", &etl))
		return;
	while (etw_etl_next(etl, &ev) > 0) {
		if (!ev.buffer)
			continue;
		n++;
		ps += guid_eq(&ev.provider, POWERSHELL_GUID) &&
		      (ev.has & ETW_ETL_HAS_DESCRIPTOR);
		ext += ev.ext_count;
	}
	EXPECT_EQ(112, n);
	EXPECT_EQ(112, ps);
	EXPECT_EQ(0, ext);
	etw_etl_close(etl);
}

/*
 * Notes 3.2, 5.3: the kernel logger's rundown.  Process DCStart and
 * Defunct come as PERFINFO64, Process Start/Terminate, Thread Start and
 * DCStart and image Load as SYSTEM64, Image DCStart as both; image Load
 * (0x030a, Process group) belongs to ImageLoad.
 */
TEST(perfdiag_kernel)
{
	uint32_t bad = 0, load = 0, dcstart[2] = { 0 }, other = 0;
	struct etw_etl_event ev;
	struct etw_etl *etl;

	if (!open_sample(_metadata, "etlparser-ShutdownPerfDiagLogger.etl", &etl))
		return;
	while (etw_etl_next(etl, &ev) > 0) {
		bool perfinfo = ev.kind == ETW_ETL_KIND_PERFINFO;

		switch (ev.hook_id) {
		case 0x0303:
		case 0x0327:
			bad += !perfinfo || !guid_eq(&ev.provider, PROCESS_GUID);
			break;
		case 0x0301:
		case 0x030b:
			bad += perfinfo || !guid_eq(&ev.provider, PROCESS_GUID);
			break;
		case 0x0501:
		case 0x0503:
			bad += perfinfo || !guid_eq(&ev.provider, THREAD_GUID);
			break;
		case 0x030a:
			bad += perfinfo || !guid_eq(&ev.provider, IMAGELOAD_GUID);
			load++;
			break;
		case 0x1403:
			dcstart[perfinfo]++;
			bad += !guid_eq(&ev.provider, IMAGELOAD_GUID);
			break;
		default:
			other += !(ev.has & ETW_ETL_HAS_PROVIDER);
		}
		EXPECT_EQ(ev.opcode, ev.hook_id & 0xff);
		EXPECT_EQ(perfinfo, !(ev.has & ETW_ETL_HAS_IDS));
	}
	EXPECT_EQ(0, etw_etl_last_error(etl)->code);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, other);
	EXPECT_NE(0, load);
	EXPECT_NE(0, dcstart[0]);
	EXPECT_NE(0, dcstart[1]);
	etw_etl_close(etl);
}

/* A file read from memory is read the same. */
TEST(open_mem)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	size_t size = 0;
	uint8_t *data = read_sample("krabsetw-powershell.etl", &size);
	uint32_t n = 0;

	ASSERT_NE(NULL, data)
		TH_LOG("sample krabsetw-powershell.etl is missing");
	ASSERT_EQ(0, etw_etl_open_mem(data, size, &etl, &err));
	while (etw_etl_next(etl, &ev) > 0)
		n++;
	EXPECT_EQ(114, n);
	etw_etl_close(etl);
	free(data);
}

TEST_HARNESS_MAIN
