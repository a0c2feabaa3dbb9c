/*
 * catalog.c: the OIDs of textfp's own types and functions in this database.
 *
 * Planner support and selectivity functions are reachable from objects that
 * other users create (any user may name our selectivity function as the
 * RESTRICT of an operator on other types, or write a function of the same
 * name and signature as our constructors in another schema).  Before they
 * read a value as a fingerprint, they compare types and functions against
 * these OIDs, found through the extension (so a relocated schema is fine and
 * a same-named object elsewhere is not ours).  Cached per backend; any
 * change to pg_type, pg_proc, pg_opfamily or pg_extension drops the cache.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/pg_am.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "parser/parse_type.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "textfp.h"

static TextfpObjects cached;
static bool cache_valid = false;
static bool callbacks_registered = false;

static void
invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	cache_valid = false;
}

/* The OID of a type of ours, or InvalidOid. */
static Oid
own_type(Oid extoid, Oid nsp, const char *name)
{
	Oid			typid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
										CStringGetDatum(name), ObjectIdGetDatum(nsp));

	if (!OidIsValid(typid) || getExtensionOfObject(TypeRelationId, typid) != extoid)
		return InvalidOid;
	return typid;
}

/* The OID of a function of ours with these argument types, or InvalidOid. */
static Oid
own_function(Oid extoid, const char *nspname, const char *name, int nargs, const Oid *args)
{
	Oid			fn;

	for (int i = 0; i < nargs; i++)
		if (!OidIsValid(args[i]))
			return InvalidOid;
	fn = LookupFuncName(list_make2(makeString(pstrdup(nspname)), makeString(pstrdup(name))),
						nargs, args, true);
	if (!OidIsValid(fn) || getExtensionOfObject(ProcedureRelationId, fn) != extoid)
		return InvalidOid;
	return fn;
}

/* The OID of an operator family of ours of access method am, or InvalidOid. */
static Oid
own_opfamily(Oid extoid, const char *nspname, Oid am, const char *name)
{
	Oid			fam = get_opfamily_oid(am, list_make2(makeString(pstrdup(nspname)),
													  makeString(pstrdup(name))), true);

	if (!OidIsValid(fam) || getExtensionOfObject(OperatorFamilyRelationId, fam) != extoid)
		return InvalidOid;
	return fam;
}

/* The schema the extension lives in (get_extension_schema is static in 15). */
static Oid
extension_schema(Oid extoid)
{
	HeapTuple	tup = SearchSysCache1(EXTENSIONOID, ObjectIdGetDatum(extoid));
	Oid			nsp;

	if (!HeapTupleIsValid(tup))
		return InvalidOid;
	nsp = ((Form_pg_extension) GETSTRUCT(tup))->extnamespace;
	ReleaseSysCache(tup);
	return nsp;
}

/*
 * textfp's objects in the current database, or NULL when the extension is
 * not there (the library loaded some other way).  A 1.0 database has them
 * all: the lookups name only 1.0 objects.
 */
const TextfpObjects *
textfp_objects(void)
{
	Oid			extoid;
	Oid			nsp;
	char	   *nspname;
	Oid			args[2];

	if (cache_valid)
		return cached.valid ? &cached : NULL;
	if (!callbacks_registered)
	{
		CacheRegisterSyscacheCallback(TYPEOID, invalidate, (Datum) 0);
		CacheRegisterSyscacheCallback(PROCOID, invalidate, (Datum) 0);
		CacheRegisterSyscacheCallback(EXTENSIONOID, invalidate, (Datum) 0);
		CacheRegisterSyscacheCallback(OPFAMILYOID, invalidate, (Datum) 0);
		callbacks_registered = true;
	}
	memset(&cached, 0, sizeof(cached));
	cache_valid = true;

	extoid = get_extension_oid("textfp", true);
	if (!OidIsValid(extoid))
		return NULL;
	nsp = extension_schema(extoid);
	nspname = get_namespace_name(nsp);
	if (nspname == NULL)
		return NULL;

	cached.simhash64 = own_type(extoid, nsp, "simhash64");
	cached.hamming_ball = own_type(extoid, nsp, "hamming_ball");
	cached.minhash_sig = own_type(extoid, nsp, "minhash_sig");
	cached.jaccard_ball = own_type(extoid, nsp, "jaccard_ball");

	args[0] = cached.simhash64;
	args[1] = INT4OID;
	cached.hamming_ball_fn = own_function(extoid, nspname, "hamming_ball", 2, args);
	args[0] = cached.minhash_sig;
	args[1] = FLOAT8OID;
	cached.jaccard_ball_fn = own_function(extoid, nspname, "jaccard_ball", 2, args);

	/* LSH bands (1.1) */
	cached.lsh_query = own_type(extoid, nsp, "lsh_query");
	{
		Oid			lsh_args[4] = {cached.minhash_sig, INT4OID, INT4OID, INT4OID};

		cached.lsh_query_fn = own_function(extoid, nspname, "lsh_query", 4, lsh_args);
	}

	cached.gist_simhash64_family = own_opfamily(extoid, nspname, GIST_AM_OID, "gist_simhash64_ops");
	cached.spgist_simhash64_family = own_opfamily(extoid, nspname, SPGIST_AM_OID, "spgist_simhash64_ops");
	cached.gin_simhash64_family = own_opfamily(extoid, nspname, GIN_AM_OID, "gin_simhash64_ops");

	cached.valid = OidIsValid(cached.simhash64) && OidIsValid(cached.hamming_ball) &&
		OidIsValid(cached.minhash_sig) && OidIsValid(cached.jaccard_ball) &&
		OidIsValid(cached.hamming_ball_fn) && OidIsValid(cached.jaccard_ball_fn);
	return cached.valid ? &cached : NULL;
}

/* True when typid is want, or a domain over it. */
bool
textfp_is_type(Oid typid, Oid want)
{
	return OidIsValid(want) && OidIsValid(typid) && getBaseType(typid) == want;
}
