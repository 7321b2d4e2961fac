#!/bin/sh
# make bench: tl-parse throughput and peak memory on a large trace built
# from the largest shared trace (tests/tools/multiply.py, cached in
# .bench/), next to cat and zcat of the same file.  A benchmark, not a
# test: it prints numbers and never fails on them.
set -eu
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.."
SHARED=${TL_SHARED:-../shared}
K=${K:-12}
RUNS=${RUNS:-5}
src=$(ls -S "$SHARED"/traces/*.json.gz 2>/dev/null | head -1)
if [ -z "$src" ]; then
	echo "bench: no traces in $SHARED/traces" >&2
	exit 1
fi
mkdir -p .bench
big=.bench/$(basename "$src" .json.gz)-x$K.json
if [ ! -f "$big" ]; then
	echo "building $big ($K copies of $src) ..." >&2
	python3 tests/tools/multiply.py "$K" "$src" "$big"
	gzip -6 -c "$big" > "$big.gz"
fi
bytes=$(wc -c < "$big")

# median wall seconds of RUNS runs of a shell command
median() {
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f %e -o .bench/t sh -c "$1" > /dev/null 2>&1
		cat .bench/t
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
rss() {
	/usr/bin/time -f %M -o .bench/m sh -c "$1 > /dev/null" 2>/dev/null
	cat .bench/m
}
row() {
	s=$(median "$2")
	mb=$(awk -v b="$bytes" -v s="$s" 'BEGIN { if (s > 0) printf "%.0f", b / 1e6 / s; else print "inf" }')
	printf '%-28s %8s s %8s MB/s %10s KB\n' "$1" "$s" "$mb" "$(rss "$2")"
}
echo "input: $big, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of JSON, $(wc -c < "$big.gz") bytes gzipped; $(nproc) cores; median of $RUNS"
printf '%-28s %10s %13s %13s\n' command wall throughput "peak RSS"
row "cat" "cat $big"
row "zcat" "zcat $big.gz"
row "tl-parse (plain)" "bin/tl-parse $big"
row "tl-parse (gzip)" "bin/tl-parse $big.gz"
row "zcat | tl-parse" "zcat $big.gz | bin/tl-parse"
row "tl-parse --timeline (gzip)" "bin/tl-parse -t $big.gz"

# The filters, on the op stream of the same trace repeated to a size that
# times well (header once).
ops=.bench/ops.tsv
if [ ! -f "$ops" ] || [ "$ops" -ot "$big" ]; then
	bin/tl-parse "$big" > .bench/ops1.tsv
	{ head -1 .bench/ops1.tsv; for i in 1 2 3 4 5 6 7 8; do tail -n +2 .bench/ops1.tsv; done; } > "$ops"
	rm -f .bench/ops1.tsv
fi
bin/tl-perfmodel "$ops" > .bench/opsm.tsv
bytes=$(wc -c < "$ops")
echo
echo "input: $ops, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of TSV ($(wc -l < "$ops") rows)"
printf '%-28s %10s %13s %13s\n' command wall throughput "peak RSS"
row "cat" "cat $ops"
row "tl-categorize gemm" "bin/tl-categorize gemm $ops"
row "tl-categorize -v gemm" "bin/tl-categorize -v gemm $ops"
row "tl-perfmodel" "bin/tl-perfmodel $ops"
row "tl-efficiency" "bin/tl-efficiency --hw mi300x $ops"
row "tl-efficiency --no-baseline" "bin/tl-efficiency --hw mi300x --no-baseline $ops"
row "tl-efficiency --group" "bin/tl-efficiency --hw mi300x --group $ops"
bytes=$(wc -c < .bench/opsm.tsv)
row "tl-efficiency (perf columns)" "bin/tl-efficiency --hw mi300x .bench/opsm.tsv"
row "tl-efficiency -b (perf cols)" "bin/tl-efficiency --hw mi300x -b .bench/opsm.tsv"
