#!/bin/sh
# End-to-end cases of the programs; prints "ok NAME", "FAIL NAME" or
# "SKIP NAME" per case (tests/run.sh counts them).
# usage: cases.sh BINDIR SHAREDDIR
BIN=$1
SHARED=$2
T=$SHARED/traces
SAMPLE=share/tl/samples/mi300x-transformer-step.json.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$BIN/tl-parse

. "$(dirname "$0")/check.sh"
need_shared() {
	[ -d "$T" ] && return 0
	echo "SKIP $1 (no $T)"
	return 1
}

# Command line.
check "--help on stdout, exit 0" "$P --help | grep -q '^usage: tl-parse'"
check "--version" "[ \"\$($P --version)\" = 'tl-parse (tl) $(sed -n 's/^VERSION = //p' config.mk)' ]"
check "unknown option: exit 2, one line and the pointer to --help on stderr" \
    "$P --bogus 2> $tmp/e; [ \$? = 2 ] && [ \$(wc -l < $tmp/e) = 2 ] && grep -q \"^Try 'tl-parse --help' for more information.$\" $tmp/e"
check "bad --step: exit 2" "$P --step x $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "two views: exit 2" "$P -t -k $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "--per-device without --timeline: exit 2" "$P -d $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "missing file: exit 1, prog: file: reason" \
    "$P /nonexistent/t.json 2> $tmp/e; [ \$? = 1 ] && grep -q '^tl-parse: /nonexistent/t.json: No such file' $tmp/e"
check "write error on /dev/full: exit 1" \
    "$P $SAMPLE > /dev/full 2> $tmp/e; [ \$? = 1 ] && grep -q 'write error' $tmp/e"
check "closed pipe ends quietly" \
    "$P $SAMPLE 2> $tmp/e | head -1 > /dev/null; [ ! -s $tmp/e ]"
check "bad --threads: exit 2" \
    "$P -j 0 $SAMPLE 2>/dev/null; [ \$? = 2 ] && $P --threads x $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "--threads 1, 2 and 5: the same output, every view" \
    "for v in '' -t -k -m -l --stack; do $P -j 1 \$v $SAMPLE > $tmp/a && $P -j 2 \$v $SAMPLE > $tmp/b && $P --threads 5 \$v $SAMPLE > $tmp/c && cmp $tmp/a $tmp/b && cmp $tmp/a $tmp/c || exit 1; done"
if need_shared "--threads on a trace of many rows"; then
	# More rows than two chunks of tl_os_rows (256 each): formatted on
	# several threads and written in order.
	check "--threads 1 and 3: the same op stream formatted on several threads (TSV, CSV, --stack, --launchers)" \
	    "for v in '' --csv --stack -l; do $P -j 1 \$v $T/mi300-resnet-act-checkpoint.json.gz > $tmp/a && $P -j 3 \$v $T/mi300-resnet-act-checkpoint.json.gz > $tmp/b && [ \$(wc -l < $tmp/a) -gt 600 ] && cmp $tmp/a $tmp/b || exit 1; done"
fi
check "progress line on a terminal only, not with --quiet (tests/progress.sh)" \
    "sh tests/progress.sh $P $SAMPLE"
check "a gzip file cut shorter while it is read: exit 1 and a message, no SIGBUS (tests/shrink.sh)" \
    "sh tests/shrink.sh $P tests/tools/multiply $SAMPLE"
check "--threads: the same errors on bad input" \
    "for f in tests/bad/*.json*; do $P -j 1 \$f > $tmp/a 2> $tmp/ea; r1=\$?; $P -j 3 \$f > $tmp/b 2> $tmp/eb; [ \$? = \$r1 ] && cmp -s $tmp/a $tmp/b && cmp -s $tmp/ea $tmp/eb || { echo \$f; exit 1; }; done"

# The sample trace.
check "stdin (gzip and plain) equals the file" \
    "$P -n s $SAMPLE > $tmp/a && $P -n s < $SAMPLE > $tmp/b && zcat $SAMPLE | $P -n s - > $tmp/c && cmp $tmp/a $tmp/b && cmp $tmp/a $tmp/c"
check "trace column is the file name, - for stdin" \
    "$P $SAMPLE | awk -F'\t' 'NR == 2 { exit \$1 != \"$SAMPLE\" }' && zcat $SAMPLE | $P | awk -F'\t' 'NR == 2 { exit \$1 != \"-\" }'"
check "output is byte-identical across runs" \
    "$P $SAMPLE > $tmp/a && $P $SAMPLE > $tmp/b && cmp $tmp/a $tmp/b"
check "several files: one header, rows of both" \
    "n=\$($P $SAMPLE | wc -l); m=\$($P $SAMPLE $SAMPLE | wc -l); [ \$m = \$((2 * n - 1)) ] && [ \$($P $SAMPLE $SAMPLE | grep -c '^trace	') = 1 ]"
check "rank from distributedInfo" \
    "$P $SAMPLE | awk -F'\t' 'NR > 1 && \$2 != \"0\" { exit 1 }'"
check "every linked GPU event in exactly one row (sample)" \
    "sum=\$($P $SAMPLE | awk -F'\t' 'NR > 1 { s += \$12 } END { print s }'); \
     linked=\$($P -m $SAMPLE | awk -F'\t' '\$3 == \"tl.linked_gpu_events\" { print \$4 }'); \
     [ \"\$sum\" = \"\$linked\" ] && [ \"\$linked\" -gt 400 ]"
check "uids of rows' kernels are distinct (sample)" \
    "$P $SAMPLE | awk -F'\t' 'NR > 1 { print \$14 }' | grep -o '\"uid\":[0-9]*' | sort | uniq -d | wc -l | grep -qx 0"
check "pct_gpu_time sums to 100 (sample)" \
    "$P $SAMPLE | awk -F'\t' 'NR > 1 { s += \$24 } END { d = s - 100; if (d < 0) d = -d; exit d > 1e-9 }'"
check "--step 3 keeps the step, --step 4 is an error" \
    "$P --step 3 $SAMPLE | awk 'END { exit NR < 100 }' && { $P --step 4 $SAMPLE 2> $tmp/e; [ \$? = 1 ] && grep -q 'no ProfilerStep#4' $tmp/e; }"
check "--window selects host events by start time" \
    "a=\$($P $SAMPLE | awk -F'\t' 'NR == 2 { print \$10 }'); \
     [ \$($P --window \$a,\$(echo \$a | awk '{ printf \"%.3f\", \$1 + 0.001 }') $SAMPLE | wc -l) = 2 ]"
check "--stack adds module and call_stack" \
    "$P --stack $SAMPLE | awk -F'\t' 'NR == 1 && \$(NF-1) != \"module\" { bad = 1; exit } NR > 1 && \$(NF-1) ~ /DecoderLayer/ { n++ } END { exit bad || (n == 0) }'"
check "module context by default: module and call_stack columns" \
    "$P $SAMPLE | awk -F'\t' 'NR == 1 && (\$(NF-1) != \"module\" || \$NF != \"call_stack\") { bad = 1; exit } NR > 1 && \$(NF-1) ~ /DecoderLayer/ { n++ } END { exit bad || (n == 0) }'"
check "default module is --stack's, call_stack its innermost 8 frames" \
    "$P $SAMPLE > $tmp/a && $P --stack $SAMPLE > $tmp/b && paste $tmp/a $tmp/b | awk -F'\t' '{ h = NF / 2; if (\$(h - 1) != \$(NF - 1)) bad++; if (NR == 1) next; n = split(\$NF, f, \";\"); s = \"\"; for (i = n > 8 ? n - 7 : 1; i <= n; i++) s = s (s == \"\" ? \"\" : \";\") f[i]; if (s != \$h) bad++; deep += n > 8 } END { exit bad > 0 || deep == 0 }'"
# Frames read before the cpu_op that starts in them, more than one pruning
# batch of them: the file is read again keeping every frame; standard
# input cannot be, and its ops go without module context.
awk 'BEGIN {
	printf "{\"traceEvents\": [\n"
	printf "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"main.py(1): run\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1000000},\n"
	printf "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: Net_0\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 900000},\n"
	for (i = 0; i < 40000; i++)
		printf "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"f.py(%d): g\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 5},\n", i, 10 * i + 10
	printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 101, \"dur\": 3, \"args\": {\"External id\": 1}},\n"
	printf "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 102, \"dur\": 1, \"args\": {\"External id\": 1, \"correlation\": 7}},\n"
	printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 20, \"args\": {\"External id\": 1, \"correlation\": 7, \"stream\": 7}}\n"
	printf "]}\n"
}' > $tmp/late.json
check "frames before their cpu_op: the file is read again, context as --stack" \
    "$P $tmp/late.json | awk -F'\t' 'NR == 2 { exit \$(NF-1) != \"Net_0\" || \$NF != \"main.py(1): run;nn.Module: Net_0;f.py(9): g\" }' &&
     $P $tmp/late.json | cut -f2- > $tmp/a && $P --stack $tmp/late.json | cut -f2- > $tmp/b && cmp $tmp/a $tmp/b"
check "frames before their cpu_op on stdin: no module context, a warning" \
    "$P < $tmp/late.json 2> $tmp/e | awk -F'\t' 'NR == 2 { exit \$(NF-1) != \"\" || \$NF != \"\" }' &&
     grep -q 'no module context from standard input' $tmp/e"
check "--no-context: module, call_stack and trace_python_frames empty, the rest but idle_gaps the same" \
    "$P -N $SAMPLE > $tmp/a && $P $SAMPLE > $tmp/b && [ \$(awk -F'\t' 'NR > 1 && (\$(NF-2) != \"\" || \$(NF-1) != \"\" || \$NF != \"\")' $tmp/a | wc -l) = 0 ] &&
     awk -F'\t' -v OFS='\t' '{ NF -= 6; print }' $tmp/a > $tmp/a2 && awk -F'\t' -v OFS='\t' '{ NF -= 6; print }' $tmp/b > $tmp/b2 && cmp $tmp/a2 $tmp/b2 &&
     head -1 $tmp/a | grep -q 'module	call_stack\$'"
check "--stack with --no-context: exit 2" "$P -S -N $SAMPLE > /dev/null 2>&1; [ \$? = 2 ]"
check "numbers do not depend on --stack" \
    "$P $SAMPLE | cut -f1-36 > $tmp/a && $P --stack $SAMPLE | cut -f1-36 > $tmp/b && cmp $tmp/a $tmp/b"
check "--csv writes the same rows as CSV" \
    "[ \$($P --csv $SAMPLE | wc -l) = \$($P $SAMPLE | wc -l) ] && $P --csv $SAMPLE | head -1 | grep -q '^trace,rank,uid,name,'"
check "--per-device timeline of a one-GPU trace equals the pooled one" \
    "$P -t $SAMPLE | cut -f4- > $tmp/a && $P -t -d $SAMPLE | cut -f4- > $tmp/b && cmp $tmp/a $tmp/b"
check "timeline identity: computation + exposed comm + exposed memcpy + idle = total" \
    "$P -t $SAMPLE | awk -F'\t' '{ v[\$4] = \$5 } END { d = v[\"computation\"] + v[\"exposed_comm\"] + v[\"exposed_memcpy\"] + v[\"idle\"] - v[\"total\"]; exit (d > 1e-6 || d < -1e-6) }'"
check "custom op table re-categorises" \
    "printf 'name\tcategory\tdirection\tmodel\tbwd_model\naten::mm\tother\tfwd\t\t\n' > $tmp/ops.tsv && \
     $P --ops $tmp/ops.tsv $SAMPLE | awk -F'\t' '\$4 == \"aten::mm\" && \$5 != \"other\" { exit 1 }'"
check "bad op table: exit 1 with file and line" \
    "printf 'name\tcategory\tdirection\nx\tnope\tfwd\n' > $tmp/bad.tsv; $P --ops $tmp/bad.tsv $SAMPLE 2> $tmp/e; [ \$? = 1 ] && grep -q 'bad.tsv:2: unknown category' $tmp/e"

# Real traces.
if need_shared "real traces"; then
	# The collective column against the trace's record_param_comms.
	check "collective column: type, sizes, group and order of the 12 collectives" \
	    "python3 tests/collective.py $P $T/mi300-resnet-act-checkpoint.json.gz 12"
	# One rank's collectives by type: bandwidths, exposed time, the link.
	check "collectives of one rank: kernel time, exposed share, bandwidths, the link's (--ranks-per-node)" \
	    "$P $T/mi300-resnet-act-checkpoint.json.gz 2>/dev/null | $BIN/tl-efficiency --hw mi300x > $tmp/coll.tsv 2>/dev/null && \
	     python3 tests/collperf.py $BIN $tmp/coll.tsv"
	# Rank sets simulated from a shared trace (tests/gen/gen-ranks.py).
	mkdir -p "$tmp/xrank"
	check "across ranks: straggler, host straggler, slow link, shifted windows, 8 and 64 ranks, incomplete jobs" \
	    "python3 tests/xrank.py $BIN $T/mi300-resnet-act-checkpoint.json.gz $tmp/xrank > $tmp/xrank.log || { grep FAIL $tmp/xrank.log; false; }"
	# Per-rank summaries: bounded, merged associatively, the same report
	# as the op streams', 1 024 ranks reduced under 64 MB (tests/summary.py).
	check "per-rank summaries: small, mergeable byte for byte, same report as the streams, 1024 ranks in 64 MB" \
	    "python3 tests/summary.py $BIN $T/mi300-resnet-act-checkpoint.json.gz $tmp/summary > $tmp/summary.log || { grep FAIL $tmp/summary.log; false; }"
	for f in "$T"/*.json.gz; do
		n=$(basename "$f" .json.gz)
		check "$n: each linked GPU event counted once" \
		    "sum=\$($P $f 2>/dev/null | awk -F'\t' 'NR > 1 { s += \$12 } END { print s + 0 }'); \
		     linked=\$($P -m $f | awk -F'\t' '\$3 == \"tl.linked_gpu_events\" { print \$4 }'); [ \"\$sum\" = \"\$linked\" ]"
	done
	check "cpu-only: header only, one notice, exit 0" \
	    "$P $T/cpu-only.json.gz > $tmp/o 2> $tmp/e && [ \$(wc -l < $tmp/o) = 1 ] && [ \$(wc -l < $tmp/e) = 1 ] && grep -q 'no GPU events' $tmp/e"
	check "mi210 GPU-only: timeline busy 5343.422 µs exact, one synthetic row per kernel" \
	    "$P -t $T/mi210-gpu-only.json.gz | awk -F'\t' '\$4 == \"busy\" && \$5 == \"5343.422\" { n++ } END { exit n != 1 }' && \
	     $P $T/mi210-gpu-only.json.gz | awk -F'\t' 'NR > 1 { n++; if (\$7 != \"synthetic\" || \$4 !~ /^hip/) { bad = 1; exit } } END { exit bad || (n != 562) }'"
	check "qwen H100: 509 unlinked kernels" \
	    "$P -m $T/h100-qwen1.5-0.5b.json.gz | awk -F'\t' '\$3 == \"tl.unlinked_gpu_events\" { exit \$4 != 509 }'"
	check "toy: op stream equals the golden file" \
	    "$P -n toy $T/toy-linking.json | cut -f3-13,15-36 | diff - tests/golden/toy-ops.tsv"
	check "toy: kernel table equals the golden file" \
	    "$P -k -n toy $T/toy-linking.json | diff - tests/golden/toy-kernels.tsv"
	check "qwen H100: aten::mm 48 calls of 8944x1024x2816, 4055.251 µs" \
	    "$P $T/h100-qwen1.5-0.5b.json.gz | awk -F'\t' '\$4 == \"aten::mm\" && \$15 == \"[[8944,1024],[1024,2816]]\" { n++; s += \$13 } END { exit !(n == 48 && s > 4055.2509 && s < 4055.2511) }'"
fi

# tl-categorize, tl-perfmodel, tl-efficiency.
C=$BIN/tl-categorize
M=$BIN/tl-perfmodel
E=$BIN/tl-efficiency
$P $SAMPLE > $tmp/s.tsv 2>/dev/null
for p in tl-categorize tl-perfmodel tl-efficiency; do
	check "$p --help and --version" \
	    "$BIN/$p --help | grep -q '^usage: $p' && [ \"\$($BIN/$p --version)\" = '$p (tl) $(sed -n 's/^VERSION = //p' config.mk)' ]"
	check "$p: unknown option exits 2" "$BIN/$p --bogus < $tmp/s.tsv 2>/dev/null; [ \$? = 2 ]"
	check "$p: write error on /dev/full: exit 1" \
	    "$BIN/$p \$([ $p = tl-efficiency ] && echo --hw mi300x) $tmp/s.tsv > /dev/full 2> $tmp/e; [ \$? = 1 ] && grep -q 'write error' $tmp/e"
	check "$p: closed pipe ends quietly" \
	    "$BIN/$p \$([ $p = tl-efficiency ] && echo --hw mi300x) $tmp/s.tsv 2> $tmp/e | head -1 > /dev/null; [ ! -s $tmp/e ]"
done
check "categorize gemm keeps exactly the gemm rows" \
    "[ \$($C gemm $tmp/s.tsv | awk -F'\t' 'NR > 1' | wc -l) = \$(awk -F'\t' '\$5 == \"gemm\"' $tmp/s.tsv | wc -l) ] && \
     $C gemm $tmp/s.tsv | awk -F'\t' 'NR > 1 && \$5 != \"gemm\" { bad = 1; exit } END { exit bad || (NR < 10) }'"
check "categorize: a category and its inverse make the whole stream" \
    "a=\$($C elementwise $tmp/s.tsv | wc -l); b=\$($C -v elementwise $tmp/s.tsv | wc -l); n=\$(wc -l < $tmp/s.tsv); [ \$((a + b)) = \$((n + 1)) ]"
check "categorize: group norm = the five norms, sdpa = attention" \
    "[ \"\$($C norm $tmp/s.tsv | md5sum)\" = \"\$($C batchnorm layernorm groupnorm instancenorm rmsnorm $tmp/s.tsv | md5sum)\" ] && \
     [ \"\$($C sdpa $tmp/s.tsv | md5sum)\" = \"\$($C attention $tmp/s.tsv | md5sum)\" ] && [ \$($C sdpa $tmp/s.tsv | wc -l) -gt 1 ]"
check "categorize: stdin equals the file, CSV in gives the same rows" \
    "$C gemm < $tmp/s.tsv > $tmp/a && $C gemm $tmp/s.tsv > $tmp/b && cmp $tmp/a $tmp/b && \
     $P --csv $SAMPLE > $tmp/s.csv && $C gemm $tmp/s.csv | cmp - $tmp/b"
check "categorize: unknown category exits 2 and names it" \
    "$C gemmm $tmp/s.tsv 2> $tmp/e; [ \$? = 2 ] && grep -q \"'gemmm' is neither a category\" $tmp/e"
check "categorize --list prints the op table" \
    "$C --list | head -1 | grep -q '^name	category	direction	model	bwd_model	extra_model\$' && $C --list | grep -q '^aten::mm	gemm	fwd	gemm'"
check "categorize --rules: kernel and op patterns re-categorise before selecting" \
    "printf 'match\tpattern\tcategory\tdirection\nkernel\t*Cijk_*\ttriton\t\nop\taten::add*\tcomm\tbwd\n' > $tmp/rules.tsv && \
     n=\$($C --rules $tmp/rules.tsv triton $tmp/s.tsv | awk -F'\t' 'NR > 1 && \$4 ~ /mm/' | wc -l) && [ \$n -gt 0 ] && \
     $C --rules $tmp/rules.tsv comm $tmp/s.tsv | awk -F'\t' 'NR > 1 && \$4 ~ /^aten::add/ && \$6 != \"bwd\" { bad = 1; exit } NR > 1 { n++ } END { exit bad || (n == 0) }'"
check "categorize --rules: a bad rules file is an error with its line" \
    "printf 'match\tpattern\tcategory\nop\tx\tnope\n' > $tmp/r.tsv; $C --rules $tmp/r.tsv gemm $tmp/s.tsv 2> $tmp/e; [ \$? = 1 ] && grep -q 'r.tsv:2: unknown category' $tmp/e"
check "perfmodel: running it twice replaces its columns" \
    "$M $tmp/s.tsv > $tmp/a && $M $tmp/a > $tmp/b && cmp $tmp/a $tmp/b"
check "perfmodel: GEMM rows of the sample have flops, bytes and a compute spec" \
    "$C gemm $tmp/s.tsv | $M | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"name\"] == \"aten::mm\" && (\$c[\"flops\"] == \"\" || \$c[\"bytes\"] == \"\" || \$c[\"compute_spec\"] != \"matrix_bf16\") { bad = 1; exit } { n++ } END { exit bad || (n == 0) }'"
check "perfmodel --models: a user model for an op without one" \
    "$M $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"name\"] == \"aten::sin\" && \$c[\"flops\"] != \"\" { exit 1 }' && \
     printf '# a test model\nop\tmaf\tflops\tbytes\naten::sin\tvector\t7*numel(0)\t2*numel(0)*bpe(0)\n' > $tmp/m.tsv && \
     $M --models $tmp/m.tsv $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"name\"] == \"aten::sin\" { n++; if (\$c[\"input_dims\"] != \"[[1,2048,128]]\" || \$c[\"flops\"] != 7 * 2048 * 128 || \$c[\"bytes\"] != 2 * 2048 * 128 * 4 || \$c[\"perf_model\"] != \"file\") { bad = 1; exit } } END { exit bad || (n != 1) }'"
check "perfmodel --models: a bad formula is an error with file and line" \
    "printf 'op\tmaf\tflops\tbytes\nx\tvector\t2*(numel(0)\t\n' > $tmp/m.tsv; $M --models $tmp/m.tsv $tmp/s.tsv 2> $tmp/e; [ \$? = 1 ] && grep -q 'm.tsv:2: flops formula' $tmp/e"
check "efficiency runs the perf model itself: same numbers as after tl-perfmodel" \
    "$E --hw mi300x $tmp/s.tsv > $tmp/a && $M $tmp/s.tsv | $E --hw mi300x > $tmp/b && cmp $tmp/a $tmp/b"
check "efficiency: bound, roofline and assessment on GEMMs; roof recorded" \
    "$C gemm $tmp/s.tsv | $E --hw mi300x | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"bound\"] == \"\" || \$c[\"pct_roofline\"] == \"\" || \$c[\"assessment\"] == \"\" || \$c[\"roof\"] != \"achievable\" || \$c[\"peak_tflops\"] != 708 { bad = 1; exit } { n++ } END { exit bad || (n == 0) }'"
check "efficiency --roof peak uses the dense data-sheet peak" \
    "$C gemm $tmp/s.tsv | $E --hw mi300x --roof peak | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"peak_tflops\"] != 1307.4 || \$c[\"roof\"] != \"peak\" { exit 1 }'"
check "efficiency --peak-tflops/--peak-tbs without --hw" \
    "$C gemm $tmp/s.tsv | $E --peak-tflops 100 --peak-tbs 2 | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"peak_tflops\"] != 100 || \$c[\"peak_tbs\"] != 2 { exit 1 }'"
check "efficiency --hw auto reads trace_gpu (MI300X sample)" \
    "$E --hw auto $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"hw\"] != \"mi300x\" { bad = 1; exit } END { exit bad || (NR < 2) }'"
check "efficiency: unknown --hw exits 2; --hw list lists the GPUs" \
    "$E --hw nosuch $tmp/s.tsv 2>/dev/null; [ \$? = 2 ] && $E --hw list | grep -q '^mi300x' && $E --hw list | grep -q '^h100'"
# --hw list's bf16 columns are --hw show's figures of each kind, empty
# where the table has none (no stand-in): H100 has no achievable figure.
check "efficiency: --hw list's bf16 peak and achievable are --hw show's, empty where absent" \
    "$E --hw show all > $tmp/roofs.tsv && $E --hw list > $tmp/gpus.tsv &&
     awk -F'\t' 'NR == FNR { if (\$2 == \"matrix_bf16\") v[\$1 \" \" \$3] = \$4; next }
     FNR == 1 { next }
     { n++; if (\$9 != v[\$1 \" peak\"] || \$10 != v[\$1 \" achievable\"]) bad++ }
     \$1 == \"h100\" && \$10 == \"\" && \$9 == 989.4 { h = 1 }
     \$1 == \"mi300x\" && \$10 == 708 { m = 1 }
     END { exit !(n > 10 && !bad && h && m) }' $tmp/roofs.tsv $tmp/gpus.tsv"
check "efficiency: elementwise baseline on memory-bound rows" \
    "$E --hw mi300x $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"eltwise_baseline_tbs\"] == \"\" { bad = 1; exit } \$c[\"bound\"] == \"memory\" && \$c[\"pct_eltwise_baseline\"] != \"\" { n++ } END { exit bad || (n == 0) }'"
check "efficiency --group: counts and kernel time add up to the instances" \
    "$E --hw mi300x $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { n++; t += \$c[\"kernel_time_us\"] } END { printf \"%d %.3f\n\", n, t }' > $tmp/a && \
     $E --hw mi300x --group $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { n += \$c[\"count\"]; t += \$c[\"kernel_time_us\"] } END { printf \"%d %.3f\n\", n, t }' > $tmp/b && cmp $tmp/a $tmp/b"
check "efficiency --group: one row per signature, sorted by total time" \
    "$E --hw mi300x --group $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     { k = \$c[\"name\"] \$c[\"input_dims\"] \$c[\"input_types\"] \$c[\"input_strides\"] \$c[\"concrete_inputs\"]; if (k in seen) exit 1; seen[k] = 1; \
       if (NR > 2 && \$c[\"kernel_time_us\"] > last) exit 1; last = \$c[\"kernel_time_us\"] }'"
# Serving ops (tests/data/serving-step.json): the step annotations of vLLM,
# SGLang and ATOM reach the paged attention rows as context_args, the MoE
# op's matmul_ogs kernels become TraceLens' pseudo-ops with the TopK op's k.
# Expected: uid kind kernel_time context_args flops bytes, by hand from the
# annotations (vLLM: 1 context request of 60 tokens, 4 decode requests of
# 1000 keys; H_Q 32, H_KV 8, d 128 + 128) and lib/model/model_*.c.
SERV=tests/data/serving-step.json
check "serving: context_args, pseudo-ops and their perf models" \
    "$P $SERV | $M | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     { print \$c[\"uid\"], \$c[\"name\"], \$c[\"category\"], \$c[\"row_kind\"], \$c[\"kernel_time_us\"], \$c[\"context_args\"], \$c[\"flops\"], \$c[\"bytes\"] }' > $tmp/a && \
     { echo 7 vllm::unified_attention_with_output attention model 20 \
         '{\"c_sq\":60,\"c_sk\":60,\"c_sqsq\":3600,\"c_sqsk\":3600,\"g_sq\":4,\"g_sk\":4000,\"g_sqsq\":4,\"g_sqsk\":4000}' \
         \$((32 * 256 * (2 * 3600 - 3600 + 2 * 4000))) \$(((60 + 4) * 40 * 256 * 2 + (4000 - 4) * 8 * 256 * 2)); \
       echo 12 pseudo_op::moe_triton_unfused_up moe pseudo 50 '{\"topk\":2,\"gated\":true,\"weight_dtype\":\"fp4\"}' \
         \$((2 * 64 * 2 * 256 * 256 * 2)) \$((64 * 256 * 2 + 8 * 2 * 256 * 256 / 2 + 64 * 2 * 256 * 2)); \
       echo 12 pseudo_op::moe_triton_unfused_down moe pseudo 30 '{\"topk\":2,\"gated\":false,\"weight_dtype\":\"fp4\"}' \
         \$((2 * 64 * 2 * 256 * 256)) \$((64 * 2 * 256 * 2 + 8 * 256 * 256 / 2 + 64 * 256 * 2)); \
       echo 12 pseudo_op::moe_triton_unfused_finalize_matmul_scatter moe pseudo 5 '' '' ''; \
       echo 12 vllm::moe_forward moe synthetic 3 '' '' ''; \
       echo 13 TopK other leaf 5 '' '' ''; \
       echo 35 sglang_profiler::attention_paged_attention_ragged attention model 10 \
         '{\"c_sq\":0,\"c_sk\":0,\"c_sqsq\":0,\"c_sqsk\":0,\"g_sq\":2,\"g_sk\":200,\"g_sqsq\":2,\"g_sqsk\":200}' \
         \$((16 * 128 * 2 * 200)) \$((2 * 20 * 128 * 2 + 198 * 4 * 128)); \
       echo 41 vllm::unified_attention_with_output attention model 10 \
         '{\"c_sq\":64,\"c_sk\":64,\"c_sqsq\":4096,\"c_sqsk\":4096,\"g_sq\":0,\"g_sk\":0,\"g_sqsq\":0,\"g_sqsk\":0}' \
         \$((32 * 256 * 4096)) \$((64 * 40 * 256 * 2)); \
       echo 46 vllm::unified_attention_with_output attention model 10 '' '' ''; \
       echo 51 _C::static_scaled_fp8_quant quant leaf 4 '' \$((64 * 7168)) \$((64 * 7168 * (2 + 1) + 4)); \
       echo 56 _C::cutlass_scaled_mm gemm leaf 30 '' \$((2 * 64 * 2048 * 7168)) \$((64 * 7168 + 7168 * 2048 + 64 * 2048 * 2)); \
       } > $tmp/b && diff $tmp/a $tmp/b"
check "serving: a model file's dtype column picks the precision's slot (quant: its bf16 input)" \
    "$P $SERV | $M | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"uid\"] == 51 && \$c[\"compute_spec\"] == \"vector_bf16\" && \$c[\"input_types\"] ~ /^\\[\"c10::Float8_e4m3fn\"/ { n++ } END { exit n != 1 }'"
check "serving: a triton MoE's bf16 x fp4 product is judged on the bf16 matrix roof (the wider operand)" \
    "$P $SERV | $M | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"name\"] ~ /^pseudo_op::moe_triton_unfused_(up|down)\$/ && \$c[\"compute_spec\"] == \"matrix_bf16\" { n++ } END { exit n != 2 }'"
check "serving: without a step annotation, perf_error names the missing sums" \
    "$P $SERV | $M | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"uid\"] == 46 && \$c[\"perf_error\"] ~ /no c_sq in context_args/ { n++ } END { exit n != 1 }'"
check "serving: the GEMM report counts the fp8 GEMM and the quantization op" \
    "$P $SERV > $tmp/s2.tsv && $E --hw mi300x $tmp/s2.tsv | $BIN/tl-findings -o $tmp/fo - > /dev/null && \
     grep -qx -- '- \*\*Quantized GEMMs detected:\*\* 1 signatures; quantization ops (\`quant\`): 1 signatures, 2.3 % of compute' $tmp/fo/category_findings/gemm_findings.md"
check "serving: tl-efficiency runs the models with the context (same numbers)" \
    "$P $SERV > $tmp/s2.tsv && $E --hw mi300x $tmp/s2.tsv > $tmp/a && $M $tmp/s2.tsv | $E --hw mi300x > $tmp/b && cmp $tmp/a $tmp/b"
if need_shared "pipeline on real traces"; then
	check "batch_norm of resnet: training and affine from the call, bandwidth filled" \
	    "$P $T/mi300-resnet-act-checkpoint.json.gz | $C batchnorm | $E --hw mi300x | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
	     \$c[\"name\"] == \"aten::batch_norm\" { n++; if (\$c[\"params\"] !~ /\"is_training\":true/ || \$c[\"params\"] !~ /\"is_affine\":true/ || \$c[\"bytes\"] == \"\" || \$c[\"tbs\"] == \"\") { bad = 1; exit } } END { exit bad || (n != 117) }'"
fi
# Above the peak roof (issue 30): tests/data/above-peak.expect has the
# hand-computed figures.  uid 2 (139 % of peak compute) and 17 (200 % of
# peak bandwidth) are "above peak", with no pct_roofline and the cause in
# perf_error; uid 7 (104.4 %) is within the 5 % tolerance.
AP=tests/data/above-peak.json
$P $AP 2>/dev/null | $E --hw auto > $tmp/ap.tsv 2>/dev/null
cat > $tmp/apcol.awk <<'EOF'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ printf "%s:%s:%s\n", $c["uid"], $c["assessment"], $c[k] }
EOF
apcol="awk -F'\t' -f $tmp/apcol.awk -v k"
check "above peak: rows faster than the peak roof allows get the assessment, no pct_roofline" \
    "[ \"\$($apcol=pct_roofline $tmp/ap.tsv | tr '\n' ' ')\" = '2:above peak: 7:excellent:104.44467253032519 12:acceptable:49.61121945190447 17:above peak: ' ]"
check "above peak: perf_error names the resource, the % of the peak roof and the likely cause" \
    "$apcol=perf_error $tmp/ap.tsv | grep -qx '2:above peak:above peak: 139 % of the peak compute roof (989.4 TFLOPS) in 100 us is beyond the physical limit; likely cause: a model assumption or an argument the trace does not record.*' && \
     $apcol=perf_error $tmp/ap.tsv | grep -q '^17:above peak:above peak: 200 % of the peak memory roof (3.35 TB/s) in 60 us.*likely cause: a model assumption (the model counts bytes' && \
     $apcol=perf_error $tmp/ap.tsv | grep -qx '7:excellent:'"
check "above peak: --peak-tolerance 0 also takes the row at 104.4 %, 50 only the one at 200 %; a bad value exits 2" \
    "$E --hw auto --peak-tolerance -1 $tmp/ap.tsv 2>/dev/null; [ \$? = 2 ] && \
     $E --hw auto --peak-tolerance 0 $tmp/ap.tsv > $tmp/a && [ \$(grep -c 'above peak' $tmp/a) = 3 ] && \
     $E --hw auto --peak-tolerance 50 $tmp/ap.tsv > $tmp/a && [ \"\$($apcol=pct_roofline $tmp/a | grep -c 'above peak')\" = 1 ]"
check "above peak: read again, a row is judged afresh (no doubled perf_error)" \
    "$E --hw auto $tmp/ap.tsv > $tmp/a && cmp $tmp/a $tmp/ap.tsv"
check "above peak: --group averages only the rows within the peak (uid 2's group: 104.4 % of the 133 us row)" \
    "$E --hw auto --group $tmp/ap.tsv > $tmp/a && [ \"\$($apcol=pct_roofline $tmp/a | tr '\n' ' ')\" = '2:excellent:104.44467253032519 12:acceptable:49.61121945190447 17:above peak: ' ]"
cat > $tmp/apgrp.awk <<'EOF'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ printf "%s:%s:%s:%s:%s ", $c["uid"], $c["count"], $c["above_peak_count"],
    $c["above_peak_time_us"], substr($c["perf_error"], 1, 15) }
EOF
check "above peak: a --group row partly above peak counts those instances (uid 2's group: 1 of 2, 100 us; the add's: 1 of 1, 60 us) and gives their perf_error" \
    "$E --hw auto --group $tmp/ap.tsv > $tmp/apg.tsv && \
     [ \"\$(awk -F'\t' -f $tmp/apgrp.awk $tmp/apg.tsv)\" = '2:2:1:100:above peak: 139 12:1:0:0: 17:1:1:60:above peak: 200 ' ]"
check "above peak: tl-findings on the grouped stream leaves the group's instance above peak out as on the stream of instances (coverage 2 instances, GEMM average 76.3 %, not 93.1 %)" \
    "$E --hw auto --group $tmp/ap.tsv > $tmp/apg.tsv && $BIN/tl-findings $tmp/apg.tsv > $tmp/a && \
     grep -q '^\*\*Above the peak roof:\*\* 2 op instances (0.160 ms, 37.0 % of the GPU time)' $tmp/a && \
     grep -q '^- \`aten::mm\` \`\[\[4096,4096\],\[4096,4096\]\]\`, 1 instance, 0.100 ms: \`above peak: 139 %' $tmp/a && \
     grep -q 'Of the 0.433 ms of GPU time attributed to ops, 63.0 %' $tmp/a && \
     $BIN/tl-findings -C gemm $tmp/apg.tsv | grep -q 'Average efficiency: 76.3 % of roofline'"
check "above peak: the elementwise baseline leaves the 200 % add out (no simple op left: empty)" \
    "awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"eltwise_baseline_tbs\"] != \"\" { exit 1 }' $tmp/ap.tsv"
check "above peak: tl-findings lists them in the coverage and leaves them out of the GEMM average (76.3 %: 138.91+69.456 us of roofline over 133+140 us)" \
    "$BIN/tl-findings $tmp/ap.tsv > $tmp/a && grep -q '^\*\*Above the peak roof:\*\* 2 op instances (0.160 ms, 37.0 % of the GPU time)' $tmp/a && \
     grep -q '^- \`aten::mm\` \`\[\[4096,4096\],\[4096,4096\]\]\`, 1 instance, 0.100 ms: \`above peak: 139 %' $tmp/a && \
     grep -q 'has a perf model and is judged against its roofline' $tmp/a && grep -q 'Of the 0.433 ms of GPU time attributed to ops, 63.0 %' $tmp/a && \
     $BIN/tl-findings -C gemm $tmp/ap.tsv | grep -q 'Average efficiency: 76.3 % of roofline' && \
     $BIN/tl-findings --report rough $tmp/ap.tsv | grep -q '^\*\*Above the peak roof:\*\* 2 op instances'"
check "above peak: an op's achieved rates are over its instances within the peak roof (mm 4096^3: 137438953472 FLOPs / 133 us = 1033.376 TFLOPS/s, not 1179.7 over both; the add: none, empty in the CSV, null in the JSON)" \
    "rm -rf $tmp/apo && $BIN/tl-findings -o $tmp/apo $tmp/ap.tsv > /dev/null && \
     awk -F, 'NR > 1 && \$5 == 233 { exit !(\$11 > 1033.375 && \$11 < 1033.376) }' $tmp/apo/category_data/gemm_ops.csv && \
     grep -q '^aten::add,elementwise,fwd,1,60,.*,,,,' $tmp/apo/category_data/elementwise_ops.csv && \
     grep -q '\"tflops_s\":null,\"tbs\":null' $tmp/apo/category_data/elementwise_metrics.json"
# A comparison with one side above its peak roof (issue 30): the
# reference is above-peak.json with every kernel 3 times as long (no row
# above peak), the target the fixture itself.  Hand-computed on the
# target (H100 peaks 989.4 TFLOPS bf16, 3.35 TB/s): mm 4096^3, 2
# instances, 2 * 137438953472 FLOPs in 100 + 133 us = 119.237 % of the
# compute peak (116.5 us each); add, 402653184 bytes in 60 us = 200.325 %
# of the bandwidth peak.  The reference's mm runs at 39.7 %, its add at
# 66.8 %: within.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    if e.get("cat") == "kernel":
        e["dur"] *= 3
json.dump(d, open(sys.argv[2], "w"))' $AP $tmp/apslow.json
$P $AP > $tmp/apt.tsv 2>/dev/null
$P $tmp/apslow.json > $tmp/apr.tsv 2>/dev/null
cat > $tmp/apcmp.awk <<'EOF'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ printf "%s:%s:%s:%s:%s\n", $c["name"], $c["ref_above_peak_pct"], \
    $c["target_above_peak_pct"], $c["target_pct_roofline"], \
    $c[k] }
EOF
check "above peak: tl-compare marks the target's mm (119.237 %) and add (200.325 %), no efficiency there, the cause in target_perf_error" \
    "$BIN/tl-compare --ref $tmp/apr.tsv --target $tmp/apt.tsv > $tmp/apc.tsv && \
     awk -F'\t' -f $tmp/apcmp.awk -v k=target_perf_error $tmp/apc.tsv > $tmp/a && \
     grep -q '^aten::mm::119.23726563547856::above peak: 119 % of the peak compute roof (989.4 TFLOPS) in 116.5 us is beyond the physical limit; likely cause: a model assumption or an argument' $tmp/a && \
     grep -qx 'aten::mm:::49.61121945190447:' $tmp/a && \
     grep -q '^aten::add::200.3249671641791::above peak: 200 % of the peak memory roof (3.35 TB/s) in 60 us is beyond the physical limit; likely cause: a model assumption (the model counts bytes' $tmp/a && \
     [ \$(awk -F'\t' -f $tmp/apcmp.awk -v k=ref_perf_error $tmp/apc.tsv | grep -c ':\$') = 3 ]"
check "above peak: both comparative reports list the target's rows in their coverage (op, side, % of peak, time, cause); none when no side is above" \
    "$BIN/tl-findings $tmp/apc.tsv > $tmp/a && $BIN/tl-findings --report rough $tmp/apc.tsv > $tmp/b && \
     for f in $tmp/a $tmp/b; do \
       sed -n '/^### Coverage/,/^### Methodology/p' \$f > $tmp/cov && \
       grep -q '^\*\*Above the peak roof:\*\* 0 ops of the reference (0.000 ms) and 2 of the target (0.293 ms)' $tmp/cov && \
       grep -qF '| \`aten::mm\` \`[[4096,4096],[4096,4096]]\` | target | 119 | 0.233 | \`above peak: 119 % of the peak compute roof' $tmp/cov && \
       grep -qF '| \`aten::add\` \`[[67108864],[67108864],[]]\` | target | 200 | 0.060 | \`above peak: 200 % of the peak memory roof' $tmp/cov || exit 1; \
     done && grep -q '^| % of roofline | 39.75 | above peak |' $tmp/b && \
     $BIN/tl-compare --ref $tmp/apr.tsv --target $tmp/apr.tsv | $BIN/tl-findings | \
       grep -q '^\*\*Above the peak roof:\*\* none: no op of either side took less time'"
# One fixture per PyTorch era (issue 30): the op table maps every era's
# op names, the dtype table every spelling, and no argument is guessed.
# Hand-computed, for x [8,64,56,56], w [128,64,3,3], grad_output
# [8,128,28,28], float: dX = 2*prod(out)*prod(w[1:]) = 2*802816*576 =
# 924844032, dW = 2*prod(w)*N*prod(out[2:]) = 2*73728*8*784 = 924844032,
# FLOPs 1849688064; bytes 2*(802816+73728+1605632)*4 = 19857408.  The
# forward records no stride or padding: its output shape is the input of
# the op after it, max_pool2d [8,128,28,28]: 2*802816*576 = 924844032
# FLOPs, (1605632+73728+802816)*4 = 9928704 bytes.
cat > $tmp/era.awk <<'EOF'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ printf "%s|%s|%s|%s|%s|%s\n", $c["name"], $c["category"], $c["direction"], $c["flops"], $c["bytes"], $c["compute_spec"] }
EOF
cat > $tmp/params.awk <<'EOF'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ print $c["name"], $c["params"] }
EOF
$P tests/data/era-pytorch-1.8.json 2>/dev/null | $M > $tmp/era18.tsv
$P tests/data/era-pytorch-2.json 2>/dev/null | $M > $tmp/era2.tsv
check "PyTorch 1.8 (legacy categories): every op's category, direction and counts from the op table" \
    "[ \"\$(awk -F'\t' -f $tmp/era.awk $tmp/era18.tsv | tr '\n' ' ')\" = 'aten::convolution|conv|fwd|924844032|9928704|matrix_fp32 aten::max_pool2d_with_indices|reduce|fwd||| aten::add_|elementwise|fwd||| aten::copy_|elementwise|fwd|1605632|12845056|vector_fp32 aten::max_pool2d_with_indices_backward|reduce|bwd||| aten::cudnn_convolution_backward|conv|bwd|1849688064|19857408|matrix_fp32 ' ]"
check "PyTorch 1.8: no guessed stride or padding, no counts from missing shapes; perf_error says what is missing" \
    "grep -q 'aten::convolution: the trace does not record stride, padding, dilation, transposed (no concrete inputs) and no output shape: not modelled' $tmp/era2.tsv && \
     grep -q '{\"conv_out\":\[8,128,28,28\]}' $tmp/era18.tsv && \
     grep -q 'aten::add_: the trace records no input shapes (record_shapes off): not modelled' $tmp/era18.tsv && \
     awk -F'\t' -f $tmp/params.awk $tmp/era18.tsv | grep -q '^aten::cudnn_convolution_backward {\"convNd\"' && \
     ! awk -F'\t' -f $tmp/params.awk $tmp/era18.tsv | grep -q '\"stride\"\\|\"padding\"'"
# PyTorch 2.x: mm [64,1024]x[1024,1024] BFloat16: 2*64*1024*1024 =
# 134217728 FLOPs, (65536+1048576+65536)*2 = 2359296 bytes; mm
# [32,512]x[512,256]: 8388608 FLOPs, (16384+131072+8192)*2 = 311296 bytes,
# whether written torch.float16 (fp16) or bf16.  convolution_backward with
# no concrete inputs: the output is grad_output [4,32,16,16]: 2*32768*144 +
# 2*4608*4*256 = 18874368 FLOPs, 2*(32768+4608+65536)*2 = 411648 bytes.
# The first forward takes [4,32,16,16] from the op after it: 2*32768*144 =
# 9437184 FLOPs, (65536+4608+32768)*2 = 205824 bytes; the last has no op
# after it: no counts.
check "PyTorch 2.x: dtype spellings BFloat16, torch.float16, bf16 size and name the same dtypes" \
    "[ \"\$(awk -F'\t' -f $tmp/era.awk $tmp/era2.tsv | tr '\n' ' ')\" = 'aten::mm|gemm|fwd|134217728|2359296|matrix_bf16 aten::mm|gemm|fwd|8388608|311296|matrix_fp16 aten::mm|gemm|fwd|8388608|311296|matrix_bf16 aten::convolution|conv|fwd|9437184|205824|matrix_bf16 aten::convolution_backward|conv|bwd|18874368|411648|matrix_bf16 aten::_foreach_add_|elementwise|fwd||| aten::native_layer_norm_backward|layernorm|bwd|73728|57344|vector_bf16 aten::convolution|conv|fwd||| ' ]"
check "efficiency --no-baseline: the same rows, baseline columns empty" \
    "$E --hw mi300x $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i } { \$c[\"eltwise_baseline_tbs\"] = \$c[\"pct_eltwise_baseline\"] = \"\"; print }' > $tmp/a && \
     $E --hw mi300x --no-baseline $tmp/s.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i } NR > 1 && \$c[\"eltwise_baseline_tbs\"] != \"\" { exit 1 } { \$c[\"eltwise_baseline_tbs\"] = \$c[\"pct_eltwise_baseline\"] = \"\"; print }' > $tmp/b && cmp $tmp/a $tmp/b"

# tl-findings.
F=$BIN/tl-findings
$E --hw mi300x $tmp/s.tsv > $tmp/se.tsv 2>/dev/null
check "tl-findings --help and --version" \
    "$F --help | grep -q '^usage: tl-findings' && [ \"\$($F --version)\" = 'tl-findings (tl) $(sed -n 's/^VERSION = //p' config.mk)' ]"
check "tl-findings: usage errors exit 2" \
    "$F --bogus $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && $F --report category $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && \
     $F --category nosuch $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && $F --fail-on never $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && \
     $F --bottleneck 40 $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && \
     $F --net-bandwidth 50 $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && $F --ranks-per-node 0 $tmp/se.tsv 2>/dev/null; [ \$? = 2 ] && \
     $F --ranks-per-node 8 --net-bandwidth 0 $tmp/se.tsv 2>/dev/null; [ \$? = 2 ]"
check "tl-findings: a stream without efficiency columns is an error that says what to run" \
    "$F $tmp/s.tsv 2> $tmp/e; [ \$? = 1 ] && grep -q 'tl-efficiency --hw NAME' $tmp/e"
check "tl-findings: write error on /dev/full: exit 1" \
    "$F $tmp/se.tsv > /dev/full 2> $tmp/e; [ \$? = 1 ] && grep -q 'write error' $tmp/e"
check "tl-findings: closed pipe ends quietly" \
    "$F $tmp/se.tsv 2> $tmp/e | head -1 > /dev/null; [ ! -s $tmp/e ]"
check "tl-findings: the sample's report has the fair layout, byte-identical across runs" \
    "$F $tmp/se.tsv > $tmp/a && $F < $tmp/se.tsv > $tmp/b && cmp $tmp/a $tmp/b && \
     grep -q '^## Executive Summary' $tmp/a && grep -q '^## Recommendations' $tmp/a && \
     grep -q '^## Detailed Analysis' $tmp/a && grep -q '^## Appendix' $tmp/a"
check "tl-findings: grouped rows (tl-efficiency --group) give the same GEMM table" \
    "$F -C gemm $tmp/se.tsv | sed -n '/^## Operations/,/^## Key/p' > $tmp/a && \
     $E --hw mi300x --group $tmp/s.tsv | $F -C gemm | sed -n '/^## Operations/,/^## Key/p' > $tmp/b && cmp $tmp/a $tmp/b && [ \$(wc -l < $tmp/a) -gt 5 ]"
check "tl-findings: thresholds are options (--bottleneck 100,0 makes every modelled op a bottleneck)" \
    "n=\$($F --bottleneck 100,0 -C gemm $tmp/se.tsv | grep -c '^### [0-9]'); m=\$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"category\"] == \"gemm\" && \$c[\"roofline_time_us\"] != \"\"' $tmp/se.tsv | cut -f4,15-18 | sort -u | wc -l); [ \$n = \$m ] && [ \$n -gt 0 ]"
check "tl-findings: several traces get the cross-rank table with spread and straggler" \
    "$P -n rank0 $SAMPLE | $E --hw mi300x > $tmp/r0.tsv && $P -n rank1 $SAMPLE | $E --hw mi300x | tail -n +2 > $tmp/r1.tsv && \
     cat $tmp/r0.tsv $tmp/r1.tsv | $F --report rough > $tmp/a && grep -q '^| \`rank0\` | 0 |' $tmp/a && grep -q '^| \`rank1\` | 0 |' $tmp/a && \
     grep -q 'it spreads from .* (0.0 % of the fastest)' $tmp/a"
# Two ranks on two GPUs: the title names both, the default report has the
# per-rank table (with each rank's GPU) and the per-rank mean of the
# timeline (the sample's total from tl-parse -t), never the ranks' sum
# under a single-GPU label.  The traces' own GPU name (trace_gpu) is
# blanked so that the map's GPUs name them.
check "tl-findings: two ranks on two GPUs, default report: every GPU named, per-rank figures, no summed timeline" \
    "$P -n r0 $SAMPLE > $tmp/m.tsv && $P -n r1 $SAMPLE | tail -n +2 >> $tmp/m.tsv && printf 'r0  mi300x\\nr1  h100\\n' > $tmp/m.map && \
     awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"trace_gpu\") g = i } NR > 1 { \$g = \"\" } 1' $tmp/m.tsv > $tmp/m2.tsv && \
     $E --hw-map $tmp/m.map $tmp/m2.tsv | $F > $tmp/a && \
     tot=\$($P -t $SAMPLE | awk -F'\t' '\$4 == \"total\" { printf \"%.3f\", \$5 / 1000 }') && \
     grep -q '^# Transformer on 2 GPUs (mi300x, h100): standalone analysis$' $tmp/a && \
     grep -q \"^| GPU timeline per rank (mean of 2) | \$tot ms |\" $tmp/a && ! grep -q 'Total GPU timeline' $tmp/a && \
     grep -q '^| \`r0\` | 0 | mi300x |' $tmp/a && grep -q '^| \`r1\` | 0 | h100 |' $tmp/a && \
     grep -q 'Busy time per rank: mean .* ms, max .* ms; it spreads from' $tmp/a && grep -q '^| # | Finding |' $tmp/a"
# tl-compare.
Q=$BIN/tl-compare
# cols.awk: print the columns named in cols (comma-separated), no header.
cat > $tmp/cols.awk <<'EOF'
BEGIN { FS = OFS = "\t"; n = split(cols, want, ",") }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ s = ""; for (k = 1; k <= n; k++) s = s (k > 1 ? OFS : "") $c[want[k]]; print s }
EOF
COLS="awk -f $tmp/cols.awk -v cols"
S2="--ref $tmp/s.tsv --target $tmp/s.tsv"
check "compare --help and --version" \
    "$Q --help | grep -q '^usage: tl-compare' && [ \"\$($Q --version)\" = 'tl-compare (tl) $(sed -n 's/^VERSION = //p' config.mk)' ]"
check "compare: usage errors exit 2 (no --ref, both stdin, an operand, bad GPU, tolerance, roof)" \
    "for a in '--target $tmp/s.tsv' '--ref - --target -' '$S2 extra' '$S2 --ref-hw nosuch' \
	'$S2 --tolerance -1' '$S2 --roof max' '--bogus'; do \
	$Q \$a 2> $tmp/e > /dev/null; [ \$? = 2 ] && grep -q '^tl-compare: ' $tmp/e || { echo \"\$a\"; exit 1; }; done"
check "compare: a missing file exits 1, naming it" \
    "$Q --ref /nonexistent.tsv --target $tmp/s.tsv 2> $tmp/e; [ \$? = 1 ] && grep -q '^tl-compare: /nonexistent.tsv: No such file' $tmp/e"
check "compare: write error on /dev/full exits 1" \
    "$Q $S2 > /dev/full 2> $tmp/e; [ \$? = 1 ] && grep -q 'write error' $tmp/e"
check "compare: a trace with itself: every row both, delta 0, explained yes where expected" \
    "$Q $S2 | $COLS=match,delta_time_us,delta_pct,actual_ratio,expected_ratio,explained,unexplained_time_us | \
     awk -F'\t' '\$1 != \"both\" || \$2 != 0 || (\$3 != \"\" && \$3 != 0) || \$4 != 1 { bad = 1; exit } \
	\$5 != \"\" { n++; if (\$5 != 1 || \$6 != \"yes\" || \$7 != 0) { bad = 1; exit } } END { exit bad || (n < 5) }'"
check "compare: one row per signature; counts and time add up to the stream's" \
    "awk -F'\t' 'NR > 1 { n++; t += \$13 } END { printf \"%d %.3f\n\", n, t }' $tmp/s.tsv > $tmp/a && \
     $Q $S2 | $COLS=target_count,target_kernel_time_us | awk -F'\t' '{ n += \$1; t += \$2 } END { printf \"%d %.3f\n\", n, t }' > $tmp/b && \
     cmp $tmp/a $tmp/b && [ \$($Q $S2 | wc -l) = \$($E --hw mi300x --group $tmp/s.tsv | wc -l) ]"
check "compare: grouped input (tl-efficiency --group) gives the per-instance result" \
    "$E --hw mi300x --group $tmp/s.tsv > $tmp/g.tsv && \
     $Q $S2 | $COLS=name,input_dims,ref_count,ref_kernel_time_us,ref_tflops_s,ref_pct_roofline,delta_time_us,expected_ratio > $tmp/a && \
     $Q --ref $tmp/g.tsv --target $tmp/s.tsv | $COLS=name,input_dims,ref_count,ref_kernel_time_us,ref_tflops_s,ref_pct_roofline,delta_time_us,expected_ratio > $tmp/b && \
     cmp $tmp/a $tmp/b"
check "compare: with or without the efficiency columns, the same output" \
    "$E --hw mi300x $tmp/s.tsv > $tmp/e.tsv && $Q $S2 > $tmp/a && $Q --ref $tmp/e.tsv --target $tmp/e.tsv > $tmp/b && cmp $tmp/a $tmp/b"
check "compare: stdin for one side, CSV input, reversed row order: the same output" \
    "$Q $S2 > $tmp/a && $Q --ref - --target $tmp/s.tsv < $tmp/s.tsv > $tmp/b && cmp $tmp/a $tmp/b && \
     $P --csv $SAMPLE > $tmp/s.csv && $Q --ref $tmp/s.csv --target $tmp/s.tsv > $tmp/b && cmp $tmp/a $tmp/b && \
     { head -n 1 $tmp/s.tsv; tail -n +2 $tmp/s.tsv | sort -r; } > $tmp/r.tsv && \
     $Q --ref $tmp/r.tsv --target $tmp/r.tsv > $tmp/b && cmp $tmp/a $tmp/b"
check "compare --csv writes the same rows as CSV" \
    "[ \$($Q --csv $S2 | wc -l) = \$($Q $S2 | wc -l) ] && $Q --csv $S2 | head -n 1 | grep -q '^match,name,category,'"
check "compare: --ref-name and --target-name; default names are the trace column" \
    "$Q $S2 --ref-name a --target-name 'b c' | $COLS=ref_name,target_name | sort -u | grep -qx 'a	b c' && \
     $Q $S2 | $COLS=ref_name | sort -u | grep -qx '$SAMPLE'"
# The sample's aten::mm with other strides on the target: paired by layout.
awk -F'\t' -v OFS='\t' 'NR > 1 && $4 == "aten::mm" { s = $17; $17 = "[[7,7" substr(s, index(s, "],")) } 1' \
    $tmp/s.tsv > $tmp/l.tsv
check "compare: strides that differ by layout are paired and noted, both ways" \
    "n=\$($Q $S2 | wc -l); [ \$($Q --ref $tmp/s.tsv --target $tmp/l.tsv | wc -l) = \$n ] && \
     $Q --ref $tmp/s.tsv --target $tmp/l.tsv | $COLS=match,name,layout_note,target_input_strides | \
     awk -F'\t' '\$1 != \"both\" { bad = 1; exit } \$2 == \"aten::mm\" { m++; if (\$3 != \"strides differ in input 0\" || \$4 !~ /^\\[\\[7,7\\],/) { bad = 1; exit } } \
	\$2 != \"aten::mm\" && \$3 != \"\" { bad = 1; exit } END { exit bad || (m == 0) }' && \
     $Q --ref $tmp/l.tsv --target $tmp/s.tsv | $COLS=name,layout_note,input_strides | \
     awk -F'\t' '\$1 == \"aten::mm\" { m++; if (\$2 != \"strides differ in input 0\" || \$3 !~ /^\\[\\[7,7\\],/) { bad = 1; exit } } END { exit bad || (m == 0) }'"
awk -F'\t' '$4 != "aten::mm"' $tmp/s.tsv > $tmp/nomm.tsv
check "compare: an op of one side only is kept and marked (ref_only, target_only)" \
    "$Q --ref $tmp/s.tsv --target $tmp/nomm.tsv | $COLS=match,name,delta_time_us,ref_kernel_time_us,explained,unexplained_time_us | \
     awk -F'\t' '\$2 == \"aten::mm\" { m++; if (\$1 != \"ref_only\" || \$3 != \"-\" \$4 || \$5 != \"\" || \$6 != 0) { bad = 1; exit } next } \$1 != \"both\" { bad = 1; exit } END { exit bad || (m == 0) }' && \
     $Q --ref $tmp/nomm.tsv --target $tmp/s.tsv | $COLS=match,name,delta_time_us,target_kernel_time_us,explained,unexplained_time_us,delta_pct | \
     awk -F'\t' '\$2 == \"aten::mm\" { m++; if (\$1 != \"target_only\" || \$3 != \$4 || \$5 != \"no\" || \$6 != \$4 || \$7 != \"\") { bad = 1; exit } } END { exit bad || (m == 0) }'"
check "compare: the GPU from --ref-hw when the stream names none; a warning otherwise, an error with --strict-hw" \
    "cut -f1-32 $tmp/s.tsv > $tmp/nogpu.tsv && { $Q --ref $tmp/nogpu.tsv --target $tmp/s.tsv > /dev/null 2> $tmp/e; [ \$? = 0 ]; } && \
     grep -q 'give --ref-hw NAME' $tmp/e && { $Q -x --ref $tmp/nogpu.tsv --target $tmp/s.tsv > /dev/null 2> $tmp/e; [ \$? = 1 ]; } && \
     grep -q 'give --ref-hw NAME' $tmp/e && \
     $Q --ref $tmp/nogpu.tsv --target $tmp/s.tsv --ref-hw h100 | $COLS=ref_hw,target_hw | sort -u | grep -qx 'h100	mi300x'"
check "compare: same-kind roofs: achievable on two MI300X, dense peak with --roof peak" \
    "$Q $S2 | $COLS=compute_spec,ref_roof,ref_peak_tflops,target_roof | grep -qx 'matrix_bf16	achievable	708	achievable' && \
     $Q $S2 --roof peak | $COLS=compute_spec,ref_roof,ref_peak_tflops,target_roof | grep -qx 'matrix_bf16	peak	1307.4	peak'"
check "compare --timeline: six rows from op streams, eight from timelines, delta 0" \
    "$Q --timeline $S2 | $COLS=type,delta_time_us | awk -F'\t' '\$2 != 0 { bad = 1; exit } END { exit bad || (NR != 6) }' && \
     $P -t $SAMPLE > $tmp/t.tsv && $Q -t --ref $tmp/t.tsv --target $tmp/s.tsv | $COLS=type,ref_time_us,target_time_us,delta_time_us | \
     awk -F'\t' '\$1 == \"computation\" && \$2 != \$3 { bad = 1; exit } \$1 == \"total_comm\" && (\$3 != \"\" || \$4 != \"\") { bad = 1; exit } END { exit bad || (NR != 8) }'"
check "compare --models and --ops reach the perf model run in-process" \
    "printf 'op\tmaf\tflops\tbytes\naten::sin\tvector\t7*numel(0)\t2*numel(0)*bpe(0)\n' > $tmp/m.tsv && \
     $Q $S2 --models $tmp/m.tsv | $COLS=name,perf_model,flops | grep -qx 'aten::sin	file	1835008' && \
     printf 'name\tcategory\tdirection\tmodel\tbwd_model\naten::mm\tother\tfwd\t\t\n' > $tmp/ops.tsv && \
     $Q $S2 --ops $tmp/ops.tsv | $COLS=name,perf_model,flops,expected_ratio | awk -F'\t' '\$1 == \"aten::mm\" { n++; if (\$2 \$3 \$4 != \"\") { bad = 1; exit } } END { exit bad || (n == 0) }'"
check "compare --hw-file: one roof kind for both GPUs, the other kind standing in where one lacks it, the other kind's ratio too" \
    "{ printf 'gpu\tkey\tkind\tvalue\tsource\nga\thbm_tbs\tpeak\t4\tx\nga\thbm_tbs\tachievable\t3\tx\ngb\thbm_tbs\tpeak\t2\tx\ngb\thbm_tbs\tachievable\t1.5\tx\ngc\thbm_tbs\tpeak\t1\tx\n'; } > $tmp/gpus.tsv && \
     $Q $S2 --hw-file $tmp/gpus.tsv --ref-hw ga --target-hw gb | $COLS=bound,roof_kind,ref_bw_roof,ref_peak_tbs,target_peak_tbs,expected_ratio,other_expected_ratio | \
	grep -qx 'memory	achievable	achievable	3	1.5	2	2' && \
     $Q $S2 --hw-file $tmp/gpus.tsv --ref-hw ga --target-hw gc | $COLS=bound,roof_kind,ref_bw_roof,target_bw_roof,ref_peak_tbs,expected_ratio,other_expected_ratio | \
	grep -qx 'memory	achievable	achievable	peak	3	3	4' && \
     $Q $S2 --hw-file $tmp/gpus.tsv --ref-hw ga --target-hw gc --roof peak | $COLS=bound,roof_kind,ref_bw_roof,target_bw_roof,expected_ratio,other_expected_ratio | \
	grep -qx 'memory	peak	peak	peak	4	3'"
if need_shared "compare on real traces"; then
	$P $T/h100-qwen1.5-0.5b.json.gz > $tmp/h.tsv
	$P $T/mi300-qwen1.5-0.5b.json.gz > $tmp/m.tsv
	check "compare H100 vs MI300X --roof peak: GEMMs against the dense bf16 peak ratio, unexplained time" \
	    "$Q --roof peak --ref $tmp/h.tsv --target $tmp/m.tsv | $COLS=name,bound,ref_roof,target_roof,expected_ratio,actual_ratio,explained,unexplained_time_us,target_kernel_time_us,ref_kernel_time_mean_us,target_count,target_kernel_time_mean_us,roof_kind | \
	     awk -F'\t' '\$1 == \"aten::mm\" { m++; e = 989.4 / 1307.4; u = \$9 - e * \$10 * \$11; a = \$12 / \$10; \
		if (\$2 != \"compute\" || \$3 != \"peak\" || \$4 != \"peak\" || (\$5 - e) ^ 2 > 1e-24 || (\$6 - a) ^ 2 > 1e-20 || \$7 != \"no\" || (\$8 - u) ^ 2 > 1e-12 || \$13 != \"peak\") { bad = 1; exit } } \
		END { exit bad || (m != 3) }'"
	check "compare H100 vs MI300X (achievable): H100's dense peak stands in, the peak ratio's verdict beside it" \
	    "$Q --ref $tmp/h.tsv --target $tmp/m.tsv | $COLS=name,bound,ref_roof,target_roof,target_peak_tflops,expected_ratio,explained,other_expected_ratio,other_explained,roof_kind | \
	     awk -F'\t' '\$1 == \"aten::mm\" { m++; e = 989.4 / 708; o = 989.4 / 1307.4; \
		if (\$2 != \"compute\" || \$3 != \"peak\" || \$4 != \"achievable\" || \$5 != 708 || (\$6 - e) ^ 2 > 1e-24 || \$7 != \"yes\" || (\$8 - o) ^ 2 > 1e-24 || \$9 != \"no\" || \$10 != \"achievable\") { bad = 1; exit } } \
		END { exit bad || (m != 3) }'"
	check "compare H100 vs MI300X: memory-bound rows against the HBM ratio, mixed vector roofs noted" \
	    "$Q --ref $tmp/h.tsv --target $tmp/m.tsv | $COLS=bound,compute_spec,ref_roof,target_roof,ref_bw_roof,target_bw_roof,expected_ratio | \
	     awk -F'\t' '\$1 == \"memory\" { m++; if (\$5 != \"peak\" || \$6 != \"peak\" || (\$7 - 3.35 / 5.3) ^ 2 > 1e-24) { bad = 1; exit } } \
		\$2 == \"vector_bf16\" && (\$3 != \"peak\" || \$4 != \"achievable\") { bad = 1; exit } END { exit bad || (m < 20) }'"
	check "compare --tolerance: a wide tolerance explains every expected ratio" \
	    "$Q --ref $tmp/h.tsv --target $tmp/m.tsv --tolerance 10000 | $COLS=expected_ratio,explained,tolerance_pct | \
	     awk -F'\t' '\$1 != \"\" { n++; if (\$2 != \"yes\" || \$3 != 10000) { bad = 1; exit } } END { exit bad || (n < 20) }' && \
	     [ \$($Q --ref $tmp/h.tsv --target $tmp/m.tsv | $COLS=explained | grep -c no) -gt 5 ]"
fi

# Idle culprits (issue 29; the numbers are checked by tests/idle.py):
# the known-culprit table, a user's table over it, and a comparison.
ID=tests/data/idle
for n in dataloader nopython zerograd sync; do
	$P $ID/idle-$n.json 2>/dev/null | $E --hw h100 > $tmp/idle-$n.tsv
done
check "findings: the single-process DataLoader is the first recommendation with both paths" \
    "$F $tmp/idle-dataloader.tsv > $tmp/r.md && grep -q '^### .* Priority 1: Single-process DataLoader' $tmp/r.md && grep -q 'Path A: Load batches in worker processes: .DataLoader(..., num_workers=N)' $tmp/r.md && \
     grep -q 'Path B: Make each sample cheaper to load' $tmp/r.md"
check "findings: .item() credits the sync with its wait only; log_metrics is the culprit" \
    "$F --report rough $tmp/idle-sync.tsv > $tmp/r.md && grep -q 'synchronisation wait: .cudaStreamSynchronize. | .train.py(40): train_step. | 0.005 |' $tmp/r.md && \
     grep -q '.train.py(50): log_metrics. (Python) | .train.py(40): train_step. | 2.067 |' $tmp/r.md && grep -q 'Logging on the training thread' $tmp/r.md"
check "findings: zero_grad and its set_to_none action" \
    "$F $tmp/idle-zerograd.tsv | grep -q 'set_to_none=True'"
check "findings: no Python frames is said, with how to record them" \
    "$F $tmp/idle-nopython.tsv | grep -q 'No Python frames.*with_stack=True' && ! $F $tmp/idle-dataloader.tsv | grep -q 'No Python frames'"
printf 'key\tkind\tmatch\twhen\ttitle\taction\ndataloader_single\t\t*DataLoader*\t\tMy loader\tDo this.\nmine\tpython\t*resize*\t\tMy resize\tDo that.\n' > $tmp/cul.tsv
check "findings --culprits: the user's rows win (a new one first, a built-in one replaced)" \
    "$F --culprits $tmp/cul.tsv $tmp/idle-dataloader.tsv > $tmp/r.md && grep -q '^### .* Priority 1: My resize$' $tmp/r.md && grep -q 'Path A: Do that. Path B: none on the kernel side' $tmp/r.md && ! grep -q 'Single-process' $tmp/r.md && \
     printf 'key\tkind\tmatch\twhen\ttitle\taction\tdeeper\nx\t\t*zero_grad*\t\tZ\tDo.\tRedo.\n' > $tmp/cul2.tsv && $F --culprits $tmp/cul2.tsv $tmp/idle-zerograd.tsv > $tmp/r2.md && grep -q '^### .* Priority 1: Z$' $tmp/r2.md && grep -q 'Path A: Do. Path B: Redo.' $tmp/r2.md && \
     $F --culprits $tmp/cul2.tsv $tmp/idle-dataloader.tsv | grep -q 'Single-process DataLoader'"
check "findings --culprits: a bad table is an error with file and line" \
    "printf 'key\tkind\tmatch\twhen\ttitle\taction\na\t\t\t\tt\tx\na\t\t\t\tt\tx\n' > $tmp/bad.tsv; $F --culprits $tmp/bad.tsv $tmp/idle-sync.tsv 2> $tmp/e > /dev/null; [ \$? = 1 ] && grep -q 'bad.tsv:3: key .a. twice' $tmp/e && \
     $F --culprits /nonexistent $tmp/idle-sync.tsv 2> /dev/null > /dev/null; [ \$? = 1 ]"
check "findings --ref/--target: which culprits grew and which shrank" \
    "$Q --ref $tmp/idle-dataloader.tsv --target $tmp/idle-nopython.tsv > $tmp/c.tsv && \
     $F --ref $tmp/idle-dataloader.tsv --target $tmp/idle-nopython.tsv $tmp/c.tsv > $tmp/r.md && \
     grep -q '.torchvision/transforms/functional.py(467): resize. (Python) | .enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__. | 10.100 | 0.000 | -10.100 (shrank)' $tmp/r.md && \
     grep -q '.enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__. (annotation) |  | 0.000 | 10.100 | +10.100 (grew) | 0 / 2 | ts 1019100.000 us (+19.100 ms), step 2, GPU .0. stream 7, pid .100. tid .100. |' $tmp/r.md && \
     $F --culprits $tmp/cul.tsv $tmp/c.tsv 2>/dev/null >/dev/null; [ \$? = 2 ]"

# The known causes' words (issue 31): a user's row replaces the
# built-in one of its key, its {name} placeholders filled the same way.
$P tests/causes/h100-conv-fewchan.json 2>/dev/null | $E --hw h100 > $tmp/fewchan.tsv
printf 'key\ttitle\tissue\taction\nconv_few_channels\tMy stem of {in_channels} channels\tIt reads {channel_bytes} bytes a position.\tPad it to {pad_channels}.\n' > $tmp/causes.tsv
check "findings --causes: the user's row rewords the cause, with its numbers" \
    "$F --causes $tmp/causes.tsv $tmp/fewchan.tsv > $tmp/r.md && grep -q '^### .* Priority 1: My stem of 3 channels: .aten::convolution.' $tmp/r.md && \
     grep -q 'It reads 6 bytes a position.' $tmp/r.md && grep -q 'Pad it to 8.' $tmp/r.md && ! grep -q 'Convolution with few input channels' $tmp/r.md && \
     $F $tmp/fewchan.tsv | grep -q '^### .* Priority 1: Convolution with few input channels'"
check "findings --causes: a bad table is an error with file and line; a comparison needs --ref/--target" \
    "printf 'key\ttitle\na\tt\na\tt\n' > $tmp/badc.tsv; $F --causes $tmp/badc.tsv $tmp/fewchan.tsv 2> $tmp/e > /dev/null; [ \$? = 1 ] && grep -q 'badc.tsv:3: key .a. twice' $tmp/e && \
     $F --causes /nonexistent $tmp/fewchan.tsv 2> /dev/null > /dev/null; [ \$? = 1 ] && \
     $Q --ref $tmp/fewchan.tsv --target $tmp/fewchan.tsv > $tmp/cc.tsv && $F --causes $tmp/causes.tsv $tmp/cc.tsv 2>/dev/null >/dev/null; [ \$? = 2 ]"

check "tl-parse --no-culprits: idle_gaps and the noise columns empty, the rest the same; only with op rows" \
    "$P --no-culprits $ID/idle-sync.json > $tmp/a && $P $ID/idle-sync.json > $tmp/b && \
     $COLS=idle_gaps,trace_idle_noise_us,trace_idle_noise_count < $tmp/a | awk -F'\t' '\$1 \$2 \$3 != \"\" { bad = 1 } END { exit bad }' && \
     $COLS=name,kernels,trace_idle_us,steady < $tmp/a > $tmp/a2 && $COLS=name,kernels,trace_idle_us,steady < $tmp/b > $tmp/b2 && cmp $tmp/a2 $tmp/b2 && \
     $E --hw h100 $tmp/a | $F | grep -q 'no idle culprits' && \
     $P --no-culprits -t $ID/idle-sync.json 2>/dev/null; [ \$? = 2 ]"
check "culprit names are escaped in the report (Markdown specials in a Python frame's name)" \
    "sed 's/log_metrics/log|x\`<b>*m*/' $ID/idle-sync.json > $tmp/esc.json && $P $tmp/esc.json | $E --hw h100 | $F --report rough > $tmp/r.md && \
     grep -F 'log\\|x' $tmp/r.md | grep '^| ' | grep -F \"<b>*m*\\\` (Python)\" | awk -F' [|] ' 'END { exit !(NR == 1 && NF == 9) }'"
check "torch.compile's generated wrapper (inductor's call) is a known culprit with its idle" \
    "sed 's|train.py(50): log_metrics|/tmp/torchinductor_root/ab/cabcd.py(12): call|' $ID/idle-sync.json > $tmp/ind.json && $P $tmp/ind.json | $E --hw h100 | $F > $tmp/r.md && \
     grep -q \"^### .* Priority 1: torch.compile's Python wrapper\" $tmp/r.md && grep -q 'GPU idles 2.067 ms' $tmp/r.md && grep -q 'reduce-overhead' $tmp/r.md"
if need_shared "GPU graph capture culprit"; then
check "GPU graph capture is a known culprit (vLLM's capture trace): start-up, profile past it; no '0 steps' without steps" \
    "$P $T/mi300-vllm-prefilldecode-piecewise.capture.json.gz 2>/dev/null | $E --hw mi300x | $F > $tmp/r.md && \
     grep -q '^### .* Priority 1: GPU graph capture' $tmp/r.md && grep -q 'profile past it' $tmp/r.md && ! grep -q ' in 0 steps' $tmp/r.md"
fi
check "the largest gaps give the trace ts, the offset from the trace's start, step, GPU, stream, pid, tid and how to find them" \
    "$P $ID/idle-threads.json | $E --hw h100 | $F --report rough > $tmp/r.md && grep -qF '| 1000500.000 | 0.500 | 1.470 | 1 | \`0\`, 7 | \`100\`, \`200\` |' $tmp/r.md && \
     grep -qF '| 1002500.000 | 2.500 | 1.530 | 1 | \`0\`, 7 | \`100\`, \`100\` |' $tmp/r.md && grep -q 'To find a gap in Perfetto or chrome://tracing' $tmp/r.md"
check "steady state heads the report, whole trace beside; warm-up and how to profile past it" \
    "$P $ID/idle-firstcall.json | $E --hw h100 | $F > $tmp/r.md && grep -q '^\*\*Steady state first.\*\* The steady-state window (2 steps, the first step left out as warm-up) spans 5.190 ms of GPU timeline: computation 76.3 %, idle 1.230 ms (23.7 %); the whole trace spans 58.190 ms' $tmp/r.md && \
     grep -q '1 listed gap, 50.010 ms of idle, end in warm-up' $tmp/r.md && grep -q 'schedule(wait=1, warmup=2, active=3)' $tmp/r.md && \
     grep -q '^### .* Priority 1: First-call cost' $tmp/r.md"
check "steady window = whole trace: the steady header gives its figures once" \
    "$F $tmp/idle-zerograd.tsv | grep '^\*\*Steady state first' > $tmp/h && grep -q 'window (1 step) is the whole trace: 0.981 ms of GPU timeline, computation 5.1 %, idle 0.931 ms (94.9 %)\.\$' $tmp/h && \
     [ \$(grep -o '0.931 ms' $tmp/h | wc -l) = 1 ]"

# Messages that say what to do (issue 20).  A directory as input: the
# open(2) error of a directory, not a read error at offset 0.
mkdir -p $tmp/adir
for a in "tl-parse" "tl-categorize gemm" "tl-perfmodel" "tl-efficiency --hw mi300x" \
    "tl-findings" "tl-replay" "tl-compare --ref-hw mi300x --target-hw mi300x --target $tmp/s.tsv --ref"; do
	check "${a%% *}: a directory as input: 'DIR: Is a directory'" \
	    "$BIN/$a $tmp/adir 2> $tmp/e; [ \$? = 1 ] && [ \"\$(cat $tmp/e)\" = '${a%% *}: $tmp/adir: Is a directory' ]"
done
# With SIGPIPE ignored (as some parents leave it), a closed pipe is a
# write error EPIPE: the programs end without a word (status 1).
for a in "tl-parse $SAMPLE" "tl-parse -k $SAMPLE" "tl-categorize -v gemm $tmp/s.tsv" \
    "tl-perfmodel $tmp/s.tsv" "tl-efficiency --hw mi300x $tmp/s.tsv" "tl-findings --report rough $tmp/se.tsv" \
    "tl-replay $tmp/se.tsv" "tl-compare --ref-hw mi300x --target-hw h100 --ref $tmp/s.tsv --target $tmp/s.tsv"; do
	check "${a%% *}: SIGPIPE ignored, a closed pipe ends quietly ($(echo "${a#* }" | sed "s|$tmp/||g"))" \
	    "(trap '' PIPE; $BIN/$a 2> $tmp/e | head -c 1 > /dev/null); [ ! -s $tmp/e ]"
done
if need_shared "SIGPIPE ignored on a large trace"; then
	big=$(ls -S "$T"/*.json.gz | head -1)
	check "tl-parse: SIGPIPE ignored, a closed pipe ends quietly mid-stream (the largest shared trace)" \
	    "(trap '' PIPE; $P $big 2> $tmp/e | head -1 > /dev/null) && [ ! -s $tmp/e ]"
fi

# Iterations and the steady-state window (tests/data/*-steps.json, by hand in
# their .expect files): --steady=4 on the SGLang steps is TraceLens' mixed
# window [5, 9) of the region from step 3 (the four-step windows from 3 by 2
# with a prefill step: [3,7) 3.5 requests a step, [5,9) and [7,11) 4, each
# with one of four steps mixed, nearest the region's 2 of 10).
STEPS=tests/data/sglang-steps.json
check "--steady=4: TraceLens' mixed window, said on stderr" \
    "$P --steady=4 $STEPS 2> $tmp/e | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { print \$c[\"iteration\"] }' | sort -un | tr '\n' ' ' > $tmp/a && \
     [ \"\$(cat $tmp/a)\" = '5 6 7 8 ' ] && grep -q 'steady-state window: iterations 5 to 8 (4 of 13, by annotation)' $tmp/e"
check "--steady: warm-up and outliers of profiler steps left out" \
    "$P --steady tests/data/profiler-steps.json 2> /dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { print \$c[\"iteration\"] }' | sort -un | tr '\n' ' ' | grep -qx '14 15 16 '"
check "--steady: the timeline is the window's (3 steps of 2 kernels, 20 µs each)" \
    "$P --steady -t tests/data/profiler-steps.json 2> /dev/null | awk -F'\t' '\$4 == \"busy\" { exit \$5 != 60 }'"
check "--steady without iterations: exit 1, says so" \
    "$P --steady tests/data/multi-gpu.json > /dev/null 2> $tmp/e; [ \$? = 1 ] && grep -q 'no iterations in the trace' $tmp/e"
check "--steady and --step exclude each other: exit 2" \
    "$P --steady --step 1 $STEPS 2> /dev/null; [ \$? = 2 ]"
check "--steady=0: exit 2" "$P --steady=0 $STEPS 2> /dev/null; [ \$? = 2 ]"
check "SGLang's numbered op names (..._ragged_100 to _112) lose the number, as TraceLens': 13 attention rows on its perf model" \
    "$P $STEPS | $M | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \
     \$c[\"name\"] == \"sglang_profiler::attention_paged_attention_ragged\" && \$c[\"category\"] == \"attention\" && \$c[\"perf_model\"] == \"paged_attn\" { n++ } END { exit n != 13 }'"
# The serving section of the findings: 13 steps (1 prefill, 9 decode, 3
# mixed), 12 gaps of 68 µs between them, and the GEMMs of the 9 decode
# steps (M 1 to 4, 12 µs each) memory-bound.
check "findings: phases, gaps between iterations, decode GEMMs" \
    "$P $STEPS | $E --hw mi300x | $F > $tmp/r && \
     grep -q '^| prefill | 1 | 0.020 |' $tmp/r && grep -q '^| decode | 9 | 0.180 |' $tmp/r && \
     grep -q '^| mixed | 3 | 0.060 |' $tmp/r && \
     grep -q 'the GPU waited 0.816 ms in 12 gaps between iterations' $tmp/r && \
     grep -q 'Decode GEMMs memory-bound at small batch:\*\* 0.108 ms' $tmp/r"
check "findings: no serving section without phases, MoE or graphs" \
    "$P $SAMPLE | $E --hw mi300x | $F > $tmp/r && ! grep -q '^## Serving' $tmp/r"
# make install: the installed pages and tl.mk name the installed paths
# (PREFIX's share/tl), not /usr/local's.
check "make install PREFIX=DIR: the installed man pages and tl.mk name DIR/share/tl" \
    "make -s install PREFIX=$tmp/inst > /dev/null 2>&1 &&
     ! grep -rl /usr/local/share/tl $tmp/inst/share/man $tmp/inst/share/tl/tl.mk &&
     grep -q '$tmp/inst/share/tl/tl.mk' $tmp/inst/share/man/man7/tl.7 &&
     grep -q '$tmp/inst/share/tl/ops.tsv' $tmp/inst/share/man/man1/tl-parse.1 &&
     [ -f $tmp/inst/share/tl/models/default.tsv ] && [ -x $tmp/inst/bin/tl-parse ]"
# tl(7)'s table of TraceLens' sheets: the coll_analysis row (the others are
# tests/parity.py's checks): per message shape the count and the kernel
# time sum, mean, min and max of TraceLens' coll_analysis.csv.
if need_shared "tl(7): coll_analysis from tl-categorize comm | tl-efficiency --group"; then
	check "tl(7): coll_analysis from tl-categorize comm | tl-efficiency --group" \
	    "$P $T/mi300-resnet-act-checkpoint.json.gz 2>/dev/null | $BIN/tl-categorize comm | $E --hw mi300x --group | $COLS=input_dims,count,kernel_time_us,kernel_time_mean_us,kernel_time_min_us,kernel_time_max_us | sort > $tmp/coll && \
	     python3 -c 'import csv, json, sys
want = sorted((int(float(r[\"In msg nelems\"])), int(r[\"operation_count\"]), float(r[\"dur_sum\"]), float(r[\"dur_mean\"]), float(r[\"dur_min\"]), float(r[\"dur_max\"])) for r in csv.DictReader(open(sys.argv[1])))
got = sorted((json.loads(f[0])[0][0][0], int(f[1]), float(f[2]), float(f[3]), float(f[4]), float(f[5])) for f in (l.rstrip(\"\\n\").split(\"\\t\") for l in open(sys.argv[2])))
ok = len(want) == len(got) == 4 and all(w[:2] == g[:2] and all(abs(a - b) <= 1e-6 * max(1, abs(a)) for a, b in zip(w[2:], g[2:])) for w, g in zip(want, got))
sys.exit(0 if ok else print(want, got) or 1)' $SHARED/reference/tracelens/mi300-resnet-act-checkpoint/coll_analysis.csv $tmp/coll"
fi
# A recovery the trace does not quantify reads "not quantified", never 0.
if need_shared "findings: an unquantified recovery reads not quantified"; then
	check "findings: an unquantified recovery reads not quantified (table, JSON null, the priority's cap)" \
	    "$P $T/nvidia-alexnet.json.gz 2>/dev/null | $E --hw auto 2>/dev/null > $tmp/ax.tsv && $F --report rough $tmp/ax.tsv > $tmp/axr && grep -q '^| [0-9]* | Unfused elementwise chain | not quantified | not quantified |' $tmp/axr && \
	     grep -q 'lowered to Low: what it recovers is not quantified, and its ops take under 0.5 % of the GPU timeline, the most it can recover' $tmp/axr && \
	     ! grep 'Unfused elementwise chain' $tmp/axr | grep -q 'it recovers under' && \
	     $F -o $tmp/axo $tmp/ax.tsv && grep -q '\"pattern\":\"elementwise_chain\"' $tmp/axo/category_data/analysis.json && \
	     python3 -c 'import json, sys; r = [x for x in json.load(open(sys.argv[1]))[\"recommendations\"] if x.get(\"pattern\") == \"elementwise_chain\"]; sys.exit(not (r and r[0][\"recoverable_ms\"] is None))' $tmp/axo/category_data/analysis.json"
fi

# A million cpu_ops nested on one thread (issue 34): op i spans
# [i, 2N - i] µs, the innermost launches the one kernel.  A valid trace,
# read without recursion on its depth: one leaf row, the innermost op,
# its parent the op around it; within a CPU-time limit (linear time: 1.4 s
# of CPU here, a quarter of that at 250 000 deep) and the
# default 8 MiB stack.
cat > "$tmp/deep.awk" <<'EOF'
BEGIN {
	print "{\"traceEvents\":["
	for (i = 0; i < n; i++)
		printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d,\"args\":{}},\n", i % 7, i, 2 * (n - i)
	printf "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1,\"args\":{\"correlation\":1}},\n", n
	printf "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":5,\"args\":{\"correlation\":1,\"device\":0,\"stream\":7}}\n", n + 1
	print "]}"
}
EOF
check "a million nested ops on one thread: read, one leaf row under its parent" \
    "awk -v n=1000000 -f $tmp/deep.awk > $tmp/deep.json &&
    (ulimit -s 8192; ulimit -t 60; $P -j 2 $tmp/deep.json > $tmp/deep.tsv) &&
    rm -f $tmp/deep.json &&
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
	{ n++; ok = \$c[\"uid\"] == 999999 && \$c[\"row_kind\"] == \"leaf\" &&
	  \$c[\"parent_uid\"] == 999998 && \$c[\"kernel_time_us\"] == 5 }
	END { exit !(n == 1 && ok) }' $tmp/deep.tsv"
