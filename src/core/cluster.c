/*
 * cluster.c: union-find and non-transitive (star) clustering over pairs of
 * 64-bit keys (see tfp_cluster.h).
 */
#include <string.h>

#include "tfp_cluster.h"

#define NONE UINT32_MAX

static inline void
tick(tfp_cluster *c)
{
	if ((++c->ops % TFP_CLUSTER_CHECK_EVERY) == 0 && c->env->check_interrupts)
		c->env->check_interrupts(c->env->ctx);
}

/* splitmix64's finaliser: consecutive keys spread over the table. */
static inline uint64_t
mix(int64_t key)
{
	uint64_t	z = (uint64_t) key + UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void
tfp_cluster_init(tfp_cluster *c, tfp_env *env, tfp_cluster_mode mode)
{
	memset(c, 0, sizeof(*c));
	c->env = env;
	c->mode = mode;
}

static void
release(tfp_cluster *c, void *p)
{
	if (p)
		c->env->free(c->env->ctx, p);
}

void
tfp_cluster_free(tfp_cluster *c)
{
	release(c, c->slots);
	release(c, c->keys);
	release(c, c->parent);
	release(c, c->minidx);
	release(c, c->rank);
	release(c, c->edges);
	release(c, c->sorted);
	release(c, c->claim);
	release(c, c->csize);
	c->csize = NULL;
	c->slots = NULL;
	c->keys = NULL;
	c->parent = c->minidx = c->claim = NULL;
	c->rank = NULL;
	c->edges = NULL;
	c->sorted = NULL;
	c->n = c->cap = c->nslots = c->nedges = c->edgecap = 0;
}

/* Doubles the table and reinserts every key. */
static tfp_status
rehash(tfp_cluster *c)
{
	size_t		nslots = c->nslots ? c->nslots * 2 : 1024;
	uint32_t   *slots;

	if (nslots > SIZE_MAX / sizeof(uint32_t))
		return TFP_ENOMEM;
	slots = c->env->alloc(c->env->ctx, nslots * sizeof(uint32_t));
	if (slots == NULL)
		return TFP_ENOMEM;
	tfp_clear(c->env, slots, nslots * sizeof(uint32_t));
	for (size_t i = 0; i < c->n; i++)
	{
		size_t		s = mix(c->keys[i]) & (nslots - 1);

		while (slots[s] != 0)
			s = (s + 1) & (nslots - 1);
		slots[s] = (uint32_t) (i + 1);
		tick(c);
	}
	release(c, c->slots);
	c->slots = slots;
	c->nslots = nslots;
	return TFP_OK;
}

/* Grows one per-key array to newcap elements of size sz. */
static tfp_status
grow_array(tfp_cluster *c, void **arr, size_t sz, size_t newcap)
{
	void	   *p;

	if (*arr == NULL && c->cap == 0)
		p = c->env->alloc(c->env->ctx, newcap * sz);
	else
		p = tfp_grow(c->env, *arr, c->cap * sz, newcap * sz);
	if (p == NULL)
		return TFP_ENOMEM;
	*arr = p;
	return TFP_OK;
}

static tfp_status
grow_keys(tfp_cluster *c)
{
	size_t		newcap = c->cap ? c->cap * 2 : 512;
	tfp_status	rc;

	if (newcap > TFP_CLUSTER_MAX_KEYS)
		newcap = TFP_CLUSTER_MAX_KEYS;
	if (newcap <= c->n)
		return TFP_ENOMEM;
	if ((rc = grow_array(c, (void **) &c->keys, sizeof(int64_t), newcap)) != TFP_OK)
		return rc;
	if (c->mode == TFP_CLUSTER_COMPONENTS)
	{
		if ((rc = grow_array(c, (void **) &c->parent, sizeof(uint32_t), newcap)) != TFP_OK ||
			(rc = grow_array(c, (void **) &c->minidx, sizeof(uint32_t), newcap)) != TFP_OK ||
			(rc = grow_array(c, (void **) &c->rank, sizeof(uint8_t), newcap)) != TFP_OK)
			return rc;
	}
	c->cap = newcap;
	return TFP_OK;
}

/* The index of key, added as a singleton if new. */
static tfp_status
lookup(tfp_cluster *c, int64_t key, uint32_t *idx)
{
	size_t		s;
	tfp_status	rc;

	tick(c);
	if (c->nslots == 0 && (rc = rehash(c)) != TFP_OK)
		return rc;
	s = mix(key) & (c->nslots - 1);
	while (c->slots[s] != 0)
	{
		uint32_t	i = c->slots[s] - 1;

		if (c->keys[i] == key)
		{
			*idx = i;
			return TFP_OK;
		}
		s = (s + 1) & (c->nslots - 1);
	}
	/* new key */
	if (c->n == c->cap && (rc = grow_keys(c)) != TFP_OK)
		return rc;
	if ((c->n + 1) * 2 > c->nslots)
	{
		if ((rc = rehash(c)) != TFP_OK)
			return rc;
		s = mix(key) & (c->nslots - 1);
		while (c->slots[s] != 0)
			s = (s + 1) & (c->nslots - 1);
	}
	*idx = (uint32_t) c->n;
	c->keys[c->n] = key;
	if (c->mode == TFP_CLUSTER_COMPONENTS)
	{
		c->parent[c->n] = (uint32_t) c->n;
		c->minidx[c->n] = (uint32_t) c->n;
		c->rank[c->n] = 0;
	}
	c->slots[s] = (uint32_t) (c->n + 1);
	c->n++;
	return TFP_OK;
}

/* Root of i, halving the path on the way. */
static inline uint32_t
find_root(tfp_cluster *c, uint32_t i)
{
	while (c->parent[i] != i)
	{
		c->parent[i] = c->parent[c->parent[i]];
		i = c->parent[i];
	}
	return i;
}

tfp_status
tfp_cluster_add_key(tfp_cluster *c, int64_t key)
{
	uint32_t	i;

	return lookup(c, key, &i);
}

tfp_status
tfp_cluster_add_pair(tfp_cluster *c, int64_t a, int64_t b)
{
	uint32_t	ia,
				ib;
	tfp_status	rc;

	c->npairs++;
	if ((rc = lookup(c, a, &ia)) != TFP_OK || (rc = lookup(c, b, &ib)) != TFP_OK)
		return rc;
	if (ia == ib)
		return TFP_OK;
	if (c->mode == TFP_CLUSTER_STAR)
	{
		if (c->nedges == c->edgecap)
		{
			size_t		newcap = c->edgecap ? c->edgecap * 2 : 1024;
			uint64_t   *e;

			if (newcap > SIZE_MAX / sizeof(uint64_t))
				return TFP_ENOMEM;
			e = tfp_grow(c->env, c->edges, c->edgecap * sizeof(uint64_t),
						 newcap * sizeof(uint64_t));
			if (e == NULL)
				return TFP_ENOMEM;
			c->edges = e;
			c->edgecap = newcap;
		}
		c->edges[c->nedges++] = ((uint64_t) ia << 32) | ib;
		return TFP_OK;
	}
	ia = find_root(c, ia);
	ib = find_root(c, ib);
	if (ia == ib)
		return TFP_OK;
	if (c->rank[ia] < c->rank[ib])
	{
		uint32_t	t = ia;

		ia = ib;
		ib = t;
	}
	/* ib goes under ia */
	c->parent[ib] = ia;
	if (c->rank[ia] == c->rank[ib])
		c->rank[ia]++;
	if (c->keys[c->minidx[ib]] < c->keys[c->minidx[ia]])
		c->minidx[ia] = c->minidx[ib];
	c->nunions++;
	return TFP_OK;
}

/*
 * Star mode: rank keys in ascending order, turn each edge into (lower rank,
 * higher rank), sort the edges, and let each original claim its neighbours.
 */
static tfp_status
finish_star(tfp_cluster *c)
{
	size_t		n = c->n;
	uint32_t   *rankof;
	tfp_status	rc;

	c->sorted = c->env->alloc(c->env->ctx, (n ? n : 1) * sizeof(int64_t));
	if (c->sorted == NULL)
		return TFP_ENOMEM;
	memcpy(c->sorted, c->keys, n * sizeof(int64_t));
	if ((rc = tfp_sort_u64(c->env, (uint64_t *) c->sorted, n, true)) != TFP_OK)
		return rc;
	rankof = c->env->alloc(c->env->ctx, (n ? n : 1) * sizeof(uint32_t));
	if (rankof == NULL)
		return TFP_ENOMEM;
	for (size_t r = 0; r < n; r++)
	{
		uint32_t	i = 0;

		/* every key is there: lookup only finds */
		(void) lookup(c, c->sorted[r], &i);
		rankof[i] = (uint32_t) r;
	}
	for (size_t e = 0; e < c->nedges; e++)
	{
		uint32_t	ra = rankof[c->edges[e] >> 32];
		uint32_t	rb = rankof[c->edges[e] & UINT32_MAX];

		if (ra > rb)
		{
			uint32_t	t = ra;

			ra = rb;
			rb = t;
		}
		c->edges[e] = ((uint64_t) ra << 32) | rb;
		tick(c);
	}
	release(c, rankof);
	if ((rc = tfp_sort_u64(c->env, c->edges, c->nedges, false)) != TFP_OK)
		return rc;
	c->claim = c->env->alloc(c->env->ctx, (n ? n : 1) * sizeof(uint32_t));
	if (c->claim == NULL)
		return TFP_ENOMEM;
	for (size_t r = 0; r < n; r++)
		c->claim[r] = NONE;
	for (size_t e = 0; e < c->nedges; e++)
	{
		uint32_t	ra = (uint32_t) (c->edges[e] >> 32);
		uint32_t	rb = (uint32_t) (c->edges[e] & UINT32_MAX);

		tick(c);
		if (c->claim[ra] == NONE)
			c->claim[ra] = ra;	/* nobody smaller claimed it: an original */
		if (c->claim[ra] != ra)
			continue;			/* a member of another story claims nothing */
		if (c->claim[rb] == NONE)
			c->claim[rb] = ra;
	}
	release(c, c->edges);
	c->edges = NULL;
	c->nedges = c->edgecap = 0;
	return TFP_OK;
}

tfp_status
tfp_cluster_finish(tfp_cluster *c)
{
	tfp_status	rc = TFP_OK;

	if (c->finished)
		return TFP_OK;
	if (c->mode == TFP_CLUSTER_STAR)
		rc = finish_star(c);
	else
	{
		/* point every key at its root, so that get() is a lookup */
		for (size_t i = 0; i < c->n; i++)
		{
			c->parent[i] = find_root(c, (uint32_t) i);
			tick(c);
		}
	}
	if (rc != TFP_OK)
		return rc;
	c->csize = c->env->alloc(c->env->ctx, (c->n ? c->n : 1) * sizeof(uint32_t));
	if (c->csize == NULL)
		return TFP_ENOMEM;
	tfp_clear(c->env, c->csize, (c->n ? c->n : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < c->n; i++)
	{
		if (c->mode == TFP_CLUSTER_STAR)
			c->csize[c->claim[i] == NONE ? i : c->claim[i]]++;
		else
			c->csize[find_root(c, (uint32_t) i)]++;
		tick(c);
	}
	c->finished = true;
	return TFP_OK;
}

void
tfp_cluster_get(tfp_cluster *c, size_t i, int64_t *key, int64_t *cluster_key,
				int64_t *cluster_size)
{
	if (c->mode == TFP_CLUSTER_STAR)
	{
		uint32_t	o = c->claim[i] == NONE ? (uint32_t) i : c->claim[i];

		*key = c->sorted[i];
		*cluster_key = c->sorted[o];
		*cluster_size = c->csize[o];
		return;
	}
	else
	{
		uint32_t	r = find_root(c, (uint32_t) i);

		*key = c->keys[i];
		*cluster_key = c->keys[c->minidx[r]];
		*cluster_size = c->csize[r];
	}
}
