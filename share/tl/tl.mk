# See LICENSE file for copyright and license details.
#
# tl.mk: GNU make rules that take a directory of traces, one per rank,
# through tl, one trace per job:
#
#	make -f /usr/local/share/tl/tl.mk TRACES=dir HW=mi300x -j8
#
# For each TRACES/NAME.json.gz (or NAME.json) it writes OUT/NAME.ops.tsv,
# the op stream of tl-parse through tl-efficiency --hw HW, then OUT/all.tsv,
# all of them under one header.  Each row carries its trace (the file
# name) and its rank (from the trace's distributedInfo, when present).  A
# trace that fails leaves no output and fails the make; a rerun redoes only
# what is missing or older than its trace.  Single targets run anywhere
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
#	PARSEFLAGS, EFFFLAGS	more options of tl-parse and tl-efficiency
#	TLBIN	directory of the tl programs, with a trailing / (default:
#		found in PATH)
# Targets: all (default), ops (the per-rank streams only), clean.

TRACES = .
OUT = tl-out
HW = auto
HWMAP =
PARSEFLAGS =
EFFFLAGS =
TLBIN =
TL_PARSE = $(TLBIN)tl-parse
TL_EFFICIENCY = $(TLBIN)tl-efficiency
TL_HWMAPFLAG = $(if $(HWMAP),--hw-map $(HWMAP))

TL_GZ := $(sort $(wildcard $(TRACES)/*.json.gz))
TL_JSON := $(sort $(wildcard $(TRACES)/*.json))
TL_OPS := $(patsubst $(TRACES)/%.json.gz,$(OUT)/%.ops.tsv,$(TL_GZ)) \
	$(patsubst $(TRACES)/%.json,$(OUT)/%.ops.tsv,$(TL_JSON))

all: $(OUT)/all.tsv
ops: $(TL_OPS)

# tl-parse's status is not the pipeline's: a failed parse leaves a mark,
# and the target is only renamed into place when there is none.
define tl_ops_recipe
	@mkdir -p $(@D)
	@rm -f $@.failed
	{ $(TL_PARSE) $(PARSEFLAGS) $< || echo > $@.failed; } | \
	    $(TL_EFFICIENCY) --hw $(HW) $(TL_HWMAPFLAG) $(EFFFLAGS) > $@.tmp && \
	    [ ! -e $@.failed ] && mv $@.tmp $@ || \
	    { rm -f $@.tmp $@.failed; exit 1; }
endef

$(OUT)/%.ops.tsv: $(TRACES)/%.json.gz $(HWMAP)
	$(tl_ops_recipe)
$(OUT)/%.ops.tsv: $(TRACES)/%.json $(HWMAP)
	$(tl_ops_recipe)

# One header (every stream's must be the same), then every stream's rows,
# in the order of the file names.
$(OUT)/all.tsv: $(TL_OPS)
	@if [ -z "$(strip $(TL_OPS))" ]; then \
	    echo "tl.mk: no *.json.gz or *.json traces in $(TRACES)" >&2; \
	    exit 1; fi
	awk 'FNR == 1 && NR == 1 { h = $$0; f = FILENAME; print; next } \
	    FNR == 1 && $$0 != h { m = "header differs from that of " f; \
	    print "tl.mk: " FILENAME ": " m > "/dev/stderr"; exit 1 } \
	    FNR > 1' $(TL_OPS) > $@.tmp && mv $@.tmp $@ || \
	    { rm -f $@.tmp; exit 1; }

clean:
	rm -f $(TL_OPS) $(OUT)/all.tsv

.PHONY: all ops clean
.DELETE_ON_ERROR:
