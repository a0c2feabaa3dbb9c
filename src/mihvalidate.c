/*
 * mihvalidate.c: amvalidate for mih operator classes.
 *
 * mih reads its indexed column as simhash64 and knows three strategies (the
 * numbers of the other simhash64 classes, textfp.h): 1 = (simhash64,
 * simhash64), 2 % (simhash64, simhash64), 3 <@ (simhash64, hamming_ball),
 * textfp's own types (catalog.c finds them through the extension).  It has
 * no support functions and no ordering operators.
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "mih.h"
#include "textfp.h"

bool
mih_validate(Oid opclassoid)
{
	bool		result = true;
	HeapTuple	classtup;
	Form_pg_opclass classform;
	Oid			opfamilyoid;
	Oid			opcintype;
	char	   *opclassname;
	HeapTuple	familytup;
	char	   *opfamilyname;
	CatCList   *proclist,
			   *oprlist;
	int			nstrategies[MIH_NSTRATEGIES + 1] = {0};
	const TextfpObjects *own = textfp_objects();
	Oid			fp_type = own ? own->simhash64 : InvalidOid;
	Oid			ball_type = own ? own->hamming_ball : InvalidOid;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamilyoid = classform->opcfamily;
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);

	familytup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamilyoid));
	if (!HeapTupleIsValid(familytup))
		elog(ERROR, "cache lookup failed for operator family %u", opfamilyoid);
	opfamilyname = NameStr(((Form_pg_opfamily) GETSTRUCT(familytup))->opfname);

	if (opcintype != fp_type || OidIsValid(classform->opckeytype))
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("mih operator class %s indexes type %s; mih indexes simhash64 only, stored as itself",
						opclassname, format_type_be(opcintype))));
		result = false;
	}

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamilyoid));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamilyoid));

	for (int i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc procform = (Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("mih operator family %s contains support function %s; mih has no support functions",
						opfamilyname, format_procedure(procform->amproc))));
		result = false;
	}

	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);
		int			s = oprform->amopstrategy;
		bool		sig_ok;

		if (s < 1 || s > MIH_NSTRATEGIES)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("mih operator family %s contains operator %s with invalid strategy number %d",
							opfamilyname, format_operator(oprform->amopopr), s)));
			result = false;
			continue;
		}
		if (oprform->amoppurpose != AMOP_SEARCH || OidIsValid(oprform->amopsortfamily))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("mih operator family %s contains invalid ORDER BY specification for operator %s",
							opfamilyname, format_operator(oprform->amopopr))));
			result = false;
		}
		sig_ok = check_amop_signature(oprform->amopopr, BOOLOID,
									  oprform->amoplefttype, oprform->amoprighttype) &&
			oprform->amoplefttype == fp_type &&
			oprform->amoprighttype == (s == SIMHASH_WITHIN_STRATEGY ? ball_type : fp_type);
		if (!sig_ok)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("mih operator family %s contains operator %s with wrong signature for strategy %d",
							opfamilyname, format_operator(oprform->amopopr), s)));
			result = false;
		}
		nstrategies[s]++;
	}
	for (int s = 1; s <= MIH_NSTRATEGIES; s++)
		if (nstrategies[s] != 1)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("mih operator family %s has %d operators for strategy %d, not 1",
							opfamilyname, nstrategies[s], s)));
			result = false;
		}

	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(familytup);
	ReleaseSysCache(classtup);
	return result;
}
