#!/bin/sh
# make fuzz: build the seed corpora in fuzz/corpus-NAME, then run each
# libFuzzer harness fuzz/bin/NAME for SECONDS seconds (the argument,
# default 60) on its corpus and dictionary.  New inputs stay in the
# corpus; a crash leaves fuzz/out/NAME-crash-* (or leak-, timeout-, oom-)
# and its report in fuzz/out/NAME.log, and makes the script fail.
# Seeds: tests/bad, tests/data, the samples in share/tl, and the smallest
# shared traces when ../shared is there (never copied into the repo);
# op streams made from them by bin/tl-parse, bin/tl-perfmodel and
# bin/tl-efficiency (cut short, so the seeds stay small), pairs of them
# for fuzz_compare; the formulas of share/tl/models.  The dictionary of
# fuzz_NAME is tests/fuzz/NAME.dict, after stream.dict for the harnesses
# that read streams.
set -u
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/../.." || exit 1
dur=${1:-60}
SHARED=${TL_SHARED:-../shared}
BIN=${BIN:-bin}
FUZZERS=${FUZZERS:-fuzz_trace fuzz_stream fuzz_expr fuzz_efficiency \
    fuzz_findings fuzz_compare fuzz_timeline fuzz_tables}
ct=fuzz/corpus-fuzz_trace
cs=fuzz/corpus-fuzz_stream
ce=fuzz/corpus-fuzz_expr
cy=fuzz/corpus-fuzz_efficiency
cf=fuzz/corpus-fuzz_findings
cc=fuzz/corpus-fuzz_compare
cl=fuzz/corpus-fuzz_timeline
cb=fuzz/corpus-fuzz_tables
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p fuzz/out "$ct" "$cs" "$ce" "$cy" "$cf" "$cc" "$cl" "$cb"

# Trace seeds, gunzipped (a gzip one too, for the gzip path).
for f in tests/bad/*.json tests/data/*.json tests/data/capture/*.json; do
	cp "$f" "$ct/seed-$(basename "$f")"
done
for f in tests/bad/*.json.gz; do
	[ -f "$f" ] && cp "$f" "$ct/seed-$(basename "$f")"
done
for f in share/tl/samples/*.json.gz; do
	[ -f "$f" ] && gzip -dc "$f" > "$ct/seed-$(basename "$f" .gz)"
done
if [ -d "$SHARED/traces" ]; then
	for f in $(ls -Sr "$SHARED"/traces/*.json* 2>/dev/null | head -3); do
		b=$(basename "$f")
		case $f in
		*.gz) gzip -dc "$f" > "$ct/seed-shared-${b%.gz}" ;;
		*) cp "$f" "$ct/seed-shared-$b" ;;
		esac
	done
fi

# Deep seeds (issue 34): 3000 cpu_ops nested on one thread (what fits
# in fuzz_trace's -max_len), for the walks of the call tree.
awk -v n=3000 'BEGIN {
	print "{\"traceEvents\":["
	for (i = 0; i < n; i++)
		printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d},\n", i, 2 * (n - i)
	printf "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1,\"args\":{\"correlation\":1}},\n", n
	printf "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":5,\"args\":{\"correlation\":1}}\n", n + 1
	print "]}"
}' > "$ct/seed-deep-nested-ops.json"

# Stream seeds: the bad streams, and op streams of the trace seeds (TSV,
# CSV, launcher view, with the perf columns), cut to 60 lines.
for f in tests/bad/stream/*.tsv tests/bad/stream/*.csv; do
	[ -f "$f" ] && cp "$f" "$cs/seed-$(basename "$f")"
done
for f in "$ct"/seed-*.json; do
	b=$(basename "$f" .json)
	b=${b#seed-}
	"$BIN/tl-parse" "$f" > "$tmp/s" 2>/dev/null || continue
	[ "$(wc -l < "$tmp/s")" -gt 1 ] || continue
	head -n 60 "$tmp/s" > "$cs/seed-$b.tsv"
	"$BIN/tl-parse" --csv "$f" 2>/dev/null | head -n 60 > "$cs/seed-$b.csv"
	"$BIN/tl-parse" -l "$f" 2>/dev/null | head -n 60 > "$cs/seed-$b-l.tsv"
	"$BIN/tl-perfmodel" "$cs/seed-$b.tsv" > "$cs/seed-$b-pm.tsv" 2>/dev/null
done

# Efficiency seeds: the stream seeds.  Findings seeds: the bad streams
# and enriched streams (per instance with and without the call stack, up
# to 4 rows of each category; grouped CSV, 40 lines; two traces in one
# stream), of the trace seeds and of a few model traces in ../shared.
# Compare seeds: the first 40 lines of an enriched stream alone
# (compared with itself), and each with the next one after a NUL byte
# (reference, then target): the two BERT traces make a pair of vendors.
cp "$cs"/seed-* "$cy"/
for f in tests/bad/stream/*.tsv tests/bad/stream/*.csv; do
	[ -f "$f" ] && cp "$f" "$cf/seed-$(basename "$f")"
	[ -f "$f" ] && cp "$f" "$cc/seed-$(basename "$f")"
done
bycat() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "category")
	    c = i; print; next } c > 0 && n[$c]++ < 4'
}
models=
for m in h100-bert-small mi300-bert-small mi300-normalization-layers \
    nvidia-alexnet; do
	[ -f "$SHARED/traces/$m.json.gz" ] &&
	    models="$models $SHARED/traces/$m.json.gz"
done
prev=
for f in "$ct"/seed-*.json $models; do
	b=$(basename "$f")
	b=${b%.gz}
	b=${b%.json}
	b=${b#seed-}
	"$BIN/tl-parse" "$f" 2>/dev/null |
	    "$BIN/tl-efficiency" --hw h100 > "$tmp/e" 2>/dev/null || continue
	[ "$(wc -l < "$tmp/e")" -gt 1 ] || continue
	bycat < "$tmp/e" > "$cf/seed-$b.tsv"
	head -n 40 "$tmp/e" > "$cc/seed-$b.tsv"
	"$BIN/tl-parse" -S "$f" 2>/dev/null |
	    "$BIN/tl-efficiency" --hw mi300x 2>/dev/null | bycat \
	    > "$cf/seed-$b-stack.tsv"
	"$BIN/tl-parse" "$f" 2>/dev/null | "$BIN/tl-efficiency" --hw mi300x \
	    --group --csv 2>/dev/null | head -n 40 > "$cf/seed-$b-group.csv"
	if [ -n "$prev" ]; then
		{ cat "$cf/seed-$prev.tsv"; tail -n +2 "$cf/seed-$b.tsv"; } \
		    > "$cf/seed-$prev+$b.tsv"
		{ cat "$cc/seed-$prev.tsv"; printf '\000'
		    cat "$cc/seed-$b.tsv"; } > "$cc/seed-$prev+$b.tsv"
	fi
	prev=$b
done

# Timeline seeds (tl-compare --timeline): the bad streams, tl-parse
# --timeline tables (pooled, per device) of the trace seeds, each alone
# and beside the next after a NUL byte, and the first lines of the
# compare seeds (their trace_*_us columns).
for f in tests/bad/stream/*.tsv tests/bad/stream/*.csv; do
	[ -f "$f" ] && cp "$f" "$cl/seed-$(basename "$f")"
done
prev=
for f in "$ct"/seed-*.json; do
	b=$(basename "$f" .json)
	b=${b#seed-}
	"$BIN/tl-parse" -t "$f" > "$cl/seed-$b.tsv" 2>/dev/null || {
		rm -f "$cl/seed-$b.tsv"
		continue
	}
	"$BIN/tl-parse" -t -d "$f" > "$cl/seed-$b-d.tsv" 2>/dev/null
	if [ -n "$prev" ]; then
		{ cat "$cl/seed-$prev.tsv"; printf '\000'
		    cat "$cl/seed-$b.tsv"; } > "$cl/seed-$prev+$b.tsv"
	fi
	prev=$b
done
for f in "$cc"/seed-*.tsv; do
	head -n 3 "$f" > "$cl/seed-ops-$(basename "$f")"
done

# Formula seeds: the flops and bytes columns of the model files.
n=0
for f in share/tl/models/*.tsv; do
	awk -F'\t' '!/^#/ && NR > 1 && $1 != "op" { print $3; print $4 }' "$f"
done | sort -u | while IFS= read -r e; do
	n=$((n + 1))
	[ -n "$e" ] && printf '%s' "$e" > "$ce/seed-$n"
done

# Deep formulas (issue 34): parentheses, signs, '?:' and function
# arguments nested past the parser's limit, within fuzz_expr's -max_len.
awk 'BEGIN {
	for (i = 0; i < 1500; i++) { o = o "("; c = c ")" }
	printf "%s1%s", o, c > "'"$ce"'/seed-deep-parens"
	for (i = 0; i < 1000; i++) s = s "-!"
	printf "%s1", s > "'"$ce"'/seed-deep-signs"
	o = c = ""
	for (i = 0; i < 600; i++) { o = o "1?"; c = c ":1" }
	printf "%s1%s", o, c > "'"$ce"'/seed-deep-branches"
	o = c = ""
	for (i = 0; i < 500; i++) { o = o "min(1,"; c = c ")" }
	printf "%s1%s", o, c > "'"$ce"'/seed-deep-calls"
}'

# Table seeds (fuzz_tables): a byte for the kind (0 ops, 1 rules, 2
# models, 3 GPUs, 4 GPU map), then the file: the built-in tables, the bad
# ones, the GPU maps of the bad streams.
seed_table() {		# KIND FILE
	{ printf "\\$(printf '%03o' "$1")"; cat "$2"; } > "$cb/seed-$1-$(basename "$2")"
}
seed_table 0 share/tl/ops.tsv
seed_table 2 share/tl/models/default.tsv
seed_table 3 share/tl/gpus.tsv
for f in tests/bad/table/*.tsv; do
	case $f in
	*/ops-*) seed_table 0 "$f" ;;
	*/rules-*) seed_table 1 "$f" ;;
	*/models-*) seed_table 2 "$f" ;;
	*/gpus-*) seed_table 3 "$f" ;;
	esac
done
printf 'match\tpattern\tcategory\tdirection\nop\taten::mm\tgemm\tfwd\nkernel\tCijk_*\tgemm\t\n' > "$tmp/rules.tsv"
seed_table 1 "$tmp/rules.tsv"
for f in tests/bad/stream/*.map; do
	seed_table 4 "$f"
done

fail=0
for z in $FUZZERS; do
	dict=tests/fuzz/${z#fuzz_}.dict
	case $z in
	fuzz_trace) maxlen=262144 ;;
	fuzz_expr) maxlen=4096 ;;
	fuzz_stream) maxlen=65536 ;;
	fuzz_tables) maxlen=65536
		cat tests/fuzz/stream.dict > "$tmp/$z.dict"
		dict=$tmp/$z.dict ;;
	*)	maxlen=65536
		cat tests/fuzz/stream.dict "$dict" > "$tmp/$z.dict"
		dict=$tmp/$z.dict ;;
	esac
	log=fuzz/out/$z.log
	printf '%s: %s s on %s inputs ... ' "$z" "$dur" \
	    "$(ls fuzz/corpus-"$z" | wc -l | tr -d ' ')"
	# stdout and stderr closed: the harnesses' warnings about bad input
	# would drown the log; sanitizer reports still reach it.
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
	    fuzz/bin/"$z" -max_total_time="$dur" -max_len="$maxlen" \
	    -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
	    -dict="$dict" -artifact_prefix=fuzz/out/"$z"- \
	    -print_final_stats=1 fuzz/corpus-"$z" > "$log" 2>&1
	rc=$?
	runs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$log")
	eps=$(awk '/^stat::average_exec_per_sec:/ { print $2 }' "$log")
	rss=$(awk '/^stat::peak_rss_mb:/ { print $2 }' "$log")
	cov=$(awk '/ cov: / { for (i = 1; i < NF; i++) if ($i == "cov:" ||
	    $i == "ft:") v[$i] = $(i + 1) } END { if ("cov:" in v)
	    print "coverage " v["cov:"] " edges, " v["ft:"] " features, " }' \
	    "$log")
	art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
	if [ "$rc" -eq 0 ] && [ -z "$art" ]; then
		echo "ok: ${runs:-?} executions (${eps:-?}/s), ${cov}corpus" \
		    "$(ls fuzz/corpus-"$z" | wc -l | tr -d ' ') inputs" \
		    "($(du -sk fuzz/corpus-"$z" | cut -f1) KiB), peak RSS" \
		    "${rss:-?} MB"
		continue
	fi
	fail=1
	echo "FAILED (exit $rc): ${art:-no artifact}; see $log"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5 |
	    sed 's/^/    /'
	if [ -n "$art" ]; then
		echo "    reproduce: fuzz/bin/$z $art"
		fuzz/bin/"$z" "$art" 2>&1 | grep -v '^INFO:' | tail -40 |
		    sed 's/^/    /'
	fi
done
exit $fail
