#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-slurm.sh: a directory of traces, one per rank, through tl as Slurm
# job arrays at any number of ranks, then one cross-rank analysis.
#
#	tl-slurm.sh [-c CHUNK] [-m MAXARRAY] [-p PAR] TRACES DEST
#
# Lists TRACES/*.json.gz and *.json (into DEST/.tl-slurm.list), gives each
# array task CHUNK of them (default 8, a node's ranks), and submits the
# tasks as arrays of at most MAXARRAY tasks (default 1000: Slurm's default
# MaxArraySize is 1001, the largest index 1000), PAR tasks of each at a
# time (default 64).  Each task runs tl-rank.sh on its chunk on its node:
# the streams stay in the node's $TMPDIR, and only the chunk's summary,
# pre-merged (DEST/chunk-K.summary.tsv), and the failure notes of its
# traces (DEST/NAME.failed) reach DEST.  A last job, afterany of every
# array (so that it runs even when a trace failed), runs
# "make -f tl.mk OUT=DEST ranks": the cross-rank report in DEST/ranks/,
# listing the traces that failed.  Prints the merge job's id.  sbatch
# options (partition, account, time) come from the environment, as
# sbatch reads them (SBATCH_PARTITION, ...); HW, HWMAP, PARSEFLAGS,
# EFFFLAGS, FINDFLAGS and TLBIN pass on to tl.mk.
set -eu
if [ "${1:-}" = --task ]; then		# an array task: its chunk
	# (Slurm runs a copy of this script: tl's directory comes along.)
	dest=$2 chunk=$3
	k=$((TL_SLURM_BASE + SLURM_ARRAY_TASK_ID))
	set -- $(sed -n "$((k * chunk + 1)),$(((k + 1) * chunk))p" "$dest/.tl-slurm.list")
	[ $# -gt 0 ] || exit 0
	exec "$TL_SLURM_HERE/tl-rank.sh" -n "chunk-$k" "$dest" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
chunk=8 max=1000 par=64
usage() {
	echo "usage: tl-slurm.sh [-c CHUNK] [-m MAXARRAY] [-p PAR] TRACES DEST" >&2
	exit 2
}
num() { case $2 in ''|*[!0-9]*|0) echo "tl-slurm.sh: -$1: expected a whole number from 1" >&2; exit 2 ;; esac; }
while getopts c:m:p: c; do
	case $c in
	c) num c "$OPTARG"; chunk=$OPTARG ;;
	m) num m "$OPTARG"; max=$OPTARG ;;
	p) num p "$OPTARG"; par=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
traces=$(cd "$1" && pwd) dest=$2
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
ls "$traces" | grep -E '\.json(\.gz)?$' | sed "s|^|$traces/|" > "$dest/.tl-slurm.list"
n=$(wc -l < "$dest/.tl-slurm.list")
[ "$n" -gt 0 ] || { echo "tl-slurm.sh: no *.json.gz or *.json traces in $1" >&2; exit 1; }
tasks=$(((n + chunk - 1) / chunk))
deps= base=0
while [ $base -lt $tasks ]; do
	m=$((tasks - base))
	[ $m -le "$max" ] || m=$max
	id=$(sbatch --parsable --job-name=tl --cpus-per-task=2 --mem=8G \
	    --array=0-$((m - 1))%$par \
	    --export=ALL,TL_SLURM_BASE=$base,TL_SLURM_HERE=$here \
	    "$here/tl-slurm.sh" --task "$dest" "$chunk")
	deps="$deps:${id%%;*}"
	base=$((base + m))
done
sbatch --parsable --job-name=tl-ranks --dependency=afterany$deps \
    --wrap "make -f '$here/tl.mk' OUT='$dest' ${TLBIN:+TLBIN='$TLBIN'} ${FINDFLAGS:+FINDFLAGS='$FINDFLAGS'} ranks"
