# textfp: PGXS build.  `make && make install`, then `make installcheck`
# against a running server (see README.md for the one-command test run).

EXTENSION = textfp
MODULE_big = textfp
DATA = textfp--1.0.sql textfp--1.0--1.1.sql textfp--1.1.sql
PGFILEDESC = "textfp - text fingerprints and near-duplicate detection"

CORE_OBJS = \
	src/core/bits.o \
	src/core/mem.o \
	src/core/hash.o \
	src/core/normalize.o \
	src/core/zh_convert.o \
	src/core/zh_mainland_data.o \
	src/core/tokenize.o \
	src/core/stopwords.o \
	src/core/stopwords_data.o \
	src/core/features.o \
	src/core/simhash.o \
	src/core/idf.o \
	src/core/blocks.o \
	src/core/hamming_stats.o \
	src/core/minhash.o \
	src/core/winnow.o \
	src/core/formats.o \
	src/core/mih.o \
	src/core/mih_mem.o \
	src/core/lsh_mem.o \
	src/core/lsh.o \
	src/core/lsh_choose.o \
	src/core/exact.o \
	src/core/cluster.o \
	src/core/pinyin.o \
	src/core/pinyin_reference.o \
	src/core/sentences.o \
	src/core/presets.o

OBJS = $(CORE_OBJS) \
	src/idf_model.o \
	src/textfp.o \
	src/catalog.o \
	src/pipeline.o \
	src/simhash64.o \
	src/hamming_ball.o \
	src/simhash_agg.o \
	src/simhash64_gist.o \
	src/hamming_ball_gist.o \
	src/simhash64_spgist.o \
	src/simhash64_gin.o \
	src/simhash64_selfuncs.o \
	src/simhash64_cost.o \
	src/options.o \
	src/minhash_sig.o \
	src/jaccard_ball.o \
	src/minhash_text.o \
	src/minhash_gin.o \
	src/winnow.o \
	src/excerpt_query.o \
	src/winnow_gin.o \
	src/minhash_selfuncs.o \
	src/selfuncs_common.o \
	src/near_support.o \
	src/mih.o \
	src/mihbuild.o \
	src/mihinsert.o \
	src/mihpending.o \
	src/mihscan.o \
	src/mihvacuum.o \
	src/mihwal.o \
	src/mihcost.o \
	src/mihvalidate.o \
	src/lsh_query.o \
	src/minhash_lsh.o \
	src/minhash_lsh_selfuncs.o \
	src/minhash_lsh_gin.o \
	src/fpcall.o \
	src/track/track_config.o \
	src/track/track_store.o \
	src/track/track_link.o \
	src/track/track_trigger.o \
	src/track/track_batch.o \
	src/track/track_story.o \
	src/track/track_pending.o \
	src/track/track_exec.o \
	src/track/track_fast.o \
	src/track/track_fast_simhash.o \
	src/track/track_fast_minhash.o \
	src/dedup.o \
	src/dedup_config.o \
	src/dedup_locks.o \
	src/exact.o \
	src/cluster.o \
	src/signatures.o \
	src/presets.o

REGRESS = simhash64_type simhash64_ops hamming_ball pipeline golden \
	pipeline_options simhash_agg guc encoding tree_index gin_index selectivity \
	minhash_type minhash minhash_accuracy minhash_gin minhash_selectivity \
	options_cache compat_1_0 script_decoys featureless weighting chinese presets \
	mih mih_options index_choice \
	minhash_lsh minhash_lsh_gin minhash_lsh_update lsh_params_bounds \
	dedup dedup_checks dedup_privacy dedup_locks dedup_memory textfp_exact \
	union_find cluster_table cluster_limit track track_order track_owner track_batch track_security track_set plpgsql_decoys plpgsql_lint \
	operator_capture \
	signatures excerpts
REGRESS_OPTS = --encoding=UTF8 --no-locale

# Isolation specs (specs/*.spec, pg_isolation_regress): concurrency of the
# near-duplicate trigger and of tracked tables.  make installcheck runs them
# after REGRESS.
ISOLATION = dedup_simhash dedup_minhash dedup_modes dedup_tenant dedup_hidden \
	track_concurrent track_dedup track_inval track_rebuild track_rebuild_fast track_owner_race track_story_fold track_locks track_set_writers track_rebuild_calls track_rename_race track_lock_rename_race
ISOLATION_OPTS = --encoding=UTF8 --no-locale --load-extension=textfp

# Reproductions of crashes and bad inputs run in a pg_regress pass of their
# own, after the main tests (make installcheck-probe), so that a regression
# that takes the server down fails only them.
PROBE_REGRESS = selfuncs_probe bad_input

# ICU for normalisation and word breaks; xxhash is used header-only.
PG_CPPFLAGS = -Isrc/core
SHLIB_LINK = $(shell pkg-config --libs icu-i18n icu-uc 2>/dev/null || echo -licui18n -licuuc -licudata)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS does not track headers: every object depends on those it may include.
$(CORE_OBJS): src/core/tfp_core.h
src/core/normalize.o src/core/zh_convert.o src/core/zh_mainland_data.o: src/core/tfp_zh.h
src/core/cluster.o src/cluster.o: src/core/tfp_cluster.h
src/core/pinyin.o src/core/pinyin_reference.o src/core/sentences.o src/signatures.o: src/core/tfp_sig.h
src/core/presets.o src/presets.o src/pipeline.o src/minhash_text.o src/options.o: src/core/tfp_presets.h
src/presets.o src/pipeline.o src/minhash_text.o: src/presets.h
$(filter-out $(CORE_OBJS),$(OBJS)): src/textfp.h src/selfuncs_common.h src/core/tfp_core.h
MIH_OBJS = src/mih.o src/mihbuild.o src/mihinsert.o src/mihpending.o src/mihscan.o src/mihvacuum.o \
	src/mihwal.o src/mihcost.o src/mihvalidate.o
$(MIH_OBJS): src/mih.h src/core/tfp_mih.h
src/core/mih.o: src/core/tfp_mih.h
src/core/mih_mem.o: src/core/tfp_mih_mem.h src/core/tfp_mih.h
src/core/lsh_mem.o: src/core/tfp_lsh_mem.h
src/dedup.o src/dedup_config.o src/dedup_locks.o: src/dedup.h src/fpcall.h
src/fpcall.o: src/fpcall.h
TRACK_OBJS = src/track/track_config.o src/track/track_store.o src/track/track_link.o src/track/track_trigger.o \
	src/track/track_batch.o src/track/track_pending.o src/track/track_exec.o src/track/track_story.o src/track/track_fast.o \
	src/track/track_fast_simhash.o src/track/track_fast_minhash.o
$(TRACK_OBJS): src/track/track.h src/dedup.h src/fpcall.h
src/track/track_fast.o src/track/track_fast_simhash.o src/track/track_fast_minhash.o: src/track/track_fast.h
src/track/track_fast_simhash.o: src/core/tfp_mih_mem.h src/core/tfp_mih.h
src/track/track_fast_minhash.o: src/core/tfp_lsh_mem.h

# Our own code warning-free under -Wextra; PostgreSQL's headers are system
# headers so their warnings don't drown ours.
override CPPFLAGS := $(patsubst -I%,-isystem %,$(filter -I$(includedir_server)% -I$(includedir_internal)%,$(CPPFLAGS))) \
	$(filter-out -I$(includedir_server)% -I$(includedir_internal)%,$(CPPFLAGS))
override CFLAGS += -Wextra -Wno-unused-parameter -Wno-missing-field-initializers

# The static check of the extension scripts (scripts/check_scripts.pl): its
# self-test, then the scripts; test/run.sh runs both.
.PHONY: check-scripts
check-scripts:
	perl scripts/check_scripts.pl --self-test
	perl scripts/check_scripts.pl

.PHONY: installcheck-probe
installcheck-probe:
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(PROBE_REGRESS)

# The isolation specs alone (make installcheck runs them after REGRESS, but
# not when a regression test failed; test/run.sh runs them this way).
.PHONY: installcheck-isolation
installcheck-isolation:
	$(pg_isolation_regress_installcheck) $(ISOLATION_OPTS) $(ISOLATION)

# Every ```sql block of README.md and docs/*.md run as a test against the
# installed textfp, one fresh database a page, results compared with
# test/doctest/expected/PAGE.out (scripts/doctest.pl says how blocks are
# marked).  doctest-accept rewrites the expected files from the results.
.PHONY: installcheck-doctest doctest-accept
installcheck-doctest:
	$(or $(PERL),perl) scripts/doctest.pl --psql '$(bindir)/psql'
doctest-accept:
	$(or $(PERL),perl) scripts/doctest.pl --psql '$(bindir)/psql' --accept

# --- C unit tests for src/core (no server needed) ---
UNIT_CFLAGS = -O1 -g -std=c99 -Wall -Wextra -Isrc/core
UNIT_SRCS = test/unit/test_core.c $(CORE_OBJS:.o=.c)

test/unit/test_core: $(UNIT_SRCS) src/core/tfp_core.h test/unit/unit.h test/unit/test_blocks.c test/unit/test_minhash.c test/unit/test_pieces.c \
		test/unit/test_mih.c src/core/tfp_mih.h test/unit/test_mih_mem.c src/core/tfp_mih_mem.h test/unit/test_lsh_mem.c src/core/tfp_lsh_mem.h test/unit/test_lsh.c test/unit/test_exact.c test/unit/test_cluster.c test/unit/test_weights.c \
		src/core/tfp_cluster.h test/unit/test_zh.c src/core/tfp_zh.h data/opencc/mainland.tsv \
		test/unit/test_signatures.c src/core/tfp_sig.h test/unit/test_presets.c src/core/tfp_presets.h test/unit/test_winnow.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(SHLIB_LINK) -lm

.PHONY: unittest
unittest: test/unit/test_core
	test/unit/test_core

EXTRA_CLEAN = test/unit/test_core results regression.diffs regression.out tmp_check log output_iso \
	test/doctest/results test/doctest/doctest.diffs
