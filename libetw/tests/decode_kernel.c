// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's MOF classes (DecodingSourceWbem), against layouts written
 * out here from the public record (Microsoft Learn's MOF class pages,
 * the notes' tables, etl-parser's real Process V4 record), at both
 * pointer sizes:
 *   - hand-made payloads for Process, Thread, Image, SampledProfile,
 *     StackWalk, CSwitch, DiskIo and DbgID_RSDS, byte offsets spelled out;
 *   - every class of the table, every version and event type, with a
 *     payload built from its field list, decodes whole at 4 and 8;
 *   - ShutdownPerfDiagLogger (written by Windows): every record decodes,
 *     none is left raw, and known records give known values;
 *   - the same through OpenTrace/ProcessTrace: a consumer's EVENT_RECORD
 *     decodes as the reader's record does;
 *   - a 32-bit file made here (SYSTEM32 and PERFINFO32 records, and a
 *     classic FULL_HEADER32 DbgID_RSDS record): the reader and the
 *     decoder give 4-byte pointers, and etw dump names the records'
 *     processes and lists them in --summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>
#include <tdh.h>
#include <etw_decode.h>

#include "../src/decode/kernel_classes.h"
#include "etl_test.h"
#include "kselftest_harness.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

struct rec {
	uint8_t b[2048];
	uint32_t n;
};

static void u8(struct rec *r, uint8_t v) { r->b[r->n++] = v; }
static void u16(struct rec *r, uint16_t v) { put_le(r->b + r->n, v, 2); r->n += 2; }
static void u32(struct rec *r, uint32_t v) { put_le(r->b + r->n, v, 4); r->n += 4; }
static void u64(struct rec *r, uint64_t v) { put_le(r->b + r->n, v, 8); r->n += 8; }
static void ptr(struct rec *r, int size, uint64_t v)
{
	put_le(r->b + r->n, v, size);
	r->n += size;
}

static void wstr(struct rec *r, const char *s)
{
	do
		u16(r, (uint8_t)*s);
	while (*s++);
}

static void astr(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(r->b + r->n, s, n);
	r->n += n;
}

/* Decode a payload as ProcessTrace would deliver a kernel record. */
static int decode(struct etw_decoder *d, const GUID *g, uint8_t opcode,
		  uint8_t version, int ptr_size, const struct rec *r,
		  struct etw_decoded_event *e)
{
	EVENT_RECORD er;

	memset(&er, 0, sizeof(er));
	er.EventHeader.ProviderId = *g;
	er.EventHeader.EventDescriptor.Opcode = opcode;
	er.EventHeader.EventDescriptor.Version = version;
	er.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER |
			       (ptr_size == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
						EVENT_HEADER_FLAG_64_BIT_HEADER);
	er.UserData = (void *)r->b;
	er.UserDataLength = (USHORT)r->n;
	return etw_decode_event_record(d, &er, e);
}

static const char *val(const struct etw_decoded_event *e, const char *name)
{
	const struct etw_decoded_field *f = etw_decoded_field(e, name);

	return f ? f->value : "(missing)";
}

FIXTURE(bits) {
	struct etw_decoder *d;
	struct etw_decoded_event e;
	struct rec r;
};

FIXTURE_VARIANT(bits) {
	int ptr;
};

FIXTURE_VARIANT_ADD(bits, p64) { .ptr = 8 };
FIXTURE_VARIANT_ADD(bits, p32) { .ptr = 4 };

FIXTURE_SETUP(bits)
{
	ASSERT_EQ(0, etw_decoder_new(&self->d));
	memset(&self->r, 0, sizeof(self->r));
}

FIXTURE_TEARDOWN(bits)
{
	etw_decoder_free(self->d);
}

/*
 * etl-parser's Process V4 DCStart record from Windows 10 (notes 2.2):
 * key, pid 540, parent 460, session 0, STILL_ACTIVE, DTB, flags 4,
 * TOKEN_USER then S-1-5-18, image, command line, two empty strings.
 */
TEST_F(bits, process_v4)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	ptr(r, p, 0xffffa50b98a93080ull);
	u32(r, 540);
	u32(r, 460);
	u32(r, 0);
	u32(r, 0x103);
	ptr(r, p, 0x40a6f7000ull);
	u32(r, 4);
	ptr(r, p, 0xffff8d8b0feb19d0ull);	/* TOKEN_USER.Sid */
	ptr(r, p, 0);				/* Attributes + padding */
	u8(r, 1); u8(r, 1);
	u8(r, 0); u8(r, 0); u8(r, 0); u8(r, 0); u8(r, 0); u8(r, 5);
	u32(r, 18);
	if (p == 8)
		ASSERT_EQ(64, r->n);	/* the record's image name offset */
	astr(r, "smss.exe");
	wstr(r, "\\SystemRoot\\System32\\smss.exe 000000e4 00000084 ");
	wstr(r, "");
	wstr(r, "");
	if (p == 8)
		ASSERT_EQ(175, r->n);
	ASSERT_EQ(0, decode(self->d, &kc_guid_process, 3, 4, p, r, &self->e));
	EXPECT_STREQ("Process", self->e.task_name);
	EXPECT_STREQ("DCStart", self->e.opcode_name);
	EXPECT_EQ(DecodingSourceWbem, self->e.decoding_source);
	EXPECT_EQ(12, self->e.field_count);
	EXPECT_STREQ(p == 8 ? "0xFFFFA50B98A93080" : "0x98A93080",
		     val(&self->e, "UniqueProcessKey"));
	EXPECT_STREQ("0x21C", val(&self->e, "ProcessId"));
	EXPECT_STREQ("0x1CC", val(&self->e, "ParentId"));
	EXPECT_STREQ("259", val(&self->e, "ExitStatus"));
	EXPECT_STREQ(p == 8 ? "0x40A6F7000" : "0xA6F7000",
		     val(&self->e, "DirectoryTableBase"));
	EXPECT_STREQ("4", val(&self->e, "Flags"));
	EXPECT_STREQ("S-1-5-18", val(&self->e, "UserSID"));
	EXPECT_STREQ("smss.exe", val(&self->e, "ImageFileName"));
	EXPECT_STREQ("\\SystemRoot\\System32\\smss.exe 000000e4 00000084 ",
		     val(&self->e, "CommandLine"));
	EXPECT_STREQ("", val(&self->e, "ApplicationId"));
	EXPECT_EQ(0, self->e.rest_size);
}

/* Thread_TypeGroup1 V3 (Learn; notes 2.3): 72 bytes at 8, 44 at 4. */
TEST_F(bits, thread_v3)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	u32(r, 0x1ab0);
	u32(r, 0x0e9c);
	for (int i = 1; i <= 7; i++)
		ptr(r, p, 0x1000ull * i);
	u32(r, 0x33);
	u8(r, 8); u8(r, 5); u8(r, 2); u8(r, 1);
	ASSERT_EQ(p == 8 ? 72 : 44, r->n);
	ASSERT_EQ(0, decode(self->d, &kc_guid_thread, 1, 3, p, r, &self->e));
	EXPECT_STREQ("Start", self->e.opcode_name);
	EXPECT_STREQ("0x1AB0", val(&self->e, "ProcessId"));
	EXPECT_STREQ("0xE9C", val(&self->e, "TThreadId"));
	EXPECT_STREQ("0x1000", val(&self->e, "StackBase"));
	EXPECT_STREQ("0x5000", val(&self->e, "Affinity"));
	EXPECT_STREQ("0x7000", val(&self->e, "TebBase"));
	EXPECT_STREQ("0x33", val(&self->e, "SubProcessTag"));
	EXPECT_STREQ("8", val(&self->e, "BasePriority"));
	EXPECT_STREQ("1", val(&self->e, "ThreadFlags"));
	/* Version 3 as Learn has it: no ThreadName, nothing left over. */
	EXPECT_EQ(NULL, etw_decoded_field(&self->e, "ThreadName"));
	EXPECT_EQ(0, self->e.rest_size);
	/* Version 4 (and Windows 10's version 3): a name follows. */
	wstr(r, "worker");
	ASSERT_EQ(0, decode(self->d, &kc_guid_thread, 3, 4, p, r, &self->e));
	EXPECT_STREQ("worker", val(&self->e, "ThreadName"));
}

/* Image_Load (Learn; notes 2.4), logged as hook 0x030A: opcode 10. */
TEST_F(bits, image_load)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	ptr(r, p, 0x7ff97a650000ull);
	ptr(r, p, 0x1b000);
	u32(r, 964);
	u32(r, 0x1e9b5);
	u32(r, 0x5d0b6f0e);
	u8(r, 6); u8(r, 2); u16(r, 0);		/* signature level, type */
	ptr(r, p, 0x180000000ull);
	u32(r, 0); u32(r, 0); u32(r, 0); u32(r, 0);
	ASSERT_EQ(p == 8 ? 56 : 44, r->n);
	wstr(r, "\\Device\\HarddiskVolume2\\Windows\\System32\\x.dll");
	ASSERT_EQ(0, decode(self->d, &kc_guid_image, 10, 3, p, r, &self->e));
	EXPECT_STREQ("Image", self->e.task_name);
	EXPECT_STREQ("Load", self->e.opcode_name);
	EXPECT_STREQ(p == 8 ? "0x7FF97A650000" : "0x7A650000",
		     val(&self->e, "ImageBase"));
	EXPECT_STREQ("0x1B000", val(&self->e, "ImageSize"));
	EXPECT_STREQ("964", val(&self->e, "ProcessId"));
	EXPECT_STREQ("1561030414", val(&self->e, "TimeDateStamp"));
	EXPECT_STREQ(p == 8 ? "0x180000000" : "0x80000000",
		     val(&self->e, "DefaultBase"));
	EXPECT_STREQ("6", val(&self->e, "SignatureLevel"));
	EXPECT_STREQ("2", val(&self->e, "SignatureType"));
	EXPECT_STREQ("\\Device\\HarddiskVolume2\\Windows\\System32\\x.dll",
		     val(&self->e, "FileName"));
	EXPECT_EQ(0, self->e.rest_size);
}

/* SampledProfile (Learn) and StackWalk_Event (Learn, notes 2.6). */
TEST_F(bits, sample_and_stack)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	ptr(r, p, 0xfffff80242a39000ull);
	u32(r, 4156);
	u16(r, 1);
	u16(r, 0x40);
	ASSERT_EQ(0, decode(self->d, &kc_guid_perfinfo, 46, 2, p, r, &self->e));
	EXPECT_STREQ("SampleProf", self->e.opcode_name);
	EXPECT_STREQ(p == 8 ? "0xFFFFF80242A39000" : "0x42A39000",
		     val(&self->e, "InstructionPointer"));
	EXPECT_STREQ("4156", val(&self->e, "ThreadId"));
	EXPECT_STREQ("1", val(&self->e, "Count"));
	EXPECT_STREQ("64", val(&self->e, "Reserved"));

	r->n = 0;
	u64(r, 295203045978ull);
	u32(r, 540);
	u32(r, 4156);
	for (int i = 1; i <= 3; i++)
		ptr(r, p, 0x401000ull + i);
	ASSERT_EQ(0, decode(self->d, &kc_guid_stackwalk, 32, 2, p, r, &self->e));
	EXPECT_STREQ("Stack", self->e.opcode_name);
	ASSERT_EQ(6, self->e.field_count);
	EXPECT_STREQ("295203045978", val(&self->e, "EventTimeStamp"));
	EXPECT_STREQ("0x21C", val(&self->e, "StackProcess"));
	EXPECT_STREQ("4156", val(&self->e, "StackThread"));
	EXPECT_STREQ("0x401001", val(&self->e, "Stack1"));
	EXPECT_STREQ("0x401003", val(&self->e, "Stack3"));
	EXPECT_EQ(NULL, etw_decoded_field(&self->e, "Stack4"));

	/* KeyRundown: a key, then StackFrame[192] cut to the event. */
	r->n = 0;
	ptr(r, p, 0x77);
	for (int i = 1; i <= 3; i++)
		ptr(r, p, 0xa0 + i);
	ASSERT_EQ(0, decode(self->d, &kc_guid_stackwalk, 36, 2, p, r, &self->e));
	EXPECT_STREQ("KeyRundown", self->e.opcode_name);
	EXPECT_STREQ("0x77", val(&self->e, "Key"));
	EXPECT_STREQ("[0xA1, 0xA2, 0xA3]", val(&self->e, "StackFrame"));
	EXPECT_EQ(3 * p, etw_decoded_field(&self->e, "StackFrame")->size);
}

/* A count from an earlier field: EventTrace's LastDroppedTimes. */
TEST_F(bits, counted_array)
{
	struct rec *r = &self->r;

	u32(r, 2);
	u32(r, 0);
	u64(r, 1000);
	u64(r, 2000);
	ASSERT_EQ(0, decode(self->d, &kc_guid_eventtrace, 82, 2, variant->ptr,
			    r, &self->e));
	EXPECT_STREQ("LastDroppedTimes", self->e.opcode_name);
	EXPECT_STREQ("[1000, 2000]", val(&self->e, "TimeStamp"));
	/* A count past the data: an error, not a read past it. */
	r->b[0] = 3;
	EXPECT_EQ(-EBADMSG, decode(self->d, &kc_guid_eventtrace, 82, 2,
				   variant->ptr, r, &self->e));
}

/*
 * CSwitch (Learn; notes 2.7): 24 bytes whatever the pointer size; from
 * version 3 the eighth byte is ThreadFlags (wmicore.mof's CSwitch_V3).
 */
TEST_F(bits, cswitch)
{
	struct rec *r = &self->r;

	u32(r, 0x10); u32(r, 0x20);
	u8(r, 9); u8(r, 0xf8); u8(r, 1); u8(r, 0);
	u8(r, 6); u8(r, 1); u8(r, 5); u8(r, 3);
	u32(r, 0x40); u32(r, 0);
	ASSERT_EQ(0, decode(self->d, &kc_guid_thread, 36, 2, variant->ptr, r,
			    &self->e));
	EXPECT_STREQ("CSwitch", self->e.opcode_name);
	EXPECT_STREQ("0x10", val(&self->e, "NewThreadId"));
	EXPECT_STREQ("-8", val(&self->e, "OldThreadPriority"));
	EXPECT_STREQ("6", val(&self->e, "OldThreadWaitReason"));
	EXPECT_STREQ("5", val(&self->e, "OldThreadState"));
	EXPECT_STREQ("1", val(&self->e, "OldThreadWaitMode"));
	EXPECT_EQ(12, self->e.field_count);
	ASSERT_EQ(0, decode(self->d, &kc_guid_thread, 36, 4, variant->ptr, r,
			    &self->e));
	EXPECT_STREQ("1", val(&self->e, "ThreadFlags"));
	EXPECT_EQ(NULL, etw_decoded_field(&self->e, "OldThreadWaitMode"));
}

/* DiskIo_TypeGroup1 (Learn), version 3 with IssuingThreadId. */
TEST_F(bits, diskio)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	u32(r, 0); u32(r, 0x60043); u32(r, 4096); u32(r, 0);
	u64(r, 0x7e5000);
	ptr(r, p, 0xffffa001ull);
	ptr(r, p, 0xffffb002ull);
	u64(r, 1234);
	u32(r, 0x55);
	ASSERT_EQ(0, decode(self->d, &kc_guid_diskio, 10, 3, p, r, &self->e));
	EXPECT_STREQ("Read", self->e.opcode_name);
	EXPECT_STREQ("0x60043", val(&self->e, "IrpFlags"));
	EXPECT_STREQ("4096", val(&self->e, "TransferSize"));
	EXPECT_STREQ("8278016", val(&self->e, "ByteOffset"));
	EXPECT_STREQ("0xFFFFB002", val(&self->e, "Irp"));
	EXPECT_STREQ("85", val(&self->e, "IssuingThreadId"));
	/* Version 2 stops before it. */
	r->n -= 4;
	ASSERT_EQ(0, decode(self->d, &kc_guid_diskio, 10, 2, p, r, &self->e));
	EXPECT_EQ(NULL, etw_decoded_field(&self->e, "IssuingThreadId"));
}

/* SystemConfig/NIC: the address as a uint64, then three strings. */
TEST_F(bits, sysconfig_nic)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	u64(r, 0x563412005452ull);
	u32(r, 6); u32(r, 2); u32(r, 2);
	wstr(r, "eth0");
	wstr(r, "10.0.2.15");
	wstr(r, "");
	ASSERT_EQ(0, decode(self->d, &kc_guid_sysconfig, 13, 2, p, r, &self->e));
	EXPECT_STREQ("NIC", self->e.opcode_name);
	EXPECT_STREQ("0x563412005452", val(&self->e, "PhysicalAddr"));
	EXPECT_STREQ("6", val(&self->e, "PhysicalAddrLen"));
	EXPECT_STREQ("2", val(&self->e, "Ipv4Index"));
	EXPECT_STREQ("eth0", val(&self->e, "NICDescription"));
	EXPECT_STREQ("10.0.2.15", val(&self->e, "IpAddresses"));
	EXPECT_STREQ("", val(&self->e, "DnsServerAddresses"));
}

/* SystemConfig/IRQ version 3: the group after the affinity, then the name. */
TEST_F(bits, sysconfig_irq_v3)
{
	struct rec *r = &self->r;
	int p = variant->ptr;

	u64(r, 0x3); u16(r, 0); u16(r, 0); u32(r, 11); u32(r, 8);
	wstr(r, "virtio0");
	ASSERT_EQ(0, decode(self->d, &kc_guid_sysconfig, 21, 3, p, r, &self->e));
	EXPECT_STREQ("IRQ", self->e.opcode_name);
	EXPECT_STREQ("0x3", val(&self->e, "IRQAffinity"));
	EXPECT_STREQ("0", val(&self->e, "IRQGroup"));
	EXPECT_STREQ("11", val(&self->e, "IRQNum"));
	EXPECT_STREQ("virtio0", val(&self->e, "DeviceDescription"));
	EXPECT_EQ(0, self->e.rest_size);
}

/* SystemConfig/PnP version 5: GUID, counts, status, problem, 7 strings. */
TEST_F(bits, sysconfig_pnp_v5)
{
	static const char *const strs[] = {
		"PCI\\VEN_1AF4&DEV_1000&SUBSYS_00011AF4&REV_00\\0000:00:03.0",
		"Network controller", "", "/devices/pci0000:00/0000:00:03.0",
		"virtio-pci", "", "",
	};
	struct rec *r = &self->r;
	int p = variant->ptr;

	for (int i = 0; i < 16; i++)
		u8(r, 0);
	u32(r, 0); u32(r, 0); u32(r, 0xa); u32(r, 0);
	for (unsigned int i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		wstr(r, strs[i]);
	ASSERT_EQ(0, decode(self->d, &kc_guid_sysconfig, 22, 5, p, r, &self->e));
	EXPECT_STREQ("PnP", self->e.opcode_name);
	EXPECT_STREQ("0xA", val(&self->e, "DevStatus"));
	EXPECT_STREQ(strs[0], val(&self->e, "DeviceID"));
	EXPECT_STREQ("Network controller", val(&self->e, "DeviceDescription"));
	EXPECT_STREQ(strs[3], val(&self->e, "PdoName"));
	EXPECT_STREQ("virtio-pci", val(&self->e, "ServiceName"));
	EXPECT_STREQ("", val(&self->e, "LowerFilters"));
	EXPECT_EQ(0, self->e.rest_size);
}

/* KernelTraceControl's DbgID_RSDS, a classic record (notes 2.8). */
TEST_F(bits, dbgid_rsds)
{
	static const uint8_t sig[16] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba,
		0xdc, 0xfe, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct rec *r = &self->r;
	int p = variant->ptr;

	ptr(r, p, 0x7ff97a650000ull);
	u32(r, 964);
	memcpy(r->b + r->n, sig, 16);
	r->n += 16;
	u32(r, 2);
	astr(r, "ntdll.pdb");
	ASSERT_EQ(0, decode(self->d, &kc_guid_imageid, 36, 2, p, r, &self->e));
	EXPECT_STREQ("KernelTraceControl", self->e.provider_name);
	EXPECT_STREQ("DbgID_RSDS", self->e.opcode_name);
	EXPECT_STREQ("{76543210-BA98-FEDC-0102-030405060708}",
		     val(&self->e, "GuidSig"));
	EXPECT_STREQ("2", val(&self->e, "Age"));
	EXPECT_STREQ("ntdll.pdb", val(&self->e, "PdbFileName"));
}

/* A value of each in-type, as the table's fields need them. */
static void fill(struct rec *r, const struct kc_field *f, int p)
{
	switch (f->in_type) {
	case TDH_INTYPE_UINT8: case TDH_INTYPE_INT8: u8(r, 1); break;
	case TDH_INTYPE_UINT16: u16(r, 2); break;
	case TDH_INTYPE_UINT32: case TDH_INTYPE_INT32: u32(r, 3); break;
	case TDH_INTYPE_UINT64: case TDH_INTYPE_INT64: u64(r, 4); break;
	case TDH_INTYPE_POINTER: case TDH_INTYPE_SIZET: ptr(r, p, 5); break;
	case TDH_INTYPE_GUID: memset(r->b + r->n, 6, 16); r->n += 16; break;
	case TDH_INTYPE_ANSISTRING: astr(r, "ansi"); break;
	case TDH_INTYPE_UNICODESTRING:
		if (f->length) {
			memset(r->b + r->n, 0, 2 * f->length);
			r->b[r->n] = 'w';
			r->n += 2 * f->length;
		} else {
			wstr(r, "wide");
		}
		break;
	case TDH_INTYPE_BINARY: memset(r->b + r->n, 7, f->length); r->n += f->length; break;
	case TDH_INTYPE_HEXINT32: u32(r, 3); break;
	case TDH_INTYPE_WBEMSID:
		ptr(r, p, 0x1234); ptr(r, p, 0);
		u8(r, 1); u8(r, 1); u32(r, 0); u8(r, 0); u8(r, 5); u32(r, 18);
		break;
	default:
		r->n = 0xffff;	/* a type this test does not know: fail */
	}
}

/* Every class, version and event type of the table decodes whole. */
TEST_F(bits, every_class)
{
	unsigned int classes = 0;

	for (unsigned int t = 0; t < kc_table_count; t++) {
		for (uint32_t i = 0; i < kc_tables[t]->count; i++) {
			const struct kc_class *c = &kc_tables[t]->classes[i];
			uint32_t want = c->nfields;
			struct rec *r = &self->r;

			r->n = 0;
			for (uint16_t f = 0; f < c->nfields; f++) {
				const struct kc_field *x = &c->fields[f];
				/* Counted: the count field holds 3. */
				int n = x->flags ? 3 : x->count ? x->count : 1;

				for (int k = 0; k < n; k++)
					fill(r, x, variant->ptr);
			}
			if (c->repeat_last) {
				for (int k = 1; k < 5; k++)
					fill(r, &c->fields[c->nfields - 1],
					     variant->ptr);
				want += 4;
			}
			ASSERT_GT(2048, r->n);
			for (uint8_t v = 0; v < c->nversions; v++)
				for (uint8_t e = 0; e < c->nevents; e++) {
					ASSERT_EQ(0, decode(self->d, c->guid,
							    c->events[e].opcode,
							    c->versions[v],
							    variant->ptr, r,
							    &self->e))
						TH_LOG("%s", c->name);
					EXPECT_EQ(want, self->e.field_count)
						TH_LOG("%s", c->name);
					EXPECT_EQ(0, self->e.rest_size);
					EXPECT_STREQ(c->task, self->e.task_name);
					EXPECT_STREQ(c->events[e].name,
						     self->e.opcode_name);
				}
			classes++;
		}
	}
	/* At least the classes issue 17 lists. */
	EXPECT_LE(40, classes);
}

/* ShutdownPerfDiagLogger: every record decodes; none stays raw. */
TEST(perfdiag_every_record)
{
	struct etw_decoded_event e;
	struct etw_etl_event ev;
	struct etw_decoder *d;
	struct etw_etl *etl;
	char path[4096];
	long n = 0, defunct = 0, image_dcstart = 0;
	int ret;

	SAMPLE_PATH(path, "etlparser-ShutdownPerfDiagLogger.etl");
	ASSERT_EQ(0, etw_decoder_new(&d));
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	while ((ret = etw_etl_next(etl, &ev)) > 0) {
		ASSERT_EQ(0, etw_decode_etl_event(d, &ev, &e))
			TH_LOG("record %ld hook 0x%04x v%u", n, ev.hook_id,
			       ev.version);
		EXPECT_EQ(0, e.rest_size);
		EXPECT_EQ(DecodingSourceWbem, e.decoding_source);
		if (n == 0) {
			EXPECT_STREQ("Header", e.opcode_name);
			EXPECT_STREQ("8", val(&e, "PointerSize"));
			EXPECT_STREQ("PerfDiag Logger",
				     val(&e, "SessionNameString"));
			EXPECT_STREQ("0x2000080", val(&e, "LogFileMode"));
			EXPECT_STREQ("1992", val(&e, "CPUSpeed"));
		}
		if (n == 5) {	/* the Idle process's rundown */
			EXPECT_STREQ("DCStart", e.opcode_name);
			EXPECT_STREQ("Idle", val(&e, "ImageFileName"));
			EXPECT_STREQ("S-1-5-18", val(&e, "UserSID"));
		}
		if (ev.hook_id == 0x0327 && !strcmp(val(&e, "ProcessId"), "0xF10")) {
			EXPECT_STREQ("explorer.exe", val(&e, "ImageFileName"));
			EXPECT_STREQ("S-1-5-21-4151223144-1238771585-1724997581-1000",
				     val(&e, "UserSID"));
			EXPECT_STREQ("132273837501644634", val(&e, "ExitTime"));
		}
		defunct += ev.hook_id == 0x0327;
		image_dcstart += ev.hook_id == 0x1403;
		n++;
	}
	EXPECT_EQ(0, ret);
	EXPECT_EQ(17078, n);
	EXPECT_EQ(5, defunct);
	EXPECT_EQ(6745, image_dcstart);
	etw_etl_close(etl);
	etw_decoder_free(d);
}

/*
 * Every kernel record of the sample, cut short at random and with random
 * bytes changed: the decoder answers 0 or -EBADMSG, and every field it
 * gives lies inside the data (ASan checks the reads in the _asan build).
 */
TEST(mutated_payloads)
{
	static uint8_t buf[0x10000];
	struct etw_decoded_event e;
	struct etw_etl_event ev;
	struct etw_decoder *d;
	struct etw_etl *etl;
	char path[4096];
	unsigned int seed = 17;
	long tried = 0, ok = 0;

	SAMPLE_PATH(path, "etlparser-ShutdownPerfDiagLogger.etl");
	ASSERT_EQ(0, etw_decoder_new(&d));
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	while (etw_etl_next(etl, &ev) > 0) {
		for (int k = 0; k < 8; k++) {
			uint32_t n = ev.data_size ? rand_r(&seed) % (ev.data_size + 1) : 0;
			struct etw_etl_event m = ev;
			int ret;

			memcpy(buf, ev.data, ev.data_size);
			for (int f = rand_r(&seed) % 4; f > 0 && ev.data_size; f--)
				buf[rand_r(&seed) % ev.data_size] = (uint8_t)rand_r(&seed);
			/* A copy of just n bytes: a read past it is ASan's. */
			m.data = n ? memcpy(malloc(n), buf, n) : NULL;
			m.data_size = n;
			ret = etw_decode_etl_event(d, &m, &e);
			ASSERT_TRUE(ret == 0 || ret == -EBADMSG) TH_LOG("ret %d", ret);
			for (uint32_t i = 0; i < e.field_count; i++) {
				const uint8_t *p = e.fields[i].data;

				ASSERT_TRUE(!e.fields[i].size ||
					    (p >= (const uint8_t *)m.data &&
					     p + e.fields[i].size <=
					     (const uint8_t *)m.data + n));
				ASSERT_EQ(strlen(e.fields[i].value),
					  e.fields[i].value_len);
			}
			free((void *)m.data);
			tried++;
			ok += !ret;
		}
	}
	etw_etl_close(etl);
	etw_decoder_free(d);
	EXPECT_EQ(17078 * 8, tried);
	/* Cut MOF records mostly still decode: they may end at any field. */
	EXPECT_LT(tried / 4, ok);
}

/* What the ProcessTrace callback saw. */
struct consumed {
	struct etw_decoder *d;
	long records, decoded, rest, idle;
};

static void WINAPI on_record(PEVENT_RECORD r)
{
	struct consumed *c = r->UserContext;
	struct etw_decoded_event e;
	const struct etw_decoded_field *f;

	c->records++;
	if (etw_decode_event_record(c->d, r, &e))
		return;
	c->decoded++;
	c->rest += e.rest_size != 0;
	f = etw_decoded_field(&e, "ImageFileName");
	if (f && !strcmp(f->value, "Idle") && !strcmp(e.opcode_name, "DCStart"))
		c->idle++;
}

/* A consumer decodes ProcessTrace's EVENT_RECORDs the same way. */
TEST(perfdiag_process_trace)
{
	struct consumed c = { 0 };
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	char path[4096];

	SAMPLE_PATH(path, "etlparser-ShutdownPerfDiagLogger.etl");
	ASSERT_EQ(0, etw_decoder_new(&c.d));
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.Context = &c;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	/* Every record but the header event, which ProcessTrace keeps. */
	EXPECT_LE(17077, c.records);
	EXPECT_EQ(c.records, c.decoded);
	EXPECT_EQ(0, c.rest);
	EXPECT_EQ(1, c.idle);
	etw_decoder_free(c.d);
}

/* A SYSTEM32 (or PERFINFO32 with perfinfo) record in the open buffer. */
static void rec32(struct img *m, uint16_t hook, uint8_t version, bool perfinfo,
		  uint32_t pid, uint32_t tid, uint64_t ts, const struct rec *r)
{
	uint32_t h = perfinfo ? 0x10 : 0x20;
	uint8_t *p = img_record(m, h + r->n);

	put_le(p, version, 2);
	p[2] = perfinfo ? 0x10 : 0x01;
	p[3] = 0xc0;
	put_le(p + 4, h + r->n, 2);
	put_le(p + 6, hook, 2);
	if (perfinfo) {
		put_le(p + 8, ts, 8);
	} else {
		put_le(p + 8, tid, 4);
		put_le(p + 12, pid, 4);
		put_le(p + 16, ts, 8);
	}
	memcpy(p + h, r->b, r->n);
}

static void process32(struct rec *r, uint32_t pid, const char *image,
		      const char *cmd)
{
	r->n = 0;
	u32(r, 0x80001000 + pid);
	u32(r, pid);
	u32(r, 4);
	u32(r, 1);
	u32(r, 0x103);
	u32(r, 0x1ad000);
	u32(r, 0);
	u32(r, 0x9000); u32(r, 0);
	u8(r, 1); u8(r, 1); u32(r, 0); u8(r, 0); u8(r, 5); u32(r, 18);
	astr(r, image);
	wstr(r, cmd);
	wstr(r, "");
	wstr(r, "");
}

/* The 32-bit file; returns its path (a temporary file). */
static void write_32bit_file(struct __test_metadata *_metadata, char *path)
{
	static struct img m;
	struct img_header h = { .bits = 32, .cpus = 1, .buffers = 2,
				.clock = 1, .perf_freq = 10000000, .mhz = 2000,
				.start = 132273542277445790ull, .sync = 1000 };
	struct rec r;
	FILE *f;
	int fd;

	memset(&m, 0, sizeof(m));
	img_start(&m, &h);
	img_buffer(&m, 0, 1, 0x21, 0);
	process32(&r, 0x1234, "app32.exe", "app32.exe --go");
	rec32(&m, 0x0301, 4, false, 4, 8, 2000, &r);
	r.n = 0;
	u32(&r, 0x1234); u32(&r, 0x77);
	for (int i = 1; i <= 7; i++)
		u32(&r, 0x10000 * i);
	u32(&r, 0); u8(&r, 8); u8(&r, 5); u8(&r, 2); u8(&r, 0);
	rec32(&m, 0x0501, 3, false, 0x1234, 0x77, 2100, &r);
	r.n = 0;
	u32(&r, 0x400000); u32(&r, 0x2000); u32(&r, 0x1234); u32(&r, 0);
	u32(&r, 0); u32(&r, 0); u32(&r, 0x400000);
	u32(&r, 0); u32(&r, 0); u32(&r, 0); u32(&r, 0);
	wstr(&r, "C:\\app32.exe");
	rec32(&m, 0x030a, 3, false, 0x1234, 0x77, 2200, &r);
	r.n = 0;
	u32(&r, 0x401234); u32(&r, 0x77); u32(&r, 1);
	rec32(&m, 0x0f2e, 2, true, 0, 0, 2300, &r);
	r.n = 0;
	u64(&r, 2300); u32(&r, 0x1234); u32(&r, 0x77);
	u32(&r, 0x401234); u32(&r, 0x401000);
	rec32(&m, 0x1820, 2, true, 0, 0, 2301, &r);
	r.n = 0;
	u32(&r, 0x1234);
	rec32(&m, 0x030b, 2, false, 0x1234, 0x77, 2400, &r);
	process32(&r, 0x1234, "app32.exe", "app32.exe --go");
	rec32(&m, 0x0302, 4, false, 0x1234, 0x77, 2500, &r);
	/* KernelTraceControl's DbgID_RSDS, an EVENT_TRACE_HEADER record. */
	r.n = 0;
	u32(&r, 0x400000); u32(&r, 0x1234);
	memset(r.b + r.n, 0x11, 16);
	r.n += 16;
	u32(&r, 3);
	astr(&r, "app32.pdb");
	{
		uint8_t *p = img_record(&m, 0x30 + r.n);

		put_le(p, 0x30 + r.n, 2);
		p[2] = 0x0a;			/* FULL_HEADER32 */
		p[3] = 0xc0;
		p[4] = 36;			/* Class.Type */
		put_le(p + 6, 2, 2);		/* Class.Version */
		put_le(p + 8, 0x77, 4);
		put_le(p + 12, 0x1234, 4);
		put_le(p + 16, 2600, 8);
		memcpy(p + 0x18, &kc_guid_imageid, 16);
		memcpy(p + 0x30, r.b, r.n);
	}
	img_finish(&m);

	snprintf(path, 64, "/tmp/decode_kernel32-XXXXXX");
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	f = fdopen(fd, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(m.len, fwrite(m.p, 1, m.len, f));
	ASSERT_EQ(0, fclose(f));
}

TEST(file_32bit)
{
	struct etw_decoded_event e;
	struct etw_etl_event ev;
	struct etw_decoder *d;
	struct etw_etl *etl;
	char path[64];
	long n = 0;
	int ret;

	write_32bit_file(_metadata, path);
	ASSERT_EQ(0, etw_decoder_new(&d));
	ASSERT_EQ(0, etw_etl_open(path, &etl, NULL));
	EXPECT_EQ(4, etw_etl_get_header(etl)->pointer_size);
	while ((ret = etw_etl_next(etl, &ev)) > 0) {
		EXPECT_EQ(4, ev.pointer_size);
		ASSERT_EQ(0, etw_decode_etl_event(d, &ev, &e))
			TH_LOG("record %ld hook 0x%04x", n, ev.hook_id);
		EXPECT_EQ(0, e.rest_size);
		switch (n++) {
		case 0:
			EXPECT_STREQ("Header", e.opcode_name);
			EXPECT_STREQ("4", val(&e, "PointerSize"));
			EXPECT_STREQ("0x0", val(&e, "LoggerName"));
			EXPECT_STREQ("132273542276445790", val(&e, "BootTime"));
			EXPECT_STREQ("log", val(&e, "SessionNameString"));
			EXPECT_STREQ("f.etl", val(&e, "LogFileNameString"));
			break;
		case 1:
			EXPECT_STREQ("Start", e.opcode_name);
			EXPECT_STREQ("0x80002234", val(&e, "UniqueProcessKey"));
			EXPECT_STREQ("app32.exe", val(&e, "ImageFileName"));
			EXPECT_STREQ("S-1-5-18", val(&e, "UserSID"));
			break;
		case 2:
			EXPECT_STREQ("0x70000", val(&e, "TebBase"));
			break;
		case 3:
			EXPECT_STREQ("Load", e.opcode_name);
			EXPECT_STREQ("C:\\app32.exe", val(&e, "FileName"));
			break;
		case 4:
			EXPECT_STREQ("0x401234", val(&e, "InstructionPointer"));
			break;
		case 5:
			EXPECT_STREQ("0x401000", val(&e, "Stack2"));
			break;
		case 8:
			EXPECT_EQ(ETW_ETL_KIND_CLASSIC, ev.kind);
			EXPECT_STREQ("DbgID_RSDS", e.opcode_name);
			EXPECT_STREQ("0x400000", val(&e, "ImageBase"));
			EXPECT_STREQ("{11111111-1111-1111-1111-111111111111}",
				     val(&e, "GuidSig"));
			EXPECT_STREQ("app32.pdb", val(&e, "PdbFileName"));
			break;
		}
	}
	EXPECT_EQ(0, ret);
	EXPECT_EQ(9, n);
	etw_etl_close(etl);
	etw_decoder_free(d);
	unlink(path);
}

/* What etw dump prints for the 32-bit file. */
static char *dump(const char *opts, const char *path)
{
	char cmd[256], *buf = NULL;
	size_t len = 0;
	FILE *p, *out = open_memstream(&buf, &len);
	int c;

	snprintf(cmd, sizeof(cmd), "%s dump %s '%s'", ETW_TOOL_PATH, opts, path);
	p = popen(cmd, "r");
	if (!p || !out)
		return NULL;
	while ((c = getc(p)) != EOF)
		putc(c, out);
	pclose(p);
	fclose(out);
	return buf;
}

TEST(dump_names_processes)
{
	char path[64], *text, *sum, *json;

	write_32bit_file(_metadata, path);
	text = dump("", path);
	sum = dump("-s", path);
	json = dump("-s -f json", path);
	unlink(path);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, sum);
	ASSERT_NE(NULL, json);
	/* Records of the process name it once it started. */
	EXPECT_NE(NULL, strstr(text, "pid 4660 (app32.exe) tid 119 SYSTEM_TRACE_HEADER32"));
	EXPECT_NE(NULL, strstr(text, "Thread / Start"));
	/* A PERFINFO record has no ids: its payload's process is named. */
	EXPECT_NE(NULL, strstr(text, "cpu 0 process 4660 (app32.exe) "
			       "PERFINFO_TRACE_HEADER32"));
	EXPECT_NE(NULL, strstr(text, "    TebBase: 0x70000\n"));
	EXPECT_NE(NULL, strstr(text, "    FileName: C:\\app32.exe\n"));
	EXPECT_EQ(NULL, strstr(text, "payload"));
	EXPECT_NE(NULL, strstr(sum, "Processes:"));
	EXPECT_NE(NULL, strstr(sum, "app32.exe / app32.exe --go"));
	EXPECT_NE(NULL, strstr(json, "{\"pid\": 4660, \"parent\": 4, \"image\": "
			       "\"app32.exe\", \"command_line\": \"app32.exe --go\", "
			       "\"start\": \""));
	/*
	 * Thread, image, terminate, end and the classic DbgID_RSDS carry
	 * its pid in their header, the stack (PERFINFO) in StackProcess;
	 * the Start is its parent's, the sample names no process.
	 */
	EXPECT_NE(NULL, strstr(json, "\"events\": 6, \"threads\": 1}"));
	EXPECT_NE(NULL, strstr(text, "KernelTraceControl / ImageId/DbgID_RSDS"));
	free(text);
	free(sum);
	free(json);
}

TEST_HARNESS_MAIN
