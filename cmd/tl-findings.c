/* See LICENSE file for copyright and license details. */
/* tl-findings: the analyst's report on an enriched op stream. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyst.h"
#include "analysis/cmpfind.h"
#include "analysis/findings.h"
#include "analysis/findrules.h"
#include "analysis/kcause.h"
#include "analysis/xsummary.h"
#include "common/outfile.h"
#include "common/util.h"
#include "render/cmpreport.h"
#include "render/outdir.h"
#include "render/report.h"
#include "render/xreport.h"
#include "stream/category.h"
#include "stream/stream.h"

static const char usage_str[] =
    "usage: tl-findings [--report fair|rough|category] [--category CAT]\n"
    "                   [-o DIR] [--charts DIR] [--fail-on PRIORITY]\n"
    "                   [--title TEXT] [--top N] [--bottleneck EFF,SHARE]\n"
    "                   [--critical PCT,EFF] [--high PCT,EFF] [--medium PCT]\n"
    "                   [--replay PCT,EFF] [--utilisation PCT]\n"
    "                   [--ranks-per-node N] [--net-bandwidth GBS]\n"
    "                   [--failed FILE] [--summary FILE]\n"
    "                   [--culprits FILE] [--causes FILE]\n"
    "                   [--ref FILE --target FILE] [file ...]\n";

static const char help_str[] =
    "Read an op stream enriched by tl-efficiency (\"-\" or none = stdin)\n"
    "and write the findings as Markdown: GPU utilisation and idle time,\n"
    "per-category bottlenecks with priorities, both recommendation paths,\n"
    "impact projections and replay suggestions.  Given tl-compare's\n"
    "stream, write the comparative report instead: both timelines side by\n"
    "side, each op against the hardware ratio, the target's gaps ranked.\n"
    "\n"
    "      --report KIND      fair (default: the short report), rough (the\n"
    "                         long working report) or category\n"
    "  -C, --category CAT     the category of --report category (gemm, conv\n"
    "                         or convolution, batchnorm, attention, ...)\n"
    "  -o, --output DIR       write the analysis directory (both reports,\n"
    "                         per-category data, findings, charts and\n"
    "                         the per-rank summary)\n"
    "                         instead of a report on stdout; it replaces\n"
    "                         the previous run's files there as a whole\n"
    "      --charts DIR       also write the SVG charts into DIR\n"
    "  -F, --fail-on P        exit 3 when a bottleneck of priority P\n"
    "                         (critical, high, medium, low) or worse exists\n"
    "      --title TEXT       the report's title (comparative: the model)\n"
    "      --top N            rows of the long tables (default 20)\n"
    "      --bottleneck E,S   bottleneck: efficiency below E % and above S\n"
    "                         % of its category (default 40,5)\n"
    "  -K, --critical P,E     critical: above P % of compute and below E %\n"
    "                         efficiency (default 15,30)\n"
    "  -G, --high P,E         high: above P % or below E % (default 10,40)\n"
    "      --medium P         medium: above P % of compute (default 5)\n"
    "      --replay P,E       replay: above P % and below E % (default\n"
    "                         10,30)\n"
    "      --utilisation P    flag GPU utilisation below P % (default 95)\n"
    "      --culprits FILE    known idle culprits: adds to and overrides\n"
    "                         the built-in table (rows with the same key)\n"
    "      --causes FILE      the words of the known causes of slow\n"
    "                         kernels: rows that replace the built-in\n"
    "                         table's rows with the same key\n"
    "      --ranks-per-node N the job's ranks (GPUs) per node: a collective\n"
    "                         whose group fits in one node is judged\n"
    "                         against the GPU's links, others against\n"
    "                         --net-bandwidth\n"
    "      --failed FILE      the traces that could not be analysed, one\n"
    "                         \"TRACE: why\" a line (tl.mk writes it):\n"
    "                         listed at the top of the report\n"
    "      --net-bandwidth G  the network's bandwidth per GPU, GB/s in one\n"
    "                         direction (with --ranks-per-node)\n"
    "      --summary FILE     write the per-rank summary of each trace\n"
    "                         (tl-format(5)) to FILE instead of a report;\n"
    "                         given summaries, merge them into one.\n"
    "                         Given summaries without it: the cross-rank\n"
    "                         analysis of what they hold\n"
    "      --ref FILE         with a comparison: the reference's op stream,\n"
    "                         whose patterns are compared with the target's\n"
    "      --target FILE      with a comparison: the target's op stream\n"
    "  -h, --help             print this help and exit\n"
    "  -V, --version          print the version and exit\n";

static const char *culprits;	/* --culprits */
static const char *causes;	/* --causes */

static void
usage(FILE *fp, int status)
{
	tl_usage(fp, status, usage_str, help_str);
}

/*
 * The known idle culprits and the known causes' words into f before its
 * load: 0, or -1 (said why).
 */
static int
load_tables(struct tl_findings *f)
{
	if (causes != NULL && tl_kcause_load(f, causes) < 0)
		return -1;
	tl_fidle_init(&f->idle);
	return tl_fidle_known(&f->idle, culprits);
}

/*
 * The comparative reports of a tl-compare stream; the worst priority of
 * a recommendation, or -1.
 */
static int
comparative(struct tl_stream *in, const struct tl_findings *opts,
    char *const side[2], const char *report, const char *outdir,
    const char *charts, const struct tl_report_opts *o)
{
	struct tl_findings *sf[2] = { NULL, NULL };
	struct tl_report_opts ro = *o;
	struct tl_cmpfind c;
	int worst, k;

	if (strcmp(report, "category") == 0)
		tl_diex(TL_EXIT_USAGE, "%s: a comparison (tl-compare) has no "
		    "category report; use --report fair or rough, or -o DIR",
		    in->path);
	if ((culprits != NULL || causes != NULL) && side[0] == NULL)
		tl_diex(TL_EXIT_USAGE, "%s: --%s with a comparison goes "
		    "with --ref and --target", in->path, culprits != NULL ?
		    "culprits" : "causes");
	tl_cmpfind_read(&c, in, &opts->rules);
	/* Each side analysed on its own, for its patterns. */
	for (k = 0; side[0] != NULL && k < 2; k++) {
		sf[k] = tl_calloc(1, sizeof(*sf[k]));
		sf[k]->rules = opts->rules;
		sf[k]->utilisation_min = opts->utilisation_min;
		if (load_tables(sf[k]) < 0)
			exit(TL_EXIT_ERROR);
		tl_analyst_load(sf[k], &side[k], 1);
	}
	if (sf[0] != NULL)
		tl_cmpfind_sides(&c, sf[0], sf[1]);
	if (charts != NULL)
		tl_outdir_cmpcharts(charts, &c);
	ro.charts = charts;
	if (outdir != NULL)
		tl_outdir_compare(outdir, &c, o);
	else if (strcmp(report, "rough") == 0)
		tl_cmpreport_rough(stdout, &c, &ro);
	else
		tl_cmpreport_fair(stdout, &c, &ro);
	worst = tl_cmpfind_worst(&c);
	tl_cmpfind_free(&c);
	for (k = 0; k < 2; k++)
		if (sf[k] != NULL) {
			tl_findings_free(sf[k]);
			free(sf[k]);
		}
	return worst;
}

/* "A" or "A,B" of non-negative numbers into v[0..n). */
static void
pair(const char *s, const char *name, double *v, int n)
{
	char *end;
	int k;

	for (k = 0; k < n; k++) {
		v[k] = strtod(s, &end);
		if (end == s || !(v[k] >= 0) || isinf(v[k]) ||
		    (k < n - 1 && *end != ',') || (k == n - 1 && *end != '\0')) {
			tl_warn("--%s: expected %s", name, n == 2 ?
			    "two numbers N,N" : "a number");
			usage(stderr, TL_EXIT_USAGE);
		}
		s = end + 1;
	}
}

/* Options with a long name only. */
enum {
	OPT_CHARTS = 256, OPT_REPORT, OPT_REPLAY, OPT_TITLE, OPT_BOTTLENECK,
	OPT_MEDIUM, OPT_TOP, OPT_UTILISATION, OPT_REF, OPT_TARGET, OPT_CULPRITS,
	OPT_RANKS_PER_NODE, OPT_NET_BANDWIDTH, OPT_FAILED, OPT_SUMMARY,
	OPT_CAUSES
};

/* The summary of f (or of the summaries in) into path, complete or absent. */
static void
write_summary(const char *path, struct tl_findings *f, struct tl_stream *in)
{
	struct tl_outfile of;
	FILE *fp = tl_outfile_open(&of, path, 0666);

	if (in != NULL)
		tl_xsum_merge(fp, in);
	else
		tl_xsum_write(fp, f->xr);
	tl_outfile_commit(&of);
}

/* tl-findings given per-rank summaries: merge them, or analyse them. */
static int
summaries(struct tl_stream *in, struct tl_findings *f, const char *report,
    const char *outdir, const char *charts, const char *summary,
    const struct tl_report_opts *o)
{
	if (strcmp(report, "category") == 0 || charts != NULL)
		tl_diex(TL_EXIT_USAGE, "%s: per-rank summaries have no %s; "
		    "use --report fair or rough, or -o DIR", in->path,
		    charts != NULL ? "charts" : "category report");
	if (summary != NULL) {
		if (outdir != NULL)
			tl_diex(TL_EXIT_USAGE, "%s: --summary merges summaries; "
			    "-o DIR analyses them: one at a time", in->path);
		write_summary(summary, f, in);
		return TL_EXIT_OK;
	}
	tl_findings_summaries(f, in);
	if (outdir != NULL)
		tl_outdir_ranks(outdir, f, o);
	else
		tl_report_ranks(stdout, f, o);
	return TL_EXIT_OK;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "bottleneck", required_argument, NULL, OPT_BOTTLENECK },
		{ "charts", required_argument, NULL, OPT_CHARTS },
		{ "causes", required_argument, NULL, OPT_CAUSES },
		{ "culprits", required_argument, NULL, OPT_CULPRITS },
		{ "category", required_argument, NULL, 'C' },
		{ "failed", required_argument, NULL, OPT_FAILED },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "high", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ "critical", required_argument, NULL, 'K' },
		{ "medium", required_argument, NULL, OPT_MEDIUM },
		{ "net-bandwidth", required_argument, NULL, OPT_NET_BANDWIDTH },
		{ "ranks-per-node", required_argument, NULL,
		    OPT_RANKS_PER_NODE },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		{ "ref", required_argument, NULL, OPT_REF },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "utilisation", required_argument, NULL, OPT_UTILISATION },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static struct tl_findings f;
	struct tl_report_opts o = { NULL, NULL, 20 };
	struct tl_stream in;
	const char *report = NULL, *outdir = NULL, *charts = NULL;
	const char *summary = NULL;
	char *side[2] = { NULL, NULL };
	int ch, cat = -1, fail_on = -1, worst, status = TL_EXIT_OK;
	long long top;
	double v[2];

	tl_setprogname(argv[0]);
	tl_findrules_default(&f.rules);
	f.utilisation_min = 95;
	while ((ch = getopt_long(argc, argv, "C:F:G:hK:o:V",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_BOTTLENECK:
			pair(optarg, "bottleneck", v, 2);
			f.rules.bottleneck_eff = v[0];
			f.rules.bottleneck_cat_pct = v[1];
			break;
		case OPT_CHARTS:
			charts = optarg;
			break;
		case OPT_CAUSES:
			causes = optarg;
			break;
		case OPT_CULPRITS:
			culprits = optarg;
			break;
		case 'C':
			if ((cat = tl_category_parse(optarg)) < 0) {
				tl_warn("--category: unknown category '%s'",
				    optarg);
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'F':
			if ((fail_on = tl_priority_parse(optarg)) < 0) {
				tl_warn("--fail-on: expected critical, high, "
				    "medium or low, not '%s'", optarg);
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case 'G':
			pair(optarg, "high", v, 2);
			f.rules.high_pct = v[0];
			f.rules.high_eff = v[1];
			break;
		case 'h':
			usage(stdout, TL_EXIT_OK);
			break;
		case 'K':
			pair(optarg, "critical", v, 2);
			f.rules.critical_pct = v[0];
			f.rules.critical_eff = v[1];
			break;
		case OPT_MEDIUM:
			pair(optarg, "medium", v, 1);
			f.rules.medium_pct = v[0];
			break;
		case OPT_TOP:
			if (tl_parse_long(optarg, 1, 100000, &top) != 0) {
				tl_warn("--top: '%s' is not a number from 1 to "
				    "100000", optarg);
				usage(stderr, TL_EXIT_USAGE);
			}
			o.top = (int)top;
			break;
		case 'o':
			outdir = optarg;
			break;
		case OPT_REPORT:
			report = optarg;
			if (strcmp(report, "fair") != 0 &&
			    strcmp(report, "rough") != 0 &&
			    strcmp(report, "category") != 0) {
				tl_warn("--report: expected fair, rough or "
				    "category, not '%s'", report);
				usage(stderr, TL_EXIT_USAGE);
			}
			break;
		case OPT_REPLAY:
			pair(optarg, "replay", v, 2);
			f.rules.replay_pct = v[0];
			f.rules.replay_eff = v[1];
			break;
		case OPT_TITLE:
			o.title = optarg;
			break;
		case OPT_SUMMARY:
			summary = optarg;
			break;
		case OPT_UTILISATION:
			pair(optarg, "utilisation", v, 1);
			f.utilisation_min = v[0];
			break;
		case OPT_RANKS_PER_NODE:
			pair(optarg, "ranks-per-node", v, 1);
			if (v[0] < 1 || v[0] > 1e6 || v[0] != (long)v[0]) {
				tl_warn("--ranks-per-node: expected a whole "
				    "number from 1");
				usage(stderr, TL_EXIT_USAGE);
			}
			f.ranks_per_node = (long)v[0];
			break;
		case OPT_FAILED:
			free(f.failed);
			if ((f.failed = tl_slurp(optarg, NULL)) == NULL)
				tl_die("%s:", optarg);
			break;
		case OPT_NET_BANDWIDTH:
			pair(optarg, "net-bandwidth", v, 1);
			if (!(v[0] > 0)) {
				tl_warn("--net-bandwidth: expected a number "
				    "above 0");
				usage(stderr, TL_EXIT_USAGE);
			}
			f.net_gbs = v[0];
			break;
		case 'V':
			tl_version();
			break;
		case OPT_REF:
			side[0] = optarg;
			break;
		case OPT_TARGET:
			side[1] = optarg;
			break;
		default:
			usage(stderr, TL_EXIT_USAGE);
		}
	}
	if (report == NULL)
		report = cat >= 0 ? "category" : "fair";
	if (strcmp(report, "category") == 0 && cat < 0) {
		tl_warn("--report category needs --category CAT");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (strcmp(report, "category") != 0 && cat >= 0) {
		tl_warn("--category goes with --report category");
		usage(stderr, TL_EXIT_USAGE);
	}
	if ((side[0] == NULL) != (side[1] == NULL)) {
		tl_warn("--ref and --target go together");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (f.net_gbs > 0 && f.ranks_per_node == 0) {
		tl_warn("--net-bandwidth goes with --ranks-per-node");
		usage(stderr, TL_EXIT_USAGE);
	}
	if (outdir != NULL && report != NULL && strcmp(report, "fair") != 0) {
		tl_warn("-o writes every report; leave out --report");
		usage(stderr, TL_EXIT_USAGE);
	}

	if ((culprits != NULL || causes != NULL) && load_tables(&f) < 0)
		return TL_EXIT_ERROR;
	tl_stdout_buffer();
	tl_stream_open(&in, argv + optind, argc - optind);
	switch (tl_cmpfind_kind(&in)) {
	case 1:
		if (summary != NULL)
			tl_diex(TL_EXIT_USAGE, "%s: --summary goes with op "
			    "streams or summaries, not a comparison "
			    "(tl-compare)", in.path);
		worst = comparative(&in, &f, side, report, outdir, charts, &o);
		tl_stream_close(&in);
		if (tl_close_stdout())
			return TL_EXIT_ERROR;
		return fail_on >= 0 && worst >= fail_on ? TL_EXIT_FINDING :
		    TL_EXIT_OK;
	case 2:
		tl_die("%s: a timeline comparison (tl-compare --timeline): "
		    "give the op comparison, whose rows carry both timelines",
		    in.path);
	}
	if (side[0] != NULL)
		tl_diex(TL_EXIT_USAGE, "%s: --ref and --target go with a "
		    "comparison (tl-compare), not an op stream", in.path);
	if (tl_xsum_is(&in)) {
		status = summaries(&in, &f, report, outdir, charts, summary,
		    &o);
		tl_stream_close(&in);
		tl_findings_free(&f);
		if (tl_close_stdout())
			return TL_EXIT_ERROR;
		return status;
	}
	if (summary != NULL && (outdir != NULL || charts != NULL))
		tl_diex(TL_EXIT_USAGE, "%s: --summary writes the summary "
		    "instead of the analysis; -o DIR holds it too (summary.tsv)",
		    in.path);
	tl_analyst_read(&f, &in);
	tl_stream_close(&in);
	if (summary != NULL) {
		write_summary(summary, &f, NULL);
		tl_findings_free(&f);
		return tl_close_stdout() ? TL_EXIT_ERROR : TL_EXIT_OK;
	}
	if (charts != NULL)
		tl_outdir_charts(charts, &f);
	if (outdir != NULL)
		tl_outdir_write(outdir, &f, &o);
	else {
		o.charts = charts;
		if (strcmp(report, "fair") == 0)
			tl_report_fair(stdout, &f, &o);
		else if (strcmp(report, "rough") == 0)
			tl_report_rough(stdout, &f, &o);
		else
			tl_report_category(stdout, &f, cat, &o);
	}
	worst = tl_findings_worst(&f);
	if (fail_on >= 0 && worst >= fail_on)
		status = TL_EXIT_FINDING;
	tl_findings_free(&f);
	if (tl_close_stdout())
		return TL_EXIT_ERROR;
	return status;
}
