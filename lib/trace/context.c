/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "stream/optable.h"
#include "trace/context.h"

#define TOPK_DEPTH 10		/* levels searched under an MoE op */
#define STEP_BACK 8		/* earlier annotations tried around an op */

static const char *const keys[8] = {
	"c_sq", "c_sk", "c_sqsq", "c_sqsk", "g_sq", "g_sk", "g_sqsq", "g_sqsk"
};

/* Skip the literal lit at *s: 1, or 0 (s unchanged). */
static int
lit(const char **s, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*s, lit, n) != 0)
		return 0;
	*s += n;
	return 1;
}

/* Read a decimal integer at *s (at most 18 digits): 1, or 0. */
static int
num(const char **s, int64_t *v)
{
	const char *p = *s;
	int64_t x = 0;

	if (!isdigit((unsigned char)*p))
		return 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (p - *s >= 18)
			return 0;
		x = x * 10 + (*p - '0');
	}
	*v = x;
	*s = p;
	return 1;
}

/* "(sqAskBsqsqCsqskD)" into v[0..3]. */
static int
sums(const char **s, int64_t *v)
{
	return lit(s, "(sq") && num(s, &v[0]) && lit(s, "sk") &&
	    num(s, &v[1]) && lit(s, "sqsq") && num(s, &v[2]) &&
	    lit(s, "sqsk") && num(s, &v[3]) && lit(s, ")");
}

/*
 * vLLM: execute_T_context_R(sq..)_generation_R(sq..) (detailed) or
 * execute_context_R(N)_generation_R(N) (native), a prefix of s.
 */
static int
vllm(const char *s, struct tl_stepinfo *si)
{
	const char *p = s;
	int64_t x, n[2];

	if (lit(&p, "execute_") && num(&p, &x) && lit(&p, "_context_") &&
	    num(&p, &si->ctx_reqs) && sums(&p, si->v) &&
	    lit(&p, "_generation_") && num(&p, &si->gen_reqs) &&
	    sums(&p, si->v + 4)) {
		si->detailed = 1;
		si->tokens = si->v[0] + si->v[4];
		return 1;
	}
	p = s;
	if (lit(&p, "execute_context_") && num(&p, &si->ctx_reqs) &&
	    lit(&p, "(") && num(&p, &n[0]) && lit(&p, ")_generation_") &&
	    num(&p, &si->gen_reqs) && lit(&p, "(") && num(&p, &n[1]) &&
	    lit(&p, ")")) {
		memset(si->v, 0, sizeof(si->v));
		si->tokens = n[0] + n[1];
		return 1;
	}
	si->ctx_reqs = si->gen_reqs = -1;
	p = s;
	if (lit(&p, "execute_diffusion_") && num(&p, &si->batch) &&
	    lit(&p, "_") && num(&p, &x) && lit(&p, "x") && num(&p, &x)) {
		si->fmt = TL_STEP_DIFFUSION;
		return 1;
	}
	return 0;
}

/*
 * The integer after "key=" in body[0..n), where key starts the body or
 * follows a blank or '['; 1, or 0 when absent or not a number.
 */
static int
kv(const char *body, size_t n, const char *key, int64_t *v)
{
	size_t k = strlen(key), i;

	for (i = 0; i + k + 1 < n; i++) {
		const char *p = body + i;

		if ((i == 0 || body[i - 1] == ' ' || body[i - 1] == '[') &&
		    strncmp(p, key, k) == 0 && p[k] == '=') {
			p += k + 1;
			return num(&p, v);
		}
	}
	return 0;
}

/* The bracketed body of "word[...]" at s: its start and length. */
static int
bracket(const char *s, const char *word, const char **body, size_t *n)
{
	const char *e;

	if (!lit(&s, word) || !lit(&s, "[") ||
	    (e = strrchr(s, ']')) == NULL)
		return 0;
	*body = s;
	*n = (size_t)(e - s);
	return 1;
}

/*
 * SGLang: step[EXTEND|DECODE|MIXED bs=B ...], detailed when it has
 * c_sqsq or g_sqsq (absent sums are 0).  The mode word is the phase.
 */
static int
sglang(const char *s, struct tl_stepinfo *si)
{
	static const char *const modes[] = { "EXTEND", "DECODE", "MIXED" };
	static const int phases[] = {
		TL_PHASE_PREFILL, TL_PHASE_DECODE, TL_PHASE_MIXED
	};
	const char *b;
	size_t n, m;
	int64_t bs, toks;
	int i, mode;

	if (!bracket(s, "step", &b, &n))
		return 0;
	for (mode = 0; mode < 3; mode++) {
		m = strlen(modes[mode]);
		if (n >= m && strncmp(b, modes[mode], m) == 0 &&
		    (n == m || (!isalnum((unsigned char)b[m]) && b[m] != '_')))
			break;
	}
	if (mode == 3)
		return 0;
	si->phase = phases[mode];
	for (i = 0; i < 8; i++) {
		if (!kv(b, n, keys[i], &si->v[i]))
			si->v[i] = 0;
		else if (i == 2 || i == 6)
			si->detailed = 1;
	}
	if (!kv(b, n, "bs", &bs))
		bs = -1;
	si->batch = bs;
	if (mode == 0)
		si->ctx_reqs = bs, si->gen_reqs = 0;
	else if (mode == 1)
		si->ctx_reqs = 0, si->gen_reqs = bs;
	else if (!kv(b, n, "c", &si->ctx_reqs) ||
	    !kv(b, n, "g", &si->gen_reqs))
		si->ctx_reqs = si->gen_reqs = -1;
	if (si->detailed && si->v[0] + si->v[4] > 0)
		si->tokens = si->v[0] + si->v[4];
	else if (kv(b, n, "toks", &toks))
		si->tokens = toks;
	else if (mode == 1)
		si->tokens = bs;	/* one query token per request */
	return 1;
}

/*
 * ATOM: prefill[bs=B tok=T ...] or decode[bs=B tok=T p=P d=D ...],
 * detailed when it has sqsq and sqsk.  A decode step with P > 0 prefill
 * requests is mixed.  B may be "117/128" (the real batch, then the
 * graph's).
 */
static int
atom(const char *s, struct tl_stepinfo *si)
{
	const char *b;
	size_t n;
	int64_t *w = si->v, p, d;

	if (bracket(s, "prefill", &b, &n)) {
		si->phase = TL_PHASE_PREFILL;
	} else if (bracket(s, "decode", &b, &n)) {
		si->phase = TL_PHASE_DECODE;
		w = si->v + 4;
	} else
		return 0;
	if (kv(b, n, "sqsq", &w[2]) && kv(b, n, "sqsk", &w[3])) {
		si->detailed = 1;
		if (!kv(b, n, "tok", &w[0]))
			w[0] = 0;
		if (!kv(b, n, "sk", &w[1]))
			w[1] = 0;
	} else
		memset(si->v, 0, sizeof(si->v));
	if (!kv(b, n, "bs", &si->batch))
		si->batch = -1;
	if (!kv(b, n, "tok", &si->tokens))
		si->tokens = -1;
	if (si->phase == TL_PHASE_PREFILL) {
		si->ctx_reqs = si->batch;
		si->gen_reqs = 0;
	} else if (kv(b, n, "p", &p) && p > 0) {
		si->phase = TL_PHASE_MIXED;
		si->ctx_reqs = p;
		si->gen_reqs = kv(b, n, "d", &d) ? d :
		    si->batch >= p ? si->batch - p : -1;
	} else {
		si->ctx_reqs = 0;
		si->gen_reqs = si->batch;
	}
	return 1;
}

const char *const tl_phase_names[4] = { "", "prefill", "decode", "mixed" };

int
tl_step_info(const char *name, struct tl_stepinfo *si)
{
	int ok;

	memset(si, 0, sizeof(*si));
	si->tokens = si->batch = -1;
	if (strncmp(name, "execute_", 8) == 0) {
		si->fmt = TL_STEP_VLLM;
		ok = vllm(name, si);
	} else if (strncmp(name, "step[", 5) == 0) {
		si->fmt = TL_STEP_SGLANG;
		ok = sglang(name, si);
	} else {
		si->fmt = TL_STEP_ATOM;
		ok = atom(name, si);
	}
	if (!ok) {
		memset(si, 0, sizeof(*si));
		si->tokens = si->batch = si->ctx_reqs = si->gen_reqs = -1;
		return 0;
	}
	if (si->phase == TL_PHASE_NONE && si->ctx_reqs >= 0 &&
	    si->gen_reqs >= 0)
		si->phase = si->ctx_reqs > 0 && si->gen_reqs > 0 ?
		    TL_PHASE_MIXED : si->ctx_reqs > 0 ? TL_PHASE_PREFILL :
		    si->gen_reqs > 0 ? TL_PHASE_DECODE : TL_PHASE_NONE;
	return 1;
}

int
tl_step_parse(const char *name, int64_t v[8])
{
	struct tl_stepinfo si;

	if (!tl_step_info(name, &si) || !si.detailed)
		return 0;
	memcpy(v, si.v, sizeof(si.v));
	return 1;
}

static const struct tl_trace *sort_t;

static int
cmp_steps(const void *a, const void *b)
{
	return tl_ev_cmp_thread(&sort_t->ev[*(const int *)a],
	    &sort_t->ev[*(const int *)b]);
}

void
tl_steps_find(const struct tl_trace *t, struct tl_steps *s)
{
	size_t i, k, n, cap = 0, nstr = tl_strtab_count(t->str);
	/* By name id: 1 if it is not a step's (parsed once a name). */
	unsigned char *no = tl_calloc(nstr + 1, 1);
	int64_t v[8];
	const int32_t *sp = tl_ev_sparse(t, &n);

	memset(s, 0, sizeof(*s));
	for (k = 0; k < n; k++) {
		const struct tl_event *e;

		i = sp != NULL ? (size_t)sp[k] : k;
		e = &t->ev[i];
		if (e->kind != TL_EV_ANNOTATION ||
		    (e->name < nstr && no[e->name]))
			continue;
		if (!tl_step_parse(tl_ev_name(t, e), v)) {
			if (e->name < nstr)
				no[e->name] = 1;
			continue;
		}
		tl_grow(&s->ev, &cap, s->n + 1, sizeof(*s->ev));
		s->ev[s->n++] = (int)i;
	}
	free(no);
	if (s->n == 0)
		return;
	sort_t = t;
	qsort(s->ev, s->n, sizeof(*s->ev), cmp_steps);
	s->v = tl_malloc(s->n * sizeof(*s->v));
	for (i = 0; i < s->n; i++)
		tl_step_parse(tl_ev_name(t, &t->ev[s->ev[i]]), s->v[i]);
}

void
tl_steps_free(struct tl_steps *s)
{
	free(s->ev);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

long
tl_step_of(const struct tl_trace *t, const struct tl_steps *s, int i)
{
	const struct tl_event *e = &t->ev[i];
	size_t lo = 0, hi = s->n, k;

	/* The first annotation after e in (thread, ts) order. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tl_event *a = &t->ev[s->ev[mid]];

		if (a->thread < e->thread || (a->thread == e->thread &&
		    a->ts <= e->ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k-- > 0 && lo - k <= STEP_BACK;) {
		const struct tl_event *a = &t->ev[s->ev[k]];

		if (a->thread != e->thread)
			break;
		if (a->ts + a->dur >= e->ts)
			return (long)k;
	}
	return -1;
}

/* k of TopK (its concrete input 1) under op, within depth levels; or -1. */
static int64_t
topk_under(const struct tl_trace *t, int op, int depth)
{
	int ch;

	if (depth > TOPK_DEPTH)
		return -1;
	for (ch = t->ev[op].child; ch >= 0; ch = t->ev[ch].sibling) {
		const struct tl_event *e = &t->ev[ch];
		int64_t k;

		if (e->kind != TL_EV_CPU_OP)
			continue;
		if (strstr(tl_ev_name(t, e), "TopK") != NULL) {
			struct tl_args a;
			struct tl_json j;
			const char *err, *s;
			size_t len;

			tl_ev_args(t, e, &a);
			s = tl_str(t->str, a.concrete);
			tl_json_init(&j);
			k = -1;
			if (tl_json_parse(&j, s, strlen(s), &err) > 0 &&
			    tl_json_type(&j, 0) == TL_J_ARRAY &&
			    tl_json_size(&j, 0) > 1 &&
			    tl_json_type(&j, tl_json_next(&j, 1)) ==
			    TL_J_STRING) {
				s = tl_json_text(&j, tl_json_next(&j, 1), &len);
				if (tl_parse_i64(s, len, &k) != 0 || k < 1)
					k = -1;
			}
			tl_json_free(&j);
			if (k > 0)
				return k;
		}
		if ((k = topk_under(t, ch, depth + 1)) > 0)
			return k;
	}
	return -1;
}

static void
member(struct tl_jbuf *b, const char *key)
{
	tl_jb_lit(b, b->n > 1 ? ",\"" : "\"");
	tl_jb_lit(b, key);
	tl_jb_lit(b, "\":");
}

/* The MoE pseudo-op's top-k, gate and weight dtype. */
static void
moe(const struct tl_trace *t, const struct tl_rows *rows,
    const struct tl_row *r, struct tl_jbuf *b)
{
	const char *k = r->ngpu > 0 ?
	    tl_ev_name(t, &t->ev[tl_row_gpu(rows, r)[0]]) : "";
	int64_t topk = topk_under(t, r->op, 0);

	if (topk > 0) {
		member(b, "topk");
		tl_jb_int(b, topk);
	}
	member(b, "gated");
	tl_jb_lit(b, tl_contains_ci(k, "_swiglu") || tl_contains_ci(k, "_glu") ? "true" : "false");
	if (tl_contains_ci(k, "fp4")) {
		member(b, "weight_dtype");
		tl_jb_str(b, "fp4");
	} else if (tl_contains_ci(k, "fp8") || tl_contains_ci(k, "e4m3")) {
		member(b, "weight_dtype");
		tl_jb_str(b, "fp8");
	}
}

#define SHAPE_MAX 8

/*
 * Shape k (0-based) of a JSON array of shapes into d: its rank, or -1
 * when it is not an array of integers.
 */
static int
shape_at(const struct tl_json *j, int k, int64_t *d)
{
	int tok = 1, i, n, e;
	const char *s;
	size_t len;

	if (tl_json_type(j, 0) != TL_J_ARRAY || tl_json_size(j, 0) <= k)
		return -1;
	while (k-- > 0)
		tok = tl_json_next(j, tok);
	if (tl_json_type(j, tok) != TL_J_ARRAY ||
	    (n = tl_json_size(j, tok)) > SHAPE_MAX)
		return -1;
	for (i = 0, e = tok + 1; i < n; i++, e = tl_json_next(j, e)) {
		s = tl_json_text(j, e, &len);
		if (tl_json_type(j, e) != TL_J_PRIM ||
		    tl_parse_i64(s, len, &d[i]) != 0)
			return -1;
	}
	return n;
}

/* Shape k of the JSON text s; the rank or -1. */
static int
shape_of(const char *s, int k, int64_t *d)
{
	struct tl_json j;
	const char *err;
	int n = -1;

	tl_json_init(&j);
	if (tl_json_parse(&j, s, strlen(s), &err) > 0)
		n = shape_at(&j, k, d);
	tl_json_free(&j);
	return n;
}

/* 1 if the concrete inputs (JSON text) record stride, argument 3. */
static int
has_stride(const char *s)
{
	struct tl_json j;
	const char *err;
	size_t len;
	int tok = 1, k, r = 0;

	tl_json_init(&j);
	if (tl_json_parse(&j, s, strlen(s), &err) > 0 &&
	    tl_json_type(&j, 0) == TL_J_ARRAY && tl_json_size(&j, 0) > 3) {
		for (k = 0; k < 3; k++)
			tok = tl_json_next(&j, tok);
		(void)tl_json_text(&j, tok, &len);
		r = !(tl_json_type(&j, tok) == TL_J_STRING && len == 0);
	}
	tl_json_free(&j);
	return r;
}

/*
 * The op after event top on its thread: its next sibling cpu_op, or for a
 * root the first root cpu_op of its thread that starts when it ends.
 */
static int
next_op(const struct tl_trace *t, int top)
{
	const struct tl_event *e = &t->ev[top];
	int64_t end = e->ts + e->dur;
	size_t i;
	int best = -1;

	if (e->parent >= 0) {
		for (i = (size_t)e->sibling; (int)i >= 0;
		    i = (size_t)t->ev[i].sibling)
			if (t->ev[i].kind == TL_EV_CPU_OP)
				return (int)i;
		return -1;
	}
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *c = &t->ev[i];

		if (c->kind == TL_EV_CPU_OP && (c->flags & TL_F_ROOT) &&
		    c->thread == e->thread && c->ts >= end &&
		    (best < 0 || c->ts < t->ev[best].ts))
			best = (int)i;
	}
	return best;
}

/*
 * A convolution whose trace does not record its stride (no concrete
 * inputs): its output shape is the input of the op that consumes it, the
 * next op on its thread after the convolution call (aten::conv2d, ...),
 * when that op's first input has the convolution's rank, batch and the
 * weight's output channels.  The model checks the rest.
 */
static void
conv_out(const struct tl_trace *t, const struct tl_row *r, struct tl_jbuf *b)
{
	struct tl_args a, ca;
	int64_t x[SHAPE_MAX], w[SHAPE_MAX], o[SHAPE_MAX];
	int top = r->op, nx, nxt, k;

	tl_ev_args(t, &t->ev[r->op], &a);
	if (a.concrete != 0 && has_stride(tl_str(t->str, a.concrete)))
		return;
	if (a.dims == 0 ||
	    (nx = shape_of(tl_str(t->str, a.dims), 0, x)) < 3 ||
	    shape_of(tl_str(t->str, a.dims), 1, w) != nx)
		return;
	while (t->ev[top].parent >= 0 &&
	    t->ev[t->ev[top].parent].kind == TL_EV_CPU_OP &&
	    strncmp(tl_ev_name(t, &t->ev[t->ev[top].parent]), "aten::conv",
	    10) == 0)
		top = t->ev[top].parent;
	if ((nxt = next_op(t, top)) < 0)
		return;
	tl_ev_args(t, &t->ev[nxt], &ca);
	if (ca.dims == 0 || shape_of(tl_str(t->str, ca.dims), 0, o) != nx ||
	    o[0] != x[0] || o[1] != w[0])
		return;
	for (k = 2; k < nx; k++)
		if (o[k] < 1)
			return;
	member(b, "conv_out");
	tl_jb_lit(b, "[");
	for (k = 0; k < nx; k++) {
		if (k > 0)
			tl_jb_lit(b, ",");
		tl_jb_int(b, o[k]);
	}
	tl_jb_lit(b, "]");
}

void
tl_context_args(const struct tl_trace *t, const struct tl_steps *s,
    const struct tl_rows *rows, const struct tl_row *r, struct tl_jbuf *b)
{
	const char *name = r->name != NULL ? r->name :
	    tl_ev_name(t, &t->ev[r->op]);
	const struct tl_opinfo *o;
	size_t len;
	long st;
	int k;

	tl_jb_reset(b);
	tl_jb_lit(b, "{");
	len = b->n;
	if (strncmp(name, "pseudo_op::moe_triton_unfused_", 30) == 0 &&
	    strstr(name, "finalize") == NULL)
		moe(t, rows, r, b);
	if (strcmp(name, "aten::convolution") == 0 && r->name == NULL)
		conv_out(t, r, b);
	/* The op table only where there are steps: a lookup a row. */
	if (s->n > 0 && (o = tl_optable_find(name)) != NULL &&
	    (strcmp(o->model, "paged_attn") == 0 ||
	    strcmp(o->extra_model, "paged_attn") == 0) &&
	    (st = tl_step_of(t, s, r->op)) >= 0)
		for (k = 0; k < 8; k++) {
			member(b, keys[k]);
			tl_jb_int(b, s->v[st][k]);
		}
	if (b->n == len)
		tl_jb_reset(b);
	else
		tl_jb_lit(b, "}");
}
