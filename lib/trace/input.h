/* See LICENSE file for copyright and license details. */
#ifndef TL_INPUT_H
#define TL_INPUT_H

/*
 * Byte input from a file or standard input ("-"), plain or gzip (zlib
 * recognises the magic bytes).  Inflating runs on a second thread, so that
 * the caller's parsing overlaps with it.  A truncated gzip stream is
 * reported by tl_input_close, as zlib only sees it at the end.
 */
#include <stddef.h>
#include <stdint.h>

struct tl_input;

/*
 * Open path ("-" = stdin); NULL with a message printed on failure.  When
 * standard error is a terminal, a line there shows how far the input
 * has been read, rewritten in place, and is taken away at the close.
 */
struct tl_input *tl_input_open(const char *path);
/* No progress line for the inputs opened after (tl-parse -q). */
void tl_input_quiet(int on);
/*
 * Reading, without a copy: the input thread reads or inflates straight
 * into each buffer given, in the order given, 256 KiB a call; then calls
 * the notify function, on its own thread, with the request; the caller
 * takes the requests back in that order (tl_input_next).  got is the
 * count filled: n, less at the end of the input, 0 after it, -1 if it
 * failed before any byte (a failure after some shows in the next
 * request; tl_input_error says what).
 */
struct tl_input_req {
	char *buf;
	size_t n;
	long got;
};
void tl_input_notify(struct tl_input *in,
    void (*done)(void *arg, struct tl_input_req *r), void *arg);
void tl_input_give(struct tl_input *in, struct tl_input_req *r);
/* Give v[0..n) in that order, waking the input thread once. */
void tl_input_give_n(struct tl_input *in, struct tl_input_req **v, size_t n);
/*
 * Requests held at most (given, and not taken back with tl_input_next);
 * before the first give.  Default 4.
 */
void tl_input_depth(struct tl_input *in, size_t n);
/* The oldest request given and not taken yet, once filled. */
struct tl_input_req *tl_input_next(struct tl_input *in);
/*
 * Drop the requests given and not taken: those not begun are never
 * filled; waits for the one being filled.
 */
void tl_input_cancel(struct tl_input *in);
/* What went wrong in the last failed read. */
const char *tl_input_error(const struct tl_input *in);
/* Name for messages: the path, or "<stdin>". */
const char *tl_input_name(const struct tl_input *in);
/* 1 if the input is gzip-compressed (known at the open). */
int tl_input_is_gzip(const struct tl_input *in);
/*
 * Threads to read the text on by default: the CPUs the process may run
 * on (tl_ncpu), less the one the input thread takes inflating a gzip
 * input; at least 1.
 */
int tl_input_readers(const struct tl_input *in);
/* Close; return 0, or -1 with a message if the input was truncated or bad. */
int tl_input_close(struct tl_input *in);

#endif
