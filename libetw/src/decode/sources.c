// SPDX-License-Identifier: MIT
/*
 * The decoding sources by DECODING_SOURCE (event_info.h).  A source is
 * added here and in its own file.  WPP has none: a WPP record alone says
 * nothing of its arguments, its TMF text does, and the TMF files come
 * with the call (TDH contexts, tdh_wpp.c; etw_tmf.h's store).
 */
#include <stddef.h>

#include "event_info.h"

static const struct decode_source *const sources[DecodingSourceMax] = {
	[DecodingSourceWbem] = &decode_source_wbem,
	[DecodingSourceXMLFile] = &decode_source_xml,
	[DecodingSourceTlg] = &decode_source_tlg,
};

const struct decode_source *decode_source_of(DECODING_SOURCE kind)
{
	if ((unsigned int)kind >= DecodingSourceMax)
		return NULL;
	return sources[kind];
}
