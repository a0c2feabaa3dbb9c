/*
 * track.h: tracked tables (textfp_track): what the files of src/track/
 * share.
 *
 * A table T registered with textfp_track() gets, owned by T's owner, a
 * configuration table T_textfp_config (one row: the columns, the
 * fingerprint's method and options, the threshold, the dedup mode, the lock
 * keys, the state of the registration and its progress) and a store
 * T_textfp, one row per row of T: its key, time and site as T has them, its
 * fingerprint, and its link: the earlier row it most likely copies (source),
 * the story it belongs to (the key of the story's original) and how near the
 * source is (score).  Triggers on T keep the store current; docs/stories.md
 * says what the links mean.
 *
 *   track_config.c  reading and checking a registration, cached per backend
 *   track_store.c   the store's queries (SPI, as T's owner)
 *   track_link.c    the link rule, and relinking the rows a change reaches
 *   track_trigger.c the triggers on T
 *   track_pending.c rows the dedup trigger let in that are not in the store yet
 *   track_batch.c   the batches of textfp_track() and textfp_rebuild()
 *   track_story.c   the story summary the reports read, and its folds
 *   track_fast*.c   relinking every row at once in memory (track_fast.h)
 */
#ifndef TEXTFP_TRACK_H
#define TEXTFP_TRACK_H

#include "postgres.h"

#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/relcache.h"

#include "../dedup.h"
#include "../fpcall.h"
#include "../textfp.h"

/* The registration's format (config.format); a new one gets a new number. */
#define TRACK_FORMAT 1

/* What the triggers do (config.state). */
typedef enum TrackState
{
	TRACK_BUILDING,				/* textfp_track() fills the store: fingerprints only */
	TRACK_LINKING,				/* the links are being computed in time order */
	TRACK_READY					/* every write keeps the links current */
} TrackState;

typedef enum TrackDedup
{
	TRACK_DEDUP_OFF,
	TRACK_DEDUP_REJECT,
	TRACK_DEDUP_SKIP
} TrackDedup;

/* Prepared queries of a registration (track_store.c). */
typedef enum TrackPlan
{
	PLAN_NEAR,					/* near rows of $1 (fp): key, at, story, score, earlier-than($2 at, $3 key) */
	PLAN_ROW,					/* the store row of key $1: at, site, fp, source, story, score */
	PLAN_ROOT_FP,				/* the fingerprint of the row of key $1 */
	PLAN_INSERT,				/* insert or replace the store row (key, at, site, fp, source, story, score) */
	PLAN_LINK,					/* set source, story, score of key $1 */
	PLAN_DELETE,				/* delete the store row of key $1, returning its fp */
	PLAN_SITE,					/* set at and site of key $1 */
	PLAN_NEXT,					/* the next rows in (at, key) order after ($1, $2), at most $3 */
	PLAN_FIRST,					/* the first rows in (at, key) order, at most $1 */
	PLAN_FOLD,					/* fold the changed stories into the summary */
	PLAN_FOLD_PAIRS,			/* fold the changed site pairs into theirs */
	PLAN_CHILDREN,				/* the keys of the rows whose source is key $1 */
	PLAN_COUNT
} TrackPlan;

/* One registration, as the backend keeps it (track_config.c). */
typedef struct TrackConfig
{
	Oid			config_relid;	/* T_textfp_config */
	Oid			store_relid;	/* T_textfp */
	Oid			relid;			/* T */
	Oid			owner;			/* T's owner, who owns the other two */
	MemoryContext cxt;			/* everything below lives here */
	bool		valid;
	int			refcount;
	struct TrackConfig *next_retired;
	Oid			stories_relid;	/* T_textfp_stories (track_story.c) */
	Oid			changes_relid;	/* T_textfp_changes */
	Oid			reprints_relid; /* T_textfp_reprints */
	Oid			reprint_changes_relid;	/* T_textfp_reprint_changes */
	char	   *store_name;		/* quoted, schema-qualified */
	char	   *stories_name;
	char	   *changes_name;
	char	   *reprints_name;
	char	   *reprint_changes_name;
	Oid			site_store_type;	/* the store's site type: the site's, or text */
	char	   *nsp;			/* textfp's schema */

	/* T's columns */
	AttrNumber	text_att;
	AttrNumber	key_att;
	AttrNumber	time_att;
	AttrNumber	site_att;		/* 0: none */
	Oid			key_type;
	int16		key_len;
	bool		key_byval;
	Oid			time_type;
	int16		time_len;
	bool		time_byval;
	Oid			site_type;
	int16		site_len;
	bool		site_byval;
	FmgrInfo	key_cmp;		/* btree comparison of the key, collation "C" for text */
	FmgrInfo	time_cmp;
	FmgrInfo	key_eq;

	/* the fingerprint and what near means */
	bool		minhash;
	bool		excerpts;		/* the store keeps winnow(text) in wf */
	FpCall		fp;
	double		threshold;		/* Hamming radius, or least Jaccard estimate */
	double		cohesion;		/* a link must also be this near its story's original; NaN: none */
	int			lsh_bands;		/* MinHash: candidates share min_bands of these */
	int			lsh_rows;
	int			lsh_min_bands;
	TrackDedup	dedup;
	bool		dedup_site;		/* dedup only within a site */
	TrackState	state;

	DedupLockSpec locks;
	SPIPlanPtr	plans[PLAN_COUNT];
} TrackConfig;

/* A row of the store, in the caller's memory. */
typedef struct TrackRow
{
	Datum		key;
	Datum		at;
	Datum		site;
	bool		site_null;
	Datum		fp;
	bool		fp_null;
	Datum		doc;			/* the text, for the winnowed fingerprints (excerpts) */
	bool		doc_null;
	Datum		source;
	bool		source_null;
	Datum		story;
	double		score;
	bool		score_null;
} TrackRow;

/* A near row of the store, as PLAN_NEAR gives it. */
typedef struct TrackNear
{
	Datum		key;
	Datum		at;
	Datum		story;
	Datum		site;
	bool		site_null;
	double		score;			/* Hamming distance or Jaccard estimate */
	bool		earlier;		/* (at, key) before the row asked about */
	int32		idx;			/* the row's number in the fast relink (track_fast.c); -1 elsewhere */
} TrackNear;

/* The fingerprint of the original of a near row's story (false: none). */
typedef bool (*TrackRootFp) (TrackConfig *c, const TrackNear *y, Datum *fp, void *arg);

/* track_config.c */
extern TrackConfig *track_get_config(Oid config_relid, Relation rel);
extern TrackConfig *track_get_config_by_name(const char *name, Relation rel);
extern void track_release_config(TrackConfig *c);
extern void track_lock_side_tables(Oid store_relid);
extern int	track_compare(TrackConfig *c, Datum at1, Datum key1, Datum at2, Datum key2);
extern bool track_better(TrackConfig *c, double score1, double score2);
extern const char *track_key_text(TrackConfig *c, Datum key);

/*
 * Running as T's owner (track_store.c): in a security-restricted operation,
 * past row-level security, under search_path pg_catalog, pg_temp, in a GUC
 * nest level rolled back on leaving: whatever the owner's code sets (SET,
 * not SET LOCAL) does not outlive it, as PostgreSQL does for the code VACUUM
 * runs as a table's owner.  lookup: the near-row lookup's settings too
 * (dedup_lookup_settings()).  Leave in a PG_FINALLY.
 */
typedef struct TrackAsOwner
{
	Oid			save_userid;
	int			save_sec;
	int			level;
} TrackAsOwner;
extern void track_as_owner_enter(TrackConfig *c, TrackAsOwner *s, bool lookup);
extern void track_as_owner_leave(TrackAsOwner *s);

/* track_store.c: each runs as T's owner, with SPI connected by the caller */
extern void track_prepare_plans(TrackConfig *c);
extern char *track_operator_sql(Oid opr);
extern char *track_eq_sql(Oid type, const char *a, const char *b);
extern char *track_null_sql(Oid type, const char *expr, bool null);
extern char *track_same_pair_sql(Oid type, const char *a, const char *b);

/*
 * The widest key or site value of a tracked row, as the store's indexes keep
 * it: the pair index's row of a link holds four (two keys, two sites) and two
 * times, 4 x (640 + 7 of alignment) + 16 + 16 of header within btree's 2704.
 */
#define TRACK_VALUE_WIDTH_MAX 640
extern void track_check_row_width(TrackConfig *c, Datum key, Datum site, bool site_null);
extern int	track_near(TrackConfig *c, Datum fp, Datum at, Datum key, TrackNear **out, Snapshot snap);
extern int	track_near_in_scope(TrackConfig *c, const TrackRow *row, TrackNear **out, Snapshot snap);
extern bool track_read_row(TrackConfig *c, Datum key, TrackRow *row, Snapshot snap);
extern bool track_root_fp(TrackConfig *c, Datum key, Datum *fp, Snapshot snap);
extern void track_write_row(TrackConfig *c, const TrackRow *row);
extern void track_write_link(TrackConfig *c, Datum key, const TrackRow *link);
extern bool track_delete_row(TrackConfig *c, Datum key, TrackRow *old);
extern void track_write_site(TrackConfig *c, Datum key, Datum at, Datum site, bool site_null);
extern int	track_next_rows(TrackConfig *c, bool first, Datum at, Datum key, int limit,
							Datum **keys, Datum **ats, Snapshot snap);
extern uint64 track_run_fold(TrackConfig *c, bool all);
extern uint64 track_run_sql(TrackConfig *c, const char *sql);
extern double track_score(TrackConfig *c, Datum fp1, Datum fp2);
extern bool track_within(TrackConfig *c, double score, double bound);

/*
 * A story's counts over its store rows s, in SQL: what the summary keeps and
 * what the story report counts live, one definition for both (a NULL site is
 * no site).
 */
#define TRACK_STORY_COUNTS "count(*) AS size, count(DISTINCT s.site) AS sites, max(s.at) AS last_at"

/*
 * A site pair's counts over the links of copies c, given the expression of
 * their sources' time (the time the link keeps, c.source_at, or the source
 * row's own): the reprint summary's and the reprints report's, as above.
 * A delay is the difference of the times in their own type (a date plus
 * nothing is a timestamp): a cast of a timestamp to timestamptz depends on
 * the TimeZone of the session, and the summary keeps the folder's answer.
 */
#define TRACK_PAIR_COUNTS(source_at) "count(*) AS reprints, count(DISTINCT c.story) AS stories, " \
	"percentile_disc(0.5) WITHIN GROUP (ORDER BY (c.at + '0'::interval) - (" source_at " + '0'::interval)) AS median_delay"

/* track_story.c: the summaries, folded from the changed stories and site pairs */
extern Oid	track_side_table(Oid store_relid, const char *suffix);
extern char *track_pair_rows(const char *store, Oid site_type);
extern char *track_fold_sql(TrackConfig *c, const char *keq);
extern char *track_fold_pairs_sql(TrackConfig *c);
extern void track_maybe_fold(TrackConfig *c);

/* track_link.c */
extern void track_link_new(TrackConfig *c, TrackRow *row, Snapshot snap);
extern void track_relink_from(TrackConfig *c, Datum fp, bool fp_null, Datum at, Datum key, bool include_self);
extern bool track_relink_row(TrackConfig *c, Datum key, bool *changed);
extern int	track_choose_link(TrackConfig *c, Datum key, Datum fp, bool fp_null, TrackNear *near, int n,
							  TrackRootFp root_fp, void *arg, TrackRow *link);

/* track_fast.c: every link at once, in memory */
extern bool track_link_all_in_memory(TrackConfig *c, int64 *rows, int64 *changed);

/* track_pending.c: rows the dedup trigger let in, not in the store yet */
extern void track_pending_add(TrackConfig *c, const TrackRow *row);
extern bool track_pending_near(TrackConfig *c, const TrackRow *row, Datum *key, double *score);

/* the trigger's row locks: the keys a near row would share (dedup_locks.c) */
extern void track_lock_row(TrackConfig *c, Datum fp);
/* the lock of every row, exclusive: for a batch of links */
extern void track_lock_table(TrackConfig *c);

#endif							/* TEXTFP_TRACK_H */
