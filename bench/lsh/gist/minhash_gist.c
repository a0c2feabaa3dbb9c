/*
 * minhash_gist.c: a PROTOTYPE bloom-style GiST operator class for
 * minhash_sig, measured for issue 14 (bench/lsh/gist/run.sh builds it into a
 * copy of textfp); not part of the extension: at 1M rows it beat a sequential
 * scan only at high thresholds, where GIN is faster still, and lost to a scan
 * at 0.3 and for KNN (docs/benchmarks.md).
 *
 * A key is a Bloom filter of siglen bytes over (position, value) pairs: a
 * leaf's holds its signature's k pairs, an inner key the OR of its children.
 * A row below a key can have a position equal to the query's only where the
 * filter has the query's (position, value) bit, so the count of such
 * positions bounds the equal positions from above: prune when it is below
 * needed(t, k); for ORDER BY <%>, 1 - count / k bounds the distance from
 * below.  Leaves are lossy too: every answer is rechecked.
 */
#include "postgres.h"

#include "access/gist.h"
#include "access/reloptions.h"
#include "access/stratnum.h"
#include "port/pg_bitutils.h"

#include "textfp.h"

#define MH_GIST_SIGLEN_DEFAULT 256
#define MH_GIST_SIGLEN_MAX 2024
#define MH_GIST_DISTANCE_STRATEGY 15

typedef struct MhGistOptions
{
	int32		vl_len_;
	int			siglen;
} MhGistOptions;

typedef struct MhBloom
{
	int32		vl_len_;
	uint8		bits[FLEXIBLE_ARRAY_MEMBER];
} MhBloom;

#define BLOOM_SIZE(siglen) (offsetof(MhBloom, bits) + (siglen))

static int
get_siglen(FunctionCallInfo fcinfo)
{
	if (PG_HAS_OPCLASS_OPTIONS())
		return ((MhGistOptions *) PG_GET_OPCLASS_OPTIONS())->siglen;
	return MH_GIST_SIGLEN_DEFAULT;
}

static inline uint32
pair_bit(int pos, uint32 value, int nbits)
{
	uint64		z = ((uint64) (uint32) pos << 32 | value) * UINT64CONST(0x9e3779b97f4a7c15);

	z ^= z >> 29;
	z *= UINT64CONST(0xbf58476d1ce4e5b9);
	z ^= z >> 32;
	return (uint32) (((z & 0xffffffff) * (uint64) nbits) >> 32);
}

static MhBloom *
bloom_new(int siglen)
{
	MhBloom    *b = palloc0(BLOOM_SIZE(siglen));

	SET_VARSIZE(b, BLOOM_SIZE(siglen));
	return b;
}

static int
possible_matches(const MhBloom *b, const MinhashSig *q, int siglen)
{
	int			n = 0;
	int			nbits = siglen * 8;

	for (int i = 0; i < q->k; i++)
	{
		uint32		bit = pair_bit(i, q->values[i], nbits);

		n += (b->bits[bit >> 3] >> (bit & 7)) & 1;
	}
	return n;
}

PG_FUNCTION_INFO_V1(gist_minhash_key_in);
Datum
gist_minhash_key_in(PG_FUNCTION_ARGS)
{
	ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("cannot accept a value of type %s", "gist_minhash_key")));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gist_minhash_key_out);
Datum
gist_minhash_key_out(PG_FUNCTION_ARGS)
{
	MhBloom    *b = (MhBloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	int			ones = 0;

	for (int i = 0; i < (int) (VARSIZE(b) - VARHDRSZ); i++)
		ones += pg_popcount32(b->bits[i]);
	PG_RETURN_CSTRING(psprintf("(bloom %d bytes, %d bits set)", (int) (VARSIZE(b) - VARHDRSZ), ones));
}

PG_FUNCTION_INFO_V1(gist_minhash_options);
Datum
gist_minhash_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(MhGistOptions));
	add_local_int_reloption(relopts, "siglen", "bloom filter length in bytes",
							MH_GIST_SIGLEN_DEFAULT, 8, MH_GIST_SIGLEN_MAX,
							offsetof(MhGistOptions, siglen));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gist_minhash_compress);
Datum
gist_minhash_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	int			siglen = get_siglen(fcinfo);

	if (entry->leafkey)
	{
		MinhashSig *sig = DatumGetMinhashSigP(entry->key);
		MhBloom    *b = bloom_new(siglen);
		GISTENTRY  *ret = palloc(sizeof(GISTENTRY));

		for (int i = 0; i < sig->k; i++)
		{
			uint32		bit = pair_bit(i, sig->values[i], siglen * 8);

			b->bits[bit >> 3] |= (uint8) (1 << (bit & 7));
		}
		gistentryinit(*ret, PointerGetDatum(b), entry->rel, entry->page, entry->offset, false);
		PG_RETURN_POINTER(ret);
	}
	PG_RETURN_POINTER(entry);
}

PG_FUNCTION_INFO_V1(gist_minhash_decompress);
Datum
gist_minhash_decompress(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(PG_GETARG_POINTER(0));
}

/* needed equal positions of the query, and its signature */
static const MinhashSig *
query_of(StrategyNumber strategy, Datum d, int *needed)
{
	switch (strategy)
	{
		case MINHASH_EQ_STRATEGY:
			{
				MinhashSig *q = DatumGetMinhashSigP(d);

				*needed = q->k;
				return q;
			}
		case MINHASH_NEAR_STRATEGY:
			{
				MinhashSig *q = DatumGetMinhashSigP(d);

				*needed = tfp_jaccard_needed(textfp_jaccard_threshold, q->k);
				return q;
			}
		case MINHASH_WITHIN_STRATEGY:
			{
				JaccardBall *b = DatumGetJaccardBallP(d);

				*needed = tfp_jaccard_needed(b->threshold, b->sig.k);
				return &b->sig;
			}
	}
	elog(ERROR, "unrecognized strategy number: %d", strategy);
	return NULL;
}

PG_FUNCTION_INFO_V1(gist_minhash_consistent);
Datum
gist_minhash_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	MhBloom    *b = (MhBloom *) DatumGetPointer(entry->key);
	int			needed;
	const MinhashSig *q = query_of(strategy, PG_GETARG_DATUM(1), &needed);

	*recheck = true;
	PG_RETURN_BOOL(possible_matches(b, q, get_siglen(fcinfo)) >= needed);
}

PG_FUNCTION_INFO_V1(gist_minhash_distance);
Datum
gist_minhash_distance(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	MinhashSig *q = PG_GETARG_MINHASH_SIG_P(1);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	MhBloom    *b = (MhBloom *) DatumGetPointer(entry->key);

	*recheck = true;
	PG_RETURN_FLOAT8(1.0 - (double) possible_matches(b, q, get_siglen(fcinfo)) / q->k);
}

PG_FUNCTION_INFO_V1(gist_minhash_union);
Datum
gist_minhash_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *ev = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *size = (int *) PG_GETARG_POINTER(1);
	int			siglen = get_siglen(fcinfo);
	MhBloom    *u = bloom_new(siglen);

	for (int i = 0; i < ev->n; i++)
	{
		MhBloom    *b = (MhBloom *) DatumGetPointer(ev->vector[i].key);

		for (int j = 0; j < siglen; j++)
			u->bits[j] |= b->bits[j];
	}
	*size = BLOOM_SIZE(siglen);
	PG_RETURN_POINTER(u);
}

PG_FUNCTION_INFO_V1(gist_minhash_same);
Datum
gist_minhash_same(PG_FUNCTION_ARGS)
{
	MhBloom    *a = (MhBloom *) PG_GETARG_POINTER(0);
	MhBloom    *b = (MhBloom *) PG_GETARG_POINTER(1);
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = VARSIZE(a) == VARSIZE(b) && memcmp(a->bits, b->bits, VARSIZE(a) - VARHDRSZ) == 0;
	PG_RETURN_POINTER(result);
}

/* bits b would add to a */
static int
added_bits(const MhBloom *a, const MhBloom *b, int siglen)
{
	int			n = 0;

	for (int j = 0; j < siglen; j++)
		n += pg_popcount32((uint8) (b->bits[j] & ~a->bits[j]));
	return n;
}

static int
hamming(const MhBloom *a, const MhBloom *b, int siglen)
{
	int			n = 0;

	for (int j = 0; j < siglen; j++)
		n += pg_popcount32((uint8) (a->bits[j] ^ b->bits[j]));
	return n;
}

PG_FUNCTION_INFO_V1(gist_minhash_penalty);
Datum
gist_minhash_penalty(PG_FUNCTION_ARGS)
{
	GISTENTRY  *orig = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *add = (GISTENTRY *) PG_GETARG_POINTER(1);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);

	*penalty = (float) added_bits((MhBloom *) DatumGetPointer(orig->key),
								  (MhBloom *) DatumGetPointer(add->key), get_siglen(fcinfo));
	PG_RETURN_POINTER(penalty);
}

/* Guttman-style: the two farthest entries seed the sides; the rest go where they add fewer bits. */
PG_FUNCTION_INFO_V1(gist_minhash_picksplit);
Datum
gist_minhash_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *ev = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);
	int			siglen = get_siglen(fcinfo);
	int			n = ev->n - 1;	/* entries are 1..n */
	int			sl = 1,
				sr = 2,
				best = -1;
	MhBloom    *l,
			   *r;

	for (int i = 1; i <= n; i++)
		for (int j = i + 1; j <= n; j++)
		{
			int			d = hamming((MhBloom *) DatumGetPointer(ev->vector[i].key),
									(MhBloom *) DatumGetPointer(ev->vector[j].key), siglen);

			if (d > best)
				best = d, sl = i, sr = j;
		}
	v->spl_left = palloc(sizeof(OffsetNumber) * (n + 1));
	v->spl_right = palloc(sizeof(OffsetNumber) * (n + 1));
	v->spl_nleft = v->spl_nright = 0;
	l = bloom_new(siglen);
	r = bloom_new(siglen);
	memcpy(l->bits, ((MhBloom *) DatumGetPointer(ev->vector[sl].key))->bits, siglen);
	memcpy(r->bits, ((MhBloom *) DatumGetPointer(ev->vector[sr].key))->bits, siglen);
	for (int i = 1; i <= n; i++)
	{
		MhBloom    *e = (MhBloom *) DatumGetPointer(ev->vector[i].key);
		int			dl,
					dr;
		bool		left;

		if (i == sl)
			left = true;
		else if (i == sr)
			left = false;
		else
		{
			dl = added_bits(l, e, siglen);
			dr = added_bits(r, e, siglen);
			/* keep the halves within 2:1 */
			if (v->spl_nleft > 2 * (v->spl_nright + 1))
				left = false;
			else if (v->spl_nright > 2 * (v->spl_nleft + 1))
				left = true;
			else
				left = dl < dr || (dl == dr && v->spl_nleft <= v->spl_nright);
		}
		if (left)
		{
			v->spl_left[v->spl_nleft++] = i;
			for (int j = 0; j < siglen; j++)
				l->bits[j] |= e->bits[j];
		}
		else
		{
			v->spl_right[v->spl_nright++] = i;
			for (int j = 0; j < siglen; j++)
				r->bits[j] |= e->bits[j];
		}
	}
	v->spl_ldatum = PointerGetDatum(l);
	v->spl_rdatum = PointerGetDatum(r);
	PG_RETURN_POINTER(v);
}
