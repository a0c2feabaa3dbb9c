/*
 * simhash64_cost.c: the planner's cost of GiST, SP-GiST and GIN scans of a
 * simhash64 column, and the radius of an index clause (shared with mih's
 * cost, mihcost.c).
 *
 * PostgreSQL costs a GiST or SP-GiST scan as if it read the share of the
 * index that answers (genericcostestimate: the selectivity times the index's
 * tuples and pages).  A radius query reads far more: a tree skips a subtree
 * only when the leading bits its fingerprints share already differ from the
 * query in more than r places, so it visits about P(Binomial(f, 1/2) <= r)
 * of the leaves, f the bits a leaf's fingerprints share (docs/indexing.md,
 * "How the trees bound distances"): at 100,000 rows 9% of an SP-GiST index
 * at radius 3 and 84% at radius 7 (measured: 9% and 76% of its page
 * reads), where a few rows answer.  The estimates below charge that share.  And GIN costs a query whose fingerprint is not
 * known at plan time (a parameter, the outer row of a join) as one key,
 * where it probes 428 at radius 10: such a query is costed as one of the
 * same radius with a known fingerprint, whose keys depend on the radius only.
 *
 * PostgreSQL gives an operator class no say in the cost of a scan, so the
 * estimators are put into the planner's view of each index of textfp's own
 * simhash64 families (get_relation_info_hook); other indexes keep their
 * access method's.  The hook is installed when the library is loaded, which
 * any textfp function, type input or mih index does; until then (a session's
 * first query that touches none of them) the access method's own estimate
 * applies.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/plancat.h"
#include "optimizer/restrictinfo.h"
#include "utils/index_selfuncs.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "textfp.h"

/*
 * The bits a leaf's fingerprints share, fitted to the index pages queries
 * read at radius 0 to 6 on text-like fingerprints at 100,000 rows, and in
 * line with the 1M-row benchmark's speedups: SP-GiST's leaves are groups of
 * about 32 fingerprints below a path of 4-bit labels, so they share
 * log2(rows / 32) bits; GiST's leaves are pages, and pages that straddle a
 * split share about 2 bits fewer than log2(pages).
 */
#define SPGIST_LEAF_GROUP	32.0
#define GIST_STRADDLE_BITS	2.0

/* Any fingerprint: what a query unknown at plan time is costed with. */
#define ANY_FINGERPRINT UINT64CONST(0x9E3779B97F4A7C15)

static get_relation_info_hook_type prev_get_relation_info = NULL;

static int
clamp_radius(int32 r)
{
	return r < 0 ? 0 : Min(r, SIMHASH_BITS);
}

/*
 * The radius of an index clause on a column of operator family opfamily, or
 * -1 when the plan cannot know it.  A clause counts only when its operator
 * is one of the family's with a known strategy, and the radius of <@ is read
 * only from a constant of textfp's own hamming_ball type or from textfp's
 * own hamming_ball(fp, constant) constructor (by OID, found through the
 * extension: catalog.c).
 */
static int
simhash64_clause_radius(PlannerInfo *root, Oid opfamily, Expr *clause)
{
	OpExpr	   *op;
	int			strategy;
	Oid			lefttype,
				righttype;
	Node	   *right;
	const TextfpObjects *own = textfp_objects();

	if (own == NULL || !IsA(clause, OpExpr))
		return -1;
	op = (OpExpr *) clause;
	if (list_length(op->args) != 2)
		return -1;
	strategy = get_op_opfamily_strategy(op->opno, opfamily);
	if (strategy < 1 || strategy > SIMHASH_WITHIN_STRATEGY)
		return -1;
	get_op_opfamily_properties(op->opno, opfamily, false,
							   &strategy, &lefttype, &righttype);
	switch (strategy)
	{
		case SIMHASH_EQ_STRATEGY:
			return 0;
		case SIMHASH_NEAR_STRATEGY:
			return clamp_radius(textfp_hamming_threshold);
		case SIMHASH_WITHIN_STRATEGY:
			if (righttype != own->hamming_ball)
				return -1;
			break;
		default:
			return -1;
	}
	right = estimate_expression_value(root, (Node *) lsecond(op->args));
	if (exprType(right) != righttype)
		return -1;
	if (IsA(right, Const))
	{
		Const	   *c = (Const *) right;

		if (c->constisnull)
			return 0;			/* no row matches */
		if (c->consttype != righttype || c->constlen != sizeof(HammingBall) || c->constbyval)
			return -1;
		return clamp_radius(((HammingBall *) DatumGetPointer(c->constvalue))->radius);
	}
	if (IsA(right, FuncExpr))
	{
		FuncExpr   *f = (FuncExpr *) right;
		Node	   *rad;

		if (list_length(f->args) != 2 || f->funcid != own->hamming_ball_fn)
			return -1;
		rad = (Node *) lsecond(f->args);
		if (IsA(rad, Const) && ((Const *) rad)->consttype == INT4OID)
			return ((Const *) rad)->constisnull ? 0 :
				clamp_radius(DatumGetInt32(((Const *) rad)->constvalue));
	}
	return -1;
}

int
simhash64_path_radius(PlannerInfo *root, IndexPath *path, bool *any)
{
	IndexOptInfo *info = path->indexinfo;
	int			radius = -1;
	ListCell   *lc;

	*any = false;
	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		if (iclause->indexcol != 0)
			continue;
		foreach(lc2, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc2);
			int			r = simhash64_clause_radius(root, info->opfamily[0], rinfo->clause);

			*any = true;
			if (r >= 0 && (radius < 0 || r < radius))
				radius = r;
		}
	}
	return radius >= 0 ? radius : clamp_radius(textfp_hamming_threshold);
}

/* --- GiST and SP-GiST --- */

/* P(Binomial(n, 1/2) <= r) */
static double
half_binomial_cdf(int n, int r)
{
	double		term = 1.0,
				sum = 1.0;

	if (r >= n)
		return 1.0;
	for (int j = 1; j <= r; j++)
	{
		term *= (double) (n - j + 1) / j;
		sum += term;
	}
	return ldexp(sum, -n);
}

/* The share of a tree's leaves a radius-r query visits when leaves share f bits. */
static double
tree_visit_share(double f, int r)
{
	int			lo;
	double		a,
				b;

	f = Max(0.0, Min(f, (double) SIMHASH_BITS));
	lo = (int) floor(f);
	a = half_binomial_cdf(lo, r);
	b = lo < SIMHASH_BITS ? half_binomial_cdf(lo + 1, r) : a;
	return a + (f - lo) * (b - a);
}

/*
 * genericcostestimate with the index tuples the traversal visits, then the
 * descent costs gistcostestimate and spgcostestimate add.
 */
static void
tree_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				  bool spgist, Cost *indexStartupCost, Cost *indexTotalCost,
				  Selectivity *indexSelectivity, double *indexCorrelation,
				  double *indexPages)
{
	IndexOptInfo *info = path->indexinfo;
	GenericCosts costs;
	bool		any;
	int			radius = simhash64_path_radius(root, path, &any);
	double		tuples = Max(info->tuples, 1.0);
	double		bits;
	Selectivity sel;
	Cost		descent;

	if (!any)
	{
		/* no radius clause (nearest neighbours only): the access method's estimate */
		if (spgist)
			spgcostestimate(root, path, loop_count, indexStartupCost, indexTotalCost,
							indexSelectivity, indexCorrelation, indexPages);
		else
			gistcostestimate(root, path, loop_count, indexStartupCost, indexTotalCost,
							 indexSelectivity, indexCorrelation, indexPages);
		return;
	}

	if (spgist)
		bits = log2(tuples / SPGIST_LEAF_GROUP);
	else
		bits = log2(Max((double) info->pages, 1.0)) - GIST_STRADDLE_BITS;
	sel = clauselist_selectivity(root,
								 add_predicate_to_index_quals(info,
															  get_quals_from_indexclauses(path->indexclauses)),
								 info->rel->relid, JOIN_INNER, NULL);

	MemSet(&costs, 0, sizeof(costs));
	/* every answer is a visited leaf tuple, whatever the model says */
	costs.numIndexTuples = Max(tree_visit_share(bits, radius) * tuples,
							   sel * info->rel->tuples);
	genericcostestimate(root, path, loop_count, &costs);

	/* as gistcostestimate and spgcostestimate: a fanout of 100 */
	if (info->tree_height < 0)
		info->tree_height = info->pages > 1 ? (int) (log(info->pages) / log(100.0)) : 0;
	if (info->tuples > 1)
	{
		descent = ceil(log(info->tuples)) * cpu_operator_cost;
		costs.indexStartupCost += descent;
		costs.indexTotalCost += costs.num_sa_scans * descent;
	}
	descent = (info->tree_height + 1) * 50.0 * cpu_operator_cost;
	costs.indexStartupCost += descent;
	costs.indexTotalCost += costs.num_sa_scans * descent;

	*indexStartupCost = costs.indexStartupCost;
	*indexTotalCost = costs.indexTotalCost;
	*indexSelectivity = costs.indexSelectivity;
	*indexCorrelation = costs.indexCorrelation;
	*indexPages = costs.numIndexPages;
}

static void
gist_simhash64_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
							Cost *indexStartupCost, Cost *indexTotalCost,
							Selectivity *indexSelectivity, double *indexCorrelation,
							double *indexPages)
{
	tree_costestimate(root, path, loop_count, false, indexStartupCost, indexTotalCost,
					  indexSelectivity, indexCorrelation, indexPages);
}

static void
spgist_simhash64_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
							  Cost *indexStartupCost, Cost *indexTotalCost,
							  Selectivity *indexSelectivity, double *indexCorrelation,
							  double *indexPages)
{
	tree_costestimate(root, path, loop_count, true, indexStartupCost, indexTotalCost,
					  indexSelectivity, indexCorrelation, indexPages);
}

/* --- GIN --- */

/*
 * The clause with a constant query of the same radius in place of one the
 * plan does not know, or NULL when the query is known (or the clause is not
 * ours).
 */
static Expr *
known_query_clause(PlannerInfo *root, IndexOptInfo *info, Expr *clause)
{
	const TextfpObjects *own = textfp_objects();
	OpExpr	   *op;
	int			strategy;
	Oid			lefttype,
				righttype;
	Node	   *right;
	Const	   *query;

	if (own == NULL || !IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return NULL;
	op = (OpExpr *) clause;
	strategy = get_op_opfamily_strategy(op->opno, info->opfamily[0]);
	if (strategy < SIMHASH_EQ_STRATEGY || strategy > SIMHASH_WITHIN_STRATEGY)
		return NULL;
	get_op_opfamily_properties(op->opno, info->opfamily[0], false,
							   &strategy, &lefttype, &righttype);
	right = estimate_expression_value(root, (Node *) lsecond(op->args));
	if (IsA(right, Const))
		return NULL;
	if (strategy == SIMHASH_WITHIN_STRATEGY)
	{
		HammingBall *b;
		int			r = simhash64_clause_radius(root, info->opfamily[0], clause);

		if (righttype != own->hamming_ball)
			return NULL;
		b = (HammingBall *) palloc0(sizeof(HammingBall));
		b->center = ANY_FINGERPRINT;
		b->radius = r >= 0 ? r : clamp_radius(textfp_hamming_threshold);
		query = makeConst(righttype, -1, InvalidOid, sizeof(HammingBall),
						  PointerGetDatum(b), false, false);
	}
	else
	{
		if (righttype != own->simhash64)
			return NULL;
		query = makeConst(righttype, -1, InvalidOid, sizeof(uint64),
						  Simhash64GetDatum(ANY_FINGERPRINT), false, FLOAT8PASSBYVAL);
	}
	op = (OpExpr *) copyObject(op);
	lsecond(op->args) = query;
	return (Expr *) op;
}

static void
gin_simhash64_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
						   Cost *indexStartupCost, Cost *indexTotalCost,
						   Selectivity *indexSelectivity, double *indexCorrelation,
						   double *indexPages)
{
	IndexOptInfo *info = path->indexinfo;
	IndexPath	known = *path;
	List	   *clauses = NIL;
	bool		changed = false;
	ListCell   *lc;

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		IndexClause *copy = makeNode(IndexClause);
		ListCell   *lc2;

		*copy = *iclause;
		copy->indexquals = NIL;
		foreach(lc2, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc2);
			Expr	   *q = iclause->indexcol == 0 ?
				known_query_clause(root, info, rinfo->clause) : NULL;

			if (q != NULL)
			{
				rinfo = make_simple_restrictinfo(root, q);
				changed = true;
			}
			copy->indexquals = lappend(copy->indexquals, rinfo);
		}
		clauses = lappend(clauses, copy);
	}
	if (!changed)
	{
		gincostestimate(root, path, loop_count, indexStartupCost, indexTotalCost,
						indexSelectivity, indexCorrelation, indexPages);
		return;
	}
	known.indexclauses = clauses;
	gincostestimate(root, &known, loop_count, indexStartupCost, indexTotalCost,
					indexSelectivity, indexCorrelation, indexPages);
	/* the rows are those of the real query */
	*indexSelectivity = clauselist_selectivity(root,
											   add_predicate_to_index_quals(info,
																			get_quals_from_indexclauses(path->indexclauses)),
											   info->rel->relid, JOIN_INNER, NULL);
}

/* --- the hook --- */

static void
simhash64_relation_info(PlannerInfo *root, Oid relid, bool inhparent, RelOptInfo *rel)
{
	const TextfpObjects *own = NULL;
	ListCell   *lc;

	if (prev_get_relation_info)
		prev_get_relation_info(root, relid, inhparent, rel);
	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *info = (IndexOptInfo *) lfirst(lc);

		if (info->nkeycolumns < 1 ||
			(info->relam != GIST_AM_OID && info->relam != SPGIST_AM_OID && info->relam != GIN_AM_OID))
			continue;
		if (own == NULL && (own = textfp_objects()) == NULL)
			return;
		if (info->relam == GIST_AM_OID && info->opfamily[0] == own->gist_simhash64_family)
			info->amcostestimate = gist_simhash64_costestimate;
		else if (info->relam == SPGIST_AM_OID && info->opfamily[0] == own->spgist_simhash64_family)
			info->amcostestimate = spgist_simhash64_costestimate;
		else if (info->relam == GIN_AM_OID && info->opfamily[0] == own->gin_simhash64_family)
			info->amcostestimate = gin_simhash64_costestimate;
	}
}

void
simhash64_cost_init(void)
{
	prev_get_relation_info = get_relation_info_hook;
	get_relation_info_hook = simhash64_relation_info;
}
