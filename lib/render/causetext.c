/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <string.h>

#include "analysis/kcause.h"
#include "render/causetext.h"
#include "render/mdtext.h"

/* The number of p named by the len bytes at s, NULL none. */
static const struct tl_kcnum *
lookup(const struct tl_fpat *p, const char *s, size_t len)
{
	int i;

	for (i = 0; i < p->kc.n; i++)
		if (strlen(p->kc.num[i].name) == len &&
		    strncmp(p->kc.num[i].name, s, len) == 0)
			return &p->kc.num[i];
	return NULL;
}

static void
number(FILE *fp, const struct tl_findings *f, const struct tl_kcnum *n)
{
	switch (n->unit) {
	case TL_KCU_OP:
		tl_md_op(fp, f->op[(int)n->v].name, f->op[(int)n->v].dims);
		break;
	case TL_KCU_INT:
		fprintf(fp, "%lld", (long long)n->v);
		break;
	case TL_KCU_NUM:
		fputs(tl_md_num(n->v, n->digits), fp);
		break;
	case TL_KCU_MS:
		fputs(tl_md_ms((int64_t)n->v), fp);
		break;
	case TL_KCU_TEXT:
		fputs(n->text, fp);
		break;
	}
}

/*
 * Write the form of a "{name|one|many}" placeholder (the bytes between
 * the braces from the first '|', e - s of them) that fits n: "one" for 1.
 */
static void
form(FILE *fp, const struct tl_kcnum *n, const char *s, const char *e)
{
	const char *bar = memchr(s + 1, '|', (size_t)(e - s - 1));

	if (bar == NULL)
		bar = e;
	if (n->v == 1)
		fwrite(s + 1, 1, (size_t)(bar - s - 1), fp);
	else if (bar < e)
		fwrite(bar + 1, 1, (size_t)(e - bar - 1), fp);
}

void
tl_kc_text(FILE *fp, const struct tl_findings *f, const struct tl_fpat *p,
    int c)
{
	const char *s = tl_kcause_text(f, p, c), *e, *bar;
	const struct tl_kcnum *n;

	while (*s != '\0') {
		if (*s == '{' && (e = strchr(s, '}')) != NULL) {
			bar = memchr(s, '|', (size_t)(e - s));
			if (bar == NULL)
				bar = e;
			if ((n = lookup(p, s + 1, (size_t)(bar - s - 1))) !=
			    NULL) {
				if (bar < e)
					form(fp, n, bar, e);
				else
					number(fp, f, n);
				s = e + 1;
				continue;
			}
		}
		fputc(*s++, fp);
	}
}
