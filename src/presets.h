/*
 * presets.h: named presets for the PostgreSQL glue (presets.c).
 *
 * The table itself is src/core/presets.c (tfp_presets.h): the single source
 * that simhash(doc, preset => ...), minhash(doc, preset => ...),
 * simhash_features(), shingles(), textfp_presets() and the table
 * registration read.  A glue file that fingerprints with a preset (the
 * registration's trigger) does:
 *
 *		const tfp_preset *p = textfp_preset_lookup(name);	// or tfp_preset_by_id()
 *		bool		isnull;
 *		Datum		fp;
 *
 *		textfp_preset_check(p, p->method, idf);		// idf: NULL, or the model's view
 *		fp = textfp_preset_fingerprint(p, doc, idf, &isnull);
 *
 * which gives exactly what the SQL functions give for the same text, preset
 * and model: a simhash64 (by value) or a palloc'd minhash_sig, or NULL for
 * a text without features.
 */
#ifndef TEXTFP_PRESETS_H
#define TEXTFP_PRESETS_H

#include "utils/array.h"

#include "textfp.h"
#include "tfp_presets.h"

/* The preset called name (exact); an error (22023) listing the presets when there is none. */
extern const tfp_preset *textfp_preset_lookup(const char *name);

/*
 * The preset's options as the SQL option parser makes them, with their
 * pipeline id: computed once per backend, never freed.  opts.idf is NULL:
 * a caller with a model copies the options and sets it.
 */
extern const TextfpOptions *textfp_preset_options(const tfp_preset *p);

/*
 * Errors (22023) unless p is a preset of method and idf agrees with it: a
 * preset that weighs by a model (p->idf) needs one (idf not NULL), any other
 * refuses one.  idf NULL stands for no model (and for 'none').
 */
extern void textfp_preset_check(const tfp_preset *p, tfp_preset_method method,
								const tfp_idf *idf);

/*
 * doc's fingerprint under p (checked first as above): a simhash64 Datum or a
 * minhash_sig pointer Datum in the current memory context; *isnull for a
 * text without features, which matches nothing.
 */
extern Datum textfp_preset_fingerprint(const tfp_preset *p, text *doc, const tfp_idf *idf,
									   bool *isnull);

/* pipeline.c and minhash_text.c: one document under parsed options */
extern uint64 textfp_simhash_doc(text *doc, const tfp_options *opts, size_t *nfeatures);
extern ArrayType *textfp_simhash_feature_array(text *doc, const tfp_options *opts);
extern ArrayType *textfp_shingle_array(text *doc, const tfp_options *opts);

#endif							/* TEXTFP_PRESETS_H */
