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

/* Nanoseconds as milliseconds with 3 decimals: "12.345". */
const char *tl_md_ms(int64_t ns);
/* A double with d decimals. */
const char *tl_md_num(double v, int d);
/*
 * Text from the input as inline code, safe in a table cell and on its
 * line: backticks become quotes, '|' is escaped, newline, tab and
 * carriage return read \n, \t and \r and other control characters
 * \xNN, and text longer than max bytes is cut with "..." (never inside
 * a UTF-8 character).
 */
void tl_md_code(FILE *fp, const char *s, size_t max);
/* The same as plain text: no backticks around it, and backticks kept. */
void tl_md_text(FILE *fp, const char *s, size_t max);
/* A heading anchor: <a id="ID"></a>. */
void tl_md_anchor(FILE *fp, const char *id);

#endif
