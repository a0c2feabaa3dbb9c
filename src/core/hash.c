/*
 * hash.c: the feature hash, XXH3-64 with a seed.
 *
 * XXH3's output is frozen since xxHash 0.8.0 and defined byte-wise, so the
 * same feature gives the same hash on every platform.  The header is used
 * inline: no run-time dependency on libxxhash.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"

uint64_t
tfp_hash(const void *data, size_t len, uint64_t seed)
{
	return (uint64_t) XXH3_64bits_withSeed(data, len, (XXH64_hash_t) seed);
}
