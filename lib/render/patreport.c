/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analyst.h"
#include "analysis/kcause.h"
#include "analysis/kernsel.h"
#include "analysis/oprow.h"
#include "common/util.h"
#include "render/causetext.h"
#include "render/idlerep.h"
#include "render/mdtext.h"
#include "render/patreport.h"
#include "stream/category.h"

static double
share(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part / (double)whole * 100 : 0;
}

/* A share of the GPU timeline as text: never "0.0" for a positive one. */
static const char *
tshare(const struct tl_findings *f, int64_t ns)
{
	return tl_md_share(share(ns, tl_analyst_timeline(f)));
}

void
tl_pat_anchor(char *buf, size_t n, int i)
{
	snprintf(buf, n, "pat-%d", i + 1);
}

/* The class a pattern is about, as code, or the fallback text. */
static void
where(FILE *fp, const struct tl_fpat *p, const char *none)
{
	if (p->where[0] != '\0')
		tl_md_code(fp, p->where, 80);
	else
		fputs(none, fp);
}

/* The name of the op of the evidence's first op entry, or NULL. */
static const struct tl_fop *
first_op(const struct tl_findings *f, const struct tl_fpat *p)
{
	int i;

	for (i = 0; i < p->nev; i++)
		if (p->ev[i].op >= 0)
			return &f->op[p->ev[i].op];
	return NULL;
}

static const char *
plural(long long n)
{
	return n == 1 ? "" : "s";
}


/* A known culprit's field (TL_KC_*) of the table row of pattern p. */
static const char *
culprit_field(const struct tl_findings *f, const struct tl_fpat *p, int c)
{
	return p->culprit < f->idle.n ? tl_fidle_kfield(&f->idle,
	    &f->idle.c[p->culprit], c) : "";
}

/*
 * A known culprit's finding: the idle, its largest culprit with where to
 * find its largest piece, and the other culprits of the same row.
 */
static void
culprit_issue(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	const struct tl_fidle *d = &f->idle;
	const struct tl_fculprit *x = &d->c[p->culprit];
	size_t i;
	int more = 0;
	int64_t rest = 0;

	fprintf(fp, "the GPU idles %s ms (%s %% of the timeline) in %lld gap "
	    "piece%s while the launching thread was in ",
	    tl_md_ms(p->save_ns), tshare(f, p->save_ns), p->calls,
	    plural(p->calls));
	tl_md_culprit_name(fp, x);
	if (x->context[0] != '\0' && strcmp(x->context, x->name) != 0) {
		fputs(" under ", fp);
		tl_md_code(fp, x->context, 100);
	}
	fprintf(fp, " (%s ms", tl_md_ms(x->found_ns));
	/* A trace without steps: none to count. */
	if (x->nsteps > 0)
		fprintf(fp, " in %lld step%s", x->nsteps, plural(x->nsteps));
	fprintf(fp, "; its largest piece, %s ms, at ", tl_md_ms(x->piece_ns));
	tl_md_where(fp, &x->where);
	fputs(")", fp);
	for (i = 0; i < d->n; i++) {
		const struct tl_fculprit *y = &d->c[i];

		if (i == p->culprit || y->known != x->known || y->found_ns <= 0)
			continue;
		if (more++ < 3) {	/* not a verdict: a listing limit */
			fputs(more == 1 ? "; also " : ", ", fp);
			tl_md_culprit_name(fp, y);
			fprintf(fp, " %s ms", tl_md_ms(y->found_ns));
		} else
			rest += y->found_ns;
	}
	if (more > 3)	/* not a verdict: a listing limit */
		fprintf(fp, " and %d more, %s ms", more - 3, tl_md_ms(rest));
	fputc('.', fp);
}

void
tl_pat_title(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	const struct tl_fop *op = first_op(f, p);

	switch (p->kind) {
	case TL_PAT_ATTENTION:
		fputs("Unfused attention", fp);
		if (p->where[0] != '\0') {
			fputs(" in ", fp);
			where(fp, p, "");
		}
		break;
	case TL_PAT_NORM:
		fputs("Decomposed normalization", fp);
		if (p->where[0] != '\0') {
			fputs(" in ", fp);
			where(fp, p, "");
		}
		break;
	case TL_PAT_LAYOUT:
		fputs("Layout conversions around convolutions: channels_last",
		    fp);
		break;
	case TL_PAT_LAYOUT_COPY:
		fputs("Copies that only change the layout", fp);
		if (p->where[0] != '\0') {
			fputs(" in ", fp);
			where(fp, p, "");
		}
		break;
	case TL_PAT_ELTWISE:
		fputs("Unfused elementwise chain", fp);
		if (p->where[0] != '\0') {
			fputs(" in ", fp);
			where(fp, p, "");
		}
		break;
	case TL_PAT_GEMM_ALIGN:
		fputs("GEMMs on unaligned kernels", fp);
		break;
	case TL_PAT_GEMM_ARCH:
		fputs("GEMM kernels built for an older GPU", fp);
		break;
	case TL_PAT_GEMM_TILE:
		fputs("Large GEMMs on split-K or tiny-tile kernels", fp);
		break;
	case TL_PAT_PAGEABLE:
		fputs("Host-to-device copies from pageable memory", fp);
		break;
	case TL_PAT_SYNC:
		fputs("Synchronisations: device-to-host copies followed by idle",
		    fp);
		break;
	case TL_PAT_IDLE:
		fputs(p->idle_kind == TL_IDLE_WAIT ? "Delayed GPU work: idle long "
		    "after the launch calls" : p->idle_kind == TL_IDLE_LATENCY ?
		    "Launch-bound idle: the GPU waits for the host" :
		    "Host-bound idle: the GPU waits for the host", fp);
		break;
	case TL_PAT_COMM:
		fputs("Exposed collective communication", fp);
		break;
	case TL_PAT_RECOMPUTE:
		fputs("Activation-checkpoint recompute", fp);
		break;
	case TL_PAT_GEMM_SHAPE:
	case TL_PAT_KERNEL_CAUSE:
		tl_kc_text(fp, f, p, TL_KCC_TITLE);
		break;
	case TL_PAT_CULPRIT:
		tl_md_text(fp, culprit_field(f, p, TL_KC_TITLE), 200);
		break;
	case TL_PAT_N:
		break;
	}
	if (op != NULL && (p->kind == TL_PAT_GEMM_ALIGN ||
	    p->kind == TL_PAT_GEMM_ARCH || p->kind == TL_PAT_GEMM_TILE ||
	    p->kind == TL_PAT_KERNEL_CAUSE ||
	    (p->kind == TL_PAT_GEMM_SHAPE && p->gs.cause != TL_GC_FP32))) {
		fputs(": ", fp);
		tl_md_op(fp, op->name, op->dims);
	}
}

/* "in N calls of M instances" */
static void
calls(FILE *fp, const struct tl_fpat *p)
{
	fprintf(fp, "%lld call%s", p->calls, plural(p->calls));
	if (p->instances > 0)
		fprintf(fp, " in %lld module instance%s", p->instances,
		    plural(p->instances));
}

/* The kernels per call of a chain pattern. */
static double
per_call(const struct tl_findings *f, const struct tl_fpat *p)
{
	long long n = 0;
	int i;

	(void)f;
	for (i = 0; i < p->nev; i++)
		if (p->ev[i].op >= 0)
			n += p->ev[i].count;
	return p->calls > 0 ? (double)n / (double)p->calls : 0;
}

/* "; M = 3137 and N = 3137 are not multiples of 8" for a GEMM's op. */
static void
odd_dims(FILE *fp, const struct tl_findings *f, const struct tl_fop *op,
    int want)
{
	static const char *const dim[] = { "M", "N", "K" };
	struct tl_opctx c;
	int64_t v;
	int k, n = 0;

	if (want <= 0)
		return;
	tl_opctx_init(&c, (struct tl_findings *)f);
	for (k = 0; k < 3; k++)
		if (tl_op_param(&c, op, dim[k], &v) && v % want != 0)
			fprintf(fp, "%s%s = %lld", n++ ? " and " : "; ",
			    dim[k], (long long)v);
	if (n > 0)
		fprintf(fp, " %s %d", n > 1 ? "are not multiples of" :
		    "is not a multiple of", want);
	tl_opctx_free(&c);
}

void
tl_pat_issue(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	int64_t conv = tl_findings_cat(f, "conv")->time_ns;
	const struct tl_fop *op = first_op(f, p);

	switch (p->kind) {
	case TL_PAT_ATTENTION:
		fprintf(fp, "attention runs as separate kernels (QK^T GEMM, "
		    "softmax, AV GEMM and the score-sized scaling, masking and "
		    "casts around them, %s ops a call) in ",
		    tl_md_num(per_call(f, p), 0));
		calls(fp, p);
		fprintf(fp, ": %s ms, %s %% of the GPU timeline.",
		    tl_md_ms(p->time_ns), tshare(f, p->time_ns));
		break;
	case TL_PAT_NORM:
		fprintf(fp, "the normalization runs as %s elementwise and "
		    "reduction kernels a call (", tl_md_num(per_call(f, p), 0));
		if (p->where[0] != '\0')
			fputs("statistics, scaling and casts", fp);
		else
			fputs("a mean, an rsqrt and the scaling around them",
			    fp);
		fputs(") in ", fp);
		calls(fp, p);
		fprintf(fp, ": %s ms.", tl_md_ms(p->time_ns));
		break;
	case TL_PAT_LAYOUT:
		fprintf(fp, "convolutions and normalizations launch "
		    "layout-conversion kernels (NCHW <-> NHWC transposes) "
		    "around their real work in %lld calls: %s ms", p->calls,
		    tl_md_ms(p->time_ns));
		if (conv > 0)
			fprintf(fp, ", %s %% of the convolution time (the "
			    "seeds' rule: above 20 %% is high, 10-20 %% "
			    "moderate)", tl_md_num(share(p->time_ns, conv), 1));
		fputs(".", fp);
		break;
	case TL_PAT_LAYOUT_COPY:
		fprintf(fp, "%lld copies keep the shape and type of their "
		    "tensor and change only its strides (a transpose made "
		    "contiguous): %s ms.", p->calls, tl_md_ms(p->time_ns));
		break;
	case TL_PAT_ELTWISE:
		fprintf(fp, "%s elementwise kernels run one after the other on "
		    "one tensor size (", tl_md_num(per_call(f, p), 0));
		tl_md_code(fp, p->detail, 160);
		fputs(") in ", fp);
		calls(fp, p);
		fprintf(fp, ", each reading and writing memory: %s ms.",
		    tl_md_ms(p->time_ns));
		break;
	case TL_PAT_GEMM_ALIGN:
		fputs("the GEMM library ran ", fp);
		if (p->align > 0)
			fprintf(fp, "a kernel for operands aligned to %d "
			    "element%s (the fast kernels need %d)", p->align,
			    plural(p->align), p->align_want);
		else
			fprintf(fp, "below 40 %% of the roofline with a "
			    "dimension that is not a multiple of %d",
			    p->align_want);
		if (tl_arch_older(p->karch, p->garch)) {
			fputs(", built for ", fp);
			tl_md_code(fp, p->karch, 16);
			fputs(" on a ", fp);
			tl_md_code(fp, p->garch, 16);
			fputs(" GPU", fp);
		}
		if (op != NULL)
			odd_dims(fp, f, op, p->align_want);
		fprintf(fp, ": %s ms.", tl_md_ms(p->time_ns));
		break;
	case TL_PAT_GEMM_ARCH:
		fputs("the GEMM runs a kernel built for ", fp);
		tl_md_code(fp, p->karch, 16);
		fputs(" on a ", fp);
		tl_md_code(fp, p->garch, 16);
		fprintf(fp, " GPU, which misses the newer GPU's matrix "
		    "instructions: %s ms.", tl_md_ms(p->time_ns));
		break;
	case TL_PAT_GEMM_TILE:
		fputs("a GEMM of more than 4M outputs runs ", fp);
		if (p->splitk)
			fputs("a split-K kernel", fp);
		else
			fprintf(fp, "a %lldx%lld-tile kernel",
			    (long long)p->tile_m, (long long)p->tile_n);
		fprintf(fp, " below 50 %% of its roofline: %s ms.",
		    tl_md_ms(p->time_ns));
		break;
	case TL_PAT_PAGEABLE:
		fprintf(fp, "%lld cop%s from pageable host memory take%s %s ms "
		    "of GPU time, %s ms of it with no other GPU work beside; "
		    "a pageable copy also blocks the host until it is done.",
		    p->calls, p->calls == 1 ? "y" : "ies", p->calls == 1 ?
		    "s" : "", tl_md_ms(p->time_ns), tl_md_ms(p->save_ns));
		break;
	case TL_PAT_SYNC:
		fprintf(fp, "%lld device-to-host cop%s (", p->calls,
		    p->calls == 1 ? "y" : "ies");
		if (op != NULL)
			tl_md_code(fp, op->name, 60);
		fprintf(fp, "%s) make%s the host wait for the GPU, and the GPU "
		    "then idles %s ms until the host sends more work.",
		    p->nev > 1 ? " and others" : "", p->calls == 1 ? "s" : "",
		    tl_md_ms(p->save_ns));
		break;
	case TL_PAT_IDLE:
		fprintf(fp, "the GPU idles %s ms (%s %% of the timeline) in "
		    "%lld gaps waiting for work: ", tl_md_ms(p->save_ns),
		    tshare(f, p->save_ns), p->calls);
		if (p->part[2] >= 0) {
			fprintf(fp, "%s ms before the host reached the next op, "
			    "%s ms inside the op before its launch call, %s ms "
			    "after the launch call within %s us of it (launch "
			    "latency)", tl_md_ms(p->part[0]),
			    tl_md_ms(p->part[1]), tl_md_ms(p->part[2]),
			    tl_md_num(TL_LAUNCH_LATENCY_NS / 1e3, 0));
			if (p->part[3] > 0 && p->idle_kind == TL_IDLE_WAIT)
				fprintf(fp, ", and %s ms later than that: that "
				    "work started long after its launch call, "
				    "so it waited on something the trace does "
				    "not record (an event or another stream, "
				    "work of another process), or the trace's "
				    "host and GPU clocks are out of step",
				    tl_md_ms(p->part[3]));
			else if (p->part[3] > 0)
				fprintf(fp, ", and %s ms later than that (waits "
				    "the trace does not record)",
				    tl_md_ms(p->part[3]));
			fputc('.', fp);
		} else
			fprintf(fp, "%s ms before the host reached the next op, "
			    "%s ms after it (the stream has no launch times to "
			    "split it further).", tl_md_ms(p->part[0]),
			    tl_md_ms(p->save_ns - p->part[0]));
		tl_md_idle_rest(fp, f);
		break;
	case TL_PAT_COMM:
		fprintf(fp, "collective communication that no computation "
		    "overlaps takes %s ms, %s %% of the timeline.",
		    tl_md_ms(p->time_ns), tshare(f, p->time_ns));
		break;
	case TL_PAT_RECOMPUTE:
		fprintf(fp, "activation checkpointing re-runs %lld forward ops "
		    "in the backward pass", p->calls);
		if (p->instances > 0)
			fprintf(fp, " (in %lld module instances)",
			    p->instances);
		fprintf(fp, ": %s ms, %s %% of the op kernel time.",
		    tl_md_ms(p->time_ns), tl_md_num(share(p->time_ns,
		    f->cov.op_ns), 1));
		break;
	case TL_PAT_GEMM_SHAPE:
	case TL_PAT_KERNEL_CAUSE:
		tl_kc_text(fp, f, p, TL_KCC_ISSUE);
		break;
	case TL_PAT_CULPRIT:
		culprit_issue(fp, f, p);
		break;
	case TL_PAT_N:
		break;
	}
}

/* The op that names a synchronisation in the user's code. */
static const char *
sync_call(const char *op)
{
	if (strstr(op, "local_scalar_dense") != NULL)
		return "`.item()` (or `bool()`/`int()`/`float()` of a tensor, "
		    "a Python `if` on one)";
	if (strstr(op, "nonzero") != NULL)
		return "`nonzero()`, `torch.where(cond)` or boolean indexing";
	return "`.cpu()`, `.tolist()`, `.numpy()` or printing a tensor";
}

void
tl_pat_action(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	const struct tl_fop *op = first_op(f, p);

	switch (p->kind) {
	case TL_PAT_ATTENTION:
		fputs("Path A: compute the attention of ", fp);
		where(fp, p, "these layers");
		fputs(" with `torch.nn.functional.scaled_dot_product_attention` "
		    "(flash or memory-efficient backend; an additive bias or "
		    "mask goes in `attn_mask`), or the framework's fused "
		    "attention option; one kernel then replaces the chain", fp);
		if (f->cov.bwd)
			fputs(", and its fused backward the backward chain", fp);
		fputs(". Or, keeping the model as is (Path B): the two GEMMs "
		    "multiply activations, so weight quantization does not "
		    "apply; give the softmax and GEMM shapes to the kernel "
		    "team as reproducers (`tl-replay`).", fp);
		if (p->short_seq)
			fputs(" Sequences under 1024 keep even a fused kernel "
			    "at a low share of its roofline.", fp);
		break;
	case TL_PAT_NORM:
		fputs("Path A: use a fused normalization for ", fp);
		where(fp, p, "these chains");
		fputs(" (`torch.nn.RMSNorm`/`torch.nn.LayerNorm`, the "
		    "framework's fused norm, or `torch.compile` of the module): "
		    "one kernel reads the input and writes the output once. "
		    "Or, keeping the model as is (Path B): register a fused "
		    "kernel for the module (a kernel-library norm); the chain "
		    "is memory-bound, so the saving is the traffic of the "
		    "intermediate tensors.", fp);
		break;
	case TL_PAT_LAYOUT:
		fputs("Path A: run the model in channels_last: "
		    "`model.to(memory_format=torch.channels_last)` and the "
		    "inputs too, which removes the conversions around each "
		    "convolution (the seeds expect 30-45 % of convolution time "
		    "back when the overhead is high). Or, keeping the model as "
		    "is (Path B): give the convolution shapes to the DNN "
		    "library team (`tl-replay`) for kernels that take the "
		    "current layout directly.", fp);
		break;
	case TL_PAT_LAYOUT_COPY:
		fputs("Path A: keep one layout from producer to consumer: drop "
		    "the `.contiguous()` after a transpose or permute where the "
		    "next op accepts strided input, or let `torch.compile` fold "
		    "the copy into its neighbours. Or, keeping the model as is "
		    "(Path B): the copies are plain memory traffic; only "
		    "removing them saves their time.", fp);
		break;
	case TL_PAT_ELTWISE:
		fputs("Path A: fuse the chain with `torch.compile` of ", fp);
		where(fp, p, "the code around it");
		fputs(" (or write it as one fused op). Or, keeping the model as "
		    "is (Path B): a fused kernel for the chain from the kernel "
		    "team; each op alone is memory-bound, so tuning them one "
		    "by one saves little.", fp);
		break;
	case TL_PAT_GEMM_ALIGN:
		fprintf(fp, "Path A: pad the dimensions to a multiple of %d "
		    "elements (%d bytes): the vocabulary, the hidden size or "
		    "the sequence length, so that the aligned kernels apply. Or, "
		    "keeping the model as is (Path B): give the shape to the "
		    "GEMM library team (`tl-replay`); an aligned kernel with "
		    "an edge case would serve it.", p->align_want > 0 ?
		    p->align_want : 8, p->align_want > 0 ? 16 : 16);
		break;
	case TL_PAT_GEMM_ARCH:
		fputs("Path A: use a framework and library build that carries "
		    "kernels for ", fp);
		tl_md_code(fp, p->garch, 16);
		fputs(". Or, keeping the model as is (Path B): give the shape "
		    "to the GEMM library team (`tl-replay`): its heuristics "
		    "fell back to an old kernel for it.", fp);
		break;
	case TL_PAT_GEMM_TILE:
		fputs("Path A: little at the model level (merging GEMMs changes "
		    "their shape). Path B: tune the GEMM library's kernel "
		    "choice for this shape (its tuning tools, or a reproducer "
		    "for the library team with `tl-replay`).", fp);
		break;
	case TL_PAT_PAGEABLE:
		fputs("Path A: copy from pinned memory (`pin_memory=True` in "
		    "the data loader, `tensor.pin_memory()`), with "
		    "`non_blocking=True`, and prefetch the next batch so the "
		    "copy overlaps computation. Path B: none on the kernel "
		    "side; the copy engine waits for the host.", fp);
		break;
	case TL_PAT_SYNC:
		fputs("Path A: remove the synchronisation from the step: ", fp);
		fputs(sync_call(op != NULL ? op->name : ""), fp);
		fputs(" make the host wait for the GPU; keep the value on the "
		    "GPU, read it every N steps, or read it after the step. "
		    "Path B: none on the kernel side.", fp);
		break;
	case TL_PAT_IDLE:
		if (p->idle_kind == TL_IDLE_WAIT)
			fputs("Path A: find what the delayed work waited for: "
			    "open the largest gaps (the rough report lists "
			    "them) in a trace viewer and look for a wait on an "
			    "event or another stream (`wait_stream`, "
			    "`wait_event`), other processes on the GPU, or "
			    "host and GPU timestamps out of step; a trace "
			    "records the launch, not the wait.", fp);
		else if (p->idle_kind == TL_IDLE_LATENCY)
			fputs("Path A: fewer, larger kernels: capture the step "
			    "in a GPU graph (`torch.compile(mode=\"reduce-"
			    "overhead\")`), fuse small ops (`torch.compile`), "
			    "larger batches.", fp);
		else if (p->idle_kind == TL_IDLE_IN_OP)
			fputs("Path A: the host spends the gaps inside ops "
			    "before they launch (library heuristics, memory "
			    "allocation, lazy loading, first-call compilation): "
			    "warm up before profiling, preallocate, keep shapes "
			    "static so the caches hit.", fp);
		else
			fputs("Path A: the host is late to the next op "
			    "(Python, data loading, CPU-side ops): capture the "
			    "step in a GPU graph (`torch.compile(mode="
			    "\"reduce-overhead\")`), move data loading to worker "
			    "processes, use larger batches.", fp);
		fputs(" Path B: none on the kernel side; faster kernels make "
		    "the gaps a larger share.", fp);
		break;
	case TL_PAT_COMM:
		if (tl_findings_straggler(f) >= 0)
			fputs("Path A: much of this time is the other ranks "
			    "waiting inside the collectives for the straggler "
			    "(see Across ranks): make it arrive on time (its "
			    "extra compute or its late host, as that section "
			    "says); overlapping communication does not remove "
			    "a wait for a late rank. Path B: none on the "
			    "collective side for that part.", fp);
		else if (f->ntr > 1)
			fputs("Path A: overlap collective communication with "
			    "computation (bucket sizes, asynchronous "
			    "collectives, fewer and larger collectives); no "
			    "rank arrives late (see Across ranks). Path B: "
			    "compare the bus bandwidth there with the link's; "
			    "check the collective library's settings and the "
			    "topology.", fp);
		else
			fputs("Path A: overlap collective communication with "
			    "computation (bucket sizes, asynchronous "
			    "collectives, fewer and larger collectives); "
			    "analyse every rank's stream together to tell a "
			    "straggler from a slow link. Path B: check the "
			    "collective library's settings and the topology.",
			    fp);
		break;
	case TL_PAT_RECOMPUTE:
		fputs("Path A: checkpoint fewer layers where memory allows, or "
		    "checkpoint selectively (recompute the cheap ops, keep the "
		    "GEMM and convolution outputs); this trades memory for the "
		    "time above. Path B: none; the recompute is the model's "
		    "choice.", fp);
		break;
	case TL_PAT_GEMM_SHAPE:
	case TL_PAT_KERNEL_CAUSE:
		tl_kc_text(fp, f, p, TL_KCC_ACTION);
		break;
	case TL_PAT_CULPRIT:
		fputs("Path A: ", fp);
		fputs(culprit_field(f, p, TL_KC_ACTION), fp);
		fputs(" Path B: ", fp);
		fputs(culprit_field(f, p, TL_KC_DEEPER)[0] != '\0' ?
		    culprit_field(f, p, TL_KC_DEEPER) : "none on the kernel "
		    "side: the GPU waits for the host; faster kernels make "
		    "the gaps a larger share.", fp);
		break;
	case TL_PAT_N:
		break;
	}
}

void
tl_pat_impact(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	if (p->unquantified) {
		fputs("not quantified: ", fp);
		if (p->kind == TL_PAT_ATTENTION)
			fputs("no perf model or GPU roof for the fused op.", fp);
		else if (p->kind == TL_PAT_NORM)
			fputs("no bandwidth (baseline or roof) or shapes for "
			    "the one pass.", fp);
		else
			fputs("the ops have no perf model.", fp);
		return;
	}
	if (p->upper || (p->save_lo_ns <= 0 && p->save_hi_ns > 0))
		fputs("up to ", fp);
	if (p->save_lo_ns > 0 && p->save_lo_ns != p->save_hi_ns)
		fprintf(fp, "%s-%s ms (%s-%s %% of the GPU timeline)",
		    tl_md_ms(p->save_lo_ns), tl_md_ms(p->save_hi_ns),
		    tshare(f, p->save_lo_ns), tshare(f, p->save_hi_ns));
	else
		fprintf(fp, "%s ms (%s %% of the GPU timeline)",
		    tl_md_ms(p->save_hi_ns), tshare(f, p->save_hi_ns));
	switch (p->kind) {
	case TL_PAT_ATTENTION:
		fprintf(fp, ": the chain's %s ms minus the fused attention "
		    "op's %s-%s ms, its perf model (%lld FLOPs, %lld bytes) at "
		    "%s-%s %% of its roofline", tl_md_ms(p->time_ns),
		    tl_md_ms(p->model_hi_ns), tl_md_ms(p->model_lo_ns),
		    (long long)p->flops, (long long)p->bytes,
		    tl_md_num(p->eff_lo, 0), tl_md_num(p->eff_hi, 0));
		break;
	case TL_PAT_NORM:
		fprintf(fp, ": the chain's %s ms minus one pass over the input "
		    "(%lld bytes read and written) at %s TB/s, %s, %s ms",
		    tl_md_ms(p->time_ns), (long long)p->bytes,
		    tl_md_num(p->tbs, 3), p->tbs_baseline ? "the elementwise "
		    "baseline of this trace" : "the bandwidth roof (the trace "
		    "has no elementwise baseline)", tl_md_ms(p->model_lo_ns));
		break;
	case TL_PAT_LAYOUT:
		fputs(": the layout kernels' time", fp);
		break;
	case TL_PAT_LAYOUT_COPY:
		fputs(": the copies' time", fp);
		break;
	case TL_PAT_ELTWISE:
		fprintf(fp, ": the chain moves %lld bytes, one fused kernel "
		    "%lld (its largest op's), so the %s ms scale by %s %%",
		    (long long)p->bytes, (long long)p->bytes_after,
		    tl_md_ms(p->time_ns), tl_md_num(share(p->bytes -
		    p->bytes_after, p->bytes), 1));
		break;
	case TL_PAT_GEMM_ALIGN:
	case TL_PAT_GEMM_ARCH:
	case TL_PAT_GEMM_TILE:
		fputs(" if the GEMMs reach up to 80 % of their roofline (the "
		    "ranking takes 50 %, or 80 % when they are above it)", fp);
		break;
	case TL_PAT_PAGEABLE:
		fputs(": the copy time no other GPU work overlaps", fp);
		break;
	case TL_PAT_SYNC:
		fputs(": the idle right after the copies", fp);
		break;
	case TL_PAT_IDLE:
		fputs(": the gaps", fp);
		break;
	case TL_PAT_COMM:
		fputs(": the exposed communication", fp);
		break;
	case TL_PAT_RECOMPUTE:
		fputs(": the recomputed ops' time", fp);
		break;
	case TL_PAT_GEMM_SHAPE:
	case TL_PAT_KERNEL_CAUSE:
		tl_kc_text(fp, f, p, TL_KCC_IMPACT);
		break;
	case TL_PAT_CULPRIT:
		fputs(": the idle this culprit covers in the gaps (the generic "
		    "idle and synchronisation findings leave it out)", fp);
		break;
	case TL_PAT_N:
		break;
	}
	fputc('.', fp);
}

void
tl_prio_text(FILE *fp, const struct tl_findings *f, enum tl_priority p,
    enum tl_priority seed, int rule, int capped, double sh, double eff,
    int timeline)
{
	const struct tl_findrules *r = &f->rules;
	const char *of = timeline & 1 ? "of the GPU timeline" : "of compute";
	/*
	 * A pattern's counterpart of an op's efficiency is the share of its
	 * time the fix leaves.
	 */
	const char *effw = timeline & 2 ? "the fix leaves %s %% of its time" :
	    "%s %% efficiency";

	fprintf(fp, "%s (seed rule: ", tl_priority_name(seed));
	switch (rule) {
	case TL_PR_CRITICAL:
		fprintf(fp, "%s %% %s, above %s %%, and ", tl_md_num(sh, 1),
		    of, tl_md_num(r->critical_pct, 0));
		fprintf(fp, effw, tl_md_num(eff, 1));
		fprintf(fp, ", below %s %%", tl_md_num(r->critical_eff, 0));
		break;
	case TL_PR_HIGH_SHARE:
		fprintf(fp, "%s %% %s, above %s %%", tl_md_num(sh, 1), of,
		    tl_md_num(r->high_pct, 0));
		break;
	case TL_PR_HIGH_EFF:
		fprintf(fp, effw, tl_md_num(eff, 1));
		fprintf(fp, ", below %s %%", tl_md_num(r->high_eff, 0));
		break;
	case TL_PR_MEDIUM_SHARE:
		fprintf(fp, "%s %% %s, above %s %%", tl_md_num(sh, 1), of,
		    tl_md_num(r->medium_pct, 0));
		break;
	case TL_PR_MEDIUM_PATTERN:
		fputs("a notable pattern", fp);
		break;
	default:
		fprintf(fp, "%s %% %s", tl_md_num(sh, 1), of);
		break;
	}
	fputc(')', fp);
	if (capped && (timeline & 4))
		fprintf(fp, ", lowered to %s: what it recovers is not "
		    "quantified, and its ops take under %s %% of the GPU "
		    "timeline, the most it can recover", tl_priority_name(p),
		    tl_md_num(p == TL_PRIO_LOW ? r->slot_pct : r->cap_pct, 1));
	else if (capped)
		fprintf(fp, ", lowered to %s: it recovers under %s %% of the "
		    "GPU timeline", tl_priority_name(p), tl_md_num(p ==
		    TL_PRIO_LOW ? r->slot_pct : r->cap_pct, 1));
}

void
tl_pat_prio(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p)
{
	int tl = p->kind == TL_PAT_COMM || p->kind == TL_PAT_PAGEABLE ||
	    p->kind == TL_PAT_SYNC || p->kind == TL_PAT_IDLE ||
	    p->kind == TL_PAT_CULPRIT;
	double sh = tl ? share(p->save_ns, tl_analyst_timeline(f)) :
	    f->op_total_us > 0 ? (double)p->time_ns / 1e3 / f->op_total_us *
	    100 : 0;

	tl_prio_text(fp, f, p->prio, p->seed_prio, p->prio_rule, p->capped, sh,
	    p->eff, tl | 2 | (p->unquantified ? 4 : 0));
}

/* 1 if a frame only dispatches a module call or a Python builtin. */
static int
wrapper_frame(const char *s, size_t n)
{
	static const char *const skip[] = {
		"_call_impl", "_wrapped_call_impl", "nn.Module: ", NULL
	};
	int k;

	for (k = 0; skip[k] != NULL; k++) {
		size_t m = strlen(skip[k]);
		const char *e = s + n;
		const char *q;

		for (q = s; q + m <= e; q++)
			if (memcmp(q, skip[k], m) == 0)
				return 1;
	}
	return 0;
}

void
tl_md_stack(FILE *fp, const char *stack, int max, const char *indent)
{
	const char *fr[64], *s, *e;
	size_t len[64];
	int n = 0, k, first;
	char *buf;

	for (s = stack; *s != '\0'; s = *e != '\0' ? e + 1 : e) {
		if ((e = strchr(s, ';')) == NULL)
			e = s + strlen(s);
		if (e == s || wrapper_frame(s, (size_t)(e - s)))
			continue;
		if (n == 64) {
			memmove(fr, fr + 1, sizeof(fr[0]) * 63);
			memmove(len, len + 1, sizeof(len[0]) * 63);
			n--;
		}
		fr[n] = s;
		len[n++] = (size_t)(e - s);
	}
	first = n > max ? n - max : 0;
	if (first > 0)
		fprintf(fp, "%s- ... %d outer frame%s\n", indent, first,
		    first == 1 ? "" : "s");
	for (k = first; k < n; k++) {
		buf = tl_malloc(len[k] + 1);
		memcpy(buf, fr[k], len[k]);
		buf[len[k]] = '\0';
		fprintf(fp, "%s- ", indent);
		tl_md_code(fp, buf, 200);
		fputc('\n', fp);
		free(buf);
	}
}

/* The evidence table of a pattern: its ops, then its kernels. */
static void
evidence(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p,
    int max)
{
	const char *what = p->kind == TL_PAT_IDLE ? "Idle before (ms)" :
	    p->kind == TL_PAT_SYNC ? "Idle after (ms)" : "Time (ms)";
	int i, n = 0, nk = 0;

	for (i = 0; i < p->nev; i++)
		if (p->ev[i].op >= 0)
			n++;
		else
			nk++;
	if (n > 0) {
		fprintf(fp, "\n| Op | Shapes | Count | %s |\n|---|---|---|---|\n",
		    what);
		for (i = 0; i < p->nev && i < max; i++) {
			const struct tl_fop *op;

			if (p->ev[i].op < 0)
				continue;
			op = &f->op[p->ev[i].op];
			fputs("| ", fp);
			tl_md_code(fp, op->name, 80);
			fputs(" | ", fp);
			tl_md_code(fp, op->dims, 80);
			fprintf(fp, " | %lld | %s |\n", p->ev[i].count,
			    tl_md_ms(p->ev[i].time_ns));
		}
		if (n > max)
			fprintf(fp, "| %d more | | | |\n", n - max);
	}
	if (nk > 0) {
		fputs("\n| Kernel | Count | Time (ms) |\n|---|---|---|\n", fp);
		for (i = n; i < p->nev && i < n + max; i++) {
			fputs("| ", fp);
			tl_md_code(fp, tl_fstr(f, p->ev[i].kname), 110);
			fprintf(fp, " | %lld | %s |\n", p->ev[i].count,
			    tl_md_ms(p->ev[i].time_ns));
		}
		if (nk > max)
			fprintf(fp, "| %d more | | |\n", nk - max);
	}
	fputc('\n', fp);
}

void
tl_md_gaps(FILE *fp, const struct tl_findings *f, const struct tl_ftrace *t)
{
	const struct tl_fidle *d = &f->idle;
	size_t k = (size_t)(t - f->tr);
	int g, first = k < d->ntr && d->tr[k].listed > 0, short_gaps = 0;

	fputs("| Start (us, trace time) | From the trace's start (ms) | Length "
	    "(ms) | Step | GPU, stream | pid, tid | Host not yet in the op "
	    "(ms) | Host in the op before the launch (ms) | After the launch "
	    "(ms) | After op | Next op | Its module |\n"
	    "|---|---|---|---|---|---|---|---|---|---|---|---|\n", fp);
	for (g = 0; g < t->ntop; g++) {
		const struct tl_fgap *gp = &t->top[g];
		int r = gp->row_after;
		struct tl_fwhere w;

		/* Shorter than tl-parse lists: noise, not worth a look. */
		if (first && gp->listed < 0) {
			short_gaps++;
			continue;
		}
		tl_fidle_gap_at(d, k, gp->start_ns, gp->len_ns, gp->listed, &w);
		fprintf(fp, "| %s | %s | %s | ",
		    tl_md_num((double)gp->start_ns / 1e3, 3),
		    first ? tl_md_ms(w.offset_ns) : "n/a",
		    tl_md_ms(gp->len_ns));
		if (gp->listed >= 0) {
			if (w.step != TL_FNONE)
				fprintf(fp, "%lld", (long long)w.step);
			fputs(" | ", fp);
			tl_md_code(fp, w.device, 40);
			if (w.stream != TL_FNONE)
				fprintf(fp, ", %lld", (long long)w.stream);
			fputs(" | ", fp);
			tl_md_code(fp, w.pid, 40);
			fputs(", ", fp);
			tl_md_code(fp, w.tid, 40);
			fputs(" | ", fp);
		} else
			fputs("n/a | n/a | n/a | ", fp);
		fprintf(fp, "%s | ", tl_md_ms(gp->host_late_ns));
		if (gp->in_op_ns >= 0)
			fprintf(fp, "%s | %s | ", tl_md_ms(gp->in_op_ns),
			    tl_md_ms(gp->len_ns - gp->host_late_ns -
			    gp->in_op_ns));
		else
			fputs("n/a | n/a | ", fp);
		tl_md_code(fp, gp->before, 60);
		fputs(" | ", fp);
		tl_md_code(fp, gp->after, 60);
		fputs(" | ", fp);
		if (r >= 0 && r < f->nrow && f->row[r].module != 0)
			tl_md_code(fp, tl_fstr(f, f->row[r].module), 120);
		else
			fputs("n/a", fp);
		fputs(" |\n", fp);
	}
	fputs("\nTo find a gap in Perfetto or chrome://tracing: their time "
	    "axis starts at the trace's first event, so go to the offset "
	    "(ms) on the GPU row and stream given; the trace JSON holds the "
	    "start as ts (us); the launching thread's row (pid, tid) shows "
	    "what the host was doing.", fp);
	if (!first)
		fputs(" Step, GPU and thread are n/a: the stream lists no idle "
		    "gaps (made with --no-culprits or by an older tl-parse, or "
		    "no gap is 10 us or longer).", fp);
	if (short_gaps > 0)
		fprintf(fp, " %d of the %d longest gaps are under 10 us (summed "
		    "as noise, not listed).", short_gaps, t->ntop);
	fputs("\n\n", fp);
}

void
tl_pat_detail(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p,
    int rough)
{
	const struct tl_fop *op = first_op(f, p);

	fputs("- **Found:** ", fp);
	tl_pat_issue(fp, f, p);
	fputs("\n- **Recovers:** ", fp);
	tl_pat_impact(fp, f, p);
	fputs("\n- **Priority:** ", fp);
	tl_pat_prio(fp, f, p);
	fputc('\n', fp);
	if (p->example[0] != '\0') {
		fputs("- **Module instance (example):** ", fp);
		tl_md_code(fp, p->example, 200);
		fputc('\n', fp);
	}
	if (op != NULL && op->call_stack[0] != '\0' && p->kind != TL_PAT_COMM) {
		fputs("- **Call stack of ", fp);
		tl_md_code(fp, op->name, 60);
		fputs("** (innermost last):\n", fp);
		tl_md_stack(fp, op->call_stack, rough ? 12 : 6, "  ");
	}
	evidence(fp, f, p, rough ? 20 : 8);
	if (p->kind == TL_PAT_IDLE) {
		int i;

		fputs("Largest gaps:\n\n", fp);
		for (i = 0; i < f->ntr; i++)
			tl_md_gaps(fp, f, &f->tr[i]);
	}
}

const char *
tl_report_model(const struct tl_findings *f, char *buf, size_t n)
{
	struct {
		char name[96];
		int64_t ns;
	} top[16];
	char cls[96];
	int nt = 0, r, k, best, more;
	int64_t big;
	size_t len = 0;
	/*
	 * By module id: its entry in top + 1, -1 none (no class, or top was
	 * full when it came), 0 not yet known.  Entries stay where they are.
	 */
	int *slot = tl_calloc(tl_strtab_count(f->str) + 1, sizeof(*slot));

	for (r = 0; r < f->nrow; r++) {
		uint32_t m = f->row[r].module;

		/* Forward ops: recompute in backward starts below the model. */
		if (m == 0 || f->row[r].bwd)
			continue;
		if (slot[m] == 0) {
			slot[m] = -1;
			tl_mod_model(tl_fstr(f, m), cls, sizeof(cls));
			if (cls[0] == '\0')
				continue;
			for (k = 0; k < nt; k++)
				if (strcmp(top[k].name, cls) == 0)
					break;
			if (k == nt) {
				if (nt == 16)
					continue;
				snprintf(top[nt].name, sizeof(top[nt].name),
				    "%s", cls);
				top[nt++].ns = 0;
			}
			slot[m] = k + 1;
		}
		if (slot[m] > 0)
			top[slot[m] - 1].ns += f->row[r].time_ns;
	}
	free(slot);
	buf[0] = '\0';
	for (big = 0, k = 0; k < nt; k++)
		if (top[k].ns > big)
			big = top[k].ns;
	/*
	 * The classes that hold at least 5 % of the largest one's time (not a
	 * verdict: which names a title shows).
	 */
	for (k = 0, more = 0; k < nt; k++)
		if (top[k].ns * 20 < big) {	/* not a verdict: listing */
			top[k].ns = -1;
			more++;
		}
	for (k = 0; k < 3 && nt > 0; k++) {
		for (best = 0, r = 1; r < nt; r++)
			if (top[r].ns > top[best].ns)
				best = r;
		if (top[best].ns < 0)
			break;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s",
		    k ? ", " : "", top[best].name);
		top[best].ns = -1;
		if (len >= n)
			break;
	}
	if (nt - more > 3 && len < n)	/* not a verdict: listing */
		snprintf(buf + len, n - len, " and %d more", nt - more - 3);
	return buf;
}
