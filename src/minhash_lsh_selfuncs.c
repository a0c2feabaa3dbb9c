/*
 * minhash_lsh_selfuncs.c: planner selectivity of minhash_sig @@ lsh_query,
 * and the column statistics lsh_params() predicts candidates from.
 *
 * ANALYZE of a minhash_sig column (minhash_selfuncs.c) keeps, for pairs of
 * sampled ordinary rows, the share with at least c equal positions.  Given
 * c equal positions of k, a band of r is equal with probability
 * C(c, r) / C(k, r), so a banding's candidates per row follow from that
 * distribution (tfp_lsh_expected_candidates); common values are compared
 * exactly.
 *
 * Nothing here trusts its arguments: any operator may name these functions
 * as its estimators, so types are checked against textfp's own (catalog.c)
 * before a value or a statistics slot is decoded, common values are
 * validated before they are read as signatures, and the lsh_query()
 * constructor of a join clause is recognised by its OID.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "selfuncs_common.h"
#include "textfp.h"

/* Must match minhash_selfuncs.c: the share of sampled pairs with >= c equal positions. */
#define TEXTFP_STATISTIC_KIND_JACCARD 10465

/* Without statistics of ours: about a thousandth of the rows. */
#define DEFAULT_LSH_SEL 0.001

/* What a statistics tuple of a minhash_sig column says (st zeroed first). */
static void
stats_from_tuple(HeapTuple tup, LshColumnStats *st)
{
	AttStatsSlot sslot;
	double		mcv_total = 0;

	memset(st, 0, sizeof(*st));
	st->ordinary = 1.0;
	if (!HeapTupleIsValid(tup))
		return;
	if (get_attstatsslot(&sslot, tup, STATISTIC_KIND_MCV, InvalidOid,
						 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		st->mcv = palloc(sizeof(MinhashSig *) * Max(sslot.nvalues, 1));
		st->mcv_freq = palloc(sizeof(double) * Max(sslot.nvalues, 1));
		for (int i = 0; i < sslot.nvalues; i++)
		{
			MinhashSig *sig = (MinhashSig *) PG_DETOAST_DATUM_COPY(sslot.values[i]);

			mcv_total += sslot.numbers[i];
			if (!minhash_sig_is_valid(sig))
				continue;
			st->mcv[st->nmcv] = sig;
			st->mcv_freq[st->nmcv++] = sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}
	st->ordinary = Max(0.0, 1.0 - ((Form_pg_statistic) GETSTRUCT(tup))->stanullfrac - mcv_total);
	if (get_attstatsslot(&sslot, tup, TEXTFP_STATISTIC_KIND_JACCARD, InvalidOid,
						 ATTSTATSSLOT_NUMBERS))
	{
		int			k = sslot.nnumbers - 2;

		if (k >= 1 && k <= TFP_MINHASH_K_MAX)
		{
			st->k = k;
			st->pmf = palloc(sizeof(double) * (k + 1));
			for (int c = 0; c <= k; c++)
				st->pmf[c] = Max(0.0, sslot.numbers[c] - (c < k ? sslot.numbers[c + 1] : 0.0));
		}
		free_attstatsslot(&sslot);
	}
}

/* Share of ordinary rows that are candidates of a query: from the pair statistics. */
static double
ordinary_share(const LshColumnStats *st, const LshQuery *q)
{
	if (st->k != q->sig.k || tfp_minhash_is_featureless(q->sig.values, q->sig.k))
		return st->k > 0 ? 0.0 : DEFAULT_LSH_SEL;
	return tfp_lsh_expected_candidates(st->pmf, st->k, 1.0, q->bands, q->rows, q->min_bands);
}

PG_FUNCTION_INFO_V1(minhash_lsh_sel);
Datum
minhash_lsh_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	const TextfpObjects *obj = textfp_objects();
	VariableStatData vd;
	Node	   *other;
	bool		varonleft;
	Const	   *c;
	LshQuery   *q;
	LshColumnStats st;
	double		sel;

	if (obj == NULL || !OidIsValid(obj->lsh_query) ||
		!get_restriction_variable(root, args, varRelid, &vd, &other, &varonleft))
		PG_RETURN_FLOAT8(DEFAULT_LSH_SEL);
	if (!textfp_is_type(vd.vartype, obj->minhash_sig) || !IsA(other, Const) ||
		(!((Const *) other)->constisnull && ((Const *) other)->consttype != obj->lsh_query))
	{
		ReleaseVariableStats(vd);
		PG_RETURN_FLOAT8(DEFAULT_LSH_SEL);
	}
	c = (Const *) other;
	if (c->constisnull)
	{
		ReleaseVariableStats(vd);
		PG_RETURN_FLOAT8(0.0);
	}
	q = DatumGetLshQueryP(c->constvalue);
	stats_from_tuple(vd.acl_ok ? vd.statsTuple : NULL, &st);
	sel = st.ordinary * ordinary_share(&st, q);
	for (int i = 0; i < st.nmcv; i++)
		if (minhash_lsh_match(st.mcv[i], q))
			sel += st.mcv_freq[i];
	ReleaseVariableStats(vd);
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel));
}

/*
 * The banding of an lsh_query(sig, bands, rows, min_bands) call of textfp's
 * own with constant parameters; its signature argument, or NULL.
 */
static Node *
query_call(PlannerInfo *root, Node *expr, const TextfpObjects *obj, int *b, int *r, int *m)
{
	FuncExpr   *f;
	int			v[3];

	if (IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	if (!IsA(expr, FuncExpr))
		return NULL;
	f = (FuncExpr *) expr;
	if (f->funcid != obj->lsh_query_fn || list_length(f->args) != 4)
		return NULL;
	for (int i = 0; i < 3; i++)
	{
		Node	   *a = estimate_expression_value(root, list_nth(f->args, i + 1));

		if (!IsA(a, Const) || ((Const *) a)->consttype != INT4OID || ((Const *) a)->constisnull)
			return NULL;
		v[i] = DatumGetInt32(((Const *) a)->constvalue);
	}
	if (v[1] < 1 || v[0] < 1 || v[0] > TFP_MINHASH_K_MAX / v[1] || v[2] < 1 || v[2] > v[0])
		return NULL;
	*b = v[0];
	*r = v[1];
	*m = v[2];
	return linitial(f->args);
}

PG_FUNCTION_INFO_V1(minhash_lsh_joinsel);
Datum
minhash_lsh_joinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	const TextfpObjects *obj = textfp_objects();
	Node	   *sig_side;
	Node	   *query_side;
	Node	   *query_sig;
	int			b,
				r,
				m;
	VariableStatData vda,
				vdb;
	LshColumnStats sa,
				sb;
	LshQuery   *probe;
	double		sel = 0;
	double		share = 0;
	double		nd;
	bool		isdefault;

	if (obj == NULL || !OidIsValid(obj->lsh_query_fn) || list_length(args) != 2)
		PG_RETURN_FLOAT8(DEFAULT_LSH_SEL);
	if (exprType(linitial(args)) == obj->lsh_query)
	{
		query_side = linitial(args);
		sig_side = lsecond(args);
	}
	else
	{
		sig_side = linitial(args);
		query_side = lsecond(args);
	}
	if (!textfp_is_type(exprType(sig_side), obj->minhash_sig) ||
		(query_sig = query_call(root, query_side, obj, &b, &r, &m)) == NULL)
		PG_RETURN_FLOAT8(DEFAULT_LSH_SEL);

	examine_variable(root, sig_side, 0, &vda);
	examine_variable(root, query_sig, 0, &vdb);
	stats_from_tuple(vda.acl_ok ? vda.statsTuple : NULL, &sa);
	stats_from_tuple(vdb.acl_ok ? vdb.statsTuple : NULL, &sb);

	/* a probe to run the operator on common values and to size bands */
	probe = palloc0(offsetof(LshQuery, sig) + MINHASH_SIG_SIZE(TFP_MINHASH_K_MAX));
	probe->bands = b;
	probe->rows = r;
	probe->min_bands = m;
	for (int j = 0; j < sb.nmcv; j++)
	{
		if (VARSIZE(sb.mcv[j]) > MINHASH_SIG_SIZE(TFP_MINHASH_K_MAX) ||
			b * r > sb.mcv[j]->k)
			continue;
		memcpy(&probe->sig, sb.mcv[j], VARSIZE(sb.mcv[j]));
		for (int i = 0; i < sa.nmcv; i++)
			if (minhash_lsh_match(sa.mcv[i], probe))
				sel += sa.mcv_freq[i] * sb.mcv_freq[j];
	}
	if (sa.k > 0 && b * r <= sa.k)
		share = tfp_lsh_expected_candidates(sa.pmf, sa.k, 1.0, b, r, m);
	if (sb.k > 0 && b * r <= sb.k)
		share = Max(share, tfp_lsh_expected_candidates(sb.pmf, sb.k, 1.0, b, r, m));
	if (sa.k == 0 && sb.k == 0)
		share = DEFAULT_LSH_SEL;
	/* pairs of equal ordinary rows, such as a row and itself */
	nd = Max(get_variable_numdistinct(&vda, &isdefault),
			 get_variable_numdistinct(&vdb, &isdefault));
	sel += sa.ordinary * sb.ordinary * (share + (nd >= 1 ? 1.0 / nd : 0));
	ReleaseVariableStats(vda);
	ReleaseVariableStats(vdb);
	PG_RETURN_FLOAT8(textfp_clamp_sel(sel));
}

/*
 * For lsh_params(relation, column, ...): the column's statistics, after the
 * checks pg_stats makes (SELECT on the column, no row-level security in
 * force), and the table's row count.
 */
void
minhash_lsh_column_stats(Oid relid, const char *column,
						 LshColumnStats *st, double *reltuples)
{
	const TextfpObjects *obj = textfp_objects();
	AttrNumber	attnum;
	HeapTuple	tup;
	HeapTuple	rel;
	char	   *relname = get_rel_name(relid);

	if (obj == NULL)
		elog(ERROR, "extension \"textfp\" is not installed in this database");
	if (relname == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	attnum = get_attnum(relid, column);
	if (attnum == InvalidAttrNumber || attnum < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist", column, relname)));
	if (!textfp_is_type(get_atttype(relid, attnum), obj->minhash_sig))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\" is not of type minhash_sig", column, relname)));
	/* as has_column_privilege(): on the table, or on the column */
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		pg_attribute_aclcheck(relid, attnum, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for column \"%s\" of relation \"%s\"", column, relname)));
	if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("statistics of relation \"%s\" are hidden by row-level security", relname)));

	rel = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(rel))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	*reltuples = Max(((Form_pg_class) GETSTRUCT(rel))->reltuples, 0.0);
	tup = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid), Int16GetDatum(attnum),
						  BoolGetDatum(((Form_pg_class) GETSTRUCT(rel))->relkind == RELKIND_PARTITIONED_TABLE));
	ReleaseSysCache(rel);
	stats_from_tuple(tup, st);
	if (HeapTupleIsValid(tup))
		ReleaseSysCache(tup);
	if (st->k == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("column \"%s\" of relation \"%s\" has no pair statistics", column, relname),
				 errhint("Run ANALYZE on the table; the column needs at least two rows of one kind of signature that are not its most common values.")));
}
