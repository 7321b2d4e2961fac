#include <time.h>
#include <stdio.h>
#include <stdlib.h>
static inline void tl_phase(const char *what) {
	static struct timespec t0; static int on = -1; struct timespec t;
	if (on < 0) { on = getenv("TL_PHASES") != NULL; clock_gettime(CLOCK_MONOTONIC, &t0); }
	if (!on) return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	fprintf(stderr, "%8.3f %s\n", (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9, what);
}
