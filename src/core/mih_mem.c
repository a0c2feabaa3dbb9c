/*
 * mih_mem.c: the in-memory multi-index hash of the fast relink.  See
 * tfp_mih_mem.h.
 */
#include "tfp_mih_mem.h"

/*
 * Relative costs in memory: a bucket looked into (two reads of start[],
 * usually cache misses) about twice a candidate verified (a read of
 * codes[row] and a popcount); no pages.
 */
static const tfp_mih_costs mem_costs = {
	.probe = 2.0,
	.candidate = 1.0,
	.page = 0.0,
	.entries_per_page = 1024.0,
	.dir_entries_per_page = 1024.0,
};

void
tfp_mih_mem_sizes(uint32_t n, size_t *start_len, size_t *rows_len)
{
	tfp_mih_layout l;

	tfp_mih_layout_init(&l, TFP_MIH_MEM_M);
	*start_len = (size_t) l.offset[TFP_MIH_M_MAX] + 1;
	*rows_len = (size_t) TFP_MIH_MEM_M * n;
}

void
tfp_mih_mem_init(tfp_mih_mem *ix, const uint64_t *codes, const uint8_t *absent,
				 uint32_t n, int r, uint32_t *start, uint32_t *rows)
{
	uint32_t	present = 0;

	tfp_mih_layout_init(&ix->layout, TFP_MIH_MEM_M);
	ix->codes = codes;
	ix->absent = absent;
	ix->n = n;
	for (uint32_t j = 0; j < n; j++)
		present += absent == NULL || !absent[j];
	ix->present = present;
	ix->start = start;
	ix->rows = rows;
	tfp_mih_plan_query(&ix->layout, r, (double) present, &mem_costs, &ix->plan);
}

/*
 * Table i: a counting sort of the rows by their substring i, into
 * rows[i * present ..], with start[offset[i] + b] the first entry of bucket
 * b (global positions in rows[]; start[offset[m]] ends the last).
 */
void
tfp_mih_mem_build_table(tfp_mih_mem *ix, int i)
{
	const tfp_mih_layout *l = &ix->layout;
	uint32_t   *start = ix->start + l->offset[i];
	uint32_t	buckets = UINT32_C(1) << l->width[i];
	uint32_t	pos = (uint32_t) i * ix->present;

	for (uint32_t b = 0; b < buckets; b++)
		start[b] = 0;
	for (uint32_t j = 0; j < ix->n; j++)
		if (ix->absent == NULL || !ix->absent[j])
			start[tfp_mih_substring(l, i, ix->codes[j])]++;
	for (uint32_t b = 0; b < buckets; b++)
	{
		uint32_t	c = start[b];

		start[b] = pos;
		pos += c;
	}
	/* start[b] now runs ahead as bucket b fills: shifted back below */
	for (uint32_t j = 0; j < ix->n; j++)
		if (ix->absent == NULL || !ix->absent[j])
			ix->rows[start[tfp_mih_substring(l, i, ix->codes[j])]++] = j;
	for (uint32_t b = buckets; b > 0; b--)
		start[b] = start[b - 1];
	start[0] = (uint32_t) i * ix->present;
	if (i == l->m - 1)
		ix->start[l->offset[l->m]] = (uint32_t) l->m * ix->present;
}

typedef struct query_state
{
	const tfp_mih_mem *ix;
	uint64_t	q;
	uint32_t	before;
	uint32_t   *out;
	size_t		cap;
	size_t		found;
} query_state;

static inline void
hit(query_state *s, uint32_t j)
{
	if (s->found < s->cap)
		s->out[s->found] = j;
	s->found++;
}

/*
 * The scan of the probe balls, twice: with the POPCNT instruction where the
 * CPU has it (chosen once, as tfp_mih_verify() does: the verification of
 * candidates is most of a query's work), and portable.
 */
#define MIH_MEM_SCAN(SUFFIX, ATTR, POPCOUNT) \
ATTR static void \
scan_bucket##SUFFIX(query_state *s, int i, uint32_t sub) \
{ \
	const tfp_mih_mem *ix = s->ix; \
	const tfp_mih_layout *l = &ix->layout; \
	uint32_t	b = l->offset[i] + sub; \
	int			r = ix->plan.radius; \
	uint32_t	end = ix->start[b + 1]; \
 \
	for (uint32_t e = ix->start[b]; e < end; e++) \
	{ \
		uint32_t	j = ix->rows[e]; \
		uint64_t	code; \
 \
		if (j >= s->before) \
			break;				/* ascending within a bucket */ \
		code = ix->codes[j]; \
		if (POPCOUNT(code ^ s->q) <= r && tfp_mih_emit(l, &ix->plan, i, code, s->q)) \
			hit(s, j); \
	} \
} \
 \
/* Every value within left more bits of sub, flipping bits from..w-1 only. */ \
ATTR static void \
scan_ball##SUFFIX(query_state *s, int i, uint32_t sub, int from, int left) \
{ \
	int			w = s->ix->layout.width[i]; \
 \
	scan_bucket##SUFFIX(s, i, sub); \
	if (left == 0) \
		return; \
	for (int bit = from; bit < w; bit++) \
		scan_ball##SUFFIX(s, i, sub ^ (UINT32_C(1) << bit), bit + 1, left - 1); \
} \
 \
ATTR static void \
scan_all##SUFFIX(query_state *s) \
{ \
	const tfp_mih_mem *ix = s->ix; \
 \
	if (ix->plan.full_pass) \
	{ \
		for (uint32_t j = 0; j < s->before; j++) \
			if ((ix->absent == NULL || !ix->absent[j]) && \
				POPCOUNT(ix->codes[j] ^ s->q) <= ix->plan.radius) \
				hit(s, j); \
		return; \
	} \
	for (int i = 0; i < ix->layout.m; i++) \
		if (ix->plan.t[i] >= 0) \
			scan_ball##SUFFIX(s, i, tfp_mih_substring(&ix->layout, i, s->q), 0, ix->plan.t[i]); \
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define TFP_MIH_MEM_POPCNT 1
MIH_MEM_SCAN(_popcnt, __attribute__((target("popcnt"))), __builtin_popcountll)
#endif
MIH_MEM_SCAN(_portable, , tfp_popcount64)

size_t
tfp_mih_mem_query(const tfp_mih_mem *ix, uint64_t q, uint32_t before, uint32_t *out, size_t cap)
{
	static int	popcnt = -1;
	query_state s = {ix, q, before > ix->n ? ix->n : before, out, cap, 0};

	if (popcnt < 0)
	{
#ifdef TFP_MIH_MEM_POPCNT
		__builtin_cpu_init();
		popcnt = __builtin_cpu_supports("popcnt") ? 1 : 0;
#else
		popcnt = 0;
#endif
	}
#ifdef TFP_MIH_MEM_POPCNT
	if (popcnt)
	{
		scan_all_popcnt(&s);
		return s.found;
	}
#endif
	scan_all_portable(&s);
	return s.found;
}
