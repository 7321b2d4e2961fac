/* See LICENSE file for copyright and license details. */
#ifndef TL_OPROW_H
#define TL_OPROW_H

/*
 * What the pattern detectors ask of an op instance or signature of
 * lib/analysis/findings: its module's class and scope, its GEMM
 * parameters, the size and element type of its arguments, and the
 * rows around it in host order on its thread.
 */
#include <stddef.h>
#include <stdint.h>

#include "analysis/findings.h"
#include "common/json.h"
#include "common/strmap.h"
#include "model/opargs.h"

/* Parsing room for the helpers below. */
struct tl_opctx {
	struct tl_findings *f;
	struct tl_json j;
	char *j_text;		/* the params parsed into j (a copy), or NULL */
	int j_ok;		/* they are a JSON object */
	/*
	 * The arguments of the signatures parsed last (the analyses go
	 * back and forth between an op and its neighbours): a[k] holds
	 * those of signature a_op[k], -1 none; a_next is the one to reuse.
	 */
	struct tl_opargs a[8];
	int a_op[8];
	unsigned a_next;
	/*
	 * tl_op_numel of each op for slots -1 and 0 (numel[2 * op + 1 + i]),
	 * found once per op: INT64_MIN not yet.
	 */
	int64_t *numel;
	size_t nnumel;
	/* tl_op_elsize of each op for slots 0 and 1, the same way: -1 not yet */
	int *elsize;
	size_t nelsize;
};

void tl_opctx_init(struct tl_opctx *c, struct tl_findings *f);
void tl_opctx_free(struct tl_opctx *c);

/*
 * The class of the innermost instance of a module path, its last
 * component without the "_N" the profiler appends ("T5LayerNorm" for
 * "T5Stack_0/T5Block_0/T5LayerNorm_3"), into buf; "" for no path.
 */
const char *tl_mod_class(const char *path, char *buf, size_t n);
/* 1 if path is inner strictly below outer ("A_0/B_1" below "A_0"). */
int tl_mod_below(const char *path, const char *outer);
/* The top-level model class of a module path, skipping wrappers. */
const char *tl_mod_model(const char *path, char *buf, size_t n);

/* An integer model parameter of op (params JSON); 1 found. */
int tl_op_param(struct tl_opctx *c, const struct tl_fop *op,
    const char *key, int64_t *v);
/* Element idx of an integer array parameter (idx -1: an integer); 1. */
int tl_op_param_at(struct tl_opctx *c, const struct tl_fop *op,
    const char *key, int idx, int64_t *v);
/*
 * Elements of argument slot i of op, -1 when it is not a shape; the
 * largest over every tensor argument for i = -1.
 */
int64_t tl_op_numel(struct tl_opctx *c, int op, int i);
/* Bytes per element of argument slot i (0 unknown). */
int tl_op_elsize(struct tl_opctx *c, int op, int i);
/* Argument slot i of op, parsed (a static empty slot when absent). */
const struct tl_arg *tl_op_arg(struct tl_opctx *c, int op, int i);

/*
 * The kernel time a signature would save at pct % of its roofline: its
 * time no pattern explains minus its roofline time at that efficiency,
 * at least 0; -1 without an efficiency.
 */
int64_t tl_op_save_at(const struct tl_fop *op, double pct);

/*
 * The efficiencies an op's impact projection shows: those of 20, 50 and
 * 80 % of roofline above the efficiency of its time no pattern explains,
 * into t[0..3); their number.
 */
int tl_op_targets(const struct tl_fop *op, double t[3]);

/* 1 if an op name is one of the NULL-ended list. */
int tl_name_in(const char *name, const char *const *names);

/*
 * Patterns grouped by a key (a module class, an op sequence): the
 * pattern of kind k and key, made on first use, and the module
 * instances counted once per pattern.
 */
struct tl_patgroup {
	struct tl_findings *f;
	enum tl_patkind kind;
	struct tl_strmap keys, inst;
	int64_t lastinst;	/* inst's last key found, -1 none */
	int *pat;		/* key index -> f->pat index */
	size_t cap;
};

void tl_patgroup_init(struct tl_patgroup *g, struct tl_findings *f,
    enum tl_patkind kind);
void tl_patgroup_free(struct tl_patgroup *g);
/* The index in f->pat of the pattern of key, made with where. */
int tl_patgroup_get(struct tl_patgroup *g, const char *key,
    const char *where);
/* Count module instance path (f->str id) for pattern pi, once. */
void tl_patgroup_instance(struct tl_patgroup *g, int pi, uint32_t module);
/*
 * Row r explains part of pattern pi: claim it (when claim), add its
 * op and time to the evidence and its module to the instances.
 */
void tl_patgroup_row(struct tl_patgroup *g, int pi, int r, int claim);

/*
 * Signature o explains part of pattern pi: its kernels go into the
 * evidence, its rows no pattern claimed yet are claimed (with no rows,
 * the signature's unexplained time).
 */
void tl_patgroup_op(struct tl_patgroup *g, int pi, int o);
/* The index of the trace named name, 0 when none is. */
int tl_trace_index(const struct tl_findings *f, const char *name);
/* Row index at host-order position p, -1 out of range. */
int tl_row_at(const struct tl_findings *f, int p);
/* 1 if rows a and b ran on the same thread of the same trace. */
int tl_row_same_thread(const struct tl_findings *f, int a, int b);

#endif
