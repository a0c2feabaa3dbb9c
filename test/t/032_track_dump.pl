# Dump and restore of tracked tables by their owner, a role that is not a
# superuser: it owns a database, installs textfp there (a trusted
# extension), registers two tables (SimHash with a site column and a bigint
# key; MinHash with a text key and a cohesion bound), changes their settings
# with textfp_track_set() (news to locks => 'blocks', not the default; docs
# from dedup 'off' to 'reject' per site, which makes its dedup trigger) and
# writes into them (late arrivals, edits, deletes).  pg_dump -Fc as that
# role, pg_restore as that role into a database it creates:
#
#   - the registrations with the changed settings, the dedup trigger, the
#     stores and the stories come back identical;
#   - restoring fired no trigger on the restored rows (pg_dump loads data
#     before it makes triggers): every store row is the dumped one, down to
#     linked_at, the time its link was last written;
#   - the restored triggers track new writes (a near row links, a late
#     arrival relinks the rows after it, a near duplicate is rejected);
#   - textfp_rebuild() works and changes no link;
#   - a second dump, of the restored database, equals the first's contents.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('track_dump');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->start;

$node->safe_psql('postgres', q{
CREATE ROLE alice LOGIN CREATEDB;
CREATE DATABASE src OWNER alice;
});
my @alice = (extra_params => [ '-U', 'alice' ]);
sub as_alice
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, $sql, @alice);
}

is(as_alice('src', q{SELECT rolsuper FROM pg_roles WHERE rolname = current_user}), 'f', 'alice is not a superuser');
as_alice('src', q{
CREATE EXTENSION textfp;
SET client_min_messages = warning;
CREATE FUNCTION words(a int, b int) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT string_agg(left(md5(g::text), 6), ' ' ORDER BY g) FROM generate_series(a, b) g $$;

CREATE TABLE news (id bigint PRIMARY KEY, site text, published timestamptz NOT NULL, body text);
INSERT INTO news VALUES
 (1, 'ledger', '2025-01-01 10:00', 'The council approved the new cycling lanes along the river on Monday, and construction will begin in spring.'),
 (2, 'herald', '2025-01-01 12:00', 'The council approved new cycling lanes along the river on Monday; construction will begin in the spring, officials said.'),
 (3, 'post',   '2025-01-02 09:00', 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight.'),
 (4, 'wire',   '2025-01-02 11:00', 'Storm closes harbour bridge for two days as engineers inspect cables damaged by high winds overnight.'),
 (5, 'post',   '2025-01-03 09:00', 'Local bakery wins national prize for its sourdough; the owner thanks customers and staff for years of support.'),
 (6, NULL,     '2025-01-03 10:00', NULL);
INSERT INTO news SELECT 100 + g, 'site' || g % 4, timestamptz '2025-02-01' + g * interval '1 hour',
	words(1 + (g % 10) * 40, 30 + (g % 10) * 40 + g % 3) FROM generate_series(1, 200) g;
CALL textfp_track('news', 'body', 'id', 'published', site_column => 'site', method => 'simhash', threshold => 16,
	batch => 50);
SELECT textfp_track_set('news', locks => 'blocks');

CREATE TABLE docs (slug text PRIMARY KEY, region int, day date NOT NULL, body text);
INSERT INTO docs SELECT 'doc-' || g, g % 3, date '2025-01-01' + g, words(1000 + g * 50, 1030 + g * 50)
FROM generate_series(1, 60) g;
CALL textfp_track('docs', 'body', 'slug', 'day', site_column => 'region', method => 'minhash', threshold => 0.5,
	cohesion => 0.3);
SELECT textfp_track_set('docs', dedup => 'reject', dedup_scope => 'site');

-- writes after the registration: a late arrival, near rows, an edit, a delete
INSERT INTO news VALUES (0, 'agency', '2024-12-31 08:00', 'The council approved the new cycling lanes along the river on Monday, and construction will begin in spring.');
INSERT INTO news VALUES (7, 'wire', '2025-01-04 09:00', 'Local bakery wins a national prize for its sourdough, and the owner thanks customers and staff for years of support.');
UPDATE news SET body = words(5000, 5030) WHERE id = 150;
UPDATE news SET published = '2025-01-01 00:00' WHERE id = 160;
DELETE FROM news WHERE id IN (3, 120);
-- near doc-1 and doc-2, in other regions: in, and linked
INSERT INTO docs VALUES ('late', 0, '2024-12-01', words(1050, 1080));
INSERT INTO docs VALUES ('other-region', 0, '2025-06-01', words(1100, 1130));
});
like(as_alice('src', q{SELECT count(*) FROM news_textfp WHERE source IS NOT NULL}), qr/^[1-9]\d+$/, 'news rows link');
like(as_alice('src', q{SELECT count(*) FROM docs_textfp WHERE source IS NOT NULL}), qr/^[1-9]\d*$/, 'docs rows link');
is(as_alice('src', q{SELECT relowner::regrole FROM pg_class WHERE relname IN ('news_textfp', 'news_textfp_config', 'news_textfp_stories',
	'news_textfp_changes', 'news_textfp_reprints', 'news_textfp_reprint_changes', 'docs_textfp', 'docs_textfp_config',
	'docs_textfp_stories', 'docs_textfp_changes', 'docs_textfp_reprints', 'docs_textfp_reprint_changes') GROUP BY 1}),
	'alice', 'alice owns the registrations and the stores');

# Everything in a form that compares as text.
my %query = (
	'news store' => q{SELECT key, at, site, fp, source, source_site, source_at, story, score, linked_at FROM news_textfp ORDER BY key},
	'docs store' => q{SELECT key, at, site, fp, source, source_site, source_at, story, score, linked_at FROM docs_textfp ORDER BY key},
	'news registration' => q{SELECT c.*, c.source_table::text, c.store_table::text FROM news_textfp_config c},
	'docs registration' => q{SELECT c.*, c.source_table::text, c.store_table::text FROM docs_textfp_config c},
	'news stories' => q{SELECT * FROM textfp_stories('news') ORDER BY 1},
	'news story report' => q{SELECT * FROM textfp_story_report('news')},
	'news story summary' => q{SELECT * FROM news_textfp_stories ORDER BY story; SELECT story FROM news_textfp_changes ORDER BY story},
	'news reprints' => q{SELECT * FROM textfp_reprints('news', same_site => true)},
	'news reprint summary' => q{SELECT * FROM news_textfp_reprints ORDER BY source_site, site;
		SELECT * FROM news_textfp_reprint_changes ORDER BY source_site, site},
	'docs stories' => q{SELECT * FROM textfp_stories('docs') ORDER BY 1},
	'tables' => q{SELECT * FROM news ORDER BY id; SELECT * FROM docs ORDER BY slug},
	'tracked' => q{SELECT tbl, store, method, threshold, dedup, dedup_scope, locks, state FROM textfp_tracked() ORDER BY tbl::text},
	'triggers' => q{SELECT tgrelid::regclass, tgname, tgenabled, pg_get_triggerdef(oid) FROM pg_trigger
		WHERE NOT tgisinternal ORDER BY tgrelid::regclass::text, tgname},
);
my %dumped = map { $_ => as_alice('src', $query{$_}) } keys %query;

my $tmp = PostgreSQL::Test::Utils::tempdir;
$node->command_ok([ 'pg_dump', '-U', 'alice', '-Fc', '-d', 'src', '-f', "$tmp/src.dump" ], 'pg_dump -Fc as alice');
$node->command_ok([ 'createdb', '-U', 'alice', 'dst' ], 'alice creates a database');
$node->command_ok([ 'pg_restore', '-U', 'alice', '--exit-on-error', '-d', 'dst', "$tmp/src.dump" ],
	'pg_restore as alice');

for my $what (sort keys %query)
{
	is(as_alice('dst', $query{$what}), $dumped{$what}, "restored: $what as dumped");
}

# The settings textfp_track_set() changed came back: a row of news locks 17
# blocks (pairs, its registration's, would be 153); docs rejects per region
is(as_alice('src', q{SELECT string_agg(tbl::text || ':' || coalesce(locks, '-') || ':' || dedup || ':' || dedup_scope, ',' ORDER BY tbl::text)
	FROM textfp_tracked()}), 'docs:-:reject:site,news:blocks:off:all', 'textfp_track_set() changed the settings');
is(as_alice('dst', q{SELECT string_agg(tbl::text || ':' || coalesce(locks, '-') || ':' || dedup || ':' || dedup_scope, ',' ORDER BY tbl::text)
	FROM textfp_tracked()}), 'docs:-:reject:site,news:blocks:off:all', 'restored: the changed settings');
is(as_alice('dst', q{SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE tgrelid = 'docs'::regclass}),
	'textfp_track,textfp_track_dedup,textfp_track_truncate', 'restored: the dedup trigger textfp_track_set() made');
is(as_alice('dst', q{SELECT locks FROM news_textfp_config}), 'blocks', 'restored: news locks blocks');
is(as_alice('dst', q{BEGIN;
INSERT INTO news VALUES (9, 'gazette', '2025-01-05 12:00', 'A row whose keys are counted, then rolled back.');
SELECT count(*) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() AND l.objsubid = 29798;
ROLLBACK;}), '17', 'restored: a news row takes 17 block keys');

# The restored triggers track new writes.
as_alice('dst', q{
SET client_min_messages = warning;
INSERT INTO news VALUES (8, 'gazette', '2025-01-04 12:00', 'Local bakery wins a national prize for its sourdough; the owner thanks customers and staff for years of support.');
-- a late arrival near 1 and 2: they join its story
INSERT INTO news VALUES (-1, 'early', '2024-12-30 08:00', 'The council approved the new cycling lanes along the river on Monday, and construction will begin in spring!');
});
is(as_alice('dst', q{SELECT source IS NOT NULL AND story = '5' FROM news_textfp WHERE key = 8}), 't',
	'a new near row links into its story');
is(as_alice('dst', q{SELECT string_agg(key::text || ':' || story::text, ',' ORDER BY key) FROM news_textfp WHERE key IN (-1, 0, 1, 2)}),
	'-1:-1,0:-1,1:-1,2:-1', 'a late arrival relinks the rows after it');
my ($rc, $out, $err) = $node->psql('dst', q{INSERT INTO docs VALUES ('dup', 1, '2025-07-01', words(1050, 1080))}, @alice);
like($err, qr/near duplicate of an existing row, rejected by textfp_track/, 'a near duplicate is rejected (dedup => reject)');
is(as_alice('dst', q{INSERT INTO docs VALUES ('dup', 2, '2025-07-01', words(1050, 1080)); SELECT count(*) FROM docs_textfp WHERE key = 'dup'}),
	'1', 'in another region it goes in (dedup_scope => site)');

# textfp_rebuild() as alice changes no link.
my $links = q{SELECT key, source, story, score FROM news_textfp ORDER BY key; SELECT key, source, story, score FROM docs_textfp ORDER BY key};
my $before = as_alice('dst', $links);
as_alice('dst', q{SET client_min_messages = warning; CALL textfp_rebuild('news'); CALL textfp_rebuild('docs', batch => 7);});
is(as_alice('dst', $links), $before, 'textfp_rebuild() in the restored database changes no link');
is(as_alice('dst', q{SELECT string_agg(state, ',') FROM textfp_tracked()}), 'ready,ready', 'both registrations ready');

# A dump of the restored database holds what the first held (the new rows aside).
as_alice('dst', q{DELETE FROM news WHERE id IN (8, -1); DELETE FROM docs WHERE slug = 'dup'; CALL textfp_rebuild('news');});
$node->command_ok([ 'pg_dump', '-U', 'alice', '-Fc', '-d', 'dst', '-f', "$tmp/dst.dump" ], 'pg_dump of the restored database');
$node->command_ok([ 'createdb', '-U', 'alice', 'dst2' ], 'alice creates another database');
$node->command_ok([ 'pg_restore', '-U', 'alice', '--exit-on-error', '-d', 'dst2', "$tmp/dst.dump" ], 'pg_restore of it');
for my $what ('news stories', 'docs stories', 'tables', 'tracked')
{
	is(as_alice('dst2', $query{$what}), $dumped{$what}, "restored twice: $what as first dumped");
}

$node->stop;
done_testing();
