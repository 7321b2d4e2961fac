/* See LICENSE file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonw.h"
#include "common/tsv.h"
#include "common/util.h"
#include "render/mdtext.h"

/* A ring of buffers, so several numbers fit in one printf. */
static char ring[16][48];
static int next;

static char *
slot(void)
{
	next = (next + 1) % 16;
	return ring[next];
}

const char *
tl_md_ms(int64_t ns)
{
	char *b = slot();
	int64_t a = ns < 0 ? -ns : ns, us = (a + 500) / 1000;

	snprintf(b, 48, "%s%lld.%03lld", ns < 0 ? "-" : "",
	    (long long)(us / 1000), (long long)(us % 1000));
	return b;
}

const char *
tl_md_us(int64_t ns)
{
	char *b = slot();

	tl_fmt_us(b, 48, ns);
	return b;
}

const char *
tl_md_exact(double v)
{
	char *b = slot();

	tl_fmt_double(b, 48, v);
	return b;
}

const char *
tl_md_num(double v, int d)
{
	char *b = slot();

	snprintf(b, 48, "%.*f", d, v);
	if (strcmp(b, "-0") == 0 || strncmp(b, "-0.", 3) == 0) {
		/* -0.0: print as 0 */
		size_t i;
		int zero = 1;

		for (i = 1; b[i] != '\0'; i++)
			if (b[i] != '0' && b[i] != '.')
				zero = 0;
		if (zero)
			memmove(b, b + 1, strlen(b));
	}
	return b;
}

/* s with a sign: "+" before a positive number, none on a zero. */
static const char *
with_sign(const char *s)
{
	char *b;

	if (s[strspn(s, "-0.")] == '\0')
		return s[0] == '-' ? s + 1 : s;
	if (s[0] == '-')
		return s;
	b = slot();
	snprintf(b, 48, "+%s", s);
	return b;
}

const char *
tl_md_ms_signed(int64_t ns)
{
	return with_sign(tl_md_ms(ns));
}

const char *
tl_md_num_signed(double v, int d)
{
	return with_sign(tl_md_num(v, d));
}

static int
alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Input text safe in a table cell and on its line (see mdtext.h). */
static void
md_escaped(struct tl_jbuf *b, const char *s, size_t max, int code)
{
	const unsigned char *u = (const unsigned char *)s;
	char esc[8];
	size_t i;

	for (i = 0; u[i] != '\0'; i++) {
		if (i >= max && (u[i] & 0xc0) != 0x80) {
			tl_jb_lit(b, "...");
			break;
		}
		if (u[i] == '`' && code)
			tl_jb_raw(b, "'", 1);
		else if (u[i] == '|')
			tl_jb_lit(b, "\\|");
		else if (u[i] == '\n')
			tl_jb_lit(b, "\\n");
		else if (u[i] == '\t')
			tl_jb_lit(b, "\\t");
		else if (u[i] == '\r')
			tl_jb_lit(b, "\\r");
		else if (u[i] < 0x20 || u[i] == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", u[i]);
			tl_jb_lit(b, esc);
		} else if (!code && (strchr("\\`*[]<>&~", u[i]) != NULL ||
		    (u[i] == '#' && i == 0) || (u[i] == '_' &&
		    !(i > 0 && alnum(u[i - 1]) && alnum(u[i + 1]))))) {
			/* What could start emphasis, a link, HTML, code. */
			esc[0] = '\\';
			esc[1] = (char)u[i];
			tl_jb_raw(b, esc, 2);
		} else
			tl_jb_raw(b, (const char *)u + i, 1);
	}
}

void
tl_md_code_jb(struct tl_jbuf *b, const char *s, size_t max)
{
	tl_jb_raw(b, "`", 1);
	md_escaped(b, s, max, 1);
	tl_jb_raw(b, "`", 1);
}

void
tl_md_text_jb(struct tl_jbuf *b, const char *s, size_t max)
{
	md_escaped(b, s, max, 0);
}

void
tl_md_code(FILE *fp, const char *s, size_t max)
{
	static struct tl_jbuf b;

	tl_jb_reset(&b);
	tl_md_code_jb(&b, s, max);
	fwrite(b.s, 1, b.n, fp);
}

void
tl_md_text(FILE *fp, const char *s, size_t max)
{
	static struct tl_jbuf b;

	tl_jb_reset(&b);
	tl_md_text_jb(&b, s, max);
	fwrite(b.s, 1, b.n, fp);
}

void
tl_md_anchor(FILE *fp, const char *id)
{
	fprintf(fp, "<a id=\"%s\"></a>\n", id);
}

void
tl_md_op(FILE *fp, const char *name, const char *dims)
{
	tl_md_code(fp, name, 80);
	if (dims[0] != '\0') {
		fputc(' ', fp);
		tl_md_code(fp, dims, 70);
	}
}

const char *
tl_md_prio_mark(enum tl_priority p)
{
	static const char *mark[] = { "🟢", "🟡", "🟠", "🔴" };

	return mark[p];
}

void
tl_md_stem(FILE *fp, const char *path)
{
	const char *s = strrchr(path, '/');
	char *stem;
	size_t n;

	s = s != NULL ? s + 1 : path;
	n = strlen(s);
	if (n > 3 && strcmp(s + n - 3, ".gz") == 0)
		n -= 3;
	if (n > 5 && strncmp(s + n - 5, ".json", 5) == 0)
		n -= 5;
	stem = tl_malloc(n + 1);
	memcpy(stem, s, n);
	stem[n] = '\0';
	tl_md_code(fp, stem, 120);
	free(stem);
}

const char *
tl_md_share(double v)
{
	return v > 0 && v < 0.05 ? "under 0.1" : tl_md_num(v, 1);
}
