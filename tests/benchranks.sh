#!/bin/sh
# See LICENSE file for copyright and license details.
# make bench (and make bench-ranks): the cross-rank reduction at 1 024
# ranks.  tests/gen/rank-summaries.py makes 1 024 ranks of a job with a
# straggler from the resnet trace (20 compute kernels a step), their
# per-rank summaries and 128 per-node summaries of 8 ranks (cached in
# .bench/ranks-1024); then tl-findings merges the node summaries into one
# and analyses them (-o: both reports, ranks.json, summary.tsv, the
# chart), each timed with tests/tools/measure (median and best wall time,
# peak RSS, CPU time).  Prints Markdown and, unless DOC is "-", appends it
# to DOC (default docs/PERFORMANCE.md).  A benchmark: it never fails on
# the numbers.
set -eu
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.."
SHARED=${TL_SHARED:-../shared}
RUNS=${RUNS:-3}
DOC=${DOC:-docs/PERFORMANCE.md}
N=1024
d=.bench/ranks-$N
src=$SHARED/traces/mi300-resnet-act-checkpoint.json.gz
for t in tests/tools/measure bin/tl-parse bin/tl-efficiency bin/tl-findings; do
	[ -x "$t" ] || { echo "bench-ranks: $t not built (make bench builds it)" >&2; exit 1; }
done
if [ ! -s "$d/summary.tsv" ]; then
	rm -rf "$d"
	mkdir -p "$d"
	echo "bench-ranks: generating $N ranks and their summaries in $d" >&2
	python3 tests/gen/rank-summaries.py bin "$src" "$d" $N straggler 8 20 > /dev/null
	rm -rf "$d/ranks"/rank-*.json
fi
nodes=$(ls "$d"/node-*.tsv | wc -l)
kb=$(cat "$d"/node-*.tsv | wc -c | awk '{ printf "%.0f", $1 / 1024 }')
row() {
	tests/tools/measure "$RUNS" "$2" | awk -v l="$1" '
	    { printf "| %s | %.3f | %.3f | %.3f | %.1f |\n", l, $1, $2, $4, $3 / 1024 }'
}
out=$(
	echo
	echo "### $N ranks reduced from per-node summaries"
	echo
	echo "$nodes per-node summaries of 8 ranks, $kb KB in all (a rank's summary: about" \
	    "$(awk -v k="$kb" -v n=$N 'BEGIN { printf "%.1f", k / n }') KB), from" \
	    "tests/gen/rank-summaries.py; $RUNS runs each, the median kept."
	echo
	echo "| command | wall s | best s | CPU s | peak RSS MB |"
	echo "|---|---:|---:|---:|---:|"
	row "tl-findings --summary (merge the $nodes node summaries)" \
	    "bin/tl-findings --summary $d/merged.tsv $d/node-*.tsv"
	row "tl-findings -o (cross-rank analysis of the $nodes node summaries)" \
	    "bin/tl-findings -o $d/report $d/node-*.tsv"
)
echo "$out"
if [ "$DOC" != "-" ] && [ -f "$DOC" ]; then
	echo "$out" >> "$DOC"
	echo "bench-ranks: appended to $DOC" >&2
fi
