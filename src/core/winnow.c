/*
 * winnow.c: winnowed fingerprints of a text (Schleimer, Wilkerson and Aiken,
 * SIGMOD 2003) and the containment rule that compares them.
 *
 * The pipeline's shingles (k consecutive tokens) are hashed in text order;
 * of every window of w consecutive shingle hashes the smallest is kept (the
 * rightmost of equal ones).  Selection depends only on the window's
 * contents, so two texts that share a run of at least w + k - 1 tokens share
 * at least one fingerprint, and every window wholly inside a shared passage
 * picks the same hash in both: the share of a text's fingerprints found in
 * another estimates the share of its shingles found there (containment),
 * which Jaccard similarity cannot measure when the other text is longer.
 * A fingerprint set is kept sorted as signed 64-bit values without repeats,
 * which is how the SQL glue stores it (bigint[]).
 *
 * Integer arithmetic only: the same fingerprints on every platform.
 */
#include <string.h>

#include "tfp_core.h"

void
tfp_winnow_init(tfp_env *env, tfp_winnow *wn, int window)
{
	memset(wn, 0, sizeof(*wn));
	wn->env = env;
	wn->window = window;
	wn->limit = TFP_MAX_FEATURES;
	wn->last_pos = UINT64_MAX;
}

static tfp_status
winnow_emit(tfp_winnow *wn, uint64_t h)
{
	if (wn->n >= wn->limit)
		return TFP_ETOOMANY;
	if (wn->n == wn->cap)
	{
		size_t		ncap = wn->cap ? wn->cap * 2 : 64;
		uint64_t   *nv;

		nv = tfp_grow(wn->env, wn->out, wn->n * sizeof(uint64_t), ncap * sizeof(uint64_t));
		if (nv == NULL)
			return TFP_ENOMEM;
		wn->out = nv;
		wn->cap = ncap;
	}
	wn->out[wn->n++] = h;
	return TFP_OK;
}

/*
 * One shingle hash, in text order.  The candidates for the window minimum
 * are a deque of increasing hashes (a ring of window slots): a new hash
 * drops every candidate not smaller than itself, so the front is the
 * rightmost minimum of the window, in O(1) amortised per hash.
 */
tfp_status
tfp_winnow_add(void *arg, uint64_t h, const char *text, size_t len)
{
	tfp_winnow *wn = (tfp_winnow *) arg;
	uint64_t	pos = wn->seen++;
	int			w = wn->window;

	(void) text;
	(void) len;
	/* the front left the window (positions are consecutive: one at most) */
	if (wn->count > 0 && wn->pos[wn->head] + (uint64_t) w <= pos)
	{
		wn->head = (wn->head + 1) % w;
		wn->count--;
	}
	while (wn->count > 0 &&
		   wn->hash[(wn->head + wn->count - 1) % w] >= h)
		wn->count--;
	wn->hash[(wn->head + wn->count) % w] = h;
	wn->pos[(wn->head + wn->count) % w] = pos;
	wn->count++;
	if (pos + 1 >= (uint64_t) w && wn->pos[wn->head] != wn->last_pos)
	{
		wn->last_pos = wn->pos[wn->head];
		return winnow_emit(wn, wn->hash[wn->head]);
	}
	return TFP_OK;
}

tfp_status
tfp_winnow_finish(tfp_winnow *wn, uint64_t **out, size_t *n)
{
	tfp_status	rc;

	/* fewer shingles than a window: the text is one short window */
	if (wn->seen > 0 && wn->seen < (uint64_t) wn->window &&
		(rc = winnow_emit(wn, wn->hash[wn->head])) != TFP_OK)
		return rc;
	if ((rc = tfp_sort_u64(wn->env, wn->out, wn->n, true)) != TFP_OK)
		return rc;
	*n = tfp_unique_u64(wn->out, wn->n);
	*out = wn->out;
	wn->out = NULL;
	wn->n = wn->cap = 0;
	return TFP_OK;
}

void
tfp_winnow_free(tfp_winnow *wn)
{
	if (wn->out)
		wn->env->free(wn->env->ctx, wn->out);
	wn->out = NULL;
	wn->n = wn->cap = 0;
}

tfp_status
tfp_winnow_text(tfp_env *env, const tfp_options *opts, const char *utf8, size_t len,
				int window, uint64_t **out, size_t *n)
{
	tfp_winnow *wn;
	tfp_status	rc;

	*out = NULL;
	*n = 0;
	if (window < 1 || window > TFP_WINNOW_MAX_WINDOW)
		return TFP_ETOOLONG;
	wn = env->alloc(env->ctx, sizeof(tfp_winnow));
	if (wn == NULL)
		return TFP_ENOMEM;
	tfp_winnow_init(env, wn, window);
	rc = tfp_pipeline(env, opts, utf8, len, tfp_winnow_add, wn);
	if (rc == TFP_OK)
		rc = tfp_winnow_finish(wn, out, n);
	tfp_winnow_free(wn);
	env->free(env->ctx, wn);
	return rc;
}

size_t
tfp_unique_u64(uint64_t *v, size_t n)
{
	size_t		m = 0;

	for (size_t i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

bool
tfp_is_signed_set(const uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if ((int64_t) v[i - 1] >= (int64_t) v[i])
			return false;
	return true;
}

size_t
tfp_signed_set_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		i = 0,
				j = 0,
				c = 0;

	while (i < na && j < nb)
	{
		int64_t		x = (int64_t) a[i];
		int64_t		y = (int64_t) b[j];

		if (x == y)
		{
			c++;
			i++;
			j++;
		}
		else if (x < y)
			i++;
		else
			j++;
	}
	return c;
}

size_t
tfp_containment_needed(double c, size_t n, size_t min_shared)
{
	size_t		s;

	if (!(c > 0.0))				/* also NaN: the glue rejects it first */
		s = 0;
	else if (c > 1.0)
		s = n + 1;
	else
	{
		/* the smallest s with (double) s / n >= c, exactly as containment() divides */
		s = (size_t) (c * (double) n);
		while (s > 0 && (double) (s - 1) / (double) n >= c)
			s--;
		while (s <= n && (double) s / (double) n < c)
			s++;
	}
	return s > min_shared ? s : min_shared;
}
