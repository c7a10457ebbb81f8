/* SPDX-License-Identifier: MIT */
/*
 * <ws2tcpip.h>: <winsock2.h>'s address types, and inet_ntop/inet_pton
 * (the C library's; InetNtopA/InetPtonA are the same functions).
 */
#ifndef LIBETW_WS2TCPIP_H
#define LIBETW_WS2TCPIP_H

#include "winsock2.h"

#define InetNtopA		inet_ntop
#define InetPtonA		inet_pton

#endif /* LIBETW_WS2TCPIP_H */
