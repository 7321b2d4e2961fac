#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-rank.sh: analyse traces where they are and move only their summary.
#
#	tl-rank.sh [-n NAME] [-w DIR] DEST TRACE...
#
# Runs tl.mk (beside this script) on the TRACEs in a private directory
# under DIR (default $TMPDIR or /tmp): tl-parse | tl-efficiency, then each
# rank's summary (tl-findings --summary, tl-format(5)); merges their
# summaries into one, DEST/NAME.summary.tsv (NAME: the first trace's
# name without .json.gz or .json), and copies the failure note of each
# trace that failed (DEST/TRACENAME.failed).  The summaries name each
# trace traces/TRACENAME.json.gz (or .json).  Nothing else reaches DEST:
# the streams stay in DIR and are removed.  Exits 1 when a trace failed
# (its note is in DEST), 2 on a usage error.  The environment passes on
# to tl.mk: HW, HWMAP, PARSEFLAGS, EFFFLAGS, FINDFLAGS, TLBIN.
# Run by GNU parallel, one trace per job, or by tl-slurm.sh, a chunk of
# traces per array task (tl(7)); then "make -f tl.mk OUT=DEST ranks".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
name= work=${TMPDIR:-/tmp}
usage() {
	echo "usage: tl-rank.sh [-n NAME] [-w DIR] DEST TRACE..." >&2
	exit 2
}
while getopts n:w: c; do
	case $c in
	n) name=$OPTARG ;;
	w) work=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
dest=$1
shift
[ -d "$dest" ] || { echo "tl-rank.sh: $dest: not a directory" >&2; exit 2; }
base() { b=${1##*/}; b=${b%.gz}; echo "${b%.json}"; }
[ -n "$name" ] || name=$(base "$1")
tmp=$(mktemp -d "$work/tl-rank.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/traces"
targets=
for t; do
	[ -e "$t" ] || { echo "tl-rank.sh: $t: no such trace" >&2; exit 2; }
	case $t in
	*.json.gz) ext=.json.gz ;;
	*.json) ext=.json ;;
	*) echo "tl-rank.sh: $t: not a .json.gz or .json trace" >&2; exit 2 ;;
	esac
	ln -s "$(cd "$(dirname "$t")" && pwd)/${t##*/}" "$tmp/traces/$(base "$t")$ext"
	targets="$targets out/$(base "$t").summary.tsv"
done
status=0
# In the private directory, so that the summaries name each trace
# traces/NAME.json.gz, whichever host and directory it came from.
make -s -k -C "$tmp" -f "$here/tl.mk" TRACES=traces OUT=out \
    ${HW:+HW="$HW"} ${HWMAP:+HWMAP="$HWMAP"} ${PARSEFLAGS:+PARSEFLAGS="$PARSEFLAGS"} \
    ${EFFFLAGS:+EFFFLAGS="$EFFFLAGS"} ${FINDFLAGS:+FINDFLAGS="$FINDFLAGS"} \
    ${TLBIN:+TLBIN="$TLBIN"} $targets || status=1
for f in "$tmp"/out/*.failed; do
	[ -e "$f" ] || continue
	cp "$f" "$dest/${f##*/}.tmp" && mv "$dest/${f##*/}.tmp" "$dest/${f##*/}"
	status=1
done
set -- "$tmp"/out/*.summary.tsv
if [ -e "$1" ]; then
	"${TLBIN:-}tl-findings" --summary "$dest/$name.summary.tsv" "$@"
fi
exit $status
