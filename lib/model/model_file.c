/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/expr.h"
#include "model/model_file.h"

extern const char tl_default_models[];	/* models_table.c */

struct tl_filemodel {
	char *op, *maf, *flops, *bytes;
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

/* Parse one line (modified in place); 0, or -1 with *what set. */
static int
line(char *s, int *header, const char **what)
{
	char *f[4], err[128];
	int nf = 0, k;
	struct tl_filemodel *m;

	f[nf++] = s;
	for (char *p = s; *p != '\0'; p++)
		if (*p == '\t') {
			if (nf == 4) {
				*what = "more than 4 fields";
				return -1;
			}
			*p = '\0';
			f[nf++] = p + 1;
		}
	if (!*header) {
		*header = 1;
		if (nf != 4 || strcmp(f[0], "op") != 0 ||
		    strcmp(f[1], "maf") != 0 || strcmp(f[2], "flops") != 0 ||
		    strcmp(f[3], "bytes") != 0) {
			*what = "expected the header "
			    "'op<TAB>maf<TAB>flops<TAB>bytes'";
			return -1;
		}
		return 0;
	}
	if (nf != 4) {
		*what = "expected 4 tab-separated fields";
		return -1;
	}
	if (f[0][0] == '\0') {
		*what = "empty op name";
		return -1;
	}
	if (strcmp(f[1], "matrix") != 0 && strcmp(f[1], "vector") != 0) {
		*what = "maf must be 'matrix' or 'vector'";
		return -1;
	}
	for (k = 2; k < 4; k++)
		if (f[k][0] != '\0' && tl_expr_check(f[k], err, sizeof(err)) < 0) {
			static char msg[192];

			snprintf(msg, sizeof(msg), "%s formula: %s",
			    k == 2 ? "flops" : "bytes", err);
			*what = msg;
			return -1;
		}
	tl_grow(&tab, &captab, ntab + 1, sizeof(*tab));
	m = &tab[ntab++];
	m->op = tl_strdup(f[0]);
	m->maf = tl_strdup(f[1]);
	m->flops = tl_strdup(f[2]);
	m->bytes = tl_strdup(f[3]);
	return 0;
}

int
tl_filemodels_load(const char *path)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0;
	int header = 0, rc = 0;
	const char *what = NULL, *where = path;
	FILE *fp;

	if (path == NULL) {
		where = "share/tl/models/default.tsv";
		fp = fmemopen((void *)tl_default_models,
		    strlen(tl_default_models), "r");
	} else
		fp = fopen(path, "r");
	if (fp == NULL) {
		tl_warn("%s:", where);
		return -1;
	}
	while ((len = getline(&buf, &cap, fp)) >= 0) {
		lineno++;
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (len == 0 || buf[0] == '#')
			continue;
		if (line(buf, &header, &what) < 0) {
			tl_warn("%s:%ld: %s", where, lineno, what);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(fp)) {
		tl_warn("%s: read error:", where);
		rc = -1;
	}
	if (rc == 0 && !header) {
		tl_warn("%s: no header line", where);
		rc = -1;
	}
	free(buf);
	fclose(fp);
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
	p->precision = tl_dtype_precision(tl_oparg(o, 0)->type);
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
