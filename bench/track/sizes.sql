-- sizes.sql: sizes of tracked table :tbl, its store and the store's indexes, in MB.
\set ON_ERROR_STOP on
INSERT INTO tk_result (method, item, value)
SELECT :'method', 'size ' || x.what, round(x.b / 1048576.0)::text || ' MB' FROM (
	SELECT 'table (with TOAST, indexes)' AS what, pg_total_relation_size(:'tbl') AS b
	UNION ALL SELECT 'store (heap)', pg_relation_size(:'store')
	UNION ALL SELECT 'store (total)', pg_total_relation_size(:'store')
	UNION ALL SELECT 'store index ' || i.indexrelid::regclass || ' (' || am.amname || ')', pg_relation_size(i.indexrelid)
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
	WHERE i.indrelid = :'store'::regclass) x;
