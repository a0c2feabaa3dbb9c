/*
 * simhash64_spgist.c: SP-GiST operator class for simhash64
 * (spgist_simhash64_ops), a radix trie over the fingerprint's bits.
 *
 * Each inner tuple splits on the next 4 bits (nodes labelled with their
 * value), so the path to a node fixes its leading bits, and the number of
 * them that differ from the query is an exact lower bound of the distance to
 * everything below.  The level counts bits consumed.  SP-GiST keeps leaf
 * chains short, so leaves hold fewer fingerprints per bound than GiST pages.
 *
 * When picksplit cannot separate values (all share the next 4 bits), the
 * core makes an "all the same" tuple whose nodes all carry that label.  A
 * value with other bits arriving there needs spgSplitTuple: the new upper
 * tuple takes over the label, and the old tuple, now below it, is marked
 * with a prefix as a pass-through that consumes no bits.
 */
#include "postgres.h"

#include "access/spgist.h"
#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"

#include "textfp.h"

#define CHUNK_BITS 4
#define PASS_THROUGH 1			/* prefix value of a pass-through tuple */

static inline int
chunk_at(uint64 v, int level)
{
	return level >= SIMHASH_BITS ? 0 : (int) ((v >> (SIMHASH_BITS - CHUNK_BITS - level)) & 0xF);
}

/* The leading bits fixed after consuming level bits. */
static inline uint64
top_mask(int level)
{
	if (level <= 0)
		return 0;
	if (level >= SIMHASH_BITS)
		return ~UINT64CONST(0);
	return ~UINT64CONST(0) << (SIMHASH_BITS - level);
}

static inline uint64
with_chunk(uint64 path, int level, int chunk)
{
	return level >= SIMHASH_BITS ? path :
		path | ((uint64) chunk << (SIMHASH_BITS - CHUNK_BITS - level));
}

PG_FUNCTION_INFO_V1(spgist_simhash64_config);
Datum
spgist_simhash64_config(PG_FUNCTION_ARGS)
{
	spgConfigIn *cfgin = (spgConfigIn *) PG_GETARG_POINTER(0);
	spgConfigOut *cfg = (spgConfigOut *) PG_GETARG_POINTER(1);

	cfg->prefixType = INT2OID;
	cfg->labelType = INT2OID;
	cfg->leafType = cfgin->attType;
	cfg->canReturnData = true;
	cfg->longValuesOK = false;
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(spgist_simhash64_choose);
Datum
spgist_simhash64_choose(PG_FUNCTION_ARGS)
{
	spgChooseIn *in = (spgChooseIn *) PG_GETARG_POINTER(0);
	spgChooseOut *out = (spgChooseOut *) PG_GETARG_POINTER(1);
	int			c = chunk_at(DatumGetSimhash64(in->datum), in->level);

	if (in->hasPrefix)
	{
		/* pass-through: any node, no bits consumed */
		out->resultType = spgMatchNode;
		out->result.matchNode.nodeN = 0;
		out->result.matchNode.levelAdd = 0;
		out->result.matchNode.restDatum = in->leafDatum;
		PG_RETURN_VOID();
	}
	for (int i = 0; i < in->nNodes; i++)
	{
		if (DatumGetInt16(in->nodeLabels[i]) == c || in->level >= SIMHASH_BITS)
		{
			out->resultType = spgMatchNode;
			out->result.matchNode.nodeN = i;	/* ignored when allTheSame */
			out->result.matchNode.levelAdd = CHUNK_BITS;
			out->result.matchNode.restDatum = in->leafDatum;
			PG_RETURN_VOID();
		}
	}
	if (in->allTheSame)
	{
		out->resultType = spgSplitTuple;
		out->result.splitTuple.prefixHasPrefix = false;
		out->result.splitTuple.prefixNNodes = 1;
		out->result.splitTuple.prefixNodeLabels = (Datum *) palloc(sizeof(Datum));
		out->result.splitTuple.prefixNodeLabels[0] = in->nodeLabels[0];
		out->result.splitTuple.childNodeN = 0;
		out->result.splitTuple.postfixHasPrefix = true;
		out->result.splitTuple.postfixPrefixDatum = Int16GetDatum(PASS_THROUGH);
		PG_RETURN_VOID();
	}
	out->resultType = spgAddNode;
	out->result.addNode.nodeLabel = Int16GetDatum((int16) c);
	out->result.addNode.nodeN = in->nNodes;
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(spgist_simhash64_picksplit);
Datum
spgist_simhash64_picksplit(PG_FUNCTION_ARGS)
{
	spgPickSplitIn *in = (spgPickSplitIn *) PG_GETARG_POINTER(0);
	spgPickSplitOut *out = (spgPickSplitOut *) PG_GETARG_POINTER(1);
	int			node_of_chunk[16];

	for (int c = 0; c < 16; c++)
		node_of_chunk[c] = -1;
	out->hasPrefix = false;
	out->nNodes = 0;
	out->nodeLabels = (Datum *) palloc(16 * sizeof(Datum));
	out->mapTuplesToNodes = (int *) palloc(in->nTuples * sizeof(int));
	out->leafTupleDatums = (Datum *) palloc(in->nTuples * sizeof(Datum));
	for (int i = 0; i < in->nTuples; i++)
	{
		int			c = chunk_at(DatumGetSimhash64(in->datums[i]), in->level);

		if (node_of_chunk[c] < 0)
		{
			node_of_chunk[c] = out->nNodes;
			out->nodeLabels[out->nNodes++] = Int16GetDatum((int16) c);
		}
		out->mapTuplesToNodes[i] = node_of_chunk[c];
		out->leafTupleDatums[i] = in->datums[i];
	}
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(spgist_simhash64_inner_consistent);
Datum
spgist_simhash64_inner_consistent(PG_FUNCTION_ARGS)
{
	spgInnerConsistentIn *in = (spgInnerConsistentIn *) PG_GETARG_POINTER(0);
	spgInnerConsistentOut *out = (spgInnerConsistentOut *) PG_GETARG_POINTER(1);
	uint64		path = in->level > 0 ? DatumGetSimhash64(in->reconstructedValue) : 0;
	bool		pass = in->hasPrefix;
	int			level_add = pass ? 0 : CHUNK_BITS;
	uint64		mask = top_mask(in->level + level_add);

	out->nNodes = 0;
	out->nodeNumbers = (int *) palloc(in->nNodes * sizeof(int));
	out->levelAdds = (int *) palloc(in->nNodes * sizeof(int));
	out->reconstructedValues = (Datum *) palloc(in->nNodes * sizeof(Datum));
	if (in->norderbys > 0)
		out->distances = (double **) palloc(in->nNodes * sizeof(double *));

	for (int i = 0; i < in->nNodes; i++)
	{
		uint64		node_path = pass ? path :
			with_chunk(path, in->level, DatumGetInt16(in->nodeLabels[i]));
		bool		keep = true;

		for (int k = 0; k < in->nkeys && keep; k++)
		{
			uint64		center;
			int			radius = simhash_query_radius(in->scankeys[k].sk_strategy,
											   in->scankeys[k].sk_argument, &center);

			keep = tfp_popcount64((node_path ^ center) & mask) <= radius;
		}
		if (!keep)
			continue;
		out->nodeNumbers[out->nNodes] = i;
		out->levelAdds[out->nNodes] = level_add;
		out->reconstructedValues[out->nNodes] = Simhash64GetDatum(node_path);
		if (in->norderbys > 0)
		{
			double	   *d = (double *) palloc(in->norderbys * sizeof(double));

			for (int k = 0; k < in->norderbys; k++)
				d[k] = tfp_popcount64((node_path ^ DatumGetSimhash64(in->orderbys[k].sk_argument)) & mask);
			out->distances[out->nNodes] = d;
		}
		out->nNodes++;
	}
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(spgist_simhash64_leaf_consistent);
Datum
spgist_simhash64_leaf_consistent(PG_FUNCTION_ARGS)
{
	spgLeafConsistentIn *in = (spgLeafConsistentIn *) PG_GETARG_POINTER(0);
	spgLeafConsistentOut *out = (spgLeafConsistentOut *) PG_GETARG_POINTER(1);
	uint64		v = DatumGetSimhash64(in->leafDatum);

	out->recheck = false;
	out->recheckDistances = false;
	out->leafValue = in->leafDatum;
	for (int k = 0; k < in->nkeys; k++)
	{
		uint64		center;
		int			radius = simhash_query_radius(in->scankeys[k].sk_strategy,
											   in->scankeys[k].sk_argument, &center);

		if (tfp_hamming64(v, center) > radius)
			PG_RETURN_BOOL(false);
	}
	if (in->norderbys > 0)
	{
		out->distances = (double *) palloc(in->norderbys * sizeof(double));
		for (int k = 0; k < in->norderbys; k++)
			out->distances[k] = tfp_hamming64(v, DatumGetSimhash64(in->orderbys[k].sk_argument));
	}
	PG_RETURN_BOOL(true);
}
