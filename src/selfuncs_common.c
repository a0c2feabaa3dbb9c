/*
 * selfuncs_common.c: what the simhash64 and minhash_sig planner statistics
 * share: wrapping the standard typanalyze, and telling the operators apart.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "commands/vacuum.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "selfuncs_common.h"

/* The standard compute_stats and its state, kept while ours runs. */
typedef struct WrappedAnalyze
{
	AnalyzeAttrComputeStatsFunc std_compute;
	void	   *std_extra;
	AnalyzeAttrComputeStatsFunc own_compute;
} WrappedAnalyze;

static void
wrapped_compute_stats(VacAttrStats *stats, AnalyzeAttrFetchFunc fetchfunc,
					  int samplerows, double totalrows)
{
	WrappedAnalyze *w = (WrappedAnalyze *) stats->extra_data;

	/* the standard statistics first: null fraction, MCVs, histogram */
	stats->extra_data = w->std_extra;
	w->std_compute(stats, fetchfunc, samplerows, totalrows);
	if (stats->stats_valid)
		w->own_compute(stats, fetchfunc, samplerows, totalrows);
	stats->extra_data = w;
}

bool
textfp_typanalyze(VacAttrStats *stats, AnalyzeAttrComputeStatsFunc own)
{
	WrappedAnalyze *w;

	if (!std_typanalyze(stats))
		return false;
	w = (WrappedAnalyze *) palloc(sizeof(WrappedAnalyze));
	w->std_compute = stats->compute_stats;
	w->std_extra = stats->extra_data;
	w->own_compute = own;
	stats->compute_stats = wrapped_compute_stats;
	stats->extra_data = w;
	return true;
}

int
textfp_free_stats_slot(VacAttrStats *stats)
{
	for (int i = 0; i < STATISTIC_NUM_SLOTS; i++)
		if (stats->stakind[i] == 0)
			return i;
	return -1;
}

TextfpOpShape
textfp_operator_shape(Oid operator, Oid value_type, Oid ball_type)
{
	Oid			lt = InvalidOid,
				rt = InvalidOid;

	op_input_types(operator, &lt, &rt);
	if (!OidIsValid(lt) || !OidIsValid(rt))
		return TEXTFP_OP_OTHER;
	lt = getBaseType(lt);
	rt = getBaseType(rt);
	if (lt == value_type && rt == value_type)
		return TEXTFP_OP_NEAR;
	if (lt == value_type && rt == ball_type)
		return TEXTFP_OP_BALL_RIGHT;
	if (lt == ball_type && rt == value_type)
		return TEXTFP_OP_BALL_LEFT;
	return TEXTFP_OP_OTHER;
}

bool
textfp_mcv_slot(VariableStatData *vd, Oid want, AttStatsSlot *sslot)
{
	if (!HeapTupleIsValid(vd->statsTuple) || !vd->acl_ok)
		return false;
	if (!get_attstatsslot(sslot, vd->statsTuple, STATISTIC_KIND_MCV, InvalidOid,
						  ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
		return false;
	/* statistics of another type (a column whose type changed, say) */
	if (getBaseType(sslot->valuetype) != want || sslot->nvalues != sslot->nnumbers)
	{
		free_attstatsslot(sslot);
		return false;
	}
	return true;
}

double
textfp_clamp_sel(double s)
{
	CLAMP_PROBABILITY(s);
	return s;
}
