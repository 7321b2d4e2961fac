#!/bin/sh
# See LICENSE file for copyright and license details.
#
# The categories have one definition, share/tl/categories.tsv: a category
# is one row there.  tests/category/ holds tl-parse, tl-categorize and
# tl-findings linked with that table plus the row of tests/category/row.tsv
# (make check builds them); this script checks that the new row reaches
# the op table, the selection and its groups, the -o files, the titles,
# the thresholds and the chart colours, and that man/tl-format.5 lists the
# table's values in its order.  Prints "ok"/"FAIL" lines for tests/run.sh.
# usage: category.sh BINDIR
BIN=$1
NEW=tests/category
SAMPLE=share/tl/samples/mi300x-transformer-step.json.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

# The table's values, in order; and the entries of the man page's list.
values() {
	awk -F'\t' '/^#/ || NF == 0 { next } !h { for (i = 1; i <= NF; i++)
	    if ($i == "value") c = i; h = 1; next } { print $c }' "$@"
}
values share/tl/categories.tsv > $tmp/table
sed -n '/^\.Ss Categories and direction/,/^\.El/s/^\.It Cm //p' \
    man/tl-format.5 > $tmp/man
check "tl-format(5) lists the values of share/tl/categories.tsv, in order" \
    "[ -s $tmp/man ] && diff $tmp/table $tmp/man"
check "tests/category/row.tsv adds a value the table lacks" \
    "! grep -qx new_cat $tmp/table &&
     awk -F'\t' '!/^#/ { print \$1 }' $NEW/row.tsv | grep -qx new_cat"

# The op table maps aten::mm to the new category (the stock programs
# refuse it); the stream then carries it through tl-efficiency.
{ head -1 share/tl/ops.tsv; printf 'aten::mm\tnew_cat\tfwd\tgemm\t\t\n'
  tail -n +2 share/tl/ops.tsv; } > $tmp/ops.tsv
check "the stock tl-parse does not know the category" \
    "$BIN/tl-parse --ops $tmp/ops.tsv $SAMPLE 2> $tmp/e > /dev/null;
     [ \$? = 1 ] && grep -q \"ops.tsv:2: unknown category 'new_cat'\" $tmp/e"
$NEW/tl-parse --ops $tmp/ops.tsv $SAMPLE > $tmp/s.tsv 2> $tmp/err
$BIN/tl-efficiency --hw mi300x < $tmp/s.tsv > $tmp/eff.tsv 2>> $tmp/err
# cnt CAT FILE: the rows of category CAT.
cnt() {
	awk -F'\t' -v cat="$1" 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == "category") c = i; next } $c == cat { n++ }
	    END { print n + 0 }' "$2"
}
mm=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name")
    c = i; next } $c == "aten::mm" { n++ } END { print n + 0 }' $tmp/s.tsv)
n=$(cnt new_cat $tmp/s.tsv)
check "tl-parse puts the aten::mm rows ($mm) in the new category ($n)" \
    "[ $mm -gt 0 ] && [ $n = $mm ]"

# tl-categorize: the value, its groups, the groups in the message.
check "tl-categorize keeps the new category's rows, by value" \
    "[ \$($NEW/tl-categorize new_cat < $tmp/s.tsv | tail -n +2 | wc -l) = $mm ]"
check "tl-categorize takes a group only the new row has" \
    "$NEW/tl-categorize extra < $tmp/s.tsv > $tmp/x &&
     $NEW/tl-categorize new_cat < $tmp/s.tsv | cmp - $tmp/x"
check "tl-categorize norm takes the new member with the five norms" \
    "n=\$($BIN/tl-categorize norm < $tmp/s.tsv | tail -n +2 | wc -l);
     [ \$($NEW/tl-categorize norm < $tmp/s.tsv | tail -n +2 | wc -l) = \$((n + $mm)) ]"
check "tl-categorize names the new group in its message" \
    "$NEW/tl-categorize bogus < $tmp/s.tsv 2> $tmp/e; [ \$? = 2 ] &&
     grep -q 'a group (extra, norm, sdpa) nor a file' $tmp/e"
check "the stock tl-categorize does not know the category" \
    "$BIN/tl-categorize new_cat < $tmp/s.tsv > /dev/null 2>&1; [ \$? = 2 ]"

# tl-findings -o: the file stem, the title, the threshold, the colour.
$NEW/tl-findings -o $tmp/o < $tmp/eff.tsv > /dev/null 2>> $tmp/err
check "tl-findings -o writes the files of the new category's file name" \
    "for f in category_findings/new_file_findings.md category_data/new_file_ops.csv \
	category_data/new_file_metrics.json metadata/new_file_metadata.json; do
	[ -s $tmp/o/\$f ] || { echo no \$f; exit 1; }; done"
check "the category report has the new title" \
    "head -1 $tmp/o/category_findings/new_file_findings.md | grep -qx '# New category Analysis Summary'"
check "the metadata carry the new bottleneck threshold" \
    "grep -q '\"bottleneck_time_ms\":25[,}]' $tmp/o/metadata/new_file_metadata.json"
check "the charts draw the new category in its colour" \
    "grep -q 'data-label=\"new_cat\"[^>]*fill=\"#123456\"' $tmp/o/charts/breakdown.svg &&
     grep -q 'fill=\"#123456\" data-category=\"new_cat\"' $tmp/o/charts/roofline.svg"
check "tl-findings -C takes the new file name" \
    "$NEW/tl-findings --report category -C new_file < $tmp/eff.tsv | head -1 |
     grep -qx '# New category Analysis Summary'"
check "no error on the way" "[ ! -s $tmp/err ] || { cat $tmp/err; exit 1; }"
