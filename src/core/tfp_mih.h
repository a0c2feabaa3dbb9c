/*
 * tfp_mih.h: multi-index hashing (Norouzi, Punjani and Fleet, 2012) for exact
 * Hamming radius search over 64-bit codes, the pure-C half of the mih access
 * method.
 *
 * The 64 bits split into m disjoint substrings; table i keeps every code in
 * the bucket of its substring i.  If per-table probe radii t[i] (t[i] = -1
 * for a table not probed) satisfy sum(t[i] + 1) > r, a code within r bits of
 * the query differs in at most t[i] bits on some probed substring i, so
 * looking in every bucket within t[i] of the query's substring i finds it.
 * Each candidate is then verified against the whole code (a popcount), so
 * only true answers come out.  A code lies in m buckets, one per table: the
 * emission rule (tfp_mih_emit) reports it from one table only.
 *
 * No PostgreSQL headers: the planner of probes, the cost model that chooses m
 * and the verification kernel run the same in the server, in the unit tests
 * and in bench/mih/micro.c.
 */
#ifndef TFP_MIH_H
#define TFP_MIH_H

#include "tfp_core.h"

#define TFP_MIH_M_MIN 4			/* substrings of at most 16 bits */
#define TFP_MIH_M_MAX 16		/* substrings of 4 bits */
#define TFP_MIH_WIDTH_MAX 16	/* widest substring: 2^16 buckets a table */

/* The radius the default m is chosen for: textfp.hamming_threshold's default. */
#define TFP_MIH_DESIGN_RADIUS 10

typedef struct tfp_mih_layout
{
	int			m;
	uint8_t		width[TFP_MIH_M_MAX];
	uint8_t		shift[TFP_MIH_M_MAX];
	uint32_t	offset[TFP_MIH_M_MAX + 1];	/* first bucket id of each table */
} tfp_mih_layout;

/*
 * Substrings as the GIN blocks of blocks.c: contiguous, substring 0 the most
 * significant, the wider ones first.  m must lie in TFP_MIH_M_MIN ..
 * TFP_MIH_M_MAX.  offset[i] numbers the buckets of all tables in one
 * sequence (offset[m] is their total), which the predicate locks use.
 */
extern void tfp_mih_layout_init(tfp_mih_layout *l, int m);

static inline uint32_t
tfp_mih_substring(const tfp_mih_layout *l, int i, uint64_t code)
{
	return (uint32_t) ((code >> l->shift[i]) & ((UINT64_C(1) << l->width[i]) - 1));
}

/*
 * The cost model: relative costs of the work of a query, looking into one
 * bucket (in the server: a directory entry and a buffer pinned, locked and
 * searched), verifying one candidate (a popcount over contiguous codes), and
 * reading one page of a table whole (a full pass); only their ratios matter.
 * And the page geometry that sizes an index: entries a bucket page holds
 * (after the build's fill factor), directory entries a page holds.
 */
typedef struct tfp_mih_costs
{
	double		probe;
	double		candidate;
	double		page;
	double		entries_per_page;
	double		dir_entries_per_page;
} tfp_mih_costs;

/* The server's constants, measured (docs/indexing.md, bench/mih). */
extern const tfp_mih_costs tfp_mih_default_costs;

/* How one query reads the index. */
typedef struct tfp_mih_plan
{
	int			radius;			/* 0..64 */
	bool		full_pass;		/* read table 0 whole instead of probing */
	int8_t		t[TFP_MIH_M_MAX];	/* probe radius per table, -1 = not probed */
	uint64_t	probes;			/* buckets looked into */
	double		candidates;		/* expected codes verified */
	double		cost;			/* in units of tfp_mih_costs */
} tfp_mih_plan;

/*
 * The cheapest way to answer a radius-r query (r clamped to 0..64) over rows
 * codes, under the cost model, assuming codes spread evenly over each table's
 * buckets (skew multiplies the candidates of every plan alike).  Probe radii
 * are raised one step at a time where the next step costs least (the shells
 * C(w, t) grow with t up to w / 2), and a full pass over one table replaces
 * the probes when it is cheaper.
 */
extern void tfp_mih_plan_query(const tfp_mih_layout *l, int r, double rows,
							   const tfp_mih_costs *c, tfp_mih_plan *p);

/*
 * The m a new index gets for a table of rows: among m = TFP_MIH_M_MIN ..
 * TFP_MIH_DEFAULT_M_MAX, those whose query at the design radius costs at
 * most TFP_MIH_COST_SLACK times the least, and of those the smallest index
 * (tfp_mih_pages).  The substring width grows with log2(rows), so m shrinks
 * as tables grow.  The rows count as at least TFP_MIH_MIN_DESIGN_ROWS:
 * tables often grow after their index is made (an index made on an empty
 * table should serve it at a million rows), and a small table's index is
 * small whatever m is.
 */
#define TFP_MIH_DEFAULT_M_MAX 8
#define TFP_MIH_COST_SLACK 1.10
#define TFP_MIH_MIN_DESIGN_ROWS 100000.0
extern int	tfp_mih_choose_m(double rows, const tfp_mih_costs *c);

/* Pages of an index of rows with layout l, under the geometry of c. */
extern double tfp_mih_pages(const tfp_mih_layout *l, double rows, const tfp_mih_costs *c);

/*
 * Whether table i reports a code found there (the caller verified that it
 * lies within the radius): i is the first probed table whose probe ball
 * holds the code's substring.  Every answer lies in such a table's probed
 * buckets, so each is reported exactly once, whatever else a page read for
 * those buckets holds.  A full pass reads one table: everything it finds.
 */
static inline bool
tfp_mih_emit(const tfp_mih_layout *l, const tfp_mih_plan *p, int i,
			 uint64_t code, uint64_t q)
{
	uint64_t	x = code ^ q;

	if (p->full_pass)
		return true;
	for (int j = 0; j <= i; j++)
	{
		bool		caught = p->t[j] >= 0 &&
			tfp_popcount64(x & (((UINT64_C(1) << l->width[j]) - 1) << l->shift[j])) <= p->t[j];

		if (caught)
			return j == i;
	}
	return false;
}

/*
 * Verification kernel: writes to hits[] the indexes j < n with
 * popcount(codes[j] ^ q) <= r, in order, and returns how many.  Uses the
 * POPCNT instruction where the CPU has it (chosen once), a portable loop
 * elsewhere.
 */
extern size_t tfp_mih_verify(const uint64_t *codes, size_t n, uint64_t q, int r,
							 uint16_t *hits);

/* The portable loop, for tests that compare the two. */
extern size_t tfp_mih_verify_portable(const uint64_t *codes, size_t n, uint64_t q,
									  int r, uint16_t *hits);

/* How many w-bit values lie within t bits of one (sum of C(w, d), d <= t). */
extern uint64_t tfp_mih_ball_size(int w, int t);

#endif							/* TFP_MIH_H */
