/* See LICENSE file for copyright and license details. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/json.h"
#include "common/util.h"
#include "trace/devprops.h"

enum vendor { V_UNKNOWN, V_AMD, V_NVIDIA };

/* An integer member of object obj, or -1. */
static long long
int_member(const struct tl_json *j, int obj, const char *key)
{
	int tk = tl_json_get(j, obj, key, strlen(key));
	const char *s;
	size_t n;
	int64_t v;

	if (tk < 0 || tl_json_type(j, tk) != TL_J_PRIM)
		return -1;
	s = tl_json_text(j, tk, &n);
	if (tl_parse_i64(s, n, &v) < 0)
		return -1;
	return (long long)v;
}

static int
has_member(const struct tl_json *j, int obj, const char *key)
{
	return tl_json_get(j, obj, key, strlen(key)) >= 0;
}

/*
 * The vendor: from the name when it says, else from what Kineto's ROCm
 * build writes (maxSharedMemoryPerMultiProcessor) or its CUPTI build
 * writes (sharedMemPerBlockOptin), else from the wavefront of CDNA (64).
 */
static enum vendor
vendor(const struct tl_json *j, int obj, const char *name)
{
	static const char *const nv[] = { "NVIDIA", "Tesla", "Quadro",
		"GeForce" };
	size_t i;

	if (name != NULL && (strncasecmp(name, "AMD", 3) == 0 ||
	    strstr(name, "Radeon") != NULL || strstr(name, "Instinct") != NULL))
		return V_AMD;
	for (i = 0; name != NULL && i < sizeof(nv) / sizeof(nv[0]); i++)
		if (strncasecmp(name, nv[i], strlen(nv[i])) == 0)
			return V_NVIDIA;
	if (has_member(j, obj, "maxSharedMemoryPerMultiProcessor"))
		return V_AMD;
	if (int_member(j, obj, "warpSize") == 64)
		return V_AMD;
	if (has_member(j, obj, "sharedMemPerBlockOptin") ||
	    has_member(j, obj, "regsPerMultiprocessor"))
		return V_NVIDIA;
	return V_UNKNOWN;
}

void
tl_devprops_parse(const char *val, size_t len, struct tl_gpuinfo *g)
{
	struct tl_json j;
	const char *err, *s;
	long long major, minor, v;
	size_t n;
	int tk;

	tl_json_init(&j);
	if (tl_json_parse(&j, val, len, &err) <= 0 ||
	    tl_json_type(&j, 0) != TL_J_ARRAY || tl_json_size(&j, 0) == 0 ||
	    tl_json_type(&j, 1) != TL_J_OBJECT) {
		tl_json_free(&j);
		return;
	}
	if ((tk = TL_JSON_GET(&j, 1, "name")) >= 0 &&
	    tl_json_type(&j, tk) == TL_J_STRING) {
		s = tl_json_text(&j, tk, &n);
		free(g->name);
		g->name = tl_malloc(n + 1);
		tl_json_unescape(g->name, s, n);
	}
	major = int_member(&j, 1, "computeMajor");
	minor = int_member(&j, 1, "computeMinor");
	g->arch[0] = '\0';
	if (major >= 0 && minor >= 0 && major < 1000 && minor < 100)
		switch (vendor(&j, 1, g->name)) {
		case V_AMD:
			snprintf(g->arch, sizeof(g->arch), "gfx%lld%lld", major,
			    minor);
			break;
		case V_NVIDIA:
			snprintf(g->arch, sizeof(g->arch), "sm_%lld%lld", major,
			    minor);
			break;
		case V_UNKNOWN:
			break;
		}
	if ((v = int_member(&j, 1, "numSms")) > 0)
		g->compute_units = v;
	if ((v = int_member(&j, 1, "totalGlobalMem")) > 0)
		g->memory_bytes = v;
	tl_json_free(&j);
}

/*
 * The prefixes of NVIDIA's cuBLAS and cuDNN kernels, named for the
 * architecture they were compiled for (volta_sgemm_128x64_nn,
 * ampere_scudnn_128x64_relu_...); Maxwell-era names have no later form.
 */
static const struct {
	const char *prefix;
	int cc;
} nv_prefix[] = {
	{ "maxwell_", 50 }, { "volta_", 70 }, { "turing_", 75 },
	{ "ampere_", 80 }
};

/* The decimal digits at s, at most 3, as a number; -1 for none. */
static int
digits(const char *s, const char **end)
{
	int v = 0, n = 0;

	while (n < 3 && s[n] >= '0' && s[n] <= '9')
		v = v * 10 + (s[n++] - '0');
	*end = s + n;
	return n >= 2 ? v : -1;
}

/* A compute capability after each occurrence of pat in name; -1. */
static int
cc_after(const char *name, const char *pat, char next)
{
	const char *p = name, *e;
	int cc, best = -1;

	while ((p = strstr(p, pat)) != NULL) {
		p += strlen(pat);
		if ((cc = digits(p, &e)) >= 0 && (next == '\0' || *e == next) &&
		    cc > best)
			best = cc;
	}
	return best;
}

/* The AMD ISA after pat ("ISA" or "gfx"): 3 or 4 hex digits; 0 = none. */
static int
isa_after(const char *name, const char *pat, char *arch, size_t len)
{
	const char *p = name;
	size_t n;

	while ((p = strstr(p, pat)) != NULL) {
		p += strlen(pat);
		for (n = 0; n < 4 && ((p[n] >= '0' && p[n] <= '9') ||
		    (p[n] >= 'a' && p[n] <= 'f')); n++)
			;
		if (n >= 3 && p[0] >= '0' && p[0] <= '9' &&
		    !((p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' &&
		    p[n] <= 'z'))) {
			snprintf(arch, len, "gfx%.*s", (int)n, p);
			return 1;
		}
	}
	return 0;
}

int
tl_kernel_name_arch(const char *name, char *arch, size_t len)
{
	const char *e;
	size_t i;
	int cc = -1, c;

	if (isa_after(name, "_ISA", arch, len) || isa_after(name, "gfx", arch,
	    len))
		return 1;
	for (i = 0; i < sizeof(nv_prefix) / sizeof(nv_prefix[0]); i++)
		if (strncmp(name, nv_prefix[i].prefix,
		    strlen(nv_prefix[i].prefix)) == 0)
			cc = nv_prefix[i].cc;
	/* sm80_xmma_..., sm90_xmma_... (cuBLAS, cuDNN) */
	if (strncmp(name, "sm", 2) == 0 && (c = digits(name + 2, &e)) >= 0 &&
	    *e == '_' && c > cc)
		cc = c;
	/* CUTLASS: cutlass_80_tensorop_..., cutlass::arch::Sm80 */
	if ((c = cc_after(name, "cutlass_", '_')) > cc)
		cc = c;
	if ((c = cc_after(name, "arch::Sm", '\0')) > cc)
		cc = c;
	if (cc < 0)
		return 0;
	snprintf(arch, len, "sm_%d", cc);
	return 1;
}

void
tl_gpuinfo_kernel(struct tl_gpuinfo *g, const char *name)
{
	char a[16];

	if (!tl_kernel_name_arch(name, a, sizeof(a)))
		return;
	if (g->kernel_arch[0] == '\0' || (strncmp(a, "sm_", 3) == 0 &&
	    strncmp(g->kernel_arch, "sm_", 3) == 0 &&
	    atoi(a + 3) > atoi(g->kernel_arch + 3)))
		snprintf(g->kernel_arch, sizeof(g->kernel_arch), "%s", a);
}
