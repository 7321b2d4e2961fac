#!/bin/sh
# The trace multiplier (tests/tools/multiply) against tl-parse: K = 3
# time-shifted copies of a small shared trace must give exactly K times
# the original's numbers.  Prints "ok NAME", "FAIL NAME" or "SKIP NAME"
# per case (tests/run.sh counts them).
#
# Why the equalities must hold: copy c is the original with every ts moved
# by c * P microseconds (P, the period, exceeds the span from the first
# event's start to the last one's end, so copies are disjoint in time) and
# every linking id moved by c * step (step exceeds every id, so copies
# share none).  Trees are built per thread in time order, so each copy
# builds the original's tree, links the same kernels and rolls up the same
# rows.  Hence, in integer nanoseconds:
#   - computation, exposed comm, exposed memcpy, busy, total comm and total
#     memcpy are unions of disjoint per-copy sets: K times the original;
#   - total runs from copy 0's first GPU start to copy K-1's last GPU end:
#     total_1 + (K - 1) * P, so idle = total - busy gains, besides K times
#     the original idle, the (K - 1) gaps of P - total_1 between copies;
#   - the op rows: K times as many, and every original row appears exactly
#     K times, with the same name, category, direction, kind, thread, CPU
#     and kernel time, kernel count, arguments, parent, forward op and
#     start time modulo P (shifting by c * P keeps it);
#   - the sum of kernel_time_us and the linked/unlinked GPU event counts:
#     K times.
# usage: scale.sh BINDIR SHAREDDIR
BIN=$1
SHARED=$2
T=$SHARED/traces
P=$BIN/tl-parse
MUL=tests/tools/multiply
K=3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -d "$T" ]; then
	echo "SKIP multiply: no $T"
	exit 0
fi
if [ ! -x "$MUL" ]; then
	echo "FAIL multiply: $MUL not built (make $MUL)"
	exit 0
fi

. "$(dirname "$0")/check.sh"

# Microseconds as written by tl ("12.345", "-7") to integer nanoseconds;
# exact in awk's doubles below 2^53 ns.
NS='function ns(s,   neg, a, n, f) {
	neg = sub(/^-/, "", s); n = split(s, a, ".")
	f = n > 1 ? substr(a[2] "000", 1, 3) : "000"
	return (neg ? -1 : 1) * (a[1] * 1000 + f)
}'

# The timeline of a trace as "type ns" lines.
timeline() {
	"$P" -t "$1" | awk -F'\t' "$NS"'NR > 1 { printf "%s %.0f\n", $4, ns($5) }'
}

# Rows, kernel time in ns, kernel count of the op stream.
sums() {
	"$P" "$1" | awk -F'\t' "$NS"'NR > 1 { n++; s += ns($13); c += $12 }
	    END { printf "%d %.0f %d\n", n, s, c }'
}

# The op rows as signatures (see above), with the start time modulo P
# microseconds (the integer part taken modulo P first, so it stays
# exact), counted: "COUNT SIGNATURE" lines, each count times $3.
signatures() {
	"$P" "$1" | awk -F'\t' -v p="$2" 'NR > 1 {
		n = split($10, a, "."); f = n > 1 ? a[2] : ""
		print $4, $5, $6, $7, $8, $9, $11, $12, $13, $15, $16, $17, \
		    $18, $20, $22, (a[1] % p) "." f
	}' OFS='\t' | sort | uniq -c | awk -v k="$3" '{ $1 *= k; print }'
}

# The linked and unlinked GPU event counts, each times $2.
linked() {
	"$P" -m "$1" | awk -F'\t' -v k="$2" \
	    '$3 ~ /^tl\.(un)?linked_gpu_events$/ { print $3, $4 * k }'
}

for n in h100-bert-small mi300-normalization-layers; do
	f=$T/$n.json.gz
	if [ ! -f "$f" ]; then
		echo "SKIP multiply $n: no $f"
		continue
	fi
	big=$tmp/$n-x$K.json.gz
	if ! "$MUL" -v "$K" "$f" "$big" 2> "$tmp/$n.mul"; then
		echo "FAIL multiply $n: the multiplier failed"
		sed 's/^/  /' "$tmp/$n.mul"
		continue
	fi
	period=$(awk '$1 == "period_us" { print $2 }' "$tmp/$n.mul")
	timeline "$f" > "$tmp/t1"
	timeline "$big" > "$tmp/tk"
	awk -v k=$K -v p="$period" 'NR == FNR { v[$1] = $2; next }
	    {
		if ($1 == "total")
			want = v["total"] + (k - 1) * p * 1000
		else if ($1 == "idle")
			want = k * v["idle"] + (k - 1) * (p * 1000 - v["total"])
		else
			want = k * v[$1]
		if ($2 != want)
			printf "%s %s, want %.0f\n", $1, $2, want
	    }
	    END { if (v["busy"] <= 0) print "no busy time" }' \
	    "$tmp/t1" "$tmp/tk" > "$tmp/tdiff" || echo "awk failed" >> "$tmp/tdiff"
	check "multiply $n: timeline sums are K times, total and idle grow by the gaps" \
	    "cat $tmp/tdiff; [ \$(wc -l < $tmp/tk) = 8 ] && [ ! -s $tmp/tdiff ]"
	sums "$f" > "$tmp/s1"
	sums "$big" > "$tmp/sk"
	read -r n1 s1 c1 < "$tmp/s1"
	read -r nk sk ck < "$tmp/sk"
	check "multiply $n: K times the op rows, kernel time and kernel count" \
	    "[ $n1 -gt 0 ] && [ $nk = $((n1 * K)) ] && [ $sk = $((s1 * K)) ] && [ $ck = $((c1 * K)) ]"
	signatures "$f" "$period" $K > "$tmp/r1"
	signatures "$big" "$period" 1 > "$tmp/rk"
	check "multiply $n: each original row appears exactly K times" \
	    "[ -s $tmp/r1 ] && diff $tmp/r1 $tmp/rk"
	linked "$f" $K > "$tmp/m1"
	linked "$big" 1 > "$tmp/mk"
	check "multiply $n: K times the linked and unlinked GPU events" \
	    "[ \$(wc -l < $tmp/m1) = 2 ] && diff $tmp/m1 $tmp/mk"
done

# The multiplier keeps the input: one copy is the same trace.
f=$T/h100-bert-small.json.gz
if [ -f "$f" ]; then
	check "multiply: K=1 gives the same op stream" \
	    "$MUL 1 $f $tmp/one.json && $P -n x $f > $tmp/a && $P -n x $tmp/one.json > $tmp/b && cmp $tmp/a $tmp/b"
fi
