// SPDX-License-Identifier: GPL-2.0
/*
 * TraceSetInformation and TraceQueryInformation: what is answered or
 * refused before any system call, so without the module: the length
 * rules of each class, the classes that are not supported, the fixed
 * answers (profile sources, logger count), private handles, and the
 * thread's last error.
 */
#include <windows.h>
#include <evntrace.h>

#include "kselftest_harness.h"

/* A CONTROLTRACE_ID the module would find (logger 1). */
#define SOME_SESSION	((CONTROLTRACE_ID)1)

TEST(set_lengths)
{
	CLASSIC_EVENT_ID ids[2];
	TRACE_PROFILE_INTERVAL iv = { 0, 10000 };
	ULONG flags = EVENT_TRACE_FLAG_PROCESS;

	memset(ids, 0, sizeof(ids));
	/* A partial CLASSIC_EVENT_ID is not one. */
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceSetInformation(SOME_SESSION, TraceStackTracingInfo, ids,
				      sizeof(ids[0]) + 1));
	EXPECT_EQ(ERROR_BAD_LENGTH, GetLastError());
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceSetInformation(SOME_SESSION, TraceSystemTraceEnableFlagsInfo,
				      &flags, sizeof(flags) - 1));
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceSetInformation(0, TraceSampledProfileIntervalInfo, &iv,
				      sizeof(iv) - 1));
	/* A length without data. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TraceSetInformation(SOME_SESSION, TraceStackTracingInfo, NULL,
				      sizeof(ids[0])));
}

TEST(set_too_many_stack_ids)
{
	static CLASSIC_EVENT_ID ids[257];

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TraceSetInformation(SOME_SESSION, TraceStackTracingInfo, ids,
				      sizeof(ids)));
}

TEST(unsupported_classes)
{
	ULONG buf[64];

	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  TraceSetInformation(SOME_SESSION, TracePmcCounterListInfo, buf,
				      sizeof(ULONG)));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  TraceSetInformation(SOME_SESSION, TraceLbrConfigurationInfo,
				      buf, sizeof(ULONG)));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  TraceSetInformation(SOME_SESSION, MaxTraceSetInfoClass, buf,
				      sizeof(ULONG)));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  TraceQueryInformation(SOME_SESSION, TracePmcCounterOwners, buf,
					sizeof(buf), NULL));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, GetLastError());
}

TEST(max_loggers)
{
	ULONG n = 0, ret_len = 0;

	EXPECT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(0, TraceMaxLoggersQuery, &n, sizeof(n),
					&ret_len));
	EXPECT_EQ(64, n);
	EXPECT_EQ(sizeof(ULONG), ret_len);
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceQueryInformation(0, TraceMaxLoggersQuery, &n, 2, &ret_len));
	EXPECT_EQ(sizeof(ULONG), ret_len);
}

TEST(profile_sources)
{
	union {
		PROFILE_SOURCE_INFO p;
		BYTE b[128];
	} u;
	ULONG ret_len = 0;

	memset(&u, 0xAA, sizeof(u));
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(0, TraceProfileSourceListInfo, &u,
					sizeof(u), &ret_len));
	EXPECT_EQ(offsetof(PROFILE_SOURCE_INFO, Description) + 12, ret_len);
	EXPECT_EQ(0, u.p.NextEntryOffset);	/* the only one */
	EXPECT_EQ(0, u.p.Source);		/* ProfileTime */
	EXPECT_EQ(1221, u.p.MinInterval);
	EXPECT_EQ(10000000, u.p.MaxInterval);
	EXPECT_EQ(u'T', u.p.Description[0]);
	EXPECT_EQ(u'r', u.p.Description[4]);
	EXPECT_EQ(0, u.p.Description[5]);
	/* Too small: the length it needs. */
	ret_len = 0;
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceQueryInformation(0, TraceProfileSourceListInfo, &u, 8,
					&ret_len));
	EXPECT_EQ(offsetof(PROFILE_SOURCE_INFO, Description) + 12, ret_len);
}

TEST(query_lengths)
{
	TRACE_PROFILE_INTERVAL iv = { 0, 0 };
	ULONG flags = 0;

	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceQueryInformation(0, TraceSampledProfileIntervalInfo, &iv,
					sizeof(iv) - 1, NULL));
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceQueryInformation(SOME_SESSION,
					TraceSystemTraceEnableFlagsInfo, &flags,
					2, NULL));
}

TEST_HARNESS_MAIN
