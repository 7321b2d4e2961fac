#!/bin/sh
# shrink.sh TL-PARSE MULTIPLY TRACE.json.gz: a gzip trace cut to half its
# length while tl-parse reads it is an error (exit 1, "prog: file: ..."),
# not a crash by SIGBUS, at -j 1 and -j 4: read from a mapping (ISA-L's
# inflate), "the file shrank while it was read"; read with read(2)
# (zlib's, make ISAL=0), "the gzip data is cut short".  The trace is 100
# copies of TRACE (tests/tools/multiply), long enough that the reader is
# still in its first half when /proc shows the file open and the cut
# comes.  Exit 0 if so.
P=$1
MUL=$2
T=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -d /proc/self ] || { echo "no /proc"; exit 0; }
"$MUL" -l 1 100 "$T" "$tmp/big.json.gz" || exit 1
half=$(($(wc -c < "$tmp/big.json.gz") / 2))
for j in 1 4; do
	cp "$tmp/big.json.gz" "$tmp/t.json.gz"
	"$P" -q -j $j "$tmp/t.json.gz" > /dev/null 2> "$tmp/err" &
	pid=$!
	n=0
	until ls -l /proc/$pid/fd 2> /dev/null | grep -q "$tmp/t.json.gz"; do
		n=$((n + 1))
		[ $n -lt 2000 ] || { echo "-j $j: never opened"; exit 1; }
	done
	truncate -s $half "$tmp/t.json.gz"
	wait $pid
	rc=$?
	[ $rc = 1 ] || { echo "-j $j: exit $rc"; cat "$tmp/err"; exit 1; }
	grep -Eq "^tl-parse: $tmp/t.json.gz: (the file shrank while it was read|the gzip data is cut short)" "$tmp/err" ||
	    { echo "-j $j: message"; cat "$tmp/err"; exit 1; }
done
exit 0
