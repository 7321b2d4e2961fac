/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/concrete.h"
#include "model/dtype.h"
#include "model/expr.h"

struct ev {
	const char *s, *p;
	const struct tl_opargs *o;	/* NULL: syntax check only */
	int skip;			/* > 0: parse only (a branch not taken) */
	char *err;
	size_t errlen;
	int failed;
	int depth;		/* nested expressions and unary operators */
};

/*
 * How deep parentheses, function arguments, '?:' branches and unary
 * operators may nest: the parser recurses once per level, and a model
 * file is input (no formula a person writes comes near).
 */
#define MAX_DEPTH 200


static int64_t expr(struct ev *e);

/* A syntax error, or a value error in a branch that is taken. */
static int64_t
fail(struct ev *e, const char *what)
{
	if (!e->failed)
		snprintf(e->err, e->errlen, "at column %d: %s",
		    (int)(e->p - e->s) + 1, what);
	e->failed = 1;
	return 0;
}

/*
 * A value error: ignored in a branch not taken (skip > 0), and in a
 * syntax check, where the values are stand-ins (functions give 1, a
 * division gives its left operand).
 */
static int64_t
value_fail(struct ev *e, const char *what)
{
	return e->skip > 0 || e->o == NULL ? 0 : fail(e, what);
}

static void
blank(struct ev *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static int
eat(struct ev *e, const char *tok)
{
	size_t n = strlen(tok);

	blank(e);
	if (strncmp(e->p, tok, n) != 0)
		return 0;
	e->p += n;
	return 1;
}

/* a op b for op one of + - *, checked. */
static int64_t
arith(struct ev *e, int op, int64_t a, int64_t b)
{
	int64_t r = 0;
	int over;

	if (op == '+')
		over = __builtin_add_overflow(a, b, &r);
	else if (op == '-')
		over = __builtin_sub_overflow(a, b, &r);
	else
		over = __builtin_mul_overflow(a, b, &r);
	return over ? value_fail(e, "overflow") : r;
}

/* Integer value of a concrete input's text, or of element j of a list. */
static int64_t
ci(struct ev *e, const char *s, int j)
{
	int64_t v, list[64];
	int n, t;

	if (j >= 0) {
		if ((n = tl_ci_ints(s, list, 64)) < 0)
			return value_fail(e, "ci(): concrete input is not a "
			    "list of integers");
		if (j >= n)
			return value_fail(e, "ci(): list too short");
		return list[j];
	}
	if ((t = tl_ci_truth(s)) >= 0)
		return t;
	if (tl_ci_int(s, &v) < 0)
		return value_fail(e, "ci(): concrete input is not an integer");
	return v;
}

static int64_t
call(struct ev *e, const char *name, size_t n)
{
	int64_t a[2] = { 0, 0 };
	int na = 0;
	const struct tl_arg *x;

	if (!eat(e, "("))
		return fail(e, "expected '(' after a function name");
	if (!eat(e, ")")) {
		do {
			if (na == 2)
				return fail(e, "too many arguments");
			a[na++] = expr(e);
		} while (eat(e, ","));
		if (!eat(e, ")"))
			return fail(e, "expected ')'");
	}
#define IS(lit) (n == sizeof(lit) - 1 && strncmp(name, lit, n) == 0)
	if (IS("min") || IS("max")) {
		if (na != 2)
			return fail(e, "min/max take two arguments");
		return IS("min") ? (a[0] < a[1] ? a[0] : a[1]) :
		    (a[0] > a[1] ? a[0] : a[1]);
	}
	if (!(IS("numel") || IS("dim") || IS("ndim") || IS("bpe") ||
	    IS("has") || IS("ci")))
		return fail(e, "unknown function");
	if (na != (IS("dim") ? 2 : 1) && !(IS("ci") && na == 2))
		return fail(e, "wrong number of arguments");
	if (e->o == NULL || e->failed || e->skip > 0)
		return 1;
	if (a[0] < 0 || a[0] > 100000)
		return value_fail(e, "argument slot out of range");
	x = tl_oparg(e->o, (int)a[0]);
	if (IS("has"))
		return tl_arg_is_tensor(x);
	if (IS("ci"))
		return ci(e, x->ci, na == 2 ? (int)a[1] : -1);
	if (!tl_arg_is_tensor(x))
		return value_fail(e, "argument slot is not a tensor");
	if (IS("numel")) {
		int64_t v = tl_arg_numel(x);

		return v < 0 ? value_fail(e, "bad shape") : v;
	}
	if (IS("ndim"))
		return x->nd;
	if (IS("bpe")) {
		int b = tl_dtype_bytes(x->type);

		return b == 0 ? value_fail(e, "unknown dtype") : b;
	}
	/* dim */
	if (a[1] < 0)
		a[1] += x->nd;
	if (a[1] < 0 || a[1] >= x->nd)
		return value_fail(e, "dim(): no such dimension");
	return x->dim[a[1]];
#undef IS
}

static int64_t
primary(struct ev *e)
{
	int64_t v;

	blank(e);
	if (eat(e, "(")) {
		v = expr(e);
		if (!eat(e, ")"))
			return fail(e, "expected ')'");
		return v;
	}
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		unsigned long long u = strtoull(e->p, &end, 10);

		if (u > INT64_MAX)
			return fail(e, "number too large");
		e->p = end;
		return (int64_t)u;
	}
	if (isalpha((unsigned char)*e->p) || *e->p == '_') {
		const char *name = e->p;

		while (isalnum((unsigned char)*e->p) || *e->p == '_')
			e->p++;
		return call(e, name, (size_t)(e->p - name));
	}
	return fail(e, *e->p == '\0' ? "unexpected end" :
	    "expected a number, a function or '('");
}

/* Enter one more level; 0 (and an error) past MAX_DEPTH. */
static int
deeper(struct ev *e)
{
	if (e->depth >= MAX_DEPTH) {
		fail(e, "nested too deep");
		return 0;
	}
	e->depth++;
	return 1;
}

static int64_t
unary(struct ev *e)
{
	int64_t v;

	if (e->failed || !deeper(e))
		return 0;
	if (eat(e, "-"))
		v = arith(e, '-', 0, unary(e));
	else if (eat(e, "!"))
		v = !unary(e);
	else
		v = primary(e);
	e->depth--;
	return v;
}

static int64_t
term(struct ev *e)
{
	int64_t v = unary(e), w;

	for (;;) {
		if (eat(e, "*")) {
			w = unary(e);
			v = arith(e, '*', v, w);
		} else if (eat(e, "/") || eat(e, "%")) {
			int mod = e->p[-1] == '%';

			w = unary(e);
			if (e->o == NULL || e->skip > 0)
				continue;
			if (w == 0 || (v == INT64_MIN && w == -1))
				return value_fail(e, "division by zero or overflow");
			v = mod ? v % w : v / w;
		} else
			return v;
	}
}

static int64_t
sum(struct ev *e)
{
	int64_t v = term(e), w;

	for (;;) {
		if (eat(e, "+")) {
			w = term(e);
			v = arith(e, '+', v, w);
		} else if (eat(e, "-")) {
			w = term(e);
			v = arith(e, '-', v, w);
		} else
			return v;
	}
}

static int64_t
cmp(struct ev *e)
{
	int64_t v = sum(e);

	if (eat(e, "<="))
		return v <= sum(e);
	if (eat(e, ">="))
		return v >= sum(e);
	if (eat(e, "=="))
		return v == sum(e);
	if (eat(e, "!="))
		return v != sum(e);
	if (eat(e, "<"))
		return v < sum(e);
	if (eat(e, ">"))
		return v > sum(e);
	return v;
}

/* Parse x with its value errors ignored when skip is set. */
#define MAYBE(e, skipit, x) ((e)->skip += (skipit), \
    tmp = (x), (e)->skip -= (skipit), tmp)

static int64_t
and(struct ev *e)
{
	int64_t v = cmp(e), tmp;

	while (eat(e, "&&")) {
		int64_t w = MAYBE(e, !v, cmp(e));

		v = v && w;
	}
	return v;
}

static int64_t
or(struct ev *e)
{
	int64_t v = and(e), tmp;

	while (eat(e, "||")) {
		int64_t w = MAYBE(e, v != 0, and(e));

		v = v || w;
	}
	return v;
}

static int64_t
expr(struct ev *e)
{
	int64_t c, a, b, tmp;

	if (e->failed || !deeper(e))
		return 0;
	c = or(e);
	if (eat(e, "?")) {
		a = MAYBE(e, !c, expr(e));
		if (!eat(e, ":"))
			c = fail(e, "expected ':'");
		else {
			b = MAYBE(e, c != 0, expr(e));
			c = c ? a : b;
		}
	}
	e->depth--;
	return c;
}

static int
run(const char *s, const struct tl_opargs *o, int64_t *v, char *err,
    size_t errlen)
{
	struct ev e = { s, s, o, 0, err, errlen, 0, 0 };
	int64_t r = expr(&e);

	blank(&e);
	if (!e.failed && *e.p != '\0')
		fail(&e, "unexpected text");
	if (e.failed)
		return -1;
	if (v != NULL)
		*v = r;
	return 0;
}

int
tl_expr_eval(const char *s, const struct tl_opargs *o, int64_t *v, char *err,
    size_t errlen)
{
	return run(s, o, v, err, errlen);
}

int
tl_expr_check(const char *s, char *err, size_t errlen)
{
	return run(s, NULL, NULL, err, errlen);
}
