/* See LICENSE file for copyright and license details. */
/*
 * Linear in kernel names (issue 34): tl-compare's signatures look their
 * kernels up by name in a hash map.  The lookups are counted, not timed:
 * N distinct kernel names in one signature's rows, each seen twice, take
 * between 2N (every lookup goes through the map) and 16N hash slots (a
 * search that grew with the names would look at about N * N / 2).
 */
#include <stdint.h>

#include "analysis/opsig.h"
#include "unit.h"

#define N 100000

int
main(void)
{
	size_t cap = (size_t)N * 80 + 1024, n = 0;
	char *text = malloc(cap);
	struct tl_opsigs o;
	int row, k;

	if (text == NULL)
		return 1;
	n += (size_t)snprintf(text + n, cap - n,
	    "trace\tname\tkernel_time_us\tkernels\n");
	for (row = 0; row < 2; row++) {
		n += (size_t)snprintf(text + n, cap - n,
		    "t\taten::mm\t%d\t[", N);
		for (k = 0; k < N; k++)
			n += (size_t)snprintf(text + n, cap - n,
			    "%s{\"name\":\"kernel_%d\",\"dur\":1}",
			    k > 0 ? "," : "", k);
		n += (size_t)snprintf(text + n, cap - n, "]\n");
	}
	tl_opsigs_read(&o, unit_tmpfile(text, n));
	unlink(unit_tmp);
	CHECK(o.n == 1);
	CHECK(o.n == 1 && o.s[0].nk == N);
	CHECK(o.n == 1 && o.s[0].k[N - 1].count == 2);
	CHECK(o.kprobes >= 2 * (size_t)N);
	CHECK(o.kprobes <= 16 * (size_t)N);	/* misses, growth */
	printf("test_kernnames: %zu hash slots looked at for %d lookups\n",
	    o.kprobes, 2 * N);
	tl_opsigs_free(&o);
	free(text);
	return unit_done("test_kernnames");
}
