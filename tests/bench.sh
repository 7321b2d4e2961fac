#!/bin/sh
# See LICENSE file for copyright and license details.
# make bench: wall time, throughput and peak memory of tl-parse (on one
# thread and on one per CPU) and of the whole pipeline on 0.5 GB and 2 GB
# traces built from the largest shared trace (tests/tools/multiply, cached
# in .bench/), next to cat, zcat and igzip -dc (Debian isal, when
# installed: the floor for reading a gzip file) of the same files, with
# each time's ratio to igzip's; then the stream filters on an op stream.
# Prints
# Markdown and writes it, with the machine it ran on, to
# docs/PERFORMANCE.md.  A benchmark, not a test: it never fails on the
# numbers.
#
# Environment: RUNS (runs per command, the median is kept; default 3),
# CMPRUNS (rounds of alternating runs for the rows whose CPU time a target
# compares with another's, the least is kept; default 9, or RUNS if more:
# this machine's runs fall into a fast and a slow mode some 20 % apart, and
# five rounds often miss one command's fast mode),
# SIZES (MB of JSON per trace; default "500 2000"), DOC (the file written;
# default docs/PERFORMANCE.md, "-" for none), TL_SHARED (default ../shared).
set -eu
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.."
SHARED=${TL_SHARED:-../shared}
RUNS=${RUNS:-3}
CMPRUNS=${CMPRUNS:-$((RUNS > 9 ? RUNS : 9))}
SIZES=${SIZES:-500 2000}
DOC=${DOC:-docs/PERFORMANCE.md}
MEASURE=tests/tools/measure
MUL=tests/tools/multiply
HW=mi300x
NCPU=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# tl-parse's default reading threads on gzip input: one fewer, as the
# input thread inflating it takes a CPU (tl-parse(1)).
GZJ=$((NCPU > 1 ? NCPU - 1 : 1))
IGZIP=$(command -v igzip || true)
REF=
for t in "$MEASURE" "$MUL" bin/tl-parse bin/tl-efficiency; do
	[ -x "$t" ] || { echo "bench: $t not built (make bench builds it)" >&2; exit 1; }
done
src=$(ls -S "$SHARED"/traces/*.json.gz 2>/dev/null | head -1)
if [ -z "$src" ]; then
	echo "bench: no traces in $SHARED/traces" >&2
	exit 1
fi
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
mkdir -p .bench
report=.bench/report.md
res=.bench/results
: > "$res"
srcbytes=$(gzip -dc "$src" | wc -c)
if [ -x bin/tl-findings ]; then
	pipe="bin/tl-parse %s | bin/tl-efficiency --hw $HW | bin/tl-findings"
	pipename="tl-parse \\| tl-efficiency \\| tl-findings (gzip)"
	pipeshort="the whole analysis (parse to findings)"
else
	pipe="bin/tl-parse %s | bin/tl-efficiency --hw $HW"
	pipename="tl-parse \\| tl-efficiency (gzip; no tl-findings yet)"
	pipeshort="the whole analysis (parse to tl-efficiency; no tl-findings yet)"
fi

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# rowfmt LABEL BYTES NUMBERS: one table row from measure's numbers (median
# and shortest wall time, peak RSS, median and least CPU time).  The last
# column is the median's ratio to $REF (igzip -dc's median), when there is
# one.
rowfmt() {
	echo "$3" | awk -v l="$1" -v b="$2" -v ref="$REF" '
	    function t(x) { return sprintf(x < 1 ? "%.3f" : "%.2f", x) }
	    {
		printf "| %s | %s | %s | %s | %s | %.1f | %.1f %% | %s |\n", l, t($1), t($2),
		    t($4), ($1 > 0 ? sprintf("%.0f", b / 1e6 / $1) : "-"), $3 / 1024,
		    $3 * 1024 / b * 100, (ref > 0 ? sprintf("%.1f", $1 / ref) : "-")
	}'
}

# row LABEL BYTES KEY CMD: one table row from RUNS runs of CMD; KEY names
# the numbers in $res for the summary.
row() {
	m=$($MEASURE "$RUNS" "$4")
	echo "$3 $m" >> "$res"
	rowfmt "$1" "$2" "$m"
}

# altm LABEL BYTES KEY CMD [LABEL BYTES KEY CMD ...]: CMPRUNS rounds of
# one run of each command in turn, for the targets that compare two
# commands' CPU time (issue 33): this machine's speed drifts over the
# minutes between two tables by more than such a target allows, and
# alternating runs share the drift.  Each KEY's numbers (as measure's,
# from its CMPRUNS runs: the median and shortest wall time, the largest
# peak RSS, the median and least CPU time; the targets read the least)
# go to $res, for rowres; LABEL and BYTES are rowres's.  Its variables
# are its own (a*): it runs inside loops over sizes.
altm() {
	at=.bench/alt.tmp
	: > "$at"
	ar=0
	while [ "$ar" -lt "$CMPRUNS" ]; do
		aj=1
		while [ "$aj" -le $# ]; do
			eval "ak=\${$((aj + 2))} ac=\${$((aj + 3))}"
			am=$($MEASURE 1 "$ac")
			echo "$ak $am" >> "$at"
			aj=$((aj + 4))
		done
		ar=$((ar + 1))
	done
	aj=1
	while [ "$aj" -le $# ]; do
		eval "ak=\${$((aj + 2))}"
		awk -v k="$ak" '
		    function srt(a, n, i, j, x) {
			for (i = 2; i <= n; i++) {
				x = a[i]
				for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]
				a[j + 1] = x
			}
		    }
		    function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		    $1 == k { n++; w[n] = $2; c[n] = $5; if ($4 > rss) rss = $4 }
		    END { srt(w, n); srt(c, n); printf "%s %.3f %.3f %d %.3f %.3f\n", k, med(w, n), w[1], rss, med(c, n), c[1] }' "$at" >> "$res"
		aj=$((aj + 4))
	done
	rm -f "$at"
}

# rowres LABEL BYTES KEY: a table row from KEY's numbers in $res.
rowres() {
	rowfmt "$1" "$2" "$(awk -v k="$3" '$1 == k { $1 = ""; print; exit }' "$res")"
}

# mrow LABEL BYTES KEY CMD: rowres when altm measured KEY already, else
# row.
mrow() {
	if awk -v k="$3" '$1 == k { f = 1 } END { exit !f }' "$res"; then
		rowres "$1" "$2" "$3"
	else
		row "$@"
	fi
}

# alt LABEL BYTES KEY CMD [LABEL BYTES KEY CMD ...]: altm, then a row
# for each command.
alt() {
	altm "$@"
	while [ $# -ge 4 ]; do
		rowres "$1" "$2" "$3"
		shift 4
	done
}

# ir CMD ARG...: the instructions CMD executes (callgrind), its output
# thrown away.
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
	    awk '/Collected :/ { print $NF }'
}

# irdown OPS: the instructions of tl-efficiency on op stream OPS and of
# tl-findings on its output, together.
irdown() {
	bin/tl-efficiency --hw $HW "$1" > "$1.e"
	e=$(ir bin/tl-efficiency --hw $HW "$1")
	f=$(ir bin/tl-findings "$1.e")
	rm -f "$1.e"
	echo $((${e:-0} + ${f:-0}))
}

# parse_rows TITLE BYTES KEY JSON GZ: a table's heading and its rows for
# igzip -dc, cat, zcat and tl-parse of the plain and the gzipped trace, on
# one thread and by default (one per CPU; one fewer for gzip, and then
# also on one per CPU, to show what the default leaves out).
parse_rows() {
	echo
	echo "### $1"
	echo
	echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / JSON | × igzip -dc |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	REF=
	if [ -n "$IGZIP" ]; then
		mrow "igzip -dc t.json.gz" "$2" "$3.igzip" "$IGZIP -dc $5"
		REF=$(awk -v k="$3.igzip" '$1 == k { print $2 }' "$res")
	fi
	row "cat t.json" "$2" "$3.cat" "cat $4"
	row "zcat t.json.gz" "$2" "$3.zcat" "zcat $5"
	row "tl-parse -j 1 t.json" "$2" "$3.plain1" "bin/tl-parse -j 1 $4"
	row "tl-parse t.json (-j $NCPU)" "$2" "$3.plain" "bin/tl-parse $4"
	row "tl-parse -j 1 t.json.gz" "$2" "$3.gz1" "bin/tl-parse -j 1 $5"
	mrow "tl-parse t.json.gz (-j $GZJ)" "$2" "$3.gz" "bin/tl-parse $5"
	if [ "$GZJ" -ne "$NCPU" ]; then
		row "tl-parse -j $NCPU t.json.gz" "$2" "$3.gzn" "bin/tl-parse -j $NCPU $5"
	fi
	# Memory must not grow with threads (issue 33): 8 even on fewer CPUs.
	row "tl-parse -j 8 t.json.gz" "$2" "$3.gz8" "bin/tl-parse -j 8 $5"
}

{
	echo "Input: \`$(basename "$src")\` ($(mb "$srcbytes") MB of JSON), copied K times by"
	echo "\`tests/tools/multiply\` (time-shifted, linking ids offset)."
	echo "Wall time: the median and the shortest of $RUNS runs; MB/s: MB of uncompressed"
	echo "JSON per second of the median; peak RSS: the largest single process of the command."
	# The largest shared trace itself, as it is.
	orig=.bench/$(basename "$src" .json.gz).json
	# Files are (re)built under a temporary name and renamed, never
	# written in place: .bench/ may hold links to a shared cache.
	[ -f "$orig" ] && [ ! "$orig" -ot "$src" ] ||
	    { gzip -dc "$src" > "$orig.tmp" && mv "$orig.tmp" "$orig"; }
	cat "$orig" "$src" > /dev/null
	parse_rows "The trace itself: $(mb "$srcbytes") MB of JSON, $(mb "$(wc -c < "$src")") MB gzipped" \
	    "$srcbytes" orig "$orig" "$src"
	row "$pipename" "$srcbytes" orig.pipe "$(printf "$pipe" "$src")"
	echo "orig.bytes $srcbytes 0 0" >> "$res"
	for size in $SIZES; do
		k=$(awk -v s="$size" -v b="$srcbytes" 'BEGIN { k = int(s * 1e6 / b); if (k * b < s * 1e6) k++; print k }')
		big=.bench/$(basename "$src" .json.gz)-x$k.json
		if [ ! -f "$big" ] || [ ! -f "$big.gz" ] || [ "$big" -ot "$MUL.c" ]; then
			echo "bench: building $big and $big.gz ($k copies) ..." >&2
			"$MUL" "$k" "$src" "$big.tmp" &
			"$MUL" "$k" "$src" "$big.gz.tmp.gz"
			wait
			mv "$big.tmp" "$big"
			mv "$big.gz.tmp.gz" "$big.gz"
		fi
		bytes=$(wc -c < "$big")
		# Bring both files into the page cache before timing.
		cat "$big" "$big.gz" > /dev/null
		# Item 5's ratios (issue 33): igzip -dc, tl-parse and the
		# whole analysis in alternating rounds (altm), as the
		# downstream rows below; their rows print these runs.
		[ -z "$IGZIP" ] || altm "igzip -dc t.json.gz" "$bytes" "$size.igzip" "$IGZIP -dc $big.gz" \
		    "tl-parse t.json.gz (-j $GZJ)" "$bytes" "$size.gz" "bin/tl-parse $big.gz" \
		    "$pipename" "$bytes" "$size.pipe" "$(printf "$pipe" "$big.gz")"
		parse_rows "$(mb "$bytes") MB of JSON (K = $k), $(mb "$(wc -c < "$big.gz")") MB gzipped (zlib level 6)" \
		    "$bytes" "$size" "$big" "$big.gz"
		row "zcat t.json.gz \\| tl-parse" "$bytes" "$size.zcatpipe" "zcat $big.gz | bin/tl-parse"
		row "tl-parse --timeline t.json.gz" "$bytes" "$size.timeline" "bin/tl-parse -t $big.gz"
		mrow "$pipename" "$bytes" "$size.pipe" \
		    "$(printf "$pipe" "$big.gz")"
		# The same without module context (tl-parse --no-context): the
		# default pipeline before module context was read by default.
		row "the same with tl-parse --no-context" "$bytes" "$size.pipenc" \
		    "$(printf "$pipe" "--no-context $big.gz")"
		echo "$size.bytes $bytes 0 0" >> "$res"
		# Its op stream, for the downstream table below.
		if [ -x bin/tl-findings ]; then
			ops=.bench/ops-$size.tsv
			[ -f "$ops" ] && [ ! "$ops" -ot "$big.gz" ] &&
			    [ ! "$ops" -ot bin/tl-parse ] ||
			    { bin/tl-parse "$big.gz" > "$ops.tmp" && mv "$ops.tmp" "$ops"; }
			echo "$size.opsbytes $(wc -c < "$ops") 0 0" >> "$res"
		fi
	done

	# Downstream (issue 33, item 6: linear): the stages after tl-parse
	# on each size's op stream, in CPU ms per MB of it, to compare the
	# sizes; their runs alternate (alt above).
	if [ -x bin/tl-findings ]; then
		set --
		for size in $SIZES; do
			ops=.bench/ops-$size.tsv
			set -- "$@" "$(awk -v s="$size" 'BEGIN { printf "%g GB", s / 1000 }'): tl-efficiency \| tl-findings on its op stream ($(mb "$(wc -c < "$ops")") MB)" \
			    "$(wc -c < "$ops")" "$size.down" \
			    "bin/tl-efficiency --hw $HW $ops | bin/tl-findings"
		done
		echo
		echo "### Downstream: tl-efficiency \| tl-findings on each trace's op stream (runs alternating)"
		echo
		echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / TSV | |"
		echo "|---|---:|---:|---:|---:|---:|---:|---|"
		REF=
		alt "$@"
	fi

	# Instructions per byte of JSON (issue 33): tl-parse -j 1 on the
	# trace itself under callgrind, when valgrind is installed; and
	# without the python_function frames (--no-context) and without the
	# rows (--timeline), to show where they go.
	if command -v valgrind > /dev/null 2>&1; then
		for v in "default:" "nc:--no-context" "t:--timeline"; do
			n=$(ir bin/tl-parse -q -j 1 ${v#*:} "$orig")
			echo "ir.${v%%:*} ${n:-0} 0 0" >> "$res"
		done
	fi

	# Item 6 in instructions, which load does not move (callgrind, when
	# valgrind is installed): tl-efficiency, then tl-findings on its
	# output, on the op streams of 1, 2 and 4 copies of the trace (the
	# sizes' 4:1, in a sixth of their instructions).  What one more copy
	# costs from 2 to 4 against from 1 to 2: a cost that grows faster
	# than the stream shows there, and the fixed costs (a trace's
	# analyses, start-up: 10 % of one copy's) drop out.
	if [ -x bin/tl-findings ] && command -v valgrind > /dev/null 2>&1; then
		for x in 1 2 4; do
			t=.bench/$(basename "$src" .json.gz)-x$x.json.gz
			if [ ! -f "$t" ] || [ "$t" -ot "$src" ] || [ "$t" -ot "$MUL.c" ]; then
				echo "bench: building $t ($x copies) ..." >&2
				"$MUL" "$x" "$src" "$t.tmp.gz" && mv "$t.tmp.gz" "$t"
			fi
			ops=.bench/irops.tsv
			bin/tl-parse -q "$t" > "$ops"
			echo "irdown.x$x $(irdown "$ops") $(wc -c < "$ops") 0" >> "$res"
			rm -f "$ops"
		done
	fi

	first=$(echo "$SIZES" | awk '{ print $1 }')
	k=$(awk -v s="$first" -v b="$srcbytes" 'BEGIN { k = int(s * 1e6 / b); if (k * b < s * 1e6) k++; print k }')
	big=.bench/$(basename "$src" .json.gz)-x$k.json

	# Idle culprits (issue 29): the whole default analysis with and
	# without them (tl-parse --no-culprits), CPU time and peak RSS, on
	# the first size's trace and on a gap-heavy trace of about the same
	# size: the DataLoader-bound fixture of tests/gen/gen-idle.py
	# multiplied.  Target: at most 10 % more CPU, peak RSS within 10 %
	# of the JSON.
	gsrc=tests/data/idle/idle-dataloader.json
	gk=$(awk -v s="$first" -v b="$(wc -c < "$gsrc")" 'BEGIN { k = int(s * 1e6 / b); if (k * b < s * 1e6) k++; print k }')
	gap=.bench/idle-dataloader-x$gk.json.gz
	if [ ! -f "$gap" ] || [ "$gap" -ot "$gsrc" ] || [ "$gap" -ot "$MUL.c" ]; then
		echo "bench: building $gap ($gk copies) ..." >&2
		"$MUL" "$gk" "$gsrc" "$gap.tmp.gz" && mv "$gap.tmp.gz" "$gap"
	fi
	echo
	echo "### Idle culprits: the whole default analysis with and without them"
	echo
	echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / JSON | × igzip -dc |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	REF=
	set --
	for w in bench gap; do
		if [ $w = bench ]; then f=$big.gz; bytes=$(wc -c < "$big"); else
			f=$gap; bytes=$(gzip -dc "$gap" | wc -c); fi
		set -- "$@" "$w trace, $(mb "$bytes") MB: the pipeline" "$bytes" "cul.$w" "$(printf "$pipe" "$f")" \
		    "$w trace: the same with tl-parse --no-culprits" "$bytes" "cul.$w.no" "$(printf "$pipe" "--no-culprits $f")"
	done
	alt "$@"
	# The same in instructions (callgrind, when valgrind is installed):
	# the pipeline's stages one after the other (tl-parse -j 1) on the
	# trace itself.  Not on the gap trace: its instructions per byte
	# with and without the culprits move with its size (a copy of the
	# fixture is 7 KB), and at 0.5 GB they are too many to count.
	if command -v valgrind > /dev/null 2>&1; then
		for c in "cul:" "no:--no-culprits"; do
			o=.bench/ircul.tsv
			bin/tl-parse -q -j 1 ${c#*:} "$orig" > "$o"
			if [ $c = cul: ]; then	# counted above
				p=$(awk '$1 == "ir.default" { print $2 }' "$res")
			else
				p=$(ir bin/tl-parse -q -j 1 ${c#*:} "$orig")
			fi
			d=0
			[ -x bin/tl-findings ] && d=$(irdown "$o")
			echo "ircul.bench.${c%%:*} $((${p:-0} + d)) $(wc -c < "$orig") 0" >> "$res"
			rm -f "$o"
		done
	fi
	echo
	for w in bench gap; do
		if [ $w = bench ]; then bytes=$(wc -c < "$big"); else
			bytes=$(gzip -dc "$gap" | wc -c); fi
		awk -v a="cul.$w" -v b="cul.$w.no" -v w="$w" -v bytes="$bytes" -v n="$CMPRUNS" '
		    $1 == a { cpu = $6; rss = $4 } $1 == b { cpu0 = $6; rss0 = $4 }
		    $1 == "ircul." w ".cul" { ir = $2; irb = $3 } $1 == "ircul." w ".no" { ir0 = $2 }
		    END {
			if (ir0 > 0)
				irs = sprintf(", %+.1f %% instructions (callgrind, %.1f MB of JSON)", (ir / ir0 - 1) * 100, irb / 1e6)
			if (cpu0 > 0) printf "- %s trace: the culprits cost %+.1f %% CPU (least of %d alternating runs)%s (target: at most +10 %%); peak RSS %.1f %% of the JSON (%.1f %% without them; target: within 10 %%)\n", w, (cpu / cpu0 - 1) * 100, n, irs, rss * 1024 / bytes * 100, rss0 * 1024 / bytes * 100 }' "$res"
	done

	# Threads: the first size's gzip trace on 2, 4 ... threads below the
	# CPUs (1 and all of them are in its table above); the last column is
	# each time over one thread's there.  None on two CPUs.
	if [ "$NCPU" -gt 2 ]; then
		bytes=$(wc -c < "$big")
		echo
		echo "### Threads: tl-parse t.json.gz, $(mb "$bytes") MB of JSON, on $NCPU CPUs"
		echo
		echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / JSON | × -j 1 |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|"
		REF=$(awk -v k="$first.gz1" '$1 == k { print $2 }' "$res")
		j=2
		while [ "$j" -lt "$NCPU" ]; do
			row "tl-parse -j $j t.json.gz" "$bytes" "thr.$j" "bin/tl-parse -j $j $big.gz"
			j=$((j * 2))
		done
	fi

	# The filters, on the op stream of the first trace repeated to a
	# size that times well (header once).
	ops=${big%.json}.ops.tsv
	if [ ! -f "$ops" ] || [ "$ops" -ot "$big" ] || [ "$ops" -ot bin/tl-parse ]; then
		bin/tl-parse "$big" > "$ops.tmp"
		{ head -1 "$ops.tmp"; for i in 1 2 3 4; do tail -n +2 "$ops.tmp"; done; } > "$ops.tmp4"
		rm -f "$ops.tmp"
		mv "$ops.tmp4" "$ops"
	fi
	bin/tl-perfmodel "$ops" > .bench/opsm.tsv
	bytes=$(wc -c < "$ops")
	echo
	echo "### Filters: $(mb "$bytes") MB of TSV ($(($(wc -l < "$ops") - 1)) rows, the op stream above ×4)"
	echo
	echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / TSV | × igzip -dc |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	REF=
	row "cat" "$bytes" f.cat "cat $ops"
	row "tl-categorize gemm" "$bytes" f.cg "bin/tl-categorize gemm $ops"
	row "tl-categorize -v gemm" "$bytes" f.cv "bin/tl-categorize -v gemm $ops"
	row "tl-perfmodel" "$bytes" f.pm "bin/tl-perfmodel $ops"
	row "tl-efficiency" "$bytes" f.e "bin/tl-efficiency --hw $HW $ops"
	row "tl-efficiency --no-baseline" "$bytes" f.eb "bin/tl-efficiency --hw $HW --no-baseline $ops"
	row "tl-efficiency --group" "$bytes" f.eg "bin/tl-efficiency --hw $HW --group $ops"
	bytes=$(wc -c < .bench/opsm.tsv)
	row "tl-efficiency (perf columns in)" "$bytes" f.ep "bin/tl-efficiency --hw $HW .bench/opsm.tsv"
	row "tl-efficiency -b (perf columns in)" "$bytes" f.epb "bin/tl-efficiency --hw $HW -b .bench/opsm.tsv"
	if [ -x bin/tl-findings ]; then
		bin/tl-efficiency --hw $HW "$ops" > .bench/opse.tsv
		bytes=$(wc -c < .bench/opse.tsv)
		row "tl-findings (tl-efficiency's output)" "$bytes" f.fi "bin/tl-findings .bench/opse.tsv"
	fi

	# Serving traces as they are: the whole default analysis of each
	# shared vLLM and xDiT trace, its graph-capture trace merged where one
	# lies beside it (tl-parse finds it), so MB/s counts both JSONs.
	echo
	echo "### Serving traces: the whole analysis (tl-parse finds the capture trace beside a trace)"
	echo
	echo "| trace | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / JSON | × igzip -dc |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	REF=
	for t in "$SHARED"/traces/*vllm*.json.gz "$SHARED"/traces/*xdit*.json.gz; do
		case $t in *.capture.json.gz) continue ;; esac
		[ -f "$t" ] || continue
		cap=${t%.json.gz}.capture.json.gz
		bytes=$(gzip -dc "$t" | wc -c)
		[ -f "$cap" ] && bytes=$((bytes + $(gzip -dc "$cap" | wc -c)))
		name=$(basename "$t" .json.gz)
		[ -f "$cap" ] && name="$name (+ capture)"
		row "$name" "$bytes" "s.$(basename "$t" .json.gz)" \
		    "bin/tl-parse $t 2>/dev/null | bin/tl-efficiency --hw auto | bin/tl-findings"
	done

	# Hostile input: 1 MB of brackets nested 500 000 deep, in a trace
	# event's args and in a stream's input_dims cell.  Every JSON reader
	# stops tokenising past 64 levels, so the time is that of reading the
	# bytes once (it grew with the square of the depth before).  tl-parse
	# drops the event's args (with a warning, exit 0); the others leave
	# the row out, as they do on any too deep value.
	nest=.bench/nest-1mb
	if [ ! -f "$nest.json" ] || [ ! -f "$nest.tsv" ]; then
		awk 'function nest(f, d, i) {
			for (i = 0; i < d; i++) printf "[" > f
			for (i = 0; i < d; i++) printf "]" > f
		}
		BEGIN {
			j = ARGV[1] ".json"; t = ARGV[1] ".tsv"
			printf "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":10,\"args\":{\"Input Dims\":" > j
			nest(j, 500000)
			printf "}},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":2,\"dur\":1,\"args\":{\"correlation\":1}}]}\n" > j
			printf "name\tcategory\tkernel_time_us\tinput_dims\tinput_types\naten::mm\tgemm\t5\t" > t
			nest(t, 500000)
			printf "\t[\"float\",\"float\"]\naten::add\telementwise\t2\t[[2,3],[2,3]]\t[\"float\",\"float\"]\n" > t
		}' "$nest"
	fi
	bytes=$(wc -c < "$nest.tsv")
	echo
	echo "### Hostile input: 1 MB of nesting (500 000 levels)"
	echo
	echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / input | |"
	echo "|---|---:|---:|---:|---:|---:|---:|---|"
	row "tl-parse (args nested; dropped)" "$(wc -c < "$nest.json")" n.parse \
	    "bin/tl-parse $nest.json 2>/dev/null"
	row "tl-perfmodel (input_dims nested)" "$bytes" n.pm \
	    "bin/tl-perfmodel $nest.tsv 2>/dev/null"
	row "tl-replay (input_dims nested; row left out)" "$bytes" n.replay \
	    "bin/tl-replay $nest.tsv 2>/dev/null"

	# Hostile input: 100 000 distinct kernel names (issue 34), in 100 000
	# rows of one op and in the kernels column of one row, from a row of
	# the sample's op stream.  Kernels are found by name through hash
	# maps: linear time (tl-compare took 42 s here before).
	kn=.bench/kern100k
	if [ ! -f "$kn-rows.tsv" ] || [ ! -f "$kn-row.tsv" ]; then
		bin/tl-parse share/tl/samples/mi300x-transformer-step.json.gz 2>/dev/null |
		    awk -F'\t' -v OFS='\t' -v n=100000 -v rows="$kn-rows.tsv" -v one="$kn-row.tsv" '
		    function kern(k) {
			return sprintf("{\"uid\":%d,\"name\":\"kernel_%d\",\"pid\":\"0\",\"stream\":7,\"ts\":%d,\"dur\":5,\"launch_ts\":%d}", 2000000 + k, k, 10 * k, 10 * k)
		    }
		    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print > rows; print > one; next }
		    r == "" && $c["kernel_count"] == 1 { r = $0 }
		    END {
			$0 = r
			for (k = 0; k < n; k++) {
				$c["uid"] = 1000000 + k; $c["kernels"] = "[" kern(k) "]"; $c["kernel_time_us"] = 5
				print > rows
			}
			for (i = 1; i <= NF; i++) {
				if (i == c["kernels"]) {
					printf "[" > one
					for (k = 0; k < n; k++) printf "%s%s", (k ? "," : ""), kern(k) > one
					printf "]" > one
				} else
					printf "%s", (i == c["kernel_count"] ? n : i == c["kernel_time_us"] ? 5 * n : $i) > one
				printf "%s", (i < NF ? "\t" : "\n") > one
			}
		    }'
		bin/tl-efficiency --hw $HW "$kn-rows.tsv" > "$kn-rows-e.tsv"
		bin/tl-efficiency --hw $HW "$kn-row.tsv" > "$kn-row-e.tsv"
	fi
	echo
	echo "### Hostile input: 100 000 distinct kernel names"
	echo
	echo "| command | wall s | best s | CPU s | MB/s | peak RSS MB | RSS / input | |"
	echo "|---|---:|---:|---:|---:|---:|---:|---|"
	row "tl-compare (100 000 rows, a kernel each)" "$(wc -c < "$kn-rows.tsv")" k.cmp \
	    "bin/tl-compare --ref $kn-rows.tsv --target $kn-rows.tsv --ref-hw $HW --target-hw $HW"
	row "tl-compare (one row of 100 000 kernels)" "$(wc -c < "$kn-row.tsv")" k.cmp1 \
	    "bin/tl-compare --ref $kn-row.tsv --target $kn-row.tsv --ref-hw $HW --target-hw $HW"
	row "tl-findings (100 000 rows, a kernel each)" "$(wc -c < "$kn-rows-e.tsv")" k.find \
	    "bin/tl-findings $kn-rows-e.tsv"
	row "tl-findings (one row of 100 000 kernels)" "$(wc -c < "$kn-row-e.tsv")" k.find1 \
	    "bin/tl-findings $kn-row-e.tsv"

	# The targets of issues 7, 20 and 22, read from the numbers above.
	echo
	echo "### Targets"
	echo
	echo "| target | median (best) | met (median) |"
	echo "|---|---|---|"
	awk '{ v[$1, 2] = $2; v[$1, 3] = $3; v[$1, 5] = $5 }
	    END {
		b = v["orig.bytes", 2]; p = v["orig.plain", 2]
		printf "| the trace itself: tl-parse >= 150 MB/s of plain JSON | %.0f (%.0f) MB/s | %s |\n",
		    b / 1e6 / p, b / 1e6 / v["orig.plain", 3], (b / 1e6 / p >= 150 ? "yes" : "no")
		g = v["orig.gz", 2]; z = v["orig.zcat", 2]
		printf "| the trace itself: tl-parse t.json.gz no slower than zcat | %.3f s vs %.3f s (%.3f vs %.3f) | %s |\n",
		    g, z, v["orig.gz", 3], v["orig.zcat", 3], (g <= z ? "yes" : "no")
		n = v["n.parse", 2]; m = v["n.pm", 2]; r = v["n.replay", 2]
		printf "| 1 MB of nesting: tl-parse, tl-perfmodel and tl-replay each < 1 s | %.3f, %.3f, %.3f s | %s |\n",
		    n, m, r, (n < 1 && m < 1 && r < 1 ? "yes" : "no")
		a = v["k.cmp", 5]; b2 = v["k.cmp1", 5]; c2 = v["k.find", 5]; d = v["k.find1", 5]
		printf "| 100 000 kernel names: tl-compare and tl-findings each < 2 s of CPU | %.2f, %.2f, %.2f, %.2f s | %s |\n",
		    a, b2, c2, d, (a < 2 && b2 < 2 && c2 < 2 && d < 2 ? "yes" : "no")
	    }' "$res"
	awk '{ v[$1] = $2; v[$1, 3] = $3 }
	    END {
		b = v["orig.bytes"]
		if (v["ir.default"] > 0)
			printf "| the trace itself: tl-parse -j 1 <= 10 instructions per byte of JSON (callgrind; --no-context, --timeline) | %.1f (%.1f, %.1f) | %s |\n",
			    v["ir.default"] / b, v["ir.nc"] / b, v["ir.t"] / b,
			    (v["ir.default"] / b <= 10 ? "yes" : "no")
		if (v["irdown.x1"] > 0 && v["irdown.x2"] > 0 && v["irdown.x4"] > 0) {
			a = (v["irdown.x2"] - v["irdown.x1"]) / (v["irdown.x2", 3] - v["irdown.x1", 3])
			d = (v["irdown.x4"] - v["irdown.x2"]) / (v["irdown.x4", 3] - v["irdown.x2", 3])
			printf "| tl-efficiency + tl-findings instructions per byte of op stream added, from 2 to 4 copies of the trace within 10 %% of from 1 to 2 (callgrind; per byte at 1, 2, 4 copies) | %.2f vs %.2f (%+.1f %%; %.2f, %.2f, %.2f) | %s |\n",
			    d, a, (d / a - 1) * 100, v["irdown.x1"] / v["irdown.x1", 3],
			    v["irdown.x2"] / v["irdown.x2", 3], v["irdown.x4"] / v["irdown.x4", 3],
			    (d <= 1.1 * a && d >= 0.9 * a ? "yes" : "no")
		}
	    }' "$res"
	for size in $SIZES; do
		awk -v size="$size" -v first="$first" -v pn="$pipeshort" -v ncpu="$NCPU" -v gzj="$GZJ" '
		    { v[$1, 2] = $2; v[$1, 3] = $3; v[$1, 4] = $4; v[$1, 5] = $5; v[$1, 6] = $6 }
		    END {
			n = sprintf("%g GB", size / 1000)
			b = v[size ".bytes", 2]
			p = v[size ".plain", 2]; pb = v[size ".plain", 3]
			printf "| %s: tl-parse >= 150 MB/s of plain JSON | %.0f (%.0f) MB/s | %s |\n",
			    n, b / 1e6 / p, b / 1e6 / pb, (b / 1e6 / p >= 150 ? "yes" : "no")
			g = v[size ".gz", 2]; z = v[size ".zcat", 2]
			printf "| %s: tl-parse t.json.gz no slower than zcat | %.2f s vs %.2f s (%.2f vs %.2f) | %s |\n",
			    n, g, z, v[size ".gz", 3], v[size ".zcat", 3], (g <= z ? "yes" : "no")
			r1 = v[size ".plain", 4]; r2 = v[size ".gz", 4]
			r = (r1 > r2 ? r1 : r2) * 1024 / b * 100
			printf "| %s: tl-parse peak RSS < 10 %% of the JSON | %.1f %% | %s |\n",
			    n, r, (r < 10 ? "yes" : "no")
			r8 = v[size ".gz8", 4]; r1 = v[size ".gz1", 4]
			if (r1 > 0)
				printf "| %s: tl-parse -j 8 peak RSS <= 1.1 × -j 1, < 10 %% of the JSON | %.2f×, %.1f %% | %s |\n",
				    n, r8 / r1, r8 * 1024 / b * 100,
				    (r8 <= 1.1 * r1 && r8 * 1024 / b * 100 < 10 ? "yes" : "no")
			pp = v[size ".pipe", 2]
			if (size <= 500)
				printf "| %s: %s, gzip input, < 5 s | %.2f s (%.2f s) | %s |\n",
				    n, pn, pp, v[size ".pipe", 3], (pp < 5 ? "yes" : "no")
			if (size == 500) {
				pn0 = v[size ".pipenc", 2]
				printf "| %s: module context by default: %s <= 1.5 × its time with tl-parse --no-context | %.2f s vs %.2f s = %.2f× (CPU %.2f s vs %.2f s) | %s |\n",
				    n, pn, pp, pn0, (pn0 > 0 ? pp / pn0 : 0), v[size ".pipe", 5],
				    v[size ".pipenc", 5], (pp <= 1.5 * pn0 ? "yes" : "no")
				printf "| %s: tl-parse t.json.gz <= 0.55 s | %.2f s (%.2f s) | %s |\n",
				    n, g, v[size ".gz", 3], (g <= 0.55 ? "yes" : "no")
				printf "| %s: %s, gzip input, <= 0.65 s | %.2f s (%.2f s) | %s |\n",
				    n, pn, pp, v[size ".pipe", 3], (pp <= 0.65 ? "yes" : "no")
			}
			# CPU seconds, the least of the runs (issue 33).
			ig = v[size ".igzip", 6]
			if (ig > 0) {
				igm = v[size ".igzip", 5]
				printf "| %s: tl-parse t.json.gz <= 3.5 × the CPU of igzip -dc (least of alternating runs; medians in parentheses) | %.2f s vs %.3f s = %.1f× (%.2f s vs %.3f s = %.1f×) | %s |\n",
				    n, v[size ".gz", 6], ig, v[size ".gz", 6] / ig,
				    v[size ".gz", 5], igm, (igm > 0 ? v[size ".gz", 5] / igm : 0),
				    (v[size ".gz", 6] <= 3.5 * ig ? "yes" : "no")
				printf "| %s: %s <= 5.0 × the CPU of igzip -dc | %.2f s = %.1f× (%.2f s = %.1f×) | %s |\n",
				    n, pn, v[size ".pipe", 6], v[size ".pipe", 6] / ig,
				    v[size ".pipe", 5], (igm > 0 ? v[size ".pipe", 5] / igm : 0),
				    (v[size ".pipe", 6] <= 5 * ig ? "yes" : "no")
			}
			if (v[size ".opsbytes", 2] > 0) {
				d = v[size ".down", 6] * 1000 / (v[size ".opsbytes", 2] / 1e6)
				d0 = v[first ".down", 6] * 1000 / (v[first ".opsbytes", 2] / 1e6)
				printf "| %s: tl-efficiency + tl-findings CPU per MB of op stream%s (least of alternating runs) | %.2f ms/MB%s | %s |\n",
				    n, (size == first ? "" : sprintf(" within 10 %% of the %g GB trace", first / 1000)), d,
				    (size == first ? "" : sprintf(" (%+.1f %%)", (d / d0 - 1) * 100)),
				    (size == first ? "-" : (d <= 1.1 * d0 && d >= 0.9 * d0 ? "yes" : "no"))
			}
			g1 = v[size ".gz1", 2]; p1 = v[size ".plain1", 2]
			gn = v[size ".gzn", 2] > 0 ? v[size ".gzn", 2] : g
			printf "| %s: speed-up of %d threads over 1 (plain, gzip) | %.2f, %.2f | - |\n",
			    n, ncpu, (p > 0 ? p1 / p : 0), (gn > 0 ? g1 / gn : 0)
			if (v[size ".gzn", 2] > 0)
				printf "| %s: gzip, the default -j %d against -j %d: wall time, CPU time (least) | %.2f s vs %.2f s, %.2f s vs %.2f s | - |\n",
				    n, gzj, ncpu, g, gn, v[size ".gz", 6], v[size ".gzn", 6]
			if (size == first)
				for (j = 2; j < ncpu; j++)
					if (v["thr." j, 2] > 0)
						printf "| %s: speed-up of %d threads over 1 (gzip) | %.2f | - |\n",
						    n, j, g1 / v["thr." j, 2]
		    }' "$res"
	done
} > "$report"
cat "$report"

[ "$DOC" = - ] && exit 0
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
memgb=$(awk '/^MemTotal/ { printf "%.0f", $2 / 1024 / 1024 }' /proc/meminfo 2>/dev/null || echo "?")
os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME" || uname -s)
{
	cat <<'EOF'
# Performance

What `make bench` measured (`tests/bench.sh` writes this file; rerun it to
refresh the numbers). The first table is the largest trace in
`../shared/traces` as it is; the larger traces are built from it by
`tests/tools/multiply`: K copies of its events, each
shifted in time by the trace's span plus 1 ms, with correlation ids, flow
ids, External ids, sequence numbers and Python ids offset so that every copy
links exactly as the original does (`tests/scale.sh`, part of `make check`,
checks that tl-parse's timeline, kernel time and rows are exactly K times
the original's on K = 3 copies). They are cached in `.bench/`.

Each command runs `RUNS` times (`tests/tools/measure`: the median and the
shortest wall time, the median CPU time (user + system, all processes of
the command: it grows much less than the wall time when other work shares
the machine), and the peak resident set size of the largest process of
the command, as `wait4` reports it; for a pipeline the stages are not
added up). Files are read from the page cache; output goes to `/dev/null`.
The rows whose CPU time a target compares with another's (at each size
`igzip -dc`, `tl-parse t.json.gz` and the pipeline, for the ratios to
igzip's; the downstream stages at the two sizes; the pipeline with and
without the idle culprits) run in turns instead, `CMPRUNS` rounds (9, or
`RUNS` if more) of one run of each, and those targets read the least CPU
time: this machine's speed drifts over the minutes between two tables by
more than the 10 % they allow, and its runs fall into a fast and a slow
mode about 20 % apart, for every function alike (perf), so the ratios to
igzip's are also given of the medians. When valgrind is installed, the same targets are also given in
instructions (callgrind), which load does not move: the downstream stages
on the op streams of 1, 2 and 4 copies of the trace (what a copy adds from
2 to 4 against from 1 to 2, so that the fixed costs drop out), and the
pipeline's stages with and without the culprits on the trace itself.
The pipeline row is the whole standalone analysis, from the gzipped trace
to the last stage that exists (`tl-findings` when it is built).

`tl-parse -j 1` reads and writes on one thread (inflating on a second
one); plain `tl-parse` reads the events and formats the op stream's rows
on one thread per CPU (`-j N`, the default: the main thread and N - 1
others), with the same output, but reads gzip input on one thread fewer,
as inflating it keeps the input thread busy on a CPU of its own (on 2
CPUs a second reading thread beside the inflating one costs CPU time and
gains no wall time: the `-j N t.json.gz` row). The last column is each median's
ratio to `igzip -dc`'s (ISA-L's inflate to a pipe, the floor for reading
the gzip file), when `igzip` (Debian `isal`) is installed.

Reproduce with `make bench` (or `RUNS=5 SIZES="500 2000" sh tests/bench.sh`
after `make all tests/tools/measure tests/tools/multiply`). A load average
well above zero at the start means other work shared the machine: compare
the shortest times then, and expect `tl-parse t.json.gz`, inflating on
one thread while reading on another, to suffer more from a busy core
than the one-threaded `zcat`.

Where tl-parse's memory goes: one 56-byte record (`struct tl_event`) per
kept event (cpu_op, runtime, kernel, memcpy, memset, annotation), about
one per 0.96 KB of JSON in this trace (592 920 records in the 568 MB
trace: 31.7 MiB), so about 5.8 % of the JSON. The
python_function half of the trace gives the module context: a 24-byte
record per frame kept (`struct tl_pyframe`), and only the nn.Module
frames, those a cpu_op starts in and those of at least 10 µs (which may
own part of an idle gap) are kept, pruned while reading in
batches of 16 384 frames against a sorted index of the cpu_ops read (4
bytes each): on this trace 189 090 frames, about 0.8 % of the
JSON with the index and the batch (`--no-context` skips the frames,
`--stack` keeps them all). The record shares space
between the kinds of events: a cpu_op's sequence number with a GPU
event's stream (both packed into 32 bits; the rare value outside that
range goes to a side table), its arguments (the four strings interned as
one tuple) and forward op with a launch's linking key, its first child
with the GPU event's grid and block (one id of the interned pair); "has
GPU work below" is a flag bit, not a count; it names its thread by an
index into a table of (pid, tid) pairs. Beside the records there is one
large transient at a time: the flow index while reading (8 bytes a slot:
the low half of the id and the flow's bits, the high halves only once an
id needs them; about 0.7 %; folded into a flag of the GPU events and
freed before linking), the sorted (link, event) pairs while linking (16
bytes per GPU event), the timeline's intervals, or the op stream's rows
(48 bytes each, and 4 bytes per GPU event in them). The idle culprits
(`trace/culprit.h`) hold 16 bytes per listed gap and 24 per piece (event
and frame ids, not pointers; a gap's length, launch call and step are
found again when its row is written) until the rows are written; while
they are found, the host events and frames that overlap some gap (8
bytes each) and the union of the gaps (16 bytes a gap): on the 568 MB
trace the culprits add about 1.4 MiB at the peak (`--no-culprits`: 48.1
MiB, default 49.4 MiB). Interned strings do not grow
with K; input and output buffers take about 3 MB (reading on one
thread, four blocks of 512 KiB), and reading on N > 1
threads adds N + 3 blocks of 256 KiB (at most 2 MiB in all: 128 KiB
blocks at 8 threads), each with the records read from it,
and each thread's own string table; writing the rows on N threads, N + 2
chunks of 128 rows in flight (about 0.2 MB each on this trace), each
formatted into the buffer of a chunk already written. tl-parse sets
glibc's mmap threshold to a fixed 128 KiB (`tl_malloc_tune`): left to
itself glibc raises it as large blocks are freed, and the large arrays of
the later phases then come from the heaps of the threads' arenas, whose
freed pages stay resident (peak RSS of tl-parse on the 568 MB trace,
gzipped, at commit 10a0bbb: 59.4 MiB by default on 2 CPUs, 59.2 MiB at
`-j 1`, 67.2 MiB at `-j 8`; with the records above, the culprits' layout,
the reused chunks and the threshold: 49.4 MiB (9.1 % of the JSON) by
default, 49.5 MiB at `-j 1`, 52.4 MiB at `-j 8`, 1.06×).

What memory costs on the machine below: the first touch of a page costs
6 to 16 µs in this virtual machine, whether the page is faulted in or
made resident ahead with `MADV_POPULATE_WRITE` (which only halves it), and
so does the next touch of a page that `mremap` moved; huge pages do not
help (measured on 38 MB). So the peak RSS below is also about 0.1 s of
CPU time. The arrays that grow large (events, frames, rows, intervals)
are made resident at most 256 KiB at a time just ahead of their writes,
and past 64 KiB they grow in address space set aside for them (256 MiB,
`MAP_NORESERVE`, counted only once written) instead of being moved by
`realloc` at each doubling; a hash table's arrays are made resident
whole when it grows.

Where tl-parse's time goes (CPU samples of `tl-parse t.json.gz` at
0.5 GB, two threads, `perf record`, self time by function): about 35 %
reading the events, in one pass over each event's bytes that finds its
end, checks the JSON and picks out the members tl needs (on the main
thread and the workers, straight from the input thread's buffers: the
text is not copied; the strict lexer, lib/common/jlex, says where each
string, number and nested value ends and what is wrong with a malformed
event; an 'X' event or a launch flow laid out as Kineto writes it is
read as one fixed sequence of members, and so are the args of Python
frames, CPU ops, runtime calls and kernels, each value still checked by
the lexer's rules, and an args array or object that repeats, byte for
byte, one already checked is known again without lexing it; any other
layout by the same reader, member by member), an eighth of it interning names;
17 % inflating (ISA-L, on the input thread); 8 % formatting the op
stream's rows (on all threads, in chunks written in order); on the main
thread alone, 6 % merging the records in file order (string ids,
threads, flows, linking keys, pruning the python_function frames) and
11 % building the call tree, linking, the idle culprits and the per-op
rollup; and 10 % in the kernel (first touches of pages, reads of the
file, threads waking each other). The read is bound by the CPU, and
the main thread's merging is what more cores do not shorten.

tl-efficiency writes each row with its trace's elementwise baseline,
which is known only once the trace's last row is read: so the rows go
to a temporary file as they are made and are read back at the end with
the baseline appended. Holding the rows in memory instead would make
its memory grow with the stream. The file's page-cache copies cost
kernel time in proportion to its bytes, so it holds less than the rows
(lib/analysis/rowspool): a run of columns that recur (a trace's figures,
found equal from row to row on the first rows; call stacks, modules,
shapes) and each kernel's name, seen recently, are kept as the number
of a slot in a cache of recent texts (4096 slots of at most 2 KiB, the
same in the reader, which rebuilds it as it reads), and each row's note
(its trace, whether it is memory-bound, its TB/s) goes with it: 66 MB
for the 0.5 GB trace's 135 MB of rows.

tl-findings keeps 32 bytes per GPU event of its input (and as much again
while it sorts them) for the idle-gap analysis and the median kernel
time, which need every GPU event in start order; everything else it
holds is per op signature. It reads each row's kernels and idle_gaps
columns once for all its analyses, in one pass where the text is as
tl-parse writes it (any other text is tokenised: compact JSON in one
plain pass into jsmn's tokens, the rest by jsmn, which says what is
wrong). Its other JSON columns (the collectives, the model's
parameters) are tokenised the same way. A row's fields are taken when
first asked for, a number whose text is its column's last one read (a
trace's or a step's figures, on every row) is not read again, and the
last row's trace, iteration, thread, module and parent are tried
before they are hashed.

EOF
	echo "## Machine"
	echo
	echo "- CPU: $cpu, $(nproc) cores"
	echo "- Memory: $memgb GiB"
	echo "- OS: $os, Linux $(uname -r)"
	echo "- Compiler: $(${CC:-cc} --version 2>/dev/null | head -1)"
	echo "- tl-parse inflates with: $(ldd bin/tl-parse 2>/dev/null | grep -q libisal && echo "ISA-L ($(dpkg-query -W -f '${Version}' libisal2 2>/dev/null || echo '?'))" || echo zlib)"
	echo "- Date: $(date -u +%Y-%m-%d); load average at the start: $load"
	echo
	echo "## Results"
	echo
	cat "$report"
} > "$DOC"
echo "bench: wrote $DOC" >&2
