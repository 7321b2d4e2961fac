/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/opsig.h"
#include "common/checked.h"
#include "common/json.h"
#include "common/jsonw.h"
#include "common/util.h"
#include "model/perfcols.h"
#include "stream/schema.h"
#include "stream/stream.h"

/* The columns read. */
static const short cols[] = {
	TL_COL_TRACE, TL_COL_NAME, TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES,
	TL_COL_INPUT_STRIDES, TL_COL_CONCRETE_INPUTS, TL_COL_KERNEL_TIME_US,
	TL_COL_HW, TL_COL_TRACE_GPU, TL_COL_TRACE_GPU_ARCH,
	TL_COL_TRACE_GPU_COMPUTE_UNITS, TL_COL_TRACE_GPU_MEMORY_BYTES,
	TL_COL_TRACE_GPU_KERNEL_ARCH,
	TL_COL_COUNT, TL_COL_PCT_GPU_TIME, TL_COL_KERNELS, TL_COL_CATEGORY,
	TL_COL_DIRECTION, TL_COL_PERF_MODEL, TL_COL_FLOPS, TL_COL_BYTES,
	TL_COL_COMPUTE_SPEC, TL_COL_TRACE_TOTAL_US, TL_COL_TRACE_BUSY_US,
	TL_COL_TRACE_COMPUTE_US, TL_COL_TRACE_EXPOSED_COMM_US,
	TL_COL_TRACE_EXPOSED_MEMCPY_US, TL_COL_TRACE_IDLE_US, TL_COL_MODULE
};

/* What reading one input needs besides the result. */
struct tl_sigreader {
	struct tl_stream in;
	struct tl_rowreader rr;
	int have_perf;		/* the input has flops, bytes, compute_spec */
	struct tl_perfcols pc;
	int pc_on;		/* pc is set up */
	struct tl_jbuf key;
	struct tl_json j;
	char *buf;		/* a kernel name, unescaped */
	size_t bufcap;
	/*
	 * The kernels of all signatures by (signature, name), hashed: a
	 * signature may list 100 000 distinct kernels.  kat[key index] is
	 * the kernel's index in its signature's k.
	 */
	struct tl_strmap kmap;
	size_t *kat, katcap;
	int64_t cur;		/* the signature of the row being read */
	struct tl_jbuf kkey;
	/* Per signature: its rows' pct_gpu_time, summed in order at the end. */
	struct pcts {
		double *v;
		size_t n, cap;
	} *pct;
	size_t pctcap;
};

static char *
field(struct tl_sigreader *r, int c)
{
	return tl_strdup(tl_rr_text(&r->rr, c));
}

/* Fill a new signature from the current row. */
static void
first_row(struct tl_sigreader *r, struct tl_opsig *s)
{
	int k;

	memset(s, 0, sizeof(*s));
	for (k = TL_SIG_NAME; k < TL_SIG_N; k++)
		s->f[k] = field(r, tl_sig_cols[k]);
	s->category = field(r, TL_COL_CATEGORY);
	s->direction = field(r, TL_COL_DIRECTION);
	s->module = field(r, TL_COL_MODULE);
	if (r->have_perf) {
		s->perf_model = field(r, TL_COL_PERF_MODEL);
		s->compute_spec = field(r, TL_COL_COMPUTE_SPEC);
		s->has_flops = tl_rr_i64(&r->rr, TL_COL_FLOPS, &s->flops);
		s->has_bytes = tl_rr_i64(&r->rr, TL_COL_BYTES, &s->bytes);
	} else {
		tl_perfcols_model(&r->pc);
		s->perf_model = tl_strdup(r->pc.rc == 1 ? "" : r->pc.model);
		s->compute_spec = tl_strdup(r->pc.compute_spec);
		s->has_flops = r->pc.has_flops;
		s->has_bytes = r->pc.has_bytes;
		s->flops = r->pc.flops;
		s->bytes = r->pc.bytes;
	}
}

static void
add_kernel(struct tl_sigreader *r, struct tl_opsig *s, const char *name,
    int64_t ns)
{
	int64_t id;
	size_t i;
	int added;

	tl_jb_reset(&r->kkey);
	tl_jb_raw(&r->kkey, (const char *)&r->cur, sizeof(r->cur));
	tl_jb_raw(&r->kkey, name, strlen(name));
	id = tl_strmap_add(&r->kmap, r->kkey.s, r->kkey.n, &added);
	if (added) {
		tl_grow(&r->kat, &r->katcap, (size_t)id + 1, sizeof(*r->kat));
		tl_grow(&s->k, &s->capk, s->nk + 1, sizeof(*s->k));
		i = r->kat[id] = s->nk++;
		s->k[i].name = tl_strdup(name);
		s->k[i].count = 0;
		s->k[i].ns = 0;
	}
	i = r->kat[id];
	s->k[i].count++;
	s->k[i].ns += ns;
}

/* Add the events of the current row's kernels column to s. */
static void
add_kernels(struct tl_sigreader *r, struct tl_opsig *s)
{
	const char *text = tl_rr_text(&r->rr, TL_COL_KERNELS), *err, *v;
	size_t len = strlen(text), n;
	int t, end, e, nt, d;
	int64_t ns;

	if (len == 0)
		return;
	if ((nt = tl_json_parse(&r->j, text, len, &err)) < 0)
		tl_die("%s: kernels: %s", tl_stream_where(&r->in), err);
	if (nt == 0 || tl_json_type(&r->j, 0) != TL_J_ARRAY)
		tl_die("%s: kernels: not a JSON list", tl_stream_where(&r->in));
	end = tl_json_next(&r->j, 0);
	for (t = 1; t < end; t = tl_json_next(&r->j, t)) {
		if (tl_json_type(&r->j, t) != TL_J_OBJECT ||
		    (e = TL_JSON_GET(&r->j, t, "name")) < 0 ||
		    tl_json_type(&r->j, e) != TL_J_STRING)
			tl_die("%s: kernels: an event without a name",
			    tl_stream_where(&r->in));
		ns = 0;
		if ((d = TL_JSON_GET(&r->j, t, "dur")) >= 0) {
			v = tl_json_text(&r->j, d, &n);
			if (tl_parse_us_ns(v, n, &ns) < 0 || ns < 0)
				tl_die("%s: kernels: dur '%.*s' is not a "
				    "number 0 or more", tl_stream_where(&r->in),
				    (int)(n > 40 ? 40 : n), v);
		}
		v = tl_json_text(&r->j, e, &n);
		tl_grow(&r->buf, &r->bufcap, n + 1, 1);
		r->buf[tl_json_unescape(r->buf, v, n)] = '\0';
		add_kernel(r, s, r->buf, ns);
	}
}

/* Add the current row to signature s, its pct_gpu_time to pl. */
static void
add_row(struct tl_sigreader *r, struct tl_opsig *s, struct pcts *pl)
{
	int64_t count = 1, t = 0;
	int ovf = 0;
	double pct;
	const char *dir;

	if (tl_rr_i64(&r->rr, TL_COL_COUNT, &count) && count < 1)
		tl_die("%s: count %lld is not positive",
		    tl_stream_where(&r->in), (long long)count);
	tl_rr_ns(&r->rr, TL_COL_KERNEL_TIME_US, &t);
	if (tl_add(&s->count, s->count, count) < 0 ||
	    tl_add(&s->time_ns, s->time_ns, t) < 0)
		tl_die("%s: the signature's count or time overflows",
		    tl_stream_where(&r->in));
	/* Every instance has the first's FLOPs and bytes. */
	tl_mac(&s->flops_sum, s->flops, count, &ovf);
	tl_mac(&s->bytes_sum, s->bytes, count, &ovf);
	s->sum_ovf |= ovf;
	pct = tl_rr_num(&r->rr, TL_COL_PCT_GPU_TIME);
	if (pct == pct) {
		tl_grow(&pl->v, &pl->cap, pl->n + 1, sizeof(*pl->v));
		pl->v[pl->n++] = pct;
	}
	dir = tl_rr_text(&r->rr, TL_COL_DIRECTION);
	if (s->direction[0] != '\0' && strcmp(dir, s->direction) != 0)
		s->direction[0] = '\0';	/* fwd and bwd instances */
	add_kernels(r, s);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The sums of pct_gpu_time, in increasing order: the same in any row order. */
static void
sum_pcts(struct tl_sigreader *r, struct tl_opsigs *o)
{
	size_t i, k;

	for (i = 0; i < o->n; i++) {
		struct pcts *pl = &r->pct[i];

		if (pl->n > 1)
			qsort(pl->v, pl->n, sizeof(*pl->v), cmp_double);
		o->s[i].has_pct = pl->n > 0;
		for (k = 0; k < pl->n; k++)
			o->s[i].pct += pl->v[k];
	}
}

/* Free the reading state (after a read, or one that tl_die ended). */
static void
reader_free(struct tl_opsigs *o)
{
	struct tl_sigreader *r = o->reading;
	size_t i;

	for (i = 0; i < o->n; i++)
		free(r->pct[i].v);
	free(r->pct);
	if (r->pc_on)
		tl_perfcols_free(&r->pc);
	tl_rr_free(&r->rr);
	tl_stream_close(&r->in);
	tl_jb_free(&r->key);
	tl_jb_free(&r->kkey);
	tl_strmap_free(&r->kmap);
	free(r->kat);
	tl_json_free(&r->j);
	free(r->buf);
	free(r);
	o->reading = NULL;
}

/* Take the trace's constants from the first row. */
static void
trace_constants(struct tl_sigreader *r, struct tl_opsigs *o)
{
	int k;

	o->trace = field(r, TL_COL_TRACE);
	o->hw = field(r, TL_COL_HW);
	o->gpu = field(r, TL_COL_TRACE_GPU);
	o->gpu_arch = field(r, TL_COL_TRACE_GPU_ARCH);
	o->gpu_kernel_arch = field(r, TL_COL_TRACE_GPU_KERNEL_ARCH);
	if (!tl_rr_i64(&r->rr, TL_COL_TRACE_GPU_COMPUTE_UNITS, &o->gpu_cus))
		o->gpu_cus = 0;
	if (!tl_rr_i64(&r->rr, TL_COL_TRACE_GPU_MEMORY_BYTES, &o->gpu_mem))
		o->gpu_mem = 0;
	for (k = 0; k < TL_TLC_N; k++)
		o->has_tlc[k] = tl_rr_ns(&r->rr, tl_tlc_cols[k],
		    &o->tlc_ns[k]);
}

void
tl_opsigs_read(struct tl_opsigs *o, const char *path)
{
	struct tl_sigreader *r;
	char *files[1];
	int added, nrow = 0;
	int64_t i;

	memset(o, 0, sizeof(*o));
	/* Zeroed: what a tl_die leaves is freed by tl_opsigs_free. */
	r = o->reading = tl_calloc(1, sizeof(*r));
	o->path = tl_strdup(path);
	tl_strmap_init(&o->map);
	tl_strmap_init(&r->kmap);
	r->kmap.probes = &o->kprobes;
	files[0] = o->path;
	tl_stream_open(&r->in, files, 1);
	tl_rr_init(&r->rr, &r->in, cols, (int)(sizeof(cols) / sizeof(cols[0])));
	tl_rr_need(&r->rr, TL_COL_NAME);
	tl_rr_need(&r->rr, TL_COL_KERNEL_TIME_US);
	o->grouped = tl_rr_has(&r->rr, TL_COL_COUNT);
	r->have_perf = tl_rr_has(&r->rr, TL_COL_FLOPS) &&
	    tl_rr_has(&r->rr, TL_COL_BYTES) &&
	    tl_rr_has(&r->rr, TL_COL_COMPUTE_SPEC);
	if (!r->have_perf) {
		tl_perfcols_init(&r->pc, &r->in, NULL);
		r->pc_on = 1;
	}
	while (tl_rr_next(&r->rr)) {
		const char *trace = tl_rr_text(&r->rr, TL_COL_TRACE);

		if (nrow++ == 0)
			trace_constants(r, o);
		else if (strcmp(trace, o->trace) != 0)
			tl_die("%s: a second trace '%s' (the first is '%s'); "
			    "compare one trace with one trace",
			    tl_stream_where(&r->in), trace, o->trace);
		tl_rr_sigkey(&r->rr, TL_SIGKEY_OP, &r->key);
		i = tl_strmap_add(&o->map, r->key.s, r->key.n, &added);
		if (added) {
			tl_grow(&o->s, &o->cap, o->n + 1, sizeof(*o->s));
			tl_grow(&r->pct, &r->pctcap, o->n + 1, sizeof(*r->pct));
			memset(&r->pct[o->n], 0, sizeof(*r->pct));
			first_row(r, &o->s[o->n++]);
		}
		r->cur = i;
		add_row(r, &o->s[i], &r->pct[i]);
	}
	sum_pcts(r, o);
	if (nrow == 0) {
		o->trace = tl_strdup("");
		o->hw = tl_strdup("");
		o->gpu = tl_strdup("");
		o->gpu_arch = tl_strdup("");
		o->gpu_kernel_arch = tl_strdup("");
	}
	reader_free(o);
}

void
tl_opsigs_free(struct tl_opsigs *o)
{
	size_t i, k;
	int f;

	for (i = 0; i < o->n; i++) {
		struct tl_opsig *s = &o->s[i];

		for (f = TL_SIG_NAME; f < TL_SIG_N; f++)
			free(s->f[f]);
		free(s->category);
		free(s->direction);
		free(s->module);
		free(s->perf_model);
		free(s->compute_spec);
		for (k = 0; k < s->nk; k++)
			free(s->k[k].name);
		free(s->k);
	}
	free(o->s);
	free(o->path);
	free(o->trace);
	free(o->hw);
	free(o->gpu);
	free(o->gpu_arch);
	free(o->gpu_kernel_arch);
	tl_strmap_free(&o->map);
	if (o->reading != NULL)
		reader_free(o);
	memset(o, 0, sizeof(*o));
}
