#!/bin/sh
# Compare tl-parse on a hand-made fixture with its .expect file
# ("key value" lines; "#" comments; "rank" is the op stream's rank
# column).  tree.* keys describe the call tree and are checked through the
# op.* keys they imply.
# usage: fixture.sh BINDIR FIXTURE.json
set -eu
bin=$1 json=$2 exp=${2%.json}.expect
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	"$bin/tl-parse" -t "$json" | awk -F'\t' 'NR > 1 {
	    printf "timeline.%s_us %s\n", $4, $5 }'
	"$bin/tl-parse" -t -d "$json" | awk -F'\t' 'NR > 1 {
	    printf "timeline.dev%s.%s_us %s\n", $3, $4, $5 }'
	"$bin/tl-parse" -l "$json" | awk -F'\t' 'NR > 1 {
	    printf "op.%s.kernel_count %s\nop.%s.kernel_time_us %s\n", $3, $12, $3, $13
	    printf "op.%s.subtree_kernel_time_us %s\n", $3, $14 }'
	# The rank column of the op stream, when every row has the same.
	"$bin/tl-parse" "$json" | awk -F'\t' 'NR > 1 { r[$2] = 1 }
	    END { n = 0; for (k in r) { n++; v = k } if (n == 1 && v != "") print "rank", v }'
	"$bin/tl-parse" -m "$json" | awk -F'\t' '
	    $3 == "tl.gpu_events" { print "gpu_events", $4 }
	    $3 == "tl.linked_gpu_events" { print "linked", $4 }
	    $3 == "tl.unlinked_gpu_events" { print "unlinked", $4 }'
} | sed 's/timeline\.\([a-z0-9.]*\)computation_us/timeline.\1computation_us/' > "$tmp/got"
awk 'NR == FNR { got[$1] = $2; next }
    /^#/ || NF < 2 || $1 ~ /^tree\./ { next }
    {
	n++
	if (!($1 in got)) { printf "missing %s (want %s)\n", $1, $2; bad++; next }
	d = got[$1] - $2; if (d < 0) d = -d
	if (d > 1e-9) { printf "%s: got %s, want %s\n", $1, got[$1], $2; bad++ }
    }
    END { if (n == 0) { print "no keys checked"; exit 1 } exit bad > 0 }' \
    "$tmp/got" "$exp"
