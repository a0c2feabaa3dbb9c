/*
 * tfp_presets.h: textfp's named presets (presets.c), the one table that
 * simhash(doc, preset => ...), minhash(doc, preset => ...), textfp_presets()
 * and the table registration read.
 *
 * A preset is a method, every pipeline option, and the threshold measured
 * with them (docs/quality.md, bench/presets/).  Its definition is frozen
 * forever: stored fingerprints and expression indexes depend on it, so a
 * better set of options comes under a new name, and a preset's number (the
 * value a textfp_preset holds) is never reused.
 */
#ifndef TFP_PRESETS_H
#define TFP_PRESETS_H

#include <stdbool.h>
#include <stddef.h>

#include "tfp_core.h"

typedef enum tfp_preset_method
{
	TFP_PRESET_SIMHASH = 1,		/* simhash64, threshold a Hamming radius */
	TFP_PRESET_MINHASH = 2		/* minhash_sig, threshold a Jaccard estimate */
} tfp_preset_method;

typedef struct tfp_preset
{
	int			id;				/* frozen, never reused: what a textfp_preset stores */
	const char *name;			/* frozen */
	tfp_preset_method method;
	/* the pipeline (seed 0, no user stopwords, featureless texts give NULL) */
	int			ngram;
	int			shingle;
	tfp_tokenizer tokenizer;
	bool		simplify;
	tfp_chinese chinese;
	int			builtin_stopwords;	/* TFP_STOP_* mask */
	tfp_weighting weighting;	/* simhash */
	tfp_numbers numbers;		/* simhash */
	int			keywords;		/* simhash; 0: all features */
	bool		idf;			/* simhash: weighs by an idf_model, which the call must pass */
	int			k;				/* minhash */
	tfp_minhash_method minhash_method;	/* minhash */
	/* what the measurements chose with it */
	double		threshold;		/* simhash: radius in bits; minhash: least Jaccard */
	bool		recommended;	/* the one to start with, for its method */
	const char *description;
} tfp_preset;

/* The presets, in the order textfp_presets() lists them. */
extern size_t tfp_preset_count(void);
extern const tfp_preset *tfp_preset_at(size_t i);

/* By name (exact bytes) or by number; NULL when there is none. */
extern const tfp_preset *tfp_preset_by_name(const char *name, size_t len);
extern const tfp_preset *tfp_preset_by_id(int id);

/* The preset's pipeline as tfp_options (idf NULL: the caller sets the model). */
extern void tfp_preset_options(const tfp_preset *p, tfp_options *opts);

/* The stopword lists of a mask as the stopwords option spells them ("zh+snowball"). */
extern const char *tfp_stopwords_name(int mask);

#endif							/* TFP_PRESETS_H */
