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
