/* SPDX-License-Identifier: MIT */
/*
 * <winapifamily.h>: which API partitions a program may use.  A program
 * here is a desktop program, so every partition is on and
 * WINAPI_FAMILY_PARTITION(x) is true for each.
 */
#ifndef LIBETW_WINAPIFAMILY_H
#define LIBETW_WINAPIFAMILY_H

#define WINAPI_FAMILY_PC_APP		2
#define WINAPI_FAMILY_PHONE_APP		3
#define WINAPI_FAMILY_SYSTEM		4
#define WINAPI_FAMILY_SERVER		5
#define WINAPI_FAMILY_GAMES		6
#define WINAPI_FAMILY_DESKTOP_APP	100
#define WINAPI_FAMILY_APP		WINAPI_FAMILY_PC_APP
#ifndef WINAPI_FAMILY
#define WINAPI_FAMILY			WINAPI_FAMILY_DESKTOP_APP
#endif

#define WINAPI_PARTITION_DESKTOP	1
#define WINAPI_PARTITION_APP		1
#define WINAPI_PARTITION_PC_APP		1
#define WINAPI_PARTITION_PHONE_APP	0
#define WINAPI_PARTITION_SYSTEM		1
#define WINAPI_PARTITION_SERVER		1
#define WINAPI_PARTITION_GAMES		1
#define WINAPI_PARTITION_PHONE		WINAPI_PARTITION_PHONE_APP

#define WINAPI_FAMILY_PARTITION(partitions)	(partitions)
#define WINAPI_FAMILY_ONE_PARTITION(family, partition)	((family) == (partition))

#endif /* LIBETW_WINAPIFAMILY_H */
