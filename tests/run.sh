#!/bin/sh
# The test suite: unit tests, fixtures, bad inputs, end-to-end cases,
# parity with TraceLens' reports.  Ends with "N passed, N failed".
# Tests that need ../shared say SKIP when it is absent; with CI=true a
# missing ../shared is a failure.
#
# tests/run.sh --threads N runs only the cases that read traces on
# several threads, with tl-parse -j N: the worker pool's unit test, the
# bad traces, and the shared traces, whose op stream (TSV, CSV, with
# stacks) and timeline must be those of -j 1.  CI runs it on the ThreadSanitizer build (make tsan),
# where a data race shows as a report on stderr: a failure here.
LC_ALL=C
export LC_ALL
JOBS=
threads=
if [ "${1:-}" = --threads ]; then
	threads=$2
	JOBS="-j $2"
	TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS }halt_on_error=1 exitcode=66"
	export TSAN_OPTIONS
fi
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-bin}
SHARED=${TL_SHARED:-../shared}
TRACES=$SHARED/traces
REF=$SHARED/reference/tracelens
pass=0 fail=0 skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP: $*"; }
# run NAME CMD...: pass when CMD exits 0.
run() {
	name=$1
	shift
	if "$@" > "$tmp/out" 2>&1; then ok; else bad "$name"; sed 's/^/    /' "$tmp/out" | head -20; fi
}

# SVG charts written by the tests go to $TL_SVG_OUT (test_svgchart's, and
# those of any case in tests/cases.sh that makes charts); tests/svgcheck.sh
# checks them all at the end.
TL_SVG_OUT=$tmp/svg
export TL_SVG_OUT
mkdir "$TL_SVG_OUT"

# tally FILE: count the "ok", "FAIL" and "SKIP" lines of FILE.
tally() {
	while IFS= read -r line; do
		case $line in
		"ok "*) ok ;;
		"FAIL "*) bad "${line#FAIL }" ;;
		"SKIP "*) skipped "${line#SKIP }" ;;
		*) echo "    $line" ;;
		esac
	done < "$1"
}

if [ -z "$threads" ]; then
# The layering of lib/ (CONTRIBUTING.md): includes go down, never up; no
# include cycle; no file outside cmd/ includes a program.
python3 tests/layers.py . > "$tmp/layers" 2>&1
tally "$tmp/layers"

# The planted-defect traces (tests/gen/gen-causes.py): the first
# recommendation names the planted cause with the generator's numbers.
python3 tests/causes.py "$BIN" > "$tmp/causes" 2>&1
tally "$tmp/causes"

# The planted comparison pairs (tests/gen/gen-cmppairs.py): group and
# product matches, the faster side never advised to adopt the slower
# side's path, kernels compared, copies judged as copies and counted once.
python3 tests/cmppairs.py "$BIN" > "$tmp/cmppairs" 2>&1
tally "$tmp/cmppairs"

# lib/render only renders: no threshold, no verdict chosen by comparing
# values (they are decided in lib/analysis/verdict).
python3 tests/renderonly.py . > "$tmp/renderonly" 2>&1
tally "$tmp/renderonly"

# The stream's columns (lib/stream/schema.c) against man/tl-format.5: the
# columns of each table and the programs that write them.
python3 tests/schema.py tests/tools/schema . > "$tmp/schema" 2>&1
tally "$tmp/schema"

# One meaning per option letter across the programs' --help texts.
python3 tests/options.py "$BIN" > "$tmp/options" 2>&1
tally "$tmp/options"

# Unit tests of lib modules.
for c in tests/unit/test_*.c; do
	t=${c%.c}
	run "$t" "$t"
done

# Hand-made fixtures with hand-computed .expect files.
for f in tests/data/*.json; do
	run "fixture $f" sh tests/fixture.sh "$BIN" "$f"
done
fi

# expect CASE EXPECT RC: compare the output in $tmp/o and $tmp/e and the
# exit status RC with EXPECT ("exit N", "stderr RE", "stdout RE" lines).
# Errors are one line; a usage error (exit 2) is one line and the
# pointer to --help, as GNU tools put it.
expect() {
	want=$(awk '$1 == "exit" { print $2 }' "$2")
	msg=""
	[ "$3" = "$want" ] || msg="exit $3, want $want"
	if [ "$want" = 2 ]; then
		[ "$(wc -l < "$tmp/e")" -le 2 ] &&
		    tail -n 1 "$tmp/e" | grep -Eq "^Try 'tl-[a-z]+ --help' for more information\.$" ||
		    msg="$msg; a usage error is not one line and the pointer to --help"
	else
		[ "$(wc -l < "$tmp/e")" -le 1 ] ||
		    msg="$msg; more than one line on stderr"
	fi
	while IFS= read -r line; do
		case $line in
		"stderr "*) grep -Eq -- "${line#stderr }" "$tmp/e" ||
		    msg="$msg; stderr lacks /${line#stderr }/" ;;
		"stdout "*) grep -Eq -- "${line#stdout }" "$tmp/o" ||
		    msg="$msg; stdout lacks /${line#stdout }/" ;;
		esac
	done < "$2"
	if [ -z "$msg" ]; then ok; else bad "$1: $msg"; sed 's/^/    /' "$tmp/e"; fi
}

# Bad and odd traces: tests/bad/NAME.json* with NAME.expect.
for e in tests/bad/*.expect; do
	base=${e%.expect}
	in=$(ls "$base".json* 2>/dev/null | head -1)
	# shellcheck disable=SC2086
	"$BIN/tl-parse" $JOBS "$in" > "$tmp/o" 2> "$tmp/e"
	expect "bad input $in" "$e" $?
done

# The shared traces on $threads threads: the same output as on one.
if [ -n "$threads" ]; then
	run tests/unit/test_pool tests/unit/test_pool
	if [ ! -d "$TRACES" ]; then
		if [ "${CI:-}" = true ]; then
			bad "threads: $TRACES not found (required with CI=true)"
		else
			skipped "threads: $TRACES not found"
		fi
	fi
	for f in "$TRACES"/*.json*; do
		[ -f "$f" ] || continue
		case $f in *capture-details*) continue ;; esac
		"$BIN/tl-parse" -j 1 --stack "$f" > "$tmp/one" 2> "$tmp/onee"
		r1=$?
		for v in --stack --csv -t; do
			"$BIN/tl-parse" -j "$threads" $v "$f" > "$tmp/o" 2> "$tmp/e"
			r=$?
			if [ "$v" = --stack ] && { [ $r != $r1 ] ||
			    ! cmp -s "$tmp/o" "$tmp/one"; }; then
				bad "threads: $f $v: not the output of -j 1"
			elif [ $r != 0 ] && [ $r != $r1 ]; then
				bad "threads: $f $v: exit $r"
			elif grep -q ThreadSanitizer "$tmp/e" "$tmp/onee"; then
				bad "threads: $f $v: ThreadSanitizer reports"
				sed 's/^/    /' "$tmp/e" | head -40
			else
				ok
			fi
		done
	done
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
fi

# Bad and odd streams for the programs: NAME.expect as above, plus
# "prog P..." to name the programs the case is for (default: the three
# filters) and "args A..." for arguments in place of the program's
# default ones and the file name (FILE stands for the file name), "env
# V=X..." for the environment.  The file is standard input too.  tests/bad/table holds bad table files
# (--rules, --ops, --models, --hw-file) in the same form.
binabs=$(cd "$BIN" && pwd)
for e in tests/bad/stream/*.expect tests/bad/table/*.expect; do
	base=${e%.expect}
	in=$(ls "$base".tsv "$base".csv 2>/dev/null | head -1)
	f=$(basename "$in")
	progs=$(awk '$1 == "prog" { $1 = ""; print }' "$e")
	args=$(awk '$1 == "args" { $1 = ""; print }' "$e")
	envs=$(awk '$1 == "env" { $1 = ""; print }' "$e")
	for p in ${progs:-tl-categorize tl-perfmodel tl-efficiency}; do
		case $p in
		tl-efficiency) set -- --hw mi300x "$f" ;;
		tl-compare) set -- --ref-hw mi300x --target-hw mi300x \
		    --target "$f" --ref "$f" ;;
		*) set -- "$f" ;;
		esac
		if [ -n "$args" ]; then
			set --
			for a in $args; do
				[ "$a" = FILE ] && a=$f
				set -- "$@" "$a"
			done
		fi
		(cd "$(dirname "$in")" && env $envs "$binabs/$p" "$@" < "$f") \
		    > "$tmp/o" 2> "$tmp/e"
		expect "bad stream $in ($p)" "$e" $?
	done
done

# End-to-end cases; tl-replay and its runner; the trace multiplier's
# scaling checks; the batch rules of share/tl/tl.mk and the cluster
# recipes of tl(7) (stand-in sbatch and parallel); a category added to
# the category table (tests/category/); output files complete or absent;
# GPU identification and device kinds (tests/devices.sh); every file
# option and operand of every program, missing or a folder: exit 1.
for c in tests/cases.sh tests/replay.sh tests/outputs.sh tests/scale.sh \
    tests/tlmk.sh tests/recipes.sh tests/category.sh tests/devices.sh \
    tests/fileopts.sh; do
	sh "$c" "$BIN" "$SHARED" > "$tmp/cases" 2>&1
	tally "$tmp/cases"
done

# Every example command of README.md and man/tl.7 runs and succeeds.
python3 tests/examples.py "$BIN" > "$tmp/examples" 2>&1
tally "$tmp/examples"

# Trace text escaped for each output format (Markdown, JSON, CSV, TSV,
# SVG) of tl-findings, tl-compare and tl-replay.
python3 tests/escaping.py "$BIN" > "$tmp/esc" 2>&1
tally "$tmp/esc"

# Valid events in shapes Kineto does not write (escaped keys and
# category, a "cat" nested before the event's own, events over 16 MiB,
# one rejected in each shape): read as the same events written plainly.
python3 tests/shapes.py "$BIN" > "$tmp/shapes" 2>&1
tally "$tmp/shapes"

# Idle gaps and their host culprits on the hand-made traces of
# tests/gen/gen-idle.py (answers written by the generator).
python3 tests/idle.py "$BIN" > "$tmp/idle" 2>&1
tally "$tmp/idle"
# The same on real PyTorch host recordings with synthetic GPU work
# (tests/gen/gen-torchidle.py): the culprits, the known causes first,
# where the gaps are, and the 0- against the 2-worker DataLoader.
python3 tests/torchidle.py "$BIN" > "$tmp/torchidle" 2>&1
tally "$tmp/torchidle"

# tl-findings' in-place readers of the idle_gaps and kernels columns
# against the JSON tokeniser (the same columns with blanks added).
python3 tests/plainjson.py "$BIN" "$TRACES" > "$tmp/plainjson" 2>&1
tally "$tmp/plainjson"

# Graph launches: the capture fixtures, and the shared graph-mode traces
# with their capture traces (numbers recomputed from the trace JSON,
# the merged ops against TraceLens' inference report).
python3 tests/capture.py "$BIN" "$SHARED" > "$tmp/cap" 2>&1
tally "$tmp/cap"

# tl-findings on the shared traces, standalone and comparative, one roof
# kind per run and the charts (numbers recomputed from the stream).
if [ -d "$TRACES" ]; then
	for t in findings cmpreport cmppatterns charts; do
		python3 tests/$t.py "$BIN" "$TRACES" > "$tmp/fd" 2>&1
		tally "$tmp/fd"
	done
	# Iterations and phases, recomputed from the trace JSON.
	python3 tests/iterations.py "$BIN/tl-parse" \
	    "$TRACES/mi300-vllm-prefilldecode-piecewise.json.gz" \
	    "$TRACES/mi300-bert-small.json.gz" \
	    "$TRACES/mi300-resnet-act-checkpoint.json.gz" > "$tmp/fd" 2>&1
	tally "$tmp/fd"
elif [ "${CI:-}" = true ]; then
	bad "findings: $TRACES not found (required with CI=true)"
else
	skipped "findings: $TRACES not found"
fi

# The SVG charts: well-formed (xmllint) and drawn by headless Chromium.
set -- "$TL_SVG_OUT"/*.svg
if [ -f "$1" ]; then
	sh tests/svgcheck.sh "$@" > "$tmp/svgcheck" 2>&1
	tally "$tmp/svgcheck"
	# Their labels readable when rendered: in the charts that place
	# labels (rooflines, comparisons, busy strips), nothing clipped or
	# overlapping, every roof named with its value.
	for s in "$TL_SVG_OUT"/*roofline*.svg "$TL_SVG_OUT"/*comparison*.svg \
	    "$TL_SVG_OUT"/*timeline*.svg "$TL_SVG_OUT"/strip.svg; do
		[ -f "$s" ] && echo "$s"
	done | head -n 12 > "$tmp/labelsvg"
	python3 tests/chartlabels.py $(cat "$tmp/labelsvg") > "$tmp/labels" 2>&1
	tally "$tmp/labels"
else
	bad "svgcheck: no SVG in \$TL_SVG_OUT (tests/unit/test_svgchart writes some)"
fi

# Manual pages.
for m in man/*.[157]; do
	[ -f "$m" ] || continue
	if command -v mandoc > /dev/null 2>&1; then
		run "mandoc -Tlint $m" sh -c "out=\$(mandoc -Tlint -W warning '$m' 2>&1); [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
	else
		skipped "mandoc not installed: $m"
	fi
done

# Parity with TraceLens on the shared traces.  The serving traces' references
# are TraceLens' inference report (pseudo-ops, grouped by parent module, the
# graph-capture trace merged, as tl-parse merges the capture trace beside the
# trace): parity.py compares their timeline, ops_summary, unified and
# per-category kernel times (the per-category times on every trace with the
# sheet); parity_perf.py compares their FLOPs and bytes, sheets and unified
# rows (its docstring says how).
INFERENCE_REF="mi300-vllm-prefilldecode-piecewise mi300-xdit-flux-aiter-sage mi300-xdit-sd3.5"
export INFERENCE_REF
if [ -d "$REF" ] && [ -d "$TRACES" ]; then
	for d in "$REF"/*/; do
		n=$(basename "$d")
		f=$TRACES/$n.json.gz
		[ -f "$f" ] || f=$TRACES/$n.json
		[ -f "$f" ] || continue
		# by_category on every trace with the sheet (parity.py
		# answers 77 without it).
		for c in timeline ops_summary unified kernel_summary by_category; do
			python3 tests/parity.py "$BIN/tl-parse" "$f" "$d" "$c" > "$tmp/p" 2>&1
			case $? in
			0) ok ;;
			77) ;;
			*) bad "parity $n $c"; sed 's/^/    /' "$tmp/p" | tail -15 ;;
			esac
		done
	done
	# FLOPs and bytes of every perf-model row against TraceLens' sheets.
	if python3 tests/parity_perf.py "$BIN" "$TRACES" "$REF" > "$tmp/p" 2>&1; then
		ok
		grep '^all traces' "$tmp/p" | sed 's/^/    perf parity, rows compared: /'
	else
		bad "perf parity"
		grep -v '; 0 mismatches$' "$tmp/p" | sed 's/^/    /' | tail -30
	fi
	# tl-compare against TraceLens' compare reports, swapped roles, self.
	python3 tests/parity_compare.py "$BIN" "$TRACES" "$REF" > "$tmp/p" 2>&1
	case $? in
	0) ok; grep '^compare parity' "$tmp/p" | sed 's/^/    /' ;;
	77) skipped "compare parity: no compare reference" ;;
	*) bad "compare parity"; sed 's/^/    /' "$tmp/p" | tail -30 ;;
	esac
elif [ "${CI:-}" = true ]; then
	bad "parity: $SHARED not found (required with CI=true)"
else
	skipped "parity: $SHARED not found"
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
