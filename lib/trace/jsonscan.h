/* See LICENSE file for copyright and license details. */
#ifndef TL_JSONSCAN_H
#define TL_JSONSCAN_H

/*
 * Streaming splitter for Chrome trace JSON.  Accepts the object form
 * {"traceEvents": [...], ...} (other top-level members before or after the
 * array) and the bare array form [...].  Never holds the document: each
 * event object is handed to the caller as one balanced byte span, then
 * dropped.  Other top-level members are handed over raw (size-capped).
 */
#include <stddef.h>
#include <stdint.h>

struct tl_input;

struct tl_scan_cb {
	void *ctx;
	/*
	 * One event: bytes ev[0..len) form one JSON object; index is its
	 * position in the array, offset its uncompressed byte offset.
	 * Return 0 to go on, -1 to stop with an error (already reported).
	 */
	int (*event)(void *ctx, const char *ev, size_t len, uint64_t index,
	    uint64_t offset);
	/* A top-level member other than traceEvents (raw JSON value). */
	void (*meta)(void *ctx, const char *key, size_t klen, const char *val,
	    size_t vlen);
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

#endif
