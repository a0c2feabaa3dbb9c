/*
 * exact.c: textfp_exact(doc, simplify), a UUID-shaped 128-bit hash of the
 * normalised text for a unique index that catches exact reprints.  The hash
 * is the core's (src/core/exact.c); it depends on ICU's normalisation data,
 * which textfp_versions() reports (docs/dedup.md says when to REINDEX).
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/uuid.h"

#include "textfp.h"

PG_FUNCTION_INFO_V1(textfp_exact);
Datum
textfp_exact(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	bool		simplify = PG_GETARG_BOOL(1);
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	tfp_env		env;
	tfp_status	rc;
	bool		empty;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_exact(&env, u8, len, simplify, uuid->data, &empty);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	if (empty)					/* nothing but white space: matches nothing */
		PG_RETURN_NULL();
	PG_RETURN_UUID_P(uuid);
}
