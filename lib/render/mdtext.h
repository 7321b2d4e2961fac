/* See LICENSE file for copyright and license details. */
#ifndef TL_MDTEXT_H
#define TL_MDTEXT_H

/*
 * Markdown text for the reports: numbers in fixed, locale-independent
 * formats (the same number always prints the same way in every report),
 * quoted code, table cells.
 */
#include <stdint.h>
#include <stdio.h>

#include "analysis/findrules.h"
#include "common/jsonw.h"

/* Nanoseconds as milliseconds with 3 decimals: "12.345". */
const char *tl_md_ms(int64_t ns);
/* Nanoseconds as exact microseconds: "12.345", "7". */
const char *tl_md_us(int64_t ns);
/* The shortest text that reads back as v: "989.4", "0.7567691601652133". */
const char *tl_md_exact(double v);
/* A double with d decimals; never "-0". */
const char *tl_md_num(double v, int d);
/* A share in % with one decimal, "under 0.1" when it rounds to 0.0. */
const char *tl_md_share(double v);
/*
 * Signed forms for differences: "+1.250", "-0.004", and "0.000" (or
 * "0.0") for what rounds to zero, so that negating the value flips the
 * sign of the text and nothing else.
 */
const char *tl_md_ms_signed(int64_t ns);
const char *tl_md_num_signed(double v, int d);
/*
 * Text from the input as inline code, safe in a table cell and on its
 * line: backticks become quotes, '|' is escaped, newline, tab and
 * carriage return read \n, \t and \r and other control characters
 * \xNN, and text longer than max bytes is cut with "..." (never inside
 * a UTF-8 character).
 */
void tl_md_code(FILE *fp, const char *s, size_t max);
/*
 * The same as plain text, no backticks around it: besides, a backslash
 * escapes what Markdown would read as markup (\ ` * [ ] < > & ~, a
 * leading #, an _ not inside a word), so that no name becomes a link,
 * HTML, emphasis or code.
 */
void tl_md_text(FILE *fp, const char *s, size_t max);
/* The two appended to a buffer. */
void tl_md_code_jb(struct tl_jbuf *b, const char *s, size_t max);
void tl_md_text_jb(struct tl_jbuf *b, const char *s, size_t max);
/*
 * A trace's name as code, without the folders and the .json/.json.gz a
 * file name carries: a title never shows a machine path.
 */
void tl_md_stem(FILE *fp, const char *path);
/* A heading anchor: <a id="ID"></a>. */
void tl_md_anchor(FILE *fp, const char *id);
/* An op: its name and, when not empty, its shapes, as code. */
void tl_md_op(FILE *fp, const char *name, const char *dims);
/* The mark of a priority: a red, orange, yellow or green circle. */
const char *tl_md_prio_mark(enum tl_priority p);

#endif
