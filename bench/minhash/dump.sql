-- dump.sql: the raw results, as tab-separated files with a header line.
--
-- psql variables: out (the output directory).

\set ON_ERROR_STOP on

\set f :out '/results.tsv'
\o :f
COPY (SELECT * FROM bench.results ORDER BY bits, pass, seq) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/default_plans.tsv'
\o :f
COPY (SELECT * FROM bench.default_plans ORDER BY bits, threshold, qno) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/timings.tsv'
\o :f
COPY (SELECT * FROM bench.timings ORDER BY what, bits) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/sizes.tsv'
\o :f
COPY (SELECT * FROM bench.sizes ORDER BY stage, bits, relation) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/ref.tsv'
\o :f
COPY (SELECT * FROM bench.ref ORDER BY qno, id) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/queries.tsv'
\o :f
COPY (SELECT qno, qset, src_id, i.kind, i.fam, i.n, i.true_j FROM bench.queries q
	  JOIN bench.rowinfo i ON i.id = q.src_id ORDER BY qno) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/jstats.tsv'
\o :f
COPY (SELECT * FROM bench.jstats ORDER BY bucket) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\set f :out '/kinds.tsv'
\o :f
COPY (SELECT * FROM bench.kinds ORDER BY kind) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
