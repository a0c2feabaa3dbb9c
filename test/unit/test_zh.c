/*
 * test_zh.c: the regional Chinese conversion (zh_convert.c) and its frozen
 * table (zh_mainland_data.c): the table as generated, its identity, what it
 * does to text, and that pieces never change the result.  Included by
 * test_core.c; run from the top of the source tree (reads data/opencc/).
 */
#include "tfp_zh.h"

/* The identity of chinese => 'mainland': stored fingerprints depend on it. */
#define MAINLAND_NAME "opencc-1.1.6-tw-hk-mainland"
#define MAINLAND_SHA256 "15f02d8a55ea58aaec6cf0d427191679d55b18700a102bde0296f668c94937cc"

static const tfp_zh_table *const zt = &tfp_zh_mainland_table;

/* Whole-text conversion into a malloc'd, NUL-terminated string. */
static char *
zh_convert_all(const char *s, size_t len, size_t *outlen)
{
	char	   *out = malloc(len * zt->max_growth + 1);
	size_t		done;

	done = tfp_zh_convert(zt, s, len, true, out, outlen);
	if (done != len)
		UNIT_FAIL("final conversion consumed %zu of %zu bytes", done, len);
	out[*outlen] = '\0';
	return out;
}

static uint32_t
first_cp(const char *s)
{
	const unsigned char *u = (const unsigned char *) s;

	if (u[0] < 0x80)
		return u[0];
	if (u[0] < 0xE0)
		return ((uint32_t) (u[0] & 0x1F) << 6) | (u[1] & 0x3F);
	if (u[0] < 0xF0)
		return ((uint32_t) (u[0] & 0x0F) << 12) | ((uint32_t) (u[1] & 0x3F) << 6) | (u[2] & 0x3F);
	return ((uint32_t) (u[0] & 0x07) << 18) | ((uint32_t) (u[1] & 0x3F) << 12) |
		((uint32_t) (u[2] & 0x3F) << 6) | (u[3] & 0x3F);
}

/* Sorted as the converter assumes, with a consistent index and bitmap. */
static void
zh_table_is_well_formed(void)
{
	size_t		longest = 0;
	size_t		f = 0;

	REQUIRE(zt->nentries > 5000 && zt->nfirsts > 0);
	for (size_t i = 0; i < zt->nentries; i++)
	{
		const tfp_zh_entry *e = &zt->entries[i];
		const char *k = zt->pool + e->key;
		uint32_t	cp = first_cp(k);
		bool		ascii_only = true;

		REQUIRE(e->key + e->key_len <= zt->pool_len && e->value + e->value_len <= zt->pool_len);
		REQUIRE(e->key_len > 0 && e->value_len > 0);
		REQUIRE(tfp_utf8_valid(k, e->key_len) && tfp_utf8_valid(zt->pool + e->value, e->value_len));
		for (size_t j = 0; j < e->key_len; j++)
			ascii_only &= (unsigned char) k[j] < 0x80;
		/* the ASCII fast path of normalisation relies on it */
		CHECK(!ascii_only);
		CHECK(e->value_len <= e->key_len * zt->max_growth);
		if (e->key_len > longest)
			longest = e->key_len;
		if (i > 0)
		{
			const tfp_zh_entry *p = &zt->entries[i - 1];
			uint32_t	pcp = first_cp(zt->pool + p->key);

			CHECK(pcp < cp || (pcp == cp && p->key_len >= e->key_len));
			if (pcp == cp && p->key_len == e->key_len)
				CHECK(memcmp(zt->pool + p->key, k, e->key_len) < 0);
		}
		/* firsts[f] covers i */
		while (f < zt->nfirsts && zt->firsts[f].begin + zt->firsts[f].count <= i)
			f++;
		REQUIRE(f < zt->nfirsts);
		CHECK_INT_EQ(zt->firsts[f].cp, cp);
		CHECK(zt->firsts[f].begin <= i);
		if (cp < 0x10000)
			CHECK(zt->bmp_starts[cp >> 6] & (UINT64_C(1) << (cp & 63)));
	}
	CHECK_INT_EQ(zt->max_key_bytes, longest);
	CHECK_INT_EQ(f, zt->nfirsts - 1);
	for (size_t i = 1; i < zt->nfirsts; i++)
		CHECK(zt->firsts[i - 1].cp < zt->firsts[i].cp);
	/* no bit without a key */
	{
		size_t		bits = 0;
		size_t		bmp_firsts = 0;

		for (size_t w = 0; w < 1024; w++)
			for (int b = 0; b < 64; b++)
				bits += (zt->bmp_starts[w] >> b) & 1;
		for (size_t i = 0; i < zt->nfirsts; i++)
			bmp_firsts += zt->firsts[i].cp < 0x10000;
		CHECK_INT_EQ(bits, bmp_firsts);
	}
}

/* The compiled table is data/opencc/mainland.tsv, entry for entry. */
static void
zh_table_matches_tsv(void)
{
	FILE	   *f = fopen("data/opencc/mainland.tsv", "rb");
	char		line[1024];
	size_t		n = 0;

	REQUIRE(f != NULL);
	while (fgets(line, sizeof(line), f) != NULL)
	{
		char	   *tab = strchr(line, '\t');
		size_t		len = strlen(line);
		const tfp_zh_entry *e;

		REQUIRE(tab != NULL && len > 0 && line[len - 1] == '\n');
		line[--len] = '\0';
		e = tfp_zh_match(zt, line, (size_t) (tab - line));
		if (e == NULL || e->key_len != (size_t) (tab - line) ||
			e->value_len != strlen(tab + 1) ||
			memcmp(zt->pool + e->value, tab + 1, e->value_len) != 0)
			UNIT_FAIL("mainland.tsv line %zu (%s) is not in the compiled table", n + 1, line);
		n++;
	}
	fclose(f);
	CHECK_INT_EQ(n, zt->nentries);
}

/* Keys and values are in the pipeline's normal form, so keys can match at all. */
static void
zh_table_is_normalised(void)
{
	for (size_t i = 0; i < zt->nentries; i++)
	{
		const tfp_zh_entry *e = &zt->entries[i];
		const char *parts[2] = {zt->pool + e->key, zt->pool + e->value};
		size_t		lens[2] = {e->key_len, e->value_len};

		for (int j = 0; j < 2; j++)
		{
			char	   *norm;
			size_t		nlen;

			REQUIRE_INT_EQ(tfp_normalize(&env, parts[j], lens[j], false, &norm, &nlen), TFP_OK);
			if (nlen != lens[j] || memcmp(norm, parts[j], nlen) != 0)
				UNIT_FAIL("entry %zu: \"%.*s\" is not NFKC_Casefold", i, (int) lens[j], parts[j]);
			env.free(env.ctx, norm);
		}
	}
}

/* Every value converts to itself: text already in mainland form stays. */
static void
zh_values_are_fixed_points(void)
{
	for (size_t i = 0; i < zt->nentries; i++)
	{
		const tfp_zh_entry *e = &zt->entries[i];
		size_t		olen;
		char	   *o = zh_convert_all(zt->pool + e->value, e->value_len, &olen);

		if (olen != e->value_len || memcmp(o, zt->pool + e->value, olen) != 0)
			UNIT_FAIL("value \"%.*s\" converts to \"%s\"", (int) e->value_len, zt->pool + e->value, o);
		free(o);
	}
}

static void
check_convert(const char *in, const char *want)
{
	char	   *norm;
	size_t		nlen;

	REQUIRE_INT_EQ(tfp_normalize_chinese(&env, in, strlen(in), false, TFP_CHINESE_MAINLAND, 0,
										 &norm, &nlen), TFP_OK);
	if (nlen != strlen(want) || memcmp(norm, want, nlen) != 0)
		UNIT_FAIL("\"%s\" gives \"%s\", want \"%s\"", in, norm, want);
	env.free(env.ctx, norm);
}

/* Regional words, characters, longest match, case folding first. */
static void
zh_convert_examples(void)
{
	/* Taiwan software words and their mainland counterparts */
	check_convert("軟體", "软件");
	check_convert("檔案", "文件");
	check_convert("互動式", "交互式");
	check_convert("程式設計師", "程序员");	/* longest match, not 程式 + 設計 + 師 */
	check_convert("預設值", "默认值");
	check_convert("網路上的芳鄰", "网上邻居");
	/* characters only, where no phrase applies */
	check_convert("這個國家的經濟", "这个国家的经济");
	/* Hong Kong variants */
	check_convert("着數", "着数");
	/* mainland text already: unchanged, also where Taiwan's table would read
	 * a word of its own (程序, 文件) */
	check_convert("程序员把文件保存到软件里，什么都没有", "程序员把文件保存到软件里,什么都没有");
	/* after NFKC_Casefold: full width and capitals */
	check_convert("ＳＱＬ隱碼攻擊", "sql注入");
	check_convert("PN接面", "pn结");
	/* ASCII and empty */
	check_convert("Plain ASCII, SQL", "plain ascii, sql");
	check_convert("", "");
}

static char *
zh_random_text(uint32_t seed, size_t n, size_t *len)
{
	static const char *const words[] = {
		"軟體", "檔案", "互動式", "程式設計師", "程式", "設計", "師", "預設值", "預設",
		"網路上的芳鄰", "網路", "這個", "國家", "經濟", "，", "。", " ", "abc", "SQL隱碼攻擊",
		"sql", "隱碼", "攻擊", "程序", "文件", "么", "麼", "乾隆", "乾淨", "海內存知己",
		"ＡＢＣ", "e\xCC\x81", "\xEF\xB7\xBA", "尼日", "尼日爾", "厄瓜多", "𩀨", "👍",
	};

	return make_text(words, sizeof(words) / sizeof(words[0]), n, seed, len);
}

/* Fed in chunks of any size, the converter gives what the whole text gives. */
static void
zh_convert_chunks_equal_whole(void)
{
	for (uint32_t seed = 1; seed <= 8; seed++)
	{
		size_t		len;
		char	   *text = zh_random_text(seed, 400, &len);
		size_t		wlen;
		char	   *whole = zh_convert_all(text, len, &wlen);
		char	   *buf = malloc(len + 1);
		char	   *out = malloc(len * zt->max_growth + 1);

		for (size_t chunk = 1; chunk <= 97; chunk += (chunk < 50 ? 1 : 7))
		{
			size_t		pending = 0;	/* bytes of buf not yet converted */
			size_t		fed = 0;
			size_t		olen = 0;

			while (fed < len || pending > 0)
			{
				size_t		take = len - fed < chunk ? len - fed : chunk;
				bool		final;
				size_t		w;
				size_t		done;

				/* whole characters only, as the normaliser hands them on */
				while (fed + take < len && ((unsigned char) text[fed + take] & 0xC0) == 0x80)
					take++;
				memcpy(buf + pending, text + fed, take);
				pending += take;
				fed += take;
				final = fed == len;
				done = tfp_zh_convert(zt, buf, pending, final, out + olen, &w);
				olen += w;
				CHECK(final ? done == pending : pending - done < zt->max_key_bytes);
				memmove(buf, buf + done, pending - done);
				pending -= done;
				if (final)
					break;
			}
			if (olen != wlen || memcmp(out, whole, wlen) != 0)
			{
				UNIT_FAIL("seed %u chunks of %zu bytes differ from the whole text", seed, chunk);
				break;
			}
		}
		free(out);
		free(buf);
		free(whole);
		free(text);
	}
}

/*
 * The converter against the rule itself, by brute force: at each position
 * the longest key of the whole table that is there, else one character.
 * Texts mix ASCII (the two letters that start keys, in and out of them),
 * Taiwan words and mainland ones.
 */
static size_t
zh_convert_by_hand(const char *in, size_t len, char *out)
{
	size_t		i = 0;
	size_t		o = 0;

	while (i < len)
	{
		const tfp_zh_entry *best = NULL;
		size_t		n = 1;

		for (size_t k = 0; k < zt->nentries; k++)
		{
			const tfp_zh_entry *e = &zt->entries[k];

			if (e->key_len <= len - i && memcmp(zt->pool + e->key, in + i, e->key_len) == 0 &&
				(best == NULL || e->key_len > best->key_len))
				best = e;
		}
		if (best != NULL)
		{
			memcpy(out + o, zt->pool + best->value, best->value_len);
			o += best->value_len;
			i += best->key_len;
			continue;
		}
		while (i + n < len && ((unsigned char) in[i + n] & 0xC0) == 0x80)
			n++;
		memcpy(out + o, in + i, n);
		o += n;
		i += n;
	}
	return o;
}

static void
zh_convert_equals_brute_force(void)
{
	static const char *const words[] = {
		"sql隱碼攻擊", "sql", "sq", "s", "pn接面", "pn", "p", "plain", "spam", " ", ", ",
		"軟體", "檔案", "程式設計師", "程式", "網路上的芳鄰", "這個", "國家", "程序", "文件",
		"着數", "著名", "乾淨", "𩀨", "é", "—",
	};

	for (uint32_t seed = 1; seed <= 6; seed++)
	{
		size_t		len;
		char	   *text = make_text(words, sizeof(words) / sizeof(words[0]), 300, seed, &len);
		char	   *want = malloc(len * zt->max_growth + 1);
		size_t		wlen = zh_convert_by_hand(text, len, want);
		size_t		glen;
		char	   *got = zh_convert_all(text, len, &glen);

		if (glen != wlen || memcmp(got, want, wlen) != 0)
			UNIT_FAIL("seed %u: the converter and the brute force differ", seed);
		free(got);
		free(want);
		free(text);
	}
}

/* Normalising in pieces with the conversion gives what one piece gives. */
static void
pieces_chinese_equals_whole(void)
{
	for (uint32_t seed = 1; seed <= 6; seed++)
	{
		size_t		len;
		char	   *text = zh_random_text(seed, 300, &len);

		for (int simplify = 0; simplify <= 1; simplify++)
		{
			char	   *whole = NULL;
			size_t		wlen = 0;

			REQUIRE_INT_EQ(tfp_normalize_chinese(&env, text, len, simplify, TFP_CHINESE_MAINLAND,
												 SIZE_MAX / 4, &whole, &wlen), TFP_OK);
			for (size_t p = 8; p <= 200; p += (p < 64 ? 1 : 17))
			{
				char	   *part = NULL;
				size_t		plen = 0;

				REQUIRE_INT_EQ(tfp_normalize_chinese(&env, text, len, simplify, TFP_CHINESE_MAINLAND,
													 p, &part, &plen), TFP_OK);
				if (plen != wlen || memcmp(part, whole, wlen) != 0)
					UNIT_FAIL("seed %u simplify %d pieces of %zu bytes differ from the whole text",
							  seed, simplify, p);
				env.free(env.ctx, part);
			}
			env.free(env.ctx, whole);
		}
		free(text);
	}
	/* a long phrase across every cut: 12 bytes of it either side of each piece end */
	for (size_t pad = 0; pad < 45; pad++)
	{
		char		text[256];
		char	   *whole = NULL;
		char	   *part = NULL;
		size_t		wlen;
		size_t		plen;

		memset(text, 'x', pad);
		strcpy(text + pad, "網路上的芳鄰程式設計師網路上的芳鄰");
		REQUIRE_INT_EQ(tfp_normalize_chinese(&env, text, strlen(text), false, TFP_CHINESE_MAINLAND,
											 SIZE_MAX / 4, &whole, &wlen), TFP_OK);
		CHECK(strstr(whole, "网上邻居程序员网上邻居") != NULL);
		for (size_t p = 8; p < 60; p++)
		{
			REQUIRE_INT_EQ(tfp_normalize_chinese(&env, text, strlen(text), false, TFP_CHINESE_MAINLAND,
												 p, &part, &plen), TFP_OK);
			CHECK(plen == wlen && memcmp(part, whole, wlen) == 0);
			env.free(env.ctx, part);
		}
		env.free(env.ctx, whole);
	}
}

/* Long Traditional text: cancels answered, every allocation freed, the limit kept. */
static void
zh_normalize_interrupts_and_memory(void)
{
	size_t		n = 200000;
	char	   *text = malloc(n * 6 + 1);
	size_t		len = 0;
	char	   *norm;
	size_t		nlen;

	REQUIRE(text != NULL);
	while (len + 6 <= n * 6)
	{
		memcpy(text + len, "軟體", 6);
		len += 6;
	}
	env.check_interrupts = counting_interrupts_fn;
	REQUIRE_INT_EQ(tfp_normalize_chinese(&env, text, len, false, TFP_CHINESE_MAINLAND, 0,
										 &norm, &nlen), TFP_OK);
	CHECK_INT_EQ(nlen, len);	/* 软件 has as many bytes */
	CHECK(memcmp(norm, "软件软件", 12) == 0 && memcmp(norm + nlen - 6, "软件", 6) == 0);
	/* one check per 32 kB piece at least */
	CHECK(ca.interrupts >= (long) (len / 32768));
	env.free(env.ctx, norm);
	/* allocation failures anywhere are reported, never a crash or a leak */
	for (long k = 0; k < 8; k++)
	{
		env_reset();
		ca.fail_after = k;
		norm = NULL;
		CHECK(tfp_normalize_chinese(&env, text, 3000, false, TFP_CHINESE_MAINLAND, 64,
									&norm, &nlen) == TFP_ENOMEM || norm != NULL);
		if (norm)
			env.free(env.ctx, norm);
		CHECK_INT_EQ(ca.live, 0);
	}
	free(text);
}

/* The table's identity is frozen, and part of the pipeline identity. */
static void
zh_identity_frozen(void)
{
	const char *name;
	const char *sha;
	uint64_t	digest;
	tfp_options o;
	tfp_options p;

	CHECK(!tfp_chinese_table(TFP_CHINESE_NONE, &name, &sha, &digest));
	REQUIRE(tfp_chinese_table(TFP_CHINESE_MAINLAND, &name, &sha, &digest));
	CHECK(strcmp(name, MAINLAND_NAME) == 0);
	CHECK(strcmp(sha, MAINLAND_SHA256) == 0);
	CHECK_U64_EQ(digest, UINT64_C(0x15f02d8a55ea58aa));
	tfp_options_default(&o);
	CHECK_INT_EQ(o.chinese, TFP_CHINESE_NONE);
	/* 1.0's identity of the defaults (pipe=820db166 with shingle 2, stopwords none) */
	o.shingle = 2;
	o.builtin_stopwords = 0;
	CHECK_U64_EQ(tfp_pipeline_id(&o), UINT32_C(0x820db166));
	p = o;
	p.chinese = TFP_CHINESE_MAINLAND;
	CHECK(tfp_pipeline_id(&p) != tfp_pipeline_id(&o));
	p.simplify = true;
	CHECK(tfp_pipeline_id(&p) != tfp_pipeline_id(&o));
}

/*
 * The built-in stopword lists are normalised without the conversion; tokens
 * are converted.  They still match because the conversion changes no
 * built-in stopword (so none is lost under chinese => 'mainland').
 */
static void
zh_builtin_stopwords_unchanged(void)
{
	extern const char *const tfp_stopwords_zh_data[];
	extern const char *const tfp_stopwords_en_data[];
	extern const char *const tfp_stopwords_snowball_en_data[];
	const char *const *lists[] = {tfp_stopwords_zh_data, tfp_stopwords_en_data, tfp_stopwords_snowball_en_data};
	const int	which[] = {TFP_STOP_ZH, TFP_STOP_EN, TFP_STOP_SNOWBALL};

	for (int l = 0; l < 3; l++)
		for (size_t i = 0; i < tfp_builtin_stopword_count(which[l]); i++)
		{
			const char *w = lists[l][i];
			char	   *a;
			char	   *b;
			size_t		alen;
			size_t		blen;

			REQUIRE_INT_EQ(tfp_normalize(&env, w, strlen(w), false, &a, &alen), TFP_OK);
			REQUIRE_INT_EQ(tfp_normalize_chinese(&env, w, strlen(w), false, TFP_CHINESE_MAINLAND, 0,
												 &b, &blen), TFP_OK);
			if (alen != blen || memcmp(a, b, alen) != 0)
				UNIT_FAIL("stopword \"%s\" becomes \"%s\"", a, b);
			env.free(env.ctx, a);
			env.free(env.ctx, b);
		}
}
