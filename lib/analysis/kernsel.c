/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/kernsel.h"
#include "analysis/oprow.h"
#include "common/util.h"
#include "model/dtype.h"
#include "stream/category.h"

/* A GEMM of this many outputs or more is large. */
#define LARGE_OUTPUTS (4LL << 20)
/* A tile of this many outputs or fewer is tiny. */
#define TINY_TILE 4096
#define ALIGN_EFF 40
#define TILE_EFF 50

/* The number at s (digits only), its length in *len; -1 none. */
static int64_t
digits(const char *s, int *len)
{
	int64_t v = 0;
	int n = 0;

	while (isdigit((unsigned char)s[n]) && n < 9)
		v = v * 10 + (s[n++] - '0');
	*len = n;
	return n > 0 ? v : -1;
}

/* "AxB" at s: both numbers; 1 found. */
static int
pair(const char *s, int64_t *a, int64_t *b)
{
	int n, m;

	if ((*a = digits(s, &n)) < 0 || s[n] != 'x' ||
	    (*b = digits(s + n + 1, &m)) < 0)
		return 0;
	return 1;
}

void
tl_kname_parse(const char *name, struct tl_kname *k)
{
	static const struct { const char *word, *arch; } family[] = {
		{ "ampere_", "sm_80" }, { "turing_", "sm_75" },
		{ "volta_", "sm_70" }, { "maxwell_", "sm_50" },
		{ NULL, NULL }
	};
	const char *s;
	int64_t v;
	int n, i, c;

	memset(k, 0, sizeof(*k));
	for (s = name; *s != '\0'; s++) {
		/*
		 * Most bytes start none of the words below: each is looked
		 * for only where its first byte is (c as strncasecmp sees it).
		 */
		c = tolower((unsigned char)*s);
		if (c != 'c' && c != 's' && c != 'i' && c != 'a' && c != 't' &&
		    c != '_' && c != 'p')
			continue;
		if (k->arch[0] == '\0' && *s == 'c' &&
		    strncmp(s, "cutlass_", 8) == 0 &&
		    (v = digits(s + 8, &n)) >= 50 && n == 2 && s[8 + n] == '_')
			snprintf(k->arch, sizeof(k->arch), "sm_%d",
			    (int)v);
		if (k->arch[0] == '\0' && c == 's' &&
		    strncasecmp(s, "sm", 2) == 0 &&
		    (s == name || !isalnum((unsigned char)s[-1])) &&
		    (v = digits(s + 2 + (s[2] == '_'), &n)) >= 50 &&
		    (n == 2 || n == 3) &&
		    !isalnum((unsigned char)s[2 + (s[2] == '_') + n]))
			snprintf(k->arch, sizeof(k->arch), "sm_%d",
			    (int)v);
		if (k->arch[0] == '\0' && strncmp(s, "ISA", 3) == 0 &&
		    isdigit((unsigned char)s[3]) && isalnum((unsigned char)s[4]) &&
		    isalnum((unsigned char)s[5]))
			snprintf(k->arch, sizeof(k->arch), "gfx%.3s", s + 3);
		if (k->align == 0 && *s == 'a' && strncmp(s, "align", 5) == 0 &&
		    (v = digits(s + 5, &n)) > 0)
			k->align = (int)v;
		if (k->tm == 0 && strncmp(s, "tilesize", 8) == 0)
			pair(s + 8, &k->tm, &k->tn);
		if (k->tm == 0 && strncmp(s, "_MT", 3) == 0)
			pair(s + 3, &k->tm, &k->tn);
		if (k->tm == 0 && s[0] == '_' && isdigit((unsigned char)s[1]) &&
		    strstr(name, "cutlass") != NULL && pair(s + 1, &k->tm,
		    &k->tn)) {
			/* CUTLASS: _<tile M>x<tile N>_<K>x<stages>_ */
			(void)digits(s + 1, &n);
			if (s[1 + n] != 'x')
				k->tm = k->tn = 0;
		}
		/* cuBLAS: ampere_sgemm_32x32_sliced1x4_tn */
		if (k->tm == 0 && s[0] == '_' && isdigit((unsigned char)s[1]) &&
		    strstr(name, "gemm_") != NULL && strstr(name, "gemm_") < s &&
		    strstr(name, "cutlass") == NULL && pair(s + 1, &k->tm,
		    &k->tn)) {
			(void)digits(s + 1, &n);
			(void)digits(s + 2 + n, &i);
			if (s[2 + n + i] != '_')
				k->tm = k->tn = 0;
		}
		if ((c == 's' && (strncasecmp(s, "streamk", 7) == 0 ||
		    strncasecmp(s, "stream_k", 8) == 0)) ||
		    (c == 'p' && strncasecmp(s, "persistent", 10) == 0) ||
		    (strncmp(s, "_SK", 3) == 0 && s[3] >= '1' && s[3] <= '9' &&
		    !isalnum((unsigned char)s[4])))
			k->streamk = 1;
		if ((c == 's' && (strncasecmp(s, "splitk", 6) == 0 ||
		    strncasecmp(s, "split_k", 7) == 0)) ||
		    (strncmp(s, "_GSU", 4) == 0 && digits(s + 4, &n) > 1))
			k->splitk = 1;
	}
	for (i = 0; k->arch[0] == '\0' && family[i].word != NULL; i++)
		if (strstr(name, family[i].word) != NULL)
			snprintf(k->arch, sizeof(k->arch), "%s", family[i].arch);
}

const char *
tl_gpu_arch(const char *gpu, char *buf, size_t n)
{
	/* Longer names first: "A100" before "A10". */
	static const char *const arch[][2] = {
		{ "GB200", "sm_100" }, { "B200", "sm_100" }, { "B100", "sm_100" },
		{ "GH200", "sm_90" }, { "H100", "sm_90" }, { "H200", "sm_90" },
		{ "H800", "sm_90" }, { "H20", "sm_90" }, { "A100", "sm_80" },
		{ "A800", "sm_80" }, { "A30", "sm_80" }, { "L40", "sm_89" },
		{ "A10", "sm_86" }, { "L4", "sm_89" }, { "V100", "sm_70" },
		{ "T4", "sm_75" }, { "MI300", "gfx94" }, { "MI325", "gfx94" },
		{ "MI350", "gfx95" }, { "MI355", "gfx95" }, { "MI250", "gfx90" },
		{ "MI210", "gfx90" }, { "MI200", "gfx90" }, { "MI100", "gfx90" },
		{ NULL, NULL }
	};
	int k;

	buf[0] = '\0';
	for (k = 0; arch[k][0] != NULL; k++)
		if (tl_contains_ci(gpu, arch[k][0])) {
			snprintf(buf, n, "%s", arch[k][1]);
			break;
		}
	return buf;
}

int
tl_arch_older(const char *karch, const char *garch)
{
	int n;

	if (karch[0] == '\0' || garch[0] == '\0')
		return 0;
	if (strncmp(karch, "sm_", 3) == 0 && strncmp(garch, "sm_", 3) == 0)
		return digits(garch + 3, &n) / 10 - digits(karch + 3, &n) / 10
		    >= 2;
	if (strncmp(karch, "gfx", 3) == 0 && strncmp(garch, "gfx", 3) == 0)
		return strncmp(karch + 3, garch + 3, 2) < 0;
	return 0;
}

/* The GPU architecture of trace t. */
static const char *
trace_arch(const struct tl_findings *f, int t, char *buf, size_t n)
{
	const struct tl_ftrace *tr = &f->tr[t];

	if (tr->arch != NULL && tr->arch[0] != '\0') {
		snprintf(buf, n, "%s", tr->arch);
		return buf;
	}
	tl_gpu_arch(tr->gpu, buf, n);
	if (buf[0] == '\0')
		tl_gpu_arch(tr->hw, buf, n);
	return buf;
}

/* Bytes per element of a GEMM's operands: its first 2-D tensor. */
static int
gemm_elsize(struct tl_opctx *c, int o)
{
	const struct tl_arg *a;
	int i, es;

	for (i = 0; i < 4; i++) {
		a = tl_op_arg(c, o, i);
		if (a->kind == TL_ARG_SHAPE && a->nd >= 2 &&
		    (es = tl_dtype_bytes(a->type)) > 0)
			return es;
	}
	return 0;
}

/*
 * Add signature o to the pattern of g; *top is the time of its largest
 * signature so far, whose kernel facts the pattern shows.
 */
static void
add(struct tl_findings *f, struct tl_patgroup *g, int o,
    const struct tl_kname *kn, const char *garch, int want, int64_t *top)
{
	struct tl_fop *op = &f->op[o];
	struct tl_fpat *p;
	int64_t s, lo, hi;
	double t[3];
	int pi, n;

	pi = tl_patgroup_get(g, "", "");	/* may move f->pat */
	p = &f->pat[pi];

	if (op->time_ns > *top) {
		*top = op->time_ns;
		snprintf(p->karch, sizeof(p->karch), "%s", kn->arch);
		snprintf(p->garch, sizeof(p->garch), "%s", garch);
		p->align = kn->align;
		p->align_want = want;
		p->tile_m = kn->tm;
		p->tile_n = kn->tn;
		p->splitk = kn->splitk;
	}
	if ((n = tl_op_targets(op, t)) == 0)
		s = lo = hi = op->has_eff ? 0 : -1;
	else {
		s = tl_op_save_at(op, n > 1 ? t[n - 2] : t[0]);
		lo = tl_op_save_at(op, t[0]);
		hi = tl_op_save_at(op, t[n - 1]);
	}
	if (s < 0)
		p->unquantified = 1;
	else {
		p->save_ns += s;
		p->save_lo_ns += lo;
		p->save_hi_ns += hi;
	}
	tl_patgroup_op(g, pi, o);
}

void
tl_kname_best(const struct tl_fop *op, struct tl_kname *best)
{
	struct tl_kname kn;
	int64_t top;
	int i;

	memset(best, 0, sizeof(*best));
	for (i = 0, top = -1; i < op->nkern; i++) {
		tl_kname_parse(op->kern[i].name, &kn);
		if (kn.splitk)
			best->splitk = 1;
		if (op->kern[i].time_ns > top &&
		    strstr(op->kern[i].name, "educe") == NULL) {
			top = op->kern[i].time_ns;
			kn.splitk |= best->splitk;
			*best = kn;
		}
	}
}


void
tl_kernsel_find(struct tl_findings *f)
{
	struct tl_patgroup g[3];
	struct tl_opctx c;
	struct tl_kname best;
	const struct tl_fop *op;
	char garch[16];
	int64_t m, n, k, b, tops[3] = { 0, 0, 0 };
	int o, i, es, want, kind;

	tl_opctx_init(&c, f);
	tl_patgroup_init(&g[0], f, TL_PAT_GEMM_ALIGN);
	tl_patgroup_init(&g[1], f, TL_PAT_GEMM_ARCH);
	tl_patgroup_init(&g[2], f, TL_PAT_GEMM_TILE);
	for (o = 0; o < f->nop; o++) {
		op = &f->op[o];
		if (!tl_category_is(op->cat, "gemm") || op->nkern == 0 ||
		    op->claimed_ns * 2 >= op->time_ns || op->time_ns <= 0)
			continue;
		tl_kname_best(op, &best);
		trace_arch(f, tl_trace_index(f, op->trace), garch, sizeof(garch));
		es = gemm_elsize(&c, o);
		want = es > 0 && es <= 16 ? 16 / es : 0;
		if (!tl_op_param(&c, op, "M", &m) ||
		    !tl_op_param(&c, op, "N", &n) ||
		    !tl_op_param(&c, op, "K", &k))
			m = n = k = 0;
		if (!tl_op_param(&c, op, "B", &b))
			b = 1;
		kind = -1;
		if (want > 0 && best.align > 0 && best.align < want)
			kind = 0;
		else if (want > 0 && best.align == 0 && op->has_eff &&
		    op->eff < ALIGN_EFF && n > 0 && k > 0 &&
		    (n % want != 0 || k % want != 0))
			kind = 0;
		else if (tl_arch_older(best.arch, garch))
			kind = 1;
		else if ((best.splitk || (best.tm > 0 &&
		    best.tm * best.tn <= TINY_TILE)) &&
		    m * n * b >= LARGE_OUTPUTS && op->has_eff &&
		    op->eff < TILE_EFF)
			kind = 2;
		if (kind >= 0)
			add(f, &g[kind], o, &best, garch, want, &tops[kind]);
	}
	for (i = 0; i < 3; i++)
		tl_patgroup_free(&g[i]);
	tl_opctx_free(&c);
}
