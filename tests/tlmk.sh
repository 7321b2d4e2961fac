#!/bin/sh
# share/tl/tl.mk on a directory of three traces (links to two shared
# traces and the rank-at-end fixture): per-rank op streams, the merged
# all.tsv with one header and the rows of each, the rank from
# distributedInfo, failure on a bad trace.  Prints "ok NAME", "FAIL NAME"
# or "SKIP NAME" per case (tests/run.sh counts them).
# usage: tlmk.sh BINDIR SHAREDDIR
BIN=$1
SHARED=$2
T=$SHARED/traces
REPO=$(pwd)
MK=$REPO/share/tl/tl.mk
binabs=$(cd "$BIN" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/check.sh"

if ! make --version 2> /dev/null | grep -q '^GNU Make'; then
	echo "SKIP tl.mk: needs GNU make"
	exit 0
fi
if [ ! -d "$T" ]; then
	echo "SKIP tl.mk: no $T"
	exit 0
fi
T=$(cd "$T" && pwd)
mkdir "$tmp/tr"
ln -s "$T/h100-bert-small.json.gz" "$tmp/tr/rank0.json.gz"
ln -s "$T/nvidia-alexnet.json.gz" "$tmp/tr/rank1.json.gz"
ln -s "$REPO/tests/data/rank-at-end.json" "$tmp/tr/rank3.json"
cd "$tmp" || exit 1
TLMK="make -s -f $MK TRACES=tr OUT=out HW=mi300x TLBIN=$binabs/"

check "tl.mk: make -j3 writes a stream per trace and all.tsv" \
    "$TLMK -j3 &&
     [ -s out/rank0.ops.tsv ] && [ -s out/rank1.ops.tsv ] && [ -s out/rank3.ops.tsv ] && [ -s out/all.tsv ]"
# What each stream must be: tl-parse | tl-efficiency of the trace.
for r in rank0.json.gz rank1.json.gz rank3.json; do
	"$binabs/tl-parse" "tr/$r" | "$binabs/tl-efficiency" --hw mi300x \
	    > "want-$r.tsv" 2> /dev/null
done
check "tl.mk: each per-rank stream is tl-parse | tl-efficiency --hw HW" \
    "cmp out/rank0.ops.tsv want-rank0.json.gz.tsv && cmp out/rank1.ops.tsv want-rank1.json.gz.tsv && cmp out/rank3.ops.tsv want-rank3.json.tsv"
check "tl.mk: all.tsv has one header, then the rows of each trace in name order" \
    "{ head -n 1 want-rank0.json.gz.tsv; for f in want-rank0.json.gz.tsv want-rank1.json.gz.tsv want-rank3.json.tsv; do tail -n +2 \$f; done; } > want-all.tsv &&
     cmp out/all.tsv want-all.tsv && [ \$(grep -c '^trace	rank	' out/all.tsv) = 1 ] &&
     [ \$(awk -F'\t' 'NR > 1 { print \$1 }' out/all.tsv | sort -u | wc -l) = 3 ]"
check "tl.mk: rows carry trace and rank (distributedInfo; empty without it)" \
    "awk -F'\t' 'NR > 1 { n[\$1 \" \" \$2]++ } END { for (k in n) print k, n[k] }' out/all.tsv | sort > got &&
     printf 'tr/rank0.json.gz  61\ntr/rank1.json.gz 0 59\ntr/rank3.json 3 1\n' > want && diff want got"
check "tl.mk: a second run has nothing to do" \
    "$TLMK -q"
cp "$REPO/tests/bad/truncated-gz.json.gz" tr/rank2.json.gz
cp out/all.tsv all-before.tsv
check "tl.mk: the report of the ranks in OUT/report, as tl-findings -o writes it" \
    "[ -s out/report/standalone_analysis_fair.md ] && [ -s out/report/standalone_analysis_rough.md ] &&
     $binabs/tl-findings out/all.tsv > fair.md && head -n 150 fair.md > a && head -n 150 out/report/standalone_analysis_fair.md > b && cmp a b &&
     [ ! -s out/failed.txt ]"
check "tl.mk: a truncated trace fails the make; the others are merged and analysed, the report lists it" \
    "! $TLMK 2> err &&
     grep -q 'rank2.json.gz: the gzip data is cut short' err && grep -q '^tl.mk: 1 of 4 traces failed' err &&
     [ ! -e out/rank2.ops.tsv ] && grep -q '^tr/rank2.json.gz: .*the gzip data is cut short' out/rank2.failed &&
     ! ls out | grep -q 'tmp\\|err' && cmp out/all.tsv all-before.tsv &&
     grep -q 'could not be analysed' out/report/standalone_analysis_fair.md &&
     grep -q 'tr/rank2.json.gz: .*cut short' out/report/standalone_analysis_fair.md &&
     [ -s out/report/standalone_analysis_rough.md ] && [ \$(wc -l < out/failed.txt) = 1 ]"
check "tl.mk: each trace's summary beside its stream, none for the failed one; make ranks reads the summaries alone, lists it and fails" \
    "[ -s out/rank0.summary.tsv ] && [ -s out/rank1.summary.tsv ] && [ -s out/rank3.summary.tsv ] && [ ! -e out/rank2.summary.tsv ] &&
     $binabs/tl-findings --summary want-sum.tsv out/rank0.ops.tsv && cmp want-sum.tsv out/rank0.summary.tsv &&
     mkdir sums && cp out/*.summary.tsv out/rank2.failed sums/ && ! make -s -f $MK OUT=sums TLBIN=$binabs/ ranks 2> err &&
     grep -q '^tl.mk: 1 traces failed' err && grep -q 'tr/rank2.json.gz: .*cut short' sums/ranks/standalone_analysis_fair.md &&
     grep -q 'From the per-rank summaries of 3 traces' sums/ranks/standalone_analysis_fair.md && [ -s sums/ranks/summary.tsv ]"
rm -f tr/rank2.json.gz
check "tl.mk: a single per-rank target, as a Slurm task or GNU parallel job runs it" \
    "rm -f out/rank1.ops.tsv && $TLMK out/rank1.ops.tsv &&
     cmp out/rank1.ops.tsv want-rank1.json.gz.tsv"
check "tl.mk: an empty directory is an error" \
    "mkdir empty && ! make -s -f $MK TRACES=empty OUT=out2 TLBIN=$binabs/ 2> err && grep -q 'no \\*.json.gz or \\*.json traces in empty' err"

# A folder of traces from several GPUs: one that --hw auto cannot name
# (tests/data/gpu-unknown.json, a Tesla T4) and one it can only narrow to
# two (mi250-minitoy-train: "AMD Radeon Graphics", 104 CUs: mi250 or mi210)
# beside an H100 and an MI300X with no device name.  The batch completes
# with every trace in all.tsv; HWMAP names the GPUs auto cannot.
mkdir mixed
ln -s "$T/h100-bert-small.json.gz" mixed/a-h100.json.gz
ln -s "$T/mi250-minitoy-train.json.gz" mixed/b-minitoy.json.gz
ln -s "$REPO/tests/data/gpu-unknown.json" mixed/c-t4.json
ln -s "$REPO/tests/data/gpu-empty-name.json" mixed/d-noname.json
MIXMK="make -s -f $MK TRACES=mixed OUT=mout TLBIN=$binabs/"
# hw per trace in a stream, as "TRACE HW" lines ("-" for empty).
cat > hwof.awk <<'AWK'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ print $c["trace"], ($c["hw"] == "" ? "-" : $c["hw"]) }
AWK
check "tl.mk: a mixed folder with unknown GPUs completes (HW=auto), one warning per such trace" \
    "$MIXMK -j2 2> err && [ -s mout/all.tsv ] &&
     [ \$(grep -c 'hw auto' err) = 2 ] && grep -q 'c-t4.json: --hw auto: GPU .Tesla T4.' err &&
     grep -q 'b-minitoy.json.gz: --hw auto: .*could be any of mi250, mi210' err &&
     awk -F'\t' -f hwof.awk mout/all.tsv | sort -u > got &&
     printf 'mixed/a-h100.json.gz h100\nmixed/b-minitoy.json.gz -\nmixed/c-t4.json -\nmixed/d-noname.json mi300x\n' > want && diff want got"
printf '# GPUs --hw auto cannot name\n*minitoy*  mi250\nc-t4.json  h100\n' > hw.map
# The streams dated just after their traces, so that the map is newer
# than they are even where the file clock ticks coarsely.
t=$(stat -L -c %Y mixed/* | sort -n | tail -n 1)
touch -d "@$((t + 1))" mout/*.ops.tsv mout/all.tsv
check "tl.mk: HWMAP names them; the streams are redone, others keep auto" \
    "$MIXMK HWMAP=hw.map 2> err && ! grep -q 'hw auto' err && awk -F'\t' -f hwof.awk mout/all.tsv | sort -u > got &&
     printf 'mixed/a-h100.json.gz h100\nmixed/b-minitoy.json.gz mi250\nmixed/c-t4.json h100\nmixed/d-noname.json mi300x\n' > want && diff want got &&
     awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"trace\"] == \"mixed/c-t4.json\" && \$c[\"pct_roofline\"] == \"\" { exit 1 }' mout/all.tsv"
