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

#include "common/hashmap.h"
#include "common/intern.h"
#include "common/util.h"
#include "trace/devprops.h"

#define TL_NONE INT64_MIN	/* absent integer argument */
/*
 * Every event's ts and ts + dur lie in (-TL_TIME_MAX, TL_TIME_MAX) ns
 * (about 146 years either side of 0), and the GPU events' durations add
 * up to at most INT64_MAX ns; the reader rejects other traces.  So the end
 * of an event, the difference of two times and a sum of GPU busy times
 * never overflow.
 */
#define TL_TIME_MAX ((int64_t)1 << 62)

/*
 * The idle gaps that trace/culprit.h lists are at least TL_GAP_NOISE_NS
 * long (shorter ones are summed, not listed); TL_PY_CONTEXT keeps the
 * Python frames at least TL_CULPRIT_FRAME_NS long, which may own part of
 * such a gap.
 */
#define TL_GAP_NOISE_NS 10000
#define TL_CULPRIT_FRAME_NS 10000

enum tl_kind {
	TL_EV_CPU_OP,		/* cat cpu_op (Operator in old traces) */
	TL_EV_RUNTIME,		/* cuda_runtime */
	TL_EV_DRIVER,		/* cuda_driver */
	TL_EV_PYTHON,		/* python_function: in tl_trace.py, never ev */
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
	TL_F_GRAPH = 16,	/* GPU event reached through a graph launch */
	TL_F_GPU_BELOW = 32,	/* host event with a linked GPU event below */
	TL_F_FLOW = 64,		/* GPU event on the thread of the end of a
				   launch flow with its link, which starts too */
	TL_F_NOFLOW = 128,	/* GPU event whose link no launch flow has:
				   linked by the correlation id alone */
	TL_F_WORK = 256		/* host event with a linked non-collective
				   GPU event below */
};

/*
 * The categories of the flow events that tie a launch call to its GPU
 * event ("launch flows"), as bits of tl_trace.flow_cats: Kineto has
 * written "ac2g" since 2022, "async_cpu_to_gpu" (named "async_gpu")
 * before, and "async_gpu" in its first versions.  Other flows (fwdbwd,
 * forward_backward) are not launches and are skipped.
 */
enum {
	TL_FC_AC2G = 1,
	TL_FC_ASYNC_CPU_TO_GPU = 2,
	TL_FC_ASYNC_GPU = 4
};
#define TL_NFLOWCAT 3
extern const char *const tl_flowcat_names[TL_NFLOWCAT];

/*
 * One kept event, 56 bytes: a trace may hold millions, and these records
 * are most of tl-parse's memory.  Most fields belong to one kind of event
 * only, so they share space; read a union member only for the kinds its
 * comment names.  "Host" is TL_IS_HOST, "GPU" TL_IS_GPU; annotations use
 * the common fields only.
 */
struct tl_event {
	int64_t ts, dur;	/* ns */
	union {
		/*
		 * Runtime and driver calls until linked, and GPU events: the
		 * linking key (tl_trace.link_external says which argument),
		 * or TL_NONE.
		 */
		int64_t link;
		/*
		 * cpu_op and python_function, and runtime and driver calls
		 * once linked (args 0, fwd -1 then).
		 */
		struct {
			uint32_t args;	/* tl_ev_args(); 0 = none */
			int32_t fwd;	/* evaluate_function: its forward
					   op, or -1 */
		};
	};
	uint32_t uid;		/* index in traceEvents */
	uint32_t name;		/* interned */
	uint32_t thread;	/* (pid, tid): tl_ev_pid(), tl_ev_tid() */
	int32_t parent, sibling;	/* -1 = none */
	union {
		int32_t child;	/* host: first child, or -1 */
		/* GPU: its grid and block: tl_ev_grid(), tl_ev_block() */
		uint32_t launch;
	};
	/* Packed 64-bit integers (tl_small_get()); TL_NONE when absent. */
	union {
		int32_t pseq;	/* host: Sequence number: tl_ev_seq() */
		int32_t pstream;	/* GPU: stream: tl_ev_stream() */
	};
	uint16_t flags;
	uint8_t kind;
};

/* A GPU event's grid and block: compact JSON ids or 0. */
struct tl_launch {
	uint32_t grid, block;
};

/*
 * A cpu_op's arguments: compact JSON ids (0 = absent).  comm: the
 * collective's metadata of record_param_comms, an object with the members
 * name, dtype, in_nelems, out_nelems, group_size, pg_name, pg_desc,
 * pg_ranks and seq, each only when the trace has it.
 */
struct tl_args {
	uint32_t dims, types, strides, concrete, comm;
};

/* A thread: the interned pid and tid of its events. */
struct tl_thread {
	uint32_t pid, tid;
};

/*
 * The value of a flow id in tl_trace.flows: TL_FLOW_S if an 's' event
 * has it, TL_FLOW_F if an 'f' event has it, and then the last 'f' event's
 * thread in the TL_FLOW_THREAD bits.
 */
#define TL_FLOW_S ((uint32_t)1 << 31)
#define TL_FLOW_F ((uint32_t)1 << 30)
#define TL_FLOW_THREAD (TL_FLOW_F - 1)

/*
 * A python_function frame, for the module context of the ops
 * (callstack.h).  Frames are kept apart from the events, with their names
 * and threads in tables of their own, so that reading them changes
 * nothing else: the events, their string ids and threads are those read
 * without them.  In array order.
 */
struct tl_pyframe {
	int64_t ts, dur;	/* ns */
	uint32_t name;		/* in tl_trace.pystr */
	uint32_t thread;	/* its (pid, tid) in tl_trace.pythr */
};

/* What the reader does with python_function events (keep_python). */
enum {
	TL_PY_SKIP,		/* skip them before tokenising */
	/*
	 * Keep every frame; a malformed one is an error as for any event
	 * (tl-parse --stack).
	 */
	TL_PY_ALL,
	/*
	 * Keep the nn.Module frames, the frames around host events, as
	 * long as that can be told while reading, else all, and the frames
	 * of at least TL_CULPRIT_FRAME_NS (idle culprits); a malformed
	 * frame is skipped, as with TL_PY_SKIP (the default: module context
	 * and culprits cost little).
	 */
	TL_PY_CONTEXT
};

struct tl_meta {
	char *key;
	char *value;		/* compact JSON */
};

/* An event category and how many events the trace has of it. */
struct tl_catcount {
	char *cat;
	uint64_t n;
};

struct tl_trace_opts {
	int keep_python;	/* TL_PY_*: python_function events */
	const char *trace_name;	/* the trace column; NULL = file name */
	/*
	 * Threads that cut and tokenise the events (0: one per CPU it
	 * may run on, less the one inflating gzip input:
	 * tl_input_readers).  The trace read is the same whatever the
	 * count.
	 */
	int threads;
	size_t block;		/* bytes a thread cuts at a time; 0: default */
	/*
	 * Keep the "kernel" argument of launch calls (ROCm writes it; a
	 * graph-capture trace has no kernel events to name them otherwise).
	 */
	int launch_kernels;
	/*
	 * Read every event with the tokeniser, none in one pass (for
	 * tests: both readings must give the same trace).
	 */
	int tokenise;
	/*
	 * TL_PY_CONTEXT: do not keep the frames of at least
	 * TL_CULPRIT_FRAME_NS for the idle culprits (none are wanted).
	 */
	int no_culprit_frames;
};

struct tl_trace {
	char *name;		/* for the trace column */
	char *path;		/* for messages */
	struct tl_strtab *str;
	struct tl_strtab *argtab;	/* struct tl_args, as 20-byte strings */
	struct tl_event *ev;
	size_t nev, capev;
	struct tl_ahead evahead;	/* of ev */
	uint64_t nevents;	/* all events in the array (UIDs) */
	uint64_t bytes;		/* JSON bytes read */
	struct tl_thread *threads;	/* by tl_event.thread */
	size_t nthreads, capthreads;
	struct tl_dmap32 flows;	/* flow id -> TL_FLOW_* bits; freed by linking */
	struct tl_meta *meta;
	size_t nmeta, capmeta;
	char *rank;		/* distributedInfo.rank, or NULL */
	struct tl_gpuinfo gpu;	/* deviceProperties[0] */
	/*
	 * The event categories tl does not read, with their event counts,
	 * sorted by name (tl_trace_devices says which are device events).
	 */
	struct tl_catcount *unread;
	size_t nunread;
	int link_external;	/* linking key: 1 External id, 0 correlation */
	size_t ngraphcalls;	/* calls linked as graph launches (tree.c) */
	unsigned flow_cats;	/* TL_FC_* of the launch flows read */
	/*
	 * With launch_kernels: (0, event index) -> interned "kernel"
	 * argument of a runtime or driver call.
	 */
	struct tl_map launch_kernel;
	struct tl_pyframe *py;	/* python_function frames kept */
	size_t npy, cappy;
	struct tl_ahead pyahead;	/* of py */
	struct tl_strtab *pystr;	/* their names */
	/*
	 * Their threads: pid and tid strings joined by a NUL byte.  A
	 * thread of the events has the id of its own (pid, tid) there in
	 * thread_py (by tl_event.thread; NULL when there is no frame).
	 */
	struct tl_strtab *pythr;
	uint32_t *thread_py;
	/* By tl_event.launch; launchmap: (grid, block) -> index + 1. */
	struct tl_launch *launch;
	size_t nlaunch, caplaunch;
	struct tl_map32 launchmap;
	/* The packed integers that do not fit in 32 bits (tl_small_get). */
	int64_t *wide;
	size_t nwide, capwide;
	/*
	 * The GPU events and annotations of ev[0..sparse_upto), in file
	 * order (tl_tree_build; tl_tree_sparse adds the events appended
	 * since), and the earliest start of all of ev[0..sparse_upto), of
	 * any kind (TL_NONE: none): the passes that look at only the GPU
	 * events and annotations read the list, not all events.
	 */
	int32_t *sparse;
	size_t nsparse, capsparse, sparse_upto;
	int64_t sparse_first_ts;
};

/*
 * Read a trace file ("-" = stdin).  Returns NULL after printing an error
 * ("prog: FILE:OFFSET: what").
 */
struct tl_trace *tl_trace_read(const char *path, const struct tl_trace_opts *o);
void tl_trace_free(struct tl_trace *t);

/*
 * The GPU events and annotations in file order, *n of them, when the
 * list covers every event; else NULL, with *n the number of events: then
 * look at each event.  Either way: i = list != NULL ? list[k] : k.
 */
static inline const int32_t *
tl_ev_sparse(const struct tl_trace *t, size_t *n)
{
	if (t->sparse != NULL && t->sparse_upto == t->nev) {
		*n = t->nsparse;
		return t->sparse;
	}
	*n = t->nev;
	return NULL;
}

static inline const char *
tl_ev_name(const struct tl_trace *t, const struct tl_event *e)
{
	return tl_str(t->str, e->name);
}

static inline uint32_t
tl_ev_pid(const struct tl_trace *t, const struct tl_event *e)
{
	return t->threads[e->thread].pid;
}

static inline uint32_t
tl_ev_tid(const struct tl_trace *t, const struct tl_event *e)
{
	return t->threads[e->thread].tid;
}

/*
 * A 64-bit integer packed into 32 bits: INT32_MIN is TL_NONE, a value
 * from TL_SMALL_MIN up is itself, and one below that and above INT32_MIN
 * is entry (v - INT32_MIN - 1) of tl_trace.wide.
 */
#define TL_SMALL_MIN (-((int32_t)1 << 30))

static inline int64_t
tl_small_get(const struct tl_trace *t, int32_t v)
{
	if (v >= TL_SMALL_MIN)
		return v;
	if (v == INT32_MIN)
		return TL_NONE;
	return t->wide[(uint32_t)v - (uint32_t)INT32_MIN - 1];
}

/* v packed for t (any int64_t; TL_NONE included). */
int32_t tl_small_put(struct tl_trace *t, int64_t v);

/* A host event's Sequence number, or TL_NONE. */
static inline int64_t
tl_ev_seq(const struct tl_trace *t, const struct tl_event *e)
{
	return tl_small_get(t, e->pseq);
}

/* A GPU event's stream, or TL_NONE. */
static inline int64_t
tl_ev_stream(const struct tl_trace *t, const struct tl_event *e)
{
	return tl_small_get(t, e->pstream);
}

/* A GPU event's grid and block (interned compact JSON, or 0). */
static inline uint32_t
tl_ev_grid(const struct tl_trace *t, const struct tl_event *e)
{
	return t->launch[e->launch].grid;
}

static inline uint32_t
tl_ev_block(const struct tl_trace *t, const struct tl_event *e)
{
	return t->launch[e->launch].block;
}

/* The index in tl_trace.launch of (grid, block), added if new. */
uint32_t tl_launch_id(struct tl_trace *t, uint32_t grid, uint32_t block);

/* The arguments of a cpu_op (all 0 for other events). */
void tl_ev_args(const struct tl_trace *t, const struct tl_event *e,
    struct tl_args *a);

/* Order by thread (in a fixed order) then start time; 0 when equal. */
int tl_ev_cmp_thread(const struct tl_event *x, const struct tl_event *y);

/*
 * What device events the trace holds, by event category: into gpu the
 * GPU events tl reads ("kernel 120, gpu_memcpy 4"), into other those of
 * other accelerators it does not read ("mtia_ccp_events 25814": Kineto's
 * MTIA device categories and hpu_op), each "" when there are none.  gpu
 * NULL: only other (no pass over the events).
 */
void tl_trace_devices(const struct tl_trace *t, char *gpu, size_t gpulen,
    char *other, size_t otherlen);

/* The value of a top-level member, or NULL. */
const char *tl_trace_meta(const struct tl_trace *t, const char *key);

/*
 * The id in t->pythr of event thread k, the frames' name for it; makes
 * t->thread_py when the trace was read without frames.
 */
uint32_t tl_trace_pythread(struct tl_trace *t, uint32_t k);

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
/*
 * The window of the ProfilerStep#step annotation (or host op): 0, or -1
 * with a warning when the trace has none.
 */
int tl_step_window(const struct tl_trace *t, long long step,
    struct tl_window *w);
#endif
