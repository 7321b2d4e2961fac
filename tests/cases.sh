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

# check NAME CMD...: the shell command must exit 0.
check() {
	name=$1
	shift
	if sh -c "$*" > "$tmp/log" 2>&1; then
		echo "ok $name"
	else
		echo "FAIL $name"
		sed 's/^/  /' "$tmp/log" | head -20
	fi
}
need_shared() {
	[ -d "$T" ] && return 0
	echo "SKIP $1 (no $T)"
	return 1
}

# Command line.
check "--help on stdout, exit 0" "$P --help | grep -q '^usage: tl-parse'"
check "--version" "[ \"\$($P --version)\" = 'tl-parse (tl) $(sed -n 's/^VERSION = //p' config.mk)' ]"
check "unknown option: exit 2, usage on stderr" \
    "$P --bogus 2> $tmp/e; [ \$? = 2 ] && grep -q usage: $tmp/e"
check "bad --step: exit 2" "$P --step x $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "two views: exit 2" "$P -t -k $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "--per-device without --timeline: exit 2" "$P -d $SAMPLE 2>/dev/null; [ \$? = 2 ]"
check "missing file: exit 1, prog: file: reason" \
    "$P /nonexistent/t.json 2> $tmp/e; [ \$? = 1 ] && grep -q '^tl-parse: /nonexistent/t.json: No such file' $tmp/e"
check "write error on /dev/full: exit 1" \
    "$P $SAMPLE > /dev/full 2> $tmp/e; [ \$? = 1 ] && grep -q 'write error' $tmp/e"
check "closed pipe ends quietly" \
    "$P $SAMPLE 2> $tmp/e | head -1 > /dev/null; [ ! -s $tmp/e ]"

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
    "$P $SAMPLE | awk -F'\t' 'NR > 1 { s += \$23 } END { d = s - 100; if (d < 0) d = -d; exit d > 1e-9 }'"
check "--step 3 keeps the step, --step 4 is an error" \
    "$P --step 3 $SAMPLE | awk 'END { exit NR < 100 }' && { $P --step 4 $SAMPLE 2> $tmp/e; [ \$? = 1 ] && grep -q 'no ProfilerStep#4' $tmp/e; }"
check "--window selects host events by start time" \
    "a=\$($P $SAMPLE | awk -F'\t' 'NR == 2 { print \$10 }'); \
     [ \$($P --window \$a,\$(echo \$a | awk '{ printf \"%.3f\", \$1 + 0.001 }') $SAMPLE | wc -l) = 2 ]"
check "--stack adds module and call_stack" \
    "$P --stack $SAMPLE | awk -F'\t' 'NR == 1 && \$(NF-1) != \"module\" { exit 1 } NR > 1 && \$(NF-1) ~ /DecoderLayer/ { n++ } END { exit n == 0 }'"
check "numbers do not depend on --stack" \
    "$P $SAMPLE | cut -f1-29 > $tmp/a && $P --stack $SAMPLE | cut -f1-29 > $tmp/b && cmp $tmp/a $tmp/b"
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
	     $P $T/mi210-gpu-only.json.gz | awk -F'\t' 'NR > 1 { n++; if (\$7 != \"synthetic\" || \$4 !~ /^hip/) exit 1 } END { exit n != 562 }'"
	check "qwen H100: 509 unlinked kernels" \
	    "$P -m $T/h100-qwen1.5-0.5b.json.gz | awk -F'\t' '\$3 == \"tl.unlinked_gpu_events\" { exit \$4 != 509 }'"
	check "toy: op stream equals the golden file" \
	    "$P -n toy $T/toy-linking.json | cut -f3-13,15-29 | diff - tests/golden/toy-ops.tsv"
	check "toy: kernel table equals the golden file" \
	    "$P -k -n toy $T/toy-linking.json | diff - tests/golden/toy-kernels.tsv"
	check "qwen H100: aten::mm 48 calls of 8944x1024x2816, 4055.251 µs" \
	    "$P $T/h100-qwen1.5-0.5b.json.gz | awk -F'\t' '\$4 == \"aten::mm\" && \$15 == \"[[8944,1024],[1024,2816]]\" { n++; s += \$13 } END { exit !(n == 48 && s > 4055.2509 && s < 4055.2511) }'"
fi
