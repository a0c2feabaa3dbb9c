/*
 * simhash64_selfuncs.c: ANALYZE statistics and planner selectivity for the
 * Hamming operators % and <@ / @>.
 *
 * The model: a row lies within r bits of a query
 *   - if it is one of the column's most common values within r of it (the
 *     MCV list that the standard statistics keep), or
 *   - with the probability that two ordinary rows lie within r bits.  ANALYZE
 *     measures that on pairs of sampled rows (outside the MCVs), a slot of
 *     our own kind; it sees near-duplicate families that random bits would
 *     not have.  The binomial tail of random 64-bit values is the floor.
 * Joins add the MCV pairs within r; queries whose argument is unknown at plan
 * time (parameters, the inner side of a nested loop) add the chance of
 * meeting the row itself instead, as eqsel does.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "commands/vacuum.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "selfuncs_common.h"
#include "textfp.h"

/*
 * pg_statistic kind of our slot: cumulative share of sampled row pairs at
 * distance <= d (d = 0..64), then the number of pairs.  Kinds from 10000 to
 * 30000 are for private use (pg_statistic.h).
 */
#define TEXTFP_STATISTIC_KIND_HAMMING 10464
#define HAMMING_SLOT_NUMBERS (SIMHASH_BITS + 2)

/* Rows of the sample that take part in pairs: 2,000 rows, ~2M pairs. */
#define PAIR_ROWS 2000

static void
simhash64_compute_stats(VacAttrStats *stats, AnalyzeAttrFetchFunc fetchfunc,
						int samplerows, double totalrows)
{
	Datum	   *mcv = NULL;
	int			nmcv = 0;
	int			slot = textfp_free_stats_slot(stats);
	uint64	   *v;
	int			n = 0;
	double		cum[SIMHASH_BITS + 1];
	uint64		pairs;
	MemoryContext old;
	float4	   *numbers;

	if (slot < 0)
		return;
	for (int i = 0; i < STATISTIC_NUM_SLOTS; i++)
		if (stats->stakind[i] == STATISTIC_KIND_MCV)
		{
			mcv = stats->stavalues[i];
			nmcv = stats->numvalues[i];
		}

	/* ordinary rows: not NULL, not an MCV (those are counted exactly) */
	v = (uint64 *) palloc(sizeof(uint64) * Max(samplerows, 1));
	for (int i = 0; i < samplerows; i++)
	{
		bool		isnull;
		Datum		d = fetchfunc(stats, i, &isnull);
		bool		common = false;

		vacuum_delay_point();
		if (isnull)
			continue;
		for (int j = 0; j < nmcv && !common; j++)
			common = DatumGetSimhash64(mcv[j]) == DatumGetSimhash64(d);
		if (!common)
			v[n++] = DatumGetSimhash64(d);
	}
	pairs = tfp_pair_distances(v, n, PAIR_ROWS, cum);
	pfree(v);
	if (pairs == 0)
		return;

	old = MemoryContextSwitchTo(stats->anl_context);
	numbers = (float4 *) palloc(sizeof(float4) * HAMMING_SLOT_NUMBERS);
	MemoryContextSwitchTo(old);
	for (int d = 0; d <= SIMHASH_BITS; d++)
		numbers[d] = (float4) cum[d];
	numbers[SIMHASH_BITS + 1] = (float4) pairs;
	stats->stakind[slot] = TEXTFP_STATISTIC_KIND_HAMMING;
	stats->staop[slot] = InvalidOid;
	stats->stacoll[slot] = InvalidOid;
	stats->stanumbers[slot] = numbers;
	stats->numnumbers[slot] = HAMMING_SLOT_NUMBERS;
}

PG_FUNCTION_INFO_V1(simhash64_analyze);
Datum
simhash64_analyze(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(textfp_typanalyze((VacAttrStats *) PG_GETARG_POINTER(0),
									 simhash64_compute_stats));
}

/* What the statistics say about one fingerprint column or expression. */
typedef struct HammingStats
{
	bool		have;
	double		nullfrac;
	double		mcv_total;		/* share of rows that are MCVs */
	int			nmcv;
	uint64	   *mcv;
	double	   *mcv_freq;
	double		pair_within;	/* share of ordinary pairs within r */
	double		ndistinct;		/* ordinary distinct values, or 0 */
} HammingStats;

static void
hamming_stats(VariableStatData *vd, int r, HammingStats *hs)
{
	AttStatsSlot sslot;
	bool		isdefault;

	memset(hs, 0, sizeof(*hs));
	hs->pair_within = tfp_random_within(r);
	if (!HeapTupleIsValid(vd->statsTuple) || !vd->acl_ok)
		return;
	hs->have = true;
	hs->nullfrac = ((Form_pg_statistic) GETSTRUCT(vd->statsTuple))->stanullfrac;

	if (get_attstatsslot(&sslot, vd->statsTuple, STATISTIC_KIND_MCV, InvalidOid,
						 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		hs->nmcv = sslot.nvalues;
		hs->mcv = (uint64 *) palloc(sizeof(uint64) * Max(sslot.nvalues, 1));
		hs->mcv_freq = (double *) palloc(sizeof(double) * Max(sslot.nvalues, 1));
		for (int i = 0; i < sslot.nvalues; i++)
		{
			hs->mcv[i] = DatumGetSimhash64(sslot.values[i]);
			hs->mcv_freq[i] = sslot.numbers[i];
			hs->mcv_total += sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}

	if (get_attstatsslot(&sslot, vd->statsTuple, TEXTFP_STATISTIC_KIND_HAMMING,
						 InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers == HAMMING_SLOT_NUMBERS && r >= 0)
			hs->pair_within = Max(hs->pair_within,
								  sslot.numbers[Min(r, SIMHASH_BITS)]);
		free_attstatsslot(&sslot);
	}

	hs->ndistinct = get_variable_numdistinct(vd, &isdefault) - hs->nmcv;
	if (isdefault || hs->ndistinct < 1)
		hs->ndistinct = 0;
}

static double
ordinary_share(const HammingStats *hs)
{
	return Max(0.0, 1.0 - hs->nullfrac - hs->mcv_total);
}

/* Share of rows within r of the known fingerprint q. */
static double
sel_known(const HammingStats *hs, uint64 q, int r)
{
	double		sel = 0;

	for (int i = 0; i < hs->nmcv; i++)
		if (tfp_hamming64(hs->mcv[i], q) <= r)
			sel += hs->mcv_freq[i];
	return sel + ordinary_share(hs) * hs->pair_within;
}

/*
 * Share of rows within r of a query not known at plan time (a parameter, the
 * outer row of a nested loop): an ordinary row's near duplicates, or the
 * row itself.  Like eqsel's 1/ndistinct, it does not weigh in the MCVs.
 */
static double
sel_unknown(const HammingStats *hs, int r)
{
	double		nd = hs->ndistinct + hs->nmcv;

	return ordinary_share(hs) * hs->pair_within + (nd >= 1 ? 1.0 / nd : 0);
}

/* Share of pairs within r, one row from each side. */
static double
sel_pairs(const HammingStats *a, const HammingStats *b, int r)
{
	double		sel = 0;
	double		equal = 0;

	for (int i = 0; i < a->nmcv; i++)
		for (int j = 0; j < b->nmcv; j++)
			if (tfp_hamming64(a->mcv[i], b->mcv[j]) <= r)
				sel += a->mcv_freq[i] * b->mcv_freq[j];
	/* two ordinary rows can also be the same row or an equal value */
	if (a->ndistinct > 0 || b->ndistinct > 0)
		equal = 1.0 / Max(a->ndistinct, b->ndistinct);
	return sel + ordinary_share(a) * ordinary_share(b) *
		(Max(a->pair_within, b->pair_within) + equal);
}

/*
 * For <@ and @>: the fingerprint expression inside a hamming_ball(fp, r)
 * call, and r if it is a constant; otherwise -1 for the radius.
 */
static Node *
ball_parts(PlannerInfo *root, Node *ball, Oid ball_type, int *radius)
{
	*radius = -1;
	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const))
	{
		Const	   *c = (Const *) ball;

		if (!c->constisnull && c->consttype == ball_type)
			*radius = ((HammingBall *) DatumGetPointer(c->constvalue))->radius;
		return NULL;
	}
	if (IsA(ball, FuncExpr) && ((FuncExpr *) ball)->funcresulttype == ball_type &&
		list_length(((FuncExpr *) ball)->args) == 2)
	{
		FuncExpr   *f = (FuncExpr *) ball;
		Node	   *rad = lsecond(f->args);

		if (IsA(rad, Const) && !((Const *) rad)->constisnull)
			*radius = DatumGetInt32(((Const *) rad)->constvalue);
		return (Node *) linitial(f->args);
	}
	return NULL;
}

PG_FUNCTION_INFO_V1(simhash64_hamming_sel);
Datum
simhash64_hamming_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	VariableStatData vd;
	Node	   *other;
	bool		varonleft;
	bool		is_near,
				ball_on_left;
	Oid			ball_type;
	int			r = textfp_hamming_threshold;
	HammingStats hs;
	double		sel;

	textfp_operator_shape(operator, &is_near, &ball_on_left, &ball_type);
	if (!get_restriction_variable(root, args, varRelid, &vd, &other, &varonleft))
	{
		/* neither side is a plain column: the random-bits model alone */
		if (!is_near)
			(void) ball_parts(root, ball_on_left ? linitial(args) : lsecond(args),
							  ball_type, &r);
		PG_RETURN_FLOAT8(textfp_clamp_sel(tfp_random_within(r < 0 ? textfp_hamming_threshold : r)));
	}

	if (is_near)
	{
		hamming_stats(&vd, r, &hs);
		if (IsA(other, Const) && !((Const *) other)->constisnull)
			sel = sel_known(&hs, DatumGetSimhash64(((Const *) other)->constvalue), r);
		else if (IsA(other, Const))
			sel = 0;
		else
			sel = sel_unknown(&hs, r);
	}
	else if (vd.vartype == ball_type)
	{
		/* a column of balls against a fingerprint: no statistics of ours */
		sel = tfp_random_within(textfp_hamming_threshold);
	}
	else
	{
		uint64		center = 0;
		bool		known = false;
		Node	   *fp = ball_parts(root, other, ball_type, &r);

		if (IsA(other, Const))
		{
			if (((Const *) other)->constisnull)
			{
				ReleaseVariableStats(vd);
				PG_RETURN_FLOAT8(0.0);
			}
			center = ((HammingBall *) DatumGetPointer(((Const *) other)->constvalue))->center;
			known = true;
		}
		else if (fp != NULL)
		{
			fp = estimate_expression_value(root, fp);
			if (IsA(fp, Const) && !((Const *) fp)->constisnull)
			{
				center = DatumGetSimhash64(((Const *) fp)->constvalue);
				known = true;
			}
		}
		if (r < 0)
			r = textfp_hamming_threshold;
		hamming_stats(&vd, r, &hs);
		sel = known ? sel_known(&hs, center, r) : sel_unknown(&hs, r);
	}
	ReleaseVariableStats(vd);
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel));
}

PG_FUNCTION_INFO_V1(simhash64_hamming_joinsel);
Datum
simhash64_hamming_joinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	bool		is_near,
				ball_on_left;
	Oid			ball_type;
	int			r = textfp_hamming_threshold;
	Node	   *fp_a;
	Node	   *fp_b;
	VariableStatData vda,
				vdb;
	HammingStats ha,
				hb;
	double		sel;

	textfp_operator_shape(operator, &is_near, &ball_on_left, &ball_type);
	if (list_length(args) != 2)
		PG_RETURN_FLOAT8(tfp_random_within(r));
	if (is_near)
	{
		fp_a = linitial(args);
		fp_b = lsecond(args);
	}
	else
	{
		fp_a = ball_on_left ? lsecond(args) : linitial(args);
		fp_b = ball_parts(root, ball_on_left ? linitial(args) : lsecond(args),
						  ball_type, &r);
		if (r < 0)
			r = textfp_hamming_threshold;
	}

	examine_variable(root, fp_a, 0, &vda);
	hamming_stats(&vda, r, &ha);
	if (fp_b != NULL)
	{
		examine_variable(root, fp_b, 0, &vdb);
		hamming_stats(&vdb, r, &hb);
		ReleaseVariableStats(vdb);
	}
	else
		hb = ha;
	ReleaseVariableStats(vda);
	sel = sel_pairs(&ha, &hb, r);
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel));
}
