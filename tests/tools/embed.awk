# Turn a text file into a C string constant named by -v name=...
# Backslashes and quotes are escaped by hand: gsub's treatment of "\\" in
# the replacement differs between awks (mawk, gawk, busybox).
BEGIN { printf "/* Generated from share/tl by tests/tools/embed.awk. */\n" }
BEGIN { printf "const char %s[] =\n", name }
{
	out = ""
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		if (c == "\\" || c == "\"")
			out = out "\\"
		out = out c
	}
	printf "    \"%s\\n\"\n", out
}
END { printf "    \"\";\n" }
