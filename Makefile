# tl - find GPU performance bottlenecks in PyTorch profiler traces.
# See LICENSE file for copyright and license details.
.POSIX:
.SUFFIXES:

include config.mk

BIN = \
	bin/tl-categorize \
	bin/tl-compare \
	bin/tl-efficiency \
	bin/tl-findings \
	bin/tl-parse \
	bin/tl-perfmodel \
	bin/tl-replay

LIBOBJ = \
	lib/analysis/analyst.o \
	lib/analysis/cmpfind.o \
	lib/analysis/culprits.o \
	lib/analysis/culprits_table.o \
	lib/analysis/compare.o \
	lib/analysis/efficiency.o \
	lib/analysis/rowspool.o \
	lib/analysis/findings.o \
	lib/analysis/findrules.o \
	lib/analysis/fusion.o \
	lib/analysis/gemmcause.o \
	lib/analysis/kcause.o \
	lib/analysis/kcause_table.o \
	lib/analysis/kernsel.o \
	lib/analysis/oprow.o \
	lib/analysis/opsig.o \
	lib/analysis/schedule.o \
	lib/analysis/serving.o \
	lib/analysis/verdict.o \
	lib/analysis/xrank.o \
	lib/analysis/xsummary.o \
	lib/common/checked.o \
	lib/common/hashmap.o \
	lib/common/intern.o \
	lib/common/idxsort.o \
	lib/common/interval.o \
	lib/common/jlex.o \
	lib/common/json.o \
	lib/common/jsonw.o \
	lib/common/outfile.o \
	lib/common/pool.o \
	lib/common/strmap.o \
	lib/common/tabfile.o \
	lib/common/tsv.o \
	lib/common/util.o \
	lib/model/concrete.o \
	lib/model/dtype.o \
	lib/model/expr.o \
	lib/model/family.o \
	lib/model/gpus_table.o \
	lib/model/hwauto.o \
	lib/model/hwspec.o \
	lib/model/model_conv.o \
	lib/model/model_eltwise.o \
	lib/model/model_file.o \
	lib/model/model_gemm.o \
	lib/model/model_moe.o \
	lib/model/model_norm.o \
	lib/model/model_paged.o \
	lib/model/model_reduce.o \
	lib/model/model_sdpa.o \
	lib/model/model_softmax.o \
	lib/model/models_table.o \
	lib/model/opargs.o \
	lib/model/perfcols.o \
	lib/model/perfresult.o \
	lib/model/roofline.o \
	lib/model/roweff.o \
	lib/model/rowmodel.o \
	lib/render/advice.o \
	lib/render/chartlist.o \
	lib/render/charts.o \
	lib/render/cmpreport.o \
	lib/render/causetext.o \
	lib/render/idlerep.o \
	lib/render/mdtext.o \
	lib/render/outdir.o \
	lib/render/patreport.o \
	lib/render/replay.o \
	lib/render/replaypkg.o \
	lib/render/replay_tables.o \
	lib/render/report.o \
	lib/render/servreport.o \
	lib/render/svgchart.o \
	lib/render/svgcmp.o \
	lib/render/svgtime.o \
	lib/render/svgw.o \
	lib/render/xreport.o \
	lib/render/zipw.o \
	lib/stream/categories_table.o \
	lib/stream/category.o \
	lib/stream/kernels_table.o \
	lib/stream/kernlist.o \
	lib/stream/kerntable.o \
	lib/stream/known.o \
	lib/stream/ops_table.o \
	lib/stream/optable.o \
	lib/stream/rules.o \
	lib/stream/schema.o \
	lib/stream/stream.o \
	lib/trace/callstack.o \
	lib/trace/capture.o \
	lib/trace/devprops.o \
	lib/trace/collective.o \
	lib/trace/context.o \
	lib/trace/iter.o \
	lib/trace/input.o \
	lib/trace/jsonscan.o \
	lib/trace/kernclass.o \
	lib/trace/opstream.o \
	lib/trace/rollup.o \
	lib/trace/timeline.o \
	lib/trace/culprit.o \
	lib/trace/trace.o \
	lib/trace/tree.o

# Generated tables and the model families have no header of their own.
GENOBJ = lib/analysis/culprits_table.o lib/analysis/kcause_table.o lib/model/gpus_table.o lib/model/models_table.o lib/render/replay_tables.o \
	lib/stream/categories_table.o lib/stream/kernels_table.o lib/stream/ops_table.o
LIBHDR = \
	lib/analysis/analyst.h \
	lib/analysis/cmpfind.h \
	lib/analysis/compare.h \
	lib/analysis/culprits.h \
	lib/analysis/efficiency.h \
	lib/analysis/rowspool.h \
	lib/analysis/findings.h \
	lib/analysis/findrules.h \
	lib/analysis/fusion.h \
	lib/analysis/gemmcause.h \
	lib/analysis/kcause.h \
	lib/analysis/kernsel.h \
	lib/analysis/oprow.h \
	lib/analysis/opsig.h \
	lib/analysis/schedule.h \
	lib/analysis/serving.h \
	lib/analysis/verdict.h \
	lib/analysis/xrank.h \
	lib/analysis/xsummary.h \
	lib/common/checked.h \
	lib/common/hashmap.h \
	lib/common/intern.h \
	lib/common/idxsort.h \
	lib/common/interval.h \
	lib/common/jlex.h \
	lib/common/json.h \
	lib/common/jsonw.h \
	lib/common/outfile.h \
	lib/common/strmap.h \
	lib/common/tabfile.h \
	lib/common/tsv.h \
	lib/common/util.h \
	lib/model/concrete.h \
	lib/model/dtype.h \
	lib/model/expr.h \
	lib/model/family.h \
	lib/model/hwauto.h \
	lib/model/hwspec.h \
	lib/model/model_file.h \
	lib/model/opargs.h \
	lib/model/perfcols.h \
	lib/model/perfresult.h \
	lib/model/roofline.h \
	lib/model/roweff.h \
	lib/model/rowmodel.h \
	lib/render/advice.h \
	lib/render/chartlist.h \
	lib/render/charts.h \
	lib/render/cmpreport.h \
	lib/render/causetext.h \
	lib/render/idlerep.h \
	lib/render/mdtext.h \
	lib/render/outdir.h \
	lib/render/patreport.h \
	lib/render/replay.h \
	lib/render/replaypkg.h \
	lib/render/report.h \
	lib/render/servreport.h \
	lib/render/svgchart.h \
	lib/render/svgw.h \
	lib/render/xreport.h \
	lib/render/zipw.h \
	lib/stream/category.h \
	lib/stream/kernlist.h \
	lib/stream/kerntable.h \
	lib/stream/known.h \
	lib/stream/optable.h \
	lib/stream/rules.h \
	lib/stream/schema.h \
	lib/stream/stream.h \
	lib/trace/callstack.h \
	lib/trace/capture.h \
	lib/trace/collective.h \
	lib/trace/context.h \
	lib/trace/devprops.h \
	lib/trace/input.h \
	lib/trace/iter.h \
	lib/trace/jsonscan.h \
	lib/trace/kernclass.h \
	lib/trace/opstream.h \
	lib/trace/rollup.h \
	lib/trace/timeline.h \
	lib/trace/culprit.h \
	lib/trace/trace.h \
	lib/trace/tree.h

UNIT = \
	tests/unit/test_category \
	tests/unit/test_collective \
	tests/unit/test_concrete \
	tests/unit/test_context \
	tests/unit/test_efficiency \
	tests/unit/test_expr \
	tests/unit/test_kernnames \
	tests/unit/test_grow \
	tests/unit/test_hashmap \
	tests/unit/test_idxsort \
	tests/unit/test_hwspec \
	tests/unit/test_interval \
	tests/unit/test_jlex \
	tests/unit/test_json \
	tests/unit/test_kernlist \
	tests/unit/test_kerntable \
	tests/unit/test_mdtext \
	tests/unit/test_model_conv \
	tests/unit/test_model_gemm \
	tests/unit/test_model_moe \
	tests/unit/test_model_norm \
	tests/unit/test_model_paged \
	tests/unit/test_model_reduce \
	tests/unit/test_model_sdpa \
	tests/unit/test_model_softmax \
	tests/unit/test_outdir \
	tests/unit/test_pipe \
	tests/unit/test_pool \
	tests/unit/test_replay \
	tests/unit/test_rowspool \
	tests/unit/test_scan \
	tests/unit/test_schema \
	tests/unit/test_stream \
	tests/unit/test_svgchart \
	tests/unit/test_tabfile \
	tests/unit/test_tsv \
	tests/unit/test_verdict \
	tests/unit/test_zipw

# Test and benchmark tools, not installed.
TOOLS = \
	tests/tools/measure \
	tests/tools/multiply \
	tests/tools/schema

# The programs that write sets of files, linked with the test hook of
# lib/common/outfile.c (TL_TEST_FAULT, tests/outputs.sh): the release
# binaries in bin/ lack it.
FAULTTEST = \
	tests/fault/tl-findings \
	tests/fault/tl-replay

# Three programs linked with one category more (tests/category.sh).
CATTEST = \
	tests/category/tl-categorize \
	tests/category/tl-findings \
	tests/category/tl-parse

MAN1 = \
	man/tl-categorize.1 \
	man/tl-compare.1 \
	man/tl-efficiency.1 \
	man/tl-findings.1 \
	man/tl-parse.1 \
	man/tl-perfmodel.1 \
	man/tl-replay.1
MAN5 = man/tl-format.5
MAN7 = man/tl.7

all: $(BIN)

lib/analysis/culprits_table.c: share/tl/culprits.tsv tests/tools/embed.awk
	awk -v name=tl_default_culprits -f tests/tools/embed.awk share/tl/culprits.tsv > $@

lib/analysis/kcause_table.c: share/tl/causes.tsv tests/tools/embed.awk
	awk -v name=tl_default_causes -f tests/tools/embed.awk share/tl/causes.tsv > $@

lib/stream/categories_table.c: share/tl/categories.tsv tests/tools/embed.awk
	awk -v name=tl_default_categories -f tests/tools/embed.awk share/tl/categories.tsv > $@

lib/stream/kernels_table.c: share/tl/kernels.tsv tests/tools/embed.awk
	awk -v name=tl_default_kernels -f tests/tools/embed.awk share/tl/kernels.tsv > $@

lib/stream/ops_table.c: share/tl/ops.tsv tests/tools/embed.awk
	awk -v name=tl_default_ops -f tests/tools/embed.awk share/tl/ops.tsv > $@

lib/model/models_table.c: share/tl/models/default.tsv tests/tools/embed.awk
	awk -v name=tl_default_models -f tests/tools/embed.awk share/tl/models/default.tsv > $@

lib/model/gpus_table.c: share/tl/gpus.tsv tests/tools/embed.awk
	awk -v name=tl_default_gpus -f tests/tools/embed.awk share/tl/gpus.tsv > $@

# The replay package's runner and README template (tl-replay -o).
lib/render/replay_tables.c: share/tl/replay/replay.py share/tl/replay/README.md.in \
    share/tl/replay/allowed_ops.tsv tests/tools/embed.awk
	{ awk -v name=tl_replay_runner -f tests/tools/embed.awk \
	    share/tl/replay/replay.py && \
	  awk -v name=tl_replay_readme -f tests/tools/embed.awk \
	    share/tl/replay/README.md.in && \
	  awk -v name=tl_replay_allowed -f tests/tools/embed.awk \
	    share/tl/replay/allowed_ops.tsv; } > $@

lib/libtl.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

$(LIBOBJ): $(LIBHDR) config.mk

.SUFFIXES: .c .o
.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

bin/tl-categorize: cmd/tl-categorize.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-categorize.c lib/libtl.a $(LDLIBS)
bin/tl-compare: cmd/tl-compare.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-compare.c lib/libtl.a $(LDLIBS)
bin/tl-efficiency: cmd/tl-efficiency.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-efficiency.c lib/libtl.a $(LDLIBS)
bin/tl-findings: cmd/tl-findings.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-findings.c lib/libtl.a $(LDLIBS)
bin/tl-parse: cmd/tl-parse.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-parse.c lib/libtl.a $(LDLIBS)
bin/tl-perfmodel: cmd/tl-perfmodel.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-perfmodel.c lib/libtl.a $(LDLIBS)
bin/tl-replay: cmd/tl-replay.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-replay.c lib/libtl.a $(LDLIBS)

tests/tools/measure: tests/tools/measure.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/tools/measure.c
tests/tools/multiply: tests/tools/multiply.c lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/tools/multiply.c lib/libtl.a $(LDLIBS)
tests/tools/schema: tests/tools/schema.c lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/tools/schema.c lib/libtl.a $(LDLIBS)

# The category table with tests/category/row.tsv added, linked in place
# of lib/stream/categories_table.o (the archive's copy is then not used).
tests/category/categories_table.c: share/tl/categories.tsv tests/category/row.tsv \
    tests/tools/embed.awk
	cat share/tl/categories.tsv tests/category/row.tsv | \
	    awk -v name=tl_default_categories -f tests/tools/embed.awk > $@
tests/category/tl-categorize: cmd/tl-categorize.c tests/category/categories_table.c lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-categorize.c tests/category/categories_table.c lib/libtl.a $(LDLIBS)
tests/category/tl-findings: cmd/tl-findings.c tests/category/categories_table.c lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-findings.c tests/category/categories_table.c lib/libtl.a $(LDLIBS)
tests/category/tl-parse: cmd/tl-parse.c tests/category/categories_table.c lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-parse.c tests/category/categories_table.c lib/libtl.a $(LDLIBS)

# lib/common/outfile.c with its test hook, linked in place of the
# archive's copy.
tests/fault/outfile.o: lib/common/outfile.c lib/common/outfile.h lib/common/util.h
	@mkdir -p tests/fault
	$(CC) $(CPPFLAGS) -DTL_TEST_HOOKS $(CFLAGS) -c -o $@ lib/common/outfile.c
tests/fault/tl-findings: cmd/tl-findings.c tests/fault/outfile.o lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-findings.c tests/fault/outfile.o lib/libtl.a $(LDLIBS)
tests/fault/tl-replay: cmd/tl-replay.c tests/fault/outfile.o lib/libtl.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-replay.c tests/fault/outfile.o lib/libtl.a $(LDLIBS)

# Unit tests: tests/unit/test_X.c against the library.
$(UNIT): tests/unit/unit.h tests/unit/model.h lib/libtl.a
.c:
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< lib/libtl.a $(LDLIBS)

check: all $(UNIT) $(TOOLS) $(CATTEST) $(FAULTTEST)
	sh tests/run.sh

# Statically linked programs to copy into containers (see CONTRIBUTING.md
# for the LGPL terms of libcsv).
static:
	$(MAKE) clean
	$(MAKE) all LDFLAGS="$(LDFLAGS) -static" ISAL=0

# AddressSanitizer + UndefinedBehaviorSanitizer build of everything.
asan:
	$(MAKE) clean
	$(MAKE) all $(UNIT) $(TOOLS) $(CATTEST) $(FAULTTEST) CFLAGS="$(CFLAGS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" LDFLAGS="$(LDFLAGS) -fsanitize=address,undefined"

# ThreadSanitizer build of everything (CI runs the threaded cases of the
# suite under it: sh tests/run.sh --threads 4).
tsan:
	$(MAKE) clean
	$(MAKE) all $(UNIT) $(TOOLS) $(CATTEST) CFLAGS="$(CFLAGS) -O1 -fsanitize=thread -fno-omit-frame-pointer" LDFLAGS="$(LDFLAGS) -fsanitize=thread"

bench: all $(TOOLS)
	sh tests/bench.sh
	sh tests/benchranks.sh

bench-ranks: all $(TOOLS)
	sh tests/benchranks.sh

# libFuzzer harnesses (tests/fuzz/), built with clang against a copy of the
# library compiled for fuzzing in fuzz/obj; everything made goes under
# fuzz/.  make fuzz [SECONDS=N] runs each harness N seconds on its corpus.
FUZZCC = clang
FUZZFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
SECONDS = 60
LIBSRC = $(LIBOBJ:.o=.c)
FUZZBIN = \
	fuzz/bin/fuzz_compare \
	fuzz/bin/fuzz_efficiency \
	fuzz/bin/fuzz_expr \
	fuzz/bin/fuzz_findings \
	fuzz/bin/fuzz_stream \
	fuzz/bin/fuzz_tables \
	fuzz/bin/fuzz_timeline \
	fuzz/bin/fuzz_trace

fuzz/obj/libtl.a: $(LIBSRC) $(LIBHDR) config.mk
	@mkdir -p fuzz/obj
	@echo "$(FUZZCC) -fsanitize=fuzzer-no-link,... -c lib/*.c (into fuzz/obj)"
	@objs=; for f in $(LIBSRC); do \
		o=fuzz/obj/$$(echo $${f#lib/} | tr / _); o=$${o%.c}.o; \
		$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) \
		    -fsanitize=fuzzer-no-link -c $$f -o $$o || exit 1; \
		objs="$$objs $$o"; \
	done; \
	rm -f $@; $(AR) rcs $@ $$objs

fuzz/bin/fuzz_compare: tests/fuzz/fuzz_compare.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_compare.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_efficiency: tests/fuzz/fuzz_efficiency.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_efficiency.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_expr: tests/fuzz/fuzz_expr.c fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_expr.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_findings: tests/fuzz/fuzz_findings.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_findings.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_stream: tests/fuzz/fuzz_stream.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_stream.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_tables: tests/fuzz/fuzz_tables.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_tables.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_timeline: tests/fuzz/fuzz_timeline.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_timeline.c fuzz/obj/libtl.a $(LDLIBS)
fuzz/bin/fuzz_trace: tests/fuzz/fuzz_trace.c tests/fuzz/harness.h fuzz/obj/libtl.a $(LIBHDR)
	@mkdir -p fuzz/bin
	$(FUZZCC) $(CPPFLAGS) $(CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer \
	    -o $@ tests/fuzz/fuzz_trace.c fuzz/obj/libtl.a $(LDLIBS)

fuzz: $(FUZZBIN) bin/tl-parse bin/tl-perfmodel bin/tl-efficiency
	sh tests/fuzz/fuzz.sh $(SECONDS)

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 \
	    $(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(MANPREFIX)/man7 \
	    $(DESTDIR)$(SHAREDIR)/samples $(DESTDIR)$(SHAREDIR)/replay
	cp -f $(BIN) $(DESTDIR)$(PREFIX)/bin/
	for f in $(MAN1) $(MAN5) $(MAN7) share/tl/tl.mk share/tl/tl-rank.sh \
	    share/tl/tl-slurm.sh; do \
	    case $$f in \
	    man/*) d=$(DESTDIR)$(MANPREFIX)/man$${f##*.} ;; \
	    *) d=$(DESTDIR)$(SHAREDIR) ;; \
	    esac; \
	    sed 's|/usr/local/share/tl|$(SHAREDIR)|g' $$f > $$d/$${f##*/} || \
	    exit 1; \
	done
	mkdir -p $(DESTDIR)$(SHAREDIR)/models
	cp -f share/tl/categories.tsv share/tl/causes.tsv share/tl/culprits.tsv share/tl/kernels.tsv share/tl/ops.tsv share/tl/gpus.tsv $(DESTDIR)$(SHAREDIR)/
	cp -f share/tl/models/* $(DESTDIR)$(SHAREDIR)/models/
	cp -f share/tl/samples/* $(DESTDIR)$(SHAREDIR)/samples/
	cp -f share/tl/replay/* $(DESTDIR)$(SHAREDIR)/replay/
	chmod 755 $(DESTDIR)$(SHAREDIR)/tl-rank.sh $(DESTDIR)$(SHAREDIR)/tl-slurm.sh

uninstall:
	for f in $(BIN); do rm -f $(DESTDIR)$(PREFIX)/bin/$${f#bin/}; done
	for f in $(MAN1) $(MAN5) $(MAN7); do \
	    s=$${f##*.}; rm -f $(DESTDIR)$(MANPREFIX)/man$$s/$${f#man/}; done
	rm -rf $(DESTDIR)$(SHAREDIR)

clean:
	rm -rf bin lib/*/*.o lib/libtl.a $(GENOBJ:.o=.c) $(UNIT) $(TOOLS) \
	    $(CATTEST) tests/category/categories_table.c $(FAULTTEST) \
	    tests/fault/outfile.o
	rm -rf fuzz/obj fuzz/bin

.PHONY: all check static asan tsan bench bench-ranks fuzz install uninstall clean
