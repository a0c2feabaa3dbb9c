-- textfp_exact(): a 128-bit hash of the normalised text (UUID version 8)
-- Golden values: fixed hash (XXH3-128, seed 0), byte order (big-endian) and
-- version bits; any change here breaks every unique index built on it.
SELECT textfp_exact('') IS NULL AS blank, textfp_exact(' 	 ') IS NULL AS spaces;
SELECT left(t, 20) AS t, textfp_exact(t) FROM (VALUES ('hello world'), ('  Hello   World '), ('ＨＥＬＬＯ　ＷＯＲＬＤ'),
	('Hello, world'), ('新聞報導'), ('新闻报导'), ('a'), (repeat('x', 10000))) v(t) ORDER BY 1;
SELECT textfp_exact('新聞報導', simplify => true) = textfp_exact('新闻报导') AS simplified,
	textfp_exact('新聞報導') <> textfp_exact('新闻报导') AS not_by_default;
-- version 8, variant 10
SELECT substr(textfp_exact('x')::text, 15, 1) AS version,
	substr(textfp_exact('x')::text, 20, 1) IN ('8', '9', 'a', 'b') AS variant;
-- a unique index catches exact reprints cheaply
CREATE TABLE reprints (id int, body text);
CREATE UNIQUE INDEX reprints_exact ON reprints (textfp_exact(body));
INSERT INTO reprints VALUES (1, 'Breaking: the bridge is closed.'), (2, '');
INSERT INTO reprints VALUES (3, 'BREAKING:  the bridge is closed.');
INSERT INTO reprints VALUES (4, ' '), (5, NULL);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM reprints WHERE textfp_exact(body) = textfp_exact('breaking: THE bridge is closed.');
SELECT id FROM reprints WHERE textfp_exact(body) = textfp_exact('breaking: THE bridge is closed.');
RESET enable_seqscan;
SELECT id FROM reprints WHERE textfp_exact(body) = textfp_exact('breaking: THE bridge is closed.');
-- invalid input is refused as everywhere else
SELECT textfp_exact(convert_from('\xc3'::bytea, 'SQL_ASCII'));
