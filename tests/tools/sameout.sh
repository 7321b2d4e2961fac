#!/bin/sh
# See LICENSE file for copyright and license details.
#
# sameout.sh OUTDIR [BINDIR]: run every program and option the tests use on
# every trace of ../shared/traces (TL_SHARED) and write each output, its
# standard error and its exit status under OUTDIR, one file per view.  Run
# it on two builds and compare with diff -r: a restructuring that changes
# nothing users see leaves no difference.
#
#   git stash; make; sh tests/tools/sameout.sh /tmp/before
#   git stash pop; make; sh tests/tools/sameout.sh /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
set -u
out=${1:?usage: sameout.sh OUTDIR [BINDIR]}
bin=${2:-bin}
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${TL_SHARED:-$top/../shared}
traces=$(cd "$shared/traces" && pwd) || exit 2
bin=$(cd "$bin" && pwd) || exit 2
export LC_ALL=C
rm -rf "$out"
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
scratch=$(mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT

# view NAME CMD: run CMD (sh -c) in the scratch directory; keep stdout,
# stderr and the exit status.
view()
{
	(cd "$scratch" && sh -c "$2" > "$out/$1.out" 2> "$out/$1.err")
	echo $? > "$out/$1.rc"
}

# dir NAME DIR: keep every file a directory run wrote, one file each.
dir()
{
	[ -d "$2" ] || return 0
	(cd "$2" && find . -type f | sort) | while read -r f; do
		g=$(printf '%s' "$f" | sed 's|^\./||; s|/|_|g')
		cp "$2/$f" "$out/$1.$g"
	done
	rm -rf "$2"
}

P=$bin/tl-parse C=$bin/tl-categorize M=$bin/tl-perfmodel
E=$bin/tl-efficiency F=$bin/tl-findings R=$bin/tl-replay X=$bin/tl-compare

view list-hw "$E --hw list"
view list-hw-csv "$E --hw list --csv"
view list-ops "$C --list"

for t in "$traces"/*.json "$traces"/*.json.gz; do
	case $t in *-details.json) continue ;; esac
	n=$(basename "$t"); n=${n%.gz}; n=${n%.json}
	case $n in
	*.capture) continue ;;	# graph-capture traces: with their replay
	esac
	step=$(gzip -dcf < "$t" | grep -o 'ProfilerStep#[0-9]*' | head -n 1)
	s=$scratch/$n.tsv
	(cd "$scratch" && "$P" "$t" > "$s" 2> /dev/null)
	hw=mi300x
	case $n in h100-*) hw=h100 ;; nvidia-*) hw=a100 ;; mi250-*) hw=mi250x ;;
	mi210-*) hw=mi210 ;; esac
	view "$n.parse" "$P '$t'"
	view "$n.parse-csv" "$P --csv '$t'"
	view "$n.parse-stdin" "gzip -dcf < '$t' | $P -"
	view "$n.timeline" "$P -t '$t'"
	view "$n.timeline-dev" "$P -t -d '$t'"
	view "$n.timeline-unlinked" "$P -t -u '$t'"
	view "$n.unlinked" "$P -u '$t'"
	view "$n.kernels" "$P -k '$t'"
	view "$n.meta" "$P -m '$t'"
	view "$n.launchers" "$P -l '$t'"
	view "$n.stack" "$P --stack '$t'"
	[ -n "$step" ] && view "$n.step" "$P --step ${step#*#} '$t'"
	view "$n.cat-gemm" "$C gemm < '$s'"
	view "$n.cat-inv" "$C -v gemm elementwise < '$s'"
	view "$n.cat-groups" "$C norm sdpa < '$s'"
	view "$n.perfmodel" "$M < '$s'"
	view "$n.perfmodel-csv" "$M --csv < '$s'"
	view "$n.eff" "$E --hw $hw < '$s' > e.tsv; cat e.tsv"
	cp "$out/$n.eff.out" "$scratch/e.tsv"
	view "$n.eff-peak" "$E --hw $hw --roof peak < '$s'"
	view "$n.eff-auto" "$E --hw auto < '$s'"
	view "$n.eff-group" "$E --hw $hw --group < '$s'"
	view "$n.eff-nobase" "$E --hw $hw --no-baseline < '$s'"
	view "$n.eff-user" "$E --hw $hw -T 100 -B 2 < '$s'"
	view "$n.eff-pm" "$M < '$s' | $E --hw $hw"
	view "$n.findings" "$F < e.tsv"
	view "$n.findings-rough" "$F --report rough < e.tsv"
	view "$n.findings-gemm" "$F --report category -C gemm < e.tsv"
	view "$n.findings-group" "$E --hw $hw --group < '$s' | $F"
	view "$n.findings-o" "$F -o fo < e.tsv"
	dir "$n.findings-o" "$scratch/fo"
	view "$n.replay" "$R < e.tsv"
	view "$n.replay-bn" "$R --bottlenecks --hw $hw < '$s'"
	view "$n.replay-o" "$R -o ro < e.tsv"
	dir "$n.replay-o" "$scratch/ro"
done

# The comparative pairs.
for m in qwen1.5-0.5b bert-small falconsai-vit; do
	r=$traces/h100-$m.json.gz g=$traces/mi300-$m.json.gz
	view "cmp-$m.parse" "$P '$r' > r.tsv && $P '$g' > g.tsv"
	view "cmp-$m" "$X -R r.tsv -T g.tsv"
	view "cmp-$m-eff" "$E --hw h100 < r.tsv > re.tsv && $E --hw mi300x < g.tsv > ge.tsv && $X -R re.tsv -T ge.tsv"
	view "cmp-$m-timeline" "$X -t -R r.tsv -T g.tsv"
	view "cmp-$m-findings" "$X -R r.tsv -T g.tsv | $F"
	view "cmp-$m-findings-rough" "$X -R r.tsv -T g.tsv | $F --report rough"
	view "cmp-$m-findings-o" "$X -R r.tsv -T g.tsv | $F -o co"
	dir "cmp-$m-findings-o" "$scratch/co"
done

# Several traces in one stream.
view multi "$P '$traces/h100-bert-small.json.gz' '$traces/mi300-bert-small.json.gz' | $E --hw auto | $F"
exit 0
