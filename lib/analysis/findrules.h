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
	/* the verdicts of lib/analysis/verdict */
	double layout_high_pct;	/* conv layout conversions: high above
				   this % of convolution time (20) */
	double layout_moderate_pct;	/* ... moderate above this (10) */
	double layout_gain_lo, layout_gain_hi;	/* channels_last gives back
				   30-45 % of convolution time when high */
	double base_ok_pct;	/* the elementwise baseline judges others
				   above this % of the bandwidth roof (70) */
	double base_issue_pct;	/* a norm under this % of it: a kernel
				   issue (20) */
	double cnn_lo_pct, cnn_hi_pct;	/* batchnorm 10-50 % of compute:
					   CNN-heavy */
	double analysed_min_pct;	/* under 50 % analysed: no verdict
					   on the whole trace */
	long long fusion_min_kernels;	/* a module launching this many
					   GPU events (4) and no GEMM,
					   convolution or attention: one
					   fused kernel could replace them */
	double serve_gap_pct;	/* host gaps between serving iterations
				   worth acting on from this % (5) */
	double gemm_expect_lo, gemm_expect_hi;	/* a GEMM's expected efficiency
					   where the trace has no aligned
					   GEMM to compare with: the seeds'
					   "good" band, 60-80 % */
	double wave_fill_pct;	/* a GEMM's only or last wave of tiles that
				   keeps fewer compute units busy than this
				   % (50) is a cause */
	double cmp_unexplained_pct;	/* a matched op whose time differs
					   by more than this % (100) with no
					   hardware expectation */
};

/* A convolution kind with the efficiency the seeds expect of it. */
enum tl_convkind {
	TL_CONV_OTHER,		/* none of the kinds below */
	TL_CONV_LARGE,		/* 5x5 and larger */
	TL_CONV_3X3,
	TL_CONV_1X1,
	TL_CONV_DEPTHWISE,
	TL_CONV_N
};

struct tl_convexpect {
	const char *pattern;	/* the op's pattern (struct tl_fop) */
	int lo, hi;		/* expected % of roofline */
};

/* By enum tl_convkind; TL_CONV_OTHER has none (pattern NULL). */
extern const struct tl_convexpect tl_conv_expect[TL_CONV_N];

/*
 * A fused attention kernel's expected efficiency, % of its roofline:
 * 40-70 % from TL_ATT_SHORT_N queries up, 10-30 % below (lib/analysis/
 * fusion's unfused-attention pattern and kcause's attention causes).
 */
#define TL_ATT_LONG_LO 40
#define TL_ATT_LONG_HI 70
#define TL_ATT_SHORT_LO 10
#define TL_ATT_SHORT_HI 30
#define TL_ATT_SHORT_N 1024

/* An efficiency against its expected range. */
enum tl_expect { TL_EXP_NONE, TL_EXP_BELOW, TL_EXP_WITHIN, TL_EXP_ABOVE };

/* A share against the two thresholds of a rule. */
enum tl_level { TL_LEVEL_LOW, TL_LEVEL_MODERATE, TL_LEVEL_HIGH };

/* A memory-bound op against the elementwise baseline. */
enum tl_basecheck {
	TL_BASE_NONE,		/* no baseline or no bandwidth roof */
	TL_BASE_LOW,		/* the baseline itself is under base_ok_pct
				   of the roof: it singles out nothing */
	TL_BASE_KERNEL,		/* under base_issue_pct of a good baseline */
	TL_BASE_OK		/* the kernel keeps up with simple ops */
};

/* What dominates the GPU time that is not computation. */
enum tl_loss { TL_LOSS_IDLE, TL_LOSS_COMM, TL_LOSS_MEMCPY };

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
