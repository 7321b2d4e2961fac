#!/bin/sh
# The cluster recipes of tl(7) (the blocks marked "recipe: parallel" and
# "recipe: slurm"), run as the manual writes them against the stand-ins
# tests/standin/parallel and tests/standin/sbatch, which check what the
# recipes ask (hosts; arrays under MaxArraySize, the merge job afterany
# of every array) and that only summaries and failure notes reach the
# shared directory, nothing stays in a node's TMPDIR.  On 8 generated
# ranks with a straggler and a truncated ninth trace: each recipe
# analyses the 8, names the straggler, lists the failed one, and its
# merge fails; the Slurm tasks get their chunk of ranks each.  Then
# 1 100 traces (empty files: only submitted, not run) go out in arrays
# under MaxArraySize.  Prints "ok NAME", "FAIL NAME" or "SKIP NAME".
# usage: recipes.sh BINDIR SHAREDDIR
BIN=$1
SHARED=$2
REPO=$(pwd)
binabs=$(cd "$BIN" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/check.sh"

if ! make --version 2> /dev/null | grep -q '^GNU Make'; then
	echo "SKIP recipes: need GNU make"
	exit 0
fi
T=$(cd "$SHARED" 2> /dev/null && pwd)/traces/mi300-resnet-act-checkpoint.json.gz
if [ ! -f "$T" ]; then
	echo "SKIP recipes: no $T"
	exit 0
fi
# recipe NAME: the block's commands, as the shell runs them: "$ " gone,
# roff escapes undone, the installed share/tl the repository's.
recipe() {
	awk -v n="$1" '
	    /^\.\\" recipe: / { on = ($3 == n); next }
	    on && /^\.Bd/ { inb = 1; next }
	    on && /^\.Ed/ { exit }
	    inb { print }' man/tl.7 |
	sed -e 's/^\$ //' -e 's/\\-/-/g' -e 's/\\e/\\/g' -e "s/\\\\(aq/'/g" \
	    -e "s|/usr/local/share/tl|$REPO/share/tl|g"
}
recipe parallel > "$tmp/parallel.sh"
recipe slurm > "$tmp/slurm.sh"
check "recipes: tl(7) has the GNU parallel and the Slurm recipe" \
    "grep -q 'parallel --sshlogin' $tmp/parallel.sh && grep -q 'tl-rank.sh' $tmp/parallel.sh &&
     grep -q 'tl.mk OUT=tl-sum ranks' $tmp/parallel.sh && grep -q 'tl-slurm.sh traces tl-sum' $tmp/slurm.sh"
cd "$tmp" || exit 1
python3 "$REPO/tests/gen/gen-ranks.py" "$T" gen 8 straggler 1 20 > /dev/null || exit 1
mkdir traces
for r in 0 1 2 3 4 5 6 7; do
	gzip -c "gen/rank-$r.json" > "traces/rank-$r.json.gz"
done
cp "$REPO/tests/bad/truncated-gz.json.gz" traces/rank-8.json.gz
export PATH="$REPO/tests/standin:$binabs:$PATH"

# GNU parallel across two hosts, one trace a job.
mkdir p && cd p && ln -s ../traces traces
check "recipes: GNU parallel: a job per trace on the hosts, only summaries and the failure note shared, the merge fails" \
    "! STANDIN_LOG=$tmp/p.log STANDIN_SHARED=$tmp/p/tl-sum STANDIN_NODES=$tmp/pn sh $tmp/parallel.sh 2> err &&
     grep -q '^parallel node1,node2 8' $tmp/p.log && [ \$(grep -c '^run node1 ' $tmp/p.log) = 5 ] &&
     [ \$(grep -c '^run node2 ' $tmp/p.log) = 4 ] && [ \$(grep -c '^run node. 0 ' $tmp/p.log) = 8 ] &&
     [ \$(ls tl-sum/*.summary.tsv | wc -l) = 8 ] && [ \$(ls tl-sum | grep -vc 'summary.tsv\$\\|failed\$\\|^ranks') = 0 ] &&
     grep -q '^traces/rank-8.json.gz: .*cut short' tl-sum/rank-8.failed &&
     grep -q '^tl.mk: 1 traces failed' err"
check "recipes: GNU parallel: the report from the summaries names the straggler and lists the failed trace" \
    "grep -q 'Straggler:\\*\\* rank 3 ' tl-sum/ranks/standalone_analysis_fair.md &&
     grep -q 'traces/rank-8.json.gz: .*cut short' tl-sum/ranks/standalone_analysis_fair.md &&
     grep -q 'From the per-rank summaries of 8 traces' tl-sum/ranks/standalone_analysis_fair.md"
cd "$tmp" || exit 1

# Slurm: chunks of 3 traces, arrays of at most 2 tasks (MaxArraySize 2).
mkdir s && cd s && ln -s ../traces traces
sed 's|tl-slurm.sh traces|tl-slurm.sh -c 3 -m 2 traces|' "$tmp/slurm.sh" > slurm.sh
check "recipes: Slurm: 3 chunks as arrays of 2 and 1 tasks under MaxArraySize 2, the merge afterany of both" \
    "STANDIN_MAX_ARRAY=2 STANDIN_LOG=$tmp/s.log STANDIN_SHARED=$tmp/s/tl-sum STANDIN_NODES=$tmp/sn sh slurm.sh > out &&
     grep -qx 1002 out && awk '\$1 == \"array\" { a = a \$2 \"/\" \$3 \" \" } \$1 == \"job\" { j = \$3 }
         END { exit !(a == \"1000/2 1001/1 \" && j == \"afterany:1000:1001\") }' $tmp/s.log"
check "recipes: Slurm: each task its chunk of 3 ranks, one summary a chunk, only summaries and the failure note shared" \
    "[ \$(grep -c '^task ' $tmp/s.log) = 3 ] && grep -q '^task 1001 0 1 ./chunk-2.summary.tsv ./rank-8.failed' $tmp/s.log &&
     for k in 0 1 2; do [ -s tl-sum/chunk-\$k.summary.tsv ] || exit 1; done &&
     [ \$(awk -F'\t' '\$4 == \"rank\"' tl-sum/chunk-0.summary.tsv | wc -l) = 3 ] &&
     [ \$(awk -F'\t' '\$4 == \"rank\"' tl-sum/chunk-1.summary.tsv | wc -l) = 3 ] &&
     [ \$(awk -F'\t' '\$4 == \"rank\"' tl-sum/chunk-2.summary.tsv | wc -l) = 2 ] &&
     [ \$(ls tl-sum | grep -vc 'summary.tsv\$\\|failed\$\\|^ranks') = 0 ]"
check "recipes: Slurm: the merge job ran after all, failed for the failed trace; its report names the straggler and lists it" \
    "grep -q '^job 1002 afterany:1000:1001 [1-9]' $tmp/s.log &&
     grep -q 'Straggler:\\*\\* rank 3 ' tl-sum/ranks/standalone_analysis_fair.md &&
     grep -q 'traces/rank-8.json.gz: .*cut short' tl-sum/ranks/standalone_analysis_fair.md"
check "recipes: the Slurm and the GNU parallel reports agree" \
    "cmp tl-sum/ranks/category_data/ranks.json $tmp/p/tl-sum/ranks/category_data/ranks.json"
cd "$tmp" || exit 1

# 1 100 ranks: submitted only.  One trace a task: arrays of 1000 and 100;
# a node's 8 a task: one array of 138; arrays above MaxArraySize refused.
mkdir big big/traces && cd big
i=0
while [ $i -lt 1100 ]; do : > traces/r$i.json.gz; i=$((i + 1)); done
check "recipes: Slurm at 1100 ranks, one trace a task: arrays of 1000 and 100, the merge afterany of both" \
    "STANDIN_RUN=0 STANDIN_LOG=$tmp/b1.log $REPO/share/tl/tl-slurm.sh -c 1 traces sum1 > /dev/null &&
     awk '\$1 == \"array\" { a = a \$3 \" \" } \$1 == \"job\" { j = \$3 }
         END { exit !(a == \"1000 100 \" && j == \"afterany:1000:1001\") }' $tmp/b1.log"
check "recipes: Slurm at 1100 ranks, 8 a task: one array of 138" \
    "STANDIN_RUN=0 STANDIN_LOG=$tmp/b8.log $REPO/share/tl/tl-slurm.sh traces sum8 > /dev/null &&
     awk '\$1 == \"array\" { a = a \$3 \" \" } \$1 == \"job\" { j = \$3 }
         END { exit !(a == \"138 \" && j == \"afterany:1000\") }' $tmp/b8.log"
check "recipes: the stand-in sbatch refuses an array over MaxArraySize and a merge afterok" \
    "! STANDIN_RUN=0 STANDIN_LOG=$tmp/b2.log $REPO/share/tl/tl-slurm.sh -c 1 -m 1100 traces sum2 2> err &&
     grep -q 'Invalid job array specification' err &&
     ! STANDIN_LOG=$tmp/b2.log sbatch --dependency=afterok:1000 --wrap true 2> err && grep -q 'not afterany' err"
