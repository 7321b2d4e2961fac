#!/bin/sh
# Output files complete or absent (common/outfile): tl-findings -o and
# --charts, tl-replay -o and -z killed at every point of a write, on a
# full disk, over a planted symbolic link, over a directory of another
# run.  Prints "ok NAME" or "FAIL NAME" per case (tests/run.sh counts
# them).  The kills are deterministic: TL_TEST_FAULT=N:SIG raises SIG at
# the Nth point (each file of a set written, each rename of the commit,
# each single file written): the hook is in the test builds only
# (tests/fault/, make check), which the cases run.
# usage: outputs.sh BINDIR SHAREDDIR
BIN=$1
F=tests/fault/tl-findings
R=tests/fault/tl-replay
SAMPLE=share/tl/samples/mi300x-transformer-step.json.gz
tmp=$(mktemp -d)
export tmp
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/check.sh"

# Two streams whose findings differ in their categories: the sample, and
# the sample without its elementwise, softmax and memcpy rows.
$BIN/tl-parse $SAMPLE | $BIN/tl-efficiency --hw mi300x > "$tmp/a.tsv"
$BIN/tl-categorize -v elementwise softmax memcpy "$tmp/a.tsv" > "$tmp/b.tsv"

# Functions for the cases (each runs in its own sh -c): written to
# $tmp/fn and read here too.
cat > "$tmp/fn" <<'EOF'
# snap DIR: the checksums of the files in DIR, less the program's own
# manifest and staging directory (hidden, and the next run's business).
snap() {
	(cd "$1" && find . -name '.tl-*.tmp' -prune -o -type f \
	    ! -name '.tl-*.manifest*' -print | LC_ALL=C sort | xargs md5sum)
}
# killed PROG OPT SET_FROM SET_TO SIG POINT...: run PROG OPT DIR
# SET_TO's input over a copy of SET_FROM's directory, killed at each
# POINT; the directory must hold one of the two sets and nothing beside,
# and after a SIGTERM no staging directory either.
killed() {
	prog=$1 opt=$2 from=$3 to=$4 sig=$5 fail=
	shift 5
	for n in "$@"; do
		rm -rf "$tmp/d"
		cp -a "$tmp/$from" "$tmp/d"
		TL_TEST_FAULT=$n:$sig $prog $opt "$tmp/d" "$tmp/${to#?}.tsv" \
		    > /dev/null 2>&1
		snap "$tmp/d" > "$tmp/d.sum"
		cmp -s "$tmp/d.sum" "$tmp/$from.sum" ||
		    cmp -s "$tmp/d.sum" "$tmp/$to.sum" || fail="$fail $n"
		[ "$sig" != 15 ] || ! ls -A "$tmp/d" | grep -q '\.tmp$' ||
		    fail="$fail $n(staging)"
	done
	[ -z "$fail" ] || { echo "not one complete set after the points:$fail"; return 1; }
}
EOF
. "$tmp/fn"

$F -o "$tmp/fa" "$tmp/a.tsv" && snap "$tmp/fa" > "$tmp/fa.sum"
$F -o "$tmp/fb" "$tmp/b.tsv" && snap "$tmp/fb" > "$tmp/fb.sum"
$R -o "$tmp/ra" "$tmp/a.tsv" && snap "$tmp/ra" > "$tmp/ra.sum"
$R -o "$tmp/rb" "$tmp/b.tsv" 2>/dev/null && snap "$tmp/rb" > "$tmp/rb.sum"
nf=$(grep -vc '^#' "$tmp/fa/.tl-findings.manifest")
nb=$(grep -vc '^#' "$tmp/fb/.tl-findings.manifest")

check "findings -o: the two sets differ in their category files" \
    "[ $nf -gt 30 ] && ! cmp -s $tmp/fa.sum $tmp/fb.sum && \
     [ \$(grep -c category_data $tmp/fa.sum) -gt \$(grep -c category_data $tmp/fb.sum) ]"

# SIGKILL while the files are written; SIGTERM then and during the
# commit, where it waits until the commit ends.  (The commit's renames
# are the one window a SIGKILL can cut: the next case shows that the
# next run mends it.)
check "findings -o: SIGKILL at each of the $nb points while writing leaves one complete set" \
    ". $tmp/fn; killed $F -o fa fb 9 \$(seq 1 $nb)"
check "findings -o: SIGTERM while writing and at each of the $((nf + 1)) points of the commit leaves one complete set" \
    ". $tmp/fn; killed $F -o fb fa 15 1 7 \$(seq $nf $((2 * nf + 1)))"
check "findings -o: the run after a SIGKILL in the commit leaves its set and nothing stale" \
    "rm -rf $tmp/d && cp -a $tmp/fa $tmp/d && \
     TL_TEST_FAULT=$((nf + nf / 2)):9 $F -o $tmp/d $tmp/b.tsv; \
     $F -o $tmp/d $tmp/b.tsv && { . $tmp/fn; snap $tmp/d; } | cmp - $tmp/fb.sum && \
     ! [ -e $tmp/d/.tl-findings.tmp ]"
check "replay -o: SIGTERM and SIGKILL at each point leave one complete set" \
    ". $tmp/fn; killed $R -o rb ra 15 1 2 3 4 5 6 7 && killed $R -o rb ra 9 1 2 3"

check "findings -o: a rerun over another trace's folder leaves no stale file, and keeps the user's" \
    "rm -rf $tmp/d && cp -a $tmp/fa $tmp/d && echo mine > $tmp/d/notes.md && \
     echo mine > $tmp/d/category_data/mine.csv && $F -o $tmp/d $tmp/b.tsv && \
     rm $tmp/d/notes.md $tmp/d/category_data/mine.csv && { . $tmp/fn; snap $tmp/d; } | cmp - $tmp/fb.sum"
check "findings -o: a comparison over a standalone folder replaces it" \
    "rm -rf $tmp/d && cp -a $tmp/fa $tmp/d && \
     $BIN/tl-compare --ref $tmp/a.tsv --target $tmp/b.tsv --ref-hw mi300x --target-hw mi300x > $tmp/c.tsv && \
     $F -o $tmp/d $tmp/c.tsv && [ \"\$(ls $tmp/d $tmp/d/charts)\" = \"\$(printf '$tmp/d:\ncharts\ncomparative_analysis_fair.md\ncomparative_analysis_rough.md\ncomparative_ops.csv\n\n$tmp/d/charts:\ncomparison.svg')\" ]"
check "findings -o: a planted link to a file is replaced, its target untouched" \
    "rm -rf $tmp/d && cp -a $tmp/fa $tmp/d && echo precious > $tmp/target && \
     rm $tmp/d/standalone_analysis_fair.md && ln -s $tmp/target $tmp/d/standalone_analysis_fair.md && \
     $F -o $tmp/d $tmp/b.tsv && [ \"\$(cat $tmp/target)\" = precious ] && \
     [ -f $tmp/d/standalone_analysis_fair.md ] && ! [ -L $tmp/d/standalone_analysis_fair.md ]"
check "findings -o: a planted link to a directory is an error, the old set stays" \
    "rm -rf $tmp/d $tmp/elsewhere && cp -a $tmp/fa $tmp/d && mkdir $tmp/elsewhere && \
     mv $tmp/d/charts $tmp/charts.away && ln -s $tmp/elsewhere $tmp/d/charts && \
     $F -o $tmp/d $tmp/b.tsv 2> $tmp/e; [ \$? = 1 ] && \
     grep -q '^tl-findings: $tmp/d/charts: a symbolic link where a directory goes (not followed)\$' $tmp/e && \
     [ -z \"\$(ls -A $tmp/elsewhere)\" ] && rm $tmp/d/charts && mv $tmp/charts.away $tmp/d/charts && \
     { . $tmp/fn; snap $tmp/d; } | cmp - $tmp/fa.sum"
# A full disk: a file size limit, with SIGXFSZ ignored so that the write
# fails (EFBIG) as it does on a full file system (ENOSPC).
check "findings -o on a full disk: exit 1, the old set stays, no staging left" \
    "rm -rf $tmp/d && cp -a $tmp/fb $tmp/d && \
     sh -c \"ulimit -f 16; trap '' XFSZ; exec $F -o $tmp/d $tmp/a.tsv\" 2> $tmp/e; [ \$? = 1 ] && \
     grep -q 'write error: File too large' $tmp/e && { . $tmp/fn; snap $tmp/d; } | cmp - $tmp/fb.sum && \
     [ \"\$(ls -A $tmp/d | grep -c tl-findings.tmp)\" = 0 ]"
check "findings -o into a new folder on a full disk: no folder left" \
    "rm -rf $tmp/d; sh -c \"ulimit -f 16; trap '' XFSZ; exec $F -o $tmp/d $tmp/a.tsv\" 2> /dev/null; \
     [ \$? = 1 ] && ! [ -e $tmp/d ]"
check "findings --charts on a full disk: exit 1, the old charts stay" \
    "rm -rf $tmp/d && $F --charts $tmp/d $tmp/a.tsv > /dev/null && { . $tmp/fn; snap $tmp/d; } > $tmp/ch.sum && \
     sh -c \"ulimit -f 2; trap '' XFSZ; exec $F --charts $tmp/d $tmp/b.tsv\" > /dev/null 2>&1; \
     [ \$? = 1 ] && { . $tmp/fn; snap $tmp/d; } | cmp - $tmp/ch.sum"
check "replay -o on a full disk: exit 1, the old package stays" \
    "rm -rf $tmp/d && cp -a $tmp/rb $tmp/d && \
     sh -c \"ulimit -f 40; trap '' XFSZ; exec $R -o $tmp/d $tmp/a.tsv\" 2> $tmp/e; [ \$? = 1 ] && \
     grep -q 'write error: File too large\$' $tmp/e && { . $tmp/fn; snap $tmp/d; } | cmp - $tmp/rb.sum"
check "replay -z: an existing archive survives a full disk and a kill" \
    "$R -z $tmp/p.zip $tmp/b.tsv 2>/dev/null && cp $tmp/p.zip $tmp/p.keep && \
     sh -c \"ulimit -f 4; trap '' XFSZ; exec $R -z $tmp/p.zip $tmp/a.tsv\" 2> /dev/null; [ \$? = 1 ] && \
     cmp $tmp/p.zip $tmp/p.keep && { TL_TEST_FAULT=1:15 $R -z $tmp/p.zip $tmp/a.tsv; [ \$? = 143 ]; } && \
     cmp $tmp/p.zip $tmp/p.keep && [ -z \"\$(ls -A $tmp | grep '^\\.p\\.zip\\.tl-')\" ]"
check "replay -z: a link at FILE is replaced, its target untouched" \
    "echo precious > $tmp/target && rm -f $tmp/l.zip && ln -s $tmp/target $tmp/l.zip && \
     $R -z $tmp/l.zip $tmp/a.tsv && [ \"\$(cat $tmp/target)\" = precious ] && ! [ -L $tmp/l.zip ]"
check "replay -z /dev/null and -o over a file: written through, and an error" \
    "$R -z /dev/null $tmp/a.tsv && : > $tmp/plain && { $R -o $tmp/plain $tmp/a.tsv 2> $tmp/e; [ \$? = 1 ]; } && \
     grep -q 'plain' $tmp/e"
check "two writers of one folder: the second is refused" \
    "rm -rf $tmp/d && mkdir $tmp/d && exec 9< $tmp/d && flock -n 9 && \
     { $F -o $tmp/d $tmp/a.tsv 2> $tmp/e; [ \$? = 1 ]; } && \
     grep -q 'another tl-findings is writing into it' $tmp/e"

# Honest errors (issue 34): the first write error, not "Input/output
# error"; the fault hook only in the test builds.
check "replay -z on /dev/full and past a size limit: the error says why" \
    "{ $R -z /dev/full $tmp/a.tsv 2> $tmp/e; [ \$? = 1 ]; } && grep -q '^tl-replay: /dev/full: write error: No space left on device\$' $tmp/e &&
     rm -rf $tmp/d && { sh -c \"ulimit -f 10; trap '' XFSZ; exec $R -o $tmp/d $tmp/a.tsv\" 2> $tmp/e; [ \$? = 1 ]; } &&
     grep -q '^tl-replay: $tmp/d/replay_ir.json: write error: File too large\$' $tmp/e"
check "TL_TEST_FAULT: in the test builds only, not in bin/" \
    "grep -q TL_TEST_FAULT $F && grep -q TL_TEST_FAULT $R &&
     ! grep -q TL_TEST_FAULT $BIN/tl-findings && ! grep -q TL_TEST_FAULT $BIN/tl-replay &&
     rm -rf $tmp/d && TL_TEST_FAULT=1:15 $BIN/tl-replay -o $tmp/d $tmp/a.tsv && [ -f $tmp/d/replay_ir.json ]"

# Only tl's own files are removed (issue 34).  A planted manifest, in
# the old form (names only) or with made-up records, names the user's
# files: none is removed.  A file of the previous set that the user has
# changed since is the user's: kept.  A hard link planted at the
# manifest's temporary name: its target untouched.
check "findings -o: a planted manifest deletes nothing of the user's" \
    "rm -rf $tmp/d && mkdir -p $tmp/d/src && echo thesis > $tmp/d/thesis.tex && echo 'int main;' > $tmp/d/src/main.c &&
     printf 'thesis.tex\nsrc/main.c\ntl1 0000000000000000 7 1 1.000000000\tthesis.tex\ntl1 cbf29ce484222325 10 2 2.0\tsrc/main.c\n' > $tmp/d/.tl-findings.manifest &&
     $F -o $tmp/d $tmp/b.tsv && [ \"\$(cat $tmp/d/thesis.tex $tmp/d/src/main.c)\" = \"\$(printf 'thesis\nint main;')\" ] &&
     $F -o $tmp/d $tmp/a.tsv && [ \"\$(cat $tmp/d/thesis.tex $tmp/d/src/main.c)\" = \"\$(printf 'thesis\nint main;')\" ]"
check "findings -o: a file of the last set the user changed since stays" \
    "rm -rf $tmp/d && cp -a $tmp/fa $tmp/d && f=\$(cd $tmp/fa && ls category_data | grep -v -x -F \"\$(cd $tmp/fb && ls category_data)\" | head -1) &&
     [ -n \"\$f\" ] && rm $tmp/d/category_data/\$f && { cat $tmp/fa/category_data/\$f; echo mine; } > $tmp/d/category_data/\$f &&
     $F -o $tmp/d $tmp/b.tsv && tail -1 $tmp/d/category_data/\$f | grep -qx mine"
check "findings -o: a hard link at the manifest's temporary name: its target untouched" \
    "rm -rf $tmp/d && cp -a $tmp/fa $tmp/d && echo precious > $tmp/target && ln $tmp/target $tmp/d/.tl-findings.manifest.new &&
     $F -o $tmp/d $tmp/b.tsv && [ \"\$(cat $tmp/target)\" = precious ] && ! [ -e $tmp/d/.tl-findings.manifest.new ]"
# The temporary file of -z: removed on a signal tl can catch (SIGXFSZ of
# ulimit -f included), removed by the next run after one it cannot
# (SIGKILL); one of a live process, and a link at such a name, stay.
check "replay -z: temporary files removed on SIGXFSZ, and by the next run after SIGKILL; links there untouched" \
    "rm -rf $tmp/z && mkdir $tmp/z && echo precious > $tmp/target &&
     { sh -c \"ulimit -f 4; exec $R -z $tmp/z/p.zip $tmp/a.tsv\" 2> /dev/null; [ \$? != 0 ]; } && [ -z \"\$(ls -A $tmp/z)\" ] &&
     { TL_TEST_FAULT=1:9 $R -z $tmp/z/p.zip $tmp/a.tsv; [ \$? = 137 ]; } && ls -A $tmp/z | grep -q '^\\.p\\.zip\\.tl-[0-9]*-0\$' &&
     ln $tmp/target $tmp/z/.p.zip.tl-99999999-0 && ln -s $tmp/target $tmp/z/.p.zip.tl-99999998-0 && : > $tmp/z/.p.zip.tl-\$\$-0 &&
     $R -z $tmp/z/p.zip $tmp/a.tsv && [ \"\$(ls -A $tmp/z | tr '\n' ' ')\" = \".p.zip.tl-\$\$-0 .p.zip.tl-99999998-0 .p.zip.tl-99999999-0 p.zip \" ] &&
     [ \"\$(cat $tmp/target)\" = precious ]"
