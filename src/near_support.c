/*
 * near_support.c: planner support for the % operators of simhash64 and
 * minhash_sig.
 *
 * % follows a session setting, so it must not be usable in an exclusion
 * constraint: one session could lower the threshold and insert what the
 * constraint forbids.  PostgreSQL accepts an exclusion operator only if it is
 * its own commutator, so from 1.1 % has none (textfp--1.0--1.1.sql).  A
 * commutator is also how the planner turns "q % col" into the index
 * condition "col % q"; this support function does that instead
 * (SupportRequestIndexCondition), so every index whose operator family has %
 * still serves both spellings.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/supportnodes.h"
#include "utils/lsyscache.h"

#include "textfp.h"

PG_FUNCTION_INFO_V1(textfp_near_support);
Datum
textfp_near_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause;
	Expr	   *swapped;

	if (!IsA(rawreq, SupportRequestIndexCondition))
		PG_RETURN_POINTER(NULL);
	req = (SupportRequestIndexCondition *) rawreq;

	/*
	 * Only "q % col" (the index column on the right) needs us; the planner
	 * matched "col % q" itself.  The clause must be a two-argument operator
	 * whose function carries this support function, and the operator must
	 * be in the index's family: then swapping the arguments of a symmetric
	 * test is the same test.
	 */
	if (req->indexarg != 1 || !IsA(req->node, OpExpr))
		PG_RETURN_POINTER(NULL);
	clause = (OpExpr *) req->node;
	if (list_length(clause->args) != 2 || clause->opresulttype != BOOLOID ||
		get_func_support(clause->opfuncid) != fcinfo->flinfo->fn_oid ||
		!op_in_opfamily(clause->opno, req->opfamily))
		PG_RETURN_POINTER(NULL);

	swapped = make_opclause(clause->opno, BOOLOID, false,
							(Expr *) lsecond(clause->args),
							(Expr *) linitial(clause->args),
							clause->opcollid, clause->inputcollid);
	((OpExpr *) swapped)->opfuncid = clause->opfuncid;
	req->lossy = false;
	PG_RETURN_POINTER(list_make1(swapped));
}
