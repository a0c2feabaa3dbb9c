/*
 * mihcost.c: the planner's cost of a mih index scan.
 *
 * The scan's own plan (tfp_mih_plan_query, the same call the scan makes)
 * gives the buckets it probes and the candidates it verifies for the query's
 * radius, with the index's m and row count: each probe is a bucket page read
 * (random_page_cost, less for repeated scans such as the inner side of a
 * nested loop, where the pages stay cached: index_pages_fetched), each
 * candidate a popcount (a tenth of cpu_operator_cost), each answer an index
 * tuple.  A full pass (large radii) reads one table's pages in order.  The
 * selectivity is the operators' own estimate (genericcostestimate, which
 * calls simhash64_hamming_sel).  So the planner takes the index where
 * probing is cheap and a sequential scan where the answer is a large share
 * of the table.
 *
 * Nothing in the path is trusted: a clause counts only when its operator is
 * one of the index's operator family with a known strategy, and the radius
 * of <@ is read only from a constant of textfp's own hamming_ball type or
 * from textfp's own hamming_ball(fp, constant) constructor (by OID, found
 * through the extension: catalog.c).  Any other clause leaves the radius at
 * textfp.hamming_threshold.
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "mih.h"
#include "textfp.h"

/* A candidate's popcount against one operator call through fmgr. */
#define MIH_CANDIDATE_COST_FACTOR 0.1

static int
clamp_radius(int32 r)
{
	return r < 0 ? 0 : Min(r, SIMHASH_BITS);
}

/* The radius of an index clause, or -1 when the plan cannot know it. */
static int
clause_radius(PlannerInfo *root, IndexOptInfo *info, Expr *clause)
{
	OpExpr	   *op;
	int			strategy;
	Oid			lefttype,
				righttype;
	Node	   *right;
	const TextfpObjects *own = textfp_objects();

	if (!IsA(clause, OpExpr))
		return -1;
	op = (OpExpr *) clause;
	if (list_length(op->args) != 2)
		return -1;
	strategy = get_op_opfamily_strategy(op->opno, info->opfamily[0]);
	if (strategy < 1 || strategy > MIH_NSTRATEGIES)
		return -1;
	get_op_opfamily_properties(op->opno, info->opfamily[0], false,
							   &strategy, &lefttype, &righttype);
	switch (strategy)
	{
		case SIMHASH_EQ_STRATEGY:
			return 0;
		case SIMHASH_NEAR_STRATEGY:
			return clamp_radius(textfp_hamming_threshold);
		case SIMHASH_WITHIN_STRATEGY:
			if (own == NULL || righttype != own->hamming_ball)
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

void
mih_cost_estimate(PlannerInfo *root, IndexPath *path, double loop_count,
				  Cost *indexStartupCost, Cost *indexTotalCost,
				  Selectivity *indexSelectivity, double *indexCorrelation,
				  double *indexPages)
{
	IndexOptInfo *info = path->indexinfo;
	GenericCosts costs;
	int			radius = -1;
	ListCell   *lc;
	Relation	index;
	tfp_mih_layout layout;
	tfp_mih_plan plan;
	double		rows,
				pages,
				io,
				cpu;

	MemSet(&costs, 0, sizeof(costs));
	genericcostestimate(root, path, loop_count, &costs);

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		foreach(lc2, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc2);
			int			r = clause_radius(root, info, rinfo->clause);

			if (r >= 0 && (radius < 0 || r < radius))
				radius = r;
		}
	}
	if (radius < 0)
		radius = clamp_radius(textfp_hamming_threshold);

	index = index_open(info->indexoid, NoLock);
	layout = mih_get_meta(index)->layout;
	index_close(index, NoLock);

	rows = Max(info->tuples, 1.0);
	tfp_mih_plan_query(&layout, radius, rows, &tfp_mih_default_costs, &plan);
	if (plan.full_pass)
	{
		pages = Max(1.0, (double) info->pages / layout.m);
		io = pages * seq_page_cost;
	}
	else
	{
		pages = Min((double) Max(info->pages, 1),
					plan.probes + plan.candidates / MIH_PAGE_CAPACITY);
		if (loop_count > 1)
			io = index_pages_fetched(pages * loop_count, (BlockNumber) Max(info->pages, 1),
									 (double) Max(info->pages, 1), root) *
				random_page_cost / loop_count;
		else
			io = pages * random_page_cost;
	}
	cpu = plan.probes * cpu_index_tuple_cost +
		plan.candidates * cpu_operator_cost * MIH_CANDIDATE_COST_FACTOR +
		costs.numIndexTuples * cpu_index_tuple_cost;

	/* a bitmap scan yields nothing before it has read everything */
	*indexStartupCost = io + cpu;
	*indexTotalCost = io + cpu;
	*indexSelectivity = costs.indexSelectivity;
	*indexCorrelation = 0;
	*indexPages = pages;
}
