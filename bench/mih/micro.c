/*
 * micro.c: the microbenchmark that chose the design of the mih access method
 * (issue 13).  In memory, no server: it builds, over the same codes,
 *
 *   gin   GIN whose entries carry the whole code: the entry key is (block
 *         number, 16-bit block value, the whole 64 bits), sorted as GIN's
 *         entry tree keeps them; a query probes the pigeonhole keys of
 *         blocks.c (4 blocks, the default of gin_simhash64_ops), finds each
 *         probe's first entry by binary search (the tree descent), and calls
 *         a comparePartial stand-in through a function pointer (GIN calls it
 *         through fmgr) on every entry of the probe's range, adding the
 *         matches to a hash set of row ids (the TID bitmap).  This is a lower
 *         bound of GIN's cost: no buffer pins, locks or page reads.
 *   mih   multi-index hashing: m tables of direct-addressed buckets holding
 *         contiguous codes (and row ids), probed with the plan of
 *         src/core/mih.c and verified with its popcount kernel.
 *
 * For each data set, table size, structure and radius it prints the median
 * time of a query, the probes, the candidates verified and the answers; every
 * answer is checked against a scan of all codes.  It also prints how evenly
 * the codes spread over each table's buckets: the mean size of the bucket a
 * random code falls into (sum of squared bucket sizes / rows), less the code
 * itself, against rows / 2^w, its value for codes spread evenly (Poisson).  A
 * probe lands where codes are, so that ratio is how many times more
 * candidates a probe meets than on uniform codes.
 *
 * Data sets: uniform (64 pseudo-random bits), clustered (bench/index's planted
 * families: blocks of ten ids, a root, 7 to 9 members with 1 to 6 bits
 * flipped, the rest unrelated), or codes from a file (16 hex digits a line, or
 * as the last tab-separated field, e.g. COPY of (id, fp) of text-like documents).
 *
 * Usage: micro [-n rows] [-q queries] [-m list] [-r list] [-s structures]
 *              [-d uniform|clustered|FILE]
 * Build: make -C bench/mih (or bench/mih/run.sh, which runs the grid).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfp_mih.h"

/* --- data -------------------------------------------------------------------- */

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* a mask of exactly d distinct bits */
static uint64_t
flip_mask(uint64_t *s, int d)
{
	uint64_t	m = 0;

	while (__builtin_popcountll(m) < d)
		m |= UINT64_C(1) << (splitmix64(s) & 63);
	return m;
}

static uint64_t *
make_codes(const char *dataset, size_t *n)
{
	uint64_t   *codes;
	uint64_t	s = 42;

	if (strcmp(dataset, "uniform") == 0 || strcmp(dataset, "clustered") == 0)
	{
		codes = malloc(sizeof(uint64_t) * *n);
		if (!codes)
			abort();
		for (size_t i = 0; i < *n; i++)
		{
			if (dataset[0] == 'u')
				codes[i] = splitmix64(&s);
			else
			{
				size_t		slot = i % 10;
				uint64_t	fs = (uint64_t) (i / 10) * 7919 + 1;
				uint64_t	root = splitmix64(&fs);
				int			members = 7 + (int) (splitmix64(&fs) % 3);

				if (slot == 0)
					codes[i] = root;
				else if ((int) slot <= members)
					codes[i] = root ^ flip_mask(&s, 1 + (int) (splitmix64(&s) % 6));
				else
					codes[i] = splitmix64(&s);
			}
		}
		return codes;
	}
	else
	{
		FILE	   *f = fopen(dataset, "r");
		size_t		cap = 1 << 20,
					k = 0;
		char		line[128];

		if (!f)
		{
			perror(dataset);
			exit(1);
		}
		codes = malloc(sizeof(uint64_t) * cap);
		while (k < *n && fgets(line, sizeof line, f))
		{
			uint64_t	v;
			char	   *field = strrchr(line, '\t');

			field = field ? field + 1 : line;
			if (!tfp_hex64_parse(field, strcspn(field, "\r\n"), &v))
				continue;
			if (k == cap)
			{
				cap *= 2;
				codes = realloc(codes, sizeof(uint64_t) * cap);
			}
			codes[k++] = v;
		}
		fclose(f);
		if (k < *n)
			fprintf(stderr, "micro: %s has %zu codes, fewer than %zu asked\n", dataset, k, *n);
		*n = k;
		return codes;
	}
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

/* --- the TID bitmap stand-in: an open-addressing set of row ids ------------- */

typedef struct
{
	uint32_t   *slot;
	uint32_t	mask;
	uint32_t	n;
	uint32_t   *used;			/* slots to clear */
	uint32_t	nused;
} idset;

static void
idset_init(idset *s, uint32_t cap_pow2)
{
	s->mask = cap_pow2 - 1;
	s->slot = malloc(sizeof(uint32_t) * cap_pow2);
	s->used = malloc(sizeof(uint32_t) * cap_pow2);
	memset(s->slot, 0xff, sizeof(uint32_t) * cap_pow2);
	s->n = s->nused = 0;
}

static void
idset_add(idset *s, uint32_t id)
{
	uint32_t	h = (id * 2654435761u) & s->mask;

	while (s->slot[h] != UINT32_MAX)
	{
		if (s->slot[h] == id)
			return;
		h = (h + 1) & s->mask;
	}
	if (s->nused > s->mask / 2)
		return;					/* full enough: a lossy bitmap would go lossy */
	s->slot[h] = id;
	s->used[s->nused++] = h;
	s->n++;
}

static void
idset_clear(idset *s)
{
	for (uint32_t i = 0; i < s->nused; i++)
		s->slot[s->used[i]] = UINT32_MAX;
	s->n = s->nused = 0;
}

/* --- gin: whole-code entries, partial match ------------------------------- */

typedef struct
{
	uint64_t	key;			/* block number << 32 | block value */
	uint64_t	code;
	uint32_t	id;
} gin_entry;

typedef struct
{
	tfp_blocks	b;
	gin_entry  *e;
	size_t		n;
} gin_index;

static int
cmp_gin(const void *a, const void *b)
{
	const gin_entry *x = a,
			   *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static void
gin_build(gin_index *g, const uint64_t *codes, size_t n)
{
	tfp_blocks_init(&g->b, 4);
	g->n = n * 4;
	g->e = malloc(sizeof(gin_entry) * g->n);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
		{
			gin_entry  *e = &g->e[i * 4 + k];

			e->key = (uint64_t) tfp_block_key(k, tfp_block_value(&g->b, k, codes[i]));
			e->code = codes[i];
			e->id = (uint32_t) i;
		}
	qsort(g->e, g->n, sizeof(gin_entry), cmp_gin);
}

/* comparePartial: called through a pointer, as fmgr calls it */
typedef int (*partial_fn) (uint64_t code, uint64_t q, int r);

__attribute__((noinline))
static int
gin_compare_partial(uint64_t code, uint64_t q, int r)
{
	return __builtin_popcountll(code ^ q) <= r ? 0 : 1;
}

static partial_fn volatile gin_partial = gin_compare_partial;

static void
gin_query(const gin_index *g, uint64_t q, int r, idset *out,
		  uint64_t *probes, uint64_t *cands)
{
	uint8_t		t[TFP_BLOCKS_MAX];
	uint64_t	np = tfp_blocks_plan(&g->b, r, t);
	static uint32_t vals[1 << 16];
	static uint8_t dist[1 << 16];

	*probes = np;
	*cands = 0;
	if (np > TFP_PROBES_MAX)
	{
		/* the whole index, one block's entries: every code once */
		for (size_t j = 0; j < g->n; j++)
			if ((g->e[j].key >> 32) == 0)
			{
				(*cands)++;
				if (gin_partial(g->e[j].code, q, r) == 0)
					idset_add(out, g->e[j].id);
			}
		return;
	}
	for (int i = 0; i < g->b.m; i++)
	{
		size_t		k = tfp_ball_values(tfp_block_value(&g->b, i, q), g->b.width[i],
										t[i], vals, dist);

		for (size_t p = 0; p < k; p++)
		{
			uint64_t	key = (uint64_t) tfp_block_key(i, vals[p]);
			size_t		lo = 0,
						hi = g->n;

			while (lo < hi)
			{
				size_t		mid = (lo + hi) / 2;

				if (g->e[mid].key < key)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < g->n && g->e[lo].key == key; lo++)
			{
				(*cands)++;
				if (gin_partial(g->e[lo].code, q, r) == 0)
					idset_add(out, g->e[lo].id);
			}
		}
	}
}

/* --- mih: m tables of contiguous buckets ---------------------------------- */

typedef struct
{
	uint32_t   *start;			/* 2^w + 1 */
	uint64_t   *codes;
	uint32_t   *ids;
} mih_table;

typedef struct
{
	tfp_mih_layout l;
	mih_table	t[TFP_MIH_M_MAX];
	size_t		n;
} mih_index;

static void
mih_build(mih_index *x, const uint64_t *codes, size_t n, int m)
{
	tfp_mih_layout_init(&x->l, m);
	x->n = n;
	for (int i = 0; i < m; i++)
	{
		size_t		nb = (size_t) 1 << x->l.width[i];
		mih_table  *t = &x->t[i];
		uint32_t   *pos;

		t->start = calloc(nb + 1, sizeof(uint32_t));
		t->codes = malloc(sizeof(uint64_t) * n);
		t->ids = malloc(sizeof(uint32_t) * n);
		for (size_t j = 0; j < n; j++)
			t->start[tfp_mih_substring(&x->l, i, codes[j]) + 1]++;
		for (size_t v = 0; v < nb; v++)
			t->start[v + 1] += t->start[v];
		pos = malloc(sizeof(uint32_t) * nb);
		memcpy(pos, t->start, sizeof(uint32_t) * nb);
		for (size_t j = 0; j < n; j++)
		{
			uint32_t	v = tfp_mih_substring(&x->l, i, codes[j]);

			t->codes[pos[v]] = codes[j];
			t->ids[pos[v]] = (uint32_t) j;
			pos[v]++;
		}
		free(pos);
	}
}

static void
mih_free(mih_index *x)
{
	for (int i = 0; i < x->l.m; i++)
	{
		free(x->t[i].start);
		free(x->t[i].codes);
		free(x->t[i].ids);
	}
}

static uint16_t hits[65536];

/* verifies codes[a..b) of table i, counting what table i reports */
static uint64_t
mih_slice(const mih_index *x, const tfp_mih_plan *p, int i, uint32_t a, uint32_t b,
		  uint64_t q, int r)
{
	const mih_table *t = &x->t[i];
	uint64_t	found = 0;

	while (a < b)
	{
		uint32_t	len = b - a > 65535 ? 65535 : b - a;
		size_t		k = tfp_mih_verify(t->codes + a, len, q, r, hits);

		for (size_t h = 0; h < k; h++)
			found += tfp_mih_emit(&x->l, p, i, t->codes[a + hits[h]], q);
		a += len;
	}
	return found;
}

static uint64_t
mih_query(const mih_index *x, uint64_t q, int r, const tfp_mih_costs *c,
		  uint64_t *probes, uint64_t *cands)
{
	tfp_mih_plan p;
	uint64_t	found = 0;
	static uint32_t vals[1 << 16];
	static uint8_t dist[1 << 16];

	tfp_mih_plan_query(&x->l, r, (double) x->n, c, &p);
	*probes = p.probes;
	*cands = 0;
	if (p.full_pass)
	{
		*cands = x->n;
		return mih_slice(x, &p, 0, 0, (uint32_t) x->n, q, r);
	}
	for (int i = 0; i < x->l.m; i++)
	{
		size_t		k;

		if (p.t[i] < 0)
			continue;
		k = tfp_ball_values(tfp_mih_substring(&x->l, i, q), x->l.width[i], p.t[i], vals, dist);
		for (size_t j = 0; j < k; j++)
		{
			uint32_t	a = x->t[i].start[vals[j]],
						b = x->t[i].start[vals[j] + 1];

			*cands += b - a;
			found += mih_slice(x, &p, i, a, b, q, r);
		}
	}
	return found;
}

/* how unevenly codes spread over each table's buckets */
static void
mih_skew(const mih_index *x, const char *dataset)
{
	for (int i = 0; i < x->l.m; i++)
	{
		size_t		nb = (size_t) 1 << x->l.width[i];
		double		sq = 0,
					even = (double) x->n / (double) nb;
		uint32_t	maxb = 0;
		size_t		empty = 0;

		for (size_t v = 0; v < nb; v++)
		{
			uint32_t	s = x->t[i].start[v + 1] - x->t[i].start[v];

			sq += (double) s * s;
			if (s > maxb)
				maxb = s;
			empty += s == 0;
		}
		printf("skew\t%s\t%zu\t%d\t%d\t%d\t%.1f\t%.1f\t%.2f\t%u\t%.3f\n",
			   dataset, x->n, x->l.m, i, x->l.width[i], even, sq / (double) x->n,
			   (sq / (double) x->n - 1) / even, maxb, (double) empty / (double) nb);
	}
}

/* --- driver ------------------------------------------------------------------ */

static int
parse_list(const char *s, int *out, int max)
{
	int			n = 0;

	while (*s && n < max)
	{
		out[n++] = (int) strtol(s, (char **) &s, 10);
		while (*s == ',')
			s++;
	}
	return n;
}

int
main(int argc, char **argv)
{
	size_t		n = 1000000;
	int			nq = 200;
	int			ms[16] = {4, 5, 6, 7, 8};
	int			nm = 5;
	int			rs[16] = {3, 6, 10, 16};
	int			nr = 4;
	const char *structs = "gin,mih";
	const char *dataset = "uniform";
	uint64_t   *codes,
			   *queries;
	uint64_t   *truth;
	const tfp_mih_costs *c = &tfp_mih_default_costs;
	uint64_t	s = 7;
	idset		ids;

	for (int a = 1; a + 1 < argc; a += 2)
	{
		if (strcmp(argv[a], "-n") == 0)
			n = strtoull(argv[a + 1], NULL, 10);
		else if (strcmp(argv[a], "-q") == 0)
			nq = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "-m") == 0)
			nm = parse_list(argv[a + 1], ms, 16);
		else if (strcmp(argv[a], "-r") == 0)
			nr = parse_list(argv[a + 1], rs, 16);
		else if (strcmp(argv[a], "-s") == 0)
			structs = argv[a + 1];
		else if (strcmp(argv[a], "-d") == 0)
			dataset = argv[a + 1];
		else
		{
			fprintf(stderr, "usage: micro [-n rows] [-q queries] [-m list] [-r list] [-s gin,mih] [-d uniform|clustered|FILE]\n");
			return 2;
		}
	}
	codes = make_codes(dataset, &n);
	if (n == 0 || nq <= 0)
		return 1;

	/* half near queries (a row with 1 or 2 bits flipped), half far (random) */
	queries = malloc(sizeof(uint64_t) * nq);
	for (int k = 0; k < nq; k++)
		queries[k] = k % 2 == 0 ?
			codes[splitmix64(&s) % n] ^ flip_mask(&s, 1 + (k / 2) % 2) :
			splitmix64(&s);

	/* the truth for every radius, from one pass over the codes */
	truth = calloc((size_t) nq * 65, sizeof(uint64_t));
	for (int k = 0; k < nq; k++)
		for (size_t j = 0; j < n; j++)
			truth[k * 65 + __builtin_popcountll(codes[j] ^ queries[k])]++;
	for (int k = 0; k < nq; k++)
		for (int d = 1; d <= 64; d++)
			truth[k * 65 + d] += truth[k * 65 + d - 1];

	idset_init(&ids, 1u << 24);
	printf("# dataset rows structure m radius median_us p90_us probes candidates answers mismatches\n");

	if (strstr(structs, "gin"))
	{
		gin_index g;
		double	   *us = malloc(sizeof(double) * nq);

		gin_build(&g, codes, n);
		for (int ri = 0; ri < nr; ri++)
		{
			uint64_t	sp = 0,
						sc = 0,
						sa = 0,
						bad = 0;

			for (int k = 0; k < nq; k++)
			{
				uint64_t	pr,
							ca;
				double		t0 = now_us();

				gin_query(&g, queries[k], rs[ri], &ids, &pr, &ca);
				us[k] = now_us() - t0;
				sp += pr;
				sc += ca;
				sa += ids.n;
				bad += ids.n != truth[k * 65 + rs[ri]];
				idset_clear(&ids);
			}
			qsort(us, nq, sizeof(double), cmp_double);
			printf("query\t%s\t%zu\tgin\t4\t%d\t%.1f\t%.1f\t%.0f\t%.0f\t%.1f\t%" PRIu64 "\n",
				   dataset, n, rs[ri], us[nq / 2], us[nq * 9 / 10],
				   (double) sp / nq, (double) sc / nq, (double) sa / nq, bad);
			fflush(stdout);
		}
		free(g.e);
		free(us);
	}

	if (strstr(structs, "mih"))
	{
		double	   *us = malloc(sizeof(double) * nq);

		for (int mi = 0; mi < nm; mi++)
		{
			mih_index x;

			if (ms[mi] < TFP_MIH_M_MIN || ms[mi] > TFP_MIH_M_MAX)
				continue;
			mih_build(&x, codes, n, ms[mi]);
			mih_skew(&x, dataset);
			for (int ri = 0; ri < nr; ri++)
			{
				uint64_t	sp = 0,
							sc = 0,
							sa = 0,
							bad = 0;

				for (int k = 0; k < nq; k++)
				{
					uint64_t	pr,
								ca,
								found;
					double		t0 = now_us();

					found = mih_query(&x, queries[k], rs[ri], c, &pr, &ca);
					us[k] = now_us() - t0;
					sp += pr;
					sc += ca;
					sa += found;
					bad += found != truth[k * 65 + rs[ri]];
				}
				qsort(us, nq, sizeof(double), cmp_double);
				printf("query\t%s\t%zu\tmih\t%d\t%d\t%.1f\t%.1f\t%.0f\t%.0f\t%.1f\t%" PRIu64 "\n",
					   dataset, n, ms[mi], rs[ri], us[nq / 2], us[nq * 9 / 10],
					   (double) sp / nq, (double) sc / nq, (double) sa / nq, bad);
				fflush(stdout);
			}
			mih_free(&x);
		}
		free(us);
	}
	return 0;
}
