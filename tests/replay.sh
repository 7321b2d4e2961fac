#!/bin/sh
# End-to-end cases of tl-replay and of its runner; prints "ok NAME",
# "FAIL NAME" or "SKIP NAME" per case (tests/run.sh counts them).
# usage: replay.sh BINDIR SHAREDDIR
#
# The runner cases need PyTorch (Debian's python3-torch on the CPU):
# TL_PYTHON names the interpreter (default: the first of python3 and
# /usr/bin/python3 that imports torch).  Without it they say SKIP, or
# FAIL when CI=true.  Ops above TL_REPLAY_MAX_GFLOP GFLOP (default 5;
# "none" = no limit) are built and checked but not run: a bf16 GEMM of
# the Qwen trace takes half a minute on a CPU.
BIN=$1
SHARED=$2
T=$SHARED/traces
R=$BIN/tl-replay
P=$BIN/tl-parse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/check.sh"
need_shared() {
	[ -d "$T" ] && return 0
	if [ "${CI:-}" = true ]; then
		echo "FAIL $1 ($T missing, required with CI=true)"
	else
		echo "SKIP $1 (no $T)"
	fi
	return 1
}
# Command line.
check "replay: --help on stdout, exit 0" "$R --help | grep -q '^usage: tl-replay'"
check "replay: --version" "[ \"\$($R --version)\" = 'tl-replay (tl) $(sed -n 's/^VERSION = //p' config.mk)' ]"
check "replay: unknown option: exit 2" "$R --bogus 2> $tmp/e < /dev/null; [ \$? = 2 ] && grep -q \"^Try 'tl-replay --help'\" $tmp/e"
check "replay: bad --min-pct: exit 2" "$R --bottlenecks --min-pct 200 < /dev/null 2>/dev/null; [ \$? = 2 ]"
check "replay: unknown --hw: exit 2" "$R --hw nosuchgpu < /dev/null 2>/dev/null; [ \$? = 2 ]"
check "replay: missing file: exit 1" \
    "$R /nonexistent/ops.tsv 2> $tmp/e; [ \$? = 1 ] && grep -q '^tl-replay: /nonexistent/ops.tsv: No such file' $tmp/e"
check "replay: stream without kernel_time_us: exit 1" \
    "printf 'name\naten::mm\n' | $R 2> $tmp/e; [ \$? = 1 ] && grep -q kernel_time_us $tmp/e"

if need_shared "replay on real traces"; then
	$P -n h100-qwen1.5-0.5b.json.gz $T/h100-qwen1.5-0.5b.json.gz > $tmp/qwen.tsv
	$BIN/tl-categorize gemm < $tmp/qwen.tsv > $tmp/qgemm.tsv
	$P -n mi300-resnet-act-checkpoint.json.gz $T/mi300-resnet-act-checkpoint.json.gz |
	    $BIN/tl-categorize conv batchnorm > $tmp/resnet.tsv
	$P -n mi300-normalization-layers.json.gz $T/mi300-normalization-layers.json.gz > $tmp/norm.tsv

	# The IR of the first aten::mm of the Qwen trace, checked by hand
	# against its trace event (Ev Idx 189): dims, strides and types as
	# recorded; kernel time 0.768 (memset) + 31.52 (GEMM) = 32.288 us;
	# flops 2*8944*1024*1024; bytes 2*(8944*1024 + 1024*1024 + 8944*1024);
	# the module from --stack.
	check "replay: IR of the first aten::mm of h100-qwen (golden)" \
	    "$P --stack -n h100-qwen1.5-0.5b.json.gz $T/h100-qwen1.5-0.5b.json.gz |
	     awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; print; next } \$c[\"name\"] == \"aten::mm\" { print; exit }' |
	     $R > $tmp/mm.json && diff -u tests/golden/replay-qwen-first-mm.json $tmp/mm.json"
	check "replay: write error on /dev/full: exit 1" \
	    "$R $tmp/qgemm.tsv > /dev/full 2> $tmp/e; [ \$? = 1 ] && grep -q 'write error' $tmp/e"
	# One entry per signature, as tl-efficiency --group counts them, with
	# the same counts and total times (instance rows or grouped rows in);
	# a grouped row keeps the module of its first instance only, so the
	# origin lines differ.
	check "replay: one entry per signature; grouped input gives the same IR" \
	    "$R $tmp/qgemm.tsv > $tmp/a.json &&
	     $BIN/tl-efficiency --hw h100 --group $tmp/qgemm.tsv > $tmp/g.tsv &&
	     $R $tmp/g.tsv > $tmp/b.json &&
	     [ \$(grep -c '\"index\":' $tmp/a.json) = \$((\$(wc -l < $tmp/g.tsv) - 1)) ] &&
	     [ \$(grep -c '\"index\":' $tmp/a.json) = 5 ] &&
	     grep -v -e pct_roofline -e '\"origin\":' $tmp/a.json > $tmp/a2 &&
	     grep -v -e pct_roofline -e '\"origin\":' $tmp/b.json > $tmp/b2 &&
	     cmp $tmp/a2 $tmp/b2 &&
	     grep -q '\"count\": 48,' $tmp/a.json &&
	     grep -q '\"kernel_time_us\": {\"total\":4055.251,\"mean\":84.48439583333334,\"min\":82.272,\"max\":86.912}' $tmp/a.json &&
	     grep -q '\"kernel_time_us\": {\"total\":4055.251,\"mean\":84.48439583333334,\"min\":82.272,\"max\":86.912}' $tmp/b.json"
	# The replay rule, in-process (--hw) and from tl-efficiency's column,
	# with the same efficiency as tl-efficiency --group.
	check "replay: --bottlenecks picks the same ops in-process and from tl-efficiency" \
	    "$R --bottlenecks -p 5 --max-eff 70 --hw h100 $tmp/qgemm.tsv > $tmp/a.json &&
	     $BIN/tl-efficiency --hw h100 $tmp/qgemm.tsv | $R --bottlenecks -p 5 --max-eff 70 > $tmp/b.json &&
	     cmp $tmp/a.json $tmp/b.json &&
	     [ \"\$(grep '\"op\":' $tmp/a.json | tr -d ' ,' | tr '\n' ' ')\" = '\"op\":\"aten::mm\" \"op\":\"aten::addmm\" \"op\":\"aten::mm\" ' ] &&
	     grep -q '\"pct_roofline\": 61.7208340140842' $tmp/a.json"
	check "replay: --bottlenecks at the defaults: no Qwen GEMM (all over 30 % of roofline)" \
	    "$R --bottlenecks --hw h100 $tmp/qgemm.tsv > $tmp/a.json 2> $tmp/e && grep -qx '\\[' $tmp/a.json && grep -q 'no op to replay' $tmp/e"
	check "replay: --bottlenecks without pct_roofline or --hw: exit 2" \
	    "$R --bottlenecks $tmp/qgemm.tsv 2> $tmp/e; [ \$? = 2 ] && grep -q 'give --hw' $tmp/e"
	# Scalars and lists from the concrete inputs, absent optionals, the
	# positive running_var, the zeros of an overwritten argument.
	check "replay: IR arguments of batch norm, layer norm backward, fill_, mean" \
	    "$R $tmp/norm.tsv > $tmp/n.json &&
	     grep -q '{\"type\":\"float\",\"kind\":\"tensor\",\"shape\":\\[16\\],\"strides\":\\[1\\],\"init\":\"positive\"},' $tmp/n.json &&
	     grep -q '{\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":true},' $tmp/n.json &&
	     grep -q '{\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":0.1},' $tmp/n.json &&
	     grep -q '{\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":1e-05},' $tmp/n.json &&
	     grep -q '{\"type\":\"ScalarList\",\"kind\":\"list\",\"value\":\\[true,false,false\\]}' $tmp/n.json &&
	     grep -q '{\"type\":\"ScalarList\",\"kind\":\"list\",\"value\":\\[16,32,32\\]},' $tmp/n.json &&
	     grep -q '{\"type\":\"\",\"kind\":\"none\"},' $tmp/n.json &&
	     grep -q '{\"type\":\"float\",\"kind\":\"tensor\",\"shape\":\\[\\],\"strides\":\\[\\],\"init\":\"zeros\"},' $tmp/n.json &&
	     grep -q '{\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":1.0}' $tmp/n.json"
	check "replay: -o DIR writes the IR, an executable runner, its allow-list and the README" \
	    "$R -o $tmp/pkg $tmp/resnet.tsv && $R $tmp/resnet.tsv | cmp - $tmp/pkg/replay_ir.json &&
	     [ -x $tmp/pkg/replay.py ] && cmp $tmp/pkg/replay.py share/tl/replay/replay.py &&
	     cmp $tmp/pkg/allowed_ops.tsv share/tl/replay/allowed_ops.tsv && ! grep -q refused $tmp/pkg/replay_ir.json &&
	     grep -q '^### 1\\. .aten::batch_norm.: batch normalisation, forward' $tmp/pkg/README.md &&
	     grep -q 'rocprofv3' $tmp/pkg/README.md && grep -q 'ncu ' $tmp/pkg/README.md &&
	     [ \$(grep -c '^### ' $tmp/pkg/README.md) = 32 ] && ! grep -q '@[A-Z]*@' $tmp/pkg/README.md"
	check "replay: --zip holds the same files, is deterministic and unzips" \
	    "mkdir -p $tmp/z2 && $R -o $tmp/pz -z $tmp/r.zip $tmp/norm.tsv && $R -z $tmp/z2/r.zip $tmp/norm.tsv && cmp $tmp/r.zip $tmp/z2/r.zip &&
	     python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
assert sorted(z.namelist()) == [\"r/README.md\", \"r/allowed_ops.tsv\", \"r/replay.py\", \"r/replay_ir.json\"], z.namelist()
for n in z.namelist():
    assert z.read(n) == open(sys.argv[2] + \"/\" + n[2:], \"rb\").read(), n
assert (z.getinfo(\"r/replay.py\").external_attr >> 16) & 0o777 == 0o755' $tmp/r.zip $tmp/pz"
	check "replay: a row whose arguments do not parse is left out with a warning" \
	    "{ head -1 $tmp/norm.tsv; sed -n 2p $tmp/norm.tsv | awk -F'\t' -v OFS='\t' 'NR == 1 { \$15 = \"[[1,2\" } 1'; } | $R > $tmp/a.json 2> $tmp/e &&
	     grep -q 'row left out' $tmp/e && grep -qx '\\[' $tmp/a.json"
fi

# The runner on the CPU, with the PyTorch of the machine.
PY=
for p in ${TL_PYTHON:-python3 /usr/bin/python3}; do
	if "$p" -c 'import torch' > /dev/null 2>&1; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL replay runner: no python3 with torch (apt-get install python3-torch)"
	else
		echo "SKIP replay runner (no python3 with torch; apt-get install python3-torch)"
	fi
	exit 0
fi
TV=$("$PY" -c 'import torch; print(torch.__version__)')
MAXG=${TL_REPLAY_MAX_GFLOP:-5}
[ "$MAXG" = none ] && CAP="--max-gflop inf" || CAP="--max-gflop $MAXG"
RUN="$PY $tmp/pkg/replay.py --device cpu --iters 0 --warmup 0 --ref-max-gflop 0.5 $CAP"

# Synthetic IRs: an op that fails its checks, one this PyTorch lacks.
mkdir -p $tmp/syn
cp share/tl/replay/replay.py share/tl/replay/allowed_ops.tsv $tmp/syn/
cat > $tmp/syn/replay_ir.json << 'EOF'
[
{"index": 1, "op": "aten::log", "kernel_time_us": {"mean": 1}, "perf": null, "args": [
  {"type": "float", "kind": "tensor", "shape": [4, 3], "strides": [1, 4], "init": "zeros"}]},
{"index": 2, "op": "aten::no_such_op", "kernel_time_us": {"mean": 1}, "args": []},
{"index": 3, "op": "aten::mm", "kernel_time_us": {"mean": 1}, "args": [
  {"type": "c10::Float8_e4m3fnuz", "kind": "tensor", "shape": [2, 2], "strides": [2, 1], "init": "normal"},
  {"type": "c10::Float8_e4m3fnuz", "kind": "tensor", "shape": [2, 2], "strides": [1, 2], "init": "normal"}]},
{"index": 4, "op": "aten::add", "kernel_time_us": {"mean": 1}, "args": [
  {"type": "c10::BFloat16", "kind": "tensor", "shape": [3, 1], "strides": [0, 1], "init": "normal"},
  {"type": "float", "kind": "tensor", "shape": [3, 5], "strides": [5, 1], "init": "normal"},
  {"type": "Scalar", "kind": "scalar", "value": 2}]},
{"index": 5, "op": "aten::gelu", "kernel_time_us": {"mean": 1}, "args": [
  {"type": "float", "kind": "tensor", "shape": [3, 4], "strides": [4, 1], "init": "normal"},
  {"type": "", "kind": "none"}]},
{"index": 6, "op": "aten::addmm", "kernel_time_us": {"mean": 1}, "args": []}
]
EOF
check "runner ($TV): a failed check exits 1; an op off the allow-list is refused, an unknown dtype unsupported" \
    "$PY $tmp/syn/replay.py --device cpu --iters 2 --warmup 1 --results $tmp/syn.tsv > $tmp/o; [ \$? = 1 ] &&
     grep -q '^  1  FAIL .*aten::log' $tmp/o && grep -q 'output 0: not finite' $tmp/o &&
     grep -q '^  2  refused  *aten::no_such_op' $tmp/o &&
     grep -q '^  3  unsupported here .*aten::mm' $tmp/o &&
     awk -F'\t' '\$1 == 4 && \$4 == \"ok\" && \$10 == \"[[0,1],[5,1],[]]\" && \$11 == \"[\\\"c10::BFloat16\\\",\\\"float\\\",\\\"Scalar\\\"]\" { ok = 1 } END { exit !ok }' $tmp/syn.tsv &&
     $PY $tmp/syn/replay.py --device cpu --op 2,4 --iters 1 > $tmp/o && grep -q '1 ok, 0 unsupported here, 0 skipped, 0 failed, 1 refused' $tmp/o"
check "runner ($TV): an argument the trace left empty takes the schema's default; no arguments at all is unsupported" \
    "$PY $tmp/syn/replay.py --device cpu --op 5,6 --iters 1 -v > $tmp/o &&
     grep -q '^  5  ok  *aten::gelu' $tmp/o && grep -q 'note: approximate: not recorded' $tmp/o &&
     grep -q '6 aten::addmm: the trace records no arguments (profile with record_shapes=True)' $tmp/o &&
     grep -q '1 ok, 1 unsupported here, 0 skipped, 0 failed' $tmp/o"
check "runner ($TV): --device cuda without a GPU, a missing IR: exit 2" \
    "if $PY -c 'import torch, sys; sys.exit(torch.cuda.is_available())'; then
         $PY $tmp/syn/replay.py --device cuda > /dev/null 2>&1; [ \$? = 2 ] || exit 1; fi
     $PY $tmp/syn/replay.py $tmp/none.json > /dev/null 2>&1; [ \$? = 2 ]"

# The runner replays computations only (issue 34).  A trace whose ops
# name files outside the run directory: aten::from_file with shared=True
# creates a 4 MB file at its path or grows an existing one, aten::save
# writes one; aten::manual_seed and a c10d collective change global
# state.  tl-replay marks them refused in the IR and the README; the
# runner, started in its run directory, refuses them (from its own
# allow-list, with the IR's marks removed too) and runs aten::relu; no
# file outside the run directory changes.  The same package with
# aten::from_file added to the allow-list does create the file: the
# check can see the harm it guards against.
mkdir -p $tmp/evil/run $tmp/outside
printf 'the user' > $tmp/outside/thesis.tex
ev() {	# NAME TS TYPES CONCRETE DIMS
	printf '{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":1,"ts":%d,"dur":50,"args":{"Input Dims":%s,"Input type":%s,"Concrete Inputs":%s}},\n' "$1" "$2" "$5" "$3" "$4"
	printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":5,"args":{"correlation":%d}},\n' $(($2 + 2)) "$2"
	printf '{"ph":"X","cat":"kernel","name":"k%d","pid":0,"tid":7,"ts":%d,"dur":5,"args":{"correlation":%d,"device":0,"stream":7}},\n' "$2" $(($2 + 10)) "$2"
}
{
	echo '{"traceEvents":['
	ev aten::from_file 100 '["","Scalar","Scalar","","","",""]' "[\"$tmp/outside/victim\",\"True\",\"1000000\",\"\",\"\",\"\",\"\"]" '[[],[],[],[],[],[],[]]'
	ev aten::from_file 200 '["","Scalar","Scalar","","","",""]' "[\"$tmp/outside/thesis.tex\",\"True\",\"1000000\",\"\",\"\",\"\",\"\"]" '[[],[],[],[],[],[],[]]'
	ev aten::save 300 '["float",""]' "[\"\",\"$tmp/outside/saved\"]" '[[4],[]]'
	ev aten::manual_seed 400 '["Scalar"]' '["7"]' '[[]]'
	ev c10d::allreduce_ 500 '["float"]' '[""]' '[[4]]'
	ev 'aten::relu\u001b[2J' 600 '["float"]' '[""]' '[[4,3]]'	# an ESC, JSON-escaped
	ev aten::relu 700 '["float"]' '[""]' '[[4,3]]'
	echo '{"ph":"i","name":"end","pid":1,"tid":1,"ts":900}]}'
} > $tmp/evil/trace.json
# What outside holds: names, sizes, times, contents.
OUTSIDE="{ find $tmp/outside -exec ls -ld --time-style=+%s {} +; find $tmp/outside -type f -exec md5sum {} +; } | sort"
sh -c "$OUTSIDE" > $tmp/evil/before
check "runner ($TV): a trace naming aten::from_file, aten::save and the like: refused, nothing outside the run directory changes" \
    "$P $tmp/evil/trace.json > $tmp/evil/ops.tsv && $R -o $tmp/evil/pkg $tmp/evil/ops.tsv &&
     [ \$(grep -c '\"refused\": ' $tmp/evil/pkg/replay_ir.json) = 6 ] &&
     [ \$(grep -c '^- Not replayed: ' $tmp/evil/pkg/README.md) = 6 ] &&
     cd $tmp/evil/run && $PY ../pkg/replay.py --device cpu --iters 1 --warmup 0 > $tmp/evil/out &&
     grep -q '^1 ok, 0 unsupported here, 0 skipped, 0 failed, 6 refused' $tmp/evil/out &&
     grep -q '^refused: [0-9] aten::from_file: not on the runner.s allow-list' $tmp/evil/out &&
     grep -q 'aten::relu\\\\x1b\\[2J' $tmp/evil/out && ! grep -q \"\$(printf '\\033')\" $tmp/evil/out &&
     grep -v '\"refused\"' ../pkg/replay_ir.json > ../ir.json && cp ../pkg/replay.py ../pkg/allowed_ops.tsv .. &&
     $PY ../replay.py --device cpu --iters 1 --warmup 0 ../ir.json > $tmp/evil/out2 &&
     grep -q '^1 ok, 0 unsupported here, 0 skipped, 0 failed, 6 refused' $tmp/evil/out2 &&
     $OUTSIDE | cmp - $tmp/evil/before &&
     echo aten::from_file >> ../allowed_ops.tsv && $PY ../replay.py --device cpu --iters 1 --warmup 0 --op 1 ../ir.json > /dev/null &&
     [ -f $tmp/outside/victim ]"
rm -f $tmp/outside/victim
check "runner: no eval, exec, pickle, subprocess or os.system: the IR is data" \
    "! grep -nE '(^|[^_a-z.])(eval|exec|compile|__import__)\\(|pickle|subprocess|os\\.system|os\\.popen|torch\\.load' share/tl/replay/replay.py"

# replay_case NAME STREAM UNSUPPORTED: replay every op of STREAM on the CPU;
# each op must end ok (or skipped, over the GFLOP cap) or, on PyTorch
# 1.13, unsupported exactly when its index is in UNSUPPORTED ("3 7 ..."),
# on other versions only among those; and every op that ran or was
# built must have the shapes, strides and dtypes of one of the trace's
# rows of that op.
replay_case() {
	check "runner ($TV): $1 on the CPU" \
	    "rm -rf $tmp/pkg && $R -o $tmp/pkg $2 && $RUN --results $tmp/res.tsv > $tmp/out || { cat $tmp/out; exit 1; }
	     awk -F'\t' -v uns=' $3 ' -v v113=$(case $TV in 1.13*) echo 1;; *) echo 0;; esac) '
	         FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, \$i] = i; next }
	         f == 1 { row[\$c[1, \"name\"] \"|\" \$c[1, \"input_dims\"] \"|\" \$c[1, \"input_strides\"] \"|\" \$c[1, \"input_types\"]] = 1; next }
	         { s = \$c[2, \"status\"]; want_uns = index(uns, \" \" \$1 \" \") > 0
	           if (s == \"failed\") { print \"op \" \$1 \" failed: \" \$12; bad = 1 }
	           if (s == \"unsupported\" && !want_uns) { print \"op \" \$1 \" unsupported: \" \$12; bad = 1 }
	           if (s != \"unsupported\" && want_uns && v113) { print \"op \" \$1 \" \" s \", unsupported on 1.13\"; bad = 1 }
	           if (s != \"unsupported\" && !((\$2 \"|\" \$9 \"|\" \$10 \"|\" \$11) in row)) { print \"op \" \$1 \" ran with \" \$9 \$10 \$11 \", not a trace row\"; bad = 1 }
	           n++ }
	         END { if (n == 0) { print \"no op\"; bad = 1 } exit bad }' $2 $tmp/res.tsv"
}
if need_shared "replay runner on real traces"; then
	# Debian's PyTorch 1.13 on the CPU lacks: the bf16 batch norm
	# backward with fp32 saved statistics (5 signatures), the fused RMS
	# norm (newer), the MIOpen batch norm (ROCm only).
	replay_case "mi300-resnet-act-checkpoint conv and batchnorm" $tmp/resnet.tsv "2 4 16 27 30"
	replay_case "h100-qwen1.5-0.5b GEMMs" $tmp/qgemm.tsv ""
	replay_case "mi300-normalization-layers" $tmp/norm.tsv "7 20 22 23 24 25"
fi
