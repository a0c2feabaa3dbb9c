/*
 * lsh_choose.c: the search for the banding (b, r, m) with the least
 * weighted false positive and false negative areas under the S-curve (as
 * datasketch does, extended to m > 1 and to a budget of candidates per row
 * predicted from sampled pair statistics): tfp_lsh_choose.
 *
 * Every banding with b * r <= k and m <= min(b, max_min_bands) is a
 * candidate, about a million at k = 1024, and the exact areas of one cost
 * 258 binomial tails of O(b) each.  1.0 evaluated them all (36 s at
 * k = 1024 and max_min_bands = 4, hours at max_min_bands = 1024).  Now only
 * the bandings that may win are evaluated exactly (area(), so the areas
 * reported are the same numbers), found by bounds that cannot exclude them:
 *
 *   - The S-curve grows with s, so on the nodes of Simpson's rule a step
 *     function through some of the nodes bounds each area from below (the
 *     FP integrand by its value at the left end of a step, the FN integrand,
 *     which falls, at the right end).  The tails of every m of one pair
 *     (b, r) come from one pass over the binomial's terms (tails_all), so a
 *     pair's bounds for all m cost one pass per node: 15 nodes a side for
 *     every pair, 39 for the pairs that pass, then all 129, from the
 *     threshold outwards until the integrand no longer counts.
 *   - The pairs are taken in the order of their bounds, so a good best comes
 *     early, and the first whose bound exceeds the best ends the search.
 *   - The bandings within rounding of the best are evaluated exactly.  The
 *     least cost wins, and costs closer than LSH_TIE are equal: the first in
 *     (b, r, m) order wins, fewer bands then fewer rows (a smaller index).
 *     1.0 took the least cost to the last bit: the same banding, unless two
 *     differ by less, as bandings of one S-curve do ((1, 36, 1) and
 *     (4, 9, 4) are both s^36) and as bandings whose cost is at the level of
 *     rounding do (a weight of 0, a threshold of 0 or 1).  In order, once a
 *     banding costs less than LSH_TIE none after it can win, and the search
 *     stops there.
 *
 * With pair statistics, candidates per row fall as r and m grow: for each b
 * the pairs that can fit the budget start at some r, and in each pair the
 * fitting m start at some m (binary searches, then galloping down as r
 * grows), and only those m are bounded; a count is bounded over ranges of
 * c (its share grows with c) until the bounds settle it, and a count within
 * rounding of the budget is decided by tfp_lsh_expected_candidates itself.  When no banding fits, the fewest candidates come from bandings
 * that need all k positions equal, (1, k, 1) among them: pairs equal in all
 * k positions are candidates under every banding, and (1, k, 1) counts only
 * them.  1.0 kept the first banding with strictly fewer than every one
 * before it: the first (1, r, 1) with as few.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"

/* Intervals of Simpson's rule on each side of the threshold (even). */
#define LSH_SIMPSON_STEPS 128
#define LSH_NODES (LSH_SIMPSON_STEPS + 1)

/*
 * Costs closer than this share of the weights are equal: below what
 * Simpson's rule on 128 intervals can tell apart, and above what area()
 * rounds.
 */
#define LSH_TIE 1e-11

/*
 * How far the approximate costs may be from area()'s: relative (area()'s
 * tails are sums of exp(lgamma(n + 1) - ...), off by up to 1e-12 at
 * n = 1024), plus, in the FN area, what area() loses taking 1 - P(s) of a
 * P(s) that close to 1 (as much again, absolute), plus underflow.
 */
#define LSH_APPROX_REL 1e-9
#define LSH_APPROX_FN_ABS 4e-12
#define LSH_APPROX_MIN 1e-13
/*
 * Binomial terms below this are left out of the approximate tails, and of
 * the tails of lower bounds (where leaving out only lowers a bound) below
 * the larger LSH_BOUND_TERM_MIN: a bound is at most that much lower.
 */
#define LSH_TERM_MIN 1e-17
#define LSH_BOUND_TERM_MIN 1e-10

/* An integrand below this at a node adds nothing that counts, there and beyond. */
#define LSH_NEGLIGIBLE 1e-18
/* Up to this many m of a pair are evaluated one by one, not all at once. */
#define LSH_FEW_M 4
/* Positions c of one range of the candidate count's first bounds, and ranges at most. */
#define LSH_PMF_RANGE 32
#define LSH_MAX_RANGES 256
/* Bandings kept for the exact evaluation. */
#define LSH_KEEP 64
/* Pairs (b, r) with b * r <= k: the sum of k / b, 7,262 at k = 1024. */
#define LSH_MAX_PAIRS 7262

/* Nodes of the lower bounds' step functions, denser near the threshold. */
static const int fp_nodes_1[] = {0, 32, 64, 80, 96, 104, 112, 116, 120, 122, 124, 125, 126, 127, 128};
static const int fn_nodes_1[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
static const int fp_nodes_2[] = {0, 16, 32, 40, 48, 56, 64, 68, 72, 76, 80, 84, 88, 92, 96, 98, 100,
	102, 104, 106, 108, 110, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128};
static const int fn_nodes_2[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22,
	24, 26, 28, 30, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 88, 96, 112, 128};

#define NODES_1 ((int) (sizeof(fp_nodes_1) / sizeof(fp_nodes_1[0])))
#define NODES_2 ((int) (sizeof(fp_nodes_2) / sizeof(fp_nodes_2[0])))

/*
 * Integral of P(s) over [lo, hi] (above = false), or of 1 - P(s) (above =
 * true), by Simpson's rule: the areas reported.
 */
static double
area(double lo, double hi, int b, int r, int m, bool above)
{
	double		h = (hi - lo) / LSH_SIMPSON_STEPS;
	double		sum = 0;

	if (!(hi > lo))
		return 0.0;
	for (int i = 0; i <= LSH_SIMPSON_STEPS; i++)
	{
		double		p = tfp_lsh_probability(lo + i * h, b, r, m);
		double		f = above ? 1.0 - p : p;
		int			w = (i == 0 || i == LSH_SIMPSON_STEPS) ? 1 : (i % 2 ? 4 : 2);

		sum += w * f;
	}
	return sum * h / 3.0;
}

static int
simpson_weight(int i)
{
	return (i == 0 || i == LSH_SIMPSON_STEPS) ? 1 : (i % 2 ? 4 : 2);
}

/* A lower bound's step function: its nodes and each step's weight. */
typedef struct lsh_steps
{
	int			n;
	const int  *fp_node;
	const int  *fn_node;
	double		fp_w[NODES_2];
	double		fn_w[NODES_2];
} lsh_steps;

typedef struct lsh_kept
{
	int			b,
				r,
				m;
	double		cost;			/* approximate, over the larger weight */
} lsh_kept;

/* A range of equal positions c of the candidate count's bounds. */
typedef struct lsh_range
{
	int			c0,
				c1;
	double		mass;			/* share of pairs with c in c0..c1 */
	double		s0,
				s1;				/* the banding's share of those at c0 and at c1 */
} lsh_range;

typedef struct lsh_search
{
	const tfp_lsh_goal *g;
	tfp_env    *env;
	int			k;
	double		w_fp;			/* the weights of the areas there are, over the larger */
	double		w_fn;
	double		tie;			/* LSH_TIE of the weights of the areas there are */
	double		fn_abs;			/* LSH_APPROX_FN_ABS of the FN area */
	double		lgf[TFP_MINHASH_K_MAX + 2]; /* lgf[i] = log(i!) */
	double		pmf_below[TFP_MINHASH_K_MAX + 2];	/* sum of pmf[c'] for c' < c */
	lsh_range	ranges[LSH_MAX_RANGES];
	double		inv[TFP_MINHASH_K_MAX + 2]; /* inv[i] = 1 / i */
	double		a[TFP_MINHASH_K_MAX + 1];	/* a binomial's terms, scaled */
	double		T[TFP_MINHASH_K_MAX + 1];	/* P(X >= m) */
	double		U[TFP_MINHASH_K_MAX + 1];	/* P(X < m) */
	double		lb[TFP_MINHASH_K_MAX + 2];
	double		fp_sum[TFP_MINHASH_K_MAX + 2];
	double		fn_sum[TFP_MINHASH_K_MAX + 2];
	double		diff[TFP_MINHASH_K_MAX + 2];	/* running constants of the sums */
	double		diff2[TFP_MINHASH_K_MAX + 2];
	double		fp_x[LSH_NODES];	/* the nodes of area(0, t) */
	double		fn_x[LSH_NODES];	/* and of area(t, 1) */
	double		fp_h3;			/* h / 3 of each side times its weight; 0: no area */
	double		fn_h3;
	lsh_steps	steps1;
	lsh_steps	steps2;
	double		best;			/* least approximate cost of a fitting banding */
	int			nkept;			/* fitting bandings that may win */
	lsh_kept	kept[LSH_KEEP];
	bool		settled;		/* settled_at costs less than the tie: none after it wins */
	lsh_kept	settled_at;
	uint64_t	work;
} lsh_search;

static void
check(lsh_search *st)
{
	if (st->env && st->env->check_interrupts)
		st->env->check_interrupts(st->env->ctx);
}

static bool
lex_before(int b1, int r1, int m1, int b2, int r2, int m2)
{
	return b1 < b2 || (b1 == b2 && (r1 < r2 || (r1 == r2 && m1 < m2)));
}

/* The margin of an approximate cost. */
static double
slack(const lsh_search *st, double cost)
{
	return cost * LSH_APPROX_REL + st->fn_abs + LSH_APPROX_MIN;
}

/* Costs up to this are equal to one of cost. */
static double
tied(const lsh_search *st, double cost)
{
	return cost + st->tie;
}

/* Whether a banding whose approximate cost (or bound) is cost may win. */
static bool
may_win(const lsh_search *st, double cost)
{
	return cost <= tied(st, st->best + 2 * slack(st, st->best)) + slack(st, st->best);
}

/*
 * The tails of X ~ Binomial(n, p) for m = 1..mmax: T[m] = P(X >= m) and
 * U[m] = P(X < m) for m in *from..*to; below *from, T = 1 and U = 0, above
 * *to, T = 0 and U = 1.  Each is the sum of the terms on the side of m away
 * from the mode and the other 1 less it, so both are accurate to rounding,
 * but for the terms below term_min that are left out (n + 1 at most).
 * O(terms that count), O(n) at most; below the mode only those below mmax.
 */
static void
tails_all(lsh_search *st, int n, double p, int mmax, double term_min, int *from, int *to)
{
	double	   *a = st->a;
	int			j0,
				anchor,
				lo,
				hi;
	double		up,
				down,
				scale,
				least,
				sum;

	st->work++;
	if (!(p > 0.0) || p >= 1.0)
	{
		/* all above (T = 0) or all below (T = 1) */
		*from = p >= 1.0 ? mmax + 1 : 1;
		*to = *from - 1;
		return;
	}
	j0 = (int) floor((n + 1) * p);
	if (j0 > n)
		j0 = n;
	/* the terms up to mmax - 1 for U, and above the mode for T if m goes past it */
	anchor = mmax - 1 < j0 ? mmax - 1 : j0;
	scale = exp(st->lgf[n] - st->lgf[anchor] - st->lgf[n - anchor] +
				anchor * log(p) + (n - anchor) * log1p(-p));
	least = term_min / scale;
	up = p / (1.0 - p);
	down = (1.0 - p) / p;
	a[anchor] = 1.0;
	lo = hi = anchor;
	while (lo > 0)
	{
		double		v = a[lo] * lo * st->inv[n - lo + 1] * down;

		if (!(v >= least))
			break;
		a[--lo] = v;
	}
	if (mmax > j0)
		while (hi < n)
		{
			double		v = a[hi] * (n - hi) * st->inv[hi + 1] * up;

			if (!(v >= least))
				break;
			a[++hi] = v;
		}
	/* up to lo nothing is left out below m: T = 1 */
	*from = lo + 1;
	/* below the mode U reaches mmax; above it, past hi nothing is left: T = 0 */
	*to = mmax > j0 && hi < mmax ? hi : mmax;
	sum = 0;
	for (int m = *from, j = lo; m <= *to; m++)
	{
		while (j < m)
			sum += a[j++];
		st->U[m] = sum * scale;
		st->T[m] = st->U[m] >= 1.0 ? 0.0 : 1.0 - st->U[m];
	}
	if (mmax > j0)
	{
		sum = 0;
		for (int j = hi; j > *to; j--)
			sum += a[j];
		for (int m = *to; m > j0 && m >= *from; m--)
		{
			sum += a[m];
			st->T[m] = sum * scale;
			st->U[m] = st->T[m] >= 1.0 ? 0.0 : 1.0 - st->T[m];
		}
	}
}

/*
 * Adds w * T[m] (upper) or w * U[m] to acc[m], m = from_m..mb, after
 * tails_all gave the window lo..hi: inside it term by term, outside it
 * through a running constant (diff[], summed by finish_sums).  For a
 * bound, lower is what the terms left out may add to a tail (a tail taken
 * as 1 less the other side is that much too high): taken off each.
 */
static void
add_tails(lsh_search *st, double *acc, double *diff, double w, bool upper,
		  int from_m, int mb, int lo, int hi, double lower)
{
	int			a = lo > from_m ? lo : from_m;
	int			b = hi < mb ? hi : mb;

	for (int m = a; m <= b; m++)
	{
		double		v = (upper ? st->T[m] : st->U[m]) - lower;

		if (v > 0)
			acc[m] += w * v;
	}
	if (upper && lo > from_m)
	{
		/* T = 1 below the window */
		diff[from_m] += w * (1 - lower);
		diff[lo < mb + 1 ? lo : mb + 1] -= w * (1 - lower);
	}
	if (!upper && hi < mb)
	{
		/* U = 1 above it */
		diff[hi + 1 > from_m ? hi + 1 : from_m] += w * (1 - lower);
		diff[mb + 1] -= w * (1 - lower);
	}
}

static void
finish_sums(double *acc, double *diff, int from_m, int mb)
{
	double		run = 0;

	for (int m = from_m; m <= mb; m++)
	{
		run += diff[m];
		acc[m] += run;
	}
}

/*
 * P(X >= m) alone, from the side of m away from the mode, until the terms
 * no longer count.
 */
static double
tail_one(lsh_search *st, int n, double p, int m)
{
	double		lp,
				lq,
				up,
				term,
				sum;

	st->work++;
	if (m <= 0)
		return 1.0;
	if (m > n || !(p > 0.0))
		return 0.0;
	if (p >= 1.0)
		return 1.0;
	if (m == 1)
		return -expm1((double) n * log1p(-p));
	lp = log(p);
	lq = log1p(-p);
	up = p / (1.0 - p);
	if (m > (int) floor((n + 1) * p))
	{
		/* the upper tail: its terms fall from m on */
		term = exp(st->lgf[n] - st->lgf[m] - st->lgf[n - m] + m * lp + (n - m) * lq);
		sum = term;
		for (int j = m; j < n && term > sum * 1e-17; j++)
		{
			term *= (n - j) * st->inv[j + 1] * up;
			sum += term;
		}
		return sum;
	}
	/* the lower tail below m: its terms fall from m - 1 down */
	term = exp(st->lgf[n] - st->lgf[m - 1] - st->lgf[n - m + 1] + (m - 1) * lp + (n - m + 1) * lq);
	sum = term;
	for (int j = m - 1; j > 0 && term > sum * 1e-17; j--)
	{
		term *= j * st->inv[n - j + 1] / up;
		sum += term;
	}
	return sum >= 1.0 ? 0.0 : 1.0 - sum;
}

/* The share of pairs with c equal positions that (b, r, m) makes candidates. */
static double
share_at(lsh_search *st, int b, int r, int m, int c)
{
	if (c >= st->k)
		return 1.0;
	return tail_one(st, b, exp(st->lgf[c] - st->lgf[c - r] - st->lgf[st->k] + st->lgf[st->k - r]), m);
}

/*
 * Within rounding of the budget: 0; clearly below: -1; clearly above: 1.
 * The share of pairs a banding makes candidates grows with their equal
 * positions c, so over a range of c the count lies between its values at
 * the range's ends, weighted by the range's pairs: bounds that narrow as
 * the widest range is halved, until they settle it (a few dozen shares)
 * or every range is one c, the sum itself.
 */
static int
against_budget(lsh_search *st, int b, int r, int m)
{
	double		budget = st->g->max_candidates;
	double		margin = fabs(budget) * LSH_APPROX_REL + 1e-300;
	double		scale = st->g->others * (1 + 1e-12); /* and the sums' rounding */
	int			n = 0;
	double		lo = 0,
				hi = 0;

	/* ranges [c0, c1] with their shares at both ends */
	for (int c0 = r; c0 <= st->k; c0 += LSH_PMF_RANGE)
	{
		int			c1 = c0 + LSH_PMF_RANGE - 1 < st->k ? c0 + LSH_PMF_RANGE - 1 : st->k;
		lsh_range  *x = &st->ranges[n];

		x->mass = st->pmf_below[c1 + 1] - st->pmf_below[c0];
		if (!(x->mass > 0))
			continue;
		x->c0 = c0;
		x->c1 = c1;
		x->s0 = share_at(st, b, r, m, c0);
		x->s1 = c1 == c0 ? x->s0 : share_at(st, b, r, m, c1);
		lo += x->mass * x->s0;
		hi += x->mass * x->s1;
		n++;
	}
	for (;;)
	{
		int			widest = -1;
		double		gap = 0;

		if (hi * scale < budget - margin)
			return -1;
		if (lo * scale * (1 - 2e-12) > budget + margin)
			return 1;
		for (int i = 0; i < n; i++)
			if (st->ranges[i].c1 > st->ranges[i].c0 &&
				st->ranges[i].mass * (st->ranges[i].s1 - st->ranges[i].s0) > gap)
			{
				gap = st->ranges[i].mass * (st->ranges[i].s1 - st->ranges[i].s0);
				widest = i;
			}
		if (widest < 0 || n == LSH_MAX_RANGES)
			return 0;
		{
			lsh_range  *x = &st->ranges[widest];
			lsh_range  *y = &st->ranges[n++];
			int			mid = x->c0 + (x->c1 - x->c0) / 2;

			/* [c0, mid] and [mid + 1, c1] */
			lo -= x->mass * x->s0;
			hi -= x->mass * x->s1;
			y->c0 = mid + 1;
			y->c1 = x->c1;
			y->s1 = x->s1;
			y->s0 = y->c0 == y->c1 ? y->s1 : share_at(st, b, r, m, y->c0);
			y->mass = st->pmf_below[y->c1 + 1] - st->pmf_below[y->c0];
			x->c1 = mid;
			x->s1 = mid == x->c0 ? x->s0 : share_at(st, b, r, m, mid);
			x->mass = st->pmf_below[x->c1 + 1] - st->pmf_below[x->c0];
			lo += x->mass * x->s0 + y->mass * y->s0;
			hi += x->mass * x->s1 + y->mass * y->s1;
		}
	}
}

/* Whether (b, r, m) fits the budget, as tfp_lsh_expected_candidates says. */
static bool
fits_budget(lsh_search *st, int b, int r, int m)
{
	int			v = against_budget(st, b, r, m);

	if (v != 0)
		return v < 0;
	st->work += (uint64_t) st->k + 1;
	return tfp_lsh_expected_candidates(st->g->pmf, st->k, st->g->others, b, r, m) <=
		st->g->max_candidates;
}

/* The first m in lo..hi for which (b, r, m) may fit (hi + 1 if none). */
static int
first_fitting_m(lsh_search *st, int b, int r, int lo, int hi)
{
	int			first = hi + 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (against_budget(st, b, r, mid) <= 0)
		{
			first = mid;
			hi = mid - 1;
		}
		else
			lo = mid + 1;
	}
	return first;
}

/*
 * The first m that may fit (b, r, m), knowing that (b, r, hi) may: galloping
 * down from hi, since it moves little from one r to the next.
 */
static int
fitting_m_below(lsh_search *st, int b, int r, int hi)
{
	int			step = 1;

	while (hi - step >= 1 && against_budget(st, b, r, hi - step) <= 0)
	{
		hi -= step;
		step *= 2;
	}
	/* hi may fit, hi - step does not (or is below 1): what lies between */
	return first_fitting_m(st, b, r, hi - step + 1 > 1 ? hi - step + 1 : 1, hi - 1);
}

/* The first r in 1..rmax for which (b, r, mb) may fit (rmax + 1 if none). */
static int
first_fitting_r(lsh_search *st, int b, int rmax, int mb)
{
	int			lo = 1,
				hi = rmax,
				first = rmax + 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (against_budget(st, b, mid, mb) <= 0)
		{
			first = mid;
			hi = mid - 1;
		}
		else
			lo = mid + 1;
	}
	return first;
}

/* The exact evaluation: the areas by area(), the candidates by the pmf. */
static double
evaluate(lsh_search *st, int b, int r, int m, tfp_lsh_choice *c)
{
	const tfp_lsh_goal *g = st->g;

	check(st);
	st->work += 2 * LSH_NODES;
	c->bands = b;
	c->rows = r;
	c->min_bands = m;
	c->candidates = -1;
	c->false_positive = area(0.0, g->threshold, b, r, m, false);
	c->false_negative = area(g->threshold, 1.0, b, r, m, true);
	if (g->pmf)
	{
		st->work += (uint64_t) g->k + 1;
		c->candidates = tfp_lsh_expected_candidates(g->pmf, g->k, g->others, b, r, m);
	}
	return st->w_fp * c->false_positive + st->w_fn * c->false_negative;
}

/*
 * Lower bounds of the costs of (b, r, m), m = from..mb, by the step
 * function sp, in lb[]; the least returned.
 */
static double
pair_bounds(lsh_search *st, const lsh_steps *sp, int b, int r, int from, int mb)
{
	double		least = INFINITY;
	/* at most b + 1 terms left out, each below LSH_BOUND_TERM_MIN */
	double		lower = (b + 1) * LSH_BOUND_TERM_MIN;

	for (int m = from; m <= mb + 1; m++)
		st->lb[m] = st->diff[m] = 0;
	for (int s = 0; s < sp->n; s++)
	{
		int			lo,
					hi;

		if (sp->fp_w[s] > 0)
		{
			tails_all(st, b, pow(st->fp_x[sp->fp_node[s]], r), mb, LSH_BOUND_TERM_MIN, &lo, &hi);
			add_tails(st, st->lb, st->diff, sp->fp_w[s], true, from, mb, lo, hi, lower);
		}
		if (sp->fn_w[s] > 0)
		{
			tails_all(st, b, pow(st->fn_x[sp->fn_node[s]], r), mb, LSH_BOUND_TERM_MIN, &lo, &hi);
			add_tails(st, st->lb, st->diff, sp->fn_w[s], false, from, mb, lo, hi, lower);
		}
	}
	finish_sums(st->lb, st->diff, from, mb);
	for (int m = from; m <= mb; m++)
		if (st->lb[m] < least)
			least = st->lb[m];
	return least;
}

/* Whether a kept banding may still be the answer. */
static bool
still_kept(const lsh_search *st, const lsh_kept *k)
{
	/* the least is kept for the least exact cost; after a settled one no other wins */
	return k->cost <= st->best ||
		(may_win(st, k->cost) &&
		 !(st->settled && lex_before(st->settled_at.b, st->settled_at.r, st->settled_at.m,
									 k->b, k->r, k->m)));
}

/* Keeps a fitting banding that may win, and forgets those that no longer may. */
static void
keep(lsh_search *st, int b, int r, int m, double cost)
{
	lsh_kept	k = {b, r, m, cost};
	int			n = 0;

	if (cost < st->best)
		st->best = cost;
	if (cost + slack(st, cost) <= st->tie &&
		(!st->settled || lex_before(b, r, m, st->settled_at.b, st->settled_at.r, st->settled_at.m)))
	{
		st->settled = true;
		st->settled_at = k;
	}
	for (int i = 0; i < st->nkept; i++)
		if (still_kept(st, &st->kept[i]))
			st->kept[n++] = st->kept[i];
	st->nkept = n;
	if (!still_kept(st, &k))
		return;
	if (st->nkept == LSH_KEEP)
	{
		/* a tie of many: forget the last in order, but not the least */
		int			drop = -1;

		for (int i = 0; i < st->nkept; i++)
			if (st->kept[i].cost > st->best &&
				(drop < 0 || lex_before(st->kept[drop].b, st->kept[drop].r, st->kept[drop].m,
										st->kept[i].b, st->kept[i].r, st->kept[i].m)))
				drop = i;
		if (drop < 0 || (cost > st->best &&
						 lex_before(st->kept[drop].b, st->kept[drop].r, st->kept[drop].m, b, r, m)))
			return;
		st->kept[drop] = st->kept[--st->nkept];
	}
	st->kept[st->nkept++] = k;
}

/*
 * One side's Simpson sums of the pair (b, r), every m in from_m..mb, from
 * the threshold outwards: the integrand falls that way, so once it no longer
 * counts at a node (LSH_NEGLIGIBLE) it does not at the nodes beyond.
 */
static void
side_sums(lsh_search *st, int b, int r, int from_m, int mb, bool fp, double *sum, double *diff)
{
	const double *x = fp ? st->fp_x : st->fn_x;

	for (int k = 0; k < LSH_NODES; k++)
	{
		int			i = fp ? LSH_SIMPSON_STEPS - k : k;
		int			w = simpson_weight(i);
		double		p = pow(x[i], r);
		double		most;

		if (mb - from_m < LSH_FEW_M)
		{
			/* a few m: their tails one by one */
			for (int m = from_m; m <= mb; m++)
			{
				double		t = tail_one(st, b, p, m);

				sum[m] += w * (fp ? t : 1.0 - t);
			}
			most = fp ? tail_one(st, b, p, from_m) : 1.0 - tail_one(st, b, p, mb);
		}
		else
		{
			int			lo,
						hi;

			tails_all(st, b, p, mb, LSH_TERM_MIN, &lo, &hi);
			add_tails(st, sum, diff, w, fp, from_m, mb, lo, hi, 0);
			if (fp)
				most = from_m < lo ? 1.0 : from_m > hi ? 0.0 : st->T[from_m];
			else
				most = mb > hi ? 1.0 : mb < lo ? 0.0 : st->U[mb];
		}
		if (most < LSH_NEGLIGIBLE)
			break;
	}
}

/* The pair (b, r) on all 258 nodes, every m from from_m at once. */
static void
pair_costs(lsh_search *st, int b, int r, int from_m, int mb)
{
	for (int m = from_m; m <= mb + 1; m++)
		st->fp_sum[m] = st->fn_sum[m] = st->diff[m] = st->diff2[m] = 0;
	if (st->fp_h3 > 0)
		side_sums(st, b, r, from_m, mb, true, st->fp_sum, st->diff);
	if (st->fn_h3 > 0)
		side_sums(st, b, r, from_m, mb, false, st->fn_sum, st->diff2);
	finish_sums(st->fp_sum, st->diff, from_m, mb);
	finish_sums(st->fn_sum, st->diff2, from_m, mb);
	for (int m = from_m; m <= mb; m++)
	{
		double		cost = st->fp_sum[m] * st->fp_h3 + st->fn_sum[m] * st->fn_h3;

		if (!may_win(st, cost))
			continue;
		if (st->g->pmf && !fits_budget(st, b, r, m))
			continue;
		keep(st, b, r, m, cost);
	}
}

/* The pair (b, r), whose m from m_fit on may fit: the finer bound, then all nodes. */
static void
scan_pair(lsh_search *st, int b, int r, int m_fit)
{
	int			mb = st->g->max_min_bands < b ? st->g->max_min_bands : b;
	int			from = 0,
				last = 0;

	check(st);
	if (!may_win(st, pair_bounds(st, &st->steps2, b, r, m_fit, mb)))
		return;
	/* only the m that may win */
	for (int m = m_fit; m <= mb; m++)
		if (may_win(st, st->lb[m]))
		{
			if (from == 0)
				from = m;
			last = m;
		}
	if (from > 0)
		pair_costs(st, b, r, from, last);
}

/* A pair (b, r) and the least lower bound of its bandings' costs. */
typedef struct lsh_pair
{
	float		lb;				/* rounded down: still a lower bound */
	uint16_t	b;
	uint16_t	r;
	uint16_t	m_fit;			/* the first m that may fit the budget */
} lsh_pair;

/* By bound, then in (b, r) order. */
static int
pair_cmp(const void *x, const void *y)
{
	const lsh_pair *p = (const lsh_pair *) x;
	const lsh_pair *q = (const lsh_pair *) y;

	if (p->lb != q->lb)
		return p->lb < q->lb ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->r < q->r ? -1 : p->r > q->r;
}

/* No banding fits: the first with the fewest candidates, as 1.0 chose. */
static void
choose_fewest(lsh_search *st, tfp_lsh_choice *best)
{
	const tfp_lsh_goal *g = st->g;
	double		least;
	int			r = 1;

	st->work += (uint64_t) g->k + 1;
	least = tfp_lsh_expected_candidates(g->pmf, g->k, g->others, 1, g->k, 1);
	for (; r < g->k; r++)
	{
		check(st);
		st->work += (uint64_t) g->k + 1;
		if (tfp_lsh_expected_candidates(g->pmf, g->k, g->others, 1, r, 1) <= least)
			break;
	}
	(void) evaluate(st, 1, r, 1, best);
}

static void
steps_init(lsh_search *st, lsh_steps *sp, int n, const int *fp_node, const int *fn_node)
{
	sp->n = n;
	sp->fp_node = fp_node;
	sp->fn_node = fn_node;
	for (int s = 0; s < n; s++)
	{
		int			to = s + 1 < n ? fp_node[s + 1] - 1 : LSH_SIMPSON_STEPS;

		sp->fp_w[s] = sp->fn_w[s] = 0;
		/* the FP integrand rises: a step holds its left end's value */
		for (int i = fp_node[s]; i <= to; i++)
			sp->fp_w[s] += simpson_weight(i) * st->fp_h3;
		/* the FN integrand falls: its right end's */
		for (int i = s > 0 ? fn_node[s - 1] + 1 : 0; i <= fn_node[s]; i++)
			sp->fn_w[s] += simpson_weight(i) * st->fn_h3;
	}
}

static void
search_init(lsh_search *st, const tfp_lsh_goal *g, tfp_env *env)
{
	double		h1 = g->threshold / LSH_SIMPSON_STEPS;
	double		h2 = (1.0 - g->threshold) / LSH_SIMPSON_STEPS;
	/* the larger weight of an area there is (a threshold of 0 or 1 leaves one) */
	double		w_fp = g->threshold > 0.0 ? g->fp_weight : 0;
	double		w_fn = 1.0 > g->threshold ? g->fn_weight : 0;
	double		w_max = w_fp > w_fn ? w_fp : w_fn;

	memset(st, 0, sizeof(*st));
	st->g = g;
	st->env = env;
	st->k = g->k;
	/* no area weighs anything: every banding costs 0 */
	if (!(w_max > 0))
		w_max = 1;
	st->w_fp = w_fp / w_max;
	st->w_fn = w_fn / w_max;
	st->best = INFINITY;
	for (int i = 0; i <= g->k + 1; i++)
	{
		st->lgf[i] = lgamma(i + 1.0);
		st->inv[i] = i > 0 ? 1.0 / i : 0;
	}
	/* the nodes as area() computes them */
	for (int i = 0; i < LSH_NODES; i++)
	{
		st->fp_x[i] = 0.0 + i * h1;
		st->fn_x[i] = g->threshold + i * h2;
	}
	st->fp_h3 = g->threshold > 0.0 ? st->w_fp * h1 / 3.0 : 0;
	st->fn_h3 = 1.0 > g->threshold ? st->w_fn * h2 / 3.0 : 0;
	st->fn_abs = st->fn_h3 > 0 ? st->w_fn * (1.0 - g->threshold) * LSH_APPROX_FN_ABS : 0;
	/* a side without an area (a threshold of 0 or 1) has no weight in it */
	st->tie = ((st->fp_h3 > 0 ? st->w_fp : 0) + (st->fn_h3 > 0 ? st->w_fn : 0)) * LSH_TIE;
	/* every banding costs 0: those are equal */
	if (st->tie < 4 * LSH_APPROX_MIN)
		st->tie = 4 * LSH_APPROX_MIN;
	if (g->pmf)
	{
		for (int c = 0; c <= g->k; c++)
			st->pmf_below[c + 1] = st->pmf_below[c] + (g->pmf[c] > 0 ? g->pmf[c] : 0);
	}
	steps_init(st, &st->steps1, NODES_1, fp_nodes_1, fn_nodes_1);
	steps_init(st, &st->steps2, NODES_2, fp_nodes_2, fn_nodes_2);
}

/* The search's state: about 200 kB. */
typedef struct lsh_state
{
	lsh_search	search;
	lsh_pair	pairs[LSH_MAX_PAIRS];
} lsh_state;

static bool
choose(const tfp_lsh_goal *g, tfp_lsh_choice *best, tfp_env *env, lsh_state *state)
{
	lsh_search *st = &state->search;
	lsh_pair   *pairs = state->pairs;
	int			npairs = 0;
	double		least_exact = INFINITY;
	bool		found = false;

	memset(best, 0, sizeof(*best));
	search_init(st, g, env);

	if (g->pmf)
	{
		tfp_lsh_choice c;
		double		cost = evaluate(st, 1, g->k, 1, &c);

		/* no banding has fewer candidates than (1, k, 1) */
		if (!(c.candidates <= g->max_candidates))
		{
			choose_fewest(st, best);
			best->work = st->work;
			return false;
		}
		keep(st, 1, g->k, 1, cost);
	}

	/* the coarse bounds of the bandings of every pair that may fit */
	for (int b = 1; b <= g->k; b++)
	{
		int			rmax = g->k / b;
		int			mb = g->max_min_bands < b ? g->max_min_bands : b;
		int			r = g->pmf ? first_fitting_r(st, b, rmax, mb) : 1;
		int			m_fit = g->pmf && r <= rmax ? first_fitting_m(st, b, r, 1, mb) : 1;

		check(st);
		for (; r <= rmax; r++, npairs++)
		{
			/* candidates fall as r grows: the first fitting m does not rise */
			if (g->pmf && m_fit > 1 && npairs > 0 && pairs[npairs - 1].b == b)
				m_fit = fitting_m_below(st, b, r, m_fit);
			pairs[npairs].lb = nextafterf((float) pair_bounds(st, &st->steps1, b, r, m_fit, mb), -INFINITY);
			pairs[npairs].b = (uint16_t) b;
			pairs[npairs].r = (uint16_t) r;
			pairs[npairs].m_fit = (uint16_t) m_fit;
		}
	}

	/*
	 * The pairs by bound, so that the best comes early and its cost ends the
	 * scan; a pair after a banding that costs less than a tie cannot win.
	 */
	qsort(pairs, npairs, sizeof(lsh_pair), pair_cmp);
	for (int i = 0; i < npairs && may_win(st, pairs[i].lb); i++)
		if (!(st->settled && (pairs[i].b > st->settled_at.b ||
							  (pairs[i].b == st->settled_at.b && pairs[i].r > st->settled_at.r))))
			scan_pair(st, pairs[i].b, pairs[i].r, pairs[i].m_fit);

	/*
	 * The least exact cost, of those within rounding of the least
	 * approximate one; then the first banding tied with it.
	 */
	for (int i = 0; i < st->nkept; i++)
		if (st->kept[i].cost <= st->best + 2 * slack(st, st->best))
		{
			tfp_lsh_choice c;
			double		cost = evaluate(st, st->kept[i].b, st->kept[i].r, st->kept[i].m, &c);

			if (cost < least_exact)
				least_exact = cost;
		}
	for (;;)
	{
		int			first = -1;
		tfp_lsh_choice c;

		for (int i = 0; i < st->nkept; i++)
			if (st->kept[i].b > 0 &&
				(first < 0 || lex_before(st->kept[i].b, st->kept[i].r, st->kept[i].m,
										 st->kept[first].b, st->kept[first].r, st->kept[first].m)))
				first = i;
		if (first < 0)
			break;
		if (st->kept[first].cost <= tied(st, least_exact) + slack(st, least_exact) &&
			evaluate(st, st->kept[first].b, st->kept[first].r, st->kept[first].m, &c) <=
			tied(st, least_exact))
		{
			*best = c;
			found = true;
			break;
		}
		st->kept[first].b = 0;	/* not it */
	}
	best->work = st->work;
	return found;
}

/* Without an allocator (or memory), the state lives on the stack. */
static bool
choose_on_stack(const tfp_lsh_goal *g, tfp_lsh_choice *best, tfp_env *env)
{
	lsh_state	state;

	return choose(g, best, env, &state);
}

bool
tfp_lsh_choose(const tfp_lsh_goal *g, tfp_lsh_choice *best, tfp_env *env)
{
	lsh_state  *state = env && env->alloc ? (lsh_state *) env->alloc(env->ctx, sizeof(lsh_state)) : NULL;
	bool		fits;

	if (state == NULL)
		return choose_on_stack(g, best, env);
	fits = choose(g, best, env, state);
	env->free(env->ctx, state);
	return fits;
}
