/* See LICENSE file for copyright and license details. */
#ifndef TL_TRACE_H
#define TL_TRACE_H

/*
 * A trace in memory: the events tl needs as compact fixed-size records
 * (strings interned), the flow indexes, the metadata, never the JSON.
 * Reading is one streaming pass (jsonscan + json); building the call tree
 * and linking are in tree.h.
 */
#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"
#include "intern.h"

#define TL_NONE INT64_MIN	/* absent integer argument */
/*
 * Every event's ts and ts + dur lie in (-TL_TIME_MAX, TL_TIME_MAX) ns
 * (about 146 years either side of 0), and the GPU events' durations add
 * up to at most INT64_MAX ns; the reader rejects other traces.  So the end
 * of an event, the difference of two times and a sum of GPU busy times
 * never overflow.
 */
#define TL_TIME_MAX ((int64_t)1 << 62)

enum tl_kind {
	TL_EV_CPU_OP,		/* cat cpu_op (Operator in old traces) */
	TL_EV_RUNTIME,		/* cuda_runtime */
	TL_EV_DRIVER,		/* cuda_driver */
	TL_EV_PYTHON,		/* python_function, kept on request */
	TL_EV_ANNOTATION,	/* user_annotation (ProfilerStep#N, ...) */
	TL_EV_KERNEL,
	TL_EV_MEMCPY,
	TL_EV_MEMSET
};

#define TL_IS_GPU(k) ((k) >= TL_EV_KERNEL)
#define TL_IS_HOST(k) ((k) <= TL_EV_PYTHON)

/* Event flags. */
enum {
	TL_F_TREE = 1,		/* in the host tree, or a linked GPU event */
	TL_F_ROOT = 2,		/* cpu_op without a cpu_op ancestor */
	TL_F_COMM = 4,		/* collective communication kernel */
	TL_F_MEMCPY_CLASS = 8,	/* counts as memcpy on the timeline */
	TL_F_GRAPH = 16		/* GPU event reached through a graph launch */
};

/*
 * One kept event, 104 bytes: a trace may hold millions.  The members of
 * the anonymous union belong to one side each, the op arguments to the
 * host events (all but GPU ones), the stream and launch geometry to the
 * GPU events: read them only for events of that side (TL_IS_GPU).
 */
struct tl_event {
	int64_t ts, dur;	/* ns */
	int64_t corr, extid, seq;	/* TL_NONE when absent */
	uint32_t uid;		/* index in traceEvents */
	uint32_t name, pid, tid;	/* interned */
	union {
		struct {	/* !TL_IS_GPU: compact JSON or 0 */
			uint32_t dims, types, strides, concrete;
		};
		struct {	/* TL_IS_GPU */
			int64_t stream;	/* TL_NONE when absent */
			uint32_t grid, block;	/* compact JSON or 0 */
		};
	};
	uint8_t kind, flags;
	int32_t parent, child, sibling, lastchild;	/* -1 = none */
	int32_t fwd;		/* evaluate_function: its forward op, or -1 */
	int32_t ngpu, ncomm;	/* linked GPU events in the subtree */
};

/*
 * The value of a flow id in tl_trace.flows: TL_FLOW_S if an 's' event
 * has it, TL_FLOW_F if an 'f' event has it, and then the last 'f' event's
 * pid << 32 | tid (interned ids, below 2^29) in the TL_FLOW_PIDTID bits.
 */
#define TL_FLOW_S ((int64_t)1 << 62)
#define TL_FLOW_F ((int64_t)1 << 61)
#define TL_FLOW_PIDTID (((uint64_t)1 << 61) - 1)

struct tl_meta {
	char *key;
	char *value;		/* compact JSON */
};

struct tl_trace_opts {
	int keep_python;	/* keep python_function events */
	const char *trace_name;	/* the trace column; NULL = file name */
};

struct tl_trace {
	char *name;		/* for the trace column */
	char *path;		/* for messages */
	struct tl_strtab *str;
	struct tl_event *ev;
	size_t nev, capev;
	uint64_t nevents;	/* all events in the array (UIDs) */
	uint64_t bytes;		/* JSON bytes read */
	struct tl_map flows;	/* (0, id) -> TL_FLOW_* bits; freed by linking */
	struct tl_map pidname;	/* (0, pid) -> process_name id */
	struct tl_meta *meta;
	size_t nmeta, capmeta;
	char *rank;		/* distributedInfo.rank, or NULL */
	char *gpu;		/* deviceProperties[0].name, or NULL */
	int link_external;	/* 1: linking key is External id */
};

/*
 * Read a trace file ("-" = stdin).  Returns NULL after printing an error
 * ("prog: FILE:OFFSET: what").
 */
struct tl_trace *tl_trace_read(const char *path, const struct tl_trace_opts *o);
void tl_trace_free(struct tl_trace *t);

static inline const char *
tl_ev_name(const struct tl_trace *t, const struct tl_event *e)
{
	return tl_str(t->str, e->name);
}

/* Order by thread (pid, tid ids) then start time; 0 when equal. */
int tl_ev_cmp_thread(const struct tl_event *x, const struct tl_event *y);

/* The value of a top-level member, or NULL. */
const char *tl_trace_meta(const struct tl_trace *t, const char *key);



/*
 * A time window on the host timeline: a host event is in it when it starts
 * in [start, end); a linked GPU event when its launch is; an unlinked GPU
 * event when it starts in it.
 */
struct tl_window {
	int on;
	int64_t start, end;
};

int tl_in_window(const struct tl_trace *t, const struct tl_window *w, int i);
#endif
