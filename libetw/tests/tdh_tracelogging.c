// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLogging events through the TDH functions agree with etw dump: for
 * every TraceLogging event of Windows' samples (AMSI, LxCore), a TDH
 * consumer (tdh_consumer.h) over the EVENT_RECORD ProcessTrace would
 * deliver prints the same fields and values as the decoder etw dump uses
 * (etw_decode.h), the description is DecodingSourceTlg with the event's
 * name; and schemas with bytes flipped are refused or decoded, never read
 * past.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <etw_decode.h>
#include <tdh.h>

#include "etl_test.h"
#include "kselftest_harness.h"
#include "tdh_consumer.h"

struct tl_record {
	EVENT_RECORD er;
	EVENT_HEADER_EXTENDED_DATA_ITEM ext[8];
};

static void to_record(const struct etw_etl_event *ev, struct tl_record *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(&r->er.EventHeader.ProviderId, &ev->provider, sizeof(GUID));
	r->er.EventHeader.EventDescriptor.Id = ev->id;
	r->er.EventHeader.EventDescriptor.Version = (UCHAR)ev->version;
	r->er.EventHeader.EventDescriptor.Channel = ev->channel;
	r->er.EventHeader.EventDescriptor.Level = ev->level;
	r->er.EventHeader.EventDescriptor.Opcode = ev->opcode;
	r->er.EventHeader.EventDescriptor.Keyword = ev->keyword;
	r->er.EventHeader.Flags = ev->flags;
	r->er.UserData = (PVOID)ev->data;
	r->er.UserDataLength = (USHORT)ev->data_size;
	for (uint32_t i = 0; i < ev->ext_count && i < 8; i++) {
		r->ext[i].ExtType = ev->ext[i].type;
		r->ext[i].DataSize = ev->ext[i].size;
		r->ext[i].DataPtr = (ULONGLONG)(uintptr_t)ev->ext[i].data;
		r->er.ExtendedDataCount++;
	}
	r->er.ExtendedData = r->ext;
}

static bool is_tl(const struct etw_etl_event *ev)
{
	for (uint32_t i = 0; i < ev->ext_count; i++)
		if (ev->ext[i].type == ETW_ETL_EXT_EVENT_SCHEMA_TL)
			return true;
	return false;
}

/* The decoder's fields as the consumer prints them. */
static char *as_consumer(const struct etw_decoded_event *d)
{
	size_t n = 1;
	char *s;

	for (uint32_t i = 0; i < d->field_count; i++)
		n += strlen(d->fields[i].name) + strlen(d->fields[i].value) + 2;
	s = calloc(1, n);
	for (uint32_t i = 0; i < d->field_count; i++) {
		strcat(s, d->fields[i].name);
		strcat(s, "=");
		strcat(s, d->fields[i].value);
		strcat(s, ";");
	}
	return s;
}

static void agree(struct __test_metadata *_metadata, const char *file, int want)
{
	struct etw_decoded_event out;
	struct consumer c = { 0 };
	struct etw_decoder *d;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	char path[512];
	int n = 0;

	SAMPLE_PATH(path, file);
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	ASSERT_EQ(0, etw_decoder_new(&d));
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0) {
		struct tl_record r;
		char *want_text, name[128];
		PTRACE_EVENT_INFO info;
		ULONG size = 0;

		if (!is_tl(&ev))
			continue;
		n++;
		ASSERT_EQ(0, etw_decode_etl_event(d, &ev, &out));
		to_record(&ev, &r);
		ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
			  TdhGetEventInformation(&r.er, 0, NULL, NULL, &size));
		info = malloc(size);
		ASSERT_EQ(ERROR_SUCCESS, TdhGetEventInformation(&r.er, 0, NULL, info, &size));
		EXPECT_EQ(DecodingSourceTlg, info->DecodingSource);
		narrow((PWSTR)((PBYTE)info + info->EventNameOffset), name, sizeof(name));
		EXPECT_STREQ(out.event_name, name);
		free(info);
		want_text = as_consumer(&out);
		EXPECT_STREQ(want_text, consume(&r.er, &c));
		EXPECT_EQ(ERROR_SUCCESS, c.status);
		free(want_text);
	}
	EXPECT_EQ(want, n);
	free(c.out);
	etw_decoder_free(d);
	etw_etl_close(etl);
}

TEST(amsi_agrees)
{
	agree(_metadata, "etlparser-AMSITrace.etl", 19);
}

TEST(lxcore_agrees)
{
	agree(_metadata, "etlparser-lxcore_kernel.etl", 2);
}

/* Schemas with a byte changed: described or not, never read past. */
TEST(flipped_schemas)
{
	struct consumer c = { 0 };
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t schema[4096];
	char path[512];
	int described = 0, refused = 0;

	SAMPLE_PATH(path, "etlparser-lxcore_kernel.etl");
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0 && !is_tl(&ev))
		;
	ASSERT_TRUE(is_tl(&ev));
	srand(18);
	for (int round = 0; round < 3000; round++) {
		struct tl_record r;
		ULONG size = 0, st;

		to_record(&ev, &r);
		for (USHORT i = 0; i < r.er.ExtendedDataCount; i++) {
			if (r.ext[i].ExtType != EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL)
				continue;
			ASSERT_LE(r.ext[i].DataSize, sizeof(schema));
			memcpy(schema, (void *)(uintptr_t)r.ext[i].DataPtr, r.ext[i].DataSize);
			schema[2 + rand() % (r.ext[i].DataSize - 2)] ^= (uint8_t)(1 << (rand() % 8));
			r.ext[i].DataPtr = (ULONGLONG)(uintptr_t)schema;
		}
		st = TdhGetEventInformation(&r.er, 0, NULL, NULL, &size);
		if (st == ERROR_INSUFFICIENT_BUFFER) {
			described++;
			consume(&r.er, &c);
		} else {
			EXPECT_EQ(ERROR_NOT_FOUND, st);
			refused++;
		}
	}
	EXPECT_LT(0, described);
	EXPECT_LT(0, refused);
	free(c.out);
	etw_etl_close(etl);
}

TEST_HARNESS_MAIN
