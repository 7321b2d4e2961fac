/* See LICENSE file for copyright and license details. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/json.h"
#include "common/util.h"
#include "trace/collective.h"

/*
 * Collective types as the names spell them once lower-cased without '_'
 * (PyTorch's "allreduce", "_allgather_base", "reduce_scatter_tensor_coalesced";
 * NCCL's and RCCL's ncclKernel_AllReduce_RING_LL_Sum_float and
 * ncclDevKernel_ReduceScatter_Sum_f32_RING_LL; PyTorch's symmetric-memory
 * kernels multimem_all_reduce_kernel, one_shot_all_reduce_kernel,
 * two_shot_all_reduce_kernel, multimem_all_gather_kernel), the first
 * that occurs: reducescatter before reduce and scatter, allgather before
 * gather.
 */
static const struct {
	const char *spelt, *type;
} types[] = {
	{ "reducescatter", "reduce_scatter" },
	{ "allreduce", "all_reduce" },
	{ "allgather", "all_gather" },
	{ "alltoall", "all_to_all" },
	{ "broadcast", "broadcast" },
	{ "sendrecv", "send_recv" },
	{ "reduce", "reduce" },
	{ "gather", "gather" },
	{ "scatter", "scatter" },
	{ "send", "send" },
	{ "recv", "recv" },
	{ "barrier", "barrier" },
};

const char *
tl_coll_type(const char *name)
{
	char buf[256];
	size_t i, n = 0;

	for (i = 0; name[i] != '\0' && name[i] != '(' && n + 1 < sizeof(buf);
	    i++)
		if (name[i] != '_')
			buf[n++] = (char)tolower((unsigned char)name[i]);
	buf[n] = '\0';
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strstr(buf, types[i].spelt) != NULL)
			return types[i].type;
	return NULL;
}

/*
 * Element sizes of c10::ScalarType names, as record_param_comms writes its
 * dtype (c10/core/ScalarType.h: AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS).
 */
static const struct {
	const char *name;
	int bytes;
} scalar_types[] = {
	{ "Byte", 1 }, { "Char", 1 }, { "Short", 2 }, { "Int", 4 },
	{ "Long", 8 }, { "Half", 2 }, { "Float", 4 }, { "Double", 8 },
	{ "ComplexHalf", 4 }, { "ComplexFloat", 8 }, { "ComplexDouble", 16 },
	{ "Bool", 1 }, { "QInt8", 1 }, { "QUInt8", 1 }, { "QInt32", 4 },
	{ "BFloat16", 2 }, { "QUInt4x2", 1 }, { "QUInt2x4", 1 },
	{ "Float8_e5m2", 1 }, { "Float8_e4m3fn", 1 }, { "Float8_e5m2fnuz", 1 },
	{ "Float8_e4m3fnuz", 1 }, { "UInt16", 2 }, { "UInt32", 4 },
	{ "UInt64", 8 }, { "Float8_e8m0fnu", 1 },
};

int
tl_coll_dtype_bytes(const char *dtype)
{
	size_t i;

	for (i = 0; i < sizeof(scalar_types) / sizeof(scalar_types[0]); i++)
		if (strcasecmp(dtype, scalar_types[i].name) == 0)
			return scalar_types[i].bytes;
	return 0;
}

static uint32_t
comm_of(const struct tl_trace *t, int i)
{
	struct tl_args a;

	if (t->ev[i].kind != TL_EV_CPU_OP)
		return 0;
	tl_ev_args(t, &t->ev[i], &a);
	return a.comm;
}

/* The first comm arguments in the subtree of host event i (preorder). */
static uint32_t
comm_below(const struct tl_trace *t, int i, int depth)
{
	uint32_t c;
	int k;

	if ((c = comm_of(t, i)) != 0 || depth > 64 ||
	    !TL_IS_HOST(t->ev[i].kind))
		return c;
	for (k = t->ev[i].child; k >= 0; k = t->ev[k].sibling)
		if (TL_IS_HOST(t->ev[k].kind) &&
		    (c = comm_below(t, k, depth + 1)) != 0)
			return c;
	return 0;
}

/* The comm arguments of row r: below its op, else above it. */
static uint32_t
row_comm(const struct tl_trace *t, const struct tl_row *r)
{
	uint32_t c;
	int p;

	if (!TL_IS_HOST(t->ev[r->op].kind))
		return 0;
	if ((c = comm_below(t, r->op, 0)) != 0)
		return c;
	for (p = t->ev[r->op].parent; p >= 0; p = t->ev[p].parent)
		if ((c = comm_of(t, p)) != 0)
			return c;
	return 0;
}

/* Token of key in the comm object text s, with j parsed; -1 absent. */
static int
member(struct tl_json *j, const char *key)
{
	return tl_json_get(j, 0, key, strlen(key));
}

static int64_t
member_int(struct tl_json *j, const char *key)
{
	return tl_json_get_i64(j, 0, key, TL_NONE);
}

/* The group's key of row i: its process group's name, "" unknown. */
struct keyed {
	const char *pg;
	int64_t ts;
	uint32_t uid;
	size_t row;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->pg, y->pg);

	if (c != 0)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static int
is_coll(const struct tl_row *r)
{
	return r->kind == TL_ROW_COMM || strcmp(r->category, "comm") == 0;
}

void
tl_colls_find(const struct tl_trace *t, const struct tl_rows *rows,
    struct tl_colls *c)
{
	struct keyed *k = NULL;
	struct tl_json j;
	char **pgs = NULL;
	size_t i, nk = 0, capk = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < rows->n && !is_coll(&rows->v[i]); i++)
		;
	if (i == rows->n)
		return;
	c->n = rows->n;
	c->comm = tl_calloc(rows->n, sizeof(*c->comm));
	c->seq = tl_calloc(rows->n, sizeof(*c->seq));
	c->ordered = tl_calloc(rows->n, 1);
	pgs = tl_calloc(rows->n, sizeof(*pgs));
	tl_json_init(&j);
	for (i = 0; i < rows->n; i++) {
		const struct tl_row *r = &rows->v[i];
		const char *err, *s = "";
		size_t n = 0;
		int pg;

		c->seq[i] = TL_NONE;
		if (!is_coll(r))
			continue;
		c->comm[i] = row_comm(t, r);
		if (c->comm[i] != 0 && tl_json_parse(&j, tl_str(t->str,
		    c->comm[i]), tl_strsize(t->str, c->comm[i]), &err) > 0) {
			c->seq[i] = member_int(&j, "seq");
			if ((pg = member(&j, "pg_name")) >= 0 &&
			    tl_json_type(&j, pg) == TL_J_STRING)
				s = tl_json_text(&j, pg, &n);
		}
		if (c->seq[i] != TL_NONE)
			continue;
		pgs[i] = tl_malloc(n + 1);
		memcpy(pgs[i], s, n);
		pgs[i][n] = '\0';
		tl_grow(&k, &capk, nk + 1, sizeof(*k));
		k[nk].pg = pgs[i];
		k[nk].ts = t->ev[r->op].ts;
		k[nk].uid = t->ev[r->op].uid;
		k[nk].row = i;
		nk++;
	}
	/* Without the trace's Seq: the order among the group's on this rank. */
	if (nk > 1)
		qsort(k, nk, sizeof(*k), cmp_keyed);
	for (i = 0; i < nk; i++) {
		c->seq[k[i].row] = i > 0 && strcmp(k[i].pg, k[i - 1].pg) == 0 ?
		    c->seq[k[i - 1].row] + 1 : 0;
		c->ordered[k[i].row] = 1;
	}
	for (i = 0; i < rows->n; i++)
		free(pgs[i]);
	free(pgs);
	free(k);
	tl_json_free(&j);
}

void
tl_colls_free(struct tl_colls *c)
{
	free(c->comm);
	free(c->seq);
	free(c->ordered);
	memset(c, 0, sizeof(*c));
}

/* ",\"key\":" or "{\"key\":" */
static void
key(struct tl_jbuf *jb, const char *k)
{
	tl_jb_lit(jb, jb->n > 0 ? ",\"" : "{\"");
	tl_jb_lit(jb, k);
	tl_jb_lit(jb, "\":");
}

/*
 * The algorithm and protocol NCCL's kernel names carry
 * (ncclKernel_AllReduce_RING_LL_Sum_float: RING, LL; NCCL's
 * src/include/device.h names them), the first of each.
 */
static void
algo_proto(const char *name, const char **algo, const char **proto)
{
	static const char *const algos[] = {
		"RING", "TREE", "NVLS", "NVLS_TREE", "COLLNET_DIRECT",
		"COLLNET_CHAIN", "PAT"
	};
	static const char *const protos[] = { "LL", "LL128", "SIMPLE" };
	const char *s = name, *e;
	size_t i, n;

	if (strncmp(name, "nccl", 4) != 0 && strncmp(name, "rccl", 4) != 0)
		return;
	for (; *s != '\0' && *s != '('; s = *e == '_' ? e + 1 : e) {
		e = s + strcspn(s, "_(");
		n = (size_t)(e - s);
		for (i = 0; *algo == NULL && i < sizeof(algos) /
		    sizeof(algos[0]); i++)
			if (strlen(algos[i]) == n && memcmp(s, algos[i], n) == 0)
				*algo = algos[i];
		for (i = 0; *proto == NULL && i < sizeof(protos) /
		    sizeof(protos[0]); i++)
			if (strlen(protos[i]) == n &&
			    memcmp(s, protos[i], n) == 0)
				*proto = protos[i];
		if (*e == '\0')
			break;
	}
}

void
tl_coll_json(const struct tl_colls *c, const struct tl_trace *t,
    const struct tl_rows *rows, size_t i, struct tl_jbuf *jb)
{
	const struct tl_row *r = &rows->v[i];
	const char *type = NULL, *src = NULL, *algo = NULL, *proto = NULL;
	const char *comm, *err;
	struct tl_json j;
	int64_t in = TL_NONE, out = TL_NONE;
	int bytes = 0, k;
	size_t n;

	tl_jb_reset(jb);
	if (c->n == 0 || i >= c->n || c->seq[i] == TL_NONE)
		return;
	tl_json_init(&j);
	comm = tl_str(t->str, c->comm[i]);
	if (c->comm[i] != 0 && tl_json_parse(&j, comm, strlen(comm),
	    &err) > 0) {
		char name[64] = "", dt[64] = "";

		if ((k = member(&j, "name")) >= 0) {
			const char *s = tl_json_text(&j, k, &n);

			if (n < sizeof(name))
				memcpy(name, s, n), name[n] = '\0';
			if ((type = tl_coll_type(name)) != NULL)
				src = "args";
		}
		if ((k = member(&j, "dtype")) >= 0) {
			const char *s = tl_json_text(&j, k, &n);

			if (n < sizeof(dt)) {
				memcpy(dt, s, n);
				dt[n] = '\0';
				bytes = tl_coll_dtype_bytes(dt);
			}
		}
		in = member_int(&j, "in_nelems");
		out = member_int(&j, "out_nelems");
	}
	for (k = 0; k < r->ngpu; k++) {
		const char *kn = tl_ev_name(t, &t->ev[tl_row_gpu(rows, r)[k]]);

		if (type == NULL && (type = tl_coll_type(kn)) != NULL)
			src = "kernel";
		algo_proto(kn, &algo, &proto);
	}
	/* The trace's members, then what tl derives from them. */
	if (c->comm[i] != 0) {
		tl_jb_raw(jb, comm, strlen(comm) - 1);
	}
	key(jb, "type");
	if (type != NULL)
		tl_jb_str(jb, type);
	else
		tl_jb_lit(jb, "null");
	key(jb, "type_source");
	tl_jb_str(jb, src != NULL ? src : "none");
	if (bytes > 0 && in != TL_NONE && in <= INT64_MAX / bytes) {
		key(jb, "in_bytes");
		tl_jb_int(jb, in * bytes);
	}
	if (bytes > 0 && out != TL_NONE && out <= INT64_MAX / bytes) {
		key(jb, "out_bytes");
		tl_jb_int(jb, out * bytes);
	}
	if (algo != NULL) {
		key(jb, "algorithm");
		tl_jb_str(jb, algo);
	}
	if (proto != NULL) {
		key(jb, "protocol");
		tl_jb_str(jb, proto);
	}
	if (c->ordered[i]) {
		key(jb, "seq");
		tl_jb_int(jb, c->seq[i]);
	}
	key(jb, "seq_source");
	tl_jb_str(jb, c->ordered[i] ? "order" : "trace");
	tl_jb_lit(jb, "}");
	tl_json_free(&j);
}
