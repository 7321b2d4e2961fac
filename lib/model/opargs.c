/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "model/concrete.h"
#include "model/opargs.h"

static const struct tl_arg empty_arg = { TL_ARG_EMPTY, 0, { 0 }, -1, { 0 },
    "", "" };

void
tl_opargs_init(struct tl_opargs *o)
{
	memset(o, 0, sizeof(*o));
}

void
tl_opargs_free(struct tl_opargs *o)
{
	free(o->a);
	free(o->buf);
	free(o->ctx);
	memset(o, 0, sizeof(*o));
}

const struct tl_arg *
tl_oparg(const struct tl_opargs *o, int i)
{
	return i >= 0 && i < o->n ? &o->a[i] : &empty_arg;
}

int
tl_arg_is_tensor(const struct tl_arg *a)
{
	return a->kind != TL_ARG_LIST && a->type[0] != '\0' &&
	    strcmp(a->type, "Scalar") != 0 && strcmp(a->type, "ScalarList") != 0 &&
	    strcmp(a->type, "TensorList") != 0;
}

int
tl_arg_maybe_tensor(const struct tl_arg *a)
{
	return tl_arg_is_tensor(a) ||
	    (a->kind == TL_ARG_SHAPE && a->type[0] == '\0');
}

int64_t
tl_arg_numel(const struct tl_arg *a)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < a->nd; i++) {
		if (a->dim[i] < 0 ||
		    __builtin_mul_overflow(n, a->dim[i], &n))
			return -1;
	}
	return n;
}

/* Make room for n slots, new ones empty. */
static void
ensure(struct tl_opargs *o, int n)
{
	size_t cap = (size_t)o->cap;

	if (n <= o->n)
		return;
	tl_grow(&o->a, &cap, (size_t)n, sizeof(*o->a));
	o->cap = (int)cap;
	while (o->n < n) {
		o->a[o->n] = empty_arg;
		o->a[o->n].type = NULL;	/* fixed up at the end */
		o->a[o->n].ci = NULL;
		o->n++;
	}
}

/* Copy a decoded string into the storage; return its offset + 1. */
static size_t
store(struct tl_opargs *o, const char *s, size_t len)
{
	size_t off = o->buflen;

	tl_grow(&o->buf, &o->bufcap, o->buflen + len + 1, 1);
	o->buflen += tl_json_unescape(o->buf + off, s, len) + 1;
	return off + 1;
}

/* Read an array of ints at token t into v; count or -1. */
static int
ints(const struct tl_json *j, int t, int64_t *v)
{
	int k, n = tl_json_size(j, t), c = t + 1;

	if (n > TL_MAXDIM)
		return -1;
	for (k = 0; k < n; k++) {
		size_t len;
		const char *s;

		if (tl_json_type(j, c) != TL_J_PRIM)
			return -1;
		s = tl_json_text(j, c, &len);
		if (tl_parse_i64(s, len, &v[k]) != 0)
			return -1;
		c = tl_json_next(j, c);
	}
	return n;
}

/* Parse text as a JSON array; 0, or -1 with *err set. */
static int
parse_list(struct tl_json *j, const char *text, const char **err)
{
	if (tl_json_parse(j, text, strlen(text), err) < 0)
		return -1;
	if (tl_json_type(j, 0) != TL_J_ARRAY) {
		*err = "not a JSON list";
		return -1;
	}
	return 0;
}

/* Parse column col's text as a JSON array; 0, or -1 with *err set. */
static int
array(struct tl_json *j, const char *col, const char *text, const char **err)
{
	static char msg[96];
	const char *e = NULL;

	if (parse_list(j, text, &e) == 0)
		return 0;
	snprintf(msg, sizeof(msg), "%s: %s", col, e);
	*err = msg;
	return -1;
}

static int
has(const char *s)
{
	return s != NULL && s[0] != '\0';
}

int
tl_opargs_parse(struct tl_opargs *o, const char *name, const char *dims,
    const char *types, const char *strides, const char *concrete,
    const char **err)
{
	static struct tl_json j;
	static int init;
	size_t *toff = NULL, *coff = NULL;
	int i, n, c, rc = -1;

	if (!init) {
		tl_json_init(&j);
		init = 1;
	}
	o->name = name;
	o->n = 0;
	o->buflen = 0;
	if (has(dims)) {
		if (array(&j, "input_dims", dims, err) < 0)
			goto fail;
		n = tl_json_size(&j, 0);
		ensure(o, n);
		for (i = 0, c = 1; i < n; i++, c = tl_json_next(&j, c)) {
			struct tl_arg *a = &o->a[i];
			int k, nested = 0;

			if (tl_json_type(&j, c) != TL_J_ARRAY) {
				*err = "input_dims: an element is not a list";
				goto fail;
			}
			for (k = 0; k < tl_json_size(&j, c); k++)
				if (tl_json_type(&j, c + 1 + k) != TL_J_PRIM)
					nested = 1;
			if (nested) {
				a->kind = TL_ARG_LIST;
				continue;
			}
			a->nd = ints(&j, c, a->dim);
			if (a->nd < 0) {
				*err = "input_dims: a shape is not a list of integers";
				goto fail;
			}
			a->kind = a->nd > 0 ? TL_ARG_SHAPE : TL_ARG_EMPTY;
		}
	}
	if (has(strides)) {
		if (array(&j, "input_strides", strides, err) < 0)
			goto fail;
		n = tl_json_size(&j, 0);
		ensure(o, n);
		for (i = 0, c = 1; i < n; i++, c = tl_json_next(&j, c)) {
			int k, nested = 0;

			if (tl_json_type(&j, c) != TL_J_ARRAY)
				continue;
			for (k = 0; k < tl_json_size(&j, c); k++)
				if (tl_json_type(&j, c + 1 + k) != TL_J_PRIM)
					nested = 1;
			if (!nested)
				o->a[i].nst = ints(&j, c, o->a[i].st);
		}
	}
	toff = tl_calloc((size_t)o->n + 1, sizeof(*toff));
	coff = tl_calloc((size_t)o->n + 1, sizeof(*coff));
	for (int pass = 0; pass < 2; pass++) {
		const char *text = pass == 0 ? types : concrete;
		size_t *off;

		if (!has(text))
			continue;
		if (array(&j, pass == 0 ? "input_types" : "concrete_inputs", text, err) < 0)
			goto fail;
		n = tl_json_size(&j, 0);
		if (n > o->n) {
			size_t old = (size_t)o->n + 1, add = (size_t)(n - o->n);

			ensure(o, n);
			toff = tl_realloc(toff, ((size_t)n + 1) * sizeof(*toff));
			coff = tl_realloc(coff, ((size_t)n + 1) * sizeof(*coff));
			memset(toff + old, 0, add * sizeof(*toff));
			memset(coff + old, 0, add * sizeof(*coff));
		}
		off = pass == 0 ? toff : coff;
		for (i = 0, c = 1; i < n; i++, c = tl_json_next(&j, c)) {
			size_t len;
			const char *s = tl_json_text(&j, c, &len);

			off[i] = 0;
			if (tl_json_type(&j, c) == TL_J_STRING)
				off[i] = store(o, s, len);
			else if (tl_json_type(&j, c) == TL_J_PRIM &&
			    !(len == 4 && memcmp(s, "null", 4) == 0))
				off[i] = store(o, s, len);
		}
		for (; i < o->n; i++)
			off[i] = 0;
	}
	for (i = 0; i < o->n; i++) {
		o->a[i].type = has(types) && toff[i] ? o->buf + toff[i] - 1 : "";
		o->a[i].ci = has(concrete) && coff[i] ? o->buf + coff[i] - 1 : "";
	}
	rc = 0;
fail:
	if (rc != 0)
		o->n = 0;
	free(toff);
	free(coff);
	return rc;
}

int
tl_opargs_set_ctx(struct tl_opargs *o, const char *json, const char **err)
{
	struct tl_json j;
	int rc = 0;

	if (o->ctx != NULL)
		o->ctx[0] = '\0';
	if (!has(json))
		return 0;
	tl_json_init(&j);
	if (tl_json_parse(&j, json, strlen(json), err) < 0)
		rc = -1;
	else if (tl_json_type(&j, 0) != TL_J_OBJECT) {
		*err = "context_args: not a JSON object";
		rc = -1;
	}
	tl_json_free(&j);
	if (rc == 0) {
		tl_grow(&o->ctx, &o->ctxcap, strlen(json) + 1, 1);
		memcpy(o->ctx, json, strlen(json) + 1);
	}
	return rc;
}

/*
 * The text of member key of the context args into buf[n] when it is of
 * type want: 0, 1 absent, -1 another type or too long.
 */
static int
ctx_text(const struct tl_opargs *o, const char *key, enum tl_jtype want,
    char *buf, size_t n)
{
	struct tl_json j;
	const char *s, *err;
	size_t len;
	int t, rc = 1;

	tl_json_init(&j);
	if (o->ctx != NULL && o->ctx[0] != '\0' &&
	    tl_json_parse(&j, o->ctx, strlen(o->ctx), &err) > 0 &&
	    (t = tl_json_get(&j, 0, key, strlen(key))) >= 0) {
		s = tl_json_text(&j, t, &len);
		rc = -1;
		if (tl_json_type(&j, t) == want && len < n) {
			memcpy(buf, s, len);
			buf[len] = '\0';
			rc = 0;
		}
	}
	tl_json_free(&j);
	return rc;
}

int
tl_ctx_int(const struct tl_opargs *o, const char *key, int64_t *v)
{
	char b[32];
	int rc = ctx_text(o, key, TL_J_PRIM, b, sizeof(b));

	if (rc != 0)
		return rc;
	if (strcmp(b, "true") == 0 || strcmp(b, "false") == 0)
		*v = b[0] == 't';
	else if (tl_parse_i64(b, strlen(b), v) != 0)
		return -1;
	return 0;
}

int
tl_ctx_str(const struct tl_opargs *o, const char *key, char *buf, size_t n)
{
	return ctx_text(o, key, TL_J_STRING, buf, n);
}

int
tl_ctx_ints(const struct tl_opargs *o, const char *key, int64_t *v, int max)
{
	char b[256];

	if (ctx_text(o, key, TL_J_ARRAY, b, sizeof(b)) != 0)
		return -1;
	return tl_ci_ints(b, v, max);
}
