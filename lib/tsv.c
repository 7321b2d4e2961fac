/* See LICENSE file for copyright and license details. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"

void
tl_w_init(struct tl_writer *w, FILE *fp, int csv)
{
	w->fp = fp;
	w->csv = csv;
	w->col = 0;
}

static void
sep(struct tl_writer *w)
{
	if (w->col++ > 0)
		putc_unlocked(w->csv ? ',' : '\t', w->fp);
}

void
tl_w_mem(struct tl_writer *w, const char *s, size_t n)
{
	size_t i, run = 0;

	sep(w);
	if (w->csv) {
		int quote = 0;

		for (i = 0; i < n; i++)
			if (s[i] == ',' || s[i] == '"' || s[i] == '\n' ||
			    s[i] == '\r') {
				quote = 1;
				break;
			}
		if (!quote) {
			fwrite(s, 1, n, w->fp);
			return;
		}
		putc_unlocked('"', w->fp);
		for (i = 0; i < n; i++) {
			if (s[i] == '"')
				putc_unlocked('"', w->fp);
			putc_unlocked(s[i], w->fp);
		}
		putc_unlocked('"', w->fp);
		return;
	}
	for (i = 0; i < n; i++) {
		char c = s[i], e;

		switch (c) {
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\\': e = '\\'; break;
		default: continue;
		}
		fwrite(s + run, 1, i - run, w->fp);
		putc_unlocked('\\', w->fp);
		putc_unlocked(e, w->fp);
		run = i + 1;
	}
	fwrite(s + run, 1, n - run, w->fp);
}

void
tl_w_raw(struct tl_writer *w, const char *s, size_t n)
{
	sep(w);
	fwrite(s, 1, n, w->fp);
}

void
tl_w_str(struct tl_writer *w, const char *s)
{
	tl_w_mem(w, s, s != NULL ? strlen(s) : 0);
}

void
tl_w_empty(struct tl_writer *w)
{
	sep(w);
}

void
tl_w_int(struct tl_writer *w, int64_t v)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%" PRId64, v);

	sep(w);
	fwrite(buf, 1, (size_t)n, w->fp);
}

void
tl_fmt_us(char *buf, size_t n, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	unsigned frac = (unsigned)(a % 1000);
	int k;

	k = snprintf(buf, n, "%s%" PRIu64, ns < 0 ? "-" : "", a / 1000);
	if (frac != 0 && (size_t)k + 5 < n) {
		snprintf(buf + k, n - (size_t)k, ".%03u", frac);
		k = (int)strlen(buf);
		while (buf[k - 1] == '0')
			buf[--k] = '\0';
	}
}

void
tl_w_us(struct tl_writer *w, int64_t ns)
{
	char buf[32];

	tl_fmt_us(buf, sizeof(buf), ns);
	sep(w);
	fputs(buf, w->fp);
}

void
tl_fmt_double(char *buf, size_t n, double d)
{
	int p, e;

	if (!isfinite(d)) {
		buf[0] = '\0';
		return;
	}
	if (d == 0) {
		snprintf(buf, n, "0");
		return;
	}
	/*
	 * %g drops trailing zeros, so the first of 15, 16, 17 digits that
	 * reads back is the short form in practice (Python's repr).
	 */
	for (p = 15; p <= 17; p++) {
		snprintf(buf, n, "%.*g", p, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	{
		/* Significant digits actually printed. */
		const char *c = buf;
		int digits = 0, lead = 1;

		for (; *c != '\0' && *c != 'e'; c++) {
			if (*c < '0' || *c > '9')
				continue;
			if (*c == '0' && lead)
				continue;
			lead = 0;
			digits++;
		}
		if (digits > 0 && digits < p)
			p = digits;
	}
	/* Plain notation where Python's repr uses it: 1e-4 <= |d| < 1e16. */
	e = (int)floor(log10(fabs(d)));
	if (e >= -4 && e < 16) {
		char tmp[48];

		snprintf(tmp, sizeof(tmp), "%.*f", p - 1 - e > 0 ? p - 1 - e : 0,
		    d);
		if (strtod(tmp, NULL) != d)	/* log10 rounding at a boundary */
			snprintf(tmp, sizeof(tmp), "%.*f",
			    p - e > 0 ? p - e : 0, d);
		snprintf(buf, n, "%s", tmp);
	}
}

void
tl_w_double(struct tl_writer *w, double d)
{
	char buf[40];

	tl_fmt_double(buf, sizeof(buf), d);
	sep(w);
	fputs(buf, w->fp);
}

void
tl_w_eol(struct tl_writer *w)
{
	putc_unlocked('\n', w->fp);	/* LF for CSV too, as the TSV */
	w->col = 0;
}

void
tl_w_header(struct tl_writer *w, const char *names)
{
	const char *p = names, *q;

	while ((q = strchr(p, ',')) != NULL) {
		tl_w_mem(w, p, (size_t)(q - p));
		p = q + 1;
	}
	tl_w_str(w, p);
	tl_w_eol(w);
}
