/* See LICENSE file for copyright and license details. */
/* The replay IR: grouping, argument conversion, the replay rule. */
#include <math.h>
#include <stdlib.h>

#include "render/replay.h"
#include "unit.h"

static struct tl_replay_row
row(const char *name, const char *dims, const char *types,
    const char *strides, const char *concrete, int64_t ns, double pct,
    double eff)
{
	struct tl_replay_row r;

	memset(&r, 0, sizeof(r));
	r.trace = "t.json";
	r.name = name;
	r.category = "batchnorm";
	r.direction = "fwd";
	r.dims = dims;
	r.types = types;
	r.strides = strides;
	r.concrete = concrete;
	r.kernels = "[{\"name\":\"bn_fwd\",\"dur\":1},{\"name\":\"bn_fwd\"}]";
	r.parent_name = "aten::batch_norm";
	r.module = "Net/BatchNorm2d_0";
	r.call_stack = "";
	r.perf_model = "";
	r.params = "";
	r.count = 1;
	r.time_ns = ns;
	r.min_ns = r.max_ns = ns;
	r.pct_gpu_time = pct;
	r.pct_roofline = eff;
	return r;
}

#define BN_DIMS "[[8,16,4,4],[16],[16],[16],[16],[],[],[],[]]"
#define BN_TYPES "[\"c10::BFloat16\",\"float\",\"float\",\"float\",\"float\"," \
    "\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]"
#define BN_STRIDES "[[256,16,4,1],[1],[1],[1],[1],[],[],[],[]]"
#define BN_CI "[\"\",\"\",\"\",\"\",\"\",\"False\",\"0.10000000000000001\"," \
    "\"1.\",\"True\"]"

int
main(void)
{
	struct tl_replay *r = tl_replay_new();
	struct tl_replay_row a = row("aten::batch_norm", BN_DIMS, BN_TYPES,
	    BN_STRIDES, BN_CI, 3000, 6, 20);
	struct tl_replay_row b = row("aten::cat", "[[[2,3],[2,3]],[]]",
	    "[\"TensorList\",\"Scalar\"]", "[[[3,1],[3,1]],[]]", "[\"\",\"-1\"]",
	    1000, 2, NAN);
	struct tl_replay_row c = row("aten::mean", "[[4,5],[],[],[]]",
	    "[\"float\",\"ScalarList\",\"Scalar\",\"\"]", "[[5,1],[],[],[]]",
	    "[\"\",\"[-1, -2]\",\"\",\"\"]", 500, 1, NAN);
	struct tl_findrules rules;
	struct tl_jbuf ir = { NULL, 0, 0 }, md = { NULL, 0, 0 };
	const char *err;

	CHECK(tl_replay_add(r, &a, &err) == 0);
	a.time_ns = a.min_ns = a.max_ns = 5000;
	a.pct_roofline = 40;
	CHECK(tl_replay_add(r, &a, &err) == 0);	/* same signature */
	CHECK(tl_replay_add(r, &b, &err) == 0);
	CHECK(tl_replay_add(r, &c, &err) == 0);
	b.dims = "[[2,3,";
	CHECK(tl_replay_add(r, &b, &err) == -1);	/* malformed: left out */
	CHECK(tl_replay_count(r) == 3);
	tl_replay_sort(r);
	tl_replay_ir(r, &ir);
	/* Two instances: 8 us in all, mean 4, min 3, max 5, 12 %, eff 30. */
	CHECK(strstr(ir.s, "\"count\": 2,\n  \"kernel_time_us\": {\"total\":8,"
	    "\"mean\":4,\"min\":3,\"max\":5},\n  \"pct_gpu_time\": 12,\n"
	    "  \"pct_roofline\": 30,") != NULL);
	CHECK(strstr(ir.s, "{\"type\":\"c10::BFloat16\",\"kind\":\"tensor\","
	    "\"shape\":[8,16,4,4],\"strides\":[256,16,4,1],\"init\":\"normal\"}")
	    != NULL);
	/* running_var (slot 4) positive, running_mean (3) normal. */
	CHECK(strstr(ir.s, "\"shape\":[16],\"strides\":[1],\"init\":\"positive\"")
	    != NULL);
	CHECK(strstr(ir.s, "{\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":"
	    "false},\n    {\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":0.1},"
	    "\n    {\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":1.0},")
	    != NULL);
	CHECK(strstr(ir.s, "\"kernels\": [\"bn_fwd\"]") != NULL);
	CHECK(strstr(ir.s, "{\"type\":\"TensorList\",\"kind\":\"tensor_list\","
	    "\"shapes\":[[2,3],[2,3]],\"strides\":[[3,1],[3,1]]},\n    "
	    "{\"type\":\"Scalar\",\"kind\":\"scalar\",\"value\":-1}") != NULL);
	CHECK(strstr(ir.s, "{\"type\":\"ScalarList\",\"kind\":\"list\","
	    "\"value\":[-1,-2]},\n    {\"type\":\"Scalar\",\"kind\":\"scalar\","
	    "\"value\":null},\n    {\"type\":\"\",\"kind\":\"none\"}") != NULL);
	/* Ordered by total time: batch_norm, cat, mean. */
	CHECK(strstr(ir.s, "\"index\": 1,\n  \"op\": \"aten::batch_norm\"")
	    != NULL);
	CHECK(strstr(ir.s, "\"index\": 3,\n  \"op\": \"aten::mean\"") != NULL);
	tl_replay_readme_text(r, "replay_ir.json", "replay.py", &md);
	CHECK(strstr(md.s, "### 1. `aten::batch_norm`: batch normalisation, "
	    "forward") != NULL);
	CHECK(strstr(md.s, "- Module: `Net/BatchNorm2d_0`") != NULL);
	CHECK(strstr(md.s, "@OPS@") == NULL && strstr(md.s, "@SUMMARY@") == NULL &&
	    strstr(md.s, "rocprofv3") != NULL);
	/* The rule: > 10 % and < 30 %: batch_norm has 12 % but 30 %. */
	tl_findrules_default(&rules);
	tl_replay_select(r, &rules);
	CHECK(tl_replay_count(r) == 0);
	tl_replay_free(r);

	r = tl_replay_new();
	a.pct_roofline = 10;
	a.pct_gpu_time = 12;
	CHECK(tl_replay_add(r, &a, &err) == 0);
	a.dims = "[[8,16,4,4],[16],[16],[16],[16],[],[],[],[],[]]";
	a.pct_gpu_time = 9;
	CHECK(tl_replay_add(r, &a, &err) == 0);	/* 9 %: not picked */
	tl_replay_select(r, &rules);
	tl_replay_sort(r);
	CHECK(tl_replay_count(r) == 1);
	tl_replay_ir(r, &ir);
	CHECK(strstr(ir.s, "\"pct_gpu_time\": 12,") != NULL);
	tl_replay_free(r);
	tl_jb_free(&ir);
	tl_jb_free(&md);
	return unit_done("replay");
}
