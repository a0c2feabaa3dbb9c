/*
 * minhash_selfuncs.c: ANALYZE statistics and planner selectivity for the
 * Jaccard operators % and <@ / @> of minhash_sig.
 *
 * The model follows simhash64_selfuncs.c: a row reaches the threshold with
 * a query if it is one of the column's most common values that does (the
 * standard MCV list, compared exactly), or with the probability that two
 * ordinary rows do, which ANALYZE measures on pairs of sampled rows (a slot
 * of our own kind) and so sees the column's families of near duplicates.
 * Joins add the MCV pairs; queries unknown at plan time add the chance of
 * meeting the row itself, as eqsel does.
 */
#include "postgres.h"

#include <math.h>

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
 * pg_statistic kind of our slot: the share of sampled row pairs with at
 * least c equal positions (c = 0..k), then the number of pairs; k is the
 * slot's length less 2.  Kinds 10000 to 30000 are for private use.
 */
#define TEXTFP_STATISTIC_KIND_JACCARD 10465

/* Sampled rows that take part in pairs: at most 2,000, fewer for large k. */
#define PAIR_ROWS 2000
#define PAIR_WORK (PAIR_ROWS * PAIR_ROWS / 2 * 128)

/* Without statistics of ours: a share of rows like matchingsel's default. */
#define DEFAULT_JACCARD_SEL 0.005

static bool
same_header(const MinhashSig *a, const MinhashSig *b)
{
	return a->k == b->k && a->method == b->method && a->value_bits == b->value_bits &&
		a->pipeline == b->pipeline && a->seed_hi == b->seed_hi && a->seed_lo == b->seed_lo;
}

static bool
same_sig(const MinhashSig *a, const MinhashSig *b)
{
	return VARSIZE(a) == VARSIZE(b) && memcmp(a, b, VARSIZE(a)) == 0;
}

static void
minhash_compute_stats(VacAttrStats *stats, AnalyzeAttrFetchFunc fetchfunc,
					  int samplerows, double totalrows)
{
	MinhashSig **mcv = NULL;
	int			nmcv = 0;
	int			slot = textfp_free_stats_slot(stats);
	MinhashSig *first = NULL;
	const uint32 **rows;
	int			n = 0;
	int			k;
	size_t		max_rows;
	double	   *share;
	uint64		pairs;
	MemoryContext old;
	float4	   *numbers;
	tfp_env		env;

	if (slot < 0)
		return;
	for (int i = 0; i < STATISTIC_NUM_SLOTS; i++)
		if (stats->stakind[i] == STATISTIC_KIND_MCV)
		{
			nmcv = stats->numvalues[i];
			mcv = (MinhashSig **) palloc(sizeof(MinhashSig *) * Max(nmcv, 1));
			for (int j = 0; j < nmcv; j++)
				mcv[j] = DatumGetMinhashSigP(stats->stavalues[i][j]);
		}

	/* ordinary rows made like the first one (a column should hold one kind) */
	rows = (const uint32 **) palloc(sizeof(uint32 *) * Max(samplerows, 1));
	for (int i = 0; i < samplerows; i++)
	{
		bool		isnull;
		Datum		d = fetchfunc(stats, i, &isnull);
		MinhashSig *sig;
		bool		common = false;

		vacuum_delay_point();
		if (isnull)
			continue;
		sig = DatumGetMinhashSigP(d);
		for (int j = 0; j < nmcv && !common; j++)
			common = same_sig(mcv[j], sig);
		if (common)
			continue;
		if (first == NULL)
			first = sig;
		if (same_header(first, sig))
			rows[n++] = sig->values;
	}
	if (first == NULL)
		return;
	k = first->k;
	/* keep the work near 2,000 rows at k = 128 */
	max_rows = (size_t) sqrt(2.0 * PAIR_WORK / k);
	max_rows = Min(max_rows, PAIR_ROWS);
	share = (double *) palloc(sizeof(double) * (k + 1));
	textfp_env_init(&env, CurrentMemoryContext);
	pairs = tfp_minhash_pair_matches(rows, n, k, max_rows, share, &env);
	if (pairs == 0)
		return;

	old = MemoryContextSwitchTo(stats->anl_context);
	numbers = (float4 *) palloc(sizeof(float4) * (k + 2));
	MemoryContextSwitchTo(old);
	for (int c = 0; c <= k; c++)
		numbers[c] = (float4) share[c];
	numbers[k + 1] = (float4) pairs;
	stats->stakind[slot] = TEXTFP_STATISTIC_KIND_JACCARD;
	stats->staop[slot] = InvalidOid;
	stats->stacoll[slot] = InvalidOid;
	stats->stanumbers[slot] = numbers;
	stats->numnumbers[slot] = k + 2;
}

PG_FUNCTION_INFO_V1(minhash_sig_analyze);
Datum
minhash_sig_analyze(PG_FUNCTION_ARGS)
{
	VacAttrStats *stats = (VacAttrStats *) PG_GETARG_POINTER(0);
	const TextfpObjects *obj = textfp_objects();

	/* sampled values are read as signatures only in minhash_sig columns */
	if (obj == NULL || !textfp_is_type(stats->attrtypid, obj->minhash_sig))
		PG_RETURN_BOOL(std_typanalyze(stats));
	PG_RETURN_BOOL(textfp_typanalyze(stats, minhash_compute_stats));
}

/* What the statistics say about one signature column or expression. */
typedef struct JaccardStats
{
	double		nullfrac;
	double		mcv_total;		/* share of rows that are MCVs */
	int			nmcv;
	MinhashSig **mcv;
	double	   *mcv_freq;
	double		pair_share;		/* share of ordinary pairs reaching t */
	double		ndistinct;		/* ordinary distinct values, or 0 */
} JaccardStats;

static void
jaccard_stats(VariableStatData *vd, double t, const TextfpObjects *obj, JaccardStats *js)
{
	AttStatsSlot sslot;
	bool		isdefault;

	memset(js, 0, sizeof(*js));
	js->pair_share = DEFAULT_JACCARD_SEL;
	/* only a minhash_sig expression's statistics are read as signatures */
	if (!HeapTupleIsValid(vd->statsTuple) || !vd->acl_ok ||
		!textfp_is_type(vd->vartype, obj->minhash_sig))
		return;
	js->nullfrac = ((Form_pg_statistic) GETSTRUCT(vd->statsTuple))->stanullfrac;

	if (textfp_mcv_slot(vd, obj->minhash_sig, &sslot))
	{
		js->mcv = (MinhashSig **) palloc(sizeof(MinhashSig *) * Max(sslot.nvalues, 1));
		js->mcv_freq = (double *) palloc(sizeof(double) * Max(sslot.nvalues, 1));
		for (int i = 0; i < sslot.nvalues; i++)
		{
			/* copies: the slot's values go when it is freed */
			MinhashSig *sig = (MinhashSig *) PG_DETOAST_DATUM_COPY(sslot.values[i]);

			js->mcv_total += sslot.numbers[i];
			if (!minhash_sig_is_valid(sig))
				continue;		/* counted in mcv_total, compared with nothing */
			js->mcv[js->nmcv] = sig;
			js->mcv_freq[js->nmcv++] = sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}

	if (get_attstatsslot(&sslot, vd->statsTuple, TEXTFP_STATISTIC_KIND_JACCARD,
						 InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		int			k = sslot.nnumbers - 2;

		if (k >= 1 && k <= TFP_MINHASH_K_MAX)
		{
			int			c = tfp_jaccard_needed(t, k);
			double		pairs = sslot.numbers[k + 1];

			/* none of the sampled pairs: less than one in all of them */
			js->pair_share = c <= k ? sslot.numbers[c] : 0;
			js->pair_share = Max(js->pair_share, 0.5 / Max(pairs, 1.0));
		}
		free_attstatsslot(&sslot);
	}

	js->ndistinct = get_variable_numdistinct(vd, &isdefault) - js->nmcv;
	if (isdefault || js->ndistinct < 1)
		js->ndistinct = 0;
}

static double
ordinary_share(const JaccardStats *js)
{
	return Max(0.0, 1.0 - js->nullfrac - js->mcv_total);
}

static bool
reaches(const MinhashSig *a, const MinhashSig *b, double t)
{
	return same_header(a, b) &&
		tfp_minhash_matches(a->values, b->values, a->k) >= tfp_jaccard_needed(t, a->k);
}

static double
sel_known(const JaccardStats *js, const MinhashSig *q, double t)
{
	double		sel = 0;

	for (int i = 0; i < js->nmcv; i++)
		if (reaches(js->mcv[i], q, t))
			sel += js->mcv_freq[i];
	return sel + ordinary_share(js) * js->pair_share;
}

static double
sel_unknown(const JaccardStats *js)
{
	double		nd = js->ndistinct + js->nmcv;

	return ordinary_share(js) * js->pair_share + (nd >= 1 ? 1.0 / nd : 0);
}

static double
sel_pairs(const JaccardStats *a, const JaccardStats *b, double t)
{
	double		sel = 0;
	double		equal = 0;

	for (int i = 0; i < a->nmcv; i++)
		for (int j = 0; j < b->nmcv; j++)
			if (reaches(a->mcv[i], b->mcv[j], t))
				sel += a->mcv_freq[i] * b->mcv_freq[j];
	if (a->ndistinct > 0 || b->ndistinct > 0)
		equal = 1.0 / Max(a->ndistinct, b->ndistinct);
	return sel + ordinary_share(a) * ordinary_share(b) *
		(Max(a->pair_share, b->pair_share) + equal);
}

/* What the planner knows of the ball side of <@ or @>. */
typedef struct BallParts
{
	double		t;				/* the ball's threshold, or the setting */
	bool		isnull;			/* a NULL constant: nothing qualifies */
	const MinhashSig *known;	/* the ball's signature, when constant */
	Node	   *sig;			/* the signature expression of jaccard_ball(sig, t) */
} BallParts;

/*
 * A constant ball, or a call of textfp's own jaccard_ball(sig, t), recognised
 * by its OID: a function of the same name and signature elsewhere is not
 * ours, and its arguments mean nothing to us.
 */
static void
ball_parts(PlannerInfo *root, Node *ball, const TextfpObjects *obj, BallParts *bp)
{
	memset(bp, 0, sizeof(*bp));
	bp->t = textfp_jaccard_threshold;
	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const))
	{
		Const	   *c = (Const *) ball;

		if (c->constisnull)
			bp->isnull = true;
		else if (textfp_is_type(c->consttype, obj->jaccard_ball))
		{
			JaccardBall *b = DatumGetJaccardBallP(c->constvalue);

			bp->t = b->threshold;
			bp->known = &b->sig;
		}
		return;
	}
	if (IsA(ball, FuncExpr) && ((FuncExpr *) ball)->funcid == obj->jaccard_ball_fn &&
		list_length(((FuncExpr *) ball)->args) == 2)
	{
		FuncExpr   *f = (FuncExpr *) ball;
		Node	   *thr = estimate_expression_value(root, lsecond(f->args));
		Node	   *sig = estimate_expression_value(root, linitial(f->args));

		if (IsA(thr, Const) && ((Const *) thr)->consttype == FLOAT8OID)
		{
			double		t = DatumGetFloat8(((Const *) thr)->constvalue);

			if (((Const *) thr)->constisnull)
				bp->isnull = true;	/* jaccard_ball is STRICT */
			else if (t >= 0.0 && t <= 1.0)	/* else the call fails: any guess */
				bp->t = t;
		}
		if (IsA(sig, Const) && textfp_is_type(((Const *) sig)->consttype, obj->minhash_sig))
		{
			if (((Const *) sig)->constisnull)
				bp->isnull = true;
			else
				bp->known = DatumGetMinhashSigP(((Const *) sig)->constvalue);
		}
		bp->sig = (Node *) linitial(f->args);
	}
}

PG_FUNCTION_INFO_V1(minhash_sig_jaccard_sel);
Datum
minhash_sig_jaccard_sel(PG_FUNCTION_ARGS)
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
	double		t = textfp_jaccard_threshold;
	const MinhashSig *known = NULL;
	JaccardStats js;
	double		sel;

	if (obj == NULL || list_length(args) != 2)
		PG_RETURN_FLOAT8(DEFAULT_JACCARD_SEL);
	shape = textfp_operator_shape(operator, obj->minhash_sig, obj->jaccard_ball);
	if (shape == TEXTFP_OP_OTHER ||
		!get_restriction_variable(root, args, varRelid, &vd, &other, &varonleft))
		PG_RETURN_FLOAT8(DEFAULT_JACCARD_SEL);
	if (shape != TEXTFP_OP_NEAR && varonleft != (shape == TEXTFP_OP_BALL_RIGHT))
	{
		/* a column of balls against a signature: no statistics of ours */
		ReleaseVariableStats(vd);
		PG_RETURN_FLOAT8(DEFAULT_JACCARD_SEL);
	}
	if (IsA(other, Const) && ((Const *) other)->constisnull)
	{
		ReleaseVariableStats(vd);
		PG_RETURN_FLOAT8(0.0);
	}
	if (shape == TEXTFP_OP_NEAR)
	{
		if (IsA(other, Const) && textfp_is_type(((Const *) other)->consttype, obj->minhash_sig))
			known = DatumGetMinhashSigP(((Const *) other)->constvalue);
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
		t = bp.t;
		known = bp.known;
	}

	jaccard_stats(&vd, t, obj, &js);
	sel = known ? sel_known(&js, known, t) : sel_unknown(&js);
	ReleaseVariableStats(vd);
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel));
}

/* The statistics of expression e, if it is a signature (else none). */
static void
expr_stats(PlannerInfo *root, Node *e, double t, const TextfpObjects *obj, JaccardStats *js)
{
	VariableStatData vd;

	examine_variable(root, e, 0, &vd);
	jaccard_stats(&vd, t, obj, js);
	ReleaseVariableStats(vd);
}

PG_FUNCTION_INFO_V1(minhash_sig_jaccard_joinsel);
Datum
minhash_sig_jaccard_joinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	const TextfpObjects *obj = textfp_objects();
	TextfpOpShape shape;
	double		t = textfp_jaccard_threshold;
	Node	   *sig_a;
	Node	   *sig_b;
	JaccardStats ja,
				jb;

	if (obj == NULL || list_length(args) != 2)
		PG_RETURN_FLOAT8(DEFAULT_JACCARD_SEL);
	shape = textfp_operator_shape(operator, obj->minhash_sig, obj->jaccard_ball);
	if (shape == TEXTFP_OP_OTHER)
		PG_RETURN_FLOAT8(DEFAULT_JACCARD_SEL);
	if (shape == TEXTFP_OP_NEAR)
	{
		sig_a = linitial(args);
		sig_b = lsecond(args);
	}
	else
	{
		BallParts	bp;

		sig_a = shape == TEXTFP_OP_BALL_LEFT ? lsecond(args) : linitial(args);
		ball_parts(root, shape == TEXTFP_OP_BALL_LEFT ? linitial(args) : lsecond(args),
				   obj, &bp);
		if (bp.isnull)
			PG_RETURN_FLOAT8(0.0);
		t = bp.t;
		sig_b = bp.sig;
	}

	expr_stats(root, sig_a, t, obj, &ja);
	if (sig_b != NULL)
		expr_stats(root, sig_b, t, obj, &jb);
	else
		jb = ja;
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel_pairs(&ja, &jb, t)));
}
