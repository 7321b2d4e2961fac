/* See LICENSE file for copyright and license details. */
#ifndef TL_REPLAY_H
#define TL_REPLAY_H

/*
 * The replay IR and package of tl-replay (man/tl-replay.1): op rows are
 * grouped by op signature (TL_SIGKEY_FULL of lib/stream/schema.h: trace,
 * name, input dims, types, strides and concrete inputs); each group becomes one IR entry with every argument
 * of the op as the trace recorded it (tensors: dtype, shape, strides and
 * how the runner fills them; scalars and lists: their values; absent
 * optionals), the instance count, the kernel time observed, where the op
 * came from, and the perf model's view of it.  The runner script and the
 * README template are data (share/tl/replay/), compiled in.
 */
#include <stddef.h>
#include <stdint.h>

#include "analysis/findrules.h"
#include "common/jsonw.h"

/*
 * The runner script, the README template and the runner's allow-list
 * (share/tl/replay/allowed_ops.tsv: the operators it may call),
 * NUL-terminated.
 */
extern const char tl_replay_runner[];
extern const char tl_replay_readme[];
extern const char tl_replay_allowed[];

/* One row of the stream; "" (or NaN) = unknown. */
struct tl_replay_row {
	const char *trace, *name, *category, *direction;
	const char *dims, *types, *strides, *concrete;
	const char *kernels;		/* the row's GPU events, JSON list */
	const char *parent_name, *module, *call_stack;
	const char *perf_model, *params;	/* params: JSON object */
	int has_flops, has_bytes;
	int64_t flops, bytes;		/* per instance */
	int64_t count;			/* instances the row stands for, >= 1 */
	int64_t time_ns;		/* kernel time of all of them */
	int64_t min_ns, max_ns;		/* of one instance */
	double pct_gpu_time;		/* of all of them; NaN = unknown */
	double pct_roofline;		/* NaN = unknown */
};

struct tl_replay;

struct tl_replay *tl_replay_new(void);
void tl_replay_free(struct tl_replay *r);
/*
 * Add a row to its signature's group.  0, or -1 with *err set when its
 * argument columns are not what the profiler writes (the row is left
 * out).
 */
int tl_replay_add(struct tl_replay *r, const struct tl_replay_row *row,
    const char **err);
/*
 * 1 if the runner may call op name: it is on the allow-list.  The IR
 * marks every other op "refused", with the reason, and the runner does
 * not call it.
 */
int tl_replay_allowed_op(const struct tl_replay *r, const char *name);
/* The number of groups. */
size_t tl_replay_count(const struct tl_replay *r);
/*
 * Keep the groups the rules recommend for replay: their summed
 * pct_gpu_time over rules->replay_pct and their efficiency (the
 * instance-weighted mean pct_roofline) under rules->replay_eff.
 */
void tl_replay_select(struct tl_replay *r, const struct tl_findrules *rules);
/*
 * Order the groups by total kernel time, largest first (ties: first
 * seen first) and number them 1, 2, ...
 */
void tl_replay_sort(struct tl_replay *r);

/* The IR: a JSON list, one object per group, ending in a newline. */
void tl_replay_ir(const struct tl_replay *r, struct tl_jbuf *out);
/*
 * The package's README: the template with its @...@ fields filled in;
 * ir and runner are the file names in the package.
 */
void tl_replay_readme_text(struct tl_replay *r, const char *ir,
    const char *runner, struct tl_jbuf *out);

#endif
