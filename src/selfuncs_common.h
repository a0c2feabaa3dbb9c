/*
 * selfuncs_common.h: what the simhash64 and minhash_sig planner statistics
 * share (selfuncs_common.c).
 */
#ifndef TEXTFP_SELFUNCS_COMMON_H
#define TEXTFP_SELFUNCS_COMMON_H

#include "postgres.h"
#include "commands/vacuum.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

/*
 * For a type's typanalyze: the standard statistics, then own() in the same
 * pass when they succeeded.
 */
extern bool textfp_typanalyze(VacAttrStats *stats, AnalyzeAttrComputeStatsFunc own);

/* The first unused statistics slot, or -1. */
extern int	textfp_free_stats_slot(VacAttrStats *stats);

/*
 * What a binary operator compares, told by its declared input types (domains
 * looked through), never by its name: two values of the type (%), a value
 * and a ball (<@), a ball and a value (@>), or none of these: an operator of
 * someone else's that names our estimator.
 */
typedef enum TextfpOpShape
{
	TEXTFP_OP_OTHER,
	TEXTFP_OP_NEAR,
	TEXTFP_OP_BALL_RIGHT,
	TEXTFP_OP_BALL_LEFT
} TextfpOpShape;

extern TextfpOpShape textfp_operator_shape(Oid operator, Oid value_type, Oid ball_type);

/* The values of a column's MCV slot, if there is one and they are of type want. */
extern bool textfp_mcv_slot(VariableStatData *vd, Oid want, AttStatsSlot *sslot);

extern double textfp_clamp_sel(double s);

#endif							/* TEXTFP_SELFUNCS_COMMON_H */
