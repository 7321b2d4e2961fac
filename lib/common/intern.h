/* See LICENSE file for copyright and license details. */
#ifndef TL_INTERN_H
#define TL_INTERN_H

/*
 * String interning.  Names, shapes and kernel names repeat thousands of
 * times in a trace: each distinct byte string is stored once, in arena
 * chunks that never move, and is known by a small id.  Id 0 is the empty
 * string, which also stands for "absent".
 */
#include <stddef.h>
#include <stdint.h>

struct tl_strtab;

struct tl_strtab *tl_strtab_new(void);
void tl_strtab_free(struct tl_strtab *t);

/* Return the id of s[0..len); store a NUL-terminated copy if new. */
uint32_t tl_intern(struct tl_strtab *t, const char *s, size_t len);
/* The NUL-terminated string of id, valid until tl_strtab_free. */
const char *tl_str(const struct tl_strtab *t, uint32_t id);
size_t tl_strsize(const struct tl_strtab *t, uint32_t id);
/* The number of ids given: 0 to tl_strtab_count - 1 are valid. */
size_t tl_strtab_count(const struct tl_strtab *t);
/* Bytes held, for memory accounting. */
size_t tl_strtab_bytes(const struct tl_strtab *t);

#endif
