/*
 * track_fast.c: relinking every row of a registration at once, in memory, in
 * one transaction that keeps writers out (textfp_rebuild()'s default, and
 * the link phase of textfp_track()).
 *
 * The batched path (track_batch.c) looks each row's near rows up in the
 * fingerprint index, one query a row; here the store is read once, in
 * (at, key) order, into arrays, and the near rows of row i among rows
 * 0 .. i-1 come from an in-memory index of the fingerprint's own: a
 * multi-index hash for SimHash (track_fast_simhash.c), LSH band tables for
 * MinHash (track_fast_minhash.c), each giving exactly the rows the store's
 * lookup gives.  Each row's link is chosen by the very rule of the batched
 * path (track_choose_link(), the original's fingerprint read from the
 * arrays), from the rows before it, whose links this pass has just chosen:
 * the links a rebuild in time order gives.  Only the rows whose link changed
 * are written, in bulk.
 *
 * Memory, per row: FAST_ROW_BYTES (track_fast.h) and the fingerprint's
 * index: SimHash the fingerprint (8) and four row numbers in the hash tables
 * (16), plus the tables' bucket starts (1 MB); MinHash its signature and the
 * band tables (fast_minhash_row_bytes(): about 1 KB a row at k 128, 44
 * bands).  While the store is read a hash of the keys read so far (at most
 * 16 bytes a row) stands in for the new link and the index, freed before
 * the index is made.  The whole must fit maintenance_work_mem, else the
 * caller links in batches.  The caller holds SHARE on the table and SHARE
 * ROW EXCLUSIVE on the store.
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/typcache.h"

#include "track_fast.h"

#define FAST_FETCH 10000		/* rows a fetch of the store's cursor */
#define FAST_WRITE 50000		/* links an UPDATE writes */
#define FAST_MAX_ROWS ((int64) 1 << 30)	/* row numbers of the hash tables are 32 bits, 4 a row */

void *
fast_alloc(FastRows *r, Size n)
{
	return MemoryContextAllocHuge(r->cxt, Max(n, 1));
}

/*
 * Runs sql as T's owner in a security-restricted operation under
 * search_path pg_catalog, pg_temp, as the store's other statements run
 * (track_store.c): a cursor when portal is not NULL.  A read reads a fresh
 * snapshot, taken now that the locks are held: the statement's, taken
 * before, misses the rows of writers the locks waited for.
 */
static int
exec_as_owner(TrackConfig *c, const char *sql, int nargs, Oid *types, Datum *values, const char *nulls,
			  bool read_only, Portal *portal)
{
	TrackAsOwner as;
	volatile int rc = 0;

	track_as_owner_enter(c, &as, false);
	PG_TRY();
	{
		if (read_only)
			PushActiveSnapshot(GetLatestSnapshot());
		if (portal != NULL)
			*portal = SPI_cursor_open_with_args(NULL, sql, nargs, types, values, nulls, read_only, 0);
		else
			rc = SPI_execute_with_args(sql, nargs, types, values, nulls, read_only, 0);
		if (read_only)
			PopActiveSnapshot();
	}
	PG_FINALLY();
	{
		track_as_owner_leave(&as);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "textfp fast relink: query failed: %s (%s)", SPI_result_code_string(rc), sql);
	return rc;
}

/* The next rows of the cursor, fetched as T's owner. */
static void
fetch_as_owner(TrackConfig *c, Portal portal)
{
	TrackAsOwner as;

	track_as_owner_enter(c, &as, false);
	PG_TRY();
	{
		SPI_cursor_fetch(portal, true, FAST_FETCH);
	}
	PG_FINALLY();
	{
		track_as_owner_leave(&as);
	}
	PG_END_TRY();
}

static Datum
keep_key(FastRows *r, Datum key)
{
	TrackConfig *c = r->c;
	Size		sz;
	char	   *p;

	if (c->key_byval)
		return key;
	if (c->key_len == -1)
		key = PointerGetDatum(PG_DETOAST_DATUM_PACKED(key));
	sz = datumGetSize(key, false, c->key_len);
	if (r->arena == NULL || r->arena_used + MAXALIGN(sz) > r->arena_size)
	{
		r->arena_size = Max((Size) 1024 * 1024, MAXALIGN(sz));
		r->arena = fast_alloc(r, r->arena_size);
		r->arena_used = 0;
	}
	p = r->arena + r->arena_used;
	memcpy(p, DatumGetPointer(key), sz);
	r->arena_used += MAXALIGN(sz);
	return PointerGetDatum(p);
}

/* The keys read so far, by key: open addressing over row numbers + 1. */
typedef struct KeyHash
{
	uint32	   *slots;
	uint32		mask;
} KeyHash;

static uint32
key_hash(TrackConfig *c, Datum key)
{
	return datum_image_hash(key, c->key_byval, c->key_len);
}

static int32
key_find(FastRows *r, KeyHash *h, Datum key)
{
	for (uint32 s = key_hash(r->c, key) & h->mask;; s = (s + 1) & h->mask)
	{
		uint32		v = h->slots[s];

		if (v == 0)
			return FAST_ROW_OTHER;
		if (datum_image_eq(r->keys[v - 1], key, r->c->key_byval, r->c->key_len))
			return (int32) (v - 1);
	}
}

static void
key_add(FastRows *r, KeyHash *h, uint32 row)
{
	uint32		s = key_hash(r->c, r->keys[row]) & h->mask;

	while (h->slots[s] != 0)
		s = (s + 1) & h->mask;
	h->slots[s] = row + 1;
}

/*
 * A stored score as this pass keeps it: a Hamming distance, or the equal
 * positions whose share of k it is (as jaccard() divides); FAST_SCORE_OTHER
 * for any other number.
 */
static uint16
score_of(FastRows *r, double s)
{
	if (!r->c->minhash)
		return s >= 0 && s <= 64 && s == rint(s) ? (uint16) s : FAST_SCORE_OTHER;
	else
	{
		double		m = rint(s * r->k);

		return m >= 0 && m <= r->k && (double) (int) m / r->k == s ? (uint16) m : FAST_SCORE_OTHER;
	}
}

/* A score as a link keeps it (track_score()'s). */
static double
score_value(FastRows *r, uint16 s)
{
	return r->c->minhash ? (double) s / r->k : (double) s;
}

/*
 * Reads the store in (at, key) order: keys, fingerprints, old links as row
 * numbers.  n: the rows counted under the same locks.
 */
static void
load_rows(FastRows *r, const char *store, uint32 n)
{
	TrackConfig *c = r->c;
	KeyHash		h;
	uint32		cap = 2;
	Portal		portal;
	uint32		i = 0;
	Datum		prev_at = (Datum) 0;
	MemoryContext keep = r->cxt;

	while (cap < 2 * (uint64) Max(n, 1))
		cap *= 2;
	h.slots = fast_alloc(r, sizeof(uint32) * (Size) cap);
	memset(h.slots, 0, sizeof(uint32) * (Size) cap);
	h.mask = cap - 1;
	r->keys = fast_alloc(r, sizeof(Datum) * (Size) n);
	if (c->minhash)
		r->sigs = fast_alloc(r, r->sig_size * (Size) n);
	else
		r->fps = fast_alloc(r, sizeof(uint64) * (Size) n);
	r->absent = fast_alloc(r, n);
	r->old_source = fast_alloc(r, sizeof(int32) * (Size) n);
	r->old_story = fast_alloc(r, sizeof(int32) * (Size) n);
	r->old_score = fast_alloc(r, sizeof(uint16) * (Size) n);

	exec_as_owner(c, psprintf("SELECT s.key, s.at, s.fp, s.source, s.story, s.score, s.site FROM ONLY %s s ORDER BY s.at, s.key",
							  store), 0, NULL, NULL, NULL, true, &portal);
	for (;;)
	{
		TupleDesc	d;

		CHECK_FOR_INTERRUPTS();
		fetch_as_owner(c, portal);
		if (SPI_processed == 0)
			break;
		if (SPI_processed > n - i)
			elog(ERROR, "textfp fast relink: the store of table \"%s\" has more rows than counted",
				 get_rel_name(c->relid));
		d = SPI_tuptable->tupdesc;
		for (uint64 t = 0; t < SPI_processed; t++, i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[t];
			bool		isnull;
			bool		fp_null;
			Datum		at = SPI_getbinval(tup, d, 2, &isnull);
			Datum		fp = SPI_getbinval(tup, d, 3, &fp_null);
			Datum		v;
			MemoryContext old = MemoryContextSwitchTo(keep);

			if ((t & 1023) == 0)
				CHECK_FOR_INTERRUPTS();
			/* a row may have come before the registration: not checked yet */
			v = SPI_getbinval(tup, d, 7, &isnull);
			track_check_row_width(c, SPI_getbinval(tup, d, 1, &isnull), v, isnull);
			r->keys[i] = keep_key(r, SPI_getbinval(tup, d, 1, &isnull));
			/* the order the rule means (track_compare), as the query gave it */
			if (i > 0 && track_compare(c, prev_at, r->keys[i - 1], at, r->keys[i]) >= 0)
				elog(ERROR, "textfp fast relink: the store of table \"%s\" was not read in (time, key) order",
					 get_rel_name(c->relid));
			if (!c->time_byval && i > 0)
				pfree(DatumGetPointer(prev_at));
			prev_at = datumCopy(at, c->time_byval, c->time_len);
			r->absent[i] = fp_null;
			if (c->minhash)
			{
				if (!fp_null)
					fast_minhash_keep(r, i, fp);
			}
			else
				r->fps[i] = fp_null ? 0 : DatumGetSimhash64(fp);
			v = SPI_getbinval(tup, d, 4, &isnull);
			r->old_source[i] = isnull ? FAST_ROW_NONE : key_find(r, &h, v);
			v = SPI_getbinval(tup, d, 5, &isnull);
			r->old_story[i] = isnull ? FAST_ROW_OTHER
				: datum_image_eq(v, r->keys[i], c->key_byval, c->key_len) ? (int32) i : key_find(r, &h, v);
			v = SPI_getbinval(tup, d, 6, &isnull);
			r->old_score[i] = isnull ? FAST_SCORE_NULL : score_of(r, DatumGetFloat8(v));
			key_add(r, &h, i);
			MemoryContextSwitchTo(old);
		}
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_cursor_close(portal);
	if (i != n)
		elog(ERROR, "textfp fast relink: the store of table \"%s\" has %u rows, not the %u counted",
			 get_rel_name(c->relid), i, n);
	pfree(h.slots);
}

/* Row's fingerprint as a Datum (in the arrays: not to be freed). */
Datum
fast_fp(FastRows *r, uint32 row)
{
	if (r->c->minhash)
		return PointerGetDatum(r->sigs + r->sig_size * (Size) row);
	return Simhash64GetDatum(r->fps[row]);
}

/* The fingerprint of the original of y's story, from the arrays. */
static bool
memory_root_fp(TrackConfig *c, const TrackNear *y, Datum *fp, void *arg)
{
	FastRows   *r = arg;
	int32		root = r->story[y->idx];

	if (r->absent[root])
		return false;
	*fp = fast_fp(r, (uint32) root);
	return true;
}

/*
 * A near row as (rank << 32 | row number), the rank a Hamming distance or k
 * less the equal positions: ascending is nearest first, then earliest,
 * track_near()'s order (the rows are numbered in (at, key) order).
 */
#define ST_SORT sort_near_rows
#define ST_ELEMENT_TYPE uint64
#define ST_COMPARE(a, b) (*(a) < *(b) ? -1 : *(a) > *(b) ? 1 : 0)
#define ST_SCOPE static
#define ST_DECLARE
#define ST_DEFINE
#include "lib/sort_template.h"

/*
 * Row i's link, by the batched path's rule, from its near rows among the
 * rows before it (order: nh of them, as above, in any order; sorted here),
 * whose links are chosen already; called for every row in order.
 */
void
fast_link_row(FastRows *r, uint32 i, uint64 *order, size_t nh)
{
	TrackConfig *c = r->c;
	TrackRow	link;
	int			k;

	/*
	 * Rows 0 .. i-1 are linked: a NOTICE each time they pass another tenth
	 * of the rows, as the batches' textfp_track_tenth() (the count is exact
	 * here, so no doubling past it), the last before the pass's own "linked"
	 * NOTICE.  The progress row cannot move before the pass commits; these
	 * reach the client as they are sent.
	 */
	if (r->n >= FAST_PROGRESS_ROWS && (uint64) i * 10 / r->n > r->told)
	{
		r->told = (uint32) ((uint64) i * 10 / r->n);
		ereport(NOTICE,
				(errmsg("textfp: %u of %u rows linked in memory", i, r->n)));
	}
	r->source[i] = FAST_ROW_NONE;
	r->story[i] = (int32) i;
	r->score[i] = FAST_SCORE_NULL;
	if (r->absent[i] || nh == 0)
		return;
	if (nh > r->near_cap)
	{
		r->near_cap = Max(nh, 2 * r->near_cap);
		r->near = r->near == NULL ? fast_alloc(r, sizeof(TrackNear) * r->near_cap)
			: repalloc_huge(r->near, sizeof(TrackNear) * r->near_cap);
	}
	sort_near_rows(order, nh);
	for (size_t h = 0; h < nh; h++)
	{
		uint32		j = (uint32) order[h];
		uint32		rank = (uint32) (order[h] >> 32);
		TrackNear  *y = &r->near[h];

		y->key = r->keys[j];
		y->at = (Datum) 0;
		y->story = r->keys[r->story[j]];
		y->site = (Datum) 0;
		y->site_null = true;
		y->score = score_value(r, (uint16) (c->minhash ? r->k - rank : rank));
		y->earlier = true;
		y->idx = (int32) j;
	}
	{
		MemoryContext old = MemoryContextSwitchTo(r->row_cxt);

		k = track_choose_link(c, r->keys[i], fast_fp(r, i), false, r->near, (int) nh,
							  memory_root_fp, r, &link);
		MemoryContextSwitchTo(old);
		MemoryContextReset(r->row_cxt);
	}
	if (k >= 0)
	{
		uint32		rank = (uint32) (order[k] >> 32);

		r->source[i] = r->near[k].idx;
		r->story[i] = r->story[r->near[k].idx];
		r->score[i] = (uint16) (c->minhash ? r->k - rank : rank);
	}
}

static bool
link_changed(FastRows *r, uint32 i)
{
	return r->old_source[i] != r->source[i] || r->old_story[i] != r->story[i] || r->old_score[i] != r->score[i];
}

/* One UPDATE of the store for the links gathered. */
static void
write_links(FastRows *r, const char *sql, Datum *keys, Datum *src, bool *src_null, Datum *story,
			Datum *score, bool *score_null, int k)
{
	TrackConfig *c = r->c;
	int			dims[1] = {k};
	int			lbs[1] = {1};
	int16		klen;
	bool		kbyval;
	char		align;
	Oid			karr = get_array_type(c->key_type);
	Oid			types[4] = {karr, karr, karr, FLOAT8ARRAYOID};
	Datum		values[4];

	get_typlenbyvalalign(c->key_type, &klen, &kbyval, &align);
	values[0] = PointerGetDatum(construct_md_array(keys, NULL, 1, dims, lbs, c->key_type, c->key_len,
												   c->key_byval, align));
	values[1] = PointerGetDatum(construct_md_array(src, src_null, 1, dims, lbs, c->key_type, c->key_len,
												   c->key_byval, align));
	values[2] = PointerGetDatum(construct_md_array(story, NULL, 1, dims, lbs, c->key_type, c->key_len,
												   c->key_byval, align));
	values[3] = PointerGetDatum(construct_md_array(score, score_null, 1, dims, lbs, FLOAT8OID, 8,
												   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	exec_as_owner(c, sql, 4, types, values, NULL, false, NULL);
	if (SPI_processed != (uint64) k)
	{
		/* at REPEATABLE READ and SERIALIZABLE: rows written after the transaction's snapshot */
		if (IsolationUsesXactSnapshot())
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("could not serialize access due to a concurrent change of the textfp store of table \"%s\"",
							get_rel_name(c->relid)),
					 errdetail("Rows were written to the store after this transaction's snapshot was taken."),
					 errhint("The transaction might succeed if retried.")));
		elog(ERROR, "textfp fast relink: %llu store rows of table \"%s\" updated, not %d",
			 (unsigned long long) SPI_processed, get_rel_name(c->relid), k);
	}
}

static int64
write_changed(FastRows *r, const char *store)
{
	TrackConfig *c = r->c;
	Oid			karr = get_array_type(c->key_type);
	const char *keq = track_operator_sql(lookup_type_cache(c->key_type, TYPECACHE_EQ_OPR)->eq_opr);
	const char *sql;
	Datum	   *keys = MemoryContextAlloc(r->cxt, sizeof(Datum) * FAST_WRITE);
	Datum	   *src = MemoryContextAlloc(r->cxt, sizeof(Datum) * FAST_WRITE);
	bool	   *src_null = MemoryContextAlloc(r->cxt, sizeof(bool) * FAST_WRITE);
	Datum	   *story = MemoryContextAlloc(r->cxt, sizeof(Datum) * FAST_WRITE);
	Datum	   *score = MemoryContextAlloc(r->cxt, sizeof(Datum) * FAST_WRITE);
	bool	   *score_null = MemoryContextAlloc(r->cxt, sizeof(bool) * FAST_WRITE);
	MemoryContext chunk_cxt = AllocSetContextCreate(r->cxt, "textfp fast relink write",
													ALLOCSET_DEFAULT_SIZES);
	int			k = 0;
	int64		written = 0;

	if (!OidIsValid(karr))
		elog(ERROR, "textfp fast relink: type %s has no array type", format_type_be(c->key_type));
	sql = psprintf("UPDATE ONLY %s s SET source = u.source, story = u.story, score = u.score, linked_at = pg_catalog.now()"
				   " FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4))"
				   " AS u(key, source, story, score) WHERE s.key %s u.key",
				   store, keq);
	for (uint32 i = 0; i <= r->n; i++)
	{
		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		if (k == FAST_WRITE || (i == r->n && k > 0))
		{
			MemoryContext old = MemoryContextSwitchTo(chunk_cxt);

			write_links(r, sql, keys, src, src_null, story, score, score_null, k);
			MemoryContextSwitchTo(old);
			MemoryContextReset(chunk_cxt);
			written += k;
			k = 0;
		}
		if (i == r->n)
			break;
		if (!link_changed(r, i))
			continue;
		keys[k] = r->keys[i];
		src_null[k] = r->source[i] < 0;
		src[k] = src_null[k] ? (Datum) 0 : r->keys[r->source[i]];
		story[k] = r->keys[r->story[i]];
		score_null[k] = r->score[i] == FAST_SCORE_NULL;
		score[k] = Float8GetDatum(score_null[k] ? 0 : score_value(r, r->score[i]));
		k++;
	}
	MemoryContextDelete(chunk_cxt);
	return written;
}

static double
mb(double bytes)
{
	return bytes / (1024.0 * 1024.0);
}

/*
 * Relinks every row of c's store in memory: false (with a NOTICE saying
 * why) when the store does not fit maintenance_work_mem, or its
 * fingerprints cannot be answered in memory; else *rows and *changed.  SPI
 * connected, the locks held (see above).
 */
bool
track_link_all_in_memory(TrackConfig *c, int64 *rows, int64 *changed)
{
	const char *store = c->store_name;
	MemoryContext cxt;
	MemoryContext old;
	FastRows	r;
	int64		n;
	int64		key_bytes;
	double		need;
	double		ceiling = (double) maintenance_work_mem * 1024.0;
	bool		isnull;

	exec_as_owner(c, psprintf("SELECT count(*)::int8, coalesce(sum((pg_column_size(s.key) + 7) / 8 * 8), 0)::int8"
							  " FROM ONLY %s s", store), 0, NULL, NULL, NULL, true, NULL);
	n = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	key_bytes = c->key_byval ? 0 : DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	SPI_freetuptable(SPI_tuptable);
	if (c->minhash && !fast_minhash_applies(c, n))
		return false;
	need = (double) n * FAST_ROW_BYTES + (double) key_bytes +
		(c->minhash ? (double) n * fast_minhash_row_bytes(c)
		 : (double) n * FAST_SIMHASH_ROW_BYTES + fast_simhash_fixed_bytes());
	if (need > ceiling || n >= FAST_MAX_ROWS)
	{
		ereport(NOTICE,
				(errmsg("textfp: the %lld rows of the store need about %.1f MB in memory, more than maintenance_work_mem (%.1f MB): linking in batches",
						(long long) n, mb(need), mb(ceiling))));
		return false;
	}

	cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp fast relink", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.cxt = cxt;
	r.n = (uint32) n;
	r.k = c->minhash ? c->fp.k : 0;
	r.sig_size = c->minhash ? fast_minhash_sig_size(r.k) : 0;
	r.row_cxt = AllocSetContextCreate(cxt, "textfp fast relink row", ALLOCSET_DEFAULT_SIZES);
	load_rows(&r, store, r.n);
	if (r.mixed)
	{
		/* the batched path's lookups compare what they can, or fail as they must */
		ereport(NOTICE,
				(errmsg("textfp: the store of table \"%s\" holds signatures made differently from the registration's: linking in batches",
						get_rel_name(c->relid))));
		MemoryContextSwitchTo(old);
		MemoryContextDelete(cxt);
		return false;
	}
	ereport(NOTICE,
			(errmsg("textfp: %lld rows loaded; linking them in memory (about %.1f MB, maintenance_work_mem %.1f MB)",
					(long long) n, mb(need), mb(ceiling))));
	r.source = fast_alloc(&r, sizeof(int32) * (Size) r.n);
	r.story = fast_alloc(&r, sizeof(int32) * (Size) r.n);
	r.score = fast_alloc(&r, sizeof(uint16) * (Size) r.n);
	if (c->minhash)
		fast_minhash_link(&r);
	else
		fast_simhash_link(&r);
	ereport(NOTICE,
			(errmsg("textfp: %lld rows linked in memory", (long long) n)));
	/* what the estimate stood for (its allocator's blocks: not for the tests' output) */
	elog(DEBUG1, "textfp: the in-memory relink of %lld rows holds %.1f MB",
		 (long long) n, mb((double) MemoryContextMemAllocated(cxt, true)));
	*changed = write_changed(&r, store);
	*rows = n;
	ereport(NOTICE,
			(errmsg("textfp: %lld links written", (long long) *changed)));
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return true;
}
