/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tabfile.h"
#include "common/util.h"
#include "model/dtype.h"
#include "model/expr.h"
#include "model/model_file.h"

extern const char tl_default_models[];	/* models_table.c */

struct tl_filemodel {
	char *op, *maf, *flops, *bytes;
	int dtype;		/* the slot whose dtype is the precision */
};

static struct tl_filemodel *tab;
static size_t ntab, captab;

void
tl_filemodels_free(void)
{
	size_t i;

	for (i = 0; i < ntab; i++) {
		free(tab[i].op);
		free(tab[i].maf);
		free(tab[i].flops);
		free(tab[i].bytes);
	}
	free(tab);
	tab = NULL;
	ntab = captab = 0;
}

const struct tl_filemodel *
tl_filemodel_find(const char *op)
{
	size_t i;

	for (i = ntab; i-- > 0;)	/* the last entry of a name wins */
		if (strcmp(tab[i].op, op) == 0)
			return &tab[i];
	return NULL;
}

/* Check and keep one model; 0, or -1 with t->err set. */
static int
add(struct tl_tabfile *t)
{
	const char *op = tl_tabfile_get(t, 0), *maf = tl_tabfile_get(t, 1);
	const char *dt = tl_tabfile_get(t, 4);
	char err[128], *end;
	struct tl_filemodel *m;
	long slot = 0;
	int k;

	if (op[0] == '\0')
		return tl_tabfile_error(t, t->line, "empty op name");
	if (strcmp(maf, "matrix") != 0 && strcmp(maf, "vector") != 0)
		return tl_tabfile_error(t, t->line, "maf must be 'matrix' or "
		    "'vector'");
	for (k = 2; k < 4; k++)
		if (tl_tabfile_get(t, k)[0] != '\0' &&
		    tl_expr_check(tl_tabfile_get(t, k), err, sizeof(err)) < 0)
			return tl_tabfile_error(t, t->line, "%s formula: %s",
			    k == 2 ? "flops" : "bytes", err);
	if (dt[0] != '\0' && ((slot = strtol(dt, &end, 10)) < 0 ||
	    slot > 999 || *end != '\0' || dt[0] < '0' || dt[0] > '9'))
		return tl_tabfile_error(t, t->line, "dtype must be an argument "
		    "slot, 0 to 999");
	tl_grow(&tab, &captab, ntab + 1, sizeof(*tab));
	m = &tab[ntab++];
	m->op = tl_strdup(op);
	m->maf = tl_strdup(maf);
	m->flops = tl_strdup(tl_tabfile_get(t, 2));
	m->bytes = tl_strdup(tl_tabfile_get(t, 3));
	m->dtype = (int)slot;
	return 0;
}

int
tl_filemodels_load(const char *path)
{
	static const char *const col[] = {
		"op", "maf", "flops", "bytes", "dtype"
	};
	struct tl_tabfile t;
	int rc;

	if (tl_tabfile_open(&t, path, tl_default_models,
	    "built-in models/default.tsv", col, 5, 4, 0) < 0) {
		tl_warn("%s", t.err);
		return -1;
	}
	while ((rc = tl_tabfile_next(&t)) > 0 && (rc = add(&t)) == 0)
		;
	tl_tabfile_close(&t);
	if (rc < 0)
		tl_warn("%s", t.err);
	return rc;
}

static const char **wanted;
static size_t nwanted, capwanted;

void
tl_filemodels_want(const char *path)
{
	tl_grow(&wanted, &capwanted, nwanted + 1, sizeof(*wanted));
	wanted[nwanted++] = path;
}

int
tl_filemodels_setup(void)
{
	size_t i;
	int rc = tl_filemodels_load(NULL);

	for (i = 0; i < nwanted && rc == 0; i++)
		rc = tl_filemodels_load(wanted[i]);
	free(wanted);
	wanted = NULL;
	nwanted = capwanted = 0;
	return rc;
}

int
tl_filemodel_run(const struct tl_filemodel *m, const struct tl_opargs *o,
    struct tl_perf *p)
{
	char e1[128] = "", e2[128] = "";

	p->maf = strcmp(m->maf, "matrix") == 0 ? "matrix" : "vector";
	p->precision = tl_dtype_precision(tl_oparg(o, m->dtype)->type);
	tl_perf_param_str(p, "model_file", m->op);
	if (m->flops[0] != '\0' &&
	    tl_expr_eval(m->flops, o, &p->flops, e1, sizeof(e1)) == 0)
		p->has_flops = 1;
	if (m->bytes[0] != '\0' &&
	    tl_expr_eval(m->bytes, o, &p->bytes, e2, sizeof(e2)) == 0)
		p->has_bytes = 1;
	if (!p->has_flops && !p->has_bytes)
		return tl_perf_fail(p, "%s: %s", m->op, e1[0] ? e1 :
		    e2[0] ? e2 : "no formula");
	/* One formula failed: the other's count stands, the error shows. */
	if (e1[0] != '\0' || e2[0] != '\0')
		snprintf(p->err, sizeof(p->err), "%s formula: %s",
		    e1[0] != '\0' ? "flops" : "bytes", e1[0] != '\0' ? e1 : e2);
	return 0;
}
