/* See LICENSE file for copyright and license details. */
#ifndef TL_CULPRITS_H
#define TL_CULPRITS_H

/*
 * Idle culprits of an op stream: the pieces of the idle gaps that
 * tl-parse wrote in the idle_gaps column (tl-format(5)), summed per trace
 * and culprit (kind, name, context), ranked by the idle they cover, and
 * matched against the known culprits (share/tl/culprits.tsv, or a user's
 * table through lib/stream/known.h): what they are and what to do.  No
 * text beyond the table's: lib/render renders them.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/json.h"
#include "common/jsonw.h"
#include "common/strmap.h"
#include "common/util.h"
#include "stream/known.h"

/* The known-culprit table's columns. */
enum {
	TL_KC_KEY, TL_KC_KIND, TL_KC_MATCH, TL_KC_WHEN, TL_KC_TITLE,
	TL_KC_ACTION,		/* Path A: the quick fix */
	TL_KC_DEEPER,		/* Path B: the deeper change (optional) */
	TL_KC_N
};

/* Where a gap is, for a trace viewer. */
struct tl_fwhere {
	int64_t ts_ns, offset_ns, len_ns;	/* the gap */
	int64_t step;		/* TL_FNONE when none */
	int64_t stream;		/* TL_FNONE when unknown */
	char *device, *pid, *tid;	/* "" when unknown */
};

#define TL_FNONE INT64_MIN

struct tl_fculprit {
	int tr;			/* its trace (f->tr) */
	char *kind, *name, *context, *tid;	/* tid: another thread's */
	int64_t ns;		/* the idle it covers */
	long long gaps;		/* gaps with a piece of it */
	int64_t gap_ns;		/* those gaps' summed length */
	long long nsteps;	/* distinct steps of those gaps */
	int all_first;		/* every gap in the trace's first step */
	int64_t piece_ns;	/* its largest piece, at where */
	int64_t warm_ns;	/* its part in warm-up gaps (steady 0) */
	int warm;		/* it is the warm-up part of a culprit: the
				   warm-up gaps' pieces are culprits apart */
	struct tl_fwhere where;
	long known;		/* row of the known table, -1 none */
	/*
	 * The idle of its pieces in the gaps the findings' timeline has
	 * (tl_fidle_attribute): what its finding recovers.
	 */
	int64_t found_ns;
	size_t id;		/* scratch: its index before ranking */
	/* scratch: the steps seen */
	int64_t *steps;
	size_t nst, capst;
};

/* A trace's idle as tl-parse listed it. */
struct tl_fidletr {
	int has;		/* the stream has the idle_gaps column */
	int64_t listed_ns;	/* summed length of the listed gaps */
	long long listed;
	int64_t noise_ns;	/* trace_idle_noise_us */
	long long noise;
	long long frames;	/* trace_python_frames; -1 unknown */
	int64_t first_step;	/* the smallest step; TL_FNONE none */
	long long nsteps;	/* distinct steps of the gaps */
	int64_t host_ns;	/* idle covered by host events (not none,
				   launch, no_launch) */
	int64_t none_ns, launch_ns, nolaunch_ns;
	struct tl_fwhere largest;	/* the longest gap */
	/* the steady-state window (tl-parse's steady columns) */
	int has_steady;
	long long steady_steps;
	int64_t steady_total_ns, steady_busy_ns, steady_compute_ns,
	    steady_idle_ns;
	/* the listed gaps of warm-up rows (steady 0) */
	int64_t warm_ns;
	long long warm;
	int64_t warm_host_ns;	/* their host culprits' part */
	int64_t *steps;
	size_t nst, capst;
	long long niters;	/* distinct iterations of the rows */
	int64_t *iters;
	size_t nit, capit;
};

/* A listed gap of a row, with its pieces (struct tl_fpiece). */
struct tl_flgap {
	int row;		/* the row (f->row) of the GPU event ending it */
	int64_t end_ns;		/* ts + dur: that event's start */
	int64_t len_ns;
	int64_t offset_ns;	/* its start from the trace's first event */
	int64_t step, stream;	/* TL_FNONE when none, unknown */
	uint32_t device, pid, tid;	/* d->wnames indexes */
	size_t p0;		/* its first piece */
	int np;
	int used;		/* attributed once */
};

struct tl_fpiece {
	size_t c;		/* d->c index */
	int64_t ns;
};

/* A gap and a piece of a row's idle_gaps, read in place (culprits.c). */
struct tl_fpgap;
struct tl_fppiece;

/*
 * A culprit found by its texts without building its key: which of them
 * a plain piece (texts without a NUL) found last in a slot.
 */
#define TL_FPCACHE 256
struct tl_fpcache {
	size_t ci;		/* d->c index */
	size_t n[4];		/* its kind, name, context, tid lengths */
	int tr, warm;
	int kc;			/* its kind's class (piece_add) */
	int ok;
};

struct tl_fidle {
	struct tl_fculprit *c;	/* ranked: by trace, then ns desc */
	size_t n, cap;
	struct tl_flgap *lg;	/* the listed gaps of rows, by row */
	size_t nlg, caplg;
	struct tl_ahead lgahead;	/* lg's pages (tl_grow_ahead) */
	size_t lgat;		/* tl_fidle_attribute's last first gap */
	struct tl_fpiece *pc;
	size_t npc, cappc;
	struct tl_ahead pcahead;
	struct tl_strmap wnames;	/* the listed gaps' device, pid, tid */
	int64_t wlast[3];	/* wname's last device, pid, tid, -1 none */
	struct tl_json j;	/* scratch: a row's idle_gaps */
	struct tl_jbuf scratch[3];
	/* scratch: a row's gaps and pieces as the plain reader finds them */
	struct tl_fpgap *pg;
	size_t npg, cappg;
	struct tl_fppiece *pp;
	size_t npp, cappp;
	struct tl_fidletr *tr;	/* by trace */
	size_t ntr;
	struct tl_strmap keys;
	struct tl_fpcache pcache[TL_FPCACHE];
	struct tl_known known;
	int loaded;		/* known is loaded */
};

/* The built-in table (share/tl/culprits.tsv, compiled in). */
extern const char tl_default_culprits[];

void tl_fidle_init(struct tl_fidle *d);
/*
 * Load the known culprits: the built-in table and the user's FILE (NULL
 * none).  0, or -1 after printing "prog: FILE:LINE: what".
 */
int tl_fidle_known(struct tl_fidle *d, const char *path);
/*
 * Add one row's idle columns for trace tr: the idle_gaps JSON (NULL when
 * the stream lacks the column), the noise sum (-1 when empty: no
 * culprits were computed) and count, the Python frame
 * count (-1 unknown), the row's index among the findings' rows (-1 none:
 * its gaps are not kept for tl_fidle_attribute), its iteration (TL_FNONE none) and steady flag
 * (1, 0 warm-up, -1 unknown).  -1 when the JSON is not idle_gaps' format.
 */
int tl_fidle_row(struct tl_fidle *d, int tr, int row, const char *json,
    int64_t noise_ns, long long noise, long long frames, int64_t iteration,
    int steady);
/* Trace tr's steady-state window: its steps and timeline (ns). */
void tl_fidle_steady(struct tl_fidle *d, int tr, long long steps,
    int64_t total, int64_t busy, int64_t compute, int64_t idle);
/* Rank the culprits and match them with the known table. */
void tl_fidle_finish(struct tl_fidle *d);
void tl_fidle_free(struct tl_fidle *d);
/*
 * A gap of the findings' timeline, of length len_ns, ending at end_ns at
 * the GPU event of row: the idle its known culprits cover there (the
 * pieces of the listed gap of that row that ends there, within 1 us,
 * scaled down when the findings' gap is shorter, as where several devices
 * overlap), added to their found_ns; *at is that listed gap (d->lg), or
 * -1 and 0 returned when none matches.
 * After tl_fidle_finish.
 */
int64_t tl_fidle_attribute(struct tl_fidle *d, int row, int64_t end_ns,
    int64_t len_ns, long *at);
/*
 * Where listed gap i (d->lg, as *at of tl_fidle_attribute) is: w's
 * strings are d's, not to be freed.
 */
void tl_fidle_gap_where(const struct tl_fidle *d, long i, struct tl_fwhere *w);
/*
 * Where a gap of trace tr that starts at start_ns (trace time) is, for a
 * reader going to a trace viewer: w->ts_ns = start_ns; its offset from the
 * trace's first event (known only when tl-parse listed gaps for the trace);
 * step, device, stream, pid and tid of listed gap i (d->lg), or none when
 * i < 0.  Returns 1 when the offset is known, else 0 (offset 0).
 */
int tl_fidle_gap_at(const struct tl_fidle *d, size_t tr, int64_t start_ns,
    int64_t len_ns, long i, struct tl_fwhere *w);

/* The known row's field c (TL_KC_*) of culprit x, or "" when unknown. */
const char *tl_fidle_kfield(const struct tl_fidle *d,
    const struct tl_fculprit *x, int c);
/*
 * The host culprits that no known row matches (all traces), the most idle
 * first: up to max into out; *rest_ns and *rest the idle and count of
 * the others.  Returns how many went into out.
 */
size_t tl_fidle_unknown(const struct tl_fidle *d,
    const struct tl_fculprit **out, size_t max, int64_t *rest_ns,
    long long *rest);
/* 1 if culprit x is host activity (kind cpu_op, annotation, python, sync). */
int tl_fidle_is_host(const struct tl_fculprit *x);

/* A culprit on both sides of a comparison. */
struct tl_fidlecmp {
	const struct tl_fculprit *c;	/* its name, kind, context */
	const struct tl_fculprit *at[2];	/* on each side (its first
						   trace's), NULL absent */
	int64_t ns[2];		/* the idle it covers: reference, target */
	long long gaps[2];
};

/*
 * The culprits of two analyses (all their traces) matched by kind, name,
 * context and thread, by the size of their change, largest first, into
 * *out (malloc'd); returns how many.
 */
size_t tl_fidle_compare(const struct tl_fidle *ref, const struct tl_fidle *tgt,
    struct tl_fidlecmp **out);

/* The idle of the compared culprits that one known cause covers. */
struct tl_fidleknown {
	const char *title;	/* the known row's; "" for no known cause */
	int64_t ns[2];		/* reference, target */
};

/*
 * The n compared culprits v (of tl_fidle_compare) summed by known cause
 * (the known table's row each matched, on the target's side, else the
 * reference's), the largest change first and those with no known cause
 * last, into *out (malloc'd); returns how many.
 */
size_t tl_fidle_compare_known(const struct tl_fidle *ref,
    const struct tl_fidle *tgt, const struct tl_fidlecmp *v, size_t n,
    struct tl_fidleknown **out);

#endif
