/* See LICENSE file for copyright and license details. */
#ifndef TL_HWSPEC_H
#define TL_HWSPEC_H

/*
 * The GPU specification table (share/tl/gpus.tsv, built into every
 * program; tl-efficiency --hw NAME).  One row per fact: gpu, key, kind,
 * value, source; the file's leading comment lines describe the keys.
 * Every number is per device as PyTorch sees it (one MI250X GCD, not the
 * package) and carries its source.
 *
 * Roofs.  A compute spec ("matrix_bf16", TraceLens' Compute Spec) has up
 * to three figures: the dense peak, the sparse peak (never used as a
 * roof) and the achievable maximum ("MAF", measured).  Bandwidth has a
 * peak and, optionally, an achievable figure.  A run measures every op
 * on every GPU against one kind of roof (enum tl_roof, --roof):
 *   TL_ROOF_ACHIEVABLE  the achievable figures;
 *   TL_ROOF_PEAK        the dense data-sheet peaks.
 * Where a GPU lacks the figure of the run's kind for a compute spec (or
 * for its bandwidth), the figure of the other kind stands in, and the
 * *used outputs below say which kind each number is, so that the
 * reports can name the stand-ins: no built-in GPU has an achievable
 * bandwidth, only MI300X and MI325X (TraceLens' figures) achievable
 * compute, and MI300X no published vector FP16/BF16 peak.
 *
 * Pointers returned here stay valid until the next tl_hw_load.
 */
#include <stddef.h>
#include <stdio.h>

enum tl_roof { TL_ROOF_ACHIEVABLE, TL_ROOF_PEAK };

/*
 * The --roof argument of the programs: "achievable" or "peak"; 0, or -1
 * for anything else.  tl_roof_name is the inverse.
 */
int tl_roof_parse(const char *s, enum tl_roof *roof);
const char *tl_roof_name(enum tl_roof roof);

struct tl_hw;

/*
 * Load the built-in table, or FILE when path is not NULL (same format;
 * it replaces the built-in one).  0, or -1 with "FILE:LINE: what" in err
 * (the previous table stays).  The other functions load the built-in
 * table on first use when none was loaded.
 */
int tl_hw_load(const char *path, char *err, size_t errlen);

/*
 * A GPU by table key or alias; case, '-', '_' and ' ' are not significant
 * ("MI300X", "h100_sxm").  NULL if unknown.
 */
const struct tl_hw *tl_hw_find(const char *name);

/*
 * The GPU of a deviceProperties "name" (exact, or a table pattern ending
 * in '*', case-insensitive; the longest pattern wins).  nsm > 0 (numSms)
 * drops GPUs with another known CU/SM count, so a partitioned MI300X (38
 * CUs) or an unknown Radeon gives NULL; mem_bytes > 0 (totalGlobalMem)
 * drops GPUs whose memory_gb is more than 10% from it in GiB.  If several
 * remain, the one whose pattern is marked "default" wins, else NULL
 * (ambiguous).
 */
const struct tl_hw *tl_hw_match_device(const char *devname, int nsm);
const struct tl_hw *tl_hw_match_device_mem(const char *devname, int nsm,
    long long mem_bytes);

/* What a trace says about its GPU (tl-parse's trace_gpu* columns). */
struct tl_gpuid {
	const char *name;	/* deviceProperties name; NULL or "" = none */
	const char *arch;	/* "gfx94", "sm_90"; NULL or "" = unknown */
	long long compute_units;	/* CUs or SMs; 0 = unknown */
	long long memory_bytes;		/* 0 = unknown */
	/* "sm_80": the lowest the kernel names allow; NULL or "" = none */
	const char *kernel_arch;
};

/*
 * The GPU of a trace from its name, architecture, compute units and
 * memory together.  With a name, the GPUs whose device_name patterns
 * match it best (as tl_hw_match_device_mem), less those whose arch,
 * compute_units or memory_gb (within 10 %) differ from what the trace
 * gives.  With no name, or a name no pattern matches (a board or variant
 * the table does not list), the GPUs whose arch, compute_units and
 * memory_gb all match, when the trace gives all three.  One GPU left:
 * it; several, and a name matched, with one marked default: that one;
 * else NULL (unknown or ambiguous).  cand (may be NULL) receives the
 * names of the GPUs left, ", "-separated ("" = none: unknown).
 */
const struct tl_hw *tl_hw_identify(const struct tl_gpuid *id, char *cand,
    size_t candlen);
/*
 * 1 if a device_name pattern of the table matches devname (an unknown
 * name that tl_hw_identify matched by its figures gives 0).
 */
int tl_hw_name_known(const char *devname);
/*
 * The GPU for a message: "GPU 'NAME' (gfx94, 304 compute units, 192.0
 * GiB)", leaving out what is unknown; "GPU" alone when nothing is known.
 */
void tl_gpuid_describe(const struct tl_gpuid *id, char *buf, size_t len);
/*
 * Why tl_hw_identify found no GPU, for a warning: the GPU described,
 * then "could be any of CAND", "is not in the GPU table ...", or "is not
 * named: the trace has no deviceProperties"; with the kernels'
 * architecture where the trace gives no name ("; its kernels were built
 * for sm_70 (Volta) or later").
 */
void tl_gpuid_unknown(const struct tl_gpuid *id, const char *cand,
    char *buf, size_t len);

/* The number of GPUs and the i-th in table order, for listing. */
size_t tl_hw_count(void);
const struct tl_hw *tl_hw_at(size_t i);

const char *tl_hw_name(const struct tl_hw *hw);		/* "mi300x" */
const char *tl_hw_description(const struct tl_hw *hw);	/* "" if none */

/*
 * Bandwidth in TB/s (1e12 B/s); 0 = unknown: the figure of the run's
 * kind roof, else the other kind's (a stand-in).  *used (may be NULL)
 * is "achievable" or "peak", the kind returned, NULL with 0; *source
 * (may be NULL) the row's source.
 */
double tl_hw_hbm(const struct tl_hw *hw, enum tl_roof roof,
    const char **used, const char **source);
double tl_hw_hbm_tbs(const struct tl_hw *hw, enum tl_roof roof,
    const char **source);

/*
 * TFLOPS (TOPS for int8) for a compute spec "matrix_bf16", chosen as
 * tl_hw_hbm chooses: the run's kind, else the other kind; never the
 * sparse figure.
 */
double tl_hw_tflops(const struct tl_hw *hw, const char *spec,
    enum tl_roof roof, const char **used, const char **source);

/* The kinds of figure a row of the table can state. */
enum tl_figkind { TL_FIG_PEAK, TL_FIG_SPARSE, TL_FIG_ACHIEVABLE, TL_FIG_N };

/*
 * The figure of exactly kind k for key (a compute spec, or "hbm_tbs"),
 * 0 if the table has none; *source (may be NULL) its source.
 */
double tl_hw_figure(const struct tl_hw *hw, const char *key,
    enum tl_figkind k, const char **source);
/* "peak", "sparse", "achievable". */
const char *tl_figkind_name(enum tl_figkind k);

double tl_hw_memory_gb(const struct tl_hw *hw);		/* 0 = unknown */
/*
 * The peak bandwidth of the GPU's links to the other GPUs of its node
 * (NVLink, Infinity Fabric), GB/s in one direction summed over its links
 * (the figure a collective's bus bandwidth approaches), 0 unknown; the
 * links' name and the figure's source through name and source.
 */
double tl_hw_link_gbs(const struct tl_hw *hw, const char **name,
    const char **source);
int tl_hw_devices_per_package(const struct tl_hw *hw);	/* 1 unless said */
int tl_hw_compute_units(const struct tl_hw *hw);	/* 0 = unknown */
/* The i-th ISA name of the table's arch rows, NULL past the last. */
const char *tl_hw_arch(const struct tl_hw *hw, size_t i);

/*
 * Print the table (--hw list) as TSV with a header, or CSV when csv != 0:
 * the file's columns gpu, key, kind, value, source, one row per fact in
 * table order, so the output loads back with tl_hw_load.
 */
void tl_hw_print(FILE *fp, int csv);
/*
 * One row per GPU: gpu, aliases, description, hbm_tbs, memory_gb,
 * devices_per_package, compute_units, matrix_bf16_tflops,
 * matrix_bf16_achievable_tflops.
 */
void tl_hw_print_gpus(FILE *fp, int csv);
/*
 * Every roof figure of hw, or of every GPU when hw is NULL (--hw show):
 * one row per GPU, key (compute spec or hbm_tbs) and kind, in table
 * order, with its value, which run kind uses it as a roof
 * (roof_achievable, roof_peak: "yes", "stand-in" or empty) and its
 * source (lib/stream/schema: TL_TAB_ROOFS).
 */
void tl_hw_print_roofs(FILE *fp, int csv, const struct tl_hw *hw);

#endif
