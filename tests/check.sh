# Shared by the end-to-end scripts (tests/cases.sh, scale.sh, tlmk.sh):
# check NAME CMD...: print "ok NAME" when the shell command exits 0, else
# "FAIL NAME" and the start of its output.  Needs $tmp.
check() {
	name=$1
	shift
	if sh -c "$*" > "$tmp/log" 2>&1; then
		echo "ok $name"
	else
		echo "FAIL $name"
		sed 's/^/  /' "$tmp/log" | head -20
	fi
}
