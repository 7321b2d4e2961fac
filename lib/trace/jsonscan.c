/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/jlex.h"
#include "common/pool.h"
#include "common/util.h"
#include "trace/input.h"
#include "trace/jsonscan.h"

#define READSZ (1u << 18)

/*
 * With one thread the input thread fills NSBLK buffers of SBLK bytes in
 * turn, and the scanner reads them where they are: the bytes of an
 * event cut by a buffer's end (at most SHEAD) are copied before the next
 * buffer's first byte, longer ones into a buffer of the scanner's own.
 * 1 MiB: the input thread wakes less often (1 000 voluntary context
 * switches on a 0.5 GB gzip trace at 512 KiB, 2 200 at 256 KiB), each
 * inflate call fills a whole buffer, and ISA-L copies its 32 KiB window
 * in and out once a call (tl-parse -j 1 on the 62.4 MB trace gzipped:
 * 575.0 M instructions at 256 KiB a call, 567.0 M at 512 KiB, 562.7 M at
 * 1 MiB); the 4 MiB are freed before tl-parse's peak of memory, which
 * they do not move.
 */
#define NSBLK 4
#define SBLK (1u << 20)
#define SHEAD (64u << 10)
#define PAGE 4096u		/* buffers' data start on one (page_after) */

struct sblk {
	struct tl_input_req req;	/* first: the input thread fills it */
	char *mem;		/* PAGE + SHEAD + SBLK + 1 bytes */
};

struct par;

struct scanner {
	struct tl_input *in;
	const char *name;
	char *buf;
	size_t cap, len;	/* valid bytes buf[0..len) */
	size_t pos;		/* scan position */
	uint64_t base;		/* input offset of buf[0] */
	int eof;
	int failed;
	const struct tl_scan_cb *cb;
	struct par *par;	/* several threads: the blocks, else NULL */
	struct sblk *sb;	/* one thread: the input's buffers */
	struct sblk *held;	/* the one buf points into, or NULL */
	struct sblk *ret;	/* read, to give back with the next */
	char *own;		/* else buf is here (cap bytes) */
	void *w;		/* this thread's parse state */
	struct tl_scan_out out;	/* and its records */
};

static long par_read(struct scanner *s, char *dst, size_t n);
static int par_take(struct scanner *s, uint64_t *index);

static inline int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
fail(struct scanner *s, size_t at, const char *what)
{
	tl_warn("%s:%llu: %s", s->name,
	    (unsigned long long)(s->base + at), what);
	s->failed = 1;
	return -1;
}

/*
 * Make more bytes available, keeping buf[keep..len).  Returns 1 if bytes
 * were added, 0 at end of input, -1 on error.  Positions are shifted by
 * keep; the caller adjusts its own offsets by the returned shift.
 */
static int refill_sb(struct scanner *s, size_t keep, size_t *shift);

static int
refill(struct scanner *s, size_t keep, size_t *shift)
{
	long n;

	*shift = 0;
	if (s->eof)
		return 0;
	if (s->par == NULL)
		return refill_sb(s, keep, shift);
	if (keep > 0) {
		memmove(s->buf, s->buf + keep, s->len - keep);
		s->len -= keep;
		s->pos -= keep;
		s->base += keep;
		*shift = keep;
	}
	if (s->cap - s->len < READSZ) {
		size_t need = s->len + READSZ;

		if (need > TL_EVENT_MAX + READSZ)
			return fail(s, 0, "event or value larger than 256 MiB");
		tl_grow(&s->buf, &s->cap, need + 1, 1);
	}
	n = par_read(s, s->buf + s->len, s->cap - s->len - 1);
	if (n < 0) {		/* not a place in the JSON text */
		tl_warn("%s: %s", s->name, tl_input_error(s->in));
		s->failed = 1;
		return -1;
	}
	if (n == 0) {
		s->eof = 1;
		return 0;
	}
	s->len += (size_t)n;
	return 1;
}

/*
 * The first page boundary at least head bytes into mem (PAGE bytes more
 * than the buffer needs): where the input is read or inflated to.  A
 * file's bytes lie page-aligned in the page cache, and on the AMD Zen 3
 * machine of docs/PERFORMANCE.md the kernel's copy to a destination a
 * few bytes past the source's offset in its page runs about 4x slower
 * (1, 8, 16 and 24 bytes past: slow; 0, 32, 48, 64 and more: not), as
 * when the copy's loads and stores match in their low 12 address bits
 * ("4K aliasing"): read(2) of a 568 MB trace to malloc's 16-byte offset
 * took 0.45 s of system time, 0.10 s page-aligned.
 */
static char *
page_after(char *mem, size_t head)
{
	return (char *)(((uintptr_t)mem + head + PAGE - 1) &
	    ~(uintptr_t)(PAGE - 1));
}

/*
 * Give a buffer read back to the input thread, two at a time: it fills
 * them faster than they are read, so it sleeps between, and each give
 * wakes it (half the wake-ups; two of the NSBLK stay given at least).
 */
static void
give_back(struct scanner *s, struct sblk *b)
{
	struct tl_input_req *v[2];

	if (s->ret == NULL) {
		s->ret = b;
		return;
	}
	v[0] = &s->ret->req;
	v[1] = &b->req;
	s->ret = NULL;
	tl_input_give_n(s->in, v, 2);
}

/*
 * refill with one thread: the next buffer the input thread filled, with
 * buf[keep..len) before it (in the room before its bytes, or with it
 * in s->buf's own memory when longer).
 */
static int
refill_sb(struct scanner *s, size_t keep, size_t *shift)
{
	struct tl_input_req *give[NSBLK], *r;
	size_t tail = s->len - keep, got, i;
	char *d;

	if (s->sb == NULL) {
		s->sb = tl_calloc(NSBLK, sizeof(*s->sb));
		for (i = 0; i < NSBLK; i++) {
			s->sb[i].mem = tl_malloc(PAGE + SHEAD + SBLK + 1);
			s->sb[i].req.buf = page_after(s->sb[i].mem, SHEAD);
			s->sb[i].req.n = SBLK;
			give[i] = &s->sb[i].req;
		}
		tl_input_give_n(s->in, give, NSBLK);
	}
	*shift = keep;
	s->pos -= keep;
	s->base += keep;
	if (keep > 0) {		/* what was read stays at buf[0..len) */
		s->buf += keep;
		s->len = tail;
	}
	if (tail > TL_EVENT_MAX)
		return fail(s, 0, "event or value larger than 256 MiB");
	r = tl_input_next(s->in);	/* kept by the scanner from here */
	if (r->got <= 0) {
		if (r->got == 0) {
			s->eof = 1;
			return 0;
		}
		tl_warn("%s: %s", s->name, tl_input_error(s->in));
		s->failed = 1;
		return -1;
	}
	got = (size_t)r->got;
	if (tail <= SHEAD) {
		d = r->buf - tail;
		if (tail > 0)
			memcpy(d, s->buf, tail);
		if (s->held != NULL)
			give_back(s, s->held);
		s->held = (struct sblk *)(void *)r;
	} else {
		if (s->held == NULL)	/* buf is the scanner's own */
			memmove(s->own, s->buf, tail);
		tl_grow(&s->own, &s->cap, tail + got + 1, 1);
		if (s->held != NULL) {
			memcpy(s->own, s->buf, tail);
			give_back(s, s->held);
			s->held = NULL;
		}
		memcpy(s->own + tail, r->buf, got);
		give_back(s, (struct sblk *)(void *)r);
		d = s->own;
	}
	s->buf = d;
	s->len = tail + got;
	return 1;
}

/* Skip JSON whitespace; return the next byte or -1 at end, -2 on error. */
static int
peek(struct scanner *s, size_t *keep)
{
	for (;;) {
		while (s->pos < s->len) {
			unsigned char c = (unsigned char)s->buf[s->pos];

			if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
				return c;
			s->pos++;
		}
		size_t shift, k = keep ? *keep : s->pos;
		int r = refill(s, k, &shift);

		if (keep)
			*keep -= shift;
		if (r < 0)
			return -2;
		if (r == 0)
			return -1;
	}
}

/*
 * Find the end of the JSON value starting at s->pos (a non-blank byte).
 * On success s->pos is one past its end and *start is its first byte
 * (adjusted for buffer moves).  Strings, objects, arrays and primitives.
 */
static int
scan_value(struct scanner *s, size_t *start)
{
	struct tl_span sp = { 0, 0, 0 };
	unsigned char c = (unsigned char)s->buf[s->pos];

	if (c != '"' && c != '{' && c != '[') {
		/* Primitive: up to a delimiter. */
		for (;;) {
			while (s->pos < s->len) {
				c = (unsigned char)s->buf[s->pos];
				if (c == ',' || c == '}' || c == ']' ||
				    c == ' ' || c == '\t' || c == '\n' ||
				    c == '\r')
					return 0;
				if (c == 0)
					return fail(s, s->pos, "NUL byte in JSON");
				s->pos++;
			}
			size_t shift;
			int r = refill(s, *start, &shift);

			*start -= shift;
			if (r <= 0)
				return r < 0 ? -1 : 0;
		}
	}
	for (;;) {
		size_t shift;
		int r;

		s->buf[s->len] = '\0';	/* refill keeps a spare byte */
		r = tl_span_scan(&sp, s->buf, s->len, &s->pos);
		if (r == 0)
			return 0;
		if (r < 0)
			return fail(s, s->pos, sp.depth < 0 ?
			    "unbalanced '}' or ']'" : "NUL byte in JSON");
		r = refill(s, *start, &shift);
		*start -= shift;
		sp.strstart -= shift;
		if (r < 0)
			return -1;
		if (r == 0)
			return fail(s, s->len, sp.in_str ?
			    "truncated JSON: unterminated string" :
			    "truncated JSON: unterminated object or array");
	}
}

/* Hand one event read on this thread to the callbacks. */
static int
deliver(struct scanner *s, const struct tl_scan_cb *cb, const char *ev,
    size_t len, uint64_t index, uint64_t offset)
{
	int r;

	if (cb->parse == NULL)
		return cb->event(cb->ctx, ev, len, index, offset);
	s->out.len = 0;
	r = cb->parse(s->w, &s->out, ev, len, offset);
	return cb->merge(cb->ctx, r ? s->out.p : NULL, index, offset);
}

/* Parse the events array; s->pos is just after '['. */
static int
scan_events(struct scanner *s, const struct tl_scan_cb *cb)
{
	uint64_t index = 0;
	int c;

	for (;;) {
		size_t start;

		c = peek(s, NULL);
		if (c == -2)
			return -1;
		if (c == -1)
			return fail(s, s->len,
			    "truncated JSON: unterminated traceEvents array");
		if (c == ']') {
			s->pos++;
			return 0;
		}
		if (index > 0) {
			if (c != ',')
				return fail(s, s->pos,
				    "expected ',' or ']' between events");
			s->pos++;
			c = peek(s, NULL);
			if (c == -2)
				return -1;
			if (c == -1)
				return fail(s, s->len, "truncated JSON: "
				    "unterminated traceEvents array");
		}
		if (c == ']' && index > 0)
			return fail(s, s->pos, "trailing comma after the last event");
		if (c != '{')
			return fail(s, s->pos, "event is not a JSON object");
		if (s->par != NULL) {
			/* A worker may have read this event and the next. */
			int r = par_take(s, &index);

			if (r < 0)
				return -1;
			if (r > 0)
				continue;
		}
		if (cb->read != NULL && cb->parse != NULL) {
			int r;

			s->buf[s->len] = '\0';	/* refill keeps a spare byte */
			for (;;) {
				/*
				 * In one pass, when the event is all in the
				 * buffer.
				 */
				uint64_t off = s->base + s->pos;
				size_t n, q;

				s->out.len = 0;
				r = cb->read(s->w, &s->out, s->buf + s->pos,
				    s->len - s->pos, off, &n);
				if (r < 0)
					break;
				s->pos += n;
				if (cb->merge(cb->ctx, r ? s->out.p : NULL,
				    index, off) < 0) {
					s->failed = 1;
					return -1;
				}
				index++;
				/*
				 * The next event straight away where a comma
				 * and blanks alone, all in the buffer, lead
				 * to its '{' (with one thread: with several,
				 * par_take looks at each event start); else
				 * the loop's head, as for any event.
				 */
				if (s->par != NULL)
					break;
				/* buf[len] is NUL: no blank, no comma. */
				for (q = s->pos; blank(s->buf[q]); q++)
					;
				if (s->buf[q] != ',')
					break;
				for (q++; blank(s->buf[q]); q++)
					;
				if (s->buf[q] != '{')
					break;
				s->pos = q;
			}
			if (r >= 0)
				continue;
		}
		start = s->pos;
		if (scan_value(s, &start) < 0)
			return -1;
		if (deliver(s, cb, s->buf + start, s->pos - start, index,
		    s->base + start) < 0) {
			s->failed = 1;
			return -1;
		}
		index++;
	}
}

/* Read a JSON string key at s->pos into *key (a pointer into buf). */
static int
scan_key(struct scanner *s, size_t *kstart, size_t *klen)
{
	size_t start = s->pos;

	if (s->buf[s->pos] != '"')
		return fail(s, s->pos, "expected a member name");
	if (scan_value(s, &start) < 0)
		return -1;
	*kstart = start + 1;
	*klen = s->pos - start - 2;
	return 0;
}

static int
scan_object(struct scanner *s, const struct tl_scan_cb *cb)
{
	int c, n = 0, seen = 0;

	s->pos++;		/* '{' */
	for (;;) {
		size_t kstart = 0, klen = 0, vstart, keep, before;

		c = peek(s, NULL);
		if (c == -2)
			return -1;
		if (c == -1)
			return fail(s, s->len, "truncated JSON: unterminated "
			    "top-level object");
		if (c == '}') {
			s->pos++;
			break;
		}
		if (n > 0) {
			if (c != ',')
				return fail(s, s->pos,
				    "expected ',' or '}' in top-level object");
			s->pos++;
			if ((c = peek(s, NULL)) < 0)
				return c == -2 ? -1 : fail(s, s->len,
				    "truncated JSON: unterminated top-level object");
		}
		if (scan_key(s, &kstart, &klen) < 0)
			return -1;
		keep = kstart;
		c = peek(s, &keep);
		kstart = keep;
		if (c != ':')
			return c == -2 ? -1 : fail(s, s->pos,
			    "expected ':' after a member name");
		s->pos++;
		keep = kstart;
		c = peek(s, &keep);
		kstart = keep;
		if (c < 0)
			return c == -2 ? -1 : fail(s, s->len,
			    "truncated JSON: member without a value");
		n++;
		if (klen == 11 && memcmp(s->buf + kstart, "traceEvents", 11) == 0) {
			if (c != '[')
				return fail(s, s->pos,
				    "traceEvents is not an array");
			s->pos++;
			if (scan_events(s, cb) < 0)
				return -1;
			seen = 1;
			continue;
		}
		/* The key stays in the buffer while the value is scanned. */
		before = s->pos - kstart;
		if (scan_value(s, &kstart) < 0)
			return -1;
		vstart = kstart + before;
		if (cb->meta != NULL) {
			size_t vlen = s->pos - vstart;

			if (vlen > TL_META_MAX)
				vlen = 0;
			cb->meta(cb->ctx, s->buf + kstart, klen,
			    vlen ? s->buf + vstart : "", vlen);
		}
	}
	if (!seen)
		return fail(s, s->pos, "no traceEvents array in the trace");
	return 0;
}

/*
 * Several threads.  The input thread reads or inflates the input straight
 * into blocks, in order (par_topup, par_filled), each with up to LOOKBACK
 * bytes of what came before it.  A worker cuts its block into events (cut_block): it guesses that
 * the first '{' whose previous non-blank byte is '[', or ',' after '}',
 * starts an event, scans the object from there, and goes on from event
 * to event while they are separated by a comma only, calling parse on
 * each; where that breaks, it guesses again further on.  It records each
 * event's place, its record, and whether it follows the previous one
 * directly.  The calling thread, which reads the document as with one
 * thread but from the blocks, asks at each event start whether a worker
 * has an event starting exactly there (par_take): an event is the
 * balanced object that starts at its first byte, so the worker's reading
 * of it, and of the events chained after it, is the one this thread
 * would have made.  It merges them and jumps past the last.  A wrong
 * guess only costs the work done on it.  The calling thread is a cutter
 * too: it cuts the block it needs when no worker has taken it, and a
 * later one while a worker finishes the block it needs (par_wait), so
 * with N threads there are N - 1 workers.
 */
#define LOOKBACK 64
#define PARREAD (16u << 10)
#define NOREC UINT32_MAX

struct cut {			/* one event a worker cut */
	uint32_t start, len;	/* in the block's data */
	uint32_t rec;		/* offset of its record in out, or NOREC */
	uint32_t follows;	/* right after the previous one, past a comma */
};

struct block {
	struct tl_input_req req;	/* first: the input thread fills data */
	char *mem;		/* LOOKBACK + size + 1 bytes */
	char *data;		/* mem + LOOKBACK */
	size_t len;		/* bytes of input in data */
	size_t lb;		/* bytes before data[0] that came before */
	uint64_t base;		/* input offset of data[0] */
	uint64_t cseq;		/* its sequence number among the cut jobs */
	int rerr;		/* the input failed before data[0] */
	struct cut *ev;
	size_t nev, capev;
	struct tl_scan_out out;
};

/*
 * The blocks' life: the calling thread gives them to the input thread
 * (par_topup), which fills them in order and submits each to the pool
 * of cutters (par_filled); the calling thread takes them back from the
 * input in that order (take_filled), waits for their cut where it needs
 * them (par_wait), and drops them from the pool, in order again, once it
 * has read past them (par_gc).  The block ring and the counters below
 * are the calling thread's alone, but for the input thread's own
 * fields at the end.
 */
struct par {
	const struct tl_scan_cb *cb;
	struct tl_input *in;
	size_t size;		/* block size */
	int nth;		/* workers */
	void **wst;		/* their states */
	struct tl_pool *cut;	/* the cutters */
	struct block **q;	/* blocks head..tail-1 at q[seq % cap] */
	size_t cap;
	uint64_t head, tail;
	uint64_t filled;	/* blocks before it are filled */
	int ended;		/* a block came back empty: no more to give */
	struct block **spare;	/* released blocks, for reuse */
	size_t nspare;
	uint64_t cur;		/* the next byte par_read copies: block seq */
	size_t curoff;		/* and offset */
	/* The input thread's, in the order it fills the blocks: */
	uint64_t end;		/* input offset after the last block filled */
	uint64_t nsub;		/* blocks submitted to the cutters */
	char last[LOOKBACK];	/* its last bytes */
	size_t nlast;
};

void *
tl_scan_reserve(struct tl_scan_out *out, size_t n)
{
	if (out->cap - out->len < n)
		tl_grow(&out->p, &out->cap, out->len + n, 1);
	return out->p + out->len;
}

static struct block *
qb(const struct par *p, uint64_t seq)
{
	return p->q[seq % p->cap];
}

/*
 * Find the end of the object at d[pos] ('{') within d[0..len) (d[len] is
 * NUL); 0 with *end one past its '}', 1 if the block ends first, -1 if
 * the bytes are not one (a NUL, or an unbalanced bracket).
 */
static int
cut_object(const char *d, size_t len, size_t pos, size_t *end)
{
	struct tl_span sp = { 0, 0, 0 };
	int r = tl_span_scan(&sp, d, len, &pos);

	*end = pos;
	return r;
}

/*
 * The first '{' at or after from that looks like the start of an event:
 * the non-blank byte before it is '[', or ',' with '}' before that
 * (bytes before data[0] count, as far as the block has them).  b->len if
 * none.
 */
static size_t
guess_start(const struct block *b, size_t from)
{
	const char *d = b->data;
	ptrdiff_t lo = -(ptrdiff_t)b->lb;

	while (from < b->len) {
		const char *q = memchr(d + from, '{', b->len - from);
		ptrdiff_t j;

		if (q == NULL)
			break;
		from = (size_t)(q - d) + 1;
		for (j = q - d - 1; j >= lo && blank(d[j]); j--)
			;
		if (j < lo)
			continue;
		if (d[j] == '[')
			return from - 1;
		if (d[j] != ',')
			continue;
		for (j--; j >= lo && blank(d[j]); j--)
			;
		if (j >= lo && d[j] == '}')
			return from - 1;
	}
	return b->len;
}

/*
 * Cut block b into events and read each (any thread): with read, in one
 * pass where it can, else with parse once cut.
 */
static void
cut_block(const struct tl_scan_cb *cb, struct block *b, void *w)
{
	const char *d = b->data;
	size_t len = b->len, pos, end, q, n;
	uint32_t follows = 0;

	b->nev = 0;
	b->out.len = 0;
	pos = guess_start(b, 0);
	while (pos < len) {
		struct cut *c;
		size_t at;
		int r = -1;

		b->out.len = (b->out.len + 7) & ~(size_t)7;
		at = b->out.len;
		if (cb->read != NULL)
			r = cb->read(w, &b->out, d + pos, len - pos,
			    b->base + pos, &n);
		if (r >= 0)
			end = pos + n;
		else {
			int k = cut_object(d, len, pos, &end);

			if (k > 0)
				break;
			if (k < 0) {
				pos = guess_start(b, pos + 1);
				follows = 0;
				continue;
			}
			r = cb->parse(w, &b->out, d + pos, end - pos,
			    b->base + pos);
		}
		tl_grow(&b->ev, &b->capev, b->nev + 1, sizeof(*b->ev));
		c = &b->ev[b->nev++];
		c->start = (uint32_t)pos;
		c->len = (uint32_t)(end - pos);
		c->follows = follows;
		c->rec = r ? (uint32_t)at : NOREC;
		/* The next event follows if only a comma lies between. */
		for (q = end; q < len && blank(d[q]); q++)
			;
		if (q >= len)
			break;
		if (d[q] == ',') {
			for (q++; q < len && blank(d[q]); q++)
				;
			if (q >= len)
				break;
			if (d[q] == '{') {
				pos = q;
				follows = 1;
				continue;
			}
		}
		follows = 0;
		pos = guess_start(b, q);
	}
}

/* A cutter's job (any thread). */
static void
cut_run(void *ctx, void *w, void *job)
{
	struct par *p = ctx;

	cut_block(p->cb, job, w);
}

/*
 * Drop the blocks that end at or before upto, the scanner's position:
 * it only looks up events from there on.  Waits for a worker still on
 * one.
 */
static void
par_gc(struct par *p, uint64_t upto)
{
	while (p->head < p->filled) {
		struct block *b = qb(p, p->head);
		uint64_t seq;

		if (b->base + b->len > upto)
			break;
		if (tl_pool_drop(p->cut, &seq) != b || seq != b->cseq)
			tl_die("internal error: blocks out of order");
		p->head++;
		p->spare[p->nspare++] = b;
	}
}

/*
 * The input thread filled block b (tl_input_notify): place it in the
 * input and queue it for a worker.
 */
static void
par_filled(void *arg, struct tl_input_req *r)
{
	struct par *p = arg;
	struct block *b = (struct block *)(void *)r;

	b->len = r->got > 0 ? (size_t)r->got : 0;
	b->rerr = r->got < 0;
	b->data[b->len] = '\0';
	b->base = p->end;
	b->lb = p->nlast;
	memcpy(b->data - b->lb, p->last + LOOKBACK - p->nlast, p->nlast);
	if (b->len >= LOOKBACK) {
		memcpy(p->last, b->data + b->len - LOOKBACK, LOOKBACK);
		p->nlast = LOOKBACK;
	} else if (b->len > 0) {
		size_t keep = p->nlast + b->len > LOOKBACK ? LOOKBACK - b->len :
		    p->nlast;

		memmove(p->last + LOOKBACK - b->len - keep,
		    p->last + LOOKBACK - keep, keep);
		memcpy(p->last + LOOKBACK - b->len, b->data, b->len);
		p->nlast = keep + b->len;
	}
	p->end += b->len;
	b->cseq = p->nsub++;
	tl_pool_submit(p->cut, b);
}

/*
 * Give the input thread blocks to fill until cap are held: two at a
 * time, so that it wakes half as often, unless the reader has read all
 * it was given.
 */
static void
par_topup(struct par *p)
{
	struct tl_input_req *give[8];
	size_t n = 0;

	if (p->tail - p->head + 1 == p->cap && p->cur < p->tail)
		return;
	while (!p->ended && p->tail - p->head < p->cap) {
		struct block *b;

		if (p->nspare > 0)
			b = p->spare[--p->nspare];
		else {
			b = tl_calloc(1, sizeof(*b));
			b->mem = tl_malloc(PAGE + LOOKBACK + p->size + 1);
			b->data = page_after(b->mem, LOOKBACK);
		}
		b->req.buf = b->data;
		b->req.n = p->size;
		p->q[p->tail % p->cap] = b;
		p->tail++;
		give[n++] = &b->req;
		if (n == sizeof(give) / sizeof(give[0])) {
			tl_input_give_n(p->in, give, n);
			n = 0;
		}
	}
	if (n > 0)
		tl_input_give_n(p->in, give, n);
}

/*
 * Take the next block back from the input thread, filled.  A short
 * block is followed by one that says end or error.
 */
static void
take_filled(struct par *p)
{
	struct block *b = qb(p, p->filled);

	if (tl_input_next(p->in) != &b->req)
		tl_die("internal error: blocks out of order");
	if (b->len == 0)
		p->ended = 1;
	p->filled++;
}

/*
 * The scanner's input: the blocks' bytes in order.  Blocks wholly before
 * the next byte are done with (the scanner only looks up events at or
 * after its position, which is the end of what it has read when it asks
 * for more).
 */
static long
par_read(struct scanner *s, char *dst, size_t n)
{
	struct par *p = s->par;
	size_t got = 0;

	/*
	 * Little at a time: mostly the scanner only needs the end of an
	 * event that straddles two blocks.  But short
	 * only at the end of the input.
	 */
	if (n > PARREAD)
		n = PARREAD;
	par_gc(p, s->base + s->pos);
	while (got < n) {
		struct block *b;
		size_t k;

		par_topup(p);
		if (p->cur == p->tail)
			return (long)got;	/* all given came back empty */
		while (p->filled <= p->cur)
			take_filled(p);
		b = qb(p, p->cur);
		if (b->len == 0)
			return got > 0 ? (long)got : b->rerr ? -1 : 0;
		k = b->len - p->curoff;
		if (k > n - got)
			k = n - got;
		memcpy(dst + got, b->data + p->curoff, k);
		got += k;
		p->curoff += k;
		if (p->curoff == b->len) {
			p->cur++;
			p->curoff = 0;
		}
	}
	return (long)got;
}

/*
 * Wait until block b's events are cut, cutting it here if no one has,
 * or a later one while a worker finishes it.
 */
static void
par_wait(struct scanner *s, struct block *b)
{
	struct par *p = s->par;

	par_gc(p, s->base + s->pos);
	par_topup(p);
	tl_pool_wait(p->cut, b->cseq, s->w);
}

/*
 * At an event start s->pos: if a worker cut an event starting there,
 * merge it and those chained after it, and move past them.  1 if done,
 * 0 if this thread must read the event, -1 on an error (reported).
 */
static int
par_take(struct scanner *s, uint64_t *index)
{
	struct par *p = s->par;
	const struct tl_scan_cb *cb = s->cb;
	uint64_t at = s->base + s->pos, seq, end;
	struct block *b = NULL;
	size_t lo, hi, i;
	uint32_t off;

	/* The bytes at are read, so their block is filled. */
	for (seq = p->head; seq < p->filled; seq++) {
		b = qb(p, seq);
		if (at >= b->base && at < b->base + b->len)
			break;
	}
	if (seq == p->filled)
		return 0;
	par_wait(s, b);
	off = (uint32_t)(at - b->base);
	lo = 0;
	hi = b->nev;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->ev[mid].start < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == b->nev || b->ev[lo].start != off)
		return 0;
	for (i = lo; i < b->nev && (i == lo || b->ev[i].follows); i++) {
		const struct cut *c = &b->ev[i];

		/*
		 * A worker wrote the records, so they are in another core's
		 * cache: ask for the one two ahead now (its first 256
		 * bytes), while this one is merged.
		 */
		if (i + 2 < b->nev && b->ev[i + 2].rec != NOREC) {
			const char *nx = b->out.p + b->ev[i + 2].rec;

			__builtin_prefetch(nx);
			__builtin_prefetch(nx + 64);
			__builtin_prefetch(nx + 128);
			__builtin_prefetch(nx + 192);
		}
		if (cb->merge(cb->ctx, c->rec == NOREC ? NULL :
		    b->out.p + c->rec, (*index)++, b->base + c->start) < 0) {
			s->failed = 1;
			return -1;
		}
	}
	end = b->base + b->ev[i - 1].start + b->ev[i - 1].len;
	/* Move to the end of the last one, in the buffer or in the blocks. */
	if (end <= s->base + s->len) {
		s->pos = (size_t)(end - s->base);
		return 1;
	}
	s->base = end;
	s->len = s->pos = 0;
	p->cur = seq;
	p->curoff = (size_t)(end - b->base);
	if (p->curoff == b->len) {
		p->cur++;
		p->curoff = 0;
	}
	return 1;
}

static struct par *
par_new(struct tl_input *in, const struct tl_scan_cb *cb)
{
	struct par *p = tl_calloc(1, sizeof(*p));
	int i;

	p->cb = cb;
	p->in = in;
	/* The calling thread cuts blocks too: it is one of nthreads. */
	p->nth = cb->nthreads - 1;
	p->size = cb->block > 0 ? cb->block : TL_SCAN_BLOCK;
	/*
	 * Blocks in flight at most TL_SCAN_MEM bytes: smaller blocks on
	 * many threads (peak RSS at -j 8 on a 0.5 GB trace: 61.5 MB with
	 * 256 KiB, 58.2 MB with 128 KiB, against 53.4 MB at -j 1).
	 */
	while (cb->block == 0 && p->size > TL_SCAN_BLOCK_MIN &&
	    ((size_t)cb->nthreads + 3) * p->size > TL_SCAN_MEM)
		p->size /= 2;
	if (p->size > TL_EVENT_MAX)
		p->size = TL_EVENT_MAX;
	p->cap = (size_t)cb->nthreads + 3;
	p->q = tl_calloc(p->cap, sizeof(*p->q));
	p->spare = tl_calloc(p->cap + 1, sizeof(*p->spare));
	p->wst = tl_calloc((size_t)p->nth + 1, sizeof(*p->wst));
	for (i = 0; i < p->nth; i++)
		p->wst[i] = cb->wnew(cb->ctx);
	p->cut = tl_pool_new(cut_run, p, p->nth, p->wst, p->cap, 1);
	tl_input_depth(in, p->cap);
	tl_input_notify(in, par_filled, p);
	return p;
}

static void
free_block(struct block *b)
{
	free(b->mem);
	free(b->ev);
	free(b->out.p);
	free(b);
}

static void
par_free(struct par *p)
{
	int i;

	/* No more filling, of blocks freed here or of any. */
	tl_input_cancel(p->in);
	tl_input_notify(p->in, NULL, NULL);
	tl_pool_free(p->cut);
	for (i = 0; i < p->nth; i++)
		p->cb->wfree(p->wst[i]);
	for (; p->head < p->tail; p->head++)
		free_block(qb(p, p->head));
	while (p->nspare > 0)
		free_block(p->spare[--p->nspare]);
	free(p->wst);
	free(p->q);
	free(p->spare);
	free(p);
}

static void
scan_done(struct scanner *s)
{
	if (s->par != NULL)
		par_free(s->par);
	if (s->cb->parse != NULL)
		s->cb->wfree(s->w);
	free(s->out.p);
	if (s->par == NULL && s->sb != NULL) {
		size_t i;

		/* None is filled once the scanner is done. */
		tl_input_cancel(s->in);
		for (i = 0; i < NSBLK; i++)
			free(s->sb[i].mem);
		free(s->sb);
	}
	free(s->own);
	if (s->par != NULL)
		free(s->buf);
}

int
tl_scan(struct tl_input *in, const struct tl_scan_cb *cb)
{
	struct scanner s;
	int c, rc;

	memset(&s, 0, sizeof(s));
	s.in = in;
	s.name = tl_input_name(in);
	s.cb = cb;
	if (cb->parse != NULL) {
		s.w = cb->wnew(cb->ctx);
		if (cb->nthreads > 1)
			s.par = par_new(in, cb);
	}
	c = peek(&s, NULL);
	if (c == -1) {
		fail(&s, 0, "empty input: not a trace");
		c = -2;
	}
	if (c == -2) {
		scan_done(&s);
		return -1;
	}
	/* A UTF-8 byte order mark is allowed before the JSON text. */
	if (c == 0xef && s.len - s.pos >= 3 &&
	    memcmp(s.buf + s.pos, "\xef\xbb\xbf", 3) == 0) {
		s.pos += 3;
		c = peek(&s, NULL);
	}
	if (c == '{')
		rc = scan_object(&s, cb);
	else if (c == '[') {
		s.pos++;
		rc = scan_events(&s, cb);
	} else if (c < 0)
		rc = c == -2 ? -1 : fail(&s, s.len, "empty input: not a trace");
	else
		rc = fail(&s, s.pos, "not a JSON trace: expected '{' or '['");
	if (rc == 0) {
		c = peek(&s, NULL);
		if (c == -2)
			rc = -1;
		else if (c != -1)
			rc = fail(&s, s.pos, "trailing data after the trace");
	}
	scan_done(&s);
	return rc;
}
