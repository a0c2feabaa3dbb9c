/*
 * fuzz_pipeline.c: libFuzzer target for the whole text pipeline.
 *
 * Input layout: 5 option bytes, then the text (any bytes, often not UTF-8).
 *   [0] ngram = 1 + b % TFP_MAX_NGRAM
 *   [1] shingle = 1 + b % TFP_MAX_SHINGLE
 *   [2] flags: 0x01 ICU tokenizer, 0x02 simplify, 0x04 zh stopwords,
 *       0x08 en stopwords, 0x10 binary weighting, 0x20 user stopwords,
 *       0x40 refuse allocations after [4]
 *   [3] seed
 *   [4] allocation count before refusals (with flag 0x40)
 *
 * Invariants checked: tfp_extract and tfp_simhash_text agree on the status
 * and, on success, on the fingerprint (simhash accumulated by hand over the
 * deduplicated features); the status is TFP_EUTF8 exactly for invalid UTF-8;
 * deduplicated features are distinct, their counts add up to the per-
 * occurrence features, their texts lie in bounds, are valid UTF-8 without
 * stray spaces, and hash to the feature hash; tokens are non-empty in-bounds
 * spans; NFKC_Casefold normalisation is idempotent; with refused allocations
 * the only new status is TFP_ENOMEM; and nothing allocated through tfp_env
 * is left live.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tfp_core.h"

#define HEADER_BYTES 5

static tfp_stopset *user_set = NULL;	/* built once, with malloc */

static const tfp_stopset *
user_stopwords(void)
{
	static const char *const words[] = {"fox", "a", "今天", "天气", "iphone", "s"};
	static const size_t lens[] = {3, 1, 6, 6, 6, 1};

	if (user_set == NULL)
	{
		fuzz_alloc a;
		tfp_env		env;

		fuzz_env_init(&env, &a);
		if (tfp_stopset_build(&env, words, lens, 6, &user_set) != TFP_OK)
			abort();
	}
	return user_set;
}

/* Check the tokenizer's spans over normalised text. */
static void
check_tokens(tfp_env *env, const tfp_options *opts, const char *norm, size_t nlen)
{
	tfp_span   *tok = NULL;
	size_t		ntok = 0;
	tfp_status	rc = tfp_tokenize(env, opts, norm, nlen, &tok, &ntok);

	if (rc == TFP_ENOMEM)
		return;
	FUZZ_CHECK(rc == TFP_OK);
	for (size_t i = 0; i < ntok; i++)
	{
		FUZZ_CHECK(tok[i].len > 0);
		FUZZ_CHECK(tok[i].off <= nlen && tok[i].len <= nlen - tok[i].off);
		FUZZ_CHECK(tfp_utf8_valid(norm + tok[i].off, tok[i].len));
		FUZZ_CHECK(memchr(norm + tok[i].off, ' ', tok[i].len) == NULL);
	}
	if (tok)
		env->free(env->ctx, tok);
}

/* NFKC_Casefold(NFKC_Casefold(x)) == NFKC_Casefold(x), and tokens of it. */
static void
check_normalize(tfp_env *env, const tfp_options *opts, const char *text, size_t len)
{
	char	   *once = NULL;
	size_t		once_len = 0;
	char	   *twice = NULL;
	size_t		twice_len = 0;
	tfp_status	rc = tfp_normalize(env, text, len, opts->simplify, &once, &once_len);

	if (rc == TFP_ENOMEM)
		return;
	if (!tfp_utf8_valid(text, len))
	{
		FUZZ_CHECK(rc == TFP_EUTF8);
		return;
	}
	FUZZ_CHECK(rc == TFP_OK);
	FUZZ_CHECK(once[once_len] == '\0');
	FUZZ_CHECK(tfp_utf8_valid(once, once_len));
	check_tokens(env, opts, once, once_len);
	if (!opts->simplify)
	{
		rc = tfp_normalize(env, once, once_len, false, &twice, &twice_len);
		if (rc == TFP_OK)
		{
			FUZZ_CHECK(twice_len == once_len && memcmp(once, twice, once_len) == 0);
			env->free(env->ctx, twice);
		}
		else
			FUZZ_CHECK(rc == TFP_ENOMEM);
	}
	env->free(env->ctx, once);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tfp_options opts;
	fuzz_alloc	a;
	tfp_env		env;
	const char *text;
	size_t		len;
	bool		valid;
	bool		failing;
	tfp_featureset dd;
	tfp_featureset all;
	tfp_status	rc_dd;
	tfp_status	rc_all;
	tfp_status	rc_sh;
	uint64_t	fp = 0;

	if (size < HEADER_BYTES)
		return 0;
	tfp_options_default(&opts);
	opts.ngram = 1 + data[0] % TFP_MAX_NGRAM;
	opts.shingle = 1 + data[1] % TFP_MAX_SHINGLE;
	opts.tokenizer = (data[2] & 0x01) ? TFP_TOKENIZER_ICU : TFP_TOKENIZER_NGRAM;
	opts.simplify = (data[2] & 0x02) != 0;
	opts.builtin_stopwords = ((data[2] & 0x04) ? TFP_STOP_ZH : 0) |
		((data[2] & 0x08) ? TFP_STOP_EN : 0);
	opts.weighting = (data[2] & 0x10) ? TFP_WEIGHT_BINARY : TFP_WEIGHT_TF;
	opts.user_stopwords = (data[2] & 0x20) ? user_stopwords() : NULL;
	opts.seed = data[3];
	failing = (data[2] & 0x40) != 0;
	text = (const char *) data + HEADER_BYTES;
	len = size - HEADER_BYTES;
	valid = tfp_utf8_valid(text, len);

	fuzz_env_init(&env, &a);
	if (failing)
		a.fail_after = data[4];

	rc_dd = tfp_extract(&env, &opts, text, len, true, true, &dd);
	rc_all = tfp_extract(&env, &opts, text, len, false, false, &all);
	rc_sh = tfp_simhash_text(&env, &opts, text, len, &fp, NULL);

	if (!valid)
	{
		FUZZ_CHECK(rc_dd == TFP_EUTF8 && rc_all == TFP_EUTF8 && rc_sh == TFP_EUTF8);
		FUZZ_CHECK(dd.items == NULL && all.items == NULL);
	}
	else if (!failing)
	{
		FUZZ_CHECK(rc_dd == TFP_OK && rc_all == TFP_OK && rc_sh == TFP_OK);
	}
	else
	{
		FUZZ_CHECK(rc_dd == TFP_OK || rc_dd == TFP_ENOMEM);
		FUZZ_CHECK(rc_all == TFP_OK || rc_all == TFP_ENOMEM);
		FUZZ_CHECK(rc_sh == TFP_OK || rc_sh == TFP_ENOMEM);
	}

	if (rc_dd == TFP_OK)
	{
		tfp_simhash_acc acc;
		uint64_t	total = 0;

		tfp_simhash_init(&acc);
		for (size_t i = 0; i < dd.n; i++)
		{
			const tfp_feature *f = &dd.items[i];
			const char *ft = dd.text + f->text_off;

			FUZZ_CHECK(f->count >= 1);
			total += f->count;
			FUZZ_CHECK(dd.text != NULL);
			FUZZ_CHECK(f->text_len > 0);
			FUZZ_CHECK(f->text_off <= dd.text_len && f->text_len <= dd.text_len - f->text_off);
			FUZZ_CHECK(tfp_hash(ft, f->text_len, opts.seed) == f->hash);
			FUZZ_CHECK(tfp_utf8_valid(ft, f->text_len));
			/* tokens joined by single spaces: no leading, trailing or double space */
			FUZZ_CHECK(ft[0] != ' ' && ft[f->text_len - 1] != ' ');
			for (size_t j = 1; j < f->text_len; j++)
				FUZZ_CHECK(!(ft[j] == ' ' && ft[j - 1] == ' '));
			FUZZ_CHECK(tfp_simhash_add(&acc, f->hash, tfp_feature_weight_fixed(&opts, f)) == TFP_OK);
		}
		/* distinct hashes (quadratic, but inputs are small) */
		if (dd.n <= 2048)
			for (size_t i = 0; i < dd.n; i++)
				for (size_t j = i + 1; j < dd.n; j++)
					FUZZ_CHECK(dd.items[i].hash != dd.items[j].hash);
		if (rc_sh == TFP_OK)
			FUZZ_CHECK(tfp_simhash_final(&acc) == fp);
		if (rc_all == TFP_OK)
		{
			FUZZ_CHECK(total == all.n);
			FUZZ_CHECK(all.text == NULL);
			if (dd.n > 0)
				FUZZ_CHECK(all.n > 0 && all.items[0].hash == dd.items[0].hash);
		}
		tfp_featureset_free(&env, &dd);
	}
	if (rc_all == TFP_OK)
	{
		/* TF simhash from per-occurrence features, weight 1 each */
		tfp_simhash_acc acc;

		tfp_simhash_init(&acc);
		for (size_t i = 0; i < all.n; i++)
		{
			FUZZ_CHECK(all.items[i].count == 1);
			FUZZ_CHECK(tfp_simhash_add(&acc, all.items[i].hash,
									   INT64_C(1) << TFP_WEIGHT_FRAC_BITS) == TFP_OK);
		}
		if (rc_sh == TFP_OK && opts.weighting == TFP_WEIGHT_TF)
			FUZZ_CHECK(tfp_simhash_final(&acc) == fp);
		tfp_featureset_free(&env, &all);
	}
	if (valid && rc_sh == TFP_OK && len == 0)
		FUZZ_CHECK(fp == 0);

	check_normalize(&env, &opts, text, len);

	FUZZ_CHECK(a.live == 0);
	return 0;
}
