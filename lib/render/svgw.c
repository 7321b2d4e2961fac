/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/tsv.h"
#include "render/svgw.h"
#include "stream/category.h"

#define FONTS	"DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif"
#define LABEL_MAX	200	/* characters of a label in a tooltip */
#define ELLIPSIS	"\xe2\x80\xa6"
#define REPLACEMENT	"\xef\xbf\xbd"
#define UNKNOWN_COLOUR	"#c49c94"

/*
 * The colours of the parts of the GPU timeline; the categories' colours
 * are in the category table.  Change none of them: a reader learns them.
 */
static const struct {
	const char *name, *colour;
} parts[] = {
	{ "computation", "#4e79a7" },
	{ "compute", "#4e79a7" },
	{ "exposed comm", "#59a14f" },
	{ "exposed memcpy", "#e15759" },
	{ "idle", "#d3d3d3" }
};

static const double p10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15
};

/*
 * The colour of a category or timeline part ("exposed_comm_time" reads
 * as "exposed comm"), or NULL.
 */
const char *
tl_svg_colour(const char *name)
{
	char key[32];
	size_t i, n;
	int c;

	if (name == NULL)
		return NULL;
	if ((c = tl_category_index(name)) >= 0)
		return tl_category(c)->colour;
	if ((n = strlen(name)) >= sizeof(key))
		return NULL;
	memcpy(key, name, n + 1);
	if (n > 5 && strcmp(key + n - 5, "_time") == 0)
		key[n - 5] = '\0';
	for (i = 0; key[i] != '\0'; i++)
		if (key[i] == '_')
			key[i] = ' ';
	if ((c = tl_category_index(key)) >= 0)
		return tl_category(c)->colour;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strcmp(parts[i].name, key) == 0)
			return parts[i].colour;
	return NULL;
}

const char *
tl_chart_colour(const char *name)
{
	const char *c = tl_svg_colour(name);

	return c != NULL ? c : UNKNOWN_COLOUR;
}

/* v rounded to dec decimals, trailing zeros dropped; no locale involved. */
static void
fmt_fixed(char *buf, size_t n, double v, int dec)
{
	long long i, q;
	double r;
	char *e;
	int neg = v < 0;

	if (!isfinite(v)) {
		buf[0] = '\0';
		return;
	}
	if (dec < 0)
		dec = 0;
	if (dec > 15)
		dec = 15;
	r = round(fabs(v) * p10[dec]);
	if (r >= 9e15) {
		tl_fmt_double(buf, n, v);
		return;
	}
	i = (long long)r;
	if (i == 0)
		neg = 0;
	q = (long long)p10[dec];
	if (dec == 0) {
		snprintf(buf, n, "%s%lld", neg ? "-" : "", i);
		return;
	}
	snprintf(buf, n, "%s%lld.%0*lld", neg ? "-" : "", i / q, dec, i % q);
	e = buf + strlen(buf);
	while (e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		e[-1] = '\0';
}

/* v to digits significant digits, for people. */
static void
fmt_sig(char *buf, size_t n, double v, int digits)
{
	int e;

	if (!isfinite(v) || v == 0) {
		fmt_fixed(buf, n, v, 0);
		return;
	}
	e = (int)floor(log10(fabs(v)));
	if (digits - 1 - e > 15)
		tl_fmt_double(buf, n, v);
	else
		fmt_fixed(buf, n, v, digits - 1 - e);
}

/*
 * s as XML text (character data or an attribute value): the five
 * special characters escaped, tab and newlines as references, other
 * control characters, U+FFFE/U+FFFF and bytes that are not UTF-8 as
 * U+FFFD; cut after max characters (0 = no limit) with an ellipsis.
 */
void
tl_svg_text(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
	size_t nch = 0, len;
	unsigned c;

	for (; *p != '\0'; p += len, nch++) {
		if (max > 0 && nch == max) {
			fputs(ELLIPSIS, f);
			return;
		}
		c = *p;
		len = 1;
		if (c < 0x80) {
			switch (c) {
			case '&': fputs("&amp;", f); break;
			case '<': fputs("&lt;", f); break;
			case '>': fputs("&gt;", f); break;
			case '"': fputs("&quot;", f); break;
			case '\'': fputs("&apos;", f); break;
			case '\t': fputs("&#9;", f); break;
			case '\n': fputs("&#10;", f); break;
			case '\r': fputs("&#13;", f); break;
			default:
				if (c < 0x20 || c == 0x7f)
					fputs(REPLACEMENT, f);
				else
					putc((int)c, f);
			}
			continue;
		}
		if ((len = tl_utf8_len((const char *)p, 4)) == 0 ||
		    (c == 0xef && p[1] == 0xbf && p[2] >= 0xbe)) {
			fputs(REPLACEMENT, f);
			len = 1;
			continue;
		}
		fwrite(p, 1, len, f);
	}
}

void
tl_svg_tail(FILE *f, const char *s, size_t max)
{
	const unsigned char *p;
	size_t nch = 0, skip;

	if (s == NULL)
		s = "";
	/* Characters: the bytes that do not continue a UTF-8 sequence. */
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		nch += (*p & 0xc0) != 0x80;
	if (nch <= max || max < 2) {
		tl_svg_text(f, s, 0);
		return;
	}
	skip = nch - (max - 1);
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if ((*p & 0xc0) != 0x80 && skip-- == 0)
			break;
	fputs(ELLIPSIS, f);
	tl_svg_text(f, (const char *)p, 0);
}

/* Microseconds as milliseconds with 3 decimals, as tl_md_ms. */
static void
fmt_ms(char *buf, size_t n, double us)
{
	long long ns, a, u;

	if (!isfinite(us) || fabs(us) > 9e12) {
		tl_fmt_double(buf, n, us / 1000);
		return;
	}
	ns = llround(us * 1000);
	a = ns < 0 ? -ns : ns;
	u = (a + 500) / 1000;
	snprintf(buf, n, "%s%lld.%03lld", ns < 0 && u > 0 ? "-" : "",
	    u / 1000, u % 1000);
}

/* tl_svg_out on a va_list (the formats are in svgw.h). */
static void
vout(FILE *f, const char *fmt, va_list ap)
{
	char buf[64];
	const char *s;

	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			putc(*fmt, f);
			continue;
		}
		switch (*++fmt) {
		case 's':
			s = va_arg(ap, const char *);
			fputs(s != NULL ? s : "", f);
			break;
		case 't':
			tl_svg_text(f, va_arg(ap, const char *), 0);
			break;
		case 'T':
			tl_svg_text(f, va_arg(ap, const char *), LABEL_MAX);
			break;
		case 'M':
			fmt_ms(buf, sizeof(buf), va_arg(ap, double));
			fputs(buf, f);
			break;
		case 'p':
			fmt_fixed(buf, sizeof(buf), va_arg(ap, double), 2);
			fputs(buf, f);
			break;
		case 'r':
			tl_fmt_double(buf, sizeof(buf), va_arg(ap, double));
			fputs(buf, f);
			break;
		case 'g':
		case 'G':
			fmt_sig(buf, sizeof(buf), va_arg(ap, double),
			    *fmt == 'g' ? 3 : 4);
			fputs(buf, f);
			break;
		case 'f':
			fmt_fixed(buf, sizeof(buf), va_arg(ap, double), 1);
			/* Keep the decimal: "45.0%" lines up with "45.6%". */
			fputs(buf, f);
			if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
				fputs(".0", f);
			break;
		case 'd':
			fprintf(f, "%d", va_arg(ap, int));
			break;
		case '%':
			putc('%', f);
			break;
		default:
			abort();	/* a bad format is a bug here */
		}
	}
}

void
tl_svg_out(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vout(f, fmt, ap);
	va_end(ap);
}

void
tl_svg_begin(FILE *f, const char *cls, int w, int h)
{
	tl_svg_out(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"%s\" font-size=\"12\" class=\"%s\"", w, h, w, h,
	    FONTS, cls);
}

int
tl_svg_end(FILE *f)
{
	tl_svg_out(f, "</svg>\n");
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

void
tl_svg_heading(FILE *f, double x, const char *title)
{
	tl_svg_out(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
	    "<text class=\"title\" x=\"%p\" y=\"30\" font-size=\"18\" "
	    "font-weight=\"bold\" fill=\"#222222\">%T</text>\n", x, title);
}

void
tl_svg_subtitle(FILE *f, double x, const char *fmt, ...)
{
	va_list ap;

	tl_svg_out(f, "<text class=\"subtitle\" x=\"%p\" y=\"50\" "
	    "fill=\"#555555\">", x);
	va_start(ap, fmt);
	vout(f, fmt, ap);
	va_end(ap);
	tl_svg_out(f, "</text>\n");
}

void
tl_svg_swatch(FILE *f, double x, double y, const char *colour)
{
	tl_svg_out(f, "<rect x=\"%p\" y=\"%p\" width=\"12\" height=\"12\" rx=\"2\" "
	    "fill=\"%s\" stroke=\"#333333\" stroke-width=\"0.6\"/>\n", x, y,
	    colour);
}

const char *
tl_svg_ink(const char *colour)
{
	unsigned r, g, b;

	if (sscanf(colour, "#%2x%2x%2x", &r, &g, &b) != 3)
		return "#000000";
	return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? "#ffffff" : "#111111";
}

static int
by_pos(const void *a, const void *b)
{
	const struct tl_svg_label *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void
tl_svg_place(struct tl_svg_label *l, size_t n, double gap, double lo,
    double hi)
{
	size_t i;

	if (n == 0)
		return;
	qsort(l, n, sizeof(*l), by_pos);
	for (i = 0; i < n; i++)
		l[i].at = l[i].pos;
	for (i = 1; i < n; i++)
		if (l[i].at < l[i - 1].at + gap)
			l[i].at = l[i - 1].at + gap;
	if (l[n - 1].at > hi)
		for (l[n - 1].at = hi, i = n - 1; i-- > 0;)
			if (l[i].at > l[i + 1].at - gap)
				l[i].at = l[i + 1].at - gap;
	if (l[0].at < lo)
		for (l[0].at = lo, i = 1; i < n; i++)
			if (l[i].at < l[i - 1].at + gap)
				l[i].at = l[i - 1].at + gap;
}

double
tl_svg_step(double max, int want)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double raw, mag;
	size_t i;

	if (!(max > 0) || !isfinite(max) || want < 1)
		return 1;
	raw = max / want;
	mag = pow(10, floor(log10(raw)));
	for (i = 0; i < sizeof(mult) / sizeof(mult[0]) - 1; i++)
		if (mult[i] * mag >= raw)
			break;
	return mult[i] * mag;
}
