/* See LICENSE file for copyright and license details. */
#include <stddef.h>
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
	r->slot_pct = 0.5;
	r->cap_pct = 1;
	r->layout_high_pct = 20;
	r->layout_moderate_pct = 10;
	r->layout_gain_lo = 30;
	r->layout_gain_hi = 45;
	r->base_ok_pct = 70;
	r->base_issue_pct = 20;
	r->cnn_lo_pct = 10;
	r->cnn_hi_pct = 50;
	r->analysed_min_pct = 50;
	r->fusion_min_kernels = 4;
	r->serve_gap_pct = 5;
	r->cmp_unexplained_pct = 100;
	r->wave_fill_pct = 50;
	r->gemm_expect_lo = 60;
	r->gemm_expect_hi = 80;
}

/* The seeds' convolution analyst: expected efficiency by kernel size. */
const struct tl_convexpect tl_conv_expect[TL_CONV_N] = {
	[TL_CONV_OTHER] = { NULL, 0, 0 },
	[TL_CONV_LARGE] = { "large-kernel convolution", 60, 80 },
	[TL_CONV_3X3] = { "3x3-class convolution", 50, 70 },
	[TL_CONV_1X1] = { "1x1 (pointwise) convolution", 40, 60 },
	[TL_CONV_DEPTHWISE] = { "depthwise convolution", 30, 50 },
};

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
	int rule;

	return tl_priority_rule(r, pct_compute, has_eff, eff, pattern, &rule);
}

enum tl_priority
tl_priority_rule(const struct tl_findrules *r, double pct_compute,
    int has_eff, double eff, int pattern, int *rule)
{
	if (pct_compute > r->critical_pct && has_eff && eff < r->critical_eff)
		return *rule = TL_PR_CRITICAL, TL_PRIO_CRITICAL;
	if (pct_compute > r->high_pct)
		return *rule = TL_PR_HIGH_SHARE, TL_PRIO_HIGH;
	if (has_eff && eff < r->high_eff)
		return *rule = TL_PR_HIGH_EFF, TL_PRIO_HIGH;
	if (pct_compute > r->medium_pct)
		return *rule = TL_PR_MEDIUM_SHARE, TL_PRIO_MEDIUM;
	if (pattern)
		return *rule = TL_PR_MEDIUM_PATTERN, TL_PRIO_MEDIUM;
	return *rule = TL_PR_LOW, TL_PRIO_LOW;
}

enum tl_priority
tl_priority_cap(const struct tl_findrules *r, enum tl_priority p,
    double save_pct, int *capped)
{
	*capped = 0;
	if (save_pct < r->slot_pct && p > TL_PRIO_LOW) {
		*capped = 1;
		return TL_PRIO_LOW;
	}
	if (save_pct < r->cap_pct && p > TL_PRIO_MEDIUM) {
		*capped = 1;
		return TL_PRIO_MEDIUM;
	}
	return p;
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
