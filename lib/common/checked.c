/* See LICENSE file for copyright and license details. */
#include "common/checked.h"

int
tl_mul(int64_t *r, int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_mul_overflow(a, b, &v))
		return -1;
	*r = v;
	return 0;
}

int
tl_add(int64_t *r, int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_add_overflow(a, b, &v))
		return -1;
	*r = v;
	return 0;
}

void
tl_mac(int64_t *acc, int64_t a, int64_t b, int *ovf)
{
	int64_t t;

	if (*ovf || tl_mul(&t, a, b) < 0 || tl_add(acc, *acc, t) < 0)
		*ovf = 1;
}
