// SPDX-License-Identifier: GPL-2.0
/*
 * As on Windows, a program that includes only <evntrace.h> and <tdh.h>
 * sees EVENT_RECORD and EVENT_DESCRIPTOR (tdh.h brings evntcons.h).
 */
#include <evntrace.h>
#include <tdh.h>

#include <string.h>

static ULONG event_id(const EVENT_RECORD *r)
{
	EVENT_DESCRIPTOR d = r->EventHeader.EventDescriptor;

	return d.Id;
}

int main(void)
{
	EVENT_RECORD r;

	memset(&r, 0, sizeof(r));

	return (int)event_id(&r);
}
