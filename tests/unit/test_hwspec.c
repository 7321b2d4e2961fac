/* See LICENSE file for copyright and license details. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/hwspec.h"
#include "unit.h"

extern const char tl_default_gpus[];

/*
 * Load text as a user file; 1 if that fails with "FILE:LINE: " and a
 * message containing what.
 */
static int
bad_file(const char *text, int line, const char *what)
{
	char err[512], want[128];
	const char *path = unit_tmpfile(text, strlen(text));
	int rc = tl_hw_load(path, err, sizeof(err)), ok;

	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	ok = rc == -1 && strncmp(err, want, strlen(want)) == 0 &&
	    strstr(err, what) != NULL;
	if (!ok)
		printf("bad_file: rc %d, err \"%s\", want \"%s...%s\"\n", rc,
		    err, want, what);
	unlink(path);
	return ok;
}

static const char *
match(const char *dev, int nsm, long long mem)
{
	const struct tl_hw *hw = tl_hw_match_device_mem(dev, nsm, mem);

	return hw != NULL ? tl_hw_name(hw) : "(null)";
}

static const char *
find(const char *name)
{
	const struct tl_hw *hw = tl_hw_find(name);

	return hw != NULL ? tl_hw_name(hw) : "(null)";
}

/*
 * Every number of the built-in table has a source, and every sparse
 * figure is twice the dense peak, within the 1.3% of the L40S data sheet;
 * the count of numbers is returned.
 */
static int
check_builtin_text(int *nosource, int *badsparse)
{
	char *text = strdup(tl_default_gpus), *line, *next;
	char lastpeak[256] = "";
	double peak = 0;
	int n = 0, header = 0;

	*nosource = *badsparse = 0;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		char *f[5];
		int nf = 1;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (*line == '#' || *line == '\0')
			continue;
		if (!header++)
			continue;
		f[0] = line;
		for (char *p = line; *p != '\0' && nf < 5; p++)
			if (*p == '\t') {
				*p = '\0';
				f[nf++] = p + 1;
			}
		if (nf != 5)
			continue;
		if (strcmp(f[1], "alias") == 0 ||
		    strcmp(f[1], "device_name") == 0 ||
		    strcmp(f[1], "description") == 0 || *f[3] == '\0')
			continue;
		n++;
		if (*f[4] == '\0') {
			printf("no source: %s %s %s\n", f[0], f[1], f[2]);
			(*nosource)++;
		}
		if (strcmp(f[2], "peak") == 0) {
			snprintf(lastpeak, sizeof(lastpeak), "%s %s", f[0],
			    f[1]);
			peak = strtod(f[3], NULL);
		} else if (strcmp(f[2], "sparse") == 0) {
			char key[256];
			double s = strtod(f[3], NULL);

			snprintf(key, sizeof(key), "%s %s", f[0], f[1]);
			if (strcmp(key, lastpeak) != 0 ||
			    fabs(s - 2 * peak) > 0.02 * s) {
				printf("sparse != 2 x peak: %s\n", key);
				(*badsparse)++;
			}
		}
	}
	free(text);
	return n;
}

/* Names, aliases, case and separators. */
static void
names(void)
{
	static const struct {
		const char *name, *gpu;
	} v[] = {
		{ "mi300x", "mi300x" },
		{ "MI300X", "mi300x" },
		{ "Mi300x", "mi300x" },
		{ "mi325x", "mi325x" },
		{ "MI355X", "mi355x" },
		{ "mi250x", "mi250x" },
		{ "mi250", "mi250" },
		{ "mi250-gcd", "mi250" },
		{ "mi210", "mi210" },
		{ "h100", "h100" },
		{ "h100-sxm", "h100" },
		{ "H100_SXM5", "h100" },
		{ "h100 sxm", "h100" },
		{ "h100-pcie", "h100-pcie" },
		{ "H200", "h200" },
		{ "b200", "b200" },
		{ "a100", "a100" },
		{ "A100-SXM4-80GB", "a100" },
		{ "a100-40gb", "a100-40gb" },
		{ "l40s", "l40s" },
		{ "mi300", "(null)" },
		{ "h100x", "(null)" },
		{ "", "(null)" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECK_STR(find(v[i].name), v[i].gpu);
}

/* deviceProperties names, with numSms and totalGlobalMem. */
static void
devices(void)
{
	static const struct {
		const char *dev;
		int nsm;
		long long mem;
		const char *gpu;
	} v[] = {
		{ "AMD Instinct MI300X", 304, 206141652992LL, "mi300x" },
		{ "AMD Instinct MI300X VF", 304, 205571227648LL, "mi300x" },
		{ "amd instinct mi300x", 0, 0, "mi300x" },
		{ "AMD Instinct MI300X HF", 0, 0, "mi300x" },
		{ "AMD Instinct MI300X", 38, 0, "(null)" },
		{ "AMD Instinct MI300XL", 0, 0, "(null)" },
		{ "AMD Instinct MI300A", 0, 0, "(null)" },
		{ "AMD Instinct MI325X", 304, 0, "mi325x" },
		{ "AMD Instinct MI355X", 256, 0, "mi355x" },
		{ "AMD Instinct MI250X", 110, 0, "mi250x" },
		{ "AMD Instinct MI250", 104, 0, "mi250" },
		{ "AMD Instinct MI210", 104, 68702699520LL, "mi210" },
		{ "AMD Radeon Graphics", 0, 0, "(null)" },
		{ "AMD Radeon Graphics", 104, 68702699520LL, "(null)" },
		{ "AMD Radeon Graphics", 12, 0, "(null)" },
		{ "AMD Radeon Graphics", 110, 0, "mi250x" },
		{ "NVIDIA H100 80GB HBM3", 132, 85018279936LL, "h100" },
		{ "NVIDIA H100 PCIe", 114, 0, "h100-pcie" },
		{ "NVIDIA H100 NVL", 132, 0, "h100-nvl" },
		{ "NVIDIA H200", 132, 0, "h200" },
		{ "NVIDIA B200", 0, 0, "b200" },
		{ "NVIDIA A100-SXM4-80GB", 108, 0, "a100" },
		{ "NVIDIA A100-SXM4-40GB", 108, 0, "a100-40gb" },
		{ "NVIDIA A100 80GB PCIe", 108, 0, "a100-pcie" },
		{ "NVIDIA A100-PG509-200", 0, 0, "a100" },
		{ "NVIDIA A100-PG509-200", 108, 42297524224LL, "a100-40gb" },
		{ "NVIDIA A100-PG509-200", 108, 85198045184LL, "a100" },
		{ "NVIDIA L40S", 142, 0, "l40s" },
		{ "NVIDIA GeForce RTX 4090", 128, 0, "rtx4090" },
		{ "NVIDIA GeForce RTX 4090 D", 114, 0, "(null)" },
		{ "", 0, 0, "(null)" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECK_STR(match(v[i].dev, v[i].nsm, v[i].mem), v[i].gpu);
}

/*
 * tl_hw_identify: name, architecture, compute units and memory together,
 * as the traces of TraceLens' and HTA's tests give them; the candidates
 * when ambiguous.
 */
static void
identify(void)
{
	static const struct {
		const char *name, *arch;
		long long cus, mem;
		const char *gpu, *cand;
	} v[] = {
		/* vLLM's MI300X traces: an empty name. */
		{ "", "gfx94", 304, 206141652992LL, "mi300x", "mi300x" },
		{ "", "gfx94", 304, 0, "(null)", "" },
		{ "", "", 304, 206141652992LL, "(null)", "" },
		{ "", "gfx94", 38, 206141652992LL, "(null)", "" },
		/* Same figures with 256 GB: an MI325X. */
		{ "", "gfx94", 304, 274877906944LL, "mi325x", "mi325x" },
		{ "AMD Instinct MI300X", "gfx94", 304, 206141652992LL, "mi300x",
		    "mi300x" },
		{ "AMD Instinct MI300X", "sm_90", 304, 0, "(null)", "" },
		/* "AMD Radeon Graphics": told apart by the CU count only. */
		{ "AMD Radeon Graphics", "gfx90", 110, 68702699520LL, "mi250x",
		    "mi250x" },
		{ "AMD Radeon Graphics", "gfx90", 104, 68702699520LL, "(null)",
		    "mi250, mi210" },
		{ "AMD Radeon Graphics", "gfx94", 104, 68702699520LL, "(null)",
		    "" },
		{ "Tesla V100-SXM2-16GB", "sm_70", 80, 16945512448LL, "v100",
		    "v100" },
		{ "Tesla V100-SXM2-32GB", "sm_70", 80, 34089730048LL,
		    "v100-32gb", "v100-32gb" },
		{ "Tesla V100-PCIE-32GB", "sm_70", 80, 34089730048LL,
		    "v100-pcie", "v100-pcie" },
		{ "NVIDIA B200", "sm_100", 148, 191503138816LL, "b200", "b200" },
		{ "NVIDIA A100-PG509-200", "sm_80", 108, 42505273344LL,
		    "a100-40gb", "a100-40gb" },
		{ "NVIDIA A100-SXM4-80GB", "sm_80", 108, 84990623744LL, "a100",
		    "a100" },
		{ "", "sm_80", 108, 84990623744LL, "(null)", "a100, a100-pcie" },
		{ "", "sm_90", 132, 85018279936LL, "h100", "h100" },
		{ "Tesla T4", "sm_75", 40, 15843721216LL, "(null)", "" },
		/*
		 * A name the table does not know: the figures decide, when
		 * exactly one GPU has them.
		 */
		{ "NVIDIA H800", "sm_90", 132, 85018279936LL, "h100", "h100" },
		{ "NVIDIA GeForce RTX 3090 OC", "sm_86", 82, 25447170048LL,
		    "rtx3090", "rtx3090" },
		{ "NVIDIA RTX A6000 Custom", "sm_86", 84, 51041271808LL,
		    "(null)", "a40, rtxa6000" },
		{ "NVIDIA L40 Custom", "sm_89", 142, 48305930240LL, "(null)",
		    "l40s, l40, rtx6000ada" },
		{ "NVIDIA H800", "sm_90", 132, 0, "(null)", "" },
		/* Variants and workstation and consumer cards by name. */
		{ "Tesla V100-DGXS-32GB", "sm_70", 80, 34087305216LL,
		    "v100-32gb", "v100-32gb" },
		{ "Tesla V100-DGXS-16GB", "sm_70", 80, 16945512448LL, "v100",
		    "v100" },
		{ "Tesla V100S-PCIE-32GB", "sm_70", 80, 34089730048LL, "v100s",
		    "v100s" },
		{ "", "sm_70", 80, 34089730048LL, "(null)", "v100-32gb, v100s" },
		{ "NVIDIA GeForce RTX 2080 Ti", "sm_75", 68, 11554717696LL,
		    "rtx2080ti", "rtx2080ti" },
		{ "GeForce RTX 2080 Ti", "sm_75", 68, 11554717696LL,
		    "rtx2080ti", "rtx2080ti" },
		{ "NVIDIA GeForce RTX 3090", "sm_86", 82, 25447170048LL,
		    "rtx3090", "rtx3090" },
		{ "NVIDIA GeForce RTX 4090", "sm_89", 128, 25393692672LL,
		    "rtx4090", "rtx4090" },
		{ "NVIDIA A10", "sm_86", 72, 23836033024LL, "a10", "a10" },
		{ "NVIDIA A40", "sm_86", 84, 47697362944LL, "a40", "a40" },
		{ "NVIDIA RTX A6000", "sm_86", 84, 51041271808LL, "rtxa6000",
		    "rtxa6000" },
		{ "NVIDIA L4", "sm_89", 58, 23580639232LL, "l4", "l4" },
		{ "NVIDIA L40", "sm_89", 142, 47697362944LL, "l40", "l40" },
		{ "NVIDIA RTX 6000 Ada Generation", "sm_89", 142,
		    51029180416LL, "rtx6000ada", "rtx6000ada" },
		{ "NVIDIA H100 NVL", "sm_90", 132, 100485038080LL, "h100-nvl",
		    "h100-nvl" },
		{ "NVIDIA A100-SXM-80GB", "sm_80", 108, 85198045184LL, "a100",
		    "a100" },
		{ "AMD Instinct MI100", "gfx90", 120, 34342961152LL, "mi100",
		    "mi100" },
		{ "", "gfx90", 120, 34342961152LL, "mi100", "mi100" },
		{ "AMD Radeon PRO W7900", "gfx110", 96, 51522830336LL, "w7900",
		    "w7900" },
	};
	char cand[256], desc[256];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tl_gpuid id = { v[i].name, v[i].arch, v[i].cus,
			v[i].mem, NULL };
		const struct tl_hw *hw = tl_hw_identify(&id, cand,
		    sizeof(cand));

		CHECK_STR(hw != NULL ? tl_hw_name(hw) : "(null)", v[i].gpu);
		CHECK_STR(cand, v[i].cand);
	}
	{
		struct tl_gpuid id = { "AMD Radeon Graphics", "gfx90", 104,
			68702699520LL, NULL };
		struct tl_gpuid none = { NULL, NULL, 0, 0, NULL };
		struct tl_gpuid volta = { NULL, NULL, 0, 0, "sm_70" };
		struct tl_gpuid mi = { NULL, NULL, 0, 0, "gfx942" };

		tl_gpuid_describe(&id, desc, sizeof(desc));
		CHECK_STR(desc, "GPU 'AMD Radeon Graphics' (gfx90, 104 compute "
		    "units, 64.0 GiB)");
		tl_gpuid_describe(&none, desc, sizeof(desc));
		CHECK_STR(desc, "GPU");
		/* The kernels' architecture where the trace names no GPU. */
		tl_gpuid_unknown(&volta, "", desc, sizeof(desc));
		CHECK_STR(desc, "GPU is not named: the trace has no "
		    "deviceProperties; its kernels were built for sm_70 "
		    "(Volta) or later");
		tl_gpuid_unknown(&mi, "", desc, sizeof(desc));
		CHECK_STR(desc, "GPU is not named: the trace has no "
		    "deviceProperties; its kernels were built for gfx942 "
		    "(CDNA 3)");
		tl_gpuid_unknown(&id, "mi250, mi210", desc, sizeof(desc));
		CHECK_STR(desc, "GPU 'AMD Radeon Graphics' (gfx90, 104 compute "
		    "units, 64.0 GiB) could be any of mi250, mi210");
	}
}

#define HDR "gpu\tkey\tkind\tvalue\tsource\n"

/* Bad files: -1 and "FILE:LINE: what". */
static void
bad_files(void)
{
	static const struct {
		const char *text;
		int line;
		const char *what;
	} v[] = {
		{ "", 1, "no header line" },
		{ "# only a comment\n\n", 3, "no header line" },
		{ "gpu\tkey\tkind\tvalue\n", 1, "no column 'source'" },
		{ "gpu\tkey\tkind\tvalue\tsource\tgpu\n", 1, "twice" },
		{ HDR, 1, "no rows" },
		{ HDR "x\tmatrix_bf16\tpeak\t1\ts\nx\tmatrix_bf16\tpeak\n",
		    3, "3 fields, the header has 5" },
		{ HDR "x\tmatrix_bf16\tpeak\t1\ts\textra\n", 2, "6 fields" },
		{ HDR "x\n", 2, "1 field, the header has 5" },
		{ HDR "x\tmatrix_bf16\tpeak\tabc\ts\n", 2,
		    "not a number 'abc'" },
		{ HDR "x\tmatrix_bf16\tpeak\t12x\ts\n", 2, "not a number" },
		{ HDR "x\tmatrix_bf16\tpeak\tnan\ts\n", 2, "not a number" },
		{ HDR "x\tmatrix_bf16\tpeak\tinf\ts\n", 2, "not a number" },
		{ HDR "x\tmatrix_bf16\tpeak\t0x10\ts\n", 2, "not a number" },
		{ HDR "x\tmatrix_bf16\tpeak\t1e999\ts\n", 2, "not a number" },
		{ HDR "x\tmatrix_bf16\tpeak\t1,5\ts\n", 2, "not a number" },
		{ HDR "x\tmatrix_bf16\tpeak\t-3\ts\n", 2, "negative value" },
		{ HDR "x\thbm_tbs\tpeak\t0\ts\n", 2, "zero" },
		{ HDR "x\tmatrix_bf16\tpeak\t1\ts\ny\tmemory_gb\t\t8\ts\n"
		    "x\tmatrix_bf16\tpeak\t2\ts\n", 4,
		    "duplicate row for x matrix_bf16 peak (first at line 2)" },
		{ HDR "x\tmemory_gb\t\t1\ts\nX\tmemory_gb\t\t2\ts\n", 3,
		    "duplicate row for x memory_gb (first at line 2)" },
		{ HDR "x\tdevice_name\t\tA*\ts\nx\tdevice_name\t\ta*\ts\n",
		    3, "duplicate" },
		{ HDR "x\tflops\tpeak\t1\ts\n", 2, "unknown key 'flops'" },
		{ HDR "x\tmatrix_\tpeak\t1\ts\n", 2, "unknown key" },
		{ HDR "x\tmatrix_bf16\tdense\t1\ts\n", 2,
		    "must be peak, sparse or achievable, not 'dense'" },
		{ HDR "x\thbm_tbs\tsparse\t1\ts\n", 2,
		    "must be peak or achievable" },
		{ HDR "x\tmemory_gb\tpeak\t1\ts\n", 2,
		    "kind of memory_gb must be empty" },
		{ HDR "x\tdevice_name\tfirst\tX\ts\n", 2, "empty or default" },
		{ HDR "x\tdevice_name\t\t*\ts\n", 2, "empty device_name" },
		{ HDR "x\tdevices_per_package\t\t1.5\ts\n", 2,
		    "not a positive whole number" },
		{ HDR "x\tcompute_units\t\t-4\ts\n", 2,
		    "not a positive whole number" },
		{ HDR "bad name\tmemory_gb\t\t1\ts\n", 2, "bad gpu name" },
		{ HDR "\tmemory_gb\t\t1\ts\n", 2, "bad gpu name" },
		{ HDR "x\talias\t\ty z\ts\n", 2, "bad alias" },
		{ HDR "x\tmemory_gb\t\t1\ts\ny\talias\t\tX\ts\n", 3,
		    "is the name of x" },
		{ HDR "x\talias\t\tq\ts\ny\talias\t\tQ\ts\n", 3,
		    "repeats line 2" },
		{ HDR "x\tdevice_name\tdefault\tD\ts\n"
		    "y\tdevice_name\tdefault\td\ts\n", 3,
		    "already the default of x" },
		{ HDR "x\tmatrix_bf16\tpeak\t1e-999\ts\n", 2, "out of range" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECK(bad_file(v[i].text, v[i].line, v[i].what));
}

int
main(void)
{
	static const char *const specs[] = {
		"matrix_fp64", "matrix_fp32", "matrix_tf32", "matrix_fp16",
		"matrix_bf16", "matrix_fp8", "matrix_int8", "matrix_fp4",
		"vector_fp64", "vector_fp32", "vector_fp16", "vector_bf16"
	};
	const struct tl_hw *hw, *mi300;
	const char *used, *src;
	char err[512], *text = NULL;
	size_t size = 0, i, j;
	int nosource, badsparse, above = 0;
	FILE *fp;

	/* The built-in table loads, with a source for each number. */
	CHECK(tl_hw_load(NULL, err, sizeof(err)) == 0);
	CHECK_STR(err, "");
	CHECK(tl_hw_count() >= 14);
	CHECK(check_builtin_text(&nosource, &badsparse) > 200);
	CHECK(nosource == 0);
	CHECK(badsparse == 0);

	names();
	CHECK(tl_hw_find(NULL) == NULL);

	/* MI300X: TraceLens' achievable roof against the data-sheet peak. */
	mi300 = hw = tl_hw_find("mi300x");
	CHECK(hw != NULL);
	CHECK_STR(tl_hw_description(hw),
	    "AMD Instinct MI300X (OAM, CDNA 3), 304 CUs, 192 GB HBM3");
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_ACHIEVABLE, &used,
	    &src) == 708);
	CHECK_STR(used, "achievable");
	CHECK(strstr(src, "TraceLens") != NULL);
	CHECK(tl_hw_figure(hw, "matrix_bf16", TL_FIG_ACHIEVABLE, NULL) == 708);
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_PEAK, &used, &src) ==
	    1307.4);
	CHECK_STR(used, "peak");
	CHECK(strstr(src, "rocm.docs.amd.com") != NULL);
	CHECK(tl_hw_tflops(hw, "MATRIX_BF16", TL_ROOF_PEAK, NULL, NULL) ==
	    1307.4);
	CHECK(tl_hw_tflops(hw, "matrix_fp16", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    654);
	CHECK(tl_hw_tflops(hw, "matrix_fp8", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    1273);
	CHECK(tl_hw_tflops(hw, "matrix_int8", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    2600);
	CHECK(tl_hw_tflops(hw, "vector_fp32", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    81);
	CHECK(tl_hw_tflops(hw, "matrix_tf32", TL_ROOF_ACHIEVABLE, &used, NULL) ==
	    653.7);	/* no achievable figure: the peak stands in */
	CHECK_STR(used, "peak");
	CHECK(tl_hw_figure(hw, "matrix_tf32", TL_FIG_ACHIEVABLE, &src) == 0);
	CHECK(src == NULL);
	/* Vector FP16: measured, but no published peak: it stands in. */
	CHECK(tl_hw_tflops(hw, "vector_fp16", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    163);
	CHECK(tl_hw_tflops(hw, "vector_fp16", TL_ROOF_PEAK, &used, NULL) ==
	    163);
	CHECK_STR(used, "achievable");
	CHECK(tl_hw_figure(hw, "vector_fp16", TL_FIG_PEAK, NULL) == 0);
	CHECK(tl_hw_tflops(hw, "matrix_fp4", TL_ROOF_ACHIEVABLE, NULL, NULL) == 0);
	CHECK(tl_hw_tflops(hw, "", TL_ROOF_ACHIEVABLE, NULL, NULL) == 0);
	CHECK(tl_hw_tflops(hw, NULL, TL_ROOF_ACHIEVABLE, NULL, NULL) == 0);
	CHECK(tl_hw_figure(hw, "matrix_bf16", TL_FIG_SPARSE, &src) == 2614.9);
	CHECK(strstr(src, "data sheet") != NULL);
	CHECK(tl_hw_figure(hw, "vector_fp32", TL_FIG_SPARSE, NULL) == 0);
	CHECK(tl_hw_figure(hw, "hbm_tbs", TL_FIG_PEAK, NULL) == 5.3);
	CHECK(tl_hw_figure(hw, "hbm_tbs", TL_FIG_ACHIEVABLE, NULL) == 0);
	CHECK_STR(tl_figkind_name(TL_FIG_SPARSE), "sparse");
	/* Bandwidth: no achievable figure, so every roof is the peak. */
	CHECK(tl_hw_hbm(hw, TL_ROOF_ACHIEVABLE, &used, &src) == 5.3);
	CHECK_STR(used, "peak");
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_ACHIEVABLE, NULL) == 5.3);
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_PEAK, &src) == 5.3);
	CHECK(tl_hw_memory_gb(hw) == 192);
	CHECK(tl_hw_devices_per_package(hw) == 1);
	CHECK(tl_hw_compute_units(hw) == 304);

	/* MI325X: TraceLens' own MAF figures. */
	hw = tl_hw_find("mi325x");
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    843);
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_PEAK, NULL, NULL) ==
	    1307.4);
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_ACHIEVABLE, NULL) == 6);
	CHECK(tl_hw_memory_gb(hw) == 256);

	/* H100: no achievable figures, so the dense peak stands in. */
	hw = tl_hw_find("h100");
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_ACHIEVABLE, &used, &src) ==
	    989.4);
	CHECK_STR(used, "peak");
	CHECK(strstr(src, "whitepaper") != NULL);
	CHECK(tl_hw_figure(hw, "matrix_bf16", TL_FIG_ACHIEVABLE, NULL) == 0);
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_PEAK, NULL, NULL) ==
	    989.4);
	CHECK(tl_hw_figure(hw, "matrix_bf16", TL_FIG_SPARSE, NULL) == 1978.9);
	CHECK(tl_hw_tflops(hw, "matrix_fp8", TL_ROOF_PEAK, NULL, NULL) ==
	    1978.9);
	CHECK(tl_hw_tflops(hw, "matrix_tf32", TL_ROOF_PEAK, NULL, NULL) ==
	    494.7);
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_ACHIEVABLE, NULL) == 3.35);
	CHECK(tl_hw_memory_gb(hw) == 80);
	CHECK(tl_hw_compute_units(hw) == 132);
	CHECK(tl_hw_tflops(tl_hw_find("h100-pcie"), "matrix_bf16",
	    TL_ROOF_PEAK, NULL, NULL) == 756);
	CHECK(tl_hw_hbm_tbs(tl_hw_find("h200"), TL_ROOF_PEAK, NULL) == 4.8);
	CHECK(tl_hw_tflops(tl_hw_find("b200"), "matrix_bf16", TL_ROOF_PEAK,
	    NULL, NULL) == 2250);
	CHECK(tl_hw_tflops(tl_hw_find("b200"), "matrix_fp4", TL_ROOF_PEAK,
	    NULL, NULL) == 9000);

	/* A100 has no FP8; the 40 GB part differs in bandwidth only. */
	hw = tl_hw_find("a100");
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_ACHIEVABLE, NULL, NULL) ==
	    312);
	CHECK(tl_hw_tflops(hw, "matrix_fp8", TL_ROOF_ACHIEVABLE, &used, &src) ==
	    0);
	CHECK(used == NULL && src == NULL);
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_PEAK, NULL) == 2.039);
	CHECK(tl_hw_hbm_tbs(tl_hw_find("a100-40gb"), TL_ROOF_PEAK, NULL) ==
	    1.555);

	/* MI250X and MI250: per GCD, two devices per package. */
	hw = tl_hw_find("mi250x");
	CHECK(tl_hw_devices_per_package(hw) == 2);
	CHECK(tl_hw_tflops(hw, "matrix_fp16", TL_ROOF_PEAK, NULL, NULL) ==
	    191.5);
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_PEAK, NULL) == 1.6);
	CHECK(tl_hw_memory_gb(hw) == 64);
	CHECK(tl_hw_compute_units(hw) == 110);
	hw = tl_hw_find("mi250");
	CHECK(tl_hw_devices_per_package(hw) == 2);
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_PEAK, NULL, NULL) ==
	    181.05);
	CHECK(tl_hw_hbm_tbs(hw, TL_ROOF_PEAK, NULL) == 1.6);
	hw = tl_hw_find("mi210");
	CHECK(tl_hw_devices_per_package(hw) == 1);
	CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_PEAK, NULL, NULL) ==
	    181);
	CHECK(tl_hw_memory_gb(hw) == 64);

	/*
	 * Achievable never exceeds the peak, except two MI325X figures
	 * copied from TraceLens (their sources say so).
	 */
	for (i = 0; i < tl_hw_count(); i++)
		for (j = 0; j < sizeof(specs) / sizeof(specs[0]); j++) {
			double a, p;

			hw = tl_hw_at(i);
			a = tl_hw_figure(hw, specs[j], TL_FIG_ACHIEVABLE,
			    NULL);
			p = tl_hw_figure(hw, specs[j], TL_FIG_PEAK, NULL);
			if (a > 0 && p > 0 && a > p) {
				const char *s = NULL;

				above++;
				CHECK_STR(tl_hw_name(hw), "mi325x");
				CHECK(strcmp(specs[j], "matrix_fp32") == 0 ||
				    strcmp(specs[j], "matrix_int8") == 0);
				tl_hw_figure(hw, specs[j], TL_FIG_ACHIEVABLE,
				    &s);
				CHECK(strstr(s, "above the") != NULL);
			}
		}
	CHECK(above == 2);
	CHECK(tl_hw_at(tl_hw_count()) == NULL);

	CHECK(tl_hw_match_device("AMD Instinct MI300X", 0) == mi300);
	devices();
	identify();
	CHECK(tl_hw_match_device("NVIDIA A100-PG509-200", 108) ==
	    tl_hw_find("a100"));
	CHECK(tl_hw_match_device(NULL, 0) == NULL);

	/* --hw list: the table prints back in its own format, and reloads. */
	fp = open_memstream(&text, &size);
	tl_hw_print(fp, 0);
	fclose(fp);
	CHECK(strncmp(text, "gpu\tkey\tkind\tvalue\tsource\n", 26) == 0);
	CHECK(strstr(text, "mi300x\tmatrix_bf16\tachievable\t708\t") != NULL);
	unit_tmpfile(text, size);
	CHECK(tl_hw_load(unit_tmp, err, sizeof(err)) == 0);
	unlink(unit_tmp);
	CHECK(tl_hw_tflops(tl_hw_find("mi300x"), "matrix_bf16", TL_ROOF_ACHIEVABLE,
	    NULL, NULL) == 708);
	CHECK(tl_hw_count() >= 14);
	free(text);
	text = NULL;
	fp = open_memstream(&text, &size);
	tl_hw_print(fp, 1);
	fclose(fp);
	CHECK(strncmp(text, "gpu,key,kind,value,source\n", 26) == 0);
	free(text);
	text = NULL;
	fp = open_memstream(&text, &size);
	tl_hw_print_gpus(fp, 0);
	fclose(fp);
	CHECK(strncmp(text, "gpu\taliases\tdescription\thbm_tbs\t", 32) == 0);
	CHECK(strstr(text, "\nh100\t[\"h100-sxm\",\"h100-sxm5\"]\t") != NULL);
	CHECK(strstr(text, "\nmi300x\t[]\tAMD Instinct MI300X (OAM, CDNA 3), "
	    "304 CUs, 192 GB HBM3\t5.3\t\t192\t1\t304\t1307.4\t708\n") !=
	    NULL);
	free(text);
	/*
	 * --hw show: every figure with its kind, which run kind uses it
	 * (a stand-in where the GPU lacks the run's kind) and its source.
	 */
	text = NULL;
	fp = open_memstream(&text, &size);
	tl_hw_print_roofs(fp, 0, NULL);
	fclose(fp);
	CHECK(strncmp(text, "gpu\tkey\tkind\tvalue\troof_achievable\t"
	    "roof_peak\tsource\n", 52) == 0);
	CHECK(strstr(text, "\nmi300x\tmatrix_bf16\tachievable\t708\tyes\t"
	    "\tTraceLens ") != NULL);
	CHECK(strstr(text, "\nmi300x\tmatrix_bf16\tpeak\t1307.4\t\tyes\t"
	    "ROCm docs") != NULL);
	CHECK(strstr(text, "\nmi300x\tmatrix_bf16\tsparse\t2614.9\t\t\t")
	    != NULL);
	CHECK(strstr(text, "\nmi300x\tvector_bf16\tachievable\t163\tyes\t"
	    "stand-in\t") != NULL);
	CHECK(strstr(text, "\nmi300x\thbm_tbs\tpeak\t5.3\tstand-in\tyes\t")
	    != NULL);
	CHECK(strstr(text, "\nh100\tmatrix_bf16\tpeak\t989.4\tstand-in\t"
	    "yes\t") != NULL);
	free(text);
	text = NULL;
	fp = open_memstream(&text, &size);
	tl_hw_print_roofs(fp, 1, tl_hw_find("h100"));
	fclose(fp);
	CHECK(strstr(text, "mi300x") == NULL);
	CHECK(strstr(text, "\nh100,vector_fp32,peak,66.9,stand-in,yes,") !=
	    NULL);
	free(text);

	/* A user's file: comments, CRLF, extra columns, any column order. */
	{
		static const char user[] =
		    "# My lab's GPUs.\r\n"
		    "\r\n"
		    "gpu\tnote\tkey\tvalue\tkind\tsource\r\n"
		    "labgpu\tx\thbm_tbs\t2.5\tpeak\tspec sheet\r\n"
		    "labgpu\t\thbm_tbs\t2.0\tachievable\tmeasured\r\n"
		    "labgpu\t\tmatrix_bf16\t 400 \tpeak\tspec sheet\r\n"
		    "labgpu\t\tmatrix_bf16\t300\tachievable\tmeasured\r\n"
		    "labgpu\t\tmatrix_fp8\t\tpeak\tunknown\r\n"
		    "labgpu\t\talias\tLab-GPU\t\t\r\n"
		    "labgpu\t\tdevice_name\tLab GPU *\t\t\r\n"
		    "labgpu\t\tdescription\ta\\tb\t\t\n";

		unit_tmpfile(user, sizeof(user) - 1);
		CHECK(tl_hw_load(unit_tmp, err, sizeof(err)) == 0);
		unlink(unit_tmp);
		CHECK(tl_hw_count() == 1);
		CHECK(tl_hw_find("mi300x") == NULL);
		hw = tl_hw_find("lab_gpu");
		CHECK(hw != NULL);
		CHECK(tl_hw_hbm(hw, TL_ROOF_ACHIEVABLE, &used, &src) == 2.0);
		CHECK_STR(used, "achievable");
		CHECK_STR(src, "measured");
		CHECK(tl_hw_figure(hw, "hbm_tbs", TL_FIG_ACHIEVABLE, NULL) ==
		    2.0);
		CHECK(tl_hw_hbm(hw, TL_ROOF_PEAK, &used, NULL) == 2.5);
		CHECK_STR(used, "peak");
		CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_ACHIEVABLE, NULL,
		    NULL) == 300);
		CHECK(tl_hw_tflops(hw, "matrix_bf16", TL_ROOF_PEAK, NULL,
		    NULL) == 400);
		CHECK(tl_hw_tflops(hw, "matrix_fp8", TL_ROOF_ACHIEVABLE, NULL,
		    NULL) == 0);
		CHECK(tl_hw_memory_gb(hw) == 0);
		CHECK(tl_hw_devices_per_package(hw) == 1);
		CHECK_STR(tl_hw_description(hw), "a\tb");
		CHECK_STR(match("lab gpu 2", 0, 0), "labgpu");
	}

	/* Bad files: -1 and "FILE:LINE: what"; the table stays. */
	CHECK(tl_hw_load(NULL, err, sizeof(err)) == 0);
	bad_files();
	{
		static const char nul[] = HDR "x\tmemory_gb\t\t1\ts\n\0\n";

		unit_tmpfile(nul, sizeof(nul) - 1);
		CHECK(tl_hw_load(unit_tmp, err, sizeof(err)) == -1);
		CHECK(strstr(err, ":3: NUL byte") != NULL);
		unlink(unit_tmp);
	}
	CHECK(tl_hw_load("/nonexistent/gpus.tsv", err, sizeof(err)) == -1);
	CHECK_STR(err, "/nonexistent/gpus.tsv: No such file or directory");
	/* A message is cut to the buffer, never overrun. */
	{
		char small[8];

		CHECK(tl_hw_load("/nonexistent/gpus.tsv", small,
		    sizeof(small)) == -1);
		CHECK(strlen(small) == 7);
		CHECK(tl_hw_load("/nonexistent/gpus.tsv", NULL, 0) == -1);
	}
	/* After all those failures the built-in table is still there. */
	CHECK(tl_hw_find("mi300x") != NULL);
	CHECK(tl_hw_tflops(tl_hw_find("mi300x"), "matrix_bf16", TL_ROOF_ACHIEVABLE,
	    NULL, NULL) == 708);
	return unit_done("test_hwspec");
}
