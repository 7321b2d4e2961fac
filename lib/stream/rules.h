/* See LICENSE file for copyright and license details. */
#ifndef TL_RULES_H
#define TL_RULES_H

/*
 * A user's categorisation rules (tl-categorize --rules FILE): a table
 * (lib/common/tabfile.h) with the columns match, pattern, category and,
 * optionally, direction, one rule per line.  match is "op" (the op
 * name) or "kernel" (any of the row's kernel names); pattern is an
 * fnmatch(3) glob; direction may be empty (keep the row's).  The first
 * rule that matches wins.
 */
struct tl_rules;

/* Load FILE; NULL after printing "prog: FILE:LINE: what". */
struct tl_rules *tl_rules_load(const char *path);
void tl_rules_free(struct tl_rules *r);
/*
 * The rule for an op name and its kernels field (the stream's JSON list);
 * 0 with *category and *direction set (direction may be ""), or -1 when
 * no rule matches.
 */
int tl_rules_match(const struct tl_rules *r, const char *name,
    const char *kernels, const char **category, const char **direction);

#endif
