# Turn a text file into a C string constant named by -v name=...
BEGIN { printf "/* Generated from share/tl by tests/tools/embed.awk. */\n" }
BEGIN { printf "const char %s[] =\n", name }
{
	gsub(/\\/, "\\\\")
	gsub(/"/, "\\\"")
	printf "    \"%s\\n\"\n", $0
}
END { printf "    \"\";\n" }
