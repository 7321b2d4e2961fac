/* See LICENSE file for copyright and license details. */
#ifndef TL_CALLSTACK_H
#define TL_CALLSTACK_H

/*
 * Where an op comes from: the python_function frames (tl_trace.py) and
 * the cpu_op ancestors around it on its thread, outermost first.  The
 * nn.Module path is the chain of "nn.Module: X" frames.
 */
#include "common/jsonw.h"
#include "trace/trace.h"

struct tl_callstack;

struct tl_callstack *tl_callstack_new(const struct tl_trace *t);
void tl_callstack_free(struct tl_callstack *cs);
/*
 * Another reader of cs's frames, for another thread: it shares them
 * (free it before cs) and has scratch of its own.
 */
struct tl_callstack *tl_callstack_dup(const struct tl_callstack *cs);
/*
 * Folded stack "outer;...;inner" of the frames around event i: the
 * innermost depth of them (0: all); "" when the trace's python_function
 * events were not read (TL_PY_SKIP).
 */
void tl_callstack_of(struct tl_callstack *cs, int i, size_t depth,
    struct tl_jbuf *out);
/*
 * The same text in two steps, straight into a caller's buffer: its
 * length (0: none), then its bytes (no NUL) at o, room for them there.
 */
size_t tl_callstack_len(struct tl_callstack *cs, int i, size_t depth);
void tl_callstack_put(const struct tl_callstack *cs, char *o);
/*
 * Module path "A_0/B_1/..." of event i, "" if none: cs's text, valid
 * until its next call; its length in *len.
 */
const char *tl_module_of(struct tl_callstack *cs, int i, size_t *len);

#endif
