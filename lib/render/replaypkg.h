/* See LICENSE file for copyright and license details. */
#ifndef TL_REPLAYPKG_H
#define TL_REPLAYPKG_H

/*
 * tl-replay's input and output around lib/render/replay: the op stream
 * read into replay groups (each row's efficiency from its pct_roofline
 * column, else from lib/model/roweff on a GPU), and the package written
 * as a directory or as a ZIP archive: the IR (replay_ir.json), the runner
 * (replay.py, executable) and the README.
 */
#include <stdio.h>

#include "model/hwauto.h"
#include "model/hwspec.h"
#include "render/replay.h"

/*
 * Add the rows of the op stream files (none = stdin) to r.  hw (each
 * row's GPU, or NULL for none) and roof give the efficiency of rows
 * without pct_roofline; bottlenecks
 * says the rows will be selected by the replay rule, which needs
 * pct_gpu_time and an efficiency.  A row whose arguments do not parse is
 * left out with a warning (one, then a count); other errors die.
 */
void tl_replay_read(struct tl_replay *r, char *const *files, int nfiles,
    struct tl_hwauto *hw, enum tl_roof roof, int bottlenecks);
/* Write the IR of r to fp. */
void tl_replay_print(const struct tl_replay *r, FILE *fp);
/*
 * Write the package into the directory dir (made when absent), replacing
 * the previous one there as a whole (common/outfile).
 */
void tl_replay_write_dir(struct tl_replay *r, const char *dir);
/* Write the package as the ZIP archive file, in a folder named for it. */
void tl_replay_write_zip(struct tl_replay *r, const char *file);

#endif
