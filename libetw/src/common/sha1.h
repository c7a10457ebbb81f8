/* SPDX-License-Identifier: MIT */
/*
 * SHA-1 (FIPS 180-4), only for the provider GUID Windows derives from a
 * provider name: a name hash, not a security function.
 */
#ifndef LIBETW_SHA1_H
#define LIBETW_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define ETW_SHA1_SIZE	20

struct etw_sha1 {
	uint32_t h[5];
	uint64_t length;		/* bytes hashed so far */
	uint8_t block[64];
	size_t used;			/* bytes in block */
};

void etw_sha1_init(struct etw_sha1 *s);
void etw_sha1_update(struct etw_sha1 *s, const void *data, size_t len);
void etw_sha1_final(struct etw_sha1 *s, uint8_t digest[ETW_SHA1_SIZE]);

#endif /* LIBETW_SHA1_H */
