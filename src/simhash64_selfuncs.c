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
	tfp_env		env;

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
	textfp_env_init(&env, CurrentMemoryContext);
	pairs = tfp_pair_distances(v, n, PAIR_ROWS, cum, &env);
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
	VacAttrStats *stats = (VacAttrStats *) PG_GETARG_POINTER(0);
	const TextfpObjects *obj = textfp_objects();

	/* our pair statistics only for simhash64 columns (or domains over it) */
	if (obj == NULL || !textfp_is_type(stats->attrtypid, obj->simhash64))
		PG_RETURN_BOOL(std_typanalyze(stats));
	PG_RETURN_BOOL(textfp_typanalyze(stats, simhash64_compute_stats));
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
hamming_stats(VariableStatData *vd, int r, const TextfpObjects *obj, HammingStats *hs)
{
	AttStatsSlot sslot;
	bool		isdefault;

	memset(hs, 0, sizeof(*hs));
	hs->pair_within = tfp_random_within(r);
	/* only a simhash64 expression's statistics are read as fingerprints */
	if (!HeapTupleIsValid(vd->statsTuple) || !vd->acl_ok ||
		!textfp_is_type(vd->vartype, obj->simhash64))
		return;
	hs->have = true;
	hs->nullfrac = ((Form_pg_statistic) GETSTRUCT(vd->statsTuple))->stanullfrac;

	if (textfp_mcv_slot(vd, obj->simhash64, &sslot))
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

/* What the planner knows of the ball side of <@ or @>. */
typedef struct BallParts
{
	int			radius;			/* -1 when not known */
	bool		isnull;			/* a NULL constant: nothing qualifies */
	bool		known;			/* centre known */
	uint64		center;
	Node	   *fp;				/* the centre expression of hamming_ball(fp, r) */
} BallParts;

/*
 * A constant ball, or a call of textfp's own hamming_ball(fp, r), recognised
 * by its OID: a function of the same name and signature elsewhere is not
 * ours, and its arguments mean nothing to us.
 */
static void
ball_parts(PlannerInfo *root, Node *ball, const TextfpObjects *obj, BallParts *bp)
{
	memset(bp, 0, sizeof(*bp));
	bp->radius = -1;
	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const))
	{
		Const	   *c = (Const *) ball;

		if (c->constisnull)
			bp->isnull = true;
		else if (textfp_is_type(c->consttype, obj->hamming_ball))
		{
			HammingBall *b = (HammingBall *) DatumGetPointer(c->constvalue);

			bp->radius = b->radius;
			bp->center = b->center;
			bp->known = true;
		}
		return;
	}
	if (IsA(ball, FuncExpr) && ((FuncExpr *) ball)->funcid == obj->hamming_ball_fn &&
		list_length(((FuncExpr *) ball)->args) == 2)
	{
		FuncExpr   *f = (FuncExpr *) ball;
		Node	   *rad = estimate_expression_value(root, lsecond(f->args));
		Node	   *fp = estimate_expression_value(root, linitial(f->args));

		if (IsA(rad, Const) && ((Const *) rad)->consttype == INT4OID)
		{
			if (((Const *) rad)->constisnull)
				bp->isnull = true;	/* hamming_ball is STRICT */
			else
				bp->radius = DatumGetInt32(((Const *) rad)->constvalue);
		}
		if (IsA(fp, Const) && textfp_is_type(((Const *) fp)->consttype, obj->simhash64))
		{
			if (((Const *) fp)->constisnull)
				bp->isnull = true;
			else
			{
				bp->center = DatumGetSimhash64(((Const *) fp)->constvalue);
				bp->known = true;
			}
		}
		bp->fp = (Node *) linitial(f->args);
	}
	/* a radius the constructor would refuse: estimate with the setting */
	if (bp->radius > HAMMING_BALL_MAX_RADIUS)
		bp->radius = -1;
}

PG_FUNCTION_INFO_V1(simhash64_hamming_sel);
Datum
simhash64_hamming_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	const TextfpObjects *obj = textfp_objects();
	TextfpOpShape shape;
	VariableStatData vd;
	Node	   *other;
	bool		varonleft;
	int			r = textfp_hamming_threshold;
	HammingStats hs;
	double		sel;

	if (obj == NULL || list_length(args) != 2)
		PG_RETURN_FLOAT8(tfp_random_within(r));
	shape = textfp_operator_shape(operator, obj->simhash64, obj->hamming_ball);
	if (shape == TEXTFP_OP_OTHER)
		PG_RETURN_FLOAT8(tfp_random_within(r));

	if (!get_restriction_variable(root, args, varRelid, &vd, &other, &varonleft))
	{
		/* neither side is a plain column: the random-bits model alone */
		if (shape != TEXTFP_OP_NEAR)
		{
			BallParts	bp;

			ball_parts(root, shape == TEXTFP_OP_BALL_LEFT ? linitial(args) : lsecond(args),
					   obj, &bp);
			if (bp.radius >= 0)
				r = bp.radius;
		}
		PG_RETURN_FLOAT8(textfp_clamp_sel(tfp_random_within(r)));
	}

	if (shape == TEXTFP_OP_NEAR)
	{
		hamming_stats(&vd, r, obj, &hs);
		if (IsA(other, Const) && ((Const *) other)->constisnull)
			sel = 0;
		else if (IsA(other, Const) &&
				 textfp_is_type(((Const *) other)->consttype, obj->simhash64))
			sel = sel_known(&hs, DatumGetSimhash64(((Const *) other)->constvalue), r);
		else
			sel = sel_unknown(&hs, r);
	}
	else if (varonleft != (shape == TEXTFP_OP_BALL_RIGHT))
	{
		/* a column of balls against a fingerprint: no statistics of ours */
		sel = tfp_random_within(r);
	}
	else
	{
		BallParts	bp;

		ball_parts(root, other, obj, &bp);
		if (bp.isnull)
		{
			ReleaseVariableStats(vd);
			PG_RETURN_FLOAT8(0.0);
		}
		if (bp.radius >= 0)
			r = bp.radius;
		hamming_stats(&vd, r, obj, &hs);
		sel = bp.known ? sel_known(&hs, bp.center, r) : sel_unknown(&hs, r);
	}
	ReleaseVariableStats(vd);
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel));
}

/* The statistics of expression e, if it is a fingerprint (else none). */
static void
expr_stats(PlannerInfo *root, Node *e, int r, const TextfpObjects *obj, HammingStats *hs)
{
	VariableStatData vd;

	examine_variable(root, e, 0, &vd);
	hamming_stats(&vd, r, obj, hs);
	ReleaseVariableStats(vd);
}

PG_FUNCTION_INFO_V1(simhash64_hamming_joinsel);
Datum
simhash64_hamming_joinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	const TextfpObjects *obj = textfp_objects();
	TextfpOpShape shape;
	int			r = textfp_hamming_threshold;
	Node	   *fp_a;
	Node	   *fp_b;
	HammingStats ha,
				hb;

	if (obj == NULL || list_length(args) != 2)
		PG_RETURN_FLOAT8(tfp_random_within(r));
	shape = textfp_operator_shape(operator, obj->simhash64, obj->hamming_ball);
	if (shape == TEXTFP_OP_OTHER)
		PG_RETURN_FLOAT8(tfp_random_within(r));
	if (shape == TEXTFP_OP_NEAR)
	{
		fp_a = linitial(args);
		fp_b = lsecond(args);
	}
	else
	{
		BallParts	bp;

		fp_a = shape == TEXTFP_OP_BALL_LEFT ? lsecond(args) : linitial(args);
		ball_parts(root, shape == TEXTFP_OP_BALL_LEFT ? linitial(args) : lsecond(args),
				   obj, &bp);
		if (bp.isnull)
			PG_RETURN_FLOAT8(0.0);
		if (bp.radius >= 0)
			r = bp.radius;
		fp_b = bp.fp;
	}

	expr_stats(root, fp_a, r, obj, &ha);
	if (fp_b != NULL)
		expr_stats(root, fp_b, r, obj, &hb);
	else
		hb = ha;
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel_pairs(&ha, &hb, r)));
}
