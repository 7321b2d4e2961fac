#!/bin/sh
# GPU identification and device kinds (issue 30) on the traces of
# tests/gen/gen-devices.py; prints "ok NAME", "FAIL NAME" or "SKIP NAME"
# per case (tests/run.sh counts them).
# usage: devices.sh BINDIR SHAREDDIR
BIN=$1
SHARED=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$BIN/tl-parse
E=$BIN/tl-efficiency
C=$BIN/tl-compare
F=$BIN/tl-findings
. "$(dirname "$0")/check.sh"

python3 tests/gen/gen-devices.py "$tmp/d" || { echo "FAIL gen-devices.py"; exit 0; }
D=$tmp/d
for f in "$D"/*.json; do
	"$P" "$f" > "${f%.json}.tsv" 2> "${f%.json}.perr"
done

# $COL FILE NAME: the values of column NAME, one per row.
cat > "$tmp/col.awk" <<'EOF'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ print $c[name] }
EOF
cat > "$tmp/col" <<EOF
#!/bin/sh
awk -F'\t' -v name="\$2" -f $tmp/col.awk "\$1"
EOF
chmod +x "$tmp/col"
COL=$tmp/col

# The GPU table: names, board names and variants; the efficiency of a
# 2 x 1024^3-FLOP fp32 mm in 1000 us against the card's FP32 figure
# (2.147483648 TFLOPS/s over 15.7, 13.4, 35.6 TFLOPS: 13.68, 16.03, 6.03 %).
for c in "v100-dgxs v100-32gb 13.678" "rtx2080ti rtx2080ti 16.026" \
    "unknown-3090 rtx3090 6.032"; do
	set -- $c
	check "--hw auto: $1 is $2, at $3 % of its FP32 roof" \
	    "$E --hw auto $D/$1.tsv > $tmp/$1.eff 2> $tmp/$1.err && [ \"\$($COL $tmp/$1.eff hw)\" = $2 ] && awk -v p=\"\$($COL $tmp/$1.eff pct_roofline)\" 'BEGIN { exit !(p > $3 - 0.01 && p < $3 + 0.01) }'"
done
check "v100-dgxs, rtx2080ti: identified by name, no warning" \
    "[ ! -s $tmp/v100-dgxs.err ] && [ ! -s $tmp/rtx2080ti.err ]"
check "an unknown name with the figures of one GPU: taken as it, one warning that says so" \
    "[ \$(wc -l < $tmp/unknown-3090.err) = 1 ] && grep -q \"GPU 'NVIDIA GeForce RTX 3090 OC' is not in the GPU table; taken as rtx3090\" $tmp/unknown-3090.err"
check "an unknown name whose figures two GPUs share: no GPU, a warning naming both, exit 0" \
    "$E --hw auto $D/unknown-a6000.tsv > $tmp/a.eff 2> $tmp/a.err && [ -z \"\$($COL $tmp/a.eff hw)\" ] && [ -z \"\$($COL $tmp/a.eff pct_roofline)\" ] && grep -q 'could be any of a40, rtxa6000' $tmp/a.err"

# Kernel names show the architecture where deviceProperties are missing.
for c in "nodp-volta sm_70" "nodp-ampere sm_80" "nodp-mi300 gfx942" \
    "v100-dgxs sm_70" "rtx2080ti sm_75"; do
	set -- $c
	check "trace_gpu_kernel_arch of $1 is $2, in -m too" \
	    "[ \"\$($COL $D/$1.tsv trace_gpu_kernel_arch)\" = $2 ] && $P -m $D/$1.json | grep -q '	tl.gpu_kernel_arch	$2\$'"
done
check "no deviceProperties: the warning gives the kernels' lowest architecture, exit 0" \
    "$E --hw auto $D/nodp-volta.tsv > $tmp/v.eff 2> $tmp/v.err && [ \$(wc -l < $tmp/v.err) = 1 ] && grep -q 'GPU is not named: the trace has no deviceProperties; its kernels were built for sm_70 (Volta) or later; its efficiency columns stay empty' $tmp/v.err && [ -z \"\$($COL $tmp/v.eff pct_roofline)\" ]"
check "no deviceProperties, volta_, ampere_ and sm80_ kernels: sm_80 (Ampere) or later" \
    "$E --hw auto $D/nodp-ampere.tsv 2>&1 >/dev/null | grep -q 'built for sm_80 (Ampere) or later'"
check "no deviceProperties, a hipBLASLt ISA942 kernel: gfx942 (CDNA 3)" \
    "$E --hw auto $D/nodp-mi300.tsv 2>&1 >/dev/null | grep -q 'built for gfx942 (CDNA 3);'"

# tl-compare treats an unknown GPU as tl-efficiency does; --strict-hw
# makes it an error in every program that takes --hw.
check "tl-compare, an unknown reference GPU: one warning, exit 0, its hw, roofs and the expected ratio empty" \
    "$C --ref $D/nodp-volta.tsv --target $D/v100-dgxs.tsv > $tmp/c.tsv 2> $tmp/c.err && [ \$(wc -l < $tmp/c.err) = 1 ] && grep -q 'its kernels were built for sm_70 (Volta) or later; its roofs, efficiency and expected ratios stay empty: give --ref-hw NAME' $tmp/c.err && [ -z \"\$($COL $tmp/c.tsv ref_hw)\" ] && [ -z \"\$($COL $tmp/c.tsv ref_pct_roofline)\" ] && [ -z \"\$($COL $tmp/c.tsv expected_ratio)\" ] && [ \"\$($COL $tmp/c.tsv target_hw)\" = v100-32gb ] && [ -n \"\$($COL $tmp/c.tsv target_pct_roofline)\" ]"
check "tl-findings on that comparison: exit 0, says the reference GPU is not known" \
    "$F $tmp/c.tsv > $tmp/c.md && grep -q 'the reference GPU is not known' $tmp/c.md"
check "--strict-hw: an unknown GPU is an error (exit 1) in tl-efficiency, tl-compare and tl-replay" \
    "$E --hw auto --strict-hw $D/nodp-volta.tsv > /dev/null 2>&1; [ \$? = 1 ] && $C --strict-hw --ref $D/nodp-volta.tsv --target $D/v100-dgxs.tsv > /dev/null 2>&1; [ \$? = 1 ] && $BIN/tl-replay --bottlenecks --hw auto --strict-hw -o $tmp/r $D/nodp-volta.tsv > /dev/null 2>&1; [ \$? = 1 ] && [ ! -e $tmp/r ]"

# A merged stream: each trace keeps its own GPU.
check "merged stream: the trace with no GPU named is not titled with the other's" \
    "$P $D/v100-dgxs.json $D/nodp-volta.json 2>/dev/null | $E --hw auto 2>/dev/null | $F --report rough > $tmp/m.md && head -1 $tmp/m.md | grep -q 'on \`Tesla V100-DGXS-32GB\` (1 trace with no GPU named)' && grep -q 'nodp-volta.json\`: 1 rows, GPU not named' $tmp/m.md && grep -q '^- GPU: none given for \`.*nodp-volta.json\`' $tmp/m.md && grep -q '^- GPU: v100-32gb (trace: \`Tesla V100-DGXS-32GB\`) for' $tmp/m.md"

# Device kinds by event category.
check "MTIA trace: one line naming its device events and that tl reads only GPU events" \
    "[ \$(wc -l < $D/mtia.perr) = 1 ] && grep -q 'the trace has no GPU events; its device events are mtia_ccp_events 3, which tl does not read: nothing to attribute; tl reads only GPU events (kernel, gpu_memcpy, gpu_memset)' $D/mtia.perr"
check "MTIA trace: -m lists its device events" \
    "$P -m $D/mtia.json > $tmp/mm && grep -q '	tl.other_device_events	mtia_ccp_events 3\$' $tmp/mm && grep -q '	tl.device_events	\$' $tmp/mm"
check "GPU and MTIA events: one line naming the events tl does not read; -m lists both kinds" \
    "[ \$(wc -l < $D/mtia-gpu.perr) = 1 ] && grep -q 'the trace also has device events tl does not read: mtia_insight 2; tl reads only GPU events' $D/mtia-gpu.perr && $P -m $D/mtia-gpu.json | grep -q '	tl.device_events	kernel 1\$'"
check "a GPU trace with no other device: no line" "[ ! -s $D/v100-dgxs.perr ]"
if [ -d "$SHARED/traces" ]; then
	check "cpu-only trace: no device events at all, one line" \
	    "$P $SHARED/traces/cpu-only.json.gz 2>&1 >/dev/null | grep -q 'the trace has no GPU events and no events of another device (host events only): nothing to attribute; tl reads only GPU events'"
else
	echo "SKIP cpu-only trace (no $SHARED/traces)"
fi
