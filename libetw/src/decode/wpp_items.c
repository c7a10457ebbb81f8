// SPDX-License-Identifier: MIT
/*
 * The item types of TMF argument lines ("status, ItemNTSTATUS -- 10"):
 * how many bytes each takes in a TraceMessage payload and how it reads
 * (the sizes WPP's templates log, wpp.md §1.4).
 */
#include <string.h>

#include "wpp.h"

static const struct wpp_item items[] = {
	{ "ItemChar", WPP_K_INT, 1, WPP_F_SIGNED },
	{ "ItemUChar", WPP_K_INT, 1, 0 },
	{ "ItemCharShort", WPP_K_INT, 1, WPP_F_SIGNED },
	{ "ItemCharSign", WPP_K_INT, 1, WPP_F_SIGNED },
	{ "ItemCharHex", WPP_K_INT, 1, WPP_F_HEX },
	{ "ItemShort", WPP_K_INT, 2, WPP_F_SIGNED },
	{ "ItemUShort", WPP_K_INT, 2, 0 },
	{ "ItemShortX", WPP_K_INT, 2, WPP_F_HEX },
	{ "ItemLong", WPP_K_INT, 4, WPP_F_SIGNED },
	{ "ItemULong", WPP_K_INT, 4, 0 },
	{ "ItemULongX", WPP_K_INT, 4, WPP_F_HEX },
	{ "ItemLongX", WPP_K_INT, 4, WPP_F_HEX },
	{ "ItemLongXX", WPP_K_INT, 4, WPP_F_HEX_UP },
	{ "ItemLongO", WPP_K_INT, 4, WPP_F_OCTAL },
	{ "ItemLongLong", WPP_K_INT, 8, WPP_F_SIGNED },
	{ "ItemULongLong", WPP_K_INT, 8, 0 },
	{ "ItemLongLongX", WPP_K_INT, 8, WPP_F_HEX },
	{ "ItemLongLongXX", WPP_K_INT, 8, WPP_F_HEX_UP },
	{ "ItemLongLongO", WPP_K_INT, 8, WPP_F_OCTAL },
	{ "ItemDouble", WPP_K_DOUBLE, 8, 0 },
	{ "ItemPtr", WPP_K_PTR, 0, WPP_F_HEX_UP },
	{ "ItemString", WPP_K_STRING, 0, 0 },
	{ "ItemRString", WPP_K_STRING, 0, 0 },
	{ "ItemWString", WPP_K_WSTRING, 0, 0 },
	{ "ItemRWString", WPP_K_WSTRING, 0, 0 },
	{ "ItemPString", WPP_K_PSTRING, 0, 0 },
	{ "ItemPWString", WPP_K_PWSTRING, 0, 0 },
	{ "ItemGuid", WPP_K_GUID, 16, 0 },
	{ "ItemCLSID", WPP_K_GUID, 16, 0 },
	{ "ItemIID", WPP_K_GUID, 16, 0 },
	{ "ItemLIBID", WPP_K_GUID, 16, 0 },
	{ "ItemNTSTATUS", WPP_K_NTSTATUS, 4, 0 },
	{ "ItemNDIS_STATUS", WPP_K_NTSTATUS, 4, 0 },
	{ "ItemWINERROR", WPP_K_WINERROR, 4, 0 },
	{ "ItemHRESULT", WPP_K_HRESULT, 4, 0 },
	{ "ItemNDIS_OID", WPP_K_INT, 4, WPP_F_HEX },
	{ "ItemIPAddr", WPP_K_IPADDR, 4, 0 },
	{ "ItemIPV6Addr", WPP_K_IPV6ADDR, 16, 0 },
	{ "ItemPort", WPP_K_PORT, 2, 0 },
	{ "ItemMACAddr", WPP_K_MACADDR, 6, 0 },
	{ "ItemTimestamp", WPP_K_TIMESTAMP, 8, 0 },
	{ "ItemTimeDelta", WPP_K_TIMEDELTA, 8, 0 },
	{ "ItemWaitTime", WPP_K_WAITTIME, 8, 0 },
	{ "ItemListByte", WPP_K_LIST, 1, WPP_F_ARGS },
	{ "ItemListShort", WPP_K_LIST, 2, WPP_F_ARGS },
	{ "ItemListLong", WPP_K_LIST, 4, WPP_F_ARGS },
	{ "ItemSetByte", WPP_K_SET, 1, WPP_F_ARGS },
	{ "ItemSetShort", WPP_K_SET, 2, WPP_F_ARGS },
	{ "ItemSetLong", WPP_K_SET, 4, WPP_F_ARGS },
	{ "ItemEnum", WPP_K_ENUM, 4, WPP_F_ARGS },
	{ "ItemFlagsEnum", WPP_K_ENUM, 4, WPP_F_ARGS },
	{ "ItemSid", WPP_K_SID, 0, 0 },
	{ "ItemChar4", WPP_K_CHAR4, 4, 0 },
	{ "ItemHEXDump", WPP_K_HEXDUMP, 0, 0 },
	{ "ItemHexDump", WPP_K_HEXDUMP, 0, 0 },
};

const struct wpp_item *wpp_item_find(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		if (strlen(items[i].name) == len &&
		    !memcmp(items[i].name, name, len))
			return &items[i];
	return NULL;
}
