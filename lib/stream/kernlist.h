/* See LICENSE file for copyright and license details. */
#ifndef TL_KERNLIST_H
#define TL_KERNLIST_H

/*
 * The kernels column of an op row (tl-format(5)), read once per row for
 * every analysis that walks it: a JSON list of the row's GPU events, each
 * an object with "name", "ts" and "dur" (microseconds, dur 0 or more) and
 * perhaps "launch_ts".  Members are found as tl_json_members finds them
 * (the first of each name), values read as their JSON text.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/json.h"

struct tl_kitem {
	const char *name;	/* unescaped, NUL-terminated */
	size_t namelen;
	size_t nameat;		/* name's offset in the list's names */
	int64_t ts, dur;	/* ns */
	int64_t launch;		/* ns; -1 without launch_ts */
	int launch_bad;		/* launch_ts is there but is not a time */
	int64_t grid, block;	/* workgroups, work-items in each; -1 none */
};

struct tl_kernlist {
	struct tl_kitem *v;	/* the events, up to the first bad one */
	size_t n, cap;
	char *names;		/* their names, one after another */
	size_t namecap;
	struct tl_json j;
};

void tl_kernlist_init(struct tl_kernlist *k);
void tl_kernlist_free(struct tl_kernlist *k);
/*
 * Read the column's text s: 0 when it is empty or a whole list of
 * events; -1 when it is not (not JSON, not a list, or an event that is
 * not an object with a name and times), k->v holding the events before
 * the first bad one.
 */
int tl_kernlist_read(struct tl_kernlist *k, const char *s);
/* The same for the text s of length n = strlen(s) (a field's, known). */
int tl_kernlist_readn(struct tl_kernlist *k, const char *s, size_t n);

#endif
