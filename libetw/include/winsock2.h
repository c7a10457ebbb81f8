/* SPDX-License-Identifier: MIT */
/*
 * <winsock2.h>: the socket address types ETW programs decode event
 * fields with (TDH_OUTTYPE_SOCKETADDRESS), over the C library's, whose
 * layouts are Windows' (sockaddr_in 16 bytes, sockaddr_in6 28,
 * sockaddr_storage 128).  Sockets themselves (WSAStartup, SOCKET) are
 * not part of libetw.
 */
#ifndef LIBETW_WINSOCK2_H
#define LIBETW_WINSOCK2_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "windows.h"

typedef USHORT ADDRESS_FAMILY;
typedef struct sockaddr SOCKADDR, *PSOCKADDR, *LPSOCKADDR;
typedef struct sockaddr_in SOCKADDR_IN, *PSOCKADDR_IN, *LPSOCKADDR_IN;
typedef struct sockaddr_storage SOCKADDR_STORAGE, *PSOCKADDR_STORAGE, *LPSOCKADDR_STORAGE;
typedef struct in_addr IN_ADDR, *PIN_ADDR, *LPIN_ADDR;
typedef struct sockaddr_in6 SOCKADDR_IN6, *PSOCKADDR_IN6, *LPSOCKADDR_IN6;
typedef SOCKADDR_IN6 SOCKADDR_IN6_LH, *PSOCKADDR_IN6_LH;
typedef struct sockaddr_in sockaddr_in4;

LIBETW_STATIC_ASSERT(sizeof(SOCKADDR_IN) == 16, "sockaddr_in");
LIBETW_STATIC_ASSERT(sizeof(SOCKADDR_IN6) == 28, "sockaddr_in6");
LIBETW_STATIC_ASSERT(sizeof(SOCKADDR_STORAGE) == 128, "sockaddr_storage");

#endif /* LIBETW_WINSOCK2_H */
