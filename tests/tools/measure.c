/* See LICENSE file for copyright and license details. */
/*
 * measure: run a shell command N times (standard output to /dev/null) and
 * print the median and the shortest wall time in seconds, the peak
 * resident set size in KB: the largest of any single process of the
 * command (a pipeline's stages are not added up), over all runs, as
 * wait4() reports it, and the median and the least CPU time (user +
 * system, of all its processes) in seconds: on a loaded machine the wall
 * time grows, the CPU time much less.  A
 * failing run is an error: no numbers are printed for it.  For make bench,
 * so that it needs no time(1).
 *
 * usage: measure N 'COMMAND'
 */
#define _DEFAULT_SOURCE		/* wait4 */
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int
main(int argc, char *argv[])
{
	double wall[101], cpu[101];
	long maxrss = 0;
	int n, i;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 101) {
		fprintf(stderr, "usage: measure N 'COMMAND' (1 <= N <= 101)\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		pid_t pid;
		int st;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if ((pid = fork()) < 0) {
			perror("measure: fork");
			return 1;
		}
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
				_exit(127);
			execl("/bin/sh", "sh", "-c", argv[2], (char *)NULL);
			_exit(127);
		}
		if (wait4(pid, &st, 0, &ru) < 0) {
			perror("measure: wait4");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "measure: '%s' failed (status %d)\n",
			    argv[2], st);
			return 1;
		}
		wall[i] = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		cpu[i] = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	qsort(wall, (size_t)n, sizeof(wall[0]), cmp_double);
	qsort(cpu, (size_t)n, sizeof(cpu[0]), cmp_double);
	printf("%.3f %.3f %ld %.3f %.3f\n", n % 2 ? wall[n / 2] :
	    (wall[n / 2 - 1] + wall[n / 2]) / 2, wall[0], maxrss,
	    n % 2 ? cpu[n / 2] : (cpu[n / 2 - 1] + cpu[n / 2]) / 2, cpu[0]);
	return 0;
}
