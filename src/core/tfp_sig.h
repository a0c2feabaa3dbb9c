/*
 * tfp_sig.h: two signatures beside SimHash and MinHash (1.1), each a sorted
 * set of 64-bit values compared by how many values two texts share.
 *
 * pinyin.c: the pinyin first letters of a text's Han characters, cut into
 * windows whose letter frequencies are compared with a frozen reference
 * distribution; robust to homophone substitution (a character replaced by
 * another of the same reading).
 *
 * sentences.c: the hashes of a text's k longest sentences; robust to
 * sentences reordered and to edits outside the longest ones.
 */
#ifndef TFP_SIG_H
#define TFP_SIG_H

#include "tfp_core.h"

/* --- pinyin first letters (pinyin.c) --- */

#define TFP_PINYIN_WINDOW_MIN 4
#define TFP_PINYIN_WINDOW_MAX 4096
#define TFP_PINYIN_LETTERS 26

/*
 * Expected share of each first letter 'a'..'z' among Han characters, in
 * units of 1/65536 (they sum to 65536): frozen, part of every signature
 * (data/pinyin/README.md says where it comes from).
 */
extern const uint16_t tfp_pinyin_reference[TFP_PINYIN_LETTERS];

/*
 * The first letter ('a'..'z') of Han character cp's reading in ICU's
 * "Han-Latin; Latin-ASCII", the character taken alone; 0 when cp is not Han
 * or has no reading there.
 */
extern tfp_status tfp_pinyin_letter(tfp_env *env, uint32_t cp, char *letter);

/*
 * The first letters of the Han characters of normalised text, in text
 * order, as 'a'..'z' (*letters allocated with env->alloc, *n of them).
 */
extern tfp_status tfp_pinyin_letters(tfp_env *env, const char *text, size_t len,
									 char **letters, size_t *n);

/*
 * The signature of a letter sequence: cut into windows of about `window`
 * letters where the letters decide (so a cut moves with an insertion and
 * stays under a substitution of the same letter); each window's code has
 * bit a set where letter a is more frequent than the reference says; each
 * value packs the codes of two consecutive windows (a text of one window:
 * that code twice).  Sorted as signed values, distinct; *n may be 0 (no
 * letters).  out has room for n / (window / 2) + 1 values; *nvalues gets
 * how many.
 */
extern tfp_status tfp_pinyin_windows(tfp_env *env, const char *letters, size_t n,
									 int window, uint64_t *out, size_t *nvalues);

/* Normalise (NFKC_Casefold), take the letters, the windows; *out allocated. */
extern tfp_status tfp_pinyin_signature(tfp_env *env, const char *utf8, size_t len,
									   int window, uint64_t **out, size_t *n);

/* --- the longest sentences (sentences.c) --- */

#define TFP_SENTENCES_K_MAX 256
#define TFP_SENTENCE_MIN_LENGTH_MAX 1000000
/* A paragraph longer than this (bytes) goes to the sentence breaker in pieces. */
#define TFP_SENTENCE_PIECE_BYTES 65536

/*
 * The hashes (tfp_hash, seed 0) of the k longest distinct sentences of a
 * text, sorted as signed values.  Sentences are ICU's sentence breaks of the
 * text with its white space folded (a run with two or more line breaks ends
 * a paragraph, and so a sentence; any other run is one space); a sentence is
 * hashed and measured as its tokens after NFKC_Casefold (words, and CJK
 * characters one by one), joined by one space; its length is the code
 * points of its tokens.  Longer first; among equal lengths the smaller hash
 * (as unsigned) first.  Sentences shorter than min_length are left out.
 * out has room for k values; *n gets how many (fewer than k when the text
 * has fewer sentences).
 */
extern tfp_status tfp_sentence_signature(tfp_env *env, const char *utf8, size_t len,
										 int k, int min_length, uint64_t *out, size_t *n);

/* The same with paragraphs cut into pieces of piece_bytes (tests). */
extern tfp_status tfp_sentence_signature_pieces(tfp_env *env, const char *utf8, size_t len,
												int k, int min_length, size_t piece_bytes,
												uint64_t *out, size_t *n);

/* Sentence callback for tests and inspection: canonical text and its length. */
typedef tfp_status (*tfp_sentence_fn) (void *arg, const char *canon, size_t len,
									   size_t length);
extern tfp_status tfp_sentences(tfp_env *env, const char *utf8, size_t len,
								size_t piece_bytes, tfp_sentence_fn fn, void *arg);

/* Distinct values two sorted, distinct arrays (as signed) have in common. */
extern size_t tfp_sorted_overlap(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

#endif							/* TFP_SIG_H */
