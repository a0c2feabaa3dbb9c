/*
 * replay.c: textfp_track's SimHash link rule (best+orig: a row links to its nearest earlier row within
 * radius t, ties to the earliest, taking it only if the row is also within cohesion c of that row's story's
 * original; else the next one; else it is an original) replayed over fingerprints in (time, key) order.
 *
 *   replay T C < rows.tsv > stories.tsv
 *
 * Input: one row a line, in (time, key) order: key<TAB>fp[<TAB>group] (fp a signed 64-bit integer, \N for a
 * NULL fingerprint, which matches nothing; group, optional, a label: 0 none).  Output: key, story (the original's key), source (\N for an
 * original), score (bits to the source), near_before (earlier rows within T: what an insert of this row last
 * looks up), near_all (all rows within T), near_same (those of the row's own nonzero group).  Near rows are found exactly by multi-index hashing (4 blocks of
 * 16 bits; a pair within T agrees within T/4 bits on some block) with MIH=1 in the environment, else by
 * scanning every earlier row (faster: the fingerprints of this corpus crowd together, Chinese ones most).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#define BLOCKS 4
static int32_t *head[BLOCKS], *nxt[BLOCKS];

static int cmp_cand(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc != 3) { fprintf(stderr, "usage: replay T C < rows.tsv\n"); return 2; }
	int t = atoi(argv[1]), c = atoi(argv[2]), per = t / BLOCKS;
	int brute = getenv("MIH") == NULL;    /* scan every earlier row unless MIH is set: the block index is slower here */
	size_t cap = 1 << 20, n = 0;
	int64_t *key = malloc(cap * sizeof *key), *grp = malloc(cap * sizeof *grp);
	uint64_t *fp = malloc(cap * sizeof *fp);
	char *has = malloc(cap);
	char line[256];
	while (fgets(line, sizeof line, stdin)) {
		if (n == cap) {
			cap *= 2; key = realloc(key, cap * sizeof *key); grp = realloc(grp, cap * sizeof *grp); fp = realloc(fp, cap * sizeof *fp); has = realloc(has, cap);
		}
		char *tab = strchr(line, '\t');
		if (!tab) { fprintf(stderr, "bad line: %s", line); return 1; }
		key[n] = strtoll(line, NULL, 10);
		has[n] = tab[1] != '\\';
		char *end;
		fp[n] = has[n] ? (uint64_t) strtoll(tab + 1, &end, 10) : 0;
		char *tab2 = strchr(tab + 1, '\t');
		grp[n] = tab2 ? strtoll(tab2 + 1, NULL, 10) : 0;
		n++;
	}
	/* probe masks: every 16-bit mask of at most per bits */
	int nm = 0; uint16_t *masks = malloc(65536 * sizeof *masks);
	for (uint32_t m = 0; m < 65536; m++) if (__builtin_popcount(m) <= per) masks[nm++] = m;
	for (int b = 0; b < BLOCKS; b++) {
		head[b] = malloc(65536 * sizeof(int32_t)); memset(head[b], 0xff, 65536 * sizeof(int32_t));
		nxt[b] = malloc(n * sizeof(int32_t));
	}
	int32_t *story = malloc(n * sizeof *story), *source = malloc(n * sizeof *source), *seen = malloc(n * sizeof *seen);
	int32_t *score = malloc(n * sizeof *score);
	int64_t *before = calloc(n, sizeof *before), *all = calloc(n, sizeof *all), *same = calloc(n, sizeof *same);
	memset(seen, 0xff, n * sizeof *seen);
	size_t ccap = 1024; uint64_t *cand = malloc(ccap * sizeof *cand);
	for (size_t i = 0; i < n; i++) {
		story[i] = (int32_t) i; source[i] = -1; score[i] = -1;
		if (!has[i]) continue;
		size_t nc = 0;
		if (brute) {
			const uint64_t x = fp[i];
			size_t j = 0;
#ifdef __AVX2__
			/* four distances at a time: nibble-table popcount, bytes summed per 64-bit lane */
			const __m256i tab = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
												 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
			const __m256i low = _mm256_set1_epi8(0x0f), vx = _mm256_set1_epi64x((long long) x);
			const __m256i vt = _mm256_set1_epi64x(t + 1), zero = _mm256_setzero_si256();
			for (; j + 4 <= i; j += 4) {
				__m256i v = _mm256_xor_si256(vx, _mm256_loadu_si256((const __m256i *) (fp + j)));
				__m256i c = _mm256_add_epi8(_mm256_shuffle_epi8(tab, _mm256_and_si256(v, low)),
											_mm256_shuffle_epi8(tab, _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
				__m256i d = _mm256_sad_epu8(c, zero);
				int m = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(vt, d)));
				while (m) {
					size_t k = j + (size_t) __builtin_ctz((unsigned) m);
					m &= m - 1;
					if (!has[k]) continue;
					if (nc == ccap) { ccap *= 2; cand = realloc(cand, ccap * sizeof *cand); }
					cand[nc++] = ((uint64_t) __builtin_popcountll(x ^ fp[k]) << 32) | (uint32_t) k;
				}
			}
#endif
			for (; j < i; j++) {
				int d = __builtin_popcountll(x ^ fp[j]);
				if (d <= t && has[j]) {
					if (nc == ccap) { ccap *= 2; cand = realloc(cand, ccap * sizeof *cand); }
					cand[nc++] = ((uint64_t) d << 32) | (uint32_t) j;
				}
			}
		}
		else for (int b = 0; b < BLOCKS; b++) {
			uint16_t v = (uint16_t) (fp[i] >> (16 * b));
			for (int k = 0; k < nm; k++) {
				for (int32_t j = head[b][(uint16_t) (v ^ masks[k])]; j >= 0; j = nxt[b][j]) {
					if (seen[j] == (int32_t) i) continue;
					seen[j] = (int32_t) i;
					int d = __builtin_popcountll(fp[i] ^ fp[j]);
					if (d > t) continue;
					if (nc == ccap) { ccap *= 2; cand = realloc(cand, ccap * sizeof *cand); }
					cand[nc++] = ((uint64_t) d << 32) | (uint32_t) j;    /* nearest, then earliest */
				}
			}
		}
		before[i] = (int64_t) nc; all[i] += (int64_t) nc;
		qsort(cand, nc, sizeof *cand, cmp_cand);
		for (size_t k = 0; k < nc; k++) {
			int32_t j = (int32_t) (uint32_t) cand[k];
			all[j]++;
			if (grp[i] && grp[i] == grp[j]) { same[i]++; same[j]++; }
			if (source[i] < 0 && __builtin_popcountll(fp[i] ^ fp[story[j]]) <= c) {
				source[i] = j; story[i] = story[j]; score[i] = (int32_t) (cand[k] >> 32);
			}
		}
		for (int b = 0; b < BLOCKS; b++) {
			uint16_t v = (uint16_t) (fp[i] >> (16 * b));
			nxt[b][i] = head[b][v]; head[b][v] = (int32_t) i;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (source[i] < 0)
			printf("%lld\t%lld\t\\N\t\\N\t%lld\t%lld\t%lld\n", (long long) key[i], (long long) key[story[i]],
				   (long long) before[i], (long long) all[i], (long long) same[i]);
		else
			printf("%lld\t%lld\t%lld\t%d\t%lld\t%lld\t%lld\n", (long long) key[i], (long long) key[story[i]],
				   (long long) key[source[i]], score[i], (long long) before[i], (long long) all[i], (long long) same[i]);
	}
	return 0;
}
