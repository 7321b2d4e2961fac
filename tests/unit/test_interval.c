/* See LICENSE file for copyright and license details. */
#include "common/interval.h"
#include "unit.h"

int
main(void)
{
	struct tl_ivals a = {0}, b = {0}, d = {0};
	struct tl_ival v[] = { {20, 30}, {18, 19}, {25, 35}, {35, 36} };

	/* Touching intervals merge; overlap counts once. */
	CHECK(tl_busy(v, 4) == 1 + 16);
	CHECK(tl_busy(v, 0) == 0);

	/* A hand-made timeline: communication minus computation. */
	tl_ivals_add(&a, 18, 19);
	tl_ivals_add(&a, 20, 35);
	tl_ivals_add(&a, 80, 85);
	tl_ivals_merge(&a);
	tl_ivals_add(&b, 32, 42);
	tl_ivals_merge(&b);
	tl_ivals_subtract(&b, &a, &d);
	CHECK(d.n == 1 && d.v[0].start == 35 && d.v[0].end == 42);
	CHECK(tl_ivals_length(&d) == 7);
	/* A minus B with B splitting A in two. */
	tl_ivals_subtract(&a, &b, &d);
	CHECK(tl_ivals_length(&d) == 1 + 12 + 5);
	tl_ivals_free(&a);
	tl_ivals_free(&b);
	tl_ivals_free(&d);
	return unit_done("test_interval");
}
