#!/bin/sh
# Every file named by an option or operand of every program: missing, or
# not readable as a file (a directory), it is an error, exit 1, one line
# on stderr that names it.  Prints "ok NAME" / "FAIL NAME" per case.
# usage: fileopts.sh BINDIR
BIN=$1
SAMPLE=share/tl/samples/mi300x-transformer-step.json.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

S=$tmp/s.tsv
"$BIN/tl-parse" "$SAMPLE" > "$S" 2>/dev/null
"$BIN/tl-efficiency" --hw mi300x "$S" > "$tmp/e.tsv" 2>/dev/null
"$BIN/tl-compare" --ref "$tmp/e.tsv" --target "$tmp/e.tsv" > "$tmp/c.tsv" \
    2>/dev/null
mkdir "$tmp/dir"
M=/nonexistent/missing.tsv

# file_err NAME CMD (with @ for the file): exit 1 and one line naming it,
# for a missing file and for a directory.
file_err() {
	what=$1
	shift
	for f in "$M" "$tmp/dir"; do
		cmd=$(printf '%s\n' "$*" | sed "s|@|$f|g")
		check "$what ($f): exit 1, one line naming it" \
		    "$cmd > /dev/null 2> $tmp/err; rc=\$?; [ \$rc = 1 ] || { echo \"exit \$rc\"; cat $tmp/err; exit 1; }; [ \$(wc -l < $tmp/err) = 1 ] && grep -qF '$f' $tmp/err || { cat $tmp/err; exit 1; }"
	done
}

P=$BIN/tl-parse
file_err "tl-parse FILE" "$P @"
file_err "tl-parse --ops" "$P --ops @ $SAMPLE"
file_err "tl-parse --kernel-table" "$P --kernel-table @ $SAMPLE"
file_err "tl-parse --capture" "$P --capture @ $SAMPLE"
C=$BIN/tl-categorize
file_err "tl-categorize FILE" "$C gemm @"
file_err "tl-categorize --rules" "$C --rules @ $S"
file_err "tl-categorize --ops (with --list)" "$C --list --ops @"
E=$BIN/tl-efficiency
file_err "tl-efficiency FILE" "$E --hw mi300x @"
file_err "tl-efficiency --hw-file" "$E --hw mi300x --hw-file @ $S"
file_err "tl-efficiency --hw-map" "$E --hw auto --hw-map @ $S"
file_err "tl-efficiency --ops" "$E --hw mi300x --ops @ $S"
file_err "tl-efficiency --models" "$E --hw mi300x --models @ $S"
K=$BIN/tl-compare
file_err "tl-compare --ref" "$K --ref @ --target $S"
file_err "tl-compare --target" "$K --ref $S --target @"
file_err "tl-compare --timeline --ref" "$K --timeline --ref @ --target $S"
file_err "tl-compare --hw-file" "$K --ref $S --target $S --hw-file @"
file_err "tl-compare --ops" "$K --ref $S --target $S --ops @"
file_err "tl-compare --models" "$K --ref $S --target $S --models @"
F=$BIN/tl-findings
file_err "tl-findings FILE" "$F @"
file_err "tl-findings --ref" "$F --ref @ --target $tmp/e.tsv $tmp/c.tsv"
file_err "tl-findings --target" "$F --ref $tmp/e.tsv --target @ $tmp/c.tsv"
file_err "tl-findings --culprits" "$F --culprits @ $tmp/e.tsv"
file_err "tl-findings --causes" "$F --causes @ $tmp/e.tsv"
file_err "tl-findings --failed" "$F --failed @ $tmp/e.tsv"
check "tl-findings -o in a missing folder: exit 1, one line naming it" \
    "$F -o /nonexistent/out $tmp/e.tsv > /dev/null 2> $tmp/err; [ \$? = 1 ] && [ \$(wc -l < $tmp/err) = 1 ] && grep -q /nonexistent/out $tmp/err"
check "tl-findings --charts in a missing folder: exit 1, one line naming it" \
    "$F --charts /nonexistent/ch $tmp/e.tsv > /dev/null 2> $tmp/err; [ \$? = 1 ] && [ \$(wc -l < $tmp/err) = 1 ] && grep -q /nonexistent/ch $tmp/err"
check "tl-findings --summary in a missing folder: exit 1, one line naming it" \
    "$F --summary /nonexistent/s.tsv $tmp/e.tsv > /dev/null 2> $tmp/err; [ \$? = 1 ] && [ \$(wc -l < $tmp/err) = 1 ] && grep -q /nonexistent/s.tsv $tmp/err"
Q=$BIN/tl-perfmodel
file_err "tl-perfmodel FILE" "$Q @"
file_err "tl-perfmodel --ops" "$Q --ops @ $S"
file_err "tl-perfmodel --models" "$Q --models @ $S"
R=$BIN/tl-replay
file_err "tl-replay FILE" "$R -o $tmp/r1 @"
file_err "tl-replay --hw-file" "$R -o $tmp/r2 --bottlenecks --hw mi300x --hw-file @ $S"
file_err "tl-replay --hw-map" "$R -o $tmp/r3 --bottlenecks --hw auto --hw-map @ $S"
file_err "tl-replay --ops" "$R -o $tmp/r4 --ops @ $S"
file_err "tl-replay --models" "$R -o $tmp/r5 --models @ $S"
check "tl-replay -o in a missing folder: exit 1, one line naming it" \
    "$R -o /nonexistent/out $tmp/e.tsv > /dev/null 2> $tmp/err; [ \$? = 1 ] && [ \$(wc -l < $tmp/err) = 1 ] && grep -q /nonexistent/out $tmp/err"
check "tl-replay -z in a missing folder: exit 1, one line naming it" \
    "$R -z /nonexistent/r.zip $tmp/e.tsv > /dev/null 2> $tmp/err; [ \$? = 1 ] && [ \$(wc -l < $tmp/err) = 1 ] && grep -q /nonexistent/r.zip $tmp/err"

# Every option of every program that names a file or folder (FILE, DIR or
# PATH in its --help) has its checks above, by its short or long name.
check "every file option of every --help is checked here" \
    "for p in tl-parse tl-categorize tl-perfmodel tl-efficiency tl-compare tl-findings tl-replay; do \
       $BIN/\$p --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\) \(FILE\|DIR\|PATH\).*/\2 \1/p' | \
       while read l s; do s=\${s%,}; \
         grep -qF \"\$p \$l\" '$0' || { [ -n \"\$s\" ] && grep -qF \"\$p \$s \" '$0'; } || { echo \"\$p \$l: not checked\"; exit 1; }; \
       done || exit 1; done"
