/* See LICENSE file for copyright and license details. */
#ifndef TL_JSONSCAN_H
#define TL_JSONSCAN_H

/*
 * Streaming splitter for Chrome trace JSON.  Accepts the object form
 * {"traceEvents": [...], ...} (other top-level members before or after the
 * array) and the bare array form [...].  Never holds the document: each
 * event object is handed to the caller as one balanced byte span, then
 * dropped.  Other top-level members are handed over raw (size-capped).
 *
 * With several threads the events array is cut on all of them: the input
 * is read in blocks, each block is cut into events by a worker thread
 * (nthreads - 1 of them), or by the calling thread while it waits for
 * one, from the first place that looks like the start of an event, and
 * each event is read there (the parse callback).  The calling thread walks
 * the document in order as with one thread and takes the workers'
 * results wherever one of their events starts exactly where it is, so
 * events are merged (the merge callback) in array order, with the same
 * index and offset, whatever the thread count or the block size; where
 * a worker's guess was wrong, or an event straddles two blocks, the
 * calling thread reads the bytes itself.  Memory: nthreads + 3 blocks
 * and the workers' records of them.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/jlex.h"

struct tl_input;

/* A growable byte buffer the parse callback writes its record into. */
struct tl_scan_out {
	char *p;
	size_t len, cap;
};

/* Make room for n more bytes after out->len; return out->p + out->len. */
void *tl_scan_reserve(struct tl_scan_out *out, size_t n);

struct tl_scan_cb {
	void *ctx;
	/*
	 * One event: bytes ev[0..len) form one JSON object; index is its
	 * position in the array, offset its uncompressed byte offset.
	 * Return 0 to go on, -1 to stop with an error (already reported).
	 * Used when parse is NULL (one thread only).
	 */
	int (*event)(void *ctx, const char *ev, size_t len, uint64_t index,
	    uint64_t offset);
	/* A top-level member other than traceEvents (raw JSON value). */
	void (*meta)(void *ctx, const char *key, size_t klen, const char *val,
	    size_t vlen);

	/*
	 * The event callback in two halves, so that the first runs on
	 * several threads.  parse reads the event on any thread with its
	 * own state w (from wnew, freed with wfree), touching nothing
	 * shared, and appends what it found to out (a record that starts
	 * at out->len, 8-byte aligned); it returns 1, or 0 when it wrote
	 * nothing.  merge then gets that record (NULL if none) on the
	 * calling thread, in array order, and returns as event does.  The
	 * bytes of ev stay valid until the record is merged.
	 */
	void *(*wnew)(void *ctx);
	void (*wfree)(void *w);
	int (*parse)(void *w, struct tl_scan_out *out, const char *ev,
	    size_t len, uint64_t offset);
	int (*merge)(void *ctx, const void *rec, uint64_t index,
	    uint64_t offset);
	/*
	 * Optional: parse in one pass that also finds the event's end.
	 * ev[0..avail) holds the event from its '{' and perhaps more
	 * (ev[avail] is NUL).  Returns as parse, with *len the event's
	 * length, which is the length the scanner finds, and the record
	 * the one parse writes; or -1, having written nothing, when the
	 * bytes end first or are not plain enough to read in one pass:
	 * the scanner finds the end itself then and calls parse.
	 */
	int (*read)(void *w, struct tl_scan_out *out, const char *ev,
	    size_t avail, uint64_t offset, size_t *len);
	int nthreads;		/* threads cutting events, this one
				   included; <= 1: this one alone */
	size_t block;		/* block size; 0: TL_SCAN_BLOCK */
};

/*
 * Scan the whole input.  Returns 0, or -1 after printing
 * "prog: NAME:OFFSET: what is wrong".  The caller still closes the input.
 */
int tl_scan(struct tl_input *in, const struct tl_scan_cb *cb);

/* Largest metadata value kept (bytes); larger ones are passed as "". */
#define TL_META_MAX (4u << 20)
/* Largest single event or value accepted. */
#define TL_EVENT_MAX (256u << 20)
/* Bytes of input a worker cuts at a time (memory: tl-parse(1)). */
#define TL_SCAN_BLOCK (1u << 18)
/* Bytes of the blocks held at a time (nthreads + 3 of them), and the
   smallest block it halves them to for that. */
#define TL_SCAN_MEM (2u << 20)
#define TL_SCAN_BLOCK_MIN (1u << 16)

#endif
