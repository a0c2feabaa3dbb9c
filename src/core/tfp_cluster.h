/*
 * tfp_cluster.h: clustering pairs of 64-bit keys, the pure-C half of
 * union_find() and cluster_table().
 *
 * Two ways to group keys joined by pairs (edges):
 *
 *  - components: connected components, by union-find with path compression
 *    (halving) and union by rank.  A component's cluster key is its smallest
 *    key, so it does not depend on the order the pairs arrive in.
 *  - star: non-transitive.  Keys are taken in ascending order; a key that no
 *    smaller key has claimed becomes an original and claims every unclaimed
 *    key it has an edge to.  Every member is thus joined by an edge to its
 *    cluster's original (its cluster key, the smallest key of the cluster),
 *    and chains (a~b, b~c, a !~ c) do not merge.
 *
 * Keys live in an open-addressing hash table (linear probing, load <= 1/2)
 * mapping a key to a dense index.  Memory comes from the caller's tfp_env
 * (the glue counts it against textfp.cluster_memory): per distinct key 25
 * bytes of arrays plus 12 to 24 bytes of hash table (components), and per
 * pair 8 bytes in star mode, which keeps the edges until the end; arrays
 * grow by doubling, so a growth step needs the old and the new array at
 * once.  env->check_interrupts is called every TFP_CLUSTER_CHECK_EVERY
 * operations.
 */
#ifndef TFP_CLUSTER_H
#define TFP_CLUSTER_H

#include "tfp_core.h"

#define TFP_CLUSTER_CHECK_EVERY 65536
#define TFP_CLUSTER_MAX_KEYS	UINT32_C(0x7fffffff)	/* indexes are uint32 */

typedef enum tfp_cluster_mode
{
	TFP_CLUSTER_COMPONENTS,
	TFP_CLUSTER_STAR
} tfp_cluster_mode;

typedef struct tfp_cluster
{
	tfp_env    *env;
	tfp_cluster_mode mode;
	/* hash table: slot -> index + 1 (0 empty) */
	uint32_t   *slots;
	size_t		nslots;			/* a power of 2 */
	/* per key, by index */
	int64_t    *keys;
	uint32_t   *parent;			/* components */
	uint32_t   *minidx;			/* components: smallest key's index, at roots */
	uint8_t    *rank;			/* components */
	size_t		n;
	size_t		cap;
	/* star: edges as (index << 32 | index) until tfp_cluster_finish */
	uint64_t   *edges;
	size_t		nedges;
	size_t		edgecap;
	/* after tfp_cluster_finish (star): keys by rank and each rank's original */
	int64_t    *sorted;
	uint32_t   *claim;
	/* after tfp_cluster_finish: cluster sizes, at roots (by rank for star) */
	uint32_t   *csize;
	bool		finished;
	uint64_t	ops;			/* for interrupt checks */
	uint64_t	npairs;			/* pairs added, self-pairs included */
	uint64_t	nunions;		/* components: unions that merged two sets */
} tfp_cluster;

extern void tfp_cluster_init(tfp_cluster *c, tfp_env *env, tfp_cluster_mode mode);
/* Frees everything the structure holds. */
extern void tfp_cluster_free(tfp_cluster *c);
/* A key on its own (a singleton unless a pair joins it). */
extern tfp_status tfp_cluster_add_key(tfp_cluster *c, int64_t key);
/* A pair; (a, a) is the same as tfp_cluster_add_key(a).  Before finish only. */
extern tfp_status tfp_cluster_add_pair(tfp_cluster *c, int64_t a, int64_t b);
/* Ends the input: star mode sorts and claims here. */
extern tfp_status tfp_cluster_finish(tfp_cluster *c);
/* Number of distinct keys seen. */
static inline size_t
tfp_cluster_count(const tfp_cluster *c)
{
	return c->n;
}
/*
 * The i-th key (0 <= i < count), its cluster key and its cluster's size,
 * after finish.  Components: i in order of first appearance.  Star:
 * ascending keys.
 */
extern void tfp_cluster_get(tfp_cluster *c, size_t i, int64_t *key, int64_t *cluster_key,
							int64_t *cluster_size);

#endif							/* TFP_CLUSTER_H */
