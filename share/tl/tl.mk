# See LICENSE file for copyright and license details.
#
# tl.mk: GNU make rules that take a directory of traces, one per rank,
# through tl, one trace per job:
#
#	make -f /usr/local/share/tl/tl.mk TRACES=dir HW=mi300x -j8
#
# For each TRACES/NAME.json.gz (or NAME.json) it writes OUT/NAME.ops.tsv,
# the op stream of tl-parse through tl-efficiency --hw HW, then OUT/all.tsv,
# all of them under one header, and OUT/report/, the cross-rank analysis
# (tl-findings -o: both reports, the per-category data, the charts).  Each
# row carries its trace (the file name) and its rank (from the trace's
# distributedInfo, when present).  A trace that fails (a truncated .json.gz
# is the usual case) leaves no stream but OUT/NAME.failed with tl-parse's
# message; the others are still merged and analysed, the report lists the
# failed ones (OUT/failed.txt), and the make fails at the end, saying how
# many.  Each trace also gets OUT/NAME.summary.tsv, its per-rank summary
# (tl-findings --summary, tl-format(5)); "make ranks" analyses the
# summaries in OUT alone (OUT/ranks/, tl-findings -o), so that the traces
# and their streams can stay on the hosts that made them and only the
# summaries move (tl-rank.sh, tl-slurm.sh, tl(7)).  A rerun redoes only
# what is missing or older than its trace.
# Single targets run anywhere
# the directories are shared, e.g. one per Slurm array task or GNU parallel
# job across hosts (tl(7)):
#
#	make -f tl.mk TRACES=dir HW=mi300x OUT=tl-out tl-out/rank3.ops.tsv
#
# Variables (on the command line):
#	TRACES	directory of the traces (default .)
#	OUT	directory of the results (default tl-out)
#	HW	GPU for tl-efficiency --hw (default auto: the one each trace names;
#		a trace whose GPU auto cannot name gets a warning and empty
#		efficiency columns, and the batch goes on)
#	HWMAP	a file of "GLOB GPU" lines naming the GPU of the traces whose
#		name matches GLOB, before HW (tl-efficiency --hw-map): for a
#		folder of traces from several GPUs; the streams depend on it
#	PARSEFLAGS, EFFFLAGS, FINDFLAGS	more options of tl-parse,
#		tl-efficiency and tl-findings (--ranks-per-node N ...)
#	TLBIN	directory of the tl programs, with a trailing / (default:
#		found in PATH)
# Targets: all (default: the report and the summaries), ops (the per-rank
# streams only), summaries, ranks (the analysis of the summaries in OUT,
# with the traces that failed: OUT/NAME.failed), clean.

TRACES = .
OUT = tl-out
HW = auto
HWMAP =
PARSEFLAGS =
EFFFLAGS =
FINDFLAGS =
TLBIN =
TL_PARSE = $(TLBIN)tl-parse
TL_EFFICIENCY = $(TLBIN)tl-efficiency
TL_FINDINGS = $(TLBIN)tl-findings
TL_HWMAPFLAG = $(if $(HWMAP),--hw-map $(HWMAP))

TL_GZ := $(sort $(wildcard $(TRACES)/*.json.gz))
TL_JSON := $(sort $(wildcard $(TRACES)/*.json))
TL_OPS := $(patsubst $(TRACES)/%.json.gz,$(OUT)/%.ops.tsv,$(TL_GZ)) \
	$(patsubst $(TRACES)/%.json,$(OUT)/%.ops.tsv,$(TL_JSON))

TL_SUMS := $(TL_OPS:.ops.tsv=.summary.tsv)

TL_REPORT = $(OUT)/report/standalone_analysis_fair.md
all: $(TL_REPORT) $(TL_SUMS)
ops: $(TL_OPS)
summaries: $(TL_SUMS)

# Each rank's summary, where its stream is (none for a trace that failed).
$(OUT)/%.summary.tsv: $(OUT)/%.ops.tsv
	@if [ -e $< ]; then $(TL_FINDINGS) $(FINDFLAGS) --summary $@ $<; fi

# The cross-rank analysis of the summaries in OUT (a rank's or a node's,
# whoever made them), listing the traces that failed (OUT/*.failed); the
# make fails when some did.  Needs no trace: OUT may hold summaries only.
ranks:
	@s=$$(ls $(OUT)/*.summary.tsv 2> /dev/null); \
	if [ -z "$$s" ]; then \
	    echo "tl.mk: no *.summary.tsv in $(OUT)" >&2; exit 1; fi; \
	for f in $(OUT)/*.failed; do [ ! -e "$$f" ] || cat "$$f"; \
	    done > $(OUT)/ranks-failed.txt; \
	$(TL_FINDINGS) $(FINDFLAGS) --failed $(OUT)/ranks-failed.txt \
	    -o $(OUT)/ranks $$s || exit 1; \
	n=$$(grep -c . $(OUT)/ranks-failed.txt); if [ "$$n" -gt 0 ]; then \
	    echo "tl.mk: $$n traces failed (listed in" \
	    "$(OUT)/ranks-failed.txt and the report)" >&2; exit 1; fi

# The cross-rank report of the traces that worked, listing those that
# failed; then the make fails when some did (the report stays: precious).
$(TL_REPORT): $(OUT)/all.tsv
	@if [ -s $(OUT)/all.tsv ]; then \
	    $(TL_FINDINGS) $(FINDFLAGS) --failed $(OUT)/failed.txt \
	    -o $(OUT)/report $(OUT)/all.tsv; fi
	@n=$$(grep -c . $(OUT)/failed.txt); if [ "$$n" -gt 0 ]; then \
	    echo "tl.mk: $$n of $(words $(TL_OPS)) traces failed (listed in" \
	    "$(OUT)/failed.txt and the report)" >&2; exit 1; fi
.PRECIOUS: $(TL_REPORT)

# tl-parse's status is not the pipeline's: a failed parse leaves a mark,
# and the target is only renamed into place when there is none.  A trace
# that fails leaves OUT/NAME.failed (the trace and tl-parse's last
# message) instead of its stream, and the batch goes on.
define tl_ops_recipe
	@mkdir -p $(@D)
	@rm -f $@.failed $(@:.ops.tsv=.failed)
	{ $(TL_PARSE) $(PARSEFLAGS) $< 2> $@.err || echo > $@.failed; } | \
	    $(TL_EFFICIENCY) --hw $(HW) $(TL_HWMAPFLAG) $(EFFFLAGS) > $@.tmp && \
	    [ ! -e $@.failed ] && mv $@.tmp $@ && { cat $@.err >&2; rm -f $@.err; } || \
	    { cat $@.err >&2; printf '%s: %s\n' '$<' \
	    "$$(tail -n 1 $@.err | sed 's/^tl-parse: //')" > $(@:.ops.tsv=.failed); \
	    rm -f $@.tmp $@.failed $@.err; }
endef

$(OUT)/%.ops.tsv: $(TRACES)/%.json.gz $(HWMAP)
	$(tl_ops_recipe)
$(OUT)/%.ops.tsv: $(TRACES)/%.json $(HWMAP)
	$(tl_ops_recipe)

# One header (every stream's must be the same), then every stream's rows,
# in the order of the file names; the traces that failed into failed.txt.
$(OUT)/all.tsv: $(TL_OPS)
	@if [ -z "$(strip $(TL_OPS))" ]; then \
	    echo "tl.mk: no *.json.gz or *.json traces in $(TRACES)" >&2; \
	    exit 1; fi
	@for f in $(TL_OPS:.ops.tsv=.failed); do [ ! -e $$f ] || cat $$f; \
	    done > $(OUT)/failed.txt
	@ok=$$(for f in $(TL_OPS); do [ ! -e $$f ] || echo $$f; done); \
	if [ -z "$$ok" ]; then : > $@; exit 0; fi; \
	awk 'FNR == 1 && NR == 1 { h = $$0; f = FILENAME; print; next } \
	    FNR == 1 && $$0 != h { m = "header differs from that of " f; \
	    print "tl.mk: " FILENAME ": " m > "/dev/stderr"; exit 1 } \
	    FNR > 1' $$ok > $@.tmp && mv $@.tmp $@ || \
	    { rm -f $@.tmp; exit 1; }

clean:
	rm -rf $(TL_OPS) $(TL_OPS:.ops.tsv=.failed) $(TL_SUMS) $(OUT)/all.tsv \
	    $(OUT)/failed.txt $(OUT)/report $(OUT)/ranks-failed.txt $(OUT)/ranks

.PHONY: all ops summaries ranks clean
.DELETE_ON_ERROR:
