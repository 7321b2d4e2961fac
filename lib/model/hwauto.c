/* See LICENSE file for copyright and license details. */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/util.h"
#include "model/hwauto.h"
#include "stream/stream.h"

/* The GPU decided for each trace value, so each is decided once. */
struct seen {
	struct tl_strmap m;
	const struct tl_hw **hw;	/* by index in m */
	size_t cap;
};

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Parse one line of a map file; 0, or -1 with err set. */
static int
map_line(struct tl_hwauto *a, char *line, const char *path, long lineno,
    char *err, size_t errlen)
{
	char *end = line + strlen(line), *name;
	const struct tl_hw *hw;

	while (end > line && is_space((unsigned char)end[-1]))
		*--end = '\0';
	while (is_space((unsigned char)*line))
		line++;
	if (*line == '\0' || *line == '#')
		return 0;
	for (name = end; name > line && !is_space((unsigned char)name[-1]);)
		name--;
	if (name == line) {
		snprintf(err, errlen, "%s:%ld: expected a trace glob and a "
		    "GPU name, got '%s'", path, lineno, line);
		return -1;
	}
	if ((hw = tl_hw_find(name)) == NULL) {
		snprintf(err, errlen, "%s:%ld: unknown GPU '%s' "
		    "(tl-efficiency --hw list)", path, lineno, name);
		return -1;
	}
	for (end = name; end > line && is_space((unsigned char)end[-1]);)
		end--;
	*end = '\0';
	tl_grow(&a->rule, &a->caprule, a->nrule + 1, sizeof(*a->rule));
	a->rule[a->nrule].glob = tl_strdup(line);
	a->rule[a->nrule++].hw = hw;
	return 0;
}

int
tl_hwauto_init(struct tl_hwauto *a, const struct tl_hw *fixed,
    const char *map, int strict, char *err, size_t errlen)
{
	struct seen *sn;
	char *text, *line, *next;
	size_t n;
	long lineno = 0;

	memset(a, 0, sizeof(*a));
	a->fixed = fixed;
	a->strict = strict;
	sn = tl_calloc(1, sizeof(*sn));
	tl_strmap_init(&sn->m);
	a->seen = sn;
	if (map == NULL)
		return 0;
	if ((text = tl_slurp(map, &n)) == NULL) {
		snprintf(err, errlen, "%s: %s", map, strerror(errno));
		return -1;
	}
	if (memchr(text, '\0', n) != NULL) {
		snprintf(err, errlen, "%s: NUL byte: not a text file", map);
		free(text);
		return -1;
	}
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (map_line(a, line, map, ++lineno, err, errlen) < 0) {
			free(text);
			return -1;
		}
	}
	free(text);
	if (a->nrule == 0) {
		snprintf(err, errlen, "%s: no lines of a trace glob and a GPU "
		    "name", map);
		return -1;
	}
	return 0;
}

void
tl_hwauto_columns(const struct tl_hwauto *a, const struct tl_rowreader *r)
{
	if (a->fixed == NULL && a->nrule == 0 &&
	    !tl_rr_has(r, TL_COL_TRACE_GPU) &&
	    !tl_rr_has(r, TL_COL_TRACE_GPU_ARCH))
		tl_die("--hw auto: the input has no %s column; give --hw NAME",
		    tl_col_name(TL_COL_TRACE_GPU));
}

/* 1 if a map glob matches the trace value or its last component. */
static int
glob_match(const char *glob, const char *trace)
{
	const char *base = strrchr(trace, '/');

	return fnmatch(glob, trace, 0) == 0 ||
	    (base != NULL && fnmatch(glob, base + 1, 0) == 0);
}

/* --hw auto on the current row; NULL after a warning (or dies). */
static const struct tl_hw *
identify(const struct tl_hwauto *a, struct tl_rowreader *r,
    const char *trace)
{
	struct tl_gpuid id;
	const struct tl_hw *hw;
	char desc[512], cand[256];
	const char *where;
	int64_t v;

	memset(&id, 0, sizeof(id));
	id.name = tl_rr_text(r, TL_COL_TRACE_GPU);
	id.arch = tl_rr_text(r, TL_COL_TRACE_GPU_ARCH);
	id.kernel_arch = tl_rr_text(r, TL_COL_TRACE_GPU_KERNEL_ARCH);
	if (tl_rr_i64(r, TL_COL_TRACE_GPU_COMPUTE_UNITS, &v))
		id.compute_units = v;
	if (tl_rr_i64(r, TL_COL_TRACE_GPU_MEMORY_BYTES, &v))
		id.memory_bytes = v;
	where = trace[0] != '\0' ? trace : tl_stream_where(r->in);
	if ((hw = tl_hw_identify(&id, cand, sizeof(cand))) != NULL) {
		if (id.name[0] != '\0' && !tl_hw_name_known(id.name))
			tl_warn("%s: --hw auto: GPU '%s' is not in the GPU "
			    "table; taken as %s, the one GPU of the table with "
			    "its architecture, compute units and memory", where,
			    id.name, tl_hw_name(hw));
		return hw;
	}
	tl_gpuid_unknown(&id, cand, desc, sizeof(desc));
	if (a->strict)
		tl_die("%s: --hw auto: %s; give --hw NAME, or --hw-map "
		    "FILE for several traces", where, desc);
	tl_warn("%s: --hw auto: %s; its efficiency columns stay empty: "
	    "give --hw NAME, or --hw-map FILE for several traces", where,
	    desc);
	return NULL;
}

const struct tl_hw *
tl_hwauto_row(struct tl_hwauto *a, struct tl_rowreader *r)
{
	struct seen *sn = a->seen;
	const struct tl_hw *hw = NULL;
	const char *trace;
	size_t i;
	int64_t k;
	int added;

	if (a->fixed != NULL && a->nrule == 0)
		return a->fixed;
	trace = tl_rr_text(r, TL_COL_TRACE);
	if ((k = tl_strmap_get(&sn->m, trace, strlen(trace))) >= 0)
		return sn->hw[k];
	for (i = 0; i < a->nrule; i++)
		if (glob_match(a->rule[i].glob, trace)) {
			hw = a->rule[i].hw;
			break;
		}
	if (i == a->nrule)
		hw = a->fixed != NULL ? a->fixed : identify(a, r, trace);
	k = tl_strmap_add(&sn->m, trace, strlen(trace), &added);
	tl_grow(&sn->hw, &sn->cap, (size_t)k + 1, sizeof(*sn->hw));
	sn->hw[k] = hw;
	return hw;
}

void
tl_hwauto_free(struct tl_hwauto *a)
{
	struct seen *sn = a->seen;
	size_t i;

	for (i = 0; i < a->nrule; i++)
		free(a->rule[i].glob);
	free(a->rule);
	if (sn != NULL) {
		tl_strmap_free(&sn->m);
		free(sn->hw);
		free(sn);
	}
	memset(a, 0, sizeof(*a));
}
