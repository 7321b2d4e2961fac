/* See LICENSE file for copyright and license details. */
#ifndef TL_FINDRULES_H
#define TL_FINDRULES_H

/*
 * The analyst's rules (tl-findings(1) states them), shared by
 * tl-findings and tl-replay --bottlenecks so both decide alike.
 * "% of compute" is the row's pct_gpu_time; "efficiency" its pct_roofline.
 * Every threshold is a default that a program option may change.
 */

enum tl_priority { TL_PRIO_LOW, TL_PRIO_MEDIUM, TL_PRIO_HIGH, TL_PRIO_CRITICAL };

struct tl_findrules {
	double bottleneck_eff;		/* bottleneck below this % (40) */
	double bottleneck_cat_pct;	/* ... and above this % of category (5) */
	double critical_pct, critical_eff;	/* > 15 % of compute, < 30 % */
	double high_pct, high_eff;	/* > 10 % of compute or < 40 % */
	double medium_pct;		/* > 5 % of compute */
	double replay_pct, replay_eff;	/* replay: > 10 % and < 30 % */
	double slot_pct;	/* a recommendation recovers >= 0.5 % of
				   the GPU timeline; below: Low */
	double cap_pct;		/* below 1 %: at most Medium */
};

/* The rule that gave a priority (tl_priority_rule). */
enum tl_prio_rule {
	TL_PR_CRITICAL,		/* > critical_pct and < critical_eff */
	TL_PR_HIGH_SHARE,	/* > high_pct */
	TL_PR_HIGH_EFF,		/* < high_eff */
	TL_PR_MEDIUM_SHARE,	/* > medium_pct */
	TL_PR_MEDIUM_PATTERN,	/* a notable pattern */
	TL_PR_LOW		/* none of the above */
};

/* The defaults above. */
void tl_findrules_default(struct tl_findrules *r);

/*
 * Whether an op of category cat (its index in the category table) is a
 * bottleneck: (time_ms > the category's bottleneck_ms or pct_category >
 * bottleneck_cat_pct) and has_eff and eff < bottleneck_eff.
 */
int tl_is_bottleneck(const struct tl_findrules *r, int cat, double time_ms,
    double pct_category, int has_eff, double eff);

/*
 * The priority of an op from its % of compute and efficiency (has_eff 0:
 * unknown efficiency counts for nothing); pattern: a notable pattern
 * raises Low to Medium.
 */
enum tl_priority tl_priority(const struct tl_findrules *r, double pct_compute,
    int has_eff, double eff, int pattern);

/* The same with the rule that gave it in *rule. */
enum tl_priority tl_priority_rule(const struct tl_findrules *r,
    double pct_compute, int has_eff, double eff, int pattern, int *rule);

/*
 * A priority lowered by what it recovers, save_pct % of the GPU
 * timeline: Low under slot_pct, at most Medium under cap_pct (*capped
 * set when lowered), so that a small item never ranks High.
 */
enum tl_priority tl_priority_cap(const struct tl_findrules *r,
    enum tl_priority p, double save_pct, int *capped);

/* "Critical", "High", "Medium", "Low". */
const char *tl_priority_name(enum tl_priority p);

/* Parse "critical", "high", "medium", "low" (any case); -1 if none. */
int tl_priority_parse(const char *s);

/* Whether the rules recommend a replay artifact for the op. */
int tl_replay_wanted(const struct tl_findrules *r, double pct_compute,
    int has_eff, double eff);

#endif
