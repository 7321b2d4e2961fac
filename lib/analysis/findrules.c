/* See LICENSE file for copyright and license details. */
#include <strings.h>

#include "analysis/findrules.h"
#include "stream/category.h"

void
tl_findrules_default(struct tl_findrules *r)
{
	r->bottleneck_eff = 40;
	r->bottleneck_cat_pct = 5;
	r->critical_pct = 15;
	r->critical_eff = 30;
	r->high_pct = 10;
	r->high_eff = 40;
	r->medium_pct = 5;
	r->replay_pct = 10;
	r->replay_eff = 30;
}

int
tl_is_bottleneck(const struct tl_findrules *r, int cat, double time_ms,
    double pct_category, int has_eff, double eff)
{
	if (!has_eff || eff >= r->bottleneck_eff)
		return 0;
	return time_ms > tl_category(cat)->bottleneck_ms ||
	    pct_category > r->bottleneck_cat_pct;
}

enum tl_priority
tl_priority(const struct tl_findrules *r, double pct_compute, int has_eff,
    double eff, int pattern)
{
	if (pct_compute > r->critical_pct && has_eff && eff < r->critical_eff)
		return TL_PRIO_CRITICAL;
	if (pct_compute > r->high_pct || (has_eff && eff < r->high_eff))
		return TL_PRIO_HIGH;
	if (pct_compute > r->medium_pct || pattern)
		return TL_PRIO_MEDIUM;
	return TL_PRIO_LOW;
}

const char *
tl_priority_name(enum tl_priority p)
{
	static const char *name[] = { "Low", "Medium", "High", "Critical" };

	return name[p];
}

int
tl_priority_parse(const char *s)
{
	int p;

	for (p = TL_PRIO_LOW; p <= TL_PRIO_CRITICAL; p++)
		if (strcasecmp(s, tl_priority_name(p)) == 0)
			return p;
	return -1;
}

int
tl_replay_wanted(const struct tl_findrules *r, double pct_compute,
    int has_eff, double eff)
{
	return pct_compute > r->replay_pct && has_eff && eff < r->replay_eff;
}
