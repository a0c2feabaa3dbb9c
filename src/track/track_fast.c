/*
 * track_fast.c: relinking every row of a SimHash registration at once, in
 * memory, in one transaction that keeps writers out (textfp_rebuild()'s
 * default, and the link phase of textfp_track()).
 *
 * The batched path (track_batch.c) looks each row's near rows up in the
 * fingerprint index, one query a row; here the store is read once, in
 * (at, key) order, into arrays, and the near rows of row i among rows
 * 0 .. i-1 come from an in-memory multi-index hash (src/core/mih_mem.c).
 * Each row's link is chosen by the very rule of the batched path
 * (track_choose_link(), the original's fingerprint read from the arrays),
 * from the rows before it, whose links this pass has just chosen: the
 * links a rebuild in time order gives.  Only the rows whose link changed
 * are written, in bulk.
 *
 * Memory, per row (FAST_BYTES_PER_ROW): the key's Datum (8), the
 * fingerprint (8), a NULL flag (1), the old link as row numbers (source 4,
 * story 4, score 1), the new one (4, 4, 1) and four row numbers in the hash
 * tables (16): 51 bytes, rounded up to 52; a by-reference key adds its
 * bytes rounded up to 8.  While the store is read a hash of the keys read
 * so far (at most 16 bytes a row) stands in for the new link and the hash
 * tables, freed before they are made.  Plus the hash tables' bucket starts
 * (1 MB).  The caller holds SHARE on the table and SHARE ROW EXCLUSIVE on
 * the store.
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

#include "tfp_mih_mem.h"
#include "track.h"

#define FAST_BYTES_PER_ROW 52
#define FAST_FETCH 10000		/* rows a fetch of the store's cursor */
#define FAST_WRITE 50000		/* links an UPDATE writes */
#define FAST_MAX_ROWS ((int64) 1 << 30)	/* row numbers of the hash tables are 32 bits, 4 a row */

/* old_score: a Hamming distance 0..64, or one of these */
#define SCORE_NULL 255
#define SCORE_OTHER 254			/* not a distance: differs from any link */
/* old_source, old_story */
#define ROW_NONE (-1)			/* no source */
#define ROW_OTHER (-2)			/* a key not among the rows before: differs from any link */

typedef struct FastRows
{
	TrackConfig *c;
	MemoryContext cxt;			/* everything below (SPI's calls switch contexts) */
	uint32		n;
	Datum	   *keys;
	uint64	   *fps;
	uint8	   *absent;			/* NULL fingerprint */
	int32	   *old_source;
	int32	   *old_story;
	uint8	   *old_score;
	int32	   *source;
	int32	   *story;
	uint8	   *score;
	/* by-reference keys, copied one after the other */
	char	   *arena;
	Size		arena_used;
	Size		arena_size;
} FastRows;

static void *
alloc_huge(FastRows *r, Size n)
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
		r->arena = alloc_huge(r, r->arena_size);
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
			return ROW_OTHER;
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
	h.slots = alloc_huge(r, sizeof(uint32) * (Size) cap);
	memset(h.slots, 0, sizeof(uint32) * (Size) cap);
	h.mask = cap - 1;
	r->keys = alloc_huge(r, sizeof(Datum) * (Size) n);
	r->fps = alloc_huge(r, sizeof(uint64) * (Size) n);
	r->absent = alloc_huge(r, n);
	r->old_source = alloc_huge(r, sizeof(int32) * (Size) n);
	r->old_story = alloc_huge(r, sizeof(int32) * (Size) n);
	r->old_score = alloc_huge(r, n);

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
			Datum		at = SPI_getbinval(tup, d, 2, &isnull);
			Datum		fp = SPI_getbinval(tup, d, 3, &isnull);
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
			r->absent[i] = isnull;
			r->fps[i] = isnull ? 0 : DatumGetSimhash64(fp);
			v = SPI_getbinval(tup, d, 4, &isnull);
			r->old_source[i] = isnull ? ROW_NONE : key_find(r, &h, v);
			v = SPI_getbinval(tup, d, 5, &isnull);
			r->old_story[i] = isnull ? ROW_OTHER
				: datum_image_eq(v, r->keys[i], c->key_byval, c->key_len) ? (int32) i : key_find(r, &h, v);
			v = SPI_getbinval(tup, d, 6, &isnull);
			if (isnull)
				r->old_score[i] = SCORE_NULL;
			else
			{
				double		s = DatumGetFloat8(v);

				r->old_score[i] = s >= 0 && s <= 64 && s == rint(s) ? (uint8) s : SCORE_OTHER;
			}
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

/* The fingerprint of the original of y's story, from the arrays. */
static bool
memory_root_fp(TrackConfig *c, const TrackNear *y, Datum *fp, void *arg)
{
	FastRows   *r = arg;
	int32		root = r->story[y->idx];

	if (r->absent[root])
		return false;
	*fp = Simhash64GetDatum(r->fps[root]);
	return true;
}

/*
 * A near row as (distance << 32 | row number): ascending is nearest first,
 * then earliest, track_near()'s order (the rows are numbered in (at, key)
 * order).
 */
#define ST_SORT sort_near_rows
#define ST_ELEMENT_TYPE uint64
#define ST_COMPARE(a, b) (*(a) < *(b) ? -1 : *(a) > *(b) ? 1 : 0)
#define ST_SCOPE static
#define ST_DECLARE
#define ST_DEFINE
#include "lib/sort_template.h"

/* Every row's link, in order, each from the rows before it. */
static void
link_rows(FastRows *r)
{
	TrackConfig *c = r->c;
	size_t		start_len,
				rows_len;
	tfp_mih_mem ix;
	size_t		cap = 1024;
	uint32	   *hits = MemoryContextAlloc(r->cxt, sizeof(uint32) * cap);
	uint64	   *order = MemoryContextAlloc(r->cxt, sizeof(uint64) * cap);
	TrackNear  *near = MemoryContextAlloc(r->cxt, sizeof(TrackNear) * cap);
	MemoryContext row_cxt = AllocSetContextCreate(r->cxt, "textfp fast relink row",
												  ALLOCSET_DEFAULT_SIZES);

	r->source = alloc_huge(r, sizeof(int32) * (Size) r->n);
	r->story = alloc_huge(r, sizeof(int32) * (Size) r->n);
	r->score = alloc_huge(r, r->n);
	tfp_mih_mem_sizes(r->n, &start_len, &rows_len);
	tfp_mih_mem_init(&ix, r->fps, r->absent, r->n, (int) c->threshold,
					 alloc_huge(r, sizeof(uint32) * start_len), alloc_huge(r, sizeof(uint32) * rows_len));
	for (int t = 0; t < TFP_MIH_MEM_M; t++)
	{
		CHECK_FOR_INTERRUPTS();
		tfp_mih_mem_build_table(&ix, t);
	}

	for (uint32 i = 0; i < r->n; i++)
	{
		size_t		nh;
		TrackRow	link;
		int			k;

		CHECK_FOR_INTERRUPTS();
		r->source[i] = ROW_NONE;
		r->story[i] = (int32) i;
		r->score[i] = SCORE_NULL;
		if (r->absent[i])
			continue;
		nh = tfp_mih_mem_query(&ix, r->fps[i], i, hits, cap);
		if (nh > cap)
		{
			while (cap < nh)
				cap *= 2;
			hits = repalloc_huge(hits, sizeof(uint32) * cap);
			order = repalloc_huge(order, sizeof(uint64) * cap);
			near = repalloc_huge(near, sizeof(TrackNear) * cap);
			nh = tfp_mih_mem_query(&ix, r->fps[i], i, hits, cap);
		}
		for (size_t h = 0; h < nh; h++)
			order[h] = ((uint64) pg_popcount64(r->fps[hits[h]] ^ r->fps[i]) << 32) | hits[h];
		sort_near_rows(order, nh);
		for (size_t h = 0; h < nh; h++)
		{
			uint32		j = (uint32) order[h];
			TrackNear  *y = &near[h];

			y->key = r->keys[j];
			y->at = (Datum) 0;
			y->story = r->keys[r->story[j]];
			y->site = (Datum) 0;
			y->site_null = true;
			y->score = (double) (order[h] >> 32);
			y->earlier = true;
			y->idx = (int32) j;
		}
		{
			MemoryContext old = MemoryContextSwitchTo(row_cxt);

			k = track_choose_link(c, r->keys[i], Simhash64GetDatum(r->fps[i]), false, near, (int) nh,
								  memory_root_fp, r, &link);
			MemoryContextSwitchTo(old);
			MemoryContextReset(row_cxt);
		}
		if (k >= 0)
		{
			r->source[i] = near[k].idx;
			r->story[i] = r->story[near[k].idx];
			r->score[i] = (uint8) near[k].score;
		}
	}
	MemoryContextDelete(row_cxt);
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
		score_null[k] = r->score[i] == SCORE_NULL;
		score[k] = Float8GetDatum(score_null[k] ? 0 : (double) r->score[i]);
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
 * why) when the store does not fit maintenance_work_mem; else *rows and
 * *changed.  SPI connected, the locks held (see above).
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
	size_t		start_len,
				rows_len;
	bool		isnull;

	Assert(!c->minhash);
	exec_as_owner(c, psprintf("SELECT count(*)::int8, coalesce(sum((pg_column_size(s.key) + 7) / 8 * 8), 0)::int8"
							  " FROM ONLY %s s", store), 0, NULL, NULL, NULL, true, NULL);
	n = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	key_bytes = c->key_byval ? 0 : DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	SPI_freetuptable(SPI_tuptable);
	tfp_mih_mem_sizes(0, &start_len, &rows_len);
	need = (double) n * FAST_BYTES_PER_ROW + (double) key_bytes + (double) start_len * sizeof(uint32);
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
	load_rows(&r, store, r.n);
	ereport(NOTICE,
			(errmsg("textfp: %lld rows loaded; linking them in memory (about %.1f MB, maintenance_work_mem %.1f MB)",
					(long long) n, mb(need), mb(ceiling))));
	link_rows(&r);
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
