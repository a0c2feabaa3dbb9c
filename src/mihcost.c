/*
 * mihcost.c: the planner's cost of a mih index scan.
 *
 * The scan's own plan (tfp_mih_plan_query, the same call the scan makes)
 * gives the buckets it probes in each table and the candidates it verifies
 * for the query's radius (simhash64_path_radius: the constant radius of
 * hamming_ball(q, r), the setting for % or when the plan cannot know it),
 * with the index's m and row count.  Pages are random reads
 * (random_page_cost, less for repeated scans such as the inner side of a
 * nested loop, where the pages stay cached: index_pages_fetched): the
 * directory and bucket pages the probes land on, counted as the scan meets
 * them (a page holds a run of consecutive buckets, so probes that differ
 * only in a substring's low bits share one); each candidate is a popcount (a
 * tenth of cpu_operator_cost), each answer an index tuple.  A full pass
 * (large radii) reads one table's pages in order.  The selectivity is the
 * operators' own estimate (genericcostestimate, which calls
 * simhash64_hamming_sel).  So the planner takes the index where probing is
 * cheap and a sequential scan where the answer is a large share of the
 * table; GiST, SP-GiST and GIN scans are costed on the same terms
 * (simhash64_cost.c).
 */
#include "postgres.h"

#include <math.h>

#include "access/relation.h"
#include "nodes/pathnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/selfuncs.h"

#include "mih.h"
#include "textfp.h"

/* A candidate's popcount against one operator call through fmgr. */
#define MIH_CANDIDATE_COST_FACTOR 0.1

/* sum_{j <= t} C(n, j): the points within t of one in n bits */
static double
ball_int(int n, int t)
{
	double		sum = 0,
				term = 1;

	for (int j = 0; j <= Min(t, n); j++)
	{
		sum += term;
		term *= (double) (n - j) / (j + 1);
	}
	return sum;
}

/* The same for a real n >= 0, interpolated between whole numbers of bits. */
static double
ball(double n, int t)
{
	int			lo = (int) floor(n);

	return ball_int(lo, t) + (n - lo) * (ball_int(lo + 1, t) - ball_int(lo, t));
}

/*
 * Pages one table's probes of radius t read, of its `pages` bucket pages and
 * `dir` directory pages.  A page holds a run of consecutive buckets, so the
 * probes that differ from the query only in the low bits of the substring
 * share it: the pages read are the ball of radius t in the bits that choose
 * the page.  Buckets larger than a page read their chains.
 */
static double
table_pages(int width, int t, double pages, double dir)
{
	double		buckets = ldexp(1.0, width);
	double		data;

	if (pages >= buckets)
		data = (double) tfp_mih_ball_size(width, t) * pages / buckets;
	else
		data = Min(pages, ball(log2(pages), t));
	return data + Min(dir, ball(Max(0.0, log2(dir)), t));
}

void
mih_cost_estimate(PlannerInfo *root, IndexPath *path, double loop_count,
				  Cost *indexStartupCost, Cost *indexTotalCost,
				  Selectivity *indexSelectivity, double *indexCorrelation,
				  double *indexPages)
{
	IndexOptInfo *info = path->indexinfo;
	GenericCosts costs;
	int			radius;
	bool		any;
	Relation	index;
	tfp_mih_layout layout;
	tfp_mih_plan plan;
	double		rows,
				pages,
				io,
				cpu;

	MemSet(&costs, 0, sizeof(costs));
	genericcostestimate(root, path, loop_count, &costs);
	radius = simhash64_path_radius(root, path, &any);

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
		double		dir[TFP_MIH_M_MAX];
		double		data = (double) info->pages - 1;	/* less the metapage */

		for (int i = 0; i < layout.m; i++)
		{
			dir[i] = ceil(ldexp(1.0, layout.width[i]) / MIH_DIR_ENTRIES);
			data -= dir[i];
		}
		data = Max(1.0, data / layout.m);
		pages = 0;
		for (int i = 0; i < layout.m; i++)
			if (plan.t[i] >= 0)
				pages += table_pages(layout.width[i], plan.t[i], data, dir[i]);
		pages = Min(pages, (double) Max(info->pages, 1));
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
