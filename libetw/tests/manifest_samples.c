// SPDX-License-Identifier: GPL-2.0
/*
 * A real-world manifest test: the 112 Microsoft-Windows-PowerShell
 * events of testdata/etl/krabsetw-powershell.etl (written by Windows),
 * decoded with the manifest testdata/manifests/powershell-krabsetw.man
 * describes them with, through the decoder etw dump uses and through the
 * TDH functions; without the manifest none of them is decoded.
 */
#include <errno.h>
#include <string.h>

#include <etw_decode.h>
#include <etw_manifest.h>
#include <tdh.h>

#include "etl_test.h"
#include "kselftest_harness.h"

#define PS_MAN "testdata/manifests/powershell-krabsetw.man"

static const struct etw_etl_guid powershell = {
	0xa0c1853b, 0x5c40, 0x4b15, { 0x87, 0x66, 0x3c, 0xf1, 0xc5, 0x8f, 0x98, 0x5a }
};

static bool is_powershell(const struct etw_etl_event *ev)
{
	return !memcmp(&ev->provider, &powershell, sizeof(powershell));
}

/* The TDH view of an ETL record, as ProcessTrace would deliver it. */
static void to_record(const struct etw_etl_event *ev, EVENT_RECORD *er)
{
	memset(er, 0, sizeof(*er));
	memcpy(&er->EventHeader.ProviderId, &ev->provider, sizeof(GUID));
	er->EventHeader.EventDescriptor.Id = ev->id;
	er->EventHeader.EventDescriptor.Version = (UCHAR)ev->version;
	er->EventHeader.EventDescriptor.Channel = ev->channel;
	er->EventHeader.EventDescriptor.Level = ev->level;
	er->EventHeader.EventDescriptor.Opcode = ev->opcode;
	er->EventHeader.EventDescriptor.Task = ev->task;
	er->EventHeader.EventDescriptor.Keyword = ev->keyword;
	er->EventHeader.Flags = ev->flags;
	er->UserData = (PVOID)ev->data;
	er->UserDataLength = (USHORT)ev->data_size;
}

TEST(powershell_events)
{
	struct etw_manifest_error err;
	struct etw_decoded_event out;
	const struct etw_decoded_field *f;
	struct etw_decoder *d;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	char path[512];
	int events = 0, decoded = 0, tdh = 0, listener = 0;

	SAMPLE_PATH(path, "krabsetw-powershell.etl");
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	ASSERT_EQ(0, etw_decoder_new(&d));

	/* No manifest yet: the events stay undescribed. */
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0)
		if (is_powershell(&ev))
			EXPECT_EQ(-ENOENT, etw_decode_etl_event(d, &ev, &out));

	ASSERT_EQ(0, etw_manifest_load(PS_MAN, &err)) TH_LOG("%lu: %s", err.line, err.message);
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0) {
		EVENT_RECORD er;
		ULONG size = 0;

		if (!is_powershell(&ev))
			continue;
		events++;
		if (!etw_decode_etl_event(d, &ev, &out) &&
		    out.decoding_source == DecodingSourceXMLFile &&
		    !strcmp(out.provider_name, "Microsoft-Windows-PowerShell"))
			decoded++;
		to_record(&ev, &er);
		if (TdhGetEventInformation(&er, 0, NULL, NULL, &size) ==
		    ERROR_INSUFFICIENT_BUFFER)
			tdh++;
		if (ev.id == 53504) {
			listener++;
			EXPECT_STREQ("IPC listener", out.task_name);
			EXPECT_STREQ("Operational", out.channel_name);
			f = etw_decoded_field(&out, "ProcessId");
			ASSERT_NE(NULL, f);
			EXPECT_STREQ("16040", f->value);
			f = etw_decoded_field(&out, "AppDomain");
			ASSERT_NE(NULL, f);
			EXPECT_STREQ("DefaultAppDomain", f->value);
		}
		if (ev.id == 7937) {
			f = etw_decoded_field(&out, "Payload");
			ASSERT_NE(NULL, f);
			EXPECT_NE(NULL, strstr(f->value, " is St")) TH_LOG("%s", f->value);
		}
	}
	EXPECT_EQ(112, events);
	EXPECT_EQ(112, decoded);
	EXPECT_EQ(112, tdh);
	EXPECT_EQ(1, listener);
	etw_decoder_free(d);
	etw_etl_close(etl);
}

TEST_HARNESS_MAIN
