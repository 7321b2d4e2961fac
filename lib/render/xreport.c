/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/xrank.h"
#include "render/mdtext.h"
#include "render/xreport.h"

static void
rank_name(FILE *fp, const struct tl_xrank *x, int r)
{
	if (x->rk[r].rank >= 0)
		fprintf(fp, "rank %ld (", x->rk[r].rank);
	else
		fputs("trace (", fp);
	tl_md_code(fp, x->rk[r].name, 80);
	fputc(')', fp);
}

static double
pct(int64_t a, int64_t b)
{
	return b > 0 ? (double)a / (double)b * 100 : 0;
}

/* One job? Flags at the top, and what can still be told. */
static void
job(FILE *fp, const struct tl_xrank *x)
{
	if (!x->mixed_world && !x->mixed_gpu && !x->duplicate &&
	    x->missing <= 0 && !x->unaligned)
		return;
	fputs("> **Not one complete job.**", fp);
	if (x->mixed_world)
		fputs(" The traces' process groups differ in size (different "
		    "`world_size`): they may come from different jobs.", fp);
	if (x->mixed_gpu)
		fputs(" The traces name different GPUs.", fp);
	if (x->duplicate)
		fprintf(fp, " %d trace%s repeat%s a rank another trace has.",
		    x->duplicate, x->duplicate == 1 ? "" : "s",
		    x->duplicate == 1 ? "s" : "");
	if (x->missing > 0)
		fprintf(fp, " %d of the %lld ranks the collectives' groups "
		    "name are missing.", x->missing, (long long)x->world);
	if (x->unaligned)
		fprintf(fp, " %d trace%s share%s no collective with the "
		    "reference rank: %s clock cannot be aligned and %s host "
		    "times do not overlap the others'.", x->unaligned,
		    x->unaligned == 1 ? "" : "s", x->unaligned == 1 ? "s" : "",
		    x->unaligned == 1 ? "its" : "their",
		    x->unaligned == 1 ? "its" : "their");
	fputs(" What follows holds for the collectives the traces share; "
	    "a straggler among the missing ranks cannot be seen.\n\n", fp);
}

static void
types(FILE *fp, const struct tl_xrank *x, int single)
{
	int i, verdict = 0;

	fprintf(fp, "| Collective | Instances | Bytes each (mean) | %s (ms) | "
	    "Exposed (%% of its kernel time) | Algorithm bandwidth (GB/s) | "
	    "Bus bandwidth (GB/s) | Expected (GB/s) | Under 1 MiB |\n"
	    "|---|---|---|---|---|---|---|---|---|\n", single ? "Kernel time" :
	    "Transfer after the last arrival");
	for (i = 0; i < x->ntype; i++) {
		const struct tl_xtype *t = &x->type[i];

		fprintf(fp, "| `%s` | %ld | %s | %s | %s | %s | %s | ",
		    t->type, t->count, t->bytes > 0 ?
		    tl_md_num((double)t->bytes / (double)t->count, 0) : "n/a",
		    tl_md_ms(t->xfer_ns), tl_md_num(pct(t->exposed_ns,
		    t->ranks_kernel_ns), 1), t->algbw > 0 ?
		    tl_md_num(t->algbw, 1) : "n/a", t->busbw > 0 ?
		    tl_md_num(t->busbw, 1) : "n/a");
		if (t->expected_gbs > 0 && t->busbw > 0) {
			fprintf(fp, "%s (%s %%) | %ld |\n",
			    tl_md_num(t->expected_gbs, 0),
			    tl_md_num(t->busbw / t->expected_gbs * 100, 0),
			    t->small);
			verdict = 1;
		} else
			fprintf(fp, "%s | %ld |\n", t->across_nodes < 0 ?
			    "n/a (ranks per node unknown)" : t->across_nodes ?
			    "n/a (network bandwidth unknown)" :
			    "n/a (the GPU's links unknown)", t->small);
	}
	fputc('\n', fp);
	if (x->unknown_type > 0)
		fprintf(fp, "%ld instance%s of unknown type: the trace has no "
		    "collective arguments and the kernel's name "
		    "(`ncclDevKernel_Generic`) does not say it; no bandwidth "
		    "for them.\n\n", x->unknown_type,
		    x->unknown_type == 1 ? "" : "s");
	fprintf(fp, "Bus bandwidth is the algorithm bandwidth (bytes over the "
	    "%s) times the bus-bandwidth factor of its type, as `nccl-tests` "
	    "defines it (2(n-1)/n for all-reduce, "
	    "(n-1)/n for all-gather, reduce-scatter and all-to-all, 1 "
	    "otherwise)%s. ", single ? "kernel time, which on one rank "
	    "includes the wait for the others" : "time from the last arrival "
	    "to the end", single ? "" : "");
	if (verdict)
		fprintf(fp, "Expected: the GPU's links (%s) inside a node, the "
		    "network bandwidth given across nodes; a bus bandwidth "
		    "far below it points at the link, the NIC or the "
		    "collective library's settings.",
		    x->link_name != NULL && x->link_name[0] != '\0' ?
		    x->link_name : "the GPU table");
	else
		fputs("Without the ranks per node (`--ranks-per-node`, and "
		    "`--net-bandwidth` across nodes) this is a measurement, "
		    "not a verdict on the link.", fp);
	fprintf(fp, "\n\nPer rank and step, the collectives' kernels take "
	    "%s ms, %s ms (%s %%) of it exposed: no compute kernel of the same "
	    "rank runs alongside (overlap ratio %s %%).", tl_md_ms(x->coll_ns),
	    tl_md_ms(x->exposed_ns), tl_md_num(pct(x->exposed_ns, x->coll_ns),
	    1), tl_md_num(100 - pct(x->exposed_ns, x->coll_ns), 1));
	if (x->latency_bound)
		fprintf(fp, " %ld collectives a step move under 1 MiB each: "
		    "they are latency-bound (each costs the link's latency "
		    "whatever its size); merge them into fewer, larger ones "
		    "(larger gradient buckets, `bucket_cap_mb`; the "
		    "framework's grouped collectives).", x->small_per_step);
	fputs("\n\n", fp);
}

/* Distribution of waits per step, and the most outlying ranks. */
static void
spread(FILE *fp, const struct tl_xrank *x)
{
	int i;
	int64_t ns = x->nsteps > 0 ? x->nsteps : 1;

	fprintf(fp, "Wait inside the collectives per step, over the %d "
	    "ranks: min %s ms, median %s ms, 90th percentile %s ms, max %s "
	    "ms.\n\n", x->nrk, tl_md_ms(x->wait_q[0]), tl_md_ms(x->wait_q[1]),
	    tl_md_ms(x->wait_q[2]), tl_md_ms(x->wait_q[3]));
	fprintf(fp, "The %d rank%s that arrive latest:\n\n| Rank | Arrives "
	    "after the median rank, per step (ms) | Last at | Waits per "
	    "step (ms) | Clock offset (ms) | Step (ms) |\n"
	    "|---|---|---|---|---|---|\n", x->noutlier,
	    x->noutlier == 1 ? "" : "s");
	for (i = 0; i < x->noutlier; i++) {
		const struct tl_xrk *k = &x->rk[x->outlier[i]];

		fputs("| ", fp);
		rank_name(fp, x, x->outlier[i]);
		fprintf(fp, " | %s | %ld of %ld | %s | %s | %s |\n",
		    tl_md_ms_signed(k->late_ns / ns), k->last, x->matched,
		    tl_md_ms(k->wait_ns / ns), tl_md_ms_signed(k->offset_ns),
		    tl_md_ms(k->step_ns));
	}
	fputc('\n', fp);
}

/* The traces that could not be analysed (tl-findings --failed). */
static void
failed(FILE *fp, const char *list)
{
	const char *s, *e;
	long n = 0;

	for (s = list; *s != '\0'; s = *e != '\0' ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		n += e > s;
	}
	if (n == 0)
		return;
	fprintf(fp, "> **%ld trace%s could not be analysed** and %s left out "
	    "of everything below:\n", n, n == 1 ? "" : "s", n == 1 ? "is" :
	    "are");
	for (s = list; *s != '\0'; s = *e != '\0' ? e + 1 : e) {
		char line[512];
		size_t k;

		e = s + strcspn(s, "\n");
		if (e == s)
			continue;
		k = (size_t)(e - s) < sizeof(line) - 1 ? (size_t)(e - s) :
		    sizeof(line) - 1;
		memcpy(line, s, k);
		line[k] = '\0';
		fputs("> - ", fp);
		tl_md_code(fp, line, 300);
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

void
tl_report_collectives(FILE *fp, const struct tl_findings *f)
{
	const struct tl_xrank *x = f->xr;

	if (x == NULL || x->nin == 0 || x->nrk > 1)
		return;
	fputs("## Collectives\n\n", fp);
	types(fp, x, 1);
}

void
tl_report_xrank(FILE *fp, const struct tl_findings *f)
{
	const struct tl_xrank *x = f->xr;
	int i, s;

	if (f->failed != NULL)
		failed(fp, f->failed);
	if (x == NULL || x->nin == 0)
		return;
	if (x->nrk <= 1)
		return;
	fputs("## Across ranks\n\n", fp);
	if (x->matched == 0) {
		fputs("No collective instance was recorded by more than one "
		    "rank (the stream has no `collective` column, or the ranks "
		    "share no process group): clocks cannot be aligned and "
		    "no straggler can be named. The per-rank timelines below "
		    "are each on their own clock.\n\n", fp);
		return;
	}
	job(fp, x);
	fprintf(fp, "**Clocks.** Each rank's clock offset is estimated from "
	    "the collectives (the ends of a blocking collective's kernels "
	    "coincide across its group): against ");
	rank_name(fp, x, x->ref);
	fprintf(fp, ", the offsets used range from %s to %s ms (spread %s "
	    "ms); after alignment the ends of each instance agree within %s "
	    "ms (median).\n\n", tl_md_ms_signed(x->offset_lo_ns),
	    tl_md_ms_signed(x->offset_hi_ns),
	    tl_md_ms(x->offset_hi_ns - x->offset_lo_ns),
	    tl_md_ms(x->residual_ns));
	fprintf(fp, "**Matching.** %ld collective instance%s matched across "
	    "the ranks of %ld process group%s, by %s", x->matched,
	    x->matched == 1 ? "" : "s", x->npg, x->npg == 1 ? "" : "s",
	    x->by_order ? "order (the traces have no sequence numbers nor "
	    "iterations: the profiles are assumed to start at the same "
	    "step)" : "process group and sequence (iteration and order "
	    "within it where the trace has no sequence number)");
	if (x->unmatched > 0)
		fprintf(fp, "; %ld instance%s (%ld rank record%s) left out: "
		    "not every rank recorded %s (profiles that start or stop "
		    "at different steps)", x->unmatched,
		    x->unmatched == 1 ? "" : "s", x->unmatched_rows,
		    x->unmatched_rows == 1 ? "" : "s",
		    x->unmatched == 1 ? "it" : "them");
	fprintf(fp, ". Starts of an instance spread by %s ms on average (at "
	    "most %s ms), ends by %s ms.\n\n", tl_md_ms(x->skew_start_ns),
	    tl_md_ms(x->skew_start_max_ns), tl_md_ms(x->skew_end_ns));
	fprintf(fp, "**Step.** The job's step time is the slowest rank's: "
	    "%s ms (", tl_md_ms(x->step_ns));
	rank_name(fp, x, x->slowest);
	fprintf(fp, ", median over %ld step%s).\n\n", x->nsteps,
	    x->nsteps == 1 ? "" : "s");
	s = x->straggler;
	if (s >= 0) {
		fputs("**Straggler:** ", fp);
		rank_name(fp, x, s);
		fprintf(fp, ". It arrives last at %ld of %ld collectives, on "
		    "average %s ms after the median rank, and waits %s ms a "
		    "step inside them against %s ms for the median rank. ",
		    x->rk[s].last, x->matched, tl_md_ms(x->late_ns),
		    tl_md_ms(x->rk[s].wait_ns / x->nsteps),
		    tl_md_ms(x->wait_ns));
		if (x->host_bound)
			fprintf(fp, "Its GPU is idle %s ms a step longer than "
			    "the median rank's (its kernels take %s ms "
			    "more): its host is late to launch the work (data "
			    "loading, CPU work between steps, or a slower "
			    "host); look at what its host does between the "
			    "kernels.", tl_md_ms(x->extra_idle_ns),
			    tl_md_ms_signed(x->extra_compute_ns));
		else
			fprintf(fp, "Its kernels compute %s ms a step longer "
			    "than the median rank's (its GPU idles %s ms "
			    "more): a slower GPU (clocks, thermals, a "
			    "degraded device) or more work on this rank "
			    "(uneven data or model partitioning).",
			    tl_md_ms(x->extra_compute_ns),
			    tl_md_ms_signed(x->extra_idle_ns));
		if (x->nextra > 0) {
			fputs(" Ops with the most extra kernel time a step: ",
			    fp);
			for (i = 0; i < x->nextra; i++) {
				fputs(i ? ", " : "", fp);
				tl_md_code(fp, x->extra[i].name, 60);
				fprintf(fp, " +%s ms",
				    tl_md_ms(x->extra[i].extra_ns));
			}
			fputc('.', fp);
		}
		fprintf(fp, " The other ranks wait for it: fixing it recovers "
		    "up to %s ms a step (%s %% of the job's step), the time "
		    "the collectives would start earlier if it arrived with "
		    "the second-last rank. This wait is not communication: "
		    "overlapping communication would not remove it.\n\n",
		    tl_md_ms(x->recover_ns), tl_md_num(pct(x->recover_ns,
		    x->step_ns), 1));
	} else
		fprintf(fp, "**No straggler:** no rank arrives last at most "
		    "collectives by more than the clocks' uncertainty; the "
		    "median rank waits %s ms a step inside the collectives."
		    "\n\n", tl_md_ms(x->wait_ns));
	fprintf(fp, "**Transfer.** After the last rank arrived, the "
	    "collectives took %s ms a step (%s %% of the step).",
	    tl_md_ms(x->xfer_ns), tl_md_num(pct(x->xfer_ns, x->step_ns), 1));
	if (x->slow_inst > 0)
		fprintf(fp, " %ld instance%s took over twice the median of "
		    "the same collective and size, %s ms a step more: a link "
		    "or NIC that is slow at times (the trace cannot tell "
		    "which rank's).", x->slow_inst, x->slow_inst == 1 ? "" :
		    "s", tl_md_ms(x->slow_extra_ns));
	if (x->xfer_bound)
		fputs(" With no straggler, the collectives' own time is the "
		    "cost: compare the bus bandwidth below with the link's "
		    "(a slow link or NIC shows here, not as a late rank).",
		    fp);
	fputs("\n\n", fp);
	types(fp, x, 0);
	spread(fp, x);
}

