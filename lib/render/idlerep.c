/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "analysis/culprits.h"
#include "render/idlerep.h"
#include "render/mdtext.h"

static double
pct(int64_t ns, int64_t total)
{
	return total > 0 ? (double)ns / (double)total * 100.0 : 0;
}

void
tl_md_culprit_name(FILE *fp, const struct tl_fculprit *x)
{
	if (strcmp(x->kind, "none") == 0 ||
	    strcmp(x->kind, "no_launch") == 0) {
		fputs(x->kind[1] == 'o' ? "no host activity recorded" :
		    "no launch call in the trace", fp);
		if (x->warm)
			fputs(", warm-up", fp);
		return;
	}
	if (strcmp(x->kind, "launch") == 0)
		fputs("launch latency: ", fp);
	else if (strcmp(x->kind, "sync") == 0)
		fputs("synchronisation wait: ", fp);
	tl_md_code(fp, x->name, 100);
	if (strcmp(x->kind, "python") == 0)
		fputs(" (Python)", fp);
	else if (strcmp(x->kind, "cpu_op") == 0)
		fputs(" (CPU op)", fp);
	else if (strcmp(x->kind, "annotation") == 0)
		fputs(" (annotation)", fp);
	if (x->warm)
		fputs(", warm-up", fp);
	if (x->tid[0] != '\0') {
		fputs(", thread ", fp);
		tl_md_code(fp, x->tid, 40);
		fputs(" while the launching thread waited", fp);
	}
}

void
tl_md_idle_rest(FILE *fp, const struct tl_findings *f)
{
	const struct tl_fidle *d = &f->idle;
	const struct tl_fculprit *x[3];
	int64_t rest_ns, none = 0, launch = 0;
	long long rest;
	size_t n = tl_fidle_unknown(d, x, 3, &rest_ns, &rest), i;
	int any = 0;

	for (i = 0; i < d->ntr; i++) {
		any |= d->tr[i].has;
		none += d->tr[i].none_ns;
		launch += d->tr[i].launch_ns + d->tr[i].nolaunch_ns;
	}
	if (!any)
		return;
	if (n > 0) {
		fputs(" Across all listed gaps (this and the other idle "
		    "findings together), host activity that no known cause "
		    "covers (share/tl/culprits.tsv, --culprits): ", fp);
		for (i = 0; i < n; i++) {
			if (i > 0)
				fputs(", ", fp);
			tl_md_culprit_name(fp, x[i]);
			if (strcmp(x[i]->context, x[i]->name) != 0) {
				fputs(" under ", fp);
				tl_md_code(fp, x[i]->context, 100);
			}
			fprintf(fp, " %s ms in %lld gap%s", tl_md_ms(x[i]->ns),
			    x[i]->gaps, x[i]->gaps == 1 ? "" : "s");
		}
		if (rest > 0)
			fprintf(fp, " and %lld more, %s ms", rest,
			    tl_md_ms(rest_ns));
		fputs(" (the culprit table says where each is).", fp);
	}
	fprintf(fp, " Not attributable to host work, across all listed gaps: "
	    "%s ms with no host "
	    "activity recorded on the launching thread, %s ms from the launch "
	    "calls to the GPU work.", tl_md_ms(none), tl_md_ms(launch));
}

void
tl_md_where(FILE *fp, const struct tl_fwhere *w)
{
	fprintf(fp, "ts %s us (+%s ms)", tl_md_num((double)w->ts_ns / 1e3, 3),
	    tl_md_ms(w->offset_ns));
	if (w->step != TL_FNONE)
		fprintf(fp, ", step %lld", (long long)w->step);
	fputs(", GPU ", fp);
	tl_md_code(fp, w->device, 40);
	if (w->stream != TL_FNONE)
		fprintf(fp, " stream %lld", (long long)w->stream);
	if (w->pid[0] != '\0') {
		fputs(", pid ", fp);
		tl_md_code(fp, w->pid, 40);
		fputs(" tid ", fp);
		tl_md_code(fp, w->tid, 40);
	}
}

void
tl_md_culprits(FILE *fp, const struct tl_findings *f, int tr, int max)
{
	const struct tl_fidle *d = &f->idle;
	const struct tl_fidletr *t;
	const struct tl_ftrace *ft = &f->tr[tr];
	size_t i;
	int n = 0, more = 0;
	int64_t rest = 0;

	if ((size_t)tr >= d->ntr || !d->tr[tr].has) {
		fputs("- **Culprits:** the stream has no idle culprits (made "
		    "by an older tl-parse, or with --no-culprits): run "
		    "tl-parse again to see what the host was doing in each "
		    "gap.\n\n", fp);
		return;
	}
	t = &d->tr[tr];
	fprintf(fp, "\n**What the host was doing while the GPU waited** "
	    "(%lld gaps of 10 us or more, %s ms; %lld shorter gaps, %s ms, "
	    "summed, not listed; each nanosecond of a gap goes to one "
	    "culprit, on the thread that launched the next GPU work):\n\n",
	    t->listed, tl_md_ms(t->listed_ns), t->noise,
	    tl_md_ms(t->noise_ns));
	if (t->listed > 0) {
		fputs("| # | Culprit | Context | Idle (ms) | % of timeline | "
		    "Gaps | Steps | Known cause | Its largest piece: where "
		    "|\n|---|---|---|---|---|---|---|---|---|\n", fp);
		for (i = 0; i < d->n; i++) {
			const struct tl_fculprit *x = &d->c[i];
			const char *title;

			if (x->tr != tr)
				continue;
			if (n >= max) {
				more++;
				rest += x->ns;
				continue;
			}
			fprintf(fp, "| %d | ", ++n);
			tl_md_culprit_name(fp, x);
			fputs(" | ", fp);
			if (x->context[0] != '\0' &&
			    strcmp(x->context, x->name) != 0)
				tl_md_code(fp, x->context, 100);
			fprintf(fp, " | %s | %s | %lld | %lld | ",
			    tl_md_ms(x->ns),
			    tl_md_num(pct(x->ns, ft->total_ns), 1), x->gaps,
			    x->nsteps);
			title = tl_fidle_kfield(d, x, TL_KC_TITLE);
			tl_md_text(fp, title[0] != '\0' ? title : "-", 200);
			fputs(" | ", fp);
			tl_md_where(fp, &x->where);
			fputs(" |\n", fp);
		}
		if (more > 0)
			fprintf(fp, "| | %d more | | %s | %s | | | | |\n", more,
			    tl_md_ms(rest), tl_md_num(pct(rest, ft->total_ns),
			    1));
		fputc('\n', fp);
		fputs("To open a gap in a trace viewer: Perfetto and "
		    "chrome://tracing show times from the trace's first event "
		    "(the +ms offset); the trace JSON holds the ts in us; the "
		    "pid and tid are the thread that launched the next GPU "
		    "work, whose row shows what ran there.\n\n", fp);
		fputs("Largest gap: ", fp);
		tl_md_where(fp, &t->largest);
		fprintf(fp, ", %s ms.\n\n", tl_md_ms(t->largest.len_ns));
	}
	if (t->frames == 0)
		fputs("- **No Python frames:** the trace was recorded without "
		    "them, so the culprits are CPU ops and annotations only; "
		    "record them with `torch.profiler.profile(with_stack=True)` "
		    "to see which Python function held the host.\n", fp);
	else if (t->frames < 0)
		fputs("- **Python frames not read** (tl-parse --no-context): "
		    "the culprits are CPU ops and annotations only.\n", fp);
	if (t->host_ns == 0 && t->none_ns > 0)
		fputs("- **No host events in the gaps:** the trace records no "
		    "CPU op, annotation or Python frame on the launching "
		    "threads while the GPU waited; record the host side "
		    "(`ProfilerActivity.CPU`, `with_stack=True`) to see what "
		    "it was doing.\n", fp);
	fputc('\n', fp);
}

/* The change of the idle summed by known cause, in a sentence. */
static void
known_change(FILE *fp, const struct tl_findings *ref,
    const struct tl_findings *tgt, const struct tl_fidlecmp *v, size_t n)
{
	struct tl_fidleknown *k;
	size_t nk = tl_fidle_compare_known(&ref->idle, &tgt->idle, v, n, &k), i;

	fputs("\n\nBy known cause: ", fp);
	for (i = 0; i < nk; i++) {
		if (i > 0)
			fputs("; ", fp);
		fputs("**", fp);
		if (k[i].title[0] != '\0')
			tl_md_text(fp, k[i].title, 200);
		else
			fputs("culprits of no known cause", fp);
		fprintf(fp, "**: %s -> %s ms (%s, %s)", tl_md_ms(k[i].ns[0]),
		    tl_md_ms(k[i].ns[1]), tl_md_ms_signed(k[i].ns[1] -
		    k[i].ns[0]), k[i].ns[1] > k[i].ns[0] ? "grew" :
		    k[i].ns[1] < k[i].ns[0] ? "shrank" : "same");
	}
	fputs(".\n\n", fp);
	free(k);
}

void
tl_md_culprit_compare(FILE *fp, const struct tl_findings *ref,
    const struct tl_findings *tgt, int max)
{
	struct tl_fidlecmp *v;
	size_t n, i;
	int64_t tot[2] = { 0, 0 };
	int shown = 0;

	if (ref == NULL || tgt == NULL) {
		fputs("Not compared: give `tl-findings` the two op streams "
		    "(`--ref FILE --target FILE`) beside the comparison to "
		    "compare what the host did while the GPU waited.\n\n", fp);
		return;
	}
	n = tl_fidle_compare(&ref->idle, &tgt->idle, &v);
	for (i = 0; i < n; i++) {
		tot[0] += v[i].ns[0];
		tot[1] += v[i].ns[1];
	}
	fprintf(fp, "The listed idle gaps add up to %s ms on the reference "
	    "and %s ms on the target (%s ms).", tl_md_ms(tot[0]),
	    tl_md_ms(tot[1]), tl_md_ms_signed(tot[1] - tot[0]));
	if (n == 0) {
		fputs(" Neither side has idle culprits (an older tl-parse, or "
		    "no gaps of 10 us or more).\n\n", fp);
		free(v);
		return;
	}
	known_change(fp, ref, tgt, v, n);
	fputs("By culprit, largest change first:\n\n| Culprit | Context | "
	    "Reference (ms) | Target (ms) | Change (ms) | Gaps (ref / target) "
	    "| Its largest piece: where (target, else reference) |\n"
	    "|---|---|---|---|---|---|---|\n", fp);
	for (i = 0; i < n && shown < max; i++, shown++) {
		fputs("| ", fp);
		tl_md_culprit_name(fp, v[i].c);
		fputs(" | ", fp);
		if (strcmp(v[i].c->context, v[i].c->name) != 0)
			tl_md_code(fp, v[i].c->context, 100);
		fprintf(fp, " | %s | %s | %s (%s) | %lld / %lld | ",
		    tl_md_ms(v[i].ns[0]), tl_md_ms(v[i].ns[1]),
		    tl_md_ms_signed(v[i].ns[1] - v[i].ns[0]),
		    v[i].ns[1] > v[i].ns[0] ? "grew" : v[i].ns[1] < v[i].ns[0] ?
		    "shrank" : "same", v[i].gaps[0], v[i].gaps[1]);
		tl_md_where(fp, &(v[i].at[1] != NULL ? v[i].at[1] :
		    v[i].at[0])->where);
		fputs(" |\n", fp);
	}
	fputc('\n', fp);
	free(v);
}

void
tl_md_steady(FILE *fp, const struct tl_findings *f)
{
	const struct tl_fidle *d = &f->idle;
	int tr, any = 0;

	for (tr = 0; tr < f->ntr && (size_t)tr < d->ntr; tr++) {
		const struct tl_fidletr *t = &d->tr[tr];
		const struct tl_ftrace *ft = &f->tr[tr];
		size_t i;
		int n = 0;

		if (!t->has_steady)
			continue;
		if (any++ == 0)
			fputs("**Steady state first.** ", fp);
		if (f->ntr > 1) {
			tl_md_code(fp, ft->name, 80);
			fputs(": t", fp);
		} else
			fputc('T', fp);
		if (t->steady_total_ns == ft->total_ns &&
		    t->steady_compute_ns == ft->compute_ns &&
		    t->steady_idle_ns == ft->idle_ns)
			/* The same figures: said once. */
			fprintf(fp, "he steady-state window (%lld step%s) is the "
			    "whole trace: %s ms of GPU timeline, computation "
			    "%s %%, idle %s ms (%s %%).", t->steady_steps,
			    t->steady_steps == 1 ? "" : "s",
			    tl_md_ms(ft->total_ns), tl_md_num(pct(ft->compute_ns,
			    ft->total_ns), 1), tl_md_ms(ft->idle_ns),
			    tl_md_num(pct(ft->idle_ns, ft->total_ns), 1));
		else
			fprintf(fp, "he steady-state window (%lld step%s%s) "
			    "spans %s ms of GPU timeline: computation %s %%, "
			    "idle %s ms (%s %%); the whole trace spans %s ms: "
			    "computation %s %%, idle %s ms (%s %%).",
			    t->steady_steps, t->steady_steps == 1 ? "" : "s",
			    t->steady_steps > 0 && t->niters > t->steady_steps ?
			    ", the first step left out as warm-up" : "",
			    tl_md_ms(t->steady_total_ns),
			    tl_md_num(pct(t->steady_compute_ns,
			    t->steady_total_ns), 1),
			    tl_md_ms(t->steady_idle_ns),
			    tl_md_num(pct(t->steady_idle_ns,
			    t->steady_total_ns), 1), tl_md_ms(ft->total_ns),
			    tl_md_num(pct(ft->compute_ns, ft->total_ns), 1),
			    tl_md_ms(ft->idle_ns), tl_md_num(pct(ft->idle_ns,
			    ft->total_ns), 1));
		if (t->warm > 0) {
			fprintf(fp, " **Warm-up:** %lld listed gap%s, %s ms of "
			    "idle, end in warm-up work (before the window, "
			    "or the first call of an op that spends 1 ms or "
			    "more, 10 times its later calls, before its "
			    "launch: autotuning, library initialisation, lazy "
			    "loading, compilation)", t->warm, t->warm == 1 ?
			    "" : "s", tl_md_ms(t->warm_ns));
			for (i = 0; i < d->n && n < 3; i++) {
				const struct tl_fculprit *x = &d->c[i];

				if (x->tr != tr || x->warm_ns <= 0 ||
				    !tl_fidle_is_host(x))
					continue;
				fputs(n++ == 0 ? "; its culprits: " : ", ", fp);
				tl_md_code(fp, x->name, 80);
				fprintf(fp, " %s ms", tl_md_ms(x->warm_ns));
			}
			fputs(". One-time costs are not the steady state's: "
			    "to profile past them, record with "
			    "`torch.profiler.profile(schedule=torch.profiler."
			    "schedule(wait=1, warmup=2, active=3))`.", fp);
		}
		fputs("\n\n", fp);
	}
}
