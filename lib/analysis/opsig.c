/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/opsig.h"
#include "common/json.h"
#include "common/jsonw.h"
#include "common/util.h"
#include "model/perfcols.h"
#include "model/perfmodel.h"
#include "stream/stream.h"

const char *const tl_sig_cols[TL_SIG_N] = {
	"name", "input_dims", "input_types", "input_strides",
	"concrete_inputs"
};

const char *const tl_tlc_cols[TL_TLC_N] = {
	"trace_total_us", "trace_busy_us", "trace_compute_us",
	"trace_exposed_comm_us", "trace_exposed_memcpy_us", "trace_idle_us"
};

/* The columns of one input. */
struct cols {
	int sig[TL_SIG_N];
	int trace, hw, gpu, gpu_arch, gpu_cus, gpu_mem, count, time, pct,
	    kernels;
	int category, direction, model, flops, bytes, spec;
	int tlc[TL_TLC_N];
	int have_perf;
};

/* What reading one input needs besides the result. */
struct tl_sigreader {
	struct tl_stream in;
	struct cols c;
	struct tl_perfcols pc;
	int pc_on;		/* pc is set up */
	struct tl_jbuf key;
	struct tl_json j;
	char *buf;		/* a kernel name, unescaped */
	size_t bufcap;
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
	return tl_strdup(tl_stream_get(&r->in, c));
}

/* The current row's signature key: the fields, each ending in 0x1f. */
static void
row_key(struct tl_sigreader *r)
{
	int k;

	tl_jb_reset(&r->key);
	for (k = 0; k < TL_SIG_N; k++) {
		tl_jb_lit(&r->key, tl_stream_get(&r->in, r->c.sig[k]));
		tl_jb_raw(&r->key, "\x1f", 1);
	}
}

/* Fill a new signature from the current row. */
static void
first_row(struct tl_sigreader *r, struct tl_opsig *s)
{
	int k;

	memset(s, 0, sizeof(*s));
	for (k = 0; k < TL_SIG_N; k++)
		s->f[k] = field(r, r->c.sig[k]);
	s->category = field(r, r->c.category);
	s->direction = field(r, r->c.direction);
	if (r->c.have_perf) {
		s->perf_model = field(r, r->c.model);
		s->compute_spec = field(r, r->c.spec);
		s->has_flops = tl_stream_i64(&r->in, r->c.flops, &s->flops);
		s->has_bytes = tl_stream_i64(&r->in, r->c.bytes, &s->bytes);
	} else {
		tl_perfcols_model(&r->pc, &r->in);
		s->perf_model = tl_strdup(r->pc.rc == 1 ? "" : r->pc.model);
		s->compute_spec = tl_strdup(r->pc.compute_spec);
		s->has_flops = r->pc.has_flops;
		s->has_bytes = r->pc.has_bytes;
		s->flops = r->pc.flops;
		s->bytes = r->pc.bytes;
	}
}

static void
add_kernel(struct tl_opsig *s, const char *name, int64_t ns)
{
	size_t i;

	for (i = s->nk; i-- > 0;)
		if (strcmp(s->k[i].name, name) == 0)
			break;
	if (i == (size_t)-1) {
		tl_grow(&s->k, &s->capk, s->nk + 1, sizeof(*s->k));
		i = s->nk++;
		s->k[i].name = tl_strdup(name);
		s->k[i].count = 0;
		s->k[i].ns = 0;
	}
	s->k[i].count++;
	s->k[i].ns += ns;
}

/* Add the events of the current row's kernels column to s. */
static void
add_kernels(struct tl_sigreader *r, struct tl_opsig *s)
{
	const char *text = tl_stream_get(&r->in, r->c.kernels), *err, *v;
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
			if (tl_parse_us_ns(v, n, &ns) < 0)
				tl_die("%s: kernels: dur is not a number",
				    tl_stream_where(&r->in));
		}
		v = tl_json_text(&r->j, e, &n);
		tl_grow(&r->buf, &r->bufcap, n + 1, 1);
		r->buf[tl_json_unescape(r->buf, v, n)] = '\0';
		add_kernel(s, r->buf, ns);
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

	if (r->c.count >= 0 && tl_stream_i64(&r->in, r->c.count, &count) &&
	    count < 1)
		tl_die("%s: count %lld is not positive",
		    tl_stream_where(&r->in), (long long)count);
	tl_stream_us(&r->in, r->c.time, &t);
	if (tl_add(&s->count, s->count, count) < 0 ||
	    tl_add(&s->time_ns, s->time_ns, t) < 0)
		tl_die("%s: the signature's count or time overflows",
		    tl_stream_where(&r->in));
	/* Every instance has the first's FLOPs and bytes. */
	tl_mac(&s->flops_sum, s->flops, count, &ovf);
	tl_mac(&s->bytes_sum, s->bytes, count, &ovf);
	s->sum_ovf |= ovf;
	pct = tl_stream_double(&r->in, r->c.pct);
	if (pct == pct) {
		tl_grow(&pl->v, &pl->cap, pl->n + 1, sizeof(*pl->v));
		pl->v[pl->n++] = pct;
	}
	dir = tl_stream_get(&r->in, r->c.direction);
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
	tl_stream_close(&r->in);
	tl_jb_free(&r->key);
	tl_json_free(&r->j);
	free(r->buf);
	free(r);
	o->reading = NULL;
}

static void
find_cols(struct tl_sigreader *r)
{
	struct cols *c = &r->c;
	int k;

	for (k = 0; k < TL_SIG_N; k++)
		c->sig[k] = tl_stream_col(&r->in, tl_sig_cols[k]);
	c->sig[TL_SIG_NAME] = tl_stream_need(&r->in, "name");
	c->time = tl_stream_need(&r->in, "kernel_time_us");
	c->trace = tl_stream_col(&r->in, "trace");
	c->hw = tl_stream_col(&r->in, "hw");
	c->gpu = tl_stream_col(&r->in, "trace_gpu");
	c->gpu_arch = tl_stream_col(&r->in, "trace_gpu_arch");
	c->gpu_cus = tl_stream_col(&r->in, "trace_gpu_compute_units");
	c->gpu_mem = tl_stream_col(&r->in, "trace_gpu_memory_bytes");
	c->count = tl_stream_col(&r->in, "count");
	c->pct = tl_stream_col(&r->in, "pct_gpu_time");
	c->kernels = tl_stream_col(&r->in, "kernels");
	c->category = tl_stream_col(&r->in, "category");
	c->direction = tl_stream_col(&r->in, "direction");
	c->model = tl_stream_col(&r->in, "perf_model");
	c->flops = tl_stream_col(&r->in, "flops");
	c->bytes = tl_stream_col(&r->in, "bytes");
	c->spec = tl_stream_col(&r->in, "compute_spec");
	for (k = 0; k < TL_TLC_N; k++)
		c->tlc[k] = tl_stream_col(&r->in, tl_tlc_cols[k]);
	c->have_perf = c->flops >= 0 && c->bytes >= 0 && c->spec >= 0;
}

/* Take the trace's constants from the first row. */
static void
trace_constants(struct tl_sigreader *r, struct tl_opsigs *o)
{
	int k;

	o->trace = field(r, r->c.trace);
	o->hw = field(r, r->c.hw);
	o->gpu = field(r, r->c.gpu);
	o->gpu_arch = field(r, r->c.gpu_arch);
	if (!tl_stream_i64(&r->in, r->c.gpu_cus, &o->gpu_cus))
		o->gpu_cus = 0;
	if (!tl_stream_i64(&r->in, r->c.gpu_mem, &o->gpu_mem))
		o->gpu_mem = 0;
	for (k = 0; k < TL_TLC_N; k++)
		o->has_tlc[k] = tl_stream_us(&r->in, r->c.tlc[k],
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
	files[0] = o->path;
	tl_stream_open(&r->in, files, 1);
	find_cols(r);
	o->grouped = r->c.count >= 0;
	if (!r->c.have_perf) {
		tl_perfcols_init(&r->pc, &r->in, NULL);
		r->pc_on = 1;
	}
	while (tl_stream_next(&r->in)) {
		if (nrow++ == 0)
			trace_constants(r, o);
		else if (strcmp(tl_stream_get(&r->in, r->c.trace), o->trace) != 0)
			tl_die("%s: a second trace '%s' (the first is '%s'); "
			    "compare one trace with one trace",
			    tl_stream_where(&r->in),
			    tl_stream_get(&r->in, r->c.trace), o->trace);
		row_key(r);
		i = tl_strmap_add(&o->map, r->key.s, r->key.n, &added);
		if (added) {
			tl_grow(&o->s, &o->cap, o->n + 1, sizeof(*o->s));
			tl_grow(&r->pct, &r->pctcap, o->n + 1, sizeof(*r->pct));
			memset(&r->pct[o->n], 0, sizeof(*r->pct));
			first_row(r, &o->s[o->n++]);
		}
		add_row(r, &o->s[i], &r->pct[i]);
	}
	sum_pcts(r, o);
	if (nrow == 0) {
		o->trace = tl_strdup("");
		o->hw = tl_strdup("");
		o->gpu = tl_strdup("");
		o->gpu_arch = tl_strdup("");
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

		for (f = 0; f < TL_SIG_N; f++)
			free(s->f[f]);
		free(s->category);
		free(s->direction);
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
	tl_strmap_free(&o->map);
	if (o->reading != NULL)
		reader_free(o);
	memset(o, 0, sizeof(*o));
}
