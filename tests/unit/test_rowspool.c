/* See LICENSE file for copyright and license details. */
/*
 * lib/analysis/rowspool: rows in, the same rows out, byte for byte, with
 * their notes: blocks that recur (found on the first rows, or named),
 * kernel names, texts too long or too short for the slots, names with
 * escapes, empty fields, fields apart by tabs or by NULs (a split line),
 * a tail of other columns, the caller's texts by number (one added
 * half-way), more rows than one write holds.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rowspool.h"
#include "common/util.h"
#include "unit.h"

#define NF 12
#define ROWS 6000

/* The caller's texts: text[2] is added at row ROWS / 2. */
static const char *const text[3] = {
	"\tperf_model\t1024\t2048\t0.5\tfp16\t{\"M\":128}",
	"",
	"\tmi300x\tachievable\t163.4",
};

struct note {
	long row;
	double x;
};

static uint64_t seed;

static unsigned
rnd(unsigned n)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(seed >> 33) % n;
}

/* s filled with n bytes of letter-ish text from key k. */
static void
fill(char *s, size_t n, unsigned k)
{
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = (char)('a' + (k * 7 + i * 13 + i / 5) % 26);
}

/*
 * Row r's fields into buf (apart by sep), their starts and lengths; the
 * row's text as it must come back (tabs) into want; its length.
 */
static size_t
make_row(long r, char *buf, char **f, size_t *n, char sep, char *want)
{
	static char field[NF][8192];
	static const char *names[] = {
		"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x96x128",
		"void at::native::elementwise_kernel<128, 4>(int, float)",
		"ck_fmha_fwd_d128_bf16_batch_b128x128x32_a1_c1_d1_e0",
		"short",
		"has\\\\escape_in_it_and_is_long_enough_for_a_slot",
	};
	size_t len[NF], at = 0, w = 0;
	char k[4096];
	int i, j, m;

	/* 0: the trace, constant; 7..9: the trace's figures, constant */
	len[0] = (size_t)snprintf(field[0], 8192, "/traces/t%d.json",
	    r < 4000 ? 1 : 2);
	for (i = 7; i <= 9; i++)
		len[i] = (size_t)snprintf(field[i], 8192, "%d.%03d", i * 1000,
		    r < 4000 ? i : i + 1);
	/* 1..3: numbers of every row */
	for (i = 1; i <= 3; i++)
		len[i] = (size_t)snprintf(field[i], 8192, "%ld.%u", r * 37 + i,
		    rnd(1000));
	/* 4: kernels, named from the pool */
	m = (int)rnd(4);
	j = snprintf(k, sizeof(k), "[");
	for (i = 0; i < m; i++)
		j += snprintf(k + j, sizeof(k) - (size_t)j,
		    "%s{\"uid\":%u,\"name\":\"%s\",\"ts\":%ld.5}",
		    i > 0 ? "," : "", rnd(100000), names[rnd(5)], r);
	j += snprintf(k + j, sizeof(k) - (size_t)j, "]");
	memcpy(field[4], k, (size_t)j);
	len[4] = (size_t)j;
	/* 5: a call stack from 40, some past the slots' length */
	j = (int)rnd(40);
	len[5] = j == 3 ? 3000 : j == 4 ? 5 : 100 + (size_t)j * 37;
	fill(field[5], len[5], (unsigned)j);
	if (j == 6) {	/* as 5 but for one byte: the slot is 5's */
		len[5] = 100 + 5 * 37;
		fill(field[5], len[5], 5);
		field[5][10] = 'Z';
	}
	/* 6: empty, or varying */
	len[6] = rnd(3) == 0 ? 0 : (size_t)snprintf(field[6], 8192, "v%u",
	    rnd(50));
	/* 10: long, varying length; 11: short */
	len[10] = 16 + rnd(200);
	fill(field[10], len[10], rnd(3));
	len[11] = (size_t)snprintf(field[11], 8192, "%u", rnd(10));
	for (i = 0; i < NF; i++) {
		f[i] = buf + at;
		n[i] = len[i];
		memcpy(buf + at, field[i], len[i]);
		at += len[i];
		buf[at++] = i + 1 < NF ? sep : '\0';
		if (i > 0)
			want[w++] = '\t';
		memcpy(want + w, field[i], len[i]);
		w += len[i];
	}
	return w;
}

int
main(void)
{
	static char buf[2][64 * 1024], want[64 * 1024];
	char *f[2][NF], *got = NULL, *rw = NULL;
	size_t n[2][NF], wn, glen = 0, gcap = 0, rwcap = 0;
	struct tl_rowspool *sp;
	struct note nt, back;
	const char *dir;
	long r, bad = 0, rows = 0;
	unsigned id[3];
	int c, res;

	/* No directory: NULL and errno. */
	setenv("TMPDIR", "/nonexistent/tl-test", 1);
	errno = 0;
	CHECK(tl_rowspool_new(sizeof(nt), &dir) == NULL && errno != 0);
	CHECK_STR(dir, "/nonexistent/tl-test");
	unsetenv("TMPDIR");

	sp = tl_rowspool_new(sizeof(nt), &dir);
	CHECK(sp != NULL);
	if (sp == NULL)
		return unit_done("test_rowspool");
	tl_rowspool_share(sp, 5);
	tl_rowspool_kernels(sp, 4);
	id[0] = tl_rowspool_text(sp, text[0], strlen(text[0]));
	id[1] = tl_rowspool_text(sp, text[1], strlen(text[1]));
	seed = 1;
	for (r = 0; r < ROWS; r++) {
		c = (int)(r & 1);	/* the row before stays as it was */
		make_row(r, buf[c], f[c], n[c], r % 3 ? '\0' : '\t', want);
		tl_rowspool_row(sp, f[c], n[c], NF);
		if (r == ROWS / 2)
			id[2] = tl_rowspool_text(sp, text[2], strlen(text[2]));
		if (r % 5 == 0)
			tl_rowspool_tail(sp, "\ttail\t1.5", 9);
		if (r % 7 < (r < ROWS / 2 ? 2 : 3)) {	/* then a tail */
			tl_rowspool_ref(sp, id[r % 7]);
			tl_rowspool_tail(sp, "\tx", 2);
		}
		nt.row = r;
		nt.x = (double)r / 3;
		CHECK(tl_rowspool_end(sp, &nt) == 0);
	}
	CHECK(tl_rowspool_rewind(sp) == 0);
	seed = 1;
	for (r = 0; r < ROWS; r++) {
		wn = make_row(r, buf[0], f[0], n[0], '\t', want);
		if (r % 5 == 0) {
			memcpy(want + wn, "\ttail\t1.5", 9);
			wn += 9;
		}
		if (r % 7 < (r < ROWS / 2 ? 2 : 3)) {
			memcpy(want + wn, text[r % 7], strlen(text[r % 7]));
			wn += strlen(text[r % 7]);
			memcpy(want + wn, "\tx", 2);
			wn += 2;
		}
		/* Appended to what the buffer holds. */
		glen = r % 2 ? 0 : 3;
		tl_grow(&got, &gcap, 4, 1);
		memcpy(got, "abc", 3);
		if ((res = tl_rowspool_next(sp, &got, &glen, &gcap, &back)) != 1)
			break;
		rows++;
		if (glen - (r % 2 ? 0 : 3) != wn || memcmp(got + (r % 2 ? 0 : 3),
		    want, wn) != 0 || memcmp(got, "abc", r % 2 ? 0 : 3) != 0 ||
		    back.row != r || back.x != (double)r / 3) {
			if (bad++ < 3)
				printf("row %ld differs\n", r);
		}
	}
	CHECK(rows == ROWS);
	CHECK(bad == 0);
	CHECK(tl_rowspool_next(sp, &got, &glen, &gcap, &back) == 0);
	tl_rowspool_free(sp);

	/* A spool of no rows. */
	sp = tl_rowspool_new(sizeof(nt), &dir);
	CHECK(sp != NULL && tl_rowspool_rewind(sp) == 0);
	glen = 0;
	CHECK(sp != NULL && tl_rowspool_next(sp, &rw, &glen, &rwcap, &back) ==
	    0 && glen == 0);
	tl_rowspool_free(sp);
	free(got);
	free(rw);
	return unit_done("test_rowspool");
}
