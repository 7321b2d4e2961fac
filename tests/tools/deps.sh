#!/bin/sh
# See LICENSE file for copyright and license details.
# Check the build and test dependencies of tl.  When one is missing,
# install them all with apt-get if run as root on Debian, or print the
# command to run and exit 1.  Quiet when everything is present.
# With CI=true also the chart checkers, xmllint and a headless chromium
# (large, so optional elsewhere: tests/svgcheck.sh says SKIP without them).
# usage: sh tests/tools/deps.sh
PKGS="build-essential zlib1g-dev libisal-dev libjsmn-dev libcsv-dev python3 mandoc"
TOOLS="cc make awk python3 mandoc"
if [ "${CI:-}" = true ]; then
	PKGS="$PKGS libxml2-utils chromium"
	TOOLS="$TOOLS xmllint chromium"
fi

missing()
{
	m=
	for h in zlib.h isa-l/igzip_lib.h jsmn.h csv.h; do
		[ -f "/usr/include/$h" ] || m="$m /usr/include/$h"
	done
	for t in $TOOLS; do
		command -v "$t" > /dev/null 2>&1 || m="$m $t"
	done
	echo "$m"
}

m=$(missing)
[ -z "$m" ] && exit 0
echo "deps.sh: missing:$m" >&2
if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null 2>&1; then
	echo "deps.sh: install them as root (or with sudo) with:" >&2
	echo "apt-get update && apt-get install -y --no-install-recommends $PKGS" >&2
	exit 1
fi
DEBIAN_FRONTEND=noninteractive
export DEBIAN_FRONTEND
# shellcheck disable=SC2086
apt-get update && apt-get install -y --no-install-recommends $PKGS || exit 1
m=$(missing)
if [ -n "$m" ]; then
	echo "deps.sh: still missing after apt-get:$m" >&2
	exit 1
fi
exit 0
