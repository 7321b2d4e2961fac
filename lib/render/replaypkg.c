/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonw.h"
#include "common/outfile.h"
#include "common/util.h"
#include "model/roweff.h"
#include "render/replaypkg.h"
#include "render/zipw.h"
#include "stream/schema.h"
#include "stream/stream.h"

#define IR_FILE		"replay_ir.json"
#define RUNNER_FILE	"replay.py"
#define README_FILE	"README.md"
#define ALLOWED_FILE	"allowed_ops.tsv"
#define NFILES		4

/* The columns read. */
static const short cols[] = {
	TL_COL_TRACE, TL_COL_NAME, TL_COL_CATEGORY, TL_COL_DIRECTION,
	TL_COL_INPUT_DIMS, TL_COL_INPUT_TYPES, TL_COL_INPUT_STRIDES,
	TL_COL_CONCRETE_INPUTS, TL_COL_KERNELS, TL_COL_PARENT_NAME,
	TL_COL_MODULE, TL_COL_CALL_STACK, TL_COL_PERF_MODEL, TL_COL_PARAMS,
	TL_COL_COUNT, TL_COL_KERNEL_TIME_MIN_US, TL_COL_KERNEL_TIME_MAX_US,
	TL_COL_PCT_GPU_TIME, TL_COL_PCT_ROOFLINE, TL_ROWEFF_COLS,
	TL_HWAUTO_COLS
};

/* A time of one instance in ns, def when empty; dies when malformed. */
static int64_t
time_ns(struct tl_rowreader *rr, int c, int64_t def)
{
	int64_t ns = def;

	tl_rr_ns(rr, c, &ns);
	return ns;
}

/* The replay row of the current stream row. */
static void
make_row(const struct tl_rowreader *rr, const struct tl_roweff *re,
    const struct tl_eff *e, int have_model, struct tl_replay_row *row)
{
	memset(row, 0, sizeof(*row));
	row->trace = tl_rr_text(rr, TL_COL_TRACE);
	row->name = tl_rr_text(rr, TL_COL_NAME);
	row->category = tl_rr_text(rr, TL_COL_CATEGORY);
	row->direction = tl_rr_text(rr, TL_COL_DIRECTION);
	row->dims = tl_rr_text(rr, TL_COL_INPUT_DIMS);
	row->types = tl_rr_text(rr, TL_COL_INPUT_TYPES);
	row->strides = tl_rr_text(rr, TL_COL_INPUT_STRIDES);
	row->concrete = tl_rr_text(rr, TL_COL_CONCRETE_INPUTS);
	row->kernels = tl_rr_text(rr, TL_COL_KERNELS);
	row->parent_name = tl_rr_text(rr, TL_COL_PARENT_NAME);
	row->module = tl_rr_text(rr, TL_COL_MODULE);
	row->call_stack = tl_rr_text(rr, TL_COL_CALL_STACK);
	if (have_model) {
		row->perf_model = tl_rr_text(rr, TL_COL_PERF_MODEL);
		row->params = tl_rr_text(rr, TL_COL_PARAMS);
	} else {
		row->perf_model = re->pc.rc == 0 ? re->pc.model : "";
		row->params = re->pc.rc == 0 && re->pc.p.nparams > 0 ?
		    re->pc.p.params.s : "";
	}
	row->has_flops = e->has_flops;
	row->has_bytes = e->has_bytes;
	row->flops = e->flops;
	row->bytes = e->bytes;
}

void
tl_replay_read(struct tl_replay *r, char *const *files, int nfiles,
    struct tl_hwauto *hw, enum tl_roof roof, int bottlenecks)
{
	struct tl_stream in;
	struct tl_rowreader rr;
	struct tl_roweff re;
	int have_model, nbad = 0;

	tl_stream_open(&in, files, nfiles);
	tl_rr_init(&rr, &in, cols, (int)(sizeof(cols) / sizeof(cols[0])));
	tl_rr_need(&rr, TL_COL_NAME);
	tl_rr_need(&rr, TL_COL_KERNEL_TIME_US);
	if (bottlenecks && !tl_rr_has(&rr, TL_COL_PCT_GPU_TIME))
		tl_die("--bottlenecks: the input has no pct_gpu_time column "
		    "(tl-parse writes it)");
	if (bottlenecks && !tl_rr_has(&rr, TL_COL_PCT_ROOFLINE) && hw == NULL)
		tl_diex(TL_EXIT_USAGE, "--bottlenecks: the input has no "
		    "pct_roofline column; give --hw NAME to compute it (or run "
		    "tl-efficiency first)");
	if (hw != NULL)
		tl_hwauto_columns(hw, &rr);
	tl_roweff_init(&re, &rr, roof, 0, 0, TL_PEAK_TOL_PCT);
	have_model = re.have_perf && tl_rr_has(&rr, TL_COL_PERF_MODEL) &&
	    tl_rr_has(&rr, TL_COL_PARAMS);
	while (tl_rr_next(&rr)) {
		struct tl_replay_row row;
		struct tl_eff e;
		const char *err;
		int64_t count = 1;

		if (tl_rr_i64(&rr, TL_COL_COUNT, &count) && count < 1)
			tl_die("%s: count %lld is not positive",
			    tl_stream_where(&in), (long long)count);
		tl_roweff_row(&re, &rr, hw != NULL ? tl_hwauto_row(hw, &rr) :
		    NULL, &e);
		make_row(&rr, &re, &e, have_model, &row);
		row.count = count;
		row.time_ns = time_ns(&rr, TL_COL_KERNEL_TIME_US, 0);
		row.min_ns = time_ns(&rr, TL_COL_KERNEL_TIME_MIN_US,
		    row.time_ns / count);
		row.max_ns = time_ns(&rr, TL_COL_KERNEL_TIME_MAX_US,
		    row.time_ns / count);
		row.pct_gpu_time = tl_rr_num(&rr, TL_COL_PCT_GPU_TIME);
		row.pct_roofline = tl_rr_has(&rr, TL_COL_PCT_ROOFLINE) ?
		    tl_rr_num(&rr, TL_COL_PCT_ROOFLINE) :
		    e.has_pct ? e.r.pct_roofline : NAN;
		if (tl_replay_add(r, &row, &err) < 0 && nbad++ == 0)
			tl_warn("%s: %s: %s: row left out",
			    tl_stream_where(&in), row.name, err);
	}
	if (nbad > 1)
		tl_warn("%d rows left out in all: their arguments do not parse",
		    nbad);
	tl_roweff_free(&re);
	tl_rr_free(&rr);
	tl_stream_close(&in);
}

void
tl_replay_print(const struct tl_replay *r, FILE *fp)
{
	struct tl_jbuf ir = { NULL, 0, 0 };

	tl_replay_ir(r, &ir);
	fwrite(ir.s, 1, ir.n, fp);
	tl_jb_free(&ir);
}

/* The package's files: their names, modes and texts. */
struct pkg {
	struct tl_jbuf ir, readme;
	const char *name[NFILES];
	const char *text[NFILES];
	unsigned mode[NFILES];
};

static void
pkg_make(struct tl_replay *r, struct pkg *p)
{
	memset(p, 0, sizeof(*p));
	tl_replay_ir(r, &p->ir);
	tl_replay_readme_text(r, IR_FILE, RUNNER_FILE, &p->readme);
	p->name[0] = IR_FILE;
	p->text[0] = p->ir.s;
	p->mode[0] = 0644;
	p->name[1] = RUNNER_FILE;
	p->text[1] = tl_replay_runner;
	p->mode[1] = 0755;
	p->name[2] = README_FILE;
	p->text[2] = p->readme.s;
	p->mode[2] = 0644;
	p->name[3] = ALLOWED_FILE;
	p->text[3] = tl_replay_allowed;
	p->mode[3] = 0644;
}

static void
pkg_free(struct pkg *p)
{
	tl_jb_free(&p->ir);
	tl_jb_free(&p->readme);
}

void
tl_replay_write_dir(struct tl_replay *r, const char *dir)
{
	struct tl_outset *s = tl_outset_begin(dir, "tl-replay");
	struct pkg p;
	FILE *fp;
	int k;

	pkg_make(r, &p);
	/* The file modes before the umask: any user may run the runner. */
	for (k = 0; k < NFILES; k++) {
		fp = tl_outset_open(s, p.name[k], (int)(p.mode[k] | 0022));
		fputs(p.text[k], fp);
		tl_outset_close(s, fp);
	}
	tl_outset_commit(s);
	pkg_free(&p);
}

/* The archive's top folder: FILE's base name less ".zip". */
static char *
zip_folder(const char *file)
{
	const char *b = strrchr(file, '/');
	char *s = tl_strdup(b != NULL ? b + 1 : file);
	size_t n = strlen(s);

	if (n > 4 && strcmp(s + n - 4, ".zip") == 0)	/* not a verdict */
		s[n - 4] = '\0';
	if (s[0] == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
		free(s);
		s = tl_strdup("tl-replay");
	}
	return s;
}

void
tl_replay_write_zip(struct tl_replay *r, const char *file)
{
	struct tl_zip *z = tl_zip_create(file);
	char *folder = zip_folder(file), *path;
	struct pkg p;
	size_t len;
	int k;

	pkg_make(r, &p);
	for (k = 0; k < NFILES; k++) {
		len = strlen(folder) + strlen(p.name[k]) + 2;
		path = tl_malloc(len);
		snprintf(path, len, "%s/%s", folder, p.name[k]);
		tl_zip_add(z, path, p.mode[k], p.text[k], strlen(p.text[k]));
		free(path);
	}
	tl_zip_close(z);
	free(folder);
	pkg_free(&p);
}
