/* See LICENSE file for copyright and license details. */
#ifndef TL_ZIPW_H
#define TL_ZIPW_H

/*
 * Writing a ZIP archive (PKWARE APPNOTE 6.3, the subset every unzip
 * reads): regular files only, each raw-deflated with zlib or stored when
 * deflating does not make it smaller, a fixed time stamp (1980-01-01
 * 00:00) so that the same files give the same bytes, Unix modes, no
 * ZIP64 (at most 65535 files, each and the archive under 4 GiB), no
 * encryption.  Errors end the program through tl_die ("FILE: what").
 */
#include <stddef.h>

struct tl_zip;

/*
 * Start the archive path: written under a temporary name beside it and
 * renamed over it by tl_zip_close (common/outfile), so that an existing
 * archive survives a failed write.
 */
struct tl_zip *tl_zip_create(const char *path);
/* Add a file named name (relative, '/'-separated) with Unix mode. */
void tl_zip_add(struct tl_zip *z, const char *name, unsigned mode,
    const void *data, size_t n);
/* Write the central directory, close the file and rename it into place. */
void tl_zip_close(struct tl_zip *z);

#endif
