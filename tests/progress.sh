#!/bin/sh
# progress.sh TL-PARSE TRACE.json.gz: tl-parse's progress line.  With
# standard error on a terminal (script(1) gives it one), reading a pipe
# that stalls for 1.5 s after its first MB, it shows the MB of JSON read,
# rewritten in place (a carriage return before it, the line cleared
# after), and takes the line away at the end; with -q, or with standard
# error in a file, there is none.  Exit 0 if so.
P=$1
T=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v script > /dev/null || { echo "no script(1)"; exit 0; }
gzip -dc "$T" > "$tmp/t.json"
cat > "$tmp/feed" <<EOT
{ head -c 1000000 "$tmp/t.json"; sleep 1.5; tail -c +1000001 "$tmp/t.json"; }
EOT
# run ARGS...: tl-parse -t ARGS on the stalling pipe, stderr on a terminal.
run() {
	script -qec "sh $tmp/feed | $P -j 1 -t $* > $tmp/out" /dev/null
}
run > "$tmp/tty" || exit 1
grep -q "$(printf '\r')tl-parse: <stdin>: 1 MB of JSON read$(printf '\033')\[K" "$tmp/tty" || {
	echo "no progress line"; od -c "$tmp/tty" | head; exit 1; }
grep -q "$(printf '\r\033')\[K" "$tmp/tty" || { echo "not taken away"; exit 1; }
cmp -s "$tmp/out" /dev/null && { echo "no output"; exit 1; }
run -q > "$tmp/tty" || exit 1
[ ! -s "$tmp/tty" ] || { echo "a line with -q"; od -c "$tmp/tty" | head; exit 1; }
run "2> $tmp/err" > "$tmp/tty" || exit 1
[ ! -s "$tmp/tty" ] && [ ! -s "$tmp/err" ] || { echo "a line off a terminal"; exit 1; }
exit 0
