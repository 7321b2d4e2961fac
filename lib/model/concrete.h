/* See LICENSE file for copyright and license details. */
#ifndef TL_CONCRETE_H
#define TL_CONCRETE_H

/*
 * Parsing the profiler's concrete-input strings (struct tl_arg's ci):
 * Python reprs of an op's non-tensor arguments such as "True", "-1",
 * "0.1", "[1, 1]", "(2,)" or "[True, False]"; "" when not recorded.
 * Blanks (isspace) around a value or a list item are ignored.
 */
#include <stdint.h>

/* The text is empty or only blanks: the value was not recorded. */
int tl_ci_blank(const char *s);
/* "True" or "False" (any case): 1 or 0; anything else, "" too, -1. */
int tl_ci_truth(const char *s);
/*
 * A bool: "True", "False" (any case), "1" or "0"; blank or "None" gives
 * def.  Returns 0, or -1 when the text is no bool.
 */
int tl_ci_bool(const char *s, int def, int *v);
/* A whole integer ("-1", "5.0" too); 0, or -1 (blank included). */
int tl_ci_int(const char *s, int64_t *v);
/* A finite float ("0.", "1e-05"); blank or "None" gives def; 0 or -1. */
int tl_ci_double(const char *s, double def, double *v);
/*
 * A count written as an integer or an integral float ("2048", "2048.0"),
 * 0 <= v < 2^53; 0, or -1 (blank and "None" included).
 */
int tl_ci_count(const char *s, int64_t *v);
/*
 * An integer list "[1, 2]", a tuple "(2,)" or a lone integer "3" into v.
 * Returns the count (0 for blank, "[]" or "()"), or -1 when the text is
 * not such a list or holds more than max items.
 */
int tl_ci_ints(const char *s, int64_t *v, int max);
/*
 * A bool list "[True, False]" (items as tl_ci_bool, no "None"; no lone
 * item), likewise.
 */
int tl_ci_bools(const char *s, int *v, int max);
/*
 * Bytes per element of a c10::ScalarType code, as the profiler records
 * a dtype argument ("6" = float, "15" = bfloat16); 0 for unknown codes.
 */
int tl_scalar_type_bytes(int64_t code);

#endif
