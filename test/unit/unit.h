/*
 * unit.h: a tiny TAP-producing unit test harness for the pure-C core.
 *
 * A test case is a void function; UNIT_CASE(fn) lists it in a table that
 * unit_main() runs in order.  Each case prints one TAP line, "ok N - name" or
 * "not ok N - name" followed by "# file:line: message" diagnostics, after a
 * "1..N" plan.  The run ends with a "N passed, N failed" line and exits
 * non-zero if any case failed.  Checks inside a case record a failure and go
 * on (CHECK*) or leave the case (REQUIRE*).  Optional setup/teardown hooks
 * run around every case; a failure recorded by teardown fails that case.
 *
 * Usage: test_core [-l] [substring...]: -l lists the cases; substrings
 * select the cases whose names contain any of them.
 */
#ifndef TFP_UNIT_H
#define TFP_UNIT_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct unit_case
{
	const char *name;
	void		(*fn) (void);
} unit_case;

#define UNIT_CASE(fn) {#fn, fn}

/* Diagnostics of the running case, printed after its TAP line. */
#define UNIT_MAX_DIAG 16
#define UNIT_DIAG_LEN 512

static struct
{
	int			failures;		/* in the current case */
	char		diag[UNIT_MAX_DIAG][UNIT_DIAG_LEN];
	void		(*setup) (void);
	void		(*teardown) (void);
} unit_state;

static void
unit_fail(const char *file, int line, const char *fmt,...)
{
	if (unit_state.failures < UNIT_MAX_DIAG)
	{
		char	   *d = unit_state.diag[unit_state.failures];
		int			n = snprintf(d, UNIT_DIAG_LEN, "%s:%d: ", file, line);
		va_list		ap;

		if (n < 0 || n >= UNIT_DIAG_LEN)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(d + n, UNIT_DIAG_LEN - (size_t) n, fmt, ap);
		va_end(ap);
		/* keep the TAP stream one diagnostic per line */
		for (char *p = d; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	unit_state.failures++;
}

#define UNIT_FAIL(...) unit_fail(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK(cond) \
	do { if (!(cond)) UNIT_FAIL("check failed: %s", #cond); } while (0)

#define REQUIRE(cond) \
	do { if (!(cond)) { UNIT_FAIL("requirement failed: %s", #cond); return; } } while (0)

#define CHECK_INT_EQ(a, b) \
	do { long long a_ = (long long) (a), b_ = (long long) (b); \
		if (a_ != b_) UNIT_FAIL("%s == %s: got %lld, want %lld", #a, #b, a_, b_); \
	} while (0)

#define REQUIRE_INT_EQ(a, b) \
	do { long long a_ = (long long) (a), b_ = (long long) (b); \
		if (a_ != b_) { UNIT_FAIL("%s == %s: got %lld, want %lld", #a, #b, a_, b_); return; } \
	} while (0)

#define CHECK_U64_EQ(a, b) \
	do { uint64_t a_ = (uint64_t) (a), b_ = (uint64_t) (b); \
		if (a_ != b_) UNIT_FAIL("%s == %s: got 0x%016" PRIx64 ", want 0x%016" PRIx64, #a, #b, a_, b_); \
	} while (0)

/* Compare a (pointer, length) byte string with a NUL-terminated one. */
#define CHECK_MEM_STR(p, len, want) \
	do { const char *p_ = (const char *) (p); size_t l_ = (size_t) (len); const char *w_ = (want); \
		if (l_ != strlen(w_) || (l_ && memcmp(p_, w_, l_) != 0)) \
			UNIT_FAIL("%s: got \"%.*s\", want \"%s\"", #p, (int) (l_ > 200 ? 200 : l_), p_ ? p_ : "", w_); \
	} while (0)

#define CHECK_STR_EQ(a, b) \
	do { const char *a_ = (a), *b_ = (b); \
		if (a_ == NULL || b_ == NULL || strcmp(a_, b_) != 0) \
			UNIT_FAIL("%s == %s: got \"%s\", want \"%s\"", #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

/* Did the current case record a failure so far? */
#define UNIT_FAILED() (unit_state.failures > 0)

static int
unit_selected(const char *name, int argc, char **argv, int first)
{
	if (first >= argc)
		return 1;
	for (int i = first; i < argc; i++)
		if (strstr(name, argv[i]) != NULL)
			return 1;
	return 0;
}

static int
unit_main(const unit_case *cases, size_t ncases, int argc, char **argv)
{
	int			first = 1;
	int			list = 0;
	size_t		planned = 0;
	int			n = 0;
	int			passed = 0;
	int			failed = 0;

	/* line-buffered: keeps order with any stderr output of the code under test */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "-l") == 0)
	{
		list = 1;
		first = 2;
	}
	for (size_t i = 0; i < ncases; i++)
		if (unit_selected(cases[i].name, argc, argv, first))
		{
			if (list)
				printf("%s\n", cases[i].name);
			planned++;
		}
	if (list)
		return 0;

	printf("1..%zu\n", planned);
	for (size_t i = 0; i < ncases; i++)
	{
		if (!unit_selected(cases[i].name, argc, argv, first))
			continue;
		unit_state.failures = 0;
		if (unit_state.setup)
			unit_state.setup();
		cases[i].fn();
		if (unit_state.teardown)
			unit_state.teardown();
		n++;
		if (unit_state.failures == 0)
		{
			printf("ok %d - %s\n", n, cases[i].name);
			passed++;
		}
		else
		{
			int			shown = unit_state.failures < UNIT_MAX_DIAG ?
				unit_state.failures : UNIT_MAX_DIAG;

			printf("not ok %d - %s\n", n, cases[i].name);
			for (int d = 0; d < shown; d++)
				printf("# %s\n", unit_state.diag[d]);
			if (unit_state.failures > shown)
				printf("# ... and %d more failures\n", unit_state.failures - shown);
			failed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif							/* TFP_UNIT_H */
