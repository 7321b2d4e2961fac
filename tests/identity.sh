#!/bin/sh
# See LICENSE file for copyright and license details.
#
# identity.sh BASEBIN [NEWBIN]: compare tl-parse's standard output, standard
# error and exit status with those of another build's tl-parse, in every
# mode, at -j 1 and -j 4, on every trace of ../shared/traces (TL_SHARED) and
# every tests/bad case.  A change that must not move output (issue 33) is
# checked with it:
#
#   sh tests/identity.sh /tmp/base/bin/tl-parse
#
# MODES (environment) replaces the list of option sets, separated by '|';
# JOBS the list of thread counts; KNOWN names the inputs (file names, blank
# separated) whose output a change moves on purpose: they are counted apart.
# Prints each difference and a total; exit status 1 when anything else
# differs.
set -u
old=${1:?usage: identity.sh BASEBIN [NEWBIN]}
top=$(cd "$(dirname "$0")/.." && pwd)
new=${2:-$top/bin/tl-parse}
shared=${TL_SHARED:-$top/../shared}
modes=${MODES:-'|-t|-t -d|-t -u|-u|-k|-l|-m|-i|--stack|--csv|--no-context|--no-culprits|--steady'}
jobs=${JOBS:-1 4}
export LC_ALL=C
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
known=${KNOWN:-}
n=0 bad=0 moved=0
for f in "$shared"/traces/*.json "$shared"/traces/*.json.gz \
    "$top"/tests/bad/*.json "$top"/tests/bad/*.json.gz; do
	case $f in *-details.json) continue ;; esac
	[ -f "$f" ] || continue
	for j in $jobs; do
		IFS='|'
		for m in $modes; do
			IFS=' '
			# $m is split into options on purpose.
			"$old" -q -j "$j" $m "$f" > "$tmp/a" 2> "$tmp/ae"
			ra=$?
			"$new" -q -j "$j" $m "$f" > "$tmp/b" 2> "$tmp/be"
			rb=$?
			n=$((n + 1))
			if [ $ra != $rb ] || ! cmp -s "$tmp/a" "$tmp/b" ||
			    ! cmp -s "$tmp/ae" "$tmp/be"; then
				b=$(basename "$f")
				case " $known " in
				*" $b "*) moved=$((moved + 1)) ;;
				*)	bad=$((bad + 1))
					echo "differs: $b -j $j $m (exit $ra/$rb)" ;;
				esac
			fi
			IFS='|'
		done
		IFS=' '
	done
done
echo "$n compared, $bad differ${known:+, $moved known to differ}"
[ $bad = 0 ]
