-- pinyin_signature, pinyin_letters, sentence_signature, signature_overlap
-- (1.1): golden values, the edits each signature must not see, texts with
-- nothing to sign, the matching rule through GIN's array_ops against a
-- sequential scan, bad input, and a cancel on a large text.

-- what pinyin_signature reads: one first letter a Han character (ICU
-- Han-Latin, the character alone); Traditional characters read as Simplified
SELECT pinyin_letters('中华人民共和国 abc 123，他她它') AS letters,
       pinyin_letters('這個國家的經濟') = pinyin_letters('这个国家的经济') AS traditional_reads_alike,
       pinyin_letters('The quick brown fox') = '' AS no_han;

-- golden values at the defaults (window_size => 16; k => 8, min_length => 10)
SELECT pinyin_signature('维护者应当仔细阅读上游的版权声明，确认软件可以自由分发。'
	'如果上游没有提供许可证文件，请先与作者联系，再开始打包工作。'
	'打包之前，最好先在干净的环境中编译一次，确认构建依赖都已经写明。'
	'每次上传之前都要运行检查工具，修正它报告的所有错误和大部分警告。') AS pinyin_golden;
SELECT sentence_signature('Packaging starts with the upstream source.  Read its licence carefully before
you upload.

Short one.  The build dependencies must be complete, or the package will fail
to build from source on the autobuilders!  Does it build twice in a row?

最后，上传之前运行检查工具。ＦＵＬＬ　ＷＩＤＴＨ text, e.g. this.') AS sentence_golden;

-- homophone substitution (阅读→悦读, 声明→生明, 分发→分法, 作者→做者,
-- 环境→环静, 错误→错物): the same pinyin signature, other SimHash and MinHash
WITH t(a, b) AS (VALUES (
	'维护者应当仔细阅读上游的版权声明，确认软件可以自由分发。如果上游没有提供许可证文件，请先与作者联系，再开始打包工作。'
	'打包之前，最好先在干净的环境中编译一次，确认构建依赖都已经写明。每次上传之前都要运行检查工具，修正它报告的所有错误和大部分警告。',
	'维护者应当仔细悦读上游的版权生明，确认软件可以自由分法。如果上游没有提供许可证文件，请先与做者联系，再开始打包工作。'
	'打包之前，最好先在干净的环静中编译一次，确认构建依赖都已经写明。每次上传之前都要运行检查工具，修正它报告的所有错物和大部分警告。'))
SELECT pinyin_signature(a) = pinyin_signature(b) AS pinyin_same,
       cardinality(pinyin_signature(a)) AS pinyin_values,
       simhash(a) = simhash(b) AS simhash_same,
       minhash(a) = minhash(b) AS minhash_same
FROM t;

-- sentences reordered, white space and case changed: the same sentence
-- signature; one of the longest sentences edited: one value less in common
WITH t(a, b, c) AS (VALUES (
	'The archive keeps every upload.  Maintainers sign each upload with their key.  Buildds compile the source for every architecture.  Users install binary packages.',
	'USERS install binary packages.
Buildds compile the source for every architecture.  The archive keeps every upload.

Maintainers   sign each upload with their key!',
	'The archive keeps every upload.  Maintainers sign each upload with a key.  Buildds compile the source for every architecture.  Users install binary packages.'))
SELECT sentence_signature(a) = sentence_signature(b) AS reordered_same,
       cardinality(sentence_signature(a)) AS values_for_4_sentences,
       signature_overlap(sentence_signature(a), sentence_signature(c)) AS shared_after_edit,
       cardinality(sentence_signature(a, k => 2)) AS k_2
FROM t;

-- nothing to sign: no Han characters, fewer than window_size / 2 of them,
-- no sentence of min_length letters, empty text: '{}' (never NULL)
SELECT pinyin_signature('No Chinese here, ひらがな, 한국어') AS no_han,
       pinyin_signature('中华人民共和') AS six_han,
       cardinality(pinyin_signature('中华人民共和国家')) AS eight_han,
       pinyin_signature('') AS empty_pinyin,
       sentence_signature('') AS empty_sentences,
       sentence_signature('...  !!!  ？') AS punctuation_only,
       sentence_signature('Too short.  Also short.', min_length => 10) AS all_short,
       cardinality(sentence_signature('Too short.  Also short.', min_length => 0)) AS two_short;
SELECT pinyin_signature(NULL) IS NULL AS null_doc, sentence_signature('x', NULL) IS NULL AS null_k,
       signature_overlap(NULL, '{1}') IS NULL AS null_overlap;

-- signature_overlap counts distinct shared values, in any order
SELECT signature_overlap('{3,1,2,2}', '{2,3,3,4}') AS two, signature_overlap('{}', '{1}') AS none,
       signature_overlap('{-9223372036854775808,9223372036854775807}', '{9223372036854775807}') AS extremes;

-- bad input
SELECT pinyin_signature('中文', 3);
SELECT pinyin_signature('中文', 4097);
SELECT sentence_signature('x', 0);
SELECT sentence_signature('x', 257);
SELECT sentence_signature('x', 4, -1);
SELECT signature_overlap('{{1,2},{3,4}}', '{1}');
SELECT signature_overlap('{1,NULL}', '{1}');

-- the matching rule through GIN (stock array_ops on bigint[]) against a
-- sequential scan: rows made of shuffled sentences of a few paragraphs
CREATE TABLE sig_docs (id int PRIMARY KEY, body text, py bigint[], ss bigint[]);
INSERT INTO sig_docs (id, body)
SELECT i, string_agg(s, '' ORDER BY (j * (i % 7 + 1) + i) % 12)
FROM generate_series(1, 240) i,
	LATERAL (SELECT j, s FROM unnest(ARRAY[
		'维护者应当仔细阅读上游的版权声明，确认软件可以自由分发。',
		'如果上游没有提供许可证文件，请先与作者联系，再开始打包工作。',
		'打包之前，最好先在干净的环境中编译一次，确认构建依赖都已经写明。',
		'每次上传之前都要运行检查工具，修正它报告的所有错误和大部分警告。',
		'软件包的描述应当说明它做什么，而不是它怎样做。',
		'新的上游版本发布以后，维护者需要检查补丁是否仍然适用。',
		'The archive keeps every upload. ', 'Maintainers sign each upload with their key. ',
		'Buildds compile the source for every architecture. ', 'Users install binary packages from a mirror. ',
		'A transition moves many packages to a new library at once. ',
		'Security updates go to a separate archive with its own keys. '])
		WITH ORDINALITY u(s, j)
	WHERE (i >> (j::int % 5)) % 3 <> 0 OR j = i % 12 + 1) x
GROUP BY i;
UPDATE sig_docs SET py = pinyin_signature(body), ss = sentence_signature(body);
CREATE INDEX sig_docs_py ON sig_docs USING gin (py);
CREATE INDEX sig_docs_ss ON sig_docs USING gin (ss);
ANALYZE sig_docs;
SET enable_bitmapscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF)
SELECT q.id, d.id FROM sig_docs q, sig_docs d WHERE d.ss && q.ss AND signature_overlap(d.ss, q.ss) >= 2;
CREATE TEMP TABLE seq_pairs AS
SELECT 'py' AS sig, q.id AS q, d.id AS d FROM sig_docs q, sig_docs d
WHERE d.py && q.py AND signature_overlap(d.py, q.py) >= 2
UNION ALL
SELECT 'ss', q.id, d.id FROM sig_docs q, sig_docs d
WHERE d.ss && q.ss AND signature_overlap(d.ss, q.ss) >= 2;
RESET enable_bitmapscan;
RESET enable_indexscan;
SET enable_seqscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT q.id, d.id FROM sig_docs q, sig_docs d WHERE d.py && q.py AND signature_overlap(d.py, q.py) >= 2;
CREATE TEMP TABLE gin_pairs AS
SELECT 'py' AS sig, q.id AS q, d.id AS d FROM sig_docs q, sig_docs d
WHERE d.py && q.py AND signature_overlap(d.py, q.py) >= 2
UNION ALL
SELECT 'ss', q.id, d.id FROM sig_docs q, sig_docs d
WHERE d.ss && q.ss AND signature_overlap(d.ss, q.ss) >= 2;
RESET enable_seqscan;
RESET enable_hashjoin;
RESET enable_mergejoin;
-- the same pairs, and pairs beyond each row with itself (the rule matches something)
SELECT (SELECT count(*) FROM (SELECT * FROM seq_pairs EXCEPT SELECT * FROM gin_pairs) x) AS seq_only,
       (SELECT count(*) FROM (SELECT * FROM gin_pairs EXCEPT SELECT * FROM seq_pairs) x) AS gin_only,
       (SELECT count(*) FROM seq_pairs WHERE sig = 'py' AND q <> d) > 0 AS pinyin_pairs,
       (SELECT count(*) FROM seq_pairs WHERE sig = 'ss' AND q <> d) > 0 AS sentence_pairs,
       (SELECT count(*) FROM seq_pairs WHERE q <> d) < 2 * 240 * 239 AS not_everything;

-- a cancel is answered inside a call on a large text (60 MB)
SET statement_timeout = '100ms';
SELECT cardinality(pinyin_signature(repeat('维护者应当仔细阅读上游的版权声明', 1200000)));
SELECT cardinality(sentence_signature(repeat('The archive keeps every upload. ', 2000000)));
RESET statement_timeout;

DROP TABLE sig_docs;
