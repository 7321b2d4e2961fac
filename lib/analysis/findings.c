/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/findings.h"
#include "analysis/serving.h"
#include "analysis/xrank.h"
#include "analysis/xsummary.h"
#include "common/idxsort.h"
#include "common/json.h"
#include "common/strmap.h"
#include "common/tsv.h"
#include "common/util.h"
#include "model/hwspec.h"
#include "model/roofline.h"
#include "stream/category.h"
#include "stream/kernlist.h"
#include "stream/schema.h"
#include "stream/stream.h"
#include "trace/kernclass.h"

/* A GPU event kept for the gap analysis. */
struct tl_fev {
	int64_t start, end;	/* ns */
	int64_t host;		/* its op's start on the host, ns */
	int64_t launch;		/* its launch call's start, ns; -1 unknown */
	int name;		/* op name, index in names */
	int row;		/* its row in f->row, -1 none (grouped) */
	int sync;		/* its op copies device to host */
};

/* idle_row's numbers of a row (idle_nums). */
struct tl_fidlenums {
	int64_t noise, nnoise, frames, iter;
	int steady;
	int has_steps;		/* tl_fidle_steady with these: */
	int64_t steps, tot, busy, comp, idle;
};

/*
 * A few columns' raw text in a row, to tell a row that repeats them:
 * where they lie in a line (spans), and a row's text of them (memo).
 */
#define TL_FSPANS_MAX 16
struct tl_fspans {
	int span[TL_FSPANS_MAX][2], nspan;	/* runs of input fields */
	int on;			/* spans set (not CSV) */
};
struct tl_fmemo {
	int ok;			/* key holds a row's spans */
	char *key;		/* each with a NUL after it */
	size_t keyn, keycap;
};

/*
 * An op's roof and point, by the texts of its last row's roof columns;
 * its roofline_time_us, by the text of its last row's read without an
 * error (rok).
 */
struct tl_foproof {
	struct tl_fmemo m;
	int roof;		/* its index in f->roofs */
	int pt;			/* the op's point for it in f->pts, -1 none */
	struct tl_field rf;	/* has and d of the text rtext[0..rn) */
	char rtext[24];
	size_t rn;
	int rok;
};

/* Loading state, held by the findings until the load ends. */
struct tl_floader {
	struct tl_stream *in;	/* the stream read: own, or the caller's */
	struct tl_stream own;
	int owns;		/* tl_findings_load opened own */
	struct tl_findings *f;
	struct tl_strmap sigs, names;
	struct tl_strmap roofmap, ptmap;	/* roofs and points by key */
	struct tl_strmap trmap;	/* trace name -> index in f->tr */
	int64_t lasttr;		/* the last row's, -1 none */
	int64_t lastroof;	/* the last row's roof, -1 none */
	int *opname;		/* by op: its name's index in names, -1 */
	size_t nopname;
	uint32_t *opk0;		/* by op: its last row's first GPU event's
				   name id + 1, 0 none */
	size_t nopk0;
	size_t capop, caproofs, cappts;
	struct tl_rowreader rr;
	struct tl_jbuf key;	/* the current row's signature */
	struct tl_json j;
	struct tl_kernlist kl;	/* the row's GPU events */
	int kbad;		/* and the column's error */
	int has_idle;		/* the stream has the idle_gaps column */
	char *thbuf;		/* scratch for a row's "pid/tid" */
	int64_t lastid[3];	/* new_row's last thread, module, parent ids
				   (-1 none): rows of a thread come together */
	size_t thcap;
	unsigned char *kc;	/* by kernel name id: its KC_* kinds, 0 not
				   yet known */
	size_t nkc;
	struct tl_fidlenums iv;	/* idle_row's, of the row idlememo kept */
	struct tl_fspans idlespans;	/* of idlecols */
	struct tl_fmemo idlememo;
	struct tl_fspans roofspans;	/* of roofcols */
	struct tl_foproof *oproof;	/* by op */
	size_t noproof;
	struct tl_field roof;	/* the row's roofline_time_us (row_roof_us) */
	int apeak;		/* the row is above its peak roof (above_peak) */
	int bwd;		/* the row's direction is bwd */
	int rowop;		/* the row's op, index in f->op */
	/* by category index: CK_* (tl_category_is), found once */
	unsigned char catkind[TL_CAT_MAX];
};

enum { CK_OTHER = 1, CK_COMM = 2 };

enum {
	C_TRACE, C_NAME, C_CAT, C_TIME, C_PCT, C_TOTAL, C_BUSY, C_COMPUTE,
	C_COMM, C_MEMCPY, C_IDLE, C_DIR, C_RANK, C_UID, C_TS, C_KERNELS,
	C_DIMS, C_TYPES, C_STRIDES, C_CONCRETE, C_PARENT, C_MODULE, C_STACK,
	C_GPU, C_MODEL, C_FLOPS, C_BYTES, C_SPEC, C_PARAMS, C_PERR, C_HW,
	C_PEAKF, C_PEAKB, C_ROOF, C_BOUND, C_BASE, C_COUNT, C_KCOUNT, C_PID,
	C_TID, C_CPUDUR, C_ARCH, C_UNLINKED, C_NUNLINKED, C_ROOFKIND,
	C_ROOFUSED, C_BWUSED, C_IDLEGAPS, C_NOISE, C_NNOISE, C_FRAMES, C_ITER,
	C_STEADY, C_STEPS, C_STOTAL, C_SBUSY, C_SCOMP, C_SIDLE, C_ASSESS, C_COLL,
	C_APCOUNT, C_APTIME, C_N
};
static const short colid[C_N] = {
	TL_COL_TRACE, TL_COL_NAME, TL_COL_CATEGORY, TL_COL_KERNEL_TIME_US,
	TL_COL_PCT_GPU_TIME, TL_COL_TRACE_TOTAL_US, TL_COL_TRACE_BUSY_US,
	TL_COL_TRACE_COMPUTE_US, TL_COL_TRACE_EXPOSED_COMM_US,
	TL_COL_TRACE_EXPOSED_MEMCPY_US, TL_COL_TRACE_IDLE_US,
	TL_COL_DIRECTION, TL_COL_RANK, TL_COL_UID, TL_COL_TS_US,
	TL_COL_KERNELS, TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES,
	TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS, TL_COL_PARENT_NAME,
	TL_COL_MODULE, TL_COL_CALL_STACK, TL_COL_TRACE_GPU,
	TL_COL_PERF_MODEL, TL_COL_FLOPS, TL_COL_BYTES, TL_COL_COMPUTE_SPEC,
	TL_COL_PARAMS, TL_COL_PERF_ERROR, TL_COL_HW, TL_COL_PEAK_TFLOPS,
	TL_COL_PEAK_TBS, TL_COL_ROOFLINE_TIME_US, TL_COL_BOUND,
	TL_COL_ELTWISE_BASELINE_TBS, TL_COL_COUNT, TL_COL_KERNEL_COUNT,
	TL_COL_PID, TL_COL_TID, TL_COL_CPU_DUR_US, TL_COL_TRACE_GPU_ARCH,
	TL_COL_TRACE_UNLINKED_US, TL_COL_TRACE_UNLINKED_COUNT, TL_COL_ROOF_KIND,
	TL_COL_ROOF, TL_COL_BW_ROOF, TL_COL_IDLE_GAPS,
	TL_COL_TRACE_IDLE_NOISE_US, TL_COL_TRACE_IDLE_NOISE_COUNT,
	TL_COL_TRACE_PYTHON_FRAMES, TL_COL_ITERATION, TL_COL_STEADY,
	TL_COL_STEADY_STEPS, TL_COL_STEADY_TOTAL_US, TL_COL_STEADY_BUSY_US,
	TL_COL_STEADY_COMPUTE_US, TL_COL_STEADY_IDLE_US, TL_COL_ASSESSMENT,
	TL_COL_COLLECTIVE, TL_COL_ABOVE_PEAK_COUNT, TL_COL_ABOVE_PEAK_TIME_US
};

const int64_t tl_fgap_edges[TL_FGAP_BINS - 1] = {
	1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000, 100000000,
	200000000, 500000000, 1000000000
};
#define C_REQUIRED (C_IDLE + 1)

static const char *
get(struct tl_floader *L, int k)
{
	return tl_rr_text(&L->rr, colid[k]);
}

/* Record the first error of a category: column col's text v is why. */
static void
cat_error(struct tl_floader *L, int cat, const char *col, const char *v,
    const char *why)
{
	struct tl_fcat *c = &L->f->cat[cat];
	char *msg;
	size_t n;

	if (c->error != NULL)
		return;
	n = strlen(v) > 60 ? 60 : strlen(v);
	msg = tl_malloc(strlen(tl_stream_where(L->in)) + strlen(col) + n +
	    strlen(why) + 16);
	sprintf(msg, "%s: column %s: '%.*s' %s", tl_stream_where(L->in),
	    col, (int)n, v, why);
	c->error = msg;
}

/*
 * Column k's number, read once by the row reader: 1 set, 0 empty, -1
 * breaking the rule for numbers (tl_rr_why; the category fails).  num
 * gives the double, num_i64 an integer column's value and num_ns a time's
 * nanoseconds.
 */
static const struct tl_field *
checked(struct tl_floader *L, int k, int cat)
{
	const struct tl_field *v = tl_rr_field(&L->rr, colid[k]);

	if (v->has < 0) {
		cat_error(L, cat, tl_col_name(colid[k]), v->s, v->why);
		return NULL;
	}
	return v;
}

static int
num(struct tl_floader *L, int k, int cat, double *v)
{
	const struct tl_field *f = checked(L, k, cat);

	if (f == NULL)
		return -1;
	if (f->has)
		*v = f->d;
	return f->has;
}

static int
num_i64(struct tl_floader *L, int k, int cat, int64_t *v)
{
	const struct tl_field *f = checked(L, k, cat);

	if (f == NULL)
		return -1;
	if (f->has)
		*v = f->i;
	return f->has;
}

/* Microseconds as ns: 1 set, 0 empty, -1 malformed. */
static int
num_ns(struct tl_floader *L, int k, int cat, int64_t *ns)
{
	return num_i64(L, k, cat, ns);
}

static char *
dup_field(struct tl_floader *L, int k)
{
	return tl_strdup(get(L, k));
}

static struct tl_ftrace *
trace_of(struct tl_floader *L, const char *name)
{
	struct tl_findings *f = L->f;
	struct tl_ftrace *t;
	int64_t cnt = 0;
	int n, other, added;
	int64_t i = tl_strmap_add_last(&L->trmap, &L->lasttr, name,
	    strlen(name), &added);

	if (!added)
		return &f->tr[i];
	other = tl_category_index("other");
	tl_grow(&f->tr, &f->captr, (size_t)f->ntr + 1, sizeof(*f->tr));
	t = &f->tr[f->ntr++];
	memset(t, 0, sizeof(*t));
	t->name = tl_strdup(name);
	t->rank = dup_field(L, C_RANK);
	t->gpu = dup_field(L, C_GPU);
	t->hw = dup_field(L, C_HW);
	t->arch = dup_field(L, C_ARCH);
	/* The timeline columns are required; a bad one fails the load. */
	if (num_ns(L, C_TOTAL, other, &t->total_ns) < 0 ||
	    num_ns(L, C_BUSY, other, &t->busy_ns) < 0 ||
	    num_ns(L, C_COMPUTE, other, &t->compute_ns) < 0 ||
	    num_ns(L, C_COMM, other, &t->comm_ns) < 0 ||
	    num_ns(L, C_MEMCPY, other, &t->memcpy_ns) < 0 ||
	    num_ns(L, C_IDLE, other, &t->idle_ns) < 0)
		tl_die("%s", f->cat[other].error);
	/* Older streams do not say what they left out: unknown. */
	if ((n = num_ns(L, C_UNLINKED, other, &t->unlinked_ns)) < 0 ||
	    num_i64(L, C_NUNLINKED, other, &cnt) < 0)
		tl_die("%s", f->cat[other].error);
	t->has_unlinked = n > 0;
	t->unlinked_count = cnt;
	return t;
}

static int
is_d2h(const char *kname)
{
	return strstr(kname, "DtoH") != NULL ||
	    strstr(kname, "Device -> Host") != NULL ||
	    strstr(kname, "D2H") != NULL;
}

enum { KC_KNOWN = 1, KC_LAYOUT = 2, KC_D2H = 4 };

/* What a kernel name is: a layout conversion, a copy to the host. */
static int
kernel_kinds(const char *name)
{
	return KC_KNOWN | (tl_kernel_is_layout(name) ? KC_LAYOUT : 0) |
	    (is_d2h(name) ? KC_D2H : 0);
}

/* The same for interned name id, found once per name. */
static int
kernel_class(struct tl_floader *L, uint32_t id, const char *name)
{
	if (id >= L->nkc)
		tl_grow_set(&L->kc, &L->nkc, (size_t)id + 1, 1, 0);
	if (L->kc[id] == 0)
		L->kc[id] = (unsigned char)kernel_kinds(name);
	return L->kc[id];
}

static void
add_kernel(struct tl_fop *op, const char *name, uint32_t id, int64_t ns,
    int64_t grid, int64_t block)
{
	int i;

	/* One interned id per name (when not grouped): ids compared. */
	for (i = 0; i < op->nkern; i++)
		if (id != TL_FKERN_NOID ? op->kern[i].id == id :
		    strcmp(op->kern[i].name, name) == 0)
			break;
	if (i == op->nkern) {
		if (op->nkern == TL_FKERN_MAX) {
			op->kern_other_ns += ns;
			return;
		}
		op->kern[op->nkern].name = tl_strdup(name);
		op->kern[op->nkern].id = id;
		op->kern[op->nkern].time_ns = 0;
		op->kern[op->nkern].count = 0;
		op->kern[op->nkern].grid = op->kern[op->nkern].block = -1;
		op->nkern++;
	}
	if (op->kern[i].grid < 0 && grid > 0 && block > 0) {
		op->kern[i].grid = grid;
		op->kern[i].block = block;
	}
	op->kern[i].time_ns += ns;
	op->kern[i].count++;
}

/*
 * tl_intern of GPU event k's name, the k-th of a row of op opi: the
 * first event's name is usually its op's last first one.
 */
static uint32_t
kernel_id(struct tl_floader *L, size_t opi, size_t k,
    const struct tl_kitem *it)
{
	const struct tl_strtab *t = L->f->str;
	uint32_t id;

	if (k > 0)
		return tl_intern(L->f->str, it->name, it->namelen);
	if (opi >= L->nopk0)
		tl_grow_set(&L->opk0, &L->nopk0, opi + 1, sizeof(*L->opk0), 0);
	if (L->opk0[opi] > 0) {
		id = L->opk0[opi] - 1;
		if (tl_strsize(t, id) == it->namelen &&
		    memcmp(tl_str(t, id), it->name, it->namelen) == 0)
			return id;
	}
	id = tl_intern(L->f->str, it->name, it->namelen);
	L->opk0[opi] = id + 1;
	return id;
}

/*
 * The row's GPU events: per-kernel names of the signature, the trace's
 * event list, short kernels, layout conversions.  Returns -1 when the
 * column is not the JSON it must be.
 */
static int
scan_kernels(struct tl_floader *L, struct tl_ftrace *t, struct tl_fop *op,
    int64_t host, int name, struct tl_frow *row)
{
	const struct tl_kernlist *kl = &L->kl;
	struct tl_findings *f = L->f;
	struct tl_fev *e;
	struct tl_fkev *k;
	int sync = 0;
	size_t i, first = t->nev;

	for (i = 0; i < kl->n; i++) {
		const struct tl_kitem *it = &kl->v[i];
		uint32_t id = TL_FKERN_NOID;
		int kc;

		if (it->launch_bad)
			return -1;
		if (it->launch >= 0)
			t->has_launch = 1;
		if (!L->f->grouped) {
			id = kernel_id(L, (size_t)(op - f->op), i, it);
			kc = kernel_class(L, id, it->name);
		} else
			kc = kernel_kinds(it->name);
		if (!L->f->grouped || op->count == 0)
			add_kernel(op, it->name, id, it->dur, it->grid,
			    it->block);
		if (kc & KC_LAYOUT)
			op->layout_ns += it->dur;
		if (kc & KC_D2H)
			sync = 1;
		if (L->f->grouped)
			continue;
		tl_grow_ahead(&f->kev, &f->capkev, (size_t)f->nkev + 1,
		    sizeof(*f->kev), &f->kevahead);
		k = &f->kev[f->nkev++];
		k->name = id;
		k->ts = it->ts;
		k->dur = it->dur;
		k->launch = it->launch;
		row->nk++;
		t->nkernels++;
		t->kernel_ns += it->dur;
		if (it->dur < TL_FSHORT_NS) {
			t->nshort++;
			t->short_ns += it->dur;
		}
		tl_grow_ahead(&t->ev, &t->capev, t->nev + 1, sizeof(*t->ev),
		    &t->evahead);
		e = &t->ev[t->nev++];
		e->start = it->ts;
		e->end = it->ts + it->dur;
		e->host = host;
		e->launch = it->launch;
		e->name = name;
		e->row = f->nrow - 1;
		e->sync = 0;
	}
	if (L->kbad)
		return -1;
	if (sync) {
		if (row != NULL)
			row->d2h = 1;
		t->nsync++;
		for (; first < t->nev; first++)
			t->ev[first].sync = 1;
	}
	return 0;
}

/*
 * Where columns cols[0..n) (C_*) lie in the input: their fields as runs
 * of adjacent fields, so a row's texts of them are compared as a few
 * spans of the raw line (the same bytes there are the same texts).  Off
 * for CSV, whose fields are not one line: memo_same is then always 0.
 */
static void
spans_init(struct tl_floader *L, struct tl_fspans *sp, const short *cols,
    size_t n)
{
	int pos[TL_FSPANS_MAX], np = 0, i, j, t;
	size_t k;

	memset(sp, 0, sizeof(*sp));
	if (L->in->csv || n > TL_FSPANS_MAX)
		return;
	for (k = 0; k < n; k++)
		if ((t = L->rr.lpos[colid[cols[k]]]) >= 0)
			pos[np++] = t;
	for (i = 1; i < np; i++)	/* a few: insertion sort */
		for (j = i; j > 0 && pos[j - 1] > pos[j]; j--)
			t = pos[j], pos[j] = pos[j - 1], pos[j - 1] = t;
	for (i = 0; i < np; i = j) {
		for (j = i + 1; j < np && pos[j] <= pos[j - 1] + 1; j++)
			;
		sp->span[sp->nspan][0] = pos[i];
		sp->span[sp->nspan++][1] = pos[j - 1];
	}
	sp->on = 1;
}

/*
 * Input field i of the current row as the line holds it (a NUL after
 * it): its text, its length in *n; *esc when it holds an escape.
 */
static const char *
raw_field(const struct tl_floader *L, int i, size_t *n, int *esc)
{
	*n = L->in->flen[i];
	*esc = L->in->esc[i];
	return L->in->f[i];
}

/* Span k of sp in the current row: its raw text, its length in *n. */
static const char *
span_at(const struct tl_floader *L, const struct tl_fspans *sp, int k,
    size_t *n)
{
	size_t nb;
	int esc;
	const char *a = raw_field(L, sp->span[k][0], n, &esc);
	const char *b = raw_field(L, sp->span[k][1], &nb, &esc);

	*n = (size_t)(b + nb - a);
	return a;
}

/* 1 when the row's spans sp are those memo_keep kept in m. */
static int
memo_same(const struct tl_floader *L, const struct tl_fspans *sp,
    const struct tl_fmemo *m)
{
	size_t off = 0, n;
	const char *s;
	int k;

	if (!m->ok)
		return 0;
	for (k = 0; k < sp->nspan; k++) {
		s = span_at(L, sp, k, &n);
		if (off + n + 1 > m->keyn || memcmp(m->key + off, s, n) != 0 ||
		    m->key[off + n] != '\0')
			return 0;
		off += n + 1;
	}
	return off == m->keyn;
}

/* Keep the row's spans sp (each with a NUL) in m. */
static void
memo_keep(const struct tl_floader *L, const struct tl_fspans *sp,
    struct tl_fmemo *m)
{
	size_t n;
	const char *s;
	int k;

	if (!sp->on)
		return;
	m->keyn = 0;
	for (k = 0; k < sp->nspan; k++) {
		s = span_at(L, sp, k, &n);
		tl_grow(&m->key, &m->keycap, m->keyn + n + 1, 1);
		memcpy(m->key + m->keyn, s, n);
		m->key[m->keyn + n] = '\0';
		m->keyn += n + 1;
	}
	m->ok = 1;
}

/* A number of the row for the roofs, 0 when empty or not a number. */
static double
roof_num(struct tl_floader *L, int k)
{
	const struct tl_field *v = tl_rr_field(&L->rr, colid[k]);

	return v->has > 0 && isfinite(v->d) && v->d > 0 ? v->d : 0;
}

/* The columns a roof is known by (row_roof's key). */
static const short roofcols[] = {
	C_HW, C_SPEC, C_ROOFUSED, C_BWUSED, C_PEAKF, C_PEAKB
};
#define NROOFCOLS (sizeof(roofcols) / sizeof(roofcols[0]))

/* Op op's entry in L->oproof, added when new. */
static struct tl_foproof *
op_roof(struct tl_floader *L, int op)
{
	size_t old = L->noproof, i;

	if ((size_t)op >= L->noproof) {
		tl_grow_set(&L->oproof, &L->noproof, (size_t)op + 1,
		    sizeof(*L->oproof), 0);
		for (i = old; i < L->noproof; i++)
			L->oproof[i].pt = -1;
	}
	return &L->oproof[op];
}

/*
 * The index of the row's roof in f->roofs, added when new; a row whose
 * roofcols texts are those of its op's last row (o) has that row's roof.
 */
static int
row_roof(struct tl_floader *L, struct tl_foproof *o)
{
	struct tl_findings *f = L->f;
	struct tl_froof *r;
	int64_t idx;
	size_t i;
	int added;

	if (memo_same(L, &L->roofspans, &o->m))
		return o->roof;
	tl_jb_reset(&L->key);
	for (i = 0; i < NROOFCOLS; i++)
		tl_sig_more(&L->key, get(L, roofcols[i]));
	idx = tl_strmap_add_last(&L->roofmap, &L->lastroof, L->key.s, L->key.n,
	    &added);
	memo_keep(L, &L->roofspans, &o->m);
	o->roof = (int)idx;
	if (!added)
		return (int)idx;
	tl_grow(&f->roofs, &L->caproofs, (size_t)f->nroofs + 1,
	    sizeof(*f->roofs));
	r = &f->roofs[f->nroofs++];
	r->hw = dup_field(L, C_HW);
	r->spec = dup_field(L, C_SPEC);
	r->kind = dup_field(L, C_ROOFUSED);
	r->bw_kind = dup_field(L, C_BWUSED);
	r->peak_tflops = roof_num(L, C_PEAKF);
	r->peak_tbs = roof_num(L, C_PEAKB);
	return (int)idx;
}

/* Add the row to its op's point for its roof, and note its roof kind. */
static void
add_point(struct tl_floader *L, int op, long long cnt, int64_t time_ns,
    int has_roofline, double roofline_us)
{
	struct tl_findings *f = L->f;
	const char *kind = get(L, C_ROOFKIND);
	struct tl_foproof *o = op_roof(L, op);
	struct tl_fpoint *p;
	char key[48];
	int64_t idx;
	int roof, added;
	size_t n;

	if (f->roof_kind == NULL)
		f->roof_kind = tl_strdup(kind);
	if (kind[0] != '\0' && strcmp(kind, f->roof_kind) != 0 &&
	    f->roof_kinds < 2)
		f->roof_kinds = 2;
	else if (kind[0] != '\0' && f->roof_kinds == 0)
		f->roof_kinds = 1;
	roof = row_roof(L, o);
	/* The op's last point, when it is for this roof; else by "op:roof". */
	added = 0;
	if (o->pt >= 0 && f->pts[o->pt].roof == roof)
		idx = o->pt;
	else {
		n = tl_fmt_i64(key, op);
		key[n++] = ':';
		n += tl_fmt_i64(key + n, roof);
		idx = tl_strmap_add(&L->ptmap, key, n, &added);
		o->pt = (int)idx;
	}
	if (added) {
		tl_grow(&f->pts, &L->cappts, (size_t)f->npts + 1,
		    sizeof(*f->pts));
		p = &f->pts[f->npts++];
		memset(p, 0, sizeof(*p));
		p->op = op;
		p->roof = roof;
		p->has_roofline = 1;
	}
	p = &f->pts[idx];
	p->count += cnt;
	p->time_ns += time_ns;
	if (has_roofline)
		p->roofline_us += roofline_us * (double)cnt;
	else
		p->has_roofline = 0;
}

/* 1 if the text names a graph launch call (its row holds replays). */
static int
is_graph_launch(const char *name)
{
	return strstr(name, "GraphLaunch") != NULL;
}

/* 1 if op name s names a backward op or an autograd wrapper. */
static int
is_backward_name(const char *s)
{
	return strstr(s, "backward") != NULL || strstr(s, "Backward") != NULL;
}

/* tl_intern of s[0..n), trying the id new_row found last in slot k. */
static uint32_t
intern_last(struct tl_floader *L, int k, const char *s, size_t n)
{
	const struct tl_strtab *t = L->f->str;
	int64_t id = L->lastid[k];

	if (id >= 0 && tl_strsize(t, (uint32_t)id) == n &&
	    memcmp(tl_str(t, (uint32_t)id), s, n) == 0)
		return (uint32_t)id;
	return (uint32_t)(L->lastid[k] = tl_intern(L->f->str, s, n));
}

/* The instance row of the current stream row. */
static struct tl_frow *
new_row(struct tl_floader *L, struct tl_ftrace *t, struct tl_fop *op,
    int cat, int64_t host, int64_t time_ns)
{
	struct tl_findings *f = L->f;
	struct tl_frow *r;
	const char *pid = get(L, C_PID), *tid = get(L, C_TID);
	const char *stack = get(L, C_STACK), *name = get(L, C_NAME);
	size_t np, nt;

	tl_grow_ahead(&f->row, &f->caprow, (size_t)f->nrow + 1,
	    sizeof(*f->row), &f->rowahead);
	r = &f->row[f->nrow++];
	memset(r, 0, sizeof(*r));
	r->op = (int)(op - f->op);
	r->tr = (int)(t - f->tr);
	/* "pid/tid" in the loader's scratch buffer. */
	np = strlen(pid);
	nt = strlen(tid);
	tl_grow(&L->thbuf, &L->thcap, np + nt + 1, 1);
	memcpy(L->thbuf, pid, np);
	L->thbuf[np] = '/';
	memcpy(L->thbuf + np + 1, tid, nt);
	r->thread = intern_last(L, 0, L->thbuf, np + nt + 1);
	r->module = intern_last(L, 1, get(L, C_MODULE),
	    strlen(get(L, C_MODULE)));
	r->parent = intern_last(L, 2, get(L, C_PARENT),
	    strlen(get(L, C_PARENT)));
	if (tl_rr_field(&L->rr, colid[C_UID])->has <= 0 ||
	    num_i64(L, C_UID, cat, &r->uid) < 0)
		r->uid = -1;
	r->ts = host;
	if (num_ns(L, C_CPUDUR, cat, &r->dur) <= 0 || r->dur < 0)
		r->dur = 0;
	r->time_ns = time_ns;
	r->k0 = f->nkev;
	r->bwd = (unsigned char)L->bwd;
	r->graph = op->graph_launch;
	/*
	 * A forward op in the backward pass: re-run by activation
	 * checkpointing when its call stack passes through the checkpoint
	 * code; a candidate (confirmed by the analyst) when there is no
	 * call stack to tell.
	 */
	if (r->bwd && !is_backward_name(name)) {
		if (stack[0] != '\0')
			r->recompute = strstr(stack, "checkpoint") != NULL ? 2 : 0;
		else
			r->recompute = 1;
	}
	r->claim = -1;
	return r;
}

/*
 * 1 if the current row ran faster than its peak roof allows
 * (tl-efficiency's assessment TL_ASSESS_ABOVE_PEAK): its efficiency is
 * no result.  Read once a row by load_row into L->apeak.
 */
static int
above_peak(struct tl_floader *L)
{
	return L->apeak;
}

/*
 * The row of op op's roofline_time_us into L->roof (has and d as
 * tl_rr_field reads them): an op's rows repeat its text, so a row whose
 * raw text is its op's last row's (read without an error) takes its
 * values.
 */
static void
row_roof_us(struct tl_floader *L, int op)
{
	struct tl_foproof *o = op_roof(L, op);
	const struct tl_field *f;
	const char *s = NULL;
	size_t n = 0;
	int i = L->rr.lpos[colid[C_ROOF]], esc = 1;

	if (i >= 0)
		s = raw_field(L, i, &n, &esc);
	if (!esc && o->rok && n == o->rn && memcmp(s, o->rtext, n) == 0) {
		L->roof = o->rf;
		return;
	}
	f = tl_rr_field(&L->rr, colid[C_ROOF]);
	L->roof = *f;
	o->rok = 0;
	if (!esc && f->has >= 0 && n < sizeof(o->rtext)) {
		memcpy(o->rtext, s, n);
		o->rn = n;
		o->rf = *f;
		o->rok = 1;
	}
}

/* 1 if the current row has a roofline to judge it by. */
static int
row_modelled(struct tl_floader *L)
{
	const struct tl_field *roof = &L->roof;

	return roof->has > 0 && isfinite(roof->d) && roof->d > 0 &&
	    !above_peak(L);
}

/*
 * The coverage sums of a row: modelled, above its peak roof (peak_cnt
 * instances, peak_ns of its time, of a group partly above), other,
 * graph launches.
 */
static void
cover(struct tl_findings *f, const struct tl_fop *op, int cat,
    int64_t time_ns, long long cnt, int64_t peak_cnt, int64_t peak_ns)
{
	struct tl_fcov *c = &f->cov;

	c->op_ns += time_ns;
	if (row_modelled(f->load)) {	/* peak_*: a group's rows above */
		c->model_ns += time_ns - peak_ns;
		c->peak_ns += peak_ns;
		c->peak_rows += peak_cnt;
	} else if (above_peak(f->load)) {
		c->peak_ns += time_ns;
		c->peak_rows += cnt;
	}
	if (f->load->catkind[cat] & CK_OTHER)
		c->other_ns += time_ns;
	if (op->graph_launch) {
		c->graph_ns += time_ns;
		c->graph_rows++;
	}
	if (f->load->bwd)
		c->bwd = 1;
}

/*
 * idle_row's number columns: a trace's (noise, frames), its steady
 * steps', the row's iteration.  They repeat row after row, so a row
 * whose texts of all of them are the last read row's (and read without
 * an error) takes that row's values.
 */
static const short idlecols[] = {
	C_NOISE, C_NNOISE, C_FRAMES, C_ITER, C_STEADY, C_STEPS, C_STOTAL,
	C_SBUSY, C_SCOMP, C_SIDLE
};
#define NIDLECOLS (sizeof(idlecols) / sizeof(idlecols[0]))

/* Read idle_row's numbers into L->iv: 0, or -1 when one is bad. */
static int
idle_nums(struct tl_floader *L, int cat)
{
	static const short col[] = { C_NOISE, C_NNOISE, C_FRAMES, C_ITER };
	struct tl_fidlenums *iv = &L->iv;
	int64_t *dst[] = { &iv->noise, &iv->nnoise, &iv->frames, &iv->iter };
	int64_t v;
	int bad = 0, n;
	size_t k;

	iv->noise = -1, iv->nnoise = 0, iv->frames = -1, iv->iter = TL_FNONE;
	iv->steady = -1;
	iv->has_steps = 0;
	for (k = 0; k < sizeof(col) / sizeof(col[0]); k++) {
		if ((n = num_i64(L, col[k], cat, &v)) > 0)
			*dst[k] = v;
		bad |= n < 0;
	}
	if ((n = num_i64(L, C_STEADY, cat, &v)) > 0)
		iv->steady = v != 0;
	bad |= n < 0;
	if (iv->steady >= 0 && (n = num_i64(L, C_STEPS, cat, &v)) > 0) {
		iv->tot = iv->busy = iv->comp = iv->idle = 0;
		iv->steps = v;
		if ((n = num_ns(L, C_STOTAL, cat, &iv->tot)) >= 0 &&
		    (n = num_ns(L, C_SBUSY, cat, &iv->busy)) >= 0 &&
		    (n = num_ns(L, C_SCOMP, cat, &iv->comp)) >= 0 &&
		    (n = num_ns(L, C_SIDLE, cat, &iv->idle)) >= 0)
			iv->has_steps = 1;
	}
	bad |= n < 0;
	return bad ? -1 : 0;
}

/* The row's idle gaps and their culprits (analysis/culprits.h). */
static void
idle_row(struct tl_floader *L, int cat, int tr)
{
	const struct tl_fidlenums *iv = &L->iv;

	if (!L->has_idle)
		return;
	if (!memo_same(L, &L->idlespans, &L->idlememo)) {
		L->idlememo.ok = 0;
		if (idle_nums(L, cat) == 0)
			memo_keep(L, &L->idlespans, &L->idlememo);
	}
	if (iv->has_steps)
		tl_fidle_steady(&L->f->idle, tr, (long long)iv->steps, iv->tot,
		    iv->busy, iv->comp, iv->idle);
	if (tl_fidle_row(&L->f->idle, tr, L->f->grouped ? -1 : L->f->nrow,
	    get(L, C_IDLEGAPS), iv->noise, (long long)iv->nnoise,
	    (long long)iv->frames, iv->iter, iv->steady) < 0)
		cat_error(L, cat, tl_col_name(colid[C_IDLEGAPS]),
		    get(L, C_IDLEGAPS), "is not a list of idle gaps");
}

/*
 * An op's text fields, read through their columns (colid): each is the
 * value of the op's first row.
 */
static const struct {
	short col;	/* C_* */
	size_t off;	/* of the char * in struct tl_fop */
} optext[] = {
	{ C_NAME, offsetof(struct tl_fop, name) },
	{ C_DIR, offsetof(struct tl_fop, direction) },
	{ C_DIMS, offsetof(struct tl_fop, dims) },
	{ C_TYPES, offsetof(struct tl_fop, types) },
	{ C_STRIDES, offsetof(struct tl_fop, strides) },
	{ C_CONCRETE, offsetof(struct tl_fop, concrete) },
	{ C_MODEL, offsetof(struct tl_fop, perf_model) },
	{ C_PARAMS, offsetof(struct tl_fop, params) },
	{ C_SPEC, offsetof(struct tl_fop, compute_spec) },
	{ C_BOUND, offsetof(struct tl_fop, bound) },
	{ C_PERR, offsetof(struct tl_fop, perf_error) },
	{ C_PARENT, offsetof(struct tl_fop, parent_name) },
	{ C_MODULE, offsetof(struct tl_fop, module) },
	{ C_STACK, offsetof(struct tl_fop, call_stack) },
	{ C_UID, offsetof(struct tl_fop, uid) },
	{ C_TRACE, offsetof(struct tl_fop, trace) }
};

/*
 * 1 when text s is empty or a number that the row reader reads for a
 * real quantity column without a word (tl_rr_field: has 0 or 1): digits,
 * a fraction, a small negative exponent ("1.25e-05"), at most 30 bytes,
 * so finite and 0 or more; 0 when it cannot tell without reading it.
 */
static int
plain_quantity(const char *s)
{
	const char *p = s;

	if (*p == '\0')
		return 1;
	if ((unsigned)(*p - '0') >= 10)
		return 0;
	while ((unsigned)(*p - '0') < 10)
		p++;
	if (*p == '.') {
		if ((unsigned)(*++p - '0') >= 10)
			return 0;
		while ((unsigned)(*p - '0') < 10)
			p++;
	}
	if ((*p == 'e' || *p == 'E') && p[1] == '-' &&
	    (unsigned)(p[2] - '0') < 10) {
		p += 3;
		if ((unsigned)(*p - '0') < 10)
			p++;
	}
	return *p == '\0' && p - s <= 30;
}

/*
 * The row's op key in L->key: its TL_SIGKEY_OP key, then its category
 * catv (tl_sig_more).  When none of those fields holds an escape, their
 * texts are the line's: copied from it, without taking each field.
 */
static void
op_key(struct tl_floader *L, const char *catv)
{
	static const short cols[] = { C_NAME, C_DIMS, C_TYPES, C_STRIDES,
	    C_CONCRETE, C_CAT };
	const char *s[sizeof(cols) / sizeof(cols[0])];
	size_t n[sizeof(cols) / sizeof(cols[0])], k, len = 0;
	int esc;

	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
		int i = L->rr.lpos[colid[cols[k]]];

		if (i < 0)
			s[k] = "", n[k] = 0;
		else if ((s[k] = raw_field(L, i, &n[k], &esc)), esc)
			break;
		len += n[k] + 1;
	}
	if (k < sizeof(cols) / sizeof(cols[0])) {	/* escapes: decoded */
		tl_rr_sigkey(&L->rr, TL_SIGKEY_OP, &L->key);
		tl_sig_more(&L->key, catv);
		return;
	}
	tl_jb_reset(&L->key);
	if (len + 1 > L->key.cap)
		tl_grow(&L->key.s, &L->key.cap, len + 1, 1);
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
		memcpy(L->key.s + L->key.n, s[k], n[k]);
		L->key.n += n[k];
		L->key.s[L->key.n++] = '\x1f';
	}
	L->key.s[L->key.n] = '\0';
}

/* Load the current row; returns its category. */
static int
load_row(struct tl_floader *L)
{
	struct tl_findings *f = L->f;
	struct tl_ftrace *t;
	struct tl_fop *op;
	struct tl_frow *row;
	const char *catv = get(L, C_CAT), *s;
	int64_t idx, time_ns = 0, host = 0, cnt = 1, kc = 0, apn, apt;
	int cat, added, name, have_host;
	double pct = 0, v;
	size_t i;

	/*
	 * The op in any trace, of this category: its key holds the category's
	 * text, so an op seen before has its category already parsed.
	 */
	op_key(L, catv);
	idx = tl_strmap_add(&L->sigs, L->key.s, L->key.n, &added);
	L->rowop = (int)idx;
	if (!added)
		cat = f->op[idx].cat;
	else if ((cat = tl_category_parse(catv)) < 0)
		tl_die("%s: unknown category '%s'", tl_stream_where(L->in),
		    catv);
	/* The first byte first: most rows are not above peak, nor bwd. */
	s = get(L, C_ASSESS);
	L->apeak = s[0] == TL_ASSESS_ABOVE_PEAK[0] &&
	    strcmp(s, TL_ASSESS_ABOVE_PEAK) == 0;
	s = get(L, C_DIR);
	L->bwd = s[0] == 'b' && strcmp(s, "bwd") == 0;
	t = trace_of(L, get(L, C_TRACE));
	t->rows++;
	f->cat[cat].present = 1;
	idle_row(L, cat, (int)(t - f->tr));
	if (num_ns(L, C_TIME, cat, &time_ns) < 0 || time_ns < 0)
		time_ns = 0;
	/* Only a trace's first rows need the share; the rest are checked. */
	if (t->op_total_us != 0 && plain_quantity(get(L, C_PCT)))
		;
	else if (num(L, C_PCT, cat, &pct) > 0 && pct > 0 &&
	    t->op_total_us == 0)
		t->op_total_us = (double)time_ns / 1e3 / pct * 100;
	if (L->f->grouped && (num_i64(L, C_COUNT, cat, &cnt) <= 0 ||
	    cnt < 1))
		cnt = 1;
	if (num_i64(L, C_KCOUNT, cat, &kc) < 0)
		kc = 0;
	have_host = num_ns(L, C_TS, cat, &host) > 0;
	t->op_time_ns += time_ns;
	if (have_host) {
		if (!t->has_host || host < t->host_first_ns)
			t->host_first_ns = host;
		if (!t->has_host || host > t->host_last_ns)
			t->host_last_ns = host;
		t->has_host = 1;
	}

	if (added) {
		tl_grow(&f->op, &L->capop, (size_t)f->nop + 1, sizeof(*f->op));
		op = &f->op[f->nop++];
		memset(op, 0, sizeof(*op));
		op->cat = cat;
		for (i = 0; i < sizeof(optext) / sizeof(optext[0]); i++)
			*(char **)(void *)((char *)op + optext[i].off) =
			    dup_field(L, optext[i].col);
		op->has_flops = num_i64(L, C_FLOPS, cat, &op->flops) > 0;
		op->has_bytes = num_i64(L, C_BYTES, cat, &op->bytes) > 0;
		if (num(L, C_PEAKF, cat, &v) > 0)
			op->peak_tflops = v;
		if (num(L, C_PEAKB, cat, &v) > 0)
			op->peak_tbs = v;
		if (num(L, C_BASE, cat, &v) > 0 && v > 0) {
			op->has_base = 1;
			op->base_tbs = v;
			if (f->base_tbs == 0)
				f->base_tbs = v;
		}
		if (f->hw == NULL && get(L, C_HW)[0] != '\0') {
			f->hw = tl_strdup(get(L, C_HW));
			f->peak_tbs = op->peak_tbs;
		}
		op->has_eff = 1;	/* until a row lacks it */
		op->graph_launch = is_graph_launch(op->name);
	} else
		op = &f->op[idx];
	/* The op's name's index in names, found on its first row. */
	if ((size_t)idx >= L->nopname) {
		size_t old = L->nopname;

		tl_grow(&L->opname, &L->nopname, (size_t)idx + 1,
		    sizeof(*L->opname));
		for (i = old; i < L->nopname; i++)
			L->opname[i] = -1;
	}
	if (L->opname[idx] < 0)
		L->opname[idx] = (int)tl_strmap_add(&L->names, op->name,
		    strlen(op->name), &added);
	name = L->opname[idx];
	row_roof_us(L, (int)idx);
	row = f->grouped ? NULL : new_row(L, t, op, cat, host, time_ns);
	if (row != NULL)
		row->modelled = row_modelled(L);
	if (scan_kernels(L, t, op, host, name, row) < 0)
		cat_error(L, cat, tl_col_name(colid[C_KERNELS]),
		    get(L, C_KERNELS), "is not a list of kernels with "
		    "times 0 or more");
	/*
	 * A group (tl-efficiency --group) of rows partly above their peak
	 * roof: those rows' count and time count as above peak, and are
	 * left out of its efficiency and its point, as the rows of a stream
	 * not grouped would be.
	 */
	if (!f->grouped || above_peak(L) ||
	    num_i64(L, C_APCOUNT, cat, &apn) <= 0 || apn <= 0 || apn >= cnt ||
	    num_ns(L, C_APTIME, cat, &apt) <= 0 || apt < 0 || apt > time_ns)
		apn = apt = 0;
	cover(f, op, cat, time_ns, cnt, apn, apt);
	if (!f->grouped) {
		int64_t it = -1;

		if (num_i64(L, C_ITER, cat, &it) <= 0)
			it = -1;
		tl_xrank_row(f->xr, (int)(t - f->tr), op->name,
		    L->opname[idx], (L->catkind[cat] & CK_COMM) != 0,
		    get(L, C_COLL), &L->kl, it,
		    &L->j);
	}
	op->count += cnt;
	op->kernel_count += kc;
	op->time_ns += time_ns;
	if (above_peak(L)) {	/* its time counts, its efficiency not */
		op->peak_ns += time_ns;
		op->peak_count += cnt;
		if (op->peak_why == NULL)
			op->peak_why = dup_field(L, C_PERR);
		return cat;
	}
	if (apn > 0) {	/* a group partly above: see above */
		op->peak_ns += apt;
		op->peak_count += apn;
		if (op->peak_why == NULL)
			op->peak_why = dup_field(L, C_PERR);
		cnt -= apn;
		time_ns -= apt;
	}
	if (L->roof.has < 0)	/* as num reads it */
		cat_error(L, cat, tl_col_name(colid[C_ROOF]), L->roof.s,
		    L->roof.why);
	switch (L->roof.has) {
	case 1:
		v = L->roof.d;
		op->roofline_us += v * (double)cnt;
		add_point(L, (int)idx, cnt, time_ns, 1, v);
		break;
	default:
		op->has_eff = 0;
		add_point(L, (int)idx, cnt, time_ns, 0, 0);
		break;
	}
	return cat;
}

static int
cmp_ev(const void *a, const void *b)
{
	const struct tl_fev *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

static void
keep_gap(struct tl_ftrace *t, const struct tl_fgap *g)
{
	int i;

	for (i = t->ntop; i > 0 && t->top[i - 1].len_ns < g->len_ns; i--)
		if (i < TL_FGAP_TOP)
			t->top[i] = t->top[i - 1];
	if (i >= TL_FGAP_TOP)
		return;
	t->top[i] = *g;
	if (t->ntop < TL_FGAP_TOP)
		t->ntop++;
}

/* The length bin of a gap (tl_fgap_edges). */
static int
gap_bin(int64_t len)
{
	int b = 0;

	while (b < TL_FGAP_BINS - 1 && len >= tl_fgap_edges[b])
		b++;
	return b;
}

/* Add the busy interval [s, e) to the strip's bins of the span. */
static void
strip_add(struct tl_ftrace *t, int64_t s, int64_t e)
{
	int64_t span = t->span_end_ns - t->span_start_ns, lo, hi;
	int b;

	/* From the bin before s's, in case the division rounded up. */
	b = (int)((double)(s - t->span_start_ns) / (double)span * TL_FSTRIP) -
	    1;
	if (b < 0)
		b = 0;
	for (; b < TL_FSTRIP; b++) {
		/* Bin b: [start + span b / N, start + span (b + 1) / N). */
		lo = t->span_start_ns + (int64_t)((double)span * b / TL_FSTRIP);
		hi = t->span_start_ns + (int64_t)((double)span * (b + 1) /
		    TL_FSTRIP);
		if (b == TL_FSTRIP - 1)
			hi = t->span_end_ns;
		if (lo >= e)
			break;
		if (hi > s)
			t->strip[b] += (e < hi ? e : hi) - (s > lo ? s : lo);
	}
}

/* The busy time of the sorted events over their span, in bins. */
static void
busy_strip(struct tl_ftrace *t)
{
	int64_t s, e;
	size_t i;

	t->span_start_ns = t->ev[0].start;
	t->span_end_ns = t->ev[0].end;
	for (i = 1; i < t->nev; i++)
		if (t->ev[i].end > t->span_end_ns)
			t->span_end_ns = t->ev[i].end;
	if (t->span_end_ns <= t->span_start_ns)
		return;
	t->strip = tl_calloc(TL_FSTRIP, sizeof(*t->strip));
	s = t->ev[0].start;
	e = t->ev[0].end;
	for (i = 1; i <= t->nev; i++) {
		if (i == t->nev || t->ev[i].start > e) {
			strip_add(t, s, e);
			if (i == t->nev)
				break;
			s = t->ev[i].start;
		}
		if (t->ev[i].end > e)
			e = t->ev[i].end;
	}
}

/*
 * Split gap g, which ends where GPU event e starts: the host not yet in
 * e's op, then inside it before the launch call (when known), then the
 * launch latency.
 */
static void
split_gap(struct tl_fgap *g, const struct tl_fev *e)
{
	int64_t late = e->host - g->start_ns, in;

	g->host_late_ns = late < 0 ? 0 : late > g->len_ns ? g->len_ns : late;
	if (e->launch < 0) {
		g->in_op_ns = -1;
		return;
	}
	in = e->launch - (g->start_ns + g->host_late_ns);
	if (in < 0)
		in = 0;
	if (in > g->len_ns - g->host_late_ns)
		in = g->len_ns - g->host_late_ns;
	g->in_op_ns = in;
}

/* part x known / len: a part's share of the known culprits' idle. */
static int64_t
share_of(int64_t part, int64_t known, int64_t len)
{
	return len > 0 ? (int64_t)((double)part * (double)known /
	    (double)len) : 0;
}

/* Gaps between busy intervals, and what the host did meanwhile. */
static void
finish_trace(struct tl_findings *f, struct tl_ftrace *t,
    const struct tl_strmap *names)
{
	int64_t end, *dur, lat, wait, known;
	size_t i, prev;
	struct tl_fgap g;
	int b;

	if (t->nev == 0)
		return;
	/*
	 * Rows come in host order, so their GPU events mostly do too: an
	 * order already kept is left as it is (qsort's merge sort keeps
	 * equal events in their order, so the result is the same).
	 */
	for (i = 1; i < t->nev && cmp_ev(&t->ev[i - 1], &t->ev[i]) <= 0; i++)
		;
	if (i < t->nev)
		qsort(t->ev, t->nev, sizeof(*t->ev), cmp_ev);
	busy_strip(t);
	dur = tl_malloc(t->nev * sizeof(*dur));
	for (i = 0; i < t->nev; i++)
		dur[i] = t->ev[i].end - t->ev[i].start;
	t->median_kernel_ns = tl_kth_i64(dur, t->nev, t->nev / 2);
	free(dur);
	end = t->ev[0].end;
	prev = 0;
	for (i = 1; i < t->nev; i++) {
		if (t->ev[i].start > end) {
			g.start_ns = end;
			g.len_ns = t->ev[i].start - end;
			split_gap(&g, &t->ev[i]);
			g.before = tl_strmap_key(names, t->ev[prev].name);
			g.after = tl_strmap_key(names, t->ev[i].name);
			g.row_before = t->ev[prev].row;
			g.row_after = t->ev[i].row;
			t->ngaps++;
			t->gap_ns += g.len_ns;
			t->host_late_ns += g.host_late_ns;
			wait = 0;
			if (g.in_op_ns >= 0) {
				lat = g.len_ns - g.host_late_ns - g.in_op_ns;
				if (lat > TL_LAUNCH_LATENCY_NS) {
					wait = lat - TL_LAUNCH_LATENCY_NS;
					lat = TL_LAUNCH_LATENCY_NS;
				}
				t->in_op_ns += g.in_op_ns;
				t->latency_ns += lat;
				t->wait_ns += wait;
			}
			g.listed = -1;
			known = g.row_after >= 0 ? tl_fidle_attribute(&f->idle,
			    g.row_after, g.start_ns + g.len_ns, g.len_ns,
			    &g.listed) : 0;
			if (g.row_before >= 0) {
				f->row[g.row_before].gap_after_ns += g.len_ns;
				f->row[g.row_before].known_after_ns += known;
			}
			/* A synchronisation's gap is its own, not the next op's. */
			if (g.row_after >= 0 && !t->ev[prev].sync) {
				struct tl_frow *r = &f->row[g.row_after];

				r->gap_before_ns += g.len_ns;
				r->ngap_before++;
				r->gap_late_ns += g.host_late_ns;
				if (g.in_op_ns > 0)
					r->gap_in_op_ns += g.in_op_ns;
				r->gap_wait_ns += wait;
				/* The known culprits' share of each part. */
				r->known_before_ns += known;
				r->known_late_ns += share_of(g.host_late_ns,
				    known, g.len_ns);
				if (g.in_op_ns > 0)
					r->known_in_op_ns += share_of(g.in_op_ns,
					    known, g.len_ns);
				r->known_wait_ns += share_of(wait, known,
				    g.len_ns);
			}
			b = g.len_ns < 10000 ? 0 : g.len_ns < 100000 ? 1 :
			    g.len_ns < 1000000 ? 2 : 3;
			t->gap_hist[b]++;
			t->gap_hist_ns[b] += g.len_ns;
			b = gap_bin(g.len_ns);
			t->gap_bin[b]++;
			t->gap_bin_ns[b] += g.len_ns;
			if (t->ev[prev].sync) {
				t->sync_gap_ns += g.len_ns;
				t->nsyncgap++;
			}
			keep_gap(t, &g);
		}
		if (t->ev[i].end > end) {
			end = t->ev[i].end;
			prev = i;
		}
	}
	tl_ahead_free(&t->ev, &t->evahead);
	t->nev = t->capev = 0;
}

/* An integer parameter of the params JSON object; 1 found. */
static int
param(struct tl_json *j, const char *params, const char *key, int idx,
    int64_t *v)
{
	const char *err, *txt;
	size_t len;
	int t, i;

	if (params[0] == '\0' || tl_json_parse(j, params, strlen(params),
	    &err) < 1 || tl_json_type(j, 0) != TL_J_OBJECT)
		return 0;
	if ((t = tl_json_get(j, 0, key, strlen(key))) < 0)
		return 0;
	if (idx >= 0) {
		if (tl_json_type(j, t) != TL_J_ARRAY ||
		    idx >= tl_json_size(j, t))
			return 0;
		for (t++, i = 0; i < idx; i++)
			t = tl_json_next(j, t);
	}
	if (tl_json_type(j, t) != TL_J_PRIM)
		return 0;
	txt = tl_json_text(j, t, &len);
	return tl_parse_i64(txt, len, v) == 0;
}

static int
precision_low(const char *spec)
{
	return strstr(spec, "fp8") != NULL || strstr(spec, "int8") != NULL ||
	    strstr(spec, "fp4") != NULL;
}

/*
 * A quantized GEMM: low-precision arithmetic (its compute spec), FP8 or
 * FP4 operands (its input types), or the name of a scaled or quantized
 * GEMM of PyTorch, vLLM, SGLang or aiter when neither is known.
 */
static int
quantized_gemm(const struct tl_fop *op)
{
	static const char *const names[] = {
		"scaled_mm", "scaled_fp4_mm", "a8w8", "w8a8", "a4w4", "w4a4",
		"afp4wfp4", "a16wfp4", "gemm_fp8", "gemm_fp4", "fp8_gemm",
		"int8_linear"
	};
	size_t i;

	if (precision_low(op->compute_spec) ||
	    strstr(op->types, "Float8") != NULL ||
	    strstr(op->types, "Float4") != NULL)
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strstr(op->name, names[i]) != NULL)
			return 1;
	return 0;
}

/* Notable patterns of an op signature. */
static const char *
pattern(struct tl_json *j, const struct tl_fop *op)
{
	int64_t m, n, k, b = 1, kh, kw, g, cin;

	if (tl_category_is(op->cat, "gemm")) {
		if (quantized_gemm(op))
			return "quantized GEMM";
		if (param(j, op->params, "M", -1, &m) &&
		    param(j, op->params, "N", -1, &n) &&
		    param(j, op->params, "K", -1, &k) &&
		    m <= 128 && n <= 128 && k <= 128) {
			param(j, op->params, "B", -1, &b);
			if (b * op->count >= 1000)
				return "tiny batched GEMMs";
		}
		if (strcmp(op->bound, "compute") == 0 && op->has_eff &&
		    op->eff < 60)
			return "compute-bound below peak";
		if (strcmp(op->bound, "memory") == 0)
			return "memory-bound GEMM";
		return NULL;
	}
	if (tl_category_is(op->cat, "conv")) {
		if (param(j, op->params, "groups", -1, &g) && g > 1 &&
		    param(j, op->params, "input_shape", 1, &cin) && g == cin)
			return "depthwise convolution";
		/* What it is before its kernel size: none has the seeds'
		   expected efficiency of a kernel size. */
		if (strstr(op->params, "\"transposed_conv\":true") != NULL)
			return "transposed convolution";
		if (param(j, op->params, "input_shape", 1, &cin) && cin <= 4)
			return "convolution with few input channels";
		if (param(j, op->params, "output_shape", 1, &n) &&
		    param(j, op->params, "output_shape", 2, &kh) &&
		    param(j, op->params, "output_shape", 3, &kw) &&
		    n >= 1024 && kh * kw <= 16)
			return "weight-bound convolution (small spatial, many "
			    "channels)";
		if ((param(j, op->params, "dilation", 0, &m) && m > 1) ||
		    (param(j, op->params, "dilation", 1, &m) && m > 1))
			return "dilated convolution";
		if (param(j, op->params, "filter_shape", 2, &kh) &&
		    param(j, op->params, "filter_shape", 3, &kw)) {
			if (kh == 1 && kw == 1)
				return "1x1 (pointwise) convolution";
			if (kh != kw && (kh == 1 || kw == 1))
				return "asymmetric (1xN) convolution";
			if (kh >= 5 || kw >= 5)
				return "large-kernel convolution";
			return "3x3-class convolution";
		}
		return NULL;
	}
	if (tl_category_is(op->cat, "attention") &&
	    param(j, op->params, "d_h_qk", -1, &n) && n != 64 && n != 128)
		return "attention head dimension outside the fast kernels' "
		    "sizes (64, 128)";
	if (tl_category_is(op->cat, "attention") &&
	    param(j, op->params, "N_Q", -1, &n) && n < 1024)
		return "short-sequence attention";
	return NULL;
}

static int
cmp_op_time(const void *a, const void *b, void *ctx)
{
	const struct tl_fop *op = ctx;
	int x = *(const int *)a, y = *(const int *)b;

	if (op[x].time_ns != op[y].time_ns)
		return op[x].time_ns > op[y].time_ns ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* qsort with a context, for C11 without qsort_r. */
static const void *sort_ctx;
static int (*sort_fn)(const void *, const void *, void *);

static int
sort_tramp(const void *a, const void *b)
{
	return sort_fn(a, b, (void *)sort_ctx);
}

static void
sort_idx(int *v, size_t n, int (*fn)(const void *, const void *, void *),
    const void *ctx)
{
	if (n < 2)
		return;
	sort_ctx = ctx;
	sort_fn = fn;
	qsort(v, n, sizeof(*v), sort_tramp);
}

static int
cmp_bottleneck(const void *a, const void *b, void *ctx)
{
	const struct tl_fop *op = ctx;
	int x = *(const int *)a, y = *(const int *)b;

	if (op[x].prio != op[y].prio)
		return op[x].prio > op[y].prio ? -1 : 1;
	return cmp_op_time(a, b, ctx);
}

static int
cmp_kern(const void *a, const void *b)
{
	const struct tl_fkern *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
analyse(struct tl_findings *f, struct tl_json *j)
{
	struct tl_fop *op;
	struct tl_fcat *c;
	double tms;
	int i, k;

	f->op_total_us = 0;
	for (i = 0; i < f->ntr; i++) {
		if (f->tr[i].op_total_us == 0)	/* no shares: its own rows */
			f->tr[i].op_total_us = (double)f->tr[i].op_time_ns / 1e3;
		f->op_total_us += f->tr[i].op_total_us;
	}
	for (i = 0; i < f->nop; i++) {
		op = &f->op[i];
		c = &f->cat[op->cat];
		if (op->nkern > 1)
			qsort(op->kern, (size_t)op->nkern, sizeof(*op->kern),
			    cmp_kern);
		c->count += op->count;
		c->time_ns += op->time_ns;
		c->layout_ns += op->layout_ns;
		tl_grow(&c->ops, &c->capops, (size_t)c->nops + 1,
		    sizeof(*c->ops));
		c->ops[c->nops++] = i;
		if (op->has_flops && op->has_bytes && op->bytes > 0)
			op->fpb = (double)op->flops / (double)op->bytes;
		if (!op->has_flops || !op->has_bytes)
			c->missing_model++;
		/*
		 * The rates over the instances within the peak roof: those
		 * above it ran beyond the physical limit (no result).
		 */
		op->tflops_s = op->tbs = NAN;
		if (op->time_ns - op->peak_ns > 0 &&
		    op->count - op->peak_count > 0) {
			double n = (double)(op->count - op->peak_count);
			double ns = (double)(op->time_ns - op->peak_ns);

			if (op->has_flops)
				op->tflops_s = (double)op->flops * n / ns / 1e3;
			if (op->has_bytes)
				op->tbs = (double)op->bytes * n / ns / 1e3;
		}
		if (op->time_ns - op->peak_ns <= 0 || op->roofline_us <= 0)
			op->has_eff = 0;
		if (op->has_eff) {	/* over the rows within the peak */
			op->eff = op->roofline_us /
			    ((double)(op->time_ns - op->peak_ns) / 1e3) * 100;
			c->modelled_us += (double)(op->time_ns - op->peak_ns) /
			    1e3;
			c->roofline_us += op->roofline_us;
		}
		if (op->has_base && strcmp(op->bound, "memory") == 0 &&
		    !isnan(op->tbs))
			op->pct_base = op->tbs / op->base_tbs * 100;
		else
			op->has_base = 0;
		op->pct_compute = f->op_total_us > 0 ?
		    (double)op->time_ns / 1e3 / f->op_total_us * 100 : 0;
	}
	for (k = 0; k < tl_ncategories(); k++) {
		c = &f->cat[k];
		c->pct_compute = f->op_total_us > 0 ?
		    (double)c->time_ns / 1e3 / f->op_total_us * 100 : 0;
		c->eff = c->modelled_us > 0 ?
		    c->roofline_us / c->modelled_us * 100 : -1;
		sort_idx(c->ops, (size_t)c->nops, cmp_op_time, f->op);
	}
	f->bytime = tl_malloc(((size_t)f->nop + 1) * sizeof(*f->bytime));
	for (i = 0; i < f->nop; i++)
		f->bytime[i] = i;
	sort_idx(f->bytime, (size_t)f->nop, cmp_op_time, f->op);
	for (i = 0; i < f->nop; i++) {
		op = &f->op[i];
		c = &f->cat[op->cat];
		op->pct_category = c->time_ns > 0 ?
		    (double)op->time_ns / (double)c->time_ns * 100 : 0;
		op->pattern = pattern(j, op);
		if (c->error != NULL)
			continue;	/* no claims on a failed category */
		tms = (double)op->time_ns / 1e6;
		op->bottleneck = tl_is_bottleneck(&f->rules, op->cat, tms,
		    op->pct_category, op->has_eff, op->eff);
		op->prio = tl_priority_rule(&f->rules, op->pct_compute,
		    op->has_eff, op->eff, op->pattern != NULL &&
		    op->bottleneck, &op->prio_rule);
		op->seed_prio = op->prio;
		op->replay = tl_replay_wanted(&f->rules, op->pct_compute,
		    op->has_eff, op->eff);
		if (op->bottleneck) {
			c->nbottleneck++;
			tl_grow(&f->bottlenecks, &f->capb,
			    (size_t)f->nbottlenecks + 1, sizeof(*f->bottlenecks));
			f->bottlenecks[f->nbottlenecks++] = i;
		}
	}
	sort_idx(f->bottlenecks, (size_t)f->nbottlenecks, cmp_bottleneck,
	    f->op);
}

/* The concrete training flag of a batch norm (slot 5), or -1. */
static int
training_flag(struct tl_json *j, const struct tl_fop *op)
{
	const char *err, *txt;
	size_t len;
	int t, i;

	if (strstr(op->name, "batch_norm") == NULL ||
	    is_backward_name(op->name) || op->concrete[0] == '\0' ||
	    tl_json_parse(j, op->concrete, strlen(op->concrete), &err) < 1 ||
	    tl_json_type(j, 0) != TL_J_ARRAY || tl_json_size(j, 0) <= 5)
		return -1;
	for (t = 1, i = 0; i < 5; i++)
		t = tl_json_next(j, t);
	txt = tl_json_text(j, t, &len);
	if (len == 4 && memcmp(txt, "True", 4) == 0)
		return 1;
	if (len == 5 && memcmp(txt, "False", 5) == 0)
		return 0;
	return -1;
}

/* The last component of a module path without its "_N": its class. */
static int
module_is(const char *path, const char *cls)
{
	const char *s = strrchr(path, '/');
	size_t n = strlen(cls);

	s = s != NULL ? s + 1 : path;
	return strncmp(s, cls, n) == 0 && (s[n] == '\0' || s[n] == '_');
}

/*
 * Facts of each signature the advice keys on: what a GEMM multiplies
 * (weights under a linear layer; two activations in a bmm, as attention
 * does), its batch, and a batch norm's training flag.
 */
static void
op_facts(struct tl_findings *f, struct tl_json *j)
{
	struct tl_fop *op;
	int64_t b;
	int i;

	for (i = 0; i < f->nop; i++) {
		op = &f->op[i];
		op->training = training_flag(j, op);
		if (!tl_category_is(op->cat, "gemm"))
			continue;
		if (param(j, op->params, "B", -1, &b))
			op->batch = b;
		if (strcmp(op->parent_name, "aten::linear") == 0 ||
		    module_is(op->module, "Linear") ||
		    strcmp(op->name, "aten::addmm") == 0 ||
		    strcmp(op->name, "aten::linear") == 0)
			op->operands = TL_OPND_WEIGHTS;
		else if (strcmp(op->name, "aten::bmm") == 0 ||
		    strcmp(op->name, "aten::baddbmm") == 0)
			op->operands = TL_OPND_ACTIVATIONS;
	}
}

static int
cmp_row_order(const void *a, const void *b, void *ctx)
{
	const struct tl_frow *row = ctx;
	const struct tl_frow *x = &row[*(const int *)a];
	const struct tl_frow *y = &row[*(const int *)b];

	if (x->tr != y->tr)
		return x->tr < y->tr ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return *(const int *)a < *(const int *)b ? -1 : 1;
}

/* The rows in host order: by trace, thread and start. */
static void
order_rows(struct tl_findings *f)
{
	int i;

	f->order = tl_malloc(((size_t)f->nrow + 1) * sizeof(*f->order));
	for (i = 0; i < f->nrow; i++)
		f->order[i] = i;
	/* Rows mostly come in that order: sort only when they do not. */
	for (i = 1; i < f->nrow; i++)
		if (cmp_row_order(&f->order[i - 1], &f->order[i], f->row) > 0)
			break;
	if (i < f->nrow)
		sort_idx(f->order, (size_t)f->nrow, cmp_row_order, f->row);
}

/* Module instances: kernel time under each path, with --stack. */
static void
modules(struct tl_findings *f)
{
	struct tl_strmap m;
	struct tl_fop *op;
	struct tl_fmod *md;
	size_t cap = 0;
	int64_t idx;
	int i, added;

	if (!f->has_stack || f->grouped)
		return;
	tl_strmap_init(&m);
	for (i = 0; i < f->nop; i++) {
		op = &f->op[i];
		if (op->module[0] == '\0')
			continue;
		idx = tl_strmap_add(&m, op->module, strlen(op->module), &added);
		if (added) {
			tl_grow(&f->mod, &cap, (size_t)f->nmod + 1,
			    sizeof(*f->mod));
			md = &f->mod[f->nmod++];
			memset(md, 0, sizeof(*md));
			md->path = tl_strdup(op->module);
		}
		md = &f->mod[idx];
		md->ops += op->count;
		md->kernels += op->kernel_count;
		md->time_ns += op->time_ns;
		if (tl_category_is(op->cat, "gemm") ||
		    tl_category_is(op->cat, "conv") ||
		    tl_category_is(op->cat, "attention"))
			md->heavy = 1;
	}
	tl_strmap_free(&m);
}

/* Free the loading state (after a load, or one that tl_die ended). */
static void
loader_free(struct tl_findings *f)
{
	struct tl_floader *L = f->load;
	size_t i;

	if (L->owns)
		tl_stream_close(&L->own);
	tl_rr_free(&L->rr);
	tl_jb_free(&L->key);
	tl_strmap_free(&L->sigs);
	tl_strmap_free(&L->names);
	tl_json_free(&L->j);
	tl_strmap_free(&L->roofmap);
	tl_strmap_free(&L->ptmap);
	tl_strmap_free(&L->trmap);
	tl_kernlist_free(&L->kl);
	free(L->thbuf);
	free(L->idlememo.key);
	for (i = 0; i < L->noproof; i++)
		free(L->oproof[i].m.key);
	free(L->oproof);
	free(L->kc);
	free(L->opname);
	free(L->opk0);
	free(L);
	f->load = NULL;
}

/* A new loading state, zeroed: what a tl_die leaves, tl_findings_free frees. */
static struct tl_floader *
loader_new(struct tl_findings *f)
{
	struct tl_floader *L = f->load = tl_calloc(1, sizeof(*L));

	L->f = f;
	L->lasttr = L->lastroof = -1;
	L->lastid[0] = L->lastid[1] = L->lastid[2] = -1;
	tl_kernlist_init(&L->kl);
	return L;
}

static void links(struct tl_findings *f, const char *hw);

static void
load(struct tl_findings *f, struct tl_floader *L)
{
	struct tl_stream *in = L->in;
	short cols[C_N + TL_SERVING_NCOLS];
	int k, g, cat;

	f->ntr = f->nop = f->nbottlenecks = f->nmod = 0;
	f->captr = f->capb = 0;
	f->tr = NULL;
	f->op = NULL;
	f->bottlenecks = NULL;
	f->bytime = NULL;
	f->mod = NULL;
	f->hw = NULL;
	f->base_tbs = f->peak_tbs = 0;
	f->roof_kind = NULL;
	f->roof_kinds = f->nroofs = f->npts = 0;
	f->roofs = NULL;
	f->pts = NULL;
	memset(f->cat, 0, sizeof(f->cat));
	f->str = tl_strtab_new();
	f->row = NULL;
	f->kev = NULL;
	f->byop0 = f->byop = NULL;
	f->nbyop = 0;
	f->order = NULL;
	f->pat = NULL;
	f->rec = NULL;
	f->nrow = f->nkev = f->npat = f->nrec = 0;
	f->caprow = f->capkev = f->cappat = 0;
	memset(&f->rowahead, 0, sizeof(f->rowahead));
	memset(&f->kevahead, 0, sizeof(f->kevahead));
	memset(&f->cov, 0, sizeof(f->cov));
	/* One reader for the loader and the serving view. */
	memcpy(cols, colid, sizeof(colid));
	memcpy(cols + C_N, tl_serving_cols, sizeof(tl_serving_cols));
	tl_rr_init(&L->rr, in, cols, C_N + TL_SERVING_NCOLS);
	f->serv = tl_calloc(1, sizeof(*f->serv));
	tl_serving_init(f->serv, &L->rr);
	f->xr = tl_calloc(1, sizeof(*f->xr));
	tl_xrank_init(f->xr);
	for (k = 0; k < C_REQUIRED; k++)
		tl_rr_need(&L->rr, colid[k]);
	if (!tl_rr_has(&L->rr, colid[C_ROOF]) ||
	    !tl_rr_has(&L->rr, colid[C_HW]))
		tl_die("%s: the stream has no efficiency columns "
		    "(roofline_time_us, hw): pipe it through tl-efficiency "
		    "--hw NAME first", in->path);
	f->has_eff_cols = 1;
	f->grouped = tl_rr_has(&L->rr, colid[C_COUNT]);
	f->has_stack = tl_rr_has(&L->rr, colid[C_MODULE]);
	L->has_idle = tl_rr_has(&L->rr, colid[C_IDLEGAPS]);
	spans_init(L, &L->idlespans, idlecols, NIDLECOLS);
	spans_init(L, &L->roofspans, roofcols, NROOFCOLS);
	for (k = 0; k < tl_ncategories() && k < TL_CAT_MAX; k++)
		L->catkind[k] = (unsigned char)(
		    (tl_category_is(k, "other") ? CK_OTHER : 0) |
		    (tl_category_is(k, "comm") ? CK_COMM : 0));
	if (!f->idle.loaded) {
		tl_fidle_init(&f->idle);
		if (tl_fidle_known(&f->idle, NULL) < 0)
			tl_die("the built-in culprit table is broken");
	}
	while (tl_rr_next(&L->rr)) {
		/* The GPU events, read once for the loader and the serving view. */
		const struct tl_field *kv = tl_rr_field(&L->rr,
		    colid[C_KERNELS]);

		L->kbad = tl_kernlist_readn(&L->kl, kv->s, kv->n) < 0;
		cat = load_row(L);
		tl_serving_row(f->serv, &L->kl, cat, L->rowop, &L->roof);
	}
	tl_serving_finish(f->serv);
	tl_fidle_finish(&f->idle);
	if (f->ntr == 0)
		tl_die("%s: no op rows: nothing to analyse", in->path);
	if (f->roof_kind == NULL)
		f->roof_kind = tl_strdup("");
	for (k = 0; k < f->ntr; k++)
		finish_trace(f, &f->tr[k], &L->names);
	for (k = 0; k < f->ntr; k++) {
		const struct tl_ftrace *t = &f->tr[k];
		int64_t tlc[TL_TLC_N];

		tlc[TL_TLC_TOTAL] = t->total_ns;
		tlc[TL_TLC_BUSY] = t->busy_ns;
		tlc[TL_TLC_COMPUTE] = t->compute_ns;
		tlc[TL_TLC_EXPOSED_COMM] = t->comm_ns;
		tlc[TL_TLC_EXPOSED_MEMCPY] = t->memcpy_ns;
		tlc[TL_TLC_IDLE] = t->idle_ns;
		tl_xrank_trace(f->xr, k, t->name, t->rank, t->gpu, t->hw, tlc);
	}
	{	/* each trace's largest idle culprits, for its summary */
		size_t i, n = 0;

		for (i = 0; i < f->idle.n; i++) {
			const struct tl_fculprit *c = &f->idle.c[i];

			n = i > 0 && c->tr == f->idle.c[i - 1].tr ? n + 1 : 0;
			if (n < TL_XSUM_CULPRITS && !c->warm)
				tl_xrank_culprit(f->xr, c->tr, c->kind,
				    c->name, c->ns);
		}
	}
	if (f->ntr > 1)	/* the cross-rank analysis reads summaries only */
		tl_xsum_canon(f->xr);
	links(f, f->hw);
	tl_xrank_finish(f->xr);
	analyse(f, &L->j);
	op_facts(f, &L->j);
	modules(f);
	order_rows(f);
	f->cov.has_launch = 1;
	f->cov.has_unlinked = 1;
	for (k = 0; k < f->ntr; k++) {
		f->cov.has_launch &= f->tr[k].has_launch;
		f->cov.has_unlinked &= f->tr[k].has_unlinked;
		f->cov.unlinked_ns += f->tr[k].unlinked_ns;
		f->cov.unlinked_count += f->tr[k].unlinked_count;
	}
	/* Gap names point into L->names: keep its keys alive. */
	for (k = 0; k < f->ntr; k++)
		for (g = 0; g < f->tr[k].ntop; g++) {
			f->tr[k].top[g].before = tl_strdup(f->tr[k].top[g].before);
			f->tr[k].top[g].after = tl_strdup(f->tr[k].top[g].after);
		}
	loader_free(f);
}

void
tl_findings_load(struct tl_findings *f, char *const *files, int nfiles)
{
	struct tl_floader *L = loader_new(f);

	L->owns = 1;		/* also when tl_stream_open dies */
	L->in = &L->own;
	tl_stream_open(&L->own, files, nfiles);
	load(f, L);
}

void
tl_findings_read(struct tl_findings *f, struct tl_stream *in)
{
	struct tl_floader *L = loader_new(f);

	L->in = in;
	load(f, L);
}

struct tl_fpat *
tl_findings_pat(struct tl_findings *f, enum tl_patkind k)
{
	struct tl_fpat *p;

	tl_grow(&f->pat, &f->cappat, (size_t)f->npat + 1, sizeof(*f->pat));
	p = &f->pat[f->npat++];
	memset(p, 0, sizeof(*p));
	p->kind = k;
	p->example_row = -1;
	p->tbs = -1;
	return p;
}

void
tl_fpat_ev(struct tl_fpat *p, int op, uint32_t kname, long long count,
    int64_t time_ns)
{
	int i = -1;

	if (op >= 0 && (size_t)op < p->nevop && p->evop[op] > 0 &&
	    p->evop[op] <= p->nev && p->ev[p->evop[op] - 1].op == op)
		i = p->evop[op] - 1;	/* an op's entry is its only one */
	else
		for (i = 0; i < p->nev; i++)
			if (p->ev[i].op == op &&
			    (op >= 0 || p->ev[i].kname == kname))
				break;
	if (op >= 0) {
		if ((size_t)op >= p->nevop)
			tl_grow_set(&p->evop, &p->nevop, (size_t)op + 1,
			    sizeof(*p->evop), 0);
		p->evop[op] = i + 1;
	}
	if (i == p->nev) {
		tl_grow(&p->ev, &p->capev, (size_t)p->nev + 1,
		    sizeof(*p->ev));
		memset(&p->ev[i], 0, sizeof(p->ev[i]));
		p->ev[i].op = op;
		p->ev[i].kname = op >= 0 ? 0 : kname;
		p->nev++;
	}
	p->ev[i].count += count;
	p->ev[i].time_ns += time_ns;
}

const char *
tl_patkind_name(enum tl_patkind k)
{
	static const char *const name[TL_PAT_N] = {
		"unfused_attention", "decomposed_norm", "layout_conversion",
		"layout_copy", "elementwise_chain", "gemm_alignment",
		"gemm_old_arch", "gemm_tile", "pageable_copy", "sync", "idle",
		"exposed_comm", "recompute", "gemm_shape", "kernel_cause",
		"idle_culprit"
	};

	return k < TL_PAT_N ? name[k] : "";
}

const char *
tl_prio_rule_name(int rule)
{
	static const char *const name[] = {
		"critical", "high_share", "high_efficiency", "medium_share",
		"medium_pattern", "low"
	};

	return rule >= 0 && rule <= TL_PR_LOW ? name[rule] : "";
}

const char *
tl_fstr(const struct tl_findings *f, uint32_t id)
{
	return tl_str(f->str, id);
}

int
tl_findings_worst(const struct tl_findings *f)
{
	return f->nbottlenecks > 0 ? (int)f->op[f->bottlenecks[0]].prio : -1;
}

/* The links of the GPU table row hw ("" unknown) and the user's. */
static void
links(struct tl_findings *f, const char *hw)
{
	const struct tl_hw *h = hw != NULL && hw[0] != '\0' ?
	    tl_hw_find(hw) : NULL;
	const char *lname = NULL;
	double link = h != NULL ? tl_hw_link_gbs(h, &lname, NULL) : 0;

	tl_xrank_links(f->xr, link, lname, f->ranks_per_node, f->net_gbs);
}

void
tl_findings_summaries(struct tl_findings *f, struct tl_stream *in)
{
	int r;

	f->xr = tl_calloc(1, sizeof(*f->xr));
	tl_xrank_init(f->xr);
	tl_xsum_read(f->xr, in);
	if (f->xr->nrk == 0)
		tl_die("%s: no rows: a summary holds one rank row at least",
		    in->path);
	/* The GPU table row, as an op stream's first row names it. */
	for (r = 0; r < f->xr->nrk && f->xr->rk[r].hw[0] == '\0'; r++)
		;
	links(f, r < f->xr->nrk ? f->xr->rk[r].hw : NULL);
	tl_xrank_finish(f->xr);
}

void
tl_findings_free(struct tl_findings *f)
{
	int i, k;

	free(f->byop0);
	free(f->byop);
	f->byop0 = f->byop = NULL;
	f->nbyop = 0;

	if (f->xr != NULL) {
		tl_xrank_free(f->xr);
		free(f->xr);
		f->xr = NULL;
	}
	free(f->failed);
	f->failed = NULL;
	tl_fidle_free(&f->idle);
	if (f->causes_loaded)
		tl_known_free(&f->causes);
	f->causes_loaded = 0;

	for (i = 0; i < f->nop; i++) {
		struct tl_fop *op = &f->op[i];

		free(op->name), free(op->direction), free(op->dims);
		free(op->types), free(op->strides), free(op->concrete);
		free(op->perf_model), free(op->params), free(op->compute_spec);
		free(op->bound), free(op->perf_error), free(op->parent_name);
		free(op->peak_why);
		free(op->module), free(op->call_stack), free(op->uid);
		free(op->trace);
		for (k = 0; k < op->nkern; k++)
			free(op->kern[k].name);
	}
	for (i = 0; i < f->ntr; i++) {
		struct tl_ftrace *t = &f->tr[i];

		free(t->name), free(t->rank), free(t->gpu), free(t->hw);
		free(t->arch);
		for (k = 0; k < t->ntop; k++) {
			free((char *)t->top[k].before);
			free((char *)t->top[k].after);
		}
		tl_ahead_free(&t->ev, &t->evahead);
		free(t->strip);
	}
	for (i = 0; i < f->nroofs; i++) {
		struct tl_froof *r = &f->roofs[i];

		free(r->hw), free(r->spec), free(r->kind), free(r->bw_kind);
	}
	free(f->roofs);
	free(f->pts);
	free(f->roof_kind);
	for (k = 0; k < TL_CAT_MAX; k++) {
		free(f->cat[k].ops);
		free((char *)f->cat[k].error);
	}
	for (i = 0; i < f->nmod; i++)
		free(f->mod[i].path);
	free(f->mod);
	for (i = 0; i < f->npat; i++) {
		free(f->pat[i].where);
		free(f->pat[i].example);
		free(f->pat[i].detail);
		free(f->pat[i].ev);
		free(f->pat[i].evop);
	}
	free(f->pat);
	free(f->rec);
	tl_ahead_free(&f->row, &f->rowahead);
	tl_ahead_free(&f->kev, &f->kevahead);
	free(f->order);
	if (f->str != NULL)
		tl_strtab_free(f->str);
	f->str = NULL;
	f->pat = NULL;
	f->rec = NULL;
	f->row = NULL;
	f->kev = NULL;
	f->order = NULL;
	f->npat = f->nrec = f->nrow = f->nkev = 0;
	free(f->op);
	free(f->tr);
	free(f->bottlenecks);
	free(f->bytime);
	free((char *)f->hw);
	if (f->serv != NULL) {
		tl_serving_free(f->serv);
		free(f->serv);
		f->serv = NULL;
	}
	if (f->load != NULL)
		loader_free(f);
}

const struct tl_fcat *
tl_findings_cat(const struct tl_findings *f, const char *value)
{
	static const struct tl_fcat none;
	int c = tl_category_index(value);

	return c >= 0 ? &f->cat[c] : &none;
}

int
tl_findings_xtrace(const struct tl_findings *f, int r)
{
	int k;

	if (f->xr == NULL || r < 0 || r >= f->xr->nrk)
		return -1;
	for (k = 0; k < f->ntr; k++)
		if (strcmp(f->tr[k].name, f->xr->rk[r].name) == 0 &&
		    strcmp(f->tr[k].rank, f->xr->rk[r].rank_text) == 0)
			return k;
	return -1;
}

int
tl_findings_straggler(const struct tl_findings *f)
{
	return f->xr != NULL ? tl_findings_xtrace(f, f->xr->straggler) : -1;
}
