/* SPDX-License-Identifier: MIT */
/*
 * <wbemidl.h>: Windows' WMI COM interfaces.  WMI is not part of libetw;
 * the header exists because ETW samples include it without using WMI
 * (Microsoft's "Using TdhFormatProperty to Consume Event Data" and
 * "Retrieving Event Metadata"), for the COM basics it brings, which here
 * are those of <windows.h> and etw_win32.h (HRESULT, CLSID, LPOLESTR,
 * StringFromCLSID, CoTaskMemFree).  A program that does use WMI fails to
 * compile, the compiler naming the interface and why.
 */
#ifndef LIBETW_WBEMIDL_H
#define LIBETW_WBEMIDL_H

#include "windows.h"
#include "etw_win32.h"

#define LIBETW_NO_WMI \
	__attribute__((__unavailable__("WMI (COM) is not part of libetw: see Documentation/porting.rst")))

typedef struct IWbemLocator IWbemLocator LIBETW_NO_WMI;
typedef struct IWbemServices IWbemServices LIBETW_NO_WMI;
typedef struct IWbemClassObject IWbemClassObject LIBETW_NO_WMI;
typedef struct IWbemQualifierSet IWbemQualifierSet LIBETW_NO_WMI;
typedef struct IEnumWbemClassObject IEnumWbemClassObject LIBETW_NO_WMI;
typedef struct IWbemContext IWbemContext LIBETW_NO_WMI;

#ifdef __cplusplus
extern "C" {
#endif
extern const CLSID CLSID_WbemLocator LIBETW_NO_WMI;
extern const IID IID_IWbemLocator LIBETW_NO_WMI;
#ifdef __cplusplus
}
#endif

#endif /* LIBETW_WBEMIDL_H */
