// SPDX-License-Identifier: GPL-2.0
/*
 * The TDH functions over the other decoding sources: the kernel records
 * of a Windows-written trace (DecodingSourceWbem) give through a TDH
 * consumer the fields and values etw dump's decoder gives, and a WPP
 * record (EVENT_HEADER_FLAG_TRACE_MESSAGE) has no schema: ERROR_NOT_FOUND.
 */
#include <string.h>

#include <etw_decode.h>
#include <tdh.h>

#include "etl_test.h"
#include "kselftest_harness.h"
#include "tdh_consumer.h"

/* The decoder's fields as the consumer prints them. */
static void as_consumer(const struct etw_decoded_event *d, struct consumer *w)
{
	free(w->out);
	memset(w, 0, sizeof(*w));
	put(w, "");
	for (uint32_t i = 0; i < d->field_count; i++) {
		put(w, d->fields[i].name);
		put(w, "=");
		put(w, d->fields[i].value);
		put(w, ";");
	}
}

TEST(kernel_records_agree)
{
	struct etw_decoded_event out;
	struct consumer c = { 0 }, w = { 0 };
	struct etw_decoder *d;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	char path[512];
	int n = 0, u32 = 0;

	SAMPLE_PATH(path, "etlparser-ShutdownPerfDiagLogger.etl");
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	ASSERT_EQ(0, etw_decoder_new(&d));
	etw_etl_rewind(etl, ETW_ETL_ORDER_FILE);
	while (etw_etl_next(etl, &ev) > 0 && n < 2000) {
		EVENT_RECORD er = { 0 };
		PTRACE_EVENT_INFO info;
		ULONG size = 0;

		/* The records the decoder describes in full (no bytes left over). */
		if (etw_decode_etl_event(d, &ev, &out) || out.rest_size ||
		    out.decoding_source != DecodingSourceWbem)
			continue;
		n++;
		memcpy(&er.EventHeader.ProviderId, &ev.provider, sizeof(GUID));
		er.EventHeader.EventDescriptor.Opcode = ev.opcode;
		er.EventHeader.EventDescriptor.Version = (UCHAR)ev.version;
		er.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER |
				       (ev.pointer_size == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
							       EVENT_HEADER_FLAG_64_BIT_HEADER);
		er.UserData = (PVOID)ev.data;
		er.UserDataLength = (USHORT)ev.data_size;
		ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
			  TdhGetEventInformation(&er, 0, NULL, NULL, &size));
		info = malloc(size);
		ASSERT_EQ(ERROR_SUCCESS, TdhGetEventInformation(&er, 0, NULL, info, &size));
		EXPECT_EQ(DecodingSourceWbem, info->DecodingSource);
		/* Fixed sizes in length, as Windows gives them for MOF classes. */
		for (ULONG i = 0; i < info->PropertyCount; i++) {
			EVENT_PROPERTY_INFO *p = &info->EventPropertyInfoArray[i];

			if (p->Flags & (PropertyStruct | PropertyParamLength))
				continue;
			if (p->nonStructType.InType == TDH_INTYPE_UINT32) {
				EXPECT_EQ(4, p->length);
				u32++;
			} else if (p->nonStructType.InType == TDH_INTYPE_UINT64) {
				EXPECT_EQ(8, p->length);
			} else if (p->nonStructType.InType == TDH_INTYPE_GUID) {
				EXPECT_EQ(16, p->length);
			}
		}
		free(info);
		as_consumer(&out, &w);
		EXPECT_STREQ(w.out, consume(&er, &c)) TH_LOG("record at 0x%llx",
							  (unsigned long long)ev.offset);
		EXPECT_EQ(ERROR_SUCCESS, c.status);
	}
	EXPECT_LT(100, n);
	EXPECT_LT(100, u32);
	free(c.out);
	free(w.out);
	etw_decoder_free(d);
	etw_etl_close(etl);
}

TEST(wpp_not_found)
{
	static BYTE data[8];
	EVENT_RECORD er = { 0 };
	ULONG size = 0;

	er.EventHeader.Flags = EVENT_HEADER_FLAG_TRACE_MESSAGE;
	er.EventHeader.ProviderId.Data1 = 0x12345678;
	er.UserData = data;
	er.UserDataLength = sizeof(data);
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetEventInformation(&er, 0, NULL, NULL, &size));
}

TEST_HARNESS_MAIN
