/*
 * common.h: the counting allocator the fuzz targets lend the core.
 *
 * Counts live allocations so a target can check the core freed everything it
 * took through tfp_env, and refuses allocations after a chosen number so
 * out-of-memory paths get fuzzed too.  A failed check calls abort(), which
 * libFuzzer reports as a crash with the input that caused it.
 */
#ifndef TFP_FUZZ_COMMON_H
#define TFP_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"

typedef struct fuzz_alloc
{
	long		live;
	long		total;
	long		fail_after;		/* -1: never fail */
	long		refused;
} fuzz_alloc;

static inline void *
fuzz_alloc_fn(void *ctx, size_t size)
{
	fuzz_alloc *a = ctx;
	void	   *p;

	if (a->fail_after >= 0 && a->total >= a->fail_after)
	{
		a->refused++;
		return NULL;
	}
	p = malloc(size ? size : 1);
	if (p != NULL)
	{
		a->total++;
		a->live++;
	}
	return p;
}

static inline void
fuzz_free_fn(void *ctx, void *ptr)
{
	fuzz_alloc *a = ctx;

	if (ptr == NULL)
	{
		fprintf(stderr, "core freed NULL through tfp_env\n");
		abort();
	}
	a->live--;
	free(ptr);
}

static inline void
fuzz_env_init(tfp_env *env, fuzz_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->fail_after = -1;
	env->alloc = fuzz_alloc_fn;
	env->realloc = NULL;		/* the core copies: every allocation counted */
	env->free = fuzz_free_fn;
	env->check_interrupts = NULL;
	env->ctx = a;
	env->icu_error = 0;
}

#define FUZZ_CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

#endif							/* TFP_FUZZ_COMMON_H */
