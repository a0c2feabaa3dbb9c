/*
 * mih.c: multi-index hashing for exact Hamming radius search: the substring
 * layout, the plan of probes a query makes, the choice of m for a new index,
 * and the popcount kernel that verifies candidates.  See tfp_mih.h.
 */
#include "tfp_mih.h"

/*
 * Measured on the server at 1M rows (docs/indexing.md, "Choosing m"): a
 * probe (a directory entry, a bucket page pinned, locked and searched) costs
 * about 0.8 us, about 200 times the verification of one candidate (a
 * popcount, with the memory traffic of reading codes); each further page of
 * a bucket's chain, or of a full pass, about half a probe.
 */
const tfp_mih_costs tfp_mih_default_costs = {
	.probe = 200.0,
	.candidate = 1.0,
	.page = 100.0,
	.entries_per_page = 523.0,	/* 581 a page, filled to 90% by a build */
	.dir_entries_per_page = 2034.0,
};

static double
ceil_div(double a, double b)
{
	double		q = a / b;
	double		f = (double) (uint64_t) q;

	return f < q ? f + 1 : f;
}

void
tfp_mih_layout_init(tfp_mih_layout *l, int m)
{
	int			base = SIMHASH_BITS / m;
	int			wide = SIMHASH_BITS % m;	/* substrings one bit wider */
	int			shift = SIMHASH_BITS;
	uint32_t	offset = 0;

	l->m = m;
	for (int i = 0; i < m; i++)
	{
		int			w = base + (i < wide ? 1 : 0);

		shift -= w;
		l->width[i] = (uint8_t) w;
		l->shift[i] = (uint8_t) shift;
		l->offset[i] = offset;
		offset += UINT32_C(1) << w;
	}
	for (int i = m; i < TFP_MIH_M_MAX; i++)
	{
		l->width[i] = 0;
		l->shift[i] = 0;
		l->offset[i] = offset;
	}
	l->offset[TFP_MIH_M_MAX] = offset;
}

uint64_t
tfp_mih_ball_size(int w, int t)
{
	uint64_t	n = 0;

	for (int d = 0; d <= t && d <= w; d++)
		n += tfp_binomial(w, d);
	return n;
}

void
tfp_mih_plan_query(const tfp_mih_layout *l, int r, double rows,
				   const tfp_mih_costs *c, tfp_mih_plan *p)
{
	double		per_bucket[TFP_MIH_M_MAX];
	double		bucket_cost[TFP_MIH_M_MAX];
	double		cost = 0;
	double		candidates = 0;
	uint64_t	probes = 0;
	double		full_cost;

	if (r < 0)
		r = 0;
	if (r > SIMHASH_BITS)
		r = SIMHASH_BITS;
	if (rows < 0)
		rows = 0;
	p->radius = r;
	for (int i = 0; i < TFP_MIH_M_MAX; i++)
		p->t[i] = -1;
	for (int i = 0; i < l->m; i++)
		per_bucket[i] = rows / (double) (UINT64_C(1) << l->width[i]);
	/* what one bucket costs beyond its probe: its codes, and the pages they fill */
	for (int i = 0; i < l->m; i++)
		bucket_cost[i] = c->candidate * per_bucket[i] + c->page * per_bucket[i] / c->entries_per_page;

	/*
	 * r + 1 steps; each raises the probe radius of the table whose next shell
	 * costs least (from -1, not probed, to 0 costs one bucket).
	 */
	for (int step = 0; step <= r; step++)
	{
		int			best = -1;
		double		best_cost = 0;

		for (int i = 0; i < l->m; i++)
		{
			double		shell,
						sc;

			if (p->t[i] >= l->width[i])
				continue;
			shell = (double) tfp_binomial(l->width[i], p->t[i] + 1);
			sc = shell * (c->probe + bucket_cost[i]);
			if (best < 0 || sc < best_cost)
			{
				best = i;
				best_cost = sc;
			}
		}
		if (best < 0)
			break;				/* cannot happen: sum(w + 1) = 64 + m > r */
		p->t[best]++;
	}
	for (int i = 0; i < l->m; i++)
	{
		uint64_t	n;

		if (p->t[i] < 0)
			continue;
		n = tfp_mih_ball_size(l->width[i], p->t[i]);
		probes += n;
		candidates += (double) n * per_bucket[i];
		cost += (double) n * (c->probe + bucket_cost[i]);
	}

	/* one table read whole: every code once, page by page */
	full_cost = rows * c->candidate + (rows / c->entries_per_page + 1.0) * c->page;
	if (full_cost < cost)
	{
		p->full_pass = true;
		for (int i = 0; i < TFP_MIH_M_MAX; i++)
			p->t[i] = -1;
		p->probes = 0;
		p->candidates = rows;
		p->cost = full_cost;
	}
	else
	{
		p->full_pass = false;
		p->probes = probes;
		p->candidates = candidates;
		p->cost = cost;
	}
}

double
tfp_mih_pages(const tfp_mih_layout *l, double rows, const tfp_mih_costs *c)
{
	double		pages = 1;		/* the metapage */

	for (int i = 0; i < l->m; i++)
	{
		double		dir = ceil_div((double) (UINT64_C(1) << l->width[i]), c->dir_entries_per_page);
		double		data = ceil_div(rows, c->entries_per_page);

		/* every directory page's range has a bucket page at least */
		pages += dir + (data > dir ? data : dir);
	}
	return pages;
}

int
tfp_mih_choose_m(double rows, const tfp_mih_costs *c)
{
	double		cost[TFP_MIH_DEFAULT_M_MAX + 1];
	double		least = 0;
	int			best = TFP_MIH_M_MIN;
	double		best_pages = 0;

	if (rows < TFP_MIH_MIN_DESIGN_ROWS)
		rows = TFP_MIH_MIN_DESIGN_ROWS;
	for (int m = TFP_MIH_M_MIN; m <= TFP_MIH_DEFAULT_M_MAX; m++)
	{
		tfp_mih_layout l;
		tfp_mih_plan p;

		tfp_mih_layout_init(&l, m);
		tfp_mih_plan_query(&l, TFP_MIH_DESIGN_RADIUS, rows, c, &p);
		cost[m] = p.cost;
		if (m == TFP_MIH_M_MIN || p.cost < least)
			least = p.cost;
	}
	for (int m = TFP_MIH_M_MIN; m <= TFP_MIH_DEFAULT_M_MAX; m++)
	{
		tfp_mih_layout l;
		double		pages;

		if (cost[m] > least * TFP_MIH_COST_SLACK)
			continue;
		tfp_mih_layout_init(&l, m);
		pages = tfp_mih_pages(&l, rows, c);
		if (best_pages == 0 || pages < best_pages)
		{
			best = m;
			best_pages = pages;
		}
	}
	return best;
}

/* --- verification kernel ---------------------------------------------------- */

size_t
tfp_mih_verify_portable(const uint64_t *codes, size_t n, uint64_t q, int r,
						uint16_t *hits)
{
	size_t		k = 0;

	for (size_t j = 0; j < n; j++)
	{
		hits[k] = (uint16_t) j;
		k += tfp_popcount64(codes[j] ^ q) <= r;
	}
	return k;
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define TFP_HAVE_POPCNT_KERNEL 1

__attribute__((target("popcnt")))
static size_t
verify_popcnt(const uint64_t *codes, size_t n, uint64_t q, int r, uint16_t *hits)
{
	size_t		k = 0;

	for (size_t j = 0; j < n; j++)
	{
		hits[k] = (uint16_t) j;
		k += __builtin_popcountll(codes[j] ^ q) <= r;
	}
	return k;
}
#endif

typedef size_t (*verify_fn) (const uint64_t *, size_t, uint64_t, int, uint16_t *);

static verify_fn
choose_verify(void)
{
#ifdef TFP_HAVE_POPCNT_KERNEL
	__builtin_cpu_init();
	if (__builtin_cpu_supports("popcnt"))
		return verify_popcnt;
#endif
	return tfp_mih_verify_portable;
}

size_t
tfp_mih_verify(const uint64_t *codes, size_t n, uint64_t q, int r, uint16_t *hits)
{
	static verify_fn fn = NULL;

	if (fn == NULL)
		fn = choose_verify();
	return fn(codes, n, q, r, hits);
}
