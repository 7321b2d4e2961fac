/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/family.h"
#include "model/model_file.h"
#include "model/rowmodel.h"
#include "stream/optable.h"

/*
 * The model's inputs: the op signature, the row kind, the forward op and
 * the context args.
 */
static const short cols[] = {
	TL_COL_NAME, TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES,
	TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS, TL_COL_ROW_KIND,
	TL_COL_FWD_NAME, TL_COL_CONTEXT_ARGS
};

#define NCOLS (sizeof(cols) / sizeof(cols[0]))
#define RAW_BITS 10
#define RAW_SLOTS (1u << RAW_BITS)
#define RAW_MAX 4096		/* longer inputs are not kept */
#define ABSENT UINT32_MAX	/* a column the row lacks */

/* A slot: the bytes of the model inputs (per column u32 length, text). */
struct tl_rowraw {
	int64_t idx;		/* -1: none */
	uint64_t h;
	char *key;
	size_t n, cap;
};

void
tl_rowmodel_init(struct tl_rowmodel *m, struct tl_stream *s)
{
	memset(m, 0, sizeof(*m));
	tl_opargs_init(&m->args);
	tl_rr_init(&m->rr, s, cols,
	    (int)(sizeof(cols) / sizeof(cols[0])));
	tl_rr_need(&m->rr, TL_COL_NAME);
}

void
tl_rowmodel_free(struct tl_rowmodel *m)
{
	size_t i;

	tl_opargs_free(&m->args);
	free(m->opname);
	for (i = 0; i < m->seen.n; i++) {
		free(m->cache[i].model);
		tl_perf_free(&m->cache[i].p);
	}
	free(m->cache);
	for (i = 0; m->raw != NULL && i < RAW_SLOTS; i++)
		free(m->raw[i].key);
	free(m->raw);
	tl_strmap_free(&m->seen);
	tl_jb_free(&m->sig);
	tl_rr_free(&m->rr);
}

static int
model_row(struct tl_rowmodel *m, struct tl_perf *p, const char **model)
{
	const struct tl_rowreader *rr = &m->rr;
	const struct tl_opinfo *info;
	const char *name = tl_rr_text(rr, TL_COL_NAME), *family = NULL, *err;
	int bwd = 0, rc;
	size_t n;

	if (strcmp(tl_rr_text(rr, TL_COL_ROW_KIND), "backward") == 0) {
		/* An autograd wrapper: the forward op's backward model. */
		name = tl_rr_text(rr, TL_COL_FWD_NAME);
		info = tl_optable_find(name);
		if (info == NULL || !info->bwd_model) {
			tl_perf_reset(p);
			return 1;
		}
		family = info->model;
		bwd = 1;
	} else if (tl_filemodel_find(name) == NULL) {
		info = tl_optable_find(name);
		if (info != NULL)
			family = info->model[0] != '\0' ? info->model :
			    info->extra_model;
		if (family == NULL || family[0] == '\0') {
			tl_perf_reset(p);
			return 1;
		}
	}
	/*
	 * A trace recorded without shapes (record_shapes off, or the legacy
	 * profiler) gives no counts: never 0 or 1 from empty arguments.
	 */
	if (tl_rr_text(rr, TL_COL_INPUT_DIMS)[0] == '\0' &&
	    tl_rr_text(rr, TL_COL_CONTEXT_ARGS)[0] == '\0') {
		tl_perf_reset(p);
		rc = tl_perf_fail(p, "%s: the trace records no input shapes "
		    "(record_shapes off): not modelled", name);
		goto done;
	}
	n = strlen(name) + 1;
	tl_grow(&m->opname, &m->opcap, n, 1);
	memcpy(m->opname, name, n);
	if (tl_opargs_parse(&m->args, m->opname,
	    tl_rr_text(rr, TL_COL_INPUT_DIMS),
	    tl_rr_text(rr, TL_COL_INPUT_TYPES),
	    tl_rr_text(rr, TL_COL_INPUT_STRIDES),
	    tl_rr_text(rr, TL_COL_CONCRETE_INPUTS), &err) < 0 ||
	    tl_opargs_set_ctx(&m->args, tl_rr_text(rr, TL_COL_CONTEXT_ARGS),
	    &err) < 0) {
		tl_perf_reset(p);
		rc = tl_perf_fail(p, "arguments: %s", err);
	} else {
		rc = tl_perf_run(&m->args, family, bwd, p);
		if (rc == 1)
			family = NULL;
	}
done:
	if (family == NULL && rc != 1)
		family = "file";
	if (family != NULL && bwd) {
		snprintf(m->model, sizeof(m->model), "%s_bwd", family);
		family = m->model;
	}
	*model = family;
	return rc;
}

/* The current row's model inputs as the stream has them. */
struct rawrow {
	const char *s[NCOLS];
	uint32_t n[NCOLS];	/* ABSENT: a column the stream lacks */
};

/* Fill r from the current row: once, for the hash, compare and copy. */
static void
raw_fields(const struct tl_rowmodel *m, struct rawrow *r)
{
	size_t k;
	int i;

	for (k = 0; k < NCOLS; k++) {
		if ((i = m->rr.lpos[cols[k]]) < 0) {
			r->s[k] = "";
			r->n[k] = ABSENT;
		} else {
			r->s[k] = m->rr.in->f[i];
			r->n[k] = (uint32_t)m->rr.in->flen[i];
		}
	}
}

/*
 * The hash of the current row's model inputs; *len: their key's length.
 * A field's 16-byte steps are summed in two lanes (added, xored) and
 * mixed once, with its 8 bytes after them and its last 8: a multiply a
 * step would cost more than the lookup it serves (a collision only
 * costs a miss: raw_same compares the bytes).
 */
static uint64_t
raw_hash(const struct rawrow *r, size_t *len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull, v, a, b;
	const char *s;
	uint32_t n, j;
	size_t k;

	*len = 0;
	for (k = 0; k < NCOLS; k++) {
		n = r->n[k];
		s = r->s[k];
		h = (h ^ n) * 0xc2b2ae3d27d4eb4full;
		if (n == ABSENT)
			continue;
		*len += 4 + n;
		a = b = 0;
		for (j = 0; j + 16 <= n; j += 16) {
			memcpy(&v, s + j, 8);
			a += v;
			memcpy(&v, s + j + 8, 8);
			b ^= v;
		}
		if (j + 8 <= n) {
			memcpy(&v, s + j, 8);
			a ^= v * 0x9e3779b97f4a7c15ull;
		}
		if (n >= 8)	/* the last 8 bytes, overlapping */
			memcpy(&v, s + n - 8, 8);
		else
			for (v = 0; j < n; j++)
				v = v << 8 | (unsigned char)s[j];
		h = (h ^ v) * 0x165667b19e3779f9ull;
		h = (h ^ a ^ (b << 1 | b >> 63)) * 0x27d4eb2f165667c5ull;
		h ^= h >> 29;
	}
	return h;
}

/* 1 if a[0..n) and b[0..n) are the same: 8 to 16 bytes as two words. */
static inline int
same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y, u, v;

	if (n < 8 || n > 16)
		return n == 0 || memcmp(a, b, n) == 0;
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	memcpy(&u, a + n - 8, 8);
	memcpy(&v, b + n - 8, 8);
	return ((x ^ y) | (u ^ v)) == 0;
}

/* 1 if slot t holds the current row's model inputs. */
static int
raw_same(const struct rawrow *r, const struct tl_rowraw *t)
{
	const char *p = t->key;
	uint32_t n, kn;
	size_t k;

	for (k = 0; k < NCOLS; k++) {
		n = r->n[k];
		memcpy(&kn, p, 4);
		p += 4;
		if (kn != n)
			return 0;
		if (n == ABSENT)
			continue;
		if (!same_bytes(p, r->s[k], n))
			return 0;
		p += n;
	}
	return 1;
}

/* Keep the current row's model inputs in slot t, with cache index i. */
static void
raw_keep(const struct rawrow *r, struct tl_rowraw *t, uint64_t h,
    size_t len, int64_t i)
{
	uint32_t n;
	size_t k;
	char *p;

	len += 4 * NCOLS;	/* the absent ones' lengths too */
	tl_grow(&t->key, &t->cap, len, 1);
	for (p = t->key, k = 0; k < NCOLS; k++) {
		n = r->n[k];
		memcpy(p, &n, 4);
		p += 4;
		if (n != ABSENT) {
			memcpy(p, r->s[k], n);
			p += n;
		}
	}
	t->n = (size_t)(p - t->key);
	t->h = h;
	t->idx = i;
}

/*
 * Ops repeat by the thousand with the same arguments: the result is cached
 * by the row's model inputs (name, row kind, forward op, four argument
 * columns, context args), which the model is a pure function of.
 */
int
tl_rowmodel_run(struct tl_rowmodel *m, struct tl_perf *p, const char **model)
{
	struct tl_rowcache *c;
	struct tl_rowraw *t;
	struct rawrow r;
	int64_t i;
	uint64_t h;
	size_t len, k;
	int added = 0;

	tl_rr_fill(&m->rr);
	if (m->raw == NULL) {
		m->raw = tl_calloc(RAW_SLOTS, sizeof(*m->raw));
		for (k = 0; k < RAW_SLOTS; k++)
			m->raw[k].idx = -1;
	}
	raw_fields(m, &r);
	h = raw_hash(&r, &len);
	t = &m->raw[(h * 0x9e3779b97f4a7c15ull) >> (64 - RAW_BITS)];
	if (t->idx >= 0 && t->h == h && raw_same(&r, t))
		i = t->idx;
	else {
		tl_rr_sigkey(&m->rr, TL_SIGKEY_OP, &m->sig);
		tl_sig_more(&m->sig, tl_rr_text(&m->rr, TL_COL_ROW_KIND));
		tl_sig_more(&m->sig, tl_rr_text(&m->rr, TL_COL_FWD_NAME));
		tl_sig_more(&m->sig, tl_rr_text(&m->rr, TL_COL_CONTEXT_ARGS));
		i = tl_strmap_add(&m->seen, m->sig.s, m->sig.n, &added);
		if (len <= RAW_MAX)
			raw_keep(&r, t, h, len, i);
	}
	if (added) {
		const char *mod = NULL;

		tl_grow(&m->cache, &m->ncache, (size_t)i + 1, sizeof(*m->cache));
		c = &m->cache[i];
		c->rc = model_row(m, p, &mod);
		c->model = tl_strdup(mod != NULL ? mod : "");
		memset(&c->p, 0, sizeof(c->p));
		tl_perf_copy(&c->p, p);
		tl_perf_spec(&c->p, c->spec, sizeof(c->spec));
	}
	m->last = i;
	c = &m->cache[i];
	tl_perf_copy(p, &c->p);
	*model = c->rc == 1 ? NULL : c->model;
	return c->rc;
}
