/*
 * fpcall.h: calling textfp's own 1.1 simhash() or minhash() over text with
 * options given by name, as triggers do (textfp_dedup, textfp_track): the
 * options not given take the defaults the SQL function declares, so a
 * trigger and the function have one set of defaults.
 */
#ifndef TEXTFP_FPCALL_H
#define TEXTFP_FPCALL_H

#include "postgres.h"

#include "fmgr.h"

/* the 1.1 simhash()/minhash() over text take 14 and 12 arguments today */
#define FPCALL_MAX_ARGS 24

typedef struct FpCall
{
	FmgrInfo	fn;
	int			nargs;
	Datum		args[FPCALL_MAX_ARGS];	/* args[0], the text, per call */
	bool		minhash;
	int			k;				/* minhash: values in a signature */
} FpCall;

/* Reports a bad option (never returns): the caller says which trigger or table. */
typedef void (*fpcall_bad_option) (void *arg, const char *detail, const char *hint);

/*
 * Prepares f to call textfp's simhash() (minhash false) or minhash() with
 * featureless => 'null' and the nopts options names[i] = values[i] (text
 * forms, converted to the parameters' types), in memory of cxt.  nsp is
 * textfp's schema.  An unknown option (with unknown_hint) or a bad value goes
 * to bad(arg, ...).
 */
extern void fpcall_setup(FpCall *f, const char *nsp, bool minhash, int nopts,
						 char **names, char **values, MemoryContext cxt,
						 fpcall_bad_option bad, void *arg, const char *unknown_hint);

/*
 * The same for a preset: simhash(doc, preset, idf) (idf NULL: 'none') or
 * minhash(doc, preset).
 */
extern void fpcall_setup_preset(FpCall *f, const char *nsp, bool minhash, const char *preset,
								Datum idf, bool idf_null, MemoryContext cxt);

/* The fingerprint of doc as the SQL function gives it; NULL when featureless. */
extern Datum fpcall_fingerprint(FpCall *f, Datum doc, bool *isnull);

#endif							/* TEXTFP_FPCALL_H */
