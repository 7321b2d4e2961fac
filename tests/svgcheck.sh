#!/bin/sh
# See LICENSE file for copyright and license details.
# Check SVG charts: each FILE must be well-formed XML whose root is an SVG
# <svg> with a width and height (xmllint), and, when Chromium is
# installed, render headlessly to a PNG of that size with no parser error
# in the page, no error on stderr and more than a blank page in it.
# Prints "ok NAME", "FAIL NAME" (the reason indented under it) or
# "SKIP NAME" lines as tests/cases.sh.  Without xmllint or chromium the
# checks say SKIP, unless CI=true, where a missing tool is a failure.
# usage: sh tests/svgcheck.sh FILE.svg...
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# fail NAME WHY: a FAIL line, the reason indented under it.
fail() {
	echo "FAIL $1"
	echo "$2" | sed 's/^/    /'
	status=1
}

# missing TOOL NAME: SKIP, or FAIL with CI=true.
missing() {
	if [ "${CI:-}" = true ]; then
		fail "$2" "$1 not installed (required with CI=true)"
	else
		echo "SKIP $2 ($1 not installed)"
	fi
}

# What Chromium writes on stderr on every run as root in a container,
# matched deliberately (anything else that reads as an error fails):
# - the Debian launcher's /etc/chromium.d/dev-shm runs
#   `[ $shm_avail -lt ... ]` on findmnt's output, which has two numbers
#   when /dev/shm is mounted twice: "/usr/bin/chromium: 9: [: N:
#   unexpected operator";
# - there is no D-Bus: "ERROR:dbus/bus.cc:...] Failed to connect to the
#   bus: ..." and "ERROR:dbus/object_proxy.cc:...] Failed to call method:
#   org.freedesktop.DBus...";
# - page-load timing under a loaded machine, which says nothing about
#   the page: "ERROR:...page_load_metrics_update_dispatcher.cc...]
#   Invalid first_paint ... for first_image_paint ...";
# - the screenshot's success line "N bytes written to file PNG".
noise='^/usr/bin/chromium: [0-9]+: \[: [0-9 ]*: unexpected operator$'
noise="$noise|:ERROR:dbus/[a-z_]+\\.cc:[0-9]+\\] Failed to (connect to the bus|call method: org\\.freedesktop\\.)"
noise="$noise|:ERROR:[a-z_/]+\\.cc:[0-9]+\\] Invalid first_[a-z_]*paint "
noise="$noise|^[0-9]+ bytes written to file "

# render NAME FILE W H: the screenshot and the page's DOM in one run.
render() {
	rm -rf "$tmp/profile" "$tmp/shot.png"
	abs=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$tmp/profile" --dump-dom \
	    --screenshot="$tmp/shot.png" --window-size="$3,$4" \
	    "file://$abs" > "$tmp/dom" 2> "$tmp/err"
	rc=$?
	why=""
	[ "$rc" -eq 0 ] || why="chromium exited $rc"
	grep -Eq '^[0-9]+ bytes written to file ' "$tmp/err" ||
	    why="$why; no \"bytes written\" line"
	grep -q '<parsererror' "$tmp/dom" &&
	    why="$why; parser error in the page: $(grep -o 'error on line [^<]*' "$tmp/dom" | head -1)"
	grep -Eq '<svg[ >]' "$tmp/dom" || why="$why; no <svg> in the page's DOM"
	bad=$(grep -Ev "$noise" "$tmp/err" | grep -Ei 'error|fatal|fail|crash' | head -5)
	[ -z "$bad" ] || why="$why; on stderr: $bad"
	if [ -s "$tmp/shot.png" ]; then
		if st=$(python3 "$top/tests/tools/pngstat.py" "$tmp/shot.png" 2>&1); then
			set -- "$1" "$2" "$3" "$4" $st
			[ "$5" = "$3" ] && [ "$6" = "$4" ] ||
			    why="$why; PNG is $5x$6, want $3x$4"
			# A chart has text, lines and colours: more than a blank page.
			[ "$7" -ge 8 ] || why="$why; PNG has only $7 colours"
			awk -v ink="$8" 'BEGIN { exit !(ink >= 1) }' ||
			    why="$why; PNG is ${8}% ink, nearly blank"
		else
			why="$why; $st"
		fi
	else
		why="$why; no PNG written"
	fi
	if [ -z "$why" ]; then
		echo "ok $1"
	else
		fail "$1" "${why#; }"
	fi
}

if [ $# -eq 0 ]; then
	echo "usage: sh tests/svgcheck.sh FILE.svg..." >&2
	exit 2
fi
for f in "$@"; do
	n=$(basename "$f")
	if ! command -v xmllint > /dev/null 2>&1; then
		missing xmllint "svg xmllint $n"
		missing chromium "svg render $n"
		continue
	fi
	if ! out=$(xmllint --noout "$f" 2>&1); then
		fail "svg xmllint $n" "$out"
		continue
	fi
	root=$(xmllint --xpath 'concat(namespace-uri(/*), " ", local-name(/*))' "$f")
	w=$(xmllint --xpath 'string(/*/@width)' "$f")
	h=$(xmllint --xpath 'string(/*/@height)' "$f")
	case $root:$w:$h in
	"http://www.w3.org/2000/svg svg":[1-9]*:[1-9]*)
		echo "ok svg xmllint $n" ;;
	*)
		fail "svg xmllint $n" "root is \"$root\", width \"$w\", height \"$h\""
		continue ;;
	esac
	case $w$h in
	*[!0-9]*)
		fail "svg render $n" "width and height are not whole pixels: $w, $h"
		continue ;;
	esac
	if command -v chromium > /dev/null 2>&1; then
		render "svg render $n" "$f" "$w" "$h"
	else
		missing chromium "svg render $n"
	fi
done
exit $status
