/*
 * archive_io.h: libarchive, loaded on first use (util/dynlib.c says why):
 * reading LKP's compressed raw files (proc-vmstat.gz, ...) and, for the
 * report bundle, the functions report/bundle.c calls through the table;
 * the VM's initramfs (cpio) and the tar a guest sends back (run/vm.c).
 */
#ifndef PERFSIFT_ARCHIVE_IO_H
#define PERFSIFT_ARCHIVE_IO_H

#include <archive.h>
#include <archive_entry.h>
#include "util/strbuf.h"

/* every libarchive function perfsift calls */
#define ARCHIVE_IO_FUNCS(X) \
	X(archive_read_new) X(archive_read_support_filter_all) \
	X(archive_read_support_format_raw) X(archive_read_open_filename) \
	X(archive_read_next_header) X(archive_read_data) \
	X(archive_read_free) X(archive_filter_code) X(archive_error_string) \
	X(archive_write_new) X(archive_write_add_filter_gzip) \
	X(archive_write_set_format_pax_restricted) \
	X(archive_write_open_filename) X(archive_write_header) \
	X(archive_write_data) X(archive_write_close) X(archive_write_free) \
	X(archive_entry_new) X(archive_entry_free) \
	X(archive_entry_set_pathname) X(archive_entry_set_size) \
	X(archive_entry_set_filetype) X(archive_entry_set_perm) \
	X(archive_entry_set_mtime) \
	X(archive_write_set_format_cpio_newc) X(archive_entry_set_symlink) \
	X(archive_read_support_format_tar) X(archive_entry_pathname) \
	X(archive_entry_filetype)

struct archive_io_api {
#define ARCHIVE_IO_MEMBER(f) __typeof__(f) *f;
	ARCHIVE_IO_FUNCS(ARCHIVE_IO_MEMBER)
#undef ARCHIVE_IO_MEMBER
};

/* 0 once libarchive is loaded; -1 with err naming what needs it */
int archive_io_load(const char *what, struct strbuf *err);
/* the table; BUG() before a successful archive_io_load() */
const struct archive_io_api *archive_io_api(void);

/*
 * The decompressed text of a compressed file (gzip, xz, bzip2, ...:
 * libarchive's raw format with every filter) appended to sb, at most
 * max bytes.  -1 with why ("cannot decompress 'F': ...") otherwise,
 * also for a file that is not compressed at all.
 */
int archive_io_read_compressed(struct strbuf *sb, const char *path,
			       size_t max, struct strbuf *why);

#ifndef ARCHIVE_IO_IMPL
#define archive_write_new (archive_io_api()->archive_write_new)
#define archive_write_add_filter_gzip (archive_io_api()->archive_write_add_filter_gzip)
#define archive_write_set_format_pax_restricted (archive_io_api()->archive_write_set_format_pax_restricted)
#define archive_write_open_filename (archive_io_api()->archive_write_open_filename)
#define archive_write_header (archive_io_api()->archive_write_header)
#define archive_write_data (archive_io_api()->archive_write_data)
#define archive_write_close (archive_io_api()->archive_write_close)
#define archive_write_free (archive_io_api()->archive_write_free)
#define archive_entry_new (archive_io_api()->archive_entry_new)
#define archive_entry_free (archive_io_api()->archive_entry_free)
#define archive_entry_set_pathname (archive_io_api()->archive_entry_set_pathname)
#define archive_entry_set_size (archive_io_api()->archive_entry_set_size)
#define archive_entry_set_filetype (archive_io_api()->archive_entry_set_filetype)
#define archive_entry_set_perm (archive_io_api()->archive_entry_set_perm)
#define archive_entry_set_mtime (archive_io_api()->archive_entry_set_mtime)
#define archive_error_string (archive_io_api()->archive_error_string)
#define archive_write_set_format_cpio_newc (archive_io_api()->archive_write_set_format_cpio_newc)
#define archive_entry_set_symlink (archive_io_api()->archive_entry_set_symlink)
#define archive_read_new (archive_io_api()->archive_read_new)
#define archive_read_support_filter_all (archive_io_api()->archive_read_support_filter_all)
#define archive_read_support_format_tar (archive_io_api()->archive_read_support_format_tar)
#define archive_read_open_filename (archive_io_api()->archive_read_open_filename)
#define archive_read_next_header (archive_io_api()->archive_read_next_header)
#define archive_read_data (archive_io_api()->archive_read_data)
#define archive_read_free (archive_io_api()->archive_read_free)
#define archive_entry_pathname (archive_io_api()->archive_entry_pathname)
#define archive_entry_filetype (archive_io_api()->archive_entry_filetype)
#endif

#endif
