/*
 * fpcall.c: calls of textfp's own 1.1 simhash()/minhash() over text with
 * options by name, their defaults read from the SQL declaration
 * (pg_proc.proargdefaults): the one place a trigger learns the pipeline's
 * defaults from.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "funcapi.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "fpcall.h"
#include "tfp_presets.h"

/*
 * textfp's 1.1 simhash() or minhash() over text: the overload whose first two
 * parameters are (doc text, featureless text).  Found by those rather than by
 * its whole signature, so that options appended to it later need no change
 * here (their defaults come from pg_proc).
 */
static Oid
fingerprint_function(const char *nsp, bool minhash)
{
	const char *name = minhash ? "minhash" : "simhash";
	Oid			nspoid = get_namespace_oid(nsp, false);
	Oid			ext = get_extension_oid("textfp", false);
	CatCList   *list = SearchSysCacheList1(PROCNAMEARGSNSP, CStringGetDatum(name));
	Oid			found = InvalidOid;

	for (int i = 0; i < list->n_members; i++)
	{
		HeapTuple	tup = &list->members[i]->tuple;
		Form_pg_proc p = (Form_pg_proc) GETSTRUCT(tup);
		Oid		   *types;
		char	  **names;
		char	   *modes;
		int			n;

		if (p->pronamespace != nspoid || p->pronargs < 2 ||
			p->proargtypes.values[0] != TEXTOID || p->proargtypes.values[1] != TEXTOID)
			continue;
		n = get_func_arg_info(tup, &types, &names, &modes);
		if (n >= 2 && names != NULL && names[1] != NULL && strcmp(names[1], "featureless") == 0 &&
			getExtensionOfObject(ProcedureRelationId, p->oid) == ext)
			found = p->oid;
	}
	ReleaseSysCacheList(list);
	if (!OidIsValid(found))
		elog(ERROR, "textfp's %s.%s(doc text, featureless text, ...) is missing", nsp, name);
	return found;
}

static Datum
text_datum(const char *s)
{
	return PointerGetDatum(cstring_to_text(s));
}

/* An option's value given as text, as a value of the parameter's type. */
static Datum
option_value(const char *name, const char *value, Oid type, fpcall_bad_option bad, void *arg)
{
	switch (type)
	{
		case INT4OID:
		case INT8OID:
			{
				char	   *end;
				int64		v;

				errno = 0;
				v = strtoi64(value, &end, 10);
				if (errno != 0 || end == value || *end != '\0' ||
					(type == INT4OID && (v < PG_INT32_MIN || v > PG_INT32_MAX)))
					bad(arg, psprintf("%s must be an integer, got \"%s\".", name, value), NULL);
				return type == INT4OID ? Int32GetDatum((int32) v) : Int64GetDatum(v);
			}
		case BOOLOID:
			{
				bool		b;

				if (!parse_bool(value, &b))
					bad(arg, psprintf("%s must be a boolean, got \"%s\".", name, value), NULL);
				return BoolGetDatum(b);
			}
		case TEXTOID:
			return text_datum(value);
		default:
			{
				Oid			infunc;
				Oid			ioparam;

				getTypeInputInfo(type, &infunc, &ioparam);
				return OidInputFunctionCall(infunc, (char *) value, ioparam, -1);
			}
	}
}

/* The parameter of a fingerprint function named name (a pipeline option: past doc and featureless), or -1. */
static int
option_index(int nargs, char **argnames, const char *name)
{
	for (int i = 2; i < nargs; i++)
		if (argnames[i] != NULL && strcmp(argnames[i], name) == 0)
			return i;
	return -1;
}

void
fpcall_setup(FpCall *f, const char *nsp, bool minhash, int nopts, char **names, char **values,
			 MemoryContext cxt, fpcall_bad_option bad, void *arg, const char *unknown_hint)
{
	Oid			fn = fingerprint_function(nsp, minhash);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	HeapTuple	tup;
	Oid		   *argtypes;
	char	  **argnames;
	char	   *argmodes;
	int			nargs;
	int			ndefaults;
	Oid		   *other_types;
	char	  **other_names;
	int			other_nargs;
	Datum		d;
	bool		isnull;
	List	   *defaults;
	int			i;
	ListCell   *lc;
	int			k_index;

	memset(f, 0, sizeof(*f));
	f->minhash = minhash;
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", fn);
	nargs = get_func_arg_info(tup, &argtypes, &argnames, &argmodes);
	ndefaults = ((Form_pg_proc) GETSTRUCT(tup))->pronargdefaults;
	d = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_proargdefaults, &isnull);
	defaults = isnull ? NIL : castNode(List, stringToNode(TextDatumGetCString(d)));
	ReleaseSysCache(tup);
	if (nargs > FPCALL_MAX_ARGS || argnames == NULL || ndefaults != nargs - 2 || list_length(defaults) != ndefaults)
		elog(ERROR, "textfp's %s() does not declare a default for every pipeline option", get_func_name(fn));

	/* the declared defaults: constants once folded ('{}'::text[], 0::bigint) */
	i = nargs - ndefaults;
	foreach(lc, defaults)
	{
		Node	   *e = eval_const_expressions(NULL, (Node *) lfirst(lc));
		Const	   *k;

		if (!IsA(e, Const) || exprType(e) != argtypes[i] || ((Const *) e)->constisnull)
			elog(ERROR, "default of %s() parameter \"%s\" is not a constant", get_func_name(fn), argnames[i]);
		k = (Const *) e;
		f->args[i] = datumCopy(k->constvalue, k->constbyval, k->constlen);
		i++;
	}

	/* the options given, by the parameters' names */
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fingerprint_function(nsp, !minhash)));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for textfp's fingerprint function");
	other_nargs = get_func_arg_info(tup, &other_types, &other_names, &argmodes);
	ReleaseSysCache(tup);
	for (int o = 0; o < nopts; o++)
	{
		int			at = option_index(nargs, argnames, names[o]);

		if (at < 0 && other_names != NULL && option_index(other_nargs, other_names, names[o]) >= 0)
			bad(arg, psprintf("%s is an option of %s fingerprints.", names[o],
							  minhash ? "simhash64" : "minhash_sig"), NULL);
		if (at < 0)
			bad(arg, psprintf("unknown argument \"%s\".", names[o]), unknown_hint);
		f->args[at] = option_value(names[o], values[o], argtypes[at], bad, arg);
	}
	f->args[1] = text_datum("null");
	f->nargs = nargs;
	fmgr_info_cxt(fn, &f->fn, cxt);

	k_index = option_index(nargs, argnames, "k");
	if (minhash && k_index < 0)
		elog(ERROR, "textfp's minhash() has no parameter k");
	f->k = minhash ? DatumGetInt32(f->args[k_index]) : 0;
	MemoryContextSwitchTo(old);
}

Datum
fpcall_fingerprint(FpCall *f, Datum doc, bool *isnull)
{
	LOCAL_FCINFO(fcinfo, FPCALL_MAX_ARGS);
	Datum		result;

	InitFunctionCallInfoData(*fcinfo, &f->fn, f->nargs, InvalidOid, NULL, NULL);
	for (int i = 0; i < f->nargs; i++)
	{
		fcinfo->args[i].value = i == 0 ? doc : f->args[i];
		fcinfo->args[i].isnull = false;
	}
	result = FunctionCallInvoke(fcinfo);
	*isnull = fcinfo->isnull;
	return result;
}

/*
 * Prepares f to call textfp's simhash(doc, preset, idf) or minhash(doc,
 * preset) with the preset called name (its SQL type's input checks it) and,
 * for simhash, the model idf (NULL: 'none'), copied into cxt.
 */
void
fpcall_setup_preset(FpCall *f, const char *nsp, bool minhash, const char *preset, Datum idf, bool idf_null,
					MemoryContext cxt)
{
	Oid			nspoid = get_namespace_oid(nsp, false);
	Oid			preset_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
											  CStringGetDatum("textfp_preset"), ObjectIdGetDatum(nspoid));
	Oid			idf_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
										   CStringGetDatum("idf_model"), ObjectIdGetDatum(nspoid));
	Oid			args[3] = {TEXTOID, preset_type, idf_type};
	int			nargs = minhash ? 2 : 3;
	Oid			fn;
	Oid			in;
	Oid			ioparam;
	MemoryContext old;

	if (!OidIsValid(preset_type) || !OidIsValid(idf_type))
		elog(ERROR, "textfp's types textfp_preset and idf_model are missing in schema %s", nsp);
	fn = LookupFuncName(list_make2(makeString(pstrdup(nsp)), makeString(pstrdup(minhash ? "minhash" : "simhash"))),
						nargs, args, false);
	if (getExtensionOfObject(ProcedureRelationId, fn) != get_extension_oid("textfp", false))
		elog(ERROR, "function %s.%s is not textfp's", nsp, minhash ? "minhash" : "simhash");
	memset(f, 0, sizeof(*f));
	f->minhash = minhash;
	f->nargs = nargs;
	old = MemoryContextSwitchTo(cxt);
	getTypeInputInfo(preset_type, &in, &ioparam);
	f->args[1] = OidInputFunctionCall(in, (char *) preset, ioparam, -1);
	if (!minhash)
	{
		if (idf_null)
		{
			getTypeInputInfo(idf_type, &in, &ioparam);
			f->args[2] = OidInputFunctionCall(in, "none", ioparam, -1);
		}
		else
			f->args[2] = PointerGetDatum(PG_DETOAST_DATUM_COPY(idf));
	}
	fmgr_info_cxt(fn, &f->fn, cxt);
	MemoryContextSwitchTo(old);
	{
		const tfp_preset *p = tfp_preset_by_name(preset, strlen(preset));

		f->k = minhash && p != NULL ? p->k : 0;
	}
}
