/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/idxsort.h"
#include "common/jlex.h"
#include "common/json.h"
#include "common/util.h"
#include "trace/devprops.h"
#include "trace/input.h"
#include "trace/jsonscan.h"
#include "trace/trace.h"

/* The record's size is what bounds memory (trace.h); keep it there. */
_Static_assert(sizeof(struct tl_event) <= 56, "struct tl_event grew");
_Static_assert(sizeof(struct tl_args) == 20, "struct tl_args has padding");

/* An event read before the linking key was known, and its External id. */
struct pending {
	int64_t extid;
	size_t i;
};

/* A parsing thread's string ids to the trace's (0 = not yet known). */
struct idmap {
	uint32_t *v;		/* local id -> global id + 1 */
	size_t cap;
};

/* What the reading threads share: the trace, filled in array order. */
struct reader {
	struct tl_trace *t;
	const struct tl_trace_opts *o;
	int64_t gpu_ns;		/* sum of the GPU events' durations */
	uint64_t deepargs;	/* events whose args were nested too deep */
	int failed;
	int link_known;		/* t->link_external is decided */
	struct pending *pend;	/* until then: the events that have a link */
	size_t npend, cappend;
	struct tl_map threads;	/* (0, pid << 32 | tid) -> index in t->threads */
	uint64_t lastthr;	/* the last thread looked up: pid << 32 | tid */
	uint32_t lastix;	/* and its index, if any thread was */
	struct idmap *str, *args, *pystr;	/* by parser */
	int nparsers;
	/* python_function frames (TL_PY_CONTEXT prunes them as it reads): */
	size_t capthrpy;	/* of t->thread_py */
	uint32_t lastpy[3];	/* the last frame's parser, pid and tid ids */
	uint32_t lastpythr;	/* and its thread in t->pythr, if any frame */
	char *kbuf;		/* scratch for thread keys */
	size_t kcap;
	int prune;		/* drop the frames no host event is in */
	size_t pykept;		/* t->py[0..pykept) are pruned */
	/*
	 * The starts of the cpu_ops read, by frame thread, each thread's in
	 * order: thread k's in ops[opseg[k]..opseg[k + 1]) (k < nopseg;
	 * capopseg entries), so that pruning looks no event up.
	 */
	int64_t *ops;
	size_t nops, capops, *opseg, nopseg, capopseg;
	/*
	 * The cpu_ops not yet in ops, as merge_event adds them: in all
	 * (newop, in file order, with what add_hosts sorts them by, so that
	 * it looks no event up), and by frame thread k in opat[k + 1]
	 * (capopat of them).
	 */
	struct newop {
		int64_t ts;
		int32_t ev;
		uint32_t th;	/* frame thread */
	} *newop;
	size_t nnewops, capnewop, *opat, capopat;
	struct hull *hull;	/* by frame thread: what pruning dropped */
	size_t nhull;
	int lost;		/* a host event came in a dropped frame */
	uint8_t *pymod;		/* by frame name: 0 not yet seen, 1 an
				   nn.Module frame, 2 another */
	size_t cappymod;
};

/* The span of the frames pruning dropped on a thread (empty: lo >= hi). */
struct hull {
	int64_t lo, hi;
};

/* Frames read between two prunings (24 bytes each). */
#define PRUNE_BATCH 16384

#define LASTSZ 32

/*
 * Args values that are arrays or objects ("Input Dims", "grid", ...)
 * repeat byte for byte: put_compact keeps the last NEST_WAYS distinct
 * ones of each of 2^NEST_BITS sets (chosen by a hash of the member's key
 * and the value's first NEST_WORDS * 8 bytes, to the first '}') as the
 * parser's raw table holds them, and rd_args looks a value up there
 * before lexing it (nest_seen).  24 KiB a parser; put_str's cache of
 * names 16 KiB.
 */
#define NEST_BITS 7
#define NAMED_BITS 10
#define NEST_WAYS 8
#define NEST_WORDS 4
struct nest {
	const char *s;		/* raw's copy of the text: NULL, none */
	uint32_t n, raw;	/* its length and id in raw */
	uint32_t tag;		/* its hash (nest_seen), never 0 */
};

/*
 * A cpu_op's four shape members, "Concrete Inputs" to "Input Dims" as
 * Kineto writes them (seq_op), repeat together: combo_seen finds their
 * bytes, from the first value's start to the last one's end, among the
 * last COMBO_WAYS distinct ones of each of 2^COMBO_BITS sets (chosen by
 * their length and first and last 16 bytes), with the strings and args
 * tuple fill_rec made of them; one lookup instead of four.  Spans of at
 * most COMBO_MAX bytes, copied: at most 512 KiB a parser.
 */
#define COMBO_BITS 6
#define COMBO_WAYS 8
#define COMBO_MAX 1024
#define NSHAPE 4		/* S_DIMS .. S_CONCRETE */
struct combo {
	char *s;		/* a copy of the bytes: NULL, none */
	uint32_t n, tag;	/* their length and hash, never 0 */
	uint32_t sid[NSHAPE], slen[NSHAPE];	/* by S_DIMS + i */
	const char *str[NSHAPE];
	uint32_t args;		/* the record's args tuple */
};

/*
 * Strings read before (event names, a launch's kernel) repeat: put_seen
 * keeps the last SEEN_WAYS distinct ones of each of 2^SEEN_BITS sets
 * (chosen by the 32 bytes after the opening quote: the string and what
 * follows it) that had no escape, with their id in str, and str_seen
 * finds one there before the lexer reads it.  24 KiB a parser.
 */
#define SEEN_BITS 8
#define SEEN_WAYS 4
struct seen {
	const char *s;		/* str's copy of the text: NULL, none */
	uint32_t n, id, tag;	/* its length, id and hash (never 0) */
};

/*
 * One reading thread's own state.  It interns the strings it reads in
 * tables of its own (so that the hashing is done on every thread), and
 * merge_event maps its ids to the trace's, interning each string in the
 * trace's table when it first meets it, in array order: the ids are
 * those one thread gives.
 */
struct parser {
	const struct tl_trace_opts *o;
	struct tl_trace *t;	/* the unread categories go there at the end */
	/* The categories of the events not read, with their counts. */
	struct tl_catcount *unread;
	size_t nunread, capunread, lastunread;
	int id;			/* index in reader.str and reader.args */
	struct tl_json j;
	struct tl_jlex lex;	/* the lexer's state (deep nesting) */
	char *dbuf;		/* an event without its args (check_event) */
	size_t dlen, capd;
	char *buf;		/* scratch for compact text */
	size_t cap;
	struct tl_strtab *str;	/* strings */
	struct tl_strtab *args;	/* argument tuples of local string ids */
	/*
	 * Argument lists as written (blanks and all), and by the id of one
	 * here its compact text's id in str + 1 (0: not yet known).
	 */
	struct tl_strtab *raw;
	uint32_t *rawto;
	size_t caprawto;
	/* Nested args values already checked, in sets (nest_seen). */
	struct nest (*nest)[NEST_WAYS];
	/* Strings already read, in sets (str_seen). */
	struct seen (*seen)[SEEN_WAYS];
	/* cpu_ops' shape members already read, in sets (combo_seen). */
	struct combo (*combo)[COMBO_WAYS];
	/*
	 * The event being read: the combo its shape members are (hit), or
	 * the span and hash to keep them under (tag 0: neither).
	 */
	const struct combo *hit;
	const char *cs;
	uint32_t cn, ctag;
	const char *empty;	/* str's "" */
	/*
	 * The bytes rd_thread_ts read last, ", \"pid\": V, \"tid\": V": pid
	 * is where the pid's value ends, esc bit 0 its escape, bit 1 the
	 * tid's (n 0: none).
	 */
	struct {
		char s[64];
		uint32_t n;
		uint8_t pid, esc;
		/*
		 * ids: the record's strings of these pid and tid, as
		 * put_thread found them (sid, s and slen by S_PID - 1 and
		 * S_TID - 1) are known.
		 */
		uint8_t ids;
		uint32_t sid[2], slen[2];
		const char *str[2];
	} pt;
	/* The event being read: its pid and tid are pt's bytes. */
	uint8_t same;
	/*
	 * The first 8 bytes of the last "ts" rd_timed read, when 8 digits,
	 * and their value (times come in order: they repeat).
	 */
	struct tshead {
		uint64_t w, v;
	} ts8;
	/* Strings of 8 bytes and more put_str interned, by a hash. */
	struct named {
		const char *s;	/* str's copy (NULL: none) */
		uint32_t n, id;
	} *named;
	/*
	 * The last pid and tid interned (events come in runs on a thread):
	 * their id in str, when at most LASTSZ bytes.
	 */
	struct {
		char s[LASTSZ];
		uint32_t n, id;
		const char *str;	/* the interned copy */
	} last[2];
};

/*
 * What parse_event found in one event, for merge_event: everything but
 * what needs the trace's tables (string ids, threads, flows, the linking
 * key), which merge_event fills in array order, so that the records are
 * those one thread makes.  Strings are the parser's ids, with the
 * string (kept by the parser's table until the reading ends).
 */
enum { R_X, R_FLOW_S, R_FLOW_F, R_ERROR };
enum { S_NAME, S_PID, S_TID, S_GRID, S_BLOCK, S_DIMS, S_TYPES, S_STRIDES,
	S_CONCRETE, S_KERNEL, S_COMM, NSTR };

struct rec {
	int64_t ts, dur, corr, extid, seq, stream, id;
	const char *s[NSTR];	/* R_ERROR: the message follows the record */
	uint32_t sid[NSTR], slen[NSTR];
	uint32_t args;		/* the parser's tuple id, 0 for none */
	uint16_t parser;
	uint8_t type, kind;
	uint8_t flowcat;	/* R_FLOW_*: its TL_FC_* bit */
	uint8_t dropped;	/* its args nested too deep: dropped */
};

static struct rec *
rec_at(struct tl_scan_out *out, size_t at)
{
	return (struct rec *)(void *)(out->p + at);
}

/*
 * p[0..n) zero, n a constant of at most 512: by 16-byte stores where
 * there are (memset's "rep stos" costs more, for a few per event).
 */
static inline __attribute__((always_inline)) void
zero(void *p, size_t n)
{
#ifdef __SSE2__
	char *d = p;
	size_t i;

#pragma GCC unroll 32
	for (i = 0; i + 16 <= n; i += 16)
		_mm_storeu_si128((void *)(d + i), _mm_setzero_si128());
	for (; i < n; i++)
		d[i] = 0;
#else
	memset(p, 0, n);
#endif
}

/*
 * String k of the record: s[0..n), n >= 8, interned in the parser's
 * table.  Names repeat: the last one of its slot, compared here.
 */
static inline void
put_named(struct parser *p, struct rec *r, int k, const char *s, size_t n)
{
	uint64_t a, b, c;
	struct named *e;

	memcpy(&a, s, 8);
	memcpy(&b, s + n / 2 - 4, 8);
	memcpy(&c, s + n - 8, 8);
	a = (a ^ n) * 0x9e3779b97f4a7c15ull;
	a = (a ^ (a >> 29) ^ b) * 0xff51afd7ed558ccdull;
	a = (a ^ (a >> 32) ^ c) * 0xc4ceb9fe1a85ec53ull;
	e = &p->named[a >> (64 - NAMED_BITS)];
	if (e->n != n || memcmp(e->s, s, n) != 0) {
		e->id = tl_intern(p->str, s, n);
		e->s = tl_str(p->str, e->id);
		e->n = (uint32_t)n;
	}
	r->sid[k] = e->id;
	r->s[k] = e->s;
	r->slen[k] = (uint32_t)n;
}

/* String k of the record: s[0..n), interned in the parser's table. */
static void
put_str(struct parser *p, struct rec *r, int k, const char *s, size_t n)
{
	uint32_t id;

	if ((k == S_PID || k == S_TID) && n > 0 && n <= LASTSZ) {
		int x = k == S_TID;
		size_t i = 0;

		/* A few bytes: compared here rather than by a call. */
		if (p->last[x].n == n)
			while (i < n && p->last[x].s[i] == s[i])
				i++;
		if (i != n || p->last[x].n != n) {
			memcpy(p->last[x].s, s, n);
			p->last[x].n = (uint32_t)n;
			p->last[x].id = tl_intern(p->str, s, n);
			p->last[x].str = tl_str(p->str, p->last[x].id);
		}
		r->sid[k] = p->last[x].id;
		r->s[k] = p->last[x].str;
		r->slen[k] = (uint32_t)n;
		return;
	}
	if (n == 0) {		/* id 0 (intern.h) */
		r->sid[k] = 0;
		r->s[k] = p->empty;
		r->slen[k] = 0;
		return;
	}
	if (n >= 8) {
		put_named(p, r, k, s, n);
		return;
	}
	id = tl_intern(p->str, s, n);
	r->sid[k] = id;
	r->s[k] = tl_str(p->str, id);
	r->slen[k] = (uint32_t)n;
}

const char *const tl_flowcat_names[TL_NFLOWCAT] = {
	"ac2g", "async_cpu_to_gpu", "async_gpu"
};

/* The TL_FC_* bit of a launch-flow category, 0 for any other. */
static unsigned
flow_cat(const char *c, size_t n)
{
	unsigned k;

	for (k = 0; k < TL_NFLOWCAT; k++)
		if (strlen(tl_flowcat_names[k]) == n &&
		    memcmp(tl_flowcat_names[k], c, n) == 0)
			return 1u << k;
	return 0;
}

/* Map a `cat` value to a kind; -1 = not kept. */
static int
kind_of(const char *c, size_t n, int keep_python)
{
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(c, lit, n) == 0)
	if (IS("cpu_op") || IS("Operator") || IS("operator"))
		return TL_EV_CPU_OP;
	if (IS("cuda_runtime") || IS("Runtime") || IS("runtime"))
		return TL_EV_RUNTIME;
	if (IS("cuda_driver"))
		return TL_EV_DRIVER;
	if (IS("kernel") || IS("Kernel"))
		return TL_EV_KERNEL;
	if (IS("gpu_memcpy") || IS("Memcpy"))
		return TL_EV_MEMCPY;
	if (IS("gpu_memset") || IS("Memset"))
		return TL_EV_MEMSET;
	if (IS("user_annotation"))
		return TL_EV_ANNOTATION;
	if (IS("python_function") || IS("python_func"))
		return keep_python ? TL_EV_PYTHON : -1;
	return -1;
#undef IS
}

static int
bad(struct reader *r, uint64_t index, uint64_t offset, const char *what)
{
	tl_warn("%s:%llu: event %llu: %s", r->t->path,
	    (unsigned long long)offset, (unsigned long long)index, what);
	r->failed = 1;
	return -1;
}

/*
 * A record that says what is wrong with the event (parse_event), rel
 * bytes after its start.
 */
static int
parse_error(struct tl_scan_out *out, size_t at, const char *what, size_t rel)
{
	size_t n = strlen(what);
	char *d = tl_scan_reserve(out, n + 1);
	struct rec *r;

	memcpy(d, what, n + 1);
	out->len += n + 1;
	r = rec_at(out, at);
	r->type = R_ERROR;
	r->id = (int64_t)rel;
	return 1;
}

/*
 * A member's value as an event's record is filled from it: the text and
 * type tl_json_text and tl_json_type give (a string's text without its
 * quotes, an object's or array's with its brackets), or type TL_J_UNDEF
 * when the member is absent.  Both readers of an event (the tokeniser
 * and the one-pass reader) find these, and fill_rec does the rest.
 */
struct fval {
	const char *s;
	uint32_t n;		/* events are at most TL_EVENT_MAX bytes */
	uint8_t type;		/* enum tl_jtype */
	uint8_t esc;		/* a string that may hold an escape */
	uint8_t timed;		/* a time read already: ns */
	union {
		int64_t ns;
		/*
		 * An args member's array or object, by rd_args: its id in
		 * the parser's raw + 1 when nest_seen knew its bytes, else
		 * nest_seen's tag for put_compact to keep it under (0:
		 * neither).  A string's, by str_seen: its id in the
		 * parser's str + 1, else the tag for put_seen.
		 */
		struct {
			uint32_t raw, tag;
		};
	};
};

/* The string text s[0..n) unescaped into p->buf (*d): its length. */
static size_t
unesc(struct parser *p, const char *s, size_t n, const char **d)
{
	tl_grow(&p->buf, &p->cap, n + 1, 1);
	*d = p->buf;
	return tl_json_unescape(p->buf, s, n);
}

/* The index key() gives the key s[0..n) (with an escape) unescaped. */
static int
key_unesc(struct parser *p, const char *s, size_t n,
    int (*key)(const char *, size_t))
{
	const char *d;
	size_t m = unesc(p, s, n, &d);

	return key(d, m);
}

/*
 * The text of v as JSON means it: a string's unescaped (into p->buf when
 * it holds an escape), a number's as written; its length.
 */
static size_t
fv_text(struct parser *p, const struct fval *v, const char **s)
{
	*s = v->s;
	if (v->type == TL_J_STRING && v->esc && memchr(v->s, '\\', v->n))
		return unesc(p, v->s, v->n, s);
	return v->n;
}

/* String k: the unescaped string or the number text of v ("" else). */
static void
put_scalar(struct parser *p, struct rec *r, int k, const struct fval *v)
{
	size_t n = v->n;
	const char *s = v->s;

	if (v->type == TL_J_STRING && v->esc && memchr(s, '\\', n))
		n = unesc(p, s, n, &s);
	else if (v->type != TL_J_STRING && v->type != TL_J_PRIM)
		n = 0;
	put_str(p, r, k, n > 0 ? s : "", n);
}

/*
 * String k from v as put_scalar writes it: its id when str_seen found
 * it (v->raw), else interned and, with v->tag, kept for str_seen.
 */
static inline void
put_seen(struct parser *p, struct rec *r, int k, const struct fval *v)
{
	struct seen *w;

	if (v->type == TL_J_STRING && v->raw != 0) {
		r->sid[k] = v->raw - 1;
		r->s[k] = tl_str(p->str, v->raw - 1);
		r->slen[k] = v->n;
		return;
	}
	if (v->type == TL_J_STRING && !v->esc && v->n >= 8)
		put_named(p, r, k, v->s, v->n);	/* put_scalar's way */
	else
		put_scalar(p, r, k, v);
	if (v->type != TL_J_STRING || v->tag == 0 || v->esc)
		return;
	/* The first of its set now. */
	w = p->seen[v->tag >> (32 - SEEN_BITS)];
	memmove(w + 1, w, (SEEN_WAYS - 1) * sizeof(*w));
	w[0].s = r->s[k];
	w[0].n = r->slen[k];
	w[0].id = r->sid[k];
	w[0].tag = v->tag;
}

/*
 * String k, S_PID or S_TID, as put_scalar writes it: the last one's id
 * when the bytes are the same (events come in runs on a thread), found
 * without a call.
 */
static inline void
put_thread(struct parser *p, struct rec *r, int k, const struct fval *v)
{
	int x = k == S_TID;
	size_t i = 0, n = v->n;

	if ((v->type == TL_J_PRIM || (v->type == TL_J_STRING && !v->esc)) &&
	    n > 0 && p->last[x].n == n) {
		while (i < n && p->last[x].s[i] == v->s[i])
			i++;
		if (i == n) {
			r->sid[k] = p->last[x].id;
			r->s[k] = p->last[x].str;
			r->slen[k] = (uint32_t)n;
			return;
		}
	}
	put_scalar(p, r, k, v);
}

/* String k: v as compact JSON; "" for none or null. */
static void
put_compact(struct parser *p, struct rec *r, int k, const struct fval *v)
{
	const char *s = v->s;
	size_t n = v->n;
	uint32_t raw, id;

	if (v->type == TL_J_UNDEF) {
		put_str(p, r, k, "", 0);
		return;
	}
	if (v->type == TL_J_STRING) {
		s--;		/* with the quotes */
		n += 2;
	}
	/* Argument lists repeat, blanks and all: each is compacted once. */
	if (v->type != TL_J_STRING && v->raw != 0)
		raw = v->raw - 1;	/* nest_seen found it */
	else {
		raw = tl_intern(p->raw, s, n);
		if (v->type != TL_J_STRING && v->tag != 0) {
			/* Checked by the lexer: the first of its set now. */
			struct nest *w = p->nest[v->tag >> (32 - NEST_BITS)];

			memmove(w + 1, w, (NEST_WAYS - 1) * sizeof(*w));
			w[0].s = tl_str(p->raw, raw);
			w[0].n = (uint32_t)n;
			w[0].raw = raw;
			w[0].tag = v->tag;
		}
	}
	if (raw < p->caprawto && p->rawto[raw] != 0) {
		id = p->rawto[raw] - 1;
		r->sid[k] = id;
		r->s[k] = tl_str(p->str, id);
		r->slen[k] = (uint32_t)tl_strsize(p->str, id);
		return;
	}
	tl_grow(&p->buf, &p->cap, n + 1, 1);
	n = tl_json_compact_text(s, n, p->buf);
	if (n == 4 && memcmp(p->buf, "null", 4) == 0)
		n = 0;
	put_str(p, r, k, n > 0 ? p->buf : "", n);
	if (raw >= p->caprawto)
		tl_grow_set(&p->rawto, &p->caprawto, (size_t)raw + 1,
		    sizeof(*p->rawto), 0);
	p->rawto[raw] = r->sid[k] + 1;
}

/* The integer v holds (a number, or a string of one) in *x: 0, or -1. */
static inline int
fv_i64(struct parser *p, const struct fval *v, int64_t *x)
{
	const char *s;
	size_t n;

	if (v->type == TL_J_UNDEF)
		return -1;
	if (!v->esc && v->n > 0 && v->n <= 18) {
		/* Digits alone, at most 18: tl_parse_i64's value, here. */
		int64_t y = 0;

		for (n = 0; n < v->n && TL_JLEX_DIGIT(v->s[n]); n++)
			y = y * 10 + (v->s[n] - '0');
		if (n == v->n) {
			*x = y;
			return 0;
		}
	}
	n = fv_text(p, v, &s);
	return tl_parse_i64(s, n, x);
}

/* Integer value of v, or TL_NONE if absent or not an integer. */
static inline int64_t
int_arg(struct parser *p, const struct fval *v)
{
	int64_t x;

	return fv_i64(p, v, &x) < 0 ? TL_NONE : x;
}

/* 0, or -1 with the message in msg. */
static int
time_field(const struct fval *v, const char *key, int64_t *ns, char *msg,
    size_t msgsz)
{
	if (v->timed) {
		*ns = v->ns;
		return 0;
	}
	if (v->type == TL_J_UNDEF) {
		snprintf(msg, msgsz, "missing \"%s\"", key);
		return -1;
	}
	if (v->type != TL_J_PRIM || tl_parse_us_ns(v->s, v->n, ns) < 0) {
		snprintf(msg, msgsz, "\"%s\" is not a number", key);
		return -1;
	}
	return 0;
}

/*
 * The id in t->pythr of the thread (pid, tid): the two strings joined by
 * a NUL byte.
 */
static uint32_t
join_pythr(struct tl_trace *t, char **buf, size_t *cap, const char *pid,
    size_t pn, const char *tid, size_t tn)
{
	tl_grow(buf, cap, pn + tn + 1, 1);
	memcpy(*buf, pid, pn);
	(*buf)[pn] = '\0';
	memcpy(*buf + pn + 1, tid, tn);
	return tl_intern(t->pythr, *buf, pn + tn + 1);
}

static uint32_t
pythr_id(struct reader *r, const char *pid, size_t pn, const char *tid,
    size_t tn)
{
	return join_pythr(r->t, &r->kbuf, &r->kcap, pid, pn, tid, tn);
}

uint32_t
tl_trace_pythread(struct tl_trace *t, uint32_t k)
{
	char *buf = NULL;
	size_t cap = 0, i;

	if (t->thread_py == NULL) {
		t->thread_py = tl_malloc((t->nthreads + 1) *
		    sizeof(*t->thread_py));
		for (i = 0; i < t->nthreads; i++) {
			uint32_t pid = t->threads[i].pid, tid = t->threads[i].tid;

			t->thread_py[i] = join_pythr(t, &buf, &cap,
			    tl_str(t->str, pid), tl_strsize(t->str, pid),
			    tl_str(t->str, tid), tl_strsize(t->str, tid));
		}
		free(buf);
	}
	return t->thread_py[k];
}

/* Set t->thread_py of the new thread k (pid, tid: interned ids). */
static void
thread_key(struct reader *r, size_t k, uint32_t pid, uint32_t tid)
{
	struct tl_trace *t = r->t;

	tl_grow(&t->thread_py, &r->capthrpy, k + 1, sizeof(*t->thread_py));
	t->thread_py[k] = pythr_id(r, tl_str(t->str, pid),
	    tl_strsize(t->str, pid), tl_str(t->str, tid),
	    tl_strsize(t->str, tid));
}

/* The index in t->threads of (pid, tid) (interned ids). */
static uint32_t
thread_of(struct reader *r, uint32_t pid, uint32_t tid)
{
	struct tl_trace *t = r->t;
	uint64_t thr = (uint64_t)pid << 32 | tid;
	int64_t *k;

	/* Events come in runs on one thread: try the last one first. */
	if (thr == r->lastthr && t->nthreads > 0)
		return r->lastix;
	if ((k = tl_map_get(&r->threads, 0, thr)) == NULL) {
		tl_grow(&t->threads, &t->capthreads, t->nthreads + 1,
		    sizeof(*t->threads));
		t->threads[t->nthreads].pid = pid;
		t->threads[t->nthreads].tid = tid;
		if (r->o->keep_python != TL_PY_SKIP)
			thread_key(r, t->nthreads, pid, tid);
		tl_map_put(&r->threads, 0, thr, (int64_t)t->nthreads++);
		k = tl_map_get(&r->threads, 0, thr);
	}
	r->lastthr = thr;
	r->lastix = (uint32_t)*k;
	return r->lastix;
}

/* The members an event is read for (the first of each name). */
enum { K_PH, K_ID, K_TS, K_DUR, K_NAME, K_PID, K_TID, K_ARGS, NTOP };
/*
 * A_COLL..A_CSEQ: the collective's metadata PyTorch's record_param_comms
 * writes (torch/csrc/distributed/c10d/ParamCommsUtils.hpp).
 */
enum { A_CORR, A_EXTID, A_SEQ, A_STREAM, A_GRID, A_BLOCK, A_DIMS, A_TYPES,
	A_STRIDES, A_CONCRETE, A_KERNEL, A_COLL, A_DTYPE, A_INNEL, A_OUTNEL,
	A_GSIZE, A_PGNAME, A_PGDESC, A_PGRANKS, A_CSEQ, NARG };
static const char *const arg_keys[NARG] = {
	"correlation", "External id", "Sequence number", "stream", "grid",
	"block", "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
	"kernel", "Collective name", "dtype", "In msg nelems",
	"Out msg nelems", "Group size", "Process Group Name",
	"Process Group Description", "Process Group Ranks", "Seq"
};

static void *
parser_new(void *ctx)
{
	struct reader *r = ctx;
	struct parser *p = tl_calloc(1, sizeof(*p));

	p->o = r->o;
	p->t = r->t;
	p->id = r->nparsers++;
	r->str = tl_realloc(r->str, (size_t)r->nparsers * sizeof(*r->str));
	r->args = tl_realloc(r->args, (size_t)r->nparsers * sizeof(*r->args));
	r->pystr = tl_realloc(r->pystr, (size_t)r->nparsers *
	    sizeof(*r->pystr));
	memset(&r->str[p->id], 0, sizeof(r->str[p->id]));
	memset(&r->args[p->id], 0, sizeof(r->args[p->id]));
	memset(&r->pystr[p->id], 0, sizeof(r->pystr[p->id]));
	tl_json_init(&p->j);
	p->str = tl_strtab_new();
	p->args = tl_strtab_new();
	p->raw = tl_strtab_new();
	p->nest = tl_calloc(1u << NEST_BITS, sizeof(*p->nest));
	p->combo = tl_calloc(1u << COMBO_BITS, sizeof(*p->combo));
	p->seen = tl_calloc(1u << SEEN_BITS, sizeof(*p->seen));
	p->named = tl_calloc(1u << NAMED_BITS, sizeof(*p->named));
	p->empty = tl_str(p->str, 0);
	return p;
}

/* Count an event of category c[0..n) that is not read. */
static void
unread(struct parser *p, const char *c, size_t n)
{
	struct tl_catcount *u;
	size_t i = p->lastunread;

	if (i < p->nunread && strlen(p->unread[i].cat) == n &&
	    memcmp(p->unread[i].cat, c, n) == 0) {
		p->unread[i].n++;
		return;
	}
	for (i = 0; i < p->nunread; i++)
		if (strlen(p->unread[i].cat) == n &&
		    memcmp(p->unread[i].cat, c, n) == 0)
			break;
	if (i == p->nunread) {
		tl_grow(&p->unread, &p->capunread, i + 1, sizeof(*u));
		u = &p->unread[p->nunread++];
		u->cat = tl_malloc(n + 1);
		memcpy(u->cat, c, n);
		u->cat[n] = '\0';
		u->n = 0;
	}
	p->unread[i].n++;
	p->lastunread = i;
}

static int
cmp_cat(const void *a, const void *b)
{
	return strcmp(((const struct tl_catcount *)a)->cat,
	    ((const struct tl_catcount *)b)->cat);
}

/* Add p's unread categories to its trace's, kept sorted by name. */
static void
merge_unread(struct parser *p)
{
	struct tl_trace *t = p->t;
	size_t i, j, cap = t->nunread;

	for (i = 0; i < p->nunread; i++) {
		for (j = 0; j < t->nunread; j++)
			if (strcmp(t->unread[j].cat, p->unread[i].cat) == 0)
				break;
		if (j < t->nunread) {
			t->unread[j].n += p->unread[i].n;
			free(p->unread[i].cat);
			continue;
		}
		tl_grow(&t->unread, &cap, t->nunread + 1, sizeof(*t->unread));
		t->unread[t->nunread++] = p->unread[i];
	}
	if (t->nunread > 1)
		qsort(t->unread, t->nunread, sizeof(*t->unread), cmp_cat);
	free(p->unread);
}

static void
parser_free(void *w)
{
	struct parser *p = w;
	size_t i;

	merge_unread(p);
	tl_json_free(&p->j);
	tl_jlex_free(&p->lex);
	free(p->dbuf);
	tl_strtab_free(p->str);
	tl_strtab_free(p->args);
	tl_strtab_free(p->raw);
	free(p->nest);
	for (i = 0; i < (1u << COMBO_BITS) * COMBO_WAYS; i++)
		free(p->combo[i / COMBO_WAYS][i % COMBO_WAYS].s);
	free(p->combo);
	free(p->seen);
	free(p->named);
	free(p->rawto);
	free(p->buf);
	free(p);
}

/*
 * Append to p->buf at *len the member "key": the value v as compact JSON
 * (a string with its quotes; integers only for the counts, int != 0).
 */
static void
comm_member(struct parser *p, size_t *len, const char *key,
    const struct fval *v, int integer)
{
	size_t kn = strlen(key), n = v->n + 2;
	const char *s = v->s;
	int64_t x;

	if (v->type == TL_J_UNDEF || (integer && (v->type != TL_J_PRIM ||
	    tl_parse_i64(v->s, v->n, &x) < 0)) || (!integer &&
	    v->type != TL_J_STRING))
		return;
	tl_grow(&p->buf, &p->cap, *len + kn + n + 8, 1);
	p->buf[*len] = *len > 0 ? ',' : '{';
	(*len)++;
	p->buf[(*len)++] = '"';
	memcpy(p->buf + *len, key, kn);
	*len += kn;
	p->buf[(*len)++] = '"';
	p->buf[(*len)++] = ':';
	if (integer) {
		memcpy(p->buf + *len, s, v->n);
		*len += v->n;
	} else
		*len += tl_json_compact_text(s - 1, n, p->buf + *len);
}

/*
 * String S_COMM: the collective's metadata of a record_param_comms
 * event as one compact JSON object (struct tl_args.comm), "" for an
 * event without it.  "Process Group Ranks" is a string holding a list
 * ("[0, 1, 2]"): it becomes the array when it is a list of integers.
 */
static void
put_comm(struct parser *p, struct rec *rc, const struct fval *a)
{
	static const struct {
		int arg, integer;
		const char *key;
	} m[] = {
		{ A_COLL, 0, "name" }, { A_DTYPE, 0, "dtype" },
		{ A_INNEL, 1, "in_nelems" }, { A_OUTNEL, 1, "out_nelems" },
		{ A_GSIZE, 1, "group_size" }, { A_PGNAME, 0, "pg_name" },
		{ A_PGDESC, 0, "pg_desc" }, { A_CSEQ, 1, "seq" }
	};
	const struct fval *r = &a[A_PGRANKS];
	size_t len = 0, i, ok = 0;

	put_str(p, rc, S_COMM, "", 0);
	if (a[A_COLL].type == TL_J_UNDEF)
		return;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		comm_member(p, &len, m[i].key, &a[m[i].arg], m[i].integer);
	if (r->type == TL_J_STRING && r->n >= 2 && r->s[0] == '[' &&
	    r->s[r->n - 1] == ']')
		for (ok = 1, i = 0; i < r->n && ok; i++)
			ok = strchr("[]0123456789-, ", r->s[i]) != NULL &&
			    r->s[i] != '\0';
	if (ok) {
		tl_grow(&p->buf, &p->cap, len + r->n + 16, 1);
		memcpy(p->buf + len, len > 0 ? ",\"pg_ranks\":" : "{\"pg_ranks\":",
		    12);
		len += 12;
		for (i = 0; i < r->n; i++)
			if (r->s[i] != ' ')
				p->buf[len++] = r->s[i];
	}
	if (len == 0)
		return;
	tl_grow(&p->buf, &p->cap, len + 1, 1);
	p->buf[len++] = '}';
	put_str(p, rc, S_COMM, p->buf, len);
}

/*
 * Strings S_PID and S_TID from f (put_thread), or as the event before
 * had them when rd_thread_ts found the same bytes (p->same).
 */
static inline __attribute__((always_inline)) void
put_pidtid(struct parser *p, struct rec *r, const struct fval *f)
{
	int i;

	if (p->same && p->pt.ids) {
		for (i = 0; i < 2; i++) {
			r->sid[S_PID + i] = p->pt.sid[i];
			r->s[S_PID + i] = p->pt.str[i];
			r->slen[S_PID + i] = p->pt.slen[i];
		}
		return;
	}
	put_thread(p, r, S_PID, &f[K_PID]);
	put_thread(p, r, S_TID, &f[K_TID]);
	if (p->same) {
		for (i = 0; i < 2; i++) {
			p->pt.sid[i] = r->sid[S_PID + i];
			p->pt.str[i] = r->s[S_PID + i];
			p->pt.slen[i] = r->slen[S_PID + i];
		}
		p->pt.ids = 1;
	}
}

/*
 * Keep the shape members the event's were (p->cs, p->cn, p->ctag, from
 * combo_seen) with what fill_rec made of them in rc: the first of their
 * set now.
 */
static void
combo_keep(struct parser *p, const struct rec *rc)
{
	struct combo *w = p->combo[p->ctag >> (32 - COMBO_BITS)];
	int i;

	free(w[COMBO_WAYS - 1].s);
	memmove(w + 1, w, (COMBO_WAYS - 1) * sizeof(*w));
	w[0].s = tl_malloc(p->cn);
	memcpy(w[0].s, p->cs, p->cn);
	w[0].n = p->cn;
	w[0].tag = p->ctag;
	for (i = 0; i < NSHAPE; i++) {
		w[0].sid[i] = rc->sid[S_DIMS + i];
		w[0].str[i] = rc->s[S_DIMS + i];
		w[0].slen[i] = rc->slen[S_DIMS + i];
	}
	w[0].args = rc->args;
}

/*
 * Fill the record at out->p + at (reserved, zero) from the event's
 * members f (by K_*) and args members a (arg_keys), kind and fc as
 * the event's category says (kind_of, flow_cat).  Returns 1, or 0 for an
 * event that is not kept (nothing written), or -1 with the message in
 * msg.
 */
static int
fill_rec(struct parser *p, struct tl_scan_out *out, size_t at, int kind,
    unsigned fc, const struct fval *f, const struct fval *a, char *msg,
    size_t msgsz)
{
	struct rec *rc = rec_at(out, at);
	int ph;

	if (f[K_PH].type == TL_J_UNDEF)
		goto skip;
	ph = f[K_PH].n == 1 ? f[K_PH].s[0] : 0;
	if (f[K_PH].esc) {	/* "\u0058" is "X" */
		const char *s;

		ph = fv_text(p, &f[K_PH], &s) == 1 ? s[0] : 0;
	}
	if (ph == 's' || ph == 'f') {
		int64_t id;

		if (fc == 0 || fv_i64(p, &f[K_ID], &id) < 0)
			goto skip;
		rc->type = ph == 's' ? R_FLOW_S : R_FLOW_F;
		rc->id = id;
		rc->flowcat = (uint8_t)fc;
		if (ph == 'f')
			put_pidtid(p, rc, f);
		return 1;
	}
	if (ph != 'X' || kind < 0)
		goto skip;

	rc->type = R_X;
	rc->kind = (uint8_t)kind;
	if (f[K_TS].timed && f[K_DUR].timed) {	/* time_field's, here */
		rc->ts = f[K_TS].ns;
		rc->dur = f[K_DUR].ns;
	} else if (time_field(&f[K_TS], "ts", &rc->ts, msg, msgsz) < 0 ||
	    time_field(&f[K_DUR], "dur", &rc->dur, msg, msgsz) < 0)
		return -1;
	if (rc->dur < 0) {
		snprintf(msg, msgsz, "negative \"dur\"");
		return -1;
	}
	if (rc->ts <= -TL_TIME_MAX || rc->ts >= TL_TIME_MAX) {
		snprintf(msg, msgsz, "\"ts\" out of range");
		return -1;
	}
	if (rc->dur >= TL_TIME_MAX - rc->ts) {
		snprintf(msg, msgsz, "\"ts\" + \"dur\" out of range");
		return -1;
	}
	put_seen(p, rc, S_NAME, &f[K_NAME]);
	put_pidtid(p, rc, f);
	if (kind == TL_EV_PYTHON)
		return 1;	/* py_frame reads no more */
	rc->corr = int_arg(p, &a[A_CORR]);
	rc->extid = int_arg(p, &a[A_EXTID]);
	if (TL_IS_GPU(kind)) {
		rc->stream = int_arg(p, &a[A_STREAM]);
		put_compact(p, rc, S_GRID, &a[A_GRID]);
		put_compact(p, rc, S_BLOCK, &a[A_BLOCK]);
	} else
		rc->seq = int_arg(p, &a[A_SEQ]);
	if (p->o->launch_kernels && (kind == TL_EV_RUNTIME ||
	    kind == TL_EV_DRIVER) && a[A_KERNEL].type != TL_J_UNDEF)
		put_seen(p, rc, S_KERNEL, &a[A_KERNEL]);
	if (kind == TL_EV_CPU_OP) {
		struct tl_args x;
		const struct combo *c = p->hit;
		int i;

		if (c != NULL && a[A_COLL].type == TL_J_UNDEF) {
			/* What the lines below made of the same bytes. */
			for (i = 0; i < NSHAPE; i++) {
				rc->sid[S_DIMS + i] = c->sid[i];
				rc->s[S_DIMS + i] = c->str[i];
				rc->slen[S_DIMS + i] = c->slen[i];
			}
			put_comm(p, rc, a);
			rc->args = c->args;
			return 1;
		}
		put_compact(p, rc, S_DIMS, &a[A_DIMS]);
		put_compact(p, rc, S_TYPES, &a[A_TYPES]);
		put_compact(p, rc, S_STRIDES, &a[A_STRIDES]);
		put_compact(p, rc, S_CONCRETE, &a[A_CONCRETE]);
		put_comm(p, rc, a);
		x.dims = rc->sid[S_DIMS];
		x.types = rc->sid[S_TYPES];
		x.strides = rc->sid[S_STRIDES];
		x.concrete = rc->sid[S_CONCRETE];
		x.comm = rc->sid[S_COMM];
		if (x.dims != 0 || x.types != 0 || x.strides != 0 ||
		    x.concrete != 0 || x.comm != 0)
			rc->args = tl_intern(p->args, (const char *)&x,
			    sizeof(x));
		if (c == NULL && p->ctag != 0 &&
		    a[A_COLL].type == TL_J_UNDEF)
			combo_keep(p, rc);
	}
	return 1;
skip:
	out->len = at;
	return 0;
}

/*
 * The record at out->p + at filled by fill_rec (1, or 0 for an event not
 * kept); one that says what fill_rec found wrong, or with lenient (a
 * frame for TL_PY_CONTEXT) none; deep: its args were dropped.
 */
static int
put_rec(struct parser *p, struct tl_scan_out *out, size_t at, int kind,
    unsigned fc, const struct fval *f, const struct fval *a, int lenient,
    int deep)
{
	char msg[64];
	int r = fill_rec(p, out, at, kind, fc, f, a, msg, sizeof(msg));

	p->hit = NULL;		/* this event's only */
	p->ctag = 0;
	if (r < 0) {
		if (!lenient)
			return parse_error(out, at, msg, 0);
		out->len = at;
		return 0;
	}
	if (r > 0 && deep)
		rec_at(out, at)->dropped = 1;
	return r;
}

/* The values of tokens tk[0..n) (-1: absent). */
static void
tok_vals(const struct tl_json *j, const int *tk, int n, struct fval *v)
{
	int i;

	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		if (tk[i] >= 0) {
			size_t n;

			v[i].s = tl_json_text(j, tk[i], &n);
			v[i].n = (uint32_t)n;
			v[i].type = (uint8_t)tl_json_type(j, tk[i]);
			v[i].esc = 1;
		}
	}
}

/*
 * The lexer's verdict on the event ev[0..len): 0 when it is JSON nested
 * at most TL_JSON_DEPTH deep; -1 when it is not (p->lex says what and
 * where); 1 when it is JSON but for top-level members "args" nested
 * deeper, which are dropped: the event without their values (each
 * replaced by {}) is then in p->dbuf[0..p->dlen).
 */
static int
check_event(struct parser *p, const char *ev, size_t len)
{
	const char *end = ev + len, *s, *q, *from = ev;
	int esc;

	if ((q = tl_jlex_value(&p->lex, ev, end, 0, TL_JSON_DEPTH)) == end)
		return 0;
	if (q != NULL || !p->lex.deep) {
		if (q != NULL)	/* the cutter's end is a value's end */
			p->lex.what = "malformed JSON", p->lex.at = q;
		return -1;
	}
	/* Valid JSON, too deep somewhere: member by member. */
	p->dlen = 0;
	s = tl_jlex_blank(ev + 1, end);
	while (*s != '}') {
		const char *k = s, *v;

		esc = 0;
		q = tl_jlex_string(s, end, &esc);
		s = tl_jlex_blank(tl_jlex_blank(q + 1, end) + 1, end);
		v = s;
		if ((s = tl_jlex_value(&p->lex, v, end, 1, TL_JSON_DEPTH)) ==
		    NULL) {
			if (q - k != 5 || memcmp(k, "\"args\"", 6) != 0)
				return -1;
			s = p->lex.end;
			tl_grow(&p->dbuf, &p->capd, p->dlen + (size_t)(v -
			    from) + 3, 1);
			memcpy(p->dbuf + p->dlen, from, (size_t)(v - from));
			p->dlen += (size_t)(v - from);
			memcpy(p->dbuf + p->dlen, "{}", 2);
			p->dlen += 2;
			from = s;
		}
		s = tl_jlex_blank(s, end);
		if (*s == ',')
			s = tl_jlex_blank(s + 1, end);
	}
	tl_grow(&p->dbuf, &p->capd, p->dlen + (size_t)(end - from) + 1, 1);
	memcpy(p->dbuf + p->dlen, from, (size_t)(end - from));
	p->dlen += (size_t)(end - from);
	p->dbuf[p->dlen] = '\0';
	return 1;
}

/*
 * The one-pass reader (tl_scan_cb.read), the reader of every event: the
 * event's members checked as JSON by the lexer (lib/common/jlex) and the
 * ones tl reads found in one pass over its bytes, from which fill_rec
 * writes the record.  Members are found by their keys unescaped (the
 * first of each name), the category is the event's own top-level "cat"
 * (unescaped; one nested in its args is only an argument), and args
 * nested deeper than TL_JSON_DEPTH are dropped (the record says so).  An
 * event whose category is not kept is skipped once the rest of its bytes
 * are checked; one fill_rec rejects gets the record of its error.  It
 * leaves only the bytes that are not one whole JSON event to the cutter
 * (-1): an event the bytes read end inside, or a malformed one, whose
 * error parse_event says (the lexer's check, what and where).
 */
/* Past blanks; the bytes end with a NUL. */
static const char *
rd_blanks(const char *s)
{
	while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
		s++;
	return s;
}

/* The same, none or Kineto's one blank found without a call. */
static inline const char *
rd_blank(const char *s)
{
	if ((unsigned char)*s > ' ')
		return s;
	if (*s == ' ' && (unsigned char)s[1] > ' ')
		return s + 1;
	return rd_blanks(s);
}

/*
 * At s, the bytes lit[0..n): the byte after them, or NULL.  For a
 * constant lit (RD_LIT) the comparison is a few 8-byte ones, without a
 * call: lit's words are constants then.
 */
static inline const char *
rd_lit(const char *s, const char *end, const char *lit, size_t n)
{
	uint64_t a, b;
	size_t i;

	if ((size_t)(end - s) < n)
		return NULL;
	if (n < 4)
		return memcmp(s, lit, n) == 0 ? s + n : NULL;
	if (n < 8) {
		uint32_t c, d;	/* the first 4 and the last 4, overlapping */

		memcpy(&c, s, 4);
		memcpy(&d, lit, 4);
		if (c != d)
			return NULL;
		memcpy(&c, s + n - 4, 4);
		memcpy(&d, lit + n - 4, 4);
		return c == d ? s + n : NULL;
	}
	for (i = 0; i + 8 < n; i += 8) {
		memcpy(&a, s + i, 8);
		memcpy(&b, lit + i, 8);
		if (a != b)
			return NULL;
	}
	memcpy(&a, s + n - 8, 8);	/* the last 8, overlapping */
	memcpy(&b, lit + n - 8, 8);
	return a == b ? s + n : NULL;
}
#define RD_LIT(s, end, lit) rd_lit((s), (end), (lit), sizeof(lit) - 1)

/*
 * tl_jlex_prim's end of the number or literal at s, found without a
 * call in the commonest case: 1 to 7 digits (no leading zero) and then a
 * byte that goes on no number, from one 8-byte load (the top bit of
 * each byte that is not a digit; a carry out of one only reaches the
 * bytes after it).
 */
static inline const char *
rd_prim(const char *s, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - s >= 8) {
		uint64_t w, x, nd;

		memcpy(&w, s, 8);
		x = w ^ 0x3030303030303030ull;
		nd = ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
		if (nd != 0) {
			int n = __builtin_ctzll(nd) >> 3;

			if (n > 0 && (n == 1 || *s != '0') && s[n] != '.' &&
			    (s[n] | 0x20) != 'e')
				return s + n;
		}
	}
#endif
	return tl_jlex_prim(s, end);
}

/*
 * The end of the 1 to 7 digits at s (no leading zero) when a byte that
 * is not one follows them, from one 8-byte load, or NULL: rd_prim's
 * number when the byte after it is one that ends a number (the caller
 * checks it), with 8 bytes at s before the bytes' end.
 */
static inline const char *
rd_digits(const char *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w, x, nd;
	int n;

	memcpy(&w, s, 8);
	x = w ^ 0x3030303030303030ull;
	nd = ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
	if (nd == 0)
		return NULL;
	n = __builtin_ctzll(nd) >> 3;
	return n > 0 && (n == 1 || *s != '0') ? s + n : NULL;
#else
	(void)s;
	return NULL;
#endif
}

/* 1 if the key s[0..n) is "cat". */
static int
is_cat(const char *s, size_t n)
{
	return n == 3 && s[0] == 'c' && s[1] == 'a' && s[2] == 't';
}

/*
 * The value whose text is s[0..end), as the tokeniser gives it; esc as
 * struct fval has it.
 */
static void
rd_fval(struct fval *v, const char *s, const char *end, int esc)
{
	v->type = *s == '"' ? TL_J_STRING : *s == '{' ? TL_J_OBJECT :
	    *s == '[' ? TL_J_ARRAY : TL_J_PRIM;
	v->s = v->type == TL_J_STRING ? s + 1 : s;
	v->n = (uint32_t)(end - s) - (v->type == TL_J_STRING ? 2 : 0);
	v->esc = (uint8_t)esc;
}

/* The index in arg_keys of the key s[0..n), or -1. */
static int
arg_key(const char *s, size_t n)
{
	int k;

	switch (n) {
	case 3: k = A_CSEQ; break;
	case 4: k = A_GRID; break;
	case 5: k = s[0] == 'b' ? A_BLOCK : A_DTYPE; break;
	case 6: k = s[0] == 's' ? A_STREAM : A_KERNEL; break;
	case 10: k = s[0] == 'G' ? A_GSIZE : s[6] == 'D' ? A_DIMS : A_TYPES;
		break;
	case 11: k = s[0] == 'c' ? A_CORR : A_EXTID; break;
	case 13: k = s[2] == 'p' ? A_STRIDES : A_INNEL; break;
	case 14: k = A_OUTNEL; break;
	case 15: k = s[0] == 'S' ? A_SEQ : s[2] == 'l' ? A_COLL : A_CONCRETE;
		break;
	case 18: k = A_PGNAME; break;
	case 19: k = A_PGRANKS; break;
	case 25: k = A_PGDESC; break;
	default: return -1;
	}
	return memcmp(arg_keys[k], s, n) == 0 ? k : -1;
}

/*
 * In rd_known_arg and rd_known_key: when the bytes at s before end are
 * the literal lit, the key is kk (*k) and the value starts after it.
 */
#define KEY(lit, kk) if (RD_LIT(s, end, lit) != NULL) \
	return *k = (kk), s + sizeof(lit) - 1

/*
 * The key of an args member at s (a quote), among those tl reads and
 * those Kineto writes most, as Kineto writes it (quote, name, quote,
 * colon, blank): *k as arg_key has it and the byte after, or NULL for
 * any other key (the reader then takes the key its general way, which
 * finds the same for these bytes).
 */
static const char *
rd_known_arg(const char *s, const char *end, int *k)
{
	switch (s[1]) {
	case 'E':
		KEY("\"Ev Idx\": ", -1);
		KEY("\"External id\": ", A_EXTID);
		break;
	case 'P':
		KEY("\"Python parent id\": ", -1);
		KEY("\"Python id\": ", -1);
		KEY("\"Python module id\": ", -1);
		break;
	case 'R':
		KEY("\"Record function id\": ", -1);
		break;
	case 'S':
		KEY("\"Sequence number\": ", A_SEQ);
		break;
	case 'F':
		KEY("\"Fwd thread id\": ", -1);
		break;
	case 'I':
		KEY("\"Input Dims\": ", A_DIMS);
		KEY("\"Input type\": ", A_TYPES);
		KEY("\"Input Strides\": ", A_STRIDES);
		break;
	case 'C':
		KEY("\"Concrete Inputs\": ", A_CONCRETE);
		break;
	case 'c':
		KEY("\"correlation\": ", A_CORR);
		KEY("\"cid\": ", -1);
		KEY("\"cbid\": ", -1);
		KEY("\"context\": ", -1);
		break;
	case 'g':
		KEY("\"grid\": ", A_GRID);
		break;
	case 'b':
		KEY("\"block\": ", A_BLOCK);
		break;
	case 's':
		KEY("\"stream\": ", A_STREAM);
		KEY("\"shared memory\": ", -1);
		break;
	case 'k':
		KEY("\"kernel\": ", A_KERNEL);
		KEY("\"kind\": ", -1);
		break;
	case 'd':
		KEY("\"device\": ", -1);
		break;
	}
	return NULL;
}

/*
 * The end of the value at s (not blank), a top-level member's or one in
 * args (depth 1 or 2), by the lexer, or NULL when it is not JSON or
 * nested deeper than TL_JSON_DEPTH (then *deep: 1 and the end, when deep
 * is not NULL).
 */
static const char *
rd_value(struct parser *p, const char *s, const char *end, int depth,
    int *deep)
{
	const char *q;
	int esc = 0;

	if (*s == '"')
		return (q = tl_jlex_string(s, end, &esc)) != NULL ? q + 1 :
		    NULL;
	if (*s != '{' && *s != '[')
		return tl_jlex_prim(s, end);
	if ((q = tl_jlex_value(&p->lex, s, end, depth, TL_JSON_DEPTH)) ==
	    NULL) {
		if (deep == NULL || !p->lex.deep)
			return NULL;
		*deep = 1;
		return p->lex.end;
	}
	return q;
}

/*
 * In the 8 bytes w (little-endian), the lowest bit of the first '}', or
 * 0 (the haszero test: bytes after the first may be flagged too).
 */
static inline uint64_t
nest_close(uint64_t w)
{
	uint64_t x = w ^ 0x7d7d7d7d7d7d7d7dull;
	uint64_t z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;

	return z & -z;
}

/*
 * The end of the array or object at s, the value of args member k
 * (arg_keys), when its bytes start with those of one put_compact kept
 * (p->nest), with v->raw its id in p->raw + 1: a valid array or object
 * ends where its own bytes say, so the lexer, which checked that one at
 * the same depth, would find it again here.  Else NULL, with v->set the
 * set to keep it in + 1 (0 when too near end to choose one).  The set
 * is chosen by the key and the bytes at s up to the first '}' (the end
 * of args, after an array) or NEST_WORDS * 8 bytes: the value and what
 * Kineto writes after it.
 */
static const char *
nest_seen(struct parser *p, int k, const char *s, const char *end,
    struct fval *v)
{
	struct nest *w;
	uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull, x, c;
	uint32_t tag;
	int i;

	if (end - s < 8 * NEST_WORDS)
		return NULL;
	for (i = 0; i < NEST_WORDS; i++) {
		memcpy(&x, s + 8 * i, 8);
		if ((c = nest_close(x)) != 0)
			x &= c - 1;
		h = (h ^ x) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
		if (c != 0)
			break;
	}
	tag = (uint32_t)(h >> 32) | 1;
	w = p->nest[tag >> (32 - NEST_BITS)];
	for (i = 0; i < NEST_WAYS && w[i].s != NULL; i++)
		if (w[i].tag == tag && w[i].n <= (size_t)(end - s) &&
		    memcmp(w[i].s, s, w[i].n) == 0) {
			struct nest hit = w[i];

			/* One place nearer the first of its set now. */
			if (i > 0) {
				w[i] = w[i - 1];
				w[i - 1] = hit;
			}
			v->raw = hit.raw + 1;
			return s + hit.n;
		}
	v->tag = tag;
	return NULL;
}

/*
 * The combo (struct combo) whose bytes are those at q, the value of a
 * cpu_op's "Concrete Inputs" as seq_op reads it, when put_rec kept one:
 * those bytes were read the same way, to the end of "Input Dims", so
 * they would be again.  Else NULL, with p->cs, p->cn and p->ctag the
 * span to keep when rd_seq finds it ends there (tag 0: none).  The span
 * is guessed from the args' end, the first '}' after q: Kineto's ",
 * \"Ev Idx\": N}" ends them, after "Input Dims" (the number left out,
 * as it changes from event to event).
 */
static const struct combo *
combo_seen(struct parser *p, const char *q, const char *end)
{
	const char *e = memchr(q, '}', (size_t)(end - q));
	struct combo *w;
	uint64_t h, a, b, c, d;
	uint32_t n, tag;
	int i;

	p->ctag = 0;
	if (e == NULL)
		return NULL;
	while (e > q && TL_JLEX_DIGIT(e[-1]))
		e--;
	if (e - q < 32 + 12 || memcmp(e - 12, ", \"Ev Idx\": ", 12) != 0 ||
	    e - 12 - q > COMBO_MAX)
		return NULL;
	e -= 12;
	n = (uint32_t)(e - q);
	memcpy(&a, q, 8);
	memcpy(&b, q + 8, 8);
	memcpy(&c, e - 16, 8);
	memcpy(&d, e - 8, 8);
	h = (a ^ n) * 0x9e3779b97f4a7c15ull;
	h = (h ^ (h >> 29) ^ b) * 0xff51afd7ed558ccdull;
	h = (h ^ (h >> 32) ^ c) * 0xc4ceb9fe1a85ec53ull;
	h = (h ^ (h >> 29) ^ d) * 0xff51afd7ed558ccdull;
	tag = (uint32_t)(h >> 32) | 1;
	w = p->combo[tag >> (32 - COMBO_BITS)];
	for (i = 0; i < COMBO_WAYS && w[i].s != NULL; i++)
		if (w[i].tag == tag && w[i].n == n &&
		    memcmp(w[i].s, q, n) == 0) {
			if (i > 0) {	/* one place nearer the first */
				struct combo x = w[i];

				w[i] = w[i - 1];
				w[i - 1] = x;
				i--;
			}
			return &w[i];
		}
	p->cs = q;
	p->cn = n;
	p->ctag = tag;
	return NULL;
}

/*
 * The byte after the string at s (its opening quote) when its text is
 * one put_seen kept (p->seen): a string without an escape, so the
 * lexer, which found its closing quote, would find it here again; v
 * then holds it (its id in v->raw).  Else NULL, with *tag the set to
 * keep it in (0 when too near end to choose one).
 */
static inline const char *
str_seen(struct parser *p, const char *s, const char *end, struct fval *v,
    uint32_t *tag)
{
	uint64_t a, b, c, d, h;
	struct seen *w;
	int i;

	*tag = 0;
	if (end - s < 40)
		return NULL;
	memcpy(&a, s + 1, 8);
	memcpy(&b, s + 9, 8);
	memcpy(&c, s + 17, 8);
	memcpy(&d, s + 25, 8);
	h = a * 0x9e3779b97f4a7c15ull;
	h = (h ^ (h >> 29) ^ b) * 0xff51afd7ed558ccdull;
	h = (h ^ (h >> 32) ^ c) * 0xc4ceb9fe1a85ec53ull;
	h = (h ^ (h >> 29) ^ d) * 0xff51afd7ed558ccdull;
	*tag = (uint32_t)(h >> 32) | 1;
	w = p->seen[*tag >> (32 - SEEN_BITS)];
	for (i = 0; i < SEEN_WAYS && w[i].s != NULL; i++)
		if (w[i].tag == *tag && w[i].n < (size_t)(end - s - 1) &&
		    s[1 + w[i].n] == '"' && memcmp(w[i].s, s + 1, w[i].n) == 0) {
			v->type = TL_J_STRING;
			v->s = s + 1;
			v->n = w[i].n;
			v->esc = 0;
			v->timed = 0;
			v->raw = w[i].id + 1;
			v->tag = 0;
			return s + 2 + w[i].n;
		}
	return NULL;
}

/*
 * The end of the value at q of args member k (arg_keys; -1: not read),
 * or NULL, as rd_value finds it: the plain ones without a call, an array
 * or object of k's by nest_seen first (v[k] then says so).  *esc as
 * tl_jlex_string sets it.
 */
static inline __attribute__((always_inline)) const char *
rd_arg_value(struct parser *p, const char *q, const char *end, int k,
    struct fval *v, int *deep, int *esc)
{
	const char *s;
	uint32_t tag;

	if (*q == '"' && k == A_KERNEL) {	/* a launch's: long, repeated */
		if ((s = str_seen(p, q, end, &v[k], &tag)) != NULL)
			return s;
		v[k].raw = 0;
		v[k].tag = tag;
	}
	if (*q == '"')
		return (s = tl_jlex_string(q, end, esc)) != NULL ? s + 1 : NULL;
	if (*q != '{' && *q != '[')
		return rd_prim(q, end);
	if (k >= 0 && (s = nest_seen(p, k, q, end, &v[k])) != NULL)
		return s;
	/* A grid or block as Kineto writes it: [N, N, N]. */
	if (*q == '[' && (s = rd_prim(q + 1, end)) != NULL &&
	    (s = RD_LIT(s, end, ", ")) != NULL &&
	    (s = rd_prim(s, end)) != NULL &&
	    (s = RD_LIT(s, end, ", ")) != NULL &&
	    (s = rd_prim(s, end)) != NULL && *s == ']')
		return s + 1;
	return rd_value(p, q, end, 2, deep);
}

/*
 * An args member as Kineto writes it: its key with the bytes before it
 * ('{' or ", ") and after it (": "), at least 8 in all, and its index in
 * arg_keys (-1: not read).  A kind's args come in a few fixed
 * sequences of these (rd_seq).
 */
struct arg_step {
	const char *lit;
	unsigned char n;
	signed char k;
};
#define STEP(lit, k) { lit, sizeof(lit) - 1, k }
static const struct arg_step seq_op[] = {
	STEP("{\"External id\": ", A_EXTID),
	STEP(", \"Record function id\": ", -1),
	STEP(", \"Concrete Inputs\": ", A_CONCRETE),
	STEP(", \"Input type\": ", A_TYPES),
	STEP(", \"Input Strides\": ", A_STRIDES),
	STEP(", \"Input Dims\": ", A_DIMS),
	STEP(", \"Ev Idx\": ", -1),
	{ NULL, 0, 0 }
};
/* A runtime call's, and a launch's (its grid and block not read). */
static const struct arg_step seq_runtime[] = {
	STEP("{\"External id\": ", A_EXTID),
	STEP(", \"cid\": ", -1),
	STEP(", \"correlation\": ", A_CORR),
	{ NULL, 0, 0 }
};
static const struct arg_step seq_launch[] = {
	STEP("{\"External id\": ", A_EXTID),
	STEP(", \"kernel\": ", A_KERNEL),
	STEP(", \"cid\": ", -1),
	STEP(", \"correlation\": ", A_CORR),
	STEP(", \"grid\": ", -1),
	STEP(", \"block\": ", -1),
	STEP(", \"shared memory\": ", -1),
	{ NULL, 0, 0 }
};
static const struct arg_step seq_kernel[] = {
	STEP("{\"External id\": ", A_EXTID),
	STEP(", \"device\": ", -1),
	STEP(", \"stream\": ", A_STREAM),
	STEP(", \"correlation\": ", A_CORR),
	STEP(", \"kind\": ", -1),
	STEP(", \"grid\": ", A_GRID),
	STEP(", \"block\": ", A_BLOCK),
	{ NULL, 0, 0 }
};
#undef STEP

/*
 * The end of the args object at s ('{') when it is a Python frame's as
 * Kineto writes it: the keys compared as one literal each, the values
 * checked by the lexer; NULL for any other bytes (rd_args then reads the
 * object its general way, from its start).
 */
static inline const char *
rd_pyargs(const char *s, const char *end)
{
	const char *q;

	/*
	 * Mostly three numbers of 1 to 7 digits, each followed by a byte
	 * of the next literal (which ends a number): the bytes checked
	 * from one bound, the numbers as rd_digits finds them.
	 */
	if (end - s >= 96 &&
	    (q = RD_LIT(s, s + 64, "{\"Python parent id\": ")) != NULL &&
	    (q = rd_digits(q)) != NULL &&
	    (q = RD_LIT(q, q + 64, ", \"Python id\": ")) != NULL &&
	    (q = rd_digits(q)) != NULL &&
	    (q = RD_LIT(q, q + 64, ", \"Ev Idx\": ")) != NULL &&
	    (q = rd_digits(q)) != NULL && *q == '}')
		return q + 1;
	if ((q = RD_LIT(s, end, "{\"Python parent id\": ")) != NULL &&
	    (q = rd_prim(q, end)) != NULL &&
	    (q = RD_LIT(q, end, ", \"Python id\": ")) != NULL &&
	    (q = rd_prim(q, end)) != NULL &&
	    (q = RD_LIT(q, end, ", \"Ev Idx\": ")) != NULL &&
	    (q = rd_prim(q, end)) != NULL && *q == '}')
		return q + 1;
	return NULL;
}

/*
 * The end of the args object at s ('{') when its members are those of
 * seq, in its order, as Kineto writes them: the keys compared as
 * literals, the values checked as rd_args checks them, into v (cleared)
 * by their k.  NULL for any other bytes (rd_args then reads the object
 * its general way, from its start).
 */
static inline __attribute__((always_inline)) const char *
rd_seq(struct parser *p, const char *s, const char *end, struct fval *v,
    const struct arg_step *seq, int nseq)
{
	const char *q;
	int esc, i;

	/*
	 * Unrolled, in each caller: seq's literals and keys are constants
	 * then, each literal compared as rd_lit compares a constant one.
	 */
#pragma GCC unroll 8
	for (i = 0; i < nseq; i++) {
		int k = seq[i].k;

		if (p->hit != NULL &&
		    (k == A_TYPES || k == A_STRIDES || k == A_DIMS))
			continue;	/* read with "Concrete Inputs" */
		if ((q = rd_lit(s, end, seq[i].lit, seq[i].n)) == NULL)
			return NULL;
		if (k == A_CONCRETE &&
		    (p->hit = combo_seen(p, q, end)) != NULL) {
			/* The shape members fill_rec takes from p->hit. */
			s = q + p->hit->n;
			continue;
		}
		esc = 0;
		if ((s = rd_arg_value(p, q, end, k, v, NULL, &esc)) == NULL)
			return NULL;
		if (k >= 0)
			rd_fval(&v[k], q, s, esc);
		if (k == A_DIMS && p->ctag != 0 && s != p->cs + p->cn)
			p->ctag = 0;	/* not the span combo_seen guessed */
	}
	return *s == '}' ? s + 1 : NULL;
}

#define RD_SEQ(p, s, end, v, seq) rd_seq((p), (s), (end), (v), (seq), \
	(int)(sizeof(seq) / sizeof((seq)[0])) - 1)

/*
 * The end of the args object at s ('{'), or NULL as rd_value; the first
 * value of each member arg_key knows goes into v (none when v is NULL;
 * cleared).  A value nested too deep sets *deep, the object read to its
 * end.  The args of an event of kind (-1: not known) are tried first as
 * Kineto writes them (rd_seq).
 */
static const char *
rd_args(struct parser *p, const char *s, const char *end, struct fval *v,
    int *deep, int kind)
{
	const char *q;
	int esc = 0;

	if (v != NULL && kind >= 0) {
		if (kind == TL_EV_CPU_OP)
			q = RD_SEQ(p, s, end, v, seq_op);
		else if (kind == TL_EV_RUNTIME) {
			if ((q = RD_SEQ(p, s, end, v, seq_runtime)) == NULL)
				q = RD_SEQ(p, s, end, v, seq_launch);
		} else if (kind == TL_EV_KERNEL)
			q = RD_SEQ(p, s, end, v, seq_kernel);
		else
			return rd_args(p, s, end, v, deep, -1);
		if (q != NULL)
			return q;
		memset(v, 0, NARG * sizeof(*v));
		p->hit = NULL;
		p->ctag = 0;
	}

	if (v == NULL && (q = rd_pyargs(s, end)) != NULL)
		return q;
	s = rd_blank(s + 1);
	if (*s == '}')
		return s + 1;
	for (;;) {
		int k = -1;

		if (*s == '"' && (q = rd_known_arg(s, end, &k)) != NULL) {
			if (k >= 0 && (v == NULL || v[k].type != TL_J_UNDEF))
				k = -1;
			s = rd_blank(q);
		} else {
			size_t n;

			if (*s != '"' || (q = tl_jlex_string(s, end, &esc)) ==
			    NULL)
				return NULL;
			n = (size_t)(q - s - 1);
			k = esc ? key_unesc(p, s + 1, n, arg_key) :
			    arg_key(s + 1, n);
			if (k >= 0 &&
			    (v == NULL || v[k].type != TL_J_UNDEF))
				k = -1;
			s = rd_blank(q + 1);
			if (*s != ':')
				return NULL;
			s = rd_blank(s + 1);
		}
		q = s;
		esc = 0;
		if ((s = rd_arg_value(p, q, end, k, v, deep, &esc)) == NULL)
			return NULL;
		if (k >= 0)
			rd_fval(&v[k], q, s, esc);
		s = rd_blank(s);
		if (*s == ',')
			s = rd_blank(s + 1);
		else if (*s == '}')
			return s + 1;
		else
			return NULL;
	}
}

/*
 * The K_* index of the top-level key s[0..n), NTOP for "cat", or -1 (the
 * names spelt out: this runs for every member of every event).
 */
static int
top_key(const char *s, size_t n)
{
	switch (n) {
	case 2:
		if (s[0] == 'p' && s[1] == 'h')
			return K_PH;
		if (s[0] == 't' && s[1] == 's')
			return K_TS;
		if (s[0] == 'i' && s[1] == 'd')
			return K_ID;
		break;
	case 3:
		if (s[1] == 'i' && s[2] == 'd')
			return s[0] == 'p' ? K_PID : s[0] == 't' ? K_TID : -1;
		if (is_cat(s, n))
			return NTOP;
		if (s[0] == 'd' && s[1] == 'u' && s[2] == 'r')
			return K_DUR;
		break;
	case 4:
		if (memcmp(s, "name", 4) == 0)
			return K_NAME;
		if (memcmp(s, "args", 4) == 0)
			return K_ARGS;
		break;
	}
	return -1;
}

/* The same for a top-level key: *k as top_key has it. */
static const char *
rd_known_key(const char *s, const char *end, int *k)
{
	switch (s[1]) {
	case 'p':
		KEY("\"ph\": ", K_PH);
		KEY("\"pid\": ", K_PID);
		break;
	case 't':
		KEY("\"ts\": ", K_TS);
		KEY("\"tid\": ", K_TID);
		break;
	case 'd':
		KEY("\"dur\": ", K_DUR);
		break;
	case 'c':
		KEY("\"cat\": ", NTOP);
		break;
	case 'n':
		KEY("\"name\": ", K_NAME);
		break;
	case 'a':
		KEY("\"args\": ", K_ARGS);
		break;
	case 'i':
		KEY("\"id\": ", K_ID);
		break;
	}
	return NULL;
}
#undef KEY

/*
 * The members of an event in the order Kineto writes them, each as the
 * 8 bytes that start it (quote, name, quote, colon, blank) on a
 * little-endian machine: the reader expects the next in this order, and
 * one 8-byte comparison finds it (else it takes the key its other ways).
 */
#define LE8(a, b, c, d, e, f, g, h) ((uint64_t)(unsigned char)(a) | \
	(uint64_t)(unsigned char)(b) << 8 | (uint64_t)(unsigned char)(c) << 16 | \
	(uint64_t)(unsigned char)(d) << 24 | (uint64_t)(unsigned char)(e) << 32 | \
	(uint64_t)(unsigned char)(f) << 40 | (uint64_t)(unsigned char)(g) << 48 | \
	(uint64_t)(unsigned char)(h) << 56)
#define MASK(n) (~0ull >> (64 - 8 * (n)))	/* the first n bytes */
static const struct rd_next {
	uint64_t pat, mask;
	int len, k;
} rd_order[] = {
	{ LE8('"', 'p', 'h', '"', ':', ' ', 0, 0), MASK(6), 6, K_PH },
	{ LE8('"', 'c', 'a', 't', '"', ':', ' ', 0), MASK(7), 7, NTOP },
	{ LE8('"', 'n', 'a', 'm', 'e', '"', ':', ' '), MASK(8), 8, K_NAME },
	{ LE8('"', 'p', 'i', 'd', '"', ':', ' ', 0), MASK(7), 7, K_PID },
	{ LE8('"', 't', 'i', 'd', '"', ':', ' ', 0), MASK(7), 7, K_TID },
	{ LE8('"', 't', 's', '"', ':', ' ', 0, 0), MASK(6), 6, K_TS },
	{ LE8('"', 'd', 'u', 'r', '"', ':', ' ', 0), MASK(7), 7, K_DUR },
	{ LE8('"', 'a', 'r', 'g', 's', '"', ':', ' '), MASK(8), 8, K_ARGS }
};
#define NORDER (sizeof(rd_order) / sizeof(rd_order[0]))
/* By top_key's index (NTOP: "cat"): the place in rd_order after it. */
static const unsigned char rd_after[NTOP + 1] = {
	[K_PH] = 1, [NTOP] = 2, [K_NAME] = 3, [K_PID] = 4, [K_TID] = 5,
	[K_TS] = 6, [K_DUR] = 7, [K_ARGS] = 8, [K_ID] = 0
};
#undef LE8
#undef MASK

/*
 * The count of digits that start the 8 bytes w (little-endian) and, in
 * *v, their value (Lemire's SWAR parse: the bytes checked for digits,
 * then joined in pairs, fours, eights).
 */
static inline int
swar_digits(uint64_t w, uint64_t *v)
{
	uint64_t x = w ^ 0x3030303030303030ull;	/* a digit: 0..9 */
	/* The top bit of each byte that is not a digit (a carry out of one
	   only reaches bytes after it). */
	uint64_t nd = ((x + 0x7676767676767676ull) | x) &
	    0x8080808080808080ull;
	int n = nd == 0 ? 8 : __builtin_ctzll(nd) >> 3;

	*v = 0;
	if (n == 0)
		return 0;
	x <<= 8 * (8 - n);	/* zeros before them: leading zeros */
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
	*v = (x * 10000 + (x >> 32)) & 0xffffffffull;
	return n;
}

/*
 * A time at s ("ts", "dur") in microseconds, read into v as it is lexed:
 * the end of the number, with v->ns what tl_parse_us_ns makes of it
 * (v->timed), for the plain numbers Kineto writes (at most 15 digits,
 * then at most 3 after a point); NULL for any other bytes (the lexer and
 * tl_parse_us_ns judge them then).  The bytes end with one that cannot
 * be in a number, and at least 24 of them come before end when the
 * digits are read 8 at a time.  h (NULL: none) keeps the first 8 digits
 * of the times read with it.  Inline: two of these an event.
 */
static inline __attribute__((always_inline)) const char *
rd_timed(struct fval *v, const char *s, const char *end, struct tshead *h)
{
	const char *t = s;
	int64_t ip = 0, frac;

	if (*t == '0')		/* no leading zeros in JSON */
		t++;
	else if (end - s >= 24 && TL_JLEX_DIGIT(*t)) {
		uint64_t w, v = 0;
		int n;

		memcpy(&w, t, 8);
		if (h != NULL && w == h->w)	/* 8 digits read before */
			n = 8, v = h->v;
		else if ((n = swar_digits(w, &v)) == 8 && h != NULL)
			h->w = w, h->v = v;
		ip = (int64_t)v;
		t += n;
		if (n == 8) {
			memcpy(&w, t, 8);
			static const int64_t pow10[8] = {
				1, 10, 100, 1000, 10000, 100000, 1000000,
				10000000
			};

			n = swar_digits(w, &v);
			if (n == 8)	/* 16 digits or more */
				return NULL;
			ip = ip * pow10[n] + (int64_t)v;
			t += n;
		}
	} else
		while (TL_JLEX_DIGIT(*t) && t - s < 16)
			ip = ip * 10 + (*t++ - '0');
	if (t == s || t - s > 15)
		return NULL;
	ip *= 1000;
	if (*t == '.') {
		if (!TL_JLEX_DIGIT(t[1]))
			return NULL;
		frac = (t[1] - '0') * 100;
		t += 2;
		if (TL_JLEX_DIGIT(*t)) {
			frac += (*t++ - '0') * 10;
			if (TL_JLEX_DIGIT(*t))
				frac += *t++ - '0';
		}
		ip += frac;
	}
	if (TL_JLEX_DIGIT(*t) || *t == '.' || (*t | 0x20) == 'e')
		return NULL;
	v->type = TL_J_PRIM;
	v->s = s;
	v->n = (uint32_t)(t - s);
	v->esc = 0;
	v->timed = 1;
	v->ns = ip;
	return t;
}


/* The end of the string or number or literal at s, or NULL. */
static inline const char *
rd_plain(const char *s, const char *end, int *esc)
{
	if (*s == '"')
		return (s = tl_jlex_string(s, end, esc)) != NULL ? s + 1 : NULL;
	if (*s == '{' || *s == '[')
		return NULL;
	return rd_prim(s, end);
}

/* The value at s as struct fval has it, from its text s[0..e). */
static inline void
rd_set(struct fval *v, const char *s, const char *e, int esc)
{
	int str = *s == '"';

	v->type = str ? TL_J_STRING : TL_J_PRIM;
	v->s = s + str;
	v->n = (uint32_t)(e - s) - 2 * (uint32_t)str;
	v->esc = (uint8_t)esc;
	v->timed = 0;
	v->ns = 0;		/* raw and tag: none */
}

/*
 * At s, Kineto's ", \"pid\": V, \"tid\": V, \"ts\": T": the values into
 * f[K_PID], f[K_TID] and f[K_TS] as rd_plain and rd_timed check them;
 * the byte after, or NULL.  Events come in runs on a thread: when the
 * bytes to the tid's end are the last ones read here and ", \"ts\": "
 * follows (which ends a number), the values are those, known valid.
 * Inline in its two callers: it runs for nearly every event.
 */
static inline __attribute__((always_inline)) const char *
rd_thread_ts(struct parser *p, const char *s, const char *end,
    struct fval *f)
{
	const char *q, *t = s;
	int esc = 0;

	/* pt.n is 0 or at least 8: rd_lit compares words. */
	if (p->pt.n > 0 && (size_t)(end - s) > p->pt.n &&
	    rd_lit(s, end, p->pt.s, p->pt.n) != NULL &&
	    (q = RD_LIT(s + p->pt.n, end, ", \"ts\": ")) != NULL) {
		if (!p->pt.ids) {	/* else put_pidtid reads pt.ids */
			rd_set(&f[K_PID], s + 9, s + p->pt.pid,
			    p->pt.esc & 1);
			rd_set(&f[K_TID], s + p->pt.pid + 9, s + p->pt.n,
			    p->pt.esc >> 1);
		}
		p->same = 1;
		return rd_timed(&f[K_TS], q, end, &p->ts8);
	}
	p->pt.n = 0;
	p->pt.ids = 0;
	if ((s = RD_LIT(s, end, ", \"pid\": ")) == NULL ||
	    (q = rd_plain(s, end, &esc)) == NULL)
		return NULL;
	rd_set(&f[K_PID], s, q, esc);
	p->pt.esc = (uint8_t)esc;
	p->pt.pid = (uint8_t)(q - t);
	esc = 0;
	if ((s = RD_LIT(q, end, ", \"tid\": ")) == NULL ||
	    (q = rd_plain(s, end, &esc)) == NULL)
		return NULL;
	rd_set(&f[K_TID], s, q, esc);
	p->pt.esc |= (uint8_t)(esc << 1);
	/* Kept when short: the bytes are valid, and none but these. */
	if ((s = RD_LIT(q, end, ", \"ts\": ")) == NULL)
		return NULL;
	if ((size_t)(q - t) < sizeof(p->pt.s)) {
		p->pt.n = (uint32_t)(q - t);
		memcpy(p->pt.s, t, p->pt.n);
		p->same = 1;
	}
	return rd_timed(&f[K_TS], s, end, &p->ts8);
}

static int
read_event(void *w, struct tl_scan_out *out, const char *ev, size_t avail,
    uint64_t offset, size_t *len)
{
	struct parser *p = w;
	const char *s, *end = ev + avail, *q;
	struct fval fv[NTOP], av[NARG];
	struct rec *rc;
	size_t at;
	struct fval tv;
	const char *cv = NULL;	/* the category */
	size_t cn = 0;
	int kind = -1, cat = 0, lenient = 0, esc, deep = 0, skip = 0;
	int avset = 0;		/* av is cleared */
	int phx = 0;		/* "ph" was "X", read as a literal */
	int frame = 0;		/* a Python frame read its fastest way */
	uint32_t tag = 0;	/* str_seen's for the name */
	unsigned fc = 0, nx = 0;	/* the member expected: rd_order[nx] */

	(void)offset;
	p->same = 0;
	p->hit = NULL;
	p->ctag = 0;
	/*
	 * An 'X' event or a launch flow's end as Kineto writes it first: its
	 * members in its order, each key with the blanks around it (a
	 * literal compared at once), each value checked by the lexer as
	 * below; the first byte that is not where that order puts it sends
	 * the event to the general loop (which reads it again from its
	 * start).
	 */
	esc = 0;
	if ((s = RD_LIT(ev, end, "{\"ph\": \"X\", \"cat\": \"")) != NULL) {
		/* The commonest start, one literal. */
		rd_set(&fv[K_PH], ev + 7, ev + 10, 0);
		phx = 1;
		goto cat;
	}
	if ((s = RD_LIT(ev, end, "{\"ph\": ")) == NULL)
		goto general;
	if (*s == '"' && (s[1] == 'f' || s[1] == 's') && s[2] == '"')
		q = s + 3;	/* a flow's, without the lexer */
	else if ((q = rd_plain(s, end, &esc)) == NULL || *s != '"')
		goto general;
	rd_set(&fv[K_PH], s, q, esc);
	if ((s = RD_LIT(q, end, ", \"id\": ")) != NULL) {
		/* A launch flow's end as Kineto writes it, the same way. */
		if ((q = rd_plain(s, end, &esc)) == NULL)
			goto general;
		rd_set(&fv[K_ID], s, q, esc);
		if ((q = rd_thread_ts(p, q, end, fv)) == NULL ||
		    (s = RD_LIT(q, end, ", \"cat\": \"ac2g\"")) == NULL ||
		    (q = RD_LIT(s, end, ", \"name\": \"ac2g\"")) == NULL)
			goto general;
		cat = 1;
		cv = s - 5;	/* ac2g */
		cn = 4;
		skip = (fc = flow_cat(cv, cn)) == 0;
		rd_set(&fv[K_NAME], q - 6, q, 0);
		if (*q == '}')
			s = q;
		else if ((s = RD_LIT(q, end, ", \"bp\": \"e\"}")) != NULL)
			s--;
		else
			goto general;
		fv[K_DUR].type = fv[K_ARGS].type = TL_J_UNDEF;
		fv[K_DUR].timed = fv[K_ARGS].timed = 0;
		goto read;
	}
	if ((s = RD_LIT(q, end, ", \"cat\": \"")) == NULL)
		goto general;
cat:
	/* The commonest categories as literals (kind_of's names). */
	if (p->o->keep_python &&
	    (q = RD_LIT(s, end, "python_function\", \"name\": ")) != NULL) {
		/* A frame's, with the key after it (below, for others). */
		kind = TL_EV_PYTHON;
		cat = 1;
		cv = s;
		cn = 15;
		lenient = p->o->keep_python == TL_PY_CONTEXT;
		s = q;
		goto name;
	}
	if ((q = RD_LIT(s, end, "python_function\"")) != NULL)
		kind = p->o->keep_python ? TL_EV_PYTHON : -1;
	else if ((q = RD_LIT(s, end, "cpu_op\"")) != NULL)
		kind = TL_EV_CPU_OP;
	else if ((q = RD_LIT(s, end, "cuda_runtime\"")) != NULL)
		kind = TL_EV_RUNTIME;
	else if ((q = RD_LIT(s, end, "kernel\"")) != NULL)
		kind = TL_EV_KERNEL;
	else if ((q = tl_jlex_string(s - 1, end, &esc)) == NULL || esc)
		goto general;
	else
		kind = kind_of(s, (size_t)(q++ - s), p->o->keep_python);
	q--;			/* at the closing quote */
	cat = 1;
	cv = s;
	cn = (size_t)(q - s);
	skip = kind < 0 && (fc = flow_cat(cv, cn)) == 0;
	lenient = kind == TL_EV_PYTHON && p->o->keep_python == TL_PY_CONTEXT;
	if ((s = RD_LIT(q + 1, end, ", \"name\": ")) == NULL)
		goto general;
name:
	if (*s != '"' || (q = str_seen(p, s, end, &fv[K_NAME], &tag)) ==
	    NULL) {
		if ((q = rd_plain(s, end, &esc)) == NULL)
			goto general;
		rd_set(&fv[K_NAME], s, q, esc);
		fv[K_NAME].tag = esc ? 0 : tag;
	}
	if ((q = rd_thread_ts(p, q, end, fv)) == NULL ||
	    (s = RD_LIT(q, end, ", \"dur\": ")) == NULL ||
	    (q = rd_timed(&fv[K_DUR], s, end, NULL)) == NULL)
		goto general;
	if ((s = RD_LIT(q, end, ", \"args\": {")) == NULL)
		goto general;
	s--;
	if (skip)
		q = rd_value(p, s, end, 1, &deep);
	else if (kind == TL_EV_PYTHON && (q = rd_pyargs(s, end)) != NULL)
		frame = phx;	/* a frame's record has no args */
	else {
		if (kind != TL_EV_PYTHON) {
			zero(av, sizeof(av));
			avset = 1;
		}
		q = rd_args(p, s, end, avset ? av : NULL, &deep, kind);
	}
	if (q == NULL || *q != '}')
		goto general;
	fv[K_ARGS].type = TL_J_OBJECT;	/* only told apart from none */
	fv[K_ID].type = TL_J_UNDEF;
	fv[K_ID].timed = 0;
	s = q;
	goto read;
general:
	p->same = 0;
	p->hit = NULL;
	p->ctag = 0;
	frame = 0;
	kind = -1;
	cat = lenient = deep = skip = avset = 0;
	fc = nx = 0;
	cv = NULL;
	cn = 0;
	s = rd_blank(ev + 1);
	memset(fv, 0, sizeof(fv));
	while (*s != '}') {
		const char *v;
		size_t n;
		int k;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		uint64_t w;

		if (nx < NORDER && end - s >= 8 && (memcpy(&w, s, 8),
		    (w & rd_order[nx].mask) == rd_order[nx].pat)) {
			k = rd_order[nx].k;
			v = s = rd_blank(s + rd_order[nx].len);
			nx++;
		} else
#endif
		if (*s == '"' && (v = rd_known_key(s, end, &k)) != NULL) {
			v = s = rd_blank(v);
			if (rd_after[k] > nx)
				nx = rd_after[k];
		} else {
			esc = 0;
			if (*s != '"' || (q = tl_jlex_string(s, end, &esc)) ==
			    NULL)
				return -1;
			n = (size_t)(q - s - 1);
			k = esc ? key_unesc(p, s + 1, n, top_key) :
			    top_key(s + 1, n);
			if (k >= 0 && rd_after[k] > nx)
				nx = rd_after[k];
			s = rd_blank(q + 1);
			if (*s != ':')
				return -1;
			v = s = rd_blank(s + 1);
		}
		esc = 0;
		if ((k == K_TS || k == K_DUR) &&
		    (q = rd_timed(&tv, s, end, k == K_TS ? &p->ts8 : NULL)) != NULL) {
			if (fv[k].type == TL_J_UNDEF)
				fv[k] = tv;
			s = q;
		} else if (k == K_ARGS && *s == '{' && fv[k].type == TL_J_UNDEF &&
		    !skip) {
			/* A frame's record has no args: nothing kept. */
			if (!avset && !(cat && kind == TL_EV_PYTHON)) {
				memset(av, 0, sizeof(av));
				avset = 1;
			}
			s = rd_args(p, s, end, avset ? av : NULL, &deep, -1);
		} else if (*s == '"')
			s = (q = tl_jlex_string(s, end, &esc)) != NULL ? q + 1 :
			    NULL;
		else if (*s != '{' && *s != '[')	/* as rd_value */
			s = tl_jlex_prim(s, end);
		else
			s = rd_value(p, s, end, 1, k == K_ARGS ? &deep : NULL);
		if (s == NULL)
			return -1;
		if (k == NTOP && !cat) {
			/*
			 * The category: a string's text (unescaped to be
			 * known, counted as written when not kept), or
			 * another value's, which no category is.
			 */
			const char *c;
			size_t m;

			cat = 1;
			cv = v + (*v == '"');
			cn = (size_t)(s - cv) - (*v == '"');
			c = cv;
			m = esc ? unesc(p, cv, cn, &c) : cn;
			kind = kind_of(c, m, p->o->keep_python);
			/* Not kept: the rest only checked, to its end. */
			skip = kind < 0 && (fc = flow_cat(c, m)) == 0;
			lenient = kind == TL_EV_PYTHON &&
			    p->o->keep_python == TL_PY_CONTEXT;
		} else if (k >= 0 && k < NTOP && fv[k].type == TL_J_UNDEF)
			rd_fval(&fv[k], v, s, esc);
		s = rd_blank(s);
		if (*s == ',') {
			s = rd_blank(s + 1);
			if (*s == '}')
				return -1;
		} else if (*s != '}')
			return -1;
	}
read:
	*len = (size_t)(s + 1 - ev);
	if (*len > TL_EVENT_MAX)
		return -1;	/* the cutter's error */
	if (skip) {
		unread(p, cv, cn);
		return 0;
	}
	if (!cat)		/* no category: not kept */
		return 0;
	if (kind >= 0 && (deep || (!avset && kind != TL_EV_PYTHON))) {
		memset(av, 0, sizeof(av));	/* none, or nested too deep */
		p->hit = NULL;
		p->ctag = 0;
	}
	at = out->len;
	rc = tl_scan_reserve(out, sizeof(*rc));
	zero(rc, sizeof(*rc));
	rc->parser = (uint16_t)p->id;
	out->len += sizeof(*rc);
	if (frame && fv[K_TS].ns < TL_TIME_MAX &&
	    fv[K_DUR].ns < TL_TIME_MAX - fv[K_TS].ns) {
		/*
		 * What fill_rec makes of a frame whose "ph" is "X" and
		 * whose times are numbers in range (not negative: digits).
		 */
		rc->type = R_X;
		rc->kind = TL_EV_PYTHON;
		rc->ts = fv[K_TS].ns;
		rc->dur = fv[K_DUR].ns;
		put_seen(p, rc, S_NAME, &fv[K_NAME]);
		put_pidtid(p, rc, fv);
		return 1;
	}
	return put_rec(p, out, at, kind, fc, fv, av, lenient, deep);
}

/*
 * Read an event the cutter cut (lib/trace/jsonscan.c): one the one-pass
 * reader could not read where it lay, the bytes it had ending inside it
 * (at the end of a buffer or a block), or a malformed one, whose error
 * the lexer's check says, what and where.
 */
static int
parse_event(void *w, struct tl_scan_out *out, const char *ev, size_t len,
    uint64_t offset)
{
	struct parser *p = w;
	struct rec *rc;
	size_t at = out->len, n;
	int r;

	if ((r = read_event(w, out, ev, len, offset, &n)) >= 0)
		return r;
	out->len = at;
	rc = tl_scan_reserve(out, sizeof(*rc));
	zero(rc, sizeof(*rc));
	out->len += sizeof(*rc);
	if (check_event(p, ev, len) >= 0) {
		/* Valid JSON the reader did not read: a bug. */
		p->lex.what = "internal error: a valid event not read";
		p->lex.at = ev;
	}
	return parse_error(out, at, p->lex.what, (size_t)(p->lex.at - ev));
}

/*
 * The keys of the first members of object obj that key() knows,
 * unescaped, as the one-pass reader finds them: tk[i] the token of the
 * value of key i < n (-1: absent).
 */
static void
tok_members(struct parser *p, int obj, int (*key)(const char *, size_t),
    int *tk, int n)
{
	int i, m, k;

	for (k = 0; k < n; k++)
		tk[k] = -1;
	if (obj < 0 || tl_json_type(&p->j, obj) != TL_J_OBJECT)
		return;
	m = tl_json_size(&p->j, obj);
	for (i = obj + 1; m-- > 0; i = tl_json_next(&p->j, i + 1)) {
		size_t len;
		const char *s = tl_json_text(&p->j, i, &len);

		if (memchr(s, '\\', len) != NULL)
			len = unesc(p, s, len, &s);
		if ((k = key(s, len)) >= 0 && k < n && tk[k] < 0)
			tk[k] = i + 1;
	}
}

/*
 * Read an event with the tokeniser (jsmn) instead: every event with
 * tl_trace_opts.tokenise, for the tests, which compare its reading with
 * the one-pass reader's.  Writes a struct rec to out, or nothing for an
 * event that is skipped.
 */
static int
tok_event(void *w, struct tl_scan_out *out, const char *ev, size_t len,
    uint64_t offset)
{
	struct parser *p = w;
	struct rec *rc;
	const char *err;
	size_t at = out->len;
	int kind, tk[NTOP + 1], a[NARG], lenient, deep;
	struct fval fv[NTOP], av[NARG];
	unsigned fc = 0;

	(void)offset;
	p->hit = NULL;		/* read_event's, not this reader's */
	p->ctag = 0;
	rc = tl_scan_reserve(out, sizeof(*rc));
	zero(rc, sizeof(*rc));
	rc->parser = (uint16_t)p->id;
	out->len += sizeof(*rc);
	/* The lexer's verdict first: a syntax error is one in any event. */
	if ((deep = check_event(p, ev, len)) < 0)
		return parse_error(out, at, p->lex.what,
		    (size_t)(p->lex.at - ev));
	if (deep) {		/* read the copy without the args */
		ev = p->dbuf;
		len = p->dlen;
	}
	if (tl_json_parse(&p->j, ev, len, &err) < 0)
		return parse_error(out, at, err, 0);
	tok_members(p, 0, top_key, tk, NTOP + 1);
	if (tk[NTOP] < 0) {	/* no category: not kept */
		out->len = at;
		return 0;
	} else {
		size_t cn, m;
		const char *cv = tl_json_text(&p->j, tk[NTOP], &cn), *c = cv;

		m = tl_json_type(&p->j, tk[NTOP]) == TL_J_STRING &&
		    memchr(cv, '\\', cn) != NULL ? unesc(p, cv, cn, &c) : cn;
		kind = kind_of(c, m, p->o->keep_python);
		if (kind < 0 && (fc = flow_cat(c, m)) == 0) {
			unread(p, cv, cn);
			out->len = at;
			return 0;
		}
	}
	lenient = kind == TL_EV_PYTHON && p->o->keep_python == TL_PY_CONTEXT;
	tok_members(p, tk[K_ARGS], arg_key, a, NARG);
	tok_vals(&p->j, tk, NTOP, fv);
	tok_vals(&p->j, a, NARG, av);
	if (deep)		/* as read_event drops them */
		memset(av, 0, sizeof(av));
	return put_rec(p, out, at, kind, fc, fv, av, lenient, deep);
}

/* The trace's id + 1 of id in map m, 0 when still unknown. */
static inline uint32_t
idmap_get(const struct idmap *m, uint32_t id)
{
	return id < m->cap ? m->v[id] : 0;
}

/* The trace's id of id in map m, interning s[0..n) if still unknown. */
static uint32_t
map_id(struct tl_strtab *tab, struct idmap *m, uint32_t id, const char *s,
    size_t n)
{
	uint32_t g;

	if (id < m->cap && m->v[id] != 0)
		return m->v[id] - 1;
	g = tl_intern(tab, s, n);
	if (id >= m->cap)
		tl_grow_set(&m->v, &m->cap, (size_t)id + 1, sizeof(*m->v), 0);
	m->v[id] = g + 1;
	return g;
}

/*
 * The trace's id of string k of the record; inline, as most are ids
 * seen before (a record has up to 11 strings).
 */
static inline uint32_t
rec_intern(struct reader *r, const struct rec *rc, int k)
{
	uint32_t g = idmap_get(&r->str[rc->parser], rc->sid[k]);

	return g != 0 ? g - 1 : map_id(r->t->str, &r->str[rc->parser],
	    rc->sid[k], rc->s[k], rc->slen[k]);
}

static int
flow_event(struct reader *r, const struct rec *rc, uint64_t index,
    uint64_t offset)
{
	struct tl_trace *t = r->t;
	uint32_t *slot, thr = 0;

	t->flow_cats |= rc->flowcat;
	if (rc->type != R_FLOW_S) {
		/*
		 * The tid first: the order in which this was built with gcc
		 * before (it evaluates call arguments right to left), so that
		 * string ids stay as they were.
		 */
		uint32_t tid = rec_intern(r, rc, S_TID);

		thr = thread_of(r, rec_intern(r, rc, S_PID), tid);
		if (thr > TL_FLOW_THREAD)
			return bad(r, index, offset, "too many threads");
	}
	/* One lookup; what is stored is never 0 (a flag is set). */
	slot = tl_dmap32_at(&t->flows, (uint64_t)rc->id);
	if (rc->type == R_FLOW_S)
		*slot |= TL_FLOW_S;
	else
		*slot = (*slot & TL_FLOW_S) | TL_FLOW_F | thr;
	return 0;
}

/* 1 if s contains "launch" in any case. */
static int
has_launch(const char *s)
{
	for (; *s != '\0'; s++)
		if (tolower((unsigned char)s[0]) == 'l' &&
		    strncasecmp(s, "launch", 6) == 0)
			return 1;
	return 0;
}

/*
 * Fill in the linking key of event i, a runtime or driver call or a GPU
 * event.  The key is the correlation id unless the first runtime or
 * driver call whose name contains "launch" has none; until that call is
 * read, the External ids wait in r->pend.
 */
static void
set_link(struct reader *r, size_t i, int64_t corr, int64_t extid)
{
	struct tl_trace *t = r->t;
	struct tl_event *e = &t->ev[i];
	size_t k;

	if (!r->link_known && (e->kind == TL_EV_RUNTIME ||
	    e->kind == TL_EV_DRIVER) && has_launch(tl_ev_name(t, e))) {
		r->link_known = 1;
		t->link_external = corr == TL_NONE;
		if (t->link_external)
			for (k = 0; k < r->npend; k++)
				t->ev[r->pend[k].i].link = r->pend[k].extid;
		free(r->pend);
		r->pend = NULL;
		r->npend = r->cappend = 0;
	}
	if (r->link_known) {
		e->link = t->link_external ? extid : corr;
		return;
	}
	e->link = corr;
	tl_grow(&r->pend, &r->cappend, r->npend + 1, sizeof(*r->pend));
	r->pend[r->npend].extid = extid;
	r->pend[r->npend++].i = i;
}

/*
 * Make room in r->opat for frame thread k (counts from 0 on), so that
 * r->opat[0..k + 1] are there.
 */
static void
count_op(struct reader *r, size_t k)
{
	if (k + 2 > r->capopat)	/* a call only to grow (once an op) */
		tl_grow_set(&r->opat, &r->capopat, k + 2, sizeof(*r->opat),
		    0);
}

/*
 * Add the cpu_ops read since the last call to r->ops, kept sorted by
 * frame thread and start: sort the new ones (counted out by frame
 * thread, then each thread's by start with tl_idxsort: a thread's come
 * nearly in start order; both steps keep the order of equals), merge
 * each thread's from the back, the last thread first.
 */
static void
add_hosts(struct reader *r)
{
	struct tl_trace *t = r->t;
	size_t i, k, n0 = r->nops, nn = r->nnewops, a, b, o, nth;
	int32_t *by;
	int64_t *nw;
	size_t *at, *seg;

	if (nn == 0)
		return;
	nth = tl_strtab_count(t->pythr);
	count_op(r, nth);	/* at[0..nth] there */
	at = r->opat;
	by = tl_malloc(nn * sizeof(*by));
	nw = tl_malloc(nn * sizeof(*nw));
	for (i = 0; i < nth; i++)
		at[i + 1] += at[i];
	/* Positions in r->newop first, starts once sorted. */
	for (i = 0; i < nn; i++)
		by[at[r->newop[i].th]++] = (int32_t)i;
	/* at[k] is now where thread k's end: sort each by start. */
	for (i = 0, a = 0; i < nth; a = at[i++])
		tl_idxsort(by + a, at[i] - a, r->newop, sizeof(*r->newop),
		    offsetof(struct newop, ts));
	for (i = 0; i < nn; i++)
		nw[i] = r->newop[by[i]].ts;
	free(by);
	if (nth + 1 > r->capopseg)
		tl_grow(&r->opseg, &r->capopseg, nth + 1, sizeof(*r->opseg));
	seg = r->opseg;
	for (k = r->nopseg + (r->nopseg > 0); k <= nth; k++)
		seg[k] = n0;	/* threads new to ops: none yet */
	r->nopseg = nth;
	tl_grow(&r->ops, &r->capops, n0 + nn, sizeof(*r->ops));
	/*
	 * Thread k's old ones are ops[seg[k]..a), its new ones
	 * nw[at[k - 1]..at[k]); o - a new ones are still to place.
	 */
	a = n0;
	o = n0 + nn;
	for (k = nth; k-- > 0 && o > a;) {
		size_t alo = seg[k], blo = k > 0 ? at[k - 1] : 0;

		b = at[k];
		seg[k + 1] = o;
		while (b > blo) {
			if (a > alo && r->ops[a - 1] > nw[b - 1])
				r->ops[--o] = r->ops[--a];
			else
				r->ops[--o] = nw[--b];
		}
		while (a > alo)
			r->ops[--o] = r->ops[--a];
	}
	memset(at, 0, (nth + 1) * sizeof(*at));
	r->nnewops = 0;
	r->nops = n0 + nn;
	free(nw);
}

/*
 * 1 if frame f is kept: an nn.Module frame (module paths are whole for
 * every op), one long enough to own part of an idle gap (culprit.h), or
 * one a cpu_op read so far starts in.  *finger is where
 * the previous frame's search ended: a thread's frames mostly come in
 * start order, so the search gallops on from there when it can (a finger
 * search), and is a plain binary search otherwise.
 */
static int
frame_used(struct reader *r, const struct tl_pyframe *f, size_t *finger)
{
	const struct tl_trace *t = r->t;
	size_t lo, hi, probe, step;

	if (f->name >= r->cappymod)
		tl_grow_set(&r->pymod, &r->cappymod, (size_t)f->name + 1, 1,
		    0);
	if (r->pymod[f->name] == 0)
		r->pymod[f->name] = strncmp(tl_str(t->pystr, f->name),
		    "nn.Module: ", 11) == 0 ? 1 : 2;
	if (r->pymod[f->name] == 1 || (f->dur >= TL_CULPRIT_FRAME_NS &&
	    !r->o->no_culprit_frames))
		return 1;
	if (f->thread >= r->nopseg)
		return 0;	/* no cpu_op on its thread */
	/* Its thread's first host event at or after f, in [lo, hi). */
	lo = r->opseg[f->thread];
	hi = r->opseg[f->thread + 1];
	if (*finger > lo && *finger <= hi && r->ops[*finger - 1] < f->ts)
		lo = *finger;
	for (probe = lo, step = 1; probe < hi && r->ops[probe] < f->ts;
	    step *= 2) {
		lo = probe + 1;
		probe = lo + step < hi ? lo + step : hi;
	}
	if (probe < hi)
		hi = probe;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ops[mid] < f->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	*finger = lo;
	return lo < r->opseg[f->thread + 1] && r->ops[lo] < f->ts + f->dur;
}

/*
 * TL_PY_CONTEXT: drop the frames read since the last pruning that are not
 * nn.Module frames, are shorter than TL_CULPRIT_FRAME_NS and in which no
 * cpu_op read so far starts, and
 * remember their span on their thread.  Kineto writes a trace's frames
 * after its cpu_ops, so a frame left with none never gets one; a cpu_op
 * that starts in the span of dropped frames all the same (another
 * writer's order) sets r->lost, and the reading is done again keeping
 * them all.  What is kept does not depend on the order: the frames of
 * the module paths, the long frames, and all the frames around every
 * cpu_op.
 */
static void
prune(struct reader *r)
{
	struct tl_trace *t = r->t;
	size_t i, k = r->pykept, finger = 0;

	add_hosts(r);
	for (i = r->pykept; i < t->npy; i++) {
		const struct tl_pyframe *f = &t->py[i];
		struct hull *h;

		if (frame_used(r, f, &finger)) {
			t->py[k++] = *f;
			continue;
		}
		if (f->thread >= r->nhull) {
			size_t old = r->nhull, cap = r->nhull;

			tl_grow(&r->hull, &cap, (size_t)f->thread + 1,
			    sizeof(*r->hull));
			r->nhull = (size_t)f->thread + 1;
			for (; old < r->nhull; old++)
				r->hull[old].lo = r->hull[old].hi = 0;
		}
		h = &r->hull[f->thread];
		if (h->lo >= h->hi) {
			h->lo = f->ts;
			h->hi = f->ts + f->dur;
		} else {
			if (f->ts < h->lo)
				h->lo = f->ts;
			if (f->ts + f->dur > h->hi)
				h->hi = f->ts + f->dur;
		}
	}
	t->npy = r->pykept = k;
}

/* cpu_op e was just read: does it start in dropped frames? */
static void
check_dropped(struct reader *r, const struct tl_event *e)
{
	uint32_t th = r->t->thread_py[e->thread];
	const struct hull *h;

	if (th >= r->nhull)
		return;
	h = &r->hull[th];
	if (h->lo < h->hi && e->ts >= h->lo && e->ts < h->hi)
		r->lost = 1;
}

/* Add a python_function frame (merge_event). */
static int
py_frame(struct reader *r, const struct rec *rc)
{
	struct tl_trace *t = r->t;
	struct tl_pyframe *f;
	struct idmap *m;
	uint32_t id, g;

	tl_grow_ahead(&t->py, &t->cappy, t->npy + 1, sizeof(*t->py),
	    &t->pyahead);
	f = &t->py[t->npy++];
	f->ts = rc->ts;
	f->dur = rc->dur;
	m = &r->pystr[rc->parser];
	id = rc->sid[S_NAME];
	f->name = (g = idmap_get(m, id)) != 0 ? g - 1 :
	    map_id(t->pystr, m, id, rc->s[S_NAME], rc->slen[S_NAME]);
	/* Frames come in runs on one thread: try the last one first. */
	if (t->npy == 1 || r->lastpy[0] != rc->parser ||
	    r->lastpy[1] != rc->sid[S_PID] || r->lastpy[2] != rc->sid[S_TID]) {
		r->lastpythr = pythr_id(r, rc->s[S_PID], rc->slen[S_PID],
		    rc->s[S_TID], rc->slen[S_TID]);
		r->lastpy[0] = rc->parser;
		r->lastpy[1] = rc->sid[S_PID];
		r->lastpy[2] = rc->sid[S_TID];
	}
	f->thread = r->lastpythr;
	if (r->prune && t->npy - r->pykept >= PRUNE_BATCH)
		prune(r);
	return 0;
}

int32_t
tl_small_put(struct tl_trace *t, int64_t v)
{
	if (v >= TL_SMALL_MIN && v <= INT32_MAX)
		return (int32_t)v;
	if (v == TL_NONE)
		return INT32_MIN;
	/* Events of one stream or thread repeat their value. */
	if (t->nwide == 0 || t->wide[t->nwide - 1] != v) {
		if (t->nwide >= (size_t)((int64_t)TL_SMALL_MIN - INT32_MIN - 1))
			tl_die("%s: more than %zu integers out of the 32-bit "
			    "range", t->path, t->nwide);
		tl_grow(&t->wide, &t->capwide, t->nwide + 1,
		    sizeof(*t->wide));
		t->wide[t->nwide++] = v;
	}
	return (int32_t)((uint32_t)INT32_MIN + 1 + (uint32_t)(t->nwide - 1));
}

uint32_t
tl_launch_id(struct tl_trace *t, uint32_t grid, uint32_t block)
{
	uint32_t *v = tl_map32_at(&t->launchmap,
	    (uint64_t)grid << 32 | block);

	if (*v == 0) {
		tl_grow(&t->launch, &t->caplaunch, t->nlaunch + 1,
		    sizeof(*t->launch));
		t->launch[t->nlaunch].grid = grid;
		t->launch[t->nlaunch].block = block;
		*v = (uint32_t)++t->nlaunch;
	}
	return *v - 1;
}

/*
 * Add what parse_event found to the trace, in array order: string ids,
 * threads, flows and the linking key depend on the events before.
 */
static int
merge_event(void *ctx, const void *rp, uint64_t index, uint64_t offset)
{
	struct reader *r = ctx;
	struct tl_trace *t = r->t;
	const struct rec *rc = rp;
	struct tl_event *e;
	uint32_t pid, tid;
	int kind;

	t->nevents = index + 1;
	if (rc == NULL)
		return 0;
	if (rc->type == R_ERROR)
		return bad(r, index, offset + (uint64_t)rc->id,
		    (const char *)(rc + 1));
	if (rc->dropped)
		r->deepargs++;
	if (rc->type != R_X)
		return flow_event(r, rc, index, offset);
	kind = rc->kind;
	if (kind == TL_EV_PYTHON)
		return py_frame(r, rc);
	tl_grow_ahead(&t->ev, &t->capev, t->nev + 1, sizeof(*t->ev),
	    &t->evahead);
	e = &t->ev[t->nev];
	memset(e, 0, sizeof(*e));
	e->uid = (uint32_t)index;
	e->kind = (uint8_t)kind;
	e->parent = e->sibling = -1;
	e->ts = rc->ts;
	e->dur = rc->dur;
	if (TL_IS_GPU(kind)) {
		if (e->dur > INT64_MAX - r->gpu_ns)
			return bad(r, index, offset, "sum of the GPU events' "
			    "\"dur\" out of range");
		r->gpu_ns += e->dur;
	}
	e->name = rec_intern(r, rc, S_NAME);
	pid = rec_intern(r, rc, S_PID);
	tid = rec_intern(r, rc, S_TID);
	e->thread = thread_of(r, pid, tid);
	if (r->nhull > 0 && kind == TL_EV_CPU_OP)
		check_dropped(r, e);
	if (TL_IS_GPU(kind) || kind == TL_EV_RUNTIME || kind == TL_EV_DRIVER)
		set_link(r, t->nev, rc->corr, rc->extid);
	else
		e->fwd = -1;
	if (TL_IS_GPU(kind)) {
		int64_t stream = rc->stream;
		uint32_t grid = rec_intern(r, rc, S_GRID);

		e->launch = tl_launch_id(t, grid, rec_intern(r, rc, S_BLOCK));
		if (stream == TL_NONE) {
			int64_t v;
			const char *ts = tl_str(t->str, tid);

			/* Old traces: the stream is the GPU tid. */
			if (tl_parse_i64(ts, tl_strsize(t->str, tid), &v) == 0)
				stream = v;
		}
		e->pstream = tl_small_put(t, stream);
	} else {
		e->pseq = tl_small_put(t, rc->seq);
		e->child = -1;
	}
	if (rc->sid[S_KERNEL] != 0)
		tl_map_put(&t->launch_kernel, 0, t->nev,
		    rec_intern(r, rc, S_KERNEL));
	if (kind == TL_EV_CPU_OP) {
		uint32_t dims = rec_intern(r, rc, S_DIMS);
		uint32_t types = rec_intern(r, rc, S_TYPES);
		uint32_t strides = rec_intern(r, rc, S_STRIDES);
		uint32_t concrete = rec_intern(r, rc, S_CONCRETE);
		uint32_t comm = rec_intern(r, rc, S_COMM);
		struct idmap *m = &r->args[rc->parser];

		/* Argument lists repeat far more than ops do: intern them. */
		if (rc->args != 0 && rc->args < m->cap && m->v[rc->args] != 0)
			e->args = m->v[rc->args] - 1;
		else if (rc->args != 0) {
			struct tl_args x;

			x.dims = dims;
			x.types = types;
			x.strides = strides;
			x.concrete = concrete;
			x.comm = comm;
			e->args = map_id(t->argtab, m, rc->args,
			    (const char *)&x, sizeof(x));
		}
	}
	if (r->prune && kind == TL_EV_CPU_OP) {	/* for add_hosts */
		uint32_t th = t->thread_py[e->thread];
		struct newop *q;

		count_op(r, th);
		r->opat[th + 1]++;
		tl_grow(&r->newop, &r->capnewop, r->nnewops + 1,
		    sizeof(*r->newop));
		q = &r->newop[r->nnewops++];
		q->ts = e->ts;
		q->ev = (int32_t)t->nev;
		q->th = th;
	}
	t->nev++;
	return 0;
}

static void
on_meta(void *ctx, const char *key, size_t klen, const char *val, size_t vlen)
{
	struct reader *r = ctx;
	struct tl_trace *t = r->t;
	struct tl_meta *m;
	const char *err;

	tl_grow(&t->meta, &t->capmeta, t->nmeta + 1, sizeof(*t->meta));
	m = &t->meta[t->nmeta++];
	m->key = tl_malloc(klen + 1);
	tl_json_unescape(m->key, key, klen);
	m->value = tl_malloc(vlen + 1);
	tl_json_compact_text(val, vlen, m->value);
	if (strcmp(m->key, "distributedInfo") == 0 && vlen > 0) {
		struct tl_json j;
		int tk;

		tl_json_init(&j);
		if (tl_json_parse(&j, val, vlen, &err) > 0 &&
		    (tk = TL_JSON_GET(&j, 0, "rank")) >= 0) {
			size_t n;
			const char *s = tl_json_text(&j, tk, &n);

			free(t->rank);
			t->rank = tl_malloc(n + 1);
			tl_json_unescape(t->rank, s, n);
		}
		tl_json_free(&j);
	}
	if (strcmp(m->key, "deviceProperties") == 0 && vlen > 0)
		tl_devprops_parse(val, vlen, &t->gpu);
}

/*
 * Read the trace once; *lost: TL_PY_CONTEXT pruned frames that a host
 * event read later starts in (prune: 1 to prune at all).
 */
static struct tl_trace *
read_once(const char *path, const struct tl_trace_opts *o, int prune_py,
    int *lost)
{
	struct tl_input *in;
	struct tl_trace *t;
	struct reader r;
	struct tl_scan_cb cb;
	size_t i;
	int rc;

	*lost = 0;
	if ((in = tl_input_open(path)) == NULL)
		return NULL;
	t = tl_calloc(1, sizeof(*t));
	t->path = tl_strdup(tl_input_name(in));
	t->name = tl_strdup(o->trace_name != NULL ? o->trace_name :
	    strcmp(path, "-") == 0 ? "-" : path);
	t->str = tl_strtab_new();
	t->argtab = tl_strtab_new();
	t->pystr = tl_strtab_new();
	t->pythr = tl_strtab_new();
	t->link_external = 1;	/* when no launch call decides it */
	tl_dmap32_init(&t->flows);
	tl_map_init(&t->launch_kernel);
	tl_map32_init(&t->launchmap);
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.o = o;
	r.prune = prune_py;
	tl_map_init(&r.threads);
	memset(&cb, 0, sizeof(cb));
	cb.ctx = &r;
	cb.meta = on_meta;
	cb.wnew = parser_new;
	cb.wfree = parser_free;
	cb.parse = o->tokenise ? tok_event : parse_event;
	cb.merge = merge_event;
	if (!o->tokenise)
		cb.read = read_event;
	cb.nthreads = o->threads > 0 ? o->threads : tl_input_readers(in);
	cb.block = o->block;
	rc = tl_scan(in, &cb);
	if (tl_input_close(in) < 0)
		rc = -1;
	if (rc == 0 && !r.failed && r.prune) {
		prune(&r);
		/* Give back the pages the frames pruned away had. */
		tl_ahead_shrink(&t->py, &t->cappy, t->npy, sizeof(*t->py),
		    &t->pyahead);
	}
	*lost = r.lost;
	/* Once per trace: not before a second reading (tl_trace_read). */
	if (rc == 0 && !r.failed && r.deepargs > 0 &&
	    !(r.lost && strcmp(path, "-") != 0))
		tl_warn("%s: %llu event%s arguments nested more than %d deep: "
		    "%s arguments dropped", t->path,
		    (unsigned long long)r.deepargs, r.deepargs == 1 ? "'s" :
		    "s'", TL_JSON_DEPTH, r.deepargs == 1 ? "its" : "their");
	tl_map_free(&r.threads);
	for (i = 0; i < (size_t)r.nparsers; i++) {
		free(r.str[i].v);
		free(r.args[i].v);
		free(r.pystr[i].v);
	}
	free(r.str);
	free(r.args);
	free(r.pystr);
	free(r.pymod);
	free(r.ops);
	free(r.opseg);
	free(r.opat);
	free(r.newop);
	free(r.hull);
	free(r.kbuf);
	for (i = 0; i < r.npend; i++)
		t->ev[r.pend[i].i].link = r.pend[i].extid;
	free(r.pend);
	if (rc < 0 || r.failed) {
		tl_trace_free(t);
		return NULL;
	}
	return t;
}

struct tl_trace *
tl_trace_read(const char *path, const struct tl_trace_opts *o)
{
	struct tl_trace *t;
	int lost;

	t = read_once(path, o, o->keep_python == TL_PY_CONTEXT, &lost);
	if (t == NULL || !lost)
		return t;
	/*
	 * Frames were dropped that a host event read after them starts
	 * in: read a file again keeping them all; standard input cannot
	 * be, so its ops go without module context.
	 */
	if (strcmp(path, "-") != 0) {
		tl_trace_free(t);
		return read_once(path, o, 0, &lost);
	}
	tl_warn("%s: python_function events come before the host events "
	    "they enclose: no module context from standard input (read the "
	    "file, or use --stack)", t->path);
	t->npy = 0;
	free(t->thread_py);	/* as if the frames were not read */
	t->thread_py = NULL;
	return t;
}

void
tl_trace_free(struct tl_trace *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nmeta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].value);
	}
	free(t->meta);
	for (i = 0; i < t->nunread; i++)
		free(t->unread[i].cat);
	free(t->unread);
	tl_dmap32_free(&t->flows);
	tl_map_free(&t->launch_kernel);
	tl_map32_free(&t->launchmap);
	free(t->launch);
	free(t->wide);
	free(t->threads);
	tl_strtab_free(t->str);
	tl_strtab_free(t->argtab);
	tl_strtab_free(t->pystr);
	tl_strtab_free(t->pythr);
	tl_ahead_free(&t->py, &t->pyahead);
	free(t->thread_py);
	tl_ahead_free(&t->ev, &t->evahead);
	free(t->sparse);
	free(t->rank);
	free(t->gpu.name);
	free(t->name);
	free(t->path);
	free(t);
}

const char *
tl_trace_meta(const struct tl_trace *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nmeta; i++)
		if (strcmp(t->meta[i].key, key) == 0)
			return t->meta[i].value;
	return NULL;
}

void
tl_ev_args(const struct tl_trace *t, const struct tl_event *e,
    struct tl_args *a)
{
	if (e->kind != TL_EV_CPU_OP || e->args == 0)
		memset(a, 0, sizeof(*a));
	else
		memcpy(a, tl_str(t->argtab, e->args), sizeof(*a));
}

int
tl_ev_cmp_thread(const struct tl_event *x, const struct tl_event *y)
{
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return 0;
}

int
tl_in_window(const struct tl_trace *t, const struct tl_window *w, int i)
{
	const struct tl_event *e = &t->ev[i];

	if (w == NULL || !w->on)
		return 1;
	if (TL_IS_GPU(e->kind) && e->parent >= 0)
		e = &t->ev[e->parent];
	return e->ts >= w->start && e->ts < w->end;
}

int
tl_step_window(const struct tl_trace *t, long long step, struct tl_window *w)
{
	char name[64];
	size_t i;

	snprintf(name, sizeof(name), "ProfilerStep#%lld", step);
	for (i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];

		if ((e->kind == TL_EV_ANNOTATION || e->kind == TL_EV_CPU_OP) &&
		    strcmp(tl_ev_name(t, e), name) == 0) {
			w->on = 1;
			w->start = e->ts;
			w->end = e->ts + e->dur;
			return 0;
		}
	}
	tl_warn("%s: no %s in the trace", t->path, name);
	return -1;
}

/*
 * Kineto's categories of device events of accelerators other than GPUs
 * (libkineto/src/ActivityType.cpp, github.com/pytorch/kineto): MTIA's
 * device events and Intel Gaudi's ops; mtia_runtime is host-side.
 */
static int
other_device_cat(const char *c)
{
	return (strncmp(c, "mtia_", 5) == 0 && strcmp(c, "mtia_runtime") != 0)
	    || strcmp(c, "hpu_op") == 0;
}

/* Append "NAME N" to buf (", "-separated). */
static void
put_count(char *buf, size_t len, const char *name, uint64_t n)
{
	size_t m = strlen(buf);

	if (n > 0 && m < len)
		snprintf(buf + m, len - m, "%s%s %llu", m > 0 ? ", " : "",
		    name, (unsigned long long)n);
}

void
tl_trace_devices(const struct tl_trace *t, char *gpu, size_t gpulen,
    char *other, size_t otherlen)
{
	uint64_t n[3] = { 0, 0, 0 };
	size_t i, k, nsp;
	const int32_t *sp = tl_ev_sparse(t, &nsp);

	other[0] = '\0';
	for (k = 0; gpu != NULL && k < nsp; k++)
		switch (t->ev[sp != NULL ? (size_t)sp[k] : k].kind) {
		case TL_EV_KERNEL:
			n[0]++;
			break;
		case TL_EV_MEMCPY:
			n[1]++;
			break;
		case TL_EV_MEMSET:
			n[2]++;
			break;
		default:
			break;
		}
	if (gpu != NULL) {
		gpu[0] = '\0';
		put_count(gpu, gpulen, "kernel", n[0]);
		put_count(gpu, gpulen, "gpu_memcpy", n[1]);
		put_count(gpu, gpulen, "gpu_memset", n[2]);
	}
	for (i = 0; i < t->nunread; i++)
		if (other_device_cat(t->unread[i].cat))
			put_count(other, otherlen, t->unread[i].cat,
			    t->unread[i].n);
}
