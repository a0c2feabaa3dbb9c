/*
 * mem.c: growing and clearing large buffers through the caller's allocator.
 *
 * Copying a buffer of a hundred megabytes into fresh memory costs the
 * kernel's page faults for all of it at once: half a second on a virtual
 * machine, in which no cancel is answered.  Growing in place (the caller's
 * realloc, which moves pages instead of bytes) and clearing in slices with
 * interrupt checks between them keeps every step short.
 */
#include <string.h>

#include "tfp_core.h"

/* Bytes cleared between interrupt checks. */
#define CLEAR_SLICE (1024 * 1024)

void *
tfp_grow(tfp_env *env, void *ptr, size_t old_size, size_t new_size)
{
	void	   *p;

	if (ptr == NULL)
		return env->alloc(env->ctx, new_size);
	if (env->realloc)
		return env->realloc(env->ctx, ptr, new_size);
	p = env->alloc(env->ctx, new_size);
	if (p == NULL)
		return NULL;
	memcpy(p, ptr, old_size < new_size ? old_size : new_size);
	env->free(env->ctx, ptr);
	return p;
}

void
tfp_clear(tfp_env *env, void *ptr, size_t size)
{
	char	   *p = ptr;

	while (size > 0)
	{
		size_t		n = size < CLEAR_SLICE ? size : CLEAR_SLICE;

		memset(p, 0, n);
		p += n;
		size -= n;
		if (size > 0 && env->check_interrupts)
			env->check_interrupts(env->ctx);
	}
}
