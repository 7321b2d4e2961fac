/* See LICENSE file for copyright and license details. */
/*
 * What the perf-model unit tests (test_model_*.c) share, on top of
 * unit.h, which it includes.  One op at a time: run() parses its
 * arguments into o, as the profiler records them (Input Dims, Input type,
 * Concrete Inputs; a ' in them stands for " so that a vector may read as
 * TraceLens' CSVs do), with the context_args context() set, and runs a
 * model family on it into p.  Then:
 *
 *	exact()		tl's own counts, FLOPs and bytes;
 *	agrees()	a TraceLens row, GFLOPS and Data Moved (MB);
 *	fails()		a failure with a reason and no count;
 *	survives()	odd input: a count or a reason, never a crash;
 *	described()	the parameters, roof kind and precision.
 *
 * Each check says what the model gave when it fails.  The functions are
 * static inline, so that a test need not use them all.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/family.h"
#include "model/opargs.h"
#include "unit.h"

/* exact(): a count that is not checked. */
#define ANY	INT64_MIN

static struct tl_opargs o;
static struct tl_perf p;
static char *ctx_json;	/* context_args of the next runs, or NULL */

/* A copy of s with ' for ", or NULL for NULL. */
static inline char *
dq(const char *s)
{
	char *t, *q;

	if (s == NULL)
		return NULL;
	if ((t = malloc(strlen(s) + 1)) == NULL)
		abort();
	for (q = t; *s != '\0'; s++)
		*q++ = *s == '\'' ? '"' : *s;
	*q = '\0';
	return t;
}

/*
 * Parse the op's arguments (NULL or "": not recorded) and run family on
 * it, bwd for the backward pass of a forward op.  Returns tl_perf_run's
 * result, or -2 with p empty when the arguments do not parse.
 */
static inline int
run_strided(const char *family, int bwd, const char *name, const char *dims,
    const char *types, const char *strides, const char *ci)
{
	char *d = dq(dims), *t = dq(types), *s = dq(strides), *c = dq(ci);
	const char *err = NULL;
	int rc = -2;

	if (tl_opargs_parse(&o, name, d, t, s, c, &err) == 0 &&
	    tl_opargs_set_ctx(&o, ctx_json, &err) == 0)
		rc = tl_perf_run(&o, family, bwd, &p);
	else {
		tl_perf_reset(&p);
		printf("parse %s: %s\n", name, err);
	}
	free(d);
	free(t);
	free(s);
	free(c);
	return rc;
}

/*
 * The context_args of the runs that follow (' for " as above); NULL: none.
 */
static inline void
context(const char *json)
{
	free(ctx_json);
	ctx_json = dq(json);
}

/* Free what model.h holds; the test's exit status (unit_done). */
static inline int
model_done(const char *test)
{
	tl_opargs_free(&o);
	tl_perf_free(&p);
	free(ctx_json);
	ctx_json = NULL;
	return unit_done(test);
}

/* run_strided() without strides. */
static inline int
run(const char *family, int bwd, const char *name, const char *dims,
    const char *types, const char *ci)
{
	return run_strided(family, bwd, name, dims, types, NULL, ci);
}

/* a equals b within 1e-9, relative. */
static inline int
near(double a, double b)
{
	return a == b || fabs(a - b) <= 1e-9 * fabs(b);
}

/* s, or "" for NULL. */
static inline const char *
str(const char *s)
{
	return s != NULL ? s : "";
}

/* The parameters, roof kind and precision p has; NULL: not checked. */
static inline void
described(const char *params, const char *maf, const char *precision)
{
	if (params != NULL)
		CHECK_STR(p.params.s, params);
	if (maf != NULL)
		CHECK_STR(str(p.maf), maf);
	if (precision != NULL)
		CHECK_STR(str(p.precision), precision);
}

/* After a failed check: the op and what the model gave. */
static inline void
said(const char *name, const char *dims, const char *ci, int rc)
{
	printf("  %s %s%s%s: rc %d \"%s\": %lld flops, %lld bytes\n", name,
	    str(dims), ci != NULL && *ci != '\0' ? " " : "", str(ci), rc,
	    p.err, (long long)p.flops, (long long)p.bytes);
}

/* tl's exact counts; bytes -1: unknown; ANY: not checked. */
static inline void
exact(const char *family, int bwd, const char *name, const char *dims,
    const char *types, const char *ci, int64_t flops, int64_t bytes)
{
	int rc = run(family, bwd, name, dims, types, ci), fail = unit_fail;

	CHECK(rc == 0);
	if (flops != ANY)
		CHECK(p.has_flops && p.flops == flops);
	if (bytes == -1)
		CHECK(!p.has_bytes);
	else if (bytes != ANY)
		CHECK(p.has_bytes && p.bytes == bytes);
	if (unit_fail != fail)
		said(name, dims, ci, rc);
}

/* A TraceLens row: GFLOPS = flops/1e9, Data Moved (MB) = bytes/2^20. */
static inline void
agrees(const char *family, int bwd, const char *name, const char *dims,
    const char *types, const char *ci, double gflops, double mb)
{
	int rc = run(family, bwd, name, dims, types, ci), fail = unit_fail;

	CHECK(rc == 0);
	CHECK(p.has_flops && near((double)p.flops / 1e9, gflops));
	CHECK(p.has_bytes && near((double)p.bytes / 1048576.0, mb));
	if (unit_fail != fail)
		said(name, dims, ci, rc);
}

/* The model fails, with a message that contains part. */
static inline void
fails(const char *family, int bwd, const char *name, const char *dims,
    const char *types, const char *ci, const char *part)
{
	int rc = run(family, bwd, name, dims, types, ci), fail = unit_fail;

	CHECK(rc == -1 && !p.has_flops && !p.has_bytes);
	CHECK(strstr(p.err, part) != NULL);
	if (unit_fail != fail) {
		said(name, dims, ci, rc);
		printf("  wanted \"%s\"\n", part);
	}
}

/* Odd input: a count, or a failure that says why. */
static inline void
survives(const char *family, int bwd, const char *name, const char *dims,
    const char *types, const char *ci)
{
	int rc = run(family, bwd, name, dims, types, ci);

	CHECK(rc == 0 || (rc == -1 && p.err[0] != '\0'));
}
