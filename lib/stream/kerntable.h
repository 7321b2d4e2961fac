/* See LICENSE file for copyright and license details. */
#ifndef TL_KERNTABLE_H
#define TL_KERNTABLE_H

/*
 * The kernel-name table (share/tl/kernels.tsv, built into every program):
 * a GPU kernel's category, family and class on the GPU timeline from its
 * name alone.  Patterns match the whole name in any case, '*' standing for
 * any run of characters; the first matching row wins.  The table's
 * comments describe the columns.
 */

/* What a kernel counts as on the GPU timeline. */
enum tl_gpuclass { TL_GC_COMPUTE, TL_GC_COMM, TL_GC_MEMCPY };

struct tl_kerninfo {
	const char *category;	/* a value of the category table */
	const char *family;	/* "hipBLASLt/Tensile GEMM" */
	enum tl_gpuclass timeline;
	int ops;		/* also categorises an op no op table names */
};

/* Load the built-in table, or FILE when path is not NULL; 0 or -1. */
int tl_kerntable_load(const char *path);
/*
 * The entry whose pattern matches name; for a name no row matches, the
 * default entry (category other, family "other kernels", compute).
 */
const struct tl_kerninfo *tl_kerntable_find(const char *name);
/* 1 if the glob pattern ('*' only, any case) matches all of s. */
int tl_glob_ci(const char *pattern, const char *s);

#endif
