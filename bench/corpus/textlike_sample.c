/*
 * textlike_sample.c: the fast half of bench/corpus/make_textlike.pl.  It samples article
 * text (a title and paragraphs) from a word-level Markov model of real prose, one article
 * per request, as fast as the model allows; everything else (sites, boilerplate, families,
 * edits, output rows) is the Perl driver's.
 *
 * The model is the training text itself, as make_textlike.pl writes it (a token stream,
 * paragraphs tagged with their topic, one topic per source file).  Sampling the next token
 * given the last two is picking a random occurrence of that context in the stream and
 * taking the token after it, which is exactly drawing from the trigram (or bigram)
 * distribution of the training text.  Each step uses, independently:
 *   - the article's own topic with probability TOPIC_P, else the whole text;
 *   - the last two tokens as context with probability TRIGRAM_P, else the last one;
 * backing off from trigram to bigram and from topic to the whole text when a context has no
 * occurrence.  So TRIGRAM_P sets how long verbatim runs of training text are, TOPIC_P how
 * much articles of one topic share vocabulary more than articles of two.
 *
 * Usage: textlike_sample MODEL REQUESTS TOPIC_P TRIGRAM_P SEED
 *   REQUESTS: one line per article, "seed target_bytes", the seed a number unique to the
 *   article (make_textlike.pl gives ids, and numbers above N for template frames).
 *   Output: one line per request, "title<TAB>body", in COPY text format, paragraphs
 *   separated by \n.  Same model, requests and parameters, same output (splitmix64 per
 *   request, seeded from SEED and the request's seed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARA 0                     /* token id of the paragraph break */
#define FLAG_SENTENCE_END 1        /* token ends a sentence */
#define FLAG_CLAUSE_END 2          /* token ends a clause (comma, colon, ...) */
#define TITLE_MIN_TOKENS 4
#define TITLE_MAX_TOKENS 14

typedef struct
{
	uint32_t	ntok;           /* length of the stream */
	uint32_t   *tok;            /* the stream: PARA p1 PARA p2 ... PARA */
	uint16_t   *topic;          /* topic of each position */
	uint32_t	nvocab;
	char	  **text;           /* token text (with its leading space, if any), COPY-escaped */
	uint32_t   *textlen;
	uint8_t    *flags;
	uint32_t	ntopic;
	uint64_t   *topic_cum;      /* cumulative token counts, for choosing a topic */
	/* positions 0..ntok-2 grouped by token (CSR: start[w] .. start[w + 1]) */
	uint32_t   *start;
	uint32_t   *by_topic;       /* within a token: sorted by (topic, previous token) */
	uint32_t   *by_prev;        /* within a token: sorted by previous token */
} Model;

static Model M;

static void
die(const char *msg)
{
	fprintf(stderr, "textlike_sample: %s\n", msg);
	exit(1);
}

static void *
xmalloc(size_t n)
{
	void	   *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* splitmix64: one stream per request */
static uint64_t rng_state;

static inline uint64_t
rng_next(void)
{
	uint64_t	z = (rng_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n), n < 2^32 */
static inline uint32_t
rng_below(uint32_t n)
{
	return (uint32_t) (((rng_next() >> 32) * (uint64_t) n) >> 32);
}

/* uniform in [0, 1) */
static inline double
rng_unit(void)
{
	return (rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

static inline uint32_t
prev_tok(uint32_t pos)
{
	return pos ? M.tok[pos - 1] : PARA;
}

/* qsort order of positions: by token, then (if sort_by_topic) topic, then previous token */
static int	sort_by_topic;

static int
cmp_positions(const void *a, const void *b)
{
	uint32_t	pa = *(const uint32_t *) a,
				pb = *(const uint32_t *) b;

	if (M.tok[pa] != M.tok[pb])
		return M.tok[pa] < M.tok[pb] ? -1 : 1;
	if (sort_by_topic && M.topic[pa] != M.topic[pb])
		return M.topic[pa] < M.topic[pb] ? -1 : 1;
	if (prev_tok(pa) != prev_tok(pb))
		return prev_tok(pa) < prev_tok(pb) ? -1 : 1;
	return pa < pb ? -1 : pa > pb;
}

static char *
read_line(FILE *f, char **buf, size_t *cap)
{
	ssize_t		n = getline(buf, cap, f);

	if (n < 0)
		return NULL;
	if (n > 0 && (*buf)[n - 1] == '\n')
		(*buf)[n - 1] = '\0';
	return *buf;
}

/* The model file of make_textlike.pl: see write_model there. */
static void
load_model(const char *path)
{
	FILE	   *f = fopen(path, "r");
	char	   *line = NULL;
	size_t		cap = 0;
	uint32_t	npara,
				i,
				pos = 0;
	uint32_t   *count;

	if (!f)
		die("cannot open the model");
	if (!read_line(f, &line, &cap) || strcmp(line, "textlike-model 1") != 0)
		die("not a textlike model (version 1)");
	if (!read_line(f, &line, &cap) || sscanf(line, "topics %u", &M.ntopic) != 1 || M.ntopic > 65535)
		die("bad topics line");
	if (!read_line(f, &line, &cap) || sscanf(line, "vocab %u", &M.nvocab) != 1)
		die("bad vocab line");
	M.text = xmalloc(M.nvocab * sizeof(char *));
	M.textlen = xmalloc(M.nvocab * sizeof(uint32_t));
	M.flags = xmalloc(M.nvocab);
	for (i = 0; i < M.nvocab; i++)
	{
		char	   *tab;

		if (!read_line(f, &line, &cap) || !(tab = strchr(line, '\t')))
			die("bad vocab entry");
		M.flags[i] = (uint8_t) atoi(line);
		M.text[i] = strdup(tab + 1);
		M.textlen[i] = (uint32_t) strlen(tab + 1);
	}
	if (!read_line(f, &line, &cap) || sscanf(line, "stream %u %u", &M.ntok, &npara) != 2)
		die("bad stream line");
	M.tok = xmalloc(M.ntok * sizeof(uint32_t));
	M.topic = xmalloc(M.ntok * sizeof(uint16_t));
	M.topic_cum = xmalloc(M.ntopic * sizeof(uint64_t));
	memset(M.topic_cum, 0, M.ntopic * sizeof(uint64_t));
	for (i = 0; i < npara; i++)
	{
		char	   *p,
				   *end;
		unsigned long t;

		if (!read_line(f, &line, &cap))
			die("stream ends early");
		t = strtoul(line, &end, 10);
		if (end == line || t >= M.ntopic)
			die("bad paragraph topic");
		for (p = end;;)
		{
			unsigned long w = strtoul(p, &end, 10);

			if (end == p)
				break;
			if (w >= M.nvocab || pos >= M.ntok)
				die("bad token in the stream");
			M.tok[pos] = (uint32_t) w;
			M.topic[pos] = (uint16_t) t;
			M.topic_cum[t]++;
			pos++;
			p = end;
		}
	}
	if (pos != M.ntok || M.ntok < 2 || M.tok[M.ntok - 1] != PARA)
		die("stream length or end does not match");
	fclose(f);
	free(line);
	for (i = 1; i < M.ntopic; i++)
		M.topic_cum[i] += M.topic_cum[i - 1];

	/* group positions with a successor by token, then sort within each token */
	count = xmalloc((M.nvocab + 1) * sizeof(uint32_t));
	memset(count, 0, (M.nvocab + 1) * sizeof(uint32_t));
	for (i = 0; i + 1 < M.ntok; i++)
		count[M.tok[i] + 1]++;
	for (i = 0; i < M.nvocab; i++)
		count[i + 1] += count[i];
	M.start = xmalloc((M.nvocab + 1) * sizeof(uint32_t));
	memcpy(M.start, count, (M.nvocab + 1) * sizeof(uint32_t));
	M.by_topic = xmalloc(M.ntok * sizeof(uint32_t));
	M.by_prev = xmalloc(M.ntok * sizeof(uint32_t));
	for (i = 0; i + 1 < M.ntok; i++)
		M.by_topic[count[M.tok[i]]++] = i;
	memcpy(M.by_prev, M.by_topic, (M.ntok - 1) * sizeof(uint32_t));
	sort_by_topic = 1;
	qsort(M.by_topic, M.ntok - 1, sizeof(uint32_t), cmp_positions);
	sort_by_topic = 0;
	qsort(M.by_prev, M.ntok - 1, sizeof(uint32_t), cmp_positions);
	free(count);
}

/* first index in [lo, hi) of arr whose key(pos) >= k */
#define LOWER_BOUND(arr, lo, hi, KEY, k) do { \
	uint32_t l_ = (lo), h_ = (hi); \
	while (l_ < h_) { uint32_t m_ = l_ + (h_ - l_) / 2; \
		if ((KEY((arr)[m_])) < (k)) l_ = m_ + 1; else h_ = m_; } \
	(lo) = l_; } while (0)
#define TOPIC_KEY(pos) M.topic[pos]
#define PREV_KEY(pos) prev_tok(pos)

/* narrows [lo, hi) of arr, sorted by KEY there, to the positions whose KEY is k */
#define EQUAL_RANGE(arr, lo, hi, KEY, k) do { \
	uint32_t e_; \
	LOWER_BOUND(arr, lo, hi, KEY, k); \
	e_ = (lo); \
	LOWER_BOUND(arr, e_, hi, KEY, (k) + 1); \
	(hi) = e_; } while (0)

/* The token after a random position of arr[lo, hi), one preceded by p2 if use_trigram and any. */
static uint32_t
draw_successor(const uint32_t *arr, uint32_t lo, uint32_t hi, uint32_t p2, int use_trigram)
{
	if (use_trigram)
	{
		uint32_t	a = lo,
					b = hi;

		EQUAL_RANGE(arr, a, b, PREV_KEY, p2);
		if (a < b)
			return M.tok[arr[a + rng_below(b - a)] + 1];
	}
	return M.tok[arr[lo + rng_below(hi - lo)] + 1];
}

/* The token after a random occurrence of (p2, p1), in the article's topic or anywhere. */
static uint32_t
next_token(uint32_t p2, uint32_t p1, uint32_t topic, double topic_p, double trigram_p)
{
	uint32_t	lo = M.start[p1],
				hi = M.start[p1 + 1];
	int			use_topic = rng_unit() < topic_p;
	int			use_trigram = rng_unit() < trigram_p;

	if (lo == hi)
		die("a context with no occurrence (model inconsistent)");
	if (use_topic)
	{
		uint32_t	a = lo,
					b = hi;

		EQUAL_RANGE(M.by_topic, a, b, TOPIC_KEY, topic);
		if (a < b)
			return draw_successor(M.by_topic, a, b, p2, use_trigram);
	}
	return draw_successor(M.by_prev, lo, hi, p2, use_trigram);
}

/* a token's text, without its leading space at the start of a line */
static void
put_token(uint32_t w, int line_start)
{
	const char *s = M.text[w];
	uint32_t	n = M.textlen[w];

	if (line_start && n > 0 && s[0] == ' ')
		s++, n--;
	fwrite(s, 1, n, stdout);
}

static void
sample_article(double topic_p, double trigram_p, uint64_t target)
{
	uint32_t	topic,
				p2 = PARA,
				p1 = PARA,
				ntitle = 0;
	uint64_t	r = rng_next() % M.topic_cum[M.ntopic - 1],
				bytes = 0,
				guard;
	uint32_t	lo = 0,
				hi = M.ntopic - 1;
	int			line_start = 1;

	/* a topic, in proportion to its share of the training text */
	while (lo < hi)
	{
		uint32_t	m = lo + (hi - lo) / 2;

		if (M.topic_cum[m] <= r)
			lo = m + 1;
		else
			hi = m;
	}
	topic = lo;

	/* title: from a paragraph start to the first sentence or clause end */
	for (;;)
	{
		uint32_t	w = next_token(p2, p1, topic, topic_p, trigram_p);

		if (w == PARA || (M.flags[w] & FLAG_SENTENCE_END) ||
			((M.flags[w] & FLAG_CLAUSE_END) && ntitle >= TITLE_MIN_TOKENS))
			break;
		put_token(w, line_start);
		line_start = 0;
		p2 = p1;
		p1 = w;
		if (++ntitle >= TITLE_MAX_TOKENS)
			break;
	}
	putchar('\t');

	/* body: paragraphs until target bytes, ending at a sentence end */
	p2 = p1 = PARA;
	line_start = 1;
	for (guard = 4 * target + 100; guard > 0; guard--)
	{
		uint32_t	w = next_token(p2, p1, topic, topic_p, trigram_p);

		if (w == PARA)
		{
			if (!line_start)
			{
				if (bytes >= target)
					break;
				fputs("\\n", stdout);
				line_start = 1;
			}
		}
		else
		{
			put_token(w, line_start);
			bytes += M.textlen[w];
			line_start = 0;
			if (bytes >= target && (M.flags[w] & FLAG_SENTENCE_END))
				break;
		}
		p2 = p1;
		p1 = w;
	}
	putchar('\n');
}

int
main(int argc, char **argv)
{
	FILE	   *req;
	char	   *line = NULL;
	size_t		cap = 0;
	double		topic_p,
				trigram_p;
	uint64_t	seed;
	static char outbuf[1 << 20];

	if (argc != 6)
		die("usage: textlike_sample MODEL REQUESTS TOPIC_P TRIGRAM_P SEED");
	load_model(argv[1]);
	topic_p = atof(argv[3]);
	trigram_p = atof(argv[4]);
	seed = strtoull(argv[5], NULL, 10);
	if (!(req = fopen(argv[2], "r")))
		die("cannot open the requests");
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	while (read_line(req, &line, &cap))
	{
		unsigned long long rseed,
					target;

		if (sscanf(line, "%llu %llu", &rseed, &target) != 2)
			die("bad request line");
		rng_state = seed * 0x9E3779B97F4A7C15ULL ^ rseed;
		rng_next();
		sample_article(topic_p, trigram_p, target);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error");
	fclose(req);
	free(line);
	return 0;
}
