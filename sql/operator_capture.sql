-- operator_capture: textfp's operators never take over a built-in
-- operator's untyped literal.  An operator of textfp's with a built-in type
-- on one side (bigint[], say) and one of its own types on the other wins
-- "col OP '<literal>'" over the built-in operators of that name that accept
-- the column's type, since the literal can be read as textfp's type: 1.1's
-- excerpt match was <@ (bigint[], excerpt_query), and every "arr <@
-- '{1,2}'" on a bigint[] column failed to parse its literal as an
-- excerpt_query.  The class: no textfp operator may share its name with a
-- built-in operator that accepts the same built-in type on the same side.
SET client_min_messages = warning;
WITH ours AS (
	SELECT o.oid, o.oprname, o.oprleft, o.oprright
	FROM pg_operator o JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
),
builtin_type AS (
	SELECT t.oid, t.typcategory = 'A' AS is_array FROM pg_type t
	WHERE t.oid NOT IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
						WHERE d.classid = 'pg_type'::regclass AND d.deptype = 'e' AND e.extname = 'textfp')
	  AND t.typelem NOT IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
							WHERE d.classid = 'pg_type'::regclass AND d.deptype = 'e' AND e.extname = 'textfp')
),
-- does a built-in operator's argument type accept t?
accepts(arg, t) AS (
	SELECT a.oid, b.oid FROM pg_type a, builtin_type b
	WHERE a.oid = b.oid
	   OR (a.typname IN ('anyarray', 'anycompatiblearray') AND b.is_array)
	   OR a.typname IN ('anyelement', 'anycompatible', 'any')
)
SELECT o.oid::regoperator AS textfp_operator, p.oid::regoperator AS builtin_operator
FROM ours o JOIN pg_operator p ON p.oprname = o.oprname AND p.oprnamespace = 'pg_catalog'::regnamespace
WHERE (o.oprleft IN (SELECT oid FROM builtin_type) AND o.oprright NOT IN (SELECT oid FROM builtin_type)
	   AND EXISTS (SELECT FROM accepts x WHERE x.arg = p.oprleft AND x.t = o.oprleft))
   OR (o.oprright IN (SELECT oid FROM builtin_type) AND o.oprleft NOT IN (SELECT oid FROM builtin_type)
	   AND EXISTS (SELECT FROM accepts x WHERE x.arg = p.oprright AND x.t = o.oprright))
ORDER BY 1, 2;
-- and the idioms of bigint[] work beside textfp
CREATE TEMP TABLE arrays (a bigint[]);
INSERT INTO arrays VALUES ('{1,2}'), ('{3}');
SELECT a, a <@ '{1,2,3}' AS contained, '{1,2,3}' @> a AS contains, a && '{2,3}' AS overlaps, a @> '{3}' AS has_3
FROM arrays ORDER BY a;
-- the excerpt match, with the query typed by its function
SELECT '{1,2,3,4}'::bigint[] @@ quoted_in('{1,2,3,4,5}') AS quoted, quoting('{1,2}', 0.5, 1) @@ '{1,2,3,4}'::bigint[] AS quoting;
