/*
 * simhash64_gin.c: GIN operator class for simhash64 (gin_simhash64_ops).
 *
 * Each fingerprint is indexed under m keys, (block number, block value), for
 * the m pigeonhole blocks of src/core/blocks.c (opclass option "blocks").  A
 * radius-r query probes, in each block, the values within that block's probe
 * radius; every answer matches at least one probe.  The consistent functions
 * add up a lower bound of the distance over the blocks (the probe distance
 * where a probe matched, one more than the probe radius where none did) and
 * reject rows whose bound exceeds r, so most candidates never reach the heap.
 * The recheck makes the answer exact.  Queries that would need more than
 * TFP_PROBES_MAX probes scan the whole index instead.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/reloptions.h"
#include "access/stratnum.h"

#include "textfp.h"

typedef struct GinSimhashOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			blocks;
} GinSimhashOptions;

/* One query's probes, shared by all its keys through extra_data. */
typedef struct GinSimhashQuery
{
	int			radius;
	int			m;
	uint8		miss[TFP_BLOCKS_MAX];	/* bound of a block no probe matched */
	uint8	   *block;			/* per key: its block */
	uint8	   *dist;			/* per key: its distance from the query */
} GinSimhashQuery;

static void
init_blocks(FunctionCallInfo fcinfo, tfp_blocks *b)
{
	int			m = TFP_BLOCKS_DEFAULT;

	if (PG_HAS_OPCLASS_OPTIONS())
		m = ((GinSimhashOptions *) PG_GET_OPCLASS_OPTIONS())->blocks;
	tfp_blocks_init(b, m);
}

PG_FUNCTION_INFO_V1(gin_simhash64_options);
Datum
gin_simhash64_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(GinSimhashOptions));
	add_local_int_reloption(relopts, "blocks",
							"number of blocks the 64 bits are split into",
							TFP_BLOCKS_DEFAULT, TFP_BLOCKS_MIN, TFP_BLOCKS_MAX,
							offsetof(GinSimhashOptions, blocks));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gin_simhash64_extract_value);
Datum
gin_simhash64_extract_value(PG_FUNCTION_ARGS)
{
	uint64		v = PG_GETARG_SIMHASH64(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	tfp_blocks	b;
	Datum	   *keys;

	init_blocks(fcinfo, &b);
	keys = (Datum *) palloc(sizeof(Datum) * b.m);
	for (int i = 0; i < b.m; i++)
		keys[i] = Int64GetDatum(tfp_block_key(i, tfp_block_value(&b, i, v)));
	*nentries = b.m;
	PG_RETURN_POINTER(keys);
}

PG_FUNCTION_INFO_V1(gin_simhash64_extract_query);
Datum
gin_simhash64_extract_query(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	uint64		center;
	int			radius = simhash_query_radius(strategy, PG_GETARG_DATUM(0), &center);
	tfp_blocks	b;
	uint8		t[TFP_BLOCKS_MAX];
	uint64		nprobes;
	GinSimhashQuery *q;
	Datum	   *keys;
	uint32	   *values;
	int			n = 0;

	init_blocks(fcinfo, &b);
	nprobes = tfp_blocks_plan(&b, radius, t);
	if (nprobes > TFP_PROBES_MAX)
	{
		/* too many probes to pay: every row is a candidate, rechecked */
		*nentries = 0;
		*searchMode = GIN_SEARCH_MODE_ALL;
		PG_RETURN_POINTER(NULL);
	}

	q = (GinSimhashQuery *) palloc(sizeof(GinSimhashQuery));
	q->radius = radius;
	q->m = b.m;
	q->block = (uint8 *) palloc(nprobes);
	q->dist = (uint8 *) palloc(nprobes);
	keys = (Datum *) palloc(sizeof(Datum) * nprobes);
	values = (uint32 *) palloc(sizeof(uint32) * nprobes);
	for (int i = 0; i < b.m; i++)
	{
		size_t		k = tfp_ball_values(tfp_block_value(&b, i, center),
										b.width[i], t[i],
										values + n, q->dist + n);

		q->miss[i] = t[i] + 1;
		for (size_t j = 0; j < k; j++)
		{
			keys[n + j] = Int64GetDatum(tfp_block_key(i, values[n + j]));
			q->block[n + j] = (uint8) i;
		}
		n += (int) k;
	}
	Assert(n == (int) nprobes);

	*extra_data = (Pointer *) palloc(sizeof(Pointer) * n);
	for (int i = 0; i < n; i++)
		(*extra_data)[i] = (Pointer) q;
	*nentries = n;
	*searchMode = GIN_SEARCH_MODE_DEFAULT;
	PG_RETURN_POINTER(keys);
}

PG_FUNCTION_INFO_V1(gin_simhash64_consistent);
Datum
gin_simhash64_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	const GinSimhashQuery *q;
	uint8		bound[TFP_BLOCKS_MAX];
	bool		all_matched = true;
	int			sum = 0;

	*recheck = true;
	if (nkeys == 0)
		PG_RETURN_BOOL(true);	/* whole-index scan */
	q = (const GinSimhashQuery *) extra_data[0];
	memcpy(bound, q->miss, q->m);
	for (int i = 0; i < nkeys; i++)
		if (check[i] && q->dist[i] < bound[q->block[i]])
			bound[q->block[i]] = q->dist[i];
	for (int i = 0; i < q->m; i++)
	{
		sum += bound[i];
		if (bound[i] == q->miss[i])
			all_matched = false;
	}
	/* with a probe matched in every block, the sum is the distance itself */
	*recheck = !all_matched;
	PG_RETURN_BOOL(sum <= q->radius);
}

PG_FUNCTION_INFO_V1(gin_simhash64_triconsistent);
Datum
gin_simhash64_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	const GinSimhashQuery *q;
	uint8		sure[TFP_BLOCKS_MAX];	/* distance of a block's TRUE probe */
	uint8		maybe[TFP_BLOCKS_MAX];	/* least distance of its MAYBE probes */
	bool		all_sure = true;
	int			sum = 0;

	if (nkeys == 0)
		PG_RETURN_GIN_TERNARY_VALUE(GIN_MAYBE);
	q = (const GinSimhashQuery *) extra_data[0];
	memcpy(sure, q->miss, q->m);
	memcpy(maybe, q->miss, q->m);
	for (int i = 0; i < nkeys; i++)
	{
		uint8	   *slot = check[i] == GIN_TRUE ? sure :
			check[i] == GIN_MAYBE ? maybe : NULL;

		if (slot && q->dist[i] < slot[q->block[i]])
			slot[q->block[i]] = q->dist[i];
	}
	for (int i = 0; i < q->m; i++)
	{
		/* a block holds one value: with a TRUE probe, its MAYBEs are false */
		if (sure[i] < q->miss[i])
			sum += sure[i];
		else
		{
			sum += maybe[i];
			all_sure = false;
		}
	}
	if (sum > q->radius)
		PG_RETURN_GIN_TERNARY_VALUE(GIN_FALSE);
	PG_RETURN_GIN_TERNARY_VALUE(all_sure ? GIN_TRUE : GIN_MAYBE);
}
