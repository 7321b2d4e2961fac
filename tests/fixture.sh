#!/bin/sh
# Compare tl-parse on a hand-made fixture with its .expect file
# ("key value" lines; "#" comments; "rank" is the op stream's rank
# column).  tree.* keys describe the call tree and are checked through the
# op.* keys they imply.  With a "hw_auto" key the stream also goes through
# tl-efficiency --hw auto: hw_auto is the hw column's values (sorted, comma
# separated, "none" when all empty), hw_auto_rc its exit status and
# hw_auto_warnings its stderr lines.  iter.N.COLUMN are tl-parse
# --iterations' columns of iteration N, row.UID.iteration and row.UID.phase
# the op stream's, row.UID.collective its collective column (compact JSON,
# compared as text); "(empty)" stands for an empty field.  Numbers compare within 1e-9, other
# values as text.
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
	    $3 == "tl.unlinked_gpu_events" { print "unlinked", $4 }
	    $3 == "tl.flow_linked_gpu_events" { print "flow_linked", $4 }
	    $3 == "tl.correlation_linked_gpu_events" { print "correlation_linked", $4 }
	    $3 == "tl.graph_gpu_events" { print "graph_linked", $4 }
	    $3 == "tl.unlinked_busy_us" { print "unlinked_busy_us", $4 }'
	# Iterations (tl-parse --iterations) and the rows' iteration and phase.
	"$bin/tl-parse" -i "$json" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } {
	    k = "iter." $c["iteration"]
	    split("iteration_source phase context_requests generation_requests batch_tokens batch_source kernel_count kernel_time_us gap_before_us steady", f, " ")
	    for (i = 1; i in f; i++) printf "%s.%s %s\n", k, f[i], $c[f[i]] == "" ? "(empty)" : $c[f[i]] }'
	"$bin/tl-parse" "$json" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } {
	    printf "row.%s.iteration %s\nrow.%s.phase %s\n", $c["uid"], $c["iteration"] == "" ? "(empty)" : $c["iteration"], $c["uid"], $c["phase"] == "" ? "(empty)" : $c["phase"]
	    printf "row.%s.collective %s\n", $c["uid"], $c["collective"] == "" ? "(empty)" : $c["collective"] }'
	if grep -q '^hw_auto ' "$exp"; then
		rc=0
		"$bin/tl-parse" "$json" 2> /dev/null |
		    "$bin/tl-efficiency" --hw auto > "$tmp/eff" 2> "$tmp/efferr" || rc=$?
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hw") c = i; next }
		    $c != "" { v[$c] = 1 } END { n = 0; for (k in v) w[++n] = k
		    s = ""; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
		    for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") w[i]
		    print "hw_auto", n ? s : "none" }' "$tmp/eff"
		echo "hw_auto_rc $rc"
		echo "hw_auto_warnings $(wc -l < "$tmp/efferr")"
	fi
} | sed 's/timeline\.\([a-z0-9.]*\)computation_us/timeline.\1computation_us/' > "$tmp/got"
awk 'NR == FNR { got[$1] = $2; next }
    /^#/ || NF < 2 || $1 ~ /^tree\./ { next }
    {
	n++
	if (!($1 in got)) { printf "missing %s (want %s)\n", $1, $2; bad++; next }
	if ($2 !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) {
		if (got[$1] != $2) { printf "%s: got %s, want %s\n", $1, got[$1], $2; bad++ }
		next
	}
	d = got[$1] - $2; if (d < 0) d = -d
	if (d > 1e-9) { printf "%s: got %s, want %s\n", $1, got[$1], $2; bad++ }
    }
    END { if (n == 0) { print "no keys checked"; exit 1 } exit bad > 0 }' \
    "$tmp/got" "$exp"
