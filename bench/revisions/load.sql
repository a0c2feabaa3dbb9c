-- load.sql: the revision set (make_revisions.pl's output, :'rows' names the file) and its pairs.
DROP TABLE IF EXISTS rev, rev_pair, rev_fp, rev_sig CASCADE;
CREATE TABLE rev (id int PRIMARY KEY, set text, lang text, version int, name text, split text, body text);
\set copy '\\copy rev FROM ' :'rows'
:copy
-- every cross-version pair of one set; a revision pair when the names agree
CREATE TABLE rev_pair AS
	SELECT a.id AS a, b.id AS b, a.set, a.lang, a.split AS split_a, b.split AS split_b,
		a.name = b.name AS revision, a.body = b.body AS same_text
	FROM rev a JOIN rev b ON a.set = b.set AND a.version = 0 AND b.version = 1;
-- a pair belongs to a split when both sides do (revision pairs always do)
ALTER TABLE rev_pair ADD split text;
UPDATE rev_pair SET split = CASE WHEN split_a = split_b THEN split_a END;
CREATE TABLE rev_fp (method text, id int, fp simhash64, PRIMARY KEY (method, id));
CREATE TABLE rev_sig (method text, id int, sig minhash_sig, PRIMARY KEY (method, id));
ANALYZE rev, rev_pair;
