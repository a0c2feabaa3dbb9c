/*
 * selfuncs_common.h: what the simhash64 and minhash_sig planner statistics
 * share (selfuncs_common.c).
 */
#ifndef TEXTFP_SELFUNCS_COMMON_H
#define TEXTFP_SELFUNCS_COMMON_H

#include "postgres.h"
#include "commands/vacuum.h"

/*
 * For a type's typanalyze: the standard statistics, then own() in the same
 * pass when they succeeded.
 */
extern bool textfp_typanalyze(VacAttrStats *stats, AnalyzeAttrComputeStatsFunc own);

/* The first unused statistics slot, or -1. */
extern int	textfp_free_stats_slot(VacAttrStats *stats);

/* Which operator: % (two values of the type) or <@ / @> (one is a ball). */
extern void textfp_operator_shape(Oid operator, bool *is_near, bool *ball_on_left,
								  Oid *ball_type);

extern double textfp_clamp_sel(double s);

#endif							/* TEXTFP_SELFUNCS_COMMON_H */
