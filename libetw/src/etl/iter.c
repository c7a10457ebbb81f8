// SPDX-License-Identifier: MIT
/*
 * Iteration over the records of an ETL file, in file order here and in
 * time order through merge.c.  An error is sticky: a caller that
 * keeps calling gets it again rather than records after a bad one.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

ETW_EXPORT int etw_etl_rewind(struct etw_etl *etl, enum etw_etl_order order)
{
	if (order != ETW_ETL_ORDER_FILE && order != ETW_ETL_ORDER_TIME)
		return -EINVAL;
	etl_merge_free(etl->merge);
	etl->merge = NULL;
	etl->order = order;
	etl->cur_buf = 0;
	etl->cur_pos = ETL_BUFFER_HEADER_SIZE;
	memset(&etl->err, 0, sizeof(etl->err));
	return 0;
}

/* The end of the indexed buffers: the walk's own error, if it had one. */
int etl_end_of_index(struct etw_etl *etl)
{
	if (!etl->index_err.code)
		return 0;
	etl->err = etl->index_err;
	return etl->err.code;
}

static int next_in_file(struct etw_etl *etl, struct etw_etl_event *ev)
{
	uint32_t next;
	int ret;

	while (etl->cur_buf < etl->nbufs) {
		ret = etl_parse_record(etl, etl->cur_buf, etl->cur_pos, NULL, ev,
				       &next);
		if (ret > 0) {
			etl->cur_pos = next;
			return 1;
		}
		if (ret < 0)
			return ret;
		etl->cur_buf++;
		etl->cur_pos = ETL_BUFFER_HEADER_SIZE;
	}
	return etl_end_of_index(etl);
}

ETW_EXPORT int etw_etl_next(struct etw_etl *etl, struct etw_etl_event *ev)
{
	if (etl->err.code)
		return etl->err.code;
	if (etl->order == ETW_ETL_ORDER_TIME)
		return etl_merge_next(etl, ev);
	return next_in_file(etl, ev);
}

ETW_EXPORT const struct etw_etl_error *
etw_etl_last_error(const struct etw_etl *etl)
{
	return &etl->err;
}
