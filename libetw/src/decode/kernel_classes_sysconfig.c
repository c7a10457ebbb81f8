// SPDX-License-Identifier: MIT
/*
 * SystemConfig ({01853a65-...}), the hardware rundown at the end of a
 * kernel session: wmicore.mof's SystemConfig_V2_CPU (10),
 * SystemConfig_V3_CPU (version 3: the processor's architecture, level,
 * revision, PAE and NX, memory speed), SystemConfig_V2_PhyDisk (11),
 * SystemConfig_V2_LogDisk (12), SystemConfig_V2_NIC (13: the hardware
 * address in a uint64, then three strings) and SystemConfig_V2_Services /
 * SystemConfig_V3_Services (15).  The char16 arrays are fixed-size UTF-16
 * fields (shown up to their NUL).
 */
#include "kernel_classes.h"

static const struct kc_event cpu[] = { { 10, "CPU" } };
static const struct kc_field cpu_fields[] = {
	KC_U32("MHz"),
	KC_U32("NumberOfProcessors"),
	KC_U32("MemSize"),
	KC_U32("PageSize"),
	KC_U32("AllocationGranularity"),
	KC_WCHARS("ComputerName", 256),
	KC_WCHARS("DomainName", 134),
	KC_PTR("HyperThreadingFlag"),
};

static const struct kc_field cpu_v3_fields[] = {
	KC_U32("MHz"),
	KC_U32("NumberOfProcessors"),
	KC_U32("MemSize"),
	KC_U32("PageSize"),
	KC_U32("AllocationGranularity"),
	KC_WCHARS("ComputerName", 256),
	KC_WCHARS("DomainName", 134),
	KC_PTR("HyperThreadingFlag"),
	KC_PTR("HighestUserAddress"),
	KC_U16("ProcessorArchitecture"),
	KC_U16("ProcessorLevel"),
	KC_U16("ProcessorRevision"),
	KC_U8("PaeEnabled"),
	KC_U8("NxEnabled"),
	KC_U32("MemorySpeed"),
};

static const struct kc_event phydisk[] = { { 11, "PhyDisk" } };
static const struct kc_field phydisk_fields[] = {
	KC_U32("DiskNumber"),
	KC_U32("BytesPerSector"),
	KC_U32("SectorsPerTrack"),
	KC_U32("TracksPerCylinder"),
	KC_U64("Cylinders"),
	KC_U32("SCSIPort"),
	KC_U32("SCSIPath"),
	KC_U32("SCSITarget"),
	KC_U32("SCSILun"),
	KC_WCHARS("Manufacturer", 256),
	KC_U32("PartitionCount"),
	KC_U8("WriteCacheEnabled"),
	KC_U8("Pad"),
	KC_WCHARS("BootDriveLetter", 3),
	KC_WCHARS("Spare", 2),
};

static const struct kc_event logdisk[] = { { 12, "LogDisk" } };
static const struct kc_field logdisk_fields[] = {
	KC_U64("StartOffset"),
	KC_U64("PartitionSize"),
	KC_U32("DiskNumber"),
	KC_U32("Size"),
	KC_U32("DriveType"),
	KC_WCHARS("DriveLetterString", 4),
	KC_U32("Pad1"),
	KC_U32("PartitionNumber"),
	KC_U32("SectorsPerCluster"),
	KC_U32("BytesPerSector"),
	KC_U32("Pad2"),
	KC_S64("NumberOfFreeClusters"),
	KC_S64("TotalNumberOfClusters"),
	KC_WCHARS("FileSystem", 16),
	KC_U32("VolumeExt"),
	KC_U32("Pad3"),
};

static const struct kc_event nic[] = { { 13, "NIC" } };
static const struct kc_field nic_fields[] = {
	KC_X64("PhysicalAddr"),
	KC_U32("PhysicalAddrLen"),
	KC_U32("Ipv4Index"),
	KC_U32("Ipv6Index"),
	KC_WSTR("NICDescription"),
	KC_WSTR("IpAddresses"),
	KC_WSTR("DnsServerAddresses"),
};

static const struct kc_event services[] = { { 15, "Services" } };
static const struct kc_field services_fields[] = {
	KC_X32("ProcessId"),
	KC_X32("ServiceState"),
	KC_X32("SubProcessTag"),
	KC_WSTR("ServiceName"),
	KC_WSTR("DisplayName"),
	KC_WSTR("ProcessName"),
	KC_WSTR("LoadOrderGroup"),		/* version 3 */
	KC_WSTR("SvchostGroup"),		/* version 3 */
};

static const struct kc_event power[] = { { 16, "Power" } };
static const struct kc_field power_fields[] = {
	KC_U8("s1"),
	KC_U8("s2"),
	KC_U8("s3"),
	KC_U8("s4"),
	KC_U8("s5"),
	KC_U8("Pad1"),
	KC_U8("Pad2"),
	KC_U8("Pad3"),
};

static const struct kc_event irq[] = { { 21, "IRQ" } };
static const struct kc_field irq_fields[] = {
	KC_X64("IRQAffinity"),
	KC_U32("IRQNum"),
	KC_U32("DeviceDescriptionLen"),
	KC_WSTR("DeviceDescription"),
};

static const struct kc_field irq_v3_fields[] = {
	KC_X64("IRQAffinity"),
	KC_U16("IRQGroup"),
	KC_U16("Reserved"),
	KC_U32("IRQNum"),
	KC_U32("DeviceDescriptionLen"),
	KC_WSTR("DeviceDescription"),
};

static const struct kc_event pnp[] = { { 22, "PnP" } };
static const struct kc_field pnp_fields[] = {
	KC_U32("IDLength"),
	KC_U32("DescriptionLength"),
	KC_U32("FriendlyNameLength"),
	KC_WSTR("DeviceID"),
	KC_WSTR("DeviceDescription"),
	KC_WSTR("FriendlyName"),
};

/* Version 4 stops before DevStatus and DevProblem, which version 5 adds. */
static const struct kc_field pnp_v4_fields[] = {
	KC_GUID("ClassGuid"),
	KC_U32("UpperFilterCount"),
	KC_U32("LowerFilterCount"),
	KC_WSTR("DeviceID"),
	KC_WSTR("DeviceDescription"),
	KC_WSTR("FriendlyName"),
	KC_WSTR("PdoName"),
	KC_WSTR("ServiceName"),
	KC_WSTR("UpperFilters"),
	KC_WSTR("LowerFilters"),
};

static const struct kc_field pnp_v5_fields[] = {
	KC_GUID("ClassGuid"),
	KC_U32("UpperFilterCount"),
	KC_U32("LowerFilterCount"),
	KC_X32("DevStatus"),
	KC_U32("DevProblem"),
	KC_WSTR("DeviceID"),
	KC_WSTR("DeviceDescription"),
	KC_WSTR("FriendlyName"),
	KC_WSTR("PdoName"),
	KC_WSTR("ServiceName"),
	KC_WSTR("UpperFilters"),
	KC_WSTR("LowerFilters"),
};

static const struct kc_class classes[] = {
	{ "SystemConfig_V2_CPU", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(cpu), KC_FIELDS(cpu_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V3_CPU", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(3), KC_EVENTS(cpu), KC_FIELDS(cpu_v3_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V2_PhyDisk", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(phydisk), KC_FIELDS(phydisk_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V2_LogDisk", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(logdisk), KC_FIELDS(logdisk_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V2_NIC", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(nic), KC_FIELDS(nic_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V2_Services", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(services), services_fields,
	  (uint16_t)(KC_ARRAY_SIZE(services_fields) - 2), KC_NO_MAPS, 0 },
	{ "SystemConfig_V3_Services", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(3), KC_EVENTS(services), KC_FIELDS(services_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V2_Power", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(power), KC_FIELDS(power_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V2_IRQ", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2), KC_EVENTS(irq), KC_FIELDS(irq_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V3_IRQ", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(3), KC_EVENTS(irq), KC_FIELDS(irq_v3_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_PnP", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(2, 3), KC_EVENTS(pnp), KC_FIELDS(pnp_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V4_PnP", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(4), KC_EVENTS(pnp), KC_FIELDS(pnp_v4_fields),
	  KC_NO_MAPS, 0 },
	{ "SystemConfig_V5_PnP", "SystemConfig", &kc_guid_sysconfig,
	  KC_VERSIONS(5), KC_EVENTS(pnp), KC_FIELDS(pnp_v5_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_sysconfig = { classes, KC_ARRAY_SIZE(classes) };
