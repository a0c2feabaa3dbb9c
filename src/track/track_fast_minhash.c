/*
 * track_fast_minhash.c: the near rows of the in-memory relink
 * (track_fast.c) for a MinHash registration: every earlier row that the
 * store's lookup, `fp @@ lsh_query(q, bands, rows, min_bands) AND fp <@
 * jaccard_ball(q, threshold)`, gives, from in-memory LSH band tables over the
 * signatures (src/core/lsh_mem.c: the same band equality, by values, and the
 * same threshold test).
 *
 * Memory, per row (fast_minhash_row_bytes()): the signature whole, as a
 * minhash_sig (20 bytes and 4 a value, rounded up to 8: 536 at k 128), the
 * band tables (at most 10 bytes a band and 20 more: TFP_LSH_MEM_BYTES_PER_ROW;
 * a band whose value no other row shares takes 4) and a query's answer (row
 * number 4, equal positions 2, sort key 8): 1,010 bytes at k 128 and 44
 * bands, about 1 GB for a million rows.
 *
 * The operators compare signatures made alike only (the same k, method,
 * seed and pipeline): a store holding others is left to the batched path.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "tfp_lsh_mem.h"
#include "track_fast.h"

/* A query's answer: row number, equal positions, sort key. */
#define FAST_MINHASH_ANSWER_BYTES 14

Size
fast_minhash_sig_size(int k)
{
	return MAXALIGN(MINHASH_SIG_SIZE(k));
}

double
fast_minhash_row_bytes(TrackConfig *c)
{
	return (double) fast_minhash_sig_size(c->fp.k) + (double) TFP_LSH_MEM_BYTES_PER_ROW(c->lsh_bands) +
		FAST_MINHASH_ANSWER_BYTES;
}

/*
 * Whether the pass can answer c's store of n rows (a NOTICE says why not):
 * its banding must fit the signatures (else each lookup fails, and the
 * batched path says so), and the band tables' places fit 32 bits.
 */
bool
fast_minhash_applies(TrackConfig *c, int64 n)
{
	if (c->fp.k < 1 || c->lsh_bands < 1 || c->lsh_rows < 1 || c->lsh_min_bands < 1 ||
		c->lsh_min_bands > c->lsh_bands || (int64) c->lsh_bands * c->lsh_rows > c->fp.k)
	{
		ereport(NOTICE,
				(errmsg("textfp: the banding of table \"%s\" (%d bands of %d, at least %d) does not fit its signatures of %d values: linking in batches",
						get_rel_name(c->relid), c->lsh_bands, c->lsh_rows, c->lsh_min_bands, c->fp.k)));
		return false;
	}
	if ((double) n * c->lsh_bands >= (double) PG_UINT32_MAX)
	{
		ereport(NOTICE,
				(errmsg("textfp: the %lld rows of the store have too many bands (%d each) for the in-memory band tables: linking in batches",
						(long long) n, c->lsh_bands)));
		return false;
	}
	return true;
}

/*
 * Keeps row i's signature in its slot; a signature made otherwise than the
 * first one kept (or than the registration's k) marks the rows mixed.
 */
void
fast_minhash_keep(FastRows *r, uint32 i, Datum fp)
{
	MinhashSig *sig = DatumGetMinhashSigP(fp);
	MinhashSig *first = r->sig_seen ? (MinhashSig *) (r->sigs + r->sig_size * (Size) r->sig_first) : NULL;

	if (sig->k != r->k || VARSIZE(sig) != MINHASH_SIG_SIZE(r->k) ||
		(first != NULL && (sig->method != first->method || sig->value_bits != first->value_bits ||
						   sig->pipeline != first->pipeline || sig->seed_hi != first->seed_hi ||
						   sig->seed_lo != first->seed_lo)))
		r->mixed = true;
	else
	{
		memcpy(r->sigs + r->sig_size * (Size) i, sig, MINHASH_SIG_SIZE(r->k));
		if (!r->sig_seen)
		{
			r->sig_seen = true;
			r->sig_first = i;
		}
	}
	if ((Pointer) sig != DatumGetPointer(fp))
		pfree(sig);
}

/* tfp_env for the core's band tables: the pass's memory, cancels answered */
static void *
env_alloc(void *ctx, size_t size)
{
	return MemoryContextAllocExtended(((FastRows *) ctx)->cxt, Max(size, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void *
env_realloc(void *ctx, void *ptr, size_t size)
{
	return repalloc_huge(ptr, Max(size, 1));
}

static void
env_free(void *ctx, void *ptr)
{
	pfree(ptr);
}

static void
env_check_interrupts(void *ctx)
{
	CHECK_FOR_INTERRUPTS();
}

static void
check_status(tfp_status rc)
{
	if (rc == TFP_OK)
		return;
	if (rc == TFP_ENOMEM)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("The in-memory relink of a MinHash registration could not make its band tables.")));
	elog(ERROR, "textfp fast relink: band tables failed with status %d", (int) rc);
}

/* Every row's link, in order, each from the rows before it. */
void
fast_minhash_link(FastRows *r)
{
	TrackConfig *c = r->c;
	tfp_env		env = {env_alloc, env_free, env_check_interrupts, r, 0, env_realloc};
	tfp_lsh_header h;
	tfp_lsh_mem ix;
	uint32	   *out;
	uint16	   *matches;
	uint64	   *order;

	if (!r->sig_seen)
	{
		/* no signature: every row an original */
		for (uint32 i = 0; i < r->n; i++)
		{
			CHECK_FOR_INTERRUPTS();
			fast_link_row(r, i, NULL, 0);
		}
		return;
	}
	minhash_lsh_header((MinhashSig *) (r->sigs + r->sig_size * (Size) r->sig_first), &h);
	check_status(tfp_lsh_mem_init(&ix, &env, (const uint32 *) (r->sigs + MINHASH_SIG_HEADER),
								  r->sig_size / sizeof(uint32), r->absent, r->n, &h,
								  c->lsh_bands, c->lsh_rows, c->lsh_min_bands, c->threshold));
	for (int t = 0; t < c->lsh_bands; t++)
	{
		CHECK_FOR_INTERRUPTS();
		check_status(tfp_lsh_mem_build_band(&ix, t));
	}
	elog(DEBUG1, "textfp: the band tables of %u rows hold %.1f MB (%u shared buckets, %zu places)",
		 r->n, (double) tfp_lsh_mem_bytes(&ix) / (1024.0 * 1024.0), ix.nbuckets, ix.nmembers);

	out = fast_alloc(r, sizeof(uint32) * (Size) r->n);
	matches = fast_alloc(r, sizeof(uint16) * (Size) r->n);
	order = fast_alloc(r, sizeof(uint64) * (Size) r->n);
	for (uint32 i = 0; i < r->n; i++)
	{
		size_t		nh;

		CHECK_FOR_INTERRUPTS();
		nh = tfp_lsh_mem_query(&ix, i, out, matches);
		for (size_t e = 0; e < nh; e++)
			order[e] = ((uint64) (r->k - matches[e]) << 32) | out[e];
		fast_link_row(r, i, order, nh);
	}
}
